"""Steam Torpedo: tactical submarine combat for two players.

The rules as implemented, the readings chosen where the rulebook is silent, and the tests that
prove each rule are in ``RULES.md`` beside this file; the tiles are data in ``tiles.toml``.
"""

from p2pgames.games.torpedo.rules import Torpedo, TorpedoState

__all__ = ["GAME", "Torpedo", "TorpedoState"]

GAME = Torpedo()
