"""The generic engine conformance check, played through whole games of Steam Torpedo with every
build option.

Uniformly random play ends every game (measured: about 31 turns and 240 events a game with the
starters, always by oxygen: each recovery costs a token), so the game keeps the default
``playout_choice``. The first seed of each build option is exhaustive: every action offered at
every step is applied to a copy and checked.
"""

import pytest

from p2pgames.engine.conformance import play_random_game
from p2pgames.games.torpedo import GAME
from p2pgames.games.torpedo.rules import BUILD_OPTIONS

SEEDS = (b"a", b"b", b"c", b"d")


@pytest.mark.parametrize("build", BUILD_OPTIONS)
def test_random_games_conform(build):
    ruleset = GAME.ruleset(2, {"build": build})
    for number, seed in enumerate(SEEDS):
        report = play_random_game(GAME, ruleset, seed + build.encode(), exhaustive=number == 0)
        result = report.result
        assert result is not None
        assert len(result.winners) in (1, 2)
        if len(result.winners) == 1:
            assert result.scores[result.winners[0]] == 1 and sum(result.scores) == 1


def test_the_build_option_defaults_to_custom_and_refuses_unknown_values():
    from p2pgames.engine import RulesetError

    assert dict(GAME.ruleset(2).options) == {"build": "custom"}
    with pytest.raises(RulesetError):
        GAME.ruleset(2, {"build": "lego"})
    with pytest.raises(RulesetError):
        GAME.ruleset(3)
