"""The 2015 draft's setup: characters and seats by player count, its decks, its gear tokens.

Rulebook (``steam-court-draft.txt``), "Setup" and "3 / 4-5 / 6 / 7 / 8-10 Player Game".
"""

from __future__ import annotations

from collections import Counter
from itertools import product

import pytest

from p2pgames.engine import LocalTable, RulesetError
from p2pgames.games.steamcourt.cards import FACE, KIND, NUMBER, NUMBERED
from p2pgames.games.steamcourt2015 import GAME
from p2pgames.games.steamcourt2015.book import REMOVABLE, deck_for


def characters(players: int, **options: str) -> tuple[tuple[str, ...], ...]:
    return GAME.table_characters(GAME.ruleset(players, options))


def seated(players: int, seed: bytes = b"setup", **options: str) -> LocalTable:
    """A table just past the seating draw (the first quarter dealt)."""
    table = LocalTable(GAME, GAME.ruleset(players, options), seed)
    table.settle()
    return table


# -- characters and seats ----------------------------------------------------------------------


def test_three_players_choose_three_characters_seated_by_rank():
    # "Choose three characters and follow the seat order diagram to determine highest to lowest."
    assert characters(3) == (("queen", "duke", "teaboy"),)
    assert characters(3, three="general+submariner+pirate") == (("general", "submariner", "pirate"),)
    with pytest.raises(RulesetError):
        GAME.ruleset(3, {"three": "pirate+general+submariner"})  # not in rank order: no such choice


def test_four_and_five_players_sit_at_the_royal_or_the_renegade_table():
    # "Choose to play at either the Royal Table or Renegade Table."
    assert characters(5) == (("queen", "general", "duke", "alchemist", "teaboy"),)
    assert characters(5, table="renegade") == (("submariner", "inspector", "plaguedoctor", "pirate", "vagabond"),)
    assert characters(4) == (("queen", "duke", "alchemist", "teaboy"),)  # without the General (I3)
    assert characters(4, table="renegade") == (("submariner", "inspector", "pirate", "vagabond"),)
    assert characters(4, removed="alchemist") == (("queen", "general", "duke", "teaboy"),)


def test_six_players_seat_the_inspector_between_the_alchemist_and_the_tea_boy():
    assert characters(6) == (("queen", "general", "duke", "alchemist", "inspector", "teaboy"),)


def test_seven_players_sit_in_the_listed_order():
    # "Queen, General, Duke, Alchemist, Inspector, Pirate, Tea Boy."
    assert characters(7) == (("queen", "general", "duke", "alchemist", "inspector", "pirate", "teaboy"),)


def test_eight_to_ten_players_sit_at_two_tables():
    royal, renegades = ("queen", "general", "duke", "alchemist", "teaboy"), (
        "submariner", "inspector", "plaguedoctor", "pirate", "vagabond",
    )
    assert characters(10) == (royal, renegades)
    # "Remove 1 character of your choice for 9 players. For 8 players, remove 1 character from each table."
    assert characters(9) == (tuple(c for c in royal if c != "general"), renegades)
    assert characters(9, removed="pirate") == (royal, tuple(c for c in renegades if c != "pirate"))
    assert characters(8) == (
        tuple(c for c in royal if c != "general"), tuple(c for c in renegades if c != "plaguedoctor"),
    )
    with pytest.raises(RulesetError):
        GAME.ruleset(8, {"removed": "pirate"})  # 8 players leave one out at each table


@pytest.mark.parametrize("players, options", [
    (5, {"removed": "duke"}), (6, {"table": "renegade"}), (10, {"removed_renegade": "pirate"}),
    (4, {"three": "queen+general+duke"}), (4, {"removed": "pirate"}), (4, {"table": "renegade", "removed": "duke"}),
])
def test_choices_only_where_the_draft_leaves_them(players, options):
    with pytest.raises(RulesetError):
        GAME.ruleset(players, options)


def test_the_first_seating_is_a_random_draw_of_the_character_tokens():
    seatings = {tuple(seated(5, seed=bytes([n])).state.tables[0].seats) for n in range(12)}
    assert len(seatings) > 6 and all(sorted(seats) == list(range(5)) for seats in seatings)


# -- decks -------------------------------------------------------------------------------------


def test_three_players_remove_one_card_of_each_number_and_each_special_card():
    deck = deck_for(3)
    faces = Counter(FACE[name] for name in deck)
    assert len(deck) == 68
    assert all(faces[str(number)] == 5 for number in range(1, 13))
    assert faces["MS"] == faces["X"] == faces["3/9"] == faces["6/12"] == 2


def test_seven_players_add_one_of_each_number_from_the_second_deck():
    deck = deck_for(7)
    faces = Counter(FACE[name] for name in deck)
    assert len(deck) == len(set(deck)) == 96
    assert all(faces[str(number)] == 7 for number in range(1, 13))
    assert faces["MS"] == faces["X"] == faces["3/9"] == faces["6/12"] == 3
    assert len(deck_for(5)) == len(deck_for(10)) == 84


@pytest.mark.parametrize("players, hand, court", [(3, 17, 17), (5, 14, 14), (7, 12, 12), (4, 16, 20)])
def test_equal_hands_and_the_extras_in_the_court_hand(players, hand, court):
    state = seated(players).state
    table = state.tables[0]
    assert {len(state.hands[player]) for player in table.seats} == {hand}
    assert len(table.court) == court


def test_two_tables_deal_a_deck_each():
    state = seated(10).state
    for table in state.tables:
        assert {len(state.hands[player]) for player in table.seats} == {14}
        assert len(table.court) == 14


# -- gear tokens -------------------------------------------------------------------------------


def test_start_tokens_in_reverse_seat_order_and_a_stack_of_each_set_per_quarter():
    # "From the first set of tokens, give the gears in reverse order (The lowest player at the
    # table receives the highest gear ...)"; "Stack the other four sets ... highest to lowest".
    state = seated(5).state
    table = state.tables[0]
    assert [state.start[player] for player in table.seats] == [1, 2, 3, 4, 5]
    assert table.stacks == [[1, 2, 3, 4, 5]] * 4  # bottom first: 5 on top


@pytest.mark.parametrize("players, options, royal, renegade", [
    (10, {}, [6, 7, 8, 9, 10], [1, 2, 3, 4, 5]),
    (9, {}, [6, 7, 8, 9], [1, 2, 3, 4, 5]),
    (9, {"removed": "pirate"}, [5, 6, 7, 8, 9], [1, 2, 3, 4]),
    (8, {}, [5, 6, 7, 8], [1, 2, 3, 4]),
])
def test_two_tables_split_the_gear_tokens_the_lower_to_the_renegades(players, options, royal, renegade):
    # "The remaining sets of gear tokens are split between the two tables ... The lower tokens go
    # to the Renegade Table and the higher tokens go to the Royal Table."
    state = seated(players, **options).state
    assert state.tables[0].stacks == [royal] * 4
    assert state.tables[1].stacks == [renegade] * 4
    # "in a 10 player game the Queen receives the 1 gear and the Vagabond receives the 10 gear"
    court = state.tables[0].seats + state.tables[1].seats
    assert [state.start[player] for player in court] == list(range(1, players + 1))


def test_the_party_variation_uses_the_characters_tokens_instead_of_gear_tokens():
    state = seated(5, variation="party").state
    assert state.tables[0].stacks == [[5, 4, 3, 2, 1]] * 4  # the Queen's token on top
    assert state.start == [0] * 5
    two = seated(10, variation="party").state
    assert two.tables[0].stacks == [[5, 4, 3, 2, 1]] * 4
    assert two.tables[1].stacks == [[10, 9, 8, 7, 6]] * 4


def test_the_seventh_copies_are_numbered_cards_of_their_number():
    # "one of each numbered card (1-12)": the added cards count, lower and lay as numbered cards.
    for number in range(1, 13):
        name = f"{number}g"
        assert (KIND[name], NUMBER[name], FACE[name]) == (NUMBERED, number, str(number))
    assert sum(KIND[name] == NUMBERED for name in deck_for(7)) == 84


def test_every_ruleset_accepted_seats_every_player_once():
    # Each combination of the options is refused, or seats exactly as many characters as players.
    accepted = 0
    renegade_choices = next(option.choices for option in GAME.options if option.name == "removed_renegade")
    for players, removed, renegade, table, mode, variation in product(
        range(3, 11), REMOVABLE, renegade_choices, ("royal", "renegade"), ("diagram", "auction", "random", "crazy"), ("gears", "party"),
    ):
        options = {"removed": removed, "removed_renegade": renegade, "table": table, "characters": mode, "variation": variation}
        try:
            ruleset = GAME.ruleset(players, options)
        except RulesetError:
            continue
        accepted += 1
        seated = [name for seats in GAME.table_characters(ruleset) for name in seats]
        assert len(seated) == len(set(seated)) == players, (players, options)
    assert accepted > 50
