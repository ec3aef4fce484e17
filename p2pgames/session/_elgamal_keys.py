"""A seat's key for the ElGamal deck (SPEC §C9), its escrow, and the shares released for it once
it is rebuilt: what ``_escrows`` is for today's lock keys.

Used by the replica at protocol 11 (§B16.6). Its shape:

* each seat has one secret key ``x`` for the game, drawn from its seed — not from its escrow
  secret, which the others rebuild when the seat is gone — and publishes ``x·G`` with a key proof
  in its seat record, bound to its signing key (:func:`key_context`): a seat says hello before
  the game has an id;
* its passes come from pass seeds its escrow secret gives (:func:`pass_seed`), so a rebuilt seat's
  passes are computed by every peer, as its shuffle keys are today;
* ``x`` is split among the other seats (:func:`key_escrow`): each holder gets one share, sealed,
  and everyone checks that the shares' commitments sum to the seat's key;
* once the seat is rebuilt, what it owes for a slot is released by its escrow's holders: each
  its share's decryption share of the slot's nonce, proven against its commitment
  (:func:`released_share`, :func:`released_share_holds`); their sum is the seat's own share
  (:func:`~p2pgames.crypto.elgamal.point_sum`). ``x`` is never rebuilt, so the cards the seat gave
  away stay with their receivers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from p2pgames import canonical
from p2pgames.crypto import CryptoError, SealError, SealKey, elgamal, open_sealed, scalar_to_bytes, seal

from ._elgamal_deals import PASS_SEED_SIZE, ProvenShare
from ._escrows import secret_source

__all__ = [
    "KeyEscrow",
    "deck_key_from_seed",
    "deck_key_record",
    "key_context",
    "pass_seed",
    "key_escrow",
    "key_share_context",
    "open_key_share",
    "released_share",
    "released_share_holds",
    "release_context",
    "released_part_context",
    "opened_part",
]


def deck_key_from_seed(seed: bytes) -> int:
    """The seat's secret key for the game's deals, drawn from its 32-byte seed (label
    ``["p2pgames/seat-secret", "deck-key"]``; the reference's choice, others never see how)."""
    return elgamal.draw_scalar(secret_source(seed, "deck-key"))


def key_context(signing_key: bytes) -> bytes:
    """What a seat's key proof is bound to: ``canon(["deck-key", signing key])``, the Ed25519
    public key its seat record names, so another seat can't present the key as its own (it
    could not make the proof for its own signing key without the secret)."""
    return canonical.encode(["deck-key", signing_key])


def deck_key_record(seed: bytes, signing_key: bytes) -> list[bytes]:
    """``[deck key, key proof]`` of the seat whose seed is ``seed``, as its hello and seat record
    carry them (§A4), the proof bound to its signing key (:func:`key_context`). The proof's
    nonce scalar is drawn from the seed for this context, so the proof is the same however often
    it is made (one challenge, one nonce)."""
    secret, context = deck_key_from_seed(seed), key_context(signing_key)
    return [elgamal.public_key(secret), elgamal.prove_key(secret, context, secret_source(seed, "deck-key-proof", context))]


def pass_seed(escrow_secret: int, deal: int) -> bytes:
    """The seat's pass seed for ``deal``: the first 32 bytes of ``D("pass", deal)``, the escrow
    secret's stream (§B16), which the others recompute once the seat is rebuilt."""
    return secret_source(scalar_to_bytes(escrow_secret), "pass", deal)(PASS_SEED_SIZE)


def key_share_context(game_id: bytes, dealer: int, holder: int, holders: int) -> bytes:
    """What a sealed share of a seat's key is bound to: the game, its dealer and holder, and the
    split's size."""
    return canonical.encode(["deck-key-share", game_id, dealer, holder, holders])


@dataclass(frozen=True, slots=True)
class KeyEscrow:
    """A seat's key split among ``holders``: each holder's share's commitment, and its share
    sealed to it (the box), in the holders' order."""

    holders: tuple[int, ...]
    commitments: tuple[bytes, ...]
    boxes: tuple[bytes, ...]

    def check_commitments(self, key: bytes) -> bool:
        """Whether the commitments sum to the dealer's key, so the shares open what it opens.
        Anyone checks this at once."""
        return len(self.commitments) == len(self.holders) and elgamal.check_key_split(key, self.commitments)

    def commitment_of(self, holder: int) -> bytes:
        return self.commitments[self.holders.index(holder)]


def key_escrow(
    secret: int, game_id: bytes, dealer: int, holders: Sequence[int], seal_keys: Sequence[bytes],
    ephemeral: Callable[[int], bytes] | None = None,
) -> KeyEscrow:
    """Split ``secret`` among ``holders`` (:func:`~p2pgames.crypto.elgamal.split_key`) and seal
    each share to its holder's sealing key (``seal_keys``, in the holders' order);
    ``ephemeral(holder)``, if given, the 32 bytes of that box's ephemeral key (§C6.1)."""
    holders = tuple(holders)
    shares = elgamal.split_key(secret, len(holders))
    boxes = tuple(
        seal(seal_key, elgamal.scalar_to_bytes(share), key_share_context(game_id, dealer, holder, len(holders)),
             None if ephemeral is None else ephemeral(holder))
        for holder, seal_key, share in zip(holders, seal_keys, shares)
    )
    return KeyEscrow(holders, tuple(elgamal.key_share_commitments(shares)), boxes)


def open_key_share(escrow: KeyEscrow, game_id: bytes, dealer: int, holder: int, seal_key: SealKey) -> int | str:
    """The share of ``dealer``'s key sealed to ``holder``, checked against its commitment: the
    share, else what is wrong with it, as the end of "escrowed a share that …"."""
    position = escrow.holders.index(holder)
    context = key_share_context(game_id, dealer, holder, len(escrow.holders))
    try:
        share = elgamal.scalar_from_bytes(open_sealed(seal_key, escrow.boxes[position], context))
    except SealError:
        return "does not open"
    except CryptoError:
        return "is no scalar"
    if elgamal.public_key(share) != escrow.commitments[position]:
        return "does not match its commitment"
    return share


def release_context(game_id: bytes, slot: int, dealer: int, holder: int) -> bytes:
    """What a released share's proof is bound to: ``canon(["released-share", game_id, slot,
    dealer, holder])``."""
    return canonical.encode(["released-share", game_id, slot, dealer, holder])


def released_share(
    share: int, nonce: bytes, game_id: bytes, slot: int, dealer: int, holder: int, rng_bytes: bytes | None = None,
) -> ProvenShare:
    """``holder``'s part of rebuilt seat ``dealer``'s decryption share of ``slot``: its key share
    times the slot's nonce, proven against the share's commitment."""
    context = release_context(game_id, slot, dealer, holder)
    return ProvenShare(*elgamal.proven_decryption_share(share, nonce, context, rng_bytes))


def released_part_context(game_id: bytes, seat: int, slot: int, holder: int, to: int) -> bytes:
    """What a part of rebuilt ``seat``'s share of ``slot``, sealed by ``holder`` to ``to``, is
    bound to: ``canon(["released-part", game_id, seat, slot, holder, to])``."""
    return canonical.encode(["released-part", game_id, seat, slot, holder, to])


def opened_part(
    replica: Any, seat: int, slot: int, holder: int, to: int, seal_key: SealKey, box: bytes,
) -> ProvenShare | str:
    """The part of rebuilt ``seat``'s share of ``slot`` that ``holder`` sealed to ``to`` (whose
    sealing key is ``seal_key``), checked as ``replica.released_part_holds`` checks a published
    one: the part, else what is wrong with it, as the end of "sealed a part … that …"."""
    try:
        plain = open_sealed(seal_key, box, released_part_context(replica.game_id, seat, slot, holder, to))
    except SealError:
        return "does not open"
    if len(plain) != elgamal.POINT_SIZE + elgamal.PROOF_SIZE:
        return "is no part and proof"
    part = ProvenShare(plain[: elgamal.POINT_SIZE], plain[elgamal.POINT_SIZE :])
    if not replica.released_part_holds(seat, slot, holder, part):
        return "fails its proof"
    return part


def released_share_holds(
    escrow: KeyEscrow, released: ProvenShare, nonce: bytes, game_id: bytes, slot: int, dealer: int, holder: int,
) -> bool:
    """Whether ``released`` is ``holder``'s part of ``dealer``'s share of ``slot``, as its proof
    shows against ``holder``'s commitment in ``escrow``. Never raises."""
    if holder not in escrow.holders:
        return False
    context = release_context(game_id, slot, dealer, holder)
    return elgamal.check_decryption_share(escrow.commitment_of(holder), nonce, released.share, released.proof, context)
