"""The actions of Steam Court: small immutable values that check their own shape.

Every action validates its field types and ranges when built and raises :class:`MalformedAction`
otherwise (actions arrive from the network); whether it is *legal* now is the rules' business
(:meth:`SteamCourt.check_action`). Cards are named by their slot, players by their seat. Each
``repr`` reads back as an equal action.

==================================  =============================================================
action                              when
==================================  =============================================================
``Lay(slots, value, quantity, m)``  on your turn: lay ``slots`` as ``quantity`` cards of
                                    ``value``; ``m`` is the slot of a Multiplier laid with them
``Masterstroke(slot)``              on your turn: lay a Masterstroke (ends the trick)
``Pass()``                          pass on your turn; decline a privilege or a power
``Give(slot, to)``                  Queen, General: give one card at the start of the quarter
``Bestow(slots, to)``               the 2015 Queen: give two cards at the start of the quarter
``Serve(slots, to)``                Tea Boy, Vagabond: give your two highest numbered cards
``Trade(trade)``                    Tea Boy: trade your hand for the Court Hand, or keep it
``TradeKeeping(slots)``             Tea Boy, his hand re-masked: trade it, keeping ``slots``
``Hoard(hoard)``                    Vagabond: take the whole Court Hand, or leave it
``Inspect(seat)``                   Inspector: look at the Court Hand and ``seat``'s hand
``Coup(slots)``                     right after the deal: reveal three Masterstrokes
``Stop(player)``                    General: stop the lay ``player`` just made
``Retrieve()``                      Time Traveler: take back your last lay of a lost trick
``Steal(slot)``                     Pirate: steal a numbered card from the finished trick
``Unpass(source)``                  a passed player: unpass (``"token"`` or ``"jester"``)
``DiscardTwo(slots)``               on your turn, with the Discard-two token
``Dive(pile, slot)``                Submariner, on your turn: reveal ``slot``, dive into ``pile``
``Plague()``                        Plague Doctor, on your turn: draw four from the discard pile
``PutBack(slot)``                   after a dive or the plague: put a drawn card back
``KeepRest()``                      … and keep the rest
==================================  =============================================================
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from p2pgames.engine import ActionCodec, MalformedAction, check_bool, check_seat, check_slot, check_slots

from p2pgames.games.steamcourt.cards import MAX_QUANTITY

__all__ = [
    "Lay",
    "Masterstroke",
    "Pass",
    "Give",
    "Bestow",
    "Serve",
    "Trade",
    "TradeKeeping",
    "Hoard",
    "Inspect",
    "Coup",
    "Stop",
    "Retrieve",
    "Steal",
    "Unpass",
    "DiscardTwo",
    "Dive",
    "Plague",
    "PutBack",
    "KeepRest",
    "Action",
    "MAX_SEATS",
    "PILES",
    "UNPASS_SOURCES",
    "encode_action",
    "check_lay",
    "KINDS",
    "decode_action",
]

MAX_SEATS = 12  # a Party game seats 7–12 players at two tables
PILES = ("court", "discard")
UNPASS_SOURCES = ("token", "jester")


def _check_seat(seat: Any, what: str) -> None:
    check_seat(seat, MAX_SEATS, what)


def check_lay(
    slots: Any, value: Any, quantity: Any, multiplier: Any, *, one_card_as: int | None
) -> None:
    """The fields of a lay: ``slots`` as ``quantity`` cards of ``value`` (1–12), with the
    Multiplier in ``multiplier`` (``None``: none). Without one, the quantity is the number of
    cards, except that one card may count as ``one_card_as`` (``None``: as any quantity); with
    one, it is at least the number of other cards, and a Multiplier alone is a single 1.
    Raises :class:`MalformedAction`."""
    check_slots(slots, 0, MAX_QUANTITY)
    if type(value) is not int or not 1 <= value <= 12:
        raise MalformedAction(f"value must be 1–12, not {value!r}")
    if type(quantity) is not int or not 1 <= quantity <= MAX_QUANTITY:
        raise MalformedAction(f"quantity must be 1–{MAX_QUANTITY}, not {quantity!r}")
    count = len(slots)
    if multiplier is None:
        if count == 0:
            raise MalformedAction("a lay needs at least one card")
        single = count == 1 and (one_card_as is None or quantity == one_card_as)
        if quantity != count and not single:
            raise MalformedAction(f"{count} cards without a Multiplier count as {count}, not {quantity}")
    else:
        check_slot(multiplier, "multiplier")
        if multiplier in slots:
            raise MalformedAction("the Multiplier is listed among the other cards")
        if count == 0 and (value, quantity) != (1, 1):
            raise MalformedAction("a Multiplier laid alone is a single 1")
        if quantity < count:
            raise MalformedAction(f"a Multiplier with {count} cards counts as at least {count}, not {quantity}")


@dataclass(frozen=True, slots=True)
class Lay:
    """Lay ``slots`` as ``quantity`` cards of ``value`` (1–12).

    ``multiplier`` is the slot of a Multiplier laid with them (``None``: none). Without one,
    ``quantity`` is the number of cards, or 2 for a single card (the Jester's trick). With one,
    ``quantity`` is the declared multiplicity, at least the number of other cards; a Multiplier
    alone is a single 1.
    """

    slots: tuple[int, ...]
    value: int
    quantity: int
    multiplier: int | None = None

    def __post_init__(self) -> None:
        check_lay(self.slots, self.value, self.quantity, self.multiplier, one_card_as=2)


@dataclass(frozen=True, slots=True)
class Masterstroke:
    """Lay the Masterstroke in ``slot``: it beats everything and ends the trick."""

    slot: int

    def __post_init__(self) -> None:
        check_slot(self.slot)


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass (sit out the rest of the trick), or decline a privilege or power offered now. A
    player's "not this quarter" is his own peer passing for him (RULES.md, I28): the same action."""


@dataclass(frozen=True, slots=True)
class Give:
    """Queen or General: give the card in ``slot`` to seat ``to``."""

    slot: int
    to: int

    def __post_init__(self) -> None:
        check_slot(self.slot)
        _check_seat(self.to, "to")


@dataclass(frozen=True, slots=True)
class Bestow:
    """The Queen of the 2015 rules: give the two cards in ``slots`` (in slot order) to seat ``to``."""

    slots: tuple[int, ...]
    to: int

    def __post_init__(self) -> None:
        check_slots(self.slots, 2, 2)
        _check_seat(self.to, "to")


@dataclass(frozen=True, slots=True)
class Serve:
    """Tea Boy or Vagabond: give ``slots`` (your two highest numbered cards) to seat ``to``."""

    slots: tuple[int, ...]
    to: int

    def __post_init__(self) -> None:
        check_slots(self.slots, 0, 2)
        _check_seat(self.to, "to")


@dataclass(frozen=True, slots=True)
class Trade:
    """Tea Boy: trade your hand for the Court Hand (``True``) or keep it."""

    trade: bool

    def __post_init__(self) -> None:
        check_bool(self.trade, "trade")


@dataclass(frozen=True, slots=True)
class TradeKeeping:
    """Tea Boy whose hand was re-masked after cards were given to him: trade it for the Court
    Hand, keeping ``slots`` (in slot order), the cards given to him that he still holds (a claim,
    checked at the quarter's audit; the table can't tell them apart in his hand any more)."""

    slots: tuple[int, ...]

    def __post_init__(self) -> None:
        check_slots(self.slots, 0, MAX_QUANTITY)  # the cards given him: at most a few


@dataclass(frozen=True, slots=True)
class Hoard:
    """Vagabond: add the whole Court Hand to your hand (``True``) or leave it."""

    hoard: bool

    def __post_init__(self) -> None:
        check_bool(self.hoard, "hoard")


@dataclass(frozen=True, slots=True)
class Inspect:
    """Inspector: look at the Court Hand and the hand of seat ``seat``."""

    seat: int

    def __post_init__(self) -> None:
        _check_seat(self.seat, "seat")


@dataclass(frozen=True, slots=True)
class Coup:
    """Reveal the three Masterstrokes you were dealt and seize the Queen's seat."""

    slots: tuple[int, ...]

    def __post_init__(self) -> None:
        check_slots(self.slots, 3, 3)


@dataclass(frozen=True, slots=True)
class Stop:
    """General: stop the lay ``player`` just made; the cards go back to their hand.

    Naming the player pins the stop to one lay: a stop can't come to mean another lay in transit.
    """

    player: int

    def __post_init__(self) -> None:
        _check_seat(self.player, "player")


@dataclass(frozen=True, slots=True)
class Retrieve:
    """Time Traveler: take back the last card or set you laid in the trick you just lost."""


@dataclass(frozen=True, slots=True)
class Steal:
    """Pirate: steal the numbered card in ``slot`` from the finished trick."""

    slot: int

    def __post_init__(self) -> None:
        check_slot(self.slot)


@dataclass(frozen=True, slots=True)
class Unpass:
    """Unpass with the Unpass token (``"token"``) or the Jester's power (``"jester"``)."""

    source: str

    def __post_init__(self) -> None:
        if self.source not in UNPASS_SOURCES:
            raise MalformedAction(f"source must be one of {UNPASS_SOURCES}, not {self.source!r}")


@dataclass(frozen=True, slots=True)
class DiscardTwo:
    """Discard two numbered cards (the Discard-two token)."""

    slots: tuple[int, ...]

    def __post_init__(self) -> None:
        check_slots(self.slots, 2, 2)


@dataclass(frozen=True, slots=True)
class Dive:
    """Submariner: reveal the numbered card in ``slot`` and dive into ``pile``."""

    pile: str
    slot: int

    def __post_init__(self) -> None:
        if self.pile not in PILES:
            raise MalformedAction(f"pile must be one of {PILES}, not {self.pile!r}")
        check_slot(self.slot)


@dataclass(frozen=True, slots=True)
class Plague:
    """Plague Doctor: shuffle the discard pile and draw four cards blind."""


@dataclass(frozen=True, slots=True)
class PutBack:
    """Put the drawn card in ``slot`` back into the pile it came from."""

    slot: int

    def __post_init__(self) -> None:
        check_slot(self.slot)


@dataclass(frozen=True, slots=True)
class KeepRest:
    """Keep every drawn card still in hand."""


Action = (
    Lay | Masterstroke | Pass | Give | Bestow | Serve | Trade | TradeKeeping | Hoard | Inspect | Coup | Stop | Retrieve
    | Steal | Unpass | DiscardTwo | Dive | Plague | PutBack | KeepRest
)

# Wire form: [kind, *fields], tuples as lists; kinds are short because every act is signed.
KINDS: dict[type, str] = {
    Lay: "lay",
    Masterstroke: "ms",
    Pass: "pass",
    Give: "give",
    Serve: "serve",
    Trade: "trade",
    TradeKeeping: "tradekeeping",
    Hoard: "hoard",
    Inspect: "inspect",
    Coup: "coup",
    Stop: "stop",
    Retrieve: "retrieve",
    Steal: "steal",
    Unpass: "unpass",
    DiscardTwo: "discard",
    Dive: "dive",
    Plague: "plague",
    PutBack: "putback",
    KeepRest: "keep",
}
CODEC = ActionCodec("Steam Court", KINDS)
encode_action = CODEC.encode
decode_action = CODEC.decode
