"""Where the randomness comes from: ``os.urandom``, or bytes injected by a test or vector."""

from __future__ import annotations

import os

from ._errors import CryptoError


class ByteSource:
    """Hands out random bytes: from ``os.urandom``, or front to back from ``injected``.

    Injected bytes let tests and vectors be deterministic; running out of them raises
    :class:`CryptoError` rather than silently falling back to real randomness.
    """

    __slots__ = ("_injected", "_offset")

    def __init__(self, injected: bytes | None) -> None:
        if injected is not None and not isinstance(injected, bytes | bytearray | memoryview):
            raise TypeError(f"injected randomness must be bytes, not {type(injected).__name__}")
        self._injected = None if injected is None else bytes(injected)
        self._offset = 0

    def take(self, count: int) -> bytes:
        if self._injected is None:
            return os.urandom(count)
        end = self._offset + count
        if end > len(self._injected):
            raise CryptoError(
                f"injected randomness ran out: needed {end} bytes, got {len(self._injected)}"
            )
        chunk = self._injected[self._offset : end]
        self._offset = end
        return chunk
