"""Steam Court (2015 draft) cheaters: real sessions behind real nodes that cheat in one way.

They are :class:`steamcourt_cheaters.SteamCheater` players (honest with their bot until the moment
the cheat makes sense, then one validly signed submission with the cheat instead of the bot's
move), at the 2015 rules. What a cheater sees of its own hand is what the deal disclosed to it
(its *knowledge*): nothing here peeks at other peers' secrets.

The Tea Boy's cheat is the published game's (:class:`steamcourt_cheaters.TeaBoyKeepsHisBest`):
the 2015 Tea Boy gives his two highest numbered cards to the highest player as the published one
does, and the claim is checked the same way.
"""

from __future__ import annotations

from typing import Any

from steamcourt_cheaters import SteamCheater, TeaBoyKeepsHisBest

from p2pgames.games.steamcourt.actions import KeepRest, Lay, Pass, Plague, PutBack, Retrieve
from p2pgames.games.steamcourt.rules import Phase
from p2pgames.games.steamcourt2015.rules import AUCTION, PLAGUE, Bid

__all__ = [
    "SteamCheater2015",
    "TeaBoyKeepsHisBest",
    "PlagueDoctorKeepsThree",
    "AlchemistLowersByOne",
    "PirateRetrievesFromAWonTrick",
    "BidThatDoesNotOutbid",
]


class SteamCheater2015(SteamCheater):
    """A :class:`SteamCheater` at the 2015 rules: it has no character during the Character
    Auction, and may :meth:`steer` — make a legal move of its own instead of the bot's — toward
    the moment its cheat needs (the bot declines some powers a cheat starts from)."""

    @property
    def table(self) -> Any:
        return self.state.table_of(self.seat)

    @property
    def character(self) -> str:
        if self.state.phase == AUCTION:
            return ""  # nobody sits at a table before the auction is over
        return self.table.character_of(self.seat)

    def _submit(self, body: dict, decision: bool = False) -> None:
        if not self.cheated and body.get("t") == "act" and self.stage == "playing":
            steered = self.steer(self.game.decode_action(body["action"]))
            if steered is not None:
                self.game.check_action(self.state, self.seat, steered)  # honest: a legal move
                body = {"t": "act", "action": self.game.encode_action(steered)}
        super()._submit(body, decision)


class PlagueDoctorKeepsThree(SteamCheater2015):
    """The Plague Doctor draws four from the Court Hand as the quarter starts, puts one back and
    keeps the other three: a ``keep`` while one more put-back is owed (he must keep two)."""

    def steer(self, action: Any) -> Any:
        # The bot declines the draw (two more cards to be rid of): take it, to cheat with it.
        if type(action) is Pass and self.table.phase == PLAGUE and self.character == "plaguedoctor":
            return Plague()
        return None

    def instead(self, action: Any) -> Any:
        table = self.table
        if type(action) is not PutBack or table.phase != Phase.RETURN or self.character != "plaguedoctor":
            return None
        if table.owed != 1:
            return None  # the first put-back is honest: the cheat keeps three of four
        self.kept = tuple(table.drawn)  # the three drawn cards he would keep
        return KeepRest()


class AlchemistLowersByOne(SteamCheater2015):
    """The Alchemist lays one numbered card declared one below its number (he may lower a card by
    exactly two): a lay of value v made with a card of v+1."""

    def instead(self, action: Any) -> Any:
        if not self.my_turn() or self.character != "alchemist":
            return None
        table = self.table
        if table.lays and table.quantity != 1:
            return None  # a single card follows only a trick of singles
        top = table.lays[-1][2] if table.lays else 0
        for number, slot in reversed(self.numbered()):
            value = number - 1  # neither his number nor two below it
            if value > top:
                self.laid = number
                return Lay((slot,), value, 1)
        return None


class PirateRetrievesFromAWonTrick(SteamCheater2015):
    """The Pirate, who takes back his cards from a trick he *lost*, sends a ``retrieve`` after a
    trick he won, when he is to lead the next one (no retrieve window is open for him)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.won_last_trick = False  # the last trick at his table ended with his lay on top
        self.lays_seen: list = []  # the lays in the machine after the last entry that had any
        self.won_lays: list = []  # the lays of the last trick he won (all of it: every player's)

    def _after_apply(self, applied: Any) -> None:
        super()._after_apply(applied)
        if self.state.phase != Phase.PLAYING:
            return
        for note in self.state.notes:
            if note[0] == "trick":
                self.won_last_trick = note[1] == self.seat
                if self.won_last_trick:
                    # The entry that ended the trick cleared the machine: it held what we saw last.
                    self.won_lays = self.lays_seen
        if self.table.lays:
            self.lays_seen = [[lay[0], list(lay[1]), *lay[2:]] for lay in self.table.lays]

    def instead(self, action: Any) -> Any:
        if not self.my_turn() or self.character != "pirate" or self.table.lays or not self.won_last_trick:
            return None
        if not self.state.can_use(self.seat, "retrieve"):
            return None  # used this quarter already: a retrieve now would be a second one
        self.used_before = list(self.state.used[self.seat])
        return Retrieve()


class BidThatDoesNotOutbid(SteamCheater2015):
    """In the Character Auction, bids as many points as the standing bid (a bid must outbid it)."""

    def instead(self, action: Any) -> Any:
        state = self.state
        if state.phase != AUCTION or not state.standing or state.bidder != self.seat:
            return None
        self.standing = tuple(state.standing)
        self.offered = state.auctioned()[state.offered]
        return Bid(state.standing[1])
