"""The Invention Queens (rulebook, "4. Special Effects (Queens)" and "Card Abilities by Suit"),
each as written: Clubs Capture Resources, Diamonds Buy Resources, Hearts Finagle Resources,
Spades Beg, Borrow and Steal. A card "at random" from a hand is a chance step, never the
holder's choice; with the deck running short a Queen draws what is left."""

import pytest

from p2pgames.engine import (
    Act,
    CardOperations,
    CardsDone,
    Chance,
    ChanceOutcome,
    Disclose,
    IllegalAction,
    RuleViolation,
)
from p2pgames.games.astonishing.actions import (
    BuyResources,
    DrawTwo,
    GiveBack,
    TakeFrom,
    TakeFromDiscard,
)

from tests.games.astonishing.astonishing_scenarios import (
    CLUBS,
    DIAMONDS,
    GAME,
    HEARTS,
    SPADES,
    Phase,
    act,
    choose,
    face,
    hand,
    knows,
    legal,
    names,
    pick,
    play,
    slot,
    table,
    texts,
)

FOUR = (CLUBS, DIAMONDS, HEARTS, SPADES)


def _queen(seat, hands, deck=("4H", "6H", "8H"), discard=(), rest="out", players=4, first=0):
    """Everyone but ``seat`` chose a King; ``seat``'s Queen is to take effect. Alice plays Clubs,
    Bob Diamonds, Carol Hearts, Dave Spades; the deck is exactly ``deck`` unless ``rest="deck"``."""
    t = table(players, FOUR[:players], first, hands=hands, deck=deck, discard=discard, rest=rest)
    choose(t, {s: "queen" if s == seat else "king" for s in range(players)})
    assert t.state.phase == Phase.QUEEN and t.state.queue[0] == seat
    return t


def _random_pick_outcomes(t, seat, action):
    """The cards ``action`` (a Queen taking at random) can bring ``seat`` from the hand or the
    discard pile, over many seeds; and nobody chooses: the step is a chance step."""
    state = GAME.apply(t.state, Act(seat, action))
    if isinstance(GAME.step(state), CardOperations):  # the deck card is disclosed first
        assert all(isinstance(op, Disclose) for op in GAME.step(state).operations)
        state = GAME.apply(state, CardsDone(()))
    assert GAME.step(state) == Chance("a card at random")
    assert all(GAME.legal_actions(state, s, t.knowledge[s]) == [] for s in range(state.players))
    got = set()
    for n in range(64):
        after = GAME.apply(state, ChanceOutcome(n.to_bytes(32, "big")))
        # (The taker's hand is then re-masked: the note of the take names the slot taken.)
        got |= {note[3] for note in after.notes if note[:2] == ("taken", seat)}
    return sorted(names(t, got))


# -- Clubs: Capture Resources ---------------------------------------------------------------------


def test_clubs_queen_draws_two_from_the_top_of_the_deck():
    t = _queen(0, {0: ["2C"], 1: ["3D"], 2: ["3H"], 3: ["3S"]})
    assert texts(t, 0) == ["draw two", "take from bob", "take from carol", "take from dave"]
    play(t, 0, "draw two")
    assert hand(t, 0) == ["2C", "4H", "6H"] and names(t, t.state.deck) == ["8H"]
    assert t.knowledge[0][slot(t, "4H")] == "4H" and not knows(t, 1, "4H")
    assert t.lines[-1] == "alice draws 2 cards from the deck."
    assert t.private[0] == ["You draw 4♥ and 6♥."] and not any(t.private[1:])  # which: hers alone


def test_clubs_queen_or_draws_one_and_takes_one_at_random_from_a_rivals_hand():
    t = _queen(0, {0: ["2C"], 1: ["3D", "9D"], 2: ["3H"], 3: ["3S"]})
    pick(t, 0, "9D")
    play(t, 0, "take from bob")
    assert hand(t, 0) == ["2C", "4H", "9D"] and hand(t, 1) == ["3D"]
    assert names(t, t.state.deck) == ["6H", "8H"]
    assert t.knowledge[0][slot(t, "9D")] == "9D" and not knows(t, 2, "9D")
    assert t.lines[-1:] == ["alice draws a card and takes a card at random from bob's hand."]  # not which card


def test_a_card_taken_at_random_is_a_jointly_random_slot_of_the_hand_never_the_holders_choice():
    t = _queen(0, {0: ["2C"], 1: ["3D", "9D", "JOKER1"], 2: ["3H"], 3: ["3S"]})
    assert _random_pick_outcomes(t, 0, TakeFrom(1)) == ["3D", "9D", "JOKER1"]


def test_the_holder_knows_which_card_it_lost():
    t = _queen(0, {0: ["2C"], 1: ["3D", "9D"], 2: ["3H"], 3: ["3S"]})
    pick(t, 0, "3D")
    before = set(t.state.hands[1])
    play(t, 0, "take from bob")
    (lost,) = before - set(t.state.hands[1])
    assert t.knowledge[1][lost] == "3D" and hand(t, 1) == ["9D"]


def test_the_taker_and_the_holder_alone_are_told_in_their_own_logs_which_card_was_taken():
    t = _queen(0, {0: ["2C"], 1: ["3D", "9D"], 2: ["3H"], 3: ["3S"]})
    pick(t, 0, "9D")
    play(t, 0, "take from bob")
    assert t.private[0] == ["You draw 4♥.", "The card you take from bob's hand is 9♦."]
    assert t.private[1] == ["alice takes your 9♦."]
    assert t.private[2] == [] and t.private[3] == []
    assert not any("9♦" in line for line in t.lines)


def test_clubs_queen_with_one_card_left_draws_it_and_the_deadline_comes():
    t = _queen(0, {0: ["2C"], 1: ["3D"], 2: ["3H"], 3: ["3S"]}, deck=["4H"])
    play(t, 0, "draw two")
    assert hand(t, 0) == ["2C", "4H"] and t.state.deck == [] and t.state.deadline
    assert "alice draws a card from the deck." in t.lines
    assert "The deck is empty: the deadline is nigh. This turn is completed, then one final turn." in t.lines


def test_clubs_queen_with_an_empty_deck_can_still_take_from_a_rival():
    t = _queen(0, {0: ["2C"], 1: ["3D"], 2: [], 3: []}, deck=[])
    assert legal(t, 0) == [TakeFrom(1)]
    with pytest.raises(IllegalAction, match="your Queen can't do that: Capture Resources"):
        act(t, 0, DrawTwo())
    play(t, 0, "take from bob")
    assert hand(t, 0) == ["2C", "3D"] and hand(t, 1) == []


def test_a_queen_that_can_do_nothing_is_skipped():
    t = table(4, FOUR, hands={0: ["2C"], 1: [], 2: [], 3: []}, rest="out")
    choose(t, ["queen", "jack", "jack", "jack"])
    for seat in (1, 2, 3):
        play(t, seat, "no trade")
    assert "alice's Queen can do nothing now." in t.lines
    assert t.state.phase == Phase.CHOOSE and hand(t, 0) == ["2C"]


def test_a_queen_must_take_effect_there_is_no_passing():
    t = _queen(0, {0: ["2C"], 1: ["3D"], 2: ["3H"], 3: ["3S"]})
    assert legal(t, 0) == [DrawTwo(), TakeFrom(1), TakeFrom(2), TakeFrom(3)]


def test_a_queen_takes_only_from_a_rival_who_holds_a_card():
    t = _queen(0, {0: ["2C"], 1: ["3D"], 2: [], 3: ["3S"]})
    assert TakeFrom(2) not in legal(t, 0)
    for rival in (2, 0):
        with pytest.raises(IllegalAction, match="your Queen can't do that"):
            act(t, 0, TakeFrom(rival))


# -- Diamonds: Buy Resources ----------------------------------------------------------------------


def test_diamonds_queen_discards_zero_one_or_two_and_draws_one_more():
    t = _queen(1, {0: ["2C"], 1: ["3D", "9C", "5S"], 2: ["3H"], 3: ["3S"]}, deck=["4H", "6H", "8H", "10H"])
    assert texts(t, 1)[:2] == ["buy discarding nothing", "buy discarding 3♦"]
    assert len(texts(t, 1)) == 1 + 3 + 3
    play(t, 1, "buy discarding 9c 5s")
    assert hand(t, 1) == ["3D", "4H", "6H", "8H"] and sorted(names(t, t.state.discard)) == ["5S", "9C"]
    assert knows(t, 0, "9C") and knows(t, None, "5S")  # the discard pile is face up
    pile = " and ".join(face(name) for name in names(t, t.state.discard))
    assert t.lines[-2:] == ["bob discards 2 cards and draws 3 cards.", f"To the discard pile: {pile}."]


def test_diamonds_queen_discarding_nothing_draws_one():
    t = _queen(1, {0: ["2C"], 1: ["3D"], 2: ["3H"], 3: ["3S"]})
    play(t, 1, "buy discarding nothing")
    assert hand(t, 1) == ["3D", "4H"] and t.lines[-1] == "bob discards nothing and draws a card."


def test_diamonds_queen_with_the_deck_running_short_draws_what_is_left():
    t = _queen(1, {0: ["2C"], 1: ["3D", "9C"], 2: ["3H"], 3: ["3S"]}, deck=["4H"])
    play(t, 1, "buy discarding 3d 9c")
    assert hand(t, 1) == ["4H"] and t.state.deadline
    assert "bob discards 2 cards and draws a card." in t.lines


def test_diamonds_queen_with_an_empty_deck_is_skipped():
    t = table(4, FOUR, hands={0: ["2C"], 1: ["3D"], 2: ["3H"], 3: ["3S"]}, rest="out")
    choose(t, ["jack", "queen", "jack", "jack"])
    for seat in (0, 2, 3):
        play(t, seat, "no trade")
    assert "bob's Queen can do nothing now." in t.lines and hand(t, 1) == ["3D"]


def test_diamonds_queen_is_not_offered_to_discard_a_joker():
    t = _queen(1, {0: ["2C"], 1: ["3D", "JOKER2"], 2: ["3H"], 3: ["3S"]})
    assert texts(t, 1) == ["buy discarding nothing", "buy discarding 3♦"]


def test_diamonds_queen_discarding_a_joker_is_caught_when_it_is_revealed():
    t = _queen(1, {0: ["2C"], 1: ["3D", "JOKER2"], 2: ["3H"], 3: ["3S"]})
    with pytest.raises(RuleViolation) as caught:
        act(t, 1, BuyResources(tuple(sorted([slot(t, "JOKER2"), slot(t, "3D")]))))
    assert caught.value.player == 1
    assert caught.value.reason == "discarded a Joker: Jokers can never be discarded"


# -- Hearts: Finagle Resources --------------------------------------------------------------------


def test_hearts_queen_takes_one_at_random_from_a_rival_and_two_from_the_deck_then_gives_one_back():
    t = _queen(2, {0: ["2C", "9C"], 1: ["3D"], 2: ["3H"], 3: ["3S"]})
    assert texts(t, 2) == ["take from alice", "take from bob", "take from dave"]
    pick(t, 2, "9C")
    play(t, 2, "take from alice")
    assert hand(t, 2) == ["3H", "4H", "6H", "9C"] and hand(t, 0) == ["2C"]
    assert t.state.phase == Phase.GIVE_BACK and t.step().actors == (2,)
    assert sorted(texts(t, 2)) == ["give back 4♥", "give back 6♥", "give back 9♣"]
    play(t, 2, "give back 6h")
    assert hand(t, 2) == ["3H", "4H", "9C"] and hand(t, 0) == ["2C", "6H"]
    assert t.knowledge[0][slot(t, "6H")] == "6H"  # the rival sees what it got
    assert not knows(t, 1, "6H")
    assert t.lines[-1] == "carol gives a card back to alice."


def test_hearts_queen_the_rival_is_told_which_card_it_lost_and_which_it_got_back():
    t = _queen(2, {0: ["2C", "9C"], 1: ["3D"], 2: ["3H"], 3: ["3S"]})
    pick(t, 2, "9C")
    play(t, 2, "take from alice")
    assert t.private[2] == ["The card you take from alice's hand is 9♣.", "You draw 4♥ and 6♥."]
    play(t, 2, "give back 6h")
    assert t.private[0] == ["carol takes your 9♣.", "carol gives you 6♥."]
    assert t.private[1] == [] and t.private[3] == []


def test_hearts_queen_may_give_the_rival_a_joker():
    t = _queen(2, {0: ["2C"], 1: ["3D"], 2: ["3H", "JOKER1"], 3: ["3S"]}, deck=["JOKER2", "6H"])
    pick(t, 2, "2C")
    play(t, 2, "take from alice")
    assert "give back Joker" in texts(t, 2)
    play(t, 2, "give back joker")
    assert hand(t, 0) == ["JOKER2"] and hand(t, 2) == ["2C", "3H", "6H", "JOKER1"]


def test_hearts_queen_can_only_give_back_one_of_the_three_cards_just_taken():
    t = _queen(2, {0: ["2C"], 1: ["3D"], 2: ["3H"], 3: ["3S"]})
    pick(t, 2, "2C")
    play(t, 2, "take from alice")
    with pytest.raises(IllegalAction, match="give back one of the three cards you just took"):
        act(t, 2, GiveBack(slot(t, "3H")))


def test_hearts_queen_the_random_card_is_any_of_the_rivals():
    t = _queen(2, {0: ["2C", "9C", "JOKER1"], 1: ["3D"], 2: ["3H"], 3: ["3S"]})
    assert _random_pick_outcomes(t, 2, TakeFrom(0)) == ["2C", "9C", "JOKER1"]


def test_hearts_queen_with_one_card_left_in_the_deck_keeps_both_cards():
    t = _queen(2, {0: ["2C"], 1: ["3D"], 2: ["3H"], 3: ["3S"]}, deck=["4H"])
    pick(t, 2, "2C")
    play(t, 2, "take from alice")
    assert hand(t, 2) == ["2C", "3H", "4H"] and t.state.phase != Phase.GIVE_BACK and t.state.deadline


def test_hearts_queen_when_no_rival_holds_a_card_draws_two_and_keeps_both():
    t = table(4, FOUR, hands={0: [], 1: [], 2: ["3H"], 3: []}, deck=["4H", "6H", "8H"], rest="out")
    choose(t, ["jack", "jack", "queen", "jack"])
    for seat in (0, 1, 3):
        play(t, seat, "no trade")
    assert hand(t, 2) == ["3H", "4H", "6H"] and "carol draws 2 cards from the deck." in t.lines


def test_hearts_queen_the_log_says_two_cards_came_from_the_deck():
    t = _queen(2, {0: ["2C"], 1: ["3D"], 2: ["3H"], 3: ["3S"]})
    pick(t, 2, "2C")
    play(t, 2, "take from alice")
    assert len(t.state.deck) == 1
    assert any("2 cards" in line and "deck" in line for line in t.lines), t.lines


# -- Spades: Beg, Borrow and Steal ----------------------------------------------------------------


DISCARDS = ["2C", "3D", "4D", "5D", "6D", "7C"]  # bottom first: the top five are 3♦ … 7♣


def test_spades_queen_draws_one_then_takes_one_at_random_from_the_top_five_discards():
    t = _queen(3, {0: ["2H"], 1: ["3C"], 2: ["5H"], 3: ["5S"]}, discard=DISCARDS)
    assert texts(t, 3) == ["take from the discard pile", "take from alice", "take from bob", "take from carol"]
    pick(t, 3, "5D")
    play(t, 3, "take from the discard pile")
    assert hand(t, 3) == ["4H", "5D", "5S"]
    assert names(t, t.state.discard) == ["2C", "3D", "4D", "6D", "7C"]
    assert t.lines[-2:] == [
        "dave draws a card and takes a card at random from the top of the discard pile.",
        "dave takes 5♦ from the discard pile.",
    ]


def test_spades_queen_the_discard_card_is_at_random_among_the_top_five_only():
    t = _queen(3, {0: ["2H"], 1: ["3C"], 2: ["5H"], 3: ["5S"]}, discard=DISCARDS)
    assert _random_pick_outcomes(t, 3, TakeFromDiscard()) == ["3D", "4D", "5D", "6D", "7C"]  # never 2♣


def test_spades_queen_or_draws_one_then_takes_one_at_random_from_a_rivals_hand():
    t = _queen(3, {0: ["2H", "9H"], 1: ["3C"], 2: ["5H"], 3: ["5S"]}, discard=DISCARDS)
    pick(t, 3, "9H")
    play(t, 3, "take from alice")
    assert hand(t, 3) == ["4H", "5S", "9H"] and hand(t, 0) == ["2H"]
    assert t.lines[-1:] == ["dave draws a card and takes a card at random from alice's hand."]  # not which card


def test_spades_queen_with_an_empty_deck_still_takes_from_the_discard_pile():
    t = _queen(3, {0: [], 1: [], 2: [], 3: ["5S"]}, deck=[], discard=["3D"])
    assert legal(t, 3) == [TakeFromDiscard()]
    play(t, 3, "take from the discard pile")
    assert hand(t, 3) == ["3D", "5S"] and t.state.discard == []


def test_spades_queen_with_no_discard_pile_and_no_rival_holding_a_card_just_draws():
    t = table(4, FOUR, hands={0: [], 1: [], 2: [], 3: ["5S"]}, deck=["4H", "6H"], rest="out")
    choose(t, ["jack", "jack", "jack", "queen"])
    for seat in (0, 1, 2):
        play(t, seat, "no trade")
    assert hand(t, 3) == ["4H", "5S"] and "dave draws a card from the deck." in t.lines


def test_a_queen_of_the_wrong_inventor_is_refused_saying_what_the_queen_does():
    t = _queen(3, {0: ["2H"], 1: ["3C"], 2: ["5H"], 3: ["5S"]}, discard=DISCARDS)
    with pytest.raises(IllegalAction, match="your Queen can't do that: Beg, Borrow and Steal"):
        act(t, 3, DrawTwo())
    with pytest.raises(IllegalAction, match="it is not your turn"):
        act(t, 1, BuyResources(()))
