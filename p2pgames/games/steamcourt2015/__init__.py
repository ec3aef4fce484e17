"""Steam Court by its 2015 draft rules ("Steam Corset"): 3–10 players at one table or two, ten
characters with their 2015 privileges, five sets of gear tokens, and the Party variation.

Not yet offered to players (issue 12 in progress: the Character Auction and Random Characters
variations, its views, bots and RULES.md are still to come). The rules as implemented so far are
the module docstrings of ``rules.py`` and ``book.py``.
"""

from p2pgames.games.steamcourt2015.rules import SteamCourt2015

__all__ = ["GAME", "SteamCourt2015"]

GAME = SteamCourt2015()
