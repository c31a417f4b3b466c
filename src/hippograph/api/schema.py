"""The GraphQL schema: the query, mutation and subscription roots assembled, with the wrappers
every root field gets."""

from __future__ import annotations

import graphene

from hippograph.api import types
from hippograph.api.defaults import fill_defaults_for_nulls
from hippograph.api.guard import guard_schema
from hippograph.api.instrument import instrument_schema
from hippograph.api.mutations import Mutation
from hippograph.api.queries import Query
from hippograph.api.subscriptions import Subscription

# Episode and Fact are reached only through the Memory interface, so they are named here.
schema = graphene.Schema(query=Query, mutation=Mutation, subscription=Subscription, types=[types.Episode, types.Fact])
# Every root field: an explicit null means the argument's default, then roles and budgets.
guard_schema(schema.graphql_schema, lambda context: context["runtime"].settings.limits)
fill_defaults_for_nulls(schema.graphql_schema)
instrument_schema(schema.graphql_schema)  # outermost: a refusal is counted under its code


def schema_sdl() -> str:
    """The schema as SDL, the form checked in at graphql/schema.graphql."""
    return str(schema).rstrip() + "\n"
