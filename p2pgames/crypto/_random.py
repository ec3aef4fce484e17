"""Where the randomness comes from: ``os.urandom``, or bytes injected by a test or vector."""

from __future__ import annotations

import hashlib
import hmac
import os

from ._errors import CryptoError


class ByteSource:
    """Hands out random bytes: from ``os.urandom``, or front to back from ``injected``.

    Injected bytes let tests and vectors be deterministic; running out of them raises
    :class:`CryptoError` rather than silently falling back to real randomness.
    """

    __slots__ = ("_injected", "_offset")

    def __init__(self, injected: bytes | None) -> None:
        if injected is not None and not isinstance(injected, bytes | bytearray | memoryview):
            raise TypeError(f"injected randomness must be bytes, not {type(injected).__name__}")
        self._injected = None if injected is None else bytes(injected)
        self._offset = 0

    def take(self, count: int) -> bytes:
        if self._injected is None:
            return os.urandom(count)
        end = self._offset + count
        if end > len(self._injected):
            raise CryptoError(
                f"injected randomness ran out: needed {end} bytes, got {len(self._injected)}"
            )
        chunk = self._injected[self._offset : end]
        self._offset = end
        return chunk


class ReproducibleBytes:
    """The byte source :func:`reproducible_bytes` returns: a plain object, so ``copy.deepcopy``
    of a peer copies where its stream has got to (a closure would be shared by the copies)."""

    __slots__ = ("label", "counter")

    def __init__(self, label: bytes) -> None:
        self.label = label
        self.counter = 0

    def __call__(self, count: int) -> bytes:
        out = b""
        while len(out) < count:
            out += hashlib.sha256(self.label + self.counter.to_bytes(8, "big")).digest()
            self.counter += 1
        return out[:count]


def reproducible_bytes(label: bytes) -> ReproducibleBytes:
    """A *predictable* byte source for tests, vectors and benchmarks — never for real games.

    Each call ``source(n)`` takes the next whole blocks SHA-256(label ‖ counter) (counter as 8
    bytes big-endian, counting on from call to call) and returns their first ``n`` bytes; the rest
    of the last block is dropped. Peers built on it reproduce a game exactly from their labels.
    """
    if not isinstance(label, bytes):
        raise TypeError("label must be bytes")
    return ReproducibleBytes(label)


class SecretStream:
    """The byte source :func:`secret_stream` returns (see there)."""

    __slots__ = ("_key", "_label", "_counter")

    def __init__(self, key: bytes, label: bytes) -> None:
        self._key = key
        self._label = label
        self._counter = 0

    def __call__(self, count: int) -> bytes:
        out = b""
        while len(out) < count:
            out += hmac.digest(self._key, self._label + self._counter.to_bytes(8, "big"), "sha256")
            self._counter += 1
        return out[:count]

    def __repr__(self) -> str:  # the key never appears
        return f"SecretStream(label={self._label!r})"


def secret_stream(seed: bytes, label: bytes) -> SecretStream:
    """The secret bytes named ``label`` under the 32-byte secret ``seed``.

    Each call ``source(n)`` takes the next whole blocks HMAC-SHA256(seed, label ‖ counter)
    (counter as 8 bytes big-endian, counting on from call to call) and returns their first ``n``
    bytes. A seat draws every secret of a game this way, each from its own label, so the same
    seed gives the same keys, salts and contributions whatever order they are needed in: a peer
    that restarts re-derives them from its saved seed instead of saving each one. Raises
    :class:`~p2pgames.crypto.CryptoError` if ``seed`` is not 32 bytes.
    """
    if not isinstance(seed, bytes) or len(seed) != 32:
        raise CryptoError("a secret seed is 32 bytes")
    if not isinstance(label, bytes):
        raise TypeError("label must be bytes")
    return SecretStream(seed, label)
