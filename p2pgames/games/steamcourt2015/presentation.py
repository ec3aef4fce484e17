"""How the 2015 draft rules are shown: the published game's presentation
(:class:`~p2pgames.games.steamcourt.presentation.SteamCourtPresentation`, whose views ask
``state.book`` for the 2015 wording), with the Character Auction's bids, lines and screen
(``auction_texts.py``, ``views.py``) and the 2015 help. The rules import none of it."""

from __future__ import annotations

from typing import Any

from p2pgames.engine import IllegalAction, Knowledge
from p2pgames.games.steamcourt.actions import Pass
from p2pgames.games.steamcourt.presentation import SteamCourtPresentation
from p2pgames.games.steamcourt.state import SteamCourtState
from p2pgames.games.steamcourt2015 import GAME, views
from p2pgames.games.steamcourt2015.auction_texts import is_auction_note, narrate_auction, parse_bid
from p2pgames.games.steamcourt2015.rules import AUCTION, Bid, describe_bid

__all__ = ["PRESENTATION", "SteamCourt2015Presentation"]

_PASS = Pass()


class SteamCourt2015Presentation(SteamCourtPresentation):
    """The published game's moves, lines and panels in the 2015 words, the auction's, and the
    2015 help."""

    def describe_action(self, state: SteamCourtState, player: int, action: Any, knowledge: Knowledge, names: Any) -> str:
        if type(action) is Bid:
            return describe_bid(action.points)
        return super().describe_action(state, player, action, knowledge, names)

    def parse_action(self, state: SteamCourtState, player: int, text: str, knowledge: Knowledge, names: Any) -> Any:
        """As the published game's, and in the auction ``bid N`` / ``bid -N`` / ``pass``."""
        words = text.split()
        if state.phase == AUCTION and words and words[0].lower() in ("bid", "pass"):
            action: Any = _PASS if words[0].lower() == "pass" and len(words) == 1 else Bid(parse_bid(words[1:]))
            self.rules.check_action(state, player, action)
            return action
        if words and words[0].lower() == "bid":
            raise IllegalAction(player, "no character is being auctioned")
        return super().parse_action(state, player, text, knowledge, names)

    def narrate(self, before: SteamCourtState, event: Any, after: SteamCourtState, names: Any) -> list[str]:
        lines: list[str] = []
        auction = [note for note in after.notes if is_auction_note(note)]
        for note in auction:
            lines.extend(narrate_auction(after, note, names) or [])
        if len(auction) == len(after.notes):
            return lines
        return lines + super().narrate(before, event, after, names)

    def help_text(self) -> str:
        return views.HELP

    # -- the auction on screen -----------------------------------------------------------------

    def panels(
        self, state: SteamCourtState, viewer: int | None, knowledge: Knowledge, names: Any
    ) -> list[Any]:
        """While the Character Auction runs, its own screen (:func:`views.auction_panels`); after
        it, the published game's panels."""
        if state.phase == AUCTION:
            return views.auction_panels(self.rules, state, viewer, names)
        return super().panels(state, viewer, knowledge, names)


PRESENTATION = SteamCourt2015Presentation(GAME)
