""""not this quarter" between peers (RULES.md, I28): a General answers it once; his own peer then
passes in every stop window of that quarter by itself, the others seeing ordinary passes, and he is
asked again in the next quarter. (The game's side, where it is offered and with which key:
``powers::test_not_this_quarter_is_offered_in_exactly_the_stop_retrieve_and_steal_windows``.)"""

from __future__ import annotations

import sys
from pathlib import Path

from p2pgames.engine import StandingAnswer
from p2pgames.games.steamcourt import SteamCourt
from p2pgames.games.steamcourt.actions import Pass
from p2pgames.games.steamcourt.bots import make_bot
from p2pgames.games.steamcourt.presentation import SteamCourtPresentation
from p2pgames.session._messages import open_envelope

sys.path.insert(0, str(Path(__file__).parents[2] / "session"))
from switchboard import Switchboard  # noqa: E402

# Queen, General, Tea Boy: the General is asked after every lay that is not a lead. Players reseat
# by going-out order each quarter, so over four quarters one of the three is the General twice.
GENERAL = SteamCourt({3: ("queen", "general", "teaboy")})
SHOWN = SteamCourtPresentation(GENERAL)  # the standing answer is the presentation's offer


def test_not_this_quarter_is_answered_by_the_generals_own_peer_until_the_next_quarter():
    bots = [make_bot(bytes([seat])) for seat in range(3)]
    # A seed whose deals make a joiner the General in two quarters running (the host's own moves
    # never cross the switchboard, so they can't be watched here).
    board = Switchboard("steamcourt", 3, loader=lambda name: GENERAL, bots=bots, seed=b"b")
    for session in board.sessions:
        session.presentation_loader = lambda name: SHOWN
    # What the host receives in each stop window (by quarter and seat): what everyone sees.
    answers: list[tuple[int, int, object]] = []

    def watch(seat: int, data: bytes) -> bytes:
        envelope = open_envelope(data)
        if envelope.kind == "submit" and envelope.body["body"]["t"] == "act":
            state = board.host.replica.state  # the act applies to the state the host holds now
            if state.table_of(seat).phase == "stop":
                answers.append((state.quarter, seat, board.game.decode_action(envelope.body["body"]["action"])))
        return data

    board.tamper = watch

    def asked_to_stop() -> int | None:
        for seat, session in enumerate(board.sessions):
            if session.decision() is not None and session.replica.state.table_of(seat).phase == "stop":
                return seat
        return None

    stood: dict[int, list[int]] = {seat: [] for seat in range(3)}  # the quarters each answered it
    while True:
        # Bots play everything but the stop windows, which come here: the General answers the
        # first one of each quarter "not this quarter".
        board.run(until=lambda: asked_to_stop() is not None)
        seat = asked_to_stop()
        if seat is None:
            break
        session = board.sessions[seat]
        quarter = session.replica.state.quarter
        assert quarter not in stood[seat], "asked to stop again in the quarter he answered not this quarter"
        decision = session.decision()
        assert decision.standing == StandingAnswer("not this quarter", Pass(), ("stop", quarter))
        assert "not this quarter" not in decision.texts  # not a move: a standing answer
        session.stand_by(decision.standing)
        stood[seat].append(quarter)
    assert all(session.stage == "over" and session.fault is None for session in board.sessions)
    # General in two quarters running, he was asked again in the second: the answer lapsed with
    # its quarter.
    assert any(b == a + 1 for quarters in stood.values() for a, b in zip(quarters, quarters[1:])), stood
    # Every stop window was answered with a pass, as any pass looks; most of them by the General's
    # peer without asking him.
    assert {action for _, _, action in answers} == {Pass()}
    asked = sum(len(quarters) for quarters in stood.values())
    assert len(answers) > 2 * asked, (len(answers), asked)
