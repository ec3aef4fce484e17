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

from p2pgames.engine import LocalTable

from p2pgames.games.torpedo import GAME
from p2pgames.games.torpedo.bots import HeuristicBot, SearchBot
from p2pgames.games.torpedo.effects import loss_reasons
from p2pgames.games.torpedo.tiles import TILESET

__all__ = ["Balance", "Strength", "TimedBot", "balance", "strength", "main"]

STARTER = GAME.ruleset(2, {"build": "starter"})
FACTIONS = tuple(TILESET.starters[faction].name for faction in TILESET.starters)  # by seat (I1)


def seed_of(number: int) -> bytes:
    return number.to_bytes(4, "big")


def play(bots: list[Any], seed: bytes) -> LocalTable:
    """One starter game between ``bots`` (by seat), played to the end unchecked (the bots only
    choose legal moves)."""
    table = LocalTable(GAME, STARTER, seed, check=False)
    table.play_with(bots)
    return table


def ending(state: Any) -> str:
    """How the game ended: the loser's reasons ("draw: …" when both lost at once)."""
    reasons = sorted({reason for seat in state.losers for reason in loss_reasons(state, seat)})
    prefix = "draw: " if len(state.losers) == 2 else ""
    return prefix + " and ".join(reasons)


@dataclass
class Balance:
    games: int = 0
    draws: int = 0
    first_wins: int = 0  # games won by the first player
    faction_wins: list[int] = field(default_factory=lambda: [0, 0])  # by seat = faction
    # [faction][0 first, 1 second] -> (games, wins)
    cases: list[list[list[int]]] = field(default_factory=lambda: [[[0, 0], [0, 0]], [[0, 0], [0, 0]]])
    turns: int = 0
    endings: dict[str, int] = field(default_factory=dict)


def balance(games: int) -> Balance:
    """``games`` starter games, heuristic bot against heuristic bot."""
    result = Balance()
    for number in range(games):
        seed = seed_of(number)
        table = play([HeuristicBot(seed + bytes([seat])) for seat in range(2)], seed)
        state = table.state
        result.games += 1
        result.turns += state.turn
        how = ending(state)
        result.endings[how] = result.endings.get(how, 0) + 1
        winner = state.winner
        for seat in range(2):
            case = result.cases[seat][0 if seat == state.first else 1]
            case[0] += 1
            case[1] += winner == seat
        if winner is None:
            result.draws += 1
            continue
        result.first_wins += winner == state.first
        result.faction_wins[winner] += 1
    return result


class TimedBot:
    """Wraps a bot to time each of its decisions (the clock stays out of the bots)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.times: list[float] = []

    def choose(self, game: Any, state: Any, player: int, knowledge: Any, step: Any) -> Any:
        start = time.perf_counter()
        action = self.bot.choose(game, state, player, knowledge, step)
        self.times.append(time.perf_counter() - start)
        return action


@dataclass
class Strength:
    games: int = 0
    wins: int = 0
    draws: int = 0
    wins_by_seat: list[int] = field(default_factory=lambda: [0, 0])
    turns: int = 0
    times: list[float] = field(default_factory=list)
    positions: int = 0
    width: int = 0
    horizon: int = 0


def strength(games: int, progress: bool = False) -> Strength:
    """``games`` starter games, the search bot (default budget) against the heuristic bot, seats
    alternated."""
    result = Strength()
    for number in range(games):
        seed = seed_of(number)
        seat = number % 2
        search = SearchBot(seed + bytes([seat]))
        result.width, result.horizon = search.width, search.horizon
        timed = TimedBot(search)
        bots: list[Any] = [HeuristicBot(seed + bytes([1 - seat]))] * 2
        bots[seat] = timed
        table = play(bots, seed)
        state = table.state
        result.games += 1
        result.turns += state.turn
        result.times.extend(timed.times)
        result.positions += search.positions
        if state.winner is None:
            result.draws += 1
        elif state.winner == seat:
            result.wins += 1
            result.wins_by_seat[seat] += 1
        if progress:
            print(
                f"  game {number}: search bot as player {seat}, "
                f"{'won' if state.winner == seat else 'draw' if state.winner is None else 'lost'} "
                f"in {state.turn} turns, {sum(timed.times):.1f} s deciding",
                file=sys.stderr,
                flush=True,
            )
    return result


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
