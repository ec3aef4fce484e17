"""The host leaves with a hand-over (issue 25; SPEC §B15): its seat is handed to a bot, like any
leaver's, and the log to a successor it names — a seat still playing that told the table where
it can be reached. The successor sequences every entry after the hand-over under its own key;
the others hang up on the old host, dial the new one and rejoin it; the game goes on to its end,
and every transcript says what happened and verifies.

Sessions only, on the in-memory switchboard (which wires every joiner to the new host as it
follows it)."""

from __future__ import annotations

import random

import pytest
from switchboard import Switchboard
from test_open_seats import check_transcripts

from independent import transcript as independent

from p2pgames.games import get_game
from p2pgames.session import HostChanged, LocalError, SeatOpened, verify_transcript
from p2pgames.session._faults import FaultCode, ProtocolFault
from p2pgames.session._messages import make_envelope
from p2pgames.session._replica import CHOICE_DOMAIN, CommitPhase


def events(board: Switchboard, seat: int, kind) -> list:
    board.decide()  # takes every seat's events
    return [event for event in board.events[seat] if isinstance(event, kind)]


def host_leaves(board: Switchboard, at: int) -> int:
    """Run to entry ``at`` or later, where the host may hand over; hand over; run until the log
    holds it. Returns the entry of the hand-over."""
    board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= at
              and board.host.replica.hand_over_problem(0) is None and board.host.successor() is not None)
    old = board.host
    old.hand_over()  # nothing stops it: sequenced at once
    return old.replica.open_seats[0]


@pytest.mark.parametrize("game, players, at", [
    # (4-player Steam Court and Beltpunk: in real processes, tests/cli/test_cli_departures.py;
    # Steam Court here in the chaos test below)
    ("astonishing", 3, 40), ("beltpunk", 3, 60), ("steamcourt2015", 3, 80),
])
def test_the_host_hands_the_table_to_a_successor_and_the_game_goes_on_to_its_end(game, players, at):
    board = Switchboard(game, players, seed=b"succession-" + game.encode(), reach=True)
    entry = host_leaves(board, at)
    old = board.sessions[0]
    assert old.stage == "closed" and old.fault is None
    board.run()
    assert board.host_seat == 1  # the first seat still playing that can be reached
    new = board.sessions[1]
    assert new.is_host and new.replica.sequencer == 1 and new.replica.sequencers == [(0, 0), (entry + 1, 1)]
    # Every entry after the hand-over is signed by the successor's key; the game is over for all.
    results = {repr(board.sessions[seat].result) for seat in range(1, players)}
    assert len(results) == 1 and new.result is not None
    for seat in range(1, players):
        [changed] = events(board, seat, HostChanged)
        assert (changed.old, changed.new, changed.you) == (0, 1, seat == 1)
        assert changed.reach == (("switchboard", 7001),)
        assert changed.text == (
            "p0 left; you host the table now (the others reconnect to you)." if seat == 1
            else "p0 left; p1 hosts the table now (reconnecting …)."
        )
        assert events(board, seat, SeatOpened)[0].seat == 0
    check_transcripts(board, range(1, players), 0, entry)
    for seat in range(1, players):
        report = verify_transcript(bytes(board.transcripts[seat]), get_game)
        assert report.hosts == [(0, 0), (entry + 1, 1)]
        assert f"From entry {entry + 1} p1 (seat 1) hosted the table (p0 (seat 0) handed it over)." in report.describe()
    # The old host's transcript ends with its hand-over, and verifies as far as it goes.
    report = verify_transcript(bytes(board.transcripts[0]), get_game)
    assert report.ok and not report.complete and report.entries == entry + 1, report.describe()
    assert report.open_seats == {0: entry}
    assert independent.verify(bytes(board.transcripts[0])).ok


def test_a_host_hands_over_only_to_a_seat_that_is_at_the_table_and_said_where_it_listens():
    board = Switchboard("beltpunk", 3, seed=b"succession-who", reach=True)
    board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= 40)
    host = board.host
    assert host.successor() == 1
    host.away[1] = "testing"  # seat 1 is away: it could not take the log now
    assert host.successor() == 2
    del host.reaches[2]  # and seat 2 never said where it listens
    assert host.successor() is None
    with pytest.raises(LocalError, match="nobody else at the table can host it"):
        host.hand_over()


def test_a_successor_is_checked_by_every_peer():
    """A hand-over naming no seat that could host (itself, an open seat, no seat), or a joiner's
    naming a successor at all, is illegal — its author's fault, proved by the submission."""
    board = Switchboard("beltpunk", 3, seed=b"succession-checked", reach=True)
    board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= 60
              and board.host.replica.hand_over_problem(0) is None and board.host.replica.hand_over_problem(2) is None)
    board.run(play=False)
    replica = board.host.replica

    def submission(seat: int, successor) -> None:
        session = board.sessions[seat]
        session._handing_over = True
        body = {**session._hand_over_body(), "successor": successor}
        session._handing_over = False
        envelope = make_envelope(session.identity, "submit", {
            "game_id": session.game_id, "seat": seat, "counter": replica.counters[seat], "based_on": replica.seq,
            "body": body,
        })
        with pytest.raises(ProtocolFault) as caught:
            replica.check_submission(envelope, seat)
        assert caught.value.fault.culprit == seat and caught.value.fault.code == FaultCode.ILLEGAL
        assert caught.value.fault.evidence == (envelope.raw,)

    for successor in (0, 3, None, True):
        submission(0, successor)
    submission(2, 1)


def test_the_old_host_rejoining_is_told_its_seat_is_played_by_a_bot():
    board = Switchboard("astonishing", 3, seed=b"succession-back", reach=True)
    entry = host_leaves(board, 40)
    board.run()
    # The old host's key dials the new host with a rejoin: it is answered `gone`.
    new = board.host
    connection = 999
    new.connected(connection)
    [(_, hello)] = [(c, d) for c, d in new.take_outgoing() if c == connection]
    from p2pgames.session._messages import open_envelope
    from p2pgames import PROTOCOL_VERSION
    nonce = open_envelope(hello).body["nonce"]
    old = board.sessions[0]
    rejoin = make_envelope(old.identity, "rejoin", {
        "protocol": PROTOCOL_VERSION, "game_id": old.game_id, "host": new.identity.public_key.raw,
        "nonce": nonce, "have": entry + 1,
    })
    new.receive(connection, rejoin.raw)
    [answer] = [open_envelope(d) for c, d in new.take_outgoing() if c == connection]
    assert answer.kind == "gone" and f"since entry {entry}" in answer.body["reason"]


@pytest.mark.parametrize("game", ["beltpunk", "astonishing"])
def test_a_host_handing_over_first_opens_the_choice_the_open_seat_it_plays_committed_to(game):
    """Seat 2 has handed over; the host, its caretaker, has committed to a choice for it and
    then asks to hand over too. Its hand-over waits for that choice to be opened (the opening
    derives from the host's secrets, which leave with it): so the host goes on opening for the
    open seat while it waits, then hands over, and the table plays on to the end."""
    board = Switchboard(game, 3, seed=b"deadlock-0", reach=True)
    board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= 10
              and board.host.replica.hand_over_problem(2) is None)
    board.sessions[2].hand_over()
    board.run(until=lambda: 2 in board.host.replica.open_seats)

    def committed_for_the_open_seat() -> bool:
        phase = board.host.replica.phase
        return (isinstance(phase, CommitPhase) and phase.purpose == CHOICE_DOMAIN and not phase.opening
                and 2 in phase.commitments and len(phase.commitments) < 3)

    board.run(until=lambda: committed_for_the_open_seat() or board.host.result is not None)
    assert committed_for_the_open_seat(), "the game reached no choice the host committed to for seat 2"
    assert "committed to a choice it has not opened" in board.host.replica.hand_over_problem(0)
    board.host.hand_over()
    board.run()
    successor = board.sessions[1]
    assert successor.result is not None and successor.fault is None, successor.fault
    assert set(successor.replica.open_seats) == {0, 2} and successor.replica.sequencer == 1


CHAOS = [
    # (game, players, seed): at a moment drawn from the seed the host leaves; in some, a joiner too.
    # Bounded: a game each, about 25 s in all (Torpedo's 2-seat table in test_open_seats.py).
    ("steamcourt", 4, 1), ("astonishing", 3, 3), ("astonishing", 4, 4), ("beltpunk", 3, 5),
    ("steamcourt2015", 4, 7), ("probe", 3, 9),
]


@pytest.mark.parametrize("game, players, seed", CHAOS)
def test_hosts_and_joiners_leaving_at_random_moments_never_stop_the_table(game, players, seed):
    """Chaos: the host asks to hand over at a random moment (it goes once it can), and in every
    other game a joiner asks too, at another; whoever stays finishes the game with one result,
    nobody is blamed, and every transcript verifies (ours and the independent verifier)."""
    chooser = random.Random(seed)
    board = Switchboard(game, players, seed=b"chaos-%d" % seed, reach=True)
    board.run(until=lambda: board.host.replica is not None)
    host_at = chooser.randrange(5, 60)
    joiner_at = chooser.randrange(5, 90) if seed % 2 and players > 2 else None
    leaving_joiner = chooser.randrange(2, players) if joiner_at is not None else None
    host = board.sessions[0]
    pending = {("host", host_at), ("joiner", joiner_at)} - {("joiner", None)}
    while pending and host.replica is not None and board.sessions[1].result is None:
        at = min(at for _, at in pending)
        board.run(until=lambda: board.host.replica.seq >= at or board.host.finished)
        for who, when in sorted(pending):
            if when == at:
                pending.discard((who, when))
                session = host if who == "host" else board.sessions[leaving_joiner]
                if session.stage == "playing":
                    try:
                        session.hand_over()
                    except LocalError:
                        pass  # nobody can host it now (a 2-player table whose joiner left)
    board.run()
    stayed = [seat for seat, session in enumerate(board.sessions) if session.stage != "closed"]
    assert stayed, "somebody stays"
    results = {repr(board.sessions[seat].result) for seat in stayed}
    assert len(results) == 1 and board.sessions[stayed[0]].result is not None, [board.sessions[s].fault for s in stayed]
    for seat, session in enumerate(board.sessions):
        assert session.fault is None, (seat, session.fault)
        report = verify_transcript(bytes(board.transcripts[seat]), get_game)
        assert report.ok and (report.complete or seat not in stayed), report.describe()
        assert independent.verify(bytes(board.transcripts[seat])).ok


def test_a_joiner_restarted_after_the_hand_over_takes_its_seat_again_at_the_new_host():
    """Its saved seat records the new host's key (§B15): restarted from nothing but what it saved,
    it rejoins the successor, is caught up from the start — the first host's start and entries,
    then the successor's — and plays to the end."""
    board = Switchboard("steamcourt", 4, seed=b"succession-restart", reach=True)
    entry = host_leaves(board, 60)
    board.run(until=lambda: board.host_seat == 1 and board.host.replica.seq >= entry + 10)
    assert board.saved_seat(2).host_key == board.sessions[1].identity.public_key.raw
    board.restart(2)
    board.run()
    results = {repr(board.sessions[seat].result) for seat in (1, 2, 3)}
    assert len(results) == 1 and board.sessions[1].result is not None
    for seat in (1, 2, 3):
        assert board.sessions[seat].fault is None, board.sessions[seat].fault
        report = verify_transcript(bytes(board.transcripts[seat]), get_game)
        assert report.ok and report.complete, report.describe()


def test_a_joiner_away_at_the_hand_over_finds_the_new_host_and_plays_on():
    """Away when the host handed the table over, a joiner never got the entry that says so; it
    dials the others where they said they listen (§B15), takes the hello of a seat still playing
    though the log doesn't name it host yet, and its catch-up — the hand-over entry first, signed
    by the old host — shows that seat is the host now."""
    board = Switchboard("beltpunk", 3, seed=b"succession-away", reach=True)
    board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= 40
              and board.host.replica.hand_over_problem(0) is None and board.host.successor() == 1)
    board.cut(2)
    board.host.hand_over()  # nothing stops it: sequenced at once, while seat 2 is away
    entry = board.sessions[0].replica.open_seats[0]
    board.run()
    assert board.host_seat == 1 and board.sessions[2].replica.seq <= entry  # it never heard
    board.reconnect(2)  # it dials seat 1 (the switchboard wires it to the host there is now)
    board.run(play=False)
    joiner = board.sessions[2]
    assert joiner.host_seat == 1 and not joiner.role.unconfirmed and joiner.in_touch
    board.run()
    for seat in (1, 2):
        assert board.sessions[seat].fault is None and board.sessions[seat].result is not None
        report = verify_transcript(bytes(board.transcripts[seat]), get_game)
        assert report.ok and report.complete, report.describe()


def test_a_seat_that_is_not_the_host_can_neither_stop_nor_catch_up_a_joiner_that_dialled_it():
    """A joiner that dialled another seat (its host away) hears a hello from that seat's key: it
    rejoins it unconfirmed. Whatever that seat then says that only a host could — gone, reject,
    caught-up with a log that doesn't hand it the table, anything malformed — makes the joiner
    hang up and dial on: no stop, no blame on the real host, its seat kept."""
    from p2pgames import PROTOCOL_VERSION
    from p2pgames.session import HOST_CONNECTION

    for said in ("gone", "reject", "caught-up", "stale-entry"):
        board = Switchboard("beltpunk", 3, seed=b"succession-impostor", reach=True)
        board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= 20)
        board.cut(2)
        joiner, impostor = board.sessions[2], board.sessions[1]
        joiner.connected(HOST_CONNECTION)
        hello = make_envelope(impostor.identity, "host-hello", {
            "protocol": PROTOCOL_VERSION, "game": "beltpunk", "ruleset": impostor.ruleset.encode(), "name": "p1",
            "seal": impostor.seal_key.public_bytes(), "nonce": bytes(32),
        })
        joiner.receive(HOST_CONNECTION, hello.raw)
        assert joiner.role.unconfirmed and joiner.take_outgoing()  # its rejoin
        game_id = joiner.game_id
        body = {
            "gone": {"game_id": game_id, "rejoin": joiner.role.rejoin_digest, "reason": "over"},
            "reject": {"reason": "go away"},
            "caught-up": {"game_id": game_id, "seq": joiner.replica.seq},
            "stale-entry": {"game_id": game_id, "seq": 0, "prev": bytes(32), "submission": b"", "state": bytes(32)},
        }[said]
        kind = "entry" if said == "stale-entry" else said
        joiner.take_closing()
        joiner.receive(HOST_CONNECTION, make_envelope(impostor.identity, kind, body).raw)
        assert joiner.fault is None and joiner.stage == "playing", (said, joiner.fault)
        assert HOST_CONNECTION in joiner.take_closing() and not joiner.role.unconfirmed, said
        assert joiner.host_seat == 0 and joiner.role.host_key.raw == board.sessions[0].identity.public_key.raw


def test_a_successor_restarted_from_its_transcript_hosts_the_table_again():
    """The seat handed the table crashes: its saved seat says it hosts (the new host key is its
    own), it replays its transcript — a joiner's up to the hand-over, a host's after — gathers
    the others as any resumed host does, and the game finishes."""
    board = Switchboard("beltpunk", 3, seed=b"succession-resume", reach=True)
    entry = host_leaves(board, 40)
    board.run(until=lambda: board.host_seat == 1 and board.host.replica.seq >= entry + 15)
    saved = board.saved_seat(1)
    assert saved.is_host and saved.seat == 1
    resumed = board.restart_host()
    assert resumed.is_host and resumed.seat == 1 and resumed.replica.sequencer == 1
    board.run()
    for seat in (1, 2):
        assert board.sessions[seat].fault is None, board.sessions[seat].fault
        assert board.sessions[seat].result is not None
    assert board.sessions[1].result == board.sessions[2].result
    report = verify_transcript(bytes(board.transcripts[1]), get_game)
    assert report.ok and report.complete, report.describe()
