"""Beltpunk Haberdasher: collect sets of factory cards for your tophat, 2–4 players.

The rules as implemented, the readings chosen where the rulebook is silent, and the tests that
prove each rule are in ``RULES.md`` beside this file.
"""

from p2pgames.games.beltpunk.rules import Beltpunk, BeltpunkState

__all__ = ["GAME", "Beltpunk", "BeltpunkState"]

GAME = Beltpunk()
