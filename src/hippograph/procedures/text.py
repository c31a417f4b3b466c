"""The texts of procedures as they may be stored: names scrubbed, bodies cleaned as content is."""

from __future__ import annotations

from hippograph.kernel.config import Limits
from hippograph.kernel.errors import bad_input
from hippograph.kernel.text.clean import clean_content
from hippograph.kernel.text.fields import scrub_field
from hippograph.kernel.validation import validate_name

__all__ = ["stored_name", "stored_text"]


def stored_name(value: str, field: str, limits: Limits) -> str:
    """A name (a skill's, a work item's title): trimmed, one line, its credentials redacted."""
    validate_name(value, field, limits)
    return scrub_field(" ".join(value.split()))


def stored_text(value: str | None, field: str, limits: Limits, *, required: bool = False) -> str:
    """A body or a description: within the content limit, injection markers excised, credentials
    redacted, normalized; an empty optional one is stored as ''."""
    if value is None or not value.strip():
        if required:
            raise bad_input(f"{field} is empty", field=field)
        return ""
    size = len(value.encode("utf-8"))
    if size > limits.max_content_bytes:
        raise bad_input(
            f"{field} is {size} bytes; the limit is {limits.max_content_bytes}",
            field=field,
            limit=limits.max_content_bytes,
        )
    return clean_content(value, field).text
