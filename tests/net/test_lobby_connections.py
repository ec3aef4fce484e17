"""A lobby seat lives as long as its connection (issue 23, point 4): however the connection ends
— closed by its peer, refused by the host for a malformed message or an oversize frame, dropped
for silence — the seat leaves the lobby, everyone left there sees it go, and the game starts only
with every seat connected.

A real host :class:`Node` listens on 127.0.0.1; the misbehaving peer (the *ghost*) is a raw TCP
client that says a valid hello, is seated in the lobby, and then misbehaves as a test says. Honest
joiners are product nodes played by bots. All on trio's autojump clock.
"""

from __future__ import annotations

import struct

import pytest
import trio

from p2pgames.bots import bot_for
from p2pgames.crypto import Identity
from p2pgames.games import get_game
from p2pgames.net import LOOPBACK, FrameReader, NetSettings, Node, drive_bot, frame
from p2pgames.session import Session
from scripted_peer import say_hello, serve

SETTINGS = NetSettings()


def names(node: Node) -> list[str]:
    return [info.name for info in node.session.lobby]


async def ghost_in_lobby(port: int) -> tuple[trio.SocketStream, FrameReader]:
    """A connection that says a valid hello as "ghost" (so it is seated in the lobby): the stream
    and its reader, past the host's hello."""
    stream = await trio.open_tcp_stream(LOOPBACK, port)
    reader = FrameReader(stream)
    await say_hello(stream, reader, "ghost")
    return stream, reader


async def malformed_message(stream: trio.SocketStream, reader: FrameReader, nursery: trio.Nursery) -> None:
    await stream.send_all(frame(b"\xc1 not msgpack"))  # the path the report names: refused by the host


async def frame_too_long(stream: trio.SocketStream, reader: FrameReader, nursery: trio.Nursery) -> None:
    await stream.send_all(struct.pack(">I", SETTINGS.max_frame + 1))


async def closed_by_its_peer(stream: trio.SocketStream, reader: FrameReader, nursery: trio.Nursery) -> None:
    await stream.aclose()


async def silent(stream: trio.SocketStream, reader: FrameReader, nursery: trio.Nursery) -> None:
    """Answers no ping (it reads them, so the host's sending never blocks)."""
    async def read_on() -> None:
        try:
            while await reader.next_frame() is not None:
                pass
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
    nursery.start_soon(read_on)


@pytest.mark.parametrize("misbehave", [malformed_message, frame_too_long, closed_by_its_peer, silent])
async def test_a_lobby_seat_whose_connection_ends_leaves_the_lobby_and_the_game_starts_without_it(autojump_clock, misbehave):
    game = get_game("probe")
    host = Node(Session(Identity.generate(), "hostess", get_game, ruleset=game.ruleset(4), bot=True))
    joiners = [Node(Session(Identity.generate(), name, get_game, bot=True)) for name in ("joe", "ann", "bob")]
    with trio.fail_after(600):  # virtual seconds: a guard against a hang
        async with trio.open_nursery() as nursery:
            port = await serve(nursery, host)
            nursery.start_soon(drive_bot, host, bot_for(game, b"host"))
            joe = joiners[0]
            await nursery.start(joe.connect, LOOPBACK, port)
            nursery.start_soon(drive_bot, joe, bot_for(game, b"joe"))
            stream, reader = await ghost_in_lobby(port)
            async with stream:
                await joe.wait_until(lambda: names(joe) == ["hostess", "joe", "ghost"])

                await misbehave(stream, reader, nursery)
                # Everyone left in the lobby sees the ghost go (silence takes the silence timeout).
                await joe.wait_until(lambda: names(joe) == ["hostess", "joe"])
                assert names(host) == ["hostess", "joe"] and host.session.lobby_size == 2

                # Two more fill the table: the game starts with every seat connected, and plays to its end.
                for joiner, seed in zip(joiners[1:], (b"ann", b"bob")):
                    await nursery.start(joiner.connect, LOOPBACK, port)
                    nursery.start_soon(drive_bot, joiner, bot_for(game, seed))
                await host.finished.wait()
    assert [seat.name for seat in host.session.seats] == ["hostess", "joe", "ann", "bob"]
    assert host.session.fault is None and host.session.result is not None
    assert all(joiner.session.result == host.session.result for joiner in joiners)
