"""The bot for the 2015 rules: the published game's courtier (its trick sense is the same), who
also chooses the Queen's two-card gift, declines the Plague Doctor's draw when it would only add
cards, and bids in the Character Auction up to what a character was measured to be worth."""

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


# Points a character is worth, by player count: the mean final score of whoever held it in the
# first quarter above the lowest character's, rounded down (players reseat by going-out order after
# it, so a character is worth its first quarter and its start token). Measured by
# ``scripts/measure_steamcourt2015.py 400`` (400 bot games a count; standard errors 0.2–0.4 points);
# a character not listed is worth nothing more than the lowest.
WORTH: dict[int, dict[str, int]] = {
    3: {},
    4: {"alchemist": 1},
    5: {"alchemist": 2, "teaboy": 1},
    6: {"queen": 1, "alchemist": 2, "inspector": 1, "teaboy": 2},
    7: {"queen": 1, "alchemist": 1, "pirate": 2, "teaboy": 2},
    8: {"queen": 2, "duke": 1, "alchemist": 3},
    9: {"queen": 4, "duke": 2, "alchemist": 4, "teaboy": 1, "pirate": 1},
    10: {"queen": 6, "general": 3, "duke": 3, "alchemist": 5, "teaboy": 3, "submariner": 2, "pirate": 1},
}


def character_worth(name: str, players: int) -> int:
    """The negative points the bot bids up to for character ``name`` at ``players`` players."""
    return WORTH.get(players, {}).get(name, 0)


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
        worth = character_worth(state.auctioned()[state.offered], state.players)
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
