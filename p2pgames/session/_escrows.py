"""Key escrow in a session (protocol/SPEC.md §B16): what a seat's card keys derive from, their
escrows among the other seats, and the checks of both.

A seat's shuffle and re-key keys, its permutations and the salts of its choices' commitments
derive from one scalar, its *escrow secret* ``e`` (:func:`deal_keys`, :func:`commitment_salt`),
which it splits among every other seat still playing (:func:`escrow_body`, §C8's additive split
with a commitment per share), each share sealed to its holder. Its lock keys do not derive from
``e``: they are escrowed deal by deal, before the seat locks (:func:`lock_escrow_body`) — each
holder gets one seed whose stream gives it a share of every key, a key is the sum of the shares
and a public offset, and everyone gets one Merkle root per holder over its shares' digests —, so
that the seats can rebuild the keys of the cards a vanished seat keeps without the keys of the
cards it gave away — those stay its receiver's secret. If the seat vanishes for good, all the
others together give their shares (a ``rebuild`` consent); everyone adds them up and checks the
keys against what the seat signed: its cards open, and a bot plays the seat on. Nothing here
keeps state; the replica records escrows and consents.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from p2pgames import canonical
from p2pgames.crypto import (
    CURVE_ORDER,
    ESCROW_SEED_SIZE,
    SealError,
    SealKey,
    check_merkle_path,
    check_share,
    escrow_commitments,
    merkle_path,
    merkle_root,
    open_sealed,
    random_permutation,
    random_scalar,
    scalar_to_bytes,
    seal,
    secret_stream,
    share_digest,
    shares_from_seed,
    split_secret,
)
from p2pgames.session._deals import SeatAuditKeys
from p2pgames.session._sealed_keys import opened_scalar

__all__ = [
    "ESCROW",
    "REBUILD",
    "SECRET_LABEL",
    "EscrowRecord",
    "DerivedDeal",
    "secret_source",
    "escrow_secret_from_seed",
    "deal_keys",
    "commitment_salt",
    "escrow_body",
    "share_context",
    "open_share",
    "LOCK_ESCROW",
    "LockEscrowRecord",
    "HeldLockShares",
    "MAX_SEED_BOX",
    "lock_keys_from_seed",
    "lock_keys_of",
    "lock_escrow_seeds",
    "lock_escrow_body",
    "lock_share_context",
    "lock_share_leaves",
    "lock_seed_context",
    "open_lock_shares",
    "release_context",
    "open_released_share",
]

ESCROW = "escrow"
LOCK_ESCROW = "lock-escrow"
REBUILD = "rebuild"
SECRET_LABEL = "p2pgames/seat-secret"
#: A sealed share: ephemeral key, 32-byte scalar, tag (80); room to spare as for a sealed key.
MAX_SHARE_BOX = 144
#: A lock escrow's box: ephemeral key, 32-byte seed, tag — exactly 80 bytes (§B16).
MAX_SEED_BOX = 80
COMMITMENT_SIZE = 33


def secret_source(key: bytes, *label: Any) -> Any:
    """The byte stream HMAC-SHA256(key, canon([SECRET_LABEL, *label]) ‖ counter) (§C5.7)."""
    return secret_stream(key, canonical.encode([SECRET_LABEL, *label]))


def escrow_secret_from_seed(seed: bytes) -> int:
    """The seat's escrow secret, drawn from its 32-byte seed (the reference's choice: others
    never learn how, only the secret itself if it is rebuilt)."""
    return random_scalar(secret_source(seed, "escrow")(64))


@dataclass(frozen=True, slots=True)
class DerivedDeal:
    """One seat's secrets for one deal, as derived from its escrow secret (§B16)."""

    rekey: int | None
    shuffle: int
    permutation: list[int]
    locks: list[int]

    def audit_keys(self) -> SeatAuditKeys:
        return SeatAuditKeys(self.rekey, self.shuffle, tuple(self.locks))


def deal_keys(escrow: int, deal: int, size: int, reshuffle: bool, locks: bool = True) -> DerivedDeal:
    """The re-key key (a re-shuffle only), shuffle key, permutation and (with ``locks``) the
    lock keys that escrow secret ``escrow`` gives ``deal``, in the order §B16 draws them. A seat
    uses those lock keys only once it is rebuilt (they are everyone's then); before, its own."""
    draw = secret_source(scalar_to_bytes(escrow), "deal", deal)
    rekey = random_scalar(draw(64)) if reshuffle else None
    shuffle = random_scalar(draw(64))
    permutation = random_permutation(size, draw(8 * size + 64))
    return DerivedDeal(rekey, shuffle, permutation, [random_scalar(draw(64)) for _ in range(size)] if locks else [])


def commitment_salt(escrow: int, phase_id: int) -> bytes:
    """The salt of the seat's commitment in choice phase ``phase_id`` (§B16)."""
    return secret_source(scalar_to_bytes(escrow), "salt", phase_id)(32)


def share_context(game_id: bytes, dealer: int, holder: int, holders: int) -> bytes:
    """What a sealed share is bound to: the game, its dealer and holder, and the split's size."""
    return canonical.encode(["escrow-share", game_id, dealer, holder, holders])


def escrow_body(
    escrow: int, game_id: bytes, dealer: int, holders: Sequence[int], seal_keys: Sequence[bytes],
    ephemeral: Any,
) -> dict:
    """The ``escrow`` submission splitting ``escrow`` among ``holders`` (their sealing keys in
    ``seal_keys``); ``ephemeral(holder)`` gives the 32 bytes of each box's ephemeral key."""
    shares = split_secret(escrow, len(holders))
    commitments = list(escrow_commitments(escrow, len(holders)))
    boxes = [
        seal(seal_key, scalar_to_bytes(share), share_context(game_id, dealer, holder, len(holders)),
             ephemeral_private=ephemeral(holder))
        for holder, seal_key, share in zip(holders, seal_keys, shares)
    ]
    return {"t": ESCROW, "holders": list(holders), "commitments": commitments, "boxes": boxes}


@dataclass(frozen=True, slots=True)
class EscrowRecord:
    """A seat's current escrow: its holders, their shares' commitments and sealed shares, the
    entry it was applied at and the signed submission (evidence should a share be wrong)."""

    holders: tuple[int, ...]
    commitments: tuple[bytes, ...]
    boxes: tuple[bytes, ...]
    seq: int
    message: bytes
    # At an ElGamal table (protocol 11): the split of its deck key among the same holders (a
    # ``_elgamal_keys.KeyEscrow``), whose shares open its cards as its key would (§B16).
    deck: Any = None

    def commitment_of(self, holder: int) -> bytes:
        return self.commitments[self.holders.index(holder)]


def open_share(record: EscrowRecord, game_id: bytes, dealer: int, holder: int, seal_key: SealKey) -> int | str:
    """Open the share of ``record`` sealed to ``holder`` (whose sealing key is ``seal_key``) and
    check it against its commitment: the share, or what is wrong with it, as the end of "sealed
    an escrow share that …". The holder and anyone given its sealing key reach the same answer."""
    index = record.holders.index(holder)
    share = opened_scalar(seal_key, record.boxes[index], share_context(game_id, dealer, holder, len(record.holders)))
    if isinstance(share, int) and not check_share(share, record.commitments[index]):
        return "does not match its commitment"
    return share


# -- lock keys, escrowed deal by deal --------------------------------------------------------------


def lock_keys_from_seed(seed: bytes, deal: int, size: int) -> list[int]:
    """A seat's lock keys for ``deal``, one per slot, drawn from its seed: the reference's choice
    at a table that escrows no lock keys (two players, or no open seats; §B16). Where they are
    escrowed, its first lock escrow of the deal fixes them instead (:func:`lock_escrow_seeds`)."""
    draw = secret_source(seed, "lock", deal)
    return [random_scalar(draw(64)) for _ in range(size)]


def lock_share_context(game_id: bytes, dealer: int, deal: int, index: int, holder: int) -> bytes:
    """What the digest of one share of a lock key names: game, dealer, deal, position, holder."""
    return canonical.encode(["lock-share", game_id, dealer, deal, index, holder])


def lock_seed_context(game_id: bytes, dealer: int, deal: int, holder: int, holders: int) -> bytes:
    """What a sealed lock-escrow seed is bound to: game, dealer, deal, holder, the escrow's size."""
    return canonical.encode(["lock-escrow", game_id, dealer, deal, holder, holders])


def lock_share_leaves(game_id: bytes, dealer: int, deal: int, holder: int, shares: Sequence[int]) -> tuple[bytes, ...]:
    """The leaves of ``holder``'s tree in ``dealer``'s lock escrow of ``deal``: each of its shares'
    digest, in slot order (§B16)."""
    return tuple(share_digest(share, lock_share_context(game_id, dealer, deal, index, holder))
                 for index, share in enumerate(shares))


def lock_keys_of(seeds: Sequence[bytes], size: int, offsets: Sequence[int] = ()) -> list[int]:
    """The lock keys a lock escrow stands for: slot ``i``'s is every holder's share there, from its
    seed, plus ``offsets[i]`` (none: all 0), mod n. A 0 among them is no key (§B16)."""
    shares = [shares_from_seed(seed, size) for seed in seeds]
    offsets = offsets or [0] * size
    return [(sum(column) + offset) % CURVE_ORDER for column, offset in zip(zip(*shares), offsets)]


def lock_escrow_seeds(
    seed: bytes, deal: int, size: int, holders: Sequence[int], keys: Sequence[int] | None,
) -> tuple[list[bytes], list[int]]:
    """The reference's seeds for its lock escrow of ``deal`` among ``holders``, one per holder, and
    the escrow's offsets (§B16). Drawn 32 bytes each, in the holders' order, from the seed's stream
    labelled ``["lock-seeds", deal, holders]`` — fresh for every set of holders, so a re-escrow
    never hands out a seed again. With ``keys`` (fixed by an earlier escrow) the offsets make the
    sums those keys; without, this is the first escrow: no offsets, and the sums are the keys —
    should one be 0 (no key), every seed is drawn again, on from where the stream stopped."""
    draw = secret_source(seed, "lock-seeds", deal, list(holders))
    while True:
        seeds = [draw(ESCROW_SEED_SIZE) for _ in holders]
        sums = lock_keys_of(seeds, size)
        if keys is not None:
            return seeds, [(key - total) % CURVE_ORDER for key, total in zip(keys, sums)]
        if all(sums):
            return seeds, []


def lock_escrow_body(
    seeds: Sequence[bytes], offsets: Sequence[int], game_id: bytes, dealer: int, deal: int, size: int,
    holders: Sequence[int], seal_keys: Sequence[bytes], ephemeral: Any,
) -> dict:
    """The ``lock-escrow`` submission giving holder ``holders[j]`` the seed ``seeds[j]`` (sealed to
    ``seal_keys[j]``, ``ephemeral(holder)`` the 32 bytes of the box's ephemeral key) and everyone
    the root of each holder's tree of shares and the ``offsets`` (§B16)."""
    roots = [merkle_root(lock_share_leaves(game_id, dealer, deal, holder, shares_from_seed(seed, size)))
             for holder, seed in zip(holders, seeds)]
    boxes = [seal(seal_key, seed, lock_seed_context(game_id, dealer, deal, holder, len(holders)),
                  ephemeral_private=ephemeral(holder))
             for holder, seal_key, seed in zip(holders, seal_keys, seeds)]
    return {"t": LOCK_ESCROW, "deal": deal, "holders": list(holders), "roots": roots,
            "offsets": [offset.to_bytes(32, "big") for offset in offsets], "boxes": boxes}


@dataclass(frozen=True, slots=True)
class LockEscrowRecord:
    """A seat's current escrow of its lock keys in one deal of ``size`` slots: holders, the root
    of each holder's tree of shares, the offsets (one per slot, or none: all 0), the sealed seeds,
    its entry and the signed submission."""

    deal: int
    size: int
    holders: tuple[int, ...]
    roots: tuple[bytes, ...]
    offsets: tuple[int, ...]
    boxes: tuple[bytes, ...]
    seq: int
    message: bytes

    def matches(self, game_id: bytes, dealer: int, holder: int, index: int, share: int, path: Sequence[bytes]) -> bool:
        """Whether ``share`` is ``holder``'s share of the lock key at position ``index``, as
        ``path`` leads its digest to the holder's root."""
        leaf = share_digest(share, lock_share_context(game_id, dealer, self.deal, index, holder))
        return check_merkle_path(leaf, index, self.size, path, self.roots[self.holders.index(holder)])

    def lock_key(self, index: int, shares: Iterable[int]) -> int:
        """The key at position ``index`` that every holder's share there (``shares``) makes with
        its offset; 0 (no key: the dealer's fault) if they add up to nothing."""
        return (sum(shares) + (self.offsets[index] if self.offsets else 0)) % CURVE_ORDER

    def rebuilt_key(self, crypto: Any, index: int, dealer: int, shares: Iterable[int]) -> int | str:
        """``dealer``'s lock key at position ``index`` of deal ``crypto`` (its
        :class:`~p2pgames.session._deals.DealCrypto`) rebuilt from every holder's share there:
        the key, or what is wrong with the escrow, as the end of "escrowed shares that …" — they
        add up to 0 (no key) or to another key than its verifier's. Either is the dealer's
        ``bad-escrow`` (§B16 steps 2 and 4)."""
        key = self.lock_key(index, shares)
        slot = crypto.first_slot + index
        if not key:
            return f"add up to 0, no lock key, for slot {slot}"
        if not crypto.check_published_key(index, dealer, key):
            return f"add up to another lock key than it used for slot {slot}"
        return key


@dataclass(frozen=True, slots=True)
class HeldLockShares:
    """A holder's shares of one lock escrow, from the seed sealed to it: the escrow's entry, one
    share per slot and their leaves (to prove any of them with its path, :meth:`path`). The seed
    itself is never published (§B16): it would give every share at once."""

    seq: int
    shares: tuple[int, ...]
    leaves: tuple[bytes, ...]

    def path(self, index: int) -> list[bytes]:
        """The path that proves the share at ``index`` against this holder's root."""
        return list(merkle_path(self.leaves, index))


def open_lock_shares(record: LockEscrowRecord, game_id: bytes, dealer: int, holder: int, seal_key: SealKey) -> HeldLockShares | str:
    """Open ``holder``'s seed of ``record`` with its sealing key and check the shares it gives
    against the holder's root: the shares, or what is wrong, as the end of "sealed a lock-escrow
    seed that …"."""
    index = record.holders.index(holder)
    try:
        seed = open_sealed(seal_key, record.boxes[index],
                           lock_seed_context(game_id, dealer, record.deal, holder, len(record.holders)))
    except SealError:
        return "does not open"
    if len(seed) != ESCROW_SEED_SIZE:
        return f"is not {ESCROW_SEED_SIZE} bytes"
    shares = shares_from_seed(seed, record.size)
    leaves = lock_share_leaves(game_id, dealer, record.deal, holder, shares)
    if merkle_root(leaves) != record.roots[index]:
        return "gives shares whose root is not the one signed"
    return HeldLockShares(record.seq, shares, leaves)


def release_context(game_id: bytes, seat: int, slot: int, holder: int, to: int) -> bytes:
    """What a released share sealed to ``to`` is bound to: the rebuilt seat, the slot, its
    holder (the sender) and its receiver."""
    return canonical.encode(["release-share", game_id, seat, slot, holder, to])


def open_released_share(
    record: LockEscrowRecord, game_id: bytes, seat: int, slot: int, index: int, holder: int, to: int,
    seal_key: SealKey, box: bytes, path: Sequence[bytes],
) -> int | str:
    """Open a share of rebuilt ``seat``'s lock key at ``slot`` (position ``index`` of its deal)
    that ``holder`` sealed to ``to`` and check it with ``path`` against the holder's root: the
    share, or what is wrong, as the end of "sealed a share … that …"."""
    share = opened_scalar(seal_key, box, release_context(game_id, seat, slot, holder, to))
    if isinstance(share, int) and not record.matches(game_id, seat, holder, index, share, path):
        return "its path does not lead to its root"
    return share
