"""Every domain-separation prefix used by :mod:`p2pgames.crypto`, in one place.

Each prefix is ASCII, starts with ``p2pgames/v1/`` and ends with a zero byte, so no two
constructions can ever hash or sign the same bytes. Signatures add the caller's domain name
between :data:`SIGN` and the zero byte, which is why :data:`SIGN` alone has none.
"""

from __future__ import annotations

VERSION_PREFIX = b"p2pgames/v1/"

SIGN = VERSION_PREFIX + b"sign/"  # + domain name + b"\x00" + canonical payload
FINGERPRINT = VERSION_PREFIX + b"fingerprint\x00"
COMMIT = VERSION_PREFIX + b"commit\x00"
JOINT_SEED = VERSION_PREFIX + b"joint-seed\x00"
CARD = VERSION_PREFIX + b"card\x00"
SEAL = VERSION_PREFIX + b"seal\x00"
SEALED = VERSION_PREFIX + b"sealed\x00"
ESCROW_SPLIT = VERSION_PREFIX + b"escrow-split\x00"
ESCROW_SHARE = VERSION_PREFIX + b"escrow-share\x00"
ESCROW_SEED = VERSION_PREFIX + b"escrow-seed\x00"
MERKLE_TREE = VERSION_PREFIX + b"merkle-tree\x00"
# The ElGamal deck on edwards25519 (elgamal.py, SPEC §C9).
EDWARDS_CARD = VERSION_PREFIX + b"edwards-card\x00"
EDWARDS_KEY_PROOF = VERSION_PREFIX + b"edwards-key-proof\x00"
EDWARDS_SHARE_PROOF = VERSION_PREFIX + b"edwards-share-proof\x00"
EDWARDS_SHARES_WEIGHTS = VERSION_PREFIX + b"edwards-shares-weights\x00"
EDWARDS_SHARES_PROOF = VERSION_PREFIX + b"edwards-shares-proof\x00"
EDWARDS_KEY_SPLIT = VERSION_PREFIX + b"edwards-key-split\x00"

# Not a byte prefix: the deck domain under which the verifier base point is hashed to the curve.
VERIFIER_BASE_DOMAIN = "p2pgames/v1/verifier-base"
