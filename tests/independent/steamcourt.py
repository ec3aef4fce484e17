"""Steam Court (SPEC §D3: `court` and `party`; §D3.1: `duo`) from the SPEC alone.

`SteamCourt(players, options)` offers `probe.Probe`'s interface to `replica.Replica` (`encode()`,
`step()`, `chance(seed)`, `act(seat, action)`, `cards_done(values)`); Steam Court has no secret
choice. Actions are checked for whose move it is; what a hand may lay is RULES.md's, not followed
here, but every revealed card is checked against what was declared (§D3 `rule-violation`).
"""

from . import deck
from .beltpunk import Cards
from .probe import RuleError

DECK_DOMAIN = "p2pgames/steamcourt"
DECK = ([f"{number}{letter}" for number in range(1, 13) for letter in "abcdef"]
        + [f"{kind}{letter}" for kind in ("MS", "MX", "3/9", "6/12") for letter in "abc"])
CHARACTERS = ("queen general duke timetraveler jester teaboy submariner inspector alchemist pirate "
              "plaguedoctor vagabond").split()
CHARACTER_NUMBER = {name: number for number, name in enumerate(CHARACTERS, 1)}
COURT_TABLE = {2: "queen teaboy", 3: "queen duke teaboy", 4: "queen duke timetraveler teaboy",
               5: "queen duke timetraveler jester teaboy", 6: "queen general duke timetraveler jester teaboy",
               7: "queen general duke inspector timetraveler jester teaboy"}
PARTY_TABLES = {7: ("queen duke timetraveler teaboy", "submariner alchemist vagabond"),
                8: ("queen duke timetraveler teaboy", "submariner alchemist pirate vagabond"),
                9: ("queen duke timetraveler teaboy", "submariner alchemist pirate plaguedoctor vagabond"),
                10: ("queen general duke timetraveler teaboy", "submariner alchemist pirate plaguedoctor vagabond"),
                12: ("queen general duke timetraveler jester teaboy",
                     "submariner inspector alchemist pirate plaguedoctor vagabond")}
DUO_LADDER = ["teaboy", "plaguedoctor", "alchemist", "duke", "general", "queen"]   # §D3.1's L
PRIVILEGE_PHASE = {"queen": "give", "general": "give", "inspector": "inspect", "teaboy": "serve", "vagabond": "serve"}
TOKEN_KINDS = ["unpass", "discard", "unpass", "discard"]   # the powers of quarters 1-4 (§D3, 'the quarter is over')
ACTIONS_IN_PHASE = {"turn": {"lay", "ms", "pass", "discard", "dive", "plague"}, "coup": {"coup", "pass"},
                    "stop": {"stop", "pass"}, "unpass": {"unpass", "pass"}, "retrieve": {"retrieve", "pass"},
                    "steal": {"steal", "pass"}, "return": {"putback", "keep"}, "give": {"give", "pass"},
                    "inspect": {"inspect", "pass"}, "serve": {"serve"}, "trade": {"trade", "tradekeeping"},
                    "hoard": {"hoard"}}


def stem(name):
    """A card's name without its copy letter: "12", "MS", "3/9"…"""
    return name[:-1]


def is_numbered(name):
    return stem(name).isdigit()


def counts_as(name, value, alchemist):
    """§D3 'A lay': a numbered card as its number (the Alchemist's also as number − 2 ≥ 1), `3/9`, `6/12`."""
    kind = stem(name)
    if kind.isdigit():
        number = int(kind)
        return value == number or (alchemist and number - 2 >= 1 and value == number - 2)
    return value in {"3/9": (3, 9), "6/12": (6, 12)}.get(kind, ())


class Table:
    """One table map of §D3's 'A table map' (its keys are these attributes)."""

    KEYS = ("characters seats phase deals court discard stacks lays turn passed heard moves asking privilege "
            "actor focus received seen out drawn pile returns").split()

    def __init__(self, characters, seats, stacks, players):
        self.characters, self.seats, self.stacks = list(characters), list(seats), stacks
        self.phase, self.pile = "done", ""
        self.deals, self.court, self.discard, self.lays, self.passed = [], [], [], [], []
        self.asking, self.focus, self.received, self.out, self.drawn = [], [], [], [], []
        self.seen = []
        self.heard = [0] * players
        self.turn = self.privilege = self.actor = -1
        self.moves = self.returns = 0

    def encode(self):
        return {key: copy_lists(getattr(self, key)) for key in self.KEYS}

    def character_of(self, seat):
        return self.characters[self.seats.index(seat)]

    def seat_of(self, character):
        return self.seats[self.characters.index(character)] if character in self.characters else -1


def copy_lists(value):
    """A copy of nested lists (the state changes its lists in place)."""
    return [copy_lists(v) for v in value] if isinstance(value, list) else value


class SteamCourt:
    """The state of §D3's table 'The state' and the changes of its flow, event by event."""

    def __init__(self, players: int, options: dict):
        self.players = players
        self.scoring, self.variant, self.duo_win = options["scoring"], options["variant"], options["duo_win"]
        self.start_tokens = options["start_tokens"]
        self.cards = Cards()
        self.phase, self.quarter = "seating", 0
        if self.variant == "party":
            royal, renegade = PARTY_TABLES[12 if players == 11 else players]
            royal, renegade = royal.split(), renegade.split()
            if players == 11:
                royal = [c for c in royal if c != options["removed"]]
                renegade = [c for c in renegade if c != options["removed"]]
            self.tables = [self._party_table(royal, range(len(royal))),
                           self._party_table(renegade, range(len(royal), players))]
        else:
            characters = ["plaguedoctor", "teaboy"] if self.variant == "duo" else COURT_TABLE[players].split()
            stacks = [list(range(1, players + 1)) for _ in range(4)] if self.scoring == "gears" else []
            self.tables = [Table(characters, range(players), stacks, players)]
        self.hands = [[] for _ in range(players)]
        self.start = [0] * players
        self.gears = [[] for _ in range(players)]
        self.powers = [[] for _ in range(players)]
        self.clock = [0] * players
        self.tricks = [0] * players
        self.used = [[] for _ in range(players)]

    def _party_table(self, characters, seats):
        """Party `stacks`: each quarter the table's character numbers, highest at the bottom."""
        numbers = sorted((CHARACTER_NUMBER[c] for c in characters), reverse=True)
        return Table(characters, seats, [list(numbers) for _ in range(4)], self.players)

    @property
    def party(self):
        return self.variant == "party"

    def encode(self):
        return {"players": self.players, "scoring": self.scoring, "variant": self.variant, "duo_win": self.duo_win,
                "start_tokens": self.start_tokens, "cards": self.cards.encode(), "phase": self.phase, "quarter": self.quarter,
                "tables": [t.encode() for t in self.tables], "hands": copy_lists(self.hands), "start": list(self.start),
                "gears": copy_lists(self.gears), "powers": copy_lists(self.powers), "clock": list(self.clock),
                "tricks": list(self.tricks), "used": copy_lists(self.used)}

    def kept_slots(self, seat):
        """The hidden slots in the seat's own keeping (§D1, §B14): its hand."""
        return list(self.hands[seat])

    def table_of(self, seat):
        for table in self.tables:
            if seat in table.seats:
                return table
        raise RuleError("illegal", f"seat {seat} is at no table", seat)

    # --- steps --------------------------------------------------------------------------------

    def _table_step(self, table):
        """§D3's table flow: ("turn" | "reaction", seats), or None for a table that waits."""
        phase = table.phase
        if phase == "coup":
            return ("reaction", list(table.asking))
        if phase in ("give", "inspect", "serve", "trade", "hoard", "return"):
            return ("turn", [table.actor])
        if phase == "turn":
            return ("turn", [table.turn])
        if phase in ("stop", "unpass", "retrieve", "steal"):
            return ("reaction", [table.actor])
        return None

    def step(self):
        if self.cards.pending:
            return ("cards", [list(op) for op in self.cards.pending])
        if self.phase == "seating":
            return ("chance",)
        if self.phase == "over":
            return ("over", self.result())
        steps = [s for s in (self._table_step(t) for t in self.tables) if s is not None]
        if not steps:
            raise AssertionError(f"no step in phase {self.phase} with nothing pending")
        kind = "turn" if all(s[0] == "turn" for s in steps) else "reaction"
        return (kind, [seat for s in steps for seat in s[1]])

    def result(self):
        """§D3 'GameOver' (Party, Duo `queen`: their own)."""
        players = self.players
        if self.party:
            order = self.tables[0].seats + self.tables[1].seats
            scores = [players - order.index(seat) for seat in range(players)]
            return {"scores": scores, "winners": [self.tables[0].seats[0]], "summary": ""}
        out = self.tables[0].out
        if self.variant == "duo" and self.duo_win == "queen":
            scores = [6 if seat == out[0] else 5 for seat in range(players)]
            return {"scores": scores, "winners": [out[0]], "summary": ""}
        if self.scoring == "clock":
            scores = list(self.clock)
        else:
            # Duo with the printed tokens scores the gear tokens alone.
            counted = not (self.variant == "duo" and self.start_tokens == "character")
            scores = [(self.start[seat] if counted else 0) + sum(self.gears[seat]) for seat in range(players)]
        best = max(scores)
        ranked = list(out) + [seat for seat in range(players) if seat not in out]
        return {"scores": scores, "winners": [next(s for s in ranked if scores[s] == best)], "summary": ""}

    # --- quarters -----------------------------------------------------------------------------

    def chance(self, seed: bytes):
        """§D3 'The chance step': the seats' order shuffled by the stream; the first quarter starts."""
        order = deck.Stream(seed).shuffle(range(self.players))
        if self.party:
            position = 0
            for table in self.tables:
                table.seats = order[position:position + len(table.characters)]
                position += len(table.characters)
                for seat, character in zip(table.seats, table.characters):
                    self.start[seat] = CHARACTER_NUMBER[character]
        else:
            table = self.tables[0]
            table.seats = order
            for position, seat in enumerate(order):
                number = CHARACTER_NUMBER[table.characters[position]]
                self.start[seat] = position + 1 if self.start_tokens == "seat" else number
                self.clock[seat] = position
        self.phase = "playing"
        self._start_quarter()

    def _start_quarter(self):
        self.quarter += 1
        self.tricks = [0] * self.players
        self.used = [[] for _ in range(self.players)]
        if self.variant == "duo":
            self.tables[0].characters = [DUO_LADDER[self.quarter], DUO_LADDER[self.quarter - 1]]
        self._deal(*self.tables)

    def _names(self):
        """The deck in §D3's order; Duo's leaves out `1a`…`2f` (§D3.1)."""
        return [name for name in DECK if self.variant != "duo" or stem(name) not in ("1", "2")]

    def _deal(self, *tables):
        """A table is dealt (§D3); the NewDeals first, then the hands' disclosures, table by table."""
        made = []
        for table in tables:
            number, first = self.cards.new_deal(self._names(), sorted(table.seats) if self.party else [])
            made.append((table, number, list(range(first, first + len(self._names())))))
        for table, number, slots in made:
            share = len(slots) // (len(table.seats) + 1)
            for position, seat in enumerate(table.seats):
                self.hands[seat] = slots[position * share:(position + 1) * share]
                self.cards.disclose(self.hands[seat], seat)
            table.court = slots[len(table.seats) * share:]
            table.deals = [number]
            table.discard, table.lays, table.passed, table.received, table.seen = [], [], [], [], []
            table.out, table.drawn, table.focus = [], [], []
            table.heard = [0] * self.players
            table.moves = table.returns = 0
            table.turn = table.actor = table.privilege = -1
            table.asking = table.seats[1:]
            table.phase = "coup"

    def _quarter_over(self, table):
        if sum(1 for seat in table.seats if self.hands[seat]) <= 1:
            return True
        return self.scoring == "clock" and len(table.out) >= (3 if len(table.seats) == 6 else 2)

    def _go_out(self, table, seat):
        table.out.append(seat)
        if self.scoring == "gears":
            self.gears[seat].append(table.stacks[self.quarter - 1].pop())

    def _end_quarter(self, table):
        if self.scoring == "gears":
            for seat in list(table.seats):
                if self.hands[seat]:
                    self._go_out(table, seat)
                    if not self.party:
                        self.powers[seat].append([TOKEN_KINDS[self.quarter - 1], False])
        else:
            bonus = dict(zip(table.out, (2, 1)))
            for seat in reversed(table.seats):
                space = self.clock[seat] + self.tricks[seat] + bonus.get(seat, 0)
                while any(self.clock[other] == space for other in table.seats if other != seat):
                    space += 1
                self.clock[seat] = space
        table.phase, table.turn = "done", -1
        if all(t.phase == "done" for t in self.tables):
            self.cards.audit(sorted(number for t in self.tables for number in t.deals))
            self.phase = "auditing"

    def _after_audit(self):
        final = self.quarter == 4
        if not final:
            for table in self.tables:
                for number in table.deals:
                    self.cards.retire(number)
                for seat in table.seats:
                    self.hands[seat] = []
                table.deals, table.court, table.discard, table.lays, table.drawn = [], [], [], [], []
        if self.party:
            royal, renegade = self.tables
            demoted, promoted = royal.out[-2:], renegade.out[:2]
            royal.seats = royal.out[:-2] + promoted
            renegade.seats = demoted + renegade.out[2:]
        elif not final:
            table = self.tables[0]
            if self.scoring == "gears":
                table.seats = list(table.out)
            else:
                table.seats = sorted(table.seats, key=lambda seat: -self.clock[seat])
        if final:
            self.phase = "over"
        else:
            self.phase = "playing"
            self._start_quarter()

    # --- card operations done -----------------------------------------------------------------

    def cards_done(self, values):
        ready = self.cards.done(values)
        for claim in ready:
            if claim[1] == "trade":
                self._check_trade(claim)
            else:
                self._check_serve(claim)
        if self.phase == "auditing":
            self._after_audit()
            return
        for table in self.tables:
            self._go_on(table)

    def _check_serve(self, claim):
        """§D3: the given cards numbered; keeping a numbered card, two given, none lower than the highest kept."""
        seat, _kind, slots, (count, _character) = claim
        names = [self.cards.revealed[s] for s in slots]
        given, kept = names[:count], [int(stem(n)) for n in names[count:] if is_numbered(n)]
        if not all(is_numbered(n) for n in given) or (
                kept and (len(given) < 2 or max(kept) > min(int(stem(n)) for n in given))):
            raise RuleError("rule-violation", f"seat {seat} did not serve its two highest numbered cards", seat)

    def _check_trade(self, claim):
        """§D3: the kept cards are exactly the hand's cards that are among the gifts."""
        seat, _kind, slots, (kept, rest) = claim
        names = [self.cards.revealed[s] for s in slots]
        if set(names[:kept]) != set(names[:kept + rest]) & set(names[kept + rest:]):
            raise RuleError("rule-violation", f"seat {seat} did not keep exactly the cards given to him", seat)

    def _go_on(self, table):
        """A table waiting on card operations goes on from its phase."""
        revealed = self.cards.revealed
        if table.phase == "revealing":
            self._lay_revealed(table)
        elif table.phase == "diving":
            name = revealed[table.focus[0]]
            if not is_numbered(name):
                raise RuleError("rule-violation", f"seat {table.actor} dived with {name}", table.actor)
            table.focus = []
            self._draw(table, table.actor, int(stem(name)), None)
        elif table.phase == "discarding":
            seat = table.actor
            if not all(is_numbered(revealed[s]) for s in table.focus):
                raise RuleError("rule-violation", f"seat {seat} discarded an unnumbered card", seat)
            table.focus = []
            if self.hands[seat]:
                table.phase = "turn"
            else:
                self._go_out(table, seat)
                if self._quarter_over(table):
                    self._end_quarter(table)
                else:
                    self._advance(table, seat)
        elif table.phase == "coup-reveal":
            seat = table.actor
            if not all(stem(revealed[s]) == "MS" for s in table.focus):
                raise RuleError("rule-violation", f"seat {seat}'s coup is not three Masterstrokes", seat)
            table.seats = [seat] + [s for s in table.seats if s != seat]
            self.cards.audit(table.deals)
            table.asking = []
            table.phase = "coup-audit"
        elif table.phase == "coup-audit":
            for number in table.deals:
                self.cards.retire(number)
            self._deal(table)

    def _wait_or_go_on(self, table):
        if not self.cards.pending:
            self._go_on(table)

    # --- privileges and tricks ----------------------------------------------------------------

    def _privileges(self, table, position):
        for p in range(position, len(table.characters)):
            phase = PRIVILEGE_PHASE.get(table.characters[p])
            if phase:
                table.privilege, table.actor, table.phase = p, table.seats[p], phase
                if phase in ("give", "serve"):
                    self._remask_before(table, table.actor, table.characters[p])
                return
        table.privilege = table.actor = -1
        self._lead(table, table.seats[0])

    def _remask_before(self, table, seat, character):
        """§D3 'A re-mask': the hand re-shuffled into new slots disclosed to its owner, if a card of
        it is public or was seen by a seat the privilege hides it from."""
        hand = self.hands[seat]
        exempt = {seat}
        if character == "teaboy":
            exempt.add(table.seats[0])
        hidden = {slot for slot, other in table.seen if other not in exempt}
        if character == "teaboy":
            hidden |= {slot for slot, other in table.seen if other != seat and slot not in table.received}
        if any(slot in hidden or slot in self.cards.revealed for slot in hand):
            number, first = self.cards.reshuffle(hand, sorted(table.seats) if self.party else [])
            self.hands[seat] = list(range(first, first + len(hand)))
            self.cards.pending.append(["disclose", list(self.hands[seat]), seat, True])
            table.deals.append(number)

    def _gifts_behind(self, table, seat):
        """The slots in `received` among the sources of the re-mask his hand's first slot came from."""
        hand = self.hands[seat]
        if not hand:
            return []
        for record in self.cards.deals.values():
            if record[1] <= hand[0] < record[1] + record[2]:
                if record[3] is not None or record[0] not in table.deals[1:]:
                    return []
                return [slot for slot in record[4] if slot in table.received]
        return []

    def _lead(self, table, seat):
        start, size = table.seats.index(seat), len(table.seats)
        leader = next((table.seats[(start + k) % size] for k in range(size)
                       if self.hands[table.seats[(start + k) % size]]), seat)
        table.turn, table.lays, table.passed = leader, [], []
        table.heard, table.moves, table.phase = [0] * self.players, 0, "turn"

    def _give(self, table, giver, slots, to):
        for slot in slots:
            self.hands[giver].remove(slot)
        self.hands[to].extend(slots)
        table.received.extend(slots)
        table.seen.extend([slot, giver] for slot in slots)
        self.cards.disclose(slots, to)

    def _lay(self, table, seat, lay):
        extra = [lay[4]] if lay[4] >= 0 else []
        for slot in lay[1] + extra:
            self.hands[seat].remove(slot)
        self.cards.reveal(lay[1] + extra)
        table.lays.append(lay)
        table.actor, table.phase = seat, "revealing"
        self._wait_or_go_on(table)

    def _lay_revealed(self, table):
        seat, slots, value, _quantity, multiplier = table.lays[-1]
        revealed = self.cards.revealed
        if value == 13:
            honest = stem(revealed[slots[0]]) == "MS"
        else:
            alchemist = table.character_of(seat) == "alchemist"
            honest = (all(counts_as(revealed[s], value, alchemist) for s in slots)
                      and (multiplier < 0 or stem(revealed[multiplier]) == "MX"))
        if not honest:
            raise RuleError("rule-violation", f"seat {seat} laid other cards than it declared", seat)
        general = table.seat_of("general")
        if (general >= 0 and general != seat and self.hands[general] and "stop" not in self.used[general]
                and len(table.lays) >= 2):
            table.actor, table.phase = general, "stop"
            return
        self._stands(table)

    def _stands(self, table):
        seat, masterstroke = table.lays[-1][0], table.lays[-1][2] == 13
        table.moves += 1
        if not self.hands[seat]:
            self._go_out(table, seat)
        if self._quarter_over(table):
            if masterstroke:
                self.tricks[seat] += 1
            self._end_quarter(table)
        elif masterstroke:
            self._end_trick(table)
        else:
            self._advance(table, seat)

    def _may_unpass(self, table, seat):
        token = any(power == ["unpass", False] for power in self.powers[seat])
        jester = table.character_of(seat) == "jester" and "unpass" not in self.used[seat]
        return table.heard[seat] < table.moves and (token or jester)

    def _advance(self, table, seat):
        size, start = len(table.seats), table.seats.index(seat)
        for k in range(1, size + 1):
            other = table.seats[(start + k) % size]
            if not self.hands[other]:
                continue
            if other not in table.passed:
                table.turn, table.phase = other, "turn"
                return
            if self._may_unpass(table, other):
                table.actor, table.phase = other, "unpass"
                return
        self._end_trick(table)

    def _end_trick(self, table):
        self.tricks[table.lays[-1][0]] += 1
        table.turn = -1
        table.asking = [s for s, c in zip(table.seats, table.characters) if c in ("timetraveler", "pirate")]
        self._ask_at_trick_end(table)

    def _ask_at_trick_end(self, table):
        winner = table.lays[-1][0]
        while table.asking:
            seat = table.asking[0]
            if table.character_of(seat) == "timetraveler":
                own = [lay for lay in table.lays if lay[0] == seat]
                may = (seat != winner and self.hands[seat] and "retrieve" not in self.used[seat]
                       and own and (own[-1][1] or own[-1][4] >= 0))
                phase = "retrieve"
            else:
                may = (self.hands[seat] and "steal" not in self.used[seat]
                       and any(is_numbered(self.cards.revealed[s]) for lay in table.lays for s in lay[1]))
                phase = "steal"
            if may:
                table.actor, table.phase = seat, phase
                return
            table.asking.pop(0)
        for lay in table.lays:
            table.discard.extend(lay[1] + ([lay[4]] if lay[4] >= 0 else []))
        self._lead(table, winner)

    def _draw(self, table, seat, count, keep):
        """§D3 'Drawing c, keeping k' (keep None: at least half, rounded up)."""
        pile = table.court if table.pile == "court" else table.discard
        drawn = pile[:count]
        del pile[:count]
        self.hands[seat].extend(drawn)
        self.cards.disclose(drawn, seat)
        table.drawn = list(drawn)
        least = (len(drawn) + 1) // 2 if keep is None else min(keep, len(drawn))
        table.returns = len(drawn) - least
        if table.returns:
            table.phase = "return"
        else:
            table.drawn, table.phase = [], "turn"

    def _reshuffle(self, table, pile):
        """The pile re-shuffled (holders: its table's) and replaced by the new slots."""
        sources = table.court if pile == "court" else table.discard
        number, first = self.cards.reshuffle(sources, sorted(table.seats) if self.party else [])
        new = list(range(first, first + len(sources)))
        if pile == "court":
            table.court = new
        else:
            table.discard = new
        table.deals.append(number)

    @staticmethod
    def _mark_power(powers, kind):
        for power in powers:
            if power[0] == kind and not power[1]:
                power[1] = True
                return

    # --- actions --------------------------------------------------------------------------------

    def act(self, seat, action):
        """An action (§D3 'Actions'); raises RuleError if it is not a list or `seat` has no move."""
        if not (isinstance(action, list) and action and isinstance(action[0], str)):
            raise RuleError("malformed", f"not an action: {action!r}", seat)
        step = self.step()
        if step[0] not in ("turn", "reaction") or seat not in step[1]:
            raise RuleError("illegal", f"seat {seat} has no move now", seat)
        table = self.table_of(seat)
        kind, phase = action[0], table.phase
        if kind not in ACTIONS_IN_PHASE[phase]:
            raise RuleError("illegal", f"{kind} is not allowed in table phase {phase}", seat)
        if phase == "turn":
            self._turn_action(table, seat, action)
        elif phase == "coup":
            table.asking.remove(seat)
            if kind == "coup":
                table.actor, table.focus, table.phase = seat, list(action[1]), "coup-reveal"
                self.cards.reveal(action[1])
                self._wait_or_go_on(table)
            elif not table.asking:
                self._privileges(table, 0)
        elif phase == "stop":
            if kind == "stop":
                layer, slots, _value, _quantity, multiplier = table.lays.pop()
                self.hands[layer].extend(slots + ([multiplier] if multiplier >= 0 else []))
                self.used[seat].append("stop")
                self._advance(table, layer)
            else:
                self._stands(table)
        elif phase == "unpass":
            if kind == "unpass":
                if action[1] == "jester":
                    self.used[seat].append("unpass")
                else:
                    self._mark_power(self.powers[seat], "unpass")
                table.passed.remove(seat)
                table.turn, table.phase = seat, "turn"
            else:
                table.heard[seat] = table.moves
                self._advance(table, seat)
        elif phase in ("retrieve", "steal"):
            if kind == "retrieve":
                last = max(i for i, lay in enumerate(table.lays) if lay[0] == seat)
                _layer, slots, _value, _quantity, multiplier = table.lays.pop(last)
                self.hands[seat].extend(slots + ([multiplier] if multiplier >= 0 else []))
                self.used[seat].append("retrieve")
            elif kind == "steal":
                for lay in table.lays:
                    if action[1] in lay[1]:
                        lay[1].remove(action[1])
                self.hands[seat].append(action[1])
                self.used[seat].append("steal")
            table.asking.pop(0)
            self._ask_at_trick_end(table)
        elif phase == "return":
            if kind == "putback":
                self.hands[seat].remove(action[1])
                table.drawn.remove(action[1])
                (table.court if table.pile == "court" else table.discard).append(action[1])
                table.returns -= 1
            else:
                table.returns = 0
            if not table.returns or not table.drawn:
                table.drawn, table.returns, table.phase = [], 0, "turn"
        elif phase == "give":
            if kind == "give":
                self._give(table, seat, [action[1]], action[2])
            self._privileges(table, table.privilege + 1)
        elif phase == "inspect":
            if kind == "inspect":
                self.cards.disclose(table.court, seat)
                self.cards.disclose(self.hands[action[1]], seat)
                table.seen.extend([slot, seat] for slot in table.court + self.hands[action[1]])
            self._privileges(table, table.privilege + 1)
        elif phase == "serve":
            given = list(action[1])
            rest = [slot for slot in self.hands[seat] if slot not in given]
            self.cards.claims.append([seat, "serve", given + rest, [len(given), table.character_of(seat)]])
            self._give(table, seat, given, action[2])
            table.phase = "trade" if table.character_of(seat) == "teaboy" else "hoard"
        elif phase == "trade":
            gifts = self._gifts_behind(table, seat) if kind == "tradekeeping" or action[1] else []
            if (kind == "tradekeeping") != bool(gifts):
                raise RuleError("illegal", f"seat {seat} must trade {'naming' if gifts else 'without naming'} "
                                           "the cards given to him", seat)
            if kind == "tradekeeping" or action[1]:
                hand = self.hands[seat]
                if kind == "tradekeeping":
                    kept = list(action[1])
                    if not set(kept) <= set(hand):
                        raise RuleError("illegal", f"seat {seat} keeps cards it doesn't hold", seat)
                    traded = [slot for slot in hand if slot not in kept]
                    self.cards.claims.append([seat, "trade", kept + traded + gifts, [len(kept), len(traded)]])
                else:
                    kept = [slot for slot in hand if slot in table.received]
                    traded = [slot for slot in hand if slot not in table.received]
                self.hands[seat] = kept + table.court
                self.cards.disclose(table.court, seat)
                table.court = traded
                table.seen.extend([slot, seat] for slot in traded)
            self._privileges(table, table.privilege + 1)
        elif phase == "hoard":
            if action[1]:
                self.hands[seat].extend(table.court)
                self.cards.disclose(table.court, seat)
                table.court = []
            self._privileges(table, table.privilege + 1)

    def _turn_action(self, table, seat, action):
        kind = action[0]
        if kind == "lay":
            slots, value, quantity, multiplier = action[1:]
            if multiplier is None and len(slots) == 1 and quantity == 2:
                self.used[seat].append("pair")
            self._lay(table, seat, [seat, list(slots), value, quantity, -1 if multiplier is None else multiplier])
        elif kind == "ms":
            self._lay(table, seat, [seat, [action[1]], 13, 1, -1])
        elif kind == "pass":
            table.passed.append(seat)
            table.heard[seat] = table.moves
            self._advance(table, seat)
        elif kind == "discard":
            self._mark_power(self.powers[seat], "discard")
            for slot in action[1]:
                self.hands[seat].remove(slot)
            table.discard.extend(action[1])
            table.actor, table.focus, table.phase = seat, list(action[1]), "discarding"
            self.cards.reveal(action[1])
            self._wait_or_go_on(table)
        elif kind == "dive":
            pile, slot = action[1], action[2]
            self.used[seat].append("dive")
            table.actor, table.focus, table.pile = seat, [slot], pile
            self.cards.reveal([slot])
            self._reshuffle(table, pile)
            table.phase = "diving"
        elif kind == "plague":
            self.used[seat].append("plague")
            table.actor, table.pile = seat, "discard"
            self._reshuffle(table, "discard")
            self._draw(table, seat, 4, 2)
        else:
            raise RuleError("illegal", f"{kind} is not a move on a turn", seat)
