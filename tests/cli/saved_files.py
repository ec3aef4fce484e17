"""Files a player's machine holds, made for command-line tests: an identity profile's key, and
where the protocol's transcript vectors (whole games, seat 1's transcripts) are."""

from __future__ import annotations

from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pgames.crypto import Identity, reproducible_bytes

VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors"


def write_profile(home: Path, name: str, seed: bytes) -> Identity:
    """Profile ``name`` in ``home`` with the identity a seat seeded with ``seed`` has (as the
    session vectors' seats are: ``b"vector\\x01"`` is seat 1 of the games seeded ``vector``)."""
    identity = Identity.generate(reproducible_bytes(seed)(32))
    pem = Ed25519PrivateKey.from_private_bytes(identity.private_bytes()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption(),
    )
    (home / "identities").mkdir(parents=True, exist_ok=True)
    key = home / "identities" / f"{name}.key"
    key.write_bytes(pem)
    key.chmod(0o600)
    return identity
