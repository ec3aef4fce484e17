"""The generic engine conformance check, played through whole games of Steam Court.

Uniformly random play ends every game: a lead can't pass, so every trick takes at least one card
out of a hand, and the only ways cards come back (a stop, a retrieve, a steal, a dive, the plague)
are once a quarter each. The game keeps the default (uniform) ``playout_choice``.
"""

import pytest

from p2pgames.engine import Game
from p2pgames.engine.conformance import play_random_game
from p2pgames.games.steamcourt import GAME, SteamCourt
from p2pgames.games.steamcourt.presentation import PRESENTATION, SteamCourtPresentation


def test_random_play_is_uniform():
    assert type(GAME).playout_choice is Game.playout_choice


@pytest.mark.parametrize("players", range(2, 8))
def test_random_games_conform_with_gear_scoring(players):
    report = play_random_game(PRESENTATION, GAME.ruleset(players), b"gears-%d" % players)
    assert report.result is not None
    assert len(report.result.winners) == 1
    # Start token plus one gear token of each quarter: at least 1 + 4, at most n + 4n.
    assert all(5 <= score <= 5 * players for score in report.result.scores)


@pytest.mark.parametrize("players", range(2, 7))
def test_random_games_conform_with_clock_climbing(players):
    report = play_random_game(PRESENTATION, GAME.ruleset(players, {"scoring": "clock"}), b"clock-%d" % players)
    assert report.result is not None
    assert len(set(report.result.scores)) == players


# Every other character, seated directly at one table (the Party variant seats them at its second).
SEATINGS = SteamCourt({
    7: ("submariner", "inspector", "alchemist", "pirate", "plaguedoctor", "vagabond", "jester"),
    5: ("queen", "general", "timetraveler", "pirate", "alchemist"),
    4: ("vagabond", "submariner", "duke", "plaguedoctor"),
})


@pytest.mark.parametrize("players, scoring", [(7, "gears"), (5, "clock"), (4, "gears")])
def test_random_games_conform_with_every_character(players, scoring):
    report = play_random_game(SteamCourtPresentation(SEATINGS), SEATINGS.ruleset(players, {"scoring": scoring}), b"all-%d" % players)
    assert report.result is not None


# Issue 24, point 1 (RULES.md I51): the check refuses any legal action that hides a card a seat
# other than its receivers can tell — at tables where every privilege that gives, serves, trades
# or looks is held (the Queen's and the General's gifts on to the Tea Boy, the Inspector's look
# before the Vagabond serves), in the Party and Duo variants; every size is played by
# tests/engine/test_conformance_every_game.py.
PRIVILEGED = SteamCourt({
    6: ("queen", "general", "teaboy", "inspector", "vagabond", "submariner"),
    3: ("queen", "inspector", "vagabond"),
})
TRACE_CASES = [
    (PRIVILEGED, 6, {}), (PRIVILEGED, 3, {}), (GAME, 9, {"variant": "party"}), (GAME, 2, {"variant": "duo"}),
]


@pytest.mark.parametrize("game, players, options", TRACE_CASES)
def test_no_hidden_card_can_be_traced_to_what_a_seat_saw(game, players, options):
    for n in range(2):
        seed = b"trace-%d-%s-%d" % (players, repr(sorted(options.items())).encode(), n)
        assert play_random_game(SteamCourtPresentation(game), game.ruleset(players, options), seed, exhaustive=False).result is not None
