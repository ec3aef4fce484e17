"""The generic engine conformance check, played through whole games of Beltpunk.

Uniformly random play never finishes a game of Beltpunk: a random player declines half the sets
it could score, so every round costs it points on average (about -2.5 per round) and nobody reaches
the target. So the playthroughs here use :class:`DecisiveBeltpunk`, the real game
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


# Random games vary a lot in length (400 to 9000 events); these seeds give games of ordinary
# length, so the whole check (about 18 000 events, every one checked) takes about 12 s.
SEEDS = {
    (2, 25): (b"b", b"c", b"e", b"h"),
    (3, 25): (b"a", b"b", b"d", b"f"),
    (4, 25): (b"b", b"d", b"i", b"j"),
    (2, 35): (b"f", b"h"),
    (3, 35): (b"b", b"d"),
    (4, 35): (b"i", b"j"),
}


@pytest.mark.parametrize("players, target", sorted(SEEDS))
def test_random_games_conform(players, target):
    ruleset = GAME.ruleset(players, {"target": target})
    for number, seed in enumerate(SEEDS[players, target]):
        # Exhaustive (every offered action applied on a copy) for the first seed of each ruleset.
        report = play_random_game(GAME, ruleset, seed + bytes([players]), exhaustive=number == 0)
        assert report.result is not None
        assert max(report.result.scores) >= target
        assert report.result.winners == tuple(
            seat
            for seat, score in enumerate(report.result.scores)
            if score == max(report.result.scores)
        )
