"""Content as it may be stored: the three cleaning steps of the write path, in their order."""

from __future__ import annotations

from dataclasses import dataclass

from hippograph.kernel.errors import bad_input
from hippograph.kernel.model import Redaction
from hippograph.kernel.text.normalize import storage_form
from hippograph.kernel.text.sanitize import excise_injections
from hippograph.kernel.text.scrub import scrub_credentials


@dataclass(frozen=True)
class Cleaned:
    """Content as it may be stored: injection markers excised, credentials redacted, normalized."""

    text: str
    redactions: tuple[Redaction, ...]
    excised: tuple[str, ...]


def clean_content(raw: str, field: str = "content") -> Cleaned:
    """Sanitize, scrub and normalize a text a client sent (content, a statement). The other client
    strings (names, tags, metadata, reasons) are scrubbed only: see kernel.text.fields."""
    sanitized = excise_injections(raw)
    scrubbed = scrub_credentials(sanitized.text)
    text = storage_form(scrubbed.text)
    if not text:
        raise bad_input(
            f"nothing is left of the {field} once injection markers are removed",
            field=field,
            excised=list(sanitized.excised),
        )
    return Cleaned(text, tuple(scrubbed.redactions), sanitized.excised)
