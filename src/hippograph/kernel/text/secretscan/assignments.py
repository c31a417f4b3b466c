"""Values assigned to a name that says "secret": ``DB_PASS=…``, ``"signingKey": "…"``,
``<password>…</password>``, ``define('AUTH_KEY', '…')``, ``IDENTIFIED BY '…'``, ``--storepass …``,
``-p…``, in env files, shell, YAML, JSON, TOML, INI, XML, code, SQL and command lines.

A name is read by its morphemes (``extract/secret_words.toml``, ``[names]``): its last one must name
a password or a token, so ``DB_PASSWORD`` counts and ``DB_PASSWORD_FILE`` or ``token_ttl`` do not.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

from hippograph.kernel.text.secretscan.hits import Hit, Veto
from hippograph.kernel.text.secretscan.shapes import is_password_like, looks_random, not_a_secret
from hippograph.kernel.text.secretscan.words import secret_words

KIND = "secret_assignment"
_QUOTED = r""""[^"\n]*"|'[^'\n]*'"""
# name = value, name: value, "name": "value", $name = 'value', ['name'] = 'value', name := value.
# Possessive runs: a value cut short of a "(" must not be retried shorter (it is a call).
_ASSIGNMENT = re.compile(
    rf"""(?<![\w.$@-])(?P<q>["']?)(?P<name>[$@]?[A-Za-z_][\w.-]*+)(?P=q)\]?[ \t]*+"""
    rf"""(?P<op>:=|=>|=(?!=)|:(?![:/]))[ \t]*+(?P<value>{_QUOTED}|[^\s"',;<>(){{}}\[\]]++)(?!\()"""
)
_ELEMENT = re.compile(r"<(?P<name>[A-Za-z_][\w.:-]{0,60})(?:\s[^<>]{0,200})?>(?P<value>[^<>\n]{1,200})</(?P=name)>")
_KEY_VALUE_ATTRIBUTES = re.compile(
    r"""\b(?:key|name)\s*=\s*["'](?P<name>[^"'\n]{1,80})["']\s+value\s*=\s*(?P<value>"[^"\n]*"|'[^'\n]*')"""
)
# define('NAME', 'value'), setProperty("name", "value"), os.environ.setdefault("NAME", "value").
_CALL_PAIR = re.compile(r"""\(\s*["'](?P<name>[A-Za-z_][\w.-]{0,80})["']\s*,\s*N?(?P<value>"[^"\n]*"|'[^'\n]*')""")
_SQL = re.compile(
    r"""(?i:\bidentified[ \t]+by|\bpassword)[ \t]*=?[ \t]*N?(?P<value>'[^'\n]*'|"[^"\n]*")"""
    r"""|(?i:\bidentified[ \t]+by)[ \t]+(?P<bare>[^\s;'"]+)"""
)
# --name value, --name=value, -storepass value (openssl and keytool take long names after one dash).
_LONG_FLAG = re.compile(
    r"""(?<!\S)--?(?P<name>[A-Za-z][\w-]{1,60})(?:=|[ \t]+(?!-))(?P<value>"[^"\n]*"|'[^'\n]*'|[^\s"']+)"""
)
# -p value, -pvalue, -P value, -w value: the letters tools use for a password (mysql, zip, 7z, sqlcmd,
# mosquitto, ldap). Ports (-p 8080:80), paths (-w /app) and counts (-w 5) are not password-like.
_SHORT_FLAG = re.compile(
    r"""(?<!\S)-[pPw](?:[ \t]+(?P<spaced>[^\s"'-][^\s"']*|"[^"\n]*"|'[^'\n]*')|(?P<attached>[^\s"'-][^\s"']*))"""
)
# smbclient -U user%password
_PERCENT_PAIR = re.compile(r"(?<!\S)-U[ \t]+[^\s%]+%(?P<value>\S+)")
# A PIN is a number: "pin: Qm…" pins a content identifier.
_PIN = frozenset({"pin", "pincode"})
_MORPHEMES = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[^\W\d_]+|\d+")


@cache
def _names() -> tuple[frozenset[str], frozenset[str], frozenset[str], frozenset[str]]:
    names = secret_words()["names"]
    return (
        frozenset(names["password"]),
        frozenset(names["token"]),
        frozenset(names["key_qualifiers"]),
        frozenset(names["not_compounds"]),
    )


@cache
def secret_name(name: str) -> str | None:
    """``"password"``, ``"token"`` or ``"pin"`` if ``name`` names a secret of that class, else None."""
    password, token, qualifiers, ordinary = _names()
    pieces = [piece.lower() for piece in _MORPHEMES.findall(name) if not piece.isdigit()]
    if not pieces:
        return None
    last = pieces[-1]
    if last in _PIN:
        return "pin"
    if last in password:
        return "password"
    if last in token:
        return "token"
    if last in ("key", "keys"):
        return "token" if len(pieces) > 1 and pieces[-2] in qualifiers else None
    if last in ordinary or len(last) < 5:
        return None
    # One word made of two: "dbpass", "mysqlpwd", "phpsessid", "apikey", "signingkey".
    if any(last.endswith(word) for word in password if len(word) >= 3 and word not in ("pin", "pass")):
        return "password"
    if last.endswith("pass") and len(last) > 4:
        return "password"
    if any(last.endswith(word) for word in token if len(word) >= 5):
        return "token"
    return "token" if last.endswith("key") and last[:-3] in qualifiers else None


def _unquoted(value: str) -> tuple[str, int]:
    """The value without its quotes, and how far into the match text it starts."""
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1], 1
    return value, 0


def _secret_value(value: str, kind: str, quoted: bool, colon: bool, line_end: bool) -> bool:
    if kind == "pin":
        return value.isdigit() and 4 <= len(value) <= 12
    if not value or not_a_secret(value):
        return False
    if kind == "password":
        if value.isdigit():
            return 4 <= len(value) <= 12
        if quoted or not colon:
            return len(value) >= 3
        return is_password_like(value) or (line_end and len(value) >= 4)
    return is_password_like(value, 8) or looks_random(value)


def find(text: str, veto: Veto) -> Iterator[Hit]:
    for match in _ASSIGNMENT.finditer(text):
        kind = secret_name(match["name"])
        if kind is None:
            continue
        raw = match["value"]
        value, skip = _unquoted(raw)
        if value.startswith("pass:"):  # openssl's -passin pass:secret
            value, skip = value[5:], skip + 5
        end = match.end("value")
        line_end = text[end : end + 1] in ("", "\n", "\r")
        if _secret_value(value, kind, bool(skip), match["op"] == ":", line_end) and not veto(value):
            yield Hit(match.start("value") + skip, match.start("value") + skip + len(value), KIND)
    for pattern in (_ELEMENT, _KEY_VALUE_ATTRIBUTES, _CALL_PAIR):
        for match in pattern.finditer(text):
            kind = secret_name(match["name"])
            value, skip = _unquoted(match["value"])
            if kind and _secret_value(value, kind, True, False, True) and not veto(value):
                yield Hit(match.start("value") + skip, match.start("value") + skip + len(value), KIND)
    yield from _command_lines(text, veto)


def _command_lines(text: str, veto: Veto) -> Iterator[Hit]:
    for match in _SQL.finditer(text):
        group = "value" if match["value"] else "bare"
        value, skip = _unquoted(match[group])
        if _secret_value(value, "password", True, False, True) and not veto(value):
            yield Hit(match.start(group) + skip, match.start(group) + skip + len(value), KIND)
    for match in _LONG_FLAG.finditer(text):
        kind = secret_name(match["name"])
        value, skip = _unquoted(match["value"])
        if value.startswith("pass:"):
            value, skip = value[5:], skip + 5
        if kind and _secret_value(value, kind, True, False, True) and not veto(value):
            yield Hit(match.start("value") + skip, match.start("value") + skip + len(value), KIND)
    for match in _SHORT_FLAG.finditer(text):
        group = "spaced" if match["spaced"] is not None else "attached"
        value, skip = _unquoted(match[group])
        if is_password_like(value) and not veto(value):
            yield Hit(match.start(group) + skip, match.start(group) + skip + len(value), KIND)
    for match in _PERCENT_PAIR.finditer(text):
        if not not_a_secret(match["value"]) and not veto(match["value"]):
            yield Hit(match.start("value"), match.end("value"), KIND)
