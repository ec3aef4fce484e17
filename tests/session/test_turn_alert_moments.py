"""When a decision comes "after others have played" (``DecisionNeeded.after_others``): the moment
for a turn alert (issue 26, point 5). Not after each of one's own moves in one's own turn."""

from __future__ import annotations

import pytest
from switchboard import Switchboard

from p2pgames.bots import bot_for
from p2pgames.games import get_game
from p2pgames.session import DecisionNeeded


class _Applied:
    """A marker put among a session's events as each entry is applied: whose it was, what kind."""

    def __init__(self, seat: int, kind: str) -> None:
        self.seat, self.kind = seat, kind


@pytest.mark.parametrize("game, players, options", [("torpedo", 2, {"build": "starter"}), ("beltpunk", 3, {})])
def test_a_decision_says_whether_another_seat_moved_since_the_last_one(game, players, options):
    # Steam Torpedo's heuristic bots: its default, the search bot, would take half a minute here.
    kind = "heuristic" if game == "torpedo" else None
    bots = [bot_for(get_game(game), b"t" + bytes([seat]), kind) for seat in range(players)]
    board = Switchboard(game, players, options=options, bots=bots)
    for session in board.sessions:
        after_apply = session._after_apply

        def marked(applied, session=session, after_apply=after_apply):
            session._emit(_Applied(applied.submission.seat, applied.submission.kind))
            after_apply(applied)

        session._after_apply = marked
    board.run()
    for seat, session in enumerate(board.sessions):
        assert session.stage == "over"
        others_moved = True  # the first decision of the game counts as coming after the others
        flags = []
        for event in board.events[seat]:
            if isinstance(event, _Applied):
                others_moved |= event.seat != seat and event.kind in ("act", "commit")
            elif isinstance(event, DecisionNeeded):
                assert event.after_others is others_moved
                flags.append(event.after_others)
                others_moved = False
        assert True in flags
        if game == "torpedo":  # a Steam Torpedo turn is many moves: the later ones come after one's own
            assert False in flags
