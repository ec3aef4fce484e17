"""Astonishing!'s public state: its fields, the places in the flow (:class:`Phase`), the suits by
index, and the questions every part of the rules (and the views and bots) asks of it.

The state is public: which slot lies where (deck, discard pile, hands, trade offers, the three
positions of every contraption) and everything the table has agreed on. Card values live in
``state.cards.revealed`` once public; a player's view of its own hidden cards is its *knowledge*.
"""

from __future__ import annotations

from typing import Any, Sequence

from p2pgames.engine import NO_KNOWLEDGE, CardState, GameState, Knowledge
from p2pgames.games.astonishing.cards import POSITIONS, descriptor_number, is_joker, suit_of, worth

__all__ = [
    "AstonishingState", "Phase", "CLUBS", "DIAMONDS", "HEARTS", "SPADES", "INTIMIDATE_BONUS", "INTIMIDATE_CAP",
    "encode_state", "decode_state",
]

CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
INTIMIDATE_BONUS = 2
INTIMIDATE_CAP = 15


class Phase:
    """Names of the places in the flow (plain strings: they are part of the hashed state)."""

    FIRST = "first"
    INVENTORS = "inventors"
    CHOOSE = "choose"
    OFFER = "offer"
    RESPOND = "respond"
    DECIDE = "decide"
    QUEEN = "queen"
    GIVE_BACK = "give-back"
    PICK = "pick"  # a random card is being taken: waiting for the chance
    BUILD = "build"
    DISCARD = "discard"
    REFILL = "refill"
    VOTE_END = "vote-end"
    CHOOSE_EXHIBIT = "choose-exhibit"  # the sealed choice of Queen or King
    DESCRIBE = "describe"
    VOTE = "vote"
    DICE = "dice"
    UNSEAL = "unseal"  # the sealed exhibition actions are opened
    REVEALING = "revealing"
    JACKS = "jacks"
    REROLL = "reroll"
    EXHIBIT_QUEEN = "exhibit-queen"
    REPLACING = "replacing"  # the Diamonds Queen's replacement part is being revealed
    EXHIBIT_KING = "exhibit-king"
    AUDITING = "auditing"
    OVER = "over"


# From the Jacks on, every contraption's positions are public (AstonishingState.positions_public).
_POSITIONS_PUBLIC = frozenset({
    Phase.JACKS, Phase.REROLL, Phase.EXHIBIT_QUEEN, Phase.REPLACING, Phase.EXHIBIT_KING, Phase.AUDITING, Phase.OVER,
})


# The public state's fields, in encoding order, with how each is copied: lists of plain values are
# copied one level deep, nested lists two (or three) levels. Keeping one table serves copy,
# encode and decode alike.
_FIELDS: tuple[tuple[str, int], ...] = (
    ("players", 0),
    ("early_end", 0),
    ("free_discard", 0),  # option: every player may discard at the end of a turn, not only those over six
    ("optional_replacement", 0),  # option: the Diamonds exhibition Queen may exchange nothing
    ("phase", 0),
    ("first", 0),  # seat that goes first in every step taken in turn (-1 before the draw)
    ("inventor", 1),  # suit index by seat (-1 until chosen)
    ("turn", 0),  # invention turns begun
    ("final", 0),  # this is the final invention turn
    ("deadline", 0),  # the deck ran out (or all agreed): the next turn is the final one
    ("deal", 0),
    ("deck", 1),  # slots, top first
    ("discard", 1),  # slots, bottom first, face up
    ("hands", 2),  # by seat, slots
    ("installed", 3),  # by seat, by position: slots face down (revealed at the exhibition)
    ("last_action", 1),  # by seat: the action card played last turn ("" on the first turn)
    ("action", 1),  # by seat: this turn's action card
    ("queue", 1),  # seats still to resolve in the current step taken in turn
    ("trader", 0),  # the trade's initiator (-1: none)
    ("offer", 1),  # the initiator's face-up slots
    ("answers", 2),  # by seat: [slot, face_up, slot, face_up …] (empty: no answer)
    ("owing", 1),  # seats that still owe an answer in this round of the trade
    ("taker", 0),  # seat taking cards in a Queen's effect (-1: none)
    ("source", 0),  # the random card's source: a seat, or -2 the discard pile's top five (-1 none)
    ("taken", 1),  # Hearts Queen: the slots taken this effect (one goes back)
    ("discarding", 1),  # seats discarding at the end of the turn (then: seats whose hand is empty)
    ("descriptions", 2),  # by seat: [n0, n1, n2] descriptor numbers (empty until described)
    ("pitches", 1),  # by seat
    ("exhibit", 1),  # by seat: "queen" / "king" ("" until opened after the dice)
    ("votes", 1),  # by seat: the seat voted for (-1 until chosen)
    ("jacks", 1),  # by seat: votes received and not yet used to re-roll
    ("dice", 1),
    ("rerolling", 0),  # die being re-rolled (-1: none)
    ("intimidated", 1),  # by seat: position counting 2 more (-1: none)
    ("sabotaged", 1),  # installed slots turned face down by the Spades Queen
    ("acclaim", 1),  # by seat: Acclaim from Kings
)


def _copy(value: Any, depth: int) -> Any:
    if depth == 0:
        return value
    return [_copy(item, depth - 1) for item in value]


class AstonishingState(GameState):
    """The public state. Mutable: :meth:`Astonishing.apply` copies it, then changes the copy.
    ``notes`` is not part of the public state: what the last event did, for the narration."""

    __slots__ = tuple(name for name, _ in _FIELDS) + ("cards", "notes")

    def copy(self) -> "AstonishingState":
        other = AstonishingState.__new__(AstonishingState)
        for name, depth in _FIELDS:
            setattr(other, name, _copy(getattr(self, name), depth))
        other.cards = self.cards.copy()
        other.notes = []
        return other

    # -- questions the rules, views and bots ask ----------------------------------------------

    def in_turn(self, seats: Sequence[int] | None = None) -> list[int]:
        """``seats`` (default: every seat) in the order of steps taken in turn: from the first
        player, clockwise."""
        order = [(self.first + step) % self.players for step in range(self.players)]
        return order if seats is None else [seat for seat in order if seat in seats]

    @property
    def positions_public(self) -> bool:
        """Whether every contraption's positions are public: from the Jacks on, once the
        exhibition turned every installed card up (a Diamonds Queen's replacement part is turned
        up as it goes in). Until then each player sees how many cards a position holds, and its
        own cards; from then on the fair shows them all, and the Acclaim they earn."""
        return self.phase in _POSITIONS_PUBLIC

    def value(self, slot: int, knowledge: Knowledge) -> str | None:
        """The card in ``slot`` if it is public or in ``knowledge``, else ``None``."""
        return self.cards.revealed.get(slot) or knowledge.get(slot)

    def answer_of(self, seat: int) -> list[tuple[int, bool]]:
        flat = self.answers[seat]
        return [(flat[i], flat[i + 1]) for i in range(0, len(flat), 2)]

    def owner_of_installed(self, slot: int) -> tuple[int, int] | None:
        """``(seat, position)`` of an installed slot, or ``None``."""
        for seat, positions in enumerate(self.installed):
            for position, slots in enumerate(positions):
                if slot in slots:
                    return seat, position
        return None

    def reliability(self, seat: int, position: int, knowledge: Knowledge = NO_KNOWLEDGE) -> int | None:
        """The position's reliability once its cards are public, or seen in ``knowledge`` (its
        owner's view of them): sabotaged cards don't count, Intimidate adds 2 up to 15; ``None``
        while a card in it is hidden."""
        total = 0
        for slot in self.installed[seat][position]:
            if slot in self.sabotaged:
                continue
            name = self.value(slot, knowledge)
            if name is None:
                return None
            total += worth(name, self.inventor[seat])
        if self.intimidated[seat] == position and total < INTIMIDATE_CAP:
            total = min(total + INTIMIDATE_BONUS, INTIMIDATE_CAP)
        return total

    def descriptor_numbers(self, seat: int, position: int, knowledge: Knowledge = NO_KNOWLEDGE) -> list[int]:
        """The descriptor numbers the cards installed in the position offer, as far as they are
        public or in ``knowledge``, increasing (a Joker offers none)."""
        return sorted({
            descriptor_number(name, self.inventor[seat])
            for slot in self.installed[seat][position]
            if (name := self.value(slot, knowledge)) is not None and not is_joker(name)
        })

    @property
    def demonstration(self) -> int:
        return sum(self.dice)

    def works(self, seat: int, position: int, demonstration: int | None = None) -> bool:
        """Whether the position works at the exhibition: it holds a card and its reliability is
        at least the demonstration number (a lower total fails) — the dice's, unless another
        ``demonstration`` is given (what a re-roll might give)."""
        if not self.installed[seat][position]:
            return False
        reliability = self.reliability(seat, position)
        wanted = self.demonstration if demonstration is None else demonstration
        return reliability is not None and reliability >= wanted

    def working(self, seat: int, demonstration: int | None = None) -> int:
        """How many of ``seat``'s positions work (see :meth:`works`)."""
        return sum(self.works(seat, position, demonstration) for position in range(POSITIONS))

    def score(self, seat: int) -> int:
        """Acclaim: 2 a working position, 1 a Jack held, and what Kings earned."""
        return 2 * self.working(seat) + self.jacks[seat] + self.acclaim[seat]

    def king_acclaim(self, seat: int, competitor: int) -> int:
        """What ``seat``'s King earns from ``competitor``'s invention: 1 for each card of its
        suit in a working position (a sabotaged card counts for nothing)."""
        count = 0
        for position in range(POSITIONS):
            if not self.works(competitor, position):
                continue
            for slot in self.installed[competitor][position]:
                name = self.cards.revealed.get(slot)
                if slot not in self.sabotaged and name and not is_joker(name) and suit_of(name) == self.inventor[seat]:
                    count += 1
        return count

    def queen_possible(self, seat: int) -> bool:
        """Whether ``seat``'s Invention Queen can do anything now (else it is skipped: "skipping
        any actions that are impossible without the deck")."""
        suit = self.inventor[seat]
        rivals = bool(self.rivals_with_cards(seat))
        if suit == DIAMONDS:
            return bool(self.deck)
        if suit == SPADES:
            return bool(self.deck or self.discard or rivals)
        return bool(self.deck or rivals)

    def all_positions_filled(self) -> bool:
        return all(all(slots for slots in positions) for positions in self.installed)

    def rivals_with_cards(self, seat: int) -> list[int]:
        return [other for other in self.in_turn() if other != seat and self.hands[other]]


def encode_state(state: AstonishingState) -> Any:
    """The public state as its encoding (:meth:`Game.encode_state`)."""
    encoded = {name: getattr(state, name) for name, _ in _FIELDS}
    encoded["cards"] = state.cards.encode()
    return encoded


def decode_state(data: Any) -> AstonishingState:
    """The state :func:`encode_state` encoded."""
    state = AstonishingState.__new__(AstonishingState)
    for name, depth in _FIELDS:
        setattr(state, name, _copy(data[name], depth))
    state.cards = CardState.decode(data["cards"])
    state.notes = []
    return state
