"""The generic engine conformance check, played through whole games of Astonishing!.

Random play ends because a trade's initiator closes the trade three times in four (random
reopening and revising could go on for ever) and the early end is agreed to three times in four;
every other decision is uniform among the legal actions. With ``exhaustive``, every legal action
offered is applied (or, in a simultaneous step, checked) too.
"""

import pytest

from p2pgames.engine.conformance import play_random_game
from p2pgames.games.astonishing import GAME
from p2pgames.games.astonishing.presentation import PRESENTATION

SEEDS = [(players, seed) for players in (2, 3, 4) for seed in (b"a", b"b", b"c")]


@pytest.mark.parametrize("players, seed", SEEDS)
def test_random_games_conform(players, seed):
    report = play_random_game(PRESENTATION, GAME.ruleset(players), seed, exhaustive=seed == b"a")
    assert report.result is not None


@pytest.mark.parametrize("players", [2, 4])
def test_random_games_without_the_early_end_conform(players):
    report = play_random_game(PRESENTATION, GAME.ruleset(players, {"early_end": False}), b"no-early-end")
    assert report.result is not None


@pytest.mark.parametrize("players", [2, 4])
def test_random_games_with_the_other_readings_conform(players):
    options = {"free_discard": True, "optional_replacement": True}
    report = play_random_game(PRESENTATION, GAME.ruleset(players, options), b"other-readings", exhaustive=players == 2)
    assert report.result is not None
