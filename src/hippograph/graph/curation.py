"""Repairing the derived graph by hand: aliases for an entity, and merging a split entity.

Aliases belong to a namespace. They are not patterns in the shared spaCy pipeline, which every
namespace runs: there, one tenant's alias would put its names into another tenant's graph.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from datetime import datetime
from typing import Any

from ulid import ULID

from hippograph.extraction.vocabulary import relation_types
from hippograph.graph.entities import get_entity
from hippograph.kernel.errors import ErrorCode, HippographError, bad_input
from hippograph.kernel.keys import canonical_key
from hippograph.kernel.model import Entity
from hippograph.kernel.text.fields import scrub_field
from hippograph.kernel.validation import require_reason
from hippograph.store import Store, Transaction
from hippograph.store.history import history_event
from hippograph.store.rows import ADD_ALIAS

__all__ = ["add_alias", "merge_entities"]

MAX_ALIAS_CHARS = 200


def add_alias(
    store: Store, clock: Callable[[], datetime], namespace: str, entity_id: str, alias: str, actor: str
) -> Entity:
    entity = get_entity(store, namespace, entity_id)
    alias = " ".join(alias.split())
    key = canonical_key(alias)
    if not key or len(alias) > MAX_ALIAS_CHARS:
        raise bad_input(f"an alias must be 1-{MAX_ALIAS_CHARS} characters with a letter or digit", field="alias")
    _refuse_credentials(alias)
    if entity.merged_into is not None:
        raise bad_input(f"entity {entity_id} was merged into {entity.merged_into}; alias that one", field="entityId")
    now = clock()

    def work(tx: Transaction) -> None:
        tx.run(ADD_ALIAS, namespace=namespace, entity_id=entity_id, alias=alias, key=key, alias_id=str(ULID()), at=now)
        tx.run(
            "record_history",
            rows=[history_event(namespace, entity_id, "aliased", actor, now, metadata={"alias": alias})],
        )

    store.write(work)
    return get_entity(store, namespace, entity_id)


def merge_entities(
    store: Store, clock: Callable[[], datetime], namespace: str, source_id: str, target_id: str, reason: str, actor: str
) -> Entity:
    """Fold ``source`` into ``target``: mentions, facts and edges move over, the source's names
    become aliases, and the source remains as a tombstone (``merged_into``) with a History event."""
    if source_id == target_id:
        raise bad_input("an entity cannot be merged into itself", field="sourceId")
    why = require_reason(reason)
    source = get_entity(store, namespace, source_id)
    target = get_entity(store, namespace, target_id)
    for entity in (source, target):
        if entity.merged_into is not None:
            raise HippographError(
                ErrorCode.BAD_INPUT,
                f"entity {entity.id} was already merged into {entity.merged_into}",
                field="sourceId",
            )
    now = clock()
    ids: dict[str, Any] = {"namespace": namespace, "source": source_id, "target": target_id}

    def work(tx: Transaction) -> None:
        tx.run("merge_entity_mentions", **ids)
        tx.run("merge_entity_cooccurrences", **ids)
        for relation in relation_types():
            tx.run("merge_entity_relations_out", relation_type=relation, **ids)
            tx.run("merge_entity_relations_in", relation_type=relation, **ids)
        tx.run("retire_merged_entity", alias_id=str(ULID()), at=now, **ids)
        event = history_event(
            namespace, source_id, "merged", actor, now, metadata={"into": target_id, "name": source.name}, reason=why
        )
        tx.run("record_history", rows=[event])

    store.write(work)
    return get_entity(store, namespace, target.id)


def _refuse_credentials(alias: str) -> None:
    """An alias holding a credential is refused, not stored scrubbed. Aliases are spotted in the
    namespace's episodes, whose credentials are [REDACTED:kind] markers too: a scrubbed alias would
    match those markers, and an alias that was all secret would make every later redaction of its
    kind a mention of the entity. The message names the kinds found, never the text."""
    tally: Counter[str] = Counter()
    scrub_field(alias, tally)
    if tally:
        raise bad_input(f"an alias cannot contain a credential ({', '.join(sorted(tally))} found)", field="alias")
