"""Canonical msgpack: the one byte encoding that is hashed and signed everywhere.

Every value that is hashed (game states) or signed (protocol messages) is first turned into
*canonical* msgpack, so that two peers holding equal values always produce equal bytes:

* allowed types: ``None``, ``bool``, ``int`` (−2⁶³ … 2⁶⁴−1), ``str`` (UTF-8), ``bytes``,
  ``list``/``tuple`` (both encode as arrays) and ``dict`` whose keys are all ``str``;
* maps are written with their keys sorted by their UTF-8 bytes;
* every item uses the shortest msgpack form (what msgpack-python writes);
* floats, extension types and non-string map keys are refused.

Decoding is strict: it accepts exactly the bytes :func:`encode` would produce for the decoded
value (so a signature over canonical bytes has one meaning), returns arrays as tuples and never
raises anything but :class:`CanonicalError`.

This module is pure (no I/O) and is shared by ``engine`` (state hashes) and ``crypto``/``session``
(signatures), which is why it lives at the package root.
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgpack

__all__ = ["CanonicalError", "encode", "decode", "digest", "MAX_DEPTH"]

MAX_DEPTH = 32
_INT_MIN = -(2**63)
_INT_MAX = 2**64 - 1


class CanonicalError(ValueError):
    """A value can't be encoded canonically, or bytes are not a canonical encoding."""


def _all_leaves(items: list | tuple) -> bool:
    # Whether an array holds only leaves msgpack writes canonically as they are: then it needs
    # no copy (states hold many small ones, [slot, card] pairs say), checked without a call each.
    for item in items:
        kind = type(item)
        if kind is int:
            if not _INT_MIN <= item <= _INT_MAX:
                return False
        elif not (kind is str or kind is bytes or kind is bool or item is None):
            return False
    return True


def _normalise(value: Any, depth: int) -> Any:
    # Returns a structure msgpack writes canonically: dicts rebuilt with sorted keys, tuples as lists.
    # Leaves are handled inline in the container loops: most nodes are leaves, and a call per leaf
    # dominated the cost of hashing states and signing messages.
    if depth > MAX_DEPTH:
        raise CanonicalError(f"nesting deeper than {MAX_DEPTH} levels")
    kind = type(value)
    if kind is list or kind is tuple:
        out = []
        append = out.append
        for item in value:
            item_kind = type(item)
            if item_kind is int:
                if not _INT_MIN <= item <= _INT_MAX:
                    raise CanonicalError(f"integer {item} is outside the 64-bit range")
                append(item)
            elif item_kind is str or item_kind is bytes or item_kind is bool or item is None:
                append(item)
            elif (item_kind is list or item_kind is tuple) and depth < MAX_DEPTH and _all_leaves(item):
                append(item)  # msgpack writes a tuple as it writes a list
            else:
                append(_normalise(item, depth + 1))
        return out
    if kind is dict:
        keys = list(value)
        for key in keys:
            if type(key) is not str:
                raise CanonicalError(f"map key {key!r} is not a string")
        # UTF-8 preserves code-point order, so sorting the strings sorts their UTF-8 bytes.
        keys.sort()
        result = {}
        for key in keys:
            item = value[key]
            item_kind = type(item)
            if item_kind is int:
                if not _INT_MIN <= item <= _INT_MAX:
                    raise CanonicalError(f"integer {item} is outside the 64-bit range")
                result[key] = item
            elif item_kind is str or item_kind is bytes or item_kind is bool or item is None:
                result[key] = item
            elif (item_kind is list or item_kind is tuple) and depth < MAX_DEPTH and _all_leaves(item):
                result[key] = item
            else:
                result[key] = _normalise(item, depth + 1)
        return result
    if kind is int:
        if not _INT_MIN <= value <= _INT_MAX:
            raise CanonicalError(f"integer {value} is outside the 64-bit range")
        return value
    if kind is str or kind is bytes or kind is bool or value is None:
        return value
    if isinstance(value, float):
        raise CanonicalError("floats are not allowed in canonical values")
    if isinstance(value, bytearray | memoryview):
        return bytes(value)
    raise CanonicalError(f"can't encode a value of type {kind.__name__}")


def encode(value: Any) -> bytes:
    """Return the canonical msgpack bytes of ``value``.

    Raises :class:`CanonicalError` for floats, unsupported types, non-string map keys, integers
    outside 64 bits, nesting deeper than :data:`MAX_DEPTH` and strings that are not Unicode text
    (lone surrogates have no UTF-8 form).
    """
    normalised = _normalise(value, 0)
    try:
        return msgpack.packb(normalised, use_bin_type=True)
    except UnicodeEncodeError as error:
        bad = error.object[error.start:error.end]
        raise CanonicalError(f"string holds {bad!r}, which has no UTF-8 form") from None


def decode(data: bytes, *, max_size: int = 16 * 1024 * 1024) -> Any:
    """Decode canonical msgpack bytes; arrays come back as tuples.

    Raises :class:`CanonicalError` if ``data`` is not valid msgpack, holds a float, an extension
    type, a non-string map key or trailing bytes, or is not byte-for-byte the canonical encoding of
    the value it holds.
    """
    if not isinstance(data, bytes | bytearray | memoryview):
        raise CanonicalError(f"expected bytes, got {type(data).__name__}")
    if len(data) > max_size:
        raise CanonicalError(f"{len(data)} bytes is more than the {max_size}-byte limit")
    try:
        value = msgpack.unpackb(
            data,
            raw=False,
            use_list=False,
            strict_map_key=True,
            ext_hook=_refuse_ext,
        )
    except CanonicalError:
        raise
    except Exception as error:  # msgpack raises several unrelated types for bad input
        reason = str(error) or _UNEXPLAINED.get(type(error), type(error).__name__)
        raise CanonicalError(f"not valid msgpack: {reason}") from None
    try:
        again = encode(value)
    except CanonicalError as error:
        raise CanonicalError(f"not a canonical value: {error}") from None
    if again != bytes(data):
        raise CanonicalError("msgpack bytes are not in canonical form")
    return value


# msgpack errors that come without a message.
_UNEXPLAINED = {
    msgpack.StackError: "nested too deeply",
    msgpack.FormatError: "a byte that begins no msgpack value",
}


def _refuse_ext(code: int, data: bytes) -> Any:
    raise CanonicalError(f"msgpack extension type {code} is not allowed")


def digest(value: Any) -> bytes:
    """SHA-256 of the canonical encoding of ``value`` (32 bytes)."""
    return hashlib.sha256(encode(value)).digest()
