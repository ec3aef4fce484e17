"""A host whose disk filled lost the last entries of its log (and the acknowledgements of them)
before its process died; resumed from that transcript, it takes them back from its joiners, who
hold them signed by it, and the game goes on (issue 22, point 16; protocol/SPEC.md §B12).

Sessions on the switchboard: the host's transcript is cut after a chosen entry (what reached the
disk), the process restarts from it, every joiner dials back."""

from __future__ import annotations

import disk_full
import pytest
from switchboard import Switchboard

from p2pgames import canonical
from p2pgames.games import get_game
from p2pgames.session import HOST_CONNECTION, FaultCode, History, ResumeError, iter_records, verify_transcript
from p2pgames.session._messages import make_envelope, open_envelope


def entries(session) -> int:
    return session.replica.seq if session.replica is not None else 0


def through_entry(board: Switchboard, count: int) -> int:
    """What of the host's transcript a disk that filled after entry ``count - 1`` kept."""
    return disk_full.through_entry(bytes(board.transcripts[0]), count)


def host_logs(board: Switchboard) -> list[bytes]:
    return [value for kind, value in iter_records(bytes(board.transcripts[0])) if kind == "entry"]


@pytest.mark.parametrize("game, players, kept, ahead", [
    ("probe", 3, 10, 25), ("probe", 3, 0, 12), ("probe", 2, 26, 27), ("beltpunk", 2, 40, 60),
])
def test_a_host_that_lost_its_last_entries_takes_them_back_from_its_joiners(game, players, kept, ahead):
    board = Switchboard(game, players, seed=b"disk-full")
    board.run(until=lambda: entries(board.host) >= ahead and all(entries(s) == entries(board.host) for s in board.sessions))
    held = entries(board.host)
    host = board.restart_host(transcript_kept=through_entry(board, kept))
    assert entries(host) == kept
    board.run()
    board.check_finished_and_verified(every_entry_agreed=True)
    logs = [open_envelope(raw) for raw in host_logs(board)]
    assert [entry.body["seq"] for entry in logs] == list(range(entries(board.host))) and entries(board.host) > held
    assert not host.role.refused and host.role.took_back


def test_joiners_that_hold_different_lengths_of_the_log_each_give_back_what_the_host_lacks():
    """Seat 2 fell behind before the host died (frames to it were still on their way): the host
    takes the longer log back from seat 1, compares what seat 2 holds with it, takes seat 2's
    acknowledgements, and catches seat 2 up on the rest."""
    board = Switchboard("probe", 3, seed=b"behind")
    board.run(until=lambda: all(entries(session) >= 20 for session in board.sessions))
    board.behind = {2}
    board.run(until=lambda: entries(board.sessions[1]) >= 24 or not board.queue)
    one, two = entries(board.sessions[1]), entries(board.sessions[2])
    assert 20 <= two < one, (one, two)
    asked = []

    def watch(seat: int, data: bytes):
        envelope = open_envelope(data)
        if envelope.kind == "entry":
            asked.append((seat, envelope.body["seq"]))
        return data

    board.tamper = watch
    host = board.restart_host(transcript_kept=through_entry(board, 15))
    board.run()
    board.check_finished_and_verified(every_entry_agreed=True)
    # Each from the first entry whose acknowledgement by it the host lacks (at most the first it
    # lacks), to the last it holds.
    for seat, held in ((1, one), (2, two)):
        given = [seq for by, seq in asked if by == seat]
        assert given and given[0] <= 15 and given == list(range(given[0], held)), (seat, given)
    assert asked.index((1, 15)) < asked.index((2, 15)), "the longer log is taken first"
    assert not host.role.refused


def test_a_resumed_host_whose_transcript_was_whole_goes_on_once_everyone_is_back():
    """The usual restart (kill -9, nothing lost): nobody holds more, so nobody is asked for anything
    beyond the acknowledgements the host had not written yet."""
    board = Switchboard("probe", 3, seed=b"whole")
    board.run(until=lambda: entries(board.host) >= 18)
    returned = []

    def watch(seat: int, data: bytes):
        if open_envelope(data).kind == "entry":
            returned.append(open_envelope(data).body["seq"])
        return data

    board.tamper = watch
    host = board.restart_host()
    board.run()
    board.check_finished_and_verified(every_entry_agreed=True)
    assert all(seq < 18 for seq in returned) and not host.role.took_back


# -- what a joiner gives back is checked -----------------------------------------------------------


def two_seats_host_lost(seed: bytes, kept: int = 10, ahead: int = 25) -> Switchboard:
    board = Switchboard("probe", 2, seed=seed)
    board.run(until=lambda: all(entries(session) >= ahead for session in board.sessions))
    board.restart_host(transcript_kept=through_entry(board, kept))
    return board


def resigned(board: Switchboard, data: bytes, **changes) -> bytes:
    """The entry ``data`` with ``changes`` to its body, signed again with the host's key."""
    entry = open_envelope(data)
    return make_envelope(board.host.identity, "entry", {**entry.body, **changes}).raw


@pytest.mark.parametrize("how, reason", [
    ("forged", "entry 12 it gave back is not signed by this host"),
    ("signed by the joiner", "entry 12 it gave back is not signed by this host"),
    ("another game", "an entry it gave back is of another game"),
    ("out of order", "it gave back entry 13 where entry 12 belongs"),
])
def test_an_entry_given_back_that_is_not_the_hosts_next_is_refused_and_nothing_of_it_kept(how, reason):
    """A joiner can give back only entries the host signed, in their order: a forged one (its
    signature broken, or signed by another key), one of another game, one out of its place is
    refused, with what it claimed beyond; the entries taken back before it stay, and the joiner,
    refused, is away."""
    board = two_seats_host_lost(b"cheat-" + how.encode())
    host = board.host
    joiner = board.sessions[1]
    given: dict[int, bytes] = {}

    def cheat(seat: int, data: bytes):
        envelope = open_envelope(data)
        if envelope.kind != "entry" or envelope.body["seq"] < 12:
            return data
        given[envelope.body["seq"]] = data
        if envelope.body["seq"] == 12:
            if how == "forged":
                return data.replace(envelope.signature, bytes(64))
            if how == "signed by the joiner":
                return make_envelope(joiner.identity, "entry", dict(envelope.body)).raw
            if how == "another game":
                return resigned(board, data, game_id=bytes(32))
            return None  # out of order: 12 is held back, 13 comes first
        return data

    board.tamper = cheat
    original = list(joiner.role.entries)
    board.run()
    # What came before the refused entry was taken back (the host then goes on from there).
    assert host_logs(board)[:12] == original[:12]
    assert host.role.refused == {1: reason}
    assert 1 in host.away and host.fault is None and host.stage == "playing"
    assert joiner.finished and joiner.rejection == f"the host refused to take us back: {reason}"
    report = verify_transcript(bytes(board.transcripts[0]), get_game)
    assert report.ok and report.entries == entries(host), report.describe()


def test_two_logs_that_part_are_settled_for_the_longer_and_the_other_joiner_is_refused():
    """Only the host's key signs entries, so two joiners holding different entries 12 means the
    host signed both before it restarted. It keeps the longer log (seat 1's here: the most of the
    game); seat 2, whose log parts from it at 12, can't follow it and is refused, naming why."""
    board = Switchboard("probe", 3, seed=b"fork")
    board.run(until=lambda: all(entries(session) >= 20 for session in board.sessions))
    board.behind = {2}
    board.run(until=lambda: entries(board.sessions[1]) >= 24 or not board.queue)
    other = board.sessions[2]
    other.role.entries[12] = resigned(board, other.role.entries[12], state=bytes(range(32)))
    host = board.restart_host(transcript_kept=through_entry(board, 10))
    board.run()
    fork = (
        "your log and this host's part at entry 12: this host signed two different entries 12 before it "
        "restarted, and it goes on with the other one"
    )
    assert host.role.refused == {2: fork}
    assert entries(host) == entries(board.sessions[1]) > 20 and not board.sessions[1].finished
    assert other.finished and other.rejection == f"the host refused to take us back: {fork}"


def test_a_joiner_that_stops_giving_back_is_dropped_and_asked_again_when_it_is_back():
    """What it gave back before it stopped is kept; the node's duty timer drops it (here: called
    by hand); back, it is asked for the rest, and the game goes on."""
    board = two_seats_host_lost(b"stalls")
    host = board.host

    def stall(seat: int, data: bytes):
        envelope = open_envelope(data)
        return None if envelope.kind in ("entry", "ack") and envelope.body["seq"] >= 14 else data

    board.tamper = stall
    board.run()
    assert entries(host) == 14 and host.waiting_for() == (1,) and not host.waiting_on_decision()
    assert host.status() == "taking back from p1 the log entries this host lost"
    host.peer_unresponsive(1, "its automatic protocol step has been due for 30 s")
    board.flush()
    assert 1 in host.away and host.waiting_for() == (1,) and host.role.returning is None
    board.tamper = None
    board.cut(1)
    board.reconnect(1)
    board.run()
    board.check_finished_and_verified(every_entry_agreed=True)


def test_an_entry_from_a_joiner_nobody_asked_is_its_fault():
    board = Switchboard("probe", 2, seed=b"unasked")
    board.run(until=lambda: entries(board.host) >= 6)
    board.host.receive(board.links[1], board.sessions[1].role.entries[3])
    fault = board.host.fault
    assert fault.culprit == 1 and fault.code == FaultCode.ILLEGAL
    assert fault.reason == "p1 (seat 1) sent an entry message, which only the host sends"


# -- what the host's secrets need: its seed, and the choices it committed ----------------------------


def without_choices(board: Switchboard, seat: int) -> None:
    """The seat's saved file lost every committed choice (the disk that lost the log's end)."""
    board.flush()
    board.saved[seat] = [record for record in board.saved[seat] if canonical.decode(record)[0] != "choice"]


def test_a_host_whose_saved_seat_lost_its_committed_choices_finds_them_again():
    """Beltpunk's discards are committed in secret; the host's saved seat lost every one of them
    with the entries. Replaying its commitments, it finds each value again among the step's legal
    moves (the salt comes from its seed), saves it again, and opens it when due."""
    board = Switchboard("beltpunk", 2, seed=b"choices-lost")
    host = board.host
    board.run(until=lambda: entries(host) >= 45 and bool(host.secrets.choices))
    assert host.secrets.choices, "the host has a committed choice not yet opened"
    without_choices(board, 0)
    resumed = board.restart_host(transcript_kept=through_entry(board, 30))
    assert board.saved_seat(0).choices, "found again, and saved again"
    board.run()
    board.check_finished_and_verified(every_entry_agreed=True)
    assert resumed.role.took_back


def test_a_choice_that_cant_be_found_again_is_said_plainly(monkeypatch):
    board = Switchboard("beltpunk", 2, seed=b"choices-gone")
    board.run(until=lambda: entries(board.host) >= 30)
    without_choices(board, 0)
    monkeypatch.setattr(type(board.game), "legal_actions", lambda *args: [])  # too many to list, say
    with pytest.raises(ResumeError, match=r"^the transcript does not replay: p0 \(seat 0\) lost the choice it committed "
                       r"to in entry \d+ \(its saved seat does not hold it\) and can't find it again, so it can't open it$"):
        board.restart_host()


def test_a_host_that_leaves_while_it_gathers_tells_the_joiners_it_waits_on_too():
    """A joiner back with entries to give (its claim not yet taken) hears the host's goodbye like
    everyone."""
    board = Switchboard("probe", 3, seed=b"gather-leave")
    board.run(until=lambda: all(entries(session) >= 20 for session in board.sessions))
    board.restart_host(transcript_kept=through_entry(board, 10))
    board.cut(2)  # seat 1 is back with its claim; the host waits for seat 2
    board.run()
    host, waiting = board.host, board.sessions[1]
    assert host.role.claims and host.waiting_for() == (2,)
    assert host.status() == "waiting for p2 to reconnect (the game goes on once everyone is back)"
    host.leave("quit")
    board.run()
    assert waiting.finished and waiting.fault.code == FaultCode.LEFT and waiting.fault.culprit == 0


def test_a_joiner_back_early_moves_and_its_move_waits_until_everyone_is_back():
    """While a resumed host gathers, nothing is sequenced: a joiner caught up at once may move, and
    its move is held; once the last joiner is back, the move is checked and goes in."""
    # (No bot seats: no escrow entries, so the log is the game's moves alone.)
    board = Switchboard("probe", 3, seed=b"held-5", open_seats=False)  # (a seed that comes to such a moment at both protocols)
    board.run(until=lambda: entries(board.host) >= 20)

    def deciding() -> list[int]:
        return [seat for seat, session in enumerate(board.sessions) if session.decision(texts=False)]

    board.run(play=False)  # every frame delivered (every ack written)
    while deciding() != [1, 2]:  # on to a moment when seats 1 and 2 are to decide, and not the host
        assert board.decide() and board.host.result is None, "the game went on to its end"
        board.run(play=False)
    logged = entries(board.host)
    host = board.restart_host()
    board.cut(2)  # not back yet
    board.run()
    assert host.role.held.keys() == {1} and host.role.gathering == {2} and entries(host) == logged
    board.reconnect(2)
    board.run()
    board.check_finished_and_verified(every_entry_agreed=True)
    assert not host.role.held and host.role.gathering is None


def test_a_host_that_asks_twice_in_one_rejoin_is_out_of_sequence():
    """Each answer to `missing` is the joiner's whole log from `from`: a host that could ask again
    and again would make its joiner queue that log as often as it liked. Asked once a rejoin."""
    board = two_seats_host_lost(b"asked-twice")
    board.run(until=lambda: board.host.role.returning is not None)
    board.flush()
    [asked] = [data for direction, seat, _, data in board.queue if direction == "down" and open_envelope(data).kind == "missing"]
    joiner = board.sessions[1]
    joiner.receive(HOST_CONNECTION, asked)
    assert joiner.fault is None and len(joiner.take_outgoing(paced=True)) == 1
    joiner.receive(HOST_CONNECTION, asked)
    assert (joiner.fault.culprit, joiner.fault.code) == (0, FaultCode.BAD_SEQUENCE)
    assert joiner.fault.reason.endswith("(we hold 25, and gave them back already)")
    assert not [item for _, item in joiner.take_outgoing(paced=True) if isinstance(item, History)]
