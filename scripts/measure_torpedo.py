#!/usr/bin/env python3
"""Steam Torpedo's balance and its bots' strength: bot tables played to the end, for the figures in
its ``RULES.md`` ("Balance and bots").

A developer's script (it reads the clock, so it stays out of the pure ``games`` package).
Reproducible: game *n* uses seed *n* (the table's joint randomness draws the first player from it).

``.venv/bin/python scripts/measure_torpedo.py [--balance] [GAMES]`` plays ``GAMES`` (default 200)
games of ``build=starter`` with the heuristic bot on both seats and prints the first player's win
rate, each faction's win rate, the games' length in turns and how they ended. ``build=starter``
gives player 0 Panzer la Rochelle and player 1 Talion (I1) and the two seats are mirror images of
each other (I2), while the first player is drawn at random: so the faction's rate is also the
seat's, and the first player's rate is measured across both factions (the table shows all four
cases: each faction first and second).

``scripts/measure_torpedo.py --search [GAMES]`` plays ``GAMES`` (default 100) games of
``build=starter`` between the search bot (at its default budget) and the heuristic bot, the search
bot taking player 0 (Panzer la Rochelle) in even games and player 1 (Talion) in odd ones; it prints
the search bot's win rate and its time per decision (median and maximum, measured around each
``choose``) and the positions it searched per second.
"""

from __future__ import annotations

import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from p2pgames.benchmarks import TorpedoBalance as Balance, TorpedoStrength as Strength
from p2pgames.benchmarks import torpedo_balance as balance, torpedo_strength as strength
from p2pgames.games.torpedo.tiles import TILESET

__all__ = ["main"]

FACTIONS = tuple(starter.name for starter in TILESET.starters.values())  # by seat with build=starter (I1)

def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def print_balance(result: Balance) -> None:
    games = result.games
    decided = games - result.draws
    print(f"build=starter, heuristic bot on both seats: {games} games (seeds 0-{games - 1}), {result.draws} draws")
    print(f"first player wins      {result.first_wins:>4} of {decided}  {percent(result.first_wins, decided)}")
    for seat, name in enumerate(FACTIONS):
        wins = result.faction_wins[seat]
        print(f"{name + ' wins':<22} {wins:>4} of {decided}  {percent(wins, decided)}  (player {seat})")
    for seat, name in enumerate(FACTIONS):
        for order, words in ((0, "first"), (1, "second")):
            played, won = result.cases[seat][order]
            print(f"  {name} playing {words:<6} won {won:>4} of {played:<4} {percent(won, played)}")
    print(f"average length         {result.turns / games:.1f} turns")
    for how, count in sorted(result.endings.items(), key=lambda item: -item[1]):
        print(f"  ended: {how:<40} {count:>4}  {percent(count, games)}")


def print_strength(result: Strength, elapsed: float) -> None:
    games = result.games
    times = sorted(result.times)
    searching = sum(times)
    print(
        f"build=starter, search bot (width={result.width}, horizon={result.horizon}) against the heuristic bot: "
        f"{games} games (seeds 0-{games - 1}), search bot player 0 (Panzer) in even games, player 1 (Talion) in odd"
    )
    print(f"search bot wins        {result.wins:>4} of {games}  {percent(result.wins, games)}  ({result.draws} draws)")
    for seat, name in enumerate(FACTIONS):
        print(f"  as {name:<19} {result.wins_by_seat[seat]:>4} of {(games + 1 - seat) // 2}")
    print(f"average length         {result.turns / games:.1f} turns")
    print(
        f"decisions              {len(times)}: median {statistics.median(times):.3f} s, "
        f"max {times[-1]:.3f} s, 99th percentile {times[int(0.99 * (len(times) - 1))]:.3f} s"
    )
    print(f"positions searched     {result.positions} ({result.positions / searching:.0f} per second of deciding)")
    print(f"wall time              {elapsed:.0f} s")


def main(argv: list[str]) -> None:
    start = time.perf_counter()
    if argv[:1] == ["--search"]:
        games = int(argv[1]) if len(argv) > 1 else 100
        print_strength(strength(games, progress="-v" in argv), time.perf_counter() - start)
        return
    if argv[:1] == ["--balance"]:
        argv = argv[1:]
    games = int(argv[0]) if argv else 200
    print_balance(balance(games))
    print(f"wall time              {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":  # pragma: no cover
    main(sys.argv[1:])
