"""What an operation will cost, measured from its parsed document before any of it runs.

Aliases and fragments are counted where they are used, so a request cannot hide 300 recalls
behind aliases or one fragment spread many times. A field costs 1, plus what it selects; a
``recall`` costs its ``limit``, a ``captureBatch`` one per input, and a paginated list its ``first``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from graphql import (
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    InlineFragmentNode,
    OperationDefinitionNode,
    SelectionSetNode,
    value_from_ast_untyped,
)
from hippograph.kernel.errors import ErrorCode, HippographError

# Root fields whose cost is a field of their input argument, with its default.
_SIZED_BY = {"recall": ("input", "limit", 10)}
# Inputs counted one apiece.
_COUNTED_INPUTS = {"captureBatch": "inputs", "capture": "input", "captureMessages": "messages"}
# Lists sized by an argument of their own rather than a page's ``first``, and its default.
_SIZED_LISTS = {"sessionEpisodes": ("last", 20)}
# A paginated list's page size, and its default.
_PAGE_ARGUMENT = ("first", 20)
# Introspection spells a wrapped type as a chain of ofType (a non-null list of non-null ...), and
# GraphiQL asks for seven links of it. The chain follows the schema, not the data: no depth.
_NO_DEPTH = frozenset({"ofType"})


@dataclass(frozen=True)
class Shape:
    """What a budget looks at: the cost, how deeply fields nest, and the root fields; and the
    part of the cost spent on introspection (``__schema``, ``__type``), which no resolver of ours
    answers."""

    cost: int
    depth: int
    roots: tuple[str, ...]
    introspection: int


def measure(
    operation: OperationDefinitionNode,
    fragments: Mapping[str, FragmentDefinitionNode],
    variables: Mapping[str, Any] | None,
) -> Shape:
    walker = _Walker(fragments, dict(variables or {}))
    cost, depth = walker.selections(operation.selection_set, root=True, spreading=())
    return Shape(cost, depth, tuple(walker.roots), walker.introspection)


class _Walker:
    def __init__(self, fragments: Mapping[str, FragmentDefinitionNode], variables: dict[str, Any]) -> None:
        self.fragments = fragments
        self.variables = variables
        self.roots: list[str] = []
        self.introspection = 0

    def selections(
        self, selection_set: SelectionSetNode | None, *, root: bool, spreading: tuple[str, ...]
    ) -> tuple[int, int]:
        """Cost and depth of a selection set. ``spreading`` holds the fragments being expanded, so
        a cycle (which validation refuses anyway) cannot recurse forever."""
        if selection_set is None:
            return 0, 0
        cost = depth = 0
        for selection in selection_set.selections:
            if isinstance(selection, FieldNode):
                field_cost, field_depth = self.field(selection, root=root, spreading=spreading)
                if root:
                    self.roots.append(selection.name.value)
                    if selection.name.value.startswith("__"):
                        self.introspection += field_cost
            elif isinstance(selection, InlineFragmentNode):
                field_cost, field_depth = self.selections(selection.selection_set, root=root, spreading=spreading)
            elif isinstance(selection, FragmentSpreadNode):
                name = selection.name.value
                fragment = self.fragments.get(name)
                if fragment is None or name in spreading:
                    continue
                field_cost, field_depth = self.selections(
                    fragment.selection_set, root=root, spreading=(*spreading, name)
                )
            else:
                continue
            cost += field_cost
            depth = max(depth, field_depth)
        return cost, depth

    def field(self, node: FieldNode, *, root: bool, spreading: tuple[str, ...]) -> tuple[int, int]:
        below, depth = self.selections(node.selection_set, root=False, spreading=spreading)
        return self.weight(node, root=root) + below, depth + (node.name.value not in _NO_DEPTH)

    def weight(self, node: FieldNode, *, root: bool) -> int:
        name = node.name.value
        if root and name in _SIZED_BY:
            container, argument, default = _SIZED_BY[name]
            given = self.argument(node, container)
            return _number(given.get(argument) if isinstance(given, dict) else None, default)
        if root and name in _SIZED_LISTS:
            argument, default = _SIZED_LISTS[name]
            return _number(self.argument(node, argument), default)
        if root and name in _COUNTED_INPUTS:
            given = self.argument(node, _COUNTED_INPUTS[name])
            return len(given) if isinstance(given, list) else 1
        argument, default = _PAGE_ARGUMENT
        if any(arg.name.value == argument for arg in node.arguments):
            return _number(self.argument(node, argument), default)
        return 1

    def argument(self, node: FieldNode, name: str) -> Any:
        for argument in node.arguments:
            if argument.name.value == name:
                return value_from_ast_untyped(argument.value, self.variables)
        return None


def _number(value: Any, default: int) -> int:
    """A size argument as a cost; values the schema will refuse cost their default."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else default


def too_deep(depth: int, max_depth: int) -> HippographError:
    return HippographError(
        ErrorCode.LIMIT_EXCEEDED, f"the operation nests {depth} fields deep; the limit is {max_depth}", limit=max_depth
    )


def too_costly(cost: int, max_cost: int) -> HippographError:
    return HippographError(
        ErrorCode.LIMIT_EXCEEDED,
        f"the operation would cost {cost}; the limit is {max_cost} "
        "(a recall costs its limit, a captured input 1, a list its page size, any other field 1)",
        cost=cost,
        limit=max_cost,
    )


def document_refusals(document: DocumentNode, max_depth: int, max_cost: int) -> list[GraphQLError]:
    """Operations of ``document`` nested deeper than ``max_depth``, or spending more than
    ``max_cost`` on introspection. Judged on the parsed document before graphql-core validates it:
    a walk over the selections is a small part of what validation costs, so a document built to
    be refused (3,000 aliased ``__schema``) is refused cheaply. Root fields are judged again when
    they run (api/guard.py, which sees variables); this covers what no root resolver sees:
    introspection, whose answer grows with every level (``__schema { types { fields { type {
    fields ...``) and with every alias (3,000 aliased ``__schema`` would answer 150 MB)."""
    fragments = {d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)}
    refusals: list[GraphQLError] = []
    for operation in document.definitions:
        if not isinstance(operation, OperationDefinitionNode):
            continue
        shape = measure(operation, fragments, None)
        refusal = (
            too_deep(shape.depth, max_depth)
            if shape.depth > max_depth
            else too_costly(shape.introspection, max_cost)
            if shape.introspection > max_cost
            else None
        )
        if refusal is not None:
            refusals.append(GraphQLError(refusal.message, operation, original_error=refusal))
    return refusals
