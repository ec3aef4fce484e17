"""Trade (rulebook "3. Trade (Jacks)"; RULES.md "3. Trade (Jacks)", I3 and I18): each player who
revealed a Jack, in turn from the first player, may lay an offer; the others answer, and the
initiator accepts one answer, revises the offer, asks again or withdraws::

    offer ─► respond (the others, any order) ─► decide ─► [respond ─► decide …]
    ─► the next Jack's trade …

After the last Jack's trade the Queens take effect (``invention.next_queen``). Every function reads
or changes an :class:`AstonishingState`; ``rules.py`` calls them for the phases in :data:`PHASES`
and the actions in :data:`ACTIONS`.
"""

from __future__ import annotations

from itertools import product
from typing import Any, Sequence

from p2pgames.engine import Knowledge
from p2pgames.games.astonishing import invention
from p2pgames.games.astonishing.actions import Accept, Answer, Decline, NoTrade, Offer, Reopen, Stand, Withdraw
from p2pgames.games.astonishing.hands import from_hand, holds_seen, kind_of, kinds_of, need, one_or_two, remask
from p2pgames.games.astonishing.state import AstonishingState, Phase

__all__ = ["PHASES", "ACTIONS", "begin", "legal_actions", "check_action", "apply_action"]

# Where the players decide in a trade, and the actions they decide with.
PHASES = frozenset({Phase.OFFER, Phase.RESPOND, Phase.DECIDE})
ACTIONS = (Offer, NoTrade, Answer, Stand, Decline, Accept, Reopen, Withdraw)


def begin(state: AstonishingState) -> None:
    state.queue = [seat for seat in state.in_turn() if state.action[seat] == "jack"]
    next_trade(state, first=True)


# -- the choices -------------------------------------------------------------------------------


def legal_actions(state: AstonishingState, player: int, knowledge: Knowledge) -> list[Any]:
    """``player``'s legal actions in one of :data:`PHASES` (see ``Astonishing.legal_actions``)."""
    phase = state.phase
    hand = state.hands[player]
    if phase == Phase.OFFER and player == state.trader:
        return [Offer(slots) for slots in one_or_two(state, hand, knowledge)] + [NoTrade()]
    if phase == Phase.RESPOND and player in state.owing:
        actions: list[Any] = []
        seen: set[tuple] = set()
        for slots in one_or_two(state, hand, knowledge):
            for face_up in product((True, False), repeat=len(slots)):
                # The two Jokers are alike: an answer differing only in which is face up is one.
                kinds = tuple(sorted(zip((kind_of(state, slot, knowledge) for slot in slots), face_up)))
                if kinds not in seen:
                    seen.add(kinds)
                    actions.append(Answer(slots, face_up))
        if state.answers[player]:
            actions.append(Stand())
        actions.append(Decline())
        return actions
    if phase == Phase.DECIDE and player == state.trader:
        actions = [Accept(seat) for seat in state.in_turn() if state.answers[seat]]
        offered = kinds_of(state, state.offer, knowledge)
        actions += [
            Offer(slots) for slots in one_or_two(state, hand, knowledge) if kinds_of(state, slots, knowledge) != offered
        ]
        if any(state.hands[seat] for seat in range(state.players) if seat != player):
            actions.append(Reopen())
        actions.append(Withdraw())
        return actions
    return []


# -- checking and applying -----------------------------------------------------------------------


def check_action(state: AstonishingState, player: int, action: Any) -> None:
    """Refuse ``player``'s ``action``, one of :data:`ACTIONS`, unless the rules allow it now."""
    phase = state.phase
    if isinstance(action, Offer):
        need(player, phase in (Phase.OFFER, Phase.DECIDE) and player == state.trader, "only a trade's initiator lays an offer")
        from_hand(state, player, action.slots)
    elif isinstance(action, NoTrade):
        need(player, phase == Phase.OFFER and player == state.trader, "only a Jack's player may initiate no trade")
    elif isinstance(action, Answer):
        need(player, phase == Phase.RESPOND and player in state.owing, "you are not asked to answer a trade now")
        from_hand(state, player, action.slots)
    elif isinstance(action, Stand):
        need(player, phase == Phase.RESPOND and player in state.owing, "you are not asked to answer a trade now")
        need(player, bool(state.answers[player]), "you have no answer to stand by")
    elif isinstance(action, Decline):
        need(player, phase == Phase.RESPOND and player in state.owing, "you are not asked to answer a trade now")
    elif isinstance(action, Accept):
        need(player, phase == Phase.DECIDE and player == state.trader, "only the initiator accepts an answer")
        need(player, action.seat != player and bool(state.answers[action.seat]), "that player has not answered your offer")
    elif isinstance(action, (Reopen, Withdraw)):
        need(player, phase == Phase.DECIDE and player == state.trader, "only the initiator closes or reopens a trade")
        if isinstance(action, Reopen):
            need(player, any(state.hands[s] for s in range(state.players) if s != player), "nobody has a card to answer with")
    else:  # pragma: no cover - rules.py sends only ACTIONS here
        raise AssertionError(action)


def apply_action(state: AstonishingState, player: int, action: Any) -> None:
    """What ``player``'s ``action``, one of :data:`ACTIONS` and allowed, does."""
    if isinstance(action, Offer):
        state.offer = list(action.slots)
        state.cards.reveal(action.slots)
        state.notes.append(("offer", player, action.slots, state.phase == Phase.DECIDE))
        ask_for_answers(state)
    elif isinstance(action, NoTrade):
        state.notes.append(("no-trade", player))
        next_trade(state)
    elif isinstance(action, Answer):
        flat: list[Any] = []
        for slot, up in zip(action.slots, action.face_up):
            flat += [slot, up]
        state.answers[player] = flat
        state.cards.reveal(slot for slot, up in zip(action.slots, action.face_up) if up)
        state.notes.append(("answer", player, action.slots, action.face_up))
        answered(state, player)
    elif isinstance(action, Stand):
        state.notes.append(("stand", player))
        answered(state, player)
    elif isinstance(action, Decline):
        state.answers[player] = []
        state.notes.append(("decline", player))
        answered(state, player)
    elif isinstance(action, Accept):
        exchange(state, player, action.seat)
    elif isinstance(action, Reopen):
        state.notes.append(("reopen", player))
        ask_for_answers(state)
    elif isinstance(action, Withdraw):
        state.notes.append(("withdraw", player))
        next_trade(state)
    else:  # pragma: no cover - check_action refused it
        raise AssertionError(action)


# -- the flow ----------------------------------------------------------------------------------


def next_trade(state: AstonishingState, first: bool = False, traded: Sequence[int] = ()) -> None:
    if not first:
        state.queue.pop(0)
        # The offer and the answers shown face up went back into their hands, or across with
        # the face-down cards of the trade: each hand that holds a card another seat has seen
        # is re-masked before its owner can hide one of them again.
        remask(state, [seat for seat in state.in_turn() if seat in traded or holds_seen(state, seat)])
    state.offer = []
    state.answers = [[] for _ in range(state.players)]
    state.owing = []
    if state.queue:
        state.trader = state.queue[0]
        state.phase = Phase.OFFER
        return
    state.trader = -1
    state.queue = [seat for seat in state.in_turn() if state.action[seat] == "queen"]
    invention.next_queen(state, first=True)


def ask_for_answers(state: AstonishingState) -> None:
    # Earlier answers stand (each may be revised or stood by): no hand changes within a trade.
    # An answer that showed a card face up is taken back to be revised: the hand is re-masked
    # (else a revised face-down answer could be told apart from the card shown), so it can't stand.
    shown = [seat for seat in state.in_turn() if seat != state.trader and holds_seen(state, seat)]
    for seat in shown:
        state.answers[seat] = []
    remask(state, shown)
    state.owing = [seat for seat in state.in_turn() if seat != state.trader and state.hands[seat]]
    state.phase = Phase.RESPOND if state.owing else Phase.DECIDE


def answered(state: AstonishingState, seat: int) -> None:
    state.owing.remove(seat)
    if not state.owing:
        state.phase = Phase.DECIDE


def exchange(state: AstonishingState, trader: int, partner: int) -> None:
    answer = state.answer_of(partner)
    for slot in state.offer:
        state.hands[trader].remove(slot)
        state.hands[partner].append(slot)
    for slot, _ in answer:
        state.hands[partner].remove(slot)
        state.hands[trader].append(slot)
    # Face-down cards reach the buyer unseen by the others ("let the buyer beware").
    state.cards.disclose((slot for slot, up in answer if not up), trader)
    state.notes.append(("trade", trader, partner, tuple(state.offer), tuple(answer)))
    next_trade(state, traded=(trader, partner))
