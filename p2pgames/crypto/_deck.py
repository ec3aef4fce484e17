"""The mental-poker deck: commutative encryption of cards as P-256 x-coordinates.

A card is a P-256 point whose discrete logarithm nobody knows, and travels as the 32-byte big-endian
x-coordinate of that point. Encrypting ``x`` with a scalar ``k`` gives the x-coordinate of ``k·P``
where ``P`` is either point with that x-coordinate: ``k·(−P) = −(k·P)`` has the same x-coordinate,
so the operation is well defined on x-coordinates alone. Scalars multiply, so encryptions commute
and ``k⁻¹ mod n`` decrypts. All point arithmetic is the library's ECDH ``exchange``; where several
scalars apply to one card they are multiplied first, so each card costs one exchange per pass.

Dealing, in the session's terms: every peer in turn runs :func:`shuffle_pass` (one secret shuffle
key, a secret permutation), then every peer in turn runs :func:`lock_pass` (strips its shuffle key,
applies a fresh lock key per slot and publishes a verifier per key). A slot's value is then
``x(L·C)`` for its card ``C`` and the product ``L`` of all peers' lock keys for that slot;
:func:`unlock` with all of them gives the card, which :class:`CardTable` names.

Audit checks (:func:`check_shuffle_pass`, :func:`check_reshuffle_pass`, :func:`check_lock_pass`)
return ``None`` when a pass is consistent with the keys its author published, else the index of the
first output item that is not — so the session can name the cheater and the slot.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
from collections import Counter
from collections.abc import Sequence

from cryptography.hazmat.primitives.asymmetric import ec

from .. import canonical
from ..words import with_article
from . import _domains
from ._errors import BadCardValue, CryptoError
from ._random import ByteSource

__all__ = [
    "PreparedScalars",
    "prepare_scalars",
    "combine_keys",
    "lock_scalars",
    "lock_verifiers",
    "rekey_scalars",
    "rekey_pass",
    "CURVE_ORDER",
    "FIELD_PRIME",
    "CARD_VALUE_SIZE",
    "VERIFIER_BASE",
    "CardTable",
    "card_point",
    "random_scalar",
    "random_permutation",
    "scalar_to_bytes",
    "scalar_from_bytes",
    "encrypt",
    "transform",
    "shuffle_pass",
    "reshuffle_pass",
    "lock_pass",
    "shuffle_lock_pass",
    "unlock",
    "check_lock_key",
    "check_shuffle_pass",
    "check_reshuffle_pass",
    "check_lock_pass",
    "check_shuffle_lock_pass",
]

#: n, the order of the P-256 group: scalars live in [1, n−1].
CURVE_ORDER = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
#: p, the prime of the field P-256 is defined over.
FIELD_PRIME = 2**256 - 2**224 + 2**192 + 2**96 - 1
CARD_VALUE_SIZE = 32
SCALAR_SIZE = 32

_CURVE = ec.SECP256R1()
_ECDH = ec.ECDH()


# --- scalars --------------------------------------------------------------------------------------


def _check_scalar(k: int, what: str = "scalar") -> int:
    if type(k) is not int:
        raise TypeError(f"{what} must be an int, not {type(k).__name__}")
    if not 0 < k < CURVE_ORDER:
        raise CryptoError(f"{what} is outside [1, n−1]: {k:#x}")
    return k


def _inverse(k: int) -> int:
    return _remembered_inverse(k) if REMEMBERED_PRODUCTS else _remembered_inverse.__wrapped__(k)


@functools.lru_cache(maxsize=1 << 12)
def _remembered_inverse(k: int) -> int:
    # 23 µs each, and a peer inverts the same scalars again: the audit unlocks each slot shown
    # before with the product it was shown with, and the audit's checks and the check of the
    # transcript at the table's end invert the keys the passes were made with. Kept beside the
    # products, and off with them (nothing_remembered).
    return pow(k, -1, CURVE_ORDER)


def random_scalar(rng_bytes: bytes | None = None) -> int:
    """A uniformly random scalar in [1, n−1].

    Draws 32-byte big-endian candidates (from ``os.urandom``, or front to back from ``rng_bytes``)
    and returns the first in range. Raises :class:`CryptoError` if ``rng_bytes`` runs out first.
    """
    source = ByteSource(rng_bytes)
    while True:
        candidate = int.from_bytes(source.take(SCALAR_SIZE), "big")
        if 0 < candidate < CURVE_ORDER:
            return candidate


def scalar_to_bytes(k: int) -> bytes:
    """``k`` as 32 big-endian bytes, the form scalars take in messages and vectors.

    Raises :class:`CryptoError` if ``k`` is outside [1, n−1].
    """
    return _check_scalar(k).to_bytes(SCALAR_SIZE, "big")


def scalar_from_bytes(data: bytes) -> int:
    """The scalar held in 32 big-endian bytes.

    Raises :class:`CryptoError` unless ``data`` is 32 bytes encoding a value in [1, n−1].
    """
    if not isinstance(data, bytes) or len(data) != SCALAR_SIZE:
        raise CryptoError(f"a scalar is {SCALAR_SIZE} bytes")
    return _check_scalar(int.from_bytes(data, "big"))


def random_permutation(n: int, rng_bytes: bytes | None = None) -> list[int]:
    """A uniformly random permutation of ``range(n)``.

    Fisher–Yates: for ``i`` from ``n−1`` down to 1, swap item ``i`` with item ``j``, ``j`` uniform
    in [0, i] by rejection sampling of 4-byte big-endian draws (from ``os.urandom`` or
    ``rng_bytes``). Raises :class:`CryptoError` if ``rng_bytes`` runs out.
    """
    if type(n) is not int or not 0 <= n < 2**32:
        raise ValueError(f"can't permute {n!r} items")
    source = ByteSource(rng_bytes)
    items = list(range(n))
    for i in range(n - 1, 0, -1):
        bound = i + 1
        limit = 2**32 - 2**32 % bound  # largest multiple of bound: keeps r % bound unbiased
        while True:
            r = int.from_bytes(source.take(4), "big")
            if r < limit:
                break
        j = r % bound
        items[i], items[j] = items[j], items[i]
    return items


# --- card values ----------------------------------------------------------------------------------


def _lift(x: bytes, index: int | None = None) -> ec.EllipticCurvePublicKey:
    """The point card value ``x`` stands for (either one); raises :class:`BadCardValue` naming
    ``index`` if ``x`` is no card value."""
    if type(x) is not bytes or len(x) != CARD_VALUE_SIZE:
        shown = f"{len(x)} bytes" if isinstance(x, bytes) else with_article(type(x).__name__)
        raise BadCardValue(f"a card value is {CARD_VALUE_SIZE} bytes, got {shown}", index)
    point = _point_of(x)
    if point is None:
        raise BadCardValue(f"{x.hex()} is not the x-coordinate of a P-256 point", index)
    return point


def _point_of(x: bytes) -> ec.EllipticCurvePublicKey | None:
    return _remembered_point(x) if REMEMBERED_PRODUCTS else _remembered_point.__wrapped__(x)


@functools.lru_cache(maxsize=1 << 12)
def _remembered_point(x: bytes) -> ec.EllipticCurvePublicKey | None:
    # The library checks that x < p and that a point exists; either point will do. A deal's
    # values are lifted again by every pass and check after the one that made them: kept.
    try:
        return ec.EllipticCurvePublicKey.from_encoded_point(_CURVE, b"\x02" + x)
    except ValueError:
        return None


def _key(k: int) -> ec.EllipticCurvePrivateKey:
    return ec.derive_private_key(k, _CURVE)


#: How many products :func:`_encrypt_lifted` keeps (about 8 MB of them when full). At 0 the card
#: points and scalar inverses are not kept either (:func:`nothing_remembered`).
REMEMBERED_PRODUCTS = 1 << 15
_products: dict[tuple[bytes, int], bytes] = {}


def _encrypt_lifted(
    values: Sequence[bytes],
    points: Sequence[ec.EllipticCurvePublicKey],
    scalars: Sequence[int],
    keys: Sequence[ec.EllipticCurvePrivateKey] | None = None,
) -> list[bytes]:
    """``encrypt(values[i], scalars[i])`` for each ``i``: the values already lifted to their
    ``points`` (:func:`_lift`), the scalars already checked. Every multiplication of the deck is
    made here.

    Up to :data:`REMEMBERED_PRODUCTS` of the last products are kept (when full, the older half
    goes): a peer computes most of them more than once (an audit redoes the passes the peer made
    or checked as they came, and the check of a table's transcript at its end redoes the whole
    game), and peers in one process (bots, tests) compute the same ones. What peers send can't
    make the table grow past its bound, and a product is a pure function of its two inputs, so
    nothing returned depends on what was asked before. ``keys`` are the scalars already loaded
    into the library (:class:`PreparedScalars`); otherwise each distinct scalar is loaded once,
    and only if a product needs it.
    """
    out = []
    loaded: dict[int, ec.EllipticCurvePrivateKey] = {}
    bound = REMEMBERED_PRODUCTS
    for i, (x, k) in enumerate(zip(values, scalars)):
        product = _products.get((x, k)) if bound else None
        if product is None:
            key = keys[i] if keys is not None else loaded.get(k)
            if key is None:
                key = loaded[k] = _key(k)
            product = key.exchange(_ECDH, points[i])
            if bound:
                if len(_products) >= bound:
                    # The older half goes at once: dropping only the oldest each time would make
                    # every look-up for it skip all the slots dropped before (14 µs when full).
                    for old in list(_products)[: bound // 2]:
                        _products.pop(old, None)
                _products[(x, k)] = product
        out.append(product)
    return out


def _has_point(x: int) -> bool:
    # A point with this x exists iff x³ − 3x + b is a square mod p (Euler's criterion), which is
    # exactly when the library can decompress 0x02 ‖ x. The library is ~15× faster than pow()
    # here, and a deal hashes every one of its cards to the curve when it starts.
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(_CURVE, b"\x02" + x.to_bytes(CARD_VALUE_SIZE, "big"))
    except ValueError:
        return False
    return True


def _hash_to_x(deck_domain: str, name: str) -> tuple[int, bytes]:
    """``(counter, x)`` of a card by try-and-increment; see :func:`card_point`."""
    if not isinstance(deck_domain, str) or not isinstance(name, str):
        raise TypeError("deck domain and card name must be strings")
    counter = 0
    while True:
        digest = hashlib.sha256(
            _domains.CARD + canonical.encode([deck_domain, name, counter])
        ).digest()
        x = int.from_bytes(digest, "big")
        if x < FIELD_PRIME and _has_point(x):
            return counter, digest
        counter += 1


@functools.lru_cache(maxsize=4096)
def card_point(deck_domain: str, name: str) -> bytes:
    """The card value (32-byte x-coordinate) of card ``name`` in decks of ``deck_domain``.

    Try-and-increment: for counter 0, 1, 2, … take x = SHA-256(``b"p2pgames/v1/card\\x00"`` ‖
    canonical ``[deck_domain, name, counter]``) as a big-endian integer; the first x < p with a
    point on the curve is the card. Nobody knows the discrete log of such a point. Results are
    cached.
    """
    return _hash_to_x(deck_domain, name)[1]


#: Base point of lock-key verifiers: ``card_point("p2pgames/v1/verifier-base", "G0")``.
VERIFIER_BASE = card_point(_domains.VERIFIER_BASE_DOMAIN, "G0")
_VERIFIER_BASE_POINT = _remembered_point.__wrapped__(VERIFIER_BASE)  # (card_point has one)


# --- the operations -------------------------------------------------------------------------------


def encrypt(x: bytes, k: int) -> bytes:
    """Encrypt card value ``x`` with scalar ``k``: the x-coordinate of ``k·P``, 32 bytes.

    Raises :class:`BadCardValue` if ``x`` is not 32 bytes or not the x-coordinate of a curve point,
    and :class:`CryptoError` if ``k`` is outside [1, n−1].
    """
    point = _lift(x)
    return _encrypt_lifted((x,), (point,), (_check_scalar(k),))[0]


class PreparedScalars:
    """Scalars made ready to encrypt with ahead of time (see :func:`prepare_scalars`).

    Loading a scalar into the library costs it a fixed-base multiplication (it derives the public
    key), a third of what encrypting a card costs: a pass whose scalars are known early (a lock
    pass's) does that while its peer waits for its turn, not on the deal's critical path.
    """

    __slots__ = ("scalars", "_keys")

    def __init__(self, scalars: tuple[int, ...], keys: tuple[ec.EllipticCurvePrivateKey, ...]) -> None:
        self.scalars = scalars
        self._keys = keys

    def __len__(self) -> int:
        return len(self.scalars)

    def __add__(self, other: PreparedScalars) -> PreparedScalars:
        """These scalars, then ``other``'s (to prepare a long list a part at a time)."""
        return PreparedScalars(self.scalars + other.scalars, self._keys + other._keys)

    def __repr__(self) -> str:  # the scalars are secrets
        return f"PreparedScalars(<{len(self.scalars)} scalars>)"


def prepare_scalars(scalars: Sequence[int]) -> PreparedScalars:
    """``scalars`` loaded into the library, for :func:`transform` to encrypt with at once.

    Raises :class:`CryptoError` for a scalar outside [1, n−1].
    """
    checked = tuple(_check_scalar(k, f"scalar {i}") for i, k in enumerate(scalars))
    return PreparedScalars(checked, tuple(_key(k) for k in checked))


def transform(values: Sequence[bytes], scalars: Sequence[int] | int | PreparedScalars) -> list[bytes]:
    """Encrypt every value, each with its own scalar or all with one.

    ``scalars`` may be :class:`PreparedScalars` (the same result, sooner). Raises
    :class:`BadCardValue` (with ``index``) for the first value that is not a card value,
    :class:`CryptoError` for a scalar outside [1, n−1] and :class:`ValueError` if ``scalars`` is a
    sequence of a different length.
    """
    if isinstance(scalars, int):
        scalar = _check_scalar(scalars)
        return _encrypt_lifted(values, _lift_all(values), (scalar,) * len(values))
    if len(scalars) != len(values):
        raise ValueError(f"{len(values)} values but {len(scalars)} scalars")
    points = _lift_all(values)
    if isinstance(scalars, PreparedScalars):
        return _encrypt_lifted(values, points, scalars.scalars, scalars._keys)
    return _encrypt_lifted(values, points, [_check_scalar(k) for k in scalars])


def _lift_all(values: Sequence[bytes]) -> list[ec.EllipticCurvePublicKey]:
    return [_lift(x, i) for i, x in enumerate(values)]


def _check_permutation(permutation: Sequence[int], n: int) -> None:
    if (
        len(permutation) != n
        or any(type(i) is not int for i in permutation)
        or sorted(permutation) != list(range(n))
    ):
        raise ValueError(f"not a permutation of range({n}): {list(permutation)!r:.200}")


def shuffle_pass(
    values: Sequence[bytes], shuffle_key: int, permutation: Sequence[int]
) -> list[bytes]:
    """One peer's shuffle: ``output[j] = encrypt(values[permutation[j]], shuffle_key)``.

    Raises :class:`BadCardValue` for an input that is not a card value, :class:`CryptoError` for a
    key outside [1, n−1] and :class:`ValueError` if ``permutation`` is not a permutation of
    ``range(len(values))``.
    """
    _check_permutation(permutation, len(values))
    _check_scalar(shuffle_key, "shuffle key")
    points = _lift_all(values)
    return _encrypt_lifted(
        [values[source] for source in permutation], [points[source] for source in permutation],
        (shuffle_key,) * len(values),
    )


def reshuffle_pass(
    values: Sequence[bytes],
    old_lock_keys: Sequence[int],
    shuffle_key: int,
    permutation: Sequence[int],
) -> list[bytes]:
    """One peer's pass over a sub-pile of locked slots: swap its old locks for ``shuffle_key``.

    ``output[j] = encrypt(values[π(j)], shuffle_key · old_lock_keys[π(j)]⁻¹)`` with
    ``π = permutation``: one exchange per card. ``old_lock_keys[i]`` must be this peer's lock on
    ``values[i]``, so a peer can only find its locks if nobody permuted the pile before it: in a
    round of these passes every peer but the last uses the identity permutation, and the others
    then shuffle with :func:`shuffle_pass` (protocol/SPEC.md §C5.6). Sessions don't use this
    combined form: they make a separate re-key pass (:func:`rekey_pass`, order unchanged) before
    the shuffle passes (§B6.1); it stays for the §C5 vectors. Raises like :func:`shuffle_pass`,
    and :class:`ValueError` if ``old_lock_keys`` and ``values`` differ in length.
    """
    if len(old_lock_keys) != len(values):
        raise ValueError(f"{len(values)} values but {len(old_lock_keys)} old lock keys")
    _check_permutation(permutation, len(values))
    _check_scalar(shuffle_key, "shuffle key")
    points = _lift_all(values)
    scalars = [
        shuffle_key * _inverse(_check_scalar(old_lock_keys[source], f"old lock key {source}")) % CURVE_ORDER
        for source in permutation
    ]
    return _encrypt_lifted(
        [values[source] for source in permutation], [points[source] for source in permutation], scalars
    )


def combine_keys(*keys: int) -> int:
    """The one key that encrypts as ``keys`` applied in turn (their product modulo the curve
    order): encryption commutes, so peers' keys combine in any order."""
    total = 1
    for key in keys:
        total = total * key % CURVE_ORDER
    return total


def lock_scalars(shuffle_key: int, lock_keys: Sequence[int]) -> list[int]:
    """The scalar a lock pass encrypts slot ``i`` with: ``lock_keys[i] · shuffle_key⁻¹`` (it strips
    the peer's shuffle key and locks the slot in one step). Raises :class:`CryptoError`."""
    strip = _inverse(_check_scalar(shuffle_key, "shuffle key"))
    return [_check_scalar(lock, f"lock key {i}") * strip % CURVE_ORDER for i, lock in enumerate(lock_keys)]


def lock_verifiers(lock_keys: Sequence[int]) -> list[bytes]:
    """``encrypt(VERIFIER_BASE, lock_keys[i])`` for each slot: what a lock pass publishes to bind
    its lock keys (see :func:`lock_pass`). Raises :class:`CryptoError`."""
    checked = [_check_scalar(lock, f"lock key {i}") for i, lock in enumerate(lock_keys)]
    return _encrypt_lifted((VERIFIER_BASE,) * len(checked), (_VERIFIER_BASE_POINT,) * len(checked), checked)


def rekey_scalars(old_lock_keys: Sequence[int], new_key: int) -> list[int]:
    """The scalar a re-key pass encrypts slot ``i`` with, ``new_key · old_lock_keys[i]⁻¹``: it swaps
    the peer's per-slot locks for one key without moving any card. Raises :class:`CryptoError`."""
    _check_scalar(new_key, "re-key key")
    return [new_key * _inverse(_check_scalar(old, f"lock key {i}")) % CURVE_ORDER for i, old in enumerate(old_lock_keys)]


def rekey_pass(values: Sequence[bytes], old_lock_keys: Sequence[int], new_key: int) -> list[bytes]:
    """One peer's re-key pass over a locked sub-pile (§C5.6 of the SPEC): ``values[i]`` encrypted with
    :func:`rekey_scalars`. Raises :class:`BadCardValue`, :class:`CryptoError` and
    :class:`ValueError` (lengths differ)."""
    return transform(values, rekey_scalars(old_lock_keys, new_key))


def lock_pass(
    values: Sequence[bytes], shuffle_key: int, lock_keys: Sequence[int]
) -> tuple[list[bytes], list[bytes]]:
    """One peer's lock: strip ``shuffle_key``, lock slot ``i`` with ``lock_keys[i]``.

    Returns ``(locked, verifiers)`` with
    ``locked[i] = encrypt(values[i], lock_keys[i] · shuffle_key⁻¹)`` and
    ``verifiers[i] = encrypt(VERIFIER_BASE, lock_keys[i])``. Publishing the verifiers binds the
    lock keys, so a wrong key published later fails :func:`check_lock_key` for everyone at once.
    Raises :class:`BadCardValue`, :class:`CryptoError` for keys outside [1, n−1], and
    :class:`ValueError` if ``lock_keys`` and ``values`` differ in length.
    """
    if len(lock_keys) != len(values):
        raise ValueError(f"{len(values)} values but {len(lock_keys)} lock keys")
    return transform(values, lock_scalars(shuffle_key, lock_keys)), lock_verifiers(lock_keys)


def shuffle_lock_pass(
    values: Sequence[bytes], strip_key: int, permutation: Sequence[int], lock_keys: Sequence[int]
) -> tuple[list[bytes], list[bytes]]:
    """The last holder's pass, which shuffles and locks at once (protocol/SPEC.md §B6.1):
    ``locked[j] = encrypt(values[permutation[j]], lock_keys[j] · strip_key⁻¹)`` and
    ``verifiers[j] = encrypt(VERIFIER_BASE, lock_keys[j])``. Nothing permutes after it, so its
    locks can go on in the same pass; ``strip_key`` is its re-key key in a re-shuffle, else 1 (it
    uses no shuffle key). Raises like :func:`shuffle_pass` and :func:`lock_pass`.
    """
    _check_permutation(permutation, len(values))
    if len(lock_keys) != len(values):
        raise ValueError(f"{len(values)} values but {len(lock_keys)} lock keys")
    return lock_pass([values[source] for source in permutation], strip_key, lock_keys)


def unlock(value: bytes, keys: Sequence[int]) -> bytes:
    """Remove the locks ``keys`` from ``value``: encrypt with the product of their inverses.

    One exchange however many keys. Raises :class:`BadCardValue` if ``value`` is not a card value
    and :class:`CryptoError` for a key outside [1, n−1]. With no keys, returns ``value`` (checked).
    """
    point = _lift(value)
    product = 1
    for i, k in enumerate(keys):
        product = product * _check_scalar(k, f"key {i}") % CURVE_ORDER
    if product == 1:
        return value
    return _encrypt_lifted((value,), (point,), (_inverse(product),))[0]


def check_lock_key(key: int, verifier: bytes) -> bool:
    """Whether ``key`` is the lock key that ``verifier`` was published for.

    Never raises: anything that is not a scalar in [1, n−1] and a 32-byte verifier is ``False``.
    """
    if type(key) is not int or not 0 < key < CURVE_ORDER:
        return False
    if type(verifier) is not bytes or len(verifier) != CARD_VALUE_SIZE:
        return False
    return hmac.compare_digest(_encrypt_lifted((VERIFIER_BASE,), (_VERIFIER_BASE_POINT,), (key,))[0], verifier)


# --- audits ---------------------------------------------------------------------------------------


def _first_unmatched(expected: Sequence[bytes], outputs: Sequence[bytes]) -> int | None:
    # Outputs must be the expected values in some order: compare as multisets.
    remaining = Counter(expected)
    for j, out in enumerate(outputs):
        if remaining[out] <= 0:
            return j
        remaining[out] -= 1
    return None


def _check_lengths(inputs: Sequence[bytes], outputs: Sequence[bytes]) -> None:
    if len(inputs) != len(outputs):
        raise ValueError(f"{len(inputs)} inputs but {len(outputs)} outputs")


def check_shuffle_pass(
    inputs: Sequence[bytes], outputs: Sequence[bytes], shuffle_key: int
) -> int | None:
    """Audit a shuffle pass given its author's published ``shuffle_key``.

    Returns ``None`` if ``outputs`` is ``encrypt(inputs[i], shuffle_key)`` in some order, else the
    index of the first output not accounted for. Raises :class:`BadCardValue` for an input that is
    not a card value (inputs were checked when the previous pass arrived), :class:`CryptoError` for
    a key outside [1, n−1] and :class:`ValueError` if the lists differ in length.
    """
    _check_lengths(inputs, outputs)
    return _first_unmatched(transform(inputs, shuffle_key), outputs)


def check_reshuffle_pass(
    inputs: Sequence[bytes],
    outputs: Sequence[bytes],
    old_lock_keys: Sequence[int],
    shuffle_key: int,
) -> int | None:
    """Audit a :func:`reshuffle_pass` given its author's old lock keys and new shuffle key.

    Returns ``None`` if ``outputs`` is ``encrypt(inputs[i], shuffle_key · old_lock_keys[i]⁻¹)`` in
    some order, else the index of the first output not accounted for. Raises like
    :func:`check_shuffle_pass`.
    """
    _check_lengths(inputs, outputs)
    _check_scalar(shuffle_key, "shuffle key")
    if len(old_lock_keys) != len(inputs):
        raise ValueError(f"{len(inputs)} inputs but {len(old_lock_keys)} old lock keys")
    scalars = [
        shuffle_key * _inverse(_check_scalar(old, f"old lock key {i}")) % CURVE_ORDER
        for i, old in enumerate(old_lock_keys)
    ]
    return _first_unmatched(transform(inputs, scalars), outputs)


def check_lock_pass(
    inputs: Sequence[bytes],
    outputs: Sequence[bytes],
    verifiers: Sequence[bytes],
    shuffle_key: int,
    lock_keys: Sequence[int],
) -> int | None:
    """Audit a lock pass given its author's published shuffle key and lock keys.

    Returns ``None`` if for every slot ``i`` the verifier matches ``lock_keys[i]`` and
    ``outputs[i] = encrypt(inputs[i], lock_keys[i] · shuffle_key⁻¹)``; else the first bad ``i``
    (a lock key outside [1, n−1] makes its slot bad). Raises :class:`BadCardValue` for an input that
    is not a card value, :class:`CryptoError` for a shuffle key outside [1, n−1] and
    :class:`ValueError` if the lists differ in length.
    """
    _check_lengths(inputs, outputs)
    if not len(verifiers) == len(lock_keys) == len(inputs):
        raise ValueError(
            f"{len(inputs)} inputs, {len(verifiers)} verifiers and {len(lock_keys)} lock keys"
        )
    strip = _inverse(_check_scalar(shuffle_key, "shuffle key"))
    for i, (x, out, verifier, lock) in enumerate(zip(inputs, outputs, verifiers, lock_keys)):
        point = _lift(x, i)
        if not check_lock_key(lock, verifier):
            return i
        if _encrypt_lifted((x,), (point,), (lock * strip % CURVE_ORDER,))[0] != out:
            return i
    return None


def check_shuffle_lock_pass(
    inputs: Sequence[bytes],
    outputs: Sequence[bytes],
    verifiers: Sequence[bytes],
    strip_key: int,
    lock_keys: Sequence[int],
) -> int | None:
    """Audit a :func:`shuffle_lock_pass` given its author's published lock keys (and re-key key,
    ``strip_key``; 1 in a fresh deal).

    Returns ``None`` if every verifier matches its lock key and the outputs with their locks
    taken off, ``encrypt(outputs[j], strip_key · lock_keys[j]⁻¹)``, are the inputs in some order;
    else the first bad ``j`` (a wrong verifier, an output that is no card value, or one not
    accounted for by the inputs left). Raises :class:`CryptoError` for a strip key outside
    [1, n−1] and :class:`ValueError` if the lists differ in length.
    """
    _check_lengths(inputs, outputs)
    if not len(verifiers) == len(lock_keys) == len(inputs):
        raise ValueError(
            f"{len(inputs)} inputs, {len(verifiers)} verifiers and {len(lock_keys)} lock keys"
        )
    _check_scalar(strip_key, "strip key")
    remaining = Counter(inputs)
    for j, (out, verifier, lock) in enumerate(zip(outputs, verifiers, lock_keys)):
        if not check_lock_key(lock, verifier):
            return j
        try:
            point = _lift(out, j)
        except BadCardValue:
            return j
        unlocked = _encrypt_lifted((out,), (point,), (strip_key * _inverse(lock) % CURVE_ORDER,))[0]
        if remaining[unlocked] <= 0:
            return j
        remaining[unlocked] -= 1
    return None


# --- naming cards ---------------------------------------------------------------------------------


class CardTable:
    """The cards of one deal: their values in name order, and the name of each value.

    Raises :class:`ValueError` if ``names`` repeats a name: two equal cards would have equal values
    at every stage, and that equality would leak through the shuffle.
    """

    __slots__ = ("_deck_domain", "_names", "_points", "_by_point")

    def __init__(self, deck_domain: str, names: Sequence[str]) -> None:
        names = tuple(names)
        seen: set[str] = set()
        for name in names:
            if name in seen:
                raise ValueError(f"card name {name!r} appears twice in one deal")
            seen.add(name)
        points = tuple(card_point(deck_domain, name) for name in names)
        by_point = dict(zip(points, names))
        if len(by_point) != len(names):  # two names hashing to one point: never seen, but fatal
            raise ValueError("two card names of this deal have the same card value")
        self._deck_domain = deck_domain
        self._names = names
        self._points = points
        self._by_point = by_point

    @property
    def deck_domain(self) -> str:
        return self._deck_domain

    @property
    def names(self) -> tuple[str, ...]:
        return self._names

    @property
    def points(self) -> tuple[bytes, ...]:
        """The card values, in the order of :attr:`names`."""
        return self._points

    def __len__(self) -> int:
        return len(self._names)

    def name_of(self, x: bytes) -> str:
        """The name of the card whose value is ``x``.

        Raises :class:`BadCardValue` if ``x`` is not one of this deal's cards — which is how a slot
        unlocked with a wrong key shows up.
        """
        try:
            return self._by_point[x]
        except (KeyError, TypeError):
            shown = x.hex() if isinstance(x, bytes) else repr(x)
            raise BadCardValue(f"{shown} is not a card of this deal") from None

    def __repr__(self) -> str:
        return f"CardTable({self._deck_domain!r}, {self._names!r})"
