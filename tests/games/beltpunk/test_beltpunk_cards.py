"""Cards, Machine Order, and every kind of set with its points (rulebook: "Scoring")."""

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pgames.games.beltpunk.cards import (
    DECK,
    MACHINE_ORDER,
    RANK_OF,
    SUIT_OF,
    SetKind,
    card_title,
    classify,
    find_sets,
    has_set,
    set_points,
    why_not_a_set,
)


def test_deck_has_52_cards_in_four_suits_of_thirteen_ranks():
    assert len(DECK) == len(set(DECK)) == 52
    assert DECK[:3] == ("S1", "S2", "S3") and DECK[-1] == "E13"
    assert {name[0] for name in DECK} == set("SGPE")
    assert sorted({RANK_OF[name] for name in DECK}) == list(range(1, 14))
    assert card_title("P10") == "Parts 10"


def test_machine_order_is_steam_gears_parts_electricity_then_rank():
    assert sorted(["E1", "P1", "G13", "S10", "S3"], key=MACHINE_ORDER.__getitem__) == [
        "S3",
        "S10",
        "G13",
        "P1",
        "E1",
    ]
    assert [SUIT_OF[name] for name in ("S1", "G1", "P1", "E1")] == [0, 1, 2, 3]


@pytest.mark.parametrize(
    "cards, kind, points",
    [
        (["S7", "E7"], SetKind.GOGGLES, 3),
        (["S7", "G7", "P7"], SetKind.BROKEN_GEARS, 5),
        (["S7", "G7", "P7", "E7"], SetKind.PERFECT_GEARS, 10),
        (["G4", "G5", "G6"], SetKind.PERFECT_BELT, 5),
        (["G6", "G4", "G5", "G7"], SetKind.PERFECT_BELT, 7),
        (["G4", "G5", "G6", "G7", "G8"], SetKind.PERFECT_BELT, 9),
        ([f"E{rank}" for rank in range(1, 14)], SetKind.PERFECT_BELT, 25),
        (["S1", "G2", "P3"], SetKind.COBBLED_BELT, 3),
        (["E10", "S11", "G12", "P13"], SetKind.COBBLED_BELT, 4),
    ],
)
def test_sets_and_their_points(cards, kind, points):
    assert classify(cards) is kind
    assert set_points(cards) == points


@pytest.mark.parametrize(
    "cards",
    [
        ["S7"],  # one card
        ["S7", "G8"],  # two ranks
        ["S7", "G7", "G8"],  # a pair and a stranger
        ["S4", "S5", "G6"],  # a run sharing some suits but not all
        ["S1", "G2", "P3", "E4", "S5"],  # a Cobbled Belt has at most four cards
        ["S12", "S13", "S1"],  # ranks don't wrap
        ["S4", "S5", "S7"],  # a gap
        ["G2", "P3"],  # two in a row are not a belt
        ["S7", "S7"],  # the same card twice
    ],
)
def test_non_sets(cards):
    assert classify(cards) is None
    with pytest.raises(ValueError, match="not a set"):
        set_points(cards)


hands = st.lists(st.sampled_from(DECK), min_size=0, max_size=10, unique=True)


@settings(max_examples=150, deadline=None)
@given(hands)
def test_find_sets_lists_exactly_the_subsets_that_are_sets(names):
    hand = {slot: name for slot, name in enumerate(names)}
    found = find_sets(hand)
    assert len(found) == len(set(found))
    expected = {
        subset
        for size in range(2, len(names) + 1)
        for subset in combinations(range(len(names)), size)
        if classify(names[i] for i in subset) is not None
    }
    assert set(found) == expected
    assert has_set(names) == bool(expected)


@pytest.mark.parametrize(
    "cards, reason",
    [
        (["S7"], "a set has at least two cards"),
        (["S1", "S2"], "two cards must be a pair of one rank (Goggles); a run needs three"),
        (["S7", "G7", "G8"], "cards of one rank make Gears, a run needs different ranks: not both"),
        (
            ["S4", "S5", "G6"],
            "a run must be all one suit (Perfect Belt) or all different suits (Cobbled Belt)",
        ),
        (
            ["S1", "G2", "P3", "E4", "S5"],
            "a run of more than four cards must be all one suit (Perfect Belt)",
        ),
        (
            ["S12", "S13", "S1"],
            "the ranks 1 12 13 are not consecutive; 13 and 1 are not neighbours",
        ),
        (["S4", "S5", "S7"], "the ranks 4 5 7 are not consecutive"),
        (["S7", "S7"], "it names a card twice"),
    ],
)
def test_why_not_a_set_says_which_rule_the_cards_break(cards, reason):
    assert why_not_a_set(cards) == reason


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=1, max_size=6))
def test_why_not_a_set_has_a_reason_exactly_for_non_sets(names):
    assert (why_not_a_set(names) is None) == (classify(names) is not None)
