"""A stranger that holds junk connections open to a host: ``python junk_stranger.py PORT COUNT``.

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

import trio

PACE = 0.2  # seconds between two bytes of junk
PAUSE = 0.5  # seconds before a connection the host closed is dialled again


class Stranger:
    def __init__(self, port: int) -> None:
        self.port = port
        self.closed = 0

    async def hold(self, kind: int, task_status=trio.TASK_STATUS_IGNORED) -> None:
        while True:
            try:
                stream = await trio.open_tcp_stream("127.0.0.1", self.port)
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
            await trio.sleep(PAUSE)

    @staticmethod
    async def _send_junk(stream: trio.SocketStream, kind: int) -> None:
        if kind == 0:
            return  # says nothing
        junk = struct.pack(">I", 1000) + b"x" * 1000 if kind == 1 else os.urandom(1000)
        try:
            for byte in junk:
                await stream.send_all(bytes([byte]))
                await trio.sleep(PACE)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass


async def main(port: int, count: int) -> None:
    stranger = Stranger(port)
    async with trio.open_nursery() as nursery:
        for number in range(count):
            await nursery.start(stranger.hold, number % 3)
        print(f"holding {count}", flush=True)
        await trio.to_thread.run_sync(sys.stdin.read)  # until the test closes our stdin
        print(f"closed {stranger.closed}", flush=True)
        nursery.cancel_scope.cancel()


if __name__ == "__main__":
    trio.run(main, int(sys.argv[1]), int(sys.argv[2]))
