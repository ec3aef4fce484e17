"""No card put out of a seat's sight can be traced by its slot to what that seat saw of the hand
(issue 24, point 1; the published rules' RULES.md I51, which these rules share): at the Renegade
table the Inspector's look at the Vagabond's hand is followed, before the Vagabond serves, by a
re-mask of that hand."""

from __future__ import annotations

import sys
from pathlib import Path

from sc2015_scenarios import Court2015

sys.path.insert(0, str(Path(__file__).parents[1] / "steamcourt"))
from test_steamcourt_concealment import traceable  # noqa: E402

ALICE, BOB, CAROL, DAVE, ERIN = range(5)


def test_the_vagabond_serves_from_a_hand_re_masked_after_the_inspector_saw_it():
    court = Court2015(5, [["1"], ["2"], ["3"], ["4"], ["10", "12", "5"]], options={"table": "renegade"})
    seen = list(court.state.hands[ERIN])
    court.do(BOB, "inspect erin")
    court.do(CAROL, "pass")  # the Plague Doctor draws nothing
    hand = court.state.hands[ERIN]
    assert court.hand(ERIN) == ["5", "10", "12"]
    assert not any(slot in seen or slot in court.view(BOB) for slot in hand)
    assert traceable(court, ERIN) == []
    (line,) = court.private[BOB]
    assert line.endswith("; erin holds 5 10 12")
    court.do(ERIN, "give 10 12 to alice")
    assert court.hand(ALICE) == ["1", "10", "12"] and court.private[ERIN] == []


def test_the_queens_two_cards_to_the_tea_boy_need_no_re_mask_he_serves_her():
    court = Court2015(5, [["1", "2", "9"], ["5"], ["6"], ["7"], ["8", "11"]])
    court.do(ALICE, "give 2 9 to erin")
    court.do(BOB, "pass")
    gifts = court.slots(ERIN, ["2", "9"])
    assert all(slot in court.state.hands[ERIN] for slot in gifts) and traceable(court, ERIN) == []
