"""A stranger that holds junk connections open to a host: ``python junk_stranger.py PORT COUNT``,
or in a test's own trio run, :class:`Stranger`.

It dials 127.0.0.1:PORT ``COUNT`` times and holds every connection open, saying no hello: a third
say nothing, a third send a frame's length (small enough to be waited for) and then its bytes one
every 0.2 s, a third send random bytes at that pace. Each the host closes is dialled again half a
second later, so that ``COUNT`` are always open or being opened. Every connection reads what it is
sent (the host's writes never block on it).

It prints ``holding COUNT`` once every connection has been dialled and has been answered (greeted
or closed), and, when its stdin closes, ``closed N`` (how many the host closed) before it exits.
"""

from __future__ import annotations

import os
import struct
import sys
from typing import Sequence

import trio

PACE = 0.2  # seconds between two bytes of junk
PAUSE = 0.5  # seconds before a connection the host closed is dialled again
SILENT, SLOW_FRAME, RANDOM = 0, 1, 2  # the kinds of connection: what each sends


class Stranger:
    """Connections to the host at 127.0.0.1:``port`` that say no hello, from ``addresses`` in
    turn (``None``: whichever the system picks); each the host closes is dialled again ``pause``
    seconds later. ``closed``: how many the host closed so far."""

    def __init__(self, port: int, addresses: Sequence[str | None] = (None,), pause: float = PAUSE) -> None:
        self.port = port
        self.addresses = addresses
        self.pause = pause
        self.closed = 0
        self._closed_more = trio.Event()

    async def run(self, count: int, kinds: Sequence[int] = (SILENT,), *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        """Hold ``count`` connections, of ``kinds`` in turn (see :meth:`hold`); started once
        each has been dialled and answered (greeted or closed)."""
        async with trio.open_nursery() as nursery:
            for number in range(count):
                address = self.addresses[number % len(self.addresses)]
                await nursery.start(self.hold, kinds[number % len(kinds)], address)
            task_status.started()

    async def wait_closed(self, count: int) -> None:
        """Wait until the host has closed ``count`` of our connections."""
        while self.closed < count:
            await self._closed_more.wait()

    async def hold(self, kind: int, address: str | None = None, task_status=trio.TASK_STATUS_IGNORED) -> None:
        """One connection from ``address``, sending what ``kind`` says, dialled again each
        time the host closes it, until nobody listens any more."""
        while True:
            try:
                stream = await trio.open_tcp_stream("127.0.0.1", self.port, local_address=address)
            except OSError:  # nobody listens any more
                task_status.started()
                return
            async with stream, trio.open_nursery() as nursery:
                nursery.start_soon(self._send_junk, stream, kind)
                try:
                    data = await stream.receive_some(65536)  # the host's hello, or the close
                    task_status.started()
                    task_status = trio.TASK_STATUS_IGNORED
                    while data:
                        data = await stream.receive_some(65536)
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    task_status.started()
                    task_status = trio.TASK_STATUS_IGNORED
                nursery.cancel_scope.cancel()
            self.closed += 1
            self._closed_more.set()
            self._closed_more = trio.Event()
            await trio.sleep(self.pause)

    @staticmethod
    async def _send_junk(stream: trio.SocketStream, kind: int) -> None:
        if kind == SILENT:
            return
        junk = struct.pack(">I", 1000) + b"x" * 1000 if kind == SLOW_FRAME else os.urandom(1000)
        try:
            for byte in junk:
                await stream.send_all(bytes([byte]))
                await trio.sleep(PACE)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass


async def main(port: int, count: int) -> None:
    stranger = Stranger(port)
    async with trio.open_nursery() as nursery:
        await nursery.start(stranger.run, count, (SILENT, SLOW_FRAME, RANDOM))
        print(f"holding {count}", flush=True)
        await trio.to_thread.run_sync(sys.stdin.read)  # until the test closes our stdin
        print(f"closed {stranger.closed}", flush=True)
        nursery.cancel_scope.cancel()


if __name__ == "__main__":
    trio.run(main, int(sys.argv[1]), int(sys.argv[2]))
