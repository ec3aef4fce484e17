"""Key escrow in a session (protocol/SPEC.md §B16): what a seat's card keys derive from, their
escrows among the other seats, and the checks of both.

A seat's shuffle and re-key keys, its permutations and the salts of its choices' commitments
derive from one scalar, its *escrow secret* ``e`` (:func:`deal_keys`, :func:`commitment_salt`),
which it splits among every other seat still playing (:func:`escrow_body`, §C8's additive split
with a commitment per share), each share sealed to its holder. Its lock keys do not derive from
``e``: each is split on its own, deal by deal, before the seat locks (:func:`lock_escrow_body`), so
that the seats can rebuild the keys of the cards a vanished seat keeps without the keys of the
cards it gave away — those stay its receiver's secret. If the seat vanishes for good, all the
others together give their shares (a ``rebuild`` consent); everyone adds them up and checks the
keys against what the seat signed: its cards open, and a bot plays the seat on. Nothing here
keeps state; the replica records escrows and consents.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from p2pgames import canonical
from p2pgames.crypto import (
    CryptoError,
    SealError,
    SealKey,
    escrow_commitments,
    share_digest,
    check_share,
    open_sealed,
    random_permutation,
    random_scalar,
    scalar_from_bytes,
    scalar_to_bytes,
    seal,
    secret_stream,
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
    "lock_keys_from_seed",
    "lock_escrow_body",
    "lock_share_context",
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
    """A seat's lock keys for ``deal``, one per slot, drawn from its seed (the reference's
    choice; they don't derive from the escrow secret, §B16)."""
    draw = secret_source(seed, "lock", deal)
    return [random_scalar(draw(64)) for _ in range(size)]


def lock_share_context(game_id: bytes, dealer: int, deal: int, index: int, holder: int) -> bytes:
    """What the digest of one share of a lock key names: game, dealer, deal, position, holder."""
    return canonical.encode(["lock-share", game_id, dealer, deal, index, holder])


def _lock_box_context(game_id: bytes, dealer: int, deal: int, holder: int, holders: int) -> bytes:
    return canonical.encode(["lock-escrow", game_id, dealer, deal, holder, holders])


def lock_escrow_body(
    locks: Sequence[int], game_id: bytes, dealer: int, deal: int, holders: Sequence[int],
    seal_keys: Sequence[bytes], ephemeral: Any,
) -> dict:
    """The ``lock-escrow`` submission splitting each of ``locks`` among ``holders``: holder ``j``
    gets share ``j`` of every lock key, in one box, and everyone the digest of every share."""
    splits = [split_secret(lock, len(holders)) for lock in locks]
    digests = []
    boxes = []
    for j, (holder, seal_key) in enumerate(zip(holders, seal_keys)):
        shares = [split[j] for split in splits]
        digests.append([share_digest(share, lock_share_context(game_id, dealer, deal, index, holder))
                        for index, share in enumerate(shares)])
        boxes.append(seal(seal_key, b"".join(scalar_to_bytes(share) for share in shares),
                          _lock_box_context(game_id, dealer, deal, holder, len(holders)),
                          ephemeral_private=ephemeral(holder)))
    return {"t": LOCK_ESCROW, "deal": deal, "holders": list(holders), "digests": digests, "boxes": boxes}


@dataclass(frozen=True, slots=True)
class LockEscrowRecord:
    """A seat's current escrow of its lock keys in one deal: holders, the digest of every share
    (by holder, then position), the sealed shares, its entry and the signed submission."""

    deal: int
    holders: tuple[int, ...]
    digests: tuple[tuple[bytes, ...], ...]
    boxes: tuple[bytes, ...]
    seq: int
    message: bytes

    def matches(self, game_id: bytes, dealer: int, holder: int, index: int, share: int) -> bool:
        """Whether ``share`` is ``holder``'s share of the lock key at position ``index``."""
        digest = share_digest(share, lock_share_context(game_id, dealer, self.deal, index, holder))
        return digest == self.digests[self.holders.index(holder)][index]


def open_lock_shares(record: LockEscrowRecord, game_id: bytes, dealer: int, holder: int, seal_key: SealKey) -> list[int] | str:
    """Open ``holder``'s shares of ``record`` with its sealing key and check each against its
    digest: the shares, or what is wrong, as the end of "sealed lock-key shares that …"."""
    index = record.holders.index(holder)
    try:
        plain = open_sealed(seal_key, record.boxes[index],
                            _lock_box_context(game_id, dealer, record.deal, holder, len(record.holders)))
    except SealError:
        return "do not open"
    size = len(record.digests[index])
    if len(plain) != 32 * size:
        return f"are not {size} shares"
    shares = []
    for position in range(size):
        try:
            share = scalar_from_bytes(plain[32 * position: 32 * position + 32])
        except CryptoError:
            return "hold one that is no scalar"
        if not record.matches(game_id, dealer, holder, position, share):
            return f"do not match their digests (position {position})"
        shares.append(share)
    return shares


def release_context(game_id: bytes, seat: int, slot: int, holder: int, to: int) -> bytes:
    """What a released share sealed to ``to`` is bound to: the rebuilt seat, the slot, its
    holder (the sender) and its receiver."""
    return canonical.encode(["release-share", game_id, seat, slot, holder, to])


def open_released_share(
    record: LockEscrowRecord, game_id: bytes, seat: int, slot: int, index: int, holder: int, to: int,
    seal_key: SealKey, box: bytes,
) -> int | str:
    """Open a share of rebuilt ``seat``'s lock key at ``slot`` (position ``index`` of its deal)
    that ``holder`` sealed to ``to`` and check it against its digest: the share, or what is
    wrong, as the end of "sealed a share … that …"."""
    share = opened_scalar(seal_key, box, release_context(game_id, seat, slot, holder, to))
    if isinstance(share, int) and not record.matches(game_id, seat, holder, index, share):
        return "does not match its digest"
    return share
