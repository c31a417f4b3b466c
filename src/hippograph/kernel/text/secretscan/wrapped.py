"""Secrets inside wrappers: base64 (container registry ``auth``, Kubernetes Secret ``data:``,
kubeconfig ``client-key-data``, ``echo … | base64 -d``), URL encoding and JSON string escapes.

Each wrapped run is decoded and the decoded text scrubbed by every layer; if that finds a secret, or
the decoded text is a bare ``user:password`` pair (what registry auths and Basic credentials hold),
the whole wrapped run is redacted. A certificate's base64 decodes to a public block and stays.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Callable, Iterator
from urllib.parse import unquote

from hippograph.kernel.text.secretscan.hits import Finder, Hit, Veto

KIND = "encoded_secret"
_BASE64 = re.compile(r"(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{16,}={0,2}(?![A-Za-z0-9+/=_-])")
# A URL-encoded value: between "=", "&", "?" or whitespace, holding a %XX escape. "=" ends it, so a
# long run of "a=a=a=…" is read piece by piece, not from every "=" to the end.
_PERCENT = re.compile(r"(?<![^\s=&?\"'])[^\s&\"'<>=%]*+%[0-9A-Fa-f]{2}[^\s&\"'<>=]*+")
_ESCAPED_JSON = re.compile(r'(?<!\\)"((?:[^"\\\n]|\\.)*\\"(?:[^"\\\n]|\\.)*)"')
_PAIR = re.compile(r"[\w.@$+-]{1,64}:[^\s]{4,}")
_PRINTABLE_SHARE = 0.95

Rescan = Callable[[str], bool]  # whether the decoded text holds a secret


def finder(rescan: Rescan) -> Finder:
    def find(text: str, veto: Veto) -> Iterator[Hit]:
        for match in _BASE64.finditer(text):
            decoded = from_base64(match.group())
            if decoded is not None and (_PAIR.fullmatch(decoded.strip()) or rescan(decoded)):
                yield Hit(match.start(), match.end(), KIND)
        for match in _PERCENT.finditer(text):
            decoded = unquote(match.group())
            if decoded != match.group() and rescan(decoded):
                yield Hit(match.start(), match.end(), KIND)
        for match in _ESCAPED_JSON.finditer(text):
            decoded = _from_json_string(match.group(1))
            if decoded is not None and rescan(decoded):
                yield Hit(match.start(1), match.end(1), KIND)

    return find


def from_base64(run: str) -> str | None:
    """The text a base64 (or base64url) run encodes, if it is text: not a key's raw bytes or media."""
    if len(run.rstrip("=")) % 4 == 1:
        return None
    padded = run + "=" * (-len(run) % 4)
    try:
        raw = base64.urlsafe_b64decode(padded) if ("-" in run or "_" in run) else base64.b64decode(padded)
        text = raw.decode("utf-8")
    except (binascii.Error, ValueError):
        return None
    printable = sum(char.isprintable() or char in "\n\r\t" for char in text)
    return text if text and printable >= _PRINTABLE_SHARE * len(text) else None


def _from_json_string(body: str) -> str | None:
    try:
        decoded = json.loads(f'"{body}"')
    except ValueError:
        return None
    return decoded if isinstance(decoded, str) else None
