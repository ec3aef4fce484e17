"""The Exhibition phase (rulebook "Step One: Choose Exhibition Actions" to "Step Four: Exhibit
Inventions for the Crowd", and "Final Scoring"; RULES.md "The Exhibition phase" and "Final
scoring"): one turn, after the final Invention turn::

    choose-exhibit (Queen or King, sealed: committed now, opened after the dice)
    ─► describe (in turn) ─► vote (simultaneous) ─► dice (chance)
    ─► unseal (the exhibition actions revealed) ─► installed cards revealed
    ─► jacks (re-rolls, in turn) ─► queens (in turn) ─► kings (in turn) ─► audit ─► over

Every function reads or changes an :class:`AstonishingState`; ``rules.py`` calls them for the
phases in :data:`PHASES` and the actions in :data:`ACTIONS`.
"""

from __future__ import annotations

from itertools import product
from typing import Any, Sequence

from p2pgames.engine import Claim, DeterministicRandom, Knowledge
from p2pgames.games.astonishing.actions import (
    EXHIBITION_CARDS,
    Describe,
    ExhibitCard,
    Intimidate,
    KeepDice,
    KeepParts,
    OnlyJokers,
    Promote,
    ReplacePart,
    Reroll,
    Sabotage,
    SwayCrowd,
    Vote,
)
from p2pgames.games.astonishing.cards import POSITIONS, exhibition_queen_help, is_joker, suit_of, worth
from p2pgames.games.astonishing.hands import distinct, from_hand, need, no_public_joker, sees_joker
from p2pgames.games.astonishing.state import CLUBS, DIAMONDS, HEARTS, SPADES, AstonishingState, Phase

__all__ = [
    "PHASES", "ACTIONS", "begin", "sealed", "legal_actions", "check_action", "apply_action", "apply_simultaneous",
    "apply_chance", "after_reveal", "only_jokers", "next_exhibition_queen", "result_summary",
]

SABOTAGE_LIMIT = 7  # the Spades Queen turns over a Spade worth at most this

# Where the players decide at the exhibition, and the actions they decide with.
PHASES = frozenset({
    Phase.CHOOSE_EXHIBIT, Phase.DESCRIBE, Phase.VOTE, Phase.JACKS, Phase.EXHIBIT_QUEEN, Phase.EXHIBIT_KING,
})
ACTIONS = (
    Describe, ExhibitCard, Vote, Reroll, KeepDice, Intimidate, ReplacePart, KeepParts, SwayCrowd, Sabotage, Promote,
)


def begin(state: AstonishingState) -> None:
    state.last_action = list(state.action)
    state.action = [""] * state.players
    state.queue = []
    state.phase = Phase.CHOOSE_EXHIBIT
    state.notes.append(("exhibition",))


def sealed(state: AstonishingState) -> None:
    # Everyone's Queen or King lies face down: the descriptions begin, in turn.
    state.notes = [("sealed",)]
    state.queue = state.in_turn()
    state.phase = Phase.DESCRIBE


# -- the choices -------------------------------------------------------------------------------


def legal_actions(state: AstonishingState, player: int, knowledge: Knowledge) -> list[Any]:
    """``player``'s legal actions in one of :data:`PHASES` (see ``Astonishing.legal_actions``)."""
    phase = state.phase
    if phase == Phase.DESCRIBE and state.queue[0] == player:
        return [Describe(numbers) for numbers in descriptor_choices(state, player, knowledge)]
    if phase == Phase.CHOOSE_EXHIBIT:
        return [ExhibitCard(card) for card in EXHIBITION_CARDS]
    if phase == Phase.VOTE:
        return [Vote(seat) for seat in state.in_turn() if seat != player]
    if phase == Phase.JACKS and state.queue[0] == player:
        return [Reroll(die) for die in range(3)] + [KeepDice()]
    if phase == Phase.EXHIBIT_QUEEN and state.queue[0] == player:
        return exhibition_queen_choices(state, player, knowledge)
    if phase == Phase.EXHIBIT_KING and state.queue[0] == player:
        return [Promote(seat) for seat in state.in_turn() if seat != player]
    return []


def descriptor_choices(state: AstonishingState, player: int, knowledge: Knowledge) -> list[tuple[int, ...]]:
    options = [state.descriptor_numbers(player, position, knowledge) or [0] for position in range(POSITIONS)]
    return [tuple(choice) for choice in product(*options)]


def exhibition_queen_choices(state: AstonishingState, player: int, knowledge: Knowledge | None = None) -> list[Any]:
    """As the Invention Queens' choices (``invention.queen_choices``), at the exhibition (every
    installed card is public now)."""
    suit = state.inventor[player]
    revealed = state.cards.revealed
    if suit == CLUBS:
        return [Intimidate(position) for position in range(POSITIONS) if state.installed[player][position]]
    if suit == DIAMONDS:
        diamonds = [
            slot for seat in state.in_turn() for slots in state.installed[seat] for slot in slots
            if not is_joker(revealed[slot]) and suit_of(revealed[slot]) == DIAMONDS and slot not in state.sabotaged
        ]
        hand = sorted(state.hands[player])
        # With optional_replacement she may keep every part as it is (when she could exchange).
        keep = [KeepParts()] if state.optional_replacement and diamonds and hand else []
        if knowledge is None:
            return [ReplacePart(old, new) for old in diamonds for new in hand] + keep
        usable = [slots[0] for slots in distinct(state, [(slot,) for slot in hand if not sees_joker(state, slot, knowledge)], knowledge)]
        if diamonds and hand and not usable:
            return keep or [OnlyJokers()]
        return [ReplacePart(old, new) for old in diamonds for new in usable] + keep
    if suit == HEARTS:
        return [
            SwayCrowd(die, value) for die, shown in enumerate(state.dice)
            for value in range(1, 7) if 1 <= abs(value - shown) <= 2
        ]
    return [Sabotage(slot) for slot in saboteurs_targets(state)]


def saboteurs_targets(state: AstonishingState) -> list[int]:
    revealed = state.cards.revealed
    targets = []
    for seat in state.in_turn():
        for slots in state.installed[seat]:
            for slot in slots:
                name = revealed[slot]
                if (
                    slot not in state.sabotaged and not is_joker(name) and suit_of(name) == SPADES
                    and worth(name, state.inventor[seat]) <= SABOTAGE_LIMIT
                ):
                    targets.append(slot)
    return targets


# -- checking and applying -----------------------------------------------------------------------


def check_action(state: AstonishingState, player: int, action: Any) -> None:
    """Refuse ``player``'s ``action``, one of :data:`ACTIONS`, unless the rules allow it now."""
    phase = state.phase
    if isinstance(action, Describe):
        need(player, phase == Phase.DESCRIBE and state.queue[0] == player, "it is not your turn to describe")
        for position, number in enumerate(action.numbers):
            need(
                player,
                (number == 0) == (not state.installed[player][position]),
                f"position {position + 1} {'is empty: its descriptor is 0' if number else 'holds a card: choose its descriptor'}",
            )
    elif isinstance(action, ExhibitCard):
        # Checked again when it is opened after the dice: a sealed choice is legal then too.
        need(
            player,
            phase in (Phase.CHOOSE_EXHIBIT, Phase.UNSEAL),
            "exhibition actions are chosen face down as the exhibition begins",
        )
    elif isinstance(action, Vote):
        need(player, phase == Phase.VOTE, "votes are cast after the descriptions")
        need(player, action.seat != player and action.seat < state.players, "vote for a competitor: never for yourself")
    elif isinstance(action, (Reroll, KeepDice)):
        need(player, phase == Phase.JACKS and state.queue[0] == player, "it is not your turn to use Jacks")
    elif isinstance(action, (Intimidate, ReplacePart, KeepParts, SwayCrowd, Sabotage)):
        need(player, phase == Phase.EXHIBIT_QUEEN and state.queue[0] == player, "it is not your Queen's turn")
        if isinstance(action, ReplacePart):
            from_hand(state, player, (action.replacement,))
            no_public_joker(state, player, (action.replacement,), "installed")
        need(
            player,
            action in exhibition_queen_choices(state, player),
            f"your Queen can't do that: {exhibition_queen_help(state.inventor[player])}",
        )
    elif isinstance(action, Promote):
        need(player, phase == Phase.EXHIBIT_KING and state.queue[0] == player, "it is not your King's turn")
        need(player, action.competitor != player and action.competitor < state.players, "choose a competitor's invention, not yours")
    else:  # pragma: no cover - rules.py sends only ACTIONS here
        raise AssertionError(action)


def apply_simultaneous(state: AstonishingState, actions: tuple[tuple[int, Any], ...]) -> None:
    """What the actions everyone chose at once in one of this part's simultaneous steps do."""
    if state.phase == Phase.VOTE:
        for seat, action in actions:
            state.votes[seat] = action.seat
            state.jacks[action.seat] += 1
        state.notes.append(("votes", tuple(state.votes)))
        state.phase = Phase.DICE
    elif state.phase == Phase.UNSEAL:
        # The sealed exhibition actions, opened now that the demonstration number is rolled;
        # then every installed card is turned up.
        for seat, action in actions:
            state.exhibit[seat] = action.card
        state.notes.append(("exhibit", tuple(state.exhibit)))
        state.phase = Phase.REVEALING
        state.cards.reveal(slot for positions in state.installed for slots in positions for slot in slots)
        if not state.cards.pending:  # nothing installed anywhere, or all of it public already
            after_reveal(state)
    else:  # pragma: no cover
        raise AssertionError(state.phase)


def apply_chance(state: AstonishingState, random: DeterministicRandom) -> None:
    """The dice rolled, or a die rolled again."""
    if state.phase == Phase.DICE:
        state.dice = [1 + random.below(6) for _ in range(3)]
        state.notes.append(("dice", tuple(state.dice)))
        state.phase = Phase.UNSEAL
    elif state.phase == Phase.REROLL:
        before = state.dice[state.rerolling]
        state.dice[state.rerolling] = 1 + random.below(6)
        state.notes.append(("rerolled", state.queue[0], state.rerolling, before, state.dice[state.rerolling]))
        state.rerolling = -1
        next_jacks(state)
    else:  # pragma: no cover - step() asks for chance only in these phases
        raise AssertionError(state.phase)


def apply_action(state: AstonishingState, player: int, action: Any) -> None:
    """What ``player``'s ``action``, one of :data:`ACTIONS` and allowed, does."""
    if isinstance(action, Describe):
        state.descriptions[player] = list(action.numbers)
        state.pitches[player] = action.pitch
        for position, number in enumerate(action.numbers):
            if number:
                state.cards.claim(Claim(player, "descriptor", tuple(state.installed[player][position]), [position, number]))
        state.notes.append(("describe", player))
        state.queue.pop(0)
        if not state.queue:
            state.phase = Phase.VOTE
    elif isinstance(action, Reroll):
        state.jacks[player] -= 1
        state.rerolling = action.die
        state.phase = Phase.REROLL
    elif isinstance(action, KeepDice):
        state.queue.pop(0)
        next_jacks(state)
    elif isinstance(action, Intimidate):
        state.intimidated[player] = action.position
        state.notes.append(("intimidate", player, action.position))
        next_exhibition_queen(state)
    elif isinstance(action, ReplacePart):
        owner, position = state.owner_of_installed(action.installed)  # type: ignore[misc]
        slots = state.installed[owner][position]
        slots[slots.index(action.installed)] = action.replacement
        state.hands[player].remove(action.replacement)
        state.hands[player].append(action.installed)  # an exchange: the Diamond comes to hand
        state.cards.reveal((action.replacement,))
        state.cards.claim(Claim(player, "install", (action.replacement,)))
        state.notes.append(("replace", player, owner, position, action.installed, action.replacement))
        state.phase = Phase.REPLACING  # the next Queen goes on once the new part is seen
        if not state.cards.pending:  # it was public already (a card shown face up in a trade)
            next_exhibition_queen(state)
    elif isinstance(action, KeepParts):
        state.notes.append(("keep-parts", player))
        next_exhibition_queen(state)
    elif isinstance(action, SwayCrowd):
        before = state.dice[action.die]
        state.dice[action.die] = action.value
        state.notes.append(("sway", player, action.die, before, action.value))
        next_exhibition_queen(state)
    elif isinstance(action, Sabotage):
        state.sabotaged.append(action.slot)
        state.notes.append(("sabotage", player, action.slot))
        next_exhibition_queen(state)
    elif isinstance(action, Promote):
        earned = state.king_acclaim(player, action.competitor)
        state.acclaim[player] += earned
        state.notes.append(("promote", player, action.competitor, earned))
        state.queue.pop(0)
        next_exhibition_king(state)
    else:  # pragma: no cover - check_action refused it
        raise AssertionError(action)


def only_jokers(state: AstonishingState, player: int) -> None:
    """The Diamonds Queen with no card but Jokers to put in a Diamond's place says so (I6)."""
    state.cards.claim(Claim(player, "only-jokers", tuple(sorted(state.hands[player])), "Queen"))
    state.notes.append(("only-jokers", player, "Queen"))
    next_exhibition_queen(state)


def after_reveal(state: AstonishingState) -> None:
    state.notes.append(("revealed",))
    state.queue = [seat for seat in state.in_turn() if state.jacks[seat]]
    next_jacks(state)


# -- the flow ----------------------------------------------------------------------------------


def next_jacks(state: AstonishingState) -> None:
    while state.queue and not state.jacks[state.queue[0]]:
        state.queue.pop(0)
    if state.queue:
        state.phase = Phase.JACKS
        return
    state.queue = [seat for seat in state.in_turn() if state.exhibit[seat] == "queen"]
    next_exhibition_queen(state, first=True)


def next_exhibition_queen(state: AstonishingState, first: bool = False) -> None:
    if not first:
        state.queue.pop(0)
    while state.queue and not exhibition_queen_choices(state, state.queue[0]):
        state.notes.append(("queen-skipped", state.queue[0]))
        state.queue.pop(0)
    if state.queue:
        state.phase = Phase.EXHIBIT_QUEEN
        return
    state.queue = [seat for seat in state.in_turn() if state.exhibit[seat] == "king"]
    next_exhibition_king(state)


def next_exhibition_king(state: AstonishingState) -> None:
    if state.queue:
        state.phase = Phase.EXHIBIT_KING
        return
    state.phase = Phase.AUDITING
    state.cards.audit(state.cards.deals)  # the deck's deal and every hand's re-mask of it


def result_summary(state: AstonishingState, scores: Sequence[int], winners: Sequence[int]) -> str:
    """The result line of a finished game: the best Acclaim, whether it is a tie, and the
    demonstration number."""
    best = scores[winners[0]]
    who = "a tie" if len(winners) > 1 else "the winner"
    return f"{best} Acclaim ({who}); demonstration number {state.demonstration}"
