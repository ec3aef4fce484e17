"""The actions of Beltpunk Haberdasher: small immutable values that check their own shape.

Every action validates its field types and ranges when built and raises :class:`MalformedAction`
otherwise (actions arrive from the network); whether it is *legal* now is the rules' business
(:meth:`Beltpunk.check_action`). Cards are named by their slot in the round's deal, piles by the
seat that owns them, with ``None`` for The Machine. Each ``repr`` reads back as an equal action.

=====================  =====================================================================
action                 when
=====================  =====================================================================
``Discard(slot)``      every player, secretly: the card to discard into The Machine
``Draw()``             Steam, Electricity: draw the top card of the deck
``Look(pile)``         Parts, Electricity: look at a scrap pile (``None``: The Machine) …
``Pick(slot)``         … then draw any card of it
``Take(slot)``         Gears, Parts: take a card from any scrap pile …
``Place(slot)``        … then place a card from hand into that same pile
``Exchange(slot, with_seat)``  Gears, Steam: offer a card of yours to another player …
``Give(slot)``         … who chooses the card of theirs to give back
``Skip()``             decline the discarded card's action
``Declare(score)``     announce whether you will score a set this turn
``Score(slots)``       secretly: the set you score, slots in increasing order
=====================  =====================================================================
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from p2pgames.engine import ActionCodec, MalformedAction, check_seat, check_slot

from p2pgames.games.beltpunk.cards import LONGEST_SET

__all__ = [
    "Discard",
    "Draw",
    "Look",
    "Pick",
    "Take",
    "Place",
    "Exchange",
    "Give",
    "Skip",
    "Declare",
    "Score",
    "Action",
    "SUIT_ACTIONS",
    "MAX_SEATS",
    "encode_action",
    "decode_action",
]

MAX_SEATS = 4
def _check_seat(seat: Any, what: str) -> None:
    check_seat(seat, MAX_SEATS, what)


@dataclass(frozen=True, slots=True)
class Discard:
    """Choose the card in ``slot`` (from your hand) to discard into The Machine this turn."""

    slot: int

    def __post_init__(self) -> None:
        check_slot(self.slot)


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the top card of the deck (Steam or Electricity)."""


@dataclass(frozen=True, slots=True)
class Look:
    """Look at the scrap pile of seat ``pile`` (``None``: The Machine), then draw a card of it."""

    pile: int | None

    def __post_init__(self) -> None:
        if self.pile is not None:
            _check_seat(self.pile, "pile")


@dataclass(frozen=True, slots=True)
class Pick:
    """Draw the card in ``slot`` from the pile just looked at into your hand."""

    slot: int

    def __post_init__(self) -> None:
        check_slot(self.slot)


@dataclass(frozen=True, slots=True)
class Take:
    """Take the card in ``slot`` from the scrap pile (or conveyor) it lies in, into your hand."""

    slot: int

    def __post_init__(self) -> None:
        check_slot(self.slot)


@dataclass(frozen=True, slots=True)
class Place:
    """Place the card in ``slot`` from your hand into the pile you just took from."""

    slot: int

    def __post_init__(self) -> None:
        check_slot(self.slot)


@dataclass(frozen=True, slots=True)
class Exchange:
    """Offer the card in ``slot`` from your hand to seat ``with_seat`` for a card of theirs."""

    slot: int
    with_seat: int

    def __post_init__(self) -> None:
        check_slot(self.slot)
        _check_seat(self.with_seat, "with_seat")


@dataclass(frozen=True, slots=True)
class Give:
    """Give the card in ``slot`` from your hand to the player who asked for an exchange."""

    slot: int

    def __post_init__(self) -> None:
        check_slot(self.slot)


@dataclass(frozen=True, slots=True)
class Skip:
    """Decline the action of the card just discarded."""


@dataclass(frozen=True, slots=True)
class Declare:
    """Announce publicly whether you will score a set this turn."""

    score: bool

    def __post_init__(self) -> None:
        if type(self.score) is not bool:
            raise MalformedAction(f"score must be True or False, not {self.score!r}")


@dataclass(frozen=True, slots=True)
class Score:
    """Score the set made of the cards in ``slots`` (from your hand, in increasing order)."""

    slots: tuple[int, ...]

    def __post_init__(self) -> None:
        if type(self.slots) is not tuple:
            raise MalformedAction(f"slots must be a tuple of card slots, not {self.slots!r}")
        if not 2 <= len(self.slots) <= LONGEST_SET:
            raise MalformedAction(f"a set has 2–{LONGEST_SET} cards, not {len(self.slots)}")
        for slot in self.slots:
            check_slot(slot)
        if any(a >= b for a, b in zip(self.slots, self.slots[1:])):
            raise MalformedAction(
                f"a set's slots must be listed once each, increasing: {self.slots!r}"
            )


Action = Discard | Draw | Look | Pick | Take | Place | Exchange | Give | Skip | Declare | Score

# The two actions each suit's card allows (rulebook, "Card Actions"), by suit index.
SUIT_ACTIONS: tuple[tuple[type, type], ...] = (
    (Draw, Exchange),  # Steam
    (Take, Exchange),  # Gears
    (Look, Take),  # Parts
    (Draw, Look),  # Electricity
)

# Wire form: [kind, *fields]; the kinds are short because every act is signed and logged.
_KIND_OF = {
    Discard: "discard",
    Draw: "draw",
    Look: "look",
    Pick: "pick",
    Take: "take",
    Place: "place",
    Exchange: "exchange",
    Give: "give",
    Skip: "skip",
    Declare: "declare",
    Score: "score",
}
_CODEC = ActionCodec("Beltpunk", _KIND_OF)
encode_action = _CODEC.encode
decode_action = _CODEC.decode
