"""A seat's key for the ElGamal deck, its escrow and the shares released for a rebuilt seat
(p2pgames.session._elgamal_keys; SPEC §C9, protocol 11 to be)."""

from __future__ import annotations

from p2pgames import crypto
from p2pgames.crypto import elgamal
from p2pgames.session._elgamal_deals import ElGamalDeal, ProvenShare, pass_randomness, share_context
from p2pgames.session._elgamal_keys import (
    deck_key_from_seed,
    key_context,
    key_escrow,
    open_key_share,
    pass_seed,
    released_share,
    released_share_holds,
)

GAME_ID = b"game elgamal key"
PLAYERS = 4
SEEDS = [crypto.reproducible_bytes(b"seat seed %d" % seat)(32) for seat in range(PLAYERS)]
SECRETS = [deck_key_from_seed(seed) for seed in SEEDS]
KEYS = tuple(elgamal.public_key(secret) for secret in SECRETS)
SEAL_KEYS = [crypto.SealKey.generate(crypto.reproducible_bytes(b"seal %d" % seat)(32)) for seat in range(PLAYERS)]
NAMES = [f"card-{i}" for i in range(8)]


def test_a_seats_key_comes_from_its_seed_and_its_proof_holds_for_its_signing_key_alone():
    assert deck_key_from_seed(SEEDS[0]) == SECRETS[0] and len(set(SECRETS)) == PLAYERS
    signing, other = crypto.Identity.generate().public_key.raw, crypto.Identity.generate().public_key.raw
    proof = elgamal.prove_key(SECRETS[1], key_context(signing))
    assert elgamal.check_key_proof(KEYS[1], proof, key_context(signing))
    assert not elgamal.check_key_proof(KEYS[1], proof, key_context(other))


def test_pass_seeds_come_from_the_escrow_secret_one_per_deal():
    seeds = {pass_seed(12345, deal) for deal in range(5)}
    assert len(seeds) == 5 and all(len(seed) == 32 for seed in seeds)
    assert pass_seed(12345, 3) == pass_seed(12345, 3) != pass_seed(12346, 3)


def test_a_key_is_escrowed_so_that_each_holder_opens_and_checks_its_share_and_everyone_the_sum():
    holders = (0, 1, 3)
    escrow = key_escrow(SECRETS[2], GAME_ID, 2, holders, [SEAL_KEYS[h].public_bytes() for h in holders])
    assert escrow.check_commitments(KEYS[2]) and not escrow.check_commitments(KEYS[1])
    shares = [open_key_share(escrow, GAME_ID, 2, holder, SEAL_KEYS[holder]) for holder in holders]
    assert all(isinstance(share, int) for share in shares)
    assert sum(shares) % elgamal.GROUP_ORDER == SECRETS[2]
    assert open_key_share(escrow, GAME_ID, 2, 1, SEAL_KEYS[0]) == "does not open"
    assert open_key_share(escrow, b"another game", 2, 1, SEAL_KEYS[1]) == "does not open"
    swapped = type(escrow)(holders, (escrow.commitments[1], escrow.commitments[0], escrow.commitments[2]), escrow.boxes)
    assert swapped.check_commitments(KEYS[2])  # (the sum is the same) ...
    # ... but a holder's share no longer matches its commitment.
    assert open_key_share(swapped, GAME_ID, 2, 0, SEAL_KEYS[0]) == "does not match its commitment"
    assert not type(escrow)(holders, escrow.commitments[:2], escrow.boxes).check_commitments(KEYS[2])


def test_a_rebuilt_seats_share_of_a_slot_is_the_sum_of_what_its_escrows_holders_release():
    table = elgamal.CardTable("p2pgames/test", NAMES)
    record = ElGamalDeal.fresh(0, 0, PLAYERS, table, KEYS)
    while (seat := record.next_pass()) is not None:
        permutation, scalars = pass_randomness(pass_seed(1000 + seat, 0), record.size)
        made = elgamal.reencryption_pass(record.input_of(seat), record.joint_key, permutation, scalars)
        record.record_pass(seat, made, b"")
    holders = (0, 1, 3)
    escrow = key_escrow(SECRETS[2], GAME_ID, 2, holders, [SEAL_KEYS[h].public_bytes() for h in holders])
    slot = 5
    nonce = record.locked[slot].nonce
    released = []
    for holder in holders:
        share = open_key_share(escrow, GAME_ID, 2, holder, SEAL_KEYS[holder])
        proven = released_share(share, nonce, GAME_ID, slot, 2, holder)
        assert released_share_holds(escrow, proven, nonce, GAME_ID, slot, 2, holder)
        assert not released_share_holds(escrow, proven, nonce, GAME_ID, slot, 2, (holder + 1) % PLAYERS)
        assert not released_share_holds(escrow, proven, nonce, GAME_ID, slot + 1, 2, holder)
        released.append(proven.share)
    rebuilt = elgamal.point_sum(released)
    assert rebuilt == elgamal.decryption_share(SECRETS[2], nonce)
    shares = {seat: elgamal.decryption_share(SECRETS[seat], nonce) for seat in (0, 1, 3)} | {2: rebuilt}
    assert record.open_with(slot, shares) in NAMES
    # A holder releasing with the wrong share is refused.
    wrong = released_share(SECRETS[0], nonce, GAME_ID, slot, 2, 0)
    assert not released_share_holds(escrow, wrong, nonce, GAME_ID, slot, 2, 0)
    # A seat's own share, proven for its slot, is no released share (another key, another context).
    own = ProvenShare(*elgamal.proven_decryption_share(SECRETS[0], nonce, share_context(GAME_ID, slot, 0)))
    assert record.share_holds(GAME_ID, slot, 0, own)
    assert not released_share_holds(escrow, own, nonce, GAME_ID, slot, 2, 0)
