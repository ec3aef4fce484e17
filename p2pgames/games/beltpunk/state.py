"""The state of a Beltpunk game: where every card lies, the place in the flow, and everything the
table has agreed on; its copy and its wire form.

``phase`` names the place in the flow drawn at the top of ``rules.py``; the rules change a copy of
the state (:meth:`Beltpunk.apply`), the views and bots only read it, asking the questions below.
"""

from __future__ import annotations

from typing import Any

from p2pgames.engine import CardState, GameState, Knowledge
from p2pgames.games.beltpunk.cards import SUIT_OF

__all__ = ["BeltpunkState", "Phase", "RESOLUTION_PHASES", "decode_state", "encode_state"]


class Phase:
    """Names of the places in the flow (plain strings: they are part of the hashed state)."""

    FIRST_FOREMAN = "first-foreman"
    DISCARD = "discard"
    REVEALING = "revealing"
    ACTION = "action"
    PICK = "pick"
    PLACE = "place"
    PLACING = "placing"
    GIVE = "give"
    DECLARE = "declare"
    SCORE = "score"
    SCORING = "scoring"
    AUDITING = "auditing"
    OVER = "over"


class BeltpunkState(GameState):
    """The public state. Mutable: :meth:`Beltpunk.apply` copies it, then changes the copy.

    Slots are listed bottom first in piles and conveyors, top first in the deck. ``notes`` is not
    part of the public state: it records what the last event did, for the log
    (:meth:`BeltpunkPresentation.narrate`).
    """

    __slots__ = (
        "players",
        "target",
        "cards",
        "phase",
        "round",
        "turn",
        "foreman",
        "deal",
        "deck",
        "hands",
        "conveyors",
        "scrap",
        "sets",
        "totals",
        "last_round",
        "opening",
        "order",
        "resolving",
        "pile",
        "placing",
        "offer",
        "partner",
        "declaring",
        "scorers",
        "scoring",
        "notes",
    )

    players: int  # seats, 2–4
    target: int  # points that end the game at the end of a round
    cards: CardState
    phase: str
    round: int  # rounds started (1 during the first round)
    turn: int  # turns started in the whole game
    foreman: int  # seat holding the Foreman card (-1 before it is chosen)
    deal: int  # this round's deal
    deck: list[int]
    hands: list[list[int]]
    conveyors: list[list[int]]  # by suit, in Machine Order
    scrap: list[list[int]]  # by seat, face down
    sets: list[list[tuple[int, ...]]]  # by seat: sets scored this round
    totals: list[int]  # running totals, including finished rounds only
    last_round: list[int]  # the last finished round's scores, by seat (empty before)
    opening: list[int]  # the round's first Machine cards, waiting for their values
    order: list[
        tuple[int, int]
    ]  # (seat, slot) of this turn's discards, in Machine Order once known
    resolving: int  # index into ``order`` of the discard being resolved
    pile: int | None  # the pile looked at or taken from (None: The Machine)
    placing: int  # slot being placed face up into The Machine, waiting for its value (-1: none)
    offer: int  # slot offered in an exchange (-1: none)
    partner: int  # seat asked to give a card in an exchange (-1: none)
    declaring: int  # how many seats have declared this turn (counting from the Foreman)
    scorers: list[int]  # seats that declared they will score this turn
    scoring: list[tuple[int, tuple[int, ...]]]  # (seat, slots) of sets being revealed
    notes: list[tuple]

    def copy(self) -> "BeltpunkState":
        other = BeltpunkState.__new__(BeltpunkState)
        other.players = self.players
        other.target = self.target
        other.cards = self.cards.copy()
        other.phase = self.phase
        other.round = self.round
        other.turn = self.turn
        other.foreman = self.foreman
        other.deal = self.deal
        other.deck = self.deck[:]
        other.hands = [hand[:] for hand in self.hands]
        other.conveyors = [conveyor[:] for conveyor in self.conveyors]
        other.scrap = [pile[:] for pile in self.scrap]
        other.sets = [sets[:] for sets in self.sets]
        other.totals = self.totals[:]
        other.last_round = self.last_round[:]
        other.opening = self.opening[:]
        other.order = self.order[:]
        other.resolving = self.resolving
        other.pile = self.pile
        other.placing = self.placing
        other.offer = self.offer
        other.partner = self.partner
        other.declaring = self.declaring
        other.scorers = self.scorers[:]
        other.scoring = self.scoring[:]
        other.notes = []
        return other

    # -- questions the rules, views and bots ask ----------------------------------------------

    @property
    def actor(self) -> int:
        """The seat whose discard is being resolved (-1 outside the resolution)."""
        if self.phase in RESOLUTION_PHASES:
            return self.order[self.resolving][0]
        return -1

    @property
    def declarer(self) -> int:
        """The seat that must declare now (-1 outside the declarations)."""
        if self.phase == Phase.DECLARE:
            return (self.foreman + self.declaring) % self.players
        return -1

    def value(self, slot: int, knowledge: Knowledge) -> str | None:
        """The card in ``slot`` if it is public or in ``knowledge``, else ``None``."""
        return self.cards.revealed.get(slot) or knowledge.get(slot)

    def pile_slots(self, pile: int | None) -> list[int]:
        """The slots of a scrap pile: The Machine's (``None``) is all four conveyors in order."""
        if pile is None:
            return [slot for conveyor in self.conveyors for slot in conveyor]
        return self.scrap[pile]

    def pile_of(self, slot: int) -> tuple[int | None, list[int]] | None:
        """``(pile, the list holding slot)`` for a card in a scrap pile or conveyor, or ``None``."""
        for conveyor in self.conveyors:
            if slot in conveyor:
                return None, conveyor
        for seat, pile in enumerate(self.scrap):
            if slot in pile:
                return seat, pile
        return None

    def leaders(self) -> tuple[int, ...]:
        """The seats with the most points in the running totals (the winners once it is over)."""
        best = max(self.totals)
        return tuple(seat for seat in range(self.players) if self.totals[seat] == best)

    def discarded_suit(self) -> int:
        """The suit of the card being resolved."""
        return SUIT_OF[self.cards.revealed[self.order[self.resolving][1]]]


# The places of a discard's resolution, its card action included.
RESOLUTION_PHASES = frozenset({Phase.ACTION, Phase.PICK, Phase.PLACE, Phase.PLACING, Phase.GIVE})


def encode_state(state: BeltpunkState) -> Any:
    """``state`` as plain data for the wire and the state hash (``notes`` left out)."""
    return {
        "players": state.players,
        "target": state.target,
        "cards": state.cards.encode(),
        "phase": state.phase,
        "round": state.round,
        "turn": state.turn,
        "foreman": state.foreman,
        "deal": state.deal,
        "deck": state.deck,
        "hands": state.hands,
        "conveyors": state.conveyors,
        "scrap": state.scrap,
        "sets": [[list(slots) for slots in sets] for sets in state.sets],
        "totals": state.totals,
        "last_round": state.last_round,
        "opening": state.opening,
        "order": [list(pair) for pair in state.order],
        "resolving": state.resolving,
        "pile": state.pile,
        "placing": state.placing,
        "offer": state.offer,
        "partner": state.partner,
        "declaring": state.declaring,
        "scorers": state.scorers,
        "scoring": [[seat, list(slots)] for seat, slots in state.scoring],
    }


def decode_state(data: Any) -> BeltpunkState:
    """The state :func:`encode_state` gave ``data`` for."""
    state = BeltpunkState.__new__(BeltpunkState)
    state.players = data["players"]
    state.target = data["target"]
    state.cards = CardState.decode(data["cards"])
    state.phase = data["phase"]
    state.round = data["round"]
    state.turn = data["turn"]
    state.foreman = data["foreman"]
    state.deal = data["deal"]
    state.deck = list(data["deck"])
    state.hands = [list(hand) for hand in data["hands"]]
    state.conveyors = [list(conveyor) for conveyor in data["conveyors"]]
    state.scrap = [list(pile) for pile in data["scrap"]]
    state.sets = [[tuple(slots) for slots in sets] for sets in data["sets"]]
    state.totals = list(data["totals"])
    state.last_round = list(data["last_round"])
    state.opening = list(data["opening"])
    state.order = [(seat, slot) for seat, slot in data["order"]]
    state.resolving = data["resolving"]
    state.pile = data["pile"]
    state.placing = data["placing"]
    state.offer = data["offer"]
    state.partner = data["partner"]
    state.declaring = data["declaring"]
    state.scorers = list(data["scorers"])
    state.scoring = [(seat, tuple(slots)) for seat, slots in data["scoring"]]
    state.notes = []
    return state
