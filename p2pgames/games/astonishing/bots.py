"""A bot that plays Astonishing! to win: it sees what its seat sees and rates each legal action.

Everything turns on one number: the chance that a position works at the exhibition, the chance
that three dice total no more than its reliability (:data:`WORKS`). The bot

* builds where a card raises that chance most (an empty position first: it always fails),
  replacing a weak installed card when a position is full;
* chooses a Queen when its hand runs low and a King when it holds cards that would help;
* opens a trade (a Jack) to pass on a Joker, offering its Jokers and weakest cards; answers an
  offer worth more to it than what it gives, with its Jokers face down when it has them; accepts
  the best answer worth more than its offer, and otherwise withdraws;
* uses each Queen for the most build points (a rival's card at random is worth what an unseen card
  is on average; the discard pile's top five what they show);
* at the exhibition chooses (face down) the Queen when its Inventor's exhibition Queen is a strong
  one, votes for the weakest competitor, re-rolls a die when that is worth more than the Jack's
  point, and uses its Queen and King for the most Acclaim.

Ratings are floats (the bot's play is not hashed); ties are broken by the seeded random stream, so
a bot's play is reproducible from its seed.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from itertools import product
from typing import Any, Sequence

from p2pgames.bots import best_of, legal_options
from p2pgames.engine import DeterministicRandom, Knowledge, Step

from p2pgames.games.astonishing.actions import (
    Accept,
    Answer,
    BuyResources,
    Build,
    ChooseAction,
    ChooseInventor,
    Decline,
    Describe,
    DiscardCard,
    DrawTwo,
    EndInvention,
    ExhibitCard,
    GiveBack,
    Intimidate,
    KeepDice,
    KeepParts,
    KeepRest,
    NoTrade,
    Offer,
    OnlyJokers,
    Promote,
    Refill,
    Reopen,
    ReplacePart,
    Reroll,
    Sabotage,
    Stand,
    SwayCrowd,
    TakeFrom,
    TakeFromDiscard,
    Vote,
    Withdraw,
)
from p2pgames.games.astonishing.cards import HAND_LIMIT, POSITIONS, is_joker, worth
from p2pgames.games.astonishing.rules import CLUBS, DIAMONDS, HEARTS, SPADES, AstonishingState, Phase

__all__ = ["make_bot", "InventorBot", "WORKS"]


@lru_cache(maxsize=None)
def _totals() -> tuple[int, ...]:
    counts = [0] * 19
    for dice in product(range(1, 7), repeat=3):
        counts[sum(dice)] += 1
    return tuple(counts)


# WORKS[r]: the chance that three dice total at most r (a position of reliability r works).
WORKS: tuple[float, ...] = tuple(
    sum(_totals()[: min(r, 18) + 1]) / 216 for r in range(0, 31)
)
JOKER_BURDEN = 2.5  # what holding a Joker costs (a dead card that counts toward the six)
UNSEEN_CARD = 5.0  # about the average worth of a card nobody has shown (Aces 1, the rest 2–10)


def _works(reliability: int) -> float:
    return WORKS[max(0, min(reliability, 30))]


def make_bot(seed: bytes = b"") -> "InventorBot":
    return InventorBot(seed)


class InventorBot:
    """The bot described in the module docstring."""

    def __init__(self, seed: bytes = b"") -> None:
        self.random = DeterministicRandom(hashlib.sha256(b"astonishing-bot\x00" + seed).digest())

    def choose(self, game: Any, state: AstonishingState, player: int, knowledge: Knowledge, step: Step) -> Any:
        options = legal_options(game, state, player, knowledge, step)
        if len(options) == 1:
            return options[0]
        view = _View(state, player, knowledge)
        return best_of(options, lambda action: view.rate(action), self.random)


class _View:
    """One decision's view of the table: the seat, its cards' worth, its positions."""

    def __init__(self, state: AstonishingState, seat: int, knowledge: Knowledge) -> None:
        self.state = state
        self.seat = seat
        self.knowledge = knowledge
        self.suit = state.inventor[seat]

    # -- what cards are worth to us ------------------------------------------------------------

    def name(self, slot: int) -> str | None:
        return self.state.value(slot, self.knowledge)

    def card_worth(self, slot: int, seat: int | None = None) -> float:
        """Build points of a card to ``seat`` (default: us); a Joker is a burden."""
        name = self.name(slot)
        if name is None:
            return UNSEEN_CARD
        if is_joker(name):
            return -JOKER_BURDEN
        inventor = self.state.inventor[self.seat if seat is None else seat]
        return float(worth(name, inventor))

    def position_total(self, seat: int, position: int, slots: Sequence[int] | None = None) -> int:
        slots = self.state.installed[seat][position] if slots is None else slots
        inventor = self.state.inventor[seat]
        total = 0
        for slot in slots:
            name = self.name(slot)
            if slot in self.state.sabotaged or name is None or is_joker(name):
                continue
            total += worth(name, inventor)
        return total

    def position_chance(self, seat: int, position: int, slots: Sequence[int] | None = None) -> float:
        slots = self.state.installed[seat][position] if slots is None else slots
        if not slots:
            return 0.0
        return _works(self.position_total(seat, position, slots))

    def hand_value(self) -> float:
        """What the hand could still add to the contraption: its best cards, by how much each
        would raise a position's chance (roughly: its worth)."""
        return sum(max(0.0, self.card_worth(slot)) for slot in self.state.hands[self.seat])

    def best_gain(self, slot: int) -> float:
        """How much installing ``slot`` alone would raise our expected working positions."""
        name = self.name(slot)
        if name is None or is_joker(name):
            return 0.0
        best = 0.0
        for position in range(POSITIONS):
            installed = self.state.installed[self.seat][position]
            before = self.position_chance(self.seat, position)
            candidates = [list(installed) + [slot]] if len(installed) < 2 else [
                [kept, slot] for kept in installed
            ]
            for slots in candidates:
                best = max(best, self.position_chance(self.seat, position, slots) - before)
        return best

    # -- rating actions ------------------------------------------------------------------------

    def rate(self, action: Any) -> float:
        state = self.state
        kind = type(action)
        if kind is ChooseInventor:
            return 0.0
        if kind is ChooseAction:
            return self.rate_action_card(action.card)
        if kind is Offer:
            if state.phase != Phase.OFFER:
                return -10.0  # revising: once answered, the bot takes the best answer or withdraws
            return 2.0 - sum(self.card_worth(slot) for slot in action.slots)
        if kind is NoTrade:
            return 0.0 if self.jokers() else 0.5
        if kind is Answer:
            return self.rate_answer(action)
        if kind in (Stand,):
            return 0.1
        if kind is Decline:
            return 0.0
        if kind is Accept:
            return self.rate_accept(action.seat)
        if kind is Reopen:
            return -10.0
        if kind is Withdraw:
            return 0.0
        if kind is DrawTwo:
            return 2 * UNSEEN_CARD
        if kind is TakeFrom:
            return self.rate_take_from(action.rival)
        if kind is TakeFromDiscard:
            top = state.discard[-5:]
            return UNSEEN_CARD + sum(self.card_worth(slot) for slot in top) / len(top)
        if kind is BuyResources:
            return sum(UNSEEN_CARD - self.card_worth(slot) for slot in action.slots) + UNSEEN_CARD
        if kind is GiveBack:
            return -self.card_worth(action.slot)
        if kind is Build:
            return self.rate_build(action)
        if kind is OnlyJokers:
            return 0.0
        if kind is DiscardCard:
            return -self.card_worth(action.slot) - self.best_gain(action.slot) * 10
        if kind is KeepRest:
            return -0.5
        if kind is Refill:
            return 1.0 if action.draw else 0.0
        if kind is EndInvention:
            return self.rate_end(action.agree)
        if kind is Describe:
            return float(sum(action.numbers))  # grand words for a grand machine
        if kind is ExhibitCard:
            return self.rate_exhibition_card(action.card)
        if kind is Vote:
            return self.rate_vote(action.seat)
        if kind is Reroll:
            return self.rate_reroll(action.die)
        if kind is KeepDice:
            return 0.0
        if kind in (Intimidate, ReplacePart, KeepParts, SwayCrowd, Sabotage):
            return self.rate_exhibition_queen(action)
        if kind is Promote:
            return float(state.king_acclaim(self.seat, action.competitor))
        return 0.0

    def jokers(self) -> list[int]:
        return [slot for slot in self.state.hands[self.seat] if (name := self.name(slot)) and is_joker(name)]

    def rate_action_card(self, card: str) -> float:
        state = self.state
        hand = state.hands[self.seat]
        useful = [slot for slot in hand if self.best_gain(slot) > 0.01]
        empty = sum(not slots for slots in state.installed[self.seat])
        if card == "king":
            gain = max((self.best_gain(slot) for slot in hand), default=0.0)
            return 10 * gain + (1.5 if useful and empty else 0.0) + (1.0 if state.final and useful else 0.0)
        if card == "queen":
            if not state.queen_possible(self.seat):
                return -1.0
            return 1.2 + 0.4 * max(0, 4 - len(hand)) + (0.5 if not useful else 0.0)
        # jack: worth it to pass on Jokers
        return 1.4 * len(self.jokers()) + (0.3 if len(hand) > HAND_LIMIT else 0.0)

    def rate_answer(self, action: Answer) -> float:
        state = self.state
        offered = sum(self.card_worth(slot) for slot in state.offer)
        given = sum(self.card_worth(slot) for slot in action.slots)
        # Face-down Jokers are how a Joker is passed on; a face-up Joker would be refused.
        shown_jokers = sum(
            1 for slot, up in zip(action.slots, action.face_up) if up and (name := self.name(slot)) and is_joker(name)
        )
        hidden_good = sum(
            1 for slot, up in zip(action.slots, action.face_up) if not up and not ((name := self.name(slot)) and is_joker(name))
        )
        return offered - given - 0.5 - 3.0 * shown_jokers - 0.2 * hidden_good

    def rate_accept(self, partner: int) -> float:
        state = self.state
        offered = sum(self.card_worth(slot) for slot in state.offer)
        received = sum(
            self.card_worth(slot) if up else UNSEEN_CARD - 1.0  # face down: beware
            for slot, up in state.answer_of(partner)
        )
        return received - offered

    def rate_take_from(self, rival: int) -> float:
        state = self.state
        hand = len(state.hands[rival])
        drawn = 2 if self.suit == HEARTS else (1 if state.deck else 0)
        # A rival's random card: an unseen card, less the chance it is a Joker it kept.
        taken = UNSEEN_CARD - 0.3 + 0.05 * hand
        if self.suit == CLUBS:
            return UNSEEN_CARD * min(1, len(state.deck)) + taken - (0.2 if state.deck else 0)
        if self.suit == SPADES:
            return taken
        return taken + drawn * UNSEEN_CARD * 0.5

    def rate_build(self, action: Build) -> float:
        state = self.state
        installed = [slot for slot in state.installed[self.seat][action.position] if slot not in action.scrap]
        after = installed + list(action.slots)
        gain = self.position_chance(self.seat, action.position, after) - self.position_chance(self.seat, action.position)
        spent = sum(max(0.0, self.card_worth(slot)) for slot in action.slots)
        scrapped = sum(max(0.0, self.card_worth(slot)) for slot in action.scrap)
        # Worth the gain now; keep cards for other positions unless this one needs them.
        return 20 * gain - 0.05 * spent - 0.1 * scrapped

    def rate_end(self, agree: bool) -> float:
        chances = [self.position_chance(self.seat, position) for position in range(POSITIONS)]
        ready = sum(chances) >= 2.0 or not self.state.hands[self.seat]
        return 1.0 if agree == ready else 0.0

    def rate_exhibition_card(self, card: str) -> float:
        # Sway the Crowd turns any die, Intimidate helps our own position: better than a King's
        # few Acclaim; Sabotage and Replacement Part depend on what others installed.
        if card == "queen":
            return {HEARTS: 2.0, CLUBS: 1.2, SPADES: 0.8, DIAMONDS: 0.6}[self.suit]
        return 1.0

    def rate_vote(self, seat: int) -> float:
        # Vote for the competitor with the least installed: it is the least likely to beat us.
        return -0.1 * sum(len(slots) for slots in self.state.installed[seat])

    # -- the exhibition ------------------------------------------------------------------------

    def rate_reroll(self, die: int) -> float:
        state = self.state
        now = state.working(self.seat)
        others = state.demonstration - state.dice[die]
        outcomes = [state.working(self.seat, others + value) for value in range(1, 7)]
        gain = 2 * (sum(outcomes) / 6 - now)
        return gain - 1.0  # a Jack kept is worth 1 Acclaim

    def rate_exhibition_queen(self, action: Any) -> float:
        state = self.state
        copy = state.copy()
        if isinstance(action, Intimidate):
            copy.intimidated[self.seat] = action.position
        elif isinstance(action, SwayCrowd):
            copy.dice[action.die] = action.value
        elif isinstance(action, Sabotage):
            copy.sabotaged.append(action.slot)
        elif isinstance(action, ReplacePart):
            owner, position = copy.owner_of_installed(action.installed)  # type: ignore[misc]
            slots = copy.installed[owner][position]
            slots[slots.index(action.installed)] = action.replacement
            name = self.name(action.replacement)
            if name is not None:
                copy.cards.revealed[action.replacement] = name
        return self._margin(copy)

    def _margin(self, state: AstonishingState) -> float:
        """Our working positions against the best competitor's, counted in Acclaim."""
        ours = 2 * state.working(self.seat)
        theirs = max(2 * state.working(seat) for seat in range(state.players) if seat != self.seat)
        return ours - 0.8 * theirs
