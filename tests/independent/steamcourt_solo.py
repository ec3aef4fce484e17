"""Steam Court's Solo variant (SPEC §D3.1 'Solo') from the SPEC alone.

`Solo()` offers `probe.Probe`'s interface to `replica.Replica` (`encode()`, `step()`,
`act(seat, action)`, `cards_done(values)`); Solo has no chance step and no secret choice. Actions
are checked for their kind in the phase; what a hand may beat is RULES.md's, not followed here.
"""

from .beltpunk import Cards
from .probe import RuleError
from .steamcourt import DECK, DECK_DOMAIN, copy_lists, stem  # noqa: F401 (the same deck domain, §D3.1)

RUNGS = ["teaboy", "jester", "timetraveler", "duke", "general", "queen"]
HAND_SIZE, COURT_SIZE = 12, 22


def lowest_value(name):
    """A card's value as the Court Hand places it: a `3/9` as 3, a `6/12` as 6; 0 for MS and MX."""
    kind = stem(name)
    if kind.isdigit():
        return int(kind)
    return {"3/9": 3, "6/12": 6}.get(kind, 0)


class Solo:
    """The Solo state map of §D3.1 and the changes of its flow, event by event."""

    players = 1

    def __init__(self):
        self.cards = Cards()
        self.phase = "dealing"
        self.rung = self.round = 0
        self.discard, self.tricks, self.waiting, self.used = [], [], [], []
        self.turning = self.won = -1
        _number, first = self.cards.new_deal(DECK)
        slots = list(range(first, first + len(DECK)))
        self.hand = slots[:HAND_SIZE]
        self.court = slots[HAND_SIZE:HAND_SIZE + COURT_SIZE]
        self.draw = slots[HAND_SIZE + COURT_SIZE:]
        self.cards.reveal(self.hand)

    def encode(self):
        return {"variant": "solo", "players": 1, "cards": self.cards.encode(), "phase": self.phase,
                "rung": self.rung, "round": self.round, "hand": list(self.hand), "court": list(self.court),
                "draw": list(self.draw), "discard": list(self.discard),
                "tricks": copy_lists(self.tricks),
                "waiting": list(self.waiting), "turning": self.turning, "used": list(self.used), "won": self.won}

    @property
    def character(self):
        return RUNGS[self.rung]

    def step(self):
        if self.cards.pending:
            return ("cards", [list(op) for op in self.cards.pending])
        if self.phase in ("privilege", "play"):
            return ("turn", [0])
        if self.phase == "over":
            if self.won == 1:
                return ("over", {"scores": [6], "winners": [0], "summary": ""})
            return ("over", {"scores": [self.rung], "winners": [], "summary": ""})
        raise AssertionError(f"no step in phase {self.phase} with nothing pending")

    def cards_done(self, values):
        self.cards.done(values)
        if self.phase == "dealing":
            self._begin_round()
        elif self.phase == "drawing":
            self._turn_court()
        elif self.phase == "revealing":
            slot, self.turning = self.turning, -1
            self._place(slot)
            self._turn_court()
        elif self.phase == "auditing":
            self.phase = "over"

    # --- rounds ---------------------------------------------------------------------------------

    def _begin_round(self):
        self.round += 1
        self.used = []
        if (self.character == "teaboy" and self.round == 1) or self.character in ("general", "queen"):
            self.phase = "privilege"
        else:
            self._refill(0)

    def _refill(self, at_least):
        """§D3.1 'Refilling': draw, re-shuffling the discard pile into an empty draw pile."""
        wanted = max(at_least, HAND_SIZE - len(self.hand))
        drawn = []
        while len(drawn) < wanted:
            if not self.draw:
                if not self.discard:
                    break
                _number, first = self.cards.reshuffle(self.discard)
                self.draw = list(range(first, first + len(self.discard)))
                self.discard = []
            taken = self.draw[:wanted - len(drawn)]
            del self.draw[:len(taken)]
            drawn += taken
        self.hand += drawn
        self.cards.reveal(drawn)
        self.phase = "drawing"
        if not self.cards.pending:
            self._turn_court()

    def _turn_court(self):
        while len(self.tricks) < 3:
            if not self.court:
                self._finish(0)
                return
            slot = self.court.pop(0)
            if slot not in self.cards.revealed:
                self.turning, self.phase = slot, "revealing"
                self.cards.reveal([slot])
                return
            self._place(slot)
        self.phase = "play"

    def _place(self, slot):
        name = self.cards.revealed[slot]
        if stem(name) in ("MX", "MS"):
            if self.tricks:
                self.tricks[0][0].append(slot)
                self.tricks[0][2] += 1
            else:
                self.waiting.append(slot)
            return
        value = lowest_value(name)
        for trick in self.tricks:
            if trick[1] == value:
                trick[0].append(slot)
                trick[2] += 1
                return
        self.tricks.append([[slot] + self.waiting, value, 1 + len(self.waiting), []])
        self.waiting = []

    def _end_round(self):
        beaten = [trick for trick in self.tricks if trick[3]]
        every = bool(self.tricks) and len(beaten) == len(self.tricks)
        if every and self.rung == 5:
            self._finish(1)
            return
        if beaten:   # the beaten tricks are discarded, the others stay
            discarded, self.tricks = beaten, [trick for trick in self.tricks if not trick[3]]
        else:        # none beaten: all are discarded
            discarded, self.tricks = self.tricks, []
        for court_slots, _value, _quantity, lay in discarded:
            self.discard += court_slots
            if lay:
                self.discard += lay[0] + ([lay[3]] if lay[3] >= 0 else [])
        if every:
            self.rung += 1
        self._begin_round()

    def _finish(self, won):
        self.won = won
        self.cards.audit(list(self.cards.deals))
        self.phase = "auditing"

    # --- actions --------------------------------------------------------------------------------

    def act(self, seat, action):
        if not (isinstance(action, list) and action and isinstance(action[0], str)):
            raise RuleError("malformed", f"not an action: {action!r}", seat)
        if seat != 0 or self.step()[0] != "turn":
            raise RuleError("illegal", f"seat {seat} has no move now", seat)
        kind = action[0]
        if self.phase == "privilege":
            if kind == "giveup":
                for slot in action[1]:
                    self.hand.remove(slot)
                self.court += action[1]
                self._refill(0)
            elif kind == "discardlow":
                for slot in action[1]:
                    self.hand.remove(slot)
                self.discard += action[1]
                self._refill(len(action[1]))
            elif kind == "pass":
                self._refill(0)
            else:
                raise RuleError("illegal", f"{kind} is not a privilege", seat)
            return
        if kind == "beat":
            trick, slots, value, quantity, multiplier = action[1:]
            for slot in slots + ([multiplier] if multiplier is not None else []):
                self.hand.remove(slot)
            if multiplier is None and len(slots) < quantity:
                self.used.append("pair")
            self.tricks[trick][3] = [list(slots), value, quantity, -1 if multiplier is None else multiplier]
            self._after_lay()
        elif kind == "strike":
            self.hand.remove(action[2])
            self.tricks[action[1]][3] = [[action[2]], 13, 1, -1]
            self._after_lay()
        elif kind == "stoptrick":
            self.court += self.tricks.pop(action[1])[0]
            self.used.append("stop")
            self._after_lay()
        elif kind == "recall":
            self.discard.remove(action[1])
            self.hand.append(action[1])
            self.used.append("retrieve")
        elif kind == "pass":
            self._end_round()
        else:
            raise RuleError("illegal", f"{kind} is not a move in play", seat)

    def _after_lay(self):
        if self.tricks and all(trick[3] for trick in self.tricks):
            self._end_round()
