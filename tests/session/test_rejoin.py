"""A seat whose connection drops, or whose process dies, comes back and the game goes on.

Sessions only (in memory, no sockets, no clock): the switchboard cuts a joiner's connection at a
chosen moment, loses what was on the wire, and dials again — from the same session, or from a new
one built from nothing but what the seat saved; or it restarts the host from its saved seat and
transcript. Every game must finish with every transcript verified and no fault anywhere.
"""

from __future__ import annotations

import pytest
from switchboard import Switchboard, canonical_records

from p2pgames import LOCK_DECK_PROTOCOL
from p2pgames.crypto import Identity
from p2pgames.games import get_game
from p2pgames.session import (
    HOST_CONNECTION,
    FaultCode,
    LocalError,
    ResumeError,
    SeatAway,
    SeatBack,
    Session,
    iter_records,
    verify_transcript,
)
from p2pgames.session._messages import open_envelope


def entries(board: Switchboard) -> int:
    return board.host.replica.seq if board.host.replica is not None else 0


def run_until_entries(board: Switchboard, count: int) -> None:
    """Play until the game has begun and the log holds ``count`` entries."""
    board.run(until=lambda: board.host.start_envelope is not None and entries(board) >= count)
    assert entries(board) >= count, "the game ended before the moment chosen"


def submit_kind(data: bytes) -> str | None:
    envelope = open_envelope(data)
    if envelope.kind != "submit":
        return None
    return envelope.body["body"].get("t")


# -- the same session, a new connection ----------------------------------------------------------


@pytest.mark.parametrize("moment", [0, 1, 3, 8, 11, 15, 24, 40, 44, 49])
def test_a_joiner_cut_after_any_number_of_entries_reconnects_and_the_game_finishes(moment):
    """Probe's log runs through drawing lots (commit-reveal), deals (their passes, the shares that
    open the cards), turns, cheer windows and the audit: cutting after each number of entries hits
    each of them (at protocol 11, 51 entries: its passes at 8–11, 26–28 and 43–45, its audit at
    48–50)."""
    board = Switchboard("probe", 3, seed=b"rejoin")
    run_until_entries(board, moment)
    board.cut(2)
    board.run()  # the others carry on while they can; the game waits where it needs seat 2
    assert board.host.result is None, "the game can't end without seat 2"
    assert 2 in board.host.away and board.sessions[2].away == {0: "cut by the test"}
    board.reconnect(2)
    board.run()
    board.check_finished_and_verified()
    assert not board.host.away and not board.sessions[2].away


@pytest.mark.parametrize("kind", ["commit", "open", "pass", "keys", "act", "audit"])
def test_a_submission_lost_with_the_connection_is_sent_again_once_caught_up(kind):
    """The joiner's frame of ``kind`` never reaches the host (the cable is pulled as it leaves):
    after the rejoin it goes again, with the same counter, and nobody calls it a replay."""
    board = Switchboard("probe", 3, seed=b"lost")
    lost = []

    def pull_the_cable(seat: int, data: bytes):
        if seat == 1 and not lost and submit_kind(data) == kind:
            lost.append(data)
            return None  # gone with the connection
        return data

    board.tamper = pull_the_cable
    board.run(until=lambda: bool(lost))
    assert lost, f"seat 1 never submitted a {kind}"
    board.tamper = None
    board.cut(1)
    board.run()
    board.reconnect(1)
    board.run()
    board.check_finished_and_verified()


def test_the_others_hear_who_is_away_and_who_is_back():
    board = Switchboard("probe", 3, seed=b"news")
    run_until_entries(board, 5)
    board.cut(1)
    board.run()
    away = [event for event in board.events[2] if isinstance(event, SeatAway)]
    assert [(event.seat, event.name) for event in away] == [(1, "p1")]
    assert board.sessions[2].away == {1: "cut by the test"}
    assert "waiting for p1 to reconnect" in board.sessions[2].status()
    board.reconnect(1)
    board.run()
    assert [event.seat for event in board.events[2] if isinstance(event, SeatBack)] == [1]
    assert [event.seat for event in board.events[1] if isinstance(event, SeatBack)] == [0]
    board.check_finished_and_verified()


def test_a_joiner_cut_twice_in_a_row_and_while_catching_up_still_gets_back():
    board = Switchboard("probe", 3, seed=b"twice")
    run_until_entries(board, 10)
    board.cut(1)
    board.run()
    board.reconnect(1)
    board.cut(1)  # before the host's hello even arrived
    board.reconnect(1)
    # Deliver only part of the catch-up, then cut again.
    for _ in range(4):
        if board.queue:
            direction, seat, connection, data = board.queue.popleft()
            if direction == "down":
                board.sessions[seat].receive(HOST_CONNECTION, data)
            else:
                board.host.receive(connection, data)
            board.flush()
    board.cut(1)
    board.run()
    board.reconnect(1)
    board.run()
    board.check_finished_and_verified()


def test_while_the_host_is_away_a_joiner_may_still_move_and_its_move_goes_once_back():
    board = Switchboard("probe", 3, seed=b"offline-move")
    joiner = board.sessions[1]
    board.run(until=lambda: joiner.decision() is not None, play=False)
    board.cut(1)
    decision = joiner.decision(texts=False)
    assert decision is not None
    joiner.act(decision.actions[0])  # no connection: it waits in flight
    assert joiner.take_outgoing() == []
    board.reconnect(1)
    board.run()
    board.check_finished_and_verified()


def test_the_away_seats_the_table_waits_for_are_those_it_needs_now_or_a_joiners_host():
    board = Switchboard("probe", 3, seed=b"awaited")
    run_until_entries(board, 5)
    host, other = board.host, board.sessions[1]
    board.cut(2)
    board.run()  # on until the game needs seat 2
    assert host.awaited_away() == (2,) == other.awaited_away()
    assert host.status() == "waiting for p2 to reconnect" == other.status()
    board.cut(1)
    assert other.awaited_away() == (0,)  # without its host, a joiner waits for nothing else
    assert other.status() == "waiting for the host, p0, to come back"
    assert set(host.awaited_away()) <= {1, 2} and host.awaited_away()
    board.reconnect(1)
    board.reconnect(2)
    board.run()
    board.check_finished_and_verified()
    assert host.awaited_away() == () == other.awaited_away()  # over: nothing awaited


def test_a_joiner_cannot_chat_while_the_host_is_away():
    board = Switchboard("probe", 3, seed=b"quiet")
    run_until_entries(board, 3)
    board.cut(1)
    with pytest.raises(LocalError, match="the host is away"):
        board.sessions[1].chat("hello?")


# -- a new process: the seat from what it saved ------------------------------------------------


def test_what_a_seat_saves_is_its_seed_and_its_committed_choices_only():
    board = Switchboard("beltpunk", 2, seed=b"saved")
    board.run()
    saved = board.saved_seat(1)
    session = board.sessions[1]
    assert (saved.game, saved.game_id, saved.seat, saved.seed) == ("beltpunk", session.game_id, 1, session.secret_seed)
    assert saved.host_key == board.host.identity.public_key.raw and saved.key == session.identity.public_key.raw
    assert saved.choices, "Beltpunk's discards are committed choices"
    kinds = [kind for kind, _ in canonical_records(board.saved[1])]
    assert kinds[0] == "seat" and set(kinds[1:]) == {"choice"}


@pytest.mark.parametrize("game, players, moment", [
    ("probe", 3, 6), ("probe", 3, 30), ("beltpunk", 2, 40), ("steamcourt", 3, 60),
])
def test_a_joiner_whose_process_died_takes_its_seat_again_from_what_it_saved(game, players, moment):
    board = Switchboard(game, players, seed=b"crash")
    run_until_entries(board, moment)
    before = board.sessions[1]
    session = board.restart(1)
    board.run()
    board.check_finished_and_verified()
    assert session.seat == 1 and session.seal_key.public_bytes() == before.seal_key.public_bytes()


def test_a_restarted_joiner_opens_the_choice_it_committed_before_it_died():
    """Beltpunk's discards are committed in secret: the value must come back from the saved seat."""
    board = Switchboard("beltpunk", 2, seed=b"commit-crash")
    joiner = board.sessions[1]
    sent = []

    def watch(seat: int, data: bytes):
        if seat == 1 and submit_kind(data) == "commit":
            sent.append(data)
        return data

    board.tamper = watch
    board.run(until=lambda: bool(sent) and bool(joiner.secrets.choices))
    assert sent and joiner.secrets.choices, "seat 1 has a committed choice not yet opened"
    board.tamper = None
    board.restart(1)
    board.run()
    board.check_finished_and_verified()


def test_a_restarted_joiner_with_another_identity_is_refused():
    board = Switchboard("probe", 3, seed=b"impostor")
    run_until_entries(board, 8)
    board.cut(1)
    stranger = Identity.generate()  # not seat 1's key (nor anyone's at the table)
    saved = board.saved_seat(1)
    session = Session(stranger, "p1", get_game, saved=saved)
    board.sessions[1] = session
    board.reconnect(1)
    board.run()
    assert session.finished and "host refused to take us back: you have no seat" in (session.rejection or "")


# -- the host's process dies ---------------------------------------------------------------------


@pytest.mark.parametrize("game, players, moment", [("probe", 3, 0), ("probe", 3, 20), ("probe", 3, 43), ("beltpunk", 2, 70)])
def test_a_host_restarted_from_its_transcript_and_saved_seat_finishes_the_game(game, players, moment):
    board = Switchboard(game, players, seed=b"host-crash")
    run_until_entries(board, moment)
    host = board.restart_host()
    board.run()
    board.check_finished_and_verified()
    assert host.away == {}


def test_a_game_saved_at_protocol_10_resumes_at_it_after_an_upgrade():
    """A table of the lock deck (protocol 10) whose host and a joiner both restart on this
    version, which speaks 11 by default: the host resumes at its transcript's protocol (its start's
    4-item seat records), the joiner takes the protocol the host speaks for its saved game, and the
    game finishes at 10."""
    board = Switchboard("probe", 3, seed=b"upgrade", protocol=LOCK_DECK_PROTOCOL)
    run_until_entries(board, 20)
    host = board.restart_host()
    assert host.protocol == LOCK_DECK_PROTOCOL
    board.protocol = {}  # a joiner's process started again as this version starts it
    joiner = board.restart(1)
    board.run()
    board.check_finished_and_verified()
    assert joiner.protocol == LOCK_DECK_PROTOCOL and not joiner.replica.elgamal


def test_a_host_that_began_the_game_and_died_before_writing_the_accepts_takes_them_again():
    # The host took every accept and began the game; the joiners began it too and made their
    # first moves; the host's process died before its transcript held the joiners' accepts. The
    # restarted host is starting again: each joiner sends its accept again before its move.
    # Two players: the joiner begins on the host's accept and its own, and moves at once.
    board = Switchboard("probe", 2, seed=b"accepts-lost")
    board.run(until=lambda: board.host.start_envelope is not None)
    board.flush()
    before_accepts = len(board.transcripts[0])
    board.run(until=lambda: board.host.stage == "playing")  # what it sent since is lost with it
    board.decide()  # the joiners, playing too, move; their moves are lost with the host
    assert all(session.replica.seq == 0 for session in board.sessions[1:])
    assert any(session.role.in_flight is not None for session in board.sessions[1:])
    host = board.restart_host(transcript_kept=before_accepts)
    assert host.stage == "starting" and host.replica.seq == 0
    board.run()
    board.check_finished_and_verified()


def test_a_restarted_host_waits_for_every_joiner_to_rejoin():
    board = Switchboard("probe", 3, seed=b"host-waits")
    run_until_entries(board, 12)
    old = board.host
    board.flush()
    board.queue.clear()
    for seat in (1, 2):
        board.links[seat] = None
        board.sessions[seat].disconnected(HOST_CONNECTION, "gone")
    records = list(iter_records(bytes(board.transcripts[0])))
    host = Session.resume_host(old.identity, board.saved_seat(0), records, get_game, bot=True)
    assert host.replica.seq == old.replica.seq and host.replica.state_hash == old.replica.state_hash
    assert host.away == {1: "the host restarted", 2: "the host restarted"}
    # The host reads that they reconnect by themselves (not "they can come back: p2pgames join").
    said = [event.text for event in host.take_events() if isinstance(event, SeatAway)]
    assert said == [
        f"Waiting for p{seat} to reconnect: their program dials this table again by itself (if it stopped too: "
        "p2pgames resume)." for seat in (1, 2)
    ]
    # It does nothing, its own part neither, until every joiner is back (one may hold entries
    # its transcript lacks: issue 22, point 16).
    assert host.take_outgoing() == [] and host.replica.seq == old.replica.seq
    assert host.awaited_away() == (1, 2)
    assert host.status() == "waiting for p1 and p2 to reconnect (the game goes on once everyone is back)"


def test_a_restarted_host_reads_past_the_notes_in_its_transcript():
    """The thinking clocks' notes (§B11) are the writer's own: a resumed host skips them."""
    board = Switchboard("probe", 3, seed=b"host-notes")
    run_until_entries(board, 12)
    old = board.host
    old.note_clocks([3, 1, 4])
    board.flush()
    board.queue.clear()
    records = list(iter_records(bytes(board.transcripts[0])))
    assert [list(value["clocks"]) for kind, value in records if kind == "notes"] == [[3, 1, 4]]
    host = Session.resume_host(old.identity, board.saved_seat(0), records, get_game, bot=True)
    assert host.replica.seq == old.replica.seq and host.replica.state_hash == old.replica.state_hash


def test_a_host_cannot_resume_a_game_that_ended_or_with_another_identity():
    board = Switchboard("probe", 2, seed=b"ended")
    board.run()
    records = list(iter_records(bytes(board.transcripts[0])))
    with pytest.raises(ResumeError, match="has ended"):
        Session.resume_host(board.host.identity, board.saved_seat(0), records, get_game)
    with pytest.raises(ResumeError, match="another identity"):
        Session.resume_host(board.sessions[1].identity, board.saved_seat(0), records, get_game)
    with pytest.raises(ResumeError, match="a joiner's"):
        Session.resume_host(board.host.identity, board.saved_seat(1), records, get_game)


# -- ending a game for a seat that doesn't come back ---------------------------------------------


def test_a_game_with_nobody_away_cannot_be_ended_that_way():
    board = Switchboard("probe", 3, seed=b"all-here")
    run_until_entries(board, 4)
    with pytest.raises(LocalError, match="nobody is away"):
        board.sessions[1].end_game()


def test_ending_the_game_while_a_seat_is_away_records_why_for_everyone():
    board = Switchboard("probe", 3, seed=b"give-up")
    run_until_entries(board, 9)
    board.cut(2)
    board.run()
    board.sessions[1].end_game()
    board.run()
    why = "p2 (seat 2) was away (connection lost) and p1 (seat 1) ended the game rather than wait"
    for seat in (0, 1):
        session = board.sessions[seat]
        assert session.fault is not None and session.fault.code == FaultCode.ENDED
        # The seat that ended it blames nobody; the others name it as the one who stopped the game.
        assert (session.fault.culprit, session.fault.reporter) == ((None, None) if seat == 1 else (1, 1))
        report = verify_transcript(bytes(board.transcripts[seat]), get_game)
        assert report.ok, report.describe()
        if seat == 1:  # the seat that ended it
            assert f"The game was ended after {session.fault.seq} log entries: {why}; as " in report.describe()
        else:  # in p1's words, quoted
            assert (
                f"The game stopped after {session.fault.seq} log entries: p1 (seat 1) ended the game, in its words: "
                f"“{why}”; the claim is unproven."
            ) in report.describe()
    away = board.sessions[2]
    assert away.fault is None  # it never heard: it is still away, and finds the game stopped when back
    board.reconnect(2)
    board.run()
    why = board.host.fault.describe(board.host.names)
    assert away.finished and away.gone_reason == why and not away.seat_kept, "over, told by a gone: the seat is forgotten"
    assert away.rejection == f"the game has stopped: {why}"


def test_leaving_while_the_host_is_away_keeps_the_seat_to_be_taken_again():
    board = Switchboard("probe", 3, seed=b"quit-away")
    run_until_entries(board, 10)
    board.cut(1)
    joiner = board.sessions[1]
    joiner.leave("quit")
    assert joiner.finished and joiner.seat_kept and joiner.fault is None
    assert joiner.take_outgoing() == []  # nobody to tell
    board.restart(1)
    board.run()
    board.check_finished_and_verified()


def test_a_joiner_whose_process_was_stopped_names_itself_away_until_it_is_back():
    """Issue 22, point 19: a joiner stopped long enough to be dropped, which then can't reach its
    host, was the one away; once it is back with the host, a host that goes away later is."""
    board = Switchboard("probe", 3, seed=b"stopped")
    run_until_entries(board, 9)
    joiner = board.sessions[1]
    joiner.was_stopped(45.0)
    board.cut(1)
    reason = (
        "p1 (seat 1) was away (its process was stopped for 0:45) and could not get back to the host after; "
        "it ended the game rather than wait"
    )
    ended = Switchboard("probe", 3, seed=b"stopped")  # the same moment, ended there
    run_until_entries(ended, 9)
    ended.sessions[1].was_stopped(45.0)
    ended.cut(1)
    ended.sessions[1].end_game()
    ended.flush()
    assert ended.sessions[1].fault.reason == reason
    report = verify_transcript(bytes(ended.transcripts[1]), get_game)
    assert report.ok and reason in report.describe(), report.describe()
    board.reconnect(1)
    board.run(until=lambda: 0 not in joiner.away and entries(board) >= 12)
    board.cut(1)
    joiner.end_game()
    assert joiner.fault.reason == "p0 (seat 0) was away (connection lost) and p1 (seat 1) ended the game rather than wait"


def test_a_host_whose_process_was_stopped_names_itself_away_and_who_was_away_before():
    board = Switchboard("probe", 3, seed=b"host-stopped")
    run_until_entries(board, 9)
    board.cut(2)
    board.host.was_stopped(100.0)
    board.cut(1)
    board.host.end_game()
    assert board.host.fault.reason == (
        "p2 (seat 2) was away (connection lost); the host was away too (its process was stopped for 1:40) and "
        "p1 (seat 1) did not come back after; it ended the game rather than wait"
    )


@pytest.mark.parametrize("gone_before_it_settles, reason", [
    (True, "p1 (seat 1) was away (its process was stopped for 0:45) and could not get back to the host after; "
           "it ended the game rather than wait"),
    # The host had not dropped it (the whole machine slept, say): nobody was found away; once that
    # settles, a host that goes away later is the one away.
    (False, "p0 (seat 0) was away (connection lost) and p1 (seat 1) ended the game rather than wait"),
])
def test_an_absence_is_a_stopped_seats_own_only_if_found_before_its_stop_settles(gone_before_it_settles, reason):
    board = Switchboard("probe", 3, seed=b"stopped-settles")
    run_until_entries(board, 9)
    joiner = board.sessions[1]
    joiner.was_stopped(45.0)
    if gone_before_it_settles:
        board.cut(1)
        joiner.stop_settled()
    else:
        joiner.stop_settled()
        board.cut(1)
    joiner.end_game()
    assert joiner.fault.reason == reason
