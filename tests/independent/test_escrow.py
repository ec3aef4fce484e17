"""Key escrow (SPEC §B16) in the independent replica, on submissions built here from the SPEC: a
probe table whose every seat this test plays, its shuffle keys and permutations derived from its
escrow secret, its lock keys escrowed deal by deal before it locks. The escrows' form and legality;
a seat rebuilt from its holders' shares mid-round and mid-deal, its lock keys rebuilt, checked and
published, its caretaker's passes computed by everyone, playing on to the end; the key of a card it
gave staying escrowed, released share by share when a card step needs it; escrows that are no split
of one secret, or of another lock key, named `bad-escrow` when rebuilt or released; a holder's proof
of a bad box (§B16, §B9)."""

import copy
import hashlib

import pytest
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

from . import canon, deck, probe, replica, transcript

GAME_ID = hashlib.sha256(b"escrow game").digest()


def made(label: bytes) -> bytes:
    return hashlib.sha256(b"test_escrow " + label).digest()


def scalar(label: bytes) -> int:
    return int.from_bytes(made(label), "big") % (deck.N - 1) + 1


class KeptProbe(probe.Probe):
    """The probe game with its hands as the seats' kept slots (§D1 gives it none), so that a
    rebuild has keys to send and cards to keep."""

    def kept_slots(self, seat):
        return list(self.hands[seat])


class Table:
    """A probe table of `players` seats, every one played here knowing every secret (`label`
    varies them). A seat's shuffle keys and permutations come from its escrow secret, its lock keys
    from elsewhere unless it is rebuilt before it locks (§B16)."""

    def __init__(self, players=3, label=b""):
        self.label = label
        self.secrets = [scalar(b"secret %d " % s + label) for s in range(players)]
        self.seal_private = [made(b"seal %d" % s) for s in range(players)]
        seats = [[made(b"identity %d" % s), X25519PrivateKey.from_private_bytes(p).public_key().public_bytes_raw()]
                 for s, p in enumerate(self.seal_private)]
        self.rep = replica.Replica(KeptProbe(players), GAME_ID, seats, probe.DECK_DOMAIN)
        self.escrowed = {}       # seat -> its current escrow body
        self.lock_escrowed = {}  # (seat, deal) -> its current lock escrow body
        self.locks = {}          # (seat, deal) -> the lock keys it locked with
        self.openings = {}       # (seat, phase id) -> (salt, value)
        self.late = set()        # seats whose lock escrows `play` leaves to the test
        self.made = 0            # submissions made, for fresh randomness

    def fresh(self) -> bytes:
        self.made += 1
        return made(b"fresh %d " % self.made + self.label)

    def submit(self, seat, body):
        self.rep.apply(seat, body)
        if body["t"] == "escrow":
            self.escrowed[seat] = body
        if body["t"] == "lock-escrow":
            self.lock_escrowed[(seat, body["deal"])] = body

    def others(self, seat):
        return [s for s in self.rep.playing() if s != seat]

    # --- escrows and rebuilds (§B16) -----------------------------------------------------------

    def escrow(self, seat, secret=None, holders=None):
        """Seat's escrow body: its secret split among `holders` (the others still playing)."""
        secret = self.secrets[seat] if secret is None else secret
        holders = self.others(seat) if holders is None else holders
        shares = deck.escrow_split(secret, len(holders))
        boxes = [deck.seal(self.rep.seats[h][1], deck.scalar_bytes(share),
                           canon.encode(["escrow-share", GAME_ID, seat, h, len(holders)]), self.fresh())
                 for h, share in zip(holders, shares)]
        return {"t": "escrow", "holders": holders, "commitments": [deck.share_commitment(s) for s in shares],
                "boxes": boxes}

    def own_locks(self, seat, number):
        """The lock keys seat draws itself for a deal (not from its escrow secret)."""
        return [scalar(b"lock %d %d %d " % (seat, number, i) + self.label) for i in range(self.rep.deals[number].size)]

    def lock_escrow(self, seat, number, locks=None):
        """Seat's lock escrow of `number` among the others still playing: a seed for each, and the
        offsets that make the sums of their shares its lock keys (§B16)."""
        locks = self.own_locks(seat, number) if locks is None else locks
        holders = self.others(seat)
        roots, offsets, boxes = deck.lock_escrow(GAME_ID, seat, number, locks, holders, [self.fresh() for _ in holders],
                                                 lambda h: self.rep.seats[h][1], self.fresh)
        return {"t": "lock-escrow", "deal": number, "holders": holders, "roots": roots, "offsets": offsets,
                "boxes": boxes}

    def share(self, holder, of) -> bytes:
        """The share `holder` holds of `of`'s escrow secret, from its box."""
        body = self.escrowed[of]
        context = canon.encode(["escrow-share", GAME_ID, of, holder, len(body["holders"])])
        return deck.open_sealed(self.seal_private[holder], body["boxes"][body["holders"].index(holder)], context)

    def lock_shares(self, holder, of, number) -> list[int]:
        """Every share `holder` holds of `of`'s lock keys of deal `number`: from the seed in its box."""
        body = self.lock_escrowed[(of, number)]
        context = canon.encode(["lock-escrow", GAME_ID, of, number, holder, len(body["holders"])])
        seed = deck.open_sealed(self.seal_private[holder], body["boxes"][body["holders"].index(holder)], context)
        return deck.seed_shares(seed, self.rep.deals[number].size)

    def lock_share(self, holder, of, slot) -> list:
        """`holder`'s share of `of`'s lock key of `slot` and its path: `[share, path]` (§B16)."""
        deal = self.rep.deal_of(slot)
        shares = self.lock_shares(holder, of, deal.number)
        leaves = deck.lock_leaves(GAME_ID, of, deal.number, holder, shares)
        return [deck.scalar_bytes(shares[slot - deal.first]), deck.tree_path(slot - deal.first, leaves)]

    def rebuild(self, seat, of):
        """Seat's consent with its shares: the slots an honest seat lists are those the SPEC's rule
        gives (computed by the replica here; the tests check them against the game)."""
        locks = [[slot, *self.lock_share(seat, of, slot)] for slot in self.rep._rebuilt_slots(of)]
        sent = [[slot, deck.scalar_bytes(self.lock_key(seat, slot))] for slot in self.owed(seat, of)]
        return {"t": "rebuild", "seat": of, "share": self.share(seat, of), "sent": sent, "locks": locks}

    def owed(self, seat, of):
        """The kept slots of `of` that `seat` sealed its key of to it and never published."""
        rep = self.rep
        return sorted(slot for slot in rep.game.kept_slots(of)
                      if (slot, seat, of) in rep.sealed and (slot, seat) not in rep.published)

    # --- every other submission, made by whoever is due, lock escrows first ---------------------

    def keys(self, seat, number):
        """Seat's (re-key key, shuffle key, permutation, lock keys) of a deal."""
        deal = self.rep.deals[number]
        a, r, permutation, from_secret = deck.seat_deal_keys(self.secrets[seat], number, deal.size,
                                                             deal.sources is not None)
        locks = self.locks.get((seat, number), from_secret if seat in self.rep.rebuilt else self.own_locks(seat, number))
        return a, r, permutation, locks

    def lock_key(self, seat, slot):
        deal = self.rep.deal_of(slot)
        return self.keys(seat, deal.number)[3][slot - deal.first]

    def card(self, slot) -> str:
        deal = self.rep.deal_of(slot)
        return self.rep.value_of(slot, {h: self.lock_key(h, slot) for h in deal.holders})

    def lock_escrow_due(self, seat):
        """A deal seat holds, not audited, whose lock keys it has not escrowed with these holders."""
        rep = self.rep
        if seat in rep.open or seat in self.late or len(self.others(seat)) < 2 or rep.phase["kind"] == "over":
            return None
        return next((d for d, deal in sorted(rep.deals.items()) if seat in deal.holders
                     and d not in rep.game.cards.audited and d in rep.game.cards.deals
                     and self.lock_escrowed.get((seat, d), {}).get("holders") != self.others(seat)), None)

    def play(self, until=lambda table: False):
        """Make every submission due, lowest seat first, until nothing is due or `until` holds."""
        while not until(self):
            seat = next((s for s in range(self.rep.players) if self.lock_escrow_due(s) is not None), None)
            if seat is not None:
                self.submit(seat, self.lock_escrow(seat, self.lock_escrow_due(seat)))
                continue
            seat = next((s for s in range(self.rep.players) if self.rep.due(s)), None)
            if seat is None:
                return
            self.submit(seat, getattr(self, "make_" + self.rep.due(seat))(seat))

    def make_commit(self, seat):
        phase = self.rep.phase
        if phase["domain"] == "random":
            value = self.fresh()
        else:
            value = self.rep.game.legal_actions(seat)[0]
        salt = self.fresh()
        self.openings[(seat, phase["id"])] = (salt, value)
        return {"t": "commit", "commitment": deck.commit(phase["domain"], GAME_ID, seat, [phase["id"], value], salt)}

    def make_open(self, seat):
        salt, value = self.openings[(seat, self.rep.phase["id"])]
        return {"t": "open", "salt": salt, "value": value}

    def make_act(self, seat):
        actions = self.rep.game.legal_actions(seat)
        if actions[0][0] == "pass":  # the claim is "my highest card": keep it true
            return {"t": "act", "action": max(actions, key=lambda a: probe.number(self.card(a[1])))}
        return {"t": "act", "action": ["cheer", False]}

    def make_pass(self, seat):
        rep = self.rep
        deal = next(rep.deals[d] for d in rep.phase["deals"] if rep.deals[d].passes and rep.deals[d].passes[0][1] == seat)
        stage = deal.passes[0][0]
        inputs = deal.done[-1][3] if deal.done else deal.start
        a, r, permutation, locks = self.keys(seat, deal.number)
        a = a or 1
        verifiers = []
        if stage == "rekey":
            values = [deck.encrypt(v, a * deck.inverse(self.lock_key(seat, source)) % deck.N)
                      for v, source in zip(inputs, deal.sources)]
        elif stage == "shuffle":
            values = [deck.encrypt(inputs[permutation[t]], r) for t in range(deal.size)]
        else:
            self.locks[(seat, deal.number)] = locks
            if stage == "shuffle-lock":  # the last holder permutes as it locks, with no shuffle key
                inputs, r = [inputs[permutation[t]] for t in range(deal.size)], 1
            strip = deck.inverse(r * a % deck.N)
            values = [deck.encrypt(v, k * strip % deck.N) for v, k in zip(inputs, locks)]
            verifiers = [deck.encrypt(deck.VERIFIER_BASE, k) for k in locks]
        return {"t": "pass", "deal": deal.number, "stage": stage, "values": values, "verifiers": verifiers}

    def make_keys(self, seat):
        rep = self.rep
        owed = rep.phase["required"][seat]
        sealed = []
        for slot, to in sorted(owed["sealed"]):
            key = deck.scalar_bytes(self.lock_key(seat, slot))
            box = deck.seal(rep.seats[to][1], key, canon.encode(["sealed-key", GAME_ID, slot, seat, to]), self.fresh())
            sealed.append([slot, to, box, deck.sealed_commitment(key)])
        public = [[slot, deck.scalar_bytes(self.lock_key(seat, slot))] for slot in sorted(owed["public"])]
        return {"t": "keys", "public": public, "sealed": sealed}

    def make_release(self, seat):
        """The shares of a rebuilt seat's escrowed lock keys this seat owes (§B16 step 4)."""
        owed = self.rep.phase["release_due"][seat]
        public = [[gone, slot, *self.lock_share(seat, gone, slot)] for gone, slot in sorted(owed["public"])]
        sealed = []
        for gone, slot, to in sorted(owed["sealed"]):
            share, path = self.lock_share(seat, gone, slot)
            box = deck.seal(self.rep.seats[to][1], share, canon.encode(["release-share", GAME_ID, gone, slot, seat, to]),
                            self.fresh())
            sealed.append([gone, slot, to, box, path])
        return {"t": "release", "public": public, "sealed": sealed}

    def make_audit(self, seat):
        entries = []
        for number in self.rep.phase["audit_deals"]:
            if seat in self.rep.deals[number].holders:
                a, r, _permutation, locks = self.keys(seat, number)
                shown = None if self.rep.deals[number].shuffle_locked_by(seat) else deck.scalar_bytes(r)
                entries.append([number, None if a is None else deck.scalar_bytes(a), shown,
                                [deck.scalar_bytes(k) for k in locks]])
        return {"t": "audit", "keys": entries}


def escrowed_table(players=3, label=b"") -> Table:
    """Every seat escrows its secret first, as the reference does (§B16)."""
    table = Table(players, label)
    for seat in range(players):
        table.submit(seat, table.escrow(seat))
    return table


def refused(table, seat, body, code, culprit=None):
    """`body` from `seat` is refused with `code` naming `seat` (or `culprit`: an open seat's
    caretaker, whose key signed it, §B14); the table is left as it was."""
    trial = copy.deepcopy(table.rep)
    with pytest.raises(replica.Fault) as caught:
        trial.apply(seat, body)
    assert (caught.value.code, caught.value.culprit) == (code, seat if culprit is None else culprit), str(caught.value)


def agree(table, target, seats):
    """`seats` consent to opening `target` (`open-seat`, §B16: no share yet)."""
    for seat in seats:
        table.submit(seat, {"t": "open-seat", "seat": target})


def rebuild_by(table, target, seats):
    """`seats` agree, then — `target` open, to be rebuilt — each gives its shares (§B16)."""
    agree(table, target, seats)
    for seat in seats:
        table.submit(seat, table.rebuild(seat, target))


def in_round_two_after(seat):
    """Until `seat` has committed to its play of round 2 and nobody else has."""
    def until(table):
        phase, game = table.rep.phase, table.rep.game
        return (game.round == 1 and phase["kind"] == "choice" and phase["domain"] == "choice"
                and seat in phase["commits"] and len(phase["commits"]) < len(phase["seats"]))
    return until


# --- the escrows' form and legality -------------------------------------------------------------

def test_an_escrow_of_the_wrong_form_is_malformed():
    table = Table(3)
    good = table.escrow(1)
    assert good["holders"] == [0, 2] and all(len(box) == 80 for box in good["boxes"])
    table.submit(0, table.escrow(0))  # (a good one goes through)
    for change in [{"holders": [0, "2"]}, {"holders": [0, 2, 3]}, {"boxes": good["boxes"][:1]},
                   {"commitments": [good["commitments"][0], b"\x04" + good["commitments"][1][1:]]},
                   {"commitments": [good["commitments"][0], good["commitments"][1][:32]]},
                   {"boxes": [good["boxes"][0], bytes(145)]}, {"boxes": None}, {"extra": 1}]:
        refused(table, 1, {**good, **change}, "malformed")
    refused(table, 1, {key: value for key, value in good.items() if key != "boxes"}, "malformed")


def test_an_escrow_is_illegal_unless_it_names_every_other_seat_still_playing_anew():
    table = Table(3)
    refused(table, 1, table.escrow(1, holders=[2, 0]), "illegal")     # not increasing
    refused(table, 1, table.escrow(1, holders=[0]), "illegal")        # not every other seat
    refused(table, 1, table.escrow(1, holders=[0, 1, 2]), "illegal")  # its own seat
    table.submit(1, table.escrow(1))
    refused(table, 1, table.escrow(1), "illegal")                     # these holders already
    refused(Table(2), 1, Table(2).escrow(1), "illegal")               # two players: no escrow (§C8)
    no_bots = Table(3)
    no_bots.rep.bots_allowed = False
    refused(no_bots, 1, no_bots.escrow(1), "illegal")


def test_lock_keys_are_escrowed_deal_by_deal_before_the_lock_pass():
    table = escrowed_table()
    rep = table.rep
    table.late = {0}
    table.play(until=lambda t: rep.phase["kind"] == "cards" and rep.deals[0].passes[:1] == [("lock", 0)])
    # Seat 0 has not escrowed its lock keys of deal 0: its lock pass is illegal until it does.
    refused(table, 0, table.make_pass(0), "illegal")
    good = table.lock_escrow(0, 0)
    assert good["holders"] == [1, 2] and all(len(root) == 32 for root in good["roots"]) and len(good["offsets"]) == 12
    assert all(len(box) == 80 for box in good["boxes"])  # a sealed 32-byte seed
    n = deck.N.to_bytes(32, "big")
    for change in [{"deal": "0"}, {"roots": good["roots"][:1]}, {"roots": [good["roots"][0], good["roots"][1][:31]]},
                   {"offsets": good["offsets"][:11]}, {"offsets": [n] + good["offsets"][1:]},
                   {"offsets": [b"\x01"] + good["offsets"][1:]}, {"offsets": None},
                   {"boxes": [good["boxes"][0], good["boxes"][1] + b"x"]}, {"holders": [1, None]},
                   {"digests": [[bytes(32)] * 12] * 2}]:
        refused(table, 0, {**good, **change}, "malformed")
    refused(table, 0, {key: value for key, value in good.items() if key != "offsets"}, "malformed")
    refused(table, 0, {**good, "holders": [2, 1]}, "illegal")
    refused(table, 0, {**table.lock_escrow(0, 0), "deal": 5}, "illegal")  # a deal it does not hold
    table.submit(0, good)
    refused(table, 0, good, "illegal")  # these holders already
    table.submit(0, table.make_pass(0))


# --- rebuilding a seat ----------------------------------------------------------------------------

def test_a_seat_rebuilt_mid_round_gets_its_lock_keys_back_from_the_others_and_is_played_to_the_end():
    table = escrowed_table()
    rep, game = table.rep, table.rep.game
    table.play(until=in_round_two_after(1))
    # Round 1's winner, seat 0, passed seat 1 a card: only seat 0's key of it is unpublished.
    assert game.winner == 0
    [passed] = table.owed(0, 1)
    assert table.owed(2, 1) == [] and rep.unpublished[passed] == {0}
    assert rep._staying(1) == []  # it gave no card
    # The keys it rebuilds: its hand's (but the card passed to it) and the stock's, still locked.
    assert rep._rebuilt_slots(1) == sorted(set(game.hands[1]) - {passed} | set(game.stock))
    good = table.rebuild(0, 1)
    refused(table, 0, good, "illegal")  # no share before every seat has agreed: it could come back
    assert 1 in rep.phase["commits"]
    agree(table, 1, (0, 2))
    opened = rep.seq - 1
    # Open from the last consent, to be rebuilt; its choice, committed before the phase was
    # opening, is dropped: its caretaker chooses again.
    assert rep.open == {1: opened} and rep.rebuilding == {1} and rep.rebuilt == {}
    assert 1 not in rep.phase["commits"]
    assert good["sent"] == [[passed, deck.scalar_bytes(table.lock_key(0, passed))]]
    refused(table, 0, {**good, "share": table.share(2, 1)}, "illegal")   # another holder's share
    refused(table, 0, {**good, "sent": []}, "illegal")                   # a key it owes left out
    refused(table, 0, {**good, "sent": good["sent"] * 2}, "illegal")
    refused(table, 0, {**good, "sent": [[passed, deck.scalar_bytes(table.lock_key(2, passed))]]}, "bad-key")
    refused(table, 0, {**good, "sent": [[passed, b"x"]]}, "malformed")
    refused(table, 0, {**good, "locks": good["locks"][::-1]}, "illegal")  # in increasing order
    refused(table, 0, {**good, "locks": good["locks"][1:]}, "illegal")
    wrong = [[slot, *table.lock_share(2, 1, slot)] for slot, _, _ in good["locks"]]
    refused(table, 0, {**good, "locks": wrong}, "illegal")                # another holder's shares (and paths)
    # Each share's path leads its leaf to the author's root (§C8 check path), at the slot's depth.
    (slot, share, path), *rest = good["locks"]
    other_share = good["locks"][1][1]
    refused(table, 0, {**good, "locks": [[slot, other_share, path], *rest]}, "illegal")        # another slot's share
    refused(table, 0, {**good, "locks": [[slot, share, good["locks"][1][2]], *rest]}, "illegal")  # another slot's path
    flipped = [bytes([path[0][0] ^ 1]) + path[0][1:], *path[1:]]
    refused(table, 0, {**good, "locks": [[slot, share, flipped], *rest]}, "illegal")
    refused(table, 0, {**good, "locks": [[slot, share, path[:-1]], *rest]}, "malformed")       # one hash short
    refused(table, 0, {**good, "locks": [[slot, share, path + path[-1:]], *rest]}, "malformed")
    refused(table, 0, {**good, "locks": [[slot, share], *rest]}, "malformed")                  # no path
    refused(table, 2, {**table.rebuild(2, 1), "seat": 0}, "illegal")     # the host's seat
    refused(table, 2, {**table.rebuild(2, 1), "seat": 2}, "illegal")     # its own
    refused(table, 2, {**table.rebuild(2, 1), "seat": 5}, "illegal")
    table.submit(0, good)
    assert 1 not in rep.rebuilt  # one holder's shares are not all
    refused(table, 0, good, "illegal")                                   # its shares once
    refused(table, 0, {"t": "open-seat", "seat": 1}, "illegal")          # it is open already
    table.submit(2, table.rebuild(2, 1))
    # Rebuilt at this entry: its lock keys are published, the ones it locked with; and seat 0's sent key.
    assert rep.open == {1: opened} and rep.rebuilt == {1: rep.seq - 1} and rep.author(1) == 0
    for slot, _share, _path in good["locks"]:
        assert rep.published[(slot, 1)] == table.lock_key(1, slot)
    assert rep.published[(passed, 0)] == table.lock_key(0, passed)
    assert rep.due(1) == "commit"
    # Seats still playing can no longer escrow among two holders or fewer (§C8).
    refused(table, 2, table.escrow(2), "illegal")
    table.play()
    assert rep.result() is not None
    assert [d for d in rep.deals if 1 in rep.deals[d].holders] == [0, 1]  # deal 2 began after: not its


def test_the_key_of_a_card_a_rebuilt_seat_gave_stays_escrowed_until_a_card_step_releases_it():
    table = escrowed_table(label=b"gift 0")
    rep, game = table.rep, table.rep.game
    table.play(until=in_round_two_after(1))
    # Round 1's winner, seat 1, passed seat 2 a card: locked by seat 1's key alone, not its own.
    assert game.winner == 1
    [gift] = table.owed(1, 2)
    assert rep._staying(1) == [gift] and gift not in rep._rebuilt_slots(1)
    rebuild_by(table, 1, (0, 2))
    assert rep.rebuilt == {1: rep.seq - 1} and (gift, 1) not in rep.published
    # When it is revealed (seat 2 plays it, or before the audit), the holders of seat 1's lock
    # escrow each publish their share, and the key is their sum.
    released = []
    original = table.submit

    def noting(seat, body):
        original(seat, body)
        if body["t"] == "release":
            released.append((seat, [item[:2] for item in body["public"]], body["sealed"]))

    table.submit = noting
    table.play(until=lambda t: len(released) == 2)
    assert released == [(0, [[1, gift]], []), (2, [[1, gift]], [])]
    assert rep.published[(gift, 1)] == table.lock_key(1, gift)
    table.play()
    assert rep.result() is not None


def test_a_release_is_checked_share_by_share_and_the_sum_against_the_verifier():
    table = escrowed_table(label=b"gift 0")
    rep = table.rep
    # Seat 1 escrows its lock key of slot 4 wrong — the card it will give seat 2 (as the test
    # above shows) — and every other right.
    table.late = {1}
    table.play(until=lambda t: rep.phase["kind"] == "cards" and rep.deals[0].passes[:1] == [("lock", 1)])
    table.submit(1, table.lock_escrow(1, 0, locks=[k + (i == 4) for i, k in enumerate(table.own_locks(1, 0))]))
    table.late = set()
    table.play(until=in_round_two_after(1))
    [gift] = table.owed(1, 2)
    assert gift == 4
    rebuild_by(table, 1, (0, 2))
    table.play(until=lambda t: rep.phase["kind"] == "cards" and rep.phase.get("sub") == "keys"
               and 0 in rep.phase.get("release_due", {}))
    good = table.make_release(0)
    refused(table, 0, {**good, "public": [[1, gift, *table.lock_share(2, 1, gift)]]}, "illegal")  # another's share
    [[_, _, share, path]] = good["public"]
    refused(table, 0, {**good, "public": [[1, gift, share, path[::-1]]]}, "illegal")  # its path, but wrong
    refused(table, 0, {**good, "public": [[1, gift, share, path[1:]]]}, "malformed")  # of the wrong depth
    refused(table, 0, {**good, "public": [[1, gift, share]]}, "malformed")
    refused(table, 0, {**good, "public": []}, "illegal")
    refused(table, 0, {**good, "public": [[1, gift, b"x"]]}, "malformed")
    refused(table, 1, good, "illegal", culprit=0)  # it owes no share (open: its caretaker's fault)
    refused(table, 0, {"t": "keys", "public": [], "sealed": []}, "illegal")  # it owes only shares
    # Each share matches its digest, but their sum is not the key seat 1 locked the card with.
    table.submit(0, table.make_release(0))
    with pytest.raises(replica.Fault) as caught:
        rep.apply(2, table.make_release(2))
    assert (caught.value.code, caught.value.culprit) == ("bad-escrow", 1)


def test_a_seat_rebuilt_before_its_lock_pass_is_locked_by_its_caretaker_with_keys_everyone_computes():
    table = escrowed_table()
    rep = table.rep
    # Seat 1 agrees while seat 2 holds no key yet; then the deal begins: seat 2 holds keys, so the
    # last consent opens it to be rebuilt (§B16), and the shares follow.
    table.play(until=lambda t: rep.phase["kind"] == "choice")
    table.submit(1, {"t": "open-seat", "seat": 2})
    table.play(until=lambda t: rep.phase["kind"] == "cards" and rep.deals[0].passes[:1] == [("shuffle-lock", 2)])
    table.submit(0, {"t": "open-seat", "seat": 2})
    assert 2 in rep.open and rep.rebuilding == {2}
    table.submit(0, table.rebuild(0, 2))
    assert rep.rebuilt == {}
    rebuild = table.rebuild(1, 2)  # no lock key to rebuild yet
    assert rebuild["locks"] == [] and rebuild["sent"] == []
    table.submit(1, rebuild)
    assert rep.rebuilt == {2: rep.seq - 1}
    # Its caretaker's lock pass is the one its escrow secret gives; any other is illegal.
    own = table.lock_escrow  # (the keys it escrowed are not the ones it is locked with now)
    wrong = table.make_pass(2)
    table.locks.pop((2, 0))
    _a, r, _permutation, from_secret = deck.seat_deal_keys(table.secrets[2], 0, 12, False)
    assert wrong["verifiers"] == [deck.encrypt(deck.VERIFIER_BASE, k) for k in from_secret] and own
    swapped = dict(wrong, values=wrong["values"][1:] + wrong["values"][:1])
    refused(table, 2, swapped, "illegal", culprit=0)  # (its caretaker's, whose key signs it, §B14)
    table.submit(2, table.make_pass(2))
    deal = rep.deals[0]
    assert all(rep.published[(deal.first + i, 2)] == key for i, key in enumerate(from_secret))
    table.play()
    assert rep.result() is not None


def test_escrows_that_are_no_split_of_one_secret_or_of_other_lock_keys_are_bad_escrow_when_rebuilt():
    # Shares of two splits, rebuilt before any deal: found by the split of their sum (step 1).
    table = Table(3)
    for seat in (0, 1):
        table.submit(seat, table.escrow(seat))
    one, other = table.escrow(2), table.escrow(2, secret=scalar(b"another"))
    table.submit(2, {**one, "commitments": [one["commitments"][0], other["commitments"][1]],
                     "boxes": [one["boxes"][0], other["boxes"][1]]})
    table.play(until=lambda t: t.rep.game.round == 1 and t.rep.phase["kind"] == "choice")  # it holds keys
    agree(table, 2, (0, 1))
    table.submit(1, table.rebuild(1, 2))  # each share matches its commitment
    with pytest.raises(replica.Fault) as caught:
        table.rep.apply(0, table.rebuild(0, 2))
    assert (caught.value.code, caught.value.culprit) == ("bad-escrow", 2)
    # Lock keys escrowed that are not the ones it locked with: found by its verifiers (step 2).
    rebuilt_with_lock_keys_escrowed_as([scalar(b"other lock %d" % i) for i in range(12)])
    # Offsets that make every key 0 — no key at all: the same (§B16, a key of 0 is the dealer's fault).
    zero = rebuilt_with_lock_keys_escrowed_as([0] * 12)
    assert all(int.from_bytes(offset, "big") for offset in zero["offsets"])  # (each one the minus of its sum)


def rebuilt_with_lock_keys_escrowed_as(locks):
    """Seat 2 escrows `locks` as its lock keys of deal 0 (not the ones it locks with) and is
    rebuilt in round 2: the last share given is refused, seat 2's `bad-escrow`. Its lock escrow."""
    table = escrowed_table()
    table.late = {2}
    table.play(until=lambda t: t.rep.phase["kind"] == "cards" and t.rep.deals[0].passes[:1] == [("shuffle-lock", 2)])
    escrow = table.lock_escrow(2, 0, locks=locks)
    table.submit(2, escrow)
    table.late = set()
    table.play(until=lambda t: t.rep.game.round == 1 and t.rep.phase["kind"] == "choice")
    agree(table, 2, (0, 1))
    table.submit(1, table.rebuild(1, 2))
    with pytest.raises(replica.Fault) as caught:
        table.rep.apply(0, table.rebuild(0, 2))
    assert (caught.value.code, caught.value.culprit) == ("bad-escrow", 2)
    return escrow


def test_a_holders_sealing_key_proves_a_bad_box_and_clears_a_good_one():
    table = escrowed_table()
    table.play(until=lambda t: (2, 0) in t.lock_escrowed)
    bad = table.escrow(2)
    bad["boxes"][1] = deck.seal(table.rep.seats[1][1], deck.scalar_bytes(1),
                                canon.encode(["escrow-share", GAME_ID, 2, 1, 2]), table.fresh())
    bad_locks = table.lock_escrow(2, 0)
    bad_locks["boxes"][1] = table.lock_escrow(2, 0, locks=[5] * 12)["boxes"][1]  # another seed: another root
    # A lock escrow's box holds a 32-byte seed whose shares give the holder's root (§B16).
    good_locks = table.lock_escrowed[(2, 0)]
    context = canon.encode(["lock-escrow", GAME_ID, 2, 0, 1, 2])
    seed = deck.open_sealed(table.seal_private[1], good_locks["boxes"][1], context)
    long_seed = {**good_locks, "boxes": [good_locks["boxes"][0], deck.seal(table.rep.seats[1][1], seed + b"\x00", context,
                                                                           table.fresh())]}
    wrong_root = {**good_locks, "roots": [good_locks["roots"][0], good_locks["roots"][0]]}
    unopened = {**good_locks, "boxes": [good_locks["boxes"][0], good_locks["boxes"][0]]}  # sealed to seat 0
    for body, proved in ((bad, True), (table.escrowed[2], False), (bad_locks, True), (good_locks, False),
                         (long_seed, True), (wrong_root, True), (unopened, True)):
        logged = {b"the submission": (2, body)}
        for holder in (0, 1):
            fault = {"code": "bad-escrow", "culprit": 2, "evidence": [b"the submission", table.seal_private[holder]]}
            assert transcript.evidence_proves(table.rep, table.rep.seats, logged, fault) == (proved and holder == 1)


def test_a_seat_is_not_rebuilt_while_a_deal_it_locked_has_no_lock_escrow_with_the_seats_still_playing():
    table = escrowed_table(4)
    rep = table.rep
    table.play(until=in_round_two_after(1))
    rebuild_by(table, 1, (0, 2, 3))
    assert rep.rebuilt == {1: rep.seq - 1}
    # Seat 3's shares of deals 0 and 1 were held by seat 1 too: it escrows its secret anew, and
    # until it escrows those lock keys anew, nobody may agree to rebuild it.
    table.submit(3, table.escrow(3))
    refused(table, 0, {"t": "open-seat", "seat": 3}, "illegal")
    for number in (0, 1):
        table.submit(3, table.lock_escrow(3, number))
    table.submit(0, {"t": "open-seat", "seat": 3})


def test_no_share_is_given_before_every_seat_has_agreed():
    """Shares in the log before the seat is opened for good would stay there if it came back:
    enough of them to let a smaller group rebuild it later. So a `rebuild` comes only after
    the last consent (§B16)."""
    table = escrowed_table()
    rep = table.rep
    table.play(until=in_round_two_after(1))
    refused(table, 0, table.rebuild(0, 1), "illegal")
    agree(table, 1, (0,))
    refused(table, 0, table.rebuild(0, 1), "illegal")  # one consent of two: still not
    assert 1 not in rep.open
    agree(table, 1, (2,))
    table.submit(0, table.rebuild(0, 1))


# --- a re-shuffle under way starts again at a rebuild (§B16 step 5, protocol 7) -------------------

class RemaskingProbe(KeptProbe):
    """The probe game whose passed card is re-masked with the receiver's hand at once (as
    Astonishing! re-masks a hand after a trade): a re-shuffle of that hand, the card passed among
    its sources — locked by its giver's key alone, and in nobody's keeping —, its new slots
    disclosed to the receiver."""

    def act(self, seat, action):
        super().act(seat, action)
        if action[0] == "pass":
            left = (seat + 1) % self.players
            self.hands[left] = self.cards.remask(self.hands[left], left)


class RemaskingTable(Table):
    """A `Table` of that game, every seat's secret escrowed first; a re-key pass takes off, with
    the seat's own lock, a rebuilt seat's lock kept on its input for it (§B16 step 5)."""

    def __init__(self, players=3, label=b""):
        super().__init__(players, label)
        self.rep = replica.Replica(RemaskingProbe(players), GAME_ID, self.rep.seats, probe.DECK_DOMAIN)
        for seat in range(players):
            self.submit(seat, self.escrow(seat))

    def make_pass(self, seat, stand_in=True):
        body = super().make_pass(seat)
        deal = self.rep.deals[body["deal"]]
        if body["stage"] == "rekey" and deal.kept_locks and stand_in:
            inputs = deal.done[-1][3] if deal.done else deal.start
            a = self.keys(seat, deal.number)[0]
            olds = [self.lock_key(seat, source) for source in deal.sources]
            for i, (gone, taker) in deal.kept_locks.items():
                if taker == seat:
                    olds[i] = olds[i] * self.lock_key(gone, deal.sources[i]) % deck.N
            body["values"] = [deck.encrypt(v, a * deck.inverse(o) % deck.N) for v, o in zip(inputs, olds)]
        return body


def remask_under_way(table):
    """Play until a re-mask has begun and one seat alone has made its re-key pass; its deal."""
    def until(t):
        rep = t.rep
        return (rep.phase["kind"] == "cards" and rep.phase["sub"] == "deals"
                and any(rep.deals[d].sources is not None and [p[0] for p in rep.deals[d].done] == ["rekey"]
                        for d in rep.phase["deals"]))
    table.play(until=until)
    [number] = table.rep.phase["deals"]
    return table.rep.deals[number]


def test_a_reshuffle_waiting_for_a_rebuilt_seats_rekey_over_a_card_it_gave_starts_again_without_it():
    """Seat 1 gave seat 2 a card (locked by seat 1's key alone) and the card is being re-masked
    with seat 2's hand; seat 0 has made its re-key pass, seat 1 owes its own and is gone. Since
    protocol 7 that is no obstacle to rebuilding seat 1: at the entry that rebuilds it the
    re-shuffle starts again without it — seat 0's pass void, seat 1's published lock keys off the
    starting values, the card's lock of seat 1 left on for a holder that knows the card, seat 2, to
    take off in its re-key. Played to the end and audited."""
    table = RemaskingTable(3, b"gift 0")
    rep, game = table.rep, table.rep.game
    deal = remask_under_way(table)
    assert game.winner == 1 and game.hands[2] == list(range(deal.first, deal.first + deal.size))
    [gift] = [slot for slot in deal.sources if rep.unpublished[slot] == {1}]
    assert rep.knows[gift] == {1, 2} and rep._staying(1) == [gift]
    assert deal.passes[0] == ("rekey", 1) and [p[:2] for p in deal.done] == [("rekey", 0)]
    rebuild_by(table, 1, (0, 2))  # (protocol 6 refused these consents)
    assert rep.rebuilt == {1: rep.seq - 1} and (gift, 1) not in rep.published
    new = rep.deals[deal.number]
    assert new is not deal and new.done == [] and new.holders == [0, 2] and rep.phase["deals"] == [deal.number]
    assert new.passes == [("rekey", 0), ("rekey", 2), ("shuffle", 0), ("shuffle-lock", 2), ("lock", 0)]
    assert (new.first, new.size, new.sources, new.cards) == (deal.first, deal.size, deal.sources, deal.cards)
    # The starting values: seat 1's published locks off; the card's still on, for seat 2.
    i = deal.sources.index(gift)
    assert new.kept_locks == {i: (1, 2)} and new.start[i] == deal.start[i]
    assert all(new.start[j] == deck.encrypt(deal.start[j], deck.inverse(rep.published[(source, 1)]))
               for j, source in enumerate(deal.sources) if j != i)
    # Seat 0's pass is void: it makes it again, the one it made before but over the new values.
    again = table.make_pass(0)
    assert again["stage"] == "rekey" and again["values"] != deal.done[0][3]
    table.play()
    assert rep.result() is not None
    # The audit read the new passes only, the kept lock taken off by its stand-in.
    assert [p[:2] for p in rep.deals[deal.number].done if p[0] == "rekey"] == [("rekey", 0), ("rekey", 2)]
    assert deal.number in rep._audited()


def test_a_stand_in_whose_rekey_leaves_the_rebuilt_seats_lock_on_is_named_by_the_audit():
    table = RemaskingTable(3, b"gift 0")
    rep = table.rep
    deal = remask_under_way(table)
    rebuild_by(table, 1, (0, 2))
    table.play(until=lambda t: rep.deals[deal.number].passes[:1] == [("rekey", 2)])
    table.submit(2, table.make_pass(2, stand_in=False))  # only its own lock taken off
    with pytest.raises(replica.Fault) as caught:
        table.play()
    assert (caught.value.code, caught.value.culprit) == ("bad-pass", 2)
