"""The exhibition actions as a sealed choice between peers: each player's Queen or King is
committed as the exhibition begins and opened by its own peer after the dice; an opening that is
not what was committed to is a bad opening, proved by the signed commitment and opening."""

from __future__ import annotations

from p2pgames.engine import ChanceOutcome, ChoicesSealed, SimultaneousActs
from p2pgames.games import get_game
from p2pgames.games.astonishing.actions import ExhibitCard
from p2pgames.games.astonishing.rules import Phase
from p2pgames.net import play_table
from p2pgames.session import FaultCode, Replica, iter_records, verify_transcript
from p2pgames.session._messages import open_envelope
from p2pgames.session._replica import SeatInfo

from tests.session.switchboard import Switchboard

GAME = get_game("astonishing")


def replay_events(transcript: bytes) -> list:
    """``(before, event, after)`` for every engine event of the transcript's log, replayed."""
    records = list(iter_records(transcript))
    start = open_envelope(next(value for kind, value in records if kind == "start"))
    seats = [SeatInfo.decode(item) for item in start.body["seats"]]
    game = GAME.for_ruleset(GAME.decode_ruleset(start.body["ruleset"]))
    replica = Replica(game, GAME.decode_ruleset(start.body["ruleset"]), start.body["game_id"], seats, start.digest)
    events = []
    for kind, value in records:
        if kind == "entry":
            events += replica.apply_entry(value).events
    return events


def sealed_at_the_descriptions(board: Switchboard) -> bool:
    return all(
        session.replica is not None and session.replica.sealed is not None
        and session.replica.state.phase == Phase.DESCRIBE
        for session in board.sessions
    )


async def test_a_whole_game_over_loopback_tcp_seals_and_opens_the_exhibition_actions_and_verifies(tmp_path, autojump_clock):
    table = await play_table("astonishing", 3, seed=b"sealed-exhibition", transcripts=tmp_path)
    assert table.ok, [seat.fault for seat in table.seats]
    for seat in table.seats:
        assert seat.verified, seat.verification
    events = replay_events(table.seats[0].transcript.read_bytes())
    kinds = [type(event).__name__ for _, event, _ in events]
    sealed = kinds.index("ChoicesSealed")
    assert kinds.count("ChoicesSealed") == 1 and events[sealed][0].phase == Phase.CHOOSE_EXHIBIT
    opened = next(
        i for i, (_, event, _) in enumerate(events)
        if isinstance(event, SimultaneousActs) and all(isinstance(action, ExhibitCard) for _, action in event.actions)
    )
    # Between the sealing and the opening: the descriptions, the vote and the dice — and no
    # exhibition action in any state the log went through.
    assert sealed < opened and isinstance(events[opened - 1][1], ChanceOutcome)
    assert events[opened - 1][0].phase == Phase.DICE
    assert all(after.exhibit == ["", "", ""] for _, _, after in events[: opened])
    before, event, after = events[opened]
    assert after.exhibit == [action.card for _, action in event.actions]
    assert isinstance(events[sealed][1], ChoicesSealed)


def test_a_sealed_exhibition_action_opened_as_another_is_a_bad_opening_naming_the_player():
    board = Switchboard("astonishing", 3, seed=b"changed-card")
    board.run(until=lambda: sealed_at_the_descriptions(board))
    cheater = board.sessions[1]
    phase_id = cheater.replica.sealed.phase_id
    committed = list(cheater.secrets.choices[phase_id])
    other = "queen" if committed == ["exhibit-card", "king"] else "king"
    cheater.secrets.choices[phase_id] = GAME.encode_action(ExhibitCard(other))  # what it will open
    board.run()
    for seat in (0, 2):
        session = board.sessions[seat]
        assert session.fault is not None and session.fault.culprit == 1, (seat, session.fault)
        assert session.fault.code == FaultCode.BAD_OPENING, session.fault
        report = verify_transcript(bytes(board.transcripts[seat]), get_game)
        assert report.ok and report.stopped.culprit == 1 and report.stop_confirmed, report.describe()
        # The dice were rolled: it was the exhibition action's opening that was refused.
        assert session.replica.state.phase == Phase.UNSEAL and session.replica.state.exhibit == ["", "", ""]
    commit, opening = (open_envelope(raw) for raw in board.host.fault.evidence)
    assert commit.body["body"]["t"] == "commit" and opening.body["body"]["t"] == "open"
    assert list(opening.body["body"]["value"]) == ["exhibit-card", other]
