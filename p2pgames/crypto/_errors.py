"""The exceptions raised by :mod:`p2pgames.crypto`."""

from __future__ import annotations

__all__ = ["CryptoError", "BadSignature", "BadCommitment", "BadCardValue", "SealError"]


class CryptoError(Exception):
    """Base class: a cryptographic check failed or an input can't be used.

    Raised directly for malformed inputs that have no more specific class: a public key that is not
    a usable Ed25519 key, a scalar outside ``[1, n−1]``, contributions of the wrong length,
    injected randomness that ran out.
    """


class BadSignature(CryptoError):
    """A signature does not verify for the given key, domain and payload."""


class BadCommitment(CryptoError):
    """An opening (value and salt) does not match the commitment it claims to open."""


class BadCardValue(CryptoError):
    """A deck value is not 32 bytes, not the x-coordinate of a P-256 point, or not a card.

    ``index`` is the position of the offending item when the value came from a list, else ``None``.
    """

    def __init__(self, message: str, index: int | None = None) -> None:
        if index is not None:
            message = f"item {index}: {message}"
        super().__init__(message)
        self.index = index


class SealError(CryptoError):
    """A sealed message can't be made or opened: tampered, truncated, wrong key or bad key."""
