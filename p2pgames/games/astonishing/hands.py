"""A hand of resource cards, as every part of the turn handles it: drawing from the deck,
re-masking a hand that holds a card others have seen, the slots as their holder tells them apart
(the two Jokers alike), and what a Joker can never be used for; with the checks every part makes
of a move (:func:`need`, and of the cards it names: :func:`from_hand`, :func:`no_public_joker`).
"""

from __future__ import annotations

from itertools import combinations
from typing import Sequence

from p2pgames.engine import IllegalAction, Knowledge
from p2pgames.games.astonishing.cards import is_joker
from p2pgames.games.astonishing.state import AstonishingState

__all__ = [
    "draw", "remask", "holds_seen", "kind_of", "kinds_of", "distinct", "one_or_two", "sees_joker", "joker_refusal",
    "need", "from_hand", "no_public_joker",
]


def draw(state: AstonishingState, seat: int, count: int) -> int:
    """Draw up to ``count`` cards from the top of the deck (fewer when it runs out); how many."""
    drawn = state.deck[:count]
    del state.deck[:count]
    state.hands[seat].extend(drawn)
    state.cards.disclose(drawn, seat)
    if drawn and not state.deck:
        state.deadline = True
        state.notes.append(("deck-out",))
    return len(drawn)


def remask(state: AstonishingState, seats: Sequence[int]) -> None:
    """Re-mask the hands of ``seats`` (:meth:`CardState.remask`): their cards take new slots
    only their owners can tell apart."""
    for seat in seats:
        state.cards.remask_hand(state.hands[seat], seat)


def holds_seen(state: AstonishingState, seat: int) -> bool:
    """Whether ``seat``'s hand holds a card everyone has seen (shown face up in a trade)."""
    revealed = state.cards.revealed
    return any(slot in revealed for slot in state.hands[seat])


def kind_of(state: AstonishingState, slot: int, knowledge: Knowledge | None) -> str:
    """What a slot is to a player: its card, ``joker`` for either Joker (they play alike), or
    ``#slot`` while it can't see it."""
    name = state.value(slot, knowledge or {})
    if name is None:
        return f"#{slot}"
    return "joker" if is_joker(name) else name


def kinds_of(state: AstonishingState, slots: Sequence[int], knowledge: Knowledge | None) -> tuple[str, ...]:
    return tuple(sorted(kind_of(state, slot, knowledge) for slot in slots))


def distinct(
    state: AstonishingState, choices: Sequence[tuple[int, ...]], knowledge: Knowledge | None
) -> list[tuple[int, ...]]:
    """``choices`` of slots, less those that differ from an earlier one only in which Joker they
    hold (to the player both are the same card); all of them when ``knowledge`` is ``None``."""
    if knowledge is None:
        return list(choices)
    seen: set[tuple[str, ...]] = set()
    result = []
    for choice in choices:
        kinds = kinds_of(state, choice, knowledge)
        if kinds not in seen:
            seen.add(kinds)
            result.append(choice)
    return result


def one_or_two(state: AstonishingState, slots: Sequence[int], knowledge: Knowledge | None) -> list[tuple[int, ...]]:
    """One or two of ``slots``, each increasing (see :func:`distinct`)."""
    ordered = sorted(slots)
    return distinct(state, [(slot,) for slot in ordered] + list(combinations(ordered, 2)), knowledge)


def sees_joker(state: AstonishingState, slot: int, knowledge: Knowledge) -> bool:
    """Whether the player whose ``knowledge`` it is sees a Joker in ``slot``."""
    name = state.value(slot, knowledge)
    return name is not None and is_joker(name)


def joker_refusal(use: str) -> str:
    """Why a Joker can't be ``use``d (``"installed"``, ``"discarded"``): what :meth:`check_action`
    says of one everyone has seen, and a typed move of one named."""
    return f"a Joker can never be {use}"


def need(player: int, condition: bool, reason: str) -> None:
    """Refuse ``player``'s move, saying ``reason``, unless ``condition`` holds."""
    if not condition:
        raise IllegalAction(player, reason)


def from_hand(state: AstonishingState, player: int, slots: Sequence[int]) -> None:
    """Refuse a move of ``player``'s naming a card that is not in its hand."""
    hand = state.hands[player]
    for slot in slots:
        need(player, slot in hand, "you can only use cards from your hand")


def no_public_joker(state: AstonishingState, player: int, slots: Sequence[int], use: str) -> None:
    """Refuse a move of ``player``'s that would ``use`` a Joker everyone has seen."""
    # A hidden Joker is caught when it is revealed (a claim); one everyone has seen, now.
    for slot in slots:
        name = state.cards.revealed.get(slot)
        need(player, name is None or not is_joker(name), joker_refusal(use))
