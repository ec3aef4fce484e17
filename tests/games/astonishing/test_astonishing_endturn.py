"""The end of a turn and of the Invention phase (rulebook, "6. See To Your Resources" and "Ending
the Invention Phase"): discard down to six, never a Joker; an empty hand may draw one; the deck
running out ends the phase after one final turn with every action card; the early end by
unanimous agreement once every position of every player holds a card (a table option)."""

import pytest

from p2pgames.engine import IllegalAction, RuleViolation, Simultaneous, Turn
from p2pgames.games.astonishing.actions import ChooseAction, DiscardCard, EndInvention, KeepRest, Refill

from tests.games.astonishing.astonishing_scenarios import (
    Phase,
    act,
    choose,
    hand,
    held,
    knows,
    legal,
    names,
    play,
    play_all,
    seal,
    shown_then_withdrawn,
    simultaneous,
    slot,
    table,
    texts,
)

SIX = ["2C", "3C", "4C", "5C", "6C", "7C"]
FILLED = [["2D"], ["3D"], ["4D"]]


def _over_six(hand0=SIX, deck=("8C", "9C", "10C"), others=None):
    """Alice (Clubs) holds ``hand0`` and draws two with her Queen; bob and carol trade nothing."""
    others = others or {1: ["5D"], 2: ["5H"]}
    t = table(3, hands={0: list(hand0), **others}, deck=list(deck))
    choose(t, ["queen", "jack", "jack"])
    play(t, 1, "no trade")
    play(t, 2, "no trade")
    play(t, 0, "draw two")
    return t


def _quiet_turn(t, cards=("jack", "jack", "jack")):
    """Everyone plays a Jack and trades nothing."""
    choose(t, list(cards))
    while t.state.phase == Phase.OFFER:
        play(t, t.state.trader, "no trade")


# -- discarding down to six ----------------------------------------------------------------------


def test_a_player_holding_more_than_six_discards_down_to_six_at_the_end_of_the_turn():
    t = _over_six()
    assert len(t.state.hands[0]) == 8
    assert t.step() == Turn((0,), "discard down to six cards")
    assert KeepRest() not in legal(t, 0)
    with pytest.raises(IllegalAction, match="you hold 8 cards: discard down to 6"):
        act(t, 0, KeepRest())
    play(t, 0, "discard 9c")
    play(t, 0, "discard 2c")
    assert knows(t, 1, "9C") and names(t, t.state.discard)[-2:] == ["9C", "2C"]
    assert "keep the rest" in texts(t, 0)
    play(t, 0, "keep the rest")
    assert len(t.state.hands[0]) == 6 and t.state.phase == Phase.CHOOSE
    at = t.lines.index("alice discards a card.")
    assert t.lines[at + 1] == "To the discard pile: 9♣."  # the value shows as the card is revealed


def test_a_player_at_six_may_discard_extra_cards():
    t = _over_six()
    play(t, 0, "discard 9c")
    play(t, 0, "discard 2c")
    play(t, 0, "discard 3c")
    play(t, 0, "keep the rest")
    assert hand(t, 0) == ["4C", "5C", "6C", "7C", "8C"] and t.state.phase == Phase.CHOOSE


def test_only_players_over_six_discard():
    t = _over_six(others={1: list(SIX[:0]) + ["2D", "3D", "4D", "5D", "6D", "7D"], 2: ["5H"]})
    assert t.step() == Turn((0,), "discard down to six cards")
    assert legal(t, 1) == [] and legal(t, 2) == []


def test_with_the_free_discard_option_every_player_may_discard_at_the_end_of_the_turn():
    # The other reading of rulebook line 162, "Players may discard extra cards if they wish"
    # (RULES.md I17): a table option, off by default (test_only_players_over_six_discard).
    t = table(3, hands={0: ["2C", "3C"], 1: ["5D", "JOKER1"], 2: []}, deck=["8C", "9C"], free_discard=True)
    _quiet_turn(t)
    assert t.step() == Turn((0, 1), "discard cards if you wish (down to six if you hold more)")
    assert set(legal(t, 0)) == {DiscardCard(slot(t, "2C")), DiscardCard(slot(t, "3C")), KeepRest()}
    assert legal(t, 1) == [DiscardCard(slot(t, "5D")), KeepRest()] and legal(t, 2) == []
    play(t, 0, "discard 3c")
    play(t, 0, "keep the rest")
    play(t, 1, "discard 5d")
    assert t.step().actors == (1,)  # the Joker can't go: bob keeps it
    play(t, 1, "keep the rest")
    assert hand(t, 0) == ["2C"] and hand(t, 1) == ["JOKER1"] and names(t, t.state.discard) == ["3C", "5D"]
    assert t.step() == Turn((2,), "your hand is empty: draw a card from the deck?")


def test_several_players_over_six_discard_in_any_order():
    t = table(3, hands={0: SIX + ["8C"], 1: ["2D", "3D", "4D", "5D", "6D", "7D", "8D"], 2: ["5H"]})
    _quiet_turn(t)
    assert t.step() == Turn((0, 1), "discard down to six cards")
    play(t, 1, "discard 8d")
    play(t, 1, "keep the rest")
    assert t.step().actors == (0,)


def test_a_joker_is_never_offered_for_discarding():
    t = _over_six(hand0=["2C", "3C", "4C", "5C", "6C", "JOKER1"])
    assert "discard Joker" not in texts(t, 0) and len(texts(t, 0)) == 7


def test_discarding_a_joker_is_caught_naming_the_player_when_it_is_revealed():
    t = _over_six(hand0=["2C", "3C", "4C", "5C", "6C", "JOKER1"])
    with pytest.raises(RuleViolation) as caught:
        act(t, 0, DiscardCard(slot(t, "JOKER1")))
    assert caught.value.player == 0 and caught.value.reason == "discarded a Joker: Jokers can never be discarded"


def test_a_joker_shown_face_up_goes_back_among_the_hand_and_discarding_it_is_caught_when_revealed():
    """Alice showed her Joker face up answering a trade that was withdrawn. At a table it goes back
    among her cards and nobody can tell which of them it is: her hand is re-masked (RULES.md,
    "Hands are re-masked"), so discarding it can't be refused at once by its slot; it is caught,
    naming her, when it is revealed on the discard pile, as any Joker."""
    t = table(3, hands={0: ["2C", "3C", "4C", "5C", "6C", "JOKER1"], 1: ["5D"], 2: ["5H"]}, deck=["8C", "9C"])
    choose(t, ["queen", "jack", "jack"])
    shown_then_withdrawn(t, "JOKER1", "joker")
    play(t, 0, "draw two")
    assert not knows(t, None, "JOKER1") and not knows(t, 1, "JOKER1") and len(t.state.hands[0]) == 8
    assert "discard Joker" not in texts(t, 0)
    with pytest.raises(RuleViolation) as caught:
        act(t, 0, DiscardCard(held(t, 0, "JOKER1")))
    assert caught.value.player == 0 and caught.value.reason == "discarded a Joker: Jokers can never be discarded"


# -- an empty hand ---------------------------------------------------------------------------------


def test_a_player_whose_hand_is_empty_at_the_end_of_the_turn_may_draw_a_card():
    t = table(3, hands={0: [], 1: [], 2: ["5H"]}, deck=["8C", "9C"])
    _quiet_turn(t)
    assert t.step() == Turn((0, 1), "your hand is empty: draw a card from the deck?")
    assert legal(t, 0) == [Refill(True), Refill(False)] and legal(t, 2) == []
    play(t, 1, "draw nothing")
    play(t, 0, "draw a card")
    assert hand(t, 0) == ["8C"] and hand(t, 1) == [] and t.state.phase == Phase.CHOOSE
    assert t.lines[-2:] == ["bob draws nothing (an empty hand).", "alice draws a card (an empty hand)."]


def test_with_the_deck_empty_an_empty_hand_draws_nothing_and_is_not_asked():
    t = table(3, hands={0: [], 1: ["5D"], 2: ["5H"]}, rest="out", final=True, deadline=True)
    _quiet_turn(t)
    assert t.state.phase == Phase.CHOOSE_EXHIBIT


# -- the deck runs out -----------------------------------------------------------------------------


def test_the_turn_the_deck_runs_out_completes_then_one_final_turn_with_all_three_cards_then_the_exhibition():
    t = table(3, hands={0: ["2C"], 1: ["5D", "6D"], 2: ["5H"]}, deck=["8C"], rest="out", turn=5,
              last={0: "king", 1: "queen", 2: "jack"})
    choose(t, ["queen", "king", "king"])
    play(t, 0, "draw two")  # only one card left: she draws it
    assert t.state.deck == [] and t.state.deadline and not t.state.final
    assert "The deck is empty: the deadline is nigh. This turn is completed, then one final turn." in t.lines
    # The rest of the turn still happens: the Kings build.
    assert t.step() == Simultaneous((1, 2), "build: install cards face down")
    play_all(t, {1: "build 5d at 1", 2: "build 5h at 1"})
    assert t.state.phase == Phase.CHOOSE and t.state.final and t.state.turn == 6
    for seat in range(3):
        assert legal(t, seat) == [ChooseAction("jack"), ChooseAction("queen"), ChooseAction("king")]
    choose(t, ["queen", "jack", "king"])
    assert t.lines[-1] == "Action cards revealed: alice Queen; bob Jack; carol King (the final turn)."
    assert "alice's Queen can do nothing now." not in t.lines  # she may still take from a rival
    play(t, 1, "no trade")
    play(t, 0, "take from bob")
    assert t.state.phase == Phase.CHOOSE_EXHIBIT and t.step().players == (0, 1, 2)  # everyone, sealed
    assert t.lines[-1] == "The Invention phase is over: to London, for the World's Design & Invention Fair!"
    seal(t)
    assert t.state.phase == Phase.DESCRIBE and t.state.queue == [0, 1, 2]


def test_a_card_left_in_the_deck_means_another_ordinary_turn():
    t = table(3, hands={0: ["2C"], 1: ["5D"], 2: ["5H"]}, deck=["8C", "9C", "10C"], rest="out")
    _quiet_turn(t, ("queen", "jack", "jack"))
    play(t, 0, "draw two")
    assert names(t, t.state.deck) == ["10C"] and not t.state.deadline
    assert t.state.phase == Phase.CHOOSE and not t.state.final
    assert legal(t, 0) == [ChooseAction("jack"), ChooseAction("king")]


def test_drawing_the_last_card_into_an_empty_hand_brings_the_deadline_too():
    t = table(3, hands={0: [], 1: ["5D"], 2: ["5H"]}, deck=["8C"], rest="out")
    _quiet_turn(t)
    play(t, 0, "draw a card")
    assert hand(t, 0) == ["8C"] and t.state.final and t.state.phase == Phase.CHOOSE


# -- the early end (option) ------------------------------------------------------------------------


def _filled(**kwargs):
    installed = {0: FILLED, 1: [["2H"], ["3H"], ["4H"]], 2: [["2S"], ["3S"], ["4S"]]}
    return table(3, hands={0: ["5C"], 1: ["5D", "6D"], 2: ["5H", "6H"]}, installed=installed, **kwargs)


def test_once_every_position_of_every_player_holds_a_card_the_players_vote_on_ending_the_invention_phase():
    t = _filled()
    _quiet_turn(t)
    assert t.step() == Simultaneous((0, 1, 2), "end the Invention phase now?")
    assert legal(t, 0) == [EndInvention(True), EndInvention(False)]
    simultaneous(t, {0: EndInvention(True), 1: EndInvention(True), 2: EndInvention(True)})
    assert t.lines[-1] == "Everyone agrees: the next turn is the final one."
    assert t.state.final and t.state.phase == Phase.CHOOSE
    assert legal(t, 0) == [ChooseAction("jack"), ChooseAction("queen"), ChooseAction("king")]


def test_the_early_end_needs_every_player_to_agree():
    t = _filled()
    _quiet_turn(t)
    simultaneous(t, {0: EndInvention(True), 1: EndInvention(False), 2: EndInvention(True)})
    assert t.lines[-1] == "Not everyone agrees to end the Invention phase yet."
    assert not t.state.final and not t.state.deadline and t.state.phase == Phase.CHOOSE
    assert legal(t, 0) == [ChooseAction("queen"), ChooseAction("king")]
    choose(t, ["queen", "king", "king"])
    play(t, 0, "draw two")
    play_all(t, {1: "build 5d at 1", 2: "build 5h at 1"})
    assert t.state.phase == Phase.VOTE_END  # asked again at the end of the next turn


def test_no_vote_while_a_position_of_some_player_is_empty():
    installed = {0: FILLED, 1: [["2H"], ["3H"], ["4H"]], 2: [["2S"], ["3S"], []]}
    t = table(3, hands={0: ["5C"], 1: ["5D"], 2: ["5H"]}, installed=installed)
    _quiet_turn(t)
    assert t.state.phase == Phase.CHOOSE and t.state.turn == 2


def test_without_the_option_there_is_no_vote():
    t = _filled(early_end=False)
    _quiet_turn(t)
    assert t.state.phase == Phase.CHOOSE and t.state.turn == 2 and not t.state.final
