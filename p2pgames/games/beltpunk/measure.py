"""How long games last: bot tables played to the end, for the figures in ``RULES.md``.

``python -m p2pgames.games.beltpunk.measure [GAMES]`` plays ``GAMES`` (default 100) games for each
player count and target with every seat played by :func:`bots.make_bot`, and prints the average
number of rounds and turns a game lasts and the average round score. Reproducible: game *n* uses
seed *n*.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from p2pgames.engine import LocalTable, Simultaneous

from p2pgames.games.beltpunk import GAME
from p2pgames.games.beltpunk.bots import make_bot

__all__ = ["Lengths", "measure", "main"]


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
    """One game between bots, played to the end without checks (the bots only choose legal moves)."""
    table = LocalTable(GAME, GAME.ruleset(players, {"target": target}), seed, check=False)
    bots = [make_bot(seed + bytes([seat])) for seat in range(players)]
    while not table.over:
        step = table.step()
        if isinstance(step, Simultaneous):
            table.act_simultaneous(
                [(seat, bots[seat].choose(GAME, table.state, seat, table.view(seat), step)) for seat in step.players]
            )
        else:
            seat = step.actors[0]
            table.act(seat, bots[seat].choose(GAME, table.state, seat, table.view(seat), step))
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
        players, target, games, rounds / games, turns / games, sum(scores) / players / rounds, winning / games
    )


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 100
    print("players target  rounds  turns  turns/round  round score  winner's score")
    for target in (25, 35):
        for players in (2, 3, 4):
            m = measure(players, target, games)
            print(
                f"{m.players:>7} {m.target:>6} {m.rounds:>7.2f} {m.turns:>6.1f} {m.turns / m.rounds:>12.1f}"
                f" {m.round_score:>12.1f} {m.winning_score:>15.1f}"
            )


if __name__ == "__main__":  # pragma: no cover
    main(sys.argv[1:])
