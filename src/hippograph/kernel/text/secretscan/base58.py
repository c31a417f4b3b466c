"""Base58Check, as Bitcoin writes addresses and keys: the payload's version byte says which it is."""

from __future__ import annotations

import hashlib

_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_INDEX = {char: index for index, char in enumerate(_ALPHABET)}
# Pay-to-public-key-hash and pay-to-script-hash, main and test networks: public addresses.
_ADDRESS_VERSIONS = (0x00, 0x05, 0x6F, 0xC4)


def decode_check(text: str) -> bytes | None:
    """The payload of a Base58Check string, or None if it is not one (bad character or checksum)."""
    number = 0
    for char in text:
        index = _INDEX.get(char)
        if index is None:
            return None
        number = number * 58 + index
    raw = number.to_bytes((number.bit_length() + 7) // 8, "big")
    raw = b"\0" * (len(text) - len(text.lstrip("1"))) + raw
    payload, checksum = raw[:-4], raw[-4:]
    if len(payload) < 2 or hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4] != checksum:
        return None
    return payload


def is_address(token: str) -> bool:
    if not 26 <= len(token) <= 35:
        return False
    payload = decode_check(token)
    return payload is not None and len(payload) == 21 and payload[0] in _ADDRESS_VERSIONS
