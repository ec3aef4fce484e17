"""The turn, steps 1–3 of the rulebook's "Turn Structure", and The Machine: the draws, the
discards chosen face down and revealed together, their resolution in Machine Order, each discard
going into its suit's conveyor, and the overflows after each resolution.

What a discard's card action does is ``card_actions.py``; step 4, the declarations and sets, and
step 5's end of the round are ``scoring.py``. ``rules.py`` calls these where its flow says.
"""

from __future__ import annotations

from typing import Any

from p2pgames.games.beltpunk.cards import MACHINE_ORDER, SUIT_OF
from p2pgames.games.beltpunk.state import BeltpunkState, Phase

__all__ = [
    "discard_into_the_machine",
    "overflow",
    "reveal_discards",
    "sort_in_machine_order",
    "start_turn",
]


def start_turn(state: BeltpunkState) -> None:
    """A new turn: the Foreman card passes clockwise (step 5; not before the game's first turn),
    then from the Foreman each player draws a card from the deck while it lasts (step 1)."""
    players = state.players
    if state.turn:
        # Every turn but the game's first, the Foreman passes clockwise (across rounds too).
        state.foreman = (state.foreman + 1) % players
    state.turn += 1
    drawers = []
    deck = state.deck
    for offset in range(players):
        if not deck:
            break  # the deck ran out: the remaining players draw nothing
        seat = (state.foreman + offset) % players
        slot = deck.pop(0)
        state.hands[seat].append(slot)
        state.cards.disclose((slot,), seat)
        drawers.append(seat)
    state.notes.append(("turn", state.turn, state.foreman, tuple(drawers)))
    state.phase = Phase.DISCARD


def reveal_discards(state: BeltpunkState, actions: tuple[tuple[int, Any], ...]) -> None:
    """Step 1's discards, chosen face down by everyone at once, out of the hands and revealed."""
    state.order = [(player, action.slot) for player, action in actions]
    for player, action in actions:
        state.hands[player].remove(action.slot)
    state.cards.reveal(action.slot for _, action in actions)
    state.phase = Phase.REVEALING


def sort_in_machine_order(state: BeltpunkState) -> None:
    """Step 2: the revealed discards resolve in Machine Order (by suit, then the lower number)."""
    revealed = state.cards.revealed
    state.order.sort(key=lambda pair: MACHINE_ORDER[revealed[pair[1]]])
    state.notes.append(("order", tuple(state.order)))
    state.resolving = 0


def discard_into_the_machine(state: BeltpunkState) -> None:
    """The discard now resolving goes into its suit's conveyor; its player may then use one of
    the card's actions."""
    player, slot = state.order[state.resolving]
    state.conveyors[SUIT_OF[state.cards.revealed[slot]]].append(slot)
    state.notes.append(("discard", player, slot))
    state.phase = Phase.ACTION


def overflow(state: BeltpunkState) -> None:
    """Step 3, after a discard's resolution: every conveyor holding more cards than there are
    players overflows into the resolving player's scrap pile."""
    player = state.order[state.resolving][0]
    players = state.players
    for suit, conveyor in enumerate(state.conveyors):
        if len(conveyor) > players:
            # Overflow: the whole conveyor, face down, into the resolving player's scrap pile.
            # Its values stay public: everyone saw them in The Machine.
            state.scrap[player].extend(conveyor)
            state.notes.append(("overflow", suit, player, len(conveyor)))
            conveyor.clear()
