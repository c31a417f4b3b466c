"""Explicit facts (docs/architecture.md, The graph; docs/architecture.md, The write path): `remember` stores a fact of any kind and supersedes, by key or
by subject as the kind's policy says, the current fact it replaces. Nothing is deleted: the old
fact becomes superseded, its valid time ends where the new one's begins, and a SUPERSEDES edge
and History record the change.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from ulid import ULID

from hippograph.embedding import Embedder, embed_or_none
from hippograph.kernel.config import DedupSettings, Limits
from hippograph.kernel.errors import HippographError, bad_input
from hippograph.kernel.events import EventKind, MemoryEvent
from hippograph.kernel.keys import statement_fact_hash
from hippograph.kernel.model import DEFAULT_IMPORTANCE, CaptureInput, DuplicateMatch, Fact, Redaction
from hippograph.kernel.retention import EPISODE_KIND, POLICIES, Supersession
from hippograph.kernel.text.clean import Cleaned, clean_content
from hippograph.kernel.text.fields import as_redactions, scrub_field, scrub_tags, tally_of
from hippograph.kernel.text.near import MERGED, NearMatch, Probe
from hippograph.kernel.text.normalize import hash_basis
from hippograph.kernel.text.novelty import Overlap
from hippograph.kernel.validation import validate_capture, validate_name, validate_past, validate_share
from hippograph.store import Store, Transaction
from hippograph.store.changes import with_changes
from hippograph.store.facts import FactRecord, fact_properties
from hippograph.store.history import history_event
from hippograph.store.memories import hydrate
from hippograph.store.near import FACT_LABEL, near_duplicates
from hippograph.store.promotions import review_quietly
from hippograph.store.rows import CREATE_EXPLICIT_FACT, CURRENT_FACTS_BY_HASH, HISTORY_OF
from hippograph.store.supersession import Identity, current_facts, replaced, supersede, unkeyed

__all__ = [
    "FACT_KINDS",
    "RememberInput",
    "RememberOutcome",
    "RememberStatus",
    "Statement",
    "created_metadata",
    "duplicate_warning",
    "extended",
    "prepare",
    "remember",
    "repeats",
    "validate_remember",
]

FACT_KINDS = tuple(kind for kind in POLICIES if kind != EPISODE_KIND)


class RememberStatus(StrEnum):
    CREATED = "CREATED"
    DUPLICATE = "DUPLICATE"


@dataclass(frozen=True)
class RememberInput:
    statement: str
    kind: str = "fact"
    namespace: str = "default"
    key: str | None = None
    subject: str | None = None
    predicate: str | None = None
    object: str | None = None
    importance: float | None = None
    confidence: float = 1.0
    tags: tuple[str, ...] = ()
    valid_from: datetime | None = None
    pinned: bool = False
    actor: str = "api"


@dataclass(frozen=True)
class RememberOutcome:
    fact: Fact
    status: RememberStatus
    superseded: tuple[str, ...]
    warnings: tuple[str, ...]
    redactions: tuple[Redaction, ...]
    match: DuplicateMatch | None = None  # DUPLICATE: how the current fact was recognised
    extends: str | None = None  # CREATED: the close current fact this one adds to (EXTENDS)


@dataclass(frozen=True)
class _Stored:
    id: str
    status: RememberStatus
    superseded: tuple[str, ...]
    match: DuplicateMatch | None = None
    extends: str | None = None


@dataclass(frozen=True)
class Statement:
    """A remember's statement and names, checked, cleaned and scrubbed: what it stores and what
    finds the facts it repeats or replaces."""

    text: str
    names: dict[str, str | None]  # key, subject, predicate, object
    tags: list[str]
    redactions: tuple[Redaction, ...]
    identity: Identity
    digest: str
    warnings: tuple[str, ...]


_MATCHES = {Overlap.DUPLICATE: DuplicateMatch.SEMANTIC, Overlap.SUBSUMED: DuplicateMatch.SUBSUMED}


def remember(
    store: Store,
    embedder: Embedder,
    clock: Callable[[], datetime],
    limits: Limits,
    dedup: DedupSettings,
    item: RememberInput,
) -> RememberOutcome:
    now = clock()
    statement = prepare(limits, item, now)
    fields = statement.names
    vector = embed_or_none(embedder, [statement.text])[0]
    valid_from = item.valid_from or now
    props = fact_properties(
        FactRecord(
            id=str(ULID()),
            namespace=item.namespace,
            statement=statement.text,
            kind=item.kind,
            confidence=item.confidence,
            content_hash=statement.digest,
            origin="explicit",
            valid_from=valid_from,
            recorded_at=now,
            importance=DEFAULT_IMPORTANCE if item.importance is None else item.importance,
            pinned=item.pinned,
            tags=statement.tags,
            redactions=[r.kind for r in statement.redactions],
            key=fields["key"],
            subject=fields["subject"],
            predicate=fields["predicate"],
            object=fields["object"],
            embedding=vector,
        )
    )

    close = _close_fact(store, dedup, item, fields, statement.text, vector)

    def write(tx: Transaction) -> _Stored:
        tx.writes_graph_of([item.namespace])
        same = [
            row["id"]
            for row in tx.run(CURRENT_FACTS_BY_HASH, namespace=item.namespace, hash=statement.digest)
            if row["key"] == fields["key"] and row["subject"] == fields["subject"]
        ]
        repeated = repeats(same, close)
        if repeated is not None:
            if close is not None and repeated[1] is not DuplicateMatch.EXACT:
                _corroborate(tx, item, close, now)
            return _Stored(repeated[0], RememberStatus.DUPLICATE, (), repeated[1])
        replacements = replaced(
            statement.identity, props["id"], valid_from, current_facts(tx, item.namespace, statement.identity)
        )
        current = [replacement.older for replacement in replacements]
        tx.run(CREATE_EXPLICIT_FACT, props=props)
        supersede(tx, replacements)
        extends = extended(close, current)
        if extends is not None:
            tx.run("link_fact_extends", namespace=item.namespace, new=props["id"], old=extends, at=now)
        events = [
            history_event(
                item.namespace,
                props["id"],
                "created",
                item.actor,
                now,
                new_content=statement.text,
                metadata=created_metadata(item.kind, current, statement.redactions, extends),
            )
        ]
        events += [
            history_event(item.namespace, older, "superseded", item.actor, now, metadata={"by": props["id"]})
            for older in current
        ]
        tx.run("record_history", rows=events)
        return _Stored(props["id"], RememberStatus.CREATED, tuple(current), extends=extends)

    def events(stored: _Stored) -> list[MemoryEvent]:
        if stored.status is not RememberStatus.CREATED:
            return []
        return [MemoryEvent(EventKind.CREATED, item.namespace, stored.id, now, item.actor)] + [
            MemoryEvent(EventKind.SUPERSEDED, item.namespace, older, now, item.actor, related=(stored.id,))
            for older in stored.superseded
        ]

    stored = store.write(with_changes(write, events))
    if stored.superseded:
        review_quietly(store, [item.namespace], now)
    warnings = list(statement.warnings)
    if stored.match is not None:
        warnings.append(duplicate_warning(stored.match))
    fact = hydrate(store, item.namespace, [stored.id])[stored.id]
    assert isinstance(fact, Fact)
    return RememberOutcome(
        fact, stored.status, stored.superseded, tuple(warnings), statement.redactions, stored.match, stored.extends
    )


def prepare(limits: Limits, item: RememberInput, now: datetime) -> Statement:
    """The statement checked and cleaned like a capture, its names checked and trimmed, and all of
    them scrubbed of what the statement had redacted."""
    fields = validate_remember(limits, item, now)
    cleaned = _clean(limits, item, now)
    # Names are scrubbed before anything compares them: supersession by key or subject, the
    # duplicate check. The same secret-bearing key then finds the fact it stored before.
    tally = tally_of(cleaned.redactions)
    names = {name: scrub_field(value, tally) if value is not None else None for name, value in fields.items()}
    tags = scrub_tags(item.tags, tally)
    identity = Identity(item.kind, names["key"], names["subject"])
    warnings = (
        (f"this {item.kind} has no key, so it can never be superseded by a later fact",) if unkeyed(identity) else ()
    )
    digest = statement_fact_hash(item.kind, hash_basis(cleaned.text))
    return Statement(cleaned.text, names, tags, as_redactions(tally), identity, digest, warnings)


def repeats(same: Sequence[str], close: NearMatch | None) -> tuple[str, DuplicateMatch] | None:
    """The current fact a statement says again, and how it was recognised: an identical one (same
    hash, key and subject) before a close one it adds nothing to; None when it says something new."""
    if same:
        return same[0], DuplicateMatch.EXACT
    if close is not None and close.overlap in MERGED:
        return close.id, _MATCHES[close.overlap]
    return None


def extended(close: NearMatch | None, superseded: Sequence[str]) -> str | None:
    """The close current fact a new one adds to (EXTENDS); one it replaces is linked by SUPERSEDES
    already and adds to nothing that stays current."""
    return close.id if close is not None and close.id not in superseded else None


def duplicate_warning(match: DuplicateMatch) -> str:
    if match is DuplicateMatch.EXACT:
        return "an identical current fact exists; nothing new was stored"
    return "a current fact already says this; nothing new was stored"


def _close_fact(
    store: Store,
    dedup: DedupSettings,
    item: RememberInput,
    fields: dict[str, str | None],
    statement: str,
    vector: list[float] | None,
) -> NearMatch | None:
    """The closest current fact of the same kind, key and subject that this statement duplicates,
    is subsumed by or extends (docs/memory-management.md, Near-duplicates)."""
    if vector is None:
        return None

    def same_identity(row: dict[str, Any]) -> bool:
        identity = (row["status"], row["kind"], row["key"], row["subject"])
        return bool(identity == ("active", item.kind, fields["key"], fields["subject"]))

    probe = Probe(item.namespace, statement, vector)
    near = near_duplicates(store, dedup, [probe], FACT_LABEL, same_identity)
    return near.match(probe) if near is not None else None


def _corroborate(tx: Transaction, item: RememberInput, close: NearMatch, now: datetime) -> None:
    """Another actor stating a current fact again attests it: History records that once per actor."""
    attested = {
        row["event"]["actor"]
        for row in tx.run(HISTORY_OF, namespace=item.namespace, target=close.id)
        if row["event"]["event"] in ("created", "corroborated")
    }
    if item.actor not in attested:
        metadata = {"match": _MATCHES[close.overlap].value, "cosine": close.cosine}
        event = history_event(item.namespace, close.id, "corroborated", item.actor, now, metadata=metadata)
        tx.run("record_history", rows=[event])


def created_metadata(
    kind: str, superseded: list[str], redactions: tuple[Redaction, ...], extends: str | None
) -> dict[str, Any] | None:
    metadata: dict[str, Any] = {"kind": kind, "supersedes": superseded} if superseded else {}
    if redactions:
        metadata["redactions"] = {r.kind: r.count for r in redactions}
    if extends:
        metadata["extends"] = extends
    return metadata or None


def validate_remember(limits: Limits, item: RememberInput, now: datetime) -> dict[str, str | None]:
    """Check what capture does not (kind, key, subject, times) and return the trimmed names."""
    if item.kind not in FACT_KINDS:
        raise bad_input(f"kind must be one of {', '.join(FACT_KINDS)}", field="kind")
    fields: dict[str, str | None] = {}
    for name in ("key", "subject", "predicate", "object"):
        value = getattr(item, name)
        value = " ".join(value.split()) if value is not None else None
        validate_name(value, name, limits)
        fields[name] = value
    if POLICIES[item.kind].supersedes_by is Supersession.SUBJECT and fields["subject"] is None:
        raise bad_input(f"a {item.kind} supersedes by subject, so it needs one", field="subject")
    validate_share(item.confidence, "confidence")
    validate_past(item.valid_from, "validFrom", now)
    return fields


def _clean(limits: Limits, item: RememberInput, now: datetime) -> Cleaned:
    """The statement through capture's own checks and cleaning: size, namespace, tags, importance,
    injection markers, credentials. Capture's name for the text is "content"; ours is "statement"."""
    as_capture = CaptureInput(
        content=item.statement, namespace=item.namespace, agent=item.actor, tags=item.tags, importance=item.importance
    )
    try:
        validate_capture(as_capture, limits, now)
        return clean_content(item.statement, field="statement")
    except HippographError as error:
        if error.details.get("field") == "content":
            error.details["field"] = "statement"
        raise
