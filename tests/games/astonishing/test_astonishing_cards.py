"""The cards (rulebook, "Prepare for play" and "Playing the Game"): the 42-card resource deck, what
a card is worth to each Inventor, cards as people type them, and the descriptor lists."""

import pytest

from p2pgames.games.astonishing.cards import (
    ACE_WORTH,
    DECK,
    HAND_LIMIT,
    HAND_SIZE,
    INVENTORS,
    JOKERS,
    POSITION_CAPACITY,
    POSITIONS,
    DescriptorError,
    card_text,
    descriptor_number,
    descriptors,
    is_joker,
    load_descriptors,
    parse_card,
    rank_of,
    suit_of,
    worth,
)

from tests.games.astonishing.astonishing_scenarios import CLUBS, DIAMONDS, HEARTS, SPADES


def test_the_deck_is_ace_to_ten_of_each_suit_and_two_jokers_42_cards_without_face_cards():
    assert len(DECK) == 42 and len(set(DECK)) == 42
    assert DECK[:10] == ("AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C")
    numbered = [name for name in DECK if not is_joker(name)]
    assert len(numbered) == 40
    for suit, letter in enumerate("CDHS"):
        assert sorted(rank_of(n) for n in numbered if suit_of(n) == suit) == list(range(1, 11))
        assert all(n.endswith(letter) for n in numbered if suit_of(n) == suit)
    assert JOKERS == ("JOKER1", "JOKER2") and all(is_joker(j) for j in JOKERS)
    assert not any(name[0] in "JQK" for name in numbered)  # the face cards are each Inventor's roster


def test_the_table_sizes_four_dealt_six_kept_three_positions_of_two_cards():
    assert (HAND_SIZE, HAND_LIMIT, POSITIONS, POSITION_CAPACITY, ACE_WORTH) == (4, 6, 3, 2, 11)


def test_the_ace_of_an_inventors_own_suit_is_worth_11_to_that_inventor_other_aces_1():
    assert worth("AC", CLUBS) == 11
    assert worth("AC", DIAMONDS) == 1 and worth("AC", HEARTS) == 1 and worth("AC", SPADES) == 1
    assert worth("AS", SPADES) == 11 and worth("AS", CLUBS) == 1
    assert worth("AD", DIAMONDS) == 11 and worth("AH", HEARTS) == 11


def test_numbered_cards_are_worth_their_number_to_everyone_regardless_of_suit():
    for inventor in (CLUBS, DIAMONDS, HEARTS, SPADES):
        assert worth("7D", inventor) == 7
        assert worth("10C", inventor) == 10
        assert worth("2S", inventor) == 2


def test_a_joker_is_worth_nothing():
    assert worth("JOKER1", CLUBS) == 0 and worth("JOKER2", SPADES) == 0


def test_an_ace_names_the_first_descriptor_and_the_own_suit_ace_the_revolutionized_one_11():
    assert descriptor_number("AH", HEARTS) == 11
    assert descriptor_number("AH", CLUBS) == 1
    assert descriptor_number("9H", HEARTS) == 9


@pytest.mark.parametrize(
    "typed, name",
    [
        ("7d", "7D"),
        ("7♦", "7D"),
        ("10H", "10H"),
        (" 10 ♥ ", "10H"),
        ("AS", "AS"),
        ("1h", "AH"),
        ("ace of spades", "AS"),
        ("7 of diamonds", "7D"),
        ("Ace Hearts", "AH"),
        ("joker", "JOKER1"),
        ("JOKER", "JOKER1"),
    ],
)
def test_parse_card_reads_the_ways_people_write_cards(typed, name):
    assert parse_card(typed) == name


@pytest.mark.parametrize("typed", ["11c", "queen of hearts", "7z", "", "jc"])
def test_parse_card_refuses_what_is_no_card_saying_how_cards_are_written(typed):
    with pytest.raises(ValueError) as caught:
        parse_card(typed)
    assert str(caught.value) == (
        f"{typed.strip()!r} is not a card: write a rank A, 2–10 and a suit C, D, H or S (7D, 10H, AS), or joker"
    )


def test_card_text_prints_suit_symbols_and_a_joker_by_name():
    assert [card_text(n) for n in ("AC", "7D", "10H", "2S", "JOKER2")] == ["A♣", "7♦", "10♥", "2♠", "Joker"]


def test_the_descriptor_lists_load_one_inventor_per_suit_three_lists_of_ten_and_an_ace_entry():
    lists = descriptors()
    assert [d.inventor for d in lists] == list(INVENTORS)
    assert INVENTORS == ("Lady Calibrette Merchant", "Abimbola Kayin", "Marisol Chang", "Albert Smithering")
    for inventor in lists:
        assert len(inventor.lists) == 3 and all(len(entries) == 10 for entries in inventor.lists)
        assert len(inventor.aces) == 3
        for position in range(3):
            assert inventor.entry(position, 1) == inventor.lists[position][0]
            assert inventor.entry(position, 11) == inventor.aces[position]
            assert inventor.entry(position, 9) == inventor.lists[position][8]


def test_descriptors_compose_into_one_contraption_an_empty_position_adding_nothing():
    clubs = descriptors()[CLUBS]
    form, workings, wonder = clubs.lists[0][2], clubs.lists[1][8], clubs.aces[2]
    assert clubs.compose((3, 9, 11)) == f"{form}, {workings}, {wonder}"
    assert clubs.compose((3, 0, 0)) == form
    assert clubs.compose((3, 0, 2)) == f"{form} {clubs.lists[2][1]}"
    assert clubs.compose((0, 0, 5)) == f"a contraption of no particular shape {clubs.lists[2][4]}"


def _valid_data():
    lists = descriptors()
    data = {}
    for suit, inventor in zip(("clubs", "diamonds", "hearts", "spades"), lists):
        data[suit] = {"inventor": inventor.inventor}
        for name, entries, ace in zip(("form", "workings", "wonder"), inventor.lists, inventor.aces):
            data[suit][name] = {"entries": list(entries), "ace": ace}
    return data


def test_a_bad_descriptor_file_is_refused_naming_the_suit_and_the_list():
    assert load_descriptors(_valid_data()) == descriptors()
    data = _valid_data()
    del data["hearts"]
    with pytest.raises(DescriptorError, match=r"^descriptors: \[hearts\] is missing$"):
        load_descriptors(data)
    data = _valid_data()
    data["spades"]["workings"]["entries"].pop()
    with pytest.raises(DescriptorError, match=r"^descriptors: \[spades.workings\] entries must list 10 descriptors"):
        load_descriptors(data)
    data = _valid_data()
    data["clubs"]["wonder"]["ace"] = " "
    with pytest.raises(DescriptorError, match=r"^descriptors: \[clubs.wonder\] descriptor 11 must be text$"):
        load_descriptors(data)
    data = _valid_data()
    data["diamonds"]["inventor"] = "Somebody"
    with pytest.raises(DescriptorError, match=r"\[diamonds\] inventor must be 'Abimbola Kayin'"):
        load_descriptors(data)
