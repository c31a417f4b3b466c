"""A capture's items checked and put in the form they will be stored, on plain data: validate,
sanitize, scrub and normalize (docs/architecture.md), before anything is read or written."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from hippograph.kernel.config import Limits
from hippograph.kernel.errors import ErrorCode, HippographError, bad_input
from hippograph.kernel.model import UNKNOWN_AGENT, CaptureInput, CaptureOutcome, CaptureStatus, ItemError, Redaction
from hippograph.kernel.text.clean import clean_content
from hippograph.kernel.text.fields import as_redactions, scrub_field, scrub_json, scrub_tags, tally_of
from hippograph.kernel.text.normalize import content_hash
from hippograph.kernel.validation import validate_capture

__all__ = ["Prepared", "check_batch", "check_capture", "prepare", "prepare_items"]


@dataclass(frozen=True)
class Prepared:
    """A capture that passed every check, in the form it will be stored."""

    item: CaptureInput
    content: str
    content_hash: str
    agent: str
    session: str | None
    project: str | None
    tags: list[str]
    metadata: dict[str, Any] | None
    redactions: tuple[Redaction, ...]  # from the content and every other field
    excised: tuple[str, ...]

    @property
    def key(self) -> tuple[str, str]:
        """What makes two captures the same episode: their namespace and their normalized content."""
        return (self.item.namespace, self.content_hash)


def check_batch(limits: Limits, items: Sequence[CaptureInput]) -> None:
    """Refuse a call that captures nothing, or more than a batch may hold."""
    limit = limits.max_batch
    if not items:
        raise bad_input("nothing to capture", field="inputs")
    if len(items) > limit:
        raise HippographError(
            ErrorCode.LIMIT_EXCEEDED, f"{len(items)} captures in one call; the limit is {limit}", limit=limit
        )


def prepare_items(
    limits: Limits, items: Sequence[CaptureInput], now: datetime, refuse_items: bool
) -> list[Prepared | CaptureOutcome]:
    """Each item prepared; a bad one raises (naming its index), or with ``refuse_items`` becomes a
    REFUSED outcome carrying its error while the others go on."""
    return [_prepared_or_refused(limits, item, now, index, refuse_items) for index, item in enumerate(items)]


def _prepared_or_refused(
    limits: Limits, item: CaptureInput, now: datetime, index: int, refuse_items: bool
) -> Prepared | CaptureOutcome:
    try:
        return prepare(limits, item, now, index)
    except HippographError as error:
        if not refuse_items:
            raise
        return CaptureOutcome(None, CaptureStatus.REFUSED, error=ItemError(error.code.value, error.message))


def check_capture(limits: Limits, item: CaptureInput, now: datetime) -> None:
    """Raise what capturing ``item`` would raise for its input, without writing anything."""
    prepare(limits, item, now, 0)


def prepare(limits: Limits, item: CaptureInput, now: datetime, index: int) -> Prepared:
    try:
        validate_capture(item, limits, now)
        cleaned = clean_content(item.content)
    except HippographError as error:
        error.details["index"] = index  # which item of a batch is at fault
        raise
    tally = tally_of(cleaned.redactions)
    session = scrub_field(item.session.strip(), tally) if item.session is not None else None
    project = scrub_field(item.project.strip(), tally) if item.project is not None else None
    return Prepared(
        item=item,
        content=cleaned.text,
        content_hash=content_hash(cleaned.text),
        agent=scrub_field((item.agent or UNKNOWN_AGENT).strip(), tally),
        session=session,
        project=project,
        tags=scrub_tags(item.tags, tally),
        metadata=scrub_json(item.metadata, tally) if item.metadata is not None else None,
        redactions=as_redactions(tally),
        excised=cleaned.excised,
    )
