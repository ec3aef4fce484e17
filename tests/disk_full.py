"""A transcript as a disk that filled mid-game left it: the records up to one entry, nothing after."""

from __future__ import annotations

import msgpack


def through_entry(data: bytes, count: int) -> int:
    """How many bytes of the transcript ``data`` hold it up to its record of entry ``count - 1``
    (a disk that filled just after it: nothing later reached it, acknowledgements neither), or
    with ``count`` 0 up to its first entry. Records are a 4-byte big-endian length and the
    msgpack of ``[kind, value]`` (protocol/SPEC.md §B11)."""
    offset, seen = 0, 0
    while offset < len(data):
        length = int.from_bytes(data[offset:offset + 4], "big")
        kind = msgpack.unpackb(data[offset + 4:offset + 4 + length])[0]
        if seen == count and (count > 0 or kind == "entry"):
            return offset
        offset += 4 + length
        seen += kind == "entry"
    if seen == count:
        return offset
    raise ValueError(f"the transcript holds {seen} entries, not {count}")
