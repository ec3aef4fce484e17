"""Connections that never say hello (issue 11, hole 2): a host holds them briefly and in small
numbers, and lets them all go when the game is over.

A real host :class:`Node` listens on 127.0.0.1; the stranger is a raw TCP client that sends what
a test says (nothing, half a frame, a long length prefix), from 127.0.0.2 and up (all of
127.0.0.0/8 is loopback) so that its address and an honest joiner's differ. All on trio's
autojump clock: the hello timeout costs virtual time only.
"""

from __future__ import annotations

import struct

import pytest
import trio

from p2pgames.bots import bot_for
from p2pgames.crypto import Identity
from p2pgames.games import get_game
from p2pgames.net import LOOPBACK, FrameReader, JoinCode, NetSettings, Node, SetupError, drive_bot, join_table, open_host_listeners
from p2pgames.session import DecisionNeeded, GameEnded, Session, open_envelope

SETTINGS = NetSettings()
STRANGER = "127.0.0.2"


def host_node(players: int = 2, settings: NetSettings = SETTINGS) -> Node:
    ruleset = get_game("probe").ruleset(players, {})
    return Node(Session(Identity.generate(), "hostess", get_game, ruleset=ruleset), settings=settings)


async def serve(nursery: trio.Nursery, node: Node) -> int:
    listeners = await open_host_listeners(0, LOOPBACK)
    await nursery.start(node.serve, listeners)
    return listeners[0].socket.getsockname()[1]


@pytest.fixture
async def stranger():
    """``await stranger(port, address)``: a raw connection to the host from ``address``; every
    one is closed when the test ends."""
    opened: list[trio.SocketStream] = []

    async def dial(port: int, address: str = STRANGER) -> trio.SocketStream:
        stream = await trio.open_tcp_stream(LOOPBACK, port, local_address=address)
        opened.append(stream)
        return stream

    yield dial
    for stream in opened:
        await trio.aclose_forcefully(stream)


async def kinds_until_closed(stream: trio.SocketStream) -> list[str]:
    """The kinds of message the host sends on ``stream`` until it closes it."""
    reader = FrameReader(stream)
    kinds = []
    try:
        while (payload := await reader.next_frame()) is not None:
            kinds.append(open_envelope(payload).kind)
    except trio.BrokenResourceError:  # closed unread: a reset
        pass
    return kinds


def unseated(node: Node) -> int:
    if not hasattr(node, "_greeted"):
        return len(node.connections)
    return sum(not node._greeted(connection) for connection in node.connections.values())


@pytest.mark.parametrize("sent", [
    pytest.param(b"", id="nothing"),
    pytest.param(b"\x00\x00", id="half a length"),
    pytest.param(struct.pack(">I", 200) + b"x" * 20, id="half a frame"),
])
async def test_a_connection_without_a_hello_is_closed_after_the_hello_timeout(autojump_clock, stranger, sent):
    host = host_node()
    async with trio.open_nursery() as nursery:
        port = await serve(nursery, host)
        stream = await stranger(port)
        await stream.send_all(sent)
        opened = trio.current_time()
        with trio.fail_after(10 * SETTINGS.hello_timeout):  # else held (and pinged) for ever
            kinds = await kinds_until_closed(stream)
        waited = trio.current_time() - opened
        assert kinds == ["host-hello"], "greeted once, never pinged"
        assert SETTINGS.hello_timeout <= waited <= SETTINGS.hello_timeout + 2
        await host.wait_until(lambda: not host.connections)
        nursery.cancel_scope.cancel()


async def test_a_length_prefix_longer_than_any_hello_closes_the_connection_at_once(autojump_clock, stranger):
    """Within the 1 MiB frame limit, but no hello is that long: not waited for."""
    host = host_node()
    async with trio.open_nursery() as nursery:
        port = await serve(nursery, host)
        stream = await stranger(port)
        await stream.send_all(struct.pack(">I", SETTINGS.max_frame - 1) + b"x" * 100)
        with trio.fail_after(1):  # well before the hello timeout
            assert await kinds_until_closed(stream) == ["host-hello"]
        nursery.cancel_scope.cancel()


async def test_too_many_unseated_connections_from_one_address_are_refused_and_a_joiner_still_plays(autojump_clock, stranger, tmp_path):
    host = host_node(players=2)
    limit = SETTINGS.max_unseated_per_address
    async with trio.open_nursery() as nursery:
        port = await serve(nursery, host)
        held = [await stranger(port) for _ in range(limit)]
        for stream in held:  # each was accepted: greeted
            assert await FrameReader(stream).next_frame() is not None
        refused = await stranger(port)
        with trio.fail_after(1):
            assert await kinds_until_closed(refused) == [], "closed at once, unread and unanswered"
        assert unseated(host) == limit

        # An honest joiner from another address is seated, and the game plays to its end.
        joiner = Node(Session(Identity.generate(), "joe", get_game, bot=True), transcript_dir=tmp_path)
        await nursery.start(joiner.connect, LOOPBACK, port)
        nursery.start_soon(drive_bot, host, bot_for(get_game("probe"), b"host"))
        nursery.start_soon(drive_bot, joiner, bot_for(get_game("probe"), b"joe"))
        with trio.fail_after(600):
            await host.finished.wait()
            await joiner.finished.wait()
        assert host.session.result is not None and host.session.fault is None
        assert joiner.session.result == host.session.result


async def test_too_many_unseated_connections_in_all_are_refused_until_the_hello_timeout_frees_them(autojump_clock, stranger):
    host = host_node()
    per_address = SETTINGS.max_unseated_per_address
    addresses = [f"127.0.0.{2 + number // per_address}" for number in range(SETTINGS.max_unseated)]
    async with trio.open_nursery() as nursery:
        port = await serve(nursery, host)
        held = [await stranger(port, address) for address in addresses]
        await host.wait_until(lambda: unseated(host) == len(held))
        refused = await stranger(port, "127.0.0.200")  # an address with none yet
        with trio.fail_after(1):
            assert await kinds_until_closed(refused) == []
        for stream in held:
            await kinds_until_closed(stream)  # closed at the hello timeout
        later = await stranger(port, "127.0.0.200")
        assert await FrameReader(later).next_frame() is not None, "room again: greeted"
        nursery.cancel_scope.cancel()


async def play_without_leaving(node: Node, seed: bytes) -> None:
    """A bot that plays to the end and then stays, as a person does who reads the result."""
    bot = bot_for(get_game("probe"), seed)
    session = node.session
    async for event in node.events:
        if isinstance(event, DecisionNeeded) and (decision := session.decision(texts=False)) is not None:
            node.act(bot.choose(session.game, session.replica.state, session.seat, session.knowledge, decision.step))
        elif isinstance(event, GameEnded):
            return


async def test_after_the_game_the_host_stops_listening_closes_strangers_and_stops_pinging(autojump_clock, stranger):
    """Everyone stays at the table after the end; a stranger connected mid-game (the hello
    timeout set long, so only the end can free it) is closed, nothing is accepted any more, and
    the seated joiners' connections stay, unpinged."""
    host = host_node(players=3, settings=NetSettings(hello_timeout=10_000))
    async with trio.open_nursery() as nursery:
        port = await serve(nursery, host)
        joiners = []
        for number in (1, 2):
            joiner = Node(Session(Identity.generate(), f"joe-{number}", get_game, bot=True))
            await nursery.start(joiner.connect, LOOPBACK, port)
            await host.wait_until(lambda: host.session.lobby_size > number)
            joiners.append(joiner)
        strange = await stranger(port)
        for seed, node in zip((b"0", b"1", b"2"), [host, *joiners]):
            nursery.start_soon(play_without_leaving, node, seed)
        with trio.fail_after(600):
            await host.final_agreement.wait()
            assert await kinds_until_closed(strange) == ["host-hello"]
        with pytest.raises(OSError):
            await stranger(port)  # nobody listens
        assert sorted(host.session.seat_of_connection(number) for number in host.connections) == [1, 2]
        sent = host.bytes_sent
        await trio.sleep(10 * SETTINGS.ping_interval)
        assert host.bytes_sent == sent, "no pings after the game"
        assert len(host.connections) == 2
        nursery.cancel_scope.cancel()


async def test_a_joiner_refused_by_the_cap_is_told_the_host_closed_the_connection(autojump_clock, stranger):
    """What the README's troubleshooting names: the line a person sees, and no seat taken."""
    host = host_node()
    async with trio.open_nursery() as nursery:
        port = await serve(nursery, host)
        for _ in range(SETTINGS.max_unseated_per_address):
            await stranger(port, LOOPBACK)
        await host.wait_until(lambda: unseated(host) == SETTINGS.max_unseated_per_address)
        with pytest.raises(SetupError, match="the host closed the connection"):
            await join_table(nursery, identity=Identity.generate(), name="joe", code=JoinCode(LOOPBACK, port, None))
        assert host.session.lobby_size == 1
        nursery.cancel_scope.cancel()
