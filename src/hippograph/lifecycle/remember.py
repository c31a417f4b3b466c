"""Explicit facts (docs/architecture.md, The graph; docs/architecture.md, The write path): `remember` stores a fact of any kind and supersedes, by key or
by subject as the kind's policy says, the current fact it replaces. Nothing is deleted: the old
fact becomes superseded, its valid time ends where the new one's begins, and a SUPERSEDES edge
and History record the change.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from ulid import ULID

from hippograph.embedding import embed_or_none
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
from hippograph.runtime import Runtime
from hippograph.store import Transaction
from hippograph.store.changes import with_changes
from hippograph.store.facts import FactRecord, fact_properties
from hippograph.store.history import history_event
from hippograph.store.memories import hydrate
from hippograph.store.near import FACT_LABEL, near_duplicates
from hippograph.store.promotions import review_quietly
from hippograph.store.rows import CREATE_EXPLICIT_FACT, CURRENT_FACTS_BY_HASH, HISTORY_OF
from hippograph.store.supersession import Identity, current_facts, replaced, supersede, unkeyed

__all__ = ["FACT_KINDS", "RememberInput", "RememberOutcome", "RememberStatus", "remember"]

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


_MATCHES = {Overlap.DUPLICATE: DuplicateMatch.SEMANTIC, Overlap.SUBSUMED: DuplicateMatch.SUBSUMED}


def remember(runtime: Runtime, item: RememberInput) -> RememberOutcome:
    now = runtime.clock()
    fields = _validate(runtime, item, now)
    cleaned = _clean(runtime, item, now)
    # Names are scrubbed before anything compares them: supersession by key or subject, the
    # duplicate check. The same secret-bearing key then finds the fact it stored before.
    tally = tally_of(cleaned.redactions)
    fields = {name: scrub_field(value, tally) if value is not None else None for name, value in fields.items()}
    tags = scrub_tags(item.tags, tally)
    redactions = as_redactions(tally)
    identity = Identity(item.kind, fields["key"], fields["subject"])
    warnings: list[str] = []
    if unkeyed(identity):
        warnings.append(f"this {item.kind} has no key, so it can never be superseded by a later fact")
    digest = statement_fact_hash(item.kind, hash_basis(cleaned.text))
    vector = embed_or_none(runtime.embedder, [cleaned.text])[0]
    valid_from = item.valid_from or now
    props = fact_properties(
        FactRecord(
            id=str(ULID()),
            namespace=item.namespace,
            statement=cleaned.text,
            kind=item.kind,
            confidence=item.confidence,
            content_hash=digest,
            origin="explicit",
            valid_from=valid_from,
            recorded_at=now,
            importance=DEFAULT_IMPORTANCE if item.importance is None else item.importance,
            pinned=item.pinned,
            tags=tags,
            redactions=[r.kind for r in redactions],
            key=fields["key"],
            subject=fields["subject"],
            predicate=fields["predicate"],
            object=fields["object"],
            embedding=vector,
        )
    )

    close = _close_fact(runtime, item, fields, cleaned.text, vector)

    def write(tx: Transaction) -> _Stored:
        same = [
            row
            for row in tx.run(CURRENT_FACTS_BY_HASH, namespace=item.namespace, hash=digest)
            if row["key"] == fields["key"] and row["subject"] == fields["subject"]
        ]
        if same:
            return _Stored(same[0]["id"], RememberStatus.DUPLICATE, (), DuplicateMatch.EXACT)
        if close is not None and close.overlap in MERGED:
            _corroborate(tx, item, close, now)
            return _Stored(close.id, RememberStatus.DUPLICATE, (), _MATCHES[close.overlap])
        replacements = replaced(identity, props["id"], valid_from, current_facts(tx, item.namespace, identity))
        current = [replacement.older for replacement in replacements]
        tx.run(CREATE_EXPLICIT_FACT, props=props)
        supersede(tx, replacements)
        # A fact this one replaces is linked by SUPERSEDES already; one it adds to stays current.
        extends = close.id if close is not None and close.id not in current else None
        if extends is not None:
            tx.run("link_fact_extends", namespace=item.namespace, new=props["id"], old=extends, at=now)
        events = [
            history_event(
                item.namespace,
                props["id"],
                "created",
                item.actor,
                now,
                new_content=cleaned.text,
                metadata=_created_metadata(item.kind, current, redactions, extends),
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

    stored = runtime.store.write(with_changes(write, events))
    if stored.superseded:
        review_quietly(runtime.store, [item.namespace], now)
    if stored.status is not RememberStatus.CREATED:
        warnings.append(
            "an identical current fact exists; nothing new was stored"
            if stored.match is DuplicateMatch.EXACT
            else "a current fact already says this; nothing new was stored"
        )
    fact = hydrate(runtime.store, item.namespace, [stored.id])[stored.id]
    assert isinstance(fact, Fact)
    return RememberOutcome(
        fact, stored.status, stored.superseded, tuple(warnings), redactions, stored.match, stored.extends
    )


def _close_fact(
    runtime: Runtime, item: RememberInput, fields: dict[str, str | None], statement: str, vector: list[float] | None
) -> NearMatch | None:
    """The closest current fact of the same kind, key and subject that this statement duplicates,
    is subsumed by or extends (docs/memory-management.md, Near-duplicates)."""
    if vector is None:
        return None

    def same_identity(row: dict[str, Any]) -> bool:
        identity = (row["status"], row["kind"], row["key"], row["subject"])
        return bool(identity == ("active", item.kind, fields["key"], fields["subject"]))

    probe = Probe(item.namespace, statement, vector)
    near = near_duplicates(runtime.store, runtime.settings.dedup, [probe], FACT_LABEL, same_identity)
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


def _created_metadata(
    kind: str, superseded: list[str], redactions: tuple[Redaction, ...], extends: str | None
) -> dict[str, Any] | None:
    metadata: dict[str, Any] = {"kind": kind, "supersedes": superseded} if superseded else {}
    if redactions:
        metadata["redactions"] = {r.kind: r.count for r in redactions}
    if extends:
        metadata["extends"] = extends
    return metadata or None


def _validate(runtime: Runtime, item: RememberInput, now: datetime) -> dict[str, str | None]:
    """Check what capture does not (kind, key, subject, times) and return the trimmed names."""
    if item.kind not in FACT_KINDS:
        raise bad_input(f"kind must be one of {', '.join(FACT_KINDS)}", field="kind")
    fields: dict[str, str | None] = {}
    for name in ("key", "subject", "predicate", "object"):
        value = getattr(item, name)
        value = " ".join(value.split()) if value is not None else None
        validate_name(value, name, runtime.settings.limits)
        fields[name] = value
    if POLICIES[item.kind].supersedes_by is Supersession.SUBJECT and fields["subject"] is None:
        raise bad_input(f"a {item.kind} supersedes by subject, so it needs one", field="subject")
    validate_share(item.confidence, "confidence")
    validate_past(item.valid_from, "validFrom", now)
    return fields


def _clean(runtime: Runtime, item: RememberInput, now: datetime) -> Cleaned:
    """The statement through capture's own checks and cleaning: size, namespace, tags, importance,
    injection markers, credentials. Capture's name for the text is "content"; ours is "statement"."""
    as_capture = CaptureInput(
        content=item.statement, namespace=item.namespace, agent=item.actor, tags=item.tags, importance=item.importance
    )
    try:
        validate_capture(as_capture, runtime.settings.limits, now)
        return clean_content(item.statement, field="statement")
    except HippographError as error:
        if error.details.get("field") == "content":
            error.details["field"] = "statement"
        raise
