"""Capture step 3: credentials become ``[REDACTED:<kind>]`` before anything is stored.

Layers run in order, each over the text the earlier ones left:

1. ``blocks``: private keys of any armour, wallet keys and seed phrases (``secretscan.blocks``);
2. ``rules``: the named formats of ``extract/credentials.toml``, in file order;
3. ``decode``: base64, URL-encoded and JSON-escaped runs, decoded and scrubbed again (``secretscan.wrapped``);
4. ``assignment``: values under a name that says secret (``secretscan.assignments``);
5. ``keyword``: values that prose names in any of eleven languages (``secretscan.keywords``);
6. ``entropy``: unlabelled machine-made tokens (``secretscan.entropy``).

``placeholders`` is a veto every layer consults: masks and stand-ins (``********``, ``sk-...``,
``<your-token>``) stay as they are. Markers are opaque: a layer only ever sees the stretches of text
between them, so ``password=[REDACTED:openai_key]`` stays as it is and scrubbing scrubbed text
changes nothing. Each layer can be switched off, which is how bench/secrets_eval.py measures them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, partial
from typing import Any

from hippograph.kernel.model import Redaction
from hippograph.kernel.rules import load_rules
from hippograph.kernel.text.secretscan import assignments, blocks, entropy, keywords, wrapped
from hippograph.kernel.text.secretscan.hits import Finder, Hit, Veto, disjoint, never
from hippograph.kernel.text.secretscan.shapes import is_placeholder

_KIND = re.compile(r"[a-z0-9_]+")
# Capturing, so that split() keeps the markers between the stretches it returns.
_MARKER = re.compile(rf"(\[REDACTED:{_KIND.pattern}\])")
LAYERS = ("blocks", "rules", "decode", "assignment", "keyword", "entropy", "placeholders")
ALL_LAYERS = frozenset(LAYERS)
# For names and identifiers (namespaces, sessions, agents, tags, keys): ids are random by design
# (ULIDs, hex user ids), so randomness alone says nothing there; every other layer still applies.
IDENTIFIER_LAYERS = ALL_LAYERS - {"entropy"}
# Wrapped in wrapped (a registry auth inside a base64 .dockerconfigjson) is decoded this deep.
_DECODE_DEPTH = 2


@dataclass(frozen=True, slots=True)
class Scrubbed:
    """The scrubbed text and one ``Redaction`` per kind found, in the order the rules ran."""

    text: str
    redactions: tuple[Redaction, ...]


@dataclass(frozen=True, slots=True)
class CredentialRule:
    """One rule of extract/credentials, compiled, in the order the rules run."""

    kind: str
    pattern: re.Pattern[str]
    group: int
    # The rule runs only on text holding one of these (lower case): a cheap test that skips the scan.
    needles: tuple[str, ...]
    # And only on text whose lower case this matches: what must follow a common needle ("key" then
    # ":" or "="), found at the cost of a literal search where the rule tries its name at every word.
    anchor: re.Pattern[str] | None


def scrub_credentials(text: str, layers: frozenset[str] = ALL_LAYERS) -> Scrubbed:
    return _scrub(text, layers, 0)


def _scrub(text: str, layers: frozenset[str], depth: int) -> Scrubbed:
    counts: dict[str, int] = {}
    veto: Veto = is_placeholder if "placeholders" in layers else never
    if "blocks" in layers:
        text = _apply_finder(blocks.find, text, veto, counts)
    if "rules" in layers:
        lowered = prefilter_form(text)
        for rule in credential_rules():
            if rule.needles and not any(needle in lowered for needle in rule.needles):
                continue
            if rule.anchor is not None and not rule.anchor.search(lowered):
                continue
            text, hits = _apply(rule, text, veto)
            if hits:
                counts[rule.kind] = counts.get(rule.kind, 0) + hits
    if "decode" in layers and depth < _DECODE_DEPTH:
        rescan = partial(_holds_secret, layers=layers, depth=depth + 1)
        text = _apply_finder(wrapped.finder(rescan), text, veto, counts)
    for name, finder in (("assignment", assignments.find), ("keyword", keywords.find), ("entropy", entropy.find)):
        if name in layers:
            text = _apply_finder(finder, text, veto, counts)
    return Scrubbed(text, tuple(Redaction(kind, count) for kind, count in counts.items()))


def prefilter_form(text: str) -> str:
    """The text as needles and anchors are tested on: lower case, and the two characters an
    IGNORECASE pattern matches to an ASCII letter that lower() leaves as they are (dotless ı matches
    "i", long ſ matches "s") as those letters, so "ſecret=…" cannot slip past a rule's prefilter."""
    return text.lower().replace("\u0131", "i").replace("\u017f", "s")


def _holds_secret(text: str, layers: frozenset[str], depth: int) -> bool:
    return bool(_scrub(text, layers, depth).redactions)


def _apply_finder(finder: Finder, text: str, veto: Veto, counts: dict[str, int]) -> str:
    """The text with every hit of ``finder`` between existing markers replaced by its marker."""
    pieces = _MARKER.split(text)
    for index in range(0, len(pieces), 2):
        piece = pieces[index]
        hits = disjoint(finder(piece, veto)) if piece else []
        if not hits:
            continue
        out: list[str] = []
        at = 0
        for hit in hits:
            out += [piece[at : hit.start], marker(hit.kind)]
            at = hit.end
            counts[hit.kind] = counts.get(hit.kind, 0) + 1
        pieces[index] = "".join(out) + piece[at:]
    return "".join(pieces)


def marker(kind: str) -> str:
    return f"[REDACTED:{kind}]"


def _apply(rule: CredentialRule, text: str, veto: Veto) -> tuple[str, int]:
    """The text with ``rule`` applied between existing markers, and how many secrets it replaced."""
    pieces = _MARKER.split(text)
    hits: list[Hit] = []
    for index in range(0, len(pieces), 2):  # odd indexes hold the markers themselves
        pieces[index] = rule.pattern.sub(partial(_redact, rule, veto, hits), pieces[index])
    return "".join(pieces), len(hits)


def _redact(rule: CredentialRule, veto: Veto, hits: list[Hit], match: re.Match[str]) -> str:
    """The match with only the rule's secret group replaced, so its context stays readable; a
    placeholder (``ghp_xxxx…``) is left as it is."""
    start, end = match.span(rule.group)
    whole, offset = match.group(0), match.start()
    if veto(_body(rule, match.group(rule.group))):
        return whole
    hits.append(Hit(start, end, rule.kind))
    return whole[: start - offset] + marker(rule.kind) + whole[end - offset :]


def _body(rule: CredentialRule, value: str) -> str:
    """The value after the format's own prefix, which is what the veto judges: the words in
    ``AGE-SECRET-KEY-1…`` name the format, they do not make the key a stand-in."""
    lowered = value.lower()
    for needle in rule.needles:
        if lowered.startswith(needle):
            return value[len(needle) :]
    return value


@cache
def credential_rules() -> tuple[CredentialRule, ...]:
    """The rules ``scrub_credentials`` runs, in their order."""
    return tuple(_compile(rule) for rule in load_rules("credentials")["rules"])


def _compile(rule: dict[str, Any]) -> CredentialRule:
    kind: str = rule["kind"]
    # A kind the marker pattern cannot recognise would leave its markers open to later rules.
    if not _KIND.fullmatch(kind):
        raise ValueError(f"credential rule kind {kind!r} must be lowercase letters, digits and _")
    pattern = re.compile(rule["pattern"], _flags(rule.get("flags", ())))
    needles = tuple(needle.lower() for needle in rule.get("needles", ()))
    anchor = re.compile(rule["anchor"]) if "anchor" in rule else None
    return CredentialRule(kind, pattern, rule.get("group", 0), needles, anchor)


def _flags(names: Iterable[str]) -> re.RegexFlag:
    combined = re.NOFLAG
    for name in names:
        combined |= re.RegexFlag[name]
    return combined
