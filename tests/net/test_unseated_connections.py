"""Connections that never say hello (issue 11, hole 2): a host holds them briefly and in small
numbers, and lets them all go when the game is over; however many a stranger holds, a joiner and a
seat coming back get in (issue 23, point 3).

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
from p2pgames.net import LOOPBACK, FrameReader, JoinCode, NetSettings, Node, SetupError, drive_bot, frame, join_table
from p2pgames.net import _node
from p2pgames.net._node import OWN_DESCRIPTORS, unseated_room
from p2pgames.session import DecisionNeeded, GameEnded, Session, open_envelope
from junk_stranger import Stranger
from scripted_peer import hello_to, serve

SETTINGS = NetSettings()
STRANGER = "127.0.0.2"


def host_node(players: int = 2, settings: NetSettings = SETTINGS) -> Node:
    ruleset = get_game("probe").ruleset(players, {})
    return Node(Session(Identity.generate(), "hostess", get_game, ruleset=ruleset), settings=settings)


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
    """How many connections ``node`` holds without a place at the table (one it closed may be
    in the list for a moment yet)."""
    return sum(
        not node._greeted(connection) and not connection.scope.cancel_called for connection in node.connections.values()
    )


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


async def test_the_oldest_of_too_many_unproven_connections_is_closed_to_make_room(autojump_clock, stranger):
    """Every connection is taken and greeted; beyond the room for them, the oldest goes."""
    host = host_node()
    room, more = SETTINGS.max_unseated, 8
    async with trio.open_nursery() as nursery:
        port = await serve(nursery, host)
        held = []
        for _ in range(room + more):
            stream = await stranger(port)
            assert await FrameReader(stream).next_frame() is not None, "taken and greeted"
            held.append(stream)
        with trio.fail_after(1):  # at once, not at the hello timeout
            for stream in held[:more]:
                assert await kinds_until_closed(stream) == [], "greeted already: nothing more, then closed"
        assert sorted(host.connections) == list(range(more + 1, room + more + 1)), "the newer ones are held"
        nursery.cancel_scope.cancel()


async def test_a_crowded_address_makes_room_out_of_its_own_connections(autojump_clock, stranger):
    """A stranger at one address holding as many unproven connections as it likes never closes
    another address's: a joiner there, slow to say hello, is seated once it does."""
    host = host_node(players=2)
    async with trio.open_nursery() as nursery:
        port = await serve(nursery, host)
        slow = await stranger(port, "127.0.0.3")
        reader = FrameReader(slow)
        hello = open_envelope(await reader.next_frame())
        for _ in range(SETTINGS.max_unseated + 8):
            stream = await stranger(port)
            assert await FrameReader(stream).next_frame() is not None
        assert unseated(host) == SETTINGS.max_unseated
        await slow.send_all(frame(hello_to(hello, "slow")))
        assert open_envelope(await reader.next_frame()).kind == "lobby"
        assert open_envelope(await reader.next_frame()).kind == "start", "seated: the table of two is full"
        nursery.cancel_scope.cancel()


async def both_finish(host: Node, joiner: Node) -> None:
    """Wait for the game's end: one result, and no fault."""
    with trio.fail_after(600):
        await host.finished.wait()
        await joiner.finished.wait()
    assert host.session.result is not None and host.session.fault is None
    assert joiner.session.result == host.session.result


STRANGERS = pytest.mark.parametrize("addresses", [
    pytest.param([LOOPBACK], id="from the joiner's own address"),
    pytest.param([f"127.0.0.{number}" for number in range(2, 10)], id="from eight others"),
])


@STRANGERS
async def test_a_joiner_gets_in_while_a_stranger_holds_40_connections(autojump_clock, tmp_path, addresses):
    """Issue 23, point 3: a stranger holding more unproven connections than the host had room
    for (from the joiner's address, or from eight: 4 from each, 32 in all, were the limits),
    dialling again each one closed, got every joiner refused. Now the joiner is seated at its
    first dial, and plays."""
    host = host_node(players=2)
    joiner = Node(Session(Identity.generate(), "joe", get_game, bot=True), transcript_dir=tmp_path)
    async with trio.open_nursery() as nursery:
        port = await serve(nursery, host)
        holder = Stranger(port, addresses, pause=1.0)
        await nursery.start(holder.run, 40)
        with trio.fail_after(1):  # one dial: nothing waits for the stranger's connections to time out
            await nursery.start(joiner.connect, LOOPBACK, port)
            await joiner.wait_until(lambda: joiner.session.stage != "lobby")
        await holder.wait_closed(8)  # it held more than there is room for
        nursery.start_soon(drive_bot, host, bot_for(get_game("probe"), b"host"))
        nursery.start_soon(drive_bot, joiner, bot_for(get_game("probe"), b"joe"))
        await both_finish(host, joiner)
        nursery.cancel_scope.cancel()


@STRANGERS
async def test_a_seat_coming_back_gets_in_while_a_stranger_holds_40_connections(autojump_clock, tmp_path, addresses):
    """The same stranger, once the game is on: a seat whose connection is dropped mid-game (it
    was refused, "the host did not take us back", and the table stalled) is back at its first
    dial, and the game ends."""
    host = host_node(players=2)
    joiner = Node(Session(Identity.generate(), "joe", get_game, bot=True), transcript_dir=tmp_path)
    async with trio.open_nursery() as nursery:
        port = await serve(nursery, host)
        await nursery.start(joiner.connect, LOOPBACK, port)
        nursery.start_soon(drive_bot, host, bot_for(get_game("probe"), b"host"))
        # The game waits for the joiner's first decision (its bot not started yet) meanwhile.
        await joiner.wait_until(lambda: joiner.session.decision(texts=False) is not None)
        holder = Stranger(port, addresses, pause=1.0)
        await nursery.start(holder.run, 40)
        await holder.wait_closed(8)  # it holds more than there is room for
        host.session.peer_unresponsive(1, "cut by the test")  # as the watchdog does: the seat is away
        host._flush()
        assert 1 in host.session.away
        with trio.fail_after(2):  # its first dial again (at once, after a good connection) is taken
            await host.wait_until(lambda: 1 not in host.session.away)
        nursery.start_soon(drive_bot, joiner, bot_for(get_game("probe"), b"joe"))
        await both_finish(host, joiner)
        nursery.cancel_scope.cancel()


def test_the_room_for_unproven_connections_leaves_the_table_its_descriptors():
    assert unseated_room(32, 12, None) == 32
    assert unseated_room(32, 12, 1024) == 32
    assert unseated_room(32, 4, OWN_DESCRIPTORS + 3 * 4 + 5) == 5
    assert unseated_room(32, 12, 50) == 1, "never none: a joiner can always get in"


async def test_a_process_allowed_few_files_holds_fewer_unproven_connections(autojump_clock, stranger, monkeypatch):
    monkeypatch.setattr(_node, "_descriptor_limit", lambda: OWN_DESCRIPTORS + 3 * 2 + 3)
    host = host_node(players=2)
    async with trio.open_nursery() as nursery:
        port = await serve(nursery, host)
        held = []
        for _ in range(5):
            held.append(stream := await stranger(port))
            assert await FrameReader(stream).next_frame() is not None
        with trio.fail_after(1):
            for stream in held[:2]:
                await kinds_until_closed(stream)
        assert unseated(host) == 3
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


async def test_a_joiner_the_host_closes_before_seating_it_is_told_the_host_closed_the_connection(autojump_clock):
    """What the README's troubleshooting names (a host closes a joiner that has not said hello
    within its timeout, or the oldest of too many that have not): the line a person sees."""
    async def hang_up(stream: trio.SocketStream) -> None:
        await trio.aclose_forcefully(stream)

    listeners = await trio.open_tcp_listeners(0, host=LOOPBACK)
    port = listeners[0].socket.getsockname()[1]
    async with trio.open_nursery() as nursery:
        nursery.start_soon(trio.serve_listeners, hang_up, listeners)
        with pytest.raises(SetupError, match="the host closed the connection"):
            await join_table(nursery, identity=Identity.generate(), name="joe", code=JoinCode(LOOPBACK, port, None))
        nursery.cancel_scope.cancel()


def test_the_spec_states_the_doors_limits_as_the_reference_host_has_them():
    """SPEC §B2 (the door) gives the reference host's numbers: they are these settings'."""
    from tests.spec.spec_text import section

    door = " ".join(section("## B2.").split())
    assert f"holds at most {SETTINGS.max_unseated} unproven connections at once" in door
    assert f"it leaves {OWN_DESCRIPTORS} descriptors for itself and 3 per seat" in door
    assert f"closes an unproven connection {SETTINGS.hello_timeout:.0f} s after it opened" in door
    assert f"frames of at most {SETTINGS.max_hello_frame:,} bytes".replace(",", " ") in door
