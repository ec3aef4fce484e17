"""Steam Court cheaters: real sessions behind real nodes that cheat at Steam Court in one way.

Each is an honest :class:`Session` (see :mod:`cheaters`) until the moment its cheat makes sense;
then, instead of the move its bot chose, it sends a validly signed submission with the cheat (with
the right counter), once, and goes on honestly. What a cheater sees of its own hand is what the
deal disclosed to it (its *knowledge*): nothing here peeks at other peers' secrets.

(:class:`cheaters.Honest` is an honest peer that only remembers what it did and saw, for the tests
to assert on.)
"""

from __future__ import annotations

from typing import Any

from cheaters import Cheater, GameCheater

from p2pgames.engine import IllegalAction
from p2pgames.games.steamcourt.actions import Coup, Lay, Masterstroke, Pass, Serve, Stop
from p2pgames.games.steamcourt.cards import KIND, MULTIPLIER, NUMBER, NUMBERED
from p2pgames.games.steamcourt.rules import Phase
from p2pgames.session import make_envelope
from p2pgames.session._replica import DecisionPhase


class SteamCheater(GameCheater):
    """A Steam Court player who replaces one of its moves by :meth:`instead`'s answer, once, in
    the ordinary way (its own session checks nothing a joiner sends: the host catches it)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cheat_character: str | None = None  # his character when he cheated
        self.cheat_based_on: int | None = None  # the submission's based_on

    # -- what the cheater knows --------------------------------------------------------------

    @property
    def table(self) -> Any:
        return self.state.tables[0]

    @property
    def character(self) -> str:
        return self.table.character_of(self.seat)

    def numbered(self) -> list[tuple[int, int]]:
        """(number, slot) of the numbered cards in our hand that we know, lowest first."""
        cards = []
        for slot in self.state.hands[self.seat]:
            name = self.name_of(slot)
            if name is not None and KIND[name] == NUMBERED:
                cards.append((NUMBER[name], slot))
        return sorted(cards)

    def my_turn(self) -> bool:
        table = self.table
        return self.state.phase == Phase.PLAYING and table.phase == Phase.TURN and table.turn == self.seat

    # -- cheating ------------------------------------------------------------------------------

    def _submit(self, body: dict, decision: bool = False) -> None:
        if not self.cheated and body.get("t") == "act" and self.stage == "playing":
            replacement = self.instead(self.game.decode_action(body["action"]))
            if replacement is not None:
                self.cheated = True
                self.cheat_action = replacement
                self.cheat_character = self.character
                self.cheat_seq = self.cheat_based_on = self.replica.seq
                body = {"t": "act", "action": self.game.encode_action(replacement)}
        super()._submit(body, decision)

    def send_late(self, action: Any, based_on: int) -> None:
        """Send ``action`` now, signed as made when ``based_on`` entries were applied."""
        body = {"t": "act", "action": self.game.encode_action(action)}
        envelope = make_envelope(self.identity, "submit", {
            "game_id": self.game_id,
            "seat": self.seat,
            "counter": self.replica.counters[self.seat],
            "based_on": based_on,
            "body": body,
        })
        self.cheated = True
        self.cheat_action = action
        self.cheat_character = self.character
        self.cheat_seq = self.replica.seq
        self.cheat_based_on = based_on
        self.cheat_raw = envelope.raw
        self.send_raw(envelope.raw)
        self.mark_in_flight(envelope, body, True)


class TeaBoyKeepsHisBest(SteamCheater):
    """The Tea Boy serves the Queen his two *lowest* numbered cards and keeps his best."""

    def instead(self, action: Any) -> Any:
        if type(action) is not Serve or self.character != "teaboy":
            return None
        numbered = self.numbered()
        if len(numbered) < 3 or numbered[-1][0] <= numbered[1][0]:
            return None  # nothing better to keep back: serving the lowest would be honest
        self.kept_back = numbered[-1][0]
        self.served = tuple(number for number, _ in numbered[:2])
        return Serve(tuple(sorted(slot for _, slot in numbered[:2])), action.to)


class CoupWithoutMasterstrokes(SteamCheater):
    """Claims a coup with three numbered cards when the coup window opens."""

    def instead(self, action: Any) -> Any:
        if type(action) is not Pass or self.table.phase != Phase.COUP:
            return None
        numbered = self.numbered()
        if len(numbered) < 3:
            return None
        self.seats_before = list(self.table.seats)
        self.coup_numbers = tuple(number for number, _ in numbered[:3])  # lowest first
        return Coup(tuple(sorted(slot for _, slot in numbered[:3])))


class UnlikeMultiplier(SteamCheater):
    """Lays a Multiplier with two unlike numbered cards, declared as cards of one value."""

    def instead(self, action: Any) -> Any:
        if not self.my_turn():
            return None
        hand = self.state.hands[self.seat]
        multipliers = [slot for slot in sorted(hand) if KIND.get(self.name_of(slot) or "", -1) == MULTIPLIER]
        numbered = self.numbered()
        if not multipliers or len({number for number, _ in numbered}) < 2:
            return None
        table = self.table
        if table.lays:
            quantity, top = table.quantity, table.lays[-1][2]
            if quantity < 2:
                return None  # a Multiplier with two cards counts as two at least
        else:
            quantity, top = 2, 0
        high = [(number, slot) for number, slot in numbered if number > top]
        if not high:
            return None
        value, slot = high[-1]
        other = next(s for number, s in numbered if number != value)
        slots = tuple(sorted((slot, other)))
        self.declared = (value, quantity)
        self.laid = tuple(NUMBER[self.name_of(s)] for s in slots)  # in slot order, as the lay lists them
        self.unlike = NUMBER[self.name_of(other)]  # the card that can't count as ``value``
        return Lay(slots, value, quantity, multipliers[0])


class CardNotHeld(SteamCheater):
    """Lays cards from another player's hand (slots that were never his)."""

    def instead(self, action: Any) -> Any:
        if not self.my_turn():
            return None
        table, hands = self.table, self.state.hands
        quantity = table.quantity or 1
        others = [p for p in table.seats if p != self.seat and len(hands[p]) >= quantity]
        if not others:
            return None
        self.victim = others[0]
        self.stolen = tuple(sorted(hands[self.victim])[:quantity])
        return Lay(self.stolen, 12, quantity)


class FalseValue(SteamCheater):
    """Lays one of his low cards declared as a 12 (the card revealed says otherwise)."""

    def instead(self, action: Any) -> Any:
        if not self.my_turn():
            return None
        table = self.table
        if table.lays and (table.quantity != 1 or table.lays[-1][2] >= 12):
            return None
        low = [(number, slot) for number, slot in self.numbered() if number < 12]
        if not low:
            return None
        self.laid = low[0][0]
        return Lay((low[0][1],), 12, 1)


class FakeMasterstroke(SteamCheater):
    """Lays his lowest numbered card as a Masterstroke (which would end the trick in his favour)."""

    def instead(self, action: Any) -> Any:
        if not self.my_turn() or not self.numbered():
            return None
        self.laid = self.numbered()[0][0]
        return Masterstroke(self.numbered()[0][1])


class GeneralStopsTooLate(SteamCheater):
    """The General declines to stop a lay, watches the next player lay, and stops after all.

    Each time his stop window opens he declines (keeping his once-a-quarter stop). Once a lay he
    declined has been followed in the same trick by another player's lay, and play has moved on
    to another player's turn (no stop window is open: a stop is illegal now), he sends a ``stop``:

    * ``late=False`` (a cheat): based on the newest entry — he has seen the next lay and
      everything since;
    * ``late=True`` (what an honest race looks like to the host): based on the entries before the
      next lay, as if he had sent it before that lay reached him and it arrived only now.
    """

    def __init__(self, late: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.late = late
        self.declined: tuple | None = None  # the lay he declined to stop: (player, slots)
        self.next_lay: tuple | None = None  # (seq of its entry, player, slots)

    def instead(self, action: Any) -> Any:
        table = self.table
        if table.phase == Phase.STOP and type(action) is Stop:
            return Pass()
        return None

    def _submit(self, body: dict, decision: bool = False) -> None:
        # Declining a stop is honest: it is not the cheat.
        if not self.cheated and body.get("t") == "act" and self.stage == "playing":
            if self.table.phase == Phase.STOP and self.declined is None:
                top = self.table.lays[-1]
                self.declined = (top[0], tuple(top[1]))
            replacement = self.instead(self.game.decode_action(body["action"]))
            if replacement is not None:
                body = {"t": "act", "action": self.game.encode_action(replacement)}
        Cheater._submit(self, body, decision)

    def _standing(self, lay: tuple | None) -> int:
        """The index of ``lay`` ((…, player, slots)) in the machine, or -1."""
        if lay is None:
            return -1
        for index, item in enumerate(self.table.lays):
            if (item[0], tuple(item[1])) == tuple(lay[-2:]):
                return index
        return -1

    def _after_apply(self, applied: Any) -> None:
        super()._after_apply(applied)
        if self.cheated or self.stage != "playing" or self.declined is None:
            return
        declined_at = self._standing(self.declined)
        if declined_at < 0:
            self.declined = self.next_lay = None  # the trick is over or the lay was stopped
            return
        lays = self.table.lays
        if self.next_lay is None:
            if len(lays) > declined_at + 1 and lays[declined_at + 1][0] != self.seat:
                after = lays[declined_at + 1]
                # applied.seq: the number of entries before the one that laid it.
                self.next_lay = (applied.seq, after[0], tuple(after[1]))
            return
        if self._standing(self.next_lay) < 0:
            return
        replica, table = self.replica, self.table
        if (
            self.role.in_flight is None
            and isinstance(replica.phase, DecisionPhase)
            and table.phase == Phase.TURN
            and self.seat not in replica.waiting_for()
        ):
            try:  # only a stop the rules refuse now is the cheat
                self.game.check_action(replica.state, self.seat, Stop(self.declined[0]))
                return
            except IllegalAction:
                pass
            self.send_late(Stop(self.declined[0]), based_on=self.next_lay[0] if self.late else replica.seq)
