"""The one generic conformance check, run against every game the project has, at every size.

Each game's own test directory may run it harder (more seeds, exhaustive checks); this file makes
sure no game, present or future, skips it: a new entry in the registry is covered automatically.
"""

import pytest

from p2pgames.engine.conformance import play_random_game
from p2pgames.games import PLAYABLE, get_game, get_presentation

GAMES = [*PLAYABLE, "probe"]
CASES = [
    (name, players)
    for name in GAMES
    for players in range(get_game(name).min_players, get_game(name).max_players + 1)
]


@pytest.mark.parametrize("name, players", CASES)
def test_random_playthrough_conforms(name, players):
    game = get_game(name)
    report = play_random_game(get_presentation(name), game.ruleset(players), f"every-game/{name}/{players}".encode(), exhaustive=False)
    assert report.result is not None
    assert report.events > 0
