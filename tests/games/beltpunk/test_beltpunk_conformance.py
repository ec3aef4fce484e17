"""The generic engine conformance check, played through whole games of Beltpunk.

Uniformly random play never finishes a game of Beltpunk: a random player declines half the sets
it could score, so every round costs it points on average (about -4 per round with 4 players) and
nobody reaches the target. So the playthroughs here use :class:`DecisiveBeltpunk`, the real game
whose players always score a set when they hold one: every declaration is still one of the real
game's legal actions, and every other decision is chosen uniformly among all legal actions (and,
with ``exhaustive``, every one of them is applied and checked). "declare no" while holding a set is
covered by the unit tests.
"""

import pytest

from p2pgames.engine.conformance import play_random_game
from p2pgames.games.beltpunk.actions import Declare
from p2pgames.games.beltpunk.rules import Beltpunk


class DecisiveBeltpunk(Beltpunk):
    """Beltpunk whose players always declare a set when they can score one."""

    def legal_actions(self, state, player, knowledge):
        options = super().legal_actions(state, player, knowledge)
        if Declare(True) in options:
            return [Declare(True)]
        return options


GAME = DecisiveBeltpunk()


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("target, seeds", [(25, (b"a", b"b")), (35, (b"c",))])
def test_random_games_conform(players, target, seeds):
    ruleset = GAME.ruleset(players, {"target": target})
    for number, seed in enumerate(seeds):
        report = play_random_game(GAME, ruleset, seed + bytes([players]), exhaustive=number == 0)
        assert report.result is not None
        assert max(report.result.scores) >= target
        assert report.result.winners == tuple(
            seat for seat, score in enumerate(report.result.scores) if score == max(report.result.scores)
        )
