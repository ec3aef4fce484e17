"""The generic engine conformance check, played through whole games of Beltpunk.

Uniformly random play never finishes a game of Beltpunk: a random player declines half the sets
it could score, so every round costs it points on average (about -2.5 per round) and nobody reaches
the target. The game's ``playout_choice`` therefore always declares a set when it holds one; every
other decision is uniform among all legal actions (and, with ``exhaustive``, every one of them is
applied and checked). "declare no" while holding a set is covered by the unit tests.
"""

import pytest

from p2pgames.engine.conformance import play_random_game
from p2pgames.games.beltpunk import GAME
from p2pgames.games.beltpunk.actions import Declare
from p2pgames.games.beltpunk.presentation import PRESENTATION


def test_random_play_always_scores_when_it_can_and_is_otherwise_uniform():
    from p2pgames.engine import DeterministicRandom

    from p2pgames.games.beltpunk.rules import Phase

    state = GAME.setup(GAME.ruleset(2))
    state.phase = Phase.DECLARE
    random = DeterministicRandom(b"x")
    assert GAME.playout_choice(state, 0, [Declare(False), Declare(True)], {}, random) == Declare(True)
    picks = {GAME.playout_choice(state, 0, [1, 2, 3], {}, random) for _ in range(50)}
    assert picks == {1, 2, 3}


# Random games vary a lot in length (400 to 9000 events, and each round's re-masked hands make a
# long game's state, and so each event, costlier); these seeds give games of ordinary length
# (800–1600 events), so the whole check takes seconds.
SEEDS = {
    (2, 25): (b"c", b"a", b"g", b"h"),
    (3, 25): (b"b", b"a", b"c", b"d"),
    (4, 25): (b"d", b"a", b"b", b"e"),
    (2, 35): (b"h", b"c"),
    (3, 35): (b"c", b"b"),
    (4, 35): (b"d", b"g"),
}


@pytest.mark.parametrize("players, target", sorted(SEEDS))
def test_random_games_conform(players, target):
    ruleset = GAME.ruleset(players, {"target": target})
    for number, seed in enumerate(SEEDS[players, target]):
        # Exhaustive (every offered action applied on a copy) for the first seed of each ruleset.
        report = play_random_game(PRESENTATION, ruleset, seed + bytes([players]), exhaustive=number == 0)
        assert report.result is not None
        assert max(report.result.scores) >= target
        assert report.result.winners == tuple(
            seat
            for seat, score in enumerate(report.result.scores)
            if score == max(report.result.scores)
        )
