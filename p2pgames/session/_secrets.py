"""One seat's secrets, and the protocol submissions it makes without asking its player.

:class:`SeatSecrets` holds what no other peer may see: this seat's shuffle and lock keys for every
open deal, the keys other seats sealed to it, its knowledge (slot → card name) and the salts of its
open commitments. Every secret it draws is derived from one 32-byte seed and a label naming what
it is for (:func:`~p2pgames.crypto.secret_stream`) — its card keys and its choices' salts through
its escrow secret (§B16, :mod:`p2pgames.session._escrows`), which all the other seats together can
rebuild should it vanish —, so a peer that restarts gets them all back from the seed and the log;
only its player's committed choices need saving besides
(:attr:`SeatSecrets.choices`). :meth:`SeatSecrets.duty` looks at the replica and returns the body
of the next automatic submission due from this seat (a pass, a key release, an opening, an
audit), if any.
Decisions — the moves a person or a bot makes — come in through :meth:`SeatSecrets.choose`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Callable, Iterable, Iterator, Sequence

from p2pgames.crypto import (
    BadCardValue,
    elgamal,
    PreparedScalars,
    SealKey,
    combine_keys,
    commit,
    lock_pass,
    lock_scalars,
    lock_verifiers,
    prepare_scalars,
    random_contribution,
    rekey_pass,
    scalar_to_bytes,
    seal,
    sealed_commitment,
    shuffle_pass,
    transform,
    unlock,
)
from p2pgames.session._deals import LOCKING_STAGES
from p2pgames.session._elgamal_deals import (
    NO_PROOF,
    ElGamalDeal,
    ProvenShare,
    pass_randomness,
    seal_share,
    sealed_share_context,
    sealed_share_problem,
    share_context,
    shares_context,
)
from p2pgames.session._elgamal_keys import (
    deck_key_from_seed,
    key_escrow,
    open_key_share,
    opened_part,
    pass_seed,
    released_part_context,
    released_share,
)
from p2pgames.session._escrows import (
    HeldLockShares,
    commitment_salt,
    deal_keys,
    escrow_body,
    escrow_secret_from_seed,
    lock_escrow_body,
    lock_escrow_seeds,
    lock_keys_from_seed,
    lock_keys_of,
    open_lock_shares,
    open_released_share,
    open_share,
    release_context,
    secret_source,
)
from p2pgames.session._faults import Fault, FaultCode, ProtocolFault
from p2pgames.session._replica import (
    RANDOM_DOMAIN,
    AuditSub,
    CardPhase,
    CommitPhase,
    DealSub,
    KeysSub,
    Replica,
)
from p2pgames.session._sealed_keys import sealed_key_problem, sealing_context

__all__ = ["SeatSecrets", "DealSecret", "sealing_context", "seal_key_from_seed"]

#: Slots of a deal :meth:`SeatSecrets.prepare` readies a call: about a third of a millisecond.
PREPARE_SLOTS = 8


def seal_key_from_seed(seed: bytes) -> SealKey:
    """The seat's sealing key (what others seal card keys to), derived from its secret seed."""
    return SealKey.generate(secret_source(seed, "seal-key")(32))


def caretaker_secrets(seed: bytes, seat: int) -> "SeatSecrets":
    """The secrets a caretaker keeps for open seat ``seat`` (its commitments' salts), derived
    from the caretaker's own seed, so a restarted caretaker has them again."""
    derived = secret_source(seed, "caretaker", seat)(32)
    return SeatSecrets(seat, seal_key_from_seed(derived), derived)


@dataclass
class DealSecret:
    """This seat's keys for one deal: re-key (re-shuffles), shuffle, and one lock key per slot —
    ``None`` until they are fixed: where lock keys are escrowed, by our first lock escrow of the
    deal (the sums of its seeds' shares, §B16); elsewhere, drawn from the seed when first needed.

    ``verifiers`` (``E(G0, lock)`` per slot) and the lock pass's scalars loaded for encrypting
    (``lock_scalars``) don't depend on the cards, so they are made while the seat waits for its
    turn (:meth:`SeatSecrets.prepare`), off the deal's critical path.
    """

    rekey: int | None
    shuffle: int
    permutation: list[int]
    locks: list[int] | None
    verifiers: list[bytes] | None = None
    lock_scalars: PreparedScalars | None = None
    # The first slots' of both, while they are being made.
    ready_verifiers: list[bytes] = field(default_factory=list)
    ready_scalars: PreparedScalars = field(default_factory=lambda: prepare_scalars(()))
    # What the scalars take off as they lock (see SeatSecrets._lock_strip): a re-shuffle that
    # starts again without a rebuilt seat (§B16) may make us its last holder, which strips less.
    scalars_strip: int | None = None

    def made_ahead(self, strip: int) -> tuple[list[bytes], PreparedScalars] | None:
        """The verifiers and scalars of the lock pass made ahead, if all are made and the scalars
        take off ``strip``; else ``None``."""
        if self.verifiers is None or self.lock_scalars is None or self.scalars_strip != strip:
            return None
        return self.verifiers, self.lock_scalars


@dataclass(frozen=True)
class OurCommitment:
    """A commitment of ours, with what opens it."""

    commitment: bytes
    salt: bytes
    value: Any


@dataclass
class SeatSecrets:
    """Everything private to ``seat``; every secret is drawn from ``seed`` (32 bytes) by label,
    its shuffle keys, permutations and choices' salts from ``escrow`` (drawn from ``seed`` unless
    given: a caretaker gives a rebuilt seat's, to open a choice it committed to, §B16).

    ``choices`` holds the values of this seat's committed choices by phase id, as :meth:`choose`
    made them, until :meth:`duty` opens them — a sealed choice's at the game's Unseal step, entries
    later (the unsealing phase carries the sealing phase's id): a peer that restarts must get them
    back from its saved seat (:meth:`restore_choice`) before it can open them; everything else it
    re-derives.
    """

    seat: int
    seal_key: SealKey
    seed: bytes
    deals: dict[int, DealSecret] = field(default_factory=dict)
    knowledge: dict[int, str] = field(default_factory=dict)
    received: dict[int, dict[int, Any]] = field(default_factory=dict)  # slot -> seat -> key (a share: ElGamal) sealed to us
    choices: dict[int, Any] = field(default_factory=dict)  # phase id -> a committed choice's value
    escrow: int = 0
    # The escrow shares others sealed to us: dealer -> (its escrow's entry, the share); and of
    # their lock keys: (dealer, deal) -> what that escrow's seed gives us.
    shares: dict[int, tuple[int, int]] = field(default_factory=dict)
    lock_shares: dict[tuple[int, int], HeldLockShares] = field(default_factory=dict)
    # The shares of others' deck keys (ElGamal tables) escrowed with us: dealer -> share.
    deck_shares: dict[int, int] = field(default_factory=dict)
    # Shares of a rebuilt seat's lock key sealed to us so far: (seat, slot) -> holder -> share.
    released: dict[tuple[int, int], dict[int, int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.escrow:
            self.escrow = escrow_secret_from_seed(self.seed)

    def _secret(self, *label: Any) -> Any:
        """The byte source for the secret ``label`` names (see the module docstring)."""
        return secret_source(self.seed, *label)

    # -- keys ----------------------------------------------------------------------------------

    def _deal_secret(self, replica: Replica, deal: int) -> DealSecret:
        secret = self.deals.get(deal)
        if secret is None:
            crypto = replica.deals[deal]
            derived = deal_keys(self.escrow, deal, crypto.size, crypto.source_slots is not None, locks=False)
            secret = DealSecret(derived.rekey, derived.shuffle, derived.permutation, None)
            self.deals[deal] = secret
        return secret

    def _lock_keys(self, replica: Replica, deal: int) -> list[int] | None:
        """Our lock keys of ``deal``, or ``None`` while our lock escrow of it, due, has not been
        applied yet: the first one applied fixes them (:meth:`absorb_lock_escrow`). At a table
        that escrows none (two players, no open seats), they are drawn from the seed."""
        secret = self._deal_secret(replica, deal)
        if (secret.locks is None and (self.seat, deal) not in replica.lock_escrows
                and deal not in dict(replica.lock_escrows_due(self.seat))):
            secret.locks = lock_keys_from_seed(self.seed, deal, replica.deals[deal].size)
        return secret.locks

    def _locks(self, replica: Replica, deal: int) -> list[int]:
        """Our lock keys of ``deal``, fixed by now (we lock only once our lock escrow is applied)."""
        locks = self._lock_keys(replica, deal)
        assert locks is not None, f"our lock keys of deal {deal} are used before our lock escrow fixed them"
        return locks

    def own_lock_key(self, replica: Replica, slot: int) -> int:
        crypto, index = replica.deal_of_slot(slot)
        return self._locks(replica, crypto.deal)[index]

    # -- decisions -----------------------------------------------------------------------------

    def choose(self, replica: Replica, wire_action: Any) -> dict:
        """The submission body for a decision: ``act`` (with the keys that ride with it, §B5, when
        only our seat may move), or ``commit`` in a simultaneous or sealed step (the value kept in
        :attr:`choices` to open it)."""
        phase = replica.phase
        if isinstance(phase, CommitPhase):
            # Only this phase's choice and a sealed set's, still to be opened, are kept: the
            # others' phases are over (opened).
            live = {phase.phase_id} | ({replica.sealed.phase_id} if replica.sealed is not None else set())
            for over in [phase_id for phase_id in self.choices if phase_id not in live]:
                del self.choices[over]
            self.choices[phase.phase_id] = wire_action
            ours = self._commitment(replica, phase.phase_id, phase.purpose)
            assert ours is not None
            return {"t": "commit", "commitment": ours.commitment}
        if replica.waiting_for() == (self.seat,) or replica.sequencer == self.seat:
            # Nobody else can move first and make our move stale (§B3), nor can the host say it
            # did without lying: our keys of the cards the move shows can go with it (§B5).
            riding = replica.keys_riding_with_act(self.seat, replica.game.decode_action(wire_action))
            body: dict = {"t": "act", "action": wire_action}
            if riding.publish:
                body["public"], proof = self._public_items(replica, sorted(riding.publish))
                if replica.elgamal:
                    body["proof"] = proof
            if riding.seal:
                body["sealed"] = [self._sealed_item(replica, slot, to) for slot, to in sorted(riding.seal)]
            return body
        return {"t": "act", "action": wire_action}

    def restore_choice(self, phase_id: int, wire_action: Any) -> None:
        """Take back a committed choice's value saved before a restart (see :attr:`choices`)."""
        self.choices[phase_id] = wire_action

    def recall_choice(self, replica: Replica, commitment: bytes, candidates: Callable[[], Iterable[Any]]) -> Any | None:
        """Our ``commitment`` in the current commit phase, replayed after a restart: the value it
        commits to — the saved one if it does, else the first of ``candidates()`` (the step's wire
        actions) that does (the salt comes from the seed: only the value was ours to lose) — kept
        in :attr:`choices`; ``None`` (and nothing kept) if none does."""
        phase = replica.phase
        assert isinstance(phase, CommitPhase)
        saved = [self.choices[phase.phase_id]] if phase.phase_id in self.choices else []

        def values() -> Iterator[Any]:
            yield from saved
            yield from candidates()  # listed only if the saved value is not it

        for value in values():
            self.choices[phase.phase_id] = value
            if self._commitment(replica, phase.phase_id, phase.purpose).commitment == commitment:  # type: ignore[union-attr]
                return value
        self.choices.pop(phase.phase_id, None)
        return None

    def _commitment(self, replica: Replica, phase_id: int, purpose: str) -> OurCommitment | None:
        """Our commitment in phase ``phase_id`` and what opens it: a random contribution derived
        from the seed, or the choice we made (``None`` if we made none)."""
        if purpose == RANDOM_DOMAIN:
            value = random_contribution(self._secret("random", phase_id)(32))
            salt = self._secret("salt", phase_id)(32)
        elif phase_id in self.choices:
            value = self.choices[phase_id]
            salt = commitment_salt(self.escrow, phase_id)  # a rebuilt seat's opens (§B16)
        else:
            return None
        commitment, salt = commit(purpose, replica.game_id, self.seat, [phase_id, value], salt)
        return OurCommitment(commitment, salt, value)

    # -- automatic duties ----------------------------------------------------------------------

    def duty(self, replica: Replica) -> dict | None:
        """The body of the automatic submission this seat owes now, or ``None``."""
        if self.seat not in replica.waiting_for():
            return None
        phase = replica.phase
        if isinstance(phase, CommitPhase):
            if not phase.opening:
                if phase.purpose != RANDOM_DOMAIN:
                    return None  # a decision: the player must choose
                return {"t": "commit", "commitment": self._commitment(replica, phase.phase_id, phase.purpose).commitment}  # type: ignore[union-attr]
            ours = self._commitment(replica, phase.phase_id, phase.purpose)
            if ours is None:  # pragma: no cover - we committed, or we wouldn't be asked to open
                return None
            # The choice stays kept (until our next one): this opening may never be sequenced (a
            # host gone with it, whose successor's take-over took its counter) and be made again.
            return {"t": "open", "salt": ours.salt, "value": ours.value}
        if isinstance(phase, CardPhase):
            sub = phase.current
            if isinstance(sub, DealSub):
                # Deals made together: our pass of the first one where it is our turn.
                for crypto in replica.deals_under_way(sub):
                    if replica.elgamal:
                        if crypto.next_pass() == self.seat:
                            return self._elgamal_pass(replica, crypto)
                        continue
                    due = crypto.next_pass()
                    if due is not None and due[1] == self.seat:
                        escrows = dict(replica.lock_escrows_due(self.seat))
                        if due[0] in LOCKING_STAGES and crypto.deal in escrows:
                            return self.lock_escrow_body(replica, crypto.deal, escrows[crypto.deal])  # first (§B16)
                        return self._pass(replica, crypto.deal)
                return None
            if isinstance(sub, KeysSub):
                return self._keys(replica) or self._release(replica)
            if isinstance(sub, AuditSub):
                return self.audit_body(replica, sub.deals)
        return None

    def _pass(self, replica: Replica, deal: int) -> dict:
        """Our pass of ``deal``; raises :class:`ProtocolFault` if its input holds a non-point."""
        crypto = replica.deals[deal]
        stage, _ = crypto.next_pass()  # type: ignore[misc]
        try:
            return self._compute_pass(replica, crypto, deal, stage)
        except BadCardValue:
            fault = replica.bad_points_fault(deal, stage, self.seat)
            if fault is None:  # pragma: no cover - our own keys can't make a non-point
                raise
            raise ProtocolFault(fault) from None

    # -- the ElGamal deck (§B6.3) ----------------------------------------------------------------

    @cached_property
    def deck_key(self) -> int:
        """Our secret key for the game's ElGamal deals (protocol 11), drawn from our seed."""
        return deck_key_from_seed(self.seed)

    def _elgamal_pass(self, replica: Replica, crypto: ElGamalDeal) -> dict:
        """Our pass of ``crypto``: its permutation and scalars from our pass seed for the deal,
        with the shares that ride with it if we are its last holder (§B6.3). Raises
        :class:`ProtocolFault` if a pass before ours holds a card outside the group."""
        permutation, scalars = pass_randomness(pass_seed(self.escrow, crypto.deal), crypto.size)
        try:
            cards = elgamal.reencryption_pass(crypto.input_of(self.seat), crypto.joint_key, permutation, scalars)
            body: dict = {"t": "pass", "deal": crypto.deal, "cards": [[card.nonce, card.masked] for card in cards]}
            riding = replica.keys_riding_with_lock(self.seat, crypto.deal)
            if riding:
                body["public"], body["proof"] = self._public_items(
                    replica, riding, [cards[slot - crypto.first_slot].nonce for slot in riding])
        except BadCardValue:
            fault = replica.elgamal_bad_pass_fault(crypto.deal)
            if fault is None:  # pragma: no cover - our own pass can't make a card outside the group
                raise
            raise ProtocolFault(fault) from None
        return body

    def _proven_share(self, replica: Replica, slot: int, nonce: bytes | None = None) -> ProvenShare:
        """Our decryption share of ``slot``'s nonce (``nonce``: of a pass not recorded yet) with
        its proof. The proof's nonce scalar is drawn from our seed under a label naming every
        input of its challenge but our key, so it is never used for two challenges."""
        crypto, index = replica.deal_of_slot(slot)
        nonce = nonce if nonce is not None else crypto.locked[index].nonce
        context = share_context(replica.game_id, slot, self.seat)
        share, proof = elgamal.proven_decryption_share(
            self.deck_key, nonce, context, self._secret("share-proof", context, nonce)
        )
        return ProvenShare(share, proof)

    def _shares_proven(
        self, replica: Replica, slots: Sequence[int], nonces: Sequence[bytes] | None = None,
    ) -> tuple[list[bytes], bytes]:
        """Our decryption shares of ``slots``' nonces (``nonces``: of a pass not recorded yet)
        and the one proof of them all (§B6.3). Its nonce scalar is drawn from our seed under a
        label naming every input of its challenge but our key and shares (which they fix)."""
        if nonces is None:
            nonces = [crypto.locked[index].nonce for crypto, index in map(replica.deal_of_slot, slots)]
        context = shares_context(replica.game_id, self.seat, slots)
        return elgamal.proven_decryption_shares(self.deck_key, nonces, context, self._secret("shares-proof", context, *nonces))

    def _public_items(self, replica: Replica, slots: Sequence[int], nonces: Sequence[bytes] | None = None) -> tuple[list, bytes | None]:
        """Our ``public`` items of ``slots`` and the ``proof`` beside them: at an ElGamal table
        ``[slot, share]`` items and their one proof (``nonces``: see :meth:`_shares_proven`), nil
        for none; else ``[slot, lock key]`` items (and ``None``, which no body carries)."""
        if not replica.elgamal:
            return [[slot, scalar_to_bytes(self.own_lock_key(replica, slot))] for slot in slots], None
        if not slots:
            return [], None
        shares, proof = self._shares_proven(replica, slots, nonces)
        return [[slot, share] for slot, share in zip(slots, shares)], proof

    def _sealed_item(self, replica: Replica, slot: int, to: int) -> list:
        """A ``sealed`` item of ours: our share (ElGamal table) or lock key of ``slot`` sealed to ``to``."""
        if not replica.elgamal:
            return self._sealed_key(replica, slot, to)
        proven = self._proven_share(replica, slot)
        box, commitment = seal_share(
            replica.seats[to].seal, proven, sealed_share_context(replica.game_id, slot, self.seat, to),
            ephemeral_private=self._secret("seal-share", slot, to, proven.share)(32),
        )
        return [slot, to, box, commitment]

    def _compute_pass(self, replica: Replica, crypto: Any, deal: int, stage: str) -> dict:
        secret = self._deal_secret(replica, deal)
        inputs = crypto.input_of(stage, self.seat)
        verifiers: list[bytes] = []
        if stage == "rekey":
            assert secret.rekey is not None
            olds = [self.own_lock_key(replica, slot) for slot in crypto.source_slots or ()]
            for position, (owner, stand_in) in replica.rekey_stand_ins.get(deal, {}).items():
                if stand_in == self.seat:  # a rebuilt seat's key of a card it gave us comes off too
                    olds[position] = combine_keys(olds[position], self.received[crypto.source_slots[position]][owner])
            values = rekey_pass(inputs, olds, secret.rekey)
        elif stage == "shuffle":
            values = shuffle_pass(inputs, secret.shuffle, secret.permutation)
        else:
            locks = self._locks(replica, deal)
            if stage == "shuffle-lock":  # (the last holder: it permutes as it locks, §B6.1)
                inputs = [inputs[source] for source in secret.permutation]
            strip = self._lock_strip(crypto, secret)
            ahead = secret.made_ahead(strip)
            if ahead is None:
                values, verifiers = lock_pass(inputs, strip, locks)
            else:
                # What lock_pass computes, with what we made ahead (see prepare).
                verifiers, scalars = ahead
                values = transform(inputs, scalars)
            riding = replica.keys_riding_with_lock(self.seat, deal)
            if riding:  # (§B6.1: what we would publish just after the deal, published now)
                return {"t": "pass", "deal": deal, "stage": stage, "values": values, "verifiers": verifiers,
                        "public": [[slot, scalar_to_bytes(locks[slot - crypto.first_slot])] for slot in riding]}
        return {"t": "pass", "deal": deal, "stage": stage, "values": values, "verifiers": verifiers}

    def prepare(self, replica: Replica) -> bool:
        """Use idle time: draw our keys for a deal in progress, then a few slots at a time
        (:data:`PREPARE_SLOTS`) compute our verifiers and load our lock pass's scalars
        (:class:`~p2pgames.crypto.PreparedScalars`). Returns whether it did anything (call again
        while it does).

        Only while our next pass is at least two passes away, so the work (about a pass and a
        third in all) never delays our own turn; a little at a time, so a host that prepares
        between messages sequences the next one without delay. Nothing at an ElGamal table:
        its passes have nothing to make ahead.
        """
        if replica.elgamal:
            return False
        for deal, crypto in replica.deals.items():
            if self.seat not in crypto.holders or crypto.locking_pass(self.seat) in crypto.passes:
                continue
            due = crypto.next_pass()
            order = crypto.pass_order()
            mine = next(i for i, (stage, seat) in enumerate(order) if seat == self.seat and (stage, seat) not in crypto.passes)
            if due is None or mine - order.index(due) < 2:
                continue
            secret = self._deal_secret(replica, deal)
            all_locks = self._lock_keys(replica, deal)
            strip = self._lock_strip(crypto, secret)
            if all_locks is None or secret.made_ahead(strip) is not None:
                continue  # (not fixed yet: our lock escrow is still to be applied; or made)
            if secret.scalars_strip != strip:  # (begun for a deal that started again: anew)
                secret.verifiers, secret.lock_scalars = None, None
                secret.ready_verifiers, secret.ready_scalars = [], prepare_scalars(())
                secret.scalars_strip = strip
            done = len(secret.ready_verifiers)
            locks = all_locks[done : done + PREPARE_SLOTS]
            secret.ready_verifiers += lock_verifiers(locks)
            secret.ready_scalars += prepare_scalars(lock_scalars(strip, locks))
            if len(secret.ready_verifiers) == len(all_locks):
                secret.verifiers, secret.lock_scalars = secret.ready_verifiers, secret.ready_scalars
            return True
        return False

    def _lock_strip(self, crypto: Any, secret: DealSecret) -> int:
        """What our locking pass of ``crypto`` takes off as it locks: our shuffle key times our
        re-key key — only the re-key key (1 in a fresh deal) if we are its last holder, whose
        shuffle-lock pass uses no shuffle key (§B6.1)."""
        if crypto.locking_pass(self.seat)[0] == "shuffle-lock":
            return secret.rekey or 1
        return combine_keys(secret.shuffle, secret.rekey or 1)

    def _keys(self, replica: Replica) -> dict | None:
        requirement = replica.keys_requirement(self.seat)
        if requirement is None:
            return None
        public, proof = self._public_items(replica, sorted(requirement.publish))
        sealed = [self._sealed_item(replica, slot, to) for slot, to in sorted(requirement.seal)]
        if replica.elgamal:
            return {"t": "keys", "public": public, "proof": proof, "sealed": sealed}
        return {"t": "keys", "public": public, "sealed": sealed}

    def _sealed_key(self, replica: Replica, slot: int, to: int) -> list:
        """Our lock key of ``slot`` sealed to seat ``to``: a ``sealed`` item (§B6.2)."""
        key = scalar_to_bytes(self.own_lock_key(replica, slot))
        # Derived from what is sealed too: a sealing key is never used for two plaintexts.
        box = seal(
            replica.seats[to].seal, key, sealing_context(replica.game_id, slot, self.seat, to),
            ephemeral_private=self._secret("seal", slot, to, key)(32),
        )
        return [slot, to, box, sealed_commitment(key)]

    def _released_part(self, replica: Replica, seat: int, slot: int) -> ProvenShare:
        """Our part of rebuilt ``seat``'s share of ``slot`` (ElGamal table, §B16): our share of its
        deck key times the slot's nonce, proven against that share's commitment; the proof's
        nonce drawn from our seed for this part alone."""
        crypto, index = replica.deal_of_slot(slot)
        nonce = crypto.locked[index].nonce
        return released_share(self.deck_shares[seat], nonce, replica.game_id, slot, seat, self.seat,
                              self._secret("released-part", replica.game_id, seat, slot, nonce))

    def _release(self, replica: Replica) -> dict | None:
        """Our ``release`` (§B16): our shares of rebuilt seats' escrowed lock keys that this keys
        round needs, published or sealed to whoever is to see the card."""
        owed = replica.release_requirement(self.seat)
        if not owed:
            return None
        public, sealed = [], []
        if replica.elgamal:  # our parts of their shares (§B16)
            for seat, slot, to in sorted(owed, key=lambda item: (item[0], item[1], -1 if item[2] is None else item[2])):
                part = self._released_part(replica, seat, slot)
                if to is None:
                    public.append([seat, slot, part.share, part.proof])
                else:
                    box = seal(replica.seats[to].seal, part.share + part.proof,
                               released_part_context(replica.game_id, seat, slot, self.seat, to),
                               ephemeral_private=self._secret("release", seat, slot, to)(32))
                    sealed.append([seat, slot, to, box])
            return {"t": "release", "public": public, "sealed": sealed}
        for seat, slot, to in sorted(owed, key=lambda item: (item[0], item[1], -1 if item[2] is None else item[2])):
            crypto, index = replica.deal_of_slot(slot)
            held = self.lock_shares[(seat, crypto.deal)]
            share = scalar_to_bytes(held.shares[index])
            if to is None:
                public.append([seat, slot, share, held.path(index)])
            else:
                box = seal(replica.seats[to].seal, share, release_context(replica.game_id, seat, slot, self.seat, to),
                           ephemeral_private=self._secret("release", seat, slot, to)(32))
                sealed.append([seat, slot, to, box, held.path(index)])
        return {"t": "release", "public": public, "sealed": sealed}

    def absorb_release(self, replica: Replica, submission: Any, seq: int) -> Fault | None:
        """Take in a sequenced ``release``: open the shares sealed to us, and once we hold every
        share of a key (our own among them, if we hold one), learn the card (§B16). A share that
        does not open or whose path does not lead to its sender's root is its sender's
        ``bad-escrow`` (evidence: the release and our private sealing key); shares that match but
        make no key of the seat with its offset are the seat's (found by replaying the log: the
        roots and offsets are its)."""
        author = submission.seat
        touched = []
        if replica.elgamal:
            return self._absorb_released_parts(replica, submission, seq)
        for seat, slot, to, box, path in submission.body["sealed"]:
            if to != self.seat:
                continue
            crypto, index = replica.deal_of_slot(slot)
            record = replica.lock_escrows[(seat, crypto.deal)]
            share = open_released_share(record, replica.game_id, seat, slot, index, author, to, self.seal_key, box, path)
            if isinstance(share, str):
                return self._sealed_wrong(author, f"sealed a share of seat {seat}'s key for slot {slot} that {share}",
                                          seq, submission.envelope.raw)
            shares = self.released.setdefault((seat, slot), {})
            shares[author] = share
            if self.seat in record.holders:
                shares[self.seat] = self.lock_shares[(seat, crypto.deal)].shares[index]
            if len(shares) == len(record.holders):
                key = record.rebuilt_key(crypto, index, seat, shares.values())
                del self.released[(seat, slot)]
                if isinstance(key, str):
                    return Fault(seat, FaultCode.BAD_ESCROW, f"escrowed shares that {key}", seq, None, ())
                self.received.setdefault(slot, {})[seat] = key
                touched.append(slot)
        return self.learn(replica, touched)

    def _absorb_released_parts(self, replica: Replica, submission: Any, seq: int) -> Fault | None:
        """:meth:`absorb_release` at an ElGamal table: open the parts sealed to us and check
        each against its sender's commitment; with every holder's part (ours too, if we hold
        one), the rebuilt seat's share of the slot is their sum, and we may learn the card. A
        part that does not open or fails its proof is its sender's ``bad-escrow`` (evidence: the
        release and our private sealing key)."""
        author = submission.seat
        touched = []
        for seat, slot, to, box in submission.body["sealed"]:
            if to != self.seat:
                continue
            part = opened_part(replica, seat, slot, author, to, self.seal_key, box)
            if isinstance(part, str):
                return self._sealed_wrong(author, f"sealed a part of seat {seat}'s share of slot {slot} that {part}",
                                          seq, submission.envelope.raw)
            parts = self.released.setdefault((seat, slot), {})
            parts[author] = part.share
            holders = replica.escrows[seat].holders
            if self.seat in holders:
                parts[self.seat] = self._released_part(replica, seat, slot).share
            if len(parts) == len(holders):
                del self.released[(seat, slot)]
                self.received.setdefault(slot, {})[seat] = ProvenShare(elgamal.point_sum(list(parts.values())), NO_PROOF)
                touched.append(slot)
        return self.learn(replica, touched)

    def audit_body(self, replica: Replica, deals: tuple[int, ...]) -> dict:
        """Our ``audit`` of ``deals``: every key we used in those we hold (a hand-over carries
        the same keys, §B14)."""
        keys = []
        for deal in deals:
            if self.seat not in replica.deals[deal].holders:
                continue  # only a deal's holders have keys to publish
            if replica.elgamal:  # (§B6.3: our pass seed and every share, under one proof)
                crypto = replica.deals[deal]
                shares, proof = self._shares_proven(replica, list(range(crypto.first_slot, crypto.first_slot + crypto.size)))
                keys.append([deal, pass_seed(self.escrow, deal), shares, proof])
                continue
            secret = self._deal_secret(replica, deal)
            keys.append([
                deal,
                None if secret.rekey is None else scalar_to_bytes(secret.rekey),
                # (The last holder's shuffle-lock pass used no shuffle key: it shows none.)
                None if replica.deals[deal].locking_pass(self.seat)[0] == "shuffle-lock" else scalar_to_bytes(secret.shuffle),
                [scalar_to_bytes(lock) for lock in self._locks(replica, deal)],
            ])
        return {"t": "audit", "keys": keys}

    # -- key escrow (§B16) -----------------------------------------------------------------------

    def escrow_body(self, replica: Replica, holders: tuple[int, ...]) -> dict:
        """Our ``escrow``: our escrow secret split among ``holders``, each share sealed to it."""
        seal_keys = [replica.seats[holder].seal for holder in holders]
        body = escrow_body(
            self.escrow, replica.game_id, self.seat, holders, seal_keys,
            lambda holder: self._secret("escrow-seal", len(holders), holder)(32),
        )
        if replica.elgamal:  # (§B16: our deck key's split too, which the others can check sums to it)
            deck = key_escrow(self.deck_key, replica.game_id, self.seat, holders, seal_keys,
                              lambda holder: self._secret("deck-escrow-seal", list(holders), holder)(32))
            body.update(deck=list(deck.commitments), deck_boxes=list(deck.boxes))
        return body

    def absorb_escrow(self, replica: Replica, dealer: int, seq: int) -> Fault | None:
        """Take in ``dealer``'s escrow just applied: open and check the share sealed to us, if we
        hold one. A wrong one is a fault of the dealer; the evidence is its escrow and our private
        sealing key, with which anyone opens that box as we did."""
        record = replica.escrows[dealer]
        if self.seat not in record.holders:
            return None
        share = open_share(record, replica.game_id, dealer, self.seat, self.seal_key)
        if isinstance(share, str):
            return self._sealed_wrong(dealer, f"sealed an escrow share that {share}", seq, record.message)
        self.shares[dealer] = (record.seq, share)
        if record.deck is not None:
            deck_share = open_key_share(record.deck, replica.game_id, dealer, self.seat, self.seal_key)
            if isinstance(deck_share, str):
                return self._sealed_wrong(dealer, f"sealed a share of its deck key that {deck_share}", seq, record.message)
            self.deck_shares[dealer] = deck_share
        return None

    def _sealed_wrong(self, culprit: int, reason: str, seq: int, message: bytes) -> Fault:
        """``culprit`` sealed us an escrow share that is wrong: a ``bad-escrow`` proved by its
        signed ``message`` and our private sealing key, with which anyone opens it as we did."""
        return Fault(culprit, FaultCode.BAD_ESCROW, reason, seq, None, (message, self.seal_key.private_bytes()))

    def lock_escrow_body(self, replica: Replica, deal: int, holders: tuple[int, ...]) -> dict:
        """Our ``lock-escrow`` of ``deal`` among ``holders``: a fresh seed for each (§B16). The
        first one applied fixes our lock keys (the sums of the seeds' shares); a later one, to
        other holders, keeps them with its offsets."""
        size = replica.deals[deal].size
        seeds, offsets = lock_escrow_seeds(self.seed, deal, size, holders, self._deal_secret(replica, deal).locks)
        return lock_escrow_body(
            seeds, offsets, replica.game_id, self.seat, deal, size, holders,
            [replica.seats[holder].seal for holder in holders],
            lambda holder: self._secret("lock-escrow-seal", deal, len(holders), holder)(32),
        )

    def absorb_lock_escrow(self, replica: Replica, dealer: int, deal: int, seq: int) -> Fault | None:
        """Take in ``dealer``'s escrow of its lock keys in ``deal``: ours, the first of the deal,
        fixes our lock keys; of another's, open our seed and check the shares it gives against
        our root, if we hold one (a wrong one: as :meth:`absorb_escrow`)."""
        record = replica.lock_escrows[(dealer, deal)]
        if dealer == self.seat:
            secret = self._deal_secret(replica, deal)
            if secret.locks is None:
                seeds, _ = lock_escrow_seeds(self.seed, deal, record.size, record.holders, None)
                secret.locks = lock_keys_of(seeds, record.size)
            return None
        if self.seat not in record.holders:
            return None
        held = open_lock_shares(record, replica.game_id, dealer, self.seat, self.seal_key)
        if isinstance(held, str):
            return self._sealed_wrong(dealer, f"sealed a lock-escrow seed of deal {deal} that {held}", seq, record.message)
        self.lock_shares[(dealer, deal)] = held
        return None

    def rebuild_body(self, replica: Replica, seat: int) -> dict:
        """Our ``rebuild`` consent for ``seat``: our share of its current escrow, and our keys of
        the cards in its keeping that we sealed to it (§B16)."""
        escrow_seq, share = self.shares[seat]
        assert escrow_seq == replica.escrows[seat].seq, "we take in every escrow as it is applied"
        if replica.elgamal:  # (§B16: our shares, and our parts of its shares, each proven)
            sent = []
            for slot in replica.rebuild_sent_slots(self.seat, seat):
                proven = self._proven_share(replica, slot)
                sent.append([slot, proven.share, proven.proof])
            parts = []
            for slot in replica.rebuild_lock_slots(seat):
                part = self._released_part(replica, seat, slot)
                parts.append([slot, part.share, part.proof])
            return {"t": "rebuild", "seat": seat, "share": scalar_to_bytes(share), "sent": sent, "locks": parts}
        sent = [
            [slot, scalar_to_bytes(self.own_lock_key(replica, slot))]
            for slot in replica.rebuild_sent_slots(self.seat, seat)
        ]
        locks = []
        for slot in replica.rebuild_lock_slots(seat):
            crypto, index = replica.deal_of_slot(slot)
            held = self.lock_shares[(seat, crypto.deal)]
            assert held.seq == replica.lock_escrows[(seat, crypto.deal)].seq
            locks.append([slot, scalar_to_bytes(held.shares[index]), held.path(index)])
        return {"t": "rebuild", "seat": seat, "share": scalar_to_bytes(share), "sent": sent, "locks": locks}

    # -- learning hidden values ----------------------------------------------------------------

    def absorb_keys(self, replica: Replica, submission: Any, seq: int) -> Fault | None:
        """Take in a sequenced ``keys`` submission, or an act with keys (§B5): open keys sealed to
        us, learn what we can see.

        Returns a fault if a key meant for us is wrong: a sealed one — evidence: the submission and
        our private sealing key, with which anyone can open the box and check what is in it against
        the signed commitment and the verifier (it shows only what was sealed to us in this game,
        which is over) — or a published one that spoils a card we should now see (evidence: the
        submission itself).
        """
        body, author = submission.body, submission.seat
        touched = set()
        what = "share" if replica.elgamal else "key"
        for slot, to, box, commitment in body.get("sealed", ()):  # (an act's, §B5, may have none)
            if to != self.seat:
                continue
            crypto, index = replica.deal_of_slot(slot)
            problem: Any
            if replica.elgamal:
                problem = sealed_share_problem(crypto, replica.game_id, index, author, self.seal_key, box, commitment,
                                               sealed_share_context(replica.game_id, slot, author, to))
            else:
                problem = sealed_key_problem(crypto, index, author, self.seal_key, box, commitment,
                                             sealing_context(replica.game_id, slot, author, to))
            if isinstance(problem, str):
                return Fault(
                    author, FaultCode.BAD_KEY, f"sealed a {what} for slot {slot} that {problem}", seq, None,
                    (submission.envelope.raw, self.seal_key.private_bytes()),
                )
            # (A share is kept with its proof: a hand-over shows it, §B14.)
            self.received.setdefault(slot, {})[author] = problem
            touched.add(slot)
        for item in body.get("public", ()):
            touched.add(item[0])
        return self.learn(replica, touched)

    def learn(self, replica: Replica, slots: Iterable[int]) -> Fault | None:
        """Learn what ``slots`` hold where we now have every key (some were just published);
        a fault if a published key is wrong, else ``None`` (a slot whose keys are all right but
        that holds no card is marked for a dispute)."""
        for slot in sorted(set(slots)):
            if not self._try_learn(replica, slot):
                fault = replica.wrong_key_fault(slot)
                if fault is not None:
                    return fault
                self.knowledge[slot] = ""  # every key is right: a pass was wrong; we dispute
        return None

    def _try_learn(self, replica: Replica, slot: int) -> bool:
        """Decrypt ``slot`` if we hold every key; ``False`` only if that gave no card."""
        if slot in self.knowledge:
            return True
        crypto, index = replica.deal_of_slot(slot)
        if crypto.next_pass() is not None:
            return True  # not locked yet (its keys may be public already, §B6.1): nothing to read
        if replica.elgamal:
            return self._try_open(replica, slot, crypto, index)
        keys = []
        for seat in crypto.holders:
            if seat == self.seat:
                keys.append(self._locks(replica, crypto.deal)[index])
            elif seat in crypto.published[index]:
                keys.append(crypto.published[index][seat])
            elif seat in self.received.get(slot, {}):
                keys.append(self.received[slot][seat])
            else:
                return True  # still locked by someone else's key
        try:
            self.knowledge[slot] = crypto.table.name_of(unlock(crypto.locked[index], keys))
        except BadCardValue:
            return False
        return True

    def _try_open(self, replica: Replica, slot: int, crypto: ElGamalDeal, index: int) -> bool:
        """:meth:`_try_learn` at an ElGamal table: open ``slot`` if we hold every holder's share
        of it (ours, published ones, ones sealed to us)."""
        shares: dict[int, bytes] = {}
        for seat in crypto.holders:
            if seat == self.seat:
                shares[seat] = elgamal.decryption_share(self.deck_key, crypto.locked[index].nonce)
            elif seat in crypto.published[index]:
                shares[seat] = crypto.published[index][seat]
            elif seat in self.received.get(slot, {}):
                shares[seat] = self.received[slot][seat].share
            else:
                return True  # still hidden by someone else's share
        name = crypto.open_with(index, shares)
        if name is None:
            return False
        self.knowledge[slot] = name
        return True

    def undecryptable(self) -> list[int]:
        return sorted(slot for slot, name in self.knowledge.items() if name == "")

    def forget_deal(self, deal: int, slots: range) -> None:
        """Drop a retired deal's keys and knowledge."""
        self.deals.pop(deal, None)
        for dealer_deal in [key for key in self.lock_shares if key[1] == deal]:
            del self.lock_shares[dealer_deal]
        for seat_slot in [key for key in self.released if key[1] in slots]:
            del self.released[seat_slot]  # shares of a key that never came whole: gone with the deal
        for slot in slots:
            self.knowledge.pop(slot, None)
            self.received.pop(slot, None)
