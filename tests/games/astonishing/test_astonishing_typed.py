"""Typed moves (``typed.py``): every kind of move its docstring lists reads as its action, and
each action's printed form reads back (case, spacing, commas, small words and the order of cards
don't matter); mistakes get a reason a person can read."""

import pytest

from p2pgames.engine import IllegalAction, MalformedAction
from p2pgames.games.astonishing.actions import (
    Accept,
    Answer,
    Build,
    BuyResources,
    ChooseAction,
    ChooseInventor,
    Decline,
    Describe,
    DiscardCard,
    DrawTwo,
    EndInvention,
    ExhibitCard,
    GiveBack,
    Intimidate,
    KeepDice,
    KeepRest,
    NoTrade,
    Offer,
    OnlyJokers,
    Promote,
    Refill,
    Reopen,
    ReplacePart,
    Reroll,
    Sabotage,
    Stand,
    SwayCrowd,
    TakeFrom,
    TakeFromDiscard,
    Vote,
    Withdraw,
)
from p2pgames.games.astonishing.presentation import PRESENTATION

from tests.games.astonishing.astonishing_scenarios import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    SPADES,
    Phase,
    ScenarioTable,
    choose,
    dealt,
    describe_all,
    pick,
    play,
    play_all,
    roll,
    seal,
    slot,
    table,
    texts,
    typed,
)


def reads(t, seat, text, action):
    """``text`` (and a messier typing of it) reads as ``action``, and ``action`` prints as a text
    that reads back as it."""
    assert typed(t, seat, text) == action
    assert typed(t, seat, "  " + text.upper().replace(" ", "   ") + " ") == action
    printed = PRESENTATION.describe_action(t.state, seat, action, t.knowledge[seat], t.names)
    assert typed(t, seat, printed) == action


def refused(t, seat, text):
    with pytest.raises(IllegalAction) as caught:
        typed(t, seat, text)
    return caught.value.reason


def slots(t, *names):
    return tuple(sorted(slot(t, name) for name in names))


# -- the invention phase ---------------------------------------------------------------------------


def test_inventor_and_action_cards():
    t = ScenarioTable(3, first=0)
    reads(t, 0, "inventor hearts", ChooseInventor(HEARTS))
    reads(t, 0, "hearts", ChooseInventor(HEARTS))
    t = dealt(3)
    reads(t, 0, "choose king", ChooseAction("king"))
    reads(t, 0, "king", ChooseAction("king"))
    reads(t, 1, "choose the jack", ChooseAction("jack"))


def test_an_inventor_is_chosen_by_its_name_a_start_of_it_or_its_suit():
    t = ScenarioTable(3, first=0)
    assert texts(t, 0) == [
        "Lady Calibrette Merchant (clubs)", "Abimbola Kayin (diamonds)", "Marisol Chang (hearts)",
        "Albert Smithering (spades)",
    ]
    reads(t, 0, "Albert Smithering", ChooseInventor(SPADES))
    reads(t, 0, "albert", ChooseInventor(SPADES))
    reads(t, 0, "inventor smithering", ChooseInventor(SPADES))
    reads(t, 0, "Lady Calibrette", ChooseInventor(CLUBS))
    reads(t, 0, "merchant", ChooseInventor(CLUBS))
    reads(t, 0, "heart", ChooseInventor(HEARTS))
    reads(t, 0, "Abimbola Kayin (diamonds)", ChooseInventor(DIAMONDS))
    with pytest.raises(MalformedAction, match="^'a' could be Abimbola Kayin or Albert Smithering: type more of the name$"):
        typed(t, 0, "a")


def test_an_inventor_another_player_took_is_refused_saying_who_and_what_is_left():
    t = ScenarioTable(3, first=0)
    play(t, 0, "inventor clubs")
    assert refused(t, 1, "inventor clubs") == (
        "alice plays Lady Calibrette Merchant already: choose Abimbola Kayin (diamonds), "
        "Marisol Chang (hearts) or Albert Smithering (spades)"
    )
    assert refused(t, 1, "calibrette") == refused(t, 1, "inventor clubs")
    assert refused(t, 2, "marisol") == "you have nothing to decide now"  # not her turn yet
    t = dealt(3)
    assert refused(t, 0, "inventor hearts") == (
        "the Inventors were chosen at the start: you play Lady Calibrette Merchant (Clubs ♣)"
    )


def _trade():
    t = table(3, hands={0: ["3D", "7C", "JOKER1"], 1: ["5D", "JOKER2", "9C"], 2: ["2H"]})
    choose(t, ["jack", "king", "king"])
    return t


def test_offers_and_no_trade_cards_in_any_order():
    t = _trade()
    reads(t, 0, "offer 3d 7c", Offer(slots(t, "3D", "7C")))
    reads(t, 0, "offer 7c, 3d", Offer(slots(t, "3D", "7C")))
    reads(t, 0, "offer 7♣ joker", Offer(slots(t, "7C", "JOKER1")))
    reads(t, 0, "no trade", NoTrade())


def test_answers_face_up_and_down_stand_and_decline():
    t = _trade()
    play(t, 0, "offer 3d")
    five, joker = slot(t, "5D"), slot(t, "JOKER2")
    ordered = tuple(sorted([five, joker]))
    up = tuple(s == five for s in ordered)
    reads(t, 1, "answer 5d down:joker", Answer(ordered, up))
    reads(t, 1, "answer down:joker 5d", Answer(ordered, up))
    reads(t, 1, "decline", Decline())
    play(t, 1, "answer down:joker")  # face down: it may stand when asked again (a card shown may not)
    play(t, 2, "decline")
    reads(t, 0, "accept bob", Accept(1))
    reads(t, 0, "ask again", Reopen())
    reads(t, 0, "withdraw", Withdraw())
    reads(t, 0, "offer 7c", Offer((slot(t, "7C"),)))  # a revised offer
    play(t, 0, "ask again")
    reads(t, 1, "stand", Stand())


def _queen(seat, hands, **kwargs):
    t = table(4, (CLUBS, DIAMONDS, HEARTS, SPADES), hands=hands, **kwargs)
    choose(t, {s: "queen" if s == seat else "jack" for s in range(4)})
    while t.state.phase == Phase.OFFER:
        play(t, t.state.trader, "no trade")
    return t


HANDS = {0: ["2C"], 1: ["3D", "4D"], 2: ["2H"], 3: ["2S", "7C"]}


def test_queens_draw_two_take_from_the_discard_pile_buy_and_give_back():
    t = _queen(0, HANDS)
    reads(t, 0, "draw two", DrawTwo())
    reads(t, 0, "take from bob", TakeFrom(1))
    t = _queen(3, HANDS, discard=["9H"])
    reads(t, 3, "take from the discard pile", TakeFromDiscard())
    reads(t, 3, "take from alice", TakeFrom(0))
    t = _queen(1, HANDS)
    reads(t, 1, "buy discarding 3d", BuyResources((slot(t, "3D"),)))
    reads(t, 1, "buy discarding 4d 3d", BuyResources(slots(t, "3D", "4D")))
    reads(t, 1, "buy discarding nothing", BuyResources(()))
    t = _queen(2, HANDS)
    pick(t, 2, "7C")
    play(t, 2, "take from dave")
    reads(t, 2, "give back 7c", GiveBack(slot(t, "7C")))


def test_builds_with_a_position_and_cards_replaced_and_only_jokers():
    t = table(3, hands={0: ["2D", "9C"], 1: ["JOKER1"], 2: ["5H"]}, installed={0: [["3S"], [], []]})
    choose(t, ["king", "king", "jack"])
    play(t, 2, "no trade")
    reads(t, 0, "build 2d 9c at 1 replacing 3s", Build(0, slots(t, "2D", "9C"), (slot(t, "3S"),)))
    reads(t, 0, "build 9c at 3", Build(2, (slot(t, "9C"),), ()))
    reads(t, 1, "only jokers", OnlyJokers())


def test_discards_keeping_the_rest_refills_and_the_early_end_vote():
    six = ["2C", "3C", "4C", "5C", "6C", "7C", "8C"]
    filled = {s: [[f"{n}{'DHS'[s]}"] for n in (2, 3, 4)] for s in range(3)}
    t = table(3, hands={0: six, 1: [], 2: ["9H"]}, installed=filled)
    choose(t, ["jack", "jack", "jack"])
    for seat in range(3):
        play(t, seat, "no trade")
    reads(t, 0, "discard 7c", DiscardCard(slot(t, "7C")))
    play(t, 0, "discard 7c")
    reads(t, 0, "keep the rest", KeepRest())
    play(t, 0, "keep the rest")
    reads(t, 1, "draw a card", Refill(True))
    reads(t, 1, "draw nothing", Refill(False))
    play(t, 1, "draw nothing")
    reads(t, 0, "end invention", EndInvention(True))
    reads(t, 2, "keep inventing", EndInvention(False))


# -- the exhibition --------------------------------------------------------------------------------


def _fair(inventors=(CLUBS, DIAMONDS, HEARTS), hands=None, exhibit=None, phase=Phase.DESCRIBE):
    """The exhibition, the exhibition actions ``exhibit`` sealed (default: every seat King)."""
    installed = {0: [["3C", "9H"], ["4D"], []], 1: [["10D"], ["5S"], ["2C"]], 2: [["6H"], ["8S"], ["4H"]]}
    return table(3, inventors, hands=hands or {}, installed=installed, rest="out", phase=phase, exhibit=exhibit)


def test_describe_with_a_pitch_and_the_exhibition_choice():
    t = _fair(phase=Phase.CHOOSE_EXHIBIT)
    reads(t, 0, "queen", ExhibitCard("queen"))
    reads(t, 2, "king", ExhibitCard("king"))
    assert typed(t, 1, "Choose  Queen") == ExhibitCard("queen")
    seal(t, {0: "queen"})
    reads(t, 0, "describe 3 4 -", Describe((3, 4, 0)))
    assert typed(t, 0, "describe 9 4 - pitch Behold the age of steam!") == Describe((9, 4, 0), "Behold the age of steam!")
    printed = PRESENTATION.describe_action(t.state, 0, Describe((9, 4, 0), "Behold!"), {}, t.names)
    assert printed == "describe 9 4 - pitch Behold!" and typed(t, 0, printed) == Describe((9, 4, 0), "Behold!")
    describe_all(t)
    reads(t, 0, "vote bob", Vote(1))
    reads(t, 2, "vote alice", Vote(0))


def test_jacks_and_the_exhibition_queens_and_kings():
    t = _fair(inventors=(CLUBS, DIAMONDS, SPADES), hands={1: ["9C"]}, exhibit={0: "queen", 1: "queen", 2: "queen"})
    describe_all(t)
    roll(t, 3, 5, 6)
    play_all(t, {0: "vote bob", 1: "vote alice", 2: "vote alice"})
    reads(t, 0, "reroll die 2", Reroll(1))
    reads(t, 0, "keep my jacks", KeepDice())
    play(t, 0, "keep my jacks")
    play(t, 1, "keep my jacks")
    reads(t, 0, "intimidate position 2", Intimidate(1))
    play(t, 0, "intimidate position 2")
    reads(t, 1, "replace 4d with 9c", ReplacePart(slot(t, "4D"), slot(t, "9C")))
    play(t, 1, "replace 4d with 9c")
    reads(t, 2, "sabotage 5s", Sabotage(slot(t, "5S")))


def test_sway_the_crowd_and_promote():
    t = _fair(exhibit={2: "queen"})
    describe_all(t)
    roll(t, 3, 3, 3)
    play_all(t, {0: "vote bob", 1: "vote alice", 2: "vote alice"})
    play(t, 0, "keep my jacks")
    play(t, 1, "keep my jacks")
    reads(t, 2, "turn die 2 to 5", SwayCrowd(1, 5))
    play(t, 2, "turn die 2 to 5")
    reads(t, 0, "promote bob", Promote(1))


# -- mistakes --------------------------------------------------------------------------------------


def test_a_card_not_in_your_hand_is_refused_naming_it():
    t = _trade()
    assert refused(t, 0, "offer 9c") == "9C is not in your hand"
    assert refused(t, 0, "offer 3d 7c 2h") == "2H is not in your hand"


def test_a_joker_built_or_discarded_is_refused_saying_why():
    # "build 5s joker at 1" listed the moves without saying that a Joker can't be installed.
    t = table(3, hands={0: ["5S", "JOKER1"], 1: ["JOKER2"], 2: ["5H"]})
    choose(t, ["king", "king", "jack"])
    play(t, 2, "no trade")
    assert refused(t, 0, "build 5s joker at 1") == "a Joker can never be installed"
    assert refused(t, 0, "build joker at 2") == "a Joker can never be installed"
    six = ["2C", "3C", "4C", "5C", "6C", "7C", "JOKER1"]
    t = table(3, hands={0: six, 1: [], 2: ["9H"]})
    choose(t, ["jack", "jack", "jack"])
    for seat in range(3):
        play(t, seat, "no trade")
    assert refused(t, 0, "discard joker") == "a Joker can never be discarded"


def test_words_that_are_no_move_of_the_game_are_malformed():
    t = _trade()
    with pytest.raises(MalformedAction, match=r"^'fly to the moon' is not a move of Astonishing! \(type help for the moves\)$"):
        typed(t, 0, "fly to the moon")
    with pytest.raises(MalformedAction, match="^type a move$"):
        typed(t, 0, "   ")


def test_a_move_of_the_wrong_kind_for_now_says_what_may_be_done():
    t = _trade()
    assert refused(t, 0, "draw two") == (
        "that is not one of your moves now; you may: offer 3♦, offer Joker, offer 7♣, offer 3♦ Joker …"
    )


def test_a_player_with_nothing_to_decide_is_told_so():
    t = _trade()
    assert refused(t, 1, "answer 5d") == "you have nothing to decide now"


def test_a_description_no_installed_card_gives_says_which_numbers_each_position_takes():
    t = table(3, installed={0: [["3C", "9H"], [], ["AC"]]}, rest="out", phase=Phase.DESCRIBE)
    assert refused(t, 0, "describe 5 - 11") == (
        "describe each position by one of its cards' numbers: position 1 takes 3 or 9; "
        "position 2 is empty (-); position 3 takes 11"
    )
    assert refused(t, 0, "describe 3 - 1").endswith("position 3 takes 11")
