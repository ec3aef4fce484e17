"""Helpers that put a Beltpunk table into a chosen position: stacked decks and named cards.

A :class:`StackedTable` is a :class:`LocalTable` whose deals come out in the order a test gives
(top of the deck first) and whose first Foreman is the seat a test names, so a scenario from the
rulebook can be played card by card; it keeps the log's lines in ``lines`` and each seat's own
(``narrate_private``, with what it could see then) in ``private[seat]``. Cards are named (``"S3"``) and found by name in the current
round's deal.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from p2pgames.engine import (
    DeterministicRandom,
    LocalTable,
    NewDeal,
    Simultaneous,
    Turn,
)
from p2pgames.games.beltpunk import GAME
from p2pgames.games.beltpunk.actions import Declare, Discard, Score
from p2pgames.games.beltpunk.cards import DECK, HAND_SIZE, MACHINE_ORDER, has_set
from p2pgames.games.beltpunk.presentation import PRESENTATION


def stacked_deck(
    players: int,
    hands: Sequence[Sequence[str]],
    machine: Sequence[str] = (),
    deck: Sequence[str] = (),
) -> list[str]:
    """A whole deal, top first: each seat's hand, The Machine's first cards, then the deck.

    Hands are filled up with unnamed cards chosen so as not to make a set the named cards don't
    already make; The Machine is filled with unnamed cards; the named ``deck`` cards come next,
    then every card not named anywhere (in reverse Machine Order).
    """
    named = [name for hand in hands for name in hand] + list(machine) + list(deck)
    assert len(set(named)) == len(named), f"a card is named twice: {named}"
    spare = [name for name in reversed(DECK) if name not in named]
    order: list[str] = []
    size = HAND_SIZE[players]
    for seat in range(players):
        hand = list(hands[seat]) if seat < len(hands) else []
        assert len(hand) <= size
        had_set = has_set(hand)
        for name in list(spare):
            if len(hand) == size:
                break
            if has_set(hand + [name]) == had_set:
                hand.append(name)
                spare.remove(name)
        assert len(hand) == size, "no filler keeps this hand free of sets"
        order.extend(hand)
    opening = list(machine)
    while len(opening) < players:
        opening.append(spare.pop(0))
    order.extend(opening)
    order.extend(deck)
    order.extend(spare)
    assert sorted(order) == sorted(DECK)
    return order


class StackedTable(LocalTable):
    """A local table whose deals follow ``decks`` (one full order per round, then random)."""

    def __init__(
        self,
        players: int,
        decks: Iterable[Sequence[str]] = (),
        *,
        first_foreman: int = 0,
        target: int = 25,
    ) -> None:
        self.decks = [list(deck) for deck in decks]
        self.first_foreman = first_foreman
        self.notes: list[tuple] = []
        self.lines: list[str] = []
        self.private: list[list[str]] = [[] for _ in range(players)]
        super().__init__(GAME, GAME.ruleset(players, {"target": target}), b"stacked")

    NAMES = ("alice", "bob", "carol", "dave")

    def feed(self, event) -> None:
        # Keep every event's notes and log lines, and each seat's private lines (with what it can
        # see then): tests look at what an event did and said, and to whom.
        before = self.state
        super().feed(event)
        names = self.NAMES[: self.ruleset.players]
        self.notes.extend(self.state.notes)
        self.lines.extend(PRESENTATION.narrate(before, event, self.state, names))
        for seat, lines in enumerate(self.private):
            lines.extend(PRESENTATION.narrate_private(before, event, self.state, seat, self.view(seat), names))

    def _seed(self) -> bytes:
        # The only chance step picks the first Foreman: find a seed that picks the wanted seat.
        for n in range(1000):
            seed = n.to_bytes(32, "big")
            if DeterministicRandom(seed).below(self.ruleset.players) == self.first_foreman:
                return seed
        raise AssertionError("no seed picks that Foreman")  # pragma: no cover

    def _stacked_order(self, operation: NewDeal):
        return self.decks.pop(0) if self.decks else None

    # -- naming cards --------------------------------------------------------------------------

    def slot(self, name: str) -> int:
        """The slot card ``name`` is in now, in the current round: its newest, since a hand
        re-masked moves its cards to new slots."""
        first = self.state.cards.deals[self.state.deal].first_slot
        slots = [slot for slot, value in self.truth.items() if value == name and slot >= first]
        if not slots:
            raise KeyError(name)
        return max(slots)

    def name(self, slot: int) -> str:
        return self.truth[slot]

    def names(self, slots: Iterable[int]) -> list[str]:
        return [self.truth[slot] for slot in slots]

    def hand(self, seat: int) -> list[str]:
        return sorted(self.names(self.state.hands[seat]), key=MACHINE_ORDER.__getitem__)

    def conveyor(self, suit: int) -> list[str]:
        return self.names(self.state.conveyors[suit])

    def legal(self, seat: int) -> list:
        return GAME.legal_actions(self.state, seat, self.view(seat))

    def texts(self, seat: int) -> list[str]:
        return [
            PRESENTATION.describe_action(self.state, seat, action, self.view(seat), self.NAMES)
            for action in self.legal(seat)
        ]

    # -- driving -------------------------------------------------------------------------------

    def discard(self, choices: dict[int, str]) -> None:
        """Every seat discards the named card (the simultaneous step)."""
        step = self.step()
        assert isinstance(step, Simultaneous), step
        self.act_simultaneous([(seat, Discard(self.slot(choices[seat]))) for seat in step.players])

    def declare_all(self, sets: dict[int, Sequence[str]] | None = None) -> None:
        """Declarations in order: seats in ``sets`` score those cards, the others say no."""
        sets = sets or {}
        while isinstance(self.step(), Turn) and self.state.phase == "declare":
            seat = self.state.declarer
            self.act(seat, Declare(seat in sets))
        if self.state.phase == "score" and sets:
            self.act_simultaneous(
                [
                    (seat, Score(tuple(sorted(self.slot(name) for name in sets[seat]))))
                    for seat in sets
                ]
            )


def return_to_deck(table: StackedTable, seat: int, names: Iterable[str]) -> None:
    """Move the named cards from ``seat``'s hand to the bottom of the deck (to force a position)."""
    for name in names:
        slot = table.slot(name)
        table.state.hands[seat].remove(slot)
        table.state.deck.append(slot)


def skip_all(table: StackedTable) -> None:
    """Resolve every remaining discard of the turn by declining its action."""
    from p2pgames.games.beltpunk.actions import Skip

    while table.state.phase == "action":
        table.act(table.state.actor, Skip())


def score(table: StackedTable, names: Iterable[str]) -> Score:
    return Score(tuple(sorted(table.slot(name) for name in names)))


def short_round(*, target: int = 25, totals: Sequence[int] = (0, 0, 0, 0)) -> StackedTable:
    """A 4-player round that alice ends on its second turn by scoring her last cards.

    She scores two Perfect Belts (5 + 5); the others keep six cards each, so the round scores
    +10, -6, -6, -6 on top of ``totals`` (set as if earlier rounds had banked them).
    """
    hands = [
        ["S1", "S2", "S3", "G5", "G6", "G7"],
        ["P1", "P4", "E7", "P10", "E13", "G12"],
        ["P2", "P5", "E8", "P11", "E12", "G13"],
        ["P3", "P6", "E9", "E10", "E11", "S13"],
    ]
    deck = ["E1", "G1", "G2", "G3", "P7", "P8", "P9", "E2"]
    table = StackedTable(
        4,
        [stacked_deck(4, hands, ["S10", "G10", "P12", "E5"], deck)],
        first_foreman=0,
        target=target,
    )
    table.state.totals = list(totals)
    table.discard({0: "E1", 1: "P1", 2: "P2", 3: "P3"})
    skip_all(table)
    table.declare_all({0: ["S1", "S2", "S3"]})
    table.discard({0: "E2", 1: "G12", 2: "G13", 3: "S13"})
    skip_all(table)
    table.declare_all({0: ["G5", "G6", "G7"]})
    return table
