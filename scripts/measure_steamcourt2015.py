#!/usr/bin/env python3
"""What each character is worth in Steam Court's 2015 rules: the bots' auction bids (``bots.py``).

A developer's script (it reads the clock, so it stays out of the pure ``games`` package).
``.venv/bin/python scripts/measure_steamcourt2015.py [GAMES]`` plays ``GAMES`` (default 200)
games for each count of 3–10 players (the seat order diagram's characters, gear tokens, every seat
played by :func:`bots.make_bot`) and prints, for each character, the mean final score of the
player who held it in the first quarter (players reseat by going-out order after it, so a character
is worth its first quarter and its start token), with its standard error, and the worth in whole
points the bots bid up to: the mean above the lowest character's, rounded down. Reproducible: game
*n* of each count plays seed *n*.
"""

from __future__ import annotations

import math
import statistics
import sys
import time

from p2pgames.engine import LocalTable
from p2pgames.games.steamcourt2015 import GAME
from p2pgames.games.steamcourt2015.bots import make_bot

__all__ = ["first_quarter_scores", "main"]


def first_quarter_scores(players: int, games: int) -> dict[str, list[int]]:
    """Each character's final scores over ``games`` games, by who held it in the first quarter."""
    scores: dict[str, list[int]] = {}
    for number in range(games):
        table = LocalTable(GAME, GAME.ruleset(players), b"worth-%d" % number)
        table.settle()
        held = {player: name for t in table.state.tables for player, name in zip(t.seats, t.characters)}
        table.play_with([make_bot(b"worth-%d-%d" % (number, seat)) for seat in range(players)])
        totals = table.state.totals()
        for player, name in held.items():
            scores.setdefault(name, []).append(totals[player])
    return scores


def main(argv: list[str]) -> int:
    games = int(argv[1]) if len(argv) > 1 else 200
    began = time.monotonic()
    worth: dict[int, dict[str, int]] = {}
    for players in range(3, 11):
        scores = first_quarter_scores(players, games)
        means = {name: statistics.mean(values) for name, values in scores.items()}
        low = min(means.values())
        worth[players] = {name: math.floor(mean - low) for name, mean in means.items()}
        print(f"{players} players, {games} games:")
        for name, values in scores.items():
            error = statistics.stdev(values) / math.sqrt(len(values))
            print(f"  {name:13} mean {means[name]:5.2f} ± {error:4.2f}  worth {worth[players][name]}")
    print(f"WORTH = {worth!r}")
    print(f"({time.monotonic() - began:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
