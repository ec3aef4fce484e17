"""Trading (rulebook, "3. Trade (Jacks)"): an offer of 1–2 cards face up, Jokers too; answers of
1–2 cards each face up or down, revised, stood by or declined; the initiator accepts one answer,
revises, asks again or withdraws; nothing for nothing; face-down cards seen by the buyer only."""

import pytest

from p2pgames.engine import IllegalAction, Turn
from p2pgames.games.astonishing.actions import Accept, Answer, NoTrade, Offer, Reopen, Stand, Withdraw

from tests.games.astonishing.astonishing_scenarios import (
    Phase,
    act,
    choose,
    hand,
    knows,
    legal,
    panel_lines,
    play,
    slot,
    table,
    texts,
)

HANDS = {0: ["7D", "JOKER1", "2C"], 1: ["3C", "9H", "4H"], 2: ["5S", "6S"]}


def _trading(hands=HANDS, cards=("jack", "king", "king"), first=0):
    """Alice (Clubs) trades; Bob (Diamonds) and Carol (Hearts) chose Kings."""
    t = table(3, first=first, hands=hands)
    choose(t, list(cards))
    return t


def test_the_jacks_player_lays_one_or_two_cards_face_up_or_initiates_no_trade():
    t = _trading()
    assert t.step() == Turn((0,), "offer cards to trade, or initiate no trade")
    assert texts(t, 0) == [
        "offer 7♦", "offer Joker", "offer 2♣", "offer 7♦ Joker", "offer 7♦ 2♣", "offer Joker 2♣", "no trade",
    ]
    play(t, 0, "offer 7d 2c")
    assert t.state.offer == sorted([slot(t, "7D"), slot(t, "2C")])
    assert knows(t, 1, "7D") and knows(t, 2, "2C") and knows(t, None, "7D")  # face up: public
    assert t.lines[-2:] == ["alice opens a trade.", "alice offers 7♦ and 2♣."]


def test_a_joker_may_be_offered_in_trade():
    t = _trading()
    play(t, 0, "offer joker")
    assert t.state.offer == [slot(t, "JOKER1")] and t.lines[-1] == "alice offers Joker."


def test_an_offer_is_of_cards_from_the_initiators_own_hand():
    t = _trading()
    with pytest.raises(IllegalAction, match="you can only use cards from your hand"):
        act(t, 0, Offer((slot(t, "3C"),)))


def test_every_other_player_holding_cards_answers_in_any_order_face_up_or_face_down():
    t = _trading()
    play(t, 0, "offer 7d")
    assert t.step() == Turn((1, 2), "answer the trade offer, or decline")
    assert "answer 9♥ down:3♣" in texts(t, 1) and "answer down:9♥ down:3♣" in texts(t, 1)
    play(t, 2, "answer down:5s")  # carol first
    play(t, 1, "answer 3c down:9h")
    assert t.state.phase == Phase.DECIDE and t.step().actors == (0,)
    assert knows(t, 0, "3C") and knows(t, 2, "3C")  # face up: everyone sees it
    assert not knows(t, 0, "9H") and not knows(t, 2, "9H") and knows(t, 1, "9H")  # face down: its owner only
    assert not knows(t, 0, "5S") and not knows(t, 1, "5S")


def test_a_player_with_no_cards_is_not_asked_to_answer():
    t = _trading(hands={0: ["7D"], 1: ["3C"], 2: []})
    play(t, 0, "offer 7d")
    assert t.step().actors == (1,)


def test_accepting_moves_the_offer_to_the_partner_and_the_answer_to_the_initiator():
    t = _trading()
    play(t, 0, "offer 7d joker")
    play(t, 1, "answer 3c down:9h")
    play(t, 2, "answer 5s")
    play(t, 0, "accept bob")
    assert hand(t, 0) == ["2C", "3C", "9H"]
    assert hand(t, 1) == ["4H", "7D", "JOKER1"]
    assert hand(t, 2) == ["5S", "6S"]  # carol's answer stays hers
    assert t.lines[-1] == "alice trades 7♦ and Joker to bob for a face-down card and 3♣."


def _bought_from_bob(answer, hands=HANDS):
    """Alice offers 7♦, bob answers ``answer`` (``"down:9h"``), carol declines, and alice accepts
    bob's answer."""
    t = _trading(hands=hands)
    play(t, 0, "offer 7d")
    play(t, 1, f"answer {answer}")
    play(t, 2, "decline")
    play(t, 0, "accept bob")
    return t


def test_a_face_down_card_is_disclosed_to_the_buyer_only():
    t = _bought_from_bob("down:9h")
    nine = slot(t, "9H")
    assert t.knowledge[0][nine] == "9H"  # the buyer now sees what it bought
    assert nine not in t.knowledge[2] and nine not in t.state.cards.revealed  # carol never does
    assert all("9♥" not in line for line in t.lines)


def test_the_buyer_alone_is_told_in_its_own_log_which_face_down_card_it_bought():
    t = _bought_from_bob("down:9h 3c")
    assert "alice trades 7♦ to bob for a face-down card and 3♣." in t.lines
    assert t.private[0] == ["The face-down card from bob is 9♥."]
    assert t.private[1] == [] and t.private[2] == []  # bob knew it; carol never learns it


JOKER_HANDS = {0: ["7D"], 1: ["JOKER2", "3C"], 2: ["5S"]}


def test_let_the_buyer_beware_a_face_down_joker_may_be_the_answer():
    t = _bought_from_bob("down:joker", JOKER_HANDS)
    assert hand(t, 0) == ["JOKER2"] and hand(t, 1) == ["3C", "7D"]
    assert t.knowledge[0][slot(t, "JOKER2")] == "JOKER2" and not knows(t, 2, "JOKER2")
    two = _bought_from_bob("down:joker down:3c", JOKER_HANDS)
    assert two.private[0] == ["The face-down cards from bob are a Joker and 3♣."]


def test_nothing_for_nothing_a_player_who_did_not_answer_cannot_be_accepted():
    t = _trading()
    play(t, 0, "offer 7d")
    play(t, 1, "answer 3c")
    play(t, 2, "decline")
    assert Accept(2) not in legal(t, 0) and Accept(1) in legal(t, 0)
    with pytest.raises(IllegalAction, match="that player has not answered your offer"):
        act(t, 0, Accept(2))
    with pytest.raises(IllegalAction, match="that player has not answered your offer"):
        act(t, 0, Accept(0))


def test_declining_takes_back_an_earlier_answer():
    t = _trading()
    play(t, 0, "offer 7d")
    play(t, 1, "answer 3c")
    play(t, 2, "decline")
    play(t, 0, "ask again")
    play(t, 1, "decline")
    play(t, 2, "decline")
    assert not any(isinstance(action, Accept) for action in legal(t, 0))
    with pytest.raises(IllegalAction, match="that player has not answered your offer"):
        act(t, 0, Accept(1))


def test_asked_again_players_may_revise_turn_face_down_cards_up_or_stand_by_their_answer():
    t = _trading()
    play(t, 0, "offer 7d")
    play(t, 1, "answer 3c down:9h")
    play(t, 2, "answer down:5s")
    play(t, 0, "ask again")
    assert t.step() == Turn((1, 2), "answer the trade offer, or decline")
    assert texts(t, 2)[-2:] == ["stand", "decline"]
    # Bob showed the 3 face up: it went back among his cards (his hand is re-masked), so his answer
    # is taken back and he answers anew (RULES.md, asked again, a face-up answer is answered anew).
    assert texts(t, 1)[-1] == "decline" and "stand" not in texts(t, 1) and t.state.answer_of(1) == []
    assert not knows(t, 0, "9H") and not knows(t, 2, "3C") and not knows(t, None, "3C")
    play(t, 1, "answer 3c 9h")  # turns the 9 face up
    play(t, 2, "stand")
    assert knows(t, 0, "9H") and knows(t, 2, "9H")
    assert t.state.answer_of(2) == [(slot(t, "5S"), False)] and not knows(t, 0, "5S")
    assert t.lines[-3:] == ["bob answers with 2 cards, face up.", "bob shows 3♣ and 9♥ face up.", "carol stands by the answer."]


def test_an_answer_shows_its_cards_anew_and_an_offer_of_cards_seen_face_up_before_names_them_again():
    t = _trading()
    play(t, 0, "offer 7d")
    play(t, 1, "answer 3c down:9h")
    play(t, 2, "decline")
    play(t, 0, "ask again")
    play(t, 1, "answer 3c")  # the 3 was shown face up in the first round, then went back among his cards
    assert t.lines[-2:] == ["bob answers with a card, face up.", "bob shows 3♣ face up."]
    play(t, 2, "decline")
    play(t, 0, "offer 2c")
    play(t, 1, "answer 3c down:9h")
    assert t.lines[-2:] == ["bob answers with 2 cards, one face up, one face down.", "bob shows 3♣ face up."]
    play(t, 2, "decline")
    play(t, 0, "offer 7d")  # back to the first offer, seen before
    assert t.lines[-1] == "alice revises the offer: 7♦."


def test_standing_needs_an_answer_to_stand_by():
    t = _trading()
    play(t, 0, "offer 7d")
    assert Stand() not in legal(t, 1)
    with pytest.raises(IllegalAction, match="you have no answer to stand by"):
        act(t, 1, Stand())


def test_the_initiator_may_revise_the_offer_and_the_others_answer_again():
    t = _trading()
    play(t, 0, "offer 7d")
    play(t, 1, "answer 3c")
    play(t, 2, "decline")
    assert "offer 7♦" not in texts(t, 0) and "offer 2♣" in texts(t, 0)  # a revision changes the offer
    play(t, 0, "offer 2c joker")
    assert t.lines[-2:] == ["alice revises the offer.", "alice offers Joker and 2♣."]
    assert t.state.offer == sorted([slot(t, "2C"), slot(t, "JOKER1")])
    assert t.step().actors == (1, 2)
    assert "stand" not in texts(t, 1)  # his 3 went back among his cards: he answers anew
    play(t, 1, "answer 3c")
    play(t, 2, "decline")
    play(t, 0, "accept bob")
    assert hand(t, 0) == ["3C", "7D"] and hand(t, 1) == ["2C", "4H", "9H", "JOKER1"]


def test_the_initiator_may_withdraw_and_nothing_changes_hands():
    t = _trading(cards=("jack", "king", "jack"))
    play(t, 0, "offer 7d")
    play(t, 1, "answer 3c")
    play(t, 2, "answer 5s")
    play(t, 0, "withdraw")
    assert hand(t, 0) == ["2C", "7D", "JOKER1"] and hand(t, 1) == ["3C", "4H", "9H"]
    assert t.lines[-1] == "alice withdraws the offer: no trade."
    # Play proceeds to the next trading player, with a fresh table.
    assert t.state.trader == 2 and t.state.phase == Phase.OFFER
    assert t.state.offer == [] and t.state.answers == [[], [], []]


def test_only_the_initiator_can_close_or_reopen_the_trade():
    t = _trading()
    play(t, 0, "offer 7d")
    play(t, 1, "answer 3c")
    play(t, 2, "decline")
    for seat, action in ((1, Withdraw()), (2, Accept(1)), (1, Offer((slot(t, "4H"),)))):
        with pytest.raises(IllegalAction, match="it is not your turn"):
            act(t, seat, action)


def test_answering_is_only_for_those_asked():
    t = _trading()
    play(t, 0, "offer 7d")
    play(t, 1, "answer 3c")
    with pytest.raises(IllegalAction, match="it is not your turn"):
        act(t, 1, Answer((slot(t, "9H"),), (True,)))


def test_an_answer_is_of_the_answerers_own_cards():
    t = _trading()
    play(t, 0, "offer 7d")
    with pytest.raises(IllegalAction, match="you can only use cards from your hand"):
        act(t, 1, Answer((slot(t, "5S"),), (False,)))


def test_no_trade_passes_to_the_next_jack_and_after_the_last_to_the_queens():
    t = _trading(cards=("jack", "queen", "jack"))
    act(t, 0, NoTrade())
    assert t.state.trader == 2
    act(t, 2, NoTrade())
    assert t.state.phase == Phase.QUEEN and t.state.trader == -1


def test_trades_run_in_turn_from_the_first_player_and_the_cards_an_answer_gave_are_gone_for_the_next():
    t = _trading(cards=("jack", "king", "jack"), first=2)
    assert t.state.trader == 2  # carol goes first
    play(t, 2, "offer 5s")
    play(t, 1, "answer 3c")
    play(t, 0, "answer 2c")
    play(t, 2, "accept bob")
    assert hand(t, 1) == ["4H", "5S", "9H"] and hand(t, 2) == ["3C", "6S"]
    # Alice's trade next: answers start afresh, and bob's 3♣ has left his hand.
    assert t.state.trader == 0 and t.state.answers == [[], [], []]
    play(t, 0, "offer 7d")
    assert "answer 3♣" not in texts(t, 1) and "answer 5♠" in texts(t, 1)
    with pytest.raises(IllegalAction, match="you can only use cards from your hand"):
        act(t, 1, Answer((slot(t, "3C"),), (True,)))


def test_an_offer_nobody_can_answer_comes_straight_back_and_can_only_be_withdrawn():
    t = _trading(hands={0: ["7D"], 1: [], 2: []})
    play(t, 0, "offer 7d")
    assert t.state.phase == Phase.DECIDE and texts(t, 0) == ["withdraw"]
    with pytest.raises(IllegalAction, match="nobody has a card to answer with"):
        act(t, 0, Reopen())


def test_the_trade_panel_says_who_declined_and_who_is_yet_to_answer():
    t = _trading()
    play(t, 0, "offer 7d")
    play(t, 2, "decline")
    text = "\n".join(panel_lines(t, 0, "Trade"))
    assert "bob …" in text and "carol declines" in text, text  # was "carol no answer"
