"""Skills: reusable procedures stored as data, by name and version, with how often they worked.

Saving a skill under a name it already has makes a new version (``PREVIOUS_VERSION`` to the one
before) unless nothing changed; outcomes are counted on the version that was used; bad patterns
(what went wrong, and an example) are recorded against a version and read for every version of the
name. Every change leaves a History event.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any

from ulid import ULID

from hippograph.kernel.config import Limits
from hippograph.kernel.errors import ErrorCode, HippographError, bad_input
from hippograph.kernel.validation import optional_reason, validate_namespace
from hippograph.procedures.text import stored_name, stored_text
from hippograph.store import Store, Transaction, UniquenessConflict
from hippograph.store.history import history_event
from hippograph.store.rows import (
    ADD_BAD_PATTERN,
    BAD_PATTERNS,
    CREATE_SKILL_VERSION,
    LATEST_SKILL,
    LIST_SKILLS,
    RECORD_SKILL_OUTCOME,
    SKILL_VERSION,
    SKILL_VERSIONS,
    BadPatternRow,
    SkillRow,
)

__all__ = [
    "BadPattern",
    "Skill",
    "add_bad_pattern",
    "bad_patterns",
    "get_skill",
    "list_skills",
    "record_outcome",
    "save_skill",
    "skill_versions",
]

# Clients saving the same name at once all aim at the next version; one wins each round and the
# others save again on top of it, so this bounds how many may save one skill at the same moment.
_SAVE_ROUNDS = 32


@dataclass(frozen=True)
class Skill:
    id: str
    namespace: str
    name: str
    version: int
    description: str
    body: str
    successes: int
    failures: int
    created_at: datetime
    actor: str
    last_outcome_at: datetime | None = None


@dataclass(frozen=True)
class BadPattern:
    id: str
    namespace: str
    skill_id: str
    description: str
    example: str
    created_at: datetime
    actor: str


def save_skill(
    store: Store,
    now: datetime,
    limits: Limits,
    namespace: str,
    name: str,
    body: str,
    actor: str,
    description: str | None = None,
) -> Skill:
    """The skill's newest version after saving ``body``: a new version, or the newest one as it
    was if neither body nor description changed."""
    validate_namespace(namespace)
    name = stored_name(name, "name", limits)
    body = stored_text(body, "body", limits, required=True)
    text = stored_text(description, "description", limits)
    for _ in range(_SAVE_ROUNDS):
        latest = _latest(store, namespace, name)
        if latest is not None and (latest.body, latest.description) == (body, text):
            return latest
        props = {
            "id": str(ULID()),
            "namespace": namespace,
            "name": name,
            "version": 1 if latest is None else latest.version + 1,
            "description": text,
            "body": body,
            "successes": 0,
            "failures": 0,
            "created_at": now,
            "actor": actor,
        }
        try:
            return store.write(partial(_create, props=props, previous=latest, now=now))
        except UniquenessConflict:
            continue  # another client saved this version first: build on theirs
    raise HippographError(ErrorCode.STORE_UNAVAILABLE, "the skill is being saved by others; retry shortly")


def _create(tx: Transaction, props: dict[str, Any], previous: Skill | None, now: datetime) -> Skill:
    [row] = tx.run(CREATE_SKILL_VERSION, props=props)
    if previous is not None:
        tx.run("procedures/link_skill_version", namespace=props["namespace"], id=props["id"], previous=previous.id)
    event = history_event(
        props["namespace"], props["id"], "skill_saved", props["actor"], now, metadata={"version": props["version"]}
    )
    tx.run("record_history", rows=[event])
    return _skill(row)


def get_skill(store: Store, namespace: str, name: str, version: int | None = None) -> Skill:
    """A skill's newest version, or the one asked for; NOT_FOUND if there is none."""
    validate_namespace(namespace)
    if version is None:
        found = _latest(store, namespace, name)
    else:
        rows = store.read(SKILL_VERSION, namespace=namespace, skill_name=name, version=version)
        found = _skill(rows[0]) if rows else None
    if found is None:
        raise HippographError(ErrorCode.NOT_FOUND, "no such skill in this namespace", field="name")
    return found


def list_skills(store: Store, namespace: str, *, search: str | None, skip: int, first: int) -> list[Skill]:
    """The newest version of each skill of a namespace, by name; ``search`` keeps those whose name,
    description or body contains it (case-insensitive)."""
    validate_namespace(namespace)
    needle = search.strip().lower() if search and search.strip() else None
    rows = store.read(LIST_SKILLS, namespace=namespace, search=needle, skip=skip, first=first)
    return [_skill(row) for row in rows]


def skill_versions(store: Store, namespace: str, name: str) -> list[Skill]:
    """Every version of a skill, newest first."""
    return [_skill(row) for row in store.read(SKILL_VERSIONS, namespace=namespace, skill_name=name)]


def record_outcome(
    store: Store, now: datetime, namespace: str, skill_id: str, success: bool, actor: str, note: str | None = None
) -> Skill:
    """Count one use of a version as a success or a failure (``note`` goes to History)."""
    validate_namespace(namespace)
    why = optional_reason(note)

    def work(tx: Transaction) -> Skill:
        rows = tx.run(
            RECORD_SKILL_OUTCOME,
            namespace=namespace,
            id=skill_id,
            successes=int(success),
            failures=int(not success),
            at=now,
        )
        if not rows:
            raise HippographError(ErrorCode.NOT_FOUND, "no such skill version in this namespace", field="id")
        event = "skill_succeeded" if success else "skill_failed"
        tx.run("record_history", rows=[history_event(namespace, skill_id, event, actor, now, reason=why)])
        return _skill(rows[0])

    return store.write(work)


def add_bad_pattern(
    store: Store,
    now: datetime,
    limits: Limits,
    namespace: str,
    skill_id: str,
    description: str,
    actor: str,
    example: str | None = None,
) -> BadPattern:
    """Record what not to do with a version of a skill, and an example of it."""
    validate_namespace(namespace)
    props = {
        "id": str(ULID()),
        "namespace": namespace,
        "description": stored_text(description, "description", limits, required=True),
        "example": stored_text(example, "example", limits),
        "created_at": now,
        "actor": actor,
    }

    def work(tx: Transaction) -> BadPattern:
        rows = tx.run(ADD_BAD_PATTERN, namespace=namespace, skill_id=skill_id, props=props)
        if not rows:
            raise HippographError(ErrorCode.NOT_FOUND, "no such skill version in this namespace", field="skillId")
        tx.run("record_history", rows=[history_event(namespace, skill_id, "bad_pattern_added", actor, now)])
        return _pattern(rows[0])

    return store.write(work)


def bad_patterns(store: Store, namespace: str, name: str) -> list[BadPattern]:
    """The bad patterns recorded against any version of a skill, oldest first."""
    return [_pattern(row) for row in store.read(BAD_PATTERNS, namespace=namespace, skill_name=name)]


def _latest(store: Store, namespace: str, name: str) -> Skill | None:
    if not name.strip():
        raise bad_input("name is empty", field="name")
    rows = store.read(LATEST_SKILL, namespace=namespace, skill_name=name)
    return _skill(rows[0]) if rows else None


def _skill(row: SkillRow) -> Skill:
    props = row["skill"]
    return Skill(
        id=props["id"],
        namespace=props["namespace"],
        name=props["name"],
        version=int(props["version"]),
        description=props.get("description") or "",
        body=props["body"],
        successes=int(props["successes"]),
        failures=int(props["failures"]),
        created_at=props["created_at"],
        actor=props["actor"],
        last_outcome_at=props.get("last_outcome_at"),
    )


def _pattern(row: BadPatternRow) -> BadPattern:
    props = row["pattern"]
    return BadPattern(
        id=props["id"],
        namespace=props["namespace"],
        skill_id=row["skill_id"],
        description=props["description"],
        example=props.get("example") or "",
        created_at=props["created_at"],
        actor=props["actor"],
    )
