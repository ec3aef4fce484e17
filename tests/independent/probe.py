"""The probe game (SPEC §D6) and the engine's card bookkeeping (§D1, CardState), from the SPEC alone.

Steps are tuples: ("chance",), ("simultaneous", seats), ("turn", seats), ("reaction", seats),
("cards", operations), ("over", result). Operations are their wire encodings (§D1):
["deal", deal, names, first, holders], ["reshuffle", deal, sources, first, holders],
["reveal", slots], ["disclose", slots, seat] (a re-mask's: ["disclose", slots, seat, true]),
["audit", deals].
"""

from . import deck

DECK_DOMAIN = "p2pgames/probe"


class RuleError(ValueError):
    """An action the rules refuse; `code` is "illegal" or "malformed"; a false claim: "rule-violation"."""

    def __init__(self, code, message, seat=None):
        super().__init__(message)
        self.code, self.seat = code, seat


class Cards:
    """CardState (§D1)."""

    def __init__(self):
        self.deals = {}        # deal -> [deal, first, size, cards|None, sources|None, holders], not retired
        self.next_deal = 0     # deals queued so far, retired or not
        self.next_slot = 0
        self.revealed = {}     # slot -> name
        self.pending = []
        self.claims = []
        self.audited = []

    def encode(self):
        return {"deals": [list(self.deals[d]) for d in sorted(self.deals)], "next_deal": self.next_deal,
                "next_slot": self.next_slot,
                "revealed": [[s, self.revealed[s]] for s in sorted(self.revealed)],
                "pending": [list(op) for op in self.pending], "claims": [list(c) for c in self.claims],
                "audited": sorted(self.audited)}

    def new_deal(self, names, holders=()):
        deal, first = self.next_deal, self.next_slot
        self.deals[deal] = [deal, first, len(names), list(names), None, list(holders)]
        self.next_deal += 1
        self.pending.append(["deal", deal, list(names), first, list(holders)])
        self.next_slot += len(names)
        return deal, first

    def reshuffle(self, sources, holders=()):
        deal, first = self.next_deal, self.next_slot
        self.deals[deal] = [deal, first, len(sources), None, list(sources), list(holders)]
        self.next_deal += 1
        self.pending.append(["reshuffle", deal, list(sources), first, list(holders)])
        self.next_slot += len(sources)
        return deal, first

    def remask(self, slots, seat):
        """§D1 re-mask: a reshuffle of `slots` (a hand, in its order), then its new slots disclosed to
        `seat` marked as a re-mask; returns the new slots."""
        _, first = self.reshuffle(slots)
        fresh = list(range(first, first + len(slots)))
        self.pending.append(["disclose", fresh, seat, True])
        return fresh

    def reveal(self, slots):
        slots = [s for s in slots if s not in self.revealed]
        if slots:
            self.pending.append(["reveal", slots])

    def disclose(self, slots, seat):
        slots = [s for s in slots if s not in self.revealed]
        if slots:
            self.pending.append(["disclose", slots, seat])

    def audit(self, deals):
        self.pending.append(["audit", sorted(deals)])

    def done(self, values):
        """CardsDone: values in, audited deals noted, pending emptied; returns the claims now checkable."""
        for slot, name in values:
            self.revealed[slot] = name
        for op in self.pending:
            if op[0] == "audit":
                self.audited = sorted(set(self.audited) | set(op[1]))
        self.pending = []
        ready = [c for c in self.claims if all(s in self.revealed for s in c[2])]
        self.claims = [c for c in self.claims if c not in ready]
        return ready


def number(name: str) -> int:
    return int(name[1:])


class Probe:
    def __init__(self, players: int):
        if not 2 <= players <= 4:
            raise ValueError("the probe game is for 2 to 4 players")
        self.players = players
        self.cards = Cards()
        self.first = -1
        self.phase = "seat"
        self.round = 0
        self.hands = [[] for _ in range(players)]
        self.stock = []
        self.played = []
        self.points = [0] * players
        self.winner = -1
        self.answered = []

    def card_names(self):
        return [f"c{i}" for i in range(1, 4 * self.players + 1)]

    def encode(self):
        return {"players": self.players, "cards": self.cards.encode(), "first": self.first, "phase": self.phase,
                "round": self.round, "hands": [list(h) for h in self.hands], "stock": list(self.stock),
                "played": [list(p) for p in self.played], "points": list(self.points), "winner": self.winner,
                "answered": list(self.answered)}

    def cheerers(self):
        P = self.players
        return [(self.winner + k) % P for k in range(1, P) if (self.winner + k) % P not in self.answered]

    def step(self):
        if self.cards.pending:
            return ("cards", [list(op) for op in self.cards.pending])
        if self.phase == "seat":
            return ("chance",)
        if self.phase == "play":
            return ("simultaneous", list(range(self.players)))
        if self.phase == "pass":
            return ("turn", [self.winner])
        if self.phase == "cheer":
            return ("reaction", self.cheerers())
        if self.phase == "over":
            most = max(self.points)
            return ("over", {"scores": list(self.points),
                             "winners": [s for s in range(self.players) if self.points[s] == most],
                             "summary": f"{most} points"})
        raise AssertionError(f"no step in phase {self.phase}")

    # --- events ---

    def chance(self, seed: bytes):
        P = self.players
        self.first = deck.Stream(seed).below(P)
        self.cards.new_deal(self.card_names())
        for p in range(P):
            self.cards.disclose([3 * p, 3 * p + 1, 3 * p + 2], p)
        self.hands = [[3 * p, 3 * p + 1, 3 * p + 2] for p in range(P)]
        self.stock = list(range(3 * P, 4 * P))
        self.phase = "play"

    def check(self, seat, action):
        """Raises RuleError unless `action` is legal for `seat` now."""
        if not (isinstance(action, list) and action and isinstance(action[0], str)):
            raise RuleError("malformed", f"not an action: {action!r}", seat)
        kind = action[0]
        if kind in ("play", "pass"):
            if len(action) != 2 or not isinstance(action[1], int) or isinstance(action[1], bool) or action[1] < 0:
                raise RuleError("malformed", f"not an action: {action!r}", seat)
            wanted = "play" if kind == "play" else "pass"
            if self.phase != wanted or (kind == "pass" and seat != self.winner):
                raise RuleError("illegal", f"{kind} is not allowed now", seat)
            if action[1] not in self.hands[seat]:
                raise RuleError("illegal", f"slot {action[1]} is not in seat {seat}'s hand", seat)
        elif kind == "cheer":
            if len(action) != 2 or not isinstance(action[1], bool):
                raise RuleError("malformed", f"not an action: {action!r}", seat)
            if self.phase != "cheer" or seat not in self.cheerers():
                raise RuleError("illegal", "cheering is not allowed now", seat)
        else:
            raise RuleError("malformed", f"not an action: {action!r}", seat)

    def legal_actions(self, seat):
        if self.phase == "play":
            return [["play", s] for s in self.hands[seat]]
        if self.phase == "pass" and seat == self.winner:
            return [["pass", s] for s in self.hands[seat]]
        if self.phase == "cheer" and seat in self.cheerers():
            return [["cheer", False], ["cheer", True]]
        return []

    def simultaneous(self, pairs):
        for seat, action in pairs:
            self.check(seat, action)
        self.played = [[seat, action[1]] for seat, action in sorted(pairs)]
        for seat, slot in self.played:
            self.hands[seat].remove(slot)
        self.cards.reveal([slot for _seat, slot in self.played])
        self.phase = "revealing"

    def act(self, seat, action):
        self.check(seat, action)
        P = self.players
        if action[0] == "pass":
            slot = action[1]
            hand = self.hands[seat]
            self.cards.claims.append([seat, "highest", [slot] + [s for s in hand if s != slot], None])
            hand.remove(slot)
            left = (seat + 1) % P
            self.hands[left].append(slot)
            self.cards.disclose([slot], left)
            self.phase = "cheer"
            self.answered = []
            return
        self.answered.append(seat)
        if action[1]:
            self.points[seat] += 1
            self.answered = [s for s in range(P) if s != self.winner]
        if not self.cheerers():
            self.round += 1
            sources = [slot for _seat, slot in self.played]
            d, n = self.cards.reshuffle(sources)
            self.played = []
            for k in range(1, P + 1):
                s = (self.winner + k) % P
                self.hands[s].append(n + k - 1)
                self.cards.disclose([n + k - 1], s)
            if self.round == 2:
                self.cards.audit(list(range(d + 1)))
                self.phase = "over"
            else:
                self.phase = "play"

    def cards_done(self, values):
        was_revealing = self.phase == "revealing"
        ready = self.cards.done(values)
        if was_revealing:
            names = self.cards.revealed
            self.winner = max(self.played, key=lambda p: number(names[p[1]]))[0]
            self.points[self.winner] += 1
            self.answered = []
            self.phase = "pass" if self.hands[self.winner] else "cheer"
        for seat, _kind, slots, _detail in ready:
            if max(number(self.cards.revealed[s]) for s in slots) != number(self.cards.revealed[slots[0]]):
                raise RuleError("rule-violation", f"seat {seat} passed a card that was not its highest", seat)
