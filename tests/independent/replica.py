"""The log's phases (SPEC §B4–§B7) over a game, from the SPEC alone: what each entry's submission
must be, and the events the game gets; open seats (§B14), host succession (§B15) and key escrow
(§B16). Used by the transcript verifier and by the peer.

`Replica(game, game_id, seats).apply(seat, body)` checks one sequenced submission, applies it and
returns the state hash (§D1); it raises `Fault(code, message, culprit)` for anything §B4–§B7 refuse.
"""

from dataclasses import dataclass, field

from . import canon, deck
from .probe import RuleError


class Fault(Exception):
    def __init__(self, code, message, culprit=None):
        super().__init__(message)
        self.code, self.culprit = code, culprit


BODY_FIELDS = {
    "act": {"t", "action"},
    "commit": {"t", "commitment"},
    "open": {"t", "salt", "value"},
    "pass": {"t", "deal", "stage", "values", "verifiers"},
    "keys": {"t", "public", "sealed"},
    "audit": {"t", "keys"},
    "dispute": {"t", "slot", "reason"},
    "open-seat": {"t", "seat"},
    "hand-over": {"t", "keys", "received", "opening", "successor"},
    "escrow": {"t", "holders", "commitments", "boxes"},
    "rebuild": {"t", "seat", "share", "sent"},
}
OUT_OF_TURN = {"dispute", "open-seat", "hand-over", "escrow", "rebuild"}  # any moment (§B7, §B14, §B16)


class AutomaticDispute(Exception):
    """A revealed value is no card although every published key is right (§B7)."""

    def __init__(self, deal):
        super().__init__(f"deal {deal}")
        self.deal = deal


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


@dataclass
class Deal:
    number: int
    first: int
    size: int
    holders: list
    sources: list | None
    cards: dict                      # card value -> name
    passes: list                     # (stage, seat) still due, in order
    done: list = field(default_factory=list)     # (stage, seat, inputs, values, verifiers)
    start: list = field(default_factory=list)    # starting values
    final: list | None = None        # the locked values
    verifiers: dict = field(default_factory=dict)  # seat -> [verifier per slot]


class Replica:
    def __init__(self, game, game_id: bytes, seats: list, deck_domain: str):
        self.game = game
        self.game_id = game_id
        self.seats = seats
        self.players = len(seats)
        self.deck_domain = deck_domain
        self.seq = 0
        self.deals: dict[int, Deal] = {}
        self.unpublished: dict[int, set] = {}   # U per slot (§B6.2)
        self.knows: dict[int, set] = {}
        self.published: dict[tuple, int] = {}   # (slot, seat) -> key
        self.sealed: dict[tuple, tuple] = {}    # (slot, sender, to) -> (box, commitment)
        self.audits: list = []                  # each completed audit: {seat: {deal: (rekey, shuffle, locks)}}
        self._points = {}
        self.open = {}       # open seat -> the entry that opened it (§B14)
        self.rebuilt = {}    # open seat rebuilt from its escrow -> that entry (§B16)
        self.handed = {}     # seat that handed over, or was rebuilt -> {deal: (rekey, shuffle, locks)}: its
                             # keys of the deals not audited when it opened, its keys at their audits
        self.consents = {}   # seat -> the seats that consented to opening it (either kind, §B16)
        self.escrows = {}    # seat -> its current escrow: {"holders": [...], "commitments": [...]} (§B16)
        self.shares = {}     # seat -> {holder: its share of the seat's escrow secret}, given with `rebuild`
        self.sent_keys = {}  # seat -> [(slot, sender, key)]: keys its consenters published with `rebuild`
        self.sequencer = 0   # the seat that signs the entries: the host, then its successors (§B15)
        self.bots_allowed = True  # the start's ruleset may say no seat is opened (§B14)
        self.phase = None
        self._begin()

    def author(self, seat) -> int:
        """The seat whose key signs `seat`'s submissions: its caretaker, the host, once open (§B14)."""
        return self.sequencer if seat in self.open else seat

    def playing(self) -> list:
        """The seats still playing: every seat that is not open."""
        return [s for s in range(self.players) if s not in self.open]

    def kept_slots(self, seat) -> list:
        """The hidden slots in `seat`'s own keeping (§D1): a hand; none in a game that keeps none."""
        kept = getattr(self.game, "kept_slots", None)
        return kept(seat) if kept else []

    # --- what the log waits for ---------------------------------------------------------------

    def state_hash(self) -> bytes:
        return deck.H(canon.encode(self.game.encode()))

    def result(self):
        step = self.game.step()
        return step[1] if step[0] == "over" else None

    def _begin(self):
        """Derive the phase from the game's step (§B4), running through card sub-steps that owe nothing."""
        while True:
            step = self.game.step()
            kind = step[0]
            if kind in ("turn", "reaction"):
                self.phase = {"kind": "decision", "seats": list(step[1])}
            elif kind in ("simultaneous", "chance"):
                seats = list(step[1]) if kind == "simultaneous" else [s for s in range(self.players) if s not in self.open]
                self.phase = {"kind": "choice", "domain": "choice" if kind == "simultaneous" else "random",
                              "seats": seats, "id": self.seq, "commits": {}, "opens": {}}
            elif kind == "cards":
                self.phase = {"kind": "cards", "groups": _group(step[1]), "index": -1, "values": {}}
                self._next_substep()
                if self.phase is None:
                    continue
            elif kind == "over":
                self.phase = {"kind": "over", "result": step[1]}
            return

    def _next_substep(self):
        """Start the next card sub-step that owes something; at the end feed CardsDone (phase None)."""
        phase = self.phase
        while True:
            phase["index"] += 1
            if phase["index"] == len(phase["groups"]):
                values = sorted(phase["values"].items())
                self.phase = None
                try:
                    self.game.cards_done(values)
                except RuleError as e:
                    raise Fault(e.code, str(e), e.seat) from e
                return
            kind, ops = phase["groups"][phase["index"]]
            phase["sub"] = kind
            if kind == "deals":
                for op in ops:
                    self._open_deal(op)
                phase["deals"] = [op[1] for op in ops]
                return
            if kind == "keys":
                phase["ops"] = ops
                phase["required"] = self._key_requirements(ops)
                phase["submitted"] = {}
                if phase["required"] or not self._finish_keys():
                    return
            else:
                deals = set(ops[0][1])
                phase["audit_deals"] = sorted(deals)
                phase["required"], phase["submitted"] = self._auditors(deals)
                return

    def due(self, seat) -> str | None:
        """What the log waits for from `seat` now, in words (None: nothing)."""
        phase = self.phase
        if phase["kind"] == "decision":
            return "act" if seat in phase["seats"] else None
        if phase["kind"] == "choice":
            if seat not in phase["seats"]:
                return None
            if seat not in phase["commits"]:
                return "commit"
            if len(phase["commits"]) == len(phase["seats"]) and seat not in phase["opens"]:
                return "open"
            return None
        if phase["kind"] == "cards":
            if phase["sub"] == "deals":
                for d in phase["deals"]:
                    passes = self.deals[d].passes
                    if passes and passes[0][1] == seat:
                        return "pass"
                return None
            if seat in phase["required"] and seat not in phase["submitted"]:
                return phase["sub"]
        return None

    # --- applying a submission ----------------------------------------------------------------

    def apply(self, seat: int, body: dict) -> bytes:
        t = body.get("t")
        if t not in BODY_FIELDS:
            raise Fault("malformed", f"seat {seat}: a submission of unknown type {t!r}", seat)
        if set(body) != BODY_FIELDS[t]:
            raise Fault("malformed", f"seat {seat}: a {t} with the wrong fields", seat)
        if t in OUT_OF_TURN:  # (a phase it begins counts it too; the entry's own seq is self.seq − 1)
            self.seq += 1
            getattr(self, "_" + t.replace("-", "_"))(seat, body)
            return self.state_hash()
        due = self.due(seat)
        if due != t:
            raise Fault("illegal", f"seat {seat}: a {t} when the log waits for {due or 'nothing'} from it", seat)
        self.seq += 1  # the phase a submission begins starts after it: its id counts it (§B4)
        getattr(self, "_" + t)(seat, body)
        return self.state_hash()

    def _act(self, seat, body):
        try:
            self.game.act(seat, body["action"])
        except RuleError as e:
            raise Fault(e.code, str(e), seat) from e
        self._begin()

    def _commit(self, seat, body):
        c = body["commitment"]
        if not (isinstance(c, bytes) and len(c) == 32):
            raise Fault("malformed", f"seat {seat}: a commitment is 32 bytes", seat)
        self.phase["commits"][seat] = c

    def _open(self, seat, body):
        phase = self.phase
        salt, value = body["salt"], body["value"]
        if not deck.check_opening(phase["commits"][seat], phase["domain"], self.game_id, seat,
                                  [phase["id"], value], salt):
            raise Fault("bad-opening", f"seat {seat}: the opening does not match its commitment", seat)
        if phase["domain"] == "random":
            if not (isinstance(value, bytes) and len(value) == 32):
                raise Fault("malformed", f"seat {seat}: a random contribution is 32 bytes", seat)
        else:
            try:
                self.game.check(seat, value)
            except RuleError as e:
                raise Fault(e.code, str(e), seat) from e
        phase["opens"][seat] = value
        if len(phase["opens"]) < len(phase["seats"]):
            return
        try:
            if phase["domain"] == "random":
                self.game.chance(deck.combine([phase["opens"][s] for s in sorted(phase["opens"])]))
            else:
                self.game.simultaneous([(s, phase["opens"][s]) for s in sorted(phase["opens"])])
        except RuleError as e:
            raise Fault(e.code, str(e), e.seat) from e
        self._begin()

    # --- open seats (§B14) -------------------------------------------------------------------

    def _audited(self) -> set:
        return {d for audit in self.audits for keys in audit.values() for d in keys}

    def _holds_keys(self, seat) -> bool:
        """`seat` holds a deal whose audit has not completed (§B14)."""
        audited = self._audited()
        return any(seat in deal.holders and deal.number not in audited for deal in self.deals.values())

    def _unopened_choice(self, seat) -> bool:
        """`seat` committed to a choice in the current choice phase and has not opened it (§B14)."""
        phase = self.phase
        return (phase["kind"] == "choice" and phase["domain"] == "choice"
                and seat in phase["commits"] and seat not in phase["opens"])

    def _consent_refused(self, seat, target) -> bool:
        """What makes either kind of consent to opening `target` illegal from `seat` (§B14, §B16)."""
        return (not self.bots_allowed or seat in self.open or target == seat or self.phase["kind"] == "over"
                or target == self.sequencer or target in self.open)

    def _open_seat(self, seat, body):
        target = body["seat"]
        if not is_int(target) or not 0 <= target < self.players:
            raise Fault("malformed", f"seat {seat}: consented to opening seat {target!r}, which doesn't exist", seat)
        if (self._consent_refused(seat, target) or seat in self.consents.get(target, set())
                or self._holds_keys(target) or self._unopened_choice(target)):
            raise Fault("illegal", f"seat {seat}: may not consent to opening seat {target} now", seat)
        self.consents.setdefault(target, set()).add(seat)
        self._consented(target)

    def _consented(self, target):
        """Once every other seat still playing has consented to opening `target`: it is rebuilt if
        each gave its share (§B16), else open only if §B14 allows it now (else it waits for shares)."""
        others = [s for s in self.playing() if s != target]
        if any(s not in self.consents[target] for s in others):
            return
        if all(s in self.shares.get(target, {}) for s in others):
            self._rebuild_seat(target)
        elif not self._holds_keys(target) and not self._unopened_choice(target):
            self._seat_opens(target)

    def _seat_opens(self, target):
        """`target` is open from this entry (§B14): a random phase waiting for it leaves it out."""
        for pending in (self.consents, self.shares, self.sent_keys):
            pending.pop(target, None)
        self.open[target] = self.seq - 1
        phase = self.phase
        if phase["kind"] == "choice" and phase["domain"] == "random" and target in phase["seats"]:
            phase["seats"].remove(target)
            phase["commits"].pop(target, None)
            phase["opens"].pop(target, None)
            if len(phase["commits"]) == len(phase["seats"]) and len(phase["opens"]) == len(phase["seats"]):
                self.game.chance(deck.combine([phase["opens"][s] for s in sorted(phase["opens"])]))
                self._begin()

    def _publish(self, seat, deal, locks):
        """`seat`'s lock keys of `deal` published, those it had not published yet."""
        for i, k in enumerate(locks):
            slot = deal.first + i
            if seat in self.unpublished[slot]:
                self.published[(slot, seat)] = k
                self.unpublished[slot].discard(seat)

    def _hand_over(self, seat, body):
        phase = self.phase
        audited = self._audited()
        unaudited = [d for d, deal in sorted(self.deals.items()) if seat in deal.holders and d not in audited]
        leaks = any(self.unpublished[slot] == {seat} and self.knows[slot] - {seat} for slot in self.unpublished)
        if (not self.bots_allowed or seat in self.open or phase["kind"] in ("over", "cards") or leaks
                or self._unopened_choice(seat)):
            raise Fault("illegal", f"seat {seat}: may not hand its seat over now", seat)
        successor = body["successor"]
        if seat == self.sequencer:
            # The host hands the log to a seat that plays (§B15); not while a choice an open seat
            # committed to under its care is unopened (no game followed here seals choices).
            playing = [s for s in range(self.players) if s not in self.open and s != seat]
            owed = phase["kind"] == "choice" and phase["domain"] == "choice" and any(
                s in self.open and s not in phase["opens"] for s in phase["commits"])
            if not is_int(successor) or successor not in playing or owed:
                raise Fault("illegal", f"seat {seat}: may not hand the log to {successor!r} now", seat)
        elif successor is not None:
            raise Fault("illegal", f"seat {seat}: named a successor, but it does not host", seat)
        if body["opening"] is not None:  # no game followed here seals choices (§B4)
            raise Fault("illegal", f"seat {seat}: handed over an opening it has no use for", seat)
        entries = body["keys"]
        try:
            parsed = {number: (None if a is None else deck.scalar_from(a), deck.scalar_from(r),
                               [deck.scalar_from(k) for k in ks]) for number, a, r, ks in entries}
        except (deck.DeckError, TypeError, ValueError) as e:
            raise Fault("malformed", f"seat {seat}: handed over malformed keys ({e})", seat) from e
        if sorted(parsed) != unaudited or len(parsed) != len(entries):
            raise Fault("bad-key", f"seat {seat}: handed over keys of deals {sorted(parsed)}, not {unaudited}", seat)
        for number, (a, r, ks) in parsed.items():
            deal = self.deals[number]
            if len(ks) != deal.size or (a is None) != (deal.sources is None):
                raise Fault("bad-key", f"seat {seat}: handed over keys of deal {number} of the wrong form", seat)
            for i, k in enumerate(ks):
                if deck.encrypt(deck.VERIFIER_BASE, k) != deal.verifiers[seat][i]:
                    raise Fault("bad-key", f"seat {seat}: handed over a wrong key for slot {deal.first + i}", seat)
        received = []
        for item in body["received"]:
            if not (isinstance(item, list) and len(item) == 3 and is_int(item[0]) and is_int(item[1])
                    and isinstance(item[2], bytes)):
                raise Fault("malformed", f"seat {seat}: a malformed received key", seat)
            slot, sender, raw = item
            if (slot not in self.unpublished or sender == seat or sender not in self.unpublished[slot]
                    or seat not in self.knows[slot] or (slot, sender) in [r[:2] for r in received]):
                raise Fault("illegal", f"seat {seat}: handed over a key of seat {sender} for slot {slot}", seat)
            deal = self.deal_of(slot)
            try:
                key = deck.scalar_from(raw)
            except deck.DeckError as e:
                raise Fault("malformed", f"seat {seat}: {e}", seat) from e
            if deck.encrypt(deck.VERIFIER_BASE, key) != deal.verifiers[sender][slot - deal.first]:
                raise Fault("bad-key", f"seat {seat}: handed over a wrong key of seat {sender} for slot {slot}", seat)
            received.append((slot, sender, key))
        for number, (a, r, ks) in parsed.items():
            self._publish(seat, self.deals[number], ks)
        for slot, sender, key in received:
            self.published[(slot, sender)] = key
            self.unpublished[slot].discard(sender)
        self.handed[seat] = parsed
        self._seat_opens(seat)
        if successor is not None:
            self.sequencer = successor

    # --- key escrow (§B16) --------------------------------------------------------------------

    def _escrow(self, seat, body):
        holders, commitments, boxes = body["holders"], body["commitments"], body["boxes"]
        if not (isinstance(holders, list) and isinstance(commitments, list) and isinstance(boxes, list)
                and len(holders) == len(commitments) == len(boxes) and all(is_int(h) for h in holders)
                and all(isinstance(c, bytes) and len(c) == 33 and c[0] in (2, 3) for c in commitments)
                and all(isinstance(b, bytes) and len(b) <= 144 for b in boxes)):
            raise Fault("malformed", f"seat {seat}: an escrow of the wrong form", seat)
        # The boxes open only with their holders' sealing keys: a holder checks its own (§B16).
        others = [s for s in self.playing() if s != seat]
        if (not self.bots_allowed or seat in self.open or self.phase["kind"] == "over" or holders != others
                or len(holders) < 2 or self.escrows.get(seat, {}).get("holders") == holders):
            raise Fault("illegal", f"seat {seat}: may not escrow its secret with seats {holders} now", seat)
        self.escrows[seat] = {"holders": holders, "commitments": commitments}

    def _gives_away(self, seat) -> bool:
        """A slot of a deal `seat` holds, not yet audited, is locked by its key alone and known to
        another seat: a card it gave or showed (§B16; §B14's hand-over waits for the same)."""
        audited = self._audited()
        return any(self.unpublished[slot] == {seat} and self.knows[slot] - {seat}
                   and self.deal_of(slot).number not in audited for slot in self.unpublished)

    def _rebuild(self, seat, body):
        target, share, sent = body["seat"], body["share"], body["sent"]
        if not (is_int(target) and isinstance(share, bytes) and len(share) == 32 and isinstance(sent, list)
                and all(isinstance(item, list) and len(item) == 2 and is_int(item[0])
                        and isinstance(item[1], bytes) and len(item[1]) == 32 for item in sent)):
            raise Fault("malformed", f"seat {seat}: a rebuild with fields of the wrong type", seat)
        escrow = self.escrows.get(target)
        if (not 0 <= target < self.players or self._consent_refused(seat, target)
                or seat in self.shares.get(target, {}) or escrow is None
                or escrow["holders"] != [s for s in self.playing() if s != target]):
            raise Fault("illegal", f"seat {seat}: may not give its share of seat {target}'s escrow now", seat)
        value = int.from_bytes(share, "big")
        if not deck.check_share(value, escrow["commitments"][escrow["holders"].index(seat)]):
            raise Fault("illegal", f"seat {seat}: a share of seat {target}'s escrow that is not the one committed to", seat)
        if self._gives_away(target):
            raise Fault("illegal", f"seat {seat}: seat {target} alone locks a card another seat knows", seat)
        # `sent`: exactly the kept slots of live deals the seat knows whose key of the author is
        # unpublished (an audited deal's keys are all out), each with the author's lock key.
        audited = self._audited()
        owed = sorted(slot for slot in self.kept_slots(target)
                      if self.deal_of(slot).number in self.game.cards.deals and self.deal_of(slot).number not in audited
                      and target in self.knows[slot] and seat in self.unpublished[slot])
        if sorted(slot for slot, _key in sent) != owed:
            raise Fault("illegal", f"seat {seat}: sent keys of slots {sorted(s for s, _ in sent)}, not {owed}", seat)
        keys = []
        for slot, raw in sent:
            deal = self.deal_of(slot)
            key = int.from_bytes(raw, "big")
            if not 1 <= key < deck.N or deck.encrypt(deck.VERIFIER_BASE, key) != deal.verifiers[seat][slot - deal.first]:
                raise Fault("bad-key", f"seat {seat}: sent a key for slot {slot} unlike its verifier", seat)
            keys.append((slot, seat, key))
        self.consents.setdefault(target, set()).add(seat)
        self.shares.setdefault(target, {})[seat] = value
        self.sent_keys.setdefault(target, []).extend(keys)
        self._consented(target)

    def _rebuild_seat(self, seat):
        """Every other seat still playing gave its share: `seat`'s escrow secret and keys are
        rebuilt, checked and published, and it is open from this entry (§B16 steps 1–4)."""
        escrow = self.escrows[seat]
        e = sum(self.shares[seat].values()) % deck.N
        if e == 0 or deck.escrow_commitments(e, len(escrow["holders"])) != escrow["commitments"]:
            raise Fault("bad-escrow", f"seat {seat}: its escrow's shares are no split of one secret", seat)
        audited, derived = self._audited(), {}
        for number, deal in sorted(self.deals.items()):
            if seat not in deal.holders or number in audited:
                continue
            rekey, shuffle, _permutation, locks = deck.seat_deal_keys(e, number, deal.size, deal.sources is not None)
            for i, k in enumerate(locks):
                if ((seat in deal.verifiers and deck.encrypt(deck.VERIFIER_BASE, k) != deal.verifiers[seat][i])
                        or self.published.get((deal.first + i, seat), k) != k):
                    raise Fault("bad-escrow", f"seat {seat}: escrowed another secret than its keys of deal "
                                              f"{number} came from", seat)
            derived[number] = (rekey, shuffle, locks)
        for number, (_rekey, _shuffle, locks) in derived.items():
            if seat in self.deals[number].verifiers:  # its lock pass is made
                self._publish(seat, self.deals[number], locks)
        for slot, sender, key in self.sent_keys.get(seat, []):
            self.published[(slot, sender)] = key
            self.unpublished[slot].discard(sender)
        self.handed[seat] = derived
        self.rebuilt[seat] = self.seq - 1
        self._seat_opens(seat)
        # Step 4: what the seat owes of a card step is done for it; a choice it committed to is
        # chosen again if nobody has opened yet (else its caretaker opens it).
        phase = self.phase
        if phase["kind"] == "choice" and phase["domain"] == "choice" and seat in phase["commits"] and not phase["opens"]:
            del phase["commits"][seat]
        elif phase["kind"] == "cards" and phase["sub"] == "keys" and seat in phase["required"]:
            if seat not in phase["submitted"]:
                del phase["required"][seat]  # all its keys are public
                if len(phase["submitted"]) == len(phase["required"]):
                    self._keys_done()
        elif phase["kind"] == "cards" and phase["sub"] == "audit" and seat in phase["required"]:
            if seat not in phase["submitted"]:
                phase["submitted"][seat] = {d: derived[d] for d in phase["audit_deals"] if d in derived}
                if len(phase["submitted"]) == len(phase["required"]):
                    self._audit_done()

    # --- deals (§B6.1) ------------------------------------------------------------------------

    def _open_deal(self, op):
        kind, number = op[0], op[1]
        first, holders = op[3], list(op[4]) or list(range(self.players))
        holders = [h for h in holders if h not in self.open]  # an open seat holds no later deal (§B14)
        if kind == "deal":
            names = op[2]
            cards = {deck.card_point(self.deck_domain, n)[0]: n for n in names}
            start = list(cards)
            sources = None
            stages = ["shuffle", "lock"]
        else:
            sources = op[2]
            names = set()
            start = []
            for slot in sources:
                source = self.deal_of(slot)
                names |= set(source.cards.values())
                value = source.final[slot - source.first]
                for h in source.holders:
                    if h not in holders:  # an open seat's lock: its deal was audited, its key public
                        lock = (self.handed[h][source.number][2] if source.number in self.handed.get(h, {}) else
                                next(a[h][source.number][2] for a in self.audits if h in a and source.number in a[h]))
                        value = deck.encrypt(value, pow(lock[slot - source.first], -1, deck.N))
                start.append(value)
            cards = {deck.card_point(self.deck_domain, n)[0]: n for n in sorted(names)}
            stages = ["rekey", "shuffle", "lock"]
        deal = Deal(number, first, len(start), holders, sources, cards,
                    [(stage, h) for stage in stages for h in holders], start=start)
        self.deals[number] = deal
        for i in range(deal.size):
            self.unpublished[first + i] = set(holders)
            self.knows[first + i] = set()

    def deal_of(self, slot) -> Deal:
        for deal in self.deals.values():
            if deal.first <= slot < deal.first + deal.size:
                return deal
        raise KeyError(slot)

    def _pass(self, seat, body):
        number, stage, values, verifiers = body["deal"], body["stage"], body["values"], body["verifiers"]
        if not (is_int(number) and isinstance(stage, str) and isinstance(values, list) and isinstance(verifiers, list)):
            raise Fault("malformed", f"seat {seat}: a pass with fields of the wrong type", seat)
        deal = self.deals.get(number)
        if deal is None or number not in self.phase["deals"] or not deal.passes or deal.passes[0] != (stage, seat):
            raise Fault("illegal", f"seat {seat}: a {stage} pass of deal {number} that is not due", seat)
        if not (len(values) == deal.size and all(isinstance(v, bytes) and len(v) == 32 for v in values)
                and len(verifiers) == (deal.size if stage == "lock" else 0)
                and all(isinstance(v, bytes) and len(v) == 32 for v in verifiers)):
            raise Fault("bad-pass", f"seat {seat}: a pass of the wrong shape", seat)
        if len(set(values)) != len(values):
            raise Fault("bad-pass", f"seat {seat}: a pass with a value repeated", seat)
        inputs = deal.done[-1][3] if deal.done else deal.start
        deal.done.append((stage, seat, inputs, list(values), list(verifiers)))
        deal.passes.pop(0)
        if stage == "lock":
            deal.verifiers[seat] = list(verifiers)
            if seat in self.rebuilt:  # its caretaker locked with the rebuilt keys: all published (§B16)
                self._publish(seat, deal, self.handed[seat][number][2])
        if not deal.passes:
            deal.final = list(values)
        if all(not self.deals[d].passes for d in self.phase["deals"]):
            self._next_substep()
            if self.phase is None:
                self._begin()

    # --- keys (§B6.2) -------------------------------------------------------------------------

    def _key_requirements(self, ops):
        """{seat: {"public": set(slots), "sealed": set((slot, to))}}, updating U and who knows."""
        required = {}

        def need(seat):
            return required.setdefault(seat, {"public": set(), "sealed": set()})

        reveal_slots = []
        for op in ops:
            if op[0] == "reveal":
                for slot in op[1]:
                    for s in self.unpublished[slot]:
                        need(s)["public"].add(slot)
                    self.unpublished[slot] = set()
                    self.knows[slot] = set(range(self.players))
                    reveal_slots.append(slot)
            elif op[2] in self.open:  # dealt face up to an open seat: every key published (§B14)
                for slot in op[1]:
                    for s in self.unpublished[slot]:
                        need(s)["public"].add(slot)
                    self.unpublished[slot] = set()
                    self.knows[slot] = set(range(self.players))
            else:
                to = op[2]
                for slot in op[1]:
                    U = self.unpublished[slot]
                    if to in self.knows[slot]:
                        continue
                    if to in U:
                        for s in U - {to}:
                            need(s)["public"].add(slot)
                        self.unpublished[slot] = {to}
                    else:
                        for s in U:
                            need(s)["sealed"].add((slot, to))
                    self.knows[slot].add(to)
        for r in required.values():
            r["sealed"] = {(slot, to) for slot, to in r["sealed"] if slot not in r["public"]}
        self.phase["reveal"] = reveal_slots
        return required

    def _keys(self, seat, body):
        public, sealed = body["public"], body["sealed"]
        required = self.phase["required"][seat]
        if not (isinstance(public, list) and isinstance(sealed, list)
                and all(isinstance(p, list) and len(p) == 2 and is_int(p[0]) and isinstance(p[1], bytes)
                        and len(p[1]) == 32 for p in public)
                and all(isinstance(s, list) and len(s) == 4 and is_int(s[0]) and is_int(s[1])
                        and isinstance(s[2], bytes) and len(s[2]) <= 144
                        and isinstance(s[3], bytes) and len(s[3]) == 32 for s in sealed)):
            raise Fault("malformed", f"seat {seat}: keys of the wrong shape", seat)
        keys = []
        for slot, key_bytes in public:
            try:
                keys.append((slot, deck.scalar_from(key_bytes)))
            except deck.DeckError as e:
                raise Fault("bad-key", f"seat {seat}: {e}", seat) from e
        slots = [p[0] for p in public]
        pairs = [(s[0], s[1]) for s in sealed]
        if sorted(slots) != sorted(required["public"]) or len(set(slots)) != len(slots) \
                or sorted(pairs) != sorted(required["sealed"]) or len(set(pairs)) != len(pairs):
            raise Fault("illegal", f"seat {seat}: keys for other slots than it owes", seat)
        for slot, key in keys:  # checked against the verifiers only when used (§B6.2)
            self.published[(slot, seat)] = key
        for slot, to, box, commitment in sealed:
            self.sealed[(slot, seat, to)] = (box, commitment)
        self.phase["submitted"][seat] = body
        if len(self.phase["submitted"]) == len(self.phase["required"]):
            self._keys_done()

    def _keys_done(self):
        if not self._finish_keys():
            return  # an automatic dispute's audit comes first
        self._next_substep()
        if self.phase is None:
            self._begin()

    def _finish_keys(self):
        seen = {}
        for slot in sorted(self.phase["reveal"]):
            try:
                name = self.value_of(slot)
            except AutomaticDispute as d:
                self._start_dispute_audit([d.deal], None)
                return False
            deal = self.deal_of(slot).number
            if (deal, name) in seen:  # a card twice: the lowest slot's deal is audited
                self._start_dispute_audit([self.deal_of(min(seen[(deal, name)], slot)).number], None)
                return False
            seen[(deal, name)] = slot
            self.phase["values"][slot] = name
        return True

    # --- disputes (§B7) -----------------------------------------------------------------------

    def _dispute(self, seat, body):
        slot, reason = body["slot"], body["reason"]
        if not (is_int(slot) and isinstance(reason, str)):
            raise Fault("malformed", f"seat {seat}: a dispute with fields of the wrong type", seat)
        deal = None
        try:
            deal = self.deal_of(slot)
        except KeyError:
            pass
        if (self.phase["kind"] == "over" or self.phase.get("dispute", False) is not False or deal is None
                or deal.final is None or deal.size == 0):
            raise Fault("bad-dispute", f"seat {seat}: a dispute of slot {slot} that can't be disputed now", seat)
        deals, todo = set(), [deal.number]
        while todo:
            number = todo.pop()
            if number not in deals:
                deals.add(number)
                for source in self.deals[number].sources or []:
                    todo.append(self.deal_of(source).number)
        self._start_dispute_audit(sorted(deals), seat)

    def _auditors(self, deals):
        """Who must publish audit keys for `deals` (their holders), and what is in already: the
        keys of a seat that handed over (§B14) or was rebuilt (§B16)."""
        required = {s for d in deals for s in self.deals[d].holders}
        submitted = {h: {d: self.handed[h][d] for d in deals if h in self.deals[d].holders}
                     for h in required if h in self.handed}
        return required, submitted

    def _start_dispute_audit(self, deals, disputer):
        required, submitted = self._auditors(deals)
        self.phase = {"kind": "cards", "sub": "audit", "groups": [], "index": 0, "values": {},
                      "dispute": disputer, "audit_deals": sorted(deals),
                      "required": required, "submitted": submitted}

    def value_of(self, slot, extra: dict | None = None) -> str:
        """The card name of `slot` from every holder's key (published, or given in `extra`)."""
        deal = self.deal_of(slot)
        keys = []
        for h in deal.holders:
            key = (extra or {}).get(h, self.published.get((slot, h)))
            if key is None:
                raise Fault("illegal", f"slot {slot}: seat {h}'s key is not known")
            keys.append(key)
        value = deck.encrypt(deal.final[slot - deal.first], deck.inverse(deck.product(*keys)))
        if value not in deal.cards:
            for h in deal.holders:
                key = self.published.get((slot, h))
                if key is not None and deck.encrypt(deck.VERIFIER_BASE, key) != deal.verifiers[h][slot - deal.first]:
                    raise Fault("bad-key", f"seat {h}: its key for slot {slot} does not match its verifier", h)
            raise AutomaticDispute(deal.number)
        return deal.cards[value]

    # --- audits (§B7) -------------------------------------------------------------------------

    def _audit(self, seat, body):
        entries = body["keys"]
        listed = [d for d in self.phase["audit_deals"] if seat in self.deals[d].holders]
        if not (isinstance(entries, list) and all(
                isinstance(e, list) and len(e) == 4 and is_int(e[0]) and isinstance(e[3], list) for e in entries)):
            raise Fault("malformed", f"seat {seat}: audit keys of the wrong shape", seat)
        parsed = []
        for number, rekey, shuffle, locks in entries:
            try:
                parsed.append((number, None if rekey is None else deck.scalar_from(rekey), deck.scalar_from(shuffle),
                               [deck.scalar_from(k) for k in locks]))
            except deck.DeckError as e:
                raise Fault("malformed", f"seat {seat}: {e}", seat) from e
        if sorted(e[0] for e in entries) != listed:
            raise Fault("bad-key", f"seat {seat}: audit keys for other deals than {listed}", seat)
        mine = {}
        for number, a, r, ks in parsed:
            deal = self.deals[number]
            if len(ks) != deal.size or (a is None) != (deal.sources is None):
                raise Fault("bad-key", f"seat {seat}: audit keys of deal {number} of the wrong form", seat)
            for i, k in enumerate(ks):
                published = self.published.get((deal.first + i, seat))
                if published is not None and published != k:
                    raise Fault("bad-key", f"seat {seat}: audit lock of slot {deal.first + i} differs from its published key", seat)
            mine[number] = (a, r, ks)
        self.phase["submitted"][seat] = mine
        if len(self.phase["submitted"]) == len(self.phase["required"]):
            self._audit_done()

    def _audit_done(self):
        if "dispute" in self.phase:
            disputer = self.phase["dispute"]
            self._check_audit()  # raises the culprit's bad-pass if a pass or a sealed key was wrong
            if disputer is None:
                raise Fault("bad-pass", "the automatic dispute's audit found no culprit")
            raise Fault("bad-dispute", f"seat {disputer} disputed a correct deal", disputer)
        self._check_audit()
        self._next_substep()
        if self.phase is None:
            self._begin()

    def _check_audit(self):
        try:
            self._check_audit_keys()
        except deck.DeckError as e:  # a pass holding a non-point, found only now
            raise Fault("bad-pass", f"a pass holds a value that is no curve point ({e})") from e

    def _check_audit_keys(self):
        submitted = self.phase["submitted"]
        self.audits.append(submitted)
        revealed = self.game.cards.revealed
        for number in self.phase["audit_deals"]:
            deal = self.deals[number]
            keys = {h: submitted[h][number] for h in deal.holders}
            factors = {}
            for h, (a, r, ks) in keys.items():
                factors[h] = [k * deck.inverse(r * (a or 1)) % deck.N for k in ks]
            by_stage = {}
            for stage, seat, inputs, values, verifiers in deal.done:
                by_stage.setdefault(stage, []).append((seat, inputs, values, verifiers))
            if "rekey" in by_stage:
                olds = {h: [self._lock_key_of(slot, h) for slot in deal.sources] for h in deal.holders}
                passes = by_stage["rekey"]
                total = [deck.product(*(keys[h][0] * deck.inverse(olds[h][i]) for h in deal.holders)) for i in range(deal.size)]
                if [deck.encrypt(v, t) for v, t in zip(passes[0][1], total)] != passes[-1][2]:
                    raise Fault("bad-pass", f"deal {number}: the re-key passes do not add up",
                                self._first_bad("rekey", passes, keys, olds))
            passes = by_stage["shuffle"]
            r_all = deck.product(*(keys[h][1] for h in deal.holders))
            if deck.first_bad_multiset(passes[0][1], passes[-1][2], [r_all] * deal.size) is not None:
                raise Fault("bad-pass", f"deal {number}: the shuffle passes do not add up",
                            self._first_bad("shuffle", passes, keys))
            passes = by_stage["lock"]
            total = [deck.product(*(factors[h][i] for h in deal.holders)) for i in range(deal.size)]
            if [deck.encrypt(v, t) for v, t in zip(passes[0][1], total)] != passes[-1][2]:
                raise Fault("bad-pass", f"deal {number}: the lock passes do not add up",
                            self._first_bad("lock", passes, keys))
            for (slot, sender, to), (_box, commitment) in self.sealed.items():
                if deal.first <= slot < deal.first + deal.size:
                    if deck.sealed_commitment(deck.scalar_bytes(keys[sender][2][slot - deal.first])) != commitment:
                        raise Fault("bad-key", f"seat {sender}: its sealed key for slot {slot} is not the one it committed to", sender)
            seen = set()
            for i in range(deal.size):
                slot = deal.first + i
                name = revealed.get(slot)
                if name is None:
                    name = self.value_of(slot, {h: keys[h][2][i] for h in deal.holders})
                    self.phase["values"][slot] = name
                if name in seen:
                    raise Fault("bad-pass", f"deal {number}: a card appears twice")
                seen.add(name)

    def _lock_key_of(self, slot, seat):
        for submitted in [self.phase["submitted"]] + self.audits[::-1]:
            deal = self.deal_of(slot)
            if seat in submitted and deal.number in submitted[seat]:
                return submitted[seat][deal.number][2][slot - deal.first]
        return self.published[(slot, seat)]

    @staticmethod
    def _first_bad(stage, passes, keys, olds=None):
        """The author of the stage's first wrong pass (§B7, §C5.5), or None."""
        for seat, inputs, values, verifiers in passes:
            a, r, ks = keys[seat]
            if stage == "shuffle":
                wrong = deck.first_bad_multiset(inputs, values, [r] * len(inputs)) is not None
            elif stage == "rekey":
                wrong = [deck.encrypt(v, a * deck.inverse(o) % deck.N) for v, o in zip(inputs, olds[seat])] != values
            else:
                wrong = deck.first_bad_lock(inputs, values, verifiers, r * (a or 1) % deck.N, ks) is not None
            if wrong:
                return seat
        return None


def _group(ops):
    """Sub-steps (§B6): maximal runs of deals/re-shuffles, of reveals/disclosures; each audit alone."""
    groups = []
    for op in ops:
        kind = {"deal": "deals", "reshuffle": "deals", "reveal": "keys", "disclose": "keys", "audit": "audit"}[op[0]]
        if groups and groups[-1][0] == kind and kind != "audit":
            groups[-1][1].append(op)
        else:
            groups.append((kind, [op]))
    return groups
