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

``scripts/measure_torpedo.py figures [--games N] [--settings …] [--width W --horizon H --budget B]``
plays ``N`` games (default 200, game *n* from seed *n*) of each setting of
``benchmarks.TORPEDO_SETTINGS`` — heuristic against heuristic with the starters and with custom
builds, search against search with the starters, and the search bot against the heuristic (seats
alternated) — tracing each effect to the tile that fired it, and prints the tile set's figures
(issue 24): win rates of the first player and of each starter with Wilson 95 % intervals, turns,
each way of losing, reactions, the control rooms' and every tile's share of the harm (an attack's
damage total after armour, oxygen tokens taken, crew eliminated; a seeded bootstrap interval),
distinct tiles activated per game and the top tiles by activations and by harm.

``scripts/measure_torpedo.py --search [GAMES]`` plays ``GAMES`` (default 100) games of
``build=starter`` between the search bot (at its default budget) and the heuristic bot, the search
bot taking player 0 (Panzer la Rochelle) in even games and player 1 (Talion) in odd ones; it prints
the search bot's win rate and its time per decision (median and maximum, measured around each
``choose``) and the positions it searched per second.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from p2pgames.benchmarks import TorpedoBalance as Balance, TorpedoStrength as Strength
from p2pgames.benchmarks import TORPEDO_LOSSES, TORPEDO_SETTINGS, TorpedoGame, torpedo_games
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


# -- the tile set's figures (issue 24): every setting, every tile -------------------------------------


def wilson(part: int, whole: int) -> tuple[float, float]:
    """The Wilson score 95 % interval of a proportion, in percent."""
    if not whole:
        return (0.0, 100.0)
    z = 1.959964
    p = part / whole
    centre = (p + z * z / (2 * whole)) / (1 + z * z / whole)
    half = z * math.sqrt(p * (1 - p) / whole + z * z / (4 * whole * whole)) / (1 + z * z / whole)
    return (100 * max(0.0, centre - half), 100 * min(1.0, centre + half))


def rate(part: int, whole: int) -> str:
    low, high = wilson(part, whole)
    return f"{part:>4} of {whole:<4} {percent(part, whole):>6}  (95% {low:.0f}–{high:.0f}%)"


def mean_interval(values: list[float]) -> str:
    """The mean with a normal 95 % interval."""
    if not values:
        return "-"
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return f"{mean:.2f} (95% {mean - half:.2f}–{mean + half:.2f})"


def share_interval(games: list[TorpedoGame], pick: Any) -> tuple[float, float, float]:
    """The share of all harm done by the tiles ``pick`` keeps, in percent, with a seeded bootstrap
    95 % interval over the games (1,000 resamples)."""
    parts = [(sum(v for t, v in g.harm.items() if pick(g, t)), sum(g.harm.values())) for g in games]

    def share(sample: list[tuple[int, int]]) -> float:
        whole = sum(w for _, w in sample)
        return 100 * sum(p for p, _ in sample) / whole if whole else 0.0

    draw = random.Random(24)
    shares = sorted(share([parts[draw.randrange(len(parts))] for _ in parts]) for _ in range(1000))
    return share(parts), shares[24], shares[974]


def figures(setting: str, games: list[TorpedoGame], tops: dict[str, set[str]]) -> None:
    n = len(games)
    decided = [g for g in games if g.winner is not None]
    build, kinds = TORPEDO_SETTINGS[setting]
    print(f"== {setting}: build={build}, {kinds[0]} bot against {kinds[1]} bot, {n} games (seeds {games[0].seed}-{games[-1].seed})")
    print(f"draws                  {n - len(decided)}")
    if setting == "search-vs-heuristic":
        wins = sum(1 for g in decided if g.bots[g.winner] == "search")
        print(f"search bot wins        {rate(wins, n)}")
    print(f"first player wins      {rate(sum(1 for g in decided if g.winner == g.first), len(decided))}")
    if build == "starter":
        for seat, name in enumerate(FACTIONS):
            print(f"{name + ' wins':<22} {rate(sum(1 for g in decided if g.winner == seat), len(decided))}")
    turns = [g.turns for g in games]
    print(f"turns per game         {mean_interval(turns)}  (median {statistics.median(turns)}, max {max(turns)})")
    for how in TORPEDO_LOSSES.values():
        print(f"lost by {how:<22} {rate(sum(1 for g in games if how in g.losses), n)}")
    reacted = [g.reactions for g in games]
    print(f"games with a reaction  {rate(sum(1 for r in reacted if r), n)}")
    print(f"  with 1-4 reactions   {rate(sum(1 for r in reacted if 1 <= r <= 4), n)}; per game {mean_interval(reacted)}")
    # Harm, by the tile whose effect did it.
    others, low, high = share_interval(games, lambda g, tile: not g.control(tile))
    print(f"harm by tiles other than the control rooms  {others:.1f}% (95% {low:.1f}–{high:.1f}%)")
    per_game = [100 * sum(v for t, v in g.harm.items() if not g.control(t)) / sum(g.harm.values()) for g in games if sum(g.harm.values())]
    print(f"  median share per game {statistics.median(per_game):.1f}% (over {len(per_game)} games with harm)" if per_game else "  no harm")
    distinct = [len(g.activations) for g in games]
    plain = [sum(1 for t in g.activations if not g.control(t)) for g in games]
    print(f"distinct tiles activated per game  {mean_interval(distinct)}; not control rooms {mean_interval(plain)}")
    print(f"  games with >= 8 distinct ({rate(sum(1 for d in distinct if d >= 8), n)}), >= 6 not control rooms ({rate(sum(1 for d in plain if d >= 6), n)})")
    harm: dict[str, int] = {}
    used: dict[str, int] = {}
    for g in games:
        for (_, name), value in g.harm.items():
            harm[name] = harm.get(name, 0) + value
        for (_, name), value in g.activations.items():
            used[name] = used.get(name, 0) + value
    total = sum(harm.values())
    print(f"{'tile':<24} {'harm':>6} {'share':>6} {'activations':>11} {'per game':>8}")
    for name in sorted(set(harm) | set(used), key=lambda name: (-harm.get(name, 0), -used.get(name, 0), name)):
        print(f"{name:<24} {harm.get(name, 0):>6} {percent(harm.get(name, 0), total):>6} {used.get(name, 0):>11} {used.get(name, 0) / n:>8.2f}")
    top_harm = sorted(harm, key=lambda name: -harm[name])[:10]
    top_used = sorted(used, key=lambda name: -used[name])[:10]
    tops[setting] = set(top_harm) | set(top_used)
    if total:
        name = max(harm, key=harm.__getitem__)
        print(f"largest share of harm: {name} {percent(harm[name], total)}")
    print()


def starter_tiles_in_tops(tops: dict[str, set[str]]) -> None:
    starters = {name for starter in TILESET.starters.values() for name in starter.layout}
    found = set().union(*tops.values()) if tops else set()
    missing = sorted(starters - found)
    print(f"starter tiles among some setting's top ten by activations or harm: {len(starters & found)} of {len(starters)}")
    print(f"  missing: {', '.join(missing) if missing else 'none'}")


def main_figures(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="measure_torpedo.py figures")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--settings", default=",".join(TORPEDO_SETTINGS))
    parser.add_argument("--width", type=int, default=6)
    parser.add_argument("--horizon", type=int, default=2)
    parser.add_argument("--budget", type=int, default=8000)
    parser.add_argument("-v", action="store_true", help="a line per game on stderr")
    options = parser.parse_args(argv)
    budget = {"width": options.width, "horizon": options.horizon, "budget": options.budget}
    print(f"search bot budget: width {options.width}, horizon {options.horizon}, {options.budget} positions a decision")
    tops: dict[str, set[str]] = {}
    for setting in options.settings.split(","):
        began = time.perf_counter()

        def progress(game: TorpedoGame) -> None:
            if options.v:
                print(f"  {setting} game {game.seed}: winner {game.winner} in {game.turns} turns {game.losses}", file=sys.stderr, flush=True)

        games = torpedo_games(setting, options.games, search_budget=budget, progress=progress)
        figures(setting, games, tops)
        print(f"  ({setting}: {time.perf_counter() - began:.0f} s)\n")
    starter_tiles_in_tops(tops)


def whole_number(text: str) -> int:
    """A count of games given on the command line (argparse reports anything else in one line)."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"a whole number of games is needed, not {text!r}")
    return int(text)


def main(argv: list[str]) -> None:
    start = time.perf_counter()
    if argv[:1] == ["figures"]:
        main_figures(argv[1:])
        return
    parser = argparse.ArgumentParser(
        prog="measure_torpedo.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--balance", action="store_true", help="heuristic starter games (the default)")
    mode.add_argument("--search", action="store_true", help="the search bot against the heuristic bot")
    parser.add_argument("games", nargs="?", type=whole_number, help="games to play (200; 100 with --search)")
    parser.add_argument("-v", action="store_true", help="with --search: a line per game on stderr")
    options = parser.parse_args(argv)
    if options.search:
        print_strength(strength(options.games or 100, progress=options.v), time.perf_counter() - start)
        return
    print_balance(balance(options.games or 200))
    print(f"wall time              {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":  # pragma: no cover
    main(sys.argv[1:])
