"""The log's phases (SPEC §B4–§B7) over a game, from the SPEC alone: what each entry's submission
must be, and the events the game gets; open seats (§B14), host succession (§B15: a hand-over naming
a successor, and the take-over of a host gone for good), key escrow (§B16) and a win by forfeit
(§B17). Used by the transcript verifier and by the peer.

`Replica(game, game_id, seats).apply(seat, body)` checks one sequenced submission, applies it and
returns the state hash (§D1); it raises `Fault(code, message, culprit)` for anything §B4–§B7 refuse.
A `take-over` and a `forfeit` also need what their entry says (§B15, §B17):
`apply(seat, body, prev=…, signer=…)`.
"""

import functools
from dataclasses import dataclass, field

from . import canon, deck, edwards, wire
from .probe import RuleError

# The passes that put a holder's lock keys on the cards (§B6.1).
LOCKING = ("shuffle-lock", "lock")


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
    "lock-escrow": {"t", "deal", "holders", "roots", "offsets", "boxes"},
    "rebuild": {"t", "seat", "share", "sent", "locks"},
    "release": {"t", "public", "sealed"},
    "take-over": {"t", "consents"},
    "forfeit": {"t"},
}
OUT_OF_TURN = {"dispute", "open-seat", "hand-over", "escrow", "lock-escrow", "rebuild", "take-over",
               "forfeit"}  # §B7, §B14–§B17
FORFEIT_SUMMARY = "a win by forfeit, the other player gone"  # §B17


class AutomaticDispute(Exception):
    """A revealed value is no card although every published key is right (§B7)."""

    def __init__(self, deal):
        super().__init__(f"deal {deal}")
        self.deal = deal


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _is_audit_item(item) -> bool:
    """`[deal, pass seed: 32 bytes, [share: 32 bytes …], proof: 64 bytes]` (§B6.3)."""
    return (isinstance(item, list) and len(item) == 4 and is_int(item[0])
            and isinstance(item[1], bytes) and len(item[1]) == 32
            and isinstance(item[2], list) and all(isinstance(x, bytes) and len(x) == 32 for x in item[2])
            and isinstance(item[3], bytes) and len(item[3]) == 64)


def _seats(v):
    return isinstance(v, list) and all(is_int(s) for s in v)


def _is_scalar(v):
    """32 bytes, big-endian, in [1, n−1] (§C1)."""
    return isinstance(v, bytes) and len(v) == 32 and 1 <= int.from_bytes(v, "big") < deck.N


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
    kept_locks: dict = field(default_factory=dict)  # position -> (rebuilt seat whose escrowed lock its input
                                                    # keeps, the holder whose re-key takes it off) (§B16)

    def shuffle_locked_by(self, seat) -> bool:
        """Whether `seat` shuffles and locks this deal in one pass, with no shuffle key (§B6.1):
        its last holder, unless it made a plain shuffle pass (the form of version 9 and earlier)."""
        return seat == self.holders[-1] and not any(p[:2] == ("shuffle", seat) for p in self.done)


class Replica:
    def __init__(self, game, game_id: bytes, seats: list, deck_domain: str, ruleset: dict | None = None):
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
        self.handed = {}     # seat that handed over -> {deal: (rekey, shuffle, locks)} it published
        self.consents = {}   # seat -> the seats that consented to opening it (either kind, §B16)
        # Key escrow (§B16):
        self.escrows = {}       # seat -> its current escrow: {"holders": [...], "commitments": [...]}
        self.lock_escrows = {}  # (seat, deal) -> its current lock escrow: {"holders", "roots", "offsets" (ints)}
        self.shares = {}        # seat -> {consenter: its share of the seat's escrow secret}
        self.lock_shares = {}   # seat -> {consenter: [(slot, its share of the seat's lock key there)]}
        self.sent_keys = {}     # seat -> consenter -> [(slot, consenter, key)]: its own keys, published when rebuilt
        self.rebuilt = {}       # open seat rebuilt from its escrow -> the entry that rebuilt it
        self.rebuilding = set()  # seats opened to be rebuilt, their holders' shares still coming (§B16)
        self.secrets = {}       # rebuilt seat -> its escrow secret e
        self.released = {}      # (rebuilt seat, slot) -> {holder: its share published with `release`}
        self.sequencer = 0   # the seat that signs the entries: the host, then its successors (§B15)
        self.entry = (0, None, None)  # the entry being applied: (seq, prev, signer), for a take-over (§B15)
        # The start's ruleset may say no seat is opened (§B14): `open_seats` is written only when false (§D1).
        self.bots_allowed = ruleset is None or "open_seats" not in ruleset
        # A table may play a win by forfeit (§B17): `forfeit: true`, written only so, and only with
        # 2 players; with more the ruleset is refused as a game refuses a bad option (§A4).
        self.forfeit_allowed = ruleset is not None and ruleset.get("forfeit") is True
        if self.forfeit_allowed and self.players != 2:
            raise ValueError(f"a win by forfeit is for 2 players, not {self.players} (§A4, §B17)")
        self.forfeit = None  # (winner, gone, entry) once a forfeit was applied (§B17)
        # Protocol 11 (§B6.3): seat records of 6 items carry deck keys, and every deal is an
        # ElGamal deal (§C9): one pass per holder, shares for keys.
        self.elgamal = bool(seats) and len(seats[0]) == 6
        self.deck_keys = [record[4] for record in seats] if self.elgamal else None
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
        if self.forfeit is not None:  # the game's own step is the one before the forfeit (§B17)
            return self.phase["result"]
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
                # A re-shuffle over a card a seat being rebuilt still locks waits for the rebuild.
                ready = [op for op in ops if not self._awaits_rebuild(op)]
                shown = self._shown_before(ready)
                if shown:  # a keys round first: a card still escrowed shown to a holder (§B16 step 5)
                    phase["groups"].insert(phase["index"], ("keys", shown))
                    phase["index"] -= 1
                    continue
                for op in ready:
                    self._open_deal(op)
                phase["deals"] = [op[1] for op in ready]
                phase["waiting"] = [op for op in ops if op not in ready]
                return
            if kind == "keys":
                phase["ops"] = ops
                phase["submitted"], phase["release_due"], phase["released"] = {}, {}, {}
                phase["required"] = self._key_requirements(ops)
                if phase["required"] or phase["release_due"]:
                    return
                self._settle_knowledge()
                if not self._finish_keys():
                    return
            else:
                deals = set(ops[0][1])
                if self._reveal_escrowed_first(deals):
                    continue
                phase["audit_deals"] = sorted(deals)
                phase["required"], phase["submitted"] = self._auditors(deals)
                phase["submitted"].update(phase.pop("kept_audits", {}))  # (in before a rebuild's round)
                if len(phase["submitted"]) == len(phase["required"]):
                    self._audit_done()
                return

    def _reveal_escrowed_first(self, deals) -> bool:
        """§B16 step 5: before the audit of `deals` (a dispute's too), a keys round revealing the
        slots where a rebuilt seat's key stays escrowed, inserted before the current group; the
        holders publish their shares. Whether there was any (the caller moves on to the round)."""
        escrowed = [slot for slot in sorted(self.unpublished) if self.deal_of(slot).number in deals
                    and self._escrowed(slot) is not None]
        if escrowed:
            self.phase["groups"].insert(self.phase["index"], ("keys", [["reveal", escrowed, "before-audit"]]))
            self.phase["index"] -= 1
        return bool(escrowed)

    def due(self, seat) -> str | None:
        """What the log waits for from `seat` now, in words (None: nothing); in a keys round a seat
        may owe both a `keys` and a `release`, in either order (this says `keys` first)."""
        owed = self.owes(seat)
        return owed[0] if owed else None

    def owes(self, seat) -> list:
        phase = self.phase
        if phase["kind"] == "cards" and phase["sub"] == "keys":
            return ([] if seat not in phase["required"] or seat in phase["submitted"] else ["keys"]) + (
                [] if seat not in phase["release_due"] or seat in phase["released"] else ["release"])
        return [self._due(seat)] if self._due(seat) else []

    def _due(self, seat) -> str | None:
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

    def apply(self, seat: int, body: dict, prev: bytes | None = None, signer: int | None = None) -> bytes:
        """Check and apply `seat`'s submission `body`, sequenced as the entry numbered `self.seq`.
        A `take-over` (§B15) is checked against its entry: `prev` its link (the digest of the
        entry before it, or the start's), `signer` the seat whose key signed it (None: not known)."""
        self.entry = (self.seq, prev, signer)
        author = self.author(seat) if 0 <= seat < self.players else seat
        try:
            return self._apply(seat, body)
        except Fault as fault:
            # §B14, §B16.6: a fault of an open seat's submission names the caretaker whose key signed it.
            if fault.culprit == seat and author != seat:
                fault.culprit = author
            raise

    def _apply(self, seat, body):
        t = body.get("t")
        if t not in BODY_FIELDS:
            raise Fault("malformed", f"seat {seat}: a submission of unknown type {t!r}", seat)
        fields = ELGAMAL_PASS_FIELDS if (t == "pass" and self.elgamal) else BODY_FIELDS[t]
        if t == "escrow" and self.elgamal:  # (§B16.6: the deck key's split besides)
            fields = fields | {"deck", "deck_boxes"}
        # §B6.3: at an ElGamal table, published shares come with their one `proof`.
        riding = {"public", "proof"} if self.elgamal else {"public"}
        if t == "keys" and self.elgamal:
            fields = fields | {"proof"}
        if set(body) != fields and not (t == "pass" and set(body) == fields | riding) \
                and not (t == "act" and BODY_FIELDS[t] < set(body) <= BODY_FIELDS[t] | riding | {"sealed"}
                         and (not self.elgamal or ("public" in body) == ("proof" in body))):
            raise Fault("malformed", f"seat {seat}: a {t} with the wrong fields", seat)
        if self.elgamal and t != "release" and "public" in body and isinstance(body["public"], list) and not (
                (body["proof"] is None and not body["public"])
                or (isinstance(body["proof"], bytes) and len(body["proof"]) == 64 and body["public"])):
            raise Fault("malformed", f"seat {seat}: shares without their one 64-byte proof", seat)
        if t in OUT_OF_TURN:  # (a phase it begins counts it too; the entry's own seq is self.seq − 1)
            self.seq += 1
            getattr(self, "_" + t.replace("-", "_"))(seat, body)
            return self.state_hash()
        if seat in self.rebuilding:
            raise Fault("illegal", f"seat {seat}: a {t} for a seat whose keys are not rebuilt yet (§B16)", seat)
        if t not in self.owes(seat):
            raise Fault("illegal", f"seat {seat}: a {t} when the log waits for {self.due(seat) or 'nothing'} from it",
                        seat)
        self.seq += 1  # the phase a submission begins starts after it: its id counts it (§B4)
        getattr(self, "_" + t)(seat, body)
        return self.state_hash()

    def _act(self, seat, body):
        public, sealed = body.get("public"), body.get("sealed")
        if not all(field is None or isinstance(field, list) for field in (public, sealed)):
            raise Fault("malformed", f"seat {seat}: an act whose keys are not arrays", seat)
        try:
            self.game.act(seat, body["action"])
        except RuleError as e:
            raise Fault(e.code, str(e), seat) from e
        # (The items are checked after the action, §B5: an illegal move is that, whatever rides.)
        if not (all(self._is_public_item(p) for p in public or ()) and all(_is_sealed_key(s) for s in sealed or ())):
            raise Fault("malformed", f"seat {seat}: keys with its act of the wrong shape", seat)
        due = self._riding_with_act(seat) if public is not None or sealed is not None else None
        # §B6.3: shares are checked as they come, their one proof before the owed slots are compared.
        keys = self._public_items(seat, public, check=self.elgamal, proof=body.get("proof")) if public is not None else []
        if public is not None:
            slots = [slot for slot, _ in keys]
            if not due["public"] or sorted(slots) != sorted(due["public"]) or len(set(slots)) != len(slots):
                raise Fault("illegal", f"seat {seat}: keys with its act for other slots than ride with it", seat)
        if sealed is not None:
            pairs = [(item[0], item[1]) for item in sealed]
            if not due["sealed"] or sorted(pairs) != sorted(due["sealed"]) or len(set(pairs)) != len(pairs):
                raise Fault("illegal", f"seat {seat}: keys sealed with its act for other slots or seats than ride with it",
                            seat)
        for slot, key in keys:  # published now, not in the keys round the act begins (§B5)
            self.published[(slot, seat)] = key
            self.unpublished[slot].discard(seat)
        self._begin()
        if sealed:  # sealed in the keys round the act began: owed there no more
            for slot, to, box, commitment in sealed:
                self.sealed[(slot, seat, to)] = (box, commitment)
            owed = self.phase["required"][seat]
            owed["sealed"] -= set(pairs)
            if not owed["public"] and not owed["sealed"]:
                del self.phase["required"][seat]
            if self._round_done():
                self._keys_done()

    def _riding_with_act(self, seat):
        """§B5: what an act may carry, {"public": slots, "sealed": (slot, to) pairs} (the game has
        applied it): what its author would owe in the keys round that the act begins, of the slots
        that only it knows and only it has not published; nothing from a rebuilt or open seat."""
        nothing = {"public": set(), "sealed": set()}
        step = self.game.step()
        if step[0] != "cards" or seat in self.rebuilt or seat in self.open:
            return nothing
        kind, ops = _group(step[1])[0]
        if kind != "keys":
            return nothing
        alone = {slot for op in ops for slot in op[1] if self.unpublished[slot] == {seat} and self.knows[slot] == {seat}}
        return self._owed_over(ops, alone, seat)

    def _owed_over(self, ops, slots, seat):
        """What `seat` would owe over `ops` restricted to `slots` (§B6.2, on copies of U and of who
        knows): {"public": slots, "sealed": (slot, to) pairs}."""
        ops = [(op[0], [slot for slot in op[1] if slot in slots], *op[2:]) for op in ops]
        U = {slot: set(self.unpublished[slot]) for slot in slots}
        knows = {slot: set(self.knows[slot]) for slot in slots}
        return self._owed_keys(ops, U, knows)[0].get(seat, {"public": set(), "sealed": set()})

    def _commit(self, seat, body):
        c = body["commitment"]
        if not (isinstance(c, bytes) and len(c) == 32):
            raise Fault("malformed", f"seat {seat}: a commitment is 32 bytes", seat)
        self.phase["commits"][seat] = c
        if seat in self.open:  # its caretaker's commitment, from the caretaker's own secrets (§B16 (8))
            self.phase.setdefault("cared", set()).add(seat)

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
        """`seat` committed to a choice in the current choice phase and has not opened it: what
        stops its hand-over (§B14)."""
        phase = self.phase
        return (phase["kind"] == "choice" and phase["domain"] == "choice"
                and seat in phase["commits"] and seat not in phase["opens"])

    def _choice_opening(self) -> bool:
        """The current phase is a choice phase that is opening: every seat of it has committed (§B5)."""
        phase = self.phase
        return (phase["kind"] == "choice" and phase["domain"] == "choice"
                and len(phase["commits"]) == len(phase["seats"]))

    def _opening_owed(self, seat) -> bool:
        """`seat` committed to a choice and has not opened it while the phase is opening: what
        stops opening it as it is (§B14). One committed while the phase is not opening yet is no
        obstacle: it is dropped when the seat opens."""
        return self._unopened_choice(seat) and self._choice_opening()

    def _consent_refused(self, seat, target) -> bool:
        """What makes either kind of consent to opening `target` illegal from `seat` (§B14, §B16)."""
        return (not self.bots_allowed or seat in self.open or target == seat or self.phase["kind"] == "over"
                or target == self.sequencer or target in self.open)

    def _open_seat(self, seat, body):
        target = body["seat"]
        if not is_int(target) or not 0 <= target < self.players:
            raise Fault("malformed", f"seat {seat}: consented to opening seat {target!r}, which doesn't exist", seat)
        if (self._consent_refused(seat, target) or seat in self.consents.get(target, set())
                or ((self._holds_keys(target) or self._opening_owed(target)) and not self._rebuildable(target))):
            raise Fault("illegal", f"seat {seat}: may not consent to opening seat {target} now", seat)
        self.consents.setdefault(target, set()).add(seat)
        self._consented(target)

    def _consented(self, target):
        """Once every other seat still playing has consented to opening `target`, it is open: as
        it is if §B14 allows it now, else — its escrow able to rebuild it — to be rebuilt, its
        holders' shares coming from then on (§B16); else it waits."""
        if any(s not in self.consents[target] for s in self.playing() if s != target):
            return
        if self._holds_keys(target) or self._opening_owed(target):
            if not self._rebuildable(target):
                return
            self.rebuilding.add(target)
        self._seat_opens(target)

    def _rebuildable(self, target) -> bool:
        """`target`'s keys can be rebuilt from its escrow now (§B16): its escrow and each lock
        escrow of a deal it locked are among the seats playing now, and it holds no share the
        table needs of another rebuilt seat. (A re-shuffle waiting for its re-key over a slot that
        stays escrowed is no obstacle since protocol 7: it starts again at the rebuild.)"""
        others = [s for s in self.playing() if s != target]
        escrow = self.escrows.get(target)
        audited = self._audited()
        unescrowed = any(target in deal.verifiers and deal.number not in audited
                         and self.lock_escrows.get((target, deal.number), {}).get("holders") != others
                         for deal in self.deals.values())
        return not (escrow is None or escrow["holders"] != others or unescrowed
                    or self._holds_escrowed_shares(target))

    def _seat_opens(self, target):
        """`target` is open from this entry (§B14): a random phase waiting for it leaves it out; a
        choice phase not opening yet drops its commitment, its caretaker choosing again (§B14 2)."""
        for pending in (self.consents, self.shares, self.lock_shares, self.sent_keys):
            pending.pop(target, None)
        self.open[target] = self.seq - 1
        phase = self.phase
        if phase["kind"] == "choice" and phase["domain"] == "choice" and not self._choice_opening():
            phase["commits"].pop(target, None)  # nobody has seen an opening: its caretaker commits anew
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

    def _holds_escrowed_shares(self, seat) -> bool:
        """`seat` holds a share of a rebuilt seat's lock key that stays escrowed in a deal not yet
        audited: the table needs it, so it may neither hand over nor be rebuilt (§B14, §B16)."""
        audited = self._audited()
        if self.elgamal:  # §B16.6: a holder of a rebuilt seat's escrow while a slot has it in U
            return any(dealer in self.rebuilt and seat in self.escrows[dealer]["holders"]
                       and any(dealer in self.unpublished[slot] and self.deal_of(slot).number not in audited
                               for slot in self.unpublished)
                       for dealer in self.escrows)
        return any(dealer in self.rebuilt and seat in escrowed["holders"] and number in self.deals
                   and number not in audited
                   and any(dealer in self.unpublished[self.deals[number].first + i] for i in range(self.deals[number].size))
                   for (dealer, number), escrowed in self.lock_escrows.items())

    def _hand_over(self, seat, body):
        phase = self.phase
        audited = self._audited()
        unaudited = [d for d, deal in sorted(self.deals.items()) if seat in deal.holders and d not in audited]
        leaks = any(self.unpublished[slot] == {seat} and self.knows[slot] - {seat} for slot in self.unpublished)
        if (not self.bots_allowed or seat in self.open or phase["kind"] in ("over", "cards") or leaks
                or self._unopened_choice(seat) or self._holds_escrowed_shares(seat)):
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
        if self.elgamal:
            self.handed[seat] = self._elgamal_hand_over(seat, body, unaudited)
            self._seat_opens(seat)
            if successor is not None:
                self.sequencer = successor
            return
        entries = body["keys"]
        try:
            parsed = {number: (None if a is None else deck.scalar_from(a), None if r is None else deck.scalar_from(r),
                               [deck.scalar_from(k) for k in ks]) for number, a, r, ks in entries}
        except (deck.DeckError, TypeError, ValueError) as e:
            raise Fault("malformed", f"seat {seat}: handed over malformed keys ({e})", seat) from e
        if sorted(parsed) != unaudited or len(parsed) != len(entries):
            raise Fault("bad-key", f"seat {seat}: handed over keys of deals {sorted(parsed)}, not {unaudited}", seat)
        for number, (a, r, ks) in parsed.items():
            deal = self.deals[number]
            if len(ks) != deal.size or (a is None) != (deal.sources is None) or (r is None) != deal.shuffle_locked_by(seat):
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

    # --- the host gone for good: a take-over (§B15) --------------------------------------------

    def remaining(self) -> list:
        """The remaining seats of a take-over: every seat playing other than the host (§B15)."""
        return [s for s in self.playing() if s != self.sequencer]

    def _caretaker_owes_opening(self) -> bool:
        """An open seat the host plays has committed to a choice it has not opened, with a salt
        from the host's own secrets, which leave with it (§B15, the host's hand-over): not a seat
        being rebuilt or rebuilt whose own commitment it was (its opening derives from its escrow
        secret, §B16). (No game followed here seals choices, §B4.)"""
        phase = self.phase
        return phase["kind"] == "choice" and phase["domain"] == "choice" and any(
            s in self.open and s not in phase["opens"] and s in phase.get("cared", ()) for s in phase["commits"])

    def _take_over(self, seat, body):
        """`{t: "take-over", consents}` (§B15 step 4): the remaining seats' `takeover` consents,
        sequenced by their successor, `seat`, under its own key. Every fault is `seat`'s."""
        seq, prev, signer = self.entry
        host = self.sequencer
        if signer is not None and signer != seat:
            raise Fault("illegal", f"seat {seat}: a take-over sequenced by seat {signer}, not by its author "
                                   f"(a take-over is no submission to a host)", seat)
        remaining = self.remaining()
        if seat not in remaining:
            raise Fault("illegal", f"seat {seat}: a take-over from a seat that is not a remaining seat "
                                   f"(the host, seat {host}, or an open seat)", seat)
        check_takeover_consents(self.game_id, self.seats, remaining, seat, host, seq, prev, body["consents"])
        # The host's seat must be openable by the rules for a seat that is not the host (§B14, §B16).
        if not self.bots_allowed or self.phase["kind"] == "over":
            raise Fault("illegal", f"seat {seat}: a take-over where no seat can be opened (the table plays no "
                                   f"bot in a leaver's seat, or the game is over)", seat)
        if (self._holds_keys(host) or self._opening_owed(host)) and not self._rebuildable(host):
            raise Fault("illegal", f"seat {seat}: a take-over while the host's seat {host} can't be opened, as it "
                                   f"is or rebuilt from its escrow", seat)
        if self._caretaker_owes_opening():
            raise Fault("illegal", f"seat {seat}: a take-over while an open seat the host plays has a choice "
                                   f"committed and not opened", seat)
        # From this entry on `seat` is the host; the old host's seat opens as if every remaining
        # seat had consented (§B14): as it is, or to be rebuilt, its holders' shares to come (§B16).
        self.sequencer = seat
        self.consents[host] = set(remaining)
        self._consented(host)

    # --- a win by forfeit (§B17) ---------------------------------------------------------------

    def _forfeit(self, seat, body):
        """`{t: "forfeit"}` (§B17): the other player has gone and `seat` claims the game. Sequenced
        by its author only (the host as any of its own; a joiner signing its entry itself, and
        sequencing from there on). Every fault is `seat`'s."""
        seq, _prev, signer = self.entry
        if not self.forfeit_allowed:
            raise Fault("illegal", f"seat {seat}: a forfeit at a table whose ruleset has no forfeit: true", seat)
        if self.phase["kind"] == "over":
            raise Fault("illegal", f"seat {seat}: a forfeit once the game is over", seat)
        if self.open:
            raise Fault("illegal", f"seat {seat}: a forfeit while seat {min(self.open)} is open (the game goes on "
                                   f"with its bot)", seat)
        if signer is not None and signer != seat:
            raise Fault("illegal", f"seat {seat}: a forfeit sequenced by seat {signer}, not by its author "
                                   f"(a forfeit is no submission to a host)", seat)
        # The game is over, its state (and so its state hash) the one before; no audit follows.
        gone = next(s for s in range(self.players) if s != seat)
        self.forfeit = (seat, gone, seq)
        self.phase = {"kind": "over", "result": {"scores": [], "winners": [seat], "summary": FORFEIT_SUMMARY}}
        self.sequencer = seat  # (already so if it hosted)

    # --- key escrow (§B16) --------------------------------------------------------------------

    def _escrow(self, seat, body):
        holders, commitments, boxes = body["holders"], body["commitments"], body["boxes"]
        if not (_seats(holders) and isinstance(commitments, list) and isinstance(boxes, list)
                and len(holders) == len(commitments) == len(boxes)
                and all(isinstance(c, bytes) and len(c) == 33 and c[0] in (2, 3) for c in commitments)
                and all(isinstance(b, bytes) and len(b) <= 144 for b in boxes)):
            raise Fault("malformed", f"seat {seat}: an escrow of the wrong form", seat)
        if self.elgamal:  # §B16.6: one commitment and one box per holder, the commitments adding up to its key
            deck_commitments, deck_boxes = body["deck"], body["deck_boxes"]
            if not (isinstance(deck_commitments, list) and isinstance(deck_boxes, list)
                    and len(deck_commitments) == len(deck_boxes) == len(holders)
                    and all(isinstance(c, bytes) and len(c) == 32 for c in deck_commitments)
                    and all(isinstance(b, bytes) and len(b) <= 144 for b in deck_boxes)):
                raise Fault("malformed", f"seat {seat}: an escrow of its deck key of the wrong form", seat)
        # The boxes open only with their holders' sealing keys: each holder checks its own.
        others = [s for s in self.playing() if s != seat]
        if (not self.bots_allowed or seat in self.open or self.phase["kind"] == "over" or holders != others
                or len(holders) < 2 or self.escrows.get(seat, {}).get("holders") == holders):
            raise Fault("illegal", f"seat {seat}: may not escrow its secret with seats {holders} now", seat)
        if self.elgamal:
            points = [edwards.point(c) if edwards.valid(c) else None for c in deck_commitments]
            total = None
            for p in points:
                total = None if p is None else (p if total is None else edwards.add(total, p))
                if total is None:
                    break
            if total is None or edwards.encode(total) != self.deck_keys[seat]:
                raise Fault("illegal", f"seat {seat}: escrowed shares of its deck key that don't add up to its key", seat)
        self.escrows[seat] = {"holders": holders, "commitments": commitments,
                              "deck": body["deck"] if self.elgamal else None}

    def lock_escrow_due(self, seat, number) -> bool:
        """A lock escrow of deal `number` would be legal from `seat` now (then its lock pass is not);
        never at an ElGamal table (§B16.6: its `illegal`)."""
        if self.elgamal:
            return False
        others = [s for s in self.playing() if s != seat]
        deal, current = self.deals.get(number), self.lock_escrows.get((seat, number))
        return (self.bots_allowed and seat not in self.open and self.phase["kind"] != "over" and len(others) >= 2
                and deal is not None and seat in deal.holders and number not in self._audited()
                and (current is None or current["holders"] != others))

    def _lock_escrow(self, seat, body):
        number, holders, roots, offsets, boxes = (body["deal"], body["holders"], body["roots"], body["offsets"],
                                                  body["boxes"])
        if not (is_int(number) and _seats(holders) and isinstance(roots, list) and isinstance(offsets, list)
                and isinstance(boxes, list) and len(holders) == len(roots) == len(boxes)
                and all(isinstance(r, bytes) and len(r) == 32 for r in roots)
                and all(isinstance(o, bytes) and len(o) == 32 and int.from_bytes(o, "big") < deck.N for o in offsets)
                and all(isinstance(b, bytes) and len(b) <= 80 for b in boxes)):
            raise Fault("malformed", f"seat {seat}: a lock escrow of the wrong form", seat)
        if not self.lock_escrow_due(seat, number) or holders != [s for s in self.playing() if s != seat]:
            raise Fault("illegal", f"seat {seat}: may not escrow its lock keys of deal {number} with seats "
                                   f"{holders} now", seat)
        if len(offsets) not in (0, self.deals[number].size):  # none, or one per slot of the deal (§B16)
            raise Fault("malformed", f"seat {seat}: a lock escrow of deal {number} with {len(offsets)} offsets", seat)
        self.lock_escrows[(seat, number)] = {"holders": holders, "roots": roots,
                                             "offsets": [int.from_bytes(o, "big") for o in offsets]}

    def _escrowed_key(self, seat, slot, shares) -> int:
        """The key `shares` (one from each holder) make of `seat`'s lock key of `slot` with the
        offset of its current lock escrow (§B16): their sum plus the offset, mod n."""
        deal = self.deal_of(slot)
        offsets = self.lock_escrows[(seat, deal.number)]["offsets"]
        return (sum(shares) + (offsets[slot - deal.first] if offsets else 0)) % deck.N

    def _staying(self, seat) -> list:
        """The slots whose key stays escrowed when `seat` is rebuilt: of deals it has locked, not
        yet audited, locked by its key alone and not in its keeping — a card it gave away, or one
        only it knew (§B16)."""
        audited, kept = self._audited(), set(self.kept_slots(seat))
        if self.elgamal:  # §B16.6: a slot whose U is {s} alone, not in s's keeping
            return sorted(slot for slot, U in self.unpublished.items()
                          if U == {seat} and slot not in kept and self.deal_of(slot).final is not None
                          and self.deal_of(slot).number not in audited)
        # A source of a re-mask of its own hand whose re-key it still owes does not stay (§B16).
        remasked = {slot for deal in self.deals.values()
                    if deal.sources is not None and ("rekey", seat) in deal.passes
                    and all(deal.first + i in kept for i in range(deal.size))
                    for slot in deal.sources}
        return sorted(slot for slot, U in self.unpublished.items()
                      if U == {seat} and slot not in kept and slot not in remasked
                      and seat in self.deal_of(slot).verifiers and self.deal_of(slot).number not in audited)

    def _rebuilt_slots(self, seat) -> list:
        """The slots whose key a rebuild of `seat` publishes: of deals it has locked, not yet
        audited, that its key still locks, but those that stay escrowed (§B16 `locks`)."""
        audited, staying = self._audited(), set(self._staying(seat))
        if self.elgamal:  # §B16.6 `locks`: of deals all of whose passes are made, not yet audited, U holding s
            return sorted(deal.first + i for deal in self.deals.values()
                          if seat in deal.holders and deal.final is not None and deal.number not in audited
                          for i in range(deal.size)
                          if seat in self.unpublished[deal.first + i] and deal.first + i not in staying)
        return sorted(deal.first + i for deal in self.deals.values()
                      if seat in deal.verifiers and deal.number not in audited
                      for i in range(deal.size)
                      if seat in self.unpublished[deal.first + i] and deal.first + i not in staying)

    def _rebuild(self, seat, body):
        if self.elgamal:
            return self._elgamal_rebuild(seat, body)
        target, share, sent, locks = body["seat"], body["share"], body["sent"], body["locks"]
        if not (is_int(target) and isinstance(share, bytes) and len(share) == 32
                and isinstance(sent, list) and all(
                    isinstance(item, list) and len(item) == 2 and is_int(item[0])
                    and isinstance(item[1], bytes) and len(item[1]) == 32 for item in sent)
                and isinstance(locks, list) and all(
                    isinstance(item, list) and len(item) == 3 and is_int(item[0]) and _is_scalar(item[1])
                    and isinstance(item[2], list) for item in locks)):
            raise Fault("malformed", f"seat {seat}: a rebuild with fields of the wrong type", seat)
        if not 0 <= target < self.players or target not in self.rebuilding:
            raise Fault("illegal", f"seat {seat}: gave shares of seat {target!r}, which is not being rebuilt", seat)
        escrow = self.escrows[target]
        audited = self._audited()
        if (seat not in escrow["holders"] or seat in self.open
                or (seat in self.shares.get(target, {})
                    and [slot for slot, _ in self.lock_shares[target][seat]] == self._rebuilt_slots(target))):
            raise Fault("illegal", f"seat {seat}: may not give its shares of seat {target}'s escrow now", seat)
        value = int.from_bytes(share, "big")
        if not deck.check_share(value, escrow["commitments"][escrow["holders"].index(seat)]):
            raise Fault("illegal", f"seat {seat}: a share of seat {target}'s escrow not the one committed to", seat)
        # `locks`: its share of the target's lock key of each slot the rebuild rebuilds, in order.
        if [slot for slot, _, _ in locks] != self._rebuilt_slots(target):
            raise Fault("illegal", f"seat {seat}: shares of lock keys of slots {[s for s, _, _ in locks]}, not "
                                   f"{self._rebuilt_slots(target)}", seat)
        for slot, raw, path in locks:
            self._check_lock_share(seat, target, slot, raw, path)
        # `sent`: exactly the kept slots of live deals the target knows whose key of the author is
        # unpublished (an audited deal's keys are all out), in order, each with the author's key.
        owed = [slot for slot in sorted(self.kept_slots(target))
                if self.deal_of(slot).number in self.game.cards.deals and self.deal_of(slot).number not in audited
                and target in self.knows[slot] and seat in self.unpublished[slot]]
        if [slot for slot, _ in sent] != owed:
            raise Fault("illegal", f"seat {seat}: sent keys of slots {[s for s, _ in sent]}, not {owed}", seat)
        keys = []
        for slot, raw in sent:
            key = int.from_bytes(raw, "big")
            if not self._is_lock_key(slot, seat, key):
                raise Fault("bad-key", f"seat {seat}: sent a key for slot {slot} unlike its verifier", seat)
            keys.append((slot, seat, key))
        self.shares.setdefault(target, {})[seat] = value
        self.lock_shares.setdefault(target, {})[seat] = [(slot, int.from_bytes(raw, "big")) for slot, raw, _ in locks]
        self.sent_keys.setdefault(target, {})[seat] = keys  # shares given again replace these
        slots = self._rebuilt_slots(target)
        if set(self.shares[target]) == set(escrow["holders"]) and all(
                [slot for slot, _ in self.lock_shares[target][h]] == slots for h in escrow["holders"]):
            self._rebuild_seat(target)

    def _elgamal_rebuild(self, seat, body):
        """§B16.6 *Rebuilding*: `share` its share of e; `sent` [slot, share, proof] its shares sealed
        to the target of the cards in its keeping; `locks` [slot, part, proof] its parts of the
        target's share of each slot the rebuild shows, proven against the escrow's `deck`."""
        target, share, sent, locks = body["seat"], body["share"], body["sent"], body["locks"]

        def items(v):
            return isinstance(v, list) and all(
                isinstance(item, list) and len(item) == 3 and is_int(item[0]) and isinstance(item[1], bytes)
                and len(item[1]) == 32 and isinstance(item[2], bytes) and len(item[2]) == 64 for item in v)

        if not (is_int(target) and isinstance(share, bytes) and len(share) == 32 and items(sent) and items(locks)):
            raise Fault("malformed", f"seat {seat}: a rebuild with fields of the wrong type", seat)
        if not 0 <= target < self.players or target not in self.rebuilding:
            raise Fault("illegal", f"seat {seat}: gave shares of seat {target!r}, which is not being rebuilt", seat)
        escrow = self.escrows[target]
        audited = self._audited()
        slots = self._rebuilt_slots(target)
        if (seat not in escrow["holders"] or seat in self.open
                or (seat in self.shares.get(target, {})
                    and [slot for slot, _ in self.lock_shares[target][seat]] == slots)):
            raise Fault("illegal", f"seat {seat}: may not give its shares of seat {target}'s escrow now", seat)
        value = int.from_bytes(share, "big")
        if not deck.check_share(value, escrow["commitments"][escrow["holders"].index(seat)]):
            raise Fault("illegal", f"seat {seat}: a share of seat {target}'s escrow not the one committed to", seat)
        owed = [slot for slot in sorted(self.kept_slots(target))
                if self.deal_of(slot).number in self.game.cards.deals and self.deal_of(slot).number not in audited
                and target in self.knows[slot] and seat in self.unpublished[slot]]
        if [slot for slot, _, _ in sent] != owed:
            raise Fault("illegal", f"seat {seat}: sent shares of slots {[s for s, _, _ in sent]}, not {owed}", seat)
        for slot, raw, proof in sent:
            if not self._share_holds(slot, seat, raw, proof):
                raise Fault("bad-key", f"seat {seat}: sent a wrong share of slot {slot}", seat)
        if [slot for slot, _, _ in locks] != slots:
            raise Fault("illegal", f"seat {seat}: parts of slots {[s for s, _, _ in locks]}, not {slots}", seat)
        for slot, part, proof in locks:
            if not self._part_holds(target, slot, seat, part, proof):
                raise Fault("bad-key", f"seat {seat}: gave a wrong part of seat {target}'s share of slot {slot}", seat)
        self.shares.setdefault(target, {})[seat] = value
        self.lock_shares.setdefault(target, {})[seat] = [(slot, part) for slot, part, _ in locks]
        self.sent_keys.setdefault(target, {})[seat] = [(slot, seat, raw) for slot, raw, _ in sent]
        if set(self.shares[target]) == set(escrow["holders"]) and all(
                [slot for slot, _ in self.lock_shares[target][h]] == slots for h in escrow["holders"]):
            self._rebuild_seat(target)

    def _check_lock_share(self, holder, seat, slot, raw, path):
        """`raw` is `holder`'s share of `seat`'s lock key of `slot`: `path` has the slot's depth in
        the tree (else `malformed`) and leads the share's leaf to the root `seat`'s lock escrow
        signed for `holder` (§B16, §C8), else the holder's `illegal`."""
        deal = self.deal_of(slot)
        i = slot - deal.first
        if not self._path_fits(slot, path):
            raise Fault("malformed", f"seat {holder}: its share of seat {seat}'s key of slot {slot} comes with a "
                                     f"path of the wrong form", holder)
        escrowed = self.lock_escrows[(seat, deal.number)]
        leaf = deck.share_digest(raw, canon.encode(["lock-share", self.game_id, seat, deal.number, i, holder]))
        if not deck.check_path(leaf, i, deal.size, path, escrowed["roots"][escrowed["holders"].index(holder)]):
            raise Fault("illegal", f"seat {holder}: its share of seat {seat}'s key of slot {slot} is not the one "
                                   f"escrowed", holder)

    def _path_fits(self, slot, path) -> bool:
        """`path` has a path's form for `slot` (§B16): exactly as many 32-byte hashes as the
        slot's depth in a tree over its deal's slots (§C8 `path_length`)."""
        deal = self.deal_of(slot)
        return (isinstance(path, list) and len(path) == deck.path_length(slot - deal.first, deal.size)
                and all(isinstance(p, bytes) and len(p) == 32 for p in path))

    def _is_lock_key(self, slot, seat, key) -> bool:
        """`key` is `seat`'s lock key of `slot`: E(V, key) is its verifier (§B6.2)."""
        deal = self.deal_of(slot)
        return 1 <= key < deck.N and deck.encrypt(deck.VERIFIER_BASE, key) == deal.verifiers[seat][slot - deal.first]

    def _rebuild_seat(self, seat):
        """Every other seat still playing gave its shares: `seat`'s escrow secret and lock keys are
        rebuilt and checked, its keys published but those that stay escrowed, and it is open from
        this entry (§B16 steps 1–3, 6)."""
        escrow = self.escrows[seat]
        staying = set(self._staying(seat))  # (as `locks` defines it, at this entry)
        e = sum(self.shares[seat].values()) % deck.N
        if e == 0 or deck.escrow_commitments(e, len(escrow["holders"])) != escrow["commitments"]:
            raise Fault("bad-escrow", f"seat {seat}: its escrow's shares are no split of one secret", seat)
        audited = self._audited()
        if self.elgamal:
            return self._rebuild_elgamal_seat(seat, e, audited, staying)
        for deal in self.deals.values():
            made = [(inputs, values) for stage, by, inputs, values, _ in deal.done if (stage, by) == ("shuffle", seat)]
            if not made or deal.number in audited:
                continue
            _rekey, shuffle, permutation, _locks = deck.seat_deal_keys(e, deal.number, deal.size, deal.sources is not None)
            inputs, values = made[0]
            try:
                expected = [deck.encrypt(inputs[permutation[j]], shuffle) for j in range(deal.size)]
            except deck.DeckError:
                continue  # a value that is no point: the audit says whose
            if expected != list(values):
                raise Fault("bad-escrow", f"seat {seat}: its escrow is not of the secret its shuffle of deal "
                                          f"{deal.number} came from", seat)
        for slot in self._rebuilt_slots(seat):
            key = self._escrowed_key(seat, slot, [dict(given)[slot] for given in self.lock_shares[seat].values()])
            if not self._is_lock_key(slot, seat, key):
                raise Fault("bad-escrow", f"seat {seat}: its escrowed lock key of slot {slot} is not the one it "
                                          f"locked with", seat)
            self.published[(slot, seat)] = key
            self.unpublished[slot].discard(seat)
        self._rebuilt_now(seat, e, staying)

    def _rebuild_elgamal_seat(self, seat, e, audited, staying):
        """§B16.6: each pass `seat` made of a deal not yet audited remade from its pass seed (else
        its `bad-escrow`); its share of each slot shown the sum of the holders' parts."""
        self.secrets[seat] = e
        for deal in self.deals.values():
            if deal.number in audited:
                continue
            for _stage, by, inputs, values, _ in deal.done:
                if by == seat:
                    permutation, scalars = pass_randomness(self._pass_seed(seat, deal.number), deal.size)
                    if _reencrypt(inputs, self._joint_key(deal.holders), permutation, scalars) != values:
                        raise Fault("bad-escrow", f"seat {seat}: its escrow is not of the secret its pass of deal "
                                                  f"{deal.number} came from", seat)
        for slot in self._rebuilt_slots(seat):
            self.published[(slot, seat)] = edwards.sum_of([dict(given)[slot] for given in self.lock_shares[seat].values()])
            self.unpublished[slot].discard(seat)
        self._rebuilt_now(seat, e, staying)

    def _rebuilt_now(self, seat, e, staying):
        """The rest of a rebuild (§B16 step 6): sent keys published, the seat open and rebuilt."""
        for slot, sender, key in (item for keys in self.sent_keys.get(seat, {}).values() for item in keys):
            self.published[(slot, sender)] = key
            self.unpublished[slot].discard(sender)
        self.secrets[seat] = e
        self.rebuilt[seat] = self.seq - 1
        self.rebuilding.discard(seat)
        for pending in (self.shares, self.lock_shares, self.sent_keys):
            pending.pop(seat, None)
        if not self.elgamal:  # (§B16.6: at an ElGamal table a re-shuffle under way goes on, its pass remade)
            self._restart_reshuffles(seat, staying)
        phase = self.phase
        if phase["kind"] == "cards" and phase["sub"] == "deals" and phase["waiting"]:
            self._set_up_anew(list(phase["waiting"]))
        # Step 6: what the seat owes is done for it. Its passes are everyone's to compute (`_pass`);
        # a keys round under way is handed to its escrow's holders (a choice it committed to was
        # chosen again when it opened, if the phase was not opening yet; else its caretaker opens it).
        phase = self.phase
        if phase["kind"] == "cards" and phase["sub"] == "keys" and seat in phase["required"]:
            if seat not in phase["submitted"]:
                self._owe_shares(seat, phase["required"].pop(seat))
                if self._round_done():
                    self._keys_done()
        elif phase["kind"] == "cards" and phase["sub"] == "audit" and seat in phase["required"]:
            if seat not in phase["submitted"]:
                if self._reveal_escrowed_first(set(phase["audit_deals"])):
                    # Its keys that stay escrowed are revealed first; the audits in so far stand.
                    phase["kept_audits"] = phase["submitted"]
                    self._next_substep()
                    if self.phase is None:
                        self._begin()
                    return
                phase["submitted"][seat] = {d: self._keys_left(seat, d) for d in phase["audit_deals"]
                                            if seat in self.deals[d].holders}
                if len(phase["submitted"]) == len(phase["required"]):
                    self._audit_done()

    def _restart_reshuffles(self, seat, staying):
        """§B16 step 5, *A re-shuffle under way starts again*: at the entry that rebuilds `seat`,
        each re-shuffle of the current sub-step that it holds, its re-key pass not made, with a
        source slot whose key of `seat` stays escrowed, is set up anew as a re-shuffle whose
        sub-step begins here: its passes so far void, `seat` (open) no longer a holder, its
        published lock keys taken off the starting values, a holder that knows each escrowed slot
        taking that lock off in its re-key pass. A slot no holder of the new deal knows is shown
        to its lowest holder first (a `Disclose`): then the re-shuffle waits for that keys round,
        which follows the deals of the sub-step still under way."""
        phase = self.phase
        if not (phase["kind"] == "cards" and phase["sub"] == "deals"):
            return
        kind, ops = phase["groups"][phase["index"]]
        again = [op for op in ops if op[0] == "reshuffle" and op[1] in phase["deals"]
                 and seat in self.deals[op[1]].holders and ("rekey", seat) in self.deals[op[1]].passes
                 and set(op[2]) & staying]
        if again:
            self._set_up_anew(again)

    def _set_up_anew(self, again):
        """Set up the re-shuffles `again` of the current deals sub-step as if it began at this
        entry — voided ones (above), or ones that waited for a rebuild (§B16 step 5) — unless one
        waits still; a slot no holder knows is shown first, in a keys round after this sub-step."""
        phase = self.phase
        kind, ops = phase["groups"][phase["index"]]
        numbers = {op[1] for op in again}
        phase["waiting"] = [op for op in phase["waiting"] if op[1] not in numbers] + [
            op for op in again if self._awaits_rebuild(op)]
        again = [op for op in again if not self._awaits_rebuild(op)]
        shown = self._shown_before(again)
        if not shown:
            for op in again:
                self._open_deal(op)  # (an old Deal, its void passes with it, is replaced)
                if op[1] not in phase["deals"]:
                    phase["deals"].append(op[1])
            return
        numbers = {op[1] for op in again}
        phase["deals"] = [d for d in phase["deals"] if d not in numbers]
        phase["groups"][phase["index"]] = (kind, [op for op in ops if op[1] not in numbers])
        phase["groups"][phase["index"] + 1:phase["index"] + 1] = [("keys", shown), ("deals", again)]
        for number in numbers:  # its passes are void; it is set up when its sub-step comes
            if number in self.deals:
                self.deals[number].passes = []
        self._end_deals_if_done()

    def _end_deals_if_done(self):
        """The deals sub-step is done when every deal's passes are in and no re-shuffle waits."""
        phase = self.phase
        if all(not self.deals[d].passes for d in phase["deals"]) and not phase["waiting"]:
            self._next_substep()
            if self.phase is None:
                self._begin()

    def _awaits_rebuild(self, op) -> bool:
        """A re-shuffle with a source slot still locked by a seat being rebuilt: its key comes off
        the starting values, or a stand-in takes it off, and neither can before the rebuild — it is
        set up at the entry that rebuilds the last such seat (§B16 step 5)."""
        return op[0] == "reshuffle" and any(self.unpublished[slot] & self.rebuilding for slot in op[2])

    def _owe_shares(self, seat, owed):
        """What a rebuilt seat owes in a keys round is owed by the holders of its lock escrow of
        each slot's deal: their shares, published where it would publish, sealed to whom it would
        seal (but by that seat itself, which holds its own) (§B16 step 4)."""
        due = self.phase["release_due"]
        for slot in owed["public"]:
            if (slot, seat) not in self.published:
                for h in self._part_holders(seat, slot):
                    due.setdefault(h, {"public": set(), "sealed": set()})["public"].add((seat, slot))
        for slot, to in owed["sealed"]:
            if (slot, seat) not in self.published:
                for h in self._part_holders(seat, slot):
                    if h != to:
                        due.setdefault(h, {"public": set(), "sealed": set()})["sealed"].add((seat, slot, to))

    def _part_holders(self, seat, slot) -> list:
        """Who holds a share of rebuilt `seat`'s key of `slot`: its lock escrow's holders (§B16),
        or at an ElGamal table its escrow's (§B16.6)."""
        if self.elgamal:
            return self.escrows[seat]["holders"]
        return self.lock_escrows[(seat, self.deal_of(slot).number)]["holders"]

    def _release(self, seat, body):
        if self.elgamal:
            return self._elgamal_release(seat, body)
        public, sealed = body["public"], body["sealed"]
        if not (isinstance(public, list) and isinstance(sealed, list)
                and all(isinstance(p, list) and len(p) == 4 and is_int(p[0]) and is_int(p[1])
                        and _is_scalar(p[2]) for p in public)
                and all(isinstance(x, list) and len(x) == 5 and is_int(x[0]) and is_int(x[1]) and is_int(x[2])
                        and isinstance(x[3], bytes) and len(x[3]) <= 144 for x in sealed)):
            raise Fault("malformed", f"seat {seat}: a release of the wrong shape", seat)
        owed = self.phase["release_due"][seat]
        items, pairs = [tuple(p[:2]) for p in public], [tuple(x[:3]) for x in sealed]
        if sorted(items) != sorted(owed["public"]) or sorted(pairs) != sorted(owed["sealed"]):
            raise Fault("illegal", f"seat {seat}: released other shares than it owes", seat)
        for gone, slot, raw, path in public:
            self._check_lock_share(seat, gone, slot, raw, path)
        for gone, slot, _to, _box, path in sealed:
            # Only its receiver can open the share and follow its path; its form everyone checks.
            if not self._path_fits(slot, path):
                raise Fault("malformed", f"seat {seat}: a sealed share of slot {slot} with a path of the wrong form",
                            seat)
        self.phase["released"][seat] = body
        for gone, slot, raw, _path in public:
            shares = self.released.setdefault((gone, slot), {})
            shares[seat] = int.from_bytes(raw, "big")
            if len(shares) == len(self.lock_escrows[(gone, self.deal_of(slot).number)]["holders"]):
                key = self._escrowed_key(gone, slot, shares.values())
                if not self._is_lock_key(slot, gone, key):
                    raise Fault("bad-escrow", f"seat {gone}: its escrowed key of slot {slot} is not the one it "
                                              f"locked with", gone)
                self.published[(slot, gone)] = key
                self.unpublished[slot].discard(gone)
        if self._round_done():
            self._keys_done()

    def _elgamal_release(self, seat, body):
        """§B16.6: published parts [s, slot, part, proof], checked as they come (else `bad-key`),
        summed into s's share once every holder's is in; sealed parts [s, slot, to, box], which
        only `to` opens."""
        public, sealed = body["public"], body["sealed"]
        if not (isinstance(public, list) and isinstance(sealed, list)
                and all(isinstance(p, list) and len(p) == 4 and is_int(p[0]) and is_int(p[1])
                        and isinstance(p[2], bytes) and len(p[2]) == 32 and isinstance(p[3], bytes)
                        and len(p[3]) == 64 for p in public)
                and all(isinstance(x, list) and len(x) == 4 and is_int(x[0]) and is_int(x[1]) and is_int(x[2])
                        and isinstance(x[3], bytes) and len(x[3]) <= 144 for x in sealed)):
            raise Fault("malformed", f"seat {seat}: a release of the wrong shape", seat)
        owed = self.phase["release_due"].get(seat, {"public": set(), "sealed": set()})
        items, pairs = [tuple(p[:2]) for p in public], [tuple(x[:3]) for x in sealed]
        if (sorted(items) != sorted(owed["public"]) or sorted(pairs) != sorted(owed["sealed"])
                or len(set(items)) != len(items) or len(set(pairs)) != len(pairs)):
            raise Fault("illegal", f"seat {seat}: released other parts than it owes", seat)
        for gone, slot, part, proof in public:
            if not self._part_holds(gone, slot, seat, part, proof):
                raise Fault("bad-key", f"seat {seat}: released a wrong part of seat {gone}'s share of slot {slot}",
                            seat)
        self.phase["released"][seat] = body
        for gone, slot, part, _proof in public:
            parts = self.released.setdefault((gone, slot), {})
            parts[seat] = part
            if len(parts) == len(self.escrows[gone]["holders"]):
                self.published[(slot, gone)] = edwards.sum_of(list(parts.values()))
                self.unpublished[slot].discard(gone)
        if self._round_done():
            self._keys_done()

    def _round_done(self) -> bool:
        """Every `keys` and every `release` the keys round owes is in (§B6.2, §B16)."""
        phase = self.phase
        return len(phase["submitted"]) == len(phase["required"]) and len(phase["released"]) == len(phase["release_due"])

    def _keys_left(self, seat, number):
        """An open seat's keys of `number` at its audit (it submits no `audit`): those it handed
        over (§B14); a rebuilt seat's re-key and shuffle keys from its escrow secret and its lock
        keys as published (§B16 step 5)."""
        if seat in self.handed:
            return self.handed[seat][number]
        deal = self.deals[number]
        if self.elgamal:  # §B16.6: its pass seed and its shares as published (no proof)
            missing = [deal.first + i for i in range(deal.size) if (deal.first + i, seat) not in self.published]
            if missing:
                raise Fault("illegal", f"seat {seat}'s shares of slots {missing} are not published for the audit of "
                                       f"deal {number} (§B16.6)")
            return (self._pass_seed(seat, number), [self.published[(deal.first + i, seat)] for i in range(deal.size)],
                    None)
        rekey, shuffle, _permutation, _locks = deck.seat_deal_keys(self.secrets[seat], number, deal.size,
                                                                   deal.sources is not None)
        missing = [deal.first + i for i in range(deal.size) if (deal.first + i, seat) not in self.published]
        if missing:
            raise Fault("illegal", f"seat {seat}'s keys of slots {missing} are not published for the audit of deal "
                                   f"{number} (§B16 step 5 reveals them before every audit)")
        return rekey, None if deal.shuffle_locked_by(seat) else shuffle, [self.published[(deal.first + i, seat)] for i in range(deal.size)]

    def _rebuilt_pass(self, seat, deal, stage, inputs):
        """The pass a rebuilt seat's caretaker must make: everyone computes it from the seat's
        escrow secret, its lock keys of the sources (rebuilt, published or audited) for a re-key
        (§B16 step 5). Returns (values, verifiers)."""
        rekey, shuffle, permutation, locks = deck.seat_deal_keys(self.secrets[seat], deal.number, deal.size,
                                                                 deal.sources is not None)
        a = rekey or 1
        if stage == "rekey":
            return [deck.encrypt(v, a * deck.inverse(self._known_lock(source, seat)) % deck.N)
                    for v, source in zip(inputs, deal.sources)], []
        if stage == "shuffle":
            return [deck.encrypt(inputs[permutation[t]], shuffle) for t in range(deal.size)], []
        if stage == "shuffle-lock":
            return ([deck.encrypt(inputs[permutation[t]], locks[t] * deck.inverse(a) % deck.N) for t in range(deal.size)],
                    [deck.encrypt(deck.VERIFIER_BASE, k) for k in locks])
        strip = deck.inverse(shuffle * a % deck.N)
        return ([deck.encrypt(v, k * strip % deck.N) for v, k in zip(inputs, locks)],
                [deck.encrypt(deck.VERIFIER_BASE, k) for k in locks])

    def _known_lock(self, slot, seat):
        """An open seat's lock key of `slot`, published or audited; None while it stays escrowed."""
        if (slot, seat) in self.published:
            return self.published[(slot, seat)]
        deal = self.deal_of(slot)
        return next((a[seat][deal.number][2][slot - deal.first] for a in self.audits
                     if seat in a and deal.number in a[seat]), None)

    def _shown_before(self, ops) -> list:
        """The `Disclose`s of a keys round inserted before a deals sub-step: a re-shuffle's source
        slot still locked by a rebuilt seat's escrowed key, that no holder of the new deal knows,
        is shown to its lowest holder (§B16 step 5)."""
        shown = []
        for op in ops:
            if op[0] == "reshuffle":
                holders = [h for h in (list(op[4]) or range(self.players)) if h not in self.open]
                shown += [["disclose", [slot], holders[0]] for slot in op[2]
                          if self._escrowed(slot) is not None and not any(h in self.knows[slot] for h in holders)]
        return shown

    def _escrowed(self, slot):
        """The rebuilt seat whose key of `slot` stays escrowed, unpublished (§B16), or None."""
        return next((s for s in self.unpublished[slot] if s in self.rebuilt), None)

    # --- deals (§B6.1) ------------------------------------------------------------------------

    def _open_deal(self, op):
        if self.elgamal:
            return self._open_elgamal_deal(op)
        kind, number = op[0], op[1]
        first, holders = op[3], list(op[4]) or list(range(self.players))
        holders = [h for h in holders if h not in self.open]  # an open seat holds no later deal (§B14)
        if kind == "deal":
            names = op[2]
            cards = {deck.card_point(self.deck_domain, n)[0]: n for n in names}
            start = list(cards)
            sources = None
        else:
            sources = op[2]
            names = set()
            start = []
            kept_locks = {}
            for i, slot in enumerate(sources):
                source = self.deal_of(slot)
                names |= set(source.cards.values())
                value = source.final[slot - source.first]
                for h in source.holders:
                    if h in holders:
                        continue
                    # An open seat's lock is taken off with its key, handed over, rebuilt or
                    # audited; a key still escrowed stays on, for a holder that knows the card
                    # to take off in its re-key (§B16 step 5).
                    lock = self._known_lock(slot, h)
                    if lock is not None:
                        value = deck.encrypt(value, deck.inverse(lock))
                        continue
                    knowing = [k for k in holders if k in self.knows[slot]]  # (shown one before, §B16 step 5)
                    if not knowing:
                        raise Fault("illegal", f"slot {slot}: no holder of deal {number} knows it to take seat {h}'s "
                                               f"escrowed lock off")
                    kept_locks[i] = (h, knowing[0])
                start.append(value)
            cards = {deck.card_point(self.deck_domain, n)[0]: n for n in sorted(names)}
        # §B6.1: (re-key by each holder,) shuffle by each but the last, which shuffles and locks in
        # one pass, then lock by each but the last.
        order = [("rekey", h) for h in holders] if sources is not None else []
        order += [("shuffle", h) for h in holders[:-1]] + [("shuffle-lock", holders[-1])]
        order += [("lock", h) for h in holders[:-1]]
        deal = Deal(number, first, len(start), holders, sources, cards, order, start=start)
        if sources is not None:
            deal.kept_locks = kept_locks
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
        if self.elgamal:
            return self._elgamal_pass(seat, body)
        number, stage, values, verifiers = body["deal"], body["stage"], body["values"], body["verifiers"]
        if not (is_int(number) and isinstance(stage, str) and isinstance(values, list) and isinstance(verifiers, list)):
            raise Fault("malformed", f"seat {seat}: a pass with fields of the wrong type", seat)
        deal = self.deals.get(number)
        if deal is not None and deal.passes and deal.passes[0] == ("shuffle-lock", seat) and stage == "shuffle":
            # The form of version 9 and earlier, still valid (§B6.1): the last holder shuffles,
            # then locks after the others.
            deal.passes = [("shuffle", seat)] + deal.passes[1:] + [("lock", seat)]
        if deal is None or number not in self.phase["deals"] or not deal.passes or deal.passes[0] != (stage, seat):
            raise Fault("illegal", f"seat {seat}: a {stage} pass of deal {number} that is not due", seat)
        if stage in LOCKING and self.lock_escrow_due(seat, number):
            raise Fault("illegal", f"seat {seat}: a lock pass of deal {number} before its lock keys are escrowed", seat)
        if not (len(values) == deal.size and all(isinstance(v, bytes) and len(v) == 32 for v in values)
                and len(verifiers) == (deal.size if stage in LOCKING else 0)
                and all(isinstance(v, bytes) and len(v) == 32 for v in verifiers)):
            raise Fault("bad-pass", f"seat {seat}: a pass of the wrong shape", seat)
        if len(set(values)) != len(values):
            raise Fault("bad-pass", f"seat {seat}: a pass with a value repeated", seat)
        riding = self._riding_keys(seat, deal, stage, body["public"]) if "public" in body else []
        inputs = deal.done[-1][3] if deal.done else deal.start
        if seat in self.rebuilt:  # its caretaker's pass is the one everyone computes (§B16 step 5)
            try:
                expected = self._rebuilt_pass(seat, deal, stage, inputs)
            except deck.DeckError as e:
                previous = deal.done[-1][1] if deal.done else None
                raise Fault("bad-pass", f"deal {number}: a pass holds a value that is no curve point", previous) from e
            if (list(values), list(verifiers)) != expected:
                raise Fault("illegal", f"seat {seat}: its caretaker's {stage} pass of deal {number} is not the one "
                                       f"its escrow secret gives", seat)
        deal.done.append((stage, seat, inputs, list(values), list(verifiers)))
        deal.passes.pop(0)
        for slot, key in riding:  # published now, not in the keys round after the deals (§B6.1)
            self.published[(slot, seat)] = key
            self.unpublished[slot].discard(seat)
        if stage in LOCKING:
            deal.verifiers[seat] = list(verifiers)
            if seat in self.rebuilt:  # locked with the keys from its escrow secret: all published
                locks = deck.seat_deal_keys(self.secrets[seat], number, deal.size, deal.sources is not None)[3]
                self._publish(seat, deal, locks)
        if not deal.passes:
            deal.final = list(values)
        self._end_deals_if_done()

    def _riding_keys(self, seat, deal, stage, public):
        """§B6.1: the keys a lock pass carries, `[(slot, key)]`: exactly those of the deal its
        author would publish in the keys round right after the deals (§B6.2's rules, run on copies
        of U and of who knows); none from a rebuilt seat."""
        if not (isinstance(public, list) and all(_is_published_key(p) for p in public)):
            raise Fault("malformed", f"seat {seat}: keys with its pass of the wrong shape", seat)
        keys = _scalars(seat, public)
        due = set()
        phase = self.phase
        if stage in LOCKING and seat not in self.rebuilt and phase["index"] + 1 < len(phase["groups"]) \
                and phase["groups"][phase["index"] + 1][0] == "keys":
            span = range(deal.first, deal.first + deal.size)
            due = self._owed_over(phase["groups"][phase["index"] + 1][1], span, seat)["public"]
        slots = [slot for slot, _ in keys]
        if not due or sorted(slots) != sorted(due) or len(set(slots)) != len(slots):
            raise Fault("illegal", f"seat {seat}: keys with its {stage} pass of deal {deal.number} for other slots "
                                   "than ride with it", seat)
        return keys

    # --- keys (§B6.2) -------------------------------------------------------------------------

    def _key_requirements(self, ops):
        """{seat: {"public": set(slots), "sealed": set((slot, to))}}. Computed on copies of U and
        of who knows (§B6.2): a seat leaves U only by publishing, and who knows what changes when
        the round is done (`_settle_knowledge`)."""
        slots = {slot for op in ops for slot in op[1]}
        knows = {slot: set(self.knows[slot]) for slot in slots}
        required, reveal_slots = self._owed_keys(ops, {slot: set(self.unpublished[slot]) for slot in slots}, knows)
        self.phase["knows_after"] = knows
        for s in [s for s in required if s in self.rebuilt]:  # its escrow's holders owe shares (§B16)
            self._owe_shares(s, required.pop(s))
        self.phase["reveal"] = reveal_slots
        return required

    def _owed_keys(self, ops, unpublished, knows):
        """§B6.2: who must publish or seal which key over `ops`, going through them in order and
        updating `unpublished` (U) and `knows` (K), by slot, as it goes; and the slots revealed
        that show a value of their own."""
        required = {}

        def need(seat):
            return required.setdefault(seat, {"public": set(), "sealed": set()})

        reveal_slots = []
        for op in ops:
            if op[0] == "reveal" or op[2] in self.open:  # (to an open seat: dealt face up, §B14)
                for slot in op[1]:
                    for s in unpublished[slot]:
                        need(s)["public"].add(slot)
                    unpublished[slot] = set()
                    knows[slot] = set(range(self.players))
                    if op[0] == "reveal" and len(op) == 2:  # (a round before an audit shows no value)
                        reveal_slots.append(slot)
            else:
                to = op[2]
                for slot in op[1]:
                    U = unpublished[slot]
                    if to in knows[slot]:
                        continue
                    if to in U:
                        for s in U - {to}:
                            need(s)["public"].add(slot)
                        unpublished[slot] = {to}
                    else:
                        for s in U:
                            need(s)["sealed"].add((slot, to))
                    knows[slot].add(to)
        for r in required.values():
            r["sealed"] = {(slot, to) for slot, to in r["sealed"] if slot not in r["public"]}
        return required, reveal_slots

    def _keys(self, seat, body):
        public, sealed = body["public"], body["sealed"]
        required = self.phase["required"][seat]
        if not (isinstance(public, list) and isinstance(sealed, list)
                and all(self._is_public_item(p) for p in public)
                and all(_is_sealed_key(s) for s in sealed)):
            raise Fault("malformed", f"seat {seat}: keys of the wrong shape", seat)
        keys = self._public_items(seat, public, proof=body.get("proof"))
        slots = [p[0] for p in public]
        pairs = [(s[0], s[1]) for s in sealed]
        if sorted(slots) != sorted(required["public"]) or len(set(slots)) != len(slots) \
                or sorted(pairs) != sorted(required["sealed"]) or len(set(pairs)) != len(pairs):
            raise Fault("illegal", f"seat {seat}: keys for other slots than it owes", seat)
        for slot, key in keys:  # checked against the verifiers only when used (§B6.2)
            self.published[(slot, seat)] = key
            self.unpublished[slot].discard(seat)
        for slot, to, box, commitment in sealed:
            self.sealed[(slot, seat, to)] = (box, commitment)
        self.phase["submitted"][seat] = body
        if self._round_done():
            self._keys_done()

    def _settle_knowledge(self):
        """The round is done: who knows each of its slots is as its operations left it (§B6.2)."""
        self.knows.update(self.phase.pop("knows_after"))

    def _keys_done(self):
        self._settle_knowledge()
        if "dispute" in self.phase:
            self._next_substep()  # (the round before a dispute's audit: no card step's values)
            return
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
        submitted = {h: {d: self._keys_left(h, d) for d in deals if h in self.deals[d].holders}
                     for h in required if h in self.handed or h in self.rebuilt}
        return required, submitted

    def _start_dispute_audit(self, deals, disputer):
        """§B7: the dispute's audit of `deals` interrupts the step — after a keys round if a
        rebuilt seat's key stays escrowed in them (§B16 step 5)."""
        self.phase = {"kind": "cards", "groups": [("audit", [["audit", sorted(deals)]])], "index": -1, "values": {},
                      "dispute": disputer}
        self._next_substep()

    def value_of(self, slot, extra: dict | None = None) -> str:
        """The card name of `slot` from every holder's key (published, or given in `extra`)."""
        if self.elgamal:
            return self._elgamal_value_of(slot, extra)
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
        if self.elgamal:
            return self._elgamal_audit(seat, body)
        entries = body["keys"]
        listed = [d for d in self.phase["audit_deals"] if seat in self.deals[d].holders]
        if not (isinstance(entries, list) and all(
                isinstance(e, list) and len(e) == 4 and is_int(e[0]) and isinstance(e[3], list) for e in entries)):
            raise Fault("malformed", f"seat {seat}: audit keys of the wrong shape", seat)
        parsed = []
        for number, rekey, shuffle, locks in entries:
            try:
                parsed.append((number, None if rekey is None else deck.scalar_from(rekey),
                               None if shuffle is None else deck.scalar_from(shuffle), [deck.scalar_from(k) for k in locks]))
            except deck.DeckError as e:
                raise Fault("malformed", f"seat {seat}: {e}", seat) from e
        if sorted(e[0] for e in entries) != listed:
            raise Fault("bad-key", f"seat {seat}: audit keys for other deals than {listed}", seat)
        mine = {}
        for number, a, r, ks in parsed:
            deal = self.deals[number]
            if len(ks) != deal.size or (a is None) != (deal.sources is None) or (r is None) != deal.shuffle_locked_by(seat):
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
        if self.elgamal:
            return self._check_elgamal_audit()
        submitted = self.phase["submitted"]
        self.audits.append(submitted)
        revealed = self.game.cards.revealed
        for number in self.phase["audit_deals"]:
            deal = self.deals[number]
            keys = {h: submitted[h][number] for h in deal.holders}
            by_stage = {}
            for stage, seat, inputs, values, verifiers in deal.done:
                by_stage.setdefault(stage, []).append((seat, inputs, values, verifiers))
            # Those that shuffle, then lock (the last holder shuffles and locks in one pass, but
            # in the form of version 9 and earlier).
            firsts = [seat for seat, *_ in by_stage["lock"]] if "lock" in by_stage else []
            factors = {}
            for h in firsts:
                a, r, ks = keys[h]
                factors[h] = [k * deck.inverse(r * (a or 1)) % deck.N for k in ks]
            if "rekey" in by_stage:
                olds = {h: [self._lock_key_of(slot, h) for slot in deal.sources] for h in deal.holders}
                for i, (gone, taker) in deal.kept_locks.items():  # it takes off the rebuilt seat's lock too
                    olds[taker][i] = olds[taker][i] * self._lock_key_of(deal.sources[i], gone) % deck.N
                passes = by_stage["rekey"]
                total = [deck.product(*(keys[h][0] * deck.inverse(olds[h][i]) for h in deal.holders)) for i in range(deal.size)]
                if [deck.encrypt(v, t) for v, t in zip(passes[0][1], total)] != passes[-1][2]:
                    raise Fault("bad-pass", f"deal {number}: the re-key passes do not add up",
                                self._first_bad("rekey", passes, keys, olds))
            passes = by_stage.get("shuffle", [])
            r_all = deck.product(*(keys[h][1] for h in firsts))
            if passes and deck.first_bad_multiset(passes[0][1], passes[-1][2], [r_all] * deal.size) is not None:
                raise Fault("bad-pass", f"deal {number}: the shuffle passes do not add up",
                            self._first_bad("shuffle", passes, keys))
            passes = by_stage.get("shuffle-lock", [])
            if passes and self._first_bad("shuffle-lock", passes, keys) is not None:
                raise Fault("bad-pass", f"deal {number}: the shuffle-lock pass does not match its keys", passes[0][0])
            passes = by_stage.get("lock", [])
            total = [deck.product(*(factors[h][i] for h in firsts)) for i in range(deal.size)]
            if passes and [deck.encrypt(v, t) for v, t in zip(passes[0][1], total)] != passes[-1][2]:
                raise Fault("bad-pass", f"deal {number}: the lock passes do not add up",
                            self._first_bad("lock", passes, keys))
            for (slot, sender, to), (_box, commitment) in self.sealed.items():
                if deal.first <= slot < deal.first + deal.size:
                    if deck.sealed_commitment(deck.scalar_bytes(keys[sender][2][slot - deal.first])) != commitment:
                        raise Fault("bad-key", f"seat {sender}: its sealed key for slot {slot} is not the one it "
                                               f"committed to", sender)
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

    # --- the ElGamal deck (§B6.3, protocol 11) ------------------------------------------------

    def _is_public_item(self, item) -> bool:
        """A published key's item (§B6.2), or at an ElGamal table a share's, `[slot, share: 32
        bytes]`, all of a submission's under its one `proof` (§B6.3)."""
        if not self.elgamal:
            return _is_published_key(item)
        return isinstance(item, list) and len(item) == 2 and is_int(item[0]) and isinstance(item[1], bytes) \
            and len(item[1]) == 32

    def _public_items(self, seat, public, check=True, proof=None, nonces=None):
        """`[(slot, key)]` (§B6.2), or at an ElGamal table `[(slot, share)]`; unless `check` is
        false, each share's slot must be dealt (`illegal`) and of a deal the seat holds (else its
        `bad-key`), then their one `proof` is checked against the slots' final nonces (or `nonces`,
        slot → nonce: of a last pass not applied yet); failing, the seat's `bad-key` (§B6.3)."""
        if not self.elgamal:
            return _scalars(seat, public)
        items = [(slot, share) for slot, share in public]
        if not check or not items:
            return items
        for slot, _share in items:
            try:
                deal = self.deal_of(slot)
            except KeyError:
                deal = None
            if nonces is None and (deal is None or deal.final is None):
                raise Fault("illegal", f"seat {seat}: a share of slot {slot}, which is not dealt", seat)
            if seat not in deal.holders:
                raise Fault("bad-key", f"seat {seat}: a share of slot {slot}, of a deal it holds no key in", seat)
        if not self._shares_hold([slot for slot, _ in items], seat, [share for _, share in items], proof, nonces):
            raise Fault("bad-key", f"seat {seat}: its shares of slots {[slot for slot, _ in items]} fail their proof", seat)
        return items

    def _shares_hold(self, slots, seat, shares, proof, nonces=None) -> bool:
        """Whether `shares` of `slots` are proven `seat`'s by their one proof (§B6.3), against the
        final nonces or `nonces` (slot → nonce)."""
        found = []
        for slot in slots:
            deal = self.deal_of(slot)
            found.append(nonces[slot] if nonces is not None else deal.final[slot - deal.first][0])
        return edwards.shares_proof_holds(self.deck_keys[seat], found, list(shares), proof,
                                          canon.encode(["shares", self.game_id, seat, list(slots)]))

    def _joint_key(self, holders):
        key = self._points.get(("joint", tuple(holders)))
        if key is None:
            key = edwards.sum_of([self.deck_keys[h] for h in holders])
            self._points[("joint", tuple(holders))] = key
        return key

    def _known_share(self, slot, seat):
        """`seat`'s share of `slot`: published, or from its audit (§B6.3)."""
        share = self.published.get((slot, seat))
        if share is not None:
            return share
        deal = self.deal_of(slot)
        for submitted in self.audits[::-1]:
            if seat in submitted and deal.number in submitted[seat]:
                return submitted[seat][deal.number][1][slot - deal.first]
        return None

    def _open_elgamal_deal(self, op):
        kind, number = op[0], op[1]
        first, holders = op[3], list(op[4]) or list(range(self.players))
        # An open seat holds no later deal (§B14) — but a rebuilt seat holding a source whose share
        # of it is not public stays a holder of a re-shuffle (§B16.6).
        stays = set() if kind == "deal" else {
            h for slot in op[2] for h in self.deal_of(slot).holders
            if h in self.rebuilt and self._known_share(slot, h) is None}
        holders = sorted(h for h in holders if h not in self.open or h in stays)
        if kind == "deal":
            cards = {_edwards_card(self.deck_domain, n): n for n in op[2]}
            start = [[IDENTITY, m] for m in cards]
            sources = None
        else:
            sources = op[2]
            names, start = set(), []
            for slot in sources:
                source = self.deal_of(slot)
                names |= set(source.cards.values())
                nonce, masked = source.final[slot - source.first]
                for h in source.holders:
                    if h in holders:
                        continue
                    # §B6.3: a source holder that holds no more (an open seat, audited): its
                    # public share is taken off the masked point.
                    share = self._known_share(slot, h)
                    if share is None:
                        raise Fault("illegal", f"slot {slot}: seat {h}'s share is not public to take its key off")
                    masked = edwards.encode(edwards.add(edwards.decode(masked),
                                                        edwards.negate(edwards.decode(share))))
                start.append([nonce, masked])
            cards = {_edwards_card(self.deck_domain, n): n for n in sorted(names)}
        deal = Deal(number, first, len(start), holders, sources, cards, [("pass", h) for h in holders], start=start)
        self.deals[number] = deal
        for i in range(deal.size):
            self.unpublished[first + i] = set(holders)
            self.knows[first + i] = set()

    def _elgamal_pass(self, seat, body):
        number, cards = body["deal"], body["cards"]
        if not (is_int(number) and isinstance(cards, list)):
            raise Fault("malformed", f"seat {seat}: a pass with fields of the wrong type", seat)
        deal = self.deals.get(number)
        if deal is None or number not in self.phase["deals"] or not deal.passes or deal.passes[0] != ("pass", seat):
            raise Fault("illegal", f"seat {seat}: a pass of deal {number} that is not due", seat)
        if not (len(cards) == deal.size and all(
                isinstance(c, list) and len(c) == 2 and all(edwards.decode(x) is not None for x in c) for c in cards)):
            raise Fault("bad-pass", f"seat {seat}: a pass of the wrong shape", seat)
        if len({(c[0], c[1]) for c in cards}) != len(cards):
            raise Fault("bad-pass", f"seat {seat}: a pass with a card repeated", seat)
        last = len(deal.passes) == 1
        cards = [list(c) for c in cards]
        public = body.get("public")
        if public is not None:
            if not (isinstance(public, list) and all(self._is_public_item(p) for p in public)):
                raise Fault("malformed", f"seat {seat}: shares with its pass of the wrong shape", seat)
            due = set()
            phase = self.phase
            if last and seat not in self.rebuilt and phase["index"] + 1 < len(phase["groups"]) \
                    and phase["groups"][phase["index"] + 1][0] == "keys":
                span = range(deal.first, deal.first + deal.size)
                due = self._owed_over(phase["groups"][phase["index"] + 1][1], span, seat)["public"]
            slots = [p[0] for p in public]
        inputs = deal.done[-1][3] if deal.done else deal.start
        if seat in self.rebuilt:  # its caretaker's pass is the one its rebuilt pass seed gives (§B16.6)
            permutation, scalars = pass_randomness(self._pass_seed(seat, number), deal.size)
            if _reencrypt(inputs, self._joint_key(deal.holders), permutation, scalars) != cards:
                raise Fault("bad-pass", f"seat {seat}: its caretaker's pass of deal {number} is not the one its "
                                        "rebuilt pass seed gives", seat)
        deal.done.append(("pass", seat, inputs, cards, []))
        if last and not all(edwards.valid(x) for c in cards for x in c):
            # §B6.3: the first pass holding a point outside the group put it there.
            for _stage, author, _inputs, values, _ in deal.done:
                if not all(edwards.valid(x) for c in values for x in c):
                    raise Fault("bad-pass", f"deal {number}: seat {author}'s pass holds a point outside the group",
                                author)
        riding = []
        if public is not None:  # proofs first, then the slots (as the reference checks them)
            for slot, *_ in public:
                if not deal.first <= slot < deal.first + deal.size:
                    raise Fault("illegal", f"seat {seat}: a share of slot {slot} with its pass of deal {number}", seat)
            riding = self._public_items(seat, public, proof=body.get("proof"),
                                        nonces={deal.first + i: c[0] for i, c in enumerate(cards)})
            if not due or sorted(slots) != sorted(due) or len(set(slots)) != len(slots):
                raise Fault("illegal", f"seat {seat}: shares with its pass of deal {number} for other slots "
                                       "than ride with it", seat)
        deal.passes.pop(0)
        for slot, share in riding:  # published now, not in the keys round after the deals
            self.published[(slot, seat)] = share
            self.unpublished[slot].discard(seat)
        if last:
            deal.final = cards
        self._end_deals_if_done()

    def _elgamal_value_of(self, slot, extra):
        deal = self.deal_of(slot)
        shares = []
        for h in deal.holders:
            share = (extra or {}).get(h, self.published.get((slot, h)))
            if share is None:
                raise Fault("illegal", f"slot {slot}: seat {h}'s share is not known")
            shares.append(share)
        total = edwards.decode(deal.final[slot - deal.first][1])
        for share in shares:  # every share was proven: a slot opening to no card means a wrong pass
            total = edwards.add(total, edwards.negate(edwards.decode(share)))
        value = edwards.encode(total)
        if value not in deal.cards:
            raise AutomaticDispute(deal.number)
        return deal.cards[value]

    def _elgamal_audit(self, seat, body):
        entries = body["keys"]
        listed = [d for d in self.phase["audit_deals"] if seat in self.deals[d].holders]
        if not (isinstance(entries, list) and all(_is_audit_item(e) for e in entries)):
            raise Fault("malformed", f"seat {seat}: an audit of the wrong shape", seat)
        if sorted(e[0] for e in entries) != listed:
            raise Fault("bad-key", f"seat {seat}: an audit of other deals than {listed}", seat)
        mine = {}
        for number, seed, shares, proof in entries:
            self._check_audit_shares(seat, number, shares, "an audit")
            mine[number] = (seed, list(shares), proof)
        self.phase["submitted"][seat] = mine
        if len(self.phase["submitted"]) == len(self.phase["required"]):
            self._audit_done()

    def _check_elgamal_audit(self):
        submitted = self.phase["submitted"]
        self.audits.append(submitted)
        revealed = self.game.cards.revealed
        for number in self.phase["audit_deals"]:
            deal = self.deals[number]
            joint = self._joint_key(deal.holders)
            for _stage, seat, inputs, values, _ in deal.done:  # each pass remade from its seed
                permutation, scalars = pass_randomness(submitted[seat][number][0], deal.size)
                if _reencrypt(inputs, joint, permutation, scalars) != values:
                    raise Fault("bad-pass", f"seat {seat}: its pass of deal {number} is not the one its seed gives", seat)
            for h in deal.holders:  # (§B6.3: each holder's one proof of its shares of every slot)
                _seed, shares, proof = submitted[h][number]
                if proof is not None and not self._shares_hold(range(deal.first, deal.first + deal.size), h, shares, proof):
                    raise Fault("bad-key", f"seat {h}: its audit shares of deal {number} fail their proof", h)
            for (slot, sender, to), (_box, commitment) in self.sealed.items():
                if deal.first <= slot < deal.first + deal.size:
                    if deck.sealed_commitment(submitted[sender][number][1][slot - deal.first]) != commitment:
                        raise Fault("bad-key", f"seat {sender}: the share it sealed for slot {slot} was not its share",
                                    sender)
            seen = set()
            for i in range(deal.size):
                slot = deal.first + i
                name = revealed.get(slot)
                if name is None:
                    name = self.value_of(slot, {h: submitted[h][number][1][i] for h in deal.holders})
                    self.phase["values"][slot] = name
                if name in seen:
                    raise Fault("bad-pass", f"deal {number}: a card appears twice")
                seen.add(name)

    def _check_audit_shares(self, seat, number, shares, what):
        """An audit item's shares of deal `number` (an audit's or a hand-over's, §B6.3): one per
        slot, each the one `seat` published of it, if it did; else its `bad-key`."""
        deal = self.deals[number]
        if len(shares) != deal.size:
            raise Fault("bad-key", f"seat {seat}: {what} of deal {number} with {len(shares)} shares", seat)
        for i, share in enumerate(shares):
            published = self.published.get((deal.first + i, seat))
            if published is not None and published != share:
                raise Fault("bad-key", f"seat {seat}: {what}'s share of slot {deal.first + i} differs from its "
                                       "published share", seat)

    def _elgamal_hand_over(self, seat, body, unaudited) -> dict:
        """§B16.6 *Hand-over*: `keys` its audit publication of each deal not yet audited that it
        holds, `[deal, pass seed, [share × size], proof]`, and `received` the shares sealed to it
        of the cards in its keeping, `[slot, sender, share, proof]`; each checked (a failing proof
        the leaver's `bad-key`), then published. Returns {deal: (seed, shares, proof)}."""
        entries, received = body["keys"], body["received"]
        if not (isinstance(entries, list) and all(_is_audit_item(e) for e in entries)
                and isinstance(received, list) and all(
                isinstance(r, list) and len(r) == 4 and is_int(r[0]) and is_int(r[1])
                and isinstance(r[2], bytes) and len(r[2]) == 32 and isinstance(r[3], bytes) and len(r[3]) == 64
                for r in received)):
            raise Fault("malformed", f"seat {seat}: a hand-over of the wrong shape", seat)
        numbers = [e[0] for e in entries]
        if sorted(numbers) != unaudited or len(set(numbers)) != len(numbers):
            raise Fault("bad-key", f"seat {seat}: handed over shares of deals {sorted(numbers)}, not {unaudited}", seat)
        handed = {}
        for number, seed, shares, proof in entries:
            deal = self.deals[number]
            self._check_audit_shares(seat, number, shares, "a hand-over")
            if not self._shares_hold(range(deal.first, deal.first + deal.size), seat, shares, proof):
                raise Fault("bad-key", f"seat {seat}: handed over shares of deal {number} that fail their proof", seat)
            handed[number] = (seed, list(shares), proof)
        pairs = []
        for slot, sender, share, proof in received:
            if (slot not in self.unpublished or sender == seat or sender not in self.unpublished[slot]
                    or seat not in self.knows[slot] or (slot, sender) in pairs):
                raise Fault("illegal", f"seat {seat}: handed over a share of seat {sender} for slot {slot}", seat)
            if not self._share_holds(slot, sender, share, proof):
                raise Fault("bad-key", f"seat {seat}: handed over a wrong share of seat {sender} for slot {slot}", seat)
            pairs.append((slot, sender))
        for number, (_seed, shares, _proof) in handed.items():
            deal = self.deals[number]
            for i, share in enumerate(shares):
                self.published[(deal.first + i, seat)] = share
                self.unpublished[deal.first + i].discard(seat)
        for slot, sender, share, _proof in received:
            self.published[(slot, sender)] = share
            self.unpublished[slot].discard(sender)
        return handed

    def _nonce(self, slot) -> bytes:
        deal = self.deal_of(slot)
        return deal.final[slot - deal.first][0]

    def _share_holds(self, slot, seat, share, proof) -> bool:
        """A share sent alone: its share proof (§B6.3), context canon(["share", game_id, slot, seat])."""
        return edwards.share_proof_holds(self.deck_keys[seat], self._nonce(slot), share, proof,
                                         canon.encode(["share", self.game_id, slot, seat]))

    def _part_holds(self, gone, slot, holder, part, proof) -> bool:
        """`holder`'s part of rebuilt `gone`'s share of `slot` (§B16.6): proven against its
        commitment in `gone`'s escrow, context canon(["released-share", game_id, slot, gone, holder])."""
        escrow = self.escrows[gone]
        commitment = escrow["deck"][escrow["holders"].index(holder)]
        return edwards.share_proof_holds(commitment, self._nonce(slot), part, proof,
                                         canon.encode(["released-share", self.game_id, slot, gone, holder]))

    def _pass_seed(self, seat, number) -> bytes:
        """A rebuilt seat's pass seed of deal `number`: the first 32 bytes of D("pass", d) (§B16.6)."""
        return deck.seat_stream(self.secrets[seat], "pass", number).take(32)

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
            elif stage == "shuffle-lock":  # its outputs, each unlocked, are its inputs in some order
                wrong = deck.first_bad_shuffle_lock(inputs, values, verifiers, a or 1, ks) is not None
            else:
                wrong = deck.first_bad_lock(inputs, values, verifiers, r * (a or 1) % deck.N, ks) is not None
            if wrong:
                return seat
        return None


def check_takeover_consents(game_id, seats, remaining, author, host, seq, prev, consents):
    """A take-over's `consents` (§B15 step 4): exactly one per remaining seat, in increasing seat
    order, each a well-formed `takeover` envelope (else `malformed`), signed by that seat's key (else
    `bad-signature`), naming this game, the entry's own `seq` and `prev`, `host` and `author` as the
    successor (else `illegal`). Every fault is the author's. (A consent's form is checked for all of
    them before their number, their signatures before their fields.)"""
    if not isinstance(consents, list) or not all(isinstance(raw, bytes) for raw in consents):
        raise Fault("malformed", f"seat {author}: a take-over whose consents are not a list of envelopes", author)
    opened = []
    for i, raw in enumerate(consents):
        try:
            env = wire.open_envelope(raw, check_signature=False)
        except wire.WireError as e:
            raise Fault("malformed", f"seat {author}: a take-over's consent {i} is not an envelope ({e})", author) from e
        if env.kind != "takeover":
            raise Fault("malformed", f"seat {author}: a take-over's consent {i} is a {env.kind}", author)
        opened.append(env)
    if len(opened) != len(remaining):
        raise Fault("illegal", f"seat {author}: a take-over with {len(opened)} consents; the remaining seats "
                               f"{remaining} are {len(remaining)}", author)
    for s, env in zip(remaining, opened):
        if not env.signed_by(seats[s][0]):
            raise Fault("bad-signature", f"seat {author}: a take-over's consent in seat {s}'s place is not "
                                         f"signed by seat {s}'s key", author)
    for s, env in zip(remaining, opened):
        b = env.body
        if (b["game_id"], b["seq"], b["entry"], b["host"], b["successor"]) != (game_id, seq, prev, host, author):
            raise Fault("illegal", f"seat {author}: seat {s}'s consent names another game, entry, host or "
                                   f"successor than this take-over (entry {seq}, host {host}, successor {author})",
                        author)


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


def _is_published_key(item) -> bool:
    """§B6.2: a published key's item, `[slot: int, key: 32 bytes]`."""
    return isinstance(item, list) and len(item) == 2 and is_int(item[0]) and isinstance(item[1], bytes) and len(item[1]) == 32


def _is_sealed_key(item) -> bool:
    """§B6.2: a sealed key's item, `[slot: int, to: int, box: bytes of at most 144, commitment: 32 bytes]`."""
    return (isinstance(item, list) and len(item) == 4 and is_int(item[0]) and is_int(item[1])
            and isinstance(item[2], bytes) and len(item[2]) <= 144 and isinstance(item[3], bytes) and len(item[3]) == 32)


def _scalars(seat, public):
    """The published keys `[[slot, key bytes] …]` as `[(slot, scalar)]`; one outside [1, n−1] is the
    seat's `bad-key` (§B6.2)."""
    keys = []
    for slot, key_bytes in public:
        try:
            keys.append((slot, deck.scalar_from(key_bytes)))
        except deck.DeckError as e:
            raise Fault("bad-key", f"seat {seat}: {e}", seat) from e
    return keys


# --- the ElGamal deck (§B6.3, §C9) ---------------------------------------------------------------

ELGAMAL_PASS_FIELDS = {"t", "deal", "cards"}
IDENTITY = bytes([1]) + bytes(31)  # O (§C9.1): a NewDeal's starting nonces, never sent


@functools.lru_cache(maxsize=1 << 12)
def _edwards_card(deck_domain: str, name: str) -> bytes:
    return edwards.card_point(deck_domain, name)[1]


def pass_randomness(seed: bytes, size: int):
    """§B6.3: a pass's permutation (§C5.7 of 8·size + 64 bytes of the "permutation" stream) and
    scalars (§C9.1's draws from the "scalars" stream), from its 32-byte pass seed."""
    stream = deck.HmacStream(seed, canon.encode(["p2pgames/pass", "permutation"]))
    permutation = deck.permutation_from_stream(stream.take(8 * size + 64), size)[0]
    scalars = deck.HmacStream(seed, canon.encode(["p2pgames/pass", "scalars"]))
    return permutation, [edwards.draw_scalar(scalars.take) for _ in range(size)]


def _reencrypt(inputs, joint_key, permutation, scalars):
    """§C9.4: out[t] = [in[π(t)].C₁ + r_t·G, in[π(t)].C₂ + r_t·Y]; None if an input does not decode."""
    assert edwards.decode(joint_key) is not None  # (the sum of the holders' keys, each checked)
    out = []
    for source, r in zip(permutation, scalars):
        c1, c2 = (edwards.decode(x) for x in inputs[source])
        if c1 is None or c2 is None:
            return None
        out.append([edwards.encode(edwards.add(c1, edwards.multiply_base(r))),
                    edwards.encode(edwards.add(c2, edwards.multiply_fixed(r % edwards.L, joint_key)))])
    return out
