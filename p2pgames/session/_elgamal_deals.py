"""The public record of one deal by the ElGamal deck (SPEC §C9), and the checks every peer makes
on it: what ``_deals.DealCrypto`` is for today's deck (§C5).

Protocol 11 deals with it (§B6.3). Its shape:

* a deal is one *re-encryption pass* per holder, in seat order (a re-shuffle too: every deal with
  the same holders has the same joint key, the sum of the holders' keys for the game, so there is
  no re-key stage). A holder's permutation and scalars come from its *pass seed* for the deal
  (:func:`pass_randomness`), which the audit publishes;
* a slot opens with every holder's decryption share of its nonce: published, the shares of one
  submission under one proof (:func:`shares_context`; checked by every peer on the entry), or
  sealed to the seat that may see it, each with its own share proof (checked by that seat on
  opening). Who owes what to whom is §B6.2's rule with shares for keys;
* the audit recomputes every pass from its author's seed (the first wrong one names its author,
  ``bad-pass``), checks every holder's audit shares of the deal against their one proof
  (``bad-key``) and every sealed share against the commitment its sender signed (``bad-key``),
  and then opens every slot.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Sequence

from p2pgames import canonical
from p2pgames.crypto import (
    CryptoError,
    SealError,
    SealKey,
    elgamal,
    open_sealed,
    random_permutation,
    seal,
    sealed_commitment,
    secret_stream,
)

from ._deals import PassProblem, slot_books

__all__ = [
    "AuditShares",
    "ElGamalDeal",
    "ProvenShare",
    "SealedShare",
    "pass_randomness",
    "share_context",
    "shares_context",
    "seal_share",
    "sealed_share_problem",
    "sealed_share_context",
    "PASS_SEED_SIZE",
]

#: A holder's pass seed for one deal (the audit publishes it).
PASS_SEED_SIZE = 32
#: The proof a rebuilt holder's share is recorded with: none (it is a sum of proven parts).
NO_PROOF = bytes(elgamal.PROOF_SIZE)


def pass_randomness(seed: bytes, size: int) -> tuple[list[int], list[int]]:
    """``(permutation, scalars)`` of a pass over ``size`` cards from its 32-byte pass seed.

    The permutation is :func:`~p2pgames.crypto.random_permutation` of ``8·size + 64`` bytes of the
    stream ``HMAC-SHA256(seed, canon(["p2pgames/pass", "permutation"]) ‖ counter)``; the scalars,
    one per output position, are drawn from the stream labelled ``"scalars"`` the same way, each
    as :func:`~p2pgames.crypto.elgamal.draw_scalar` draws it. Raises
    :class:`~p2pgames.crypto.CryptoError` if ``seed`` is not 32 bytes.
    """
    permutation_bytes = secret_stream(seed, canonical.encode(["p2pgames/pass", "permutation"]))(8 * size + 64)
    scalars = secret_stream(seed, canonical.encode(["p2pgames/pass", "scalars"]))
    return random_permutation(size, permutation_bytes), [elgamal.draw_scalar(scalars) for _ in range(size)]


def share_context(game_id: bytes, slot: int, seat: int) -> bytes:
    """What a share proof of ``seat``'s share of ``slot`` is bound to: ``canon(["share", game_id,
    slot, seat])``, so it proves nothing for another game, slot or seat."""
    return canonical.encode(["share", game_id, slot, seat])


def shares_context(game_id: bytes, seat: int, slots: Sequence[int]) -> bytes:
    """What the one proof of ``seat``'s shares of ``slots`` (in that order) is bound to:
    ``canon(["shares", game_id, seat, [slot …]])`` (§B6.3)."""
    return canonical.encode(["shares", game_id, seat, list(slots)])


@dataclass(frozen=True, slots=True)
class AuditShares:
    """A holder's audit publication of one deal (§B6.3): its pass seed, its share of every slot
    in order, and one proof for them all (:func:`shares_context`); ``proof`` is ``None`` for a
    rebuilt seat's, whose shares are sums of parts proven as they came (§B16.6)."""

    seed: bytes
    shares: tuple[bytes, ...]
    proof: bytes | None

    def __post_init__(self) -> None:
        if type(self.seed) is not bytes or len(self.seed) != PASS_SEED_SIZE:
            raise ValueError(f"a pass seed is {PASS_SEED_SIZE} bytes")
        if not all(type(share) is bytes and len(share) == elgamal.POINT_SIZE for share in self.shares):
            raise ValueError(f"a share is a {elgamal.POINT_SIZE}-byte point")
        if self.proof is not None and (type(self.proof) is not bytes or len(self.proof) != elgamal.PROOF_SIZE):
            raise ValueError(f"a proof is {elgamal.PROOF_SIZE} bytes")


@dataclass(frozen=True, slots=True)
class ProvenShare:
    """A holder's decryption share of a slot's nonce, with its share proof (SPEC §C9.3)."""

    share: bytes
    proof: bytes

    def __post_init__(self) -> None:
        if type(self.share) is not bytes or len(self.share) != elgamal.POINT_SIZE:
            raise ValueError(f"a share is a {elgamal.POINT_SIZE}-byte point")
        if type(self.proof) is not bytes or len(self.proof) != elgamal.PROOF_SIZE:
            raise ValueError(f"a share proof is {elgamal.PROOF_SIZE} bytes")


def seal_share(
    recipient_public: bytes, proven: ProvenShare, context: bytes, ephemeral_private: bytes | None = None
) -> tuple[bytes, bytes]:
    """``(box, commitment)``: ``proven`` (share ‖ proof, 96 bytes) sealed to the recipient's
    sealing key and bound to ``context`` (§C6: a box of 144 bytes, today's largest), and the
    commitment its sender signs, ``sealed_commitment(share)``. The commitment is of the share
    alone: it is the same whichever proof comes with it, so the audit's share of the slot, with a
    proof of its own, is checked against it. ``ephemeral_private`` (§C6.1) makes the box again
    byte for byte after a restart; it must be drawn for this share and receiver alone."""
    box = seal(recipient_public, proven.share + proven.proof, context, ephemeral_private)
    return box, sealed_commitment(proven.share)


def sealed_share_context(game_id: bytes, slot: int, sender: int, to: int) -> bytes:
    """What a share sealed by ``sender`` to ``to`` for ``slot`` is bound to:
    ``canon(["sealed-share", game_id, slot, sender, to])``."""
    return canonical.encode(["sealed-share", game_id, slot, sender, to])


def sealed_share_problem(
    deal: "ElGamalDeal", game_id: bytes, index: int, sender: int, seal_key: SealKey, box: bytes,
    commitment: bytes, context: bytes,
) -> ProvenShare | str:
    """Open a share ``sender`` sealed to ``seal_key``'s owner for position ``index`` of ``deal``,
    and check it: the share if it is right, else what is wrong with it, as the end of "sealed a
    share of slot N that …". The recipient and anyone holding its sealing key (a fault's
    evidence, as for a sealed key today, §B6.2) reach the same answer."""
    try:
        plain = open_sealed(seal_key, box, context)
    except SealError:
        return "does not open"
    if len(plain) != elgamal.POINT_SIZE + elgamal.PROOF_SIZE:
        return "is no share and proof"
    proven = ProvenShare(plain[: elgamal.POINT_SIZE], plain[elgamal.POINT_SIZE :])
    if sealed_commitment(proven.share) != commitment:
        return "is not the share it committed to"
    if not deal.share_holds(game_id, index, sender, proven):
        return "fails its proof"
    return proven


@dataclass(frozen=True, slots=True)
class SealedShare:
    """A share seat ``sender`` sealed to seat ``to`` for a slot, with the commitment it signed
    (``sealed_commitment`` of the share) and the entry that carried it."""

    sender: int
    to: int
    commitment: bytes
    seq: int


@dataclass
class ElGamalDeal:
    """Everything public about one deal by the ElGamal deck, as the log built it.

    ``keys`` is every seat's public key for the game, by seat; ``inputs`` the deck before the
    first pass (the card points as ``(identity, point)`` for a fresh deal, the source slots'
    ciphertexts for a re-shuffle); ``table`` the cards it may hold.
    """

    deal: int
    first_slot: int
    players: int
    table: elgamal.CardTable
    inputs: list[elgamal.Ciphertext]
    keys: tuple[bytes, ...]
    source_slots: tuple[int, ...] | None = None
    holders: tuple[int, ...] = ()  # the seats that make its passes, in seat order; () = all
    passes: dict[int, list[elgamal.Ciphertext]] = field(default_factory=dict)
    pass_messages: dict[int, bytes] = field(default_factory=dict)  # the signed submissions
    published: list[dict[int, bytes]] = field(default_factory=list)  # slot → holder → its share
    published_in: list[dict[int, bytes]] = field(default_factory=list)
    sealed: list[list[SealedShare]] = field(default_factory=list)
    unreleased: list[set[int]] = field(default_factory=list)
    knows: list[set[int]] = field(default_factory=list)
    audits: dict[int, AuditShares] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.holders:
            self.holders = tuple(range(self.players))
        self.published, self.published_in, self.sealed, self.unreleased, self.knows = slot_books(
            self.holders, len(self.inputs)
        )

    @classmethod
    def fresh(
        cls, deal: int, first_slot: int, players: int, table: elgamal.CardTable, keys: Sequence[bytes],
        holders: tuple[int, ...] = (),
    ) -> "ElGamalDeal":
        """A ``NewDeal``: its inputs are its card points, in the table's order, not yet encrypted."""
        return cls(deal, first_slot, players, table, elgamal.open_deck(table.points), tuple(keys), holders=holders)

    # -- passes --------------------------------------------------------------------------------

    @property
    def size(self) -> int:
        return len(self.inputs)

    @property
    def audited(self) -> bool:
        """Whether every holder's audit publication is in (the deal's audit is complete)."""
        return len(self.audits) == len(self.holders)

    @property
    def last_holder(self) -> int:
        """The holder that makes the deal's last pass (the shares of its cards can ride with it)."""
        return self.holders[-1]

    def bad_point(self, seat: int) -> int | None:
        """The first position of holder ``seat``'s pass whose nonce or masked card is no point of
        the group (:func:`~p2pgames.crypto.elgamal.is_valid_point`), if any: that pass is wrong,
        as anyone can see from it alone."""
        return next((position for position, card in enumerate(self.passes.get(seat, ()))
                     if not (elgamal.is_valid_point(card.nonce) and elgamal.is_valid_point(card.masked))), None)

    @cached_property
    def joint_key(self) -> bytes:
        """The sum of the holders' keys: what every pass re-encrypts under."""
        return elgamal.combine_public_keys([self.keys[seat] for seat in self.holders])

    def next_pass(self) -> int | None:
        """The holder whose pass is due, or ``None`` once every holder has made its pass."""
        return next((seat for seat in self.holders if seat not in self.passes), None)

    def next_holder(self) -> int | None:
        """:meth:`next_pass` (the name both decks' deals answer to)."""
        return self.next_pass()

    def input_of(self, seat: int) -> list[elgamal.Ciphertext]:
        """The deck holder ``seat``'s pass starts from: the previous holder's pass, or the inputs."""
        position = self.holders.index(seat)
        return self.inputs if position == 0 else self.passes[self.holders[position - 1]]

    @property
    def locked(self) -> list[elgamal.Ciphertext]:
        """Every slot's ciphertext after the last pass."""
        return self.passes[self.holders[-1]]

    def check_pass(self, seat: int, cards: Sequence[object]) -> list[elgamal.Ciphertext]:
        """A pass's cards as ciphertexts, once its shape is checked; raises :class:`PassProblem`
        if it is not ``seat``'s turn, has not one card per slot, a card that is not two 32-byte
        canonical encodings, or a card twice. Whether its points are on the curve shows when the
        next pass adds to them, and whether its nonces are in the group when a share is made."""
        if self.next_pass() != seat:
            raise PassProblem(f"a pass from seat {seat} is not due (next: {self.next_pass()})")
        if len(cards) != self.size:
            raise PassProblem(f"a pass has {len(cards)} cards for {self.size} slots")
        try:
            read = elgamal.read_deck(cards)
        except CryptoError as error:
            raise PassProblem(f"a pass's {error}") from None
        if len(set(read)) != len(read):
            raise PassProblem("a pass repeats a card")
        return read

    def record_pass(self, seat: int, cards: Sequence[elgamal.Ciphertext], message: bytes) -> None:
        self.passes[seat] = list(cards)
        self.pass_messages[seat] = message

    # -- shares --------------------------------------------------------------------------------

    def share_holds(self, game_id: bytes, index: int, seat: int, share: ProvenShare) -> bool:
        """Whether ``share`` is holder ``seat``'s decryption share of slot ``index``'s nonce, as
        its own proof shows (never for a non-holder). Never raises."""
        if seat not in self.holders or not 0 <= index < self.size:
            return False
        return elgamal.check_decryption_share(
            self.keys[seat], self.locked[index].nonce, share.share, share.proof,
            share_context(game_id, self.first_slot + index, seat),
        )

    def audit_shares_hold(self, game_id: bytes, seat: int, audit: AuditShares) -> bool:
        """Whether ``audit``'s shares are holder ``seat``'s shares of every slot, in order, as its
        one proof shows (:func:`shares_context`). Never raises."""
        return (seat in self.holders and audit.proof is not None and elgamal.check_decryption_shares(
            self.keys[seat], [card.nonce for card in self.locked], audit.shares, audit.proof,
            shares_context(game_id, seat, range(self.first_slot, self.first_slot + self.size)),
        ))

    def publish(self, index: int, seat: int, share: bytes, message: bytes) -> None:
        """Record a published share (the caller has checked it: its proof held)."""
        self.published[index][seat] = share
        self.published_in[index][seat] = message
        self.unreleased[index].discard(seat)

    def known_share(self, index: int, seat: int) -> bytes | None:
        """Holder ``seat``'s share of slot ``index`` if it is public (published, or in its
        audit), else ``None``."""
        if seat in self.published[index]:
            return self.published[index][seat]
        if seat in self.audits:
            return self.audits[seat].shares[index]
        return None

    def record_sealed(self, index: int, sealed: SealedShare) -> None:
        self.sealed[index].append(sealed)

    def open_with(self, index: int, shares: dict[int, bytes]) -> str | None:
        """The card of slot ``index`` given every holder's share of it (each checked), or ``None``
        if it opens to no card of the deal (then a pass was wrong: a dispute, §B7)."""
        try:
            return self.table.name_of(elgamal.decrypt(self.locked[index], [shares[seat] for seat in self.holders]))
        except CryptoError:
            return None

    def value_if_public(self, index: int) -> str:
        """The card of a slot whose every share is published; raises :class:`PassProblem` if it
        opens to no card."""
        name = self.open_with(index, dict(self.published[index]))
        if name is None:
            raise PassProblem(f"slot {self.first_slot + index} does not open to a card")
        return name

    # -- audit ---------------------------------------------------------------------------------

    def check_audit(self, seat: int, audit: AuditShares) -> None:
        """Check a holder's audit publication's shape, and that every share it published before
        is the one it publishes now; raises :class:`PassProblem`."""
        if seat not in self.holders:
            raise PassProblem(f"seat {seat} holds no key in deal {self.deal}")
        if len(audit.shares) != self.size:
            raise PassProblem(f"{len(audit.shares)} shares for {self.size} slots")
        for index, share in enumerate(audit.shares):
            published = self.published[index].get(seat)
            if published is not None and published != share:
                raise PassProblem(f"its share of slot {self.first_slot + index} differs from the one it published")

    def record_audit(self, seat: int, audit: AuditShares) -> None:
        self.audits[seat] = audit

    def audit(self, game_id: bytes) -> tuple[int, str, str] | None:
        """Check the deal with every holder's audit publication: its passes in order, then its
        audit shares, then the shares sealed during the deal.

        Returns ``None`` if all is consistent, else ``(seat, fault code, what was wrong)`` for the
        first bad item: a pass that its seed does not give (``"bad-pass"``), an audit share whose
        proof fails (``"bad-key"``), a sealed share that was not the sender's share
        (``"bad-key"``).
        """
        for seat in self.holders:
            permutation, scalars = pass_randomness(self.audits[seat].seed, self.size)
            try:
                bad = elgamal.check_reencryption_pass(
                    self.input_of(seat), self.passes[seat], self.joint_key, permutation, scalars
                )
            except CryptoError as error:
                return seat, "bad-pass", f"its pass of deal {self.deal} can't be remade from its seed ({error})"
            if bad is not None:
                return seat, "bad-pass", (
                    f"its pass of deal {self.deal} is not the one its seed gives (first wrong card at position {bad})"
                )
        for seat in self.holders:
            if self.audits[seat].proof is None:
                continue  # (a rebuilt seat's: each share was checked as it was published, §B16.6)
            if not self.audit_shares_hold(game_id, seat, self.audits[seat]):
                return seat, "bad-key", f"its audit shares of deal {self.deal} fail their proof"
        for index, sealed_shares in enumerate(self.sealed):
            for sealed in sealed_shares:
                if sealed_commitment(self.audits[sealed.sender].shares[index]) != sealed.commitment:
                    return sealed.sender, "bad-key", (
                        f"the share it sealed to seat {sealed.to} for slot {self.first_slot + index} was not its share"
                    )
        return None

    def all_values(self) -> dict[int, str | None]:
        """Every slot's card from the audit shares (after a clean :meth:`audit`); ``None`` for a
        slot that opens to no card."""
        return {
            self.first_slot + index: self.open_with(
                index, {seat: self.audits[seat].shares[index] for seat in self.holders}
            )
            for index in range(self.size)
        }
