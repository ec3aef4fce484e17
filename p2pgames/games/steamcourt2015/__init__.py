"""Steam Court by its 2015 draft rules ("Steam Corset"): 3–10 players at one table or two, ten
characters with their 2015 privileges, five sets of gear tokens, and the Party variation.

Offered to players as ``steamcourt2015`` (issue 12 in progress: its views, bots and RULES.md are
still being written; until RULES.md is, the rules as implemented are the module docstrings of
``rules.py`` and ``book.py``). Its wire forms and state are protocol/SPEC.md §D7.
"""

from p2pgames.games.steamcourt2015.rules import SteamCourt2015

__all__ = ["GAME", "SteamCourt2015"]

GAME = SteamCourt2015()
