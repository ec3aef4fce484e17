"""The actions of Astonishing!: small immutable values that check their own shape.

Every action validates its fields when built and raises :class:`MalformedAction` otherwise
(actions arrive from the network); whether it is *legal* now is the rules' business
(:meth:`Astonishing.check_action`). Cards are named by their slot in the deal, players by seat,
positions 0–2, dice 0–2. Each ``repr`` reads back as an equal action.

===============================  =================================================================
action                           when
===============================  =================================================================
``ChooseInventor(suit)``         setup, in turn: the Inventor (and suit) you play
``ChooseAction(card)``           every player, secretly: this turn's action card (jack/queen/king)
``Offer(slots)``                 a trade's initiator lays 1–2 cards face up (again: revises it)
``NoTrade()``                    a Jack's player initiates no trade (the Jack is the way to pass)
``Answer(slots, face_up)``       answer a trade with 1–2 cards, each face up or face down
``Stand()``                      keep your answer as it is when asked again
``Decline()``                    answer nothing (withdraws your answer, if you had one)
``Accept(seat)``                 the initiator takes ``seat``'s answer: the cards change hands
``Reopen()``                     the initiator asks every other player to answer again
``Withdraw()``                   the initiator withdraws the offer: no trade
``DrawTwo()``                    Clubs Queen: two cards from the deck
``TakeFrom(rival)``              Clubs / Hearts / Spades Queen: a random card from ``rival``'s hand
                                 (with the deck draws the Queen gives)
``TakeFromDiscard()``            Spades Queen: a deck card and a random one of the top five discards
``BuyResources(slots)``          Diamonds Queen: discard 0–2 cards, draw one more
``GiveBack(slot)``               Hearts Queen: the card of the three that goes to the rival
``Build(position, slots, scrap)``  every King, secretly: install 1–2 cards face down in a position,
                                 first discarding the installed ``scrap``
``OnlyJokers()``                a King (or the Diamonds Queen at the exhibition) whose hand holds
                                 only Jokers, which can't be installed (checked at the audit)
``DiscardCard(slot)``            end of turn, over six cards: discard one (a Joker never)
``KeepRest()``                   end of turn: keep the rest once down to six
``Refill(draw)``                 end of turn, an empty hand: draw a card from the deck, or not
``EndInvention(agree)``          option: every position filled, end invention early (unanimous)
``ExhibitCard(card)``            exhibition, every player, sealed: Queen or King, face down until
                                 after the dice
``Describe(numbers, pitch)``     exhibition, in turn: a descriptor per position (0: empty), a pitch
``Vote(seat)``                   exhibition, every player at once: the competitor your Jack goes to
``Reroll(die)``                  a Jack held: discard it to roll ``die`` again
``KeepDice()``                   keep the remaining Jacks (1 Acclaim each)
``Intimidate(position)``         Clubs Queen: a position counts 2 more (up to 15)
``ReplacePart(installed, replacement)``  Diamonds Queen: swap an installed Diamond for a hand card
``KeepParts()``                  Diamonds Queen, with the ``optional_replacement`` option: swap nothing
``SwayCrowd(die, value)``        Hearts Queen: turn a die by 1 or 2
``Sabotage(slot)``               Spades Queen: turn an installed Spade worth 7 or less face down
``Promote(competitor)``          a King: Acclaim for your suit in ``competitor``'s working positions
===============================  =================================================================
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from p2pgames.engine import ActionCodec, MalformedAction, check_bool, check_seat, check_slot, check_slots

from p2pgames.games.astonishing.cards import ACE_WORTH, POSITION_CAPACITY, POSITIONS

__all__ = [
    "ChooseInventor",
    "ChooseAction",
    "Offer",
    "NoTrade",
    "Answer",
    "Stand",
    "Decline",
    "Accept",
    "Reopen",
    "Withdraw",
    "DrawTwo",
    "TakeFrom",
    "TakeFromDiscard",
    "BuyResources",
    "GiveBack",
    "Build",
    "OnlyJokers",
    "DiscardCard",
    "KeepRest",
    "Refill",
    "EndInvention",
    "ExhibitCard",
    "Describe",
    "Vote",
    "Reroll",
    "KeepDice",
    "Intimidate",
    "ReplacePart",
    "KeepParts",
    "SwayCrowd",
    "Sabotage",
    "Promote",
    "Action",
    "ACTION_CARDS",
    "EXHIBITION_CARDS",
    "MAX_SEATS",
    "PITCH_LIMIT",
    "encode_action",
    "decode_action",
]

MAX_SEATS = 4
ACTION_CARDS = ("jack", "queen", "king")
EXHIBITION_CARDS = ("queen", "king")
PITCH_LIMIT = 200  # characters of an exhibition pitch line


def _seat(seat: Any, what: str) -> None:
    check_seat(seat, MAX_SEATS, what)


def _index(value: Any, limit: int, what: str) -> None:
    if type(value) is not int or not 0 <= value < limit:
        raise MalformedAction(f"{what} must be 0–{limit - 1}, not {value!r}")


@dataclass(frozen=True, slots=True)
class ChooseInventor:
    """Play the Inventor of ``suit`` (0 Clubs, 1 Diamonds, 2 Hearts, 3 Spades)."""

    suit: int

    def __post_init__(self) -> None:
        _index(self.suit, 4, "suit")


@dataclass(frozen=True, slots=True)
class ChooseAction:
    """This turn's action card: ``"jack"`` (trade), ``"queen"`` (special effect) or ``"king"``."""

    card: str

    def __post_init__(self) -> None:
        if self.card not in ACTION_CARDS:
            raise MalformedAction(f"an action card is jack, queen or king, not {self.card!r}")


@dataclass(frozen=True, slots=True)
class Offer:
    """Lay the cards in ``slots`` (1–2, from your hand) face up as your trade offer."""

    slots: tuple[int, ...]

    def __post_init__(self) -> None:
        check_slots(self.slots, 1, 2)


@dataclass(frozen=True, slots=True)
class NoTrade:
    """Initiate no trade with your Jack."""


@dataclass(frozen=True, slots=True)
class Answer:
    """Answer the trade offer with the cards in ``slots`` (1–2, from your hand, increasing);
    ``face_up[i]`` says whether ``slots[i]`` lies face up (the others see it) or face down."""

    slots: tuple[int, ...]
    face_up: tuple[bool, ...]

    def __post_init__(self) -> None:
        check_slots(self.slots, 1, 2)
        if type(self.face_up) is not tuple or len(self.face_up) != len(self.slots):
            raise MalformedAction(f"face_up must say face up or down for each of the {len(self.slots)} card(s), not {self.face_up!r}")
        for up in self.face_up:
            check_bool(up, "face_up")


@dataclass(frozen=True, slots=True)
class Stand:
    """Keep your answer to the trade as it is."""


@dataclass(frozen=True, slots=True)
class Decline:
    """Answer the trade with nothing (taking back any answer you had given)."""


@dataclass(frozen=True, slots=True)
class Accept:
    """Accept ``seat``'s answer: your offered cards go to them, theirs come to you."""

    seat: int

    def __post_init__(self) -> None:
        _seat(self.seat, "seat")


@dataclass(frozen=True, slots=True)
class Reopen:
    """Ask every other player to answer your offer again (they may revise, reveal or stand)."""


@dataclass(frozen=True, slots=True)
class Withdraw:
    """Withdraw your trade offer: nothing changes hands."""


@dataclass(frozen=True, slots=True)
class DrawTwo:
    """Clubs Queen (Capture Resources): draw two cards from the deck."""


@dataclass(frozen=True, slots=True)
class TakeFrom:
    """Clubs Queen: one card from the deck and one at random from ``rival``'s hand. Hearts Queen:
    one at random from ``rival``'s hand and two from the deck. Spades Queen: one from the deck,
    then one at random from ``rival``'s hand."""

    rival: int

    def __post_init__(self) -> None:
        _seat(self.rival, "rival")


@dataclass(frozen=True, slots=True)
class TakeFromDiscard:
    """Spades Queen: one card from the deck, then one at random from the top five discards."""


@dataclass(frozen=True, slots=True)
class BuyResources:
    """Diamonds Queen (Buy Resources): discard the cards in ``slots`` (0–2), draw one more."""

    slots: tuple[int, ...]

    def __post_init__(self) -> None:
        check_slots(self.slots, 0, 2)


@dataclass(frozen=True, slots=True)
class GiveBack:
    """Hearts Queen: give the card in ``slot`` (one of the three just taken) to the rival."""

    slot: int

    def __post_init__(self) -> None:
        check_slot(self.slot)


@dataclass(frozen=True, slots=True)
class Build:
    """Install the cards in ``slots`` (1–2, from your hand) face down in ``position``, after
    discarding the installed cards ``scrap`` of that position (face up) to make room."""

    position: int
    slots: tuple[int, ...]
    scrap: tuple[int, ...]

    def __post_init__(self) -> None:
        _index(self.position, POSITIONS, "position")
        check_slots(self.slots, 1, POSITION_CAPACITY)
        check_slots(self.scrap, 0, POSITION_CAPACITY, "scrap")


@dataclass(frozen=True, slots=True)
class OnlyJokers:
    """Your hand holds nothing but Jokers, which can't be installed: your King can't build, your
    Diamonds Queen has no replacement part (checked at the audit)."""


@dataclass(frozen=True, slots=True)
class DiscardCard:
    """Discard the card in ``slot`` from your hand, face up."""

    slot: int

    def __post_init__(self) -> None:
        check_slot(self.slot)


@dataclass(frozen=True, slots=True)
class KeepRest:
    """Keep the cards left in your hand (six or fewer)."""


@dataclass(frozen=True, slots=True)
class Refill:
    """Your hand is empty at the end of the turn: ``draw`` a card from the deck, or not."""

    draw: bool

    def __post_init__(self) -> None:
        check_bool(self.draw, "draw")


@dataclass(frozen=True, slots=True)
class EndInvention:
    """Whether you agree to end the Invention phase now (every position of every player holds a
    card): if everyone agrees, one final turn follows."""

    agree: bool

    def __post_init__(self) -> None:
        check_bool(self.agree, "agree")


@dataclass(frozen=True, slots=True)
class Describe:
    """Describe your contraption: ``numbers[p]`` is the descriptor of position ``p`` — the number
    of one card installed there (1–10, or 11 for your own Ace), 0 for an empty position — and
    ``pitch`` a line of your own for the crowd (may be empty)."""

    numbers: tuple[int, ...]
    pitch: str = ""

    def __post_init__(self) -> None:
        if type(self.numbers) is not tuple or len(self.numbers) != POSITIONS:
            raise MalformedAction(f"numbers must give a descriptor for each of the {POSITIONS} positions, not {self.numbers!r}")
        for number in self.numbers:
            if type(number) is not int or not 0 <= number <= ACE_WORTH:
                raise MalformedAction(f"a descriptor number is 0 (empty position) or 1–{ACE_WORTH}, not {number!r}")
        if type(self.pitch) is not str or len(self.pitch) > PITCH_LIMIT:
            raise MalformedAction(f"a pitch is a line of at most {PITCH_LIMIT} characters")
        if any(not ch.isprintable() for ch in self.pitch) or self.pitch != self.pitch.strip():
            raise MalformedAction("a pitch is one line of printable text, without spaces around it")


@dataclass(frozen=True, slots=True)
class ExhibitCard:
    """Your exhibition action, chosen first and kept face down (a sealed choice) until the dice
    have been rolled: ``card`` is ``"queen"`` or ``"king"``."""

    card: str

    def __post_init__(self) -> None:
        if self.card not in EXHIBITION_CARDS:
            raise MalformedAction(f"an exhibition action is queen or king, not {self.card!r}")


@dataclass(frozen=True, slots=True)
class Vote:
    """Your public vote at the exhibition: your Jack goes to ``seat``'s invention (never yours)."""

    seat: int

    def __post_init__(self) -> None:
        _seat(self.seat, "vote")


@dataclass(frozen=True, slots=True)
class Reroll:
    """Discard a Jack you hold to roll die ``die`` (0–2) again."""

    die: int

    def __post_init__(self) -> None:
        _index(self.die, 3, "die")


@dataclass(frozen=True, slots=True)
class KeepDice:
    """Use no more Jacks: each one you still hold is worth 1 Acclaim."""


@dataclass(frozen=True, slots=True)
class Intimidate:
    """Clubs Queen (Intimidate): ``position`` of your invention counts 2 more (up to 15)."""

    position: int

    def __post_init__(self) -> None:
        _index(self.position, POSITIONS, "position")


@dataclass(frozen=True, slots=True)
class ReplacePart:
    """Diamonds Queen (Replacement Part): exchange the Diamond in ``installed`` (on any
    invention) for the card in ``replacement`` from your hand, which takes its place."""

    installed: int
    replacement: int

    def __post_init__(self) -> None:
        check_slot(self.installed, "installed")
        check_slot(self.replacement, "replacement")


@dataclass(frozen=True, slots=True)
class KeepParts:
    """Diamonds Queen (Replacement Part), with the ``optional_replacement`` option: exchange no
    installed Diamond (the rulebook's "You may exchange")."""


@dataclass(frozen=True, slots=True)
class SwayCrowd:
    """Hearts Queen (Sway the Crowd): turn die ``die`` (0–2) to ``value``, 1 or 2 from what it shows."""

    die: int
    value: int

    def __post_init__(self) -> None:
        _index(self.die, 3, "die")
        if type(self.value) is not int or not 1 <= self.value <= 6:
            raise MalformedAction(f"a die shows 1–6, not {self.value!r}")


@dataclass(frozen=True, slots=True)
class Sabotage:
    """Spades Queen (Saboteur's Gambit): turn the installed Spade in ``slot`` (worth 7 or less)
    face down; it no longer counts."""

    slot: int

    def __post_init__(self) -> None:
        check_slot(self.slot)


@dataclass(frozen=True, slots=True)
class Promote:
    """A King: earn 1 Acclaim for each card of your suit in ``competitor``'s working positions."""

    competitor: int

    def __post_init__(self) -> None:
        _seat(self.competitor, "competitor")


Action = (
    ChooseInventor | ChooseAction | Offer | NoTrade | Answer | Stand | Decline | Accept | Reopen | Withdraw
    | DrawTwo | TakeFrom | TakeFromDiscard | BuyResources | GiveBack | Build | OnlyJokers | DiscardCard
    | KeepRest | Refill | EndInvention | ExhibitCard | Describe | Vote | Reroll | KeepDice | Intimidate | ReplacePart
    | KeepParts | SwayCrowd
    | Sabotage | Promote
)

# Wire form: [kind, *fields]; short kinds, as every act is signed and logged.
_KIND_OF = {
    ChooseInventor: "inventor",
    ChooseAction: "action",
    Offer: "offer",
    NoTrade: "no-trade",
    Answer: "answer",
    Stand: "stand",
    Decline: "decline",
    Accept: "accept",
    Reopen: "reopen",
    Withdraw: "withdraw",
    DrawTwo: "draw-two",
    TakeFrom: "take-from",
    TakeFromDiscard: "take-discard",
    BuyResources: "buy",
    GiveBack: "give-back",
    Build: "build",
    OnlyJokers: "only-jokers",
    DiscardCard: "discard",
    KeepRest: "keep-rest",
    Refill: "refill",
    EndInvention: "end-invention",
    ExhibitCard: "exhibit-card",
    Describe: "describe",
    Vote: "vote",
    Reroll: "reroll",
    KeepDice: "keep-dice",
    Intimidate: "intimidate",
    ReplacePart: "replace",
    KeepParts: "keep-parts",
    SwayCrowd: "sway",
    Sabotage: "sabotage",
    Promote: "promote",
}
_CODEC = ActionCodec("Astonishing!", _KIND_OF, sequence_fields=("slots", "face_up", "scrap", "numbers"))
encode_action = _CODEC.encode
decode_action = _CODEC.decode
