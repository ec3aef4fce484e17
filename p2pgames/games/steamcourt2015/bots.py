"""The bot for the 2015 rules: the published game's courtier (its trick sense is the same), who
also chooses the Queen's two-card gift, declines the Plague Doctor's draw when it would only add
cards, and bids in the Character Auction by what a character is worth to it."""

from __future__ import annotations

from typing import Any

from p2pgames.engine import Game, Knowledge
from p2pgames.games.steamcourt.actions import Bestow, Pass, Plague
from p2pgames.games.steamcourt.bots import INDEX, MS, MX, CourtierBot, SeatView
from p2pgames.games.steamcourt2015.rules import Bid

__all__ = ["Courtier2015Bot", "make_bot", "character_worth"]


def make_bot(seed: bytes = b"") -> "Courtier2015Bot":
    """The 2015 rules' bot, reproducible from ``seed``."""
    return Courtier2015Bot(seed)


def character_worth(rank: int, players: int) -> int:
    """The negative points a character of court rank ``rank`` (0: the Queen) is worth bidding at
    ``players`` players: half the seats below it, rounded down. A higher seat takes a lower start
    token, but leads, gives its worst cards away and is served first; what that is worth in points
    is a first guess, not yet measured."""
    return max(0, (players - 1 - rank) // 2)


class Courtier2015Bot(CourtierBot):
    """:class:`CourtierBot` with the 2015 rules' own decisions (see the module)."""

    def _decide(self, game: Game, state: Any, player: int, knowledge: Knowledge, options: list) -> Any:
        kinds = {type(option) for option in options}
        if Bid in kinds:
            return self._bid(state, options)
        if Bestow in kinds:
            return self._bestow(game, state, player, knowledge, options)
        if kinds == {Plague, Pass}:
            return Pass()  # four drawn, two kept: two cards more to be rid of
        return super()._decide(game, state, player, knowledge, options)

    def _bid(self, state: Any, options: list) -> Any:
        auctioned = state.auctioned()
        worth = character_worth(state.offered, len(auctioned))
        bids = [option for option in options if type(option) is Bid]
        return bids[0] if bids and bids[0].points <= worth else Pass()

    def _bestow(self, game: Game, state: Any, player: int, knowledge: Knowledge, options: list) -> Any:
        view = SeatView(game, state, player, knowledge)
        gifts = [option for option in options if type(option) is Bestow]

        def gain(option: Bestow) -> float:
            names = [view.names.get(slot) for slot in option.slots]
            if any(name is None or INDEX[name] in (MX, MS) for name in names):
                return -10.0
            return view.cost - view.cost_of(view.after(option.slots))

        choice = self._best(gifts, gain)
        return choice if gain(choice) > 0.3 else Pass()
