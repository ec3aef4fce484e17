"""A host whose game stopped while a seat was away still answers that seat while its player looks
at the table (issue 22, point 2): the host ended the game for an absence, and the seat's
``resume`` said "nothing is listening there" and kept the seat, which then stood in the way of the
next table. Now the seat coming back is told the game stopped, and why, and forgets its seat. On
trio's autojump clock: the grace period costs virtual time only."""

from __future__ import annotations

import functools

import pytest
import trio
import trio.testing

from p2pgames.bots import bot_for
from p2pgames.crypto import Identity
from p2pgames.games import get_game
from p2pgames.net import LOOPBACK, FrameReader, JoinCode, NetSettings, Node, drive_bot
from p2pgames.net._resume import GameGone, find_saved_seats, resume_seat
from p2pgames.session import open_envelope
from scripted_peer import say_hello, serve, table_session

SEED = b"after-the-game"
GRACE = NetSettings(away_grace=20.0)


async def stop_a_game_for_an_absent_seat(nursery: trio.Nursery, seats, *, after_the_game: bool) -> tuple[Node, int, Identity]:
    """A 2-player probe table on loopback: the host's bot ends the game once alice, whose process
    died mid-game, has been away past the grace period. Returns the host's node (still serving,
    ``after_the_game`` or not), its port and alice's identity."""
    game = get_game("probe")
    host = Node(table_session("hostess", SEED + b"/peer/", game.ruleset(2)), settings=GRACE)
    port = await serve(nursery, host, after_the_game=after_the_game)
    nursery.start_soon(functools.partial(drive_bot, host, bot_for(game, SEED + b"/host"), if_away="end"))
    alice = Node(table_session("alice", SEED + b"/peer/"), settings=GRACE, seat_dir=seats)
    crashed = trio.CancelScope()
    decisions = 0

    async def second_decision_crashes() -> None:
        nonlocal decisions
        decisions += 1
        if decisions == 2:
            crashed.cancel()  # alice's process dies mid-game; its seat file stays
            await trio.sleep_forever()

    async def play_alice() -> None:
        with crashed:
            async with trio.open_nursery() as inner:
                await inner.start(alice.connect, LOOPBACK, port)
                await drive_bot(alice, bot_for(game, SEED + b"/alice"), before_move=second_decision_crashes)

    nursery.start_soon(play_alice)
    await host.finished.wait()
    assert host.session.stage == "halted", host.session.stage
    # Once every task waits, the host listens again, if it does (nothing it does meanwhile waits on a timer).
    await trio.testing.wait_all_tasks_blocked()
    return host, port, alice.session.identity


async def test_a_seat_back_after_its_game_stopped_is_told_and_forgets_its_seat(tmp_path, autojump_clock):
    seats = tmp_path / "seats"
    async with trio.open_nursery() as nursery:
        host, port, identity = await stop_a_game_for_an_absent_seat(nursery, seats, after_the_game=True)
        await trio.sleep(600)  # alice's player comes back much later; the host's screen is still open
        [(path, _)] = find_saved_seats(seats, identity)
        said: list[str] = []
        with pytest.raises(GameGone) as gone:
            await resume_seat(
                nursery, identity=identity, seat_path=path, name="alice", bot=True, say=said.append,
                code=JoinCode(LOOPBACK, port, None), wait_for_host=True,
            )
        nursery.cancel_scope.cancel()  # the host's player leaves the table
    assert "the game has stopped" in str(gone.value), str(gone.value)
    assert "alice (seat 1) was away" in gone.value.reason, gone.value.reason
    assert not path.exists(), "the seat of a game that stopped is forgotten"
    assert list(seats.iterdir()) == []


async def test_after_the_game_a_stranger_is_refused_and_a_silent_connection_closed(tmp_path, autojump_clock):
    async with trio.open_nursery() as nursery:
        host, port, _ = await stop_a_game_for_an_absent_seat(nursery, tmp_path / "seats", after_the_game=True)
        async with await trio.open_tcp_stream(LOOPBACK, port) as stream:
            reader = FrameReader(stream)
            await say_hello(stream, reader, "late", Identity.generate(bytes(32)))
            answer = open_envelope(await reader.next_frame())
            assert answer.kind == "reject" and "stopped" in answer.body["reason"], answer.body
            assert await reader.next_frame() is None  # and closed
        async with await trio.open_tcp_stream(LOOPBACK, port) as silent:
            with trio.fail_after(GRACE.hello_timeout + 5):
                while await silent.receive_some(65536):
                    pass  # its host-hello, then nothing until the host closes it
        await trio.testing.wait_all_tasks_blocked()
        assert host.session.role.pending == {}  # and the session keeps nothing of either
        nursery.cancel_scope.cancel()


async def test_without_after_the_game_the_host_stops_listening_when_its_game_stops(tmp_path, autojump_clock):
    async with trio.open_nursery() as nursery:
        _, port, _ = await stop_a_game_for_an_absent_seat(nursery, tmp_path / "seats", after_the_game=False)
    with pytest.raises(OSError):
        await trio.open_tcp_stream(LOOPBACK, port)


async def test_a_seat_back_long_after_the_end_it_missed_is_caught_up_to_the_end(tmp_path, autojump_clock, monkeypatch):
    """A seat whose process died after its last move, before the game's last entry reached it,
    is taken again long after (the host's player still looking at the result): it is caught up
    to the end, sees the result, and its saved seat goes as a finished game's does. Before, the
    host stopped listening once its game was over (after ``linger`` seconds)."""
    import test_network_faults
    from faultproxy import kind_is

    seed = b"back-after-the-end"
    dry = await test_network_faults.play(tmp_path / "dry", seed)  # the same game, to count seat 2's submissions
    submissions = sum(kind_is("submit")(payload) for payload in dry.proxy.links[1].frames("up"))

    # The host's player looks at the result for an hour (a person, not a bot that leaves).
    monkeypatch.setattr(Node, "serve", functools.partialmethod(Node.serve, after_the_game=True))
    monkeypatch.setattr(test_network_faults, "drive_bot", functools.partial(drive_bot, linger=3600.0))

    async def seat_2_dies_after_its_last_submission_then_comes_back(table, nursery) -> None:
        link = await table.proxy.wait_for_link(1)  # seat 2's: the second joiner to dial
        await link.wait_frame("up", kind_is("submit"), count=submissions)
        table.kill(2)
        await table.nodes[0].wait_until(lambda: table.nodes[0].session.stage == "over")
        await trio.sleep(600)  # ten minutes later, long past linger
        await table.restart(nursery, 2)

    table = await test_network_faults.play(tmp_path / "real", seed, during=seat_2_dies_after_its_last_submission_then_comes_back)
    table.check_finished_and_verified()
