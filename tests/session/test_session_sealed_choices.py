"""Sealed choices between peers: at a Sealed step every listed seat commits (a decision, like a
simultaneous choice) and the replica keeps the commitments; some entries later, at the Unseal step,
every seat opens its choice by itself under the sealed phase's id, checked against what it
committed to. Played on Sealed Guess (``tests/engine/sealed_game.py``), a test-only game."""

from __future__ import annotations

from switchboard import Switchboard

from p2pgames.bots import RandomBot
from p2pgames.engine import ChoicesSealed, Sealed, Unseal
from p2pgames.session import FaultCode, Replica, iter_records, verify_transcript
from p2pgames.session._messages import open_envelope
from p2pgames.session._replica import CommitPhase, SeatInfo

from tests.engine.sealed_game import GAME, Guess, loader


def board(seed: bytes = b"sealed", players: int = 3) -> Switchboard:
    bots = [RandomBot(seed + bytes([seat])) for seat in range(players)]
    # No bot seats, so no escrow (§B16): the log holds the game's steps alone, read by position.
    return Switchboard(GAME.name, players, seed=seed, loader=loader, bots=bots, open_seats=False)


def sealed_and_talking(b: Switchboard) -> bool:
    """Every peer has seen the choices sealed, and the talk has begun."""
    return all(
        session.replica is not None and session.replica.sealed is not None and session.replica.state.phase == "talk"
        for session in b.sessions
    )


def submissions(b: Switchboard) -> list[tuple[int, dict]]:
    """Every submission of the log as ``(seat, body)``, in order (from the host's transcript)."""
    found = []
    for kind, value in iter_records(bytes(b.transcripts[0])):
        if kind == "entry":
            inner = open_envelope(open_envelope(value).body["submission"])
            found.append((inner.body["seat"], inner.body["body"]))
    return found


def test_a_sealed_choice_is_a_decision_committed_now_and_opened_by_the_seat_itself_later():
    b = board()
    human = b.sessions[1]
    b.run(until=lambda: human.decision() is not None)
    decision = human.decision()
    assert decision.step == Sealed((0, 1, 2), "guess the roll") and decision.simultaneous
    assert decision.actions == (Guess(1), Guess(2), Guess(3))
    human.act(Guess(3))
    b.run(until=lambda: sealed_and_talking(b))
    replica = b.host.replica
    phase_id = replica.sealed.phase_id
    assert replica.sealed.seats == (0, 1, 2) and sorted(replica.sealed.commitments) == [0, 1, 2]
    assert replica.state.guesses == [0, 0, 0], "nothing of the choices reaches the game"
    # Seat 1's choice stays with seat 1 (saved with the seat before its commitment left).
    assert human.secrets.choices[phase_id] == ["guess", 3]
    assert list(b.saved_seat(1).choices[phase_id]) == ["guess", 3]
    b.run()
    b.check_finished_and_verified()
    log = submissions(b)
    kinds = [body["t"] for _, body in log]
    first_commit = next(i for i, (_, body) in enumerate(log) if body["t"] == "commit")
    assert first_commit == phase_id
    # The commitments, then the talk (acts), the roll (commit and open each), then the openings.
    assert kinds[phase_id:phase_id + 3] == ["commit"] * 3 and kinds[phase_id + 3:phase_id + 6] == ["act"] * 3
    opens = [(seat, body) for seat, body in log[phase_id + 12:phase_id + 15]]
    assert [body["t"] for _, body in opens] == ["open"] * 3
    assert list(dict((seat, body["value"]) for seat, body in opens)[1]) == ["guess", 3]


def test_every_peer_and_a_replay_of_the_log_keep_the_commitments_between_seal_and_unseal():
    b = board(b"replay")
    b.run(until=lambda: sealed_and_talking(b))
    kept = {repr(session.replica.sealed) for session in b.sessions}
    assert len(kept) == 1
    # A replica replaying the host's transcript so far has the same sealed set.
    records = list(iter_records(bytes(b.transcripts[0])))
    start = open_envelope(next(value for kind, value in records if kind == "start"))
    seats = [SeatInfo.decode(item) for item in start.body["seats"]]
    replica = Replica(GAME, GAME.ruleset(3), start.body["game_id"], seats, start.digest)
    events = []
    for kind, value in records:
        if kind == "entry":
            applied = replica.apply_entry(value)
            events += [event for _, event, _ in applied.events]
    assert repr(replica.sealed) in kept and ChoicesSealed() in events
    b.run()
    b.check_finished_and_verified()


def test_the_unseal_step_waits_only_for_the_openings_of_the_sealed_phase():
    b = board(b"unseal")
    b.run(until=lambda: isinstance(b.host.replica.step, Unseal) if b.host.replica else False, play=True)
    replica = b.host.replica
    phase = replica.phase
    assert isinstance(phase, CommitPhase) and phase.opening
    assert phase.phase_id == replica.sealed.phase_id and not replica.waiting_on_decision()
    assert all(session.decision() is None for session in b.sessions)
    b.run()
    b.check_finished_and_verified()
    assert b.host.replica.sealed is None


def test_an_opening_that_differs_from_the_sealed_commitment_is_a_bad_opening_proved_by_evidence():
    b = board(b"changed")
    b.run(until=lambda: sealed_and_talking(b))
    cheater = b.sessions[1]
    phase_id = cheater.replica.sealed.phase_id
    committed = cheater.secrets.choices[phase_id]
    cheater.secrets.choices[phase_id] = ["guess", 1 if committed != ["guess", 1] else 2]
    b.run()
    for seat in (0, 2):
        fault = b.sessions[seat].fault
        assert fault is not None and fault.culprit == 1 and fault.code == FaultCode.BAD_OPENING, (seat, fault)
        report = verify_transcript(bytes(b.transcripts[seat]), loader)
        assert report.ok and report.stopped.culprit == 1 and report.stop_confirmed, report.describe()
    fault = b.host.fault
    commit, opened = (open_envelope(raw) for raw in fault.evidence)
    assert commit.body["body"]["t"] == "commit" and opened.body["body"]["t"] == "open"
    assert commit.body["seat"] == opened.body["seat"] == 1
    assert b.host.replica.confirm(fault) is None, "the evidence proves it to anyone"


def test_a_joiner_restarted_between_seal_and_unseal_opens_its_saved_choice():
    b = board(b"restart")
    b.run(until=lambda: sealed_and_talking(b))
    phase_id = b.host.replica.sealed.phase_id
    chosen = list(b.sessions[2].secrets.choices[phase_id])
    assert list(b.saved_seat(2).choices[phase_id]) == chosen
    b.restart(2, loader=loader)  # nothing but its saved seat: the choice comes from there
    b.run()
    b.check_finished_and_verified()
    opens = {seat: body for seat, body in submissions(b)[phase_id + 12:phase_id + 15]}
    assert opens[2]["t"] == "open" and list(opens[2]["value"]) == chosen


def test_a_host_restarted_between_seal_and_unseal_opens_its_saved_choice():
    b = board(b"host-restart")
    b.run(until=lambda: sealed_and_talking(b))
    b.restart_host(loader=loader)
    assert b.host.replica.sealed is not None, "the host's replay of its transcript keeps the sealed set"
    b.run()
    b.check_finished_and_verified()
