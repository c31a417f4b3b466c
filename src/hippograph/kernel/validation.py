"""Reject bad captures before anything is computed or written. Each check names the field at fault."""

from __future__ import annotations

import json
import logging
import math
import re
from datetime import UTC, datetime, timedelta

from hippograph.kernel.config import Limits
from hippograph.kernel.errors import ErrorCode, HippographError, bad_input
from hippograph.kernel.model import CaptureInput, Role
from hippograph.kernel.text.scrub import IDENTIFIER_LAYERS, scrub_credentials

audit = logging.getLogger("hippograph.audit")

NAMESPACE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}")
EARLIEST = datetime(1900, 1, 1, tzinfo=UTC)
MAX_REASON_CHARS = 1000
# A client clock may run a little ahead; anything further in the future is a bug or a forgery.
CLOCK_SKEW = timedelta(days=1)


def validate_namespace(namespace: str) -> None:
    if not NAMESPACE.fullmatch(namespace):
        raise bad_input(
            "namespace must be 1-64 characters of letters, digits, '_', '.', ':' or '-'",
            field="namespace",
        )
    # A namespace is on every node and cannot be stored scrubbed ("[" is not allowed in one, and
    # it is the key a client reads back with), so one that holds a credential is refused.
    if scrub_credentials(namespace, IDENTIFIER_LAYERS).redactions:
        raise bad_input("namespace must not contain a credential", field="namespace")


def require_reason(reason: str | None) -> str:
    """A destructive or corrective change must say why; History keeps it (and memory events carry
    it), so its credentials are redacted here, before either sees it."""
    text = " ".join((reason or "").split())
    if not text:
        raise bad_input("a reason is required", field="reason")
    if len(text) > MAX_REASON_CHARS:
        raise bad_input(f"the reason is longer than {MAX_REASON_CHARS} characters", field="reason")
    return scrub_credentials(text).text  # prose: every layer, randomness included


def optional_reason(reason: str | None) -> str | None:
    return require_reason(reason) if reason and reason.strip() else None


def validate_capture(item: CaptureInput, limits: Limits, now: datetime) -> None:
    validate_namespace(item.namespace)
    if item.role is Role.SYSTEM:
        agent = scrub_credentials(item.agent).text if item.agent is not None else None
        audit.warning("rejected a system-role capture in namespace %s from agent %s", item.namespace, agent)
        raise HippographError(
            ErrorCode.FORBIDDEN,
            "system-role content cannot be captured: a system prompt is configuration, not memory",
            field="role",
        )
    if not item.content.strip():
        raise bad_input("content is empty", field="content")
    size = len(item.content.encode("utf-8"))
    if size > limits.max_content_bytes:
        raise bad_input(
            f"content is {size} bytes; the limit is {limits.max_content_bytes}",
            field="content",
            limit=limits.max_content_bytes,
        )
    for name, value in (("agent", item.agent), ("session", item.session), ("project", item.project)):
        validate_name(value, name, limits)
    if item.project is not None and item.session is None:
        raise bad_input("a project groups sessions: give the session it is for", field="project")
    validate_past(item.occurred_at, "occurredAt", now)
    validate_tags(item.tags, limits)
    validate_share(item.importance, "importance")
    if item.metadata is not None:
        _validate_metadata(item.metadata, limits)


def validate_name(value: str | None, field: str, limits: Limits) -> None:
    """A name (agent, session, key, subject, ...), when given: 1 to max_name_chars once trimmed."""
    if value is not None and not (0 < len(value.strip()) <= limits.max_name_chars):
        raise bad_input(f"{field} must be 1-{limits.max_name_chars} characters", field=field)


def validate_past(at: datetime | None, field: str, now: datetime) -> None:
    """When something happened or began to hold, when given: a zoned time between 1900 and now."""
    if at is None:
        return
    if at.tzinfo is None:
        raise bad_input(f"{field} must carry a time zone (e.g. a trailing Z)", field=field)
    if not EARLIEST <= at <= now + CLOCK_SKEW:
        raise bad_input(f"{field} must lie between 1900 and now", field=field)


def validate_tags(tags: tuple[str, ...], limits: Limits) -> None:
    if len(tags) > limits.max_tags:
        raise bad_input(f"at most {limits.max_tags} tags", field="tags")
    for tag in tags:
        if not (0 < len(tag.strip()) <= limits.max_tag_chars):
            raise bad_input(f"each tag must be 1-{limits.max_tag_chars} characters", field="tags")


def validate_share(value: float | None, field: str) -> None:
    """An importance or a confidence, when given: a number from 0 to 1."""
    if value is not None and not (math.isfinite(value) and 0.0 <= value <= 1.0):
        raise bad_input(f"{field} must be between 0 and 1", field=field)


def _validate_metadata(metadata: object, limits: Limits) -> None:
    if not isinstance(metadata, dict):
        raise bad_input("metadata must be a JSON object", field="metadata")
    try:
        size = len(json.dumps(metadata).encode("utf-8"))
    except (TypeError, ValueError) as error:
        raise bad_input(f"metadata is not serializable JSON: {error}", field="metadata") from error
    if size > limits.max_metadata_bytes:
        raise bad_input(f"metadata is {size} bytes; the limit is {limits.max_metadata_bytes}", field="metadata")
