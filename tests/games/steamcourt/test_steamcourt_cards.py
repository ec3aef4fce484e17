"""The deck, card values and the characters (rulebook: "Contents", "Explanation of Cards",
"Characters", "Character Recommendations")."""

from collections import Counter

from p2pgames.games.steamcourt.cards import (
    a_face,
    CHARACTER_NUMBER,
    DECK,
    DUAL,
    FACE,
    KIND,
    MASTERSTROKE,
    MULTIPLIER,
    NUMBERED,
    RECOMMENDED,
    makes,
    two_highest_numbered,
    values_of,
)


def test_one_deck_has_84_cards_each_with_a_unique_name():
    assert len(DECK) == 84 and len(set(DECK)) == 84
    faces = Counter(FACE[name] for name in DECK)
    assert all(faces[str(number)] == 6 for number in range(1, 13))
    assert faces["MS"] == faces["X"] == faces["3/9"] == faces["6/12"] == 3
    assert DECK[:7] == ("1a", "1b", "1c", "1d", "1e", "1f", "2a")
    assert {"12f", "MSa", "MXc", "3/9b", "6/12c"} <= set(DECK)


def test_only_gear_cards_1_to_12_are_numbered():
    kinds = Counter(KIND[name] for name in DECK)
    assert kinds == {NUMBERED: 72, MASTERSTROKE: 3, MULTIPLIER: 3, DUAL: 6}


def test_what_each_card_counts_as():
    assert values_of("7a") == (7,)
    # 3/9 and 6/12 count as either value.
    assert values_of("3/9a") == (3, 9) and values_of("6/12b") == (6, 12)
    # A Multiplier or a Masterstroke makes no value in a set.
    assert values_of("MXa") == () and values_of("MSa") == ()
    # The Alchemist lowers any numbered card by exactly two (never below 1), not special cards.
    assert values_of("7a", alchemist=True) == (7, 5)
    assert values_of("2a", alchemist=True) == (2,)
    assert values_of("3/9a", alchemist=True) == (3, 9)
    assert makes("9a", 7, alchemist=True) and not makes("9a", 8, alchemist=True)


def test_character_recommendations_by_player_count():
    assert RECOMMENDED[3] == ("queen", "duke", "teaboy")
    assert RECOMMENDED[4] == ("queen", "duke", "timetraveler", "teaboy")
    assert RECOMMENDED[5] == ("queen", "duke", "timetraveler", "jester", "teaboy")
    assert RECOMMENDED[6] == ("queen", "general", "duke", "timetraveler", "jester", "teaboy")
    # 7: the 6 plus the Inspector's seat between the Duke and the Time Traveler.
    assert RECOMMENDED[7] == (
        "queen", "general", "duke", "inspector", "timetraveler", "jester", "teaboy"
    )
    # 2 (no Duo variant): the two characters every recommendation has (RULES.md, I1).
    assert RECOMMENDED[2] == ("queen", "teaboy")
    # Seats go in rank order at every table.
    for characters in RECOMMENDED.values():
        numbers = [CHARACTER_NUMBER[name] for name in characters if name != "inspector"]
        assert numbers == sorted(numbers)


def test_messages_name_a_card_with_its_spoken_article():
    assert [a_face(face) for face in ("1", "7", "8", "11", "12", "X", "MS", "3/9", "6/12")] == [
        "a 1", "a 7", "an 8", "an 11", "a 12", "an X", "an MS", "a 3/9", "a 6/12",
    ]


def test_the_two_highest_numbered_cards_skip_special_and_unknown_cards():
    names = {10: "12a", 11: "MSa", 12: "6/12a", 13: "9a", 14: "12b", 15: "11a", 16: "3a"}
    assert two_highest_numbered([16, 15, 14, 13, 12, 11, 10], names) == (10, 14)
    # Of equal numbers, the lower slots; a slot nobody knows is no numbered card.
    assert two_highest_numbered([13, 15, 20], {**names, 15: "9b"}) == (13, 15)
    assert two_highest_numbered([11, 12, 16, 20], names) == (16,)
    assert two_highest_numbered([11, 12], names) == ()
