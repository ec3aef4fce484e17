"""Card actions, as the rulebook's "Card Actions" gives them: when a discard resolves, its player
may use one of its suit's two actions (``SUIT_ACTIONS``) or skip.

- **Draw** a card from the deck.
- **Look and draw**: look at a scrap pile (The Machine's conveyors are one), then draw one of its
  cards (a :class:`Look`, then a :class:`Pick`).
- **Take and place**: take a card from a scrap pile, then place one from hand into that pile, face
  up into its conveyor if the pile is The Machine, face down otherwise (a :class:`Take`, then a
  :class:`Place`).
- **Exchange** a card of one's hand with one of another player's, which that player chooses (an
  :class:`Exchange`, then the other player's :class:`Give`).

A hand that takes in a card another seat knows is re-masked (:func:`remask`). What comes after a
resolution, the overflows, is ``turn.py``; ``rules.py`` calls these where its flow says.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from p2pgames.engine import IllegalAction
from p2pgames.games.beltpunk.actions import (
    SUIT_ACTIONS,
    Draw,
    Exchange,
    Give,
    Look,
    Pick,
    Place,
    Skip,
    Take,
)
from p2pgames.games.beltpunk.cards import SUIT_OF
from p2pgames.games.beltpunk.state import BeltpunkState, Phase

__all__ = ["action_options", "has_an_action", "place_into_the_machine", "remask", "resolve"]

# Actions are immutable: the ones offered again and again are kept (a few rounds' worth).
_take = lru_cache(maxsize=512)(Take)
_exchange = lru_cache(maxsize=2048)(Exchange)
_looks = {pile: Look(pile) for pile in (None, *range(4))}
_DRAW, _SKIP = Draw(), Skip()


def action_options(state: BeltpunkState, player: int) -> list[Any]:
    """The actions the discard being resolved offers its player: its suit's two, or skip."""
    options: list[Any] = []
    for kind in SUIT_ACTIONS[state.discarded_suit()]:
        if kind is Draw:
            if state.deck:
                options.append(_DRAW)
        elif kind is Look:
            if any(state.conveyors):
                options.append(_looks[None])
            scrap = state.scrap
            options.extend(_looks[seat] for seat in range(state.players) if scrap[seat])
        elif kind is Take:
            for pile in state.conveyors:
                options.extend(map(_take, pile))
            for pile in state.scrap:
                options.extend(map(_take, pile))
        else:  # Exchange
            hands = state.hands
            partners = [seat for seat in range(state.players) if seat != player and hands[seat]]
            options.extend(_exchange(slot, seat) for slot in hands[player] for seat in partners)
    options.append(_SKIP)
    return options


def has_an_action(state: BeltpunkState, player: int) -> bool:
    """Whether the discard being resolved allows ``player`` any action besides skipping."""
    for kind in SUIT_ACTIONS[state.discarded_suit()]:
        if kind is Draw and state.deck:
            return True
        if kind is Look or kind is Take:
            # The discarded card itself is in The Machine.
            return True
        if kind is Exchange and state.hands[player]:
            if any(state.hands[seat] for seat in range(state.players) if seat != player):
                return True
    return False


def resolve(state: BeltpunkState, player: int, action: Any) -> bool:
    """Do ``player``'s card action ``action``, or its second half; whether the discard's
    resolution is over with it (not after a look, a take, an exchange offered, or a card placed
    into The Machine, whose value is revealed first)."""
    kind = type(action)
    if kind is Skip:
        return True
    elif kind is Draw:
        slot = state.deck.pop(0)
        state.hands[player].append(slot)
        state.cards.disclose((slot,), player)
        return True
    elif kind is Look:
        state.pile = action.pile
        if action.pile is not None:
            # Only the looker sees the face-down cards; everyone sees which pile it was.
            state.cards.disclose(state.scrap[action.pile], player)
        state.phase = Phase.PICK
        return False
    elif kind is Pick:
        state.pile_of(action.slot)[1].remove(action.slot)
        # The looker has already seen the card (or it was public).
        state.hands[player].append(action.slot)
        remask(state, player)
        return True
    elif kind is Take:
        pile, holder = state.pile_of(action.slot)
        holder.remove(action.slot)
        state.hands[player].append(action.slot)
        state.cards.disclose((action.slot,), player)
        # Before a card goes back: which one it is, nobody else may tell (the taken card
        # was public, or seen by whoever placed or looked at it).
        remask(state, player)
        state.pile = pile
        state.phase = Phase.PLACE
        return False
    elif kind is Place:
        return _place(state, player, action.slot)
    elif kind is Exchange:
        state.offer = action.slot
        state.partner = action.with_seat
        state.phase = Phase.GIVE
        return False
    elif kind is Give:
        _exchange_cards(state, player, action.slot)
        return True
    else:  # pragma: no cover - check_action refuses anything else
        raise IllegalAction(player, f"not a Beltpunk action: {action!r}")


def place_into_the_machine(state: BeltpunkState) -> None:
    """The card placed face up into The Machine, its value now public, goes into its conveyor."""
    slot = state.placing
    state.conveyors[SUIT_OF[state.cards.revealed[slot]]].append(slot)
    state.notes.append(("placed", state.actor, slot))
    state.placing = -1


def remask(state: BeltpunkState, seat: int) -> None:
    """Re-mask ``seat``'s hand (:meth:`CardState.remask`), which holds a card another seat knows:
    its cards take new slots only ``seat`` can tell apart."""
    state.cards.remask_hand(state.hands[seat], seat)


def _place(state: BeltpunkState, player: int, slot: int) -> bool:
    state.hands[player].remove(slot)
    if state.pile is not None:
        # Face down into a player's scrap pile: only the placer (and whoever saw it) knows it.
        state.scrap[state.pile].append(slot)
        return True
    else:
        # Face up into The Machine: its conveyor is known once it is revealed (no card in a
        # hand is public: the hand was re-masked after the take).
        state.placing = slot
        state.cards.reveal((slot,))
        state.phase = Phase.PLACING
        return False


def _exchange_cards(state: BeltpunkState, giver: int, given: int) -> None:
    asker, offered = state.actor, state.offer
    state.hands[asker].remove(offered)
    state.hands[giver].remove(given)
    state.hands[asker].append(given)
    state.hands[giver].append(offered)
    state.cards.disclose((given,), asker)
    state.cards.disclose((offered,), giver)
    # Each now holds a card the other has seen.
    remask(state, asker)
    remask(state, giver)
    state.notes.append(("exchanged", asker, giver))
