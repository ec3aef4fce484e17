#!/usr/bin/env python3
"""How long Beltpunk games last: bot tables played to the end, for the figures in its ``RULES.md``.

A developer's script (it reads the clock, so it stays out of the pure ``games`` package).
``.venv/bin/python scripts/measure_beltpunk.py [GAMES]`` plays ``GAMES`` (default 100) games for each
player count and target with every seat played by :func:`bots.make_bot`, and prints the average
number of rounds and turns a game lasts and the average round score. Reproducible: game *n* uses
seed *n*.

``scripts/measure_beltpunk.py --speed`` times the engine: uniformly random legal play
at 4 players (rounds and events per second: such games practically never end, see ``RULES.md``),
and replays of recorded 4-player bot games through ``apply_unchecked`` (games per second).
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

from p2pgames.bots import RandomBot
from p2pgames.engine import LocalTable

from p2pgames.games.beltpunk import GAME
from p2pgames.games.beltpunk.bots import make_bot

__all__ = ["Lengths", "measure", "random_play_speed", "replay_speed", "main"]


@dataclass(frozen=True, slots=True)
class Lengths:
    players: int
    target: int
    games: int
    rounds: float
    turns: float
    round_score: float
    winning_score: float


def play_bot_game(players: int, target: int, seed: bytes) -> LocalTable:
    """One game between bots, played to the end unchecked (the bots only choose legal moves)."""
    table = LocalTable(GAME, GAME.ruleset(players, {"target": target}), seed, check=False)
    table.play_with([make_bot(seed + bytes([seat])) for seat in range(players)])
    return table


def measure(players: int, target: int, games: int) -> Lengths:
    rounds = turns = winning = 0
    scores: list[int] = []
    for number in range(games):
        table = play_bot_game(players, target, number.to_bytes(4, "big"))
        state = table.state
        rounds += state.round
        turns += state.turn
        winning += max(state.totals)
        scores.extend(state.totals)
    # Every round's scores add up to the final totals: the mean round score is total / rounds.
    return Lengths(
        players,
        target,
        games,
        rounds / games,
        turns / games,
        sum(scores) / players / rounds,
        winning / games,
    )


def random_play_speed(rounds: int = 100) -> tuple[float, float, float]:
    """(rounds per second, events per second, events per round) of random 4-player play."""
    played = events = 0
    start = time.perf_counter()
    seed = 0
    while played < rounds:
        seed += 1
        table = LocalTable(GAME, GAME.ruleset(4), seed.to_bytes(4, "big"), check=False)
        bot = RandomBot(seed.to_bytes(4, "big"))
        table.play_with([bot] * 4, until=lambda t: t.state.round > 10)
        played += table.state.round
        events += len(table.log)
    elapsed = time.perf_counter() - start
    return played / elapsed, events / elapsed, events / played


def replay_speed(games: int = 40) -> tuple[float, float]:
    """(games per second, events per game) replaying 4-player bot games with ``apply_unchecked``."""
    logs = [play_bot_game(4, 25, number.to_bytes(4, "big")).log for number in range(games)]
    start = time.perf_counter()
    for log in logs:
        state = GAME.setup(GAME.ruleset(4))
        for event in log:
            GAME.step(state)
            state = GAME.apply_unchecked(state, event)
    elapsed = time.perf_counter() - start
    return games / elapsed, sum(map(len, logs)) / games


def main(argv: list[str]) -> None:
    if argv[:1] == ["--speed"]:
        rounds, events, per_round = random_play_speed()
        print(
            f"random play, 4 players: {rounds:.0f} rounds/s, {events:.0f} events/s, "
            f"{per_round:.0f} events/round"
        )
        games, per_game = replay_speed()
        print(f"replaying 4-player bot games: {games:.0f} games/s, {per_game:.0f} events/game")
        return
    games = int(argv[0]) if argv else 100
    print("players target  rounds  turns  turns/round  round score  winner's score")
    for target in (25, 35):
        for players in (2, 3, 4):
            m = measure(players, target, games)
            print(
                f"{m.players:>7} {m.target:>6} {m.rounds:>7.2f} {m.turns:>6.1f}"
                f" {m.turns / m.rounds:>12.1f}"
                f" {m.round_score:>12.1f} {m.winning_score:>15.1f}"
            )


if __name__ == "__main__":  # pragma: no cover
    main(sys.argv[1:])
