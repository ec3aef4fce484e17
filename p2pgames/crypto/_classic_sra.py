"""Classic SRA over a 2048-bit prime: a benchmark baseline only.

p2pgames does **not** use this. It exists so the benchmarks can show why the deck is built on
P-256 instead: one 2048-bit modular exponentiation costs about 200 times one P-256 exchange.
Commutative: ``pow(pow(m, e1, p), e2, p) == pow(pow(m, e2, p), e1, p)``, and
``d = e⁻¹ mod (p−1)`` decrypts.
"""

from __future__ import annotations

from dataclasses import dataclass

from ._random import ByteSource

__all__ = ["CLASSIC_SRA_PRIME", "ClassicSRA", "classic_encrypt"]

#: The RFC 3526 group 14 (2048-bit MODP) prime, a safe prime: (p − 1) / 2 is prime.
CLASSIC_SRA_PRIME = int(
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74"
    "020BBEA63B139B22514A08798E3404DDEF9519B3CD3A431B302B0A6DF25F1437"
    "4FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
    "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF05"
    "98DA48361C55D39A69163FA8FD24CF5F83655D23DCA3AD961C62F356208552BB"
    "9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B"
    "E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF695581718"
    "3995497CEA956AE515D2261898FA051015728E5A8AACAA68FFFFFFFFFFFFFFFF",
    16,
)
_PRIME_BYTES = 256


def classic_encrypt(m: int, e: int, p: int = CLASSIC_SRA_PRIME) -> int:
    """``pow(m, e, p)``: encryption with ``e`` or decryption with ``d``."""
    return pow(m, e, p)


@dataclass(frozen=True)
class ClassicSRA:
    """A classic SRA key pair ``(e, d)`` modulo ``p``. Baseline for benchmarks; not used."""

    e: int
    d: int
    p: int = CLASSIC_SRA_PRIME

    @classmethod
    def generate(cls, rng_bytes: bytes | None = None, p: int = CLASSIC_SRA_PRIME) -> ClassicSRA:
        """A key pair with a random ``e`` in [3, p − 1] coprime to ``p − 1``.

        Draws 256-byte candidates (``os.urandom`` or front to back from ``rng_bytes``; raises
        :class:`~p2pgames.crypto.CryptoError` if they run out) and keeps the first that works.
        """
        source = ByteSource(rng_bytes)
        while True:
            e = int.from_bytes(source.take(_PRIME_BYTES), "big") % p
            if e > 2:
                try:
                    d = pow(e, -1, p - 1)
                except ValueError:  # not coprime to p − 1
                    continue
                return cls(e, d, p)

    def encrypt(self, m: int) -> int:
        return pow(m, self.e, self.p)

    def decrypt(self, c: int) -> int:
        return pow(c, self.d, self.p)
