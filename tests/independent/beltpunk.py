"""Beltpunk Haberdasher (SPEC §D2) and the engine's retiring of deals (§D1), from the SPEC alone.

`Beltpunk(players, target)` offers `probe.Probe`'s interface to `replica.Replica`: `encode()`,
`step()`, the events `chance(seed)`, `simultaneous(pairs)`, `act(seat, action)`,
`cards_done(values)`, and `check(seat, action)` for a secret choice. Actions are checked for their
wire form and for whose move it is; which card allows which action is RULES.md's, not followed here.
"""

from . import deck, probe
from .probe import RuleError

DECK_DOMAIN = "p2pgames/beltpunk"
SUITS = "SGPE"
MACHINE_ORDER = [f"{suit}{rank}" for suit in SUITS for rank in range(1, 14)]
MACHINE_RANK = {name: index for index, name in enumerate(MACHINE_ORDER)}
HAND_SIZE = {2: 8, 3: 7, 4: 6}
SAME_RANK_POINTS = {2: 3, 3: 5, 4: 10}


class Cards(probe.Cards):
    """CardState (§D1) with the games' choice of retiring an audited deal."""

    def retire(self, number):
        """§D1: the deal's slots leave `revealed`, its record `deals`, its number `audited`."""
        record = self.deals.pop(number)
        for slot in range(record[1], record[1] + record[2]):
            self.revealed.pop(slot, None)
        self.audited = [deal for deal in self.audited if deal != number]


def suit_of(name):
    return SUITS.index(name[0])


def rank_of(name):
    return int(name[1:])


def set_points(names):
    """The points of a scored set (§D2, *a round ends*), or None if the cards are no set."""
    size = len(names)
    ranks = sorted(rank_of(name) for name in names)
    suits = {suit_of(name) for name in names}
    if size < 2 or len(set(names)) != size:
        return None
    if ranks[0] == ranks[-1]:
        return SAME_RANK_POINTS.get(size)
    if size < 3 or any(ranks[i + 1] != ranks[i] + 1 for i in range(size - 1)):
        return None
    if len(suits) == 1:
        return 5 + 2 * (size - 3)
    if len(suits) == size <= 4:
        return size
    return None


def is_slot(value):
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2 ** 31


class Beltpunk:
    """The state map of §D2's table 'The state' and the changes of its flow, event by event."""

    def __init__(self, players: int, target: int = 25):
        if players not in HAND_SIZE or target not in (25, 35):
            raise ValueError("Beltpunk is for 2 to 4 players, target 25 or 35")
        self.players, self.target = players, target
        self.cards = Cards()
        self.phase = "first-foreman"
        self.round = self.turn = 0
        self.foreman = self.deal = -1
        self.deck = []
        self.hands = [[] for _ in range(players)]
        self.conveyors = [[] for _ in SUITS]
        self.scrap = [[] for _ in range(players)]
        self.sets = [[] for _ in range(players)]
        self.totals = [0] * players
        self.last_round = []
        self.opening = []
        self.order = []
        self.resolving = 0
        self.pile = None
        self.placing = self.offer = self.partner = -1
        self.declaring = 0
        self.scorers = []
        self.scoring = []

    def encode(self):
        return {"players": self.players, "target": self.target, "cards": self.cards.encode(), "phase": self.phase,
                "round": self.round, "turn": self.turn, "foreman": self.foreman, "deal": self.deal,
                "deck": list(self.deck), "hands": [list(h) for h in self.hands],
                "conveyors": [list(c) for c in self.conveyors], "scrap": [list(p) for p in self.scrap],
                "sets": [[list(s) for s in sets] for sets in self.sets], "totals": list(self.totals),
                "last_round": list(self.last_round), "opening": list(self.opening),
                "order": [list(o) for o in self.order], "resolving": self.resolving, "pile": self.pile,
                "placing": self.placing, "offer": self.offer, "partner": self.partner,
                "declaring": self.declaring, "scorers": list(self.scorers),
                "scoring": [[seat, list(slots)] for seat, slots in self.scoring]}

    def kept_slots(self, seat):
        """The hidden slots in the seat's own keeping (§D1, §B14): its hand."""
        return list(self.hands[seat])

    def actor(self):
        return self.order[self.resolving][0]

    def step(self):
        """§D2's flow table: the step of the phase, or the pending card operations."""
        if self.cards.pending:
            return ("cards", [list(op) for op in self.cards.pending])
        phase = self.phase
        if phase == "first-foreman":
            return ("chance",)
        if phase == "discard":
            return ("simultaneous", list(range(self.players)))
        if phase in ("action", "pick", "place"):
            return ("turn", [self.actor()])
        if phase == "give":
            return ("turn", [self.partner])
        if phase == "declare":
            return ("turn", [(self.foreman + self.declaring) % self.players])
        if phase == "score":
            return ("simultaneous", list(self.scorers))
        if phase == "over":
            best = max(self.totals)
            return ("over", {"scores": list(self.totals),
                             "winners": [s for s in range(self.players) if self.totals[s] == best],
                             "summary": f"{best} points after {self.round} rounds"})
        raise AssertionError(f"no step in phase {phase} with nothing pending")

    # --- rounds and turns ---------------------------------------------------------------------

    def chance(self, seed: bytes):
        """§D2 'The chance step': one draw of `below(n)`; the first round starts."""
        self.foreman = deck.Stream(seed).below(self.players)
        self._start_round()

    def _start_round(self):
        players, hand = self.players, HAND_SIZE[self.players]
        self.round += 1
        self.deal, first = self.cards.new_deal(MACHINE_ORDER)
        for seat in range(players):
            self.hands[seat] = list(range(first + seat * hand, first + (seat + 1) * hand))
            self.cards.disclose(self.hands[seat], seat)
        self.opening = list(range(first + players * hand, first + players * hand + players))
        self.cards.reveal(self.opening)
        self.deck = list(range(first + players * hand + players, first + len(MACHINE_ORDER)))
        self._start_turn()

    def _start_turn(self):
        if self.turn:
            self.foreman = (self.foreman + 1) % self.players
        self.turn += 1
        for k in range(self.players):
            if not self.deck:
                break
            seat = (self.foreman + k) % self.players
            slot = self.deck.pop(0)
            self.hands[seat].append(slot)
            self.cards.disclose([slot], seat)
        self.phase = "discard"

    def _end_turn(self):
        if not self.deck or not all(self.hands):
            self._end_round()
        else:
            self._start_turn()

    def _end_round(self):
        scores = []
        for seat in range(self.players):
            self.scrap[seat].extend(self.hands[seat])
            self.hands[seat] = []
            points = sum(set_points([self.cards.revealed[s] for s in slots]) for slots in self.sets[seat])
            scores.append(points - len(self.scrap[seat]))
        self.totals = [total + score for total, score in zip(self.totals, scores)]
        self.last_round = scores
        self.cards.audit(self._round_deals())
        self.phase = "auditing"

    def _round_deals(self):
        """§D2: the round's deal and every re-mask made after it."""
        return [number for number in self.cards.deals if number >= self.deal]

    def _after_audit(self):
        if max(self.totals) >= self.target:
            self.phase = "over"
            return
        for number in self._round_deals():
            self.cards.retire(number)
        self.deck = []
        self.conveyors = [[] for _ in SUITS]
        self.scrap = [[] for _ in range(self.players)]
        self.sets = [[] for _ in range(self.players)]
        self._start_round()

    # --- events ---------------------------------------------------------------------------------

    def cards_done(self, values):
        self.cards.done(values)
        if self.opening:
            for slot in self.opening:
                self.conveyors[suit_of(self.cards.revealed[slot])].append(slot)
            self.opening = []
        if self.phase == "revealing":
            self._after_discards()
        elif self.phase == "placing":
            self.conveyors[suit_of(self.cards.revealed[self.placing])].append(self.placing)
            self.placing = -1
            self._end_resolution()
        elif self.phase == "scoring":
            self._after_sets()
        elif self.phase == "auditing":
            self._after_audit()

    def check(self, seat, action):
        """Raises RuleError unless `action` is a secret choice `seat` may make now (§D2 'Actions')."""
        if not (isinstance(action, list) and len(action) == 2 and action[0] in ("discard", "score")):
            raise RuleError("malformed", f"not a secret choice: {action!r}", seat)
        if action[0] == "discard":
            if not is_slot(action[1]):
                raise RuleError("malformed", f"not a slot: {action[1]!r}", seat)
            slots, allowed = [action[1]], self.phase == "discard"
        else:
            slots = action[1]
            if not (isinstance(slots, list) and 2 <= len(slots) <= 13 and all(is_slot(s) for s in slots)
                    and all(a < b for a, b in zip(slots, slots[1:]))):
                raise RuleError("malformed", f"not a set of slots: {slots!r}", seat)
            allowed = self.phase == "score" and seat in self.scorers
        if not allowed:
            raise RuleError("illegal", f"{action[0]} is not allowed now", seat)
        if any(s not in self.hands[seat] for s in slots):
            raise RuleError("illegal", f"seat {seat} does not hold {slots}", seat)

    def simultaneous(self, pairs):
        for seat, action in pairs:
            self.check(seat, action)
        if self.phase == "discard":
            self.order = [[seat, action[1]] for seat, action in pairs]
            for seat, slot in self.order:
                self.hands[seat].remove(slot)
            self.phase = "revealing"
            self.cards.reveal([slot for _seat, slot in self.order])
            if not self.cards.pending:
                self._after_discards()
        else:
            self.scoring = [[seat, list(action[1])] for seat, action in pairs]
            for seat, slots in self.scoring:
                for slot in slots:
                    self.hands[seat].remove(slot)
            self.phase = "scoring"
            self.cards.reveal([slot for _seat, slots in self.scoring for slot in slots])
            if not self.cards.pending:
                self._after_sets()

    def _after_discards(self):
        self.order.sort(key=lambda discard: MACHINE_RANK[self.cards.revealed[discard[1]]])
        self.resolving = 0
        self._resolve()

    def _after_sets(self):
        for seat, slots in self.scoring:
            if set_points([self.cards.revealed[s] for s in slots]) is None:
                raise RuleError("rule-violation", f"seat {seat} scored cards that are no set", seat)
            self.sets[seat].append(slots)
        self.scorers, self.scoring = [], []
        self._end_turn()

    # --- resolutions ----------------------------------------------------------------------------

    def _resolve(self):
        seat, slot = self.order[self.resolving]
        name = self.cards.revealed[slot]
        self.conveyors[suit_of(name)].append(slot)
        self.phase = "action"
        others_empty = not any(self.hands[o] for o in range(self.players) if o != seat)
        if name[0] == "S" and not self.deck and (not self.hands[seat] or others_empty):
            self._end_resolution()

    def _end_resolution(self):
        actor = self.actor()
        for suit in range(len(SUITS)):
            if len(self.conveyors[suit]) > self.players:
                self.scrap[actor].extend(self.conveyors[suit])
                self.conveyors[suit] = []
        self.pile, self.offer, self.partner = None, -1, -1
        self.resolving += 1
        if self.resolving < len(self.order):
            self._resolve()
            return
        self.order, self.resolving, self.declaring, self.scorers = [], 0, 0, []
        self.phase = "declare"
        self._next_declaration()

    def _next_declaration(self):
        while self.declaring < self.players:
            if len(self.hands[(self.foreman + self.declaring) % self.players]) >= 2:
                return
            self.declaring += 1
        if not self.scorers:
            self._end_turn()
        else:
            self.scorers.sort()
            self.phase = "score"

    def _pile_holding(self, slot):
        """(pile, its list): nil for a conveyor, else the seat of the scrap pile."""
        for conveyor in self.conveyors:
            if slot in conveyor:
                return None, conveyor
        for seat, scrap in enumerate(self.scrap):
            if slot in scrap:
                return seat, scrap
        raise RuleError("illegal", f"slot {slot} lies in no pile")

    def act(self, seat, action):
        """A Turn's action (§D2 'The flow'); raises RuleError for a malformed one or the wrong seat."""
        if not (isinstance(action, list) and action and isinstance(action[0], str)):
            raise RuleError("malformed", f"not an action: {action!r}", seat)
        step = self.step()
        if step[0] != "turn" or seat not in step[1]:
            raise RuleError("illegal", f"seat {seat} has no move now", seat)
        kind, fields = action[0], action[1:]
        expected = {"declare": ("declare",), "pick": ("pick",), "place": ("place",), "give": ("give",),
                    "action": ("skip", "draw", "look", "take", "exchange")}[self.phase]
        if kind not in expected:
            raise RuleError("illegal", f"{kind} is not allowed in phase {self.phase}", seat)
        if kind == "declare":
            if len(fields) != 1 or not isinstance(fields[0], bool):
                raise RuleError("malformed", f"not an action: {action!r}", seat)
            if fields[0]:
                self.scorers.append(seat)
            self.declaring += 1
            self._next_declaration()
        elif kind == "skip":
            self._end_resolution()
        elif kind == "draw":
            slot = self.deck.pop(0)
            self.hands[seat].append(slot)
            self.cards.disclose([slot], seat)
            self._end_resolution()
        elif kind == "look":
            self.pile = fields[0]
            if self.pile is not None:
                self.cards.disclose(self.scrap[self.pile], seat)
            self.phase = "pick"
        elif kind == "pick":
            self._pile_holding(fields[0])[1].remove(fields[0])
            self.hands[seat].append(fields[0])
            self.hands[seat] = self.cards.remask(self.hands[seat], seat)
            self._end_resolution()
        elif kind == "take":
            pile, cards = self._pile_holding(fields[0])
            cards.remove(fields[0])
            self.hands[seat].append(fields[0])
            self.cards.disclose([fields[0]], seat)
            self.hands[seat] = self.cards.remask(self.hands[seat], seat)
            self.pile = pile
            self.phase = "place"
        elif kind == "place":
            slot = fields[0]
            self.hands[seat].remove(slot)
            if self.pile is not None:
                self.scrap[self.pile].append(slot)
                self._end_resolution()
            else:
                self.placing = slot
                self.cards.reveal([slot])
                self.phase = "placing"
        elif kind == "exchange":
            self.offer, self.partner = fields
            self.phase = "give"
        elif kind == "give":
            asker, offered, given = self.actor(), self.offer, fields[0]
            self.hands[asker].remove(offered)
            self.hands[seat].remove(given)
            self.hands[asker].append(given)
            self.hands[seat].append(offered)
            self.cards.disclose([given], asker)
            self.cards.disclose([offered], seat)
            self.hands[asker] = self.cards.remask(self.hands[asker], asker)
            self.hands[seat] = self.cards.remask(self.hands[seat], seat)
            self._end_resolution()
