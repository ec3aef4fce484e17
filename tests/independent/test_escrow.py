"""Key escrow (SPEC §B16) in the independent replica, on submissions built here from the SPEC: a
probe table whose every seat this test plays, each seat's card keys derived from its escrow secret.
The escrow's form and legality; a seat rebuilt from its holders' shares mid-round and mid-deal,
its keys checked against its verifiers and published, its caretaker playing on to the end; an
escrow of another secret, or shares that don't add up, named `bad-escrow` when it is rebuilt; a
holder's proof of a bad box (§B16, §B9)."""

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
    rebuild has keys to send."""

    def kept_slots(self, seat):
        return list(self.hands[seat])


class Table:
    """A probe table of `players` seats, every one played here knowing every secret. Each seat's
    deal keys come from its escrow secret (§B16), so its caretaker plays on with the same keys."""

    def __init__(self, players=3, game=KeptProbe):
        self.secrets = [scalar(b"secret %d" % s) for s in range(players)]
        self.seal_private = [made(b"seal %d" % s) for s in range(players)]
        seats = [[made(b"identity %d" % s), X25519PrivateKey.from_private_bytes(p).public_key().public_bytes_raw()]
                 for s, p in enumerate(self.seal_private)]
        self.rep = replica.Replica(game(players), GAME_ID, seats, probe.DECK_DOMAIN)
        self.escrowed = {}   # seat -> its current escrow body
        self.openings = {}   # (seat, phase id) -> (salt, value)
        self.made = 0        # submissions made, for fresh randomness

    def fresh(self) -> bytes:
        self.made += 1
        return made(b"fresh %d" % self.made)

    def submit(self, seat, body):
        self.rep.apply(seat, body)
        if body["t"] == "escrow":
            self.escrowed[seat] = body

    # --- escrow and rebuild (§B16) -------------------------------------------------------------

    def escrow(self, seat, secret=None, holders=None):
        """Seat's escrow body: its secret split among `holders` (the others still playing)."""
        secret = self.secrets[seat] if secret is None else secret
        holders = [s for s in self.rep.playing() if s != seat] if holders is None else holders
        shares = deck.escrow_split(secret, len(holders))
        boxes = [deck.seal(self.rep.seats[h][1], deck.scalar_bytes(share),
                           canon.encode(["escrow-share", GAME_ID, seat, h, len(holders)]), self.fresh())
                 for h, share in zip(holders, shares)]
        return {"t": "escrow", "holders": holders, "commitments": [deck.share_commitment(s) for s in shares],
                "boxes": boxes}

    def share(self, holder, of) -> bytes:
        """The share `holder` holds of `of`'s current escrow, from its box (§B16)."""
        body = self.escrowed[of]
        j = body["holders"].index(holder)
        context = canon.encode(["escrow-share", GAME_ID, of, holder, len(body["holders"])])
        return deck.open_sealed(self.seal_private[holder], body["boxes"][j], context)

    def rebuild(self, seat, of, sent=None):
        if sent is None:
            sent = [[slot, deck.scalar_bytes(self.lock_key(seat, slot))] for slot in self.owed(seat, of)]
        return {"t": "rebuild", "seat": of, "share": self.share(seat, of), "sent": sent}

    def owed(self, seat, of):
        """The kept slots of `of` that `seat` sealed its key of to it and never published."""
        rep = self.rep
        return sorted(slot for slot in rep.game.kept_slots(of)
                      if (slot, seat, of) in rep.sealed and (slot, seat) not in rep.published)

    # --- every other submission, made by whoever is due --------------------------------------

    def keys(self, seat, number):
        deal = self.rep.deals[number]
        return deck.seat_deal_keys(self.secrets[seat], number, deal.size, deal.sources is not None)

    def lock_key(self, seat, slot):
        deal = self.rep.deal_of(slot)
        return self.keys(seat, deal.number)[3][slot - deal.first]

    def card(self, slot) -> str:
        deal = self.rep.deal_of(slot)
        return self.rep.value_of(slot, {h: self.lock_key(h, slot) for h in deal.holders})

    def play(self, until=lambda table: False):
        """Make every submission due, lowest seat first, until nothing is due or `until` holds."""
        while not until(self):
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
            strip = deck.inverse(r * a % deck.N)
            values = [deck.encrypt(v, k * strip % deck.N) for v, k in zip(inputs, locks)]
            verifiers = [deck.encrypt(deck.VERIFIER_BASE, k) for k in locks]
        return {"t": "pass", "deal": deal.number, "stage": stage, "values": values, "verifiers": verifiers}

    def make_keys(self, seat):
        owed = self.rep.phase["required"][seat]
        sealed = []
        for slot, to in sorted(owed["sealed"]):
            key = deck.scalar_bytes(self.lock_key(seat, slot))
            box = deck.seal(self.rep.seats[to][1], key, canon.encode(["sealed-key", GAME_ID, slot, seat, to]), self.fresh())
            sealed.append([slot, to, box, deck.sealed_commitment(key)])
        return {"t": "keys", "public": [[slot, deck.scalar_bytes(self.lock_key(seat, slot))] for slot in sorted(owed["public"])],
                "sealed": sealed}

    def make_audit(self, seat):
        entries = []
        for number in self.rep.phase["audit_deals"]:
            if seat in self.rep.deals[number].holders:
                a, r, _permutation, locks = self.keys(seat, number)
                entries.append([number, None if a is None else deck.scalar_bytes(a), deck.scalar_bytes(r),
                                [deck.scalar_bytes(k) for k in locks]])
        return {"t": "audit", "keys": entries}


def escrowed_table(players=3, game=KeptProbe) -> Table:
    """Every seat escrows first, as the reference does (§B16)."""
    table = Table(players, game)
    for seat in range(players):
        table.submit(seat, table.escrow(seat))
    return table


def refused(table, seat, body, code):
    """`body` from `seat` is refused with `code` naming `seat`; the table is left as it was."""
    trial = copy.deepcopy(table.rep)
    with pytest.raises(replica.Fault) as caught:
        trial.apply(seat, body)
    assert (caught.value.code, caught.value.culprit) == (code, seat), str(caught.value)


def in_round_two_after(seat):
    """Until `seat` has committed to its play of round 2 and nobody has opened."""
    def until(table):
        phase, game = table.rep.phase, table.rep.game
        return (game.round == 1 and phase["kind"] == "choice" and phase["domain"] == "choice"
                and seat in phase["commits"] and not phase["opens"])
    return until


# --- the escrow's form and legality -------------------------------------------------------------

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


# --- rebuilding a seat ----------------------------------------------------------------------------

def test_a_seat_rebuilt_mid_round_is_played_on_by_its_caretaker_with_its_own_keys_to_the_end():
    table = escrowed_table()
    rep = table.rep
    table.play(until=in_round_two_after(1))
    # Round 1's winner, seat 0, passed seat 1 a card: only seat 0's key of it is unpublished.
    assert rep.game.winner == 0
    [passed] = table.owed(0, 1)
    assert table.owed(2, 1) == [] and rep.unpublished[passed] == {0}
    good = table.rebuild(0, 1)
    assert good["sent"] == [[passed, deck.scalar_bytes(table.lock_key(0, passed))]]
    refused(table, 0, {**good, "share": table.share(2, 1)}, "illegal")   # another holder's share
    refused(table, 0, {**good, "sent": []}, "illegal")                   # a key it owes left out
    refused(table, 0, {**good, "sent": good["sent"] * 2}, "illegal")
    refused(table, 0, {**good, "sent": [[passed, deck.scalar_bytes(table.lock_key(2, passed))]]}, "bad-key")
    refused(table, 0, {**good, "sent": [[passed, b"x"]]}, "malformed")
    refused(table, 2, {**table.rebuild(2, 1), "seat": 0}, "illegal")     # the host's seat
    refused(table, 2, {**table.rebuild(2, 1), "seat": 2}, "illegal")     # its own
    refused(table, 2, {**table.rebuild(2, 1), "seat": 5}, "illegal")
    table.submit(0, good)
    assert 1 not in rep.open  # one share is not the table's
    refused(table, 0, good, "illegal")                                   # its share once
    refused(table, 0, {"t": "open-seat", "seat": 1}, "illegal")          # it has consented
    assert 1 in rep.phase["commits"]
    table.submit(2, table.rebuild(2, 1))
    # Rebuilt at this entry: seat 1's lock keys are all published, and seat 0's sent key.
    assert rep.open == {1: rep.seq - 1} and rep.rebuilt == {1: rep.seq - 1} and rep.author(1) == 0
    for number in (0, 1):
        deal = rep.deals[number]
        for i, key in enumerate(table.keys(1, number)[3]):
            assert rep.published[(deal.first + i, 1)] == key
    assert rep.published[(passed, 0)] == table.lock_key(0, passed)
    # Its choice, committed before anyone opened, is dropped: its caretaker chooses again.
    assert 1 not in rep.phase["commits"] and rep.due(1) == "commit"
    # Seats still playing can no longer escrow among two holders or fewer (§C8).
    refused(table, 2, table.escrow(2), "illegal")
    table.play()
    assert rep.result() is not None
    assert [d for d in rep.deals if 1 in rep.deals[d].holders] == [0, 1]  # deal 2 began after: not its


def test_a_seat_rebuilt_before_its_lock_pass_locks_with_the_rebuilt_keys_and_publishes_them():
    table = escrowed_table()
    rep = table.rep
    # Seat 1 agrees while seat 2 holds no key yet; then the deal begins, and the consent alone
    # can't open a seat holding keys: it waits for every share (§B16).
    table.play(until=lambda t: rep.phase["kind"] == "choice")
    table.submit(1, {"t": "open-seat", "seat": 2})
    table.play(until=lambda t: rep.phase["kind"] == "cards" and rep.deals[0].passes[:1] == [("lock", 2)])
    refused(table, 0, {"t": "open-seat", "seat": 2}, "illegal")  # it holds keys
    table.submit(0, table.rebuild(0, 2))
    assert 2 not in rep.open
    table.submit(1, table.rebuild(1, 2))  # its share after its consent
    assert rep.rebuilt == {2: rep.seq - 1}
    assert not any(seat == 2 for (_slot, seat) in rep.published)  # nothing locked by it yet
    table.submit(2, table.make_pass(2))    # its caretaker's lock pass
    deal = rep.deals[0]
    assert all(rep.published[(deal.first + i, 2)] == key for i, key in enumerate(table.keys(2, 0)[3]))
    table.play()
    assert rep.result() is not None


def test_an_escrow_of_another_secret_or_of_shares_that_do_not_add_up_is_bad_escrow_when_rebuilt():
    # Another secret's split: found by the rebuilt keys against the keys seat 2 published and its
    # verifiers (step 2), or its verifiers alone while it has published none. Shares of two
    # splits, rebuilt before any deal: found by the split of their sum (step 1).
    def keys_owed(table):
        phase = table.rep.phase
        return phase["kind"] == "cards" and phase["sub"] == "keys" and 2 in phase["required"]

    for how, when in (("another secret", in_round_two_after(2)), ("another secret", keys_owed),
                      ("mixed splits", lambda t: t.rep.phase["kind"] == "choice")):
        table = Table(3)
        for seat in (0, 1):
            table.submit(seat, table.escrow(seat))
        if how == "another secret":
            body = table.escrow(2, secret=scalar(b"another"))
        else:
            one, other = table.escrow(2), table.escrow(2, secret=scalar(b"another"))
            body = {**one, "commitments": [one["commitments"][0], other["commitments"][1]],
                    "boxes": [one["boxes"][0], other["boxes"][1]]}
        table.submit(2, body)
        table.play(until=when)
        assert table.rep._holds_keys(2) == (how == "another secret")
        table.submit(1, table.rebuild(1, 2))  # each share matches its commitment
        with pytest.raises(replica.Fault) as caught:
            table.rep.apply(0, table.rebuild(0, 2))
        assert (caught.value.code, caught.value.culprit) == ("bad-escrow", 2), how


def test_a_holders_sealing_key_proves_a_bad_box_and_clears_a_good_one():
    table = escrowed_table()
    bad = table.escrow(2)
    bad["boxes"][1] = deck.seal(table.rep.seats[1][1], deck.scalar_bytes(1),
                                canon.encode(["escrow-share", GAME_ID, 2, 1, 2]), table.fresh())
    for body, proved in ((bad, True), (table.escrowed[2], False)):
        logged = {b"the submission": (2, body)}
        for holder in (0, 1):
            fault = {"code": "bad-escrow", "culprit": 2, "evidence": [b"the submission", table.seal_private[holder]]}
            assert transcript.evidence_proves(table.rep, table.rep.seats, logged, fault) == (proved and holder == 1)
