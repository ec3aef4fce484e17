"""The host gone for good: the remaining seats take the table over (SPEC §B15, a take-over).

Every remaining seat agrees to play on (after its grace period, in a real game); the successor —
the lowest remaining seat that said where it can be reached — claims the table, the others
rejoin it and consent to its log, it signs the take-over entry, the old host's seat is rebuilt
from its escrow and played by a bot to the end."""

import pytest
from switchboard import Switchboard

from p2pgames.games import get_game
from p2pgames.session import HostChanged, LocalError, SeatOpened, TakeOverAgreed, verify_transcript
from p2pgames.session._replica import TAKE_OVER


def take_over(board: Switchboard, *, at: int) -> int:
    """Run to entry ``at``, kill the host for good, have every remaining seat agree to play on
    (the successor first), wire the others to it, and run until the take-over is in the log.
    Returns the take-over's entry."""
    board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= at)
    board.kill(0)
    remaining = [seat for seat in range(1, len(board.sessions))]
    for seat in remaining:
        board.sessions[seat].open_seat(0)
    board.flush()
    assert board.host_seat == 1 and board.sessions[1].is_host
    for seat in remaining[1:]:
        board.reconnect(seat)  # (a Node dials the successor's reach)
    board.run(until=lambda: board.sessions[1].replica.sequencer == 1)
    return board.sessions[1].replica.sequencers[-1][0]


@pytest.mark.parametrize("game, players, at", [("beltpunk", 4, 60), ("steamcourt", 4, 50), ("astonishing", 3, 40)])
def test_the_others_take_the_table_from_a_host_gone_for_good_and_finish_the_game(game, players, at):
    board = Switchboard(game, players, seed=b"take-over-" + game.encode(), reach=True)
    entry = take_over(board, at=at)
    new = board.sessions[1]
    assert new.replica.sequencers[-2:] == [(0, 0), (entry, 1)] or new.replica.sequencers[-1] == (entry, 1)
    assert 0 in new.replica.open_seats and new.replica.open_seats[0] == entry
    board.run()
    for seat in range(1, players):
        session = board.sessions[seat]
        assert session.fault is None, (seat, session.fault)
        assert session.result is not None and session.result == new.result
        assert session.replica.sequencer == 1
        assert any(isinstance(event, HostChanged) and event.taken for event in board.events[seat])
        opened = [event for event in board.events[seat] if isinstance(event, SeatOpened)]
        assert [(event.seat, event.seq, event.rebuilt) for event in opened] == [(0, entry, True)]
        report = verify_transcript(bytes(board.transcripts[seat]), get_game)
        assert report.ok and report.complete, report.describe()
        assert report.stopped is None
        text = report.describe()
        assert f"From entry {entry} p1 (seat 1) hosted the table (every seat still playing agreed to take it over from p0 (seat 0), gone)" in text, text
        assert f"From entry {entry} a bot played the seat of p0 (seat 0) (its keys rebuilt by all the others from its escrow)" in text, text
    assert 0 in new.replica.rebuilt  # the old host's keys, rebuilt from its escrow
    agreed = [event for event in board.events[2] if isinstance(event, TakeOverAgreed)]
    assert agreed and agreed[0].successor == 1 and not agreed[0].you
