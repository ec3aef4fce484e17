"""The host gone for good: the remaining seats take the table over (SPEC §B15, a take-over).

Every remaining seat agrees to play on (after its grace period, in a real game); the successor —
the lowest remaining seat that said where it can be reached — claims the table, the others
rejoin it and consent to its log, it signs the take-over entry, the old host's seat is rebuilt
from its escrow and played by a bot to the end."""

import pytest
from switchboard import Switchboard

from p2pgames.games import get_game
from p2pgames.session import (
    HostChanged, LocalError, SeatOpened, TakeOverAgreed, encode_record, open_envelope, verify_transcript,
)
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
    assert new.replica.sequencers == [(0, 0), (entry, 1)]
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


def test_a_joiner_that_holds_more_of_the_log_gives_it_to_the_successor_before_anyone_consents():
    """The successor missed the host's last entries (they were on their way when the host died);
    another seat got them. The successor takes them back from it (each checked as signed by the
    old host) and every consent names the longer log: no seat loses an entry it applied."""
    board = Switchboard("beltpunk", 4, seed=b"take-over-longer", reach=True)
    board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= 70)
    board.behind.add(1)  # the host's frames to seat 1 wait on the way ...
    board.run(until=lambda: board.sessions[2].replica.seq >= board.sessions[1].replica.seq + 3)
    longest = board.sessions[2].replica.seq
    entry = take_over(board, at=0)  # ... and are lost with the host
    assert entry == longest
    assert board.sessions[1].replica.seq > entry  # it went on from there
    board.run()
    for seat in (1, 2, 3):
        assert board.sessions[seat].fault is None and board.sessions[seat].result == board.sessions[1].result
        report = verify_transcript(bytes(board.transcripts[seat]), get_game)
        assert report.ok and report.complete, report.describe()


def test_the_successors_own_acknowledgements_that_the_old_host_never_passed_on_reach_everyone():
    """The successor acknowledged an entry as a joiner; the host died before passing that on,
    while the others had gone on to later entries. The successor sends its own acknowledgements
    to every seat that rejoins it (§B15 step 2), so every seat agrees on every entry to the end —
    without them the others' agreement stopped at that entry for good (their final agreement,
    which a program waits for before it leaves, never came)."""
    lost = 45
    board = Switchboard("beltpunk", 4, seed=b"ackloss", reach=True)

    def lost_with_the_host(seat: int, data: bytes) -> bytes | None:
        envelope = open_envelope(data)
        return None if (seat, envelope.kind, envelope.body.get("seq")) == (1, "ack", lost) else data

    board.tamper = lost_with_the_host
    # (The others' acknowledgements of the entries before reach 2 and 3 in the host's next acks
    # message: run until it has come.)
    board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= lost + 3
              and all(board.sessions[seat].agreed_through >= lost - 1 for seat in (2, 3)))
    board.tamper = None
    assert all(board.sessions[seat].agreed_through == lost - 1 for seat in (2, 3))
    take_over(board, at=0)
    board.run()
    for seat in (1, 2, 3):
        session = board.sessions[seat]
        assert session.result is not None and session.agreed_through == session.replica.seq - 1, seat


def test_the_successors_own_opening_that_the_old_host_never_sequenced_is_made_again_after_the_take_over():
    """Every seat had sealed its choice; the successor sent the opening of its own, and the host
    died before sequencing it. The take-over entry takes that submission's counter, so the
    opening is sent again as a new submission — from what opens the commitment, which the seat
    keeps until the phase is over. (Found as a real-process take-over that never ended: the
    successor had thrown the choice away once it had sent the opening, and waited for itself
    for good.)"""
    board = Switchboard("astonishing", 3, seed=b"lost-opening", reach=True)
    dropped: list[int] = []

    def lost_with_the_host(seat: int, data: bytes) -> bytes | None:
        envelope = open_envelope(data)
        body = envelope.body.get("body")
        if (seat == 1 and envelope.kind == "submit" and isinstance(body, dict) and body.get("t") == "open"
                and isinstance(body.get("value"), tuple)):  # a choice's opening, not a random one's
            dropped.append(envelope.body["based_on"])
            return None
        return data

    board.tamper = lost_with_the_host
    board.run(until=lambda: dropped)
    board.tamper = None
    entry = take_over(board, at=0)
    assert entry == dropped[0] + 1
    board.run()
    for seat in (1, 2):
        session = board.sessions[seat]
        assert session.fault is None and session.result is not None, (seat, session.fault, session.replica.seq)
        report = verify_transcript(bytes(board.transcripts[seat]), get_game)
        assert report.ok and report.complete, report.describe()


def test_a_two_player_torpedo_after_the_builds_is_taken_over_by_the_one_left():
    """Two players: no escrow, but once both submarines are built the host's seat holds nothing
    secret: the one left takes the table over alone (its own consent) and plays the bot."""
    from test_open_seats import after_the_builds, torpedo_board

    board = torpedo_board(b"take-over-torpedo", reach=True)
    after_the_builds(board)
    board.kill(0)
    assert board.sessions[1].play_on_problem(0) is None
    board.sessions[1].open_seat(0)
    board.run()
    session = board.sessions[1]
    assert session.is_host and session.replica.sequencer == 1 and 0 in session.replica.open_seats
    assert session.fault is None and session.result is not None
    report = verify_transcript(bytes(board.transcripts[1]), get_game)
    assert report.ok and report.complete, report.describe()


def test_two_players_holding_hidden_cards_cant_take_over():
    board = Switchboard("beltpunk", 2, seed=b"take-over-2p", reach=True)
    board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= 30)
    board.kill(0)
    joiner = board.sessions[1]
    assert "it holds keys of deal" in joiner.play_on_problem(0)
    with pytest.raises(LocalError, match="the table can't play on without its host now: it holds keys of deal"):
        joiner.open_seat(0)
    assert not joiner.is_host and not joiner.taking_over


def test_a_joiner_that_has_not_agreed_hangs_up_on_a_claimant():
    """A seat that claims the table keeps nobody whose player hasn't agreed to play on: such a
    joiner hangs up at its catch-up and dials on (a seat posing as a claimant could otherwise keep
    it from a host that is only slow)."""
    board = Switchboard("beltpunk", 4, seed=b"take-over-not-yet", reach=True)
    board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= 40)
    board.kill(0)
    board.sessions[1].open_seat(0)
    board.flush()
    board.reconnect(2)  # it hasn't agreed
    board.run(play=False)
    assert not board.sessions[2].role.with_claimant and board.sessions[2].fault is None
    assert board.sessions[1].replica.sequencer == 0  # nothing taken over


def signed_take_over(board: Switchboard, replica, author: int, consents: list[bytes]) -> bytes:
    """An entry signed by ``author`` holding its take-over with ``consents``, next in ``replica``."""
    from p2pgames.session import make_envelope

    session = board.sessions[author]
    submission = make_envelope(session.identity, "submit", {
        "game_id": replica.game_id, "seat": author, "counter": replica.counters[author], "based_on": replica.seq,
        "body": {"t": TAKE_OVER, "consents": consents},
    })
    return make_envelope(session.identity, "entry", {
        "game_id": replica.game_id, "seq": replica.seq, "prev": replica.head, "submission": submission.raw,
        "state": bytes(32),
    }).raw


@pytest.mark.parametrize("case, code", [
    ("good", None), ("missing", "illegal"), ("another-seq", "illegal"), ("another-successor", "illegal"),
    ("another-key", "bad-signature"), ("out-of-order", "bad-signature"), ("not-a-consent", "malformed"),
    ("by-the-host", "illegal"),
])
def test_a_take_over_entry_is_checked_consent_by_consent(case, code):
    """Every peer checks a take-over (§B15 step 4): one consent of every remaining seat, in seat
    order, each signed by it and naming this entry, the host and the author. Anything else is
    the author's fault: it signed the entry."""
    import copy

    from p2pgames.session import ProtocolFault, make_envelope

    board = Switchboard("beltpunk", 4, seed=b"take-over-checks", reach=True)
    board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= 40)
    board.kill(0)
    replica = board.sessions[2].replica
    body = replica.take_over_body(1)

    def consent(seat, **changes):
        return make_envelope(board.sessions[seat].identity, "takeover", dict(body, **changes)).raw

    consents = [consent(1), consent(2), consent(3)]
    author = 1
    if case == "missing":
        consents = consents[:2]
    elif case == "another-seq":
        consents[2] = consent(3, seq=body["seq"] - 1)
    elif case == "another-successor":
        consents[1] = consent(2, successor=2)
    elif case == "another-key":
        consents[1] = make_envelope(board.sessions[3].identity, "takeover", body).raw
    elif case == "out-of-order":
        consents = [consents[1], consents[0], consents[2]]
    elif case == "not-a-consent":
        consents[2] = make_envelope(board.sessions[3].identity, "ack", {
            "game_id": body["game_id"], "seq": 1, "entry": bytes(32), "state": bytes(32)}).raw
    elif case == "by-the-host":
        author = 0
    entry = signed_take_over(board, replica, author, consents)
    checking = copy.deepcopy(replica)
    if code is None:
        applied = checking.apply_entry(entry)
        assert checking.sequencer == 1 and checking.sequencers[-1] == (applied.seq, 1) and 0 in checking.open_seats
        # From then on an entry signed by the old host is no entry of this log.
        late = make_envelope(board.sessions[0].identity, "entry", {
            "game_id": body["game_id"], "seq": checking.seq, "prev": checking.head, "submission": b"", "state": bytes(32)})
        with pytest.raises(ProtocolFault) as raised:
            checking.apply_entry(late.raw)
        assert raised.value.fault.code == "bad-signature"
        return
    with pytest.raises(ProtocolFault) as raised:
        checking.apply_entry(entry)
    assert (raised.value.fault.code, raised.value.fault.culprit) == (code, author), raised.value.fault
    assert checking.sequencer == 0


def test_a_take_over_sent_to_a_host_is_illegal():
    from p2pgames.session import ProtocolFault, make_envelope

    board = Switchboard("beltpunk", 3, seed=b"take-over-to-host", reach=True)
    board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= 20)
    replica = board.host.replica
    body = replica.take_over_body(1)
    consents = [make_envelope(board.sessions[seat].identity, "takeover", body).raw for seat in (1, 2)]
    session = board.sessions[1]
    submission = make_envelope(session.identity, "submit", {
        "game_id": replica.game_id, "seat": 1, "counter": replica.counters[1], "based_on": replica.seq,
        "body": {"t": TAKE_OVER, "consents": consents},
    })
    with pytest.raises(ProtocolFault) as raised:
        replica.check_submission(submission, 1)
    assert (raised.value.fault.code, raised.value.fault.culprit) == ("illegal", 1)


def test_hosts_gone_at_random_moments_are_taken_over_and_every_game_ends():
    """Chaos: 4-player Steam Court and Beltpunk, 3-player Astonishing!, the host vanishing at a
    random entry; the others always play on: the take-over follows the longest log any of them
    holds, the host's rebuild unlocks no card but its own and those the card step under way shows
    everyone (at protocol 11 the rebuild gives the host's shares of these at once, §B16.6), and
    every game ends verified, nobody blamed."""
    import random

    from test_escrow import still_locked

    from p2pgames.session._replica import CardPhase, KeysSub, Replica

    rng = random.Random(b"take-over-chaos")
    played = 0
    for game, players in [("steamcourt", 4), ("beltpunk", 4), ("astonishing", 3)] * 2:
        at = rng.randrange(5, 160)
        board = Switchboard(game, players, seed=b"take-over-chaos" + bytes([at]), reach=True)
        board.run(until=lambda: board.host.replica is not None and (board.host.replica.seq >= at or board.host.result))
        if board.host.result is not None or board.host.replica.take_over_problem() is not None:
            continue
        # Every seat knows where every other listens from the first entry (its reach comes
        # before its accept), so all name one successor, even this early.
        assert all(len(session.reaches) == players for session in board.sessions[1:])
        if rng.random() < 0.5:
            board.behind.add(rng.randrange(1, players))  # one seat misses the host's last entries
            further = at + rng.randrange(1, 4)
            board.run(until=lambda: board.host.replica.seq >= further)
        locked_before: dict[int, bool] = {}
        kept: set[int] = set()
        rebuilt = []
        original = Replica._rebuild

        def watched(self, applied, seat):
            if self is board.sessions[1].replica:
                rebuilt.append(seat)
                locked_before.update(still_locked(self))
                # Its own cards as the rebuild finds them (its caretaker may play one at once).
                own = set(self.game.kept_slots(self.state, 0))
                kept.update(own, *(crypto.source_slots for crypto in self.deals.values() if crypto.source_slots is not None
                                   and set(range(crypto.first_slot, crypto.first_slot + crypto.size)) <= own))
                phase = self.phase
                if isinstance(phase, CardPhase) and isinstance(phase.current, KeysSub) and phase.current.requirements:
                    owed = phase.current.requirements.get(0)
                    kept.update(owed.publish if owed is not None else ())  # (shown to all by the rules now)
            return original(self, applied, seat)

        Replica._rebuild = watched
        try:
            board.depart(0, 0)
            board.run(until=lambda: board.sessions[1].replica.sequencer == 1 and 0 in board.sessions[1].replica.rebuilt)
        finally:
            Replica._rebuild = original
        replica = board.sessions[1].replica
        if rebuilt:  # (a host that held no keys then opened as it was)
            after = still_locked(replica)
            opened_now = {slot for slot, locked in locked_before.items() if locked and not after.get(slot, True)}
            assert opened_now <= kept, sorted(opened_now - kept)
        board.run()
        entry = replica.open_seats[0]
        for seat in range(1, players):
            session = board.sessions[seat]
            assert session.fault is None and session.result is not None, (game, at, seat, session.fault)
            report = verify_transcript(bytes(board.transcripts[seat]), get_game)
            assert report.ok and report.complete and report.stopped is None, report.describe()
            assert report.hosts == [(0, 0), (entry, 1)]
        played += 1
    assert played >= 4


def probe(board: Switchboard, old, seat: int, connection: int = 555) -> bytes | None:
    """The old host ``old`` dials seat ``seat``'s session, hosting now (by hand: the board wires
    no such connection): its hello, ``old``'s rejoin, its answer (returned, or ``None``)."""
    new = board.sessions[seat]
    rejoin = old.probe_hello(seat, probe_hello_of(board, new, connection, hang_up=False))
    assert rejoin is not None
    board.flush()  # (what else it had to send goes its way first)
    new.receive(connection, rejoin)
    answers = [data for conn, data in new.take_outgoing() if conn == connection]
    new.disconnected(connection, "the probe hung up")
    return answers[-1] if answers else None


def test_an_old_host_that_comes_back_after_the_take_over_is_told_its_seat_is_a_bots_and_stops():
    """The host was only cut off (still running): once every other seat has been away from it a
    while, it dials them where they said they listen and asks for its seat as a joiner would.
    While the successor is still claiming the table it is refused (nothing decided); once the
    take-over is logged, the successor answers gone, and the old host's game stops, saying so —
    nobody's fault; its transcript verifies."""
    board = Switchboard("beltpunk", 4, seed=b"take-over-old-host", reach=True)
    board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= 50)
    old = board.sessions[0]
    board.kill(0)  # (its session stays as it was: cut off from everyone, still running)
    assert [seat for seat, _ in old.take_over_probes()] == [1, 2, 3]
    board.sessions[1].open_seat(0)
    board.flush()  # seat 1 claims the table; the others have not agreed yet
    assert board.host_seat == 1
    answer = probe(board, old, 1)
    assert answer is not None and not old.probe_answer(1, answer) and old.stage == "playing"  # refused for now
    for seat in (2, 3):
        board.sessions[seat].open_seat(0)
        board.reconnect(seat)
    board.run(until=lambda: board.sessions[1].replica.sequencer == 1)
    # (Seat 2 hosts nothing: its node hangs up on the dial, no hello.) Seat 1's hello is no hello of seat 2's:
    assert old.probe_hello(2, probe_hello_of(board, board.sessions[1])) is None
    answer = probe(board, old, 1)
    assert old.probe_answer(1, answer)
    assert old.stage == "halted" and old.fault.code == "ended" and old.fault.culprit is None
    assert old.fault.reason.startswith("the others took the table over while this host was away: p1 hosts it now (your seat"
                                       " is played by a bot since entry ")
    kept = bytes(board.transcripts[0]) + b"".join(encode_record(record) for record in old.take_transcript())
    report = verify_transcript(kept, get_game)  # (the board reads nothing more from a seat it killed)
    assert report.ok and report.stopped is not None and report.stopped.code == "ended", report.describe()
    assert "took the table over while this host was away" in report.describe()
    board.run()
    assert board.sessions[1].result is not None


def probe_hello_of(board: Switchboard, session, connection: int = 556, *, hang_up: bool = True) -> bytes:
    """The hello a hosting ``session`` greets a new connection with."""
    assert session.is_host
    board.flush()  # (what else it had to send goes its way first)
    session.connected(connection)
    [(to, hello)] = session.take_outgoing()
    assert to == connection
    if hang_up:
        session.disconnected(connection, "the probe hung up")
    return hello


def test_a_probe_answered_by_something_else_proves_nothing():
    board = Switchboard("beltpunk", 3, seed=b"take-over-probe", reach=True)
    board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= 30)
    old = board.sessions[0]
    assert old.take_over_probes() == []  # every seat is with it
    board.kill(0)
    assert old.probe_hello(1, b"\x00junk") is None
    assert not old.probe_answer(1, b"\x00junk") and old.stage == "playing"
