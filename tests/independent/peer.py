"""A joiner of the probe game over TCP (SPEC §A2, §B2–§B8, §B11), from the SPEC alone.

`Peer.run(host, port)` connects, says hello, accepts the start, then follows the log: it checks
every entry as a joiner must, applies it with its own replica, acknowledges it with its own state
hash, and makes every submission its seat owes — random contributions, choices, its lock keys'
escrow before each lock pass (§B16), passes, keys, audits, moves — until the game is over and
every seat agreed on the last entry. As a holder of another seat's escrow it checks its share of
each on receipt (§B16). It escrows no secret of its own (nothing asks it to: its seat just can't be
rebuilt). It writes its own transcript (§B11). Anything it can't accept raises PeerError naming the
message.

It speaks protocol 11 (the ElGamal deck, §B6.3) unless asked for 10 (§C5's lock deck): at 11 its
hello carries its deck key and key proof, its passes are re-encryptions from pass seeds, its keys
are shares under one batched proof or sealed with their share proofs, and its audit gives its pass
seeds and every share of its deals (§B6.3); as a holder of an escrow it checks the box of the deck
key's part too (§B16.6).
"""

import os
import random
import struct

import trio
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

from . import canon, deck, edwards, probe, replica, transcript, wire

PROTOCOL = 11
LOCK_DECK_PROTOCOL = 10  # §B6.1–§B6.2 (§A4): spoken where asked


class PeerError(Exception):
    """The peer stopped: what it received and why it refused it."""


class _Dropped(Exception):
    """This peer closes its connection on purpose (to rejoin)."""


class Peer:
    def __init__(self, name: str = "indie", seed: bytes | None = None, *, ping: int | None = None,
                 stale_move_after: int | None = None, accuse_sealer: str | None = None,
                 drop_after_submissions: int | None = None, lose_that_submission: bool = False,
                 dial_again: bool = False, walk_out_after: int | None = None,
                 chat_burst: int = 0, protocol: int = PROTOCOL):
        """`ping`: send a ping with this nonce once seated (§B10). `stale_move_after`: once entry
        *n* is applied and nothing is due from this seat, submit a move that is not allowed now,
        based on one entry fewer — the host must answer `stale`, not a fault (§B3). `accuse_sealer`: when
        a key is first sealed to this seat, send a `bad-key` fault naming its (honest) sender with the
        keys submission and, as `"made-up"`, key bytes it made up, or as `"sealing-key"`, its own
        private sealing key (§B6.2's evidence) as evidence (§B9), then stop.
        `drop_after_submissions`: close the connection right after sending that many submissions
        (with `lose_that_submission`, instead of sending the last one), dial again and rejoin (§B12).
        `dial_again`: once seated, a connection the host closes (or that fails) is dialled again
        until the host answers, and the peer rejoins (§B12 step 1); it gives back what a resumed
        host asks for (`missing`, step 5). `walk_out_after`: once that many entries are applied,
        send a `fault` naming nobody, with no evidence (a claim nobody can check, §B9 case 4), and
        stop. `chat_burst`: once it has accepted the start, send that
        many different chat lines at once (§B10: the host takes 20 at once, one a second after).
        `protocol`: 11 or 10 (§A4)."""
        if protocol not in (PROTOCOL, LOCK_DECK_PROTOCOL):
            raise ValueError(f"protocol {protocol}: this peer speaks {PROTOCOL} and {LOCK_DECK_PROTOCOL}")
        self.protocol = protocol
        # A test peer: every secret comes from this seeded generator, so a game can be replayed;
        # real peers draw secrets uniformly from a cryptographic source (§C5.7).
        seed = seed if seed is not None else os.urandom(16)
        self.rng = random.Random(seed)
        # Its lock escrows' seeds (§B16) from a generator of their own: its other draws stay the
        # ones a game with the same seed always made.
        self.seed_rng = random.Random(seed + b"/lock-escrow seeds")
        self.private = self._bytes(32)
        self.key = wire.public_key(self.private)
        self.seal_private_key = X25519PrivateKey.from_private_bytes(self._bytes(32))
        self.seal_private = self.seal_private_key.private_bytes_raw()
        self.seal_public = self.seal_private_key.public_key().public_bytes_raw()
        # The ElGamal deck's secrets (§B6.3) from a generator of their own, so that a game at
        # protocol 10 draws what it always drew: the deck key, a never-escrowed escrow secret whose
        # stream gives the pass seeds (§B16.6), and each proof's fresh scalar.
        self.deck_rng = random.Random(seed + b"/elgamal deck")
        self.deck_key = edwards.draw_scalar(self._deck_bytes)
        self.deck_public = edwards.encode(edwards.multiply_base(self.deck_key))
        self.pass_secret = 0
        while not 1 <= self.pass_secret < deck.N:
            self.pass_secret = int.from_bytes(self._deck_bytes(32), "big")
        self.name = name
        self.seated = trio.Event()
        self.done = trio.Event()
        self.reached = []            # the kinds of message handled, in order (how far it got)
        self.records = []            # transcript records (§B11)
        self.host_key = None
        self.replica = None
        self.seat = None
        self.accepts = set()
        self.own_accept = None       # our accept's signed bytes, sent again after a rejoin at entry 0
        self.counter = 0             # this seat's next submission counter
        self.counters = {}           # seat -> the next counter the log expects from it
        self.in_flight = None        # (counter, submission envelope bytes)
        self.openings = {}           # phase id -> (salt, value)
        self.secrets = {}            # deal -> {"r", "perm", "a", "locks"}
        self.acks = {}               # seq -> {seat: state}
        self.own_states = []
        self.result = None
        self._stream = None
        self.ping = ping
        self.pongs = []
        self.stale_move_after = stale_move_after
        self.stales = []             # the `stale` bodies received
        self.accuse_sealer = accuse_sealer
        self.accusation = None       # the fault body it sent, with accuse_sealer
        self.faults = []             # `fault` bodies received (only with accuse_sealer; else they stop the peer)
        self.drop_after = drop_after_submissions
        self.lose = lose_that_submission
        self.rejoins = 0
        self.catching_up = False
        self.gave_back = False       # answered this rejoin's `missing` (§B12 step 5: once a rejoin)
        self.caught_up = []          # the `caught-up` bodies received
        self.resent = []             # counters of submissions sent again after a rejoin
        self.entries_caught_up = 0   # entries received between rejoin and caught-up
        self.recorded = set()        # digests of relayed messages recorded (a catch-up sends some again)
        self.dial_again = dial_again
        self.entries = []            # every entry applied, as the host signed it (§B12 step 5)
        self.own_acks = []           # this seat's ack of each, as it sent it
        self.missing = []            # the `missing` bodies received
        self.lobbies = []            # each `lobby`'s names, in its order (§B2)
        self.walk_out_after = walk_out_after
        self.walked_out = None       # the fault body it sent, with walk_out_after
        self.chat_burst = chat_burst

    def _bytes(self, n):
        return bytes(self.rng.getrandbits(8) for _ in range(n))

    def _deck_bytes(self, n):
        return bytes(self.deck_rng.getrandbits(8) for _ in range(n))

    def _fresh(self) -> int:
        """A proof's fresh scalar w (§C9.3: never used twice)."""
        return edwards.draw_scalar(self._deck_bytes)

    def _scalar(self):
        while True:
            k = int.from_bytes(self._bytes(32), "big")
            if 1 <= k < deck.N:
                return k

    # --- the connection -----------------------------------------------------------------------

    async def run(self, host: str, port: int):
        while not self.done.is_set():
            try:
                self._stream = await trio.open_tcp_stream(host, port)
            except OSError:
                if not (self.dial_again and self.replica is not None):
                    raise
                await trio.sleep(0.5)  # §B12 step 1: dial again, with backoff
                continue
            reader = wire.FrameReader()
            async with self._stream:
                try:
                    while not self.done.is_set():
                        try:
                            data = await self._stream.receive_some(65536)
                        except trio.BrokenResourceError:
                            data = b""
                        if not data:
                            if self.dial_again and self.replica is not None:
                                raise _Dropped()
                            raise PeerError(f"the host closed the connection (after {self.reached[-3:]})")
                        for payload in reader.feed(data):
                            try:
                                await self._handle(payload)
                            except trio.BrokenResourceError:
                                if not (self.dial_again and self.replica is not None):
                                    raise
                                raise _Dropped() from None
                            if self.done.is_set():
                                break
                except _Dropped:
                    self.rejoins += 1

    async def _send(self, kind, body):
        raw = wire.make_envelope(self.private, kind, body)
        await self._stream.send_all(wire.frame(raw))
        return raw

    def _record(self, kind, value):
        self.records.append(canon.encode([kind, value]))

    def transcript(self) -> bytes:
        return b"".join(struct.pack(">I", len(r)) + r for r in self.records)

    # --- messages -----------------------------------------------------------------------------

    async def _handle(self, payload):
        try:
            env = wire.open_envelope(payload)
        except wire.WireError as e:
            raise PeerError(f"a message that does not open ({e.code}): {e}") from e
        self.reached.append(env.kind)
        handler = getattr(self, "_on_" + env.kind.replace("-", "_"), None)
        if handler is None:
            raise PeerError(f"unexpected {env.kind}")
        await handler(env)
        await self._duties()

    async def _on_host_hello(self, env):
        body = env.body
        if body["protocol"] != self.protocol or body["game"] != "probe" or body["ruleset"]["game"] != "probe":
            raise PeerError(f"host-hello for {body['game']!r}, protocol {body['protocol']}")
        if self.replica is not None:  # seated: rejoin (§B12)
            if env.sender != self.host_key:
                raise PeerError("another key answers at the host's address")
            self.catching_up = True
            self.gave_back = False  # a `missing` is answered once a rejoin (§B12 step 5)
            await self._send("rejoin", {"protocol": self.protocol, "game_id": self.game_id, "host": self.host_key,
                                        "nonce": body["nonce"], "have": self.replica.seq})
            return
        self.host_key = env.sender
        self.ruleset = body["ruleset"]
        hello = {"protocol": self.protocol, "game": "probe", "name": self.name, "seal": self.seal_public,
                 "host": self.host_key, "nonce": body["nonce"], "bot": True}
        if self.protocol != LOCK_DECK_PROTOCOL:  # §B6.3 *Deck keys*
            hello["deck"] = [self.deck_public, edwards.key_proof(self.deck_key, self._deck_key_context(self.key),
                                                                 self._fresh())]
        await self._send("hello", hello)

    @staticmethod
    def _deck_key_context(signing_key):
        return canon.encode(["deck-key", signing_key])

    async def _on_reject(self, env):
        raise PeerError(f"rejected: {env.body['reason']}")

    async def _on_ping(self, env):
        await self._send("pong", {"nonce": env.body["nonce"]})

    async def _on_pong(self, env):
        self._from_host(env)
        self.pongs.append(env.body["nonce"])

    async def _on_lobby(self, env):
        self._from_host(env)
        self.lobbies.append([record[2] for record in env.body["players"]])
        if any(record[0] == self.key for record in env.body["players"]) and not self.seated.is_set():
            self.seated.set()
            if self.ping is not None:
                await self._send("ping", {"nonce": self.ping})

    async def _on_start(self, env):
        self._from_host(env)
        if self.replica is not None:  # a catch-up from `have` = 0 sends it again (§B12)
            if env.digest != self.start_digest:
                raise PeerError("a second, different start")
            return
        body = env.body
        seats = body["seats"]
        mine = [i for i, record in enumerate(seats) if record[0] == self.key]
        if (len(mine) != 1 or seats[mine[0]][1] != self.seal_public or len(seats) != body["ruleset"]["players"]
                or len({record[0] for record in seats}) != len(seats) or seats[0][0] != self.host_key
                or body["ruleset"] != self.ruleset):
            raise PeerError("a start that does not seat this peer properly")
        # §B6.3: every record 6 items at 11 (4 at 10), each deck key proven, ours the one we sent.
        if self.protocol == LOCK_DECK_PROTOCOL:
            if any(len(record) != 4 for record in seats):
                raise PeerError("a start at protocol 10 with a seat record of other than 4 items (illegal)")
        elif (any(len(record) != 6 for record in seats) or seats[mine[0]][4] != self.deck_public
              or not all(edwards.key_proof_holds(record[4], record[5], self._deck_key_context(record[0]))
                         for record in seats)):
            raise PeerError("a start whose deck keys are not 6-item records, proven, ours the one we sent (illegal)")
        self.seat = mine[0]
        self.seats = seats
        self.game_id = body["game_id"]
        self.start_digest = env.digest
        self.replica = replica.Replica(probe.Probe(len(seats)), self.game_id, seats, probe.DECK_DOMAIN)
        self._record("header", {"format": "p2pgames-transcript", "version": 1, "game": "probe", "seat": self.seat})
        self._record("start", env.raw)
        raw = await self._send("accept", {"game_id": self.game_id, "start": self.start_digest})
        self.own_accept = raw
        self._record("accept", raw)
        self.accepts.add(self.seat)
        lines = [wire.make_envelope(self.private, "chat", {"game_id": self.game_id, "text": f"hello {n}"})
                 for n in range(self.chat_burst)]
        if lines:  # in one write: they arrive together
            await self._stream.send_all(b"".join(wire.frame(line) for line in lines))

    async def _on_reach(self, env):
        # Where a seat could host the table (§B15): this peer never dials anyone but its host.
        self._seat_of(env)

    async def _on_accept(self, env):
        seat = self._seat_of(env)
        if env.body["game_id"] != self.game_id or env.body["start"] != self.start_digest:
            raise PeerError(f"seat {seat}'s accept names another game or start (illegal)")
        if env.digest not in self.recorded:
            self.recorded.add(env.digest)
            self._record("accept", env.raw)
        self.accepts.add(seat)

    async def _on_entry(self, env):
        self.entries_caught_up += self.catching_up
        self._record("entry", env.raw)
        self._from_host(env)
        body = env.body
        rep = self.replica
        if body["game_id"] != self.game_id:
            raise PeerError("an entry of another game (replay)")
        prev = self.start_digest if rep.seq == 0 else self.chain_last
        if body["seq"] != rep.seq or body["prev"] != prev:
            raise PeerError(f"entry {body['seq']} out of order (bad-sequence)")
        try:
            sub = wire.open_envelope(body["submission"])
        except wire.WireError as e:
            raise PeerError(f"entry {rep.seq}: its submission: {e.code} {e}") from e
        s = sub.body
        if sub.kind != "submit" or s["game_id"] != self.game_id or s["seat"] >= len(self.seats) \
                or sub.sender != self.seats[s["seat"]][0]:
            raise PeerError(f"entry {rep.seq}: a submission not signed by its seat")
        seat = s["seat"]
        if seat == self.seat:
            if self.in_flight is None or self.in_flight[1] != body["submission"]:
                raise PeerError(f"entry {rep.seq}: a submission in this seat's name it did not send")
            self.in_flight = None
        expected = self.counters.get(seat, 0)
        if s["counter"] != expected:
            raise PeerError(f"entry {rep.seq}: seat {seat}'s counter {s['counter']}, not {expected} (replay)")
        self.counters[seat] = expected + 1
        seq = rep.seq
        try:
            state = rep.apply(seat, s["body"])
        except replica.Fault as f:
            raise PeerError(f"entry {seq}: {f.code} of seat {f.culprit}: {f}") from f
        size = rep.deals[s["body"]["deal"]].size if s["body"]["t"] == "lock-escrow" else None
        if (s["body"]["t"] in ("escrow", "lock-escrow") and self.seat in s["body"]["holders"]
                and not transcript.escrow_box_is_right(self.game_id, seat, self.seal_private, s["body"], self.seat,
                                                       size)):
            raise PeerError(f"entry {seq}: seat {seat}'s escrow box for this seat is wrong (bad-escrow)")
        if state != body["state"]:
            raise PeerError(f"entry {seq}: the host's state {body['state'].hex()[:16]} is not ours "
                            f"{state.hex()[:16]} (desync); body {s['body']!r}")
        self.chain_last = env.digest
        self.own_states.append(state)
        self.entries.append(env.raw)
        if (self.accuse_sealer and self.accusation is None and s["body"]["t"] in ("keys", "act")  # (§B5: an act's)
                and any(item[1] == self.seat for item in s["body"].get("sealed", ()))):
            if self.accuse_sealer == "made-up":
                shown = deck.scalar_bytes(self._scalar())  # no box opens to it: anyone could send it
            else:
                shown = self.seal_private  # with it anyone opens the box: the key in it is right
            self.accusation = {"game_id": self.game_id, "culprit": seat, "code": "bad-key",
                               "reason": "the key sealed to me is not the one committed to",
                               "seq": rep.seq, "evidence": [body["submission"], shown]}
            await self._send("fault", self.accusation)
        raw = wire.make_envelope(self.private, "ack", {"game_id": self.game_id, "seq": seq, "entry": env.digest,
                                                        "state": state})
        self.own_acks.append(raw)
        self._record("ack", raw)
        await self._stream.send_all(wire.frame(raw))
        self.acks.setdefault(seq, {})[self.seat] = state
        self.acks[seq][0] = body["state"]
        self._check_agreement(seq)
        if self.walk_out_after is not None and rep.seq >= self.walk_out_after and self.walked_out is None:
            self.walked_out = {"game_id": self.game_id, "culprit": None, "code": "oversize",
                               "reason": "something was too big", "seq": rep.seq, "evidence": []}
            await self._send("fault", self.walked_out)
            self.done.set()

    async def _on_ack(self, env, item=None):
        """`item`: the ack came as this item of an `acks` (§B8), and is recorded as one."""
        seat = self._seat_of(env)
        if env.body["game_id"] != self.game_id:
            raise PeerError(f"seat {seat}'s ack of another game (replay)")
        if env.digest in self.recorded:
            return  # sent again by a catch-up, or our own passed back
        self.recorded.add(env.digest)
        if item is None:
            self._record("ack", env.raw)
        else:  # §B11: nil fields are the log's, which is ours
            self._record("acks", [item])
        seq = env.body["seq"]
        if seq >= len(self.own_states):
            raise PeerError(f"seat {seat} acknowledged entry {seq} before it reached this peer")
        if env.body["state"] != self.own_states[seq]:
            raise PeerError(f"seat {seat}'s ack of entry {seq} names another state (desync)")
        self.acks.setdefault(seq, {})[seat] = env.body["state"]
        self._check_agreement(seq)

    async def _on_acks(self, env):
        """§B8: acks passed on by the host, several to a message; each item is its seat's `ack`
        envelope once rebuilt (a nil `entry` is our entry `seq`'s digest, a nil `state` its `state`
        field), taken as that `ack` would be."""
        self._from_host(env)
        if env.body["game_id"] != self.game_id:
            return  # of another game: ignored
        for item in env.body["acks"]:
            seat, seq, entry, state, sig = item
            if seat >= len(self.seats):
                raise PeerError(f"an acks item of seat {seat}, which is not at the table (malformed)")
            if entry is None or state is None:
                if seq >= len(self.entries):
                    continue  # of an entry we don't hold: kept nowhere
                logged = wire.open_envelope(self.entries[seq], check_signature=False)
                entry = logged.digest if entry is None else entry
                state = logged.body["state"] if state is None else state
            raw = canon.encode({"body": {"game_id": self.game_id, "seq": seq, "entry": entry, "state": state},
                                "kind": "ack", "sender": self.seats[seat][0], "sig": sig})
            try:
                ack = wire.open_envelope(raw)
            except wire.WireError as e:
                raise PeerError(f"an acks item of seat {seat} that it did not sign (bad-signature, the host's): {e}") from e
            await self._on_ack(ack, item)

    async def _on_stale(self, env):
        self._from_host(env)
        self.stales.append(env.body)
        if self.in_flight is not None and env.body["counter"] == self.in_flight[0]:
            self.counter -= 1  # the counter was not used up (§B3)
            self.in_flight = None

    async def _on_leave(self, env):
        if self.result is None:
            raise PeerError(f"seat {self._seat_of(env)} left: {env.body['reason']}")
        self._record("leave", env.raw)

    async def _on_fault(self, env):
        if self.accuse_sealer:
            self.faults.append(env.body)
            self.done.set()
            return
        raise PeerError(f"a fault message: culprit {env.body['culprit']}, {env.body['code']}: {env.body['reason']}")

    async def _on_chat(self, env):
        pass

    async def _on_away(self, env):
        self._from_host(env)

    async def _on_back(self, env):
        self._from_host(env)

    async def _on_caught_up(self, env):
        self._from_host(env)
        if env.body["game_id"] != self.game_id or env.body["seq"] != self.replica.seq:
            raise PeerError(f"caught-up at {env.body['seq']} while this peer holds {self.replica.seq} entries "
                            "(bad-sequence)")
        self.caught_up.append(env.body)
        self.catching_up = False
        if env.body["seq"] == 0 and self.own_accept is not None:  # §B12 step 3: the host may lack it
            await self._stream.send_all(wire.frame(self.own_accept))
        if self.in_flight is not None:  # lost with the old connection: sent again, unchanged
            self.resent.append(self.in_flight[0])
            await self._stream.send_all(wire.frame(self.in_flight[1]))

    async def _on_missing(self, env):
        """§B12 step 5: a resumed host lacks entries (or this seat's acks) from `from` on; only while
        rejoining. Our accept again if from the start, then each entry as the host signed it, each
        followed by our ack of it as we sent it."""
        self._from_host(env)
        start = env.body["from"]
        if env.body["game_id"] != self.game_id or not self.catching_up or start > self.replica.seq:
            raise PeerError(f"missing from {start} while this peer holds {self.replica.seq} entries (bad-sequence)")
        if self.gave_back:
            raise PeerError("a second missing in one rejoin (bad-sequence)")
        self.gave_back = True
        self.missing.append(env.body)
        if start == 0 and self.own_accept is not None:
            await self._stream.send_all(wire.frame(self.own_accept))
        for seq in range(start, self.replica.seq):
            await self._stream.send_all(wire.frame(self.entries[seq]) + wire.frame(self.own_acks[seq]))

    def _from_host(self, env):
        if env.sender != self.host_key:
            raise PeerError(f"a {env.kind} not from the host (bad-signature)")

    def _seat_of(self, env):
        for seat, record in enumerate(self.seats):
            if record[0] == env.sender:
                return seat
        raise PeerError(f"a {env.kind} from a key not at the table")

    def _check_agreement(self, seq):
        if self.result is not None or seq != len(self.own_states) - 1:
            return
        result = self.replica.result()
        if result is not None and len(self.acks.get(seq, {})) == len(self.seats):
            self.result = result
            self._record("end", result)

    # --- duties -------------------------------------------------------------------------------

    async def _duties(self):
        if self.replica is None or len(self.accepts) < len(self.seats) or self.done.is_set():
            return
        if self.result is not None:
            raw = await self._send("leave", {"game_id": self.game_id, "reason": "game over"})
            self._record("leave", raw)
            self.done.set()
            return
        if self.in_flight is not None or self.catching_up:
            return
        due = self.replica.due(self.seat)
        based_on = self.replica.seq
        escrow_due = next((d for d in sorted(self.replica.deals) if self.replica.lock_escrow_due(self.seat, d)), None)
        if escrow_due is not None:  # its lock keys of a deal it holds, before its lock pass (§B16)
            body = self._make_lock_escrow(escrow_due)
        elif due is None and self.stale_move_after is not None and self.replica.seq > self.stale_move_after:
            self.stale_move_after = None
            body = {"t": "act", "action": ["cheer", True]}
            based_on -= 1
        elif due is None:
            return
        else:
            body = getattr(self, "_make_" + due)()
        submit = {"game_id": self.game_id, "seat": self.seat, "counter": self.counter,
                  "based_on": based_on, "body": body}
        dropping = self.drop_after is not None and self.counter + 1 == self.drop_after
        raw = wire.make_envelope(self.private, "submit", submit)
        self.in_flight = (self.counter, raw)  # in flight before it leaves: a broken line loses it
        self.counter += 1
        if not (dropping and self.lose):
            await self._stream.send_all(wire.frame(raw))
        if dropping:
            self.drop_after = None
            raise _Dropped()

    def _make_commit(self):
        phase = self.replica.phase
        if phase["domain"] == "random":
            value = self._bytes(32)
        else:
            value = self.rng.choice(self.replica.game.legal_actions(self.seat))
        salt = self._bytes(32)
        self.openings[phase["id"]] = (salt, value)
        return {"t": "commit", "commitment": deck.commit(phase["domain"], self.game_id, self.seat,
                                                         [phase["id"], value], salt)}

    def _make_lock_escrow(self, number):
        rep = self.replica
        holders = [s for s in rep.playing() if s != self.seat]
        seeds = [bytes(self.seed_rng.getrandbits(8) for _ in range(32)) for _ in holders]
        roots, offsets, boxes = deck.lock_escrow(self.game_id, self.seat, number, self._secret(rep.deals[number])["locks"],
                                                 holders, seeds, lambda h: self.seats[h][1], lambda: self._bytes(32))
        return {"t": "lock-escrow", "deal": number, "holders": holders, "roots": roots, "offsets": offsets,
                "boxes": boxes}

    def _make_open(self):
        salt, value = self.openings.pop(self.replica.phase["id"])
        return {"t": "open", "salt": salt, "value": value}

    def _make_act(self):
        game = self.replica.game
        actions = game.legal_actions(self.seat)
        if game.phase == "pass":  # the claim is "my highest card": keep it true
            return {"t": "act", "action": max(actions, key=lambda a: probe.number(self.card_of(a[1])))}
        return {"t": "act", "action": self.rng.choice(actions)}

    def _secret(self, deal):
        if deal.number not in self.secrets:
            self.secrets[deal.number] = {
                "r": self._scalar(), "perm": self._permutation(deal.size),
                "a": self._scalar() if deal.sources is not None else None,
                "locks": [self._scalar() for _ in range(deal.size)]}
        return self.secrets[deal.number]

    def _permutation(self, m):
        items = list(range(m))
        self.rng.shuffle(items)
        return items

    def lock_key(self, slot):
        deal = self.replica.deal_of(slot)
        return self.secrets[deal.number]["locks"][slot - deal.first]

    def _pass_seed(self, number) -> bytes:
        """§B16.6: the first 32 bytes of D("pass", d) of its escrow secret (never escrowed here)."""
        return deck.seat_stream(self.pass_secret, "pass", number).take(32)

    def _make_pass(self):
        if self.protocol != LOCK_DECK_PROTOCOL:
            return self._make_elgamal_pass()
        rep = self.replica
        for number in rep.phase["deals"]:
            deal = rep.deals[number]
            if deal.passes and deal.passes[0][1] == self.seat:
                break
        stage = deal.passes[0][0]
        inputs = deal.done[-1][3] if deal.done else deal.start
        sec = self._secret(deal)
        a = sec["a"] or 1
        verifiers = []
        try:
            if stage == "rekey":
                values = [deck.encrypt(v, a * deck.inverse(self.lock_key(src)) % deck.N)
                          for v, src in zip(inputs, deal.sources)]
            elif stage == "shuffle":
                values = [deck.encrypt(inputs[sec["perm"][t]], sec["r"]) for t in range(deal.size)]
            elif stage == "shuffle-lock":  # the last holder: it permutes as it locks (§B6.1)
                values = [deck.encrypt(inputs[sec["perm"][t]], k * deck.inverse(a) % deck.N)
                          for t, k in enumerate(sec["locks"])]
                verifiers = [deck.encrypt(deck.VERIFIER_BASE, k) for k in sec["locks"]]
            else:
                strip = deck.inverse(sec["r"] * a % deck.N)
                values = [deck.encrypt(v, k * strip % deck.N) for v, k in zip(inputs, sec["locks"])]
                verifiers = [deck.encrypt(deck.VERIFIER_BASE, k) for k in sec["locks"]]
        except deck.DeckError as e:
            raise PeerError(f"the previous pass of deal {deal.number} holds a non-point (bad-pass): {e}") from e
        return {"t": "pass", "deal": deal.number, "stage": stage, "values": values, "verifiers": verifiers}

    def _make_elgamal_pass(self):
        """§B6.3 *Passes*: its re-encryption of the previous pass's cards (the starting values for
        the first) under the deal's joint key, from its pass seed; as the last holder, its shares of
        the slots it would publish in the keys sub-step next, under their one proof."""
        rep = self.replica
        deal = next(rep.deals[number] for number in rep.phase["deals"]
                    if rep.deals[number].passes and rep.deals[number].passes[0] == ("pass", self.seat))
        inputs = deal.done[-1][3] if deal.done else deal.start
        permutation, scalars = replica.pass_randomness(self._pass_seed(deal.number), deal.size)
        cards = replica._reencrypt(inputs, rep._joint_key(deal.holders), permutation, scalars)
        if cards is None:
            raise PeerError(f"the previous pass of deal {deal.number} holds a point that does not decode (bad-pass)")
        body = {"t": "pass", "deal": deal.number, "cards": cards}
        phase = rep.phase
        if len(deal.passes) == 1 and phase["index"] + 1 < len(phase["groups"]) \
                and phase["groups"][phase["index"] + 1][0] == "keys":
            if not all(edwards.valid(point) for card in cards for point in card):
                # §B6.3: no share of a point outside the group; the pass applied names who put it there.
                return body
            span = range(deal.first, deal.first + deal.size)
            due = sorted(rep._owed_over(phase["groups"][phase["index"] + 1][1], span, self.seat)["public"])
            if due:
                nonces = [cards[slot - deal.first][0] for slot in due]
                shares, proof = edwards.shares_proof(self.deck_key, nonces, self._shares_context(due), self._fresh())
                body["public"], body["proof"] = [[slot, share] for slot, share in zip(due, shares)], proof
        return body

    def _shares_context(self, slots):
        return canon.encode(["shares", self.game_id, self.seat, list(slots)])

    def _nonce(self, slot) -> bytes:
        deal = self.replica.deal_of(slot)
        return deal.final[slot - deal.first][0]

    def _make_keys(self):
        if self.protocol != LOCK_DECK_PROTOCOL:
            return self._make_elgamal_keys()
        owed = self.replica.phase["required"][self.seat]
        public = [[slot, deck.scalar_bytes(self.lock_key(slot))] for slot in sorted(owed["public"])]
        sealed = []
        for slot, to in sorted(owed["sealed"]):
            key = deck.scalar_bytes(self.lock_key(slot))
            context = canon.encode(["sealed-key", self.game_id, slot, self.seat, to])
            box = deck.seal(self.seats[to][1], key, context, ephemeral_private=self._bytes(32))
            sealed.append([slot, to, box, deck.sealed_commitment(key)])
        return {"t": "keys", "public": public, "sealed": sealed}

    def _make_elgamal_keys(self):
        """§B6.3 *Keys sub-step*: the shares it owes in public, under one proof, and sealed, each
        with its share proof, to the seat that may see its slot."""
        owed = self.replica.phase["required"][self.seat]
        slots = sorted(owed["public"])
        public, proof = [], None
        if slots:
            shares, proof = edwards.shares_proof(self.deck_key, [self._nonce(slot) for slot in slots],
                                                 self._shares_context(slots), self._fresh())
            public = [[slot, share] for slot, share in zip(slots, shares)]
        sealed = []
        for slot, to in sorted(owed["sealed"]):
            nonce = self._nonce(slot)
            share = edwards.encode(edwards.multiply(self.deck_key, edwards.point(nonce)))
            share_proof = edwards.share_proof(self.deck_key, nonce, canon.encode(["share", self.game_id, slot, self.seat]),
                                              self._fresh())
            context = canon.encode(["sealed-share", self.game_id, slot, self.seat, to])
            box = deck.seal(self.seats[to][1], share + share_proof, context, ephemeral_private=self._deck_bytes(32))
            sealed.append([slot, to, box, deck.sealed_commitment(share)])
        return {"t": "keys", "public": public, "proof": proof, "sealed": sealed}

    def _make_audit(self):
        if self.protocol != LOCK_DECK_PROTOCOL:
            return self._make_elgamal_audit()
        rep = self.replica
        keys = []
        for number in rep.phase["audit_deals"]:
            deal = rep.deals[number]
            if self.seat in deal.holders:
                sec = self.secrets[number]
                keys.append([number, None if sec["a"] is None else deck.scalar_bytes(sec["a"]),
                             None if deal.shuffle_locked_by(self.seat) else deck.scalar_bytes(sec["r"]),
                             [deck.scalar_bytes(k) for k in sec["locks"]]])
        return {"t": "audit", "keys": keys}

    def _make_elgamal_audit(self):
        """§B6.3 *Audit*: for each listed deal it holds, its pass seed and its share of every slot
        under one proof."""
        rep = self.replica
        keys = []
        for number in rep.phase["audit_deals"]:
            deal = rep.deals[number]
            if self.seat in deal.holders:
                slots = list(range(deal.first, deal.first + deal.size))
                shares, proof = edwards.shares_proof(self.deck_key, [card[0] for card in deal.final],
                                                     self._shares_context(slots), self._fresh())
                keys.append([number, self._pass_seed(number), shares, proof])
        return {"t": "audit", "keys": keys}

    def card_of(self, slot) -> str:
        """A card this seat was shown: every holder's key (at 11, share) — its own, published, or
        sealed to it."""
        if self.protocol != LOCK_DECK_PROTOCOL:
            return self._elgamal_card_of(slot)
        rep = self.replica
        deal = rep.deal_of(slot)
        extra = {}
        for h in deal.holders:
            if h == self.seat:
                extra[h] = self.lock_key(slot)
            elif (slot, h) not in rep.published:
                box, commitment = rep.sealed[(slot, h, self.seat)]
                context = canon.encode(["sealed-key", self.game_id, slot, h, self.seat])
                key = deck.open_sealed(self.seal_private, box, context)
                if deck.sealed_commitment(key) != commitment:
                    raise PeerError(f"seat {h}'s sealed key for slot {slot} is not the one it committed to (bad-key)")
                extra[h] = deck.scalar_from(key)
        return rep.value_of(slot, extra)

    def _elgamal_card_of(self, slot) -> str:
        """§B6.3 *Opening a slot*: its own share, the published ones, and those sealed to it, each
        opened and checked against its commitment and its share proof (else the sender's bad-key)."""
        rep = self.replica
        nonce = self._nonce(slot)
        shares = {}
        for h in rep.deal_of(slot).holders:
            if h == self.seat:
                shares[h] = edwards.encode(edwards.multiply(self.deck_key, edwards.point(nonce)))
            elif (slot, h) not in rep.published:
                box, commitment = rep.sealed[(slot, h, self.seat)]
                shares[h] = transcript.opened_sealed_share(rep, h, self.seal_private, slot, self.seat, box, commitment)
                if shares[h] is None:
                    raise PeerError(f"seat {h}'s sealed share of slot {slot} does not open to the share it committed "
                                    "to and proved (bad-key)")
        return rep.value_of(slot, shares)
