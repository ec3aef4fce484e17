"""A deterministic random stream: SHA-256 in counter mode, integers by rejection sampling.

Chance in a game comes from a seed the peers agree on (joint randomness in ``crypto``); the engine
turns the seed into numbers with this stream so every peer draws the same numbers. The stream's
position is part of whatever state holds it, so it is hashed like everything else.
"""

from __future__ import annotations

import hashlib
from typing import MutableSequence, TypeVar

__all__ = ["DeterministicRandom"]

_DOMAIN = b"p2pgames/v1/stream\x00"
T = TypeVar("T")


class DeterministicRandom:
    """Numbers drawn from ``seed``: block *i* is SHA-256(domain ‖ seed ‖ i as 8 bytes big-endian).

    ``below(n)`` takes one block per attempt, keeps its top ``(n-1).bit_length()`` bits and retries
    while the result is ``>= n`` (so it is unbiased). ``shuffle`` is Fisher–Yates from the end.
    """

    __slots__ = ("seed", "counter")

    def __init__(self, seed: bytes, counter: int = 0) -> None:
        if not isinstance(seed, bytes) or len(seed) == 0:
            raise ValueError("seed must be non-empty bytes")
        self.seed = seed
        self.counter = counter

    def _block(self) -> int:
        block = hashlib.sha256(_DOMAIN + self.seed + self.counter.to_bytes(8, "big")).digest()
        self.counter += 1
        return int.from_bytes(block, "big")

    def below(self, n: int) -> int:
        """An integer in ``range(n)``; raises ``ValueError`` unless ``n >= 1``."""
        if n < 1:
            raise ValueError(f"below({n}): n must be at least 1")
        if n == 1:
            return 0
        shift = 256 - (n - 1).bit_length()
        while True:
            value = self._block() >> shift
            if value < n:
                return value

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle ``items`` in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def encode(self) -> list:
        return [self.seed, self.counter]

    @classmethod
    def decode(cls, data) -> "DeterministicRandom":
        seed, counter = data
        return cls(bytes(seed), int(counter))

    def copy(self) -> "DeterministicRandom":
        return DeterministicRandom(self.seed, self.counter)

    def __repr__(self) -> str:
        return f"DeterministicRandom({self.seed!r}, {self.counter!r})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, DeterministicRandom)
            and self.seed == other.seed
            and self.counter == other.counter
        )
