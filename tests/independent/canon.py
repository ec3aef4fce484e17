"""Canonical msgpack (SPEC §A1), written from the SPEC alone.

Values: None, bool, int (−2⁶³ … 2⁶⁴−1), str, bytes, list/tuple, dict with str keys.
`encode` raises CanonError for anything else; `decode` raises CanonError for bytes that are not
exactly the canonical encoding of one value.
"""

import struct

MAX_DEPTH = 33  # containers nest at most 33 deep


class CanonError(ValueError):
    """Not a canonical value, or not canonical bytes."""


def encode(value) -> bytes:
    out = bytearray()
    _encode(value, out, 0)
    return bytes(out)


def _encode(v, out: bytearray, depth: int) -> None:
    if v is None:
        out.append(0xC0)
    elif v is True:
        out.append(0xC3)
    elif v is False:
        out.append(0xC2)
    elif isinstance(v, int):
        _int(v, out)
    elif isinstance(v, str):
        data = v.encode("utf-8")
        _head(len(data), out, fix=0xA0, fixmax=31, w8=0xD9, w16=0xDA, w32=0xDB)
        out += data
    elif isinstance(v, (bytes, bytearray)):
        _head(len(v), out, fix=None, fixmax=-1, w8=0xC4, w16=0xC5, w32=0xC6)
        out += v
    elif isinstance(v, (list, tuple)):
        if depth >= MAX_DEPTH:
            raise CanonError("containers nest more than 33 deep")
        _head(len(v), out, fix=0x90, fixmax=15, w8=None, w16=0xDC, w32=0xDD)
        for item in v:
            _encode(item, out, depth + 1)
    elif isinstance(v, dict):
        if depth >= MAX_DEPTH:
            raise CanonError("containers nest more than 33 deep")
        if not all(isinstance(k, str) for k in v):
            raise CanonError("map keys must be strings")
        _head(len(v), out, fix=0x80, fixmax=15, w8=None, w16=0xDE, w32=0xDF)
        for key in sorted(v, key=lambda k: k.encode("utf-8")):
            _encode(key, out, depth + 1)
            _encode(v[key], out, depth + 1)
    else:
        raise CanonError(f"not a canonical value: {type(v).__name__}")


def _head(n, out, fix, fixmax, w8, w16, w32):
    if n <= fixmax:
        out.append(fix | n)
    elif w8 is not None and n < 1 << 8:
        out += bytes([w8, n])
    elif n < 1 << 16:
        out.append(w16)
        out += struct.pack(">H", n)
    elif n < 1 << 32:
        out.append(w32)
        out += struct.pack(">I", n)
    else:
        raise CanonError("too long")


def _int(v, out):
    if 0 <= v <= 0x7F:
        out.append(v)
    elif -32 <= v < 0:
        out.append(v & 0xFF)
    elif v > 0:
        for tag, fmt, limit in ((0xCC, ">B", 1 << 8), (0xCD, ">H", 1 << 16),
                                (0xCE, ">I", 1 << 32), (0xCF, ">Q", 1 << 64)):
            if v < limit:
                out.append(tag)
                out += struct.pack(fmt, v)
                return
        raise CanonError("integer above 2**64-1")
    else:
        for tag, fmt, bits in ((0xD0, ">b", 7), (0xD1, ">h", 15), (0xD2, ">i", 31), (0xD3, ">q", 63)):
            if v >= -(1 << bits):
                out.append(tag)
                out += struct.pack(fmt, v)
                return
        raise CanonError("integer below -2**63")


def decode(data: bytes):
    """The value `data` is the canonical encoding of; refuses anything else (§A1)."""
    data = bytes(data)
    value, end = _decode(data, 0, 0)
    if end != len(data):
        raise CanonError("bytes left over")
    if encode(value) != data:
        raise CanonError("not the canonical encoding of its value")
    return value


def _take(data, pos, n):
    if pos + n > len(data):
        raise CanonError("cut short")
    return data[pos:pos + n], pos + n


def _decode(data, pos, depth):
    if pos >= len(data):
        raise CanonError("cut short")
    b = data[pos]
    pos += 1
    if b <= 0x7F:
        return b, pos
    if b >= 0xE0:
        return b - 0x100, pos
    if 0xA0 <= b <= 0xBF:
        return _str(data, pos, b & 0x1F)
    if 0x90 <= b <= 0x9F:
        return _array(data, pos, b & 0x0F, depth)
    if 0x80 <= b <= 0x8F:
        return _map(data, pos, b & 0x0F, depth)
    if b == 0xC0:
        return None, pos
    if b == 0xC2:
        return False, pos
    if b == 0xC3:
        return True, pos
    fixed = {0xCC: ">B", 0xCD: ">H", 0xCE: ">I", 0xCF: ">Q", 0xD0: ">b", 0xD1: ">h", 0xD2: ">i", 0xD3: ">q"}
    if b in fixed:
        raw, pos = _take(data, pos, struct.calcsize(fixed[b]))
        return struct.unpack(fixed[b], raw)[0], pos
    lengths = {0xD9: (">B", "str"), 0xDA: (">H", "str"), 0xDB: (">I", "str"),
               0xC4: (">B", "bin"), 0xC5: (">H", "bin"), 0xC6: (">I", "bin"),
               0xDC: (">H", "array"), 0xDD: (">I", "array"), 0xDE: (">H", "map"), 0xDF: (">I", "map")}
    if b not in lengths:
        raise CanonError(f"type byte 0x{b:02x} not allowed")
    fmt, what = lengths[b]
    raw, pos = _take(data, pos, struct.calcsize(fmt))
    n = struct.unpack(fmt, raw)[0]
    if what == "str":
        return _str(data, pos, n)
    if what == "bin":
        return _take(data, pos, n)
    if what == "array":
        return _array(data, pos, n, depth)
    return _map(data, pos, n, depth)


def _str(data, pos, n):
    raw, pos = _take(data, pos, n)
    try:
        return raw.decode("utf-8"), pos
    except UnicodeDecodeError as e:
        raise CanonError("invalid UTF-8") from e


def _array(data, pos, n, depth):
    if depth >= MAX_DEPTH:
        raise CanonError("containers nest more than 33 deep")
    if n > len(data) - pos:
        raise CanonError("cut short")
    items = []
    for _ in range(n):
        item, pos = _decode(data, pos, depth + 1)
        items.append(item)
    return items, pos


def _map(data, pos, n, depth):
    if depth >= MAX_DEPTH:
        raise CanonError("containers nest more than 33 deep")
    if 2 * n > len(data) - pos:
        raise CanonError("cut short")
    result = {}
    for _ in range(n):
        key, pos = _decode(data, pos, depth + 1)
        if not isinstance(key, str):
            raise CanonError("map key is not a string")
        if key in result:
            raise CanonError("repeated map key")
        result[key], pos = _decode(data, pos, depth + 1)
    return result, pos
