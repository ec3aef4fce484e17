"""A peer that never reads what a real host sends it (issue 23, point 2), and an honest one slow
to read a catch-up larger than the host's bound on a connection's queue.

The host is a real :class:`Node` on 127.0.0.1 whose accepted sockets have small kernel buffers
(what is left unread waits in its queue, not in the kernel); the peer is a
:class:`~scripted_peer.ScriptedPeer`, which reads only when the test says. All on trio's
autojump clock.
"""

from __future__ import annotations

import trio
import trio.testing

from p2pgames.bots import bot_for
from p2pgames.games import get_game
from p2pgames.net import NetSettings, Node, drive_bot
from p2pgames.net._node import _Connection
from p2pgames.session import SavedSeat, Session, encode_record, iter_records, verify_transcript
from p2pgames.session._messages import make_envelope
from scripted_peer import ScriptedPeer, serve, table_session as session

# The host's bound in these tests: a few frames (the protocol's reference keeps 8 MiB).
SETTINGS = NetSettings(max_queued_bytes=8 * 1024)


def ping(peer: ScriptedPeer) -> bytes:
    return make_envelope(peer.session.identity, "ping", {"nonce": 1}).raw


async def pings_until_closed(peer: ScriptedPeer, most: int) -> bool:
    """Send ``most`` pings at most, reading none of the pongs; whether the host closed first."""
    for _ in range(most // 100):
        try:
            await peer.send([ping(peer)] * 100)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            return True
    return False


async def test_a_peer_that_never_reads_is_closed_at_the_queues_bound_and_its_seat_comes_back(autojump_clock, tmp_path):
    """Issue 23's second attack: a seated peer that reads nothing grew the host's send queue by
    4.5 MB a second until the 30 s silence timeout (42 → 179 MB). Its pings keep it from ever
    being silent, and each asks for a pong. Now the host closes its connection once the queue
    holds its bound in bytes; the seat is away, rejoins, catches up and the game finishes."""
    seed = b"never-reads"
    host = Node(session("hostess", seed, get_game("probe").ruleset(2)), settings=SETTINGS, transcript_dir=tmp_path)
    attacker = ScriptedPeer(session("mallory", seed), bot_for(get_game("probe"), seed))
    async with trio.open_nursery() as nursery:
        port = await serve(nursery, host, send_buffer=4096)
        nursery.start_soon(drive_bot, host, bot_for(get_game("probe"), seed + b"host"))
        await attacker.dial(port, receive_buffer=4096)
        joiner = attacker.session
        # Its own move is all the table waits for (a person thinking: no step of its is due).
        await attacker.play_until(lambda: joiner.stage == "playing" and joiner.waiting_for() == (1,))
        with trio.fail_after(60):
            # 20 000 pongs are 2.5 MB: enough to fill the kernel's buffers and the queue's bound.
            assert await pings_until_closed(attacker, most=20_000), "the host kept queueing pongs"
            await host.wait_until(lambda: 1 in host.session.away)
        assert host.session.away[1] == "it stopped reading"
        await attacker.aclose()

        joiner.disconnected(0, "the host closed it")
        await attacker.dial(port)
        with trio.fail_after(600):
            await attacker.play_until(lambda: joiner.finished)
            await host.finished.wait()
        await attacker.aclose()
    assert host.session.fault is None and joiner.fault is None
    assert joiner.result is not None and joiner.result == host.session.result
    for transcript in (host.transcript_path.read_bytes(), bytes(attacker.transcript)):
        report = verify_transcript(transcript, get_game)
        assert report.ok and report.complete, report.describe()


async def test_a_catch_up_larger_than_the_queues_bound_reaches_a_joiner_that_reads_it_late(autojump_clock, tmp_path):
    """A catch-up is the game so far (3.6 MB for a 12-seat Steam Court party): it is sent as the
    connection takes it, never queued whole, so no bound on the queue keeps a seat from coming
    back — even one that is slow to read it."""
    seed = b"late-reader"
    # (A smaller bound than the other tests': a 2-player probe game, one re-encryption pass per
    # holder and its decryption shares riding with the moves (protocol 11), is too short to be
    # sent past 8 kB four times over. Its game has 30 entries at protocol 11 (35 at 10); the slow
    # seat leaves at entry 26, some entries before the end, with about 24 kB to catch up at both.)
    settings = NetSettings(max_queued_bytes=6000)
    host = Node(session("hostess", seed, get_game("probe").ruleset(2)), settings=settings, transcript_dir=tmp_path)
    bot = bot_for(get_game("probe"), seed)
    first = ScriptedPeer(session("slow", seed), bot)
    async with trio.open_nursery() as nursery:
        port = await serve(nursery, host, send_buffer=4096)
        nursery.start_soon(drive_bot, host, bot_for(get_game("probe"), seed + b"host"))
        await first.dial(port)
        await first.play_until(lambda: first.session.replica is not None and first.session.replica.seq >= 26)
        await first.aclose()  # its process dies; it starts again from its saved seat
        await host.wait_until(lambda: 1 in host.session.away)
        saved = SavedSeat.read(iter_records(b"".join(encode_record(record) for record in first.saved)))
        again = ScriptedPeer(Session(first.session.identity, "slow", get_game, saved=saved, bot=True), bot)
        await again.dial(port, receive_buffer=4096)
        await again.read_one()  # the host's hello,
        await again.flush()  # our rejoin (we hold nothing: everything from the start)
        with trio.move_on_after(60):
            await host.wait_until(lambda: 1 not in host.session.away)
        await trio.testing.wait_all_tasks_blocked()
        relay = sum(len(raw) for *_, raw in host.session.role.relay)
        assert relay > 4 * settings.max_queued_bytes, f"a catch-up larger than the bound and the kernel's buffers: {relay} bytes"
        assert 1 not in host.session.away, f"away again, though honest: {host.session.away[1]}"
        with trio.fail_after(600):
            await again.play_until(lambda: again.session.finished)
            await host.finished.wait()
        await again.aclose()
    assert host.session.fault is None and again.session.result == host.session.result
    report = verify_transcript(bytes(again.transcript), get_game)
    assert report.ok and report.complete, report.describe()


async def test_frames_past_the_bound_in_one_flush_hang_up_once():
    """One flush with several frames for a connection whose queue is at its bound: the first
    that doesn't fit closes it, telling the session once, and the rest are not sent. Before, the
    connection was not marked closing, and each frame after told the session again."""
    host = Node(session("hostess", b"one-flush", get_game("probe").ruleset(2)), settings=NetSettings(max_queued_bytes=100))
    stream, _ = trio.testing.memory_stream_pair()
    connection = host.connections[7] = _Connection(7, stream, 100, "127.0.0.1")
    told: list[tuple[int, str]] = []
    disconnected = host.session.disconnected

    def telling(number: int, reason: str) -> None:
        told.append((number, reason))
        disconnected(number, reason)

    host.session.disconnected = telling  # type: ignore[method-assign]
    for _ in range(3):
        host.session._send(7, b"x" * 60)  # framed, 64 bytes: the second is past the bound
    host._flush()
    assert told == [(7, "it stopped reading")]
    assert connection.closing and connection.scope.cancel_called and connection.queued == 1
