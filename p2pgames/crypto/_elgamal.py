"""The ElGamal deck on the Ed25519 group (``p2pgames.crypto.elgamal``): the deal of protocol 11
(issue 28), specified in ``protocol/SPEC.md`` §C9 and used as §B6.3 says; protocol 10 dealt with
§C5's commutative locks (:mod:`p2pgames.crypto`'s deck).

Why another deck: a deal by commutative locks needs its lock passes one holder after another,
after the last shuffle, so a deal among ``h`` holders takes ``2h − 3`` round trips or more.
ElGamal re-encryption under one joint key lets each holder shuffle *and* mask in one pass, and
the holders then open a card for its receiver in one round, all at once: ``h + 1`` round trips.

The group is the prime-order subgroup of edwards25519 (RFC 8032), of order ``GROUP_ORDER``, with
its standard base point. Its arithmetic is libsodium's, through PyNaCl (``cryptography`` has no
point addition). A **point** is its 32-byte RFC 8032 encoding; a **scalar** is an integer in
``[1, GROUP_ORDER − 1]``, in messages 32 bytes little-endian.

* Card points: :func:`card_point`, a card's hash tried as a point until it is one, times the
  cofactor 8.
* Keys: a holder's secret scalar ``x`` and public point ``x·G`` (:func:`public_key`), proven
  known by a Schnorr proof (:func:`prove_key`, :func:`check_key_proof`); the deal's joint key
  is the sum of its holders' (:func:`combine_public_keys`).
* Passes: :func:`read_deck` reads one a peer sent, :func:`reencryption_pass` permutes it and
  re-encrypts every card;
  :func:`check_reencryption_pass` audits one against the permutation and scalars that made it.
* Opening a card: each other holder's decryption share with its Chaum–Pedersen proof
  (:func:`proven_decryption_share`, :func:`check_decryption_share`), or several shares of one
  holder under one proof (:func:`proven_decryption_shares`, :func:`check_decryption_shares`),
  and :func:`decrypt`.
* Escrow of a holder's key: :func:`split_key` into additive shares whose commitments sum to its
  public key (:func:`check_key_split`); the shares open a card as the key would, each proven as
  a decryption share against its commitment.

Every check of what a peer sent returns ``False`` or raises :class:`~p2pgames.crypto.CryptoError`
(:class:`~p2pgames.crypto.BadCardValue` for a point). No secret scalar ever multiplies a point
outside the prime-order group: libsodium checks each point it multiplies, so the deck checks a
point's group only there (SPEC §C9.4).
"""

from __future__ import annotations

import functools
import hashlib
import hmac
from collections.abc import Callable, Sequence
from typing import NamedTuple

import nacl.bindings as _sodium
import nacl.exceptions

from .. import canonical

from . import _domains
from ._deck import _check_permutation
from ._errors import BadCardValue, CryptoError
from ._random import ByteSource, secret_stream

__all__ = [
    "GROUP_ORDER",
    "FIELD_PRIME",
    "POINT_SIZE",
    "SCALAR_SIZE",
    "PROOF_SIZE",
    "BASE_POINT",
    "IDENTITY",
    "Ciphertext",
    "random_scalar",
    "draw_scalar",
    "scalar_to_bytes",
    "scalar_from_bytes",
    "is_valid_point",
    "check_point",
    "read_deck",
    "card_point",
    "CardTable",
    "public_key",
    "combine_public_keys",
    "point_sum",
    "prove_key",
    "check_key_proof",
    "open_deck",
    "reencrypt",
    "reencryption_pass",
    "check_reencryption_pass",
    "decryption_share",
    "proven_decryption_share",
    "check_decryption_share",
    "proven_decryption_shares",
    "check_decryption_shares",
    "decrypt",
    "split_key",
    "key_share_commitments",
    "check_key_split",
]

if not (_sodium.has_crypto_core_ed25519 and _sodium.has_crypto_scalarmult_ed25519):
    raise ImportError("PyNaCl was built without libsodium's Ed25519 group arithmetic, which the deck needs")

#: ℓ, the order of edwards25519's prime-order subgroup.
GROUP_ORDER = 2**252 + 27742317777372353535851937790883648493
#: p, the field edwards25519 is defined over.
FIELD_PRIME = 2**255 - 19
#: d in −x² + y² = 1 + d·x²·y².
CURVE_D = (-121665 * pow(121666, -1, FIELD_PRIME)) % FIELD_PRIME
POINT_SIZE = 32
SCALAR_SIZE = 32
#: A proof is its challenge and its response, two scalars of 32 bytes (either may be 0).
PROOF_SIZE = 64
#: G, RFC 8032's base point.
BASE_POINT = bytes.fromhex("5866666666666666666666666666666666666666666666666666666666666666")
#: The neutral element's encoding (y = 1): the nonce of a card no pass has encrypted yet.
IDENTITY = b"\x01" + bytes(31)

_SodiumError = nacl.exceptions.RuntimeError


class Ciphertext(NamedTuple):
    """A card under ElGamal encryption with the joint key ``Y``: ``nonce = r·G`` and
    ``masked = M + r·Y`` for its card point ``M`` and the sum ``r`` of every pass's scalar."""

    nonce: bytes
    masked: bytes


# --- scalars --------------------------------------------------------------------------------------


def _check_scalar(k: int, what: str = "scalar") -> int:
    if type(k) is not int:
        raise TypeError(f"{what} must be an int, not {type(k).__name__}")
    if not 0 < k < GROUP_ORDER:
        raise CryptoError(f"{what} is outside [1, ℓ−1]: {k:#x}")
    return k


def random_scalar(rng_bytes: bytes | None = None) -> int:
    """A uniformly random scalar in [1, ℓ−1].

    Draws 32-byte little-endian candidates (from ``os.urandom``, or front to back from
    ``rng_bytes``), keeps their low 253 bits and returns the first in range (about one draw in
    two). Raises :class:`CryptoError` if ``rng_bytes`` runs out first.
    """
    return draw_scalar(ByteSource(rng_bytes).take)


def draw_scalar(take: Callable[[int], bytes]) -> int:
    """:func:`random_scalar` drawn from a byte source: ``take(32)`` gives the next 32 bytes (a
    :func:`~p2pgames.crypto.secret_stream`, say), called until a candidate is in range."""
    while True:
        candidate = int.from_bytes(take(SCALAR_SIZE), "little") & ((1 << 253) - 1)
        if 0 < candidate < GROUP_ORDER:
            return candidate


def _nonce_scalar(rng: bytes | Callable[[int], bytes] | None) -> int:
    """A proof's nonce scalar: :func:`draw_scalar` from a byte source ``rng`` (a seed's stream,
    which can't run out), else :func:`random_scalar` (``os.urandom``, or fixed bytes for tests)."""
    return draw_scalar(rng) if callable(rng) else random_scalar(rng)


def scalar_to_bytes(k: int) -> bytes:
    """``k`` as 32 little-endian bytes. Raises :class:`CryptoError` outside [1, ℓ−1]."""
    return _check_scalar(k).to_bytes(SCALAR_SIZE, "little")


def scalar_from_bytes(data: bytes) -> int:
    """The scalar in 32 little-endian bytes. Raises :class:`CryptoError` unless ``data`` is 32
    bytes encoding a value in [1, ℓ−1]."""
    if not isinstance(data, bytes) or len(data) != SCALAR_SIZE:
        raise CryptoError(f"a scalar is {SCALAR_SIZE} bytes")
    return _check_scalar(int.from_bytes(data, "little"))


def _le(k: int) -> bytes:
    return k.to_bytes(SCALAR_SIZE, "little")


# --- points ---------------------------------------------------------------------------------------


def is_valid_point(data: object) -> bool:
    """Whether ``data`` is the canonical 32-byte encoding of a point of the prime-order subgroup
    other than the identity. Never raises."""
    return (
        type(data) is bytes and len(data) == POINT_SIZE and bool(_sodium.crypto_core_ed25519_is_valid_point(data))
    )


def check_point(data: object, index: int | None = None) -> bytes:
    """``data`` if :func:`is_valid_point`, else :class:`BadCardValue` saying why (``index``: its
    place in a list, if it came from one)."""
    if type(data) is not bytes or len(data) != POINT_SIZE:
        raise BadCardValue(f"a point is {POINT_SIZE} bytes", index)
    if not _sodium.crypto_core_ed25519_is_valid_point(data):
        raise BadCardValue("not a point of the prime-order group (or its identity, or not canonical)", index)
    return data


def read_deck(deck: Sequence[object]) -> list[Ciphertext]:
    """A deck a peer sent, as :class:`Ciphertext`: each card a pair of 32-byte canonical
    encodings (``y < p``).

    Raises :class:`BadCardValue` (``index`` the card's position) for a card that is not. Whether
    each point is on the curve shows when a pass adds to it (:func:`reencryption_pass` raises
    then), and whether a nonce is in the prime-order group when a secret multiplies it
    (:func:`decryption_share`): checking every point of every pass for that would cost more than
    the pass (SPEC §C9.4).
    """
    read = []
    for index, card in enumerate(deck):
        if not isinstance(card, Sequence) or isinstance(card, (bytes, str)) or len(card) != 2:
            raise BadCardValue("a card is a pair of points", index)
        for point in card:
            if type(point) is not bytes or len(point) != POINT_SIZE:
                raise BadCardValue(f"a point is {POINT_SIZE} bytes", index)
            if int.from_bytes(point, "little") & ((1 << 255) - 1) >= FIELD_PRIME:
                raise BadCardValue("a point's y is not below p (not canonical)", index)
        read.append(Ciphertext(card[0], card[1]))
    return read


def _add(p: bytes, q: bytes) -> bytes:
    return _sodium.crypto_core_ed25519_add(p, q)


def _subtract(p: bytes, q: bytes) -> bytes:
    return _sodium.crypto_core_ed25519_sub(p, q)


def _times_base(k: int) -> bytes:
    """k·G for any k in [0, ℓ−1] (libsodium refuses 0, whose product is the identity)."""
    return _sodium.crypto_scalarmult_ed25519_base_noclamp(_le(k)) if k else IDENTITY


def _times(k: int, point: bytes) -> bytes:
    """k·P for any k in [0, ℓ−1]; :class:`BadCardValue` unless P :func:`is_valid_point`.

    libsodium checks P itself before it multiplies (canonical, not of small order, in the
    prime-order group: what :func:`is_valid_point` checks), so no secret ever multiplies a point
    outside the group, and a separate check would only double the cost. It refuses k = 0, whose
    product is the identity, so that case checks P on its own.
    """
    if type(point) is not bytes or len(point) != POINT_SIZE:
        raise BadCardValue(f"a point is {POINT_SIZE} bytes")
    if not k:
        check_point(point)
        return IDENTITY
    bound = REMEMBERED_PRODUCTS
    product = _products.get((k, point)) if bound else None
    if product is not None:
        return product
    try:
        product = _sodium.crypto_scalarmult_ed25519_noclamp(_le(k), point)
    except _SodiumError:
        raise BadCardValue("not a point of the prime-order group (or its identity, or not canonical)") from None
    if bound:
        if len(_products) >= bound:
            for old in list(_products)[: bound // 2]:  # the older half at once (as _deck's memo)
                _products.pop(old, None)
        _products[(k, point)] = product
    return product


#: How many products :func:`_times` keeps (about 6 MB of them when full; 0: none, see
#: :func:`~p2pgames.crypto.nothing_remembered`). A peer computes many twice — the audit redoes
#: the passes and share checks, a transcript's check at the end redoes the game — and peers in one
#: process (bots, tests) compute the same ones: every peer checks every published share under its
#: proof's same weights. A product is a pure function of its inputs, only valid points are kept,
#: and what peers send can't grow the table past its bound.
REMEMBERED_PRODUCTS = 1 << 15
_products: dict[tuple[int, bytes], bytes] = {}


def _is_candidate(encoding: bytes) -> bool:
    """Whether 32 bytes decode to a point of the curve: y < p and (y² − 1)/(d·y² + 1) a square."""
    if int.from_bytes(encoding, "little") & ((1 << 255) - 1) >= FIELD_PRIME:
        return False
    try:
        _add(encoding, encoding)  # libsodium decodes both; it refuses what is not on the curve
    except _SodiumError:
        return False
    return True


def _card_point_search(deck_domain: str, name: str) -> tuple[int, bytes, list[bytes]]:
    """``(counter, point, rejected candidates)`` for :func:`card_point` (the vectors show all)."""
    if not isinstance(deck_domain, str) or not isinstance(name, str):
        raise TypeError("deck domain and card name must be strings")
    rejected = []
    counter = 0
    while True:
        candidate = hashlib.sha256(_domains.EDWARDS_CARD + canonical.encode([deck_domain, name, counter])).digest()
        if _is_candidate(candidate):
            doubled = _add(candidate, candidate)
            doubled = _add(doubled, doubled)
            point = _add(doubled, doubled)  # 8·P: in the prime-order group
            if point != IDENTITY:  # (P was of small order)
                return counter, point, rejected
        rejected.append(candidate)
        counter += 1


@functools.lru_cache(maxsize=4096)
def card_point(deck_domain: str, name: str) -> bytes:
    """The point of card ``name`` in decks of ``deck_domain``.

    Try-and-increment: for counter 0, 1, 2, … the candidate is SHA-256(``b"p2pgames/v1/edwards-card\\x00"``
    ‖ canonical ``[deck_domain, name, counter]``) read as an encoding; the first that decodes to
    a curve point ``P`` with ``8·P`` not the identity gives ``8·P``. Nobody knows the discrete
    logarithm of such a point to any other. Results are cached.
    """
    return _card_point_search(deck_domain, name)[1]


class CardTable:
    """The cards of one deal: their points in name order, and the name of each point.

    Raises :class:`ValueError` if ``names`` repeats a name (two equal cards would stay equal
    through every pass) or, never seen, if two names hash to one point.
    """

    __slots__ = ("deck_domain", "names", "points", "_by_point")

    def __init__(self, deck_domain: str, names: Sequence[str]) -> None:
        names = tuple(names)
        if len(set(names)) != len(names):
            raise ValueError("a card name appears twice in one deal")
        self.deck_domain = deck_domain
        self.names = names
        self.points = tuple(card_point(deck_domain, name) for name in names)
        self._by_point = dict(zip(self.points, names))
        if len(self._by_point) != len(names):
            raise ValueError("two card names of this deal have the same point")

    def __len__(self) -> int:
        return len(self.names)

    def name_of(self, point: bytes) -> str | None:
        """The card whose point ``point`` is, or ``None`` if it is no card of this deal."""
        return self._by_point.get(point)

    def __repr__(self) -> str:
        return f"elgamal.CardTable({self.deck_domain!r}, {list(self.names)!r})"


# --- keys -----------------------------------------------------------------------------------------


def public_key(secret: int) -> bytes:
    """``secret·G``. Raises :class:`CryptoError` unless ``secret`` is in [1, ℓ−1]."""
    return _times_base(_check_scalar(secret, "secret key"))


def point_sum(points: Sequence[bytes]) -> bytes:
    """``P_1 + … + P_k`` of valid points (each checked first): a joint key, or a rebuilt seat's
    decryption share from the shares its escrow's holders released.

    Raises :class:`BadCardValue` (``index`` the point's place) for a point that is not valid,
    and :class:`CryptoError` for no points or a sum that is the identity.
    """
    if not points:
        raise CryptoError("a sum of points needs at least one")
    total = check_point(points[0], 0)
    for index, point in enumerate(points[1:], 1):
        total = _add(total, check_point(point, index))
    if total == IDENTITY:
        raise CryptoError("the points sum to the identity")
    return total


def combine_public_keys(keys: Sequence[bytes]) -> bytes:
    """The joint key ``Y = Y_1 + … + Y_h`` of a deal's holders: :func:`point_sum` of their keys,
    which raises as it says."""
    return point_sum(keys)


def _challenge(domain: bytes, context: bytes, points: Sequence[bytes]) -> int:
    if not isinstance(context, bytes):
        raise TypeError("a proof's context must be bytes")
    digest = hashlib.sha512(domain + canonical.encode([context, list(points)])).digest()
    return int.from_bytes(digest, "little") % GROUP_ORDER


def _proof(challenge: int, response: int) -> bytes:
    return _le(challenge) + _le(response)


def _read_proof(proof: object) -> tuple[int, int] | None:
    if type(proof) is not bytes or len(proof) != PROOF_SIZE:
        return None
    challenge = int.from_bytes(proof[:SCALAR_SIZE], "little")
    response = int.from_bytes(proof[SCALAR_SIZE:], "little")
    if challenge >= GROUP_ORDER or response >= GROUP_ORDER:
        return None
    return challenge, response


def prove_key(secret: int, context: bytes, rng_bytes: bytes | Callable[[int], bytes] | None = None) -> bytes:
    """A Schnorr proof that whoever made it knows ``secret`` of ``Y = secret·G``, bound to
    ``context`` (the session's deal and seat): ``(e, s)`` with ``A = w·G`` for a fresh ``w``,
    ``e = H_key(context, [Y, A])`` and ``s = w + e·secret mod ℓ``. Without it a holder could
    publish ``Y' − Y_others`` as its key and so own the joint key alone.

    ``w`` is drawn like :func:`random_scalar` (``rng_bytes`` injects it: bytes, or a byte
    source as :func:`draw_scalar` takes). Raises :class:`CryptoError` for a secret outside [1, ℓ−1].
    """
    key = public_key(secret)
    nonce = _nonce_scalar(rng_bytes)
    challenge = _challenge(_domains.EDWARDS_KEY_PROOF, context, [key, _times_base(nonce)])
    return _proof(challenge, (nonce + challenge * secret) % GROUP_ORDER)


def check_key_proof(key: bytes, proof: bytes, context: bytes) -> bool:
    """Whether ``proof`` (:func:`prove_key`) proves ``key`` known, for ``context``: with
    ``A = s·G − e·Y``, ``e = H_key(context, [Y, A])``. Never raises on bad input."""
    read = _read_proof(proof)
    if read is None or not isinstance(context, bytes):
        return False
    challenge, response = read
    try:
        commitment = _subtract(_times_base(response), _times(challenge, key))  # (checks the key)
    except BadCardValue:
        return False
    return hmac.compare_digest(
        _le(_challenge(_domains.EDWARDS_KEY_PROOF, context, [key, commitment])), proof[:SCALAR_SIZE]
    )


# --- the deck -------------------------------------------------------------------------------------


def open_deck(points: Sequence[bytes]) -> list[Ciphertext]:
    """The deck before its first pass: each card point ``M`` as ``(identity, M)``. The first
    pass's re-encryption makes it ``(r·G, M + r·Y)``."""
    return [Ciphertext(IDENTITY, check_point(point, index)) for index, point in enumerate(points)]


def reencrypt(card: Ciphertext, joint_key: bytes, scalar: int) -> Ciphertext:
    """``(nonce + r·G, masked + r·Y)``: the same card, under fresh randomness ``r``."""
    _check_scalar(scalar, "re-encryption scalar")
    return Ciphertext(_add(card.nonce, _times_base(scalar)), _add(card.masked, _times(scalar, joint_key)))


def reencryption_pass(
    deck: Sequence[Ciphertext], joint_key: bytes, permutation: Sequence[int], scalars: Sequence[int]
) -> list[Ciphertext]:
    """One holder's pass: ``out[j] = reencrypt(deck[permutation[j]], Y, scalars[j])``, over a
    deck :func:`read_deck` has read.

    Raises :class:`BadCardValue` (``index`` the input card's position) for a point that is not on
    the curve, or a joint key outside the group, :class:`ValueError` if ``permutation`` is not
    one of ``range(len(deck))`` or there is not one scalar per card, :class:`CryptoError` for a
    scalar outside [1, ℓ−1].
    """
    _check_permutation(permutation, len(deck))
    if len(scalars) != len(deck):
        raise ValueError(f"a pass of {len(deck)} cards needs as many scalars, not {len(scalars)}")
    out = []
    for source, scalar in zip(permutation, scalars):
        try:
            out.append(reencrypt(deck[source], joint_key, scalar))
        except _SodiumError:  # (libsodium's addition decodes both points: one is off the curve)
            raise BadCardValue("not a point of the curve", source) from None
    return out


def check_reencryption_pass(
    inputs: Sequence[Ciphertext],
    outputs: Sequence[Ciphertext],
    joint_key: bytes,
    permutation: Sequence[int],
    scalars: Sequence[int],
) -> int | None:
    """The audit of a pass: ``None`` if ``outputs`` is exactly :func:`reencryption_pass` of
    ``inputs`` with the ``permutation`` and ``scalars`` its author drew (from the seed it
    committed to), else the first output position that is not.

    Raises :class:`ValueError` for lists of different lengths or a bad permutation or scalar
    count (the caller checks what a peer sent before it audits).
    """
    if len(outputs) != len(inputs):
        raise ValueError(f"a pass of {len(inputs)} cards gave {len(outputs)}")
    expected = reencryption_pass(inputs, joint_key, permutation, scalars)
    for position, (wanted, got) in enumerate(zip(expected, outputs)):
        if tuple(got) != tuple(wanted):
            return position
    return None


# --- opening a card -------------------------------------------------------------------------------


def decryption_share(secret: int, nonce: bytes) -> bytes:
    """``D = x·C₁``: a holder's part of opening a card whose nonce is ``C₁``.

    Raises :class:`BadCardValue` if ``nonce`` is no valid point (:func:`is_valid_point`: a secret
    never multiplies one), :class:`CryptoError` for a secret outside [1, ℓ−1].
    """
    return _times(_check_scalar(secret, "secret key"), nonce)


def proven_decryption_share(
    secret: int, nonce: bytes, context: bytes, rng_bytes: bytes | Callable[[int], bytes] | None = None
) -> tuple[bytes, bytes]:
    """``(D, proof)``: :func:`decryption_share` and a Chaum–Pedersen proof that ``D = x·C₁``
    uses the same ``x`` as ``Y = x·G``, bound to ``context`` (the session's deal, slot and seat):
    ``(e, s)`` with ``A₁ = w·G``, ``A₂ = w·C₁`` for a fresh ``w``,
    ``e = H_share(context, [Y, C₁, D, A₁, A₂])``, ``s = w + e·x mod ℓ``.

    ``w`` is drawn like :func:`random_scalar` (``rng_bytes`` injects it: bytes, or a byte
    source as :func:`draw_scalar` takes). Raises as :func:`decryption_share`.
    """
    share = decryption_share(secret, nonce)
    nonce_scalar = _nonce_scalar(rng_bytes)
    challenge = _challenge(
        _domains.EDWARDS_SHARE_PROOF,
        context,
        [public_key(secret), nonce, share, _times_base(nonce_scalar), _times(nonce_scalar, nonce)],
    )
    return share, _proof(challenge, (nonce_scalar + challenge * secret) % GROUP_ORDER)


def check_decryption_share(key: bytes, nonce: bytes, share: bytes, proof: bytes, context: bytes) -> bool:
    """Whether ``share`` is ``x·C₁`` for the ``x`` of ``key = x·G``, as ``proof`` shows
    (:func:`proven_decryption_share`): with ``A₁ = s·G − e·Y`` and ``A₂ = s·C₁ − e·D``,
    ``e = H_share(context, [Y, C₁, D, A₁, A₂])``; ``False`` if ``key``, ``nonce`` or ``share``
    is no valid point (:func:`is_valid_point`). Never raises on bad input."""
    read = _read_proof(proof)
    if read is None or not isinstance(context, bytes):
        return False
    challenge, response = read
    try:  # (each multiplication checks its point)
        first = _subtract(_times_base(response), _times(challenge, key))
        second = _subtract(_times(response, nonce), _times(challenge, share))
    except BadCardValue:
        return False
    expected = _challenge(_domains.EDWARDS_SHARE_PROOF, context, [key, nonce, share, first, second])
    return hmac.compare_digest(_le(expected), proof[:SCALAR_SIZE])


def _share_weights(key: bytes, nonces: Sequence[bytes], shares: Sequence[bytes], context: bytes) -> tuple[bytes, list[int]]:
    """The weights of a batch of shares: ``seed = H₅₁₂(domain ‖ canon([context, Y, nonces,
    shares]))`` and ``z_i = H₅₁₂(seed ‖ canon(i)) mod ℓ``, so each weight is fixed only once
    every share is."""
    seed = hashlib.sha512(_domains.EDWARDS_SHARES_WEIGHTS + canonical.encode([context, key, list(nonces), list(shares)])).digest()
    return seed, [int.from_bytes(hashlib.sha512(seed + canonical.encode(i)).digest(), "little") % GROUP_ORDER
                  for i in range(len(nonces))]


def _weighted_sum(weights: Sequence[int], points: Sequence[bytes]) -> bytes:
    """``Σ z_i·P_i``; :class:`BadCardValue` if a point is not valid (each product checks it)."""
    total = IDENTITY
    for weight, point in zip(weights, points):
        product = _times(weight, point)
        total = product if total == IDENTITY else total if product == IDENTITY else _add(total, product)
    return total


def proven_decryption_shares(
    secret: int, nonces: Sequence[bytes], context: bytes, rng_bytes: bytes | Callable[[int], bytes] | None = None
) -> tuple[list[bytes], bytes]:
    """``(shares, proof)``: :func:`decryption_share` of each nonce and **one** Chaum–Pedersen
    proof for them all (SPEC §C9.3, a batch): with the weights ``z_i`` of
    :func:`_share_weights`, ``M = Σ z_i·C₁ᵢ`` and ``Z = Σ z_i·Dᵢ = x·M``, the proof that
    ``log_G Y = log_M Z`` — ``A₁ = w·G``, ``A₂ = w·M``, ``e = H_shares(canon([context, seed]),
    [Y, M, Z, A₁, A₂])``, ``s = w + e·x``. 64 bytes however many shares.

    Raises :class:`ValueError` for no nonces, and as :func:`decryption_share`; :class:`CryptoError`
    in the negligible case that ``M`` is the identity.
    """
    if not nonces:
        raise ValueError("a batch of shares needs at least one nonce")
    shares = [decryption_share(secret, nonce) for nonce in nonces]
    key = public_key(secret)
    seed, weights = _share_weights(key, nonces, shares, context)
    combined_nonce = _weighted_sum(weights, nonces)
    if combined_nonce == IDENTITY:
        raise CryptoError("the weighted nonces sum to the identity")
    nonce_scalar = _nonce_scalar(rng_bytes)
    challenge = _challenge(
        _domains.EDWARDS_SHARES_PROOF, canonical.encode([context, seed]),
        [key, combined_nonce, _times(secret, combined_nonce), _times_base(nonce_scalar), _times(nonce_scalar, combined_nonce)],
    )
    proof = _proof(challenge, (nonce_scalar + challenge * secret) % GROUP_ORDER)
    _remember_batch(key, nonces, shares, proof, context)
    return shares, proof


def check_decryption_shares(
    key: bytes, nonces: Sequence[bytes], shares: Sequence[bytes], proof: bytes, context: bytes
) -> bool:
    """Whether every ``shares[i]`` is ``x·nonces[i]`` for the ``x`` of ``key = x·G``, as the one
    ``proof`` of :func:`proven_decryption_shares` shows: ``M``, ``Z`` from the weights, then
    ``A₁ = s·G − e·Y``, ``A₂ = s·M − e·Z`` and ``e = H_shares(…)``. ``False`` if the lists
    differ in length or are empty, or a point is not valid. Never raises on bad input.

    Sound as one proof per share is, but for a chance of 1/ℓ per try: a wrong share ``D_i =
    x·C₁ᵢ + E_i`` (``E_i ≠ O``, a group point since every point is checked) leaves ``Z − x·M =
    Σ z_i·E_i``, and the weights, drawn from a hash of every share, make that sum ``O`` for one
    value of ``z_i`` in ℓ, so the proof can't hold (SPEC §C9.3)."""
    read = _read_proof(proof)
    if (read is None or not isinstance(context, bytes) or not nonces or len(nonces) != len(shares)
            or not all(type(point) is bytes for point in (key, *nonces, *shares))):
        return False
    if REMEMBERED_PRODUCTS and _batch_key(key, nonces, shares, proof, context) in _batches:
        return True  # (made or checked in this process: the same inputs, the same answer)
    challenge, response = read
    try:
        check_point(key)
        seed, weights = _share_weights(key, nonces, shares, context)
        combined_nonce = _weighted_sum(weights, nonces)
        combined_share = _weighted_sum(weights, shares)
        if IDENTITY in (combined_nonce, combined_share):
            return False
        first = _subtract(_times_base(response), _times(challenge, key))
        second = _subtract(_times(response, combined_nonce), _times(challenge, combined_share))
    except BadCardValue:
        return False
    expected = _challenge(
        _domains.EDWARDS_SHARES_PROOF, canonical.encode([context, seed]),
        [key, combined_nonce, combined_share, first, second],
    )
    if not hmac.compare_digest(_le(expected), proof[:SCALAR_SIZE]):
        return False
    _remember_batch(key, nonces, shares, proof, context)
    return True


def _batch_key(
    key: bytes, nonces: Sequence[bytes], shares: Sequence[bytes], proof: bytes, context: bytes
) -> tuple[bytes, tuple[bytes, ...], tuple[bytes, ...], bytes, bytes]:
    return key, tuple(nonces), tuple(shares), proof, context


def _remember_batch(key: bytes, nonces: Sequence[bytes], shares: Sequence[bytes], proof: bytes, context: bytes) -> None:
    """Note a batch of shares whose proof holds (one this process made, or checked), so that
    :func:`check_decryption_shares` answers it again at once: up to 1/256 of
    :data:`REMEMBERED_PRODUCTS` of them (none while it is 0; a game needs only its last deals')."""
    bound = REMEMBERED_PRODUCTS >> 8
    if not bound:
        return
    if len(_batches) >= bound:
        for old in list(_batches)[: bound // 2]:  # the older half at once (as _times's memo)
            _batches.pop(old, None)
    _batches[_batch_key(key, nonces, shares, proof, context)] = None


#: The batches of shares known to hold, by everything their check reads (see
#: :func:`_remember_batch`). A peer checks its own ``keys`` submission as it comes back in the
#: log, and a last holder the shares riding with its own pass: each time about 40 products its
#: proof's making has not left in :data:`_products` (the weighted shares). A batch is kept only
#: once made by :func:`proven_decryption_shares` (which a check then accepts: the shares are the
#: secret's products of valid nonces, and their weighted sum is not the identity, since the
#: nonces' is not) or accepted by a full check, and a check looks it up only after the types it
#: refuses are refused, so the answer is the one a full check gives.
_batches: dict[tuple[bytes, tuple[bytes, ...], tuple[bytes, ...], bytes, bytes], None] = {}


def decrypt(card: Ciphertext, shares: Sequence[bytes]) -> bytes:
    """``masked − D_1 − … − D_h``: the card's point, given every holder's decryption share (the
    caller's own included, each already checked). The result is the identity or some point
    other than a card's if a share or a pass was wrong; the caller looks it up among the deal's
    card points. Raises :class:`BadCardValue` if a point is off the curve."""
    point = card.masked
    try:
        for share in shares:
            point = _subtract(point, share)
    except _SodiumError:  # (libsodium's subtraction decodes both points: one is off the curve)
        raise BadCardValue("not a point of the curve") from None
    return point


# --- escrow of a holder's key ---------------------------------------------------------------------


def split_key(secret: int, holders: int) -> list[int]:
    """``secret`` as ``holders`` additive shares, ``s_1 + … + s_m = secret mod ℓ``.

    The first ``m − 1`` are drawn like :func:`random_scalar` from the stream
    HMAC-SHA256(secret as 32 bytes, ``b"p2pgames/v1/edwards-key-split\\x00"`` ‖ canonical m), and the last
    makes the sum; so whoever learns the secret at the audit can recompute every share and check
    the escrow its holder signed. Any ``m − 1`` shares say nothing of the secret. Raises
    :class:`CryptoError` for a secret outside [1, ℓ−1], :class:`ValueError` for fewer than one
    holder, and :class:`CryptoError` in the (2⁻²⁵⁰) case where the last share would be 0.
    """
    _check_scalar(secret, "secret key")
    if type(holders) is not int or holders < 1:
        raise ValueError(f"a key is split among at least one holder, not {holders!r}")
    stream = secret_stream(_le(secret), _domains.EDWARDS_KEY_SPLIT + canonical.encode(holders))
    shares = [draw_scalar(stream) for _ in range(holders - 1)]
    last = (secret - sum(shares)) % GROUP_ORDER
    if last == 0:
        raise CryptoError("this secret's split has a zero share; draw another secret")
    return [*shares, last]


def key_share_commitments(shares: Sequence[int]) -> list[bytes]:
    """``s_i·G`` for each share: what its holder checks its share against, and the key a share's
    decryption proof is checked with."""
    return [public_key(share) for share in shares]


def check_key_split(key: bytes, commitments: Sequence[bytes]) -> bool:
    """Whether the shares' commitments sum to ``key``, so the shares open what the key opens.
    Never raises on bad input."""
    if not is_valid_point(key) or not isinstance(commitments, Sequence):
        return False
    try:
        return point_sum(commitments) == key
    except CryptoError:  # (none, one not a point of the group, or a sum that is the identity)
        return False
