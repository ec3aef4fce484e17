"""Bots for the 2015 rules: the published game's courtier, whose trick sense is the same (moves
it doesn't rate, such as the Queen's two-card gift, fall to the game's playout policy)."""

from p2pgames.games.steamcourt.bots import CourtierBot, make_bot

__all__ = ["CourtierBot", "make_bot"]
