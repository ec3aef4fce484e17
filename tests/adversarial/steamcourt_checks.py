"""What every Steam Court cheating test checks, for either rulebook's game (``steamcourt``,
``steamcourt2015``): every honest peer stopped naming the cheater for the right reason, agrees
where it stopped, and holds a transcript that verifies; an illegal move never entered a log.

The cheater sits at seat :data:`CHEATER`; each function takes the game's name first.
"""

from __future__ import annotations

from pathlib import Path

from p2pgames.games import get_game
from p2pgames.games.steamcourt.cards import a_face
from p2pgames.session import FaultCode, GameEnded, Halted, verify_transcript
from p2pgames.session._messages import open_envelope

CHEATER = 1
SHOWN = "broke a rule that the revealed cards show: "  # a rule-violation's reason begins so
ILLEGAL = "made an illegal move: "  # and an illegal move's


def transcript_path(game: str, directory: Path, seed: bytes, seat: int) -> Path:
    # The name play_table gives each seat's transcript.
    return directory / f"{game}-{seed.hex()[:8]}-seat{seat}.p2pt"


def check_caught(game, tmp_path, seed, sessions, code, reason, *, provable=True):
    """Every honest peer stopped naming the cheater, for ``reason`` (the whole text), and is intact."""
    cheater = sessions[CHEATER]
    assert cheater.cheated, "the cheater never got to cheat"
    honest = [seat for seat in range(len(sessions)) if seat != CHEATER]
    stopped_in = set()
    for seat in honest:
        session = sessions[seat]
        fault = session.fault
        assert session.stage == "halted", (seat, session.stage, fault)
        assert fault.culprit == CHEATER and fault.code == code, (seat, fault)
        assert fault.reason == reason, (seat, fault)
        # The player is told once, clearly, who did what.
        halts = [event for event in session.seen if isinstance(event, Halted)]
        assert len(halts) == 1, (seat, halts)
        assert halts[0].fault == fault
        assert halts[0].message == f"The game stopped: cheater (seat 1): {reason}.", halts[0].message
        assert not any(isinstance(event, GameEnded) for event in session.seen)
        # The transcript verifies, and replaying it reaches the same verdict (or the evidence
        # proves it).
        report = verify_transcript(transcript_path(game, tmp_path, seed, seat).read_bytes(), get_game)
        assert report.ok, report.describe()
        assert report.stopped is not None and report.stopped.culprit == CHEATER, report.describe()
        assert report.stopped.code == code, report.describe()
        if provable:
            assert report.stop_confirmed, report.describe()
        replica = session.replica
        stopped_in.add((replica.seq, replica.state_hash))
        # How far each peer saw everyone agree is not part of where it stopped: the cheater's
        # last acknowledgement races the entry that stops the game (they come over different
        # connections), so one honest peer may count it and another not. Neither counts the
        # entry that stopped the game.
        assert session.agreed_through < replica.seq
    assert len(stopped_in) == 1, f"honest peers disagree about where they stopped: {stopped_in}"
    return sessions[0].replica


def check_refused_by_host(game, sessions, cheater):
    """An illegal move: the host refused it on arrival, so it never entered anyone's log; the
    host named the cheater with his signed submission, which convinced every other peer."""
    for seat in range(len(sessions)):
        if seat == CHEATER:
            continue
        session = sessions[seat]
        assert session.replica.seq == cheater.cheat_seq, "the illegal move was sequenced"
        fault = session.fault
        assert fault.reporter is None, fault  # proved by the evidence, not taken on trust
        assert len(fault.evidence) == 1
        evidence = open_envelope(fault.evidence[0])
        assert evidence.kind == "submit" and evidence.sender == cheater.identity.public_key.raw
        assert evidence.body["body"]["t"] == "act"
        assert get_game(game).decode_action(evidence.body["body"]["action"]) == cheater.cheat_action


def check_tea_boy_caught(game, tmp_path, seed, sessions, cheater, *, entries_after: int):
    """The Tea Boy who served his two lowest numbered cards while holding a higher one is named for
    it; the gift was sequenced (a claim over hidden cards: nobody could refuse it) and play went on
    at least ``entries_after`` entries, until the entry that made the last of the claim's cards
    public, which checked it. Returns the state before that entry, and the claim's cards still
    hidden in it."""
    low, high = cheater.served
    replica = check_caught(
        game, tmp_path, seed, sessions, FaultCode.RULE_VIOLATION,
        f"{SHOWN}gave {low} and {high} while holding {a_face(str(cheater.kept_back))}: "
        "the Tea Boy must give his two highest numbered cards",
    )
    state = replica.state
    assert replica.seq > cheater.cheat_seq + entries_after
    [claim] = state.cards.claims
    assert claim.player == CHEATER and claim.kind == "serve"
    assert claim.slots[:2] == cheater.cheat_action.slots
    hidden = set(claim.slots) - set(state.cards.revealed)
    assert hidden and hidden <= state.cards.expected_values()
    return state, hidden
