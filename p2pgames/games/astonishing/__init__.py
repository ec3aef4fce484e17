"""Astonishing!: design a steampunk contraption, then astonish the World's Fair, 2–4 players.

The rules as implemented, the readings chosen where the rulebook is silent, and the tests that
prove each rule are in ``RULES.md`` beside this file.
"""

from p2pgames.games.astonishing.rules import Astonishing, AstonishingState

__all__ = ["GAME", "Astonishing", "AstonishingState"]

GAME = Astonishing()
