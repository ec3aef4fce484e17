"""Steam Court by its 2015 draft rules ("Steam Corset"): 3–10 players at one table or two, ten
characters with their 2015 privileges, five sets of gear tokens, and the Party variation.

Offered to players as ``steamcourt2015``. The rules as implemented, with the test of each and the
readings chosen where the draft is silent, are in ``RULES.md`` beside this file (which also says
what is not done yet); its wire forms and state are protocol/SPEC.md §D7.
"""

from p2pgames.games.steamcourt2015.rules import SteamCourt2015

__all__ = ["GAME", "SteamCourt2015"]

GAME = SteamCourt2015()
