"""A Beltpunk bot that plays sensibly: it builds and scores sets and keeps its scrap pile small.

The bot sees what its seat sees (the public state and its knowledge) and judges each legal action
by the hand it leaves, in points:

* the best set the hand can score now, plus a small value for cards that work towards sets
  (pairs of a rank, suited neighbours for Perfect Belts, off-suit neighbours for Cobbled Belts),
  counting the cards of a rank or run that are still to be found;
* minus what the hand would cost if the round ended now (each card left becomes a scrap card),
  weighted by how close the end of the round is;
* minus every card it expects to take into its scrap pile through overflows.

Discards prefer cards of little use whose conveyor won't overflow on the bot's own resolution
(estimated from the current counts and how likely another discard of that suit lands first);
actions are compared by the position they leave, so the bot draws out of a conveyor that is about
to overflow onto it, and only dumps a card into The Machine where it won't overflow. Ties are broken
by a :class:`DeterministicRandom` stream from the seed, so a bot is reproducible.
"""

from __future__ import annotations

import hashlib
from typing import Any, Iterable, Sequence

from p2pgames.bots import best_of, legal_options
from p2pgames.engine import DeterministicRandom, Game, Knowledge, Step

from p2pgames.games.beltpunk.actions import (
    Declare,
    Discard,
    Draw,
    Exchange,
    Give,
    Look,
    Pick,
    Place,
    SUIT_ACTIONS,
    Score,
    Skip,
    Take,
)
from p2pgames.games.beltpunk.cards import DECK, RANK_OF, SUIT_OF, classify, find_sets, points_of
from p2pgames.games.beltpunk.state import BeltpunkState, Phase

__all__ = ["HaberdasherBot", "make_bot"]

# What the action of a discarded card is worth on average, by suit, before the round nears its end
# (drawing matters less as the round ends; looking and taking can also rescue a full conveyor).
_ACTION_WORTH = {Draw: 0.4, Look: 0.8, Take: 0.6, Exchange: 0.0}


def make_bot(seed: bytes = b"") -> "HaberdasherBot":
    """The Beltpunk bot, reproducible from ``seed``."""
    return HaberdasherBot(seed)


class HaberdasherBot:
    """Chooses among ``game.legal_actions`` by the points of the position each one leaves."""

    def __init__(self, seed: bytes = b"") -> None:
        self.random = DeterministicRandom(hashlib.sha256(b"beltpunk-bot\x00" + seed).digest())

    def choose(
        self, game: Game, state: BeltpunkState, player: int, knowledge: Knowledge, step: Step
    ) -> Any:
        options = legal_options(game, state, player, knowledge, step)
        if len(options) == 1:
            return options[0]
        view = _View(state, player, knowledge)
        phase = state.phase
        if phase == Phase.DISCARD:
            return self._best(options, view.discard_worth)
        if phase == Phase.DECLARE:
            return Declare(True) if Declare(True) in options else options[0]
        if phase == Phase.SCORE:
            return self._best(options, view.score_worth)
        if phase == Phase.ACTION:
            return self._best(options, view.action_worth)
        if phase == Phase.PICK:
            return self._best(options, view.pick_worth)
        if phase == Phase.PLACE:
            return self._best(options, view.place_worth)
        if phase == Phase.GIVE:
            return self._best(options, view.give_worth)
        return options[self.random.below(len(options))]

    def _best(self, options: Sequence[Any], worth) -> Any:
        return best_of(options, worth, self.random)


class _View:
    """One decision's view of the table from ``player``'s seat, with the evaluation helpers."""

    def __init__(self, state: BeltpunkState, player: int, knowledge: Knowledge) -> None:
        self.state = state
        self.player = player
        self.knowledge = knowledge
        revealed = state.cards.revealed
        self.hand = {slot: state.value(slot, knowledge) for slot in state.hands[player]}
        self.players = state.players
        # Cards scored in sets are out of the round for good: no set can be built with them.
        gone = set()
        for sets in state.sets:
            for slots in sets:
                gone.update(revealed[slot] for slot in slots)
        self.gone = gone
        # Cards whose place this seat knows (so they are not the top of the deck).
        first = state.cards.deals[state.deal].first_slot if state.deal >= 0 else 0
        seen = {name for slot, name in knowledge.items() if slot >= first}
        seen.update(name for slot, name in revealed.items() if slot >= first)
        self.unseen = [name for name in DECK if name not in seen]
        # How much a card still in hand at the end of the round costs now: more as the deck empties.
        turns_left = len(state.deck) / self.players
        self.hand_cost = min(1.0, 1.2 / (turns_left + 1.0))

    # -- evaluating hands ----------------------------------------------------------------------

    def hand_worth(self, names: Sequence[str]) -> float:
        """Points a hand is worth: its best set now and its promise, less its cost at round end."""
        names = [name for name in names if name]
        best = 0
        if len(names) >= 2:
            for slots in find_sets(dict(enumerate(names))):
                cards = [names[i] for i in slots]
                best = max(best, points_of(classify(cards), len(cards)))
        promise = sum(self._promise(name, names) for name in names)
        return best + 0.35 * promise - self.hand_cost * len(names)

    def _promise(self, name: str, names: Sequence[str]) -> float:
        rank, suit = RANK_OF[name], SUIT_OF[name]
        mates = 0
        value = 0.0
        for other in names:
            if other == name:
                continue
            other_rank = RANK_OF[other]
            if other_rank == rank:
                mates += 1
            elif SUIT_OF[other] == suit:
                gap = abs(other_rank - rank)
                value += 1.0 if gap == 1 else 0.4 if gap == 2 else 0.0
            elif abs(other_rank - rank) == 1:
                value += 0.3
        live = sum(1 for s in "SGPE" if f"{s}{rank}" != name and f"{s}{rank}" not in self.gone)
        value += (0.0, 2.0, 2.6, 3.0)[mates] + 0.25 * live
        return value

    def hand_names(self) -> list[str]:
        return [name for name in self.hand.values() if name]

    def without(self, *slots: int) -> list[str]:
        return [name for slot, name in self.hand.items() if slot not in slots and name]

    # -- overflows -----------------------------------------------------------------------------

    def overflow_cards(self, counts: Iterable[int]) -> int:
        """Cards that overflow onto the resolving player for these conveyor counts."""
        return sum(count for count in counts if count > self.players)

    def counts(self) -> list[int]:
        return [len(conveyor) for conveyor in self.state.conveyors]

    def _lands_before(self, name: str) -> float:
        """Chance that at least one other player's discard of this suit resolves before ours."""
        lower = (RANK_OF[name] - 1) / 12
        return 1.0 - (1.0 - 0.25 * lower) ** (self.players - 1)

    # -- decisions -----------------------------------------------------------------------------

    def discard_worth(self, action: Discard) -> float:
        name = self.hand[action.slot]
        if name is None:
            return -100.0
        suit = SUIT_OF[name]
        count = len(self.state.conveyors[suit])
        actions = SUIT_ACTIONS[suit]
        can_rescue = Look in actions or Take in actions
        before = self._lands_before(name)
        risk = 0.0
        if count >= self.players:
            # Ours would be one too many, unless someone lands first and takes the overflow.
            risk = (1.0 - before) * (0.8 if can_rescue else count + 1.0)
        elif count == self.players - 1:
            risk = before * (0.8 if can_rescue else count + 2.0)
        worth = sum(_ACTION_WORTH[kind] for kind in actions) * (1.0 - self.hand_cost)
        return self.hand_worth(self.without(action.slot)) - risk + worth

    def score_worth(self, action: Score) -> float:
        cards = [self.hand[slot] for slot in action.slots]
        kind = classify(cards)
        points = points_of(kind, len(cards)) if kind else -10
        return points + self.hand_worth(self.without(*action.slots))

    def give_worth(self, action: Give) -> float:
        return self.hand_worth(self.without(action.slot))

    def pick_worth(self, action: Pick) -> float:
        state = self.state
        name = state.value(action.slot, self.knowledge)
        counts = self.counts()
        if state.pile is None:
            counts[SUIT_OF[name]] -= 1
        bonus = 1.0 if state.pile == self.player else 0.0  # one card fewer in our scrap pile
        return self.hand_worth(self.hand_names() + [name]) + bonus - self.overflow_cards(counts)

    def place_worth(self, action: Place) -> float:
        state = self.state
        name = self.hand[action.slot]
        counts = self.counts()
        if state.pile is None:
            counts[SUIT_OF[name]] += 1
        return self.hand_worth(self.without(action.slot)) - self.overflow_cards(counts)

    def action_worth(self, action: Any) -> float:
        kind = type(action)
        counts = self.counts()
        names = self.hand_names()
        if kind is Skip:
            return self.hand_worth(names) - self.overflow_cards(counts)
        if kind is Draw:
            sample = self.unseen or list(DECK)
            # A handful of the cards still hidden stands in for the unknown top card.
            step = max(1, len(sample) // 8)
            gains = [self.hand_worth(names + [name]) for name in sample[::step]]
            return sum(gains) / len(gains) - self.overflow_cards(counts)
        if kind is Look:
            best = None
            for slot in self.state.pile_slots(action.pile):
                name = self.state.value(slot, self.knowledge)
                if name is None:
                    continue  # unknown to us until we look: judged by the known cards only
                after = counts[:]
                if action.pile is None:
                    after[SUIT_OF[name]] -= 1
                value = self.hand_worth(names + [name]) - self.overflow_cards(after)
                best = value if best is None else max(best, value)
            if best is None:
                return -50.0
            if action.pile == self.player:
                best += 1.0
            elif action.pile is not None:
                best -= 0.3  # a card out of a rival's scrap pile is a point for them
            return best
        if kind is Take:
            return self._take_worth(action, counts, names)
        if kind is Exchange:
            # The other player gives what suits them least: about as good as nothing.
            return self.hand_worth(self.without(action.slot)) - 0.5 - self.overflow_cards(counts)
        return -100.0

    def _take_worth(self, action: Take, counts: list[int], names: list[str]) -> float:
        state = self.state
        name = state.value(action.slot, self.knowledge)
        if name is None:
            return -50.0  # a blind card from a face-down pile: rarely worth it
        found = state.pile_of(action.slot)
        pile = found[0] if found else None
        after = counts[:]
        if pile is None:
            after[SUIT_OF[name]] -= 1
        hand = names + [name]
        best = None
        for index, placed in enumerate(hand):
            placed_counts = after[:]
            if pile is None:
                placed_counts[SUIT_OF[placed]] += 1
            rest = hand[:index] + hand[index + 1 :]
            value = self.hand_worth(rest) - self.overflow_cards(placed_counts)
            best = value if best is None else max(best, value)
        return best
