"""Sealed private messages: readable only by the holder of one X25519 key.

The host relays them but can't read them. A message is sealed to a fresh ephemeral key, so every
message has its own symmetric key and a fixed nonce is safe.
"""

from __future__ import annotations

import hashlib

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from . import _domains
from ._errors import SealError
from ._random import ByteSource

__all__ = ["SealKey", "seal", "open_sealed", "sealed_commitment", "SEAL_OVERHEAD"]

_KEY_SIZE = 32
_TAG_SIZE = 16
_NONCE = bytes(12)
#: Bytes a sealed message adds to its plaintext: ephemeral public key and Poly1305 tag.
SEAL_OVERHEAD = _KEY_SIZE + _TAG_SIZE


class SealKey:
    """An X25519 private key that sealed messages are addressed to (via :meth:`public_bytes`).

    The private key never appears in ``repr``.
    """

    __slots__ = ("_private", "_public_bytes")

    def __init__(self, private_key: X25519PrivateKey) -> None:
        if not isinstance(private_key, X25519PrivateKey):
            raise TypeError(f"expected an X25519PrivateKey, got {type(private_key).__name__}")
        self._private = private_key
        self._public_bytes = private_key.public_key().public_bytes_raw()

    @classmethod
    def generate(cls, rng_bytes: bytes | None = None) -> SealKey:
        """A new key from 32 random bytes (``os.urandom``, or ``rng_bytes`` if given).

        Raises :class:`~p2pgames.crypto.CryptoError` if ``rng_bytes`` is shorter than 32 bytes.
        """
        return cls.from_private_bytes(ByteSource(rng_bytes).take(_KEY_SIZE))

    @classmethod
    def from_private_bytes(cls, raw: bytes) -> SealKey:
        """The key whose RFC 7748 private scalar is the 32 bytes ``raw``.

        Raises :class:`SealError` if ``raw`` is not 32 bytes.
        """
        if not isinstance(raw, bytes) or len(raw) != _KEY_SIZE:
            raise SealError(f"an X25519 private key is {_KEY_SIZE} bytes")
        return cls(X25519PrivateKey.from_private_bytes(raw))

    def private_bytes(self) -> bytes:
        """The 32-byte private key. Keep it secret."""
        return self._private.private_bytes_raw()

    def public_bytes(self) -> bytes:
        """The 32-byte X25519 public key to publish."""
        return self._public_bytes

    def __repr__(self) -> str:
        return f"<SealKey public={self._public_bytes.hex()}>"


def _message_key(shared: bytes, ephemeral_public: bytes, recipient_public: bytes) -> bytes:
    return HKDF(
        algorithm=hashes.SHA256(),
        length=32,
        salt=b"",
        info=_domains.SEAL + ephemeral_public + recipient_public,
    ).derive(shared)


def _exchange(private_key: X25519PrivateKey, public: bytes, whose: str) -> bytes:
    try:
        return private_key.exchange(X25519PublicKey.from_public_bytes(public))
    except ValueError:
        # The library refuses an all-zero shared secret: the other key is a low-order point.
        raise SealError(f"{whose} key {public.hex()} is a low-order point") from None


def seal(
    recipient_public: bytes,
    plaintext: bytes,
    associated_data: bytes,
    ephemeral_private: bytes | None = None,
) -> bytes:
    """Seal ``plaintext`` so only the holder of ``recipient_public``'s key can read it.

    Returns ephemeral public key (32 bytes) ‖ ChaCha20-Poly1305 ciphertext and tag, under key
    HKDF-SHA256(X25519 shared secret, salt = empty, info = ``b"p2pgames/v1/seal\\x00"`` ‖ ephemeral
    public ‖ recipient public) and a zero nonce. ``associated_data`` is authenticated, not sent.
    ``ephemeral_private`` is for tests and vectors only: reusing one would reuse a key and nonce.
    Raises :class:`SealError` if ``recipient_public`` is not a usable 32-byte X25519 key.
    """
    if not isinstance(recipient_public, bytes) or len(recipient_public) != _KEY_SIZE:
        raise SealError(f"a recipient key is {_KEY_SIZE} bytes")
    ephemeral = SealKey.generate(ephemeral_private)
    ephemeral_public = ephemeral.public_bytes()
    shared = _exchange(ephemeral._private, recipient_public, "recipient")
    key = _message_key(shared, ephemeral_public, recipient_public)
    return ephemeral_public + ChaCha20Poly1305(key).encrypt(_NONCE, plaintext, associated_data)


def open_sealed(key: SealKey, sealed: bytes, associated_data: bytes) -> bytes:
    """The plaintext of a message sealed to ``key`` with ``associated_data``.

    Raises :class:`SealError` if ``sealed`` is shorter than 48 bytes, was sealed to another key or
    with other associated data, or was changed in any way.
    """
    if not isinstance(sealed, bytes) or len(sealed) < SEAL_OVERHEAD:
        raise SealError(f"a sealed message is at least {SEAL_OVERHEAD} bytes")
    ephemeral_public = sealed[:_KEY_SIZE]
    shared = _exchange(key._private, ephemeral_public, "ephemeral")
    message_key = _message_key(shared, ephemeral_public, key.public_bytes())
    try:
        return ChaCha20Poly1305(message_key).decrypt(_NONCE, sealed[_KEY_SIZE:], associated_data)
    except InvalidTag:
        raise SealError(
            "sealed message does not open: tampered, or not sealed to this key"
        ) from None


def sealed_commitment(plaintext: bytes) -> bytes:
    """SHA-256(``b"p2pgames/v1/sealed\\x00"`` ‖ ``plaintext``), for the sender to sign.

    ChaCha20-Poly1305 does not commit to its key, so a signed ciphertext alone doesn't pin down what
    it says; this does, and lets a recipient who discloses the plaintext prove what was sent. It
    hides the plaintext only if the plaintext is hard to guess (a key is; a card name is not — add a
    random salt to such plaintexts).
    """
    if not isinstance(plaintext, bytes):
        raise TypeError(f"plaintext must be bytes, not {type(plaintext).__name__}")
    return hashlib.sha256(_domains.SEALED + plaintext).digest()
