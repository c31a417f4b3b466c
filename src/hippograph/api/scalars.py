"""Custom scalars: DateTime (ISO-8601, UTC out, a zone required in) and JSON."""

from __future__ import annotations

from datetime import MAXYEAR, UTC, datetime
from typing import Any

import graphene
from graphene.types.generic import GenericScalar

from graphql import GraphQLError, StringValueNode, ValueNode

# Nothing Hippograph remembers happened before 1900 (capture refuses it too).
_EARLIEST_YEAR = 1900


class DateTime(graphene.Scalar):
    """An ISO-8601 date and time such as 2023-05-08T13:56:00Z. Inputs must carry a time zone
    (Z or an offset); outputs are always UTC."""

    @staticmethod
    def serialize(value: datetime) -> str:
        return value.astimezone(UTC).isoformat().replace("+00:00", "Z")

    @staticmethod
    def parse_value(value: Any) -> datetime:
        if not isinstance(value, str):
            raise GraphQLError(f"DateTime must be an ISO-8601 string, not {type(value).__name__}")
        try:
            parsed = datetime.fromisoformat(value)
        except ValueError as error:
            raise GraphQLError(f"DateTime {value!r} is not ISO-8601, e.g. 2023-05-08T13:56:00Z") from error
        if parsed.tzinfo is None:
            raise GraphQLError(f"DateTime {value!r} has no time zone; add Z or an offset such as +02:00")
        # Checked before converting: at either end of the calendar an offset pushes it out of range.
        if not _EARLIEST_YEAR <= parsed.year < MAXYEAR or parsed.astimezone(UTC).year < _EARLIEST_YEAR:
            raise GraphQLError(f"DateTime {value!r} is out of range: its year, in UTC too, must be 1900 to 9998")
        return parsed.astimezone(UTC)

    @classmethod
    def parse_literal(cls, node: ValueNode, _variables: Any = None) -> datetime:
        if not isinstance(node, StringValueNode):
            raise GraphQLError("DateTime must be an ISO-8601 string")
        return cls.parse_value(node.value)


class JSON(GenericScalar):
    """Any JSON value."""
