#!/usr/bin/env python3
"""Who wins Steam Court from which starting seat, by start-token reading: the table in its ``RULES.md`` (I2).

A developer's script (it reads the clock, so it stays out of the pure ``games`` package).
``.venv/bin/python scripts/measure_steamcourt.py [GAMES]`` plays ``GAMES`` (default 1000) games for
3–7 players at one table (gear tokens) and for the Duo variant (``duo_win`` ``points``), under each
``start_tokens`` reading (``character``: the printed numbers; ``seat``: positions 1…n), every seat
played by :func:`bots.make_bot`, and prints each starting seat's win rate with a 95 % (Wilson)
interval. Reproducible, and paired: game *n* uses seed *n* under both readings (same seating,
same first deal).
"""

from __future__ import annotations

import math
import sys
import time
from dataclasses import dataclass

from p2pgames.engine import GameOver, LocalTable

from p2pgames.games.steamcourt.bots import make_bot
from p2pgames.games.steamcourt.cards import CHARACTER_NUMBER, CHARACTER_TITLE
from p2pgames.games.steamcourt.rules import START_TOKENS, SteamCourt

__all__ = ["SeatWins", "measure", "wilson", "main"]

GAME = SteamCourt()
# (label, players, options): the settings measured, each under both readings.
SETTINGS = [(f"{players}p", players, {}) for players in range(3, 8)] + [("duo", 2, {"variant": "duo"})]


@dataclass(frozen=True, slots=True)
class SeatWins:
    label: str
    reading: str
    characters: tuple[str, ...]  # the first quarter's, by position
    wins: tuple[int, ...]  # games won by the player who started in each position
    games: int


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion ``wins / games``."""
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def measure(label: str, players: int, options: dict, reading: str, games: int) -> SeatWins:
    ruleset = GAME.ruleset(players, {**options, "start_tokens": reading})
    wins = [0] * players
    characters: tuple[str, ...] = ()
    for number in range(games):
        seed = number.to_bytes(4, "big")
        table = LocalTable(GAME, ruleset, seed, check=False)
        bots = [make_bot(seed + bytes([seat])) for seat in range(players)]
        table.play_with(bots, until=lambda t: t.state.quarter >= 1)  # seated, first quarter dealt
        first = table.state.tables[0]
        characters, starting = tuple(first.characters), first.seats[:]
        table.play_with(bots)
        over = GAME.step(table.state)
        assert isinstance(over, GameOver)
        (winner,) = over.winners
        wins[starting.index(winner)] += 1
    return SeatWins(label, reading, characters, tuple(wins), games)


def main(argv: list[str]) -> None:
    """Print the table as Markdown (the one in RULES.md): a row per setting and reading, a cell per
    starting position, preeminent first: character, start token, win % and its 95 % interval."""
    games = int(argv[0]) if argv else 1000
    began = time.perf_counter()
    widest = max(players for _, players, _ in SETTINGS)
    print("| game | tokens | " + " | ".join(f"seat {k}" for k in range(1, widest + 1)) + " |")
    print("|---|---|" + "---|" * widest)
    for label, players, options in SETTINGS:
        for reading in START_TOKENS:
            m = measure(label, players, options, reading, games)
            cells = []
            for position, (character, won) in enumerate(zip(m.characters, m.wins)):
                low, high = wilson(won, games)
                token = position + 1 if reading == "seat" else CHARACTER_NUMBER[character]
                cells.append(
                    f"{CHARACTER_TITLE[character]} {token}: {100 * won / games:.0f} "
                    f"({100 * max(low, 0):.0f}–{100 * high:.0f})"
                )
            cells += [""] * (widest - players)
            print(f"| {label} | {reading} | " + " | ".join(cells) + " |")
    print(f"\n{games} games a row; win % by starting seat (95 % Wilson interval); {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
