"""The 2015 characters' privileges and powers (rulebook, "Characters"), each against a stacked deal.

At five players the Royal table seats alice (Queen), bob (General), carol (Duke), dave (Alchemist)
and erin (Tea Boy); at the Renegade table the same seats hold the Submariner, the Inspector, the
Plague Doctor, the Pirate and the Vagabond.
"""

from __future__ import annotations

import pytest
from sc2015_scenarios import Court2015

from p2pgames.engine import IllegalAction
from p2pgames.games.steamcourt.actions import Bestow, Give, KeepRest, Pass, Plague, PutBack

ALICE, BOB, CAROL, DAVE, ERIN = range(5)


def royal(hands, court=(), **kwargs) -> Court2015:
    return Court2015(5, hands, court, **kwargs)


def renegades(hands, court=(), **kwargs) -> Court2015:
    return Court2015(5, hands, court, options={"table": "renegade"}, **kwargs)


# -- the Queen ---------------------------------------------------------------------------------


def test_the_queen_gives_her_two_most_undesirable_cards_to_the_lowest_player():
    # "The Queen grants her Engineer the ability to bestow his two most undesirable cards to the
    # lowest player at the table."  FAQ: undesirable needn't mean lowest: any two she chooses.
    court = royal([["1", "1", "1", "2", "12"], ["5"], ["6"], ["7"], ["8"]])
    assert court.table.phase == "give" and court.table.actor == ALICE
    offered = court.legal(ALICE)
    assert {type(move) for move in offered} == {Bestow, Pass}
    assert {move.to for move in offered if type(move) is Bestow} == {ERIN}
    court.do(ALICE, "give 2 12 to erin")
    assert court.hand(ALICE) == ["1", "1", "1"] and court.hand(ERIN) == ["2", "8", "12"]
    assert "alice (Queen) gives erin 2 cards" in court.story()


def test_the_queen_gives_two_cards_or_none_and_only_to_the_lowest():
    court = royal([["1", "2", "3"], ["5"], ["6"], ["7"], ["8"]])
    slots = court.slots(ALICE, ["1", "2"])
    with pytest.raises(IllegalAction, match="give 2 cards"):
        court.game.check_action(court.state, ALICE, Give(slots[0], ERIN))
    with pytest.raises(IllegalAction, match="the Queen gives to the lowest player"):
        court.game.check_action(court.state, ALICE, Bestow(slots, DAVE))
    court.do(ALICE, "pass")
    assert court.hand(ALICE) == ["1", "2", "3"]


# -- the General -------------------------------------------------------------------------------


def test_the_general_may_give_one_card_to_the_second_lowest_player():
    # "the General's Engineer may give one of his undesirable cards to the second-lowest player"
    court = royal([["1", "2"], ["3", "4"], ["6"], ["7"], ["8"]])
    court.do(ALICE, "pass")
    assert court.table.actor == BOB
    assert {move.to for move in court.legal(BOB) if type(move) is Give} == {DAVE}
    with pytest.raises(IllegalAction, match="second-lowest"):
        court.game.check_action(court.state, BOB, Give(court.slot(BOB, "3"), ERIN))
    court.do(BOB, "give 3 to dave")
    assert court.hand(DAVE) == ["3", "7"]


# -- the Tea Boy and the Vagabond --------------------------------------------------------------


def test_the_tea_boy_gives_his_two_highest_numbered_cards_to_the_highest_player_then_may_trade():
    court = royal([["1"], ["2"], ["3"], ["4"], ["5", "11", "12", "MS"]], ["9"])
    court.pass_privileges_until(ERIN)
    assert [move.to for move in court.legal(ERIN)] == [ALICE]
    court.do(ERIN, "give 11 12 to alice")
    assert court.table.phase == "trade"


def test_the_tea_boys_two_highest_include_a_card_the_queen_gave_him_and_he_keeps_the_rest_of_her_gift():
    # "must give his two highest numbered cards to the highest player ... After serving his best he
    # may decide to trade his hand for the Court Hand ..., but must keep any cards given to him"
    # (I24): the two highest of his hand as he serves, the Queen's 12 among them; what he still
    # holds of her gift stays through the trade.
    court = royal([["1", "12", "3"], ["2"], ["3"], ["4"], ["5", "10", "11"]], ["9"])
    court.do(ALICE, "give 1 12 to erin")
    court.pass_privileges_until(ERIN)
    assert court.hand(ERIN) == ["1", "5", "10", "11", "12"]
    [serve] = court.legal(ERIN)
    court.act(ERIN, serve)
    assert court.hand(ALICE) == ["3", "11", "12"] and court.hand(ERIN) == ["1", "5", "10"]
    court.do(ERIN, "trade")
    assert "1" in court.hand(ERIN) and "erin (Tea Boy) trades 2 cards for the Court Hand" in court.story()


def test_the_vagabond_gives_his_two_highest_numbered_cards_to_the_highest_player_and_no_more():
    # "The Vagabond's Engineer must give his two highest numbered cards to the highest player at
    # the table. He is expected to deal the cards" — no hoard, no trade.
    court = renegades([["1"], ["2"], ["3"], ["4"], ["5", "11", "12"]], ["9"])
    court.pass_privileges_until(ERIN)
    assert [move.to for move in court.legal(ERIN)] == [ALICE]
    court.do(ERIN, "give 11 12 to alice")
    assert court.table.phase == "turn" and court.table.turn == ALICE  # the Submariner leads


# -- the Plague Doctor -------------------------------------------------------------------------


def test_the_plague_doctor_draws_four_from_the_court_hand_and_keeps_two():
    # "The Plague Doctor's Engineer may randomly draw four cards from the Court Hand. He must keep
    # 2 cards."  As the quarter starts, in seat order (I9).
    court = renegades([["1"], ["2"], ["3"], ["4"], ["5"]])
    court.pass_privileges_until(CAROL)
    assert court.table.phase == "plague" and court.legal(CAROL) == [Plague(), Pass()]
    court_before = len(court.table.court)
    court.act(CAROL, Plague())
    assert len(court.state.hands[CAROL]) == 5 and court.table.phase == "return"
    assert KeepRest() not in court.legal(CAROL)
    with pytest.raises(IllegalAction, match="put back 2 more drawn cards first"):
        court.game.check_action(court.state, CAROL, KeepRest())
    for _ in range(2):
        court.act(CAROL, next(move for move in court.legal(CAROL) if type(move) is PutBack))
    assert len(court.state.hands[CAROL]) == 3 and len(court.table.court) == court_before - 2
    assert court.table.phase != "return"  # on to the next privilege
    assert "shuffles the Court Hand and draws 4 cards" in court.story()


def test_the_plague_doctor_may_decline():
    court = renegades([["1"], ["2"], ["3"], ["4"], ["5"]])
    court.pass_privileges_until(CAROL)
    court.do(CAROL, "pass")
    assert court.hand(CAROL) == ["3"]
