"""Steam Court: a trick-taking game of courtiers and engineers: 2–7 players at one table, 7–12 at
two (the Party variant), the Duo variant for two and the Solo variant for one.

The rules as implemented, the readings chosen where the rulebook is silent, and the tests that
prove each rule are in ``RULES.md`` beside this file.
"""

from p2pgames.games.steamcourt.rules import SteamCourt, SteamCourtState

__all__ = ["GAME", "SteamCourt", "SteamCourtState"]

GAME = SteamCourt()
