"""Ed25519 identities, domain-separated signatures over canonical msgpack, key fingerprints."""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass, field
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from .. import canonical
from ..words import with_article
from . import _domains
from ._errors import BadSignature, CryptoError
from ._random import ByteSource

__all__ = ["Identity", "PublicKey", "fingerprint_matches"]

SIGNATURE_SIZE = 64
KEY_SIZE = 32
_FINGERPRINT_BYTES = 10  # 80 bits: exactly 16 base32 characters, no padding


def _signing_input(domain: str, payload: Any) -> bytes:
    # b"p2pgames/v1/sign/" + domain + b"\x00" + canonical payload. A NUL inside the domain would let
    # two (domain, payload) pairs share these bytes, so it is refused.
    if not isinstance(domain, str) or not domain or "\x00" in domain:
        raise ValueError(f"signature domain must be a non-empty string without NUL, got {domain!r}")
    return _domains.SIGN + domain.encode("utf-8") + b"\x00" + canonical.encode(payload)


# --- Ed25519 point checks -------------------------------------------------------------------------
# OpenSSL loads any 32 bytes as an Ed25519 public key. Bytes that are not a point can never verify,
# and a small-order point (the identity, for one) verifies a forged signature on *every* message —
# which would let its owner deny what they signed. Both are refused when a PublicKey is made.

_ED_P = 2**255 - 19
_ED_D = (-121665 * pow(121666, -1, _ED_P)) % _ED_P
_ED_SQRT_M1 = pow(2, (_ED_P - 1) // 4, _ED_P)


def _ed25519_decode(raw: bytes) -> tuple[int, int] | None:
    """Affine (x, y) of an RFC 8032 point encoding, or ``None`` if it encodes no point."""
    y = int.from_bytes(raw, "little") & ((1 << 255) - 1)
    sign = raw[31] >> 7
    if y >= _ED_P:
        return None
    u = (y * y - 1) % _ED_P
    v = (_ED_D * y * y + 1) % _ED_P
    x = u * pow(v, 3, _ED_P) * pow(u * pow(v, 7, _ED_P), (_ED_P - 5) // 8, _ED_P) % _ED_P
    vxx = v * x * x % _ED_P
    if vxx == (-u) % _ED_P:
        x = x * _ED_SQRT_M1 % _ED_P
    elif vxx != u:
        return None
    if x == 0 and sign:
        return None
    if x & 1 != sign:
        x = _ED_P - x
    return x, y


def _has_small_order(point: tuple[int, int]) -> bool:
    # The cofactor is 8: a point has small order exactly when 8·P is the identity (0 : 1 : 1).
    # Three projective doublings (a = −1, "dbl-2008-bbjlp") avoid Python's slow modular inverses.
    p = _ED_P
    x, y, z = point[0], point[1], 1
    for _ in range(3):
        b = (x + y) * (x + y) % p
        c = x * x % p
        d = y * y % p
        f = (d - c) % p
        j = (f - 2 * z * z) % p
        x, y, z = (b - c - d) * j % p, f * (-c - d) % p, f * j % p
    return x == 0 and y == z


# Signatures this process has verified, by (key, signature, SHA-256 of the signed bytes): the same
# envelope is often checked again — by each session of a process that runs several (bots, tests),
# by a transcript's verification after the game, by a resume. Ed25519 verification is
# deterministic, so a success found here is the success the library would give; failures are never
# kept. Bounded: the oldest half goes when it is full.
_VERIFIED: dict[tuple[bytes, bytes, bytes], None] = {}
_VERIFIED_MAX = 1 << 15


def _remember_verified(key: tuple[bytes, bytes, bytes]) -> None:
    if not _VERIFIED_MAX:  # (see crypto.nothing_remembered)
        return
    if len(_VERIFIED) >= _VERIFIED_MAX:
        for old in list(_VERIFIED)[: _VERIFIED_MAX // 2]:
            _VERIFIED.pop(old, None)  # (another thread may have taken it)
    _VERIFIED[key] = None


@dataclass(frozen=True, slots=True)
class PublicKey:
    """An Ed25519 public key: 32 raw bytes (RFC 8032 encoding).

    Construction raises :class:`CryptoError` unless ``raw`` is 32 bytes that canonically encode a
    curve point of more than small order. The loaded library key is kept alongside (not compared,
    not hashed) so :meth:`verify` doesn't parse the key again for every message.
    """

    raw: bytes
    _loaded: Ed25519PublicKey = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        raw = self.raw
        if isinstance(raw, bytearray | memoryview):
            raw = bytes(raw)
            object.__setattr__(self, "raw", raw)
        if not isinstance(raw, bytes):
            raise TypeError(f"public key must be bytes, not {type(raw).__name__}")
        if len(raw) != KEY_SIZE:
            raise CryptoError(f"an Ed25519 public key is {KEY_SIZE} bytes, got {len(raw)}")
        point = _ed25519_decode(raw)
        if point is None:
            raise CryptoError(f"{raw.hex()} is not a valid Ed25519 public key (not a curve point)")
        if _has_small_order(point):
            raise CryptoError(f"{raw.hex()} is not a valid Ed25519 public key (small-order point)")
        object.__setattr__(self, "_loaded", Ed25519PublicKey.from_public_bytes(raw))

    def __repr__(self) -> str:
        return f"PublicKey(bytes.fromhex({self.raw.hex()!r}))"

    def verify(self, domain: str, payload: Any, signature: bytes) -> None:
        """Check that ``signature`` signs ``payload`` under ``domain`` with this key.

        Returns ``None`` on success. Raises :class:`BadSignature` for every signature that does not
        verify — whatever bytes (or non-bytes) it is — and never returns a false value. A
        ``payload`` that can't be encoded canonically raises
        :class:`~p2pgames.canonical.CanonicalError` and an invalid ``domain`` raises
        :class:`ValueError`: those are the caller's bugs.
        """
        message = _signing_input(domain, payload)
        is_bytes = isinstance(signature, bytes | bytearray | memoryview)
        if not is_bytes or len(signature) != SIGNATURE_SIZE:
            raise BadSignature(
                f"a signature is {SIGNATURE_SIZE} bytes; got {_describe(signature)} "
                f"(key {self.fingerprint()}, domain {domain!r})"
            )
        signature = bytes(signature)
        remembered = (self.raw, signature, hashlib.sha256(message).digest())
        if _VERIFIED_MAX and remembered in _VERIFIED:
            return
        try:
            self._loaded.verify(signature, message)
        except InvalidSignature:
            raise BadSignature(
                f"signature does not verify for key {self.fingerprint()} in domain {domain!r}"
            ) from None
        _remember_verified(remembered)

    def fingerprint(self) -> str:
        """The key's fingerprint for people to compare: ``xxxx-xxxx-xxxx-xxxx``.

        The 16 characters are the lowercase RFC 4648 base32 (no padding) of the first 10 bytes of
        SHA-256(``b"p2pgames/v1/fingerprint\\x00"`` ‖ raw key), grouped by four.
        """
        compact = _compact_fingerprint(self.raw)
        return "-".join(compact[i : i + 4] for i in range(0, len(compact), 4))


def _compact_fingerprint(raw: bytes) -> str:
    digest = hashlib.sha256(_domains.FINGERPRINT + raw).digest()
    return base64.b32encode(digest[:_FINGERPRINT_BYTES]).decode("ascii").lower()


def _describe(value: object) -> str:
    if isinstance(value, bytes | bytearray | memoryview):
        return f"{len(value)} bytes"
    return with_article(type(value).__name__)


def fingerprint_matches(fingerprint_text: object, key: PublicKey) -> bool:
    """Whether ``fingerprint_text`` is ``key``'s fingerprint.

    Accepts the 16 characters with or without dashes, in any case, with surrounding whitespace.
    Anything else — wrong length, other characters, not a string at all — is ``False``.
    """
    if not isinstance(fingerprint_text, str):
        return False
    candidate = fingerprint_text.strip().replace("-", "").lower()
    expected = _compact_fingerprint(key.raw)
    # compare_digest wants ASCII; a non-ASCII candidate can't match anyway.
    if not candidate.isascii():
        return False
    return hmac.compare_digest(candidate, expected)


class Identity:
    """An Ed25519 private key: who a peer is. Signs protocol messages.

    Make one with :meth:`generate` or :meth:`from_private_bytes`, or wrap a library
    ``Ed25519PrivateKey`` (as loaded from a PEM file) directly. The private key never appears in
    ``repr``.
    """

    __slots__ = ("_private", "_public")

    def __init__(self, private_key: Ed25519PrivateKey) -> None:
        if not isinstance(private_key, Ed25519PrivateKey):
            raise TypeError(f"expected an Ed25519PrivateKey, got {type(private_key).__name__}")
        self._private = private_key
        self._public = PublicKey(private_key.public_key().public_bytes_raw())

    @classmethod
    def generate(cls, rng_bytes: bytes | None = None) -> Identity:
        """A new identity from 32 random bytes (``os.urandom``, or ``rng_bytes`` if given).

        Raises :class:`CryptoError` if ``rng_bytes`` is shorter than 32 bytes.
        """
        return cls.from_private_bytes(ByteSource(rng_bytes).take(KEY_SIZE))

    @classmethod
    def from_private_bytes(cls, raw: bytes) -> Identity:
        """The identity whose RFC 8032 private key (seed) is the 32 bytes ``raw``.

        Raises :class:`CryptoError` if ``raw`` is not 32 bytes.
        """
        if not isinstance(raw, bytes | bytearray | memoryview) or len(raw) != KEY_SIZE:
            raise CryptoError(f"an Ed25519 private key is {KEY_SIZE} bytes, got {_describe(raw)}")
        return cls(Ed25519PrivateKey.from_private_bytes(bytes(raw)))

    def private_bytes(self) -> bytes:
        """The 32-byte private key (seed). Keep it secret."""
        return self._private.private_bytes_raw()

    @property
    def public_key(self) -> PublicKey:
        return self._public

    def sign(self, domain: str, payload: Any) -> bytes:
        """The 64-byte Ed25519 signature of ``payload`` under ``domain``.

        Signs ``b"p2pgames/v1/sign/" + domain.encode() + b"\\x00" + canonical.encode(payload)``.
        Raises :class:`ValueError` for an empty domain or one containing NUL, and
        :class:`~p2pgames.canonical.CanonicalError` if ``payload`` can't be encoded canonically.
        """
        return self._private.sign(_signing_input(domain, payload))

    def __repr__(self) -> str:
        return f"<Identity {self._public.fingerprint()}>"
