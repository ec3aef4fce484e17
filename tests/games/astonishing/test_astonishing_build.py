"""Building (rulebook, "5. Build (Kings)"): every King at once installs one or two cards face down
in one position, at most two a position, scrapping installed cards to make room; a King with cards
must build; a Joker can never be installed (caught when the cards are revealed); the rulebook's
example of a 3 and a 9 in the first position."""

import pytest

from p2pgames.engine import IllegalAction, RuleViolation, Simultaneous
from p2pgames.games.astonishing.actions import Build, Describe, OnlyJokers

from tests.games.astonishing.astonishing_scenarios import (
    Phase,
    choose,
    describe_all,
    finish,
    hand,
    held,
    installed,
    knows,
    legal,
    names,
    play,
    play_all,
    roll,
    seal,
    shown_then_withdrawn,
    simultaneous,
    slot,
    table,
    texts,
)


def _kings(hands, installed=None, cards=("king", "jack", "jack"), **kwargs):
    """Alice (Clubs) chose a King (bob and carol Jacks, and they trade nothing): the build step."""
    t = table(3, hands=hands, installed=installed, **kwargs)
    choose(t, list(cards))
    while t.state.phase == Phase.OFFER:
        play(t, t.state.trader, "no trade")
    return t


def _final(hands, installed=None, cards=("king", "jack", "jack")):
    """As :func:`_kings`, on the final turn with the deck empty: the exhibition follows the build."""
    last = {0: "jack", 1: "king", 2: "king"}
    return _kings(hands, installed, cards, rest="out", final=True, deadline=True, turn=8, last=last)


def _slots(t, *cards):
    return tuple(sorted(slot(t, name) for name in cards))


def test_a_king_installs_one_or_two_cards_face_down_in_one_position():
    t = _kings({0: ["3C", "9H"], 1: ["5D"], 2: ["5H"]})
    assert t.step() == Simultaneous((0,), "build: install cards face down")
    assert texts(t, 0) == [
        "build 9♥ at 1", "build 3♣ at 1", "build 9♥ 3♣ at 1",
        "build 9♥ at 2", "build 3♣ at 2", "build 9♥ 3♣ at 2",
        "build 9♥ at 3", "build 3♣ at 3", "build 9♥ 3♣ at 3",
    ]
    play_all(t, {0: "build 3c 9h at 1"})
    assert installed(t, 0) == [sorted(["3C", "9H"], key=lambda n: slot(t, n)), [], []] and hand(t, 0) == []
    # Face down: the builder may peek at them at any time, nobody else sees them.
    assert knows(t, 0, "3C") and knows(t, 0, "9H")
    assert not knows(t, 1, "3C") and not knows(t, None, "9H")
    assert t.lines[-1] == "alice installs 2 cards in position 1."


def test_a_position_holds_at_most_two_cards():
    t = _kings({0: ["3C", "9H"], 1: ["5D"], 2: ["5H"]}, installed={0: [["7C"], [], []]})
    assert "build 9♥ 3♣ at 1" not in texts(t, 0) and "build 9♥ at 1" in texts(t, 0)
    with pytest.raises(IllegalAction, match="a position holds at most 2 cards: discard installed ones to make room"):
        simultaneous(t, {0: Build(0, _slots(t, "3C", "9H"), ())})


def test_building_into_a_full_position_without_scrapping_is_refused():
    t = _kings({0: ["3C"], 1: ["5D"], 2: ["5H"]}, installed={0: [["7C", "8C"], [], []]})
    assert not any(isinstance(a, Build) and a.position == 0 and not a.scrap for a in legal(t, 0))
    with pytest.raises(IllegalAction, match="a position holds at most 2 cards"):
        simultaneous(t, {0: Build(0, _slots(t, "3C"), ())})


def test_installed_cards_may_be_scrapped_face_up_to_make_room():
    t = _kings({0: ["3C", "9H"], 1: ["5D"], 2: ["5H"]}, installed={0: [["7C", "8C"], [], []]})
    assert "build 9♥ 3♣ at 1 replacing 8♣ 7♣" in texts(t, 0) or "build 9♥ 3♣ at 1 replacing 7♣ 8♣" in texts(t, 0)
    play_all(t, {0: "build 9h at 1 replacing 7c"})
    assert sorted(installed(t, 0)[0]) == ["8C", "9H"] and hand(t, 0) == ["3C"]
    assert names(t, t.state.discard) == ["7C"] and knows(t, None, "7C")
    assert t.lines[-2:] == ["alice installs a card in position 1, discarding a card.", "To the discard pile: 7♣."]


def test_installed_cards_are_scrapped_only_to_make_room():
    # Rulebook line 146: "You may discard one or both cards already installed in a position to
    # make room for new installations." Position 1 has room for one more card; position 2 is full.
    t = _kings({0: ["3C", "9H"], 1: ["5D"], 2: ["5H"]}, installed={0: [["7C"], ["2C", "4C"], []]})
    builds = [action for action in legal(t, 0) if isinstance(action, Build)]
    assert {len(a.scrap) for a in builds if a.position == 0 and len(a.slots) == 1} == {0}
    assert {len(a.scrap) for a in builds if a.position == 0 and len(a.slots) == 2} == {1}
    assert {len(a.scrap) for a in builds if a.position == 1 and len(a.slots) == 1} == {1, 2}
    assert "build 9♥ at 1 replacing 7♣" not in texts(t, 0)
    with pytest.raises(IllegalAction, match="installed cards are discarded only to make room"):
        simultaneous(t, {0: Build(0, _slots(t, "9H"), _slots(t, "7C"))})
    with pytest.raises(IllegalAction, match="only to make room"):
        play_all(t, {0: "build 9h at 1 replacing 7c"})
    play_all(t, {0: "build 9h at 2 replacing 2c 4c"})
    assert installed(t, 0) == [["7C"], ["9H"], []] and sorted(names(t, t.state.discard)) == ["2C", "4C"]


def test_only_cards_installed_in_that_position_can_be_scrapped():
    t = _kings({0: ["3C"], 1: ["5D"], 2: ["5H"]}, installed={0: [["7C", "8C"], ["2C"], []]})
    with pytest.raises(IllegalAction, match="you can only discard cards installed in that position"):
        simultaneous(t, {0: Build(0, _slots(t, "3C"), _slots(t, "2C"))})


def test_a_king_builds_from_its_own_hand_only():
    t = _kings({0: ["3C"], 1: ["5D"], 2: ["5H"]})
    with pytest.raises(IllegalAction, match="you can only use cards from your hand"):
        simultaneous(t, {0: Build(0, _slots(t, "5D"), ())})


def test_a_king_with_cards_in_hand_must_build_there_is_no_passing():
    t = _kings({0: ["3C"], 1: ["5D"], 2: ["5H"]})
    assert all(isinstance(action, Build) for action in legal(t, 0))


def test_every_king_builds_at_once_and_each_sees_only_its_own():
    t = _kings({0: ["3C"], 1: ["5D"], 2: ["5H"]}, cards=("king", "king", "king"))
    assert t.step().players == (0, 1, 2)
    play_all(t, {0: "build 3c at 3", 1: "build 5d at 1", 2: "build 5h at 2"})
    assert installed(t, 0) == [[], [], ["3C"]] and installed(t, 1) == [["5D"], [], []]
    assert installed(t, 2) == [[], ["5H"], []]
    assert not knows(t, 0, "5D") and not knows(t, 2, "3C")


def test_a_king_whose_hand_holds_only_jokers_says_so_and_builds_nothing():
    t = _kings({0: ["JOKER1", "JOKER2"], 1: ["5D"], 2: ["5H"]})
    assert legal(t, 0) == [OnlyJokers()]
    play_all(t, {0: "only jokers"})
    assert hand(t, 0) == ["JOKER1", "JOKER2"] and installed(t, 0) == [[], [], []]
    assert t.lines[-1] == "alice holds only Jokers: nothing to build with (checked at the end)."


def test_a_king_with_only_jokers_on_the_final_turn_is_still_said_to_have_nothing_to_build_with():
    t = _final({0: ["JOKER1"], 1: ["5D"], 2: ["5H"]})
    play_all(t, {0: "only jokers"})
    assert t.state.phase == Phase.CHOOSE_EXHIBIT  # the exhibition follows at once ...
    assert "alice holds only Jokers: nothing to build with (checked at the end)." in t.lines  # ... but she built


def test_saying_only_jokers_with_another_card_in_hand_is_caught_at_the_audit():
    t = _final({0: ["JOKER1", "5C"], 1: ["5D"], 2: ["5H"]})
    simultaneous(t, {0: OnlyJokers()})
    assert t.state.phase == Phase.CHOOSE_EXHIBIT
    with pytest.raises(RuleViolation) as caught:
        finish(t)
    assert t.state.phase == Phase.AUDITING
    assert caught.value.player == 0
    assert caught.value.reason == "said their hand held only Jokers, so their King could do nothing"


def _caught_at_the_exhibition_for_a_joker(t):
    """Alice has installed a Joker on the final turn: the exhibition reveals it and names her."""
    assert t.state.phase == Phase.CHOOSE_EXHIBIT
    seal(t)
    describe_all(t)
    roll(t, 3, 3, 3)
    with pytest.raises(RuleViolation) as caught:
        play_all(t, {0: "vote bob", 1: "vote alice", 2: "vote alice"})
    assert caught.value.player == 0
    assert caught.value.reason == "installed a Joker: Jokers can never be used to build a contraption"


def test_installing_a_joker_is_caught_naming_the_player_when_the_cards_are_revealed_at_the_exhibition():
    t = _final({0: ["JOKER1", "5C"], 1: ["5D"], 2: ["5H"]})
    assert "build Joker at 1" not in texts(t, 0)  # never offered ...
    simultaneous(t, {0: Build(0, _slots(t, "JOKER1", "5C"), ())})  # ... but nobody can see it yet
    _caught_at_the_exhibition_for_a_joker(t)


def test_a_joker_shown_face_up_goes_back_among_the_hand_and_installing_it_is_caught_at_the_reveal():
    """Alice showed her Joker face up answering a trade that was withdrawn. At a table it goes back
    among her cards and nobody can tell which of them it is: her hand is re-masked (RULES.md,
    "Hands are re-masked"), so no other seat knows its new slot, building with it can't be refused
    at once, and it is caught, as any Joker, when the cards are revealed at the exhibition."""
    t = table(
        3, hands={0: ["2C", "JOKER1"], 1: ["5D", "6D"], 2: ["5H"]},
        rest="out", final=True, deadline=True, turn=8, last={0: "jack", 1: "king", 2: "king"},
    )
    choose(t, ["king", "jack", "jack"])
    shown_then_withdrawn(t, "JOKER1", "joker")
    joker = held(t, 0, "JOKER1")
    assert not knows(t, None, "JOKER1") and not knows(t, 1, "JOKER1") and not knows(t, 2, "JOKER1")
    assert "build Joker at 1" not in texts(t, 0)
    simultaneous(t, {0: Build(0, tuple(sorted((joker, held(t, 0, "2C")))), ())})
    _caught_at_the_exhibition_for_a_joker(t)


def test_rulebook_example_a_3_and_a_9_in_the_first_position_give_descriptor_3_or_9_and_reliability_12():
    t = _final({0: ["3C", "9H"], 1: ["5D"], 2: ["5H"]})
    play_all(t, {0: "build 3c 9h at 1"})
    assert t.state.phase == Phase.CHOOSE_EXHIBIT
    seal(t)
    assert t.state.phase == Phase.DESCRIBE and t.state.queue[0] == 0
    assert legal(t, 0) == [Describe((3, 0, 0)), Describe((9, 0, 0))]
    describe_all(t, {0: "describe 9 - -"})
    assert t.state.descriptions[0] == [9, 0, 0]
    roll(t, 4, 4, 4)
    play_all(t, {0: "vote bob", 1: "vote alice", 2: "vote alice"})
    assert t.state.reliability(0, 0) == 12
    assert t.state.works(0, 0)  # 12 against a demonstration number of 12
