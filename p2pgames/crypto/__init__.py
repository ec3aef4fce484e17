"""The cryptography of p2pgames: pure functions over bytes, no I/O, no clock, and no global state
but bounded memos of pure results (card points, scalar inverses, the deck's last products,
verified signatures), which change no answer (:func:`nothing_remembered` turns them off, for
benchmarks).

* identities and signatures — :class:`Identity`, :class:`PublicKey`, :func:`fingerprint_matches`
* commitments — :func:`commit`, :func:`check_opening`
* joint randomness — :func:`random_contribution`, :func:`combine_contributions`
* the mental-poker deck — :func:`card_point`, :func:`shuffle_pass`, :func:`lock_pass`,
  :func:`shuffle_lock_pass`, :func:`unlock`, :class:`CardTable` and the audit checks
* sealed private messages — :class:`SealKey`, :func:`seal`, :func:`open_sealed`,
  :func:`sealed_commitment`
* the ElGamal deck the next protocol version will deal with (SPEC §C9), as the namespace
  ``crypto.elgamal`` (its names would clash with this deck's): ``elgamal.card_point``,
  ``elgamal.reencryption_pass``, ``elgamal.decryption_share`` …
* key escrow — :func:`split_secret`, :func:`check_share`, :func:`rebuild_secret`,
  :func:`shares_from_seed`, and the Merkle tree its lock escrows sign (:func:`merkle_root`,
  :func:`merkle_path`, :func:`check_merkle_path`)

Randomness comes only from ``os.urandom``; every function that draws it takes an optional argument
to inject the bytes instead, for tests and test vectors. ``protocol/SPEC.md (Part C)`` specifies every
construction byte for byte.
"""

from ._classic_sra import CLASSIC_SRA_PRIME, ClassicSRA, classic_encrypt
from . import _elgamal as elgamal
from ._commit import COMMITMENT_SIZE, SALT_SIZE, check_opening, commit
from ._deck import (
    CARD_VALUE_SIZE,
    CURVE_ORDER,
    FIELD_PRIME,
    VERIFIER_BASE,
    CardTable,
    PreparedScalars,
    card_point,
    check_lock_key,
    check_lock_pass,
    check_reshuffle_pass,
    check_shuffle_lock_pass,
    check_shuffle_pass,
    combine_keys,
    encrypt,
    lock_pass,
    lock_scalars,
    lock_verifiers,
    prepare_scalars,
    rekey_pass,
    rekey_scalars,
    random_permutation,
    random_scalar,
    reshuffle_pass,
    scalar_from_bytes,
    scalar_to_bytes,
    shuffle_lock_pass,
    shuffle_pass,
    transform,
    unlock,
)
from ._escrow import (
    ESCROW_SEED_SIZE,
    MAX_ESCROW_HOLDERS,
    SHARE_COMMITMENT_SIZE,
    check_share,
    escrow_commitments,
    share_digest,
    rebuild_secret,
    share_commitment,
    shares_from_seed,
    split_secret,
)
from ._merkle import MERKLE_HASH_SIZE, check_merkle_path, merkle_path, merkle_path_fits, merkle_path_length, merkle_root
from ._errors import BadCardValue, BadCommitment, BadSignature, CryptoError, SealError
from ._identity import Identity, PublicKey, fingerprint_matches
from ._joint import CONTRIBUTION_SIZE, combine_contributions, random_contribution
from ._random import reproducible_bytes, secret_stream
from ._remembered import nothing_remembered
from ._sealed import SEAL_OVERHEAD, SealKey, open_sealed, seal, sealed_commitment

__all__ = [
    # errors
    "CryptoError",
    "BadSignature",
    "BadCommitment",
    "BadCardValue",
    "SealError",
    # identities
    "Identity",
    "PublicKey",
    "fingerprint_matches",
    # commitments
    "commit",
    "check_opening",
    "COMMITMENT_SIZE",
    "SALT_SIZE",
    # randomness for tests and benchmarks only
    "reproducible_bytes",
    "secret_stream",
    # timing without the memos, for benchmarks
    "nothing_remembered",
    # joint randomness
    "random_contribution",
    "combine_contributions",
    "CONTRIBUTION_SIZE",
    # deck
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
    "PreparedScalars",
    "prepare_scalars",
    "shuffle_pass",
    "reshuffle_pass",
    "lock_pass",
    "shuffle_lock_pass",
    "combine_keys",
    "lock_scalars",
    "lock_verifiers",
    "rekey_pass",
    "rekey_scalars",
    "unlock",
    "check_lock_key",
    "check_shuffle_pass",
    "check_shuffle_lock_pass",
    "check_reshuffle_pass",
    "check_lock_pass",
    # sealed messages
    "SealKey",
    "seal",
    "open_sealed",
    "sealed_commitment",
    "SEAL_OVERHEAD",
    # key escrow
    "split_secret",
    "share_commitment",
    "check_share",
    "escrow_commitments",
    "share_digest",
    "rebuild_secret",
    "SHARE_COMMITMENT_SIZE",
    "MAX_ESCROW_HOLDERS",
    "shares_from_seed",
    "ESCROW_SEED_SIZE",
    # Merkle trees (a lock escrow's roots)
    "merkle_root",
    "merkle_path",
    "merkle_path_length",
    "merkle_path_fits",
    "check_merkle_path",
    "MERKLE_HASH_SIZE",
    # the ElGamal deck (SPEC §C9), a namespace of its own
    "elgamal",
    # benchmark baseline, not used by the protocol
    "ClassicSRA",
    "classic_encrypt",
    "CLASSIC_SRA_PRIME",
]

# Public names report this package, not the private module they live in (as trio does).
for _name in __all__:
    _obj = globals()[_name]
    if getattr(_obj, "__module__", "").startswith(__name__ + "._"):
        try:
            _obj.__module__ = __name__
        except (AttributeError, TypeError):
            pass
del _name, _obj
