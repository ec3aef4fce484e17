"""A win by forfeit (issue 25; SPEC §B17): at a two-player table whose host chose it, the one left
when the other has gone for good — and no bot can take their seat — may claim the game instead of
ending it. The host logs its claim; a joiner whose host is the one gone signs the entry itself.
Sessions on the in-memory switchboard."""

from __future__ import annotations

import pytest
from switchboard import Switchboard

from p2pgames.engine import RulesetError
from p2pgames.games import get_game
from p2pgames.session import LocalError, ProtocolFault, verify_transcript
from p2pgames.session._faults import FaultCode
from p2pgames.session._messages import make_envelope
from p2pgames.session._replica import FORFEIT


def two_players(seed: bytes, *, forfeit: bool = True, at: int = 20) -> Switchboard:
    """A 2-player Beltpunk table (the host holds card keys: no bot can take a vanished seat)."""
    board = Switchboard("beltpunk", 2, seed=seed, forfeit=forfeit)
    board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= at)
    return board


def checked_forfeit(board: Switchboard, winner: int, gone: int) -> int:
    """The game is over with ``winner`` winning by forfeit; its transcript verifies and says so.
    Returns the forfeit's entry."""
    session = board.sessions[winner]
    assert session.fault is None, session.fault
    assert session.result is not None and session.result.winners == (winner,) and session.result.scores == ()
    report = verify_transcript(bytes(board.transcripts[winner]), get_game)
    assert report.ok and report.complete, report.describe()
    assert report.forfeit is not None and report.forfeit[:2] == (winner, gone)
    seq = report.forfeit[2]
    assert (f"At entry {seq} p{winner} (seat {winner}) claimed the game by forfeit, p{gone} (seat {gone}) gone"
            in report.describe())
    assert f"Result: p{winner} (seat {winner}) won — a win by forfeit, the other player gone." in report.describe()
    return seq


def test_the_host_left_alone_claims_the_game_by_forfeit():
    board = two_players(b"forfeit-host")
    board.kill(1)
    board.run(play=False)
    host = board.host
    assert host.play_on_problem(1) is not None  # no bot can play it: the table would only end
    host.claim_forfeit(1)
    board.run(play=False)
    seq = checked_forfeit(board, 0, 1)
    assert host.replica.sequencers == [(0, 0)]  # (the host signs its own claim)
    assert "p0 wins — a win by forfeit, the other player gone." in host._result_text(host.result)
    assert seq == host.replica.seq - 1


def test_a_joiner_whose_host_has_gone_signs_its_forfeit_itself():
    board = two_players(b"forfeit-joiner")
    board.kill(0)
    board.run(play=False)
    joiner = board.sessions[1]
    assert joiner.forfeit_problem(0) is None
    joiner.claim_forfeit(0)
    board.run(play=False)
    seq = checked_forfeit(board, 1, 0)
    report = verify_transcript(bytes(board.transcripts[1]), get_game)
    assert report.hosts[-1] == (seq, 1)  # the forfeit's entry is signed by its claimant
    assert "hosted the table" not in report.describe()


def test_no_forfeit_where_the_table_did_not_choose_it_or_the_other_is_there():
    board = two_players(b"forfeit-refused", forfeit=False)
    with pytest.raises(LocalError, match="plays no win by forfeit"):
        board.host.claim_forfeit(1)
    board = two_players(b"forfeit-present")
    with pytest.raises(LocalError, match="p1 is at the table"):
        board.host.claim_forfeit(1)
    with pytest.raises(LocalError, match="only the other player's absence"):
        board.host.claim_forfeit(0)


def test_a_forfeit_is_for_two_player_tables_only_and_round_trips_in_the_ruleset():
    game = get_game("beltpunk")
    with pytest.raises(RulesetError, match="two-player tables, not 3"):
        game.ruleset(3, forfeit=True)
    ruleset = game.ruleset(2, forfeit=True)
    assert ruleset.encode()["forfeit"] is True and "forfeit" not in game.ruleset(2).encode()
    assert game.decode_ruleset(ruleset.encode()) == ruleset
    with pytest.raises(RulesetError, match="only true is written"):
        game.decode_ruleset({**ruleset.encode(), "forfeit": False})
    assert game.describe_table(ruleset).endswith("; the one left wins by forfeit")


def forfeit_submission(board: Switchboard, seat: int, body: dict | None = None):
    session, replica = board.sessions[seat], board.host.replica
    return make_envelope(session.identity, "submit", {
        "game_id": session.game_id, "seat": seat, "counter": replica.counters[seat], "based_on": replica.seq,
        "body": {"t": FORFEIT} if body is None else body,
    })


@pytest.mark.parametrize(("case", "forfeit", "reason"), [
    ("no forfeit at this table", False, "at a table that plays none"),
    ("sent to the host", True, "to be sequenced by another seat"),
    ("with a field", True, "with the wrong fields"),
])
def test_a_forfeit_the_rules_do_not_allow_is_refused_and_names_its_author(case, forfeit, reason):
    board = two_players(b"forfeit-illegal", forfeit=forfeit)
    replica = board.host.replica
    body = {"t": FORFEIT, "seat": 0} if case == "with a field" else None
    if case == "sent to the host":
        envelope, arrived, sequenced_by = forfeit_submission(board, 1, body), 1, None
    else:
        envelope, arrived, sequenced_by = forfeit_submission(board, 0, body), None, None
    with pytest.raises(ProtocolFault) as raised:
        replica.check_submission(envelope, arrived, sequenced_by=sequenced_by)
    assert raised.value.fault.culprit == (1 if case == "sent to the host" else 0)
    assert raised.value.fault.code in (FaultCode.ILLEGAL, FaultCode.MALFORMED)
    assert reason in raised.value.fault.reason
