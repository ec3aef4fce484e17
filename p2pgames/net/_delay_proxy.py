"""A relay that holds every byte the same time each way, and counts the frames it passes.

``scripts/bench`` puts one between a host and its joiners to measure what the protocol costs in
round trips: with a one-way delay *D*, a table's time grows by 2*D* for every round trip on its
critical path, so the growth over a run without delay, divided by 2*D*, counts them whatever the
machine's speed. It relays bytes as they come (it never changes, drops or reorders any) and reads
them as frames only to count them (``p2pgames/net/_framing.py``: a 4-byte big-endian length,
then the payload).
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass

import trio

__all__ = ["DelayProxy", "RelayedFrames"]

_LENGTH = struct.Struct(">I")
_CHUNK = 65536


@dataclass
class RelayedFrames:
    """What a relay passed in one direction, over all its connections: whole frames and bytes."""

    frames: int = 0
    bytes: int = 0


class _FrameCounter:
    """Counts the whole frames in a byte stream fed in pieces, keeping only a frame's length."""

    def __init__(self, tally: RelayedFrames) -> None:
        self.tally = tally
        self._header = b""  # the part of a length read so far
        self._left = 0  # the payload bytes of the current frame still to come

    def feed(self, data: bytes) -> None:
        self.tally.bytes += len(data)
        view = memoryview(data)
        while view:
            if self._left:
                taken = min(self._left, len(view))
                self._left -= taken
                view = view[taken:]
                if not self._left:
                    self.tally.frames += 1
                continue
            needed = _LENGTH.size - len(self._header)
            self._header += bytes(view[:needed])
            view = view[needed:]
            if len(self._header) == _LENGTH.size:
                (self._left,) = _LENGTH.unpack(self._header)
                self._header = b""
                if not self._left:
                    self.tally.frames += 1  # (no such frame is valid; its receiver says so)


class DelayProxy:
    """Listens on ``host`` (an ephemeral port), and relays each connection to ``target_port`` on
    the same address, every chunk held ``delay`` seconds (of trio's clock) in each direction,
    in order. :attr:`up` counts what clients sent (joiners to their host), :attr:`down` what came
    back. Run it with ``await nursery.start(proxy.run)``, which gives its port; cancelling the
    nursery closes every socket it opened."""

    def __init__(self, target_port: int, delay: float, host: str = "127.0.0.1") -> None:
        if not (delay >= 0 and math.isfinite(delay)):
            raise ValueError(f"a delay of {delay!r} s")
        self.target_port = target_port
        self.delay = delay
        self.host = host
        self.up = RelayedFrames()
        self.down = RelayedFrames()

    async def run(self, *, task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
        listeners = await trio.open_tcp_listeners(0, host=self.host)
        async with trio.open_nursery() as nursery:
            task_status.started(listeners[0].socket.getsockname()[1])
            await trio.serve_listeners(self._relay, listeners, handler_nursery=nursery)

    async def _relay(self, client: trio.SocketStream) -> None:
        try:
            target = await trio.open_tcp_stream(self.host, self.target_port)
        except OSError:
            await client.aclose()
            return
        async with client, target, trio.open_nursery() as nursery:
            nursery.start_soon(self._one_way, client, target, _FrameCounter(self.up))
            nursery.start_soon(self._one_way, target, client, _FrameCounter(self.down))

    async def _one_way(self, source: trio.SocketStream, sink: trio.SocketStream, counter: _FrameCounter) -> None:
        """Relay ``source`` to ``sink``, each chunk ``delay`` after it came; at the end, end
        ``sink``'s sending side too (a closed connection closes the other after the delay)."""
        send, receive = trio.open_memory_channel[tuple[float, bytes]](math.inf)

        async def deliver() -> None:
            async with receive:
                async for due, chunk in receive:
                    await trio.sleep_until(due)
                    try:
                        await sink.send_all(chunk)
                    except (trio.BrokenResourceError, trio.ClosedResourceError):
                        return
            try:
                await sink.send_eof()
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass

        async with trio.open_nursery() as nursery:
            nursery.start_soon(deliver)
            async with send:
                while True:
                    try:
                        chunk = await source.receive_some(_CHUNK)
                    except (trio.BrokenResourceError, trio.ClosedResourceError):
                        chunk = b""
                    if not chunk:
                        break
                    counter.feed(chunk)
                    send.send_nowait((trio.current_time() + self.delay, chunk))
