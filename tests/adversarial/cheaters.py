"""Misbehaving peers: real sessions behind real nodes that cheat in one specific way.

Each cheater is an honest :class:`Session` until its trigger fires, then misbehaves once (or stops
answering for good). They override private hooks of the session: that is the point — an attacker
runs whatever code it likes, and the honest peers must cope with any bytes it sends.
"""

from __future__ import annotations

import os
from typing import Any, Callable

from p2pgames import canonical
from p2pgames.crypto import (
    CURVE_ORDER,
    elgamal,
    BadCardValue,
    Identity,
    card_point,
    encrypt,
    random_scalar,
    reproducible_bytes,
    scalar_to_bytes,
    seal,
    transform,
    unlock,
)
from p2pgames.games import get_game
from p2pgames.session import HOST_CONNECTION, Session, encode_record, make_envelope
from p2pgames.session._messages import Envelope, MalformedMessage, open_envelope
from p2pgames.session._replica import DecisionPhase, Submission
from p2pgames.session._sealed_keys import sealing_context


def _rebuild(envelope: Envelope, **changes: Any) -> bytes:
    value = {"kind": envelope.kind, "sender": envelope.sender, "body": envelope.body, "sig": envelope.signature}
    value.update(changes)
    return canonical.encode(value)


class Cheater(Session):
    """A joiner that behaves until ``trigger(self, body)`` says so, then calls :meth:`cheat`."""

    trigger: Callable[["Cheater", dict], bool] = staticmethod(lambda session, body: False)

    def __init__(self, seed: bytes = b"cheater", **kwargs: Any) -> None:
        random_bytes = reproducible_bytes(seed)
        super().__init__(
            Identity.generate(random_bytes(32)), kwargs.pop("name", "cheater"), get_game,
            bot=True, random_bytes=random_bytes, **kwargs,
        )
        self.cheated = False
        self.sent: list[bytes] = []

    def _submit(self, body: dict, decision: bool = False) -> None:
        if not self.cheated and self.trigger(self, body):
            self.cheated = True
            self.cheat(body, decision)
            return
        super()._submit(body, decision)
        for connection, data in self._outgoing:
            if connection == HOST_CONNECTION:
                self.sent.append(data)

    def cheat(self, body: dict, decision: bool) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def signed_submission(self, body: dict, counter: int | None = None) -> Envelope:
        replica = self.replica
        return make_envelope(self.identity, "submit", {
            "game_id": self.game_id,
            "seat": self.seat,
            "counter": replica.counters[self.seat] if counter is None else counter,
            "based_on": replica.seq,
            "body": body,
        })

    def send_raw(self, data: bytes) -> None:
        self._outgoing.append((HOST_CONNECTION, data))

    def mark_in_flight(self, envelope: Envelope, body: dict, decision: bool) -> None:
        self.role.in_flight = Submission(envelope, self.seat, envelope.body["counter"], body)
        self.role.in_flight_decision = decision

    def send_cheat(self, body: dict, decision: bool) -> None:
        """Send ``body``, signed with the right counter: as a joiner to the host; as the host, in
        an entry of its own, unchecked, to every joiner (a host can't send a cheat through its
        own session, which checks its own moves before sequencing them)."""
        self.cheated = True
        self.cheat_seq = self.replica.seq
        envelope = self.signed_submission(body)
        self.cheat_raw = envelope.raw
        if not self.is_host:
            self.send_raw(envelope.raw)
            self.mark_in_flight(envelope, body, decision)
            return
        replica = self.replica
        entry = make_envelope(self.identity, "entry", {
            "game_id": self.game_id,
            "seq": replica.seq,
            "prev": replica.head,
            "submission": envelope.raw,
            "state": replica.state_hash,  # it can't apply what the rules refuse: it claims no change
        })
        self.role.broadcast(entry)
        self._record("entry", entry.raw)


def after_submissions(count: int) -> Callable[[Cheater, dict], bool]:
    return lambda session, body: session.replica.counters[session.seat] >= count


def on_kind(kind: str, *, after: int = 0) -> Callable[[Cheater, dict], bool]:
    return lambda session, body: body["t"] == kind and session.replica.counters[session.seat] >= after


class BadSignature(Cheater):
    """Sends a submission whose signature doesn't verify."""

    trigger = staticmethod(after_submissions(3))

    def cheat(self, body: dict, decision: bool) -> None:
        envelope = self.signed_submission(body)
        forged = bytes([envelope.signature[0] ^ 0x01]) + envelope.signature[1:]
        self.send_raw(_rebuild(envelope, sig=forged))
        self.mark_in_flight(envelope, body, decision)


class Replayer(Cheater):
    """Sends one of its earlier (validly signed) submissions again."""

    trigger = staticmethod(after_submissions(4))

    def cheat(self, body: dict, decision: bool) -> None:
        old = next(data for data in self.sent if b"submit" in data)
        self.send_raw(old)
        super(Cheater, self)._submit(body, decision)


class MalformedFrame(Cheater):
    """Sends a frame that is not a message at all."""

    trigger = staticmethod(after_submissions(2))

    def cheat(self, body: dict, decision: bool) -> None:
        self.send_raw(b"\xc1 this is not msgpack \xff\x00")
        super(Cheater, self)._submit(body, decision)


class OversizeFrame(Cheater):
    """Sends a frame longer than the limit (2 MiB)."""

    trigger = staticmethod(after_submissions(2))

    def cheat(self, body: dict, decision: bool) -> None:
        self.send_raw(os.urandom(2 * 1024 * 1024))
        super(Cheater, self)._submit(body, decision)


class OutOfTurn(Cheater):
    """Makes a move while it is someone else's turn (validly signed, based on the current entry)."""

    def _after_apply(self, applied: Any) -> None:
        super()._after_apply(applied)
        replica = self.replica
        if self.cheated or self.stage != "playing" or self.role.in_flight is not None:
            return
        waiting = replica.waiting_for()
        # Only during another seat's turn: then nothing but that player's decision can move the
        # log, so our move can't be excused as a race (the host would forgive it as stale).
        if isinstance(replica.phase, DecisionPhase) and waiting and self.seat not in waiting:
            # Take the action the seat to move may take, as if it were ours.
            other = waiting[0]
            actions = self.game.legal_actions(replica.state, other, {})
            if not actions:
                return
            self.send_cheat({"t": "act", "action": self.game.encode_action(actions[0])}, True)


class ChangedOpening(Cheater):
    """Commits to one simultaneous choice and opens a different one."""

    trigger = staticmethod(on_kind("open"))

    def cheat(self, body: dict, decision: bool) -> None:
        replica = self.replica
        options = [self.game.encode_action(a) for a in self.game.legal_actions(replica.state, self.seat, self.knowledge)]
        others = [wire for wire in options if wire != body["value"]]
        if not others:  # nothing else to claim: behave this time, cheat next time
            self.cheated = False
            super(Cheater, self)._submit(body, decision)
            return
        self.send_cheat(dict(body, value=others[0]), decision)


class WrongKey(Cheater):
    """Publishes a wrong lock key when its keys are due (with a move that shows its card, §B5,
    or in a ``keys`` submission)."""

    trigger = staticmethod(lambda session, body: body["t"] in ("keys", "act") and bool(body.get("public")))

    def cheat(self, body: dict, decision: bool) -> None:
        public = [list(item) for item in body["public"]]
        public[0][1] = scalar_to_bytes(random_scalar())
        self.send_cheat(dict(body, public=public), decision)


def playing_the_best_card(cheater: Cheater, body: dict) -> dict:
    """``body``, or in the probe game (until it cheats) the choice of its best card instead: a
    round's winner passes a card (a claim, and a key sealed to its left)."""
    if body["t"] == "commit" and cheater.replica.phase.purpose == "choice" and not cheater.cheated:
        hand = cheater.replica.state.hands[cheater.seat]
        best = max(hand, key=lambda slot: int(cheater.knowledge[slot][1:]))
        return cheater.secrets.choose(cheater.replica, ["play", best])
    return body


class WrongSealedKey(Cheater):
    """Seals another key than its real one to a player it must show a card to, keeping the signed
    commitment to the real key: only the receiver can open the box, so only its sealing key
    (shown as evidence) lets the others see what was in it."""

    # (A give's key is sealed with the act, §B5; other keys in a `keys` submission.)
    trigger = staticmethod(lambda session, body: body["t"] in ("keys", "act") and bool(body.get("sealed")))

    def cheat(self, body: dict, decision: bool) -> None:
        sealed = [list(item) for item in body["sealed"]]
        slot, to = sealed[0][0], sealed[0][1]
        other_key = scalar_to_bytes(random_scalar())
        context = sealing_context(self.game_id, slot, self.seat, to)
        sealed[0][2] = seal(self.replica.seats[to].seal, other_key, context, ephemeral_private=os.urandom(32))
        self.send_cheat(dict(body, sealed=sealed), decision)

    def _submit(self, body: dict, decision: bool = False) -> None:
        super()._submit(playing_the_best_card(self, body), decision)


class SealedToAnotherSeat(Cheater):
    """Seals the key of the card it gives, riding with its move (§B5), to another seat than the
    one the card goes to: not what rides with the move, so the move is its fault."""

    trigger = staticmethod(lambda session, body: body["t"] == "act" and bool(body.get("sealed")))

    def cheat(self, body: dict, decision: bool) -> None:
        sealed = [list(item) for item in body["sealed"]]
        sealed[0][1] = next(seat for seat in range(len(self.replica.seats)) if seat not in (self.seat, sealed[0][1]))
        self.send_cheat(dict(body, sealed=sealed), decision)

    def _submit(self, body: dict, decision: bool = False) -> None:
        super()._submit(playing_the_best_card(self, body), decision)


class SwappedCard(Cheater):
    """In its shuffle pass, replaces one card by a card that is not in the deck."""

    trigger = staticmethod(lambda session, body: body["t"] == "pass" and body["stage"] == "shuffle")

    def cheat(self, body: dict, decision: bool) -> None:
        values = list(body["values"])
        secret = self.secrets.deals[body["deal"]]
        # A foreign card, encrypted with our shuffle key so the pass looks well formed.
        values[0] = transform([card_point("p2pgames/elsewhere", "ace of spades")], secret.shuffle)[0]
        self.send_cheat(dict(body, values=values), decision)


class RepeatedCardUnderItsOwnKey(Cheater):
    """As the deal's last holder, in its shuffle-lock pass (§B6.1), puts one card in twice — the
    second under another slot's lock key, so no value repeats — and drops the one it displaced."""

    trigger = staticmethod(lambda session, body: body["t"] == "pass" and body["stage"] == "shuffle-lock")

    def cheat(self, body: dict, decision: bool) -> None:
        crypto = self.replica.deals[body["deal"]]
        secret = self.secrets.deals[body["deal"]]
        inputs = crypto.input_of("shuffle-lock", self.seat)
        values = list(body["values"])
        values[1] = encrypt(inputs[secret.permutation[0]], secret.locks[1] * pow(secret.rekey or 1, -1, CURVE_ORDER) % CURVE_ORDER)
        self.send_cheat(dict(body, values=values), decision)


# --- the same wrongs with protocol 11's ElGamal deck (§B6.3) ------------------------------------

class WrongShare(Cheater):
    """WrongKey at protocol 11: publishes a point that is not its share (another slot's, or a
    point of its own) under the one proof it made for the right ones (§B6.3): refused as it
    comes, `bad-key`, the submission the evidence."""

    trigger = staticmethod(lambda session, body: body["t"] in ("keys", "act") and bool(body.get("public")))

    def cheat(self, body: dict, decision: bool) -> None:
        public = [list(item) for item in body["public"]]
        public[0][1] = public[-1][1] if len(public) > 1 else elgamal.public_key(7)
        self.send_cheat(dict(body, public=public), decision)


class UndecodableCard(Cheater):
    """NotAPoint at protocol 11: puts 32 bytes that decode to no point (y ≥ p) into its pass:
    refused as it comes, `bad-pass`, the pass the evidence."""

    trigger = staticmethod(lambda session, body: body["t"] == "pass")

    def cheat(self, body: dict, decision: bool) -> None:
        cards = [list(card) for card in body["cards"]]
        cards[0][1] = b"\xff" * 32
        self.send_cheat(dict(body, cards=cards), decision)


class ForeignElGamalCard(Cheater):
    """SwappedCard at protocol 11: adds a card point from another deck to one card's masked
    point in its pass, so that the slot opens to no card of the deal; the audit the receiver's
    dispute (or the game's own) starts remakes the pass from its seed and names the cheater."""

    trigger = staticmethod(lambda session, body: body["t"] == "pass")

    def cheat(self, body: dict, decision: bool) -> None:
        cards = [list(card) for card in body["cards"]]
        cards[0][1] = elgamal.point_sum([cards[0][1], elgamal.card_point("p2pgames/elsewhere", "ace of spades")])
        self.send_cheat(dict(body, cards=cards), decision)


class FalseClaim(Cheater):
    """In the probe game, passes its lowest card while the rule (and its claim) says highest.

    It plays its best card each round, to win a round and so have a card to pass.
    """

    def _submit(self, body: dict, decision: bool = False) -> None:
        body = playing_the_best_card(self, body)
        if body["t"] == "act" and body["action"][0] == "pass" and not self.cheated:
            hand = self.replica.state.hands[self.seat]
            lowest = min(hand, key=lambda slot: int(self.knowledge[slot][1:]))
            if lowest != body["action"][1]:
                self.cheated = True
                body = self.secrets.choose(self.replica, ["pass", lowest])  # (its key sealed with it, §B5)
        super()._submit(body, decision)


class Silent(Cheater):
    """Stops answering anything — submissions, pings, acknowledgements — after a while."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.gone = False

    def _submit(self, body: dict, decision: bool = False) -> None:
        if self.replica.counters[self.seat] >= 3:
            self.gone = True
            self.cheated = True
        if not self.gone:
            super()._submit(body, decision)

    def receive(self, connection: int, data: bytes, now: float | None = None) -> None:
        if not self.gone:
            super().receive(connection, data, now)

    def ping(self, connection: int, nonce: int) -> None:
        if not self.gone:
            super().ping(connection, nonce)

    def take_outgoing(self, paced: bool = False) -> list[tuple[int, Any]]:
        out = super().take_outgoing(paced)
        return [] if self.gone else out


class ForgingHost(Session):
    """A host that, at some joiner's turn, sequences a move in that joiner's name it can't sign."""

    def __init__(self, ruleset: Any, seed: bytes = b"host", victim: int = 1) -> None:
        random_bytes = reproducible_bytes(seed)
        super().__init__(
            Identity.generate(random_bytes(32)), "forger", get_game,
            ruleset=ruleset, bot=True, random_bytes=random_bytes,
        )
        self.victim = victim
        self.cheated = False

    def _after_apply(self, applied: Any) -> None:
        super()._after_apply(applied)
        replica = self.replica
        if self.cheated or self.stage != "playing" or not isinstance(replica.phase, DecisionPhase):
            return
        if self.victim not in replica.waiting_for():  # (its turn, alone or with others: whoever moves first)
            return
        actions = self.game.legal_actions(replica.state, self.victim, {})
        if not actions:
            return
        self.cheated = True
        victim_key = self.seats[self.victim].key.raw
        body = {
            "game_id": self.game_id, "seat": self.victim, "counter": replica.counters[self.victim],
            "based_on": replica.seq, "body": {"t": "act", "action": self.game.encode_action(actions[0])},
        }
        forged = canonical.encode({"kind": "submit", "sender": victim_key, "body": body, "sig": bytes(64)})
        entry = make_envelope(self.identity, "entry", {
            "game_id": self.game_id, "seq": replica.seq, "prev": replica.head,
            "submission": forged, "state": bytes(32),
        })
        self.role.broadcast(entry)

    def receive(self, connection: Any, data: bytes, now: float | None = None) -> None:
        # Having moved for the victim, it sequences nothing more (it relays the rest): the
        # victim's own move would make two entries of one number, a chain break caught another
        # way, and a move made after the forged entry is illegal on its own log, which it would
        # report — both beside the point of this cheat.
        if self.cheated:
            try:
                envelope = open_envelope(data)
            except MalformedMessage:
                envelope = None
            if envelope is not None and envelope.kind == "submit":
                return
        super().receive(connection, data, now)


class NotAPoint(Cheater):
    """Puts a value that is no curve point into its shuffle pass (the next peer trips over it)."""

    trigger = staticmethod(lambda session, body: body["t"] == "pass" and body["stage"] == "shuffle")

    def cheat(self, body: dict, decision: bool) -> None:
        values = list(body["values"])
        x = 5
        while True:  # the smallest x ≥ 5 with no point on P-256
            candidate = x.to_bytes(32, "big")
            try:
                unlock(candidate, ())
            except BadCardValue:
                break
            x += 1
        values[0] = candidate
        self.send_cheat(dict(body, values=values), decision)


class FalseAccuser(Cheater):
    """Sends a ``fault`` message blaming ``victim`` (an honest seat) with no proof: its own words,
    control characters and all, and whatever ``code`` and ``evidence`` the test gives it."""

    victim = 2
    code = "illegal"
    evidence: tuple[bytes, ...] = ()
    words = "I say so\x1b[31m\nhonest-2 (seat 2) cheated"

    trigger = staticmethod(after_submissions(3))

    def cheat(self, body: dict, decision: bool) -> None:
        self.send_raw(make_envelope(self.identity, "fault", {
            "game_id": self.game_id, "culprit": self.victim, "code": self.code, "reason": self.words,
            "seq": self.replica.seq, "evidence": list(self.evidence),
        }).raw)
        super(Cheater, self)._submit(body, decision)


class SignedAsAnother(Cheater):
    """Sends a submission that names another seat (seat 2) than its own, signed with its own key."""

    trigger = staticmethod(after_submissions(3))

    def cheat(self, body: dict, decision: bool) -> None:
        envelope = make_envelope(self.identity, "submit", {
            "game_id": self.game_id, "seat": 2, "counter": self.replica.counters[2],
            "based_on": self.replica.seq, "body": body,
        })
        self.send_raw(envelope.raw)
        self.mark_in_flight(envelope, body, decision)


class SkippedCounter(Cheater):
    """Sends a submission whose counter skips one ahead of its next."""

    trigger = staticmethod(after_submissions(3))

    def cheat(self, body: dict, decision: bool) -> None:
        envelope = self.signed_submission(body, counter=self.replica.counters[self.seat] + 1)
        self.send_raw(envelope.raw)
        self.mark_in_flight(envelope, body, decision)


class AckCheater(Cheater):
    """Acknowledges entry ``at`` as an honest joiner does, then misbehaves once in :meth:`ack_cheat`."""

    at = 4

    def _acknowledge(self, seq: int, entry_digest: bytes, state_hash: bytes) -> None:
        if seq == self.at and not self.cheated:
            self.cheated = True
            self.ack_cheat(seq, entry_digest, state_hash)
            return
        super()._acknowledge(seq, entry_digest, state_hash)

    def ack(self, seq: int, entry_digest: bytes, state_hash: bytes) -> bytes:
        return make_envelope(self.identity, "ack", {
            "game_id": self.game_id, "seq": seq, "entry": entry_digest, "state": state_hash,
        }).raw

    def ack_cheat(self, seq: int, entry_digest: bytes, state_hash: bytes) -> None:  # pragma: no cover
        raise NotImplementedError


class WrongAck(AckCheater):
    """Acknowledges one entry with a state it did not reach (its own state is right)."""

    def ack_cheat(self, seq: int, entry_digest: bytes, state_hash: bytes) -> None:
        self._own_hashes[seq] = (entry_digest, state_hash)
        self.send_raw(self.ack(seq, entry_digest, bytes(32)))


class DoubleAck(AckCheater):
    """Acknowledges one entry correctly, then again with ``second(entry, state)``."""

    second: Callable[[bytes, bytes], tuple[bytes, bytes]] = staticmethod(lambda entry, state: (entry, bytes(32)))

    def ack_cheat(self, seq: int, entry_digest: bytes, state_hash: bytes) -> None:
        super()._acknowledge(seq, entry_digest, state_hash)
        self.send_raw(self.ack(seq, *self.second(entry_digest, state_hash)))


# -- honest peers that remember, and game cheaters ------------------------------------------------------


class Recording:
    """Keeps what a session emitted (events) and its transcript records, as they are taken.

    ``on_change``, if set, is called after every entry the session applies and every event it
    emits (an agreement reached among them): a test can wait on it instead of polling.
    """

    seen: list[Any]
    records: list[bytes]
    on_change: Callable[[], None] | None = None

    def _emit(self, event: Any) -> None:
        self.seen.append(event)
        super()._emit(event)  # type: ignore[misc]
        self._changed()

    def _after_apply(self, applied: Any) -> None:
        super()._after_apply(applied)  # type: ignore[misc]
        self._changed()

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()

    def take_transcript(self) -> list[bytes]:
        records = super().take_transcript()  # type: ignore[misc]
        self.records.extend(records)
        return records

    def transcript(self) -> bytes:
        """The transcript so far, as the node writes it to its file."""
        return b"".join(encode_record(record) for record in self.records)


class Honest(Recording, Session):
    """An honest bot peer that records its events, transcript and the messages it sent."""

    def __init__(self, seat: int, ruleset: Any, seed: bytes) -> None:
        self.seen: list[Any] = []
        self.records: list[bytes] = []
        self.sent: list[tuple[int, Envelope]] = []
        random_bytes = reproducible_bytes(seed + b"/honest/" + bytes([seat]))
        super().__init__(
            Identity.generate(random_bytes(32)), f"honest-{seat}", get_game,
            ruleset=ruleset if seat == 0 else None, bot=True, random_bytes=random_bytes,
        )

    def _send(self, connection: int, envelope: Envelope | bytes) -> None:
        if isinstance(envelope, Envelope):
            self.sent.append((connection, envelope))
        super()._send(connection, envelope)


class GameCheater(Recording, Cheater):
    """A cheater at one game: honest with its game's bot until :meth:`instead` names the cheat to
    send instead of a move (an ``act``), once; until then it may :meth:`steer` — a legal move of
    its own instead of the bot's — toward the moment its cheat needs, or :meth:`hold_back`.
    Games add their own hooks (commitments, openings) around :meth:`act_or_cheat`."""

    def __init__(self, **kwargs: Any) -> None:
        self.seen: list[Any] = []
        self.records: list[bytes] = []
        super().__init__(**kwargs)
        self.cheat_action: Any = None  # what it sent (or committed to) instead
        self.cheat_seq: int | None = None  # entries applied when the cheat was sent
        self.cheat_raw: bytes | None = None  # the signed submission that carried it

    @property
    def state(self) -> Any:
        return self.replica.state

    def name_of(self, slot: int) -> str | None:
        return self.state.value(slot, self.knowledge)

    def legal(self) -> list[Any]:
        return self.game.legal_actions(self.state, self.seat, self.knowledge)

    def instead(self, action: Any) -> Any:
        """The cheat to send instead of ``action`` (our bot's honest move), or ``None``."""
        return None

    def steer(self, action: Any) -> Any:
        """A legal move to make instead of ``action``, bringing the cheat's moment about sooner
        than the bot would, or ``None``: honest play, just not the bot's."""
        return None

    def hold_back(self, action: Any) -> bool:
        """Whether to make no move yet (it is asked again after the next entry)."""
        return False

    def act_or_cheat(self, body: dict, decision: bool) -> dict | None:
        """The ``act`` ``body`` the bot chose, as this cheater plays it: ``None`` if it sent the
        cheat instead (:meth:`send_cheat`) or holds back, else the body to submit — the bot's, or
        a steered legal move's."""
        action = self.game.decode_action(body["action"])
        if self.hold_back(action):
            return None
        replacement = self.instead(action)
        if replacement is not None:
            self.cheat_action = replacement
            self.send_cheat({"t": "act", "action": self.game.encode_action(replacement)}, decision)
            return None
        steered = self.steer(action)
        if steered is None:
            return body
        self.game.check_action(self.state, self.seat, steered)  # honest: a legal move
        return {"t": "act", "action": self.game.encode_action(steered)}
