"""The Invention phase (rulebook "Playing the Game" to "Choose Your Final Invention Action";
RULES.md "The Invention phase" and "Ending the Invention phase"): the action cards chosen in secret
and revealed together, then resolved — the trades of the Jacks first (``trade.py``), then the
Queens' special effects in turn, then the Kings' builds all at once — and the end of the turn::

    choose (simultaneous) ─► [trades, each Jack in turn: trade.py]
    ─► queens, in turn (a random card from a hand: a chance step) ─► build (the Kings, simultaneous)
    ─► discard (over six cards) ─► refill (an empty hand) ─► [vote-end (option)] ─► next turn …
    ─► the deck ran out (or everyone agreed): one final turn with every action card ─► exhibition

Every function reads or changes an :class:`AstonishingState`; ``rules.py`` calls them for the
phases in :data:`PHASES` and the actions in :data:`ACTIONS`.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from p2pgames.engine import Claim, DeterministicRandom, Knowledge
from p2pgames.games.astonishing import exhibition
from p2pgames.games.astonishing.actions import (
    ACTION_CARDS,
    Build,
    BuyResources,
    ChooseAction,
    DiscardCard,
    DrawTwo,
    EndInvention,
    GiveBack,
    KeepRest,
    OnlyJokers,
    Refill,
    TakeFrom,
    TakeFromDiscard,
)
from p2pgames.games.astonishing.cards import HAND_LIMIT, POSITION_CAPACITY, POSITIONS, queen_help
from p2pgames.games.astonishing.hands import (
    distinct,
    draw,
    from_hand,
    need,
    no_public_joker,
    one_or_two,
    remask,
    sees_joker,
)
from p2pgames.games.astonishing.state import CLUBS, DIAMONDS, HEARTS, SPADES, AstonishingState, Phase

__all__ = [
    "PHASES", "ACTIONS", "ROOM_REFUSAL", "next_turn", "choosable", "reveal", "legal_actions", "queen_choices",
    "check_action", "apply_simultaneous", "apply_action", "next_queen", "take_at_random",
]

DISCARD_PICK = 5  # the Spades Queen takes at random from this many cards on top of the discard pile
# Why a King can't scrap installed cards where the new ones fit (rulebook line 146: "to make room").
ROOM_REFUSAL = "installed cards are discarded only to make room, and that position has room for the new ones"

# Where the players decide in an Invention turn (but the trades), and the actions they decide with.
PHASES = frozenset({
    Phase.CHOOSE, Phase.QUEEN, Phase.GIVE_BACK, Phase.BUILD, Phase.DISCARD, Phase.REFILL, Phase.VOTE_END,
})
ACTIONS = (
    ChooseAction, DrawTwo, TakeFrom, TakeFromDiscard, BuyResources, GiveBack, Build, DiscardCard, KeepRest, Refill,
    EndInvention,
)


def next_turn(state: AstonishingState) -> None:
    if state.final:
        exhibition.begin(state)
        return
    if state.turn and state.deadline:
        state.final = True
    if state.turn:
        state.last_action = list(state.action)
    state.turn += 1
    state.action = [""] * state.players
    state.phase = Phase.CHOOSE


def choosable(state: AstonishingState, player: int) -> list[str]:
    if state.final or not state.last_action[player]:
        return list(ACTION_CARDS)
    return [card for card in ACTION_CARDS if card != state.last_action[player]]


def reveal(state: AstonishingState, actions: tuple[tuple[int, Any], ...]) -> None:
    """Every action card chosen this turn, revealed together."""
    for seat, action in actions:
        state.action[seat] = action.card
    state.notes.append(("chosen", tuple(state.action)))


# -- the choices -------------------------------------------------------------------------------


def legal_actions(state: AstonishingState, player: int, knowledge: Knowledge) -> list[Any]:
    """``player``'s legal actions in one of :data:`PHASES` (see ``Astonishing.legal_actions``)."""
    phase = state.phase
    hand = state.hands[player]
    if phase == Phase.CHOOSE:
        return [ChooseAction(card) for card in choosable(state, player)]
    if phase == Phase.QUEEN and state.queue[0] == player:
        return queen_choices(state, player, knowledge)
    if phase == Phase.GIVE_BACK and player == state.taker:
        return [GiveBack(slots[0]) for slots in distinct(state, [(slot,) for slot in sorted(state.taken)], knowledge)]
    if phase == Phase.BUILD and player in state.queue:
        return builds(state, player, knowledge)
    if phase == Phase.DISCARD and player in state.discarding:
        actions = [DiscardCard(slot) for slot in sorted(hand) if not sees_joker(state, slot, knowledge)]
        if len(hand) <= HAND_LIMIT:
            actions.append(KeepRest())
        return actions
    if phase == Phase.REFILL and player in state.discarding:
        return [Refill(True), Refill(False)]
    if phase == Phase.VOTE_END:
        return [EndInvention(True), EndInvention(False)]
    return []


def queen_choices(state: AstonishingState, player: int, knowledge: Knowledge | None = None) -> list[Any]:
    """The Queen's choices: as the rules allow them (``knowledge`` ``None``), or as offered to
    its player (no discarding a Joker it can see; the two Jokers alike)."""
    suit = state.inventor[player]
    rivals = state.rivals_with_cards(player)
    if suit == CLUBS:
        return ([DrawTwo()] if state.deck else []) + [TakeFrom(rival) for rival in rivals]
    if suit == DIAMONDS:
        hand = state.hands[player]
        if knowledge is None:
            return [BuyResources(slots) for slots in [(), *one_or_two(state, hand, None)]]
        usable = [slot for slot in hand if not sees_joker(state, slot, knowledge)]
        return [BuyResources(slots) for slots in [(), *one_or_two(state, usable, knowledge)]]
    if suit == HEARTS:
        return [TakeFrom(rival) for rival in rivals] if rivals else [DrawTwo()]
    return ([TakeFromDiscard()] if state.discard else []) + [TakeFrom(rival) for rival in rivals]


def builds(state: AstonishingState, player: int, knowledge: Knowledge) -> list[Any]:
    usable = [slot for slot in state.hands[player] if not sees_joker(state, slot, knowledge)]
    if not usable:
        return [OnlyJokers()]
    actions = []
    for position in range(POSITIONS):
        installed = sorted(state.installed[player][position])
        for slots in one_or_two(state, usable, knowledge):
            # Installed cards are discarded only to make room: none while the new ones fit.
            short = len(installed) + len(slots) - POSITION_CAPACITY
            counts = range(short, len(installed) + 1) if short > 0 else (0,)
            for count in counts:
                for scrap in combinations(installed, count):
                    actions.append(Build(position, slots, scrap))
    return actions


# -- checking and applying -----------------------------------------------------------------------


def check_action(state: AstonishingState, player: int, action: Any) -> None:
    """Refuse ``player``'s ``action``, one of :data:`ACTIONS`, unless the rules allow it now."""
    phase = state.phase
    hand = state.hands[player]
    if isinstance(action, ChooseAction):
        need(player, phase == Phase.CHOOSE, "action cards are chosen at the start of a turn")
        need(
            player,
            action.card in choosable(state, player),
            f"you played your {action.card.capitalize()} last turn: choose another action card",
        )
    elif isinstance(action, (DrawTwo, TakeFrom, TakeFromDiscard, BuyResources)):
        need(player, phase == Phase.QUEEN and state.queue[0] == player, "it is not your Queen's turn")
        if isinstance(action, BuyResources):
            from_hand(state, player, action.slots)
            no_public_joker(state, player, action.slots, "discarded")
        need(
            player,
            action in queen_choices(state, player),
            f"your Queen can't do that: {queen_help(state.inventor[player])}",
        )
    elif isinstance(action, GiveBack):
        need(player, phase == Phase.GIVE_BACK and player == state.taker, "you have nothing to give back")
        need(player, action.slot in state.taken, "give back one of the three cards you just took")
    elif isinstance(action, Build):
        need(player, phase == Phase.BUILD and player in state.queue, "only a King's player builds, at the build step")
        from_hand(state, player, action.slots)
        no_public_joker(state, player, action.slots, "installed")
        installed = state.installed[player][action.position]
        need(player, all(slot in installed for slot in action.scrap), "you can only discard cards installed in that position")
        need(
            player,
            len(installed) - len(action.scrap) + len(action.slots) <= POSITION_CAPACITY,
            f"a position holds at most {POSITION_CAPACITY} cards: discard installed ones to make room",
        )
        need(
            player,
            not action.scrap or len(installed) + len(action.slots) > POSITION_CAPACITY,
            ROOM_REFUSAL,
        )
    elif isinstance(action, DiscardCard):
        need(player, phase == Phase.DISCARD and player in state.discarding, "you don't discard now")
        from_hand(state, player, (action.slot,))
        no_public_joker(state, player, (action.slot,), "discarded")
    elif isinstance(action, KeepRest):
        need(player, phase == Phase.DISCARD and player in state.discarding, "you don't discard now")
        need(player, len(hand) <= HAND_LIMIT, f"you hold {len(hand)} cards: discard down to {HAND_LIMIT}")
    elif isinstance(action, Refill):
        need(player, phase == Phase.REFILL and player in state.discarding, "only a player whose hand is empty draws now")
    elif isinstance(action, EndInvention):
        need(player, phase == Phase.VOTE_END, "ending the Invention phase is not being voted on")
    else:  # pragma: no cover - rules.py sends only ACTIONS here
        raise AssertionError(action)


def apply_simultaneous(state: AstonishingState, actions: tuple[tuple[int, Any], ...]) -> None:
    """What the actions everyone chose at once in one of this part's simultaneous steps do."""
    if state.phase == Phase.BUILD:
        for seat, action in actions:
            build(state, seat, action)
        begin_discards(state)
    elif state.phase == Phase.VOTE_END:
        agreed = all(action.agree for _, action in actions)
        state.notes.append(("vote-end", tuple(action.agree for _, action in actions)))
        if agreed:
            state.deadline = True
        next_turn(state)
    else:  # pragma: no cover
        raise AssertionError(state.phase)


def apply_action(state: AstonishingState, player: int, action: Any) -> None:
    """What ``player``'s ``action``, one of :data:`ACTIONS` and allowed, does."""
    if isinstance(action, DrawTwo):
        drawn = draw(state, player, 2)
        state.notes.append(("draw", player, drawn))
        next_queen(state)
    elif isinstance(action, TakeFrom):
        suit = state.inventor[player]
        drawn = draw(state, player, 1) if suit in (CLUBS, SPADES) else 0
        state.notes.append(("take-from", player, action.rival, drawn))
        state.taker, state.source = player, action.rival
        state.phase = Phase.PICK
    elif isinstance(action, TakeFromDiscard):
        drawn = draw(state, player, 1)
        state.notes.append(("take-discard", player, drawn))
        state.taker, state.source = player, -2
        state.phase = Phase.PICK
    elif isinstance(action, BuyResources):
        for slot in action.slots:
            state.hands[player].remove(slot)
            state.discard.append(slot)
        state.cards.reveal(action.slots)
        state.cards.claim(Claim(player, "discard", action.slots))
        drawn = draw(state, player, len(action.slots) + 1)
        state.notes.append(("buy", player, action.slots, drawn))
        next_queen(state)
    elif isinstance(action, GiveBack):
        rival = state.source
        state.hands[player].remove(action.slot)
        state.hands[rival].append(action.slot)
        state.cards.disclose((action.slot,), rival)
        state.notes.append(("give-back", player, rival, action.slot))
        # Each of the two now holds a card the other knows.
        remask(state, sorted((player, rival)))
        state.taker, state.source, state.taken = -1, -1, []
        next_queen(state)
    elif isinstance(action, DiscardCard):
        state.hands[player].remove(action.slot)
        state.discard.append(action.slot)
        state.cards.reveal((action.slot,))
        state.cards.claim(Claim(player, "discard", (action.slot,)))
        state.notes.append(("discard", player, action.slot))
        if not state.hands[player]:
            state.discarding.remove(player)
        maybe_end_discards(state)
    elif isinstance(action, KeepRest):
        state.discarding.remove(player)
        maybe_end_discards(state)
    elif isinstance(action, Refill):
        state.discarding.remove(player)
        drawn = draw(state, player, 1) if action.draw and state.deck else 0
        state.notes.append(("refill", player, drawn))
        if not state.discarding:
            end_turn(state)
    else:  # pragma: no cover - check_action refused it
        raise AssertionError(action)


# -- the flow ----------------------------------------------------------------------------------


def next_queen(state: AstonishingState, first: bool = False) -> None:
    if not first:
        state.queue.pop(0)
    while state.queue:
        seat = state.queue[0]
        if not state.queen_possible(seat):
            state.notes.append(("queen-skipped", seat))
            state.queue.pop(0)
            continue
        choices = queen_choices(state, seat)
        if state.inventor[seat] == HEARTS and choices == [DrawTwo()]:
            # No rival holds a card: nothing to take or give back; the deck gives two.
            state.notes.append(("draw", seat, draw(state, seat, 2)))
            state.queue.pop(0)
            continue
        if state.inventor[seat] == SPADES and not choices:
            state.notes.append(("draw", seat, draw(state, seat, 1)))
            state.queue.pop(0)
            continue
        state.phase = Phase.QUEEN
        return
    state.queue = [
        seat for seat in state.in_turn() if state.action[seat] == "king" and state.hands[seat]
    ]
    if state.queue:
        state.phase = Phase.BUILD
    else:
        begin_discards(state)


def take_at_random(state: AstonishingState, random: DeterministicRandom) -> None:
    taker, source = state.taker, state.source
    if source == -2:
        top = state.discard[-DISCARD_PICK:]
        slot = top[random.below(len(top))]
        state.discard.remove(slot)
    else:
        hand = sorted(state.hands[source])
        slot = hand[random.below(len(hand))]
        state.hands[source].remove(slot)
        state.cards.disclose((slot,), taker)
    state.hands[taker].append(slot)
    state.notes.append(("taken", taker, source, slot))
    if state.inventor[taker] == HEARTS and source >= 0:
        drawn_before = len(state.hands[taker])
        state.notes.append(("draw", taker, draw(state, taker, 2)))
        state.taken = [slot] + state.hands[taker][drawn_before:]
        if len(state.taken) > 2:
            state.phase = Phase.GIVE_BACK  # the taker's hand is re-masked after it gives one back
            return
        state.taken = []
    # The card taken is known to its former holder, or to all (from the discard pile).
    remask(state, [taker])
    state.taker, state.source = -1, -1
    next_queen(state)


def build(state: AstonishingState, seat: int, action: Any) -> None:
    if isinstance(action, OnlyJokers):
        state.cards.claim(Claim(seat, "only-jokers", tuple(sorted(state.hands[seat])), "King"))
        state.notes.append(("only-jokers", seat, "King"))
        return
    installed = state.installed[seat][action.position]
    for slot in action.scrap:
        installed.remove(slot)
        state.discard.append(slot)
    state.cards.reveal(action.scrap)
    for slot in action.slots:
        state.hands[seat].remove(slot)
        installed.append(slot)
    state.cards.claim(Claim(seat, "install", action.slots))
    state.notes.append(("build", seat, action.position, len(action.slots), action.scrap))


def begin_discards(state: AstonishingState) -> None:
    state.queue = []
    # Those over six must discard down to six; with free_discard anyone holding a card may.
    least = 0 if state.free_discard else HAND_LIMIT
    state.discarding = [seat for seat in state.in_turn() if len(state.hands[seat]) > least]
    state.phase = Phase.DISCARD
    maybe_end_discards(state)


def maybe_end_discards(state: AstonishingState) -> None:
    if state.discarding:
        return
    state.discarding = [seat for seat in state.in_turn() if not state.hands[seat]] if state.deck else []
    if state.discarding:
        state.phase = Phase.REFILL
        return
    end_turn(state)


def end_turn(state: AstonishingState) -> None:
    if not state.final and not state.deadline and state.early_end and state.all_positions_filled():
        state.phase = Phase.VOTE_END
        return
    next_turn(state)
