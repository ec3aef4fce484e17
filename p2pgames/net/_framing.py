"""Length-prefixed frames over a byte stream.

A frame is a 4-byte big-endian length *n* (1 ≤ *n* ≤ the maximum) followed by *n* bytes of payload.
A length of zero or above the maximum, or a stream that ends inside a frame, is a framing error: the
connection can't be trusted to stay in step after that, so it is closed.
"""

from __future__ import annotations

import struct

import trio

from p2pgames.words import with_article

__all__ = ["FrameError", "FrameReader", "frame", "DEFAULT_MAX_FRAME"]

DEFAULT_MAX_FRAME = 1 << 20
_LENGTH = struct.Struct(">I")


class FrameError(Exception):
    """A framing error; ``code`` is ``"oversize"`` or ``"malformed"``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def frame(payload: bytes) -> bytes:
    return _LENGTH.pack(len(payload)) + payload


class FrameReader:
    """Reads frames from a trio stream, never buffering more than one maximum-size frame."""

    def __init__(self, stream: trio.abc.ReceiveStream, max_frame: int = DEFAULT_MAX_FRAME) -> None:
        self.stream = stream
        self.max_frame = max_frame
        self._buffer = bytearray()

    async def _fill(self, size: int) -> bool:
        while len(self._buffer) < size:
            chunk = await self.stream.receive_some(max(65536, size - len(self._buffer)))
            if not chunk:
                return False
            self._buffer += chunk
        return True

    async def next_frame(self) -> bytes | None:
        """The next payload, or ``None`` at a clean end of stream; raises :class:`FrameError`."""
        if not await self._fill(4):
            if self._buffer:
                raise FrameError("malformed", "sent a frame cut short (the connection ended inside its length)")
            return None
        (length,) = _LENGTH.unpack_from(self._buffer)
        if length == 0:
            raise FrameError("malformed", "sent an empty frame")
        if length > self.max_frame:
            raise FrameError("oversize", f"sent {with_article(f'{length}-byte')} frame, over the {self.max_frame}-byte limit")
        if not await self._fill(4 + length):
            raise FrameError("malformed", "sent a frame cut short (the connection ended inside it)")
        payload = bytes(self._buffer[4:4 + length])
        del self._buffer[:4 + length]
        return payload
