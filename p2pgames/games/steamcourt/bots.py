"""A Steam Court bot that sheds its hand like a courtier in a hurry, and uses its character's powers.

The bot sees what its seat sees: the public state (played, stopped, retrieved and stolen cards are
public) and the faces of the cards in its own hand. It reads its knowledge only for the slots of
its own hand, so nothing it decides depends on a card it could not see (not even cards it saw
before they left its hand).

**The hand's cost.** A hand is judged by how hard it is to get rid of, counted in plays: each
group of equal values (a 3/9 or a 6/12 joins the 9s or 3s, 12s or 6s when it has them, else counts
as a lone 9 or 12) costs one play, plus a surcharge for the chance that it can't be shed by
following (low values, and sets of more cards, rarely find a trick to follow), less a discount for
the chance that it wins the trick when played (high values, big sets) and so gives the lead back.
A Masterstroke costs almost nothing (it always wins); a Multiplier with any group is a bonus (it
turns that group into a winner). The estimates use the number of opponents still holding cards.

**Tricks.** Every lay is scored by the cost it sheds, plus the lead it is likely to win, less a
heavy charge for spending a Masterstroke or a Multiplier unless that finishes the hand (or leaves
only Masterstrokes, which go out at the next turn); going out beats everything. So the bot leads
its lowest, least followable group whole; follows with the lowest whole group that beats; keeps
its sets whole (breaking a set sheds nothing, so it passes instead); lays over its own cards when
everyone else has passed only when that sheds a whole group for free; plays a single card as a pair
(Jester) or lowers by two (Alchemist) when that sheds more; and ends the hand with a group and its
Multiplier, or its Masterstrokes.

**Privileges.** The Queen and the General give away the card whose loss lowers the cost most
(a lone low card, never a Masterstroke or a Multiplier) to the opponent with the most points; the
Tea Boy and the Vagabond give what the rules force (the Vagabond to the opponent with the fewest
points); the Tea Boy trades for the unseen Court Hand when the average cost of Court Hands drawn
at random from the cards he can't see (seeded, reproducible) is clearly below his own; the
Vagabond hoards only when that would even lower his cost, which is rare. The Inspector inspects
the next player. A coup is always pulled.

**Powers.** The General stops a lay that takes its player out, a Masterstroke from a player who
is nearly out, or a lay that beats his own when he is nearly out himself. The Time Traveler takes
back a lost lay that held a Masterstroke, a Multiplier or 11s and 12s while he still has sets to
shed. The Pirate steals the card that costs him least (a 12, or a card that joins a set of his)
unless he is nearly out. The Jester's unpass and the Unpass token are used when a lay would shed
a whole group (the token, once a game, only for a good one). The Discard-two token discards two
lone low cards (or the last two cards; anything useful in the fourth quarter). The Submariner and
the Plague Doctor draw when their hand is weak (no Masterstroke, no Multiplier, at most one high
group) and the pile looks rich, the Submariner with his lowest card of at least 2; drawn cards are
put back, the worst first, as far as the rules allow.

Anything else — an action type, a step or a state this bot doesn't know (a variant's) — goes to
the game's playout policy. Ties are broken by a :class:`DeterministicRandom` stream from the seed.
"""

from __future__ import annotations

import hashlib
from typing import Any, Sequence

from p2pgames.bots import best_of, legal_options
from p2pgames.engine import DeterministicRandom, Game, Knowledge, Step

from p2pgames.games.steamcourt.actions import (
    Coup,
    DiscardTwo,
    Dive,
    Give,
    Hoard,
    Inspect,
    KeepRest,
    Lay,
    Masterstroke,
    Pass,
    Plague,
    PutBack,
    Retrieve,
    Serve,
    Steal,
    Stop,
    Trade,
    TradeKeeping,
    Unpass,
)
from p2pgames.games.steamcourt.cards import CARD_NAMES, FACE, FACE_ORDER, NUMBER
from p2pgames.games.steamcourt.rules import SteamCourtState

__all__ = ["CourtierBot", "make_bot", "hand_cost"]

# Count vectors, indexed by a card's place in a hand's order (cards.FACE_ORDER): 1–12 the numbered
# cards, then 3/9, 6/12, Multiplier, Masterstroke.
D39, D612, MX, MS = FACE_ORDER["3/9"], FACE_ORDER["6/12"], FACE_ORDER["X"], FACE_ORDER["MS"]
_SIZE = max(FACE_ORDER.values()) + 1
INDEX: dict[str, int] = {name: FACE_ORDER[FACE[name]] for name in CARD_NAMES}  # a card's count-vector index

# How often a trick of each quantity comes up to follow (1: often … 5+: hardly ever), and how
# often an opponent can beat a set of each size.
_FOLLOW = (0.0, 0.9, 0.6, 0.35, 0.15, 0.05, 0.03)
_BEATEN = (0.0, 0.9, 0.6, 0.35, 0.15, 0.05, 0.03)
_LEAD_SURCHARGE = 0.8  # a group that can only be shed by a lead costs this much more
_WIN_DISCOUNT = 0.5  # a group that wins the trick gives the lead back
_MS_COST = 0.2
_MX_BONUS = -0.4  # a Multiplier with any group: that group becomes a winner
_MX_ALONE = 0.8  # a lone Multiplier is a weak single 1
_SPECIAL_CHARGE = 1.5  # spending a Masterstroke, or a Multiplier, before the last play
_LEAD_WON = 0.6  # winning the lead back (when following)
_LEAD_KEPT = 0.3  # keeping the lead (when leading)
_BREAK = 0.35  # laying part of a set while the hand is still long weakens the rest
_OUT = 100.0

_G_CACHE: dict[int, list[list[float]]] = {}


def _group_costs(opponents: int) -> list[list[float]]:
    """``costs[value][min(count, 6)]``: the cost of a group against ``opponents`` opponents."""
    table = _G_CACHE.get(opponents)
    if table is None:
        table = [[0.0] * 7 for _ in range(13)]
        for value in range(1, 13):
            for count in range(1, 7):
                follow = (value - 1) / 11 * _FOLLOW[count]
                win = (1.0 - (12 - value) / 11 * _BEATEN[count]) ** opponents
                table[value][count] = 1.0 + _LEAD_SURCHARGE * (1.0 - follow) - _WIN_DISCOUNT * win
        _G_CACHE[opponents] = table
    return table


def win_chance(value: int, quantity: int, opponents: int) -> float:
    """Roughly how likely a lay of ``quantity`` × ``value`` is to win against ``opponents``."""
    if value >= 13:
        return 1.0
    return (1.0 - (12 - value) / 11 * _BEATEN[min(quantity, 6)]) ** max(0, opponents)


def hand_cost(counts: Sequence[int], opponents: int) -> float:
    """The cost of a hand given as a count vector (see the module docstring)."""
    costs = _group_costs(max(1, opponents))
    c = list(counts[:13])
    if counts[D39]:
        c[9 if c[9] else 3 if c[3] else 9] += counts[D39]
    if counts[D612]:
        c[12 if c[12] else 6 if c[6] else 12] += counts[D612]
    total = 0.0
    groups = 0
    for value in range(1, 13):
        n = c[value]
        if n:
            groups += 1
            total += costs[value][n if n < 6 else 6]
    if counts[MX]:
        total += counts[MX] * (_MX_BONUS if groups else _MX_ALONE)
    return total + _MS_COST * counts[MS]


def _groups(counts: Sequence[int]) -> int:
    c = list(counts[:13])
    if counts[D39]:
        c[9 if c[9] else 3 if c[3] else 9] += 1
    if counts[D612]:
        c[12 if c[12] else 6 if c[6] else 12] += 1
    return sum(1 for n in c[1:] if n)


def make_bot(seed: bytes = b"") -> "CourtierBot":
    """The Steam Court bot, reproducible from ``seed``."""
    return CourtierBot(seed)


_TURN_KINDS = (Lay, Masterstroke, Pass, DiscardTwo, Dive, Plague)
_KNOWN = frozenset(
    _TURN_KINDS
    + (Give, Serve, Trade, TradeKeeping, Hoard, Inspect, Coup, Stop, Retrieve, Steal, Unpass, PutBack, KeepRest)
)


class CourtierBot:
    """Chooses among ``game.legal_actions`` by the cost of the hand each one leaves."""

    def __init__(self, seed: bytes = b"") -> None:
        self.random = DeterministicRandom(hashlib.sha256(b"steamcourt-bot\x00" + seed).digest())

    def choose(self, game: Game, state: Any, player: int, knowledge: Knowledge, step: Step) -> Any:
        options = legal_options(game, state, player, knowledge, step)
        if len(options) == 1:
            return options[0]
        # A variant's action or state this bot doesn't know comes back as None; an error is a bot
        # bug and raises.
        choice = self._decide(game, state, player, knowledge, options)
        if choice is None or choice not in options:
            return game.playout_choice(state, player, options, knowledge, self.random)
        return choice

    # -- dispatch ------------------------------------------------------------------------------

    def _decide(self, game: Game, state: Any, player: int, knowledge: Knowledge, options: list) -> Any:
        kinds = {type(option) for option in options}
        if not kinds <= _KNOWN or not isinstance(state, SteamCourtState):
            return None  # a variant's action or state: the game's playout policy decides
        view = SeatView(game, state, player, knowledge)
        if Coup in kinds:
            return next(option for option in options if type(option) is Coup)
        if kinds <= {Stop, Pass} and Stop in kinds:
            return view.stop(options)
        if Unpass in kinds:
            return view.unpass(options)
        if Retrieve in kinds and kinds <= {Retrieve, Pass}:
            return view.retrieve(options)
        if Steal in kinds and kinds <= {Steal, Pass}:
            return view.steal(options)
        if kinds <= {PutBack, KeepRest}:
            return self._best(options, view.return_worth)
        if Give in kinds and kinds <= {Give, Pass}:
            return view.give(options, self._best)
        if kinds <= {Serve}:
            return view.serve(options)
        if kinds <= {Trade, TradeKeeping}:
            return view.trade(options, self.random)
        if kinds <= {Hoard}:
            return view.hoard(options, self.random)
        if Inspect in kinds and kinds <= {Inspect, Pass}:
            return view.inspect(options)
        known = [option for option in options if type(option) in _TURN_KINDS]
        if any(type(option) in (Lay, Masterstroke, Pass) for option in known):
            return view.turn(known, self._best)
        return None

    def _best(self, options: Sequence[Any], worth) -> Any:
        return best_of(options, worth, self.random)


class SeatView:
    """One decision's view from ``player``'s seat: its hand as counts, and the table."""

    def __init__(self, game: Game, state: Any, player: int, knowledge: Knowledge) -> None:
        self.game = game
        self.state = state
        self.player = player
        self.knowledge = knowledge
        self.table = state.table_of(player)
        revealed = state.cards.revealed
        names: dict[int, str] = {}
        counts = [0] * _SIZE
        for slot in state.hands[player]:
            name = revealed.get(slot) or knowledge.get(slot)
            if name is not None:
                names[slot] = name
                counts[INDEX[name]] += 1
        self.names = names
        self.counts = counts
        hands = state.hands
        self.opponents = sum(1 for p in self.table.seats if p != player and hands[p])
        self.cost = hand_cost(counts, self.opponents)

    def after(self, slots, multiplier=None) -> list[int]:
        counts = self.counts[:]
        for slot in slots:
            counts[INDEX[self.names[slot]]] -= 1
        if multiplier is not None:
            counts[INDEX[self.names[multiplier]]] -= 1
        return counts

    def plus(self, names) -> list[int]:
        counts = self.counts[:]
        for name in names:
            counts[INDEX[name]] += 1
        return counts

    def cost_of(self, counts: Sequence[int]) -> float:
        return hand_cost(counts, self.opponents)

    # -- a turn: lay, pass, or a power of the turn ----------------------------------------------

    def turn(self, options: list, best) -> Any:
        # Powers of the turn first: the turn goes on after them.
        discards = [option for option in options if type(option) is DiscardTwo]
        if discards:
            choice = self._discard_two(discards)
            if choice is not None:
                return choice
        draws = [option for option in options if type(option) in (Dive, Plague)]
        if draws:
            choice = self._draw(draws)
            if choice is not None:
                return choice
        self._read_trick()
        plays = [option for option in options if type(option) in (Lay, Masterstroke, Pass)]
        if self.leading:
            plays = _biggest_multiplied(plays)
        return best(plays, self.play_worth) if plays else None

    def _read_trick(self) -> None:
        """What :meth:`play_worth` weighs: the opponents still in the trick, whether the lay to
        beat is this seat's own, whether it leads, and whether a General may still stop its lay."""
        table = self.table
        lays = table.lays
        hands = self.state.hands
        self.active = sum(1 for p in table.seats if p != self.player and hands[p] and p not in table.passed)
        self.mine = bool(lays) and lays[-1][0] == self.player
        self.leading = not lays
        general = self.state.ready(table, "stop")
        self.general_waits = general >= 0 and general != self.player

    def play_worth(self, action: Any) -> float:
        kind = type(action)
        if kind is Pass:
            return 0.05
        if kind is Masterstroke:
            after = self.after((action.slot,))
            value, quantity = 13, 1
        else:
            after = self.after(action.slots, action.multiplier)
            value, quantity = action.value, action.quantity
        left = sum(after)
        if left == 0:
            return _OUT + (0.0 if kind is Masterstroke or not self.general_waits else 1.0)
        worth = self.cost - self.cost_of(after)
        only_ms = left == after[MS]
        if only_ms:
            worth += _OUT / 2
        elif kind is Masterstroke or action.multiplier is not None:
            worth -= _SPECIAL_CHARGE
        if kind is Lay:
            if action.multiplier is None and len(action.slots) == 1 and quantity == 2:
                worth -= 0.1  # the Jester's pair, once a quarter
            if left > 4 and any(after[INDEX[self.names[slot]]] for slot in action.slots):
                worth -= _BREAK
        if not self.mine:
            chance = win_chance(value, quantity, self.active)
            if kind is Masterstroke and self.general_waits:
                chance *= 0.7
            worth += (_LEAD_KEPT if self.leading else _LEAD_WON) * chance
        return worth

    def _discard_two(self, options: list) -> Any:
        best_option, best_gain = None, None
        for option in options:
            after = self.after(option.slots)
            gain = _OUT if not sum(after) else self.cost - self.cost_of(after)
            if best_gain is None or gain > best_gain + 1e-9:
                best_option, best_gain = option, gain
        if best_gain is None:
            return None
        threshold = 1.0 if self.state.quarter >= 4 else 2.6
        return best_option if best_gain >= threshold else None

    def weak(self) -> bool:
        counts = self.counts
        if counts[MS] or counts[MX]:
            return False
        high = sum(1 for value in (10, 11, 12) if counts[value]) + (1 if counts[D612] else 0)
        return high <= 1 and sum(counts) >= 5

    def _pile_richness(self, pile: list[int]) -> float:
        """The share of good cards (specials, 10–12) among a pile's known cards."""
        revealed = self.state.cards.revealed
        known = [revealed[slot] for slot in pile if slot in revealed]
        if not known:
            return 0.0
        good = sum(1 for name in known if INDEX[name] >= 10)
        return good / len(known)

    def unseen(self) -> list[int]:
        """Counts of the cards this seat hasn't seen: the deck dealt (the Duo variant's has no 1s
        or 2s) less its hand and the public cards at its table."""
        unseen = [0] * _SIZE
        for name in self.state.deck():
            unseen[INDEX[name]] += 1
        for name in self.names.values():
            unseen[INDEX[name]] -= 1
        revealed = self.state.cards.revealed
        table = self.table
        seen_slots = list(table.discard)
        for lay in table.lays:
            seen_slots.extend(lay[1])
            if lay[4] >= 0:
                seen_slots.append(lay[4])
        for p in table.seats:
            if p != self.player:
                seen_slots.extend(self.state.hands[p])
        for slot in seen_slots:
            name = revealed.get(slot)
            if name is not None:
                unseen[INDEX[name]] -= 1
        return [max(0, n) for n in unseen]

    def _unseen_richness(self) -> float:
        """The share of good cards (specials, 10–12) among the cards this seat hasn't seen."""
        unseen = self.unseen()
        total = sum(unseen)
        return sum(unseen[10:]) / total if total > 0 else 0.0

    def _draw(self, options: list) -> Any:
        if not self.weak():
            return None
        table = self.table
        plague = [option for option in options if type(option) is Plague]
        if plague and len(table.discard) >= 4 and self._pile_richness(table.discard) >= 0.25:
            return plague[0]
        dives = [option for option in options if type(option) is Dive]
        if not dives:
            return None
        richness = {
            "court": self._unseen_richness() if table.court else -1.0,
            "discard": self._pile_richness(table.discard) if len(table.discard) >= 2 else -1.0,
        }
        pile = max(("court", "discard"), key=lambda p: (richness[p], p == "court"))
        if richness[pile] < 0.2:
            return None
        candidates = []
        for option in dives:
            if option.pile != pile:
                continue
            number = NUMBER[self.names[option.slot]]
            if 2 <= number <= 4:
                candidates.append((number, option.slot, option))
        return min(candidates)[2] if candidates else None

    def return_worth(self, action: Any) -> float:
        if type(action) is KeepRest:
            return -self.cost
        return -self.cost_of(self.after((action.slot,)))

    # -- windows -------------------------------------------------------------------------------

    def stop(self, options: list) -> Any:
        table = self.table
        hands = self.state.hands
        lay = table.lays[-1]
        layer = lay[0]
        left = len(hands[layer])
        stop = False
        if left == 0:
            stop = True  # he would go out
        elif lay[2] >= 13 and left <= 2:
            stop = True  # a Masterstroke from a player who is nearly out
        elif len(table.lays) >= 2 and table.lays[-2][0] == self.player and _groups(self.counts) <= 2:
            stop = True  # it beats me while I am nearly out
        return Stop(layer) if stop and Stop(layer) in options else Pass()

    def _best_lay_now(self) -> float:
        """The worth of the best lay this seat could make on the trick now (unpassing)."""
        table = self.table
        lays = self.game.lay_options(self.state, table, self.player, self.knowledge)
        if not lays:
            return -1.0
        self._read_trick()
        return max(self.play_worth(lay) for lay in lays)

    def unpass(self, options: list) -> Any:
        worth = self._best_lay_now()
        sources = {option.source: option for option in options if type(option) is Unpass}
        if "jester" in sources and worth >= 1.0:
            return sources["jester"]
        if "token" in sources and worth >= 1.4:
            return sources["token"]
        return Pass()

    def retrieve(self, options: list) -> Any:
        table = self.table
        mine = [lay for lay in table.lays if lay[0] == self.player]
        if not mine:
            return Pass()
        _, slots, value, _, multiplier = mine[-1]
        names = [self.state.cards.revealed.get(slot) for slot in slots]
        special = multiplier >= 0 or any(name and INDEX[name] == MS for name in names)
        useful = special or (value >= 11 and _groups(self.counts) >= 2)
        return Retrieve() if useful and Retrieve() in options else Pass()

    def steal(self, options: list) -> Any:
        if sum(self.counts) < 3:
            return Pass()
        best_option, best_delta = None, None
        for option in options:
            if type(option) is not Steal:
                continue
            name = self.state.cards.revealed.get(option.slot)
            if name is None:
                continue
            delta = self.cost_of(self.plus([name])) - self.cost
            key = (delta, -NUMBER[name])
            if best_delta is None or key < best_delta:
                best_option, best_delta = option, key
        if best_option is not None and best_delta[0] <= 0.7:
            return best_option
        return Pass()

    # -- Beginning of Quarter privileges ----------------------------------------------------------

    def _rank_opponents(self, targets: list[int], most: bool) -> list[int]:
        """Opponents by points (most or fewest first), then by how soon they play after me."""
        totals = self.state.totals()
        seats = self.table.seats
        here = seats.index(self.player)
        count = len(seats)

        def key(p: int):
            distance = (seats.index(p) - here) % count if p in seats else count
            return (-totals[p] if most else totals[p], distance)

        return sorted(targets, key=key)

    def give(self, options: list, best) -> Any:
        gifts = [option for option in options if type(option) is Give]
        if not gifts:
            return Pass()
        target = self._rank_opponents(sorted({option.to for option in gifts}), most=True)[0]
        mine = [option for option in gifts if option.to == target]

        def gain(option: Give) -> float:
            name = self.names.get(option.slot)
            if name is None or INDEX[name] in (MX, MS):
                return -10.0
            return self.cost - self.cost_of(self.after((option.slot,)))

        choice = best(mine, gain)
        return choice if gain(choice) > 0.3 else Pass()

    def serve(self, options: list) -> Any:
        targets = sorted({option.to for option in options})
        target = self._rank_opponents(targets, most=False)[0]
        return next(option for option in options if option.to == target)

    def _sample_cost(self, court_size: int, keep: list[int], random: DeterministicRandom) -> float:
        """The average cost of ``keep`` plus a Court Hand of ``court_size`` cards drawn at random
        from the cards this seat hasn't seen (reproducibly)."""
        pool = self.unseen()
        unseen = [index for index in range(_SIZE) for _ in range(pool[index])]
        samples = 16
        total = 0.0
        for _ in range(samples):
            counts = keep[:]
            picks = unseen[:]
            for i in range(min(court_size, len(picks))):
                j = i + random.below(len(picks) - i)
                picks[i], picks[j] = picks[j], picks[i]
                counts[picks[i]] += 1
            total += self.cost_of(counts)
        return total / samples

    def trade(self, options: list, random: DeterministicRandom) -> Any:
        trade = next((option for option in options if option != Trade(False)), None)
        if trade is None:
            return Trade(False)
        table = self.table
        # The cards he keeps: those given to him (named by the trade once his hand was re-masked).
        kept = set(trade.slots) if type(trade) is TradeKeeping else set(table.received)
        keep = [0] * _SIZE
        for slot, name in self.names.items():
            if slot in kept:
                keep[INDEX[name]] += 1
        expected = self._sample_cost(len(table.court), keep, random)
        return trade if expected < self.cost - 0.75 else Trade(False)

    def hoard(self, options: list, random: DeterministicRandom) -> Any:
        court = len(self.table.court)
        if not court or Hoard(True) not in options:
            return Hoard(False)
        expected = self._sample_cost(court, self.counts[:], random)
        return Hoard(True) if expected < self.cost - 0.5 else Hoard(False)

    def inspect(self, options: list) -> Any:
        seats = self.table.seats
        here = seats.index(self.player)
        targets = {option.seat: option for option in options if type(option) is Inspect}
        for offset in range(1, len(seats)):
            seat = seats[(here + offset) % len(seats)]
            if seat in targets:
                return targets[seat]
        return next(iter(targets.values()))


def _biggest_multiplied(options: list) -> list:
    """On a lead, of the Multiplier lays with the same cards keep only the largest count
    (it is the likeliest to win, and costs the same): fewer options to judge."""
    biggest: dict[tuple, Lay] = {}
    rest = []
    for option in options:
        if type(option) is Lay and option.multiplier is not None:
            key = (option.slots, option.value)
            held = biggest.get(key)
            if held is None or option.quantity > held.quantity:
                biggest[key] = option
        else:
            rest.append(option)
    return rest + list(biggest.values())
