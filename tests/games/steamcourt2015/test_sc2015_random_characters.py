"""The Random Characters variation (rulebook, "Variations"): "For a slightly unbalanced game for
3-7 players, randomly choose any character tokens and seat in descending order according to the
seat diagram chart. If you want to get crazy, randomize the characters and seats.\""""

from __future__ import annotations

import pytest

from p2pgames.engine import LocalTable, RulesetError
from p2pgames.games.steamcourt2015 import GAME
from p2pgames.games.steamcourt2015.book import RANKS


def dealt(players: int, mode: str, seed: bytes) -> LocalTable:
    table = LocalTable(GAME, GAME.ruleset(players, {"characters": mode}), seed)
    table.settle()
    return table


@pytest.mark.parametrize("players", [3, 5, 7])
def test_random_characters_are_any_of_the_ten_seated_by_rank(players):
    drawn = [dealt(players, "random", bytes([n])).state.tables[0].characters for n in range(8)]
    assert all(len(set(characters)) == players for characters in drawn)
    assert all(characters == sorted(characters, key=RANKS.index) for characters in drawn)
    assert len({tuple(characters) for characters in drawn}) > 4  # drawn, not fixed
    assert any(set(characters) & {"submariner", "inspector", "plaguedoctor", "pirate", "vagabond"} for characters in drawn)


def test_the_crazy_form_seats_random_characters_in_random_order():
    drawn = [dealt(6, "crazy", bytes([n])).state.tables[0].characters for n in range(8)]
    assert any(characters != sorted(characters, key=RANKS.index) for characters in drawn)
    state = dealt(6, "crazy", b"\x01").state
    # Seats still rank the players: the highest seat holds start token 1 and leads.
    table = state.tables[0]
    assert [state.start[player] for player in table.seats] == list(range(1, 7))


@pytest.mark.parametrize("players", [8, 10])
def test_random_characters_is_for_three_to_seven_players(players):
    with pytest.raises(RulesetError, match="3–7 players"):
        GAME.ruleset(players, {"characters": "random"})
