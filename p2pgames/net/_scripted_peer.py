"""A joiner whose socket its caller holds: a :class:`Session` over a raw TCP connection to a host,
read and written by the caller itself — so that it can do what a :class:`~p2pgames.net.Node`
never does: stop reading, send what its session would refuse, or read only when told. For the
flood benchmark (``p2pgames.net._bench_flood``) and the tests; not for players.
"""

from __future__ import annotations

import socket
from typing import Any, Callable, Iterable

import trio

from p2pgames.net._framing import FrameReader, frame
from p2pgames.net._players import LOOPBACK
from p2pgames.session import HOST_CONNECTION, Session, encode_record

__all__ = ["ScriptedPeer"]


class ScriptedPeer:
    """``session`` (a joiner's) over a connection the test drives; ``bot`` makes its decisions
    when :meth:`play_until` reads (none: it never decides, a person thinking)."""

    def __init__(self, session: Session, bot: Any = None) -> None:
        self.session = session
        self.bot = bot
        self.stream: trio.SocketStream | None = None
        self.reader: FrameReader | None = None
        self.transcript = bytearray()
        self.saved: list[bytes] = []
        self.events: list[Any] = []

    async def dial(self, port: int, *, host: str = LOOPBACK, receive_buffer: int | None = None) -> None:
        """Connect to the host at ``host``:``port``; ``receive_buffer`` (bytes) keeps the kernel
        from holding much that this peer has not read."""
        sock = trio.socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if receive_buffer is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        try:
            await sock.connect((host, port))
        except BaseException:  # failed, or cancelled
            sock.close()
            raise
        self.stream = trio.SocketStream(sock)
        self.reader = FrameReader(self.stream)
        self.session.connected(HOST_CONNECTION)

    async def flush(self) -> None:
        """Send what the session has to send; keep its records and events."""
        session = self.session
        outgoing = session.take_outgoing()
        self.transcript += b"".join(encode_record(record) for record in session.take_transcript())
        self.saved += session.take_saved()
        self.events += session.take_events()
        session.take_closing()
        if outgoing:
            await self.send(payload for _, payload in outgoing)

    async def send(self, payloads: Iterable[bytes]) -> None:
        """Write ``payloads``, framed, whatever the session would say of them."""
        assert self.stream is not None
        await self.stream.send_all(b"".join(frame(payload) for payload in payloads))

    async def read_one(self) -> bytes | None:
        """The next frame from the host, handed to the session (``None``: the host closed)."""
        assert self.reader is not None
        payload = await self.reader.next_frame()
        if payload is not None:
            self.session.receive(HOST_CONNECTION, payload, trio.current_time())
        return payload

    async def play_until(self, done: Callable[[], bool]) -> None:
        """Read and answer as a peer does (the session's duties, the bot's decisions) until
        ``done()``; raises ``EOFError`` if the host closes the connection first."""
        await self.flush()
        while not done():
            if await self.read_one() is None:
                raise EOFError("the host closed the connection")
            session = self.session
            decision = session.decision(texts=False)
            if self.bot is not None and decision is not None:
                replica = session.replica
                session.act(self.bot.choose(session.game, replica.state, session.seat, session.knowledge, decision.step))
            await self.flush()

    async def drain(self) -> list[bytes]:
        """Read (and hand the session nothing more) until the host closes: what it sent."""
        assert self.reader is not None
        frames = []
        try:
            while (payload := await self.reader.next_frame()) is not None:
                frames.append(payload)
        except trio.BrokenResourceError:  # closed with our frames unread: a reset
            pass
        return frames

    async def aclose(self) -> None:
        if self.stream is not None:
            await trio.aclose_forcefully(self.stream)
