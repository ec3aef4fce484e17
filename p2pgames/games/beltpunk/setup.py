"""Setup, and each round's deal: the rulebook's "Setup", done again at the start of every round.

The table starts empty (:func:`new_state`); the first Foreman is picked at random
(:func:`choose_first_foreman`); each round deals the hands by player count and as many cards as
players face up into The Machine (:func:`deal_round`, :func:`open_the_machine`); a finished round's
table is cleared before the next deal (:func:`clear_table`). ``rules.py`` calls these where its
flow says.
"""

from __future__ import annotations

from p2pgames.engine import CardState, DeterministicRandom, Ruleset
from p2pgames.games.beltpunk.cards import DECK, HAND_SIZE, SUIT_OF
from p2pgames.games.beltpunk.state import BeltpunkState, Phase

__all__ = [
    "choose_first_foreman",
    "clear_table",
    "deal_round",
    "new_state",
    "open_the_machine",
    "round_deals",
]


def new_state(ruleset: Ruleset) -> BeltpunkState:
    """The table before the game: no cards yet, no Foreman (chosen first, at random)."""
    players = ruleset.players
    state = BeltpunkState.__new__(BeltpunkState)
    state.players = players
    state.target = ruleset["target"]
    state.cards = CardState()
    state.phase = Phase.FIRST_FOREMAN
    state.round = 0
    state.turn = 0
    state.foreman = -1
    state.deal = -1
    state.deck = []
    state.hands = [[] for _ in range(players)]
    state.conveyors = [[], [], [], []]
    state.scrap = [[] for _ in range(players)]
    state.sets = [[] for _ in range(players)]
    state.totals = [0] * players
    state.last_round = []
    state.opening = []
    state.order = []
    state.resolving = 0
    state.pile = None
    state.placing = -1
    state.offer = -1
    state.partner = -1
    state.declaring = 0
    state.scorers = []
    state.scoring = []
    state.notes = []
    return state


def choose_first_foreman(state: BeltpunkState, seed: bytes) -> None:
    """Give the Foreman card to a seat ``seed`` picks."""
    # The rulebook's "last player to wear a hat" can't be checked by a computer: a fair pick.
    state.foreman = DeterministicRandom(seed).below(state.players)
    state.notes.append(("first-foreman", state.foreman))


def deal_round(state: BeltpunkState) -> None:
    """Start a round: deal the hands by player count and as many cards as players, face up, for
    The Machine (they go in once their values are public: :func:`open_the_machine`)."""
    players = state.players
    state.round += 1
    state.notes.append(("round", state.round))
    state.deal = state.cards.next_deal
    slots = list(state.cards.new_deal(DECK))
    size = HAND_SIZE[players]
    for seat in range(players):
        hand = slots[seat * size : (seat + 1) * size]
        state.hands[seat] = hand
        state.cards.disclose(hand, seat)
    dealt = players * size
    # As many cards as players go from the top of the deck into The Machine, face up.
    state.opening = slots[dealt : dealt + players]
    state.cards.reveal(state.opening)
    state.deck = slots[dealt + players :]


def open_the_machine(state: BeltpunkState) -> None:
    """Put the round's first cards, now public, into The Machine's conveyors by suit."""
    revealed = state.cards.revealed
    for slot in state.opening:
        state.conveyors[SUIT_OF[revealed[slot]]].append(slot)
    state.notes.append(("opening", tuple(state.opening)))
    state.opening = []


def round_deals(state: BeltpunkState) -> list[int]:
    """The round's deal and the re-masks of its hands, made after it."""
    return [deal for deal in state.cards.deals if deal >= state.deal]


def clear_table(state: BeltpunkState) -> None:
    """Forget the finished round's table (its scores are banked, its slots retired)."""
    state.deck = []
    state.conveyors = [[], [], [], []]
    state.scrap = [[] for _ in range(state.players)]
    state.sets = [[] for _ in range(state.players)]
