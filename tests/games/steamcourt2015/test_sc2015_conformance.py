"""The generic conformance check on Steam Court by its 2015 draft rules beyond the every-game check
(tests/engine/test_conformance_every_game.py, which plays each count 3–10 with the default
options): the Party variation, the Renegade table, the choices of characters left out, the
auction and Random Characters, and every legal action's forms exhaustively at a few counts."""

from __future__ import annotations

import pytest

from p2pgames.engine.conformance import check_game, play_random_game
from p2pgames.games.steamcourt2015 import GAME
from p2pgames.games.steamcourt2015.presentation import PRESENTATION

CASES = [(players, {"variation": "party"}) for players in (3, 5, 7, 8, 10)] + [
    (4, {"table": "renegade"}),
    (5, {"table": "renegade"}),
    (4, {"table": "renegade", "removed_renegade": "inspector"}),
    (4, {"removed": "alchemist"}),
    (8, {"removed": "duke", "removed_renegade": "pirate"}),
    (9, {"removed": "plaguedoctor"}),
    (3, {"three": "general+submariner+pirate"}),
] + [(players, {"characters": "auction"}) for players in (3, 5, 8, 10)] + [
    (players, {"characters": mode}) for players, mode in ((3, "random"), (5, "random"), (7, "random"), (4, "crazy"), (7, "crazy"))
]


@pytest.mark.parametrize("players, options", CASES)
def test_random_playthrough_conforms(players, options):
    report = play_random_game(PRESENTATION, GAME.ruleset(players, options), f"sc2015/{players}/{sorted(options.items())}".encode(), exhaustive=False)
    assert report.result is not None and report.events > 0


@pytest.mark.parametrize("players, options", [(3, {}), (7, {}), (10, {}), (5, {"characters": "auction"})])
def test_exhaustive_conformance(players, options):
    # Every legal action's wire form, typed form and state round trip, on a few seeds.
    reports = check_game(PRESENTATION, GAME.ruleset(players, options), [b"sc2015-exhaustive-%d" % players], exhaustive=True)
    assert all(report.result is not None for report in reports)


# Issue 24, point 1 (the published rules' RULES.md I51): no legal action hides a card a seat other
# than its receivers can tell — at the Renegade table (the Inspector and the Vagabond) and with
# characters seated in any order (Crazy Random Characters); every size is played by
# tests/engine/test_conformance_every_game.py.
TRACE_CASES = [(5, {"table": "renegade"}), (4, {"characters": "crazy"}), (7, {"characters": "crazy"})]


@pytest.mark.parametrize("players, options", TRACE_CASES)
def test_no_hidden_card_can_be_traced_to_what_a_seat_saw(players, options):
    for n in range(2):
        seed = f"sc2015-trace/{players}/{sorted(options.items())}/{n}".encode()
        assert play_random_game(PRESENTATION, GAME.ruleset(players, options), seed, exhaustive=False).result is not None
