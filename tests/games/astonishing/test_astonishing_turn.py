"""An Invention turn (rulebook, "The Invention Phase", steps 1–2 and the order of step 3–5):
action cards chosen in secret and revealed together; never last turn's card except on the first
and final turns; Jacks, then Queens, then Kings, each in turn from the first player."""

import pytest

from p2pgames.engine import IllegalAction, Simultaneous, Turn
from p2pgames.games.astonishing.actions import ChooseAction

from tests.games.astonishing.astonishing_scenarios import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    SPADES,
    Phase,
    choose,
    legal,
    play,
    play_all,
    simultaneous,
    table,
)

ALL_THREE = [ChooseAction("jack"), ChooseAction("queen"), ChooseAction("king")]


def _three(first=0, **kwargs):
    """Alice (Clubs), Bob (Diamonds), Carol (Hearts), two cards each."""
    hands = kwargs.pop("hands", {0: ["7D", "AC"], 1: ["3C", "9H"], 2: ["5S", "6S"]})
    return table(3, first=first, hands=hands, **kwargs)


def test_action_cards_are_chosen_in_secret_by_everyone_at_once():
    t = _three()
    assert t.step() == Simultaneous((0, 1, 2), "choose an action card")


def test_on_the_first_turn_each_player_chooses_from_all_three_action_cards():
    t = _three()
    for seat in range(3):
        assert legal(t, seat) == ALL_THREE


def test_the_action_card_played_last_turn_cannot_be_played_again():
    t = _three(turn=4, last={0: "king", 1: "jack", 2: "queen"})
    assert legal(t, 0) == [ChooseAction("jack"), ChooseAction("queen")]
    assert legal(t, 1) == [ChooseAction("queen"), ChooseAction("king")]
    assert legal(t, 2) == [ChooseAction("jack"), ChooseAction("king")]
    with pytest.raises(IllegalAction, match="you played your King last turn: choose another action card"):
        simultaneous(t, {0: ChooseAction("king"), 1: ChooseAction("queen"), 2: ChooseAction("king")})


def test_on_the_final_turn_each_player_chooses_from_all_three_even_last_turns_card():
    t = _three(turn=6, last={0: "king", 1: "jack", 2: "queen"}, final=True, deadline=True)
    for seat in range(3):
        assert legal(t, seat) == ALL_THREE
    choose(t, ["king", "jack", "queen"])
    assert t.state.action == ["king", "jack", "queen"]
    assert t.lines == ["Action cards revealed: alice King; bob Jack; carol Queen (the final turn)."]


def test_the_cards_played_this_turn_are_the_ones_barred_next_turn():
    t = _three()
    choose(t, ["king", "queen", "jack"])
    play(t, 2, "no trade")
    play(t, 1, "buy discarding nothing")
    play_all(t, {0: "build 7d at 1"})
    assert t.state.phase == Phase.CHOOSE and t.state.turn == 2
    assert t.state.last_action == ["king", "queen", "jack"]
    assert legal(t, 0) == [ChooseAction("jack"), ChooseAction("queen")]
    assert legal(t, 1) == [ChooseAction("jack"), ChooseAction("king")]
    assert legal(t, 2) == [ChooseAction("queen"), ChooseAction("king")]


def test_all_action_cards_are_revealed_together():
    t = _three()
    choose(t, ["king", "queen", "jack"])
    assert t.state.action == ["king", "queen", "jack"]
    assert t.lines == ["Action cards revealed: alice King; bob Queen; carol Jack."]


def test_trades_are_resolved_first_then_queens_then_kings():
    t = _three()
    choose(t, ["king", "queen", "jack"])
    # Carol's Jack first, though she sits last and alice goes first.
    assert t.state.phase == Phase.OFFER and t.step().actors == (2,)
    play(t, 2, "no trade")
    assert t.state.phase == Phase.QUEEN and t.step() == Turn((1,), "use your Queen")
    play(t, 1, "buy discarding nothing")
    assert t.step() == Simultaneous((0,), "build: install cards face down")


def test_several_jacks_trade_in_turn_from_the_first_player_clockwise():
    t = _three(first=1)
    choose(t, ["jack", "king", "jack"])
    assert t.state.queue == [2, 0] and t.step().actors == (2,)
    play(t, 2, "no trade")
    assert t.state.trader == 0 and t.step().actors == (0,)
    play(t, 0, "no trade")
    assert t.state.phase == Phase.BUILD


def test_several_queens_take_effect_in_turn_from_the_first_player_clockwise():
    t = table(
        4, inventors=(CLUBS, DIAMONDS, HEARTS, SPADES), first=2,
        hands={0: ["2C"], 1: ["2D"], 2: ["2H"], 3: ["2S"]},
    )
    choose(t, ["queen", "queen", "king", "queen"])
    assert t.state.queue == [3, 0, 1] and t.step() == Turn((3,), "use your Queen")


def test_the_kings_build_at_the_same_time():
    t = _three()
    choose(t, ["king", "jack", "king"])
    play(t, 1, "no trade")
    assert t.step() == Simultaneous((0, 2), "build: install cards face down")


def test_a_turn_with_only_jacks_and_no_trades_changes_nothing_the_jack_is_the_way_to_pass():
    t = _three()
    hands = [list(h) for h in t.state.hands]
    deck = list(t.state.deck)
    choose(t, ["jack", "jack", "jack"])
    for seat in (0, 1, 2):
        play(t, seat, "no trade")
    assert t.state.phase == Phase.CHOOSE and t.state.turn == 2
    assert t.state.hands == hands and t.state.deck == deck
    assert t.lines[1:] == ["alice initiates no trade.", "bob initiates no trade.", "carol initiates no trade."]


def test_a_king_with_an_empty_hand_has_nothing_to_build_and_is_not_asked():
    t = _three(hands={0: [], 1: ["3C"], 2: ["5S"]})
    choose(t, ["king", "jack", "king"])
    play(t, 1, "no trade")
    assert t.step().players == (2,)
