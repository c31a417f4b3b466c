"""Import a file of the export format (backup/format.py) into namespaces the store does not hold.

All or nothing: the whole file is read and checked first (every record, every value, every
relationship's ends, the end record), then the store is checked to hold none of the file's
namespaces, and only then is anything written, in batches, one transaction each. If a batch fails
(the store goes away, a constraint refuses a record), what the import wrote is deleted again: the
namespaces were empty before it began, so deleting them restores the store as it was. It is not
resumable; run it again once the cause is fixed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hippograph.backup.format import (
    FORMAT,
    VERSION,
    RecordError,
    decode_properties,
    key_property,
    namespace_of,
    open_text,
    relationship_types,
)
from hippograph.embedding import FLOAT32_256, EncoderSpec
from hippograph.embedding.store_record import ImportEmbedding, UnknownEmbedding, settle_import
from hippograph.kernel.errors import ErrorCode, HippographError, bad_input, not_json
from hippograph.kernel.text.stems import stems
from hippograph.store import Store, Transaction, UniquenessConflict
from hippograph.store.namespaces import NAMESPACE_LABEL, NODE_LABELS, delete_namespace
from hippograph.store.rows import IMPORT_RELATIONSHIPS, NAMESPACE_HOLDS, NAMESPACE_RECORD_EXISTS, IdRow
from hippograph.store.search import STEMS_FIELD

__all__ = [
    "ImportPlan",
    "Node",
    "Relationship",
    "batches",
    "check",
    "refuse_present",
    "settle_embedding",
    "undo",
    "write",
]

BATCH = 500

# Told how many more were done; what it returns is ignored (tqdm's ``update`` returns a flag).
Progress = Callable[[int], object]


@dataclass(frozen=True)
class Node:
    label: str
    properties: dict[str, Any]


@dataclass(frozen=True)
class Relationship:
    type: str
    start: tuple[str, str]
    end: tuple[str, str]
    properties: dict[str, Any]


@dataclass
class ImportPlan:
    """What a checked file holds."""

    namespaces: list[str]
    # The embedding the file's vectors were made with (a file from before the header named it:
    # float32 weights cutting at 256 tokens, what every vector was made with then).
    embedding: EncoderSpec = FLOAT32_256
    nodes: dict[str, int] = field(default_factory=dict)
    relationships: dict[str, int] = field(default_factory=dict)

    @property
    def records(self) -> int:
        return sum(self.nodes.values()) + sum(self.relationships.values())


def check(path: Path) -> ImportPlan:
    """Read the whole file and check it; the first problem fails naming its line."""
    records = _records(path)
    plan = _plan(next(records, None))
    known_types = relationship_types()
    nodes: dict[str, tuple[str, str]] = {}  # id → label, namespace
    ended = False
    for number, record in records:
        if ended:
            raise _bad(number, "a record after the end record")
        try:
            if set(record) == {"end"}:
                _check_end(record, plan)
                ended = True
            elif "node" in record:
                if plan.relationships:
                    raise RecordError("a node after the relationships (the nodes come first)")
                node = _node(record)
                _check_node(node, plan, nodes)
            else:
                rel = _relationship(record, known_types)
                _check_relationship(rel, nodes)
                plan.relationships[rel.type] = plan.relationships.get(rel.type, 0) + 1
        except RecordError as error:
            raise _bad(number, str(error)) from None
    if not ended:
        raise bad_input("the file has no end record (an export that did not finish?); nothing was imported")
    return plan


def refuse_present(store: Store, plan: ImportPlan) -> None:
    """Fail if the store holds anything of the file's namespaces: an import adds namespaces,
    it never merges into one."""
    for namespace in plan.namespaces:
        if store.read(NAMESPACE_RECORD_EXISTS, namespace=namespace) or any(
            _holds(store, label, namespace) for label in NODE_LABELS if label != NAMESPACE_LABEL
        ):
            raise bad_input(f"the store already holds namespace {namespace!r}; nothing was imported")


def settle_embedding(store: Store, plan: ImportPlan) -> bool:
    """Fail, writing nothing, if the store holds vectors another embedding made than the file's;
    a store that holds none records the file's (True: it did, and embeds with it from now on)."""
    try:
        decision, stored = settle_import(store, plan.embedding)
    except UnknownEmbedding as error:
        raise bad_input(f"{error}; nothing was imported") from None
    if decision is ImportEmbedding.REFUSE:
        raise bad_input(
            f"the file's vectors were made with the embedding {plan.embedding.name} and this store's with "
            f"{stored.name}, and vectors of two embeddings do not compare: import the file into a new store, "
            "which takes its embedding; nothing was imported",
            file_embedding=plan.embedding.name,
            store_embedding=stored.name,
        )
    return decision is ImportEmbedding.ADOPT


def _holds(store: Store, label: str, namespace: str) -> bool:
    def read(tx: Transaction) -> list[IdRow]:
        return tx.run(NAMESPACE_HOLDS, labels={"NODE_LABEL": label}, namespace=namespace)

    return bool(store.read_in(read))


def write(store: Store, path: Path, plan: ImportPlan, progress: Progress) -> None:
    """Write the checked file in batches; on any failure, delete what was written and re-raise."""
    try:
        items = (_node(record) if "node" in record else _relationship(record, None) for _, record in _body(path))
        for batch in batches(items):
            _write_batch(store, batch, plan.namespaces)
            progress(len(batch))
    except BaseException as failure:
        undone = undo(store, plan)
        if isinstance(failure, UniquenessConflict):
            raise bad_input(f"a node of the file is in the store already (its id or key); {undone}") from failure
        if isinstance(failure, KeyboardInterrupt):
            raise bad_input(f"the import was interrupted; {undone}") from failure
        if isinstance(failure, HippographError):
            raise HippographError(failure.code, f"{failure.message}; {undone}") from failure
        raise HippographError(ErrorCode.STORE_UNAVAILABLE, f"the import failed; {undone}") from failure


def _records(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    with open_text(path) as stream:
        for number, line in enumerate(stream, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except ValueError as error:
                raise _bad(number, not_json(error)) from None
            if not isinstance(record, dict):
                raise _bad(number, "not a JSON object")
            yield number, record


def _body(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """The node and relationship records of a checked file."""
    for number, record in _records(path):
        if "format" not in record and set(record) != {"end"}:
            yield number, record


def _plan(first: tuple[int, dict[str, Any]] | None) -> ImportPlan:
    if first is None:
        raise bad_input("the file is empty; nothing was imported")
    number, record = first
    if record.get("format") != FORMAT:
        raise _bad(number, f"not a {FORMAT} header")
    if record.get("version") != VERSION:
        raise _bad(number, f"format version {VERSION} is the one this Hippograph reads")
    namespaces = record.get("namespaces")
    if not isinstance(namespaces, list) or not all(isinstance(ns, str) and ns for ns in namespaces):
        raise _bad(number, "the header's namespaces must be a list of names")
    return ImportPlan(list(dict.fromkeys(namespaces)), _embedding(number, record.get("embedding")))


def _embedding(number: int, name: Any) -> EncoderSpec:
    if name is None:
        return FLOAT32_256
    spec = None
    if isinstance(name, str):
        with suppress(ValueError):
            spec = EncoderSpec.parse(name)
    if spec is None:
        raise _bad(number, "the header's embedding is not one this Hippograph makes")
    return spec


def _node(record: dict[str, Any]) -> Node:
    label = record["node"]
    if not isinstance(label, str) or label not in NODE_LABELS or set(record) != {"node", "properties"}:
        raise RecordError(f'a node record is {{"node": one of {", ".join(NODE_LABELS)}, "properties": {{...}}}}')
    properties = decode_properties(record["properties"])
    if label == "Episode" and isinstance(properties.get("content"), str):
        # Derived from the content: an export made before stems were stored has none.
        properties[STEMS_FIELD] = stems(properties["content"])
    return Node(label, properties)


def _relationship(record: dict[str, Any], known_types: frozenset[str] | None) -> Relationship:
    if set(record) != {"relationship", "start", "end", "properties"}:
        raise RecordError(
            'a relationship record is {"relationship": TYPE, "start": [label, id], "end": [label, id], "properties": {...}}'
        )
    if not isinstance(record["relationship"], str) or (
        known_types is not None and record["relationship"] not in known_types
    ):
        raise RecordError("an unknown relationship type")
    return Relationship(
        record["relationship"], _end(record["start"]), _end(record["end"]), decode_properties(record["properties"])
    )


def _end(value: Any) -> tuple[str, str]:
    if not (isinstance(value, list) and len(value) == 2 and value[0] in NODE_LABELS and isinstance(value[1], str)):
        raise RecordError("a relationship's start and end are [label, id]")
    return value[0], value[1]


def _check_node(node: Node, plan: ImportPlan, nodes: dict[str, tuple[str, str]]) -> None:
    key = node.properties.get(key_property(node.label))
    if not isinstance(key, str) or not key:
        raise RecordError(f"{_a(node.label)} node without its {key_property(node.label)}")
    namespace = namespace_of(node.label, node.properties)
    if namespace not in plan.namespaces:
        raise RecordError(f"{_a(node.label)} node of a namespace the header does not list")
    # Namespace records are keyed by name, the rest by id: one key space, as no id is a bare name.
    unique = f"{NAMESPACE_LABEL}:{key}" if node.label == NAMESPACE_LABEL else key
    if unique in nodes:
        raise RecordError(f"a second {node.label} node with the same {key_property(node.label)}")
    nodes[unique] = (node.label, namespace)
    plan.nodes[node.label] = plan.nodes.get(node.label, 0) + 1


def _check_relationship(rel: Relationship, nodes: dict[str, tuple[str, str]]) -> None:
    ends = []
    for label, key in (rel.start, rel.end):
        found = nodes.get(key)
        if found is None or found[0] != label:
            raise RecordError(f"{_a(rel.type)} relationship to {_a(label)} node the file does not hold")
        ends.append(found[1])
    if ends[0] != ends[1]:
        raise RecordError(f"{_a(rel.type)} relationship between two namespaces")


def _check_end(record: dict[str, Any], plan: ImportPlan) -> None:
    counts = record["end"]
    expected = {"nodes": sum(plan.nodes.values()), "relationships": sum(plan.relationships.values())}
    if counts != expected:
        raise RecordError("the end record's counts are not those of the records before it (a damaged file?)")


def _batch_key(item: Node | Relationship) -> tuple[str, ...]:
    if isinstance(item, Node):
        return ("node", item.label)
    return ("relationship", item.type, item.start[0], item.end[0])


def batches(items: Iterable[Node | Relationship], size: int = BATCH) -> Iterator[list[Node | Relationship]]:
    """The records in batches of up to ``size`` of one key (a node label, or a relationship type and
    its ends' labels) wherever they stand in the file, in an order that writes every node before a
    relationship to it. An export lists each namespace's nodes label by label and the relationships
    node by node, so neighbouring records rarely share a key: batches of neighbours held two
    records on average, a transaction each."""
    waiting: dict[tuple[str, ...], list[Node | Relationship]] = {}
    for item in items:
        key = _batch_key(item)
        batch = waiting.setdefault(key, [])
        batch.append(item)
        if len(batch) >= size:
            if isinstance(item, Relationship):
                yield from _nodes_waiting(waiting)
            yield waiting.pop(key)
    yield from _nodes_waiting(waiting)
    yield from waiting.values()


def _nodes_waiting(waiting: dict[tuple[str, ...], list[Node | Relationship]]) -> Iterator[list[Node | Relationship]]:
    """Relationships find their ends earlier in the file (the check made sure), so nodes still
    waiting are written before any relationship."""
    for key in [key for key in waiting if key[0] == "node"]:
        yield waiting.pop(key)


def _write_batch(store: Store, batch: list[Node | Relationship], namespaces: Iterable[str]) -> None:
    """One batch, in a transaction that writes the graphs of the import's ``namespaces``."""
    first = batch[0]
    if isinstance(first, Node):
        rows = [item.properties for item in batch if isinstance(item, Node)]

        def create_nodes(tx: Transaction) -> None:
            tx.writes_graph_of(namespaces)
            tx.run("import_nodes", labels={"NODE_LABEL": first.label}, rows=rows)

        store.write(create_nodes)
        return
    assert isinstance(first, Relationship)
    rels = [
        {"start": item.start[1], "end": item.end[1], "properties": item.properties}
        for item in batch
        if isinstance(item, Relationship)
    ]

    def create(tx: Transaction) -> None:
        tx.writes_graph_of(namespaces)
        [row] = tx.run(
            IMPORT_RELATIONSHIPS,
            relation_type=first.type,
            labels={"START_LABEL": first.start[0], "END_LABEL": first.end[0]},
            rows=rels,
        )
        if row["created"] != len(rels):
            # Only a node deleted under the import (a concurrent erase) gets here.
            raise HippographError(ErrorCode.BAD_INPUT, f"{len(rels) - row['created']} {first.type} ends went missing")

    store.write(create)


def undo(store: Store, plan: ImportPlan) -> str:
    """Delete everything of the plan's namespaces (they were empty when the import began)."""
    try:
        for namespace in plan.namespaces:
            delete_namespace(store, namespace)
    # Whatever stopped the undo (most often the store going away), the user must learn what is left.
    except Exception:  # noqa: BLE001
        names = ", ".join(repr(ns) for ns in plan.namespaces)
        return f"removing what it had written failed too: namespaces {names} hold part of the file"
    return "what it had written was removed, and the store is as it was"


def _a(label: str) -> str:
    return f"an {label}" if label[0] in "AEIOU" else f"a {label}"


def _bad(number: int, message: str) -> HippographError:
    return bad_input(f"line {number}: {message}; nothing was imported", line=number)
