"""The fault-injecting proxy: each fault on plain sockets, then real peers playing through it.

Every test runs on the autojump clock: a delay or a rate costs virtual time only, and
``trio.sleep`` appears only where time is what is being tested.
"""

from __future__ import annotations

import contextlib
import math
from typing import AsyncIterator

import pytest
import trio

from faultproxy import LOOPBACK, FaultProxy, Link, LinkEnded, _FrameSplitter, kind_is
from p2pgames.bots import bot_for
from p2pgames.crypto import Identity, reproducible_bytes
from p2pgames.games import get_game
from p2pgames.net import Node, drive_bot, frame, open_host_listeners
from p2pgames.session import Session, verify_transcript
from p2pgames.session._messages import make_envelope


class Bench:
    """A proxy in front of a bare target server; :meth:`connect` gives both ends of a link."""

    def __init__(self, proxy: FaultProxy, accepted: trio.MemoryReceiveChannel, streams: list) -> None:
        self.proxy = proxy
        self._accepted = accepted
        self._streams = streams  # every stream opened here, closed when the bench ends
        self._links = 0

    async def connect(self) -> tuple[trio.SocketStream, trio.SocketStream, Link]:
        """(client end, target end, the link between them)."""
        client = await trio.open_tcp_stream(LOOPBACK, self.proxy.port)
        self._streams.append(client)
        server = await self._accepted.receive()
        self._streams.append(server)
        self._links += 1
        return client, server, await self.proxy.wait_for_link(self._links - 1)


async def serve_bare(send_accepted: trio.MemorySendChannel, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
    """A target server that hands each connection it accepts to the test, open (serve_listeners
    would close it when its handler returns); started, it gives its port."""
    async with (await trio.open_tcp_listeners(0, host=LOOPBACK))[0] as listener:
        task_status.started(listener.socket.getsockname()[1])
        while True:
            send_accepted.send_nowait(await listener.accept())


@contextlib.asynccontextmanager
async def bench(**options) -> AsyncIterator[Bench]:
    send_accepted, accepted = trio.open_memory_channel[trio.SocketStream](math.inf)
    streams: list[trio.SocketStream] = []
    try:
        async with trio.open_nursery() as nursery:
            proxy = FaultProxy(await nursery.start(serve_bare, send_accepted), **options)
            await nursery.start(proxy.run)
            yield Bench(proxy, accepted, streams)
            nursery.cancel_scope.cancel()
    finally:
        for stream in streams + _drain(accepted):
            stream.socket.close()


def _drain(channel: trio.MemoryReceiveChannel) -> list:
    streams = []
    while True:
        try:
            streams.append(channel.receive_nowait())
        except (trio.WouldBlock, trio.EndOfChannel):
            return streams


async def receive_exactly(stream: trio.SocketStream, size: int) -> bytes:
    data = bytearray()
    while len(data) < size:
        chunk = await stream.receive_some(size - len(data))
        assert chunk, f"the stream ended after {len(data)} of {size} bytes"
        data += chunk
    return bytes(data)


async def receive_to_end(stream: trio.SocketStream) -> bytes:
    """Everything until the stream ends (an end of stream, or a reset: both end it)."""
    data = bytearray()
    try:
        while chunk := await stream.receive_some():
            data += chunk
    except trio.BrokenResourceError:
        pass
    return bytes(data)


async def nothing_arrives(stream: trio.SocketStream, seconds: float = 5.0) -> bool:
    with trio.move_on_after(seconds):
        await stream.receive_some()
        return False
    return True


# -- framing ---------------------------------------------------------------------------------


def test_the_splitter_finds_every_frame_however_the_bytes_are_cut():
    payloads = [b"a", b"bc" * 300, b"\x00\x00\x00\x05", b"last"]
    stream = b"".join(frame(payload) for payload in payloads)
    for size in (1, 2, 3, 5, 7, 64, len(stream)):
        splitter = _FrameSplitter()
        pieces = [piece for start in range(0, len(stream), size) for piece in splitter.feed(stream[start:start + size])]
        assert b"".join(piece for piece, _ in pieces) == stream
        assert [payload for _, payload in pieces if payload is not None] == payloads
        ends = [i for i, (_, payload) in enumerate(pieces) if payload is not None]
        assert ends[-1] == len(pieces) - 1, "a piece that completes a frame ends where the frame ends"


def test_bytes_that_are_not_frames_pass_uncut():
    splitter = _FrameSplitter()
    assert splitter.feed(b"\x00\x00\x00\x00rest") == [(b"\x00\x00\x00\x00rest", None)]
    assert not splitter.framed
    assert splitter.feed(b"more") == [(b"more", None)]


def test_kind_is_reads_kinds_fields_and_submission_types():
    identity = Identity.generate(bytes(32))
    game_id = bytes(32)
    submit = make_envelope(identity, "submit", {
        "game_id": game_id, "seat": 1, "counter": 0, "based_on": 0, "body": {"t": "commit", "commitment": b"c"},
    })
    entry = make_envelope(identity, "entry", {
        "game_id": game_id, "seq": 3, "prev": bytes(32), "submission": submit.raw, "state": bytes(32),
    })
    assert kind_is("submit")(submit.raw) and kind_is("submit", t="commit", seat=1)(submit.raw)
    assert not kind_is("submit", t="act")(submit.raw) and not kind_is("submit", seat=2)(submit.raw)
    assert kind_is("entry", t="commit", seq=3)(entry.raw) and not kind_is("submit")(entry.raw)
    assert not kind_is("submit")(b"not msgpack at all")


# -- each fault on plain sockets ---------------------------------------------------------------


async def test_bytes_pass_unchanged_both_ways_and_a_close_passes_through(autojump_clock):
    async with bench() as b:
        client, server, link = await b.connect()
        up, down = bytes(range(256)) * 1000, b"\x00\xffdown" * 5000
        async with trio.open_nursery() as nursery:
            nursery.start_soon(client.send_all, up)
            nursery.start_soon(server.send_all, down)
            assert await receive_exactly(server, len(up)) == up
            assert await receive_exactly(client, len(down)) == down
        await client.send_eof()
        assert await server.receive_some() == b""
        await server.send_eof()
        assert await client.receive_some() == b""
        await link.closed.wait()


async def test_delay_holds_each_chunk_its_time_and_keeps_order(autojump_clock):
    async with bench() as b:
        client, server, link = await b.connect()
        link.delay("up", 0.2)
        sent, arrived = {}, {}
        async with trio.open_nursery() as nursery:

            async def receive() -> None:
                for name in (b"one", b"two", b"six"):
                    assert await receive_exactly(server, 3) == name  # in the order sent
                    arrived[name] = trio.current_time()

            nursery.start_soon(receive)
            for name in (b"one", b"two", b"six"):
                sent[name] = trio.current_time()
                await client.send_all(name)
                await trio.sleep(0.05)
        for name in sent:
            assert arrived[name] - sent[name] == pytest.approx(0.2)
        await server.send_all(b"back")
        start = trio.current_time()
        assert await receive_exactly(client, 4) == b"back"
        assert trio.current_time() - start == pytest.approx(0.0), "down was not delayed"


async def test_stall_holds_every_byte_and_resume_delivers_them_in_order(autojump_clock):
    async with bench() as b:
        client, server, link = await b.connect()
        link.stall("up")
        pieces = [bytes([n]) * 1000 for n in range(10)]
        for piece in pieces:
            await client.send_all(piece)
        assert await nothing_arrives(server, 60.0)
        await server.send_all(b"down still flows")
        assert await receive_exactly(client, 16) == b"down still flows"
        link.resume("up")
        assert await receive_exactly(server, 10_000) == b"".join(pieces)


async def test_throttle_takes_the_time_its_rate_sets(autojump_clock):
    rate, size = 20_000, 50_000
    async with bench() as b:
        client, server, link = await b.connect()
        link.throttle("up", rate)
        start = trio.current_time()
        async with trio.open_nursery() as nursery:
            nursery.start_soon(client.send_all, b"x" * size)
            assert await receive_exactly(server, size) == b"x" * size
        slice_time = max(1, int(rate * 0.01)) / rate
        assert trio.current_time() - start == pytest.approx(size / rate, abs=slice_time)
        link.throttle("up", None)
        start = trio.current_time()
        await client.send_all(b"y" * size)
        await receive_exactly(server, size)
        assert trio.current_time() - start < slice_time


async def test_cutting_one_direction_ends_it_and_the_other_goes_on(autojump_clock):
    async with bench() as b:
        client, server, link = await b.connect()
        await client.send_all(b"before")
        assert await receive_exactly(server, 6) == b"before"
        link.cut("up")
        assert await server.receive_some() == b"", "the target sees the client's side end"
        await client.send_all(b"lost")
        await server.send_all(b"still here")
        assert await receive_exactly(client, 10) == b"still here"
        await server.aclose()
        assert await receive_to_end(client) == b""
        await link.closed.wait()


async def test_cutting_both_ends_both_sides_at_once(autojump_clock):
    async with bench() as b:
        client, server, link = await b.connect()
        link.stall("down")
        await server.send_all(b"queued, never delivered")
        assert await nothing_arrives(client)
        link.cut()
        assert await receive_to_end(client) == b""
        assert await receive_to_end(server) == b""
        await link.closed.wait()
        with pytest.raises(LinkEnded):
            await link.wait_frame("up", lambda payload: True)


async def test_cut_all_cuts_every_link(autojump_clock):
    async with bench() as b:
        (first, _, _), (second, _, _) = await b.connect(), await b.connect()
        b.proxy.cut_all()
        assert await receive_to_end(first) == b"" and await receive_to_end(second) == b""
        assert all(link.closed.is_set() for link in b.proxy.links), "closed at once, not later"


async def test_cut_before_delivers_exactly_the_frames_before_the_match(autojump_clock):
    payloads = [b"first", b"second", b"STOP here", b"after"]
    async with bench() as b:
        client, server, link = await b.connect()
        link.cut_before("up", lambda payload: payload.startswith(b"STOP"))
        data = b"".join(frame(payload) for payload in payloads)
        with contextlib.suppress(trio.BrokenResourceError):  # the cut may come before the last write
            for start in range(0, len(data), 3):  # frames cut across writes, however the proxy reads them
                await client.send_all(data[start:start + 3])
        assert await receive_to_end(server) == frame(b"first") + frame(b"second")
        assert link.frames("up") == [b"first", b"second"]
        assert await receive_to_end(client) == b"", "then='both': the client is cut too"


async def test_cut_before_one_direction_leaves_the_other_open(autojump_clock):
    async with bench() as b:
        client, server, link = await b.connect()
        link.delay("down", 0.5)
        link.cut_before("down", lambda payload: payload == b"two", then="down")
        with pytest.raises(ValueError):
            link.cut_before("down", lambda payload: True, then="up")
        await server.send_all(frame(b"one") + frame(b"two") + frame(b"three"))
        assert await receive_to_end(client) == frame(b"one"), "frames before the match keep their delay"
        assert trio.current_time() == pytest.approx(0.5)
        await client.send_all(frame(b"up goes on"))
        assert await receive_exactly(server, 14) == frame(b"up goes on")
        assert await link.wait_frame("up", lambda payload: payload.startswith(b"up")) == b"up goes on"


async def test_refuse_new_closes_new_connections_until_lifted(autojump_clock):
    async with bench() as b:
        _, _, link = await b.connect()
        b.proxy.refuse_new()
        refused = await trio.open_tcp_stream(LOOPBACK, b.proxy.port)
        async with refused:
            assert await receive_to_end(refused) == b""
        assert b.proxy.refused == 1 and b.proxy.links == [link], "the old link stays"
        b.proxy.refuse_new(False)
        client, server, second = await b.connect()
        await client.send_all(b"hi")
        assert await receive_exactly(server, 2) == b"hi" and second.number == 1


async def test_a_target_that_refuses_closes_the_client(autojump_clock):
    closed = await trio.open_tcp_listeners(0, host=LOOPBACK)
    port = closed[0].socket.getsockname()[1]
    await closed[0].aclose()
    proxy = FaultProxy(port)
    async with trio.open_nursery() as nursery:
        await nursery.start(proxy.run)
        client = await trio.open_tcp_stream(LOOPBACK, proxy.port)
        async with client:
            assert await receive_to_end(client) == b""
        assert proxy.refused == 1 and proxy.links == []
        nursery.cancel_scope.cancel()


async def test_cancelling_the_proxy_closes_every_link(autojump_clock):
    send_accepted, accepted = trio.open_memory_channel[trio.SocketStream](math.inf)
    async with trio.open_nursery() as outer:
        proxy = FaultProxy(await outer.start(serve_bare, send_accepted), on_link=lambda link: link.stall())
        async with trio.open_nursery() as inner:
            await inner.start(proxy.run)
            client = await trio.open_tcp_stream(LOOPBACK, proxy.port)
            server = await accepted.receive()
            await client.send_all(b"held in the proxy")
            link = await proxy.wait_for_link(0)
            inner.cancel_scope.cancel()
        assert link.closed.is_set() and link.up.done.is_set() and link.down.done.is_set()
        async with client, server:
            assert await receive_to_end(client) == b""
            assert await receive_to_end(server) == b""
        outer.cancel_scope.cancel()


# -- real peers through the proxy --------------------------------------------------------------


async def play_probe_through_proxy(tmp_path, seed: bytes, on_link) -> tuple[list[Node], FaultProxy]:
    """A 3-seat probe table, built like ``play_table`` builds one, but the joiners dial the proxy.

    Returns once every node has stopped (within five virtual minutes)."""
    game = get_game("probe")
    ruleset = game.ruleset(3, {})
    nodes = []
    for seat in range(3):
        random_bytes = reproducible_bytes(seed + b"/seat/" + bytes([seat]))
        session = Session(
            Identity.generate(random_bytes(32)), f"bot-{seat}", get_game,
            ruleset=ruleset if seat == 0 else None, bot=True, random_bytes=random_bytes,
        )
        nodes.append(Node(session, transcript_path=tmp_path / f"seat{seat}.p2pt"))
    host = nodes[0]
    listeners = await open_host_listeners(0, LOOPBACK)
    proxy = FaultProxy(listeners[0].socket.getsockname()[1], on_link=on_link)
    with trio.fail_after(300):
        async with trio.open_nursery() as nursery:
            await nursery.start(proxy.run)
            await nursery.start(host.serve, listeners)
            nursery.start_soon(drive_bot, host, bot_for(game, seed + b"\x00"))
            for seat in (1, 2):
                await nursery.start(nodes[seat].connect, LOOPBACK, proxy.port)
                nursery.start_soon(drive_bot, nodes[seat], bot_for(game, seed + bytes([seat])))
                await host.wait_until(lambda: host.session.lobby_size > seat)  # seats in dialling order
            for node in nodes:
                await node.finished.wait()
            nursery.cancel_scope.cancel()  # the proxy
    return nodes, proxy


async def test_a_table_with_every_link_delayed_still_finishes_and_verifies(tmp_path, autojump_clock):
    nodes, proxy = await play_probe_through_proxy(tmp_path, b"slow", lambda link: link.delay("both", 0.2))
    assert len(proxy.links) == 2
    results = [node.session.result for node in nodes]
    assert results[0] is not None and results == [results[0]] * 3
    assert all(node.session.fault is None for node in nodes)
    for node in nodes:
        report = verify_transcript(node.transcript_path.read_bytes(), get_game)
        assert report.ok and report.complete, report.describe()


async def test_a_joiner_cut_mid_game_dials_again_through_the_proxy_and_the_game_finishes(tmp_path, autojump_clock):
    def cut_seat_1_at_its_first_keys(link: Link) -> None:
        if link.number == 0:  # seat 1 dials first
            link.cut_before("up", kind_is("submit", t="keys"))

    nodes, proxy = await play_probe_through_proxy(tmp_path, b"cut", cut_seat_1_at_its_first_keys)
    seat_1 = proxy.links[0]
    assert any(kind_is("submit", t="commit")(payload) for payload in seat_1.frames("up")), "cut mid-game"
    assert not any(kind_is("submit", t="keys")(payload) for payload in seat_1.frames("up"))
    assert len(proxy.links) == 3, "seat 1 dialled again, through the proxy"
    assert any(kind_is("rejoin")(payload) for payload in proxy.links[2].frames("up"))
    results = [node.session.result for node in nodes]
    assert results[0] is not None and results == [results[0]] * 3
    assert all(node.session.fault is None for node in nodes)
    for node in nodes:
        report = verify_transcript(node.transcript_path.read_bytes(), get_game)
        assert report.ok and report.complete, report.describe()
