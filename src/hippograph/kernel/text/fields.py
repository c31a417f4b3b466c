"""Credential scrubbing for the client strings stored besides content: agent, session, tags and
metadata of a capture; key, subject, predicate, object and tags of a fact; reasons and actors in
History.

Content goes through ``clean_content`` (kernel.text.clean), which also excises injection markers and
normalizes. These fields are names and identities, so they are only scrubbed: scrubbing is
idempotent and deterministic, so the same secret-bearing input still maps to the same stored value
(one session, one supersession key). Callers trim or collapse whitespace before scrubbing, since
the credential rules read ``password: x`` but not ``password:\\n x``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from hippograph.kernel.model import Redaction
from hippograph.kernel.text.scrub import IDENTIFIER_LAYERS, Scrubbed, marker, scrub_credentials

# A value every name-based credential rule takes as a secret: machine-made (letters and digits),
# and 40 characters, the exact length of an AWS secret access key.
_PROBE = "a1" * 20


def scrub_field(value: str, tally: Counter[str] | None = None) -> str:
    """A client string with its credentials redacted; ``tally`` counts the redactions by kind."""
    return _counted(scrub_credentials(value, IDENTIFIER_LAYERS), tally)


def as_stored(values: Iterable[str] | None) -> list[str] | None:
    """Names a client filters by (agents, sessions, tags), as capture stored them: trimmed and
    scrubbed, so that the value a client captured with still selects what it captured."""
    return None if values is None else [scrub_field(value.strip()) for value in values]


def scrub_tags(tags: Iterable[str], tally: Counter[str] | None = None) -> list[str]:
    """Tags as stored: trimmed, scrubbed, each once, sorted (captures and facts alike)."""
    return sorted({scrub_field(tag.strip(), tally) for tag in tags})


def scrub_json(value: Any, tally: Counter[str] | None = None) -> Any:
    """A JSON value (capture metadata) with every string in it scrubbed, object keys included.

    Text names a credential next to its value (``password=hunter2``); JSON puts the name in a key
    (``{"password": "hunter2"}``), where scrubbing each string alone finds nothing. So a string is
    scrubbed in the context of its key, and every string or number under a key the credential rules
    take for a credential's name (at any depth below it) is redacted whole.
    """
    return _scrub_json(value, None, None, tally)


def tally_of(redactions: Iterable[Redaction]) -> Counter[str]:
    """Redactions as counts by kind, to add a request's other fields to (``scrub_field(v, tally)``)."""
    return Counter({r.kind: r.count for r in redactions})


def as_redactions(tally: Counter[str]) -> tuple[Redaction, ...]:
    return tuple(Redaction(kind, count) for kind, count in tally.items() if count)


def _scrub_json(value: Any, name: str | None, secret: str | None, tally: Counter[str] | None) -> Any:
    """``name``: the key the value sits under; ``secret``: the credential kind that key or one
    above it names."""
    if isinstance(value, dict):
        return _scrub_object(value, secret, tally)
    if isinstance(value, list):
        return [_scrub_json(item, name, secret, tally) for item in value]
    if secret is not None and _is_secret_scalar(value) and value != marker(secret):
        if tally is not None:
            tally[secret] += 1
        return marker(secret)
    if isinstance(value, str):
        return _scrub_under(name, value, tally)
    return value


def _scrub_object(value: dict[str, Any], secret: str | None, tally: Counter[str] | None) -> dict[str, Any]:
    scrubbed: dict[str, Any] = {}
    for key, item in value.items():
        name = _unused(scrub_field(key, tally), scrubbed)
        scrubbed[name] = _scrub_json(item, key, _credential_kind(key) or secret, tally)
    return scrubbed


def _unused(name: str, taken: dict[str, Any]) -> str:
    """Two keys that differed only in their secrets are one key once scrubbed; neither value may
    be lost, so the later one gets a numbered key."""
    candidate, number = name, 2
    while candidate in taken:
        candidate, number = f"{name} ({number})", number + 1
    return candidate


def _is_secret_scalar(value: Any) -> bool:
    # true/false/null say nothing secret; an empty or blank string holds nothing to redact.
    if isinstance(value, bool) or value is None:
        return False
    return isinstance(value, int | float) or (isinstance(value, str) and bool(value.strip()))


def _scrub_under(name: str | None, value: str, tally: Counter[str] | None) -> str:
    """The value scrubbed as the text ``name: value``, so that rules which need the name see it
    (``{"Authorization": "Basic ..."}``). If a rule redacted part of the name itself, the context
    is dropped and the value scrubbed alone."""
    if name is not None:
        prefix = f"{name}: "
        scrubbed = scrub_credentials(prefix + value)
        if scrubbed.text.startswith(prefix):
            return _counted(Scrubbed(scrubbed.text[len(prefix) :], scrubbed.redactions), tally)
    return scrub_field(value, tally)


@lru_cache(maxsize=4096)  # metadata keys repeat from capture to capture; the rules are fixed
def _credential_kind(name: str) -> str | None:
    """The kind of credential ``name`` names (``password``, ``api_key``, ``client_secret``...), as
    the credential rules judge it: whether they would redact a secret-looking value given it."""
    probe = scrub_credentials(f"{name}: {_PROBE}")
    if probe.text.endswith(_PROBE):
        return None
    return next((r.kind for r in probe.redactions if probe.text.endswith(marker(r.kind))), None)


def _counted(scrubbed: Scrubbed, tally: Counter[str] | None) -> str:
    if tally is not None:
        tally.update(tally_of(scrubbed.redactions))
    return scrubbed.text
