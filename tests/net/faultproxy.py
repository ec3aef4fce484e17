"""A fault-injecting TCP proxy for tests: real peers over loopback, and a network that misbehaves.

::

    client ──► FaultProxy (127.0.0.1:port) ══ Link ══► target (127.0.0.1:target_port)
               "up"   = client → target
               "down" = target → client

Each forwarded connection is a :class:`Link`: two directions, each with its own faults. A direction
reads what arrives, holds each chunk ``delay`` seconds, waits while stalled, sends on at most
``throttle`` bytes a second, and always keeps order. It also reads the bytes as frames (a 4-byte
big-endian length, then the payload: ``p2pgames/net/_framing.py``), so a test can wait for a frame
(:meth:`Link.wait_frame`) or cut the link just before one (:meth:`Link.cut_before`); :func:`kind_is`
builds the predicates from message kinds.

Everything runs in trio tasks on trio's clock, so under pytest-trio's ``autojump_clock`` a delay
or a rate costs no real time. Cancelling the nursery that runs :meth:`FaultProxy.run` closes every
socket the proxy opened; no task outlives it.
"""

from __future__ import annotations

import math
import socket
from typing import Any, Callable, Literal

import trio

from p2pgames.net import DEFAULT_MAX_FRAME
from p2pgames.session._messages import MalformedMessage, open_envelope

__all__ = ["FaultProxy", "Link", "LinkEnded", "kind_is", "LOOPBACK"]

LOOPBACK = "127.0.0.1"
Direction = Literal["up", "down", "both"]
Predicate = Callable[[bytes], bool]

_CHUNK = 65536
_TICK = 0.01  # a throttled direction sends a slice of this many seconds' worth at a time
_END = object()  # in a direction's queue: the source ended
_CUT = object()  # in a direction's queue: cut_before matched the next frame


class LinkEnded(Exception):
    """The direction a test was watching ended before the frame it waited for went through."""


def kind_is(kind: str, t: str | None = None, **fields: Any) -> Predicate:
    """A frame predicate: an envelope of ``kind`` whose body has ``fields`` (``seat=1``, …).

    ``t`` also asks for the submission's type (``"act"``, ``"commit"``, ``"keys"``, …): a
    ``submit``'s ``body["body"]["t"]``, or that of the submission an ``entry`` records. A payload
    that is no envelope matches nothing.
    """

    def matches(payload: bytes) -> bool:
        try:
            envelope = open_envelope(payload)
            if envelope.kind != kind or any(envelope.body.get(k) != v for k, v in fields.items()):
                return False
            if t is None:
                return True
            if kind == "entry":
                envelope = open_envelope(envelope.body["submission"])
            inner = envelope.body.get("body")
            return isinstance(inner, dict) and inner.get("t") == t
        except MalformedMessage:
            return False

    return matches


class _FrameSplitter:
    """Cuts a byte stream, fed in chunks of any size, at the end of each frame.

    :meth:`feed` returns ``(piece, payload)`` pairs covering the chunk in order: ``payload`` is the
    frame that ``piece`` completes, or ``None`` for a piece that stops inside a frame. A length of
    zero or over the maximum means the stream isn't framed: from there on it is passed through
    uncut and no payload is ever reported.
    """

    def __init__(self) -> None:
        self._frame = bytearray()  # the frame read so far, its length included
        self.framed = True

    def _missing(self) -> int:
        if len(self._frame) < 4:
            return 4 - len(self._frame)
        return 4 + int.from_bytes(self._frame[:4], "big") - len(self._frame)

    def feed(self, data: bytes) -> list[tuple[bytes, bytes | None]]:
        pieces: list[tuple[bytes, bytes | None]] = []
        start = at = 0
        while at < len(data) and self.framed:
            step = data[at:at + self._missing()]
            self._frame += step
            at += len(step)
            if len(self._frame) == 4:
                self.framed = 0 < int.from_bytes(self._frame, "big") <= DEFAULT_MAX_FRAME
            elif len(self._frame) > 4 and self._missing() == 0:
                pieces.append((data[start:at], bytes(self._frame[4:])))
                self._frame.clear()
                start = at
        if start < len(data):
            pieces.append((data[start:], None))
        return pieces


class _Pipe:
    """One direction of a link: a reader task queues what ``source`` sends, a writer task sends it
    on to ``destination`` when the faults allow. Only the writer ever waits on time."""

    def __init__(self, link: Link, source: trio.SocketStream, destination: trio.SocketStream) -> None:
        self.link = link
        self.source = source
        self.destination = destination
        self.delay = 0.0
        self.rate: float | None = None
        self.flowing = trio.Event()  # replaced by an unset one while stalled
        self.flowing.set()
        self.cut_before: tuple[Predicate, Direction] | None = None
        self.forwarded: list[bytes] = []  # payloads of the frames sent on, in order
        self.progress = trio.Event()  # set (and replaced) when a frame is sent on or the pipe ends
        self.done = trio.Event()
        self.scope = trio.CancelScope()
        self._queue_send, self._queue = trio.open_memory_channel[tuple[float, Any, bytes | None]](math.inf)
        self._held = bytearray()  # read, not queued: the start of a frame cut_before must see whole
        self._splitter = _FrameSplitter()

    async def run(self) -> None:
        try:
            with self.scope:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(self._read)
                    await self._write()
                    nursery.cancel_scope.cancel()  # the destination is gone: stop reading too
        finally:
            self.done.set()
            self._wake()

    def _wake(self) -> None:
        self.progress.set()
        self.progress = trio.Event()

    def cut(self) -> None:
        """Stop now: drop what is queued and give the destination an end of stream."""
        self.scope.cancel()
        try:
            self.destination.socket.shutdown(socket.SHUT_WR)
        except OSError:
            pass  # closed already, or never connected

    async def _read(self) -> None:
        try:
            while chunk := await self.source.receive_some(_CHUNK):
                for piece, payload in self._splitter.feed(chunk):
                    # With cut_before set, a frame is queued only once it is whole and let through.
                    holding = self.cut_before is not None and self._splitter.framed
                    self._held += piece
                    if payload is not None and self.cut_before and self.cut_before[0](payload):
                        self._queue_send.send_nowait((0.0, _CUT, None))  # the frame is never sent
                        return
                    if payload is not None or not holding:
                        self._queue_send.send_nowait((trio.current_time() + self.delay, bytes(self._held), payload))
                        self._held.clear()
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            pass  # a reset or failed source ends its direction like a close
        self._queue_send.send_nowait((0.0, _END, None))

    async def _write(self) -> None:
        try:
            async for due, data, payload in self._queue:
                if data is _END:
                    await self.destination.send_eof()
                    return
                if data is _CUT:
                    assert self.cut_before is not None
                    self.link.cut(self.cut_before[1])
                    return
                await trio.sleep_until(due)
                await self._send_on(data)
                if payload is not None:
                    self.forwarded.append(payload)
                    self._wake()
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            pass  # the destination is gone: nothing more can go this way

    async def _send_on(self, data: bytes) -> None:
        while data:
            await self.flowing.wait()
            size = len(data) if self.rate is None else max(1, int(self.rate * _TICK))
            piece, data = data[:size], data[size:]
            if self.rate is not None:
                await trio.sleep(len(piece) / self.rate)  # so its last byte leaves at len/rate
            await self.destination.send_all(piece)


class Link:
    """One forwarded connection. A fault acts from the moment it is set, on ``"up"``, ``"down"``
    or ``"both"``; chunks already read keep the delay they were given."""

    def __init__(self, number: int, client: trio.SocketStream, server: trio.SocketStream) -> None:
        self.number = number
        self.client = client
        self.server = server
        self.up = _Pipe(self, client, server)
        self.down = _Pipe(self, server, client)
        self.closed = trio.Event()  # both sockets are closed: the link is over

    def _pipes(self, direction: Direction) -> list[_Pipe]:
        pipes = {"up": [self.up], "down": [self.down], "both": [self.up, self.down]}.get(direction)
        if pipes is None:
            raise ValueError(f"a direction is 'up', 'down' or 'both', not {direction!r}")
        return pipes

    def delay(self, direction: Direction, seconds: float) -> None:
        """Hold every chunk read from now on ``seconds`` before sending it on (order is kept)."""
        for pipe in self._pipes(direction):
            pipe.delay = seconds

    def stall(self, direction: Direction = "both") -> None:
        """Send nothing more until :meth:`resume`; what arrives meanwhile is kept, none lost."""
        for pipe in self._pipes(direction):
            if pipe.flowing.is_set():
                pipe.flowing = trio.Event()

    def resume(self, direction: Direction = "both") -> None:
        """Go on after :meth:`stall`: everything held is sent, in order."""
        for pipe in self._pipes(direction):
            pipe.flowing.set()

    def throttle(self, direction: Direction, bytes_per_second: float | None) -> None:
        """Send at most ``bytes_per_second`` (``None``: as fast as the sockets go)."""
        for pipe in self._pipes(direction):
            pipe.rate = bytes_per_second

    def cut(self, direction: Direction = "both") -> None:
        """Cut now; what is queued is lost. ``"both"`` closes both sockets, as a killed process
        would (a pulled cable, where nothing more arrives and nothing closes, is ``stall()``).
        One direction stops forwarding that way and ends it with an EOF at its destination,
        while the other direction goes on."""
        if direction != "both":
            self._pipes(direction)[0].cut()
            return
        for pipe in (self.up, self.down):
            pipe.scope.cancel()
        self._close_sockets()

    def cut_before(self, direction: Literal["up", "down"], predicate: Predicate, *, then: Direction = "both") -> None:
        """Send on every frame up to, not including, the first one after this call that matches
        ``predicate(payload)``; then :meth:`cut` ``then``: ``"both"``, or ``direction`` alone.
        Nothing from that frame on goes through. (A frame already partly sent on when this is
        called is not looked at.)"""
        if then not in (direction, "both"):
            raise ValueError(f"cut_before({direction!r}) then cuts {direction!r} or 'both', not {then!r}")
        self._pipes(direction)[0].cut_before = (predicate, then)

    def frames(self, direction: Literal["up", "down"]) -> list[bytes]:
        """The payloads of the frames sent on in ``direction`` so far, in order."""
        return list(self._pipes(direction)[0].forwarded)

    async def wait_frame(self, direction: Literal["up", "down"], predicate: Predicate, *, count: int = 1) -> bytes:
        """Wait until ``count`` frames matching ``predicate`` have been sent on in ``direction``
        since the link opened, and return the last; raises :class:`LinkEnded` if it ends first."""
        pipe = self._pipes(direction)[0]
        seen = found = 0
        while True:
            for payload in pipe.forwarded[seen:]:
                found += predicate(payload)
                if found == count:
                    return payload
            seen = len(pipe.forwarded)
            if pipe.done.is_set():
                raise LinkEnded(f"link {self.number} {direction} ended after {found} matching frame(s)")
            await pipe.progress.wait()

    async def run(self) -> None:
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self.up.run)
                nursery.start_soon(self.down.run)
        finally:
            self._close_sockets()

    def _close_sockets(self) -> None:
        # At once, not with aclose(): in a cancelled task its checkpoint would raise before the
        # second socket is closed.
        self.client.socket.close()
        self.server.socket.close()
        self.closed.set()


class FaultProxy:
    """Listens on 127.0.0.1 and forwards each connection to ``(target_host, target_port)``.

    ``on_link(link)``, if given, is called for each new link before any byte goes through it, so
    a fault can hold from the first byte. A connection the target refuses is closed at once.
    """

    def __init__(
        self, target_port: int, target_host: str = LOOPBACK, *, port: int = 0,
        on_link: Callable[[Link], None] | None = None,
    ) -> None:
        self.target = (target_host, target_port)
        self.port = port  # the port it listens on, known once run() has started
        self.on_link = on_link
        self.links: list[Link] = []  # one per forwarded connection, in the order they were made
        self.refused = 0  # connections closed at once under refuse_new or by the target
        self._refusing = False
        self._new_link = trio.Event()

    async def run(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        """Listen and forward until cancelled; ``await nursery.start(proxy.run)`` gives the port."""
        listeners = await trio.open_tcp_listeners(self.port, host=LOOPBACK)
        try:
            self.port = listeners[0].socket.getsockname()[1]
            task_status.started(self.port)
            await trio.serve_listeners(self._forward, listeners)
        finally:
            for listener in listeners:
                listener.socket.close()

    def refuse_new(self, refuse: bool = True) -> None:
        """While ``refuse``, each new connection is accepted and closed at once (the host is gone)."""
        self._refusing = refuse

    def cut_all(self) -> None:
        """:meth:`Link.cut` both directions of every link."""
        for link in self.links:
            link.cut("both")

    async def wait_for_link(self, index: int) -> Link:
        """The ``index``-th link (from 0), once it exists."""
        while len(self.links) <= index:
            await self._new_link.wait()
        return self.links[index]

    async def _forward(self, client: trio.SocketStream) -> None:
        try:
            if self._refusing:
                self.refused += 1
                return
            try:
                server = await trio.open_tcp_stream(*self.target)
            except OSError:
                self.refused += 1
                return
            link = Link(len(self.links), client, server)
            if self.on_link is not None:
                self.on_link(link)
            self.links.append(link)
            self._new_link.set()
            self._new_link = trio.Event()
            await link.run()
        finally:
            client.socket.close()  # at once: a checkpoint here could raise Cancelled first
