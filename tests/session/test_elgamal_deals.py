"""The session's record of a deal by the ElGamal deck (p2pgames.session._elgamal_deals; SPEC §C9,
protocol 11 to be): passes, shares, and the audit that names whoever got one wrong."""

from __future__ import annotations

import pytest

from p2pgames import crypto
from p2pgames.crypto import elgamal
from p2pgames.session._deals import PassProblem
from p2pgames.session._elgamal_deals import (
    AuditShares,
    ElGamalDeal,
    ProvenShare,
    SealedShare,
    pass_randomness,
    seal_share,
    sealed_share_problem,
    share_context,
    shares_context,
)

GAME_ID = bytes(range(16))
NAMES = [f"card-{i}" for i in range(9)]
PLAYERS = 3


def seat_secret(seat: int) -> int:
    return elgamal.random_scalar(crypto.reproducible_bytes(b"seat key %d" % seat)(32 * 16))


SECRETS = [seat_secret(seat) for seat in range(PLAYERS)]
KEYS = tuple(elgamal.public_key(secret) for secret in SECRETS)


def seed_of(seat: int, deal: int) -> bytes:
    return crypto.reproducible_bytes(b"pass seed %d/%d" % (seat, deal))(32)


def dealt(deal: int = 0, first_slot: int = 0, holders: tuple[int, ...] = ()) -> ElGamalDeal:
    """A fresh deal with every holder's pass made honestly from its seed."""
    record = ElGamalDeal.fresh(deal, first_slot, PLAYERS, elgamal.CardTable("p2pgames/test", NAMES), KEYS, holders)
    make_passes(record)
    return record


def make_passes(record: ElGamalDeal) -> None:
    while (seat := record.next_pass()) is not None:
        permutation, scalars = pass_randomness(seed_of(seat, record.deal), record.size)
        made = elgamal.reencryption_pass(record.input_of(seat), record.joint_key, permutation, scalars)
        wire = [[card.nonce, card.masked] for card in made]  # as a pass arrives
        record.record_pass(seat, record.check_pass(seat, wire), b"pass of %d" % seat)


def share_of(record: ElGamalDeal, index: int, seat: int) -> ProvenShare:
    nonce = record.locked[index].nonce
    context = share_context(GAME_ID, record.first_slot + index, seat)
    return ProvenShare(*elgamal.proven_decryption_share(SECRETS[seat], nonce, context))


def audit_of(record: ElGamalDeal, seat: int, shares: list[bytes] | None = None) -> AuditShares:
    """Holder ``seat``'s audit of ``record``: its seed, its shares (or ``shares``) and their one
    proof, made for its own shares."""
    slots = range(record.first_slot, record.first_slot + record.size)
    own, proof = elgamal.proven_decryption_shares(
        SECRETS[seat], [card.nonce for card in record.locked], shares_context(GAME_ID, seat, slots))
    return AuditShares(seed_of(seat, record.deal), tuple(own if shares is None else shares), proof)


def audit_everyone(record: ElGamalDeal) -> None:
    for seat in record.holders:
        record.check_audit(seat, audit_of(record, seat))
        record.record_audit(seat, audit_of(record, seat))


def test_a_deal_is_one_pass_per_holder_and_its_slots_hold_the_deck_in_a_new_order():
    record = dealt()
    assert list(record.passes) == [0, 1, 2] and record.next_pass() is None
    audit_everyone(record)
    assert record.audit(GAME_ID) is None
    values = record.all_values()
    assert sorted(values.values()) == sorted(NAMES) and list(values.values()) != NAMES


def test_a_revealed_slot_opens_with_every_published_share_and_a_disclosed_one_for_its_receiver_alone():
    record = dealt()
    for seat in range(PLAYERS):
        share = share_of(record, 4, seat)
        assert record.share_holds(GAME_ID, 4, seat, share)
        record.publish(4, seat, share.share, b"keys")
    revealed = record.value_if_public(4)
    assert revealed in NAMES and record.unreleased[4] == set()
    # Slot 5 disclosed to seat 2: the others' shares (sealed to it) and its own open it.
    shares = {seat: share_of(record, 5, seat).share for seat in range(PLAYERS)}
    disclosed = record.open_with(5, shares)
    assert disclosed in NAMES and disclosed != revealed
    assert record.open_with(5, {**shares, 2: shares[1]}) is None  # one share wrong: no card


def test_a_share_holds_only_for_its_slot_seat_and_game():
    record = dealt()
    share = share_of(record, 2, 1)
    assert record.share_holds(GAME_ID, 2, 1, share)
    assert not record.share_holds(GAME_ID, 3, 1, share)
    assert not record.share_holds(GAME_ID, 2, 0, share)
    assert not record.share_holds(bytes(16), 2, 1, share)
    assert not record.share_holds(GAME_ID, 99, 1, share)
    outsider = dealt(holders=(0, 1))
    assert not outsider.share_holds(GAME_ID, 2, 2, share_of(outsider, 2, 1))


def test_the_audit_names_the_first_pass_its_seed_does_not_give():
    record = dealt()
    wrong = list(record.passes[1])
    wrong[3] = elgamal.reencrypt(wrong[3], record.joint_key, 5)  # the same card, but not as the seed says
    record.passes[1] = wrong
    record.passes[2] = elgamal.reencryption_pass(wrong, record.joint_key, *pass_randomness(seed_of(2, 0), record.size))
    audit_everyone(record)
    seat, code, why = record.audit(GAME_ID)
    assert (seat, code) == (1, "bad-pass") and "position 3" in why


def test_the_audit_names_a_holder_whose_audit_share_fails_its_proof_or_who_sealed_another_share():
    record = dealt()
    audit_everyone(record)
    shares = list(record.audits[2].shares)
    shares[6] = share_of(record, 7, 0).share  # one share wrong under the proof of the right ones
    record.audits[2] = audit_of(record, 2, shares)
    assert record.audit(GAME_ID) == (2, "bad-key", "its audit shares of deal 0 fail their proof")
    record = dealt()
    record.record_sealed(1, SealedShare(0, 2, crypto.sealed_commitment(share_of(record, 1, 0).share), 5))
    record.record_sealed(1, SealedShare(1, 2, crypto.sealed_commitment(share_of(record, 2, 1).share), 5))
    audit_everyone(record)
    seat, code, why = record.audit(GAME_ID)
    assert (seat, code) == (1, "bad-key") and "sealed to seat 2 for slot 1" in why


def test_an_audit_share_other_than_the_one_published_is_refused():
    record = dealt()
    record.publish(0, 1, share_of(record, 0, 1).share, b"keys")
    shares = [share_of(record, index, 1).share for index in range(record.size)]
    shares[0] = share_of(record, 1, 1).share
    with pytest.raises(PassProblem, match="slot 0 differs from the one it published"):
        record.check_audit(1, audit_of(record, 1, shares))
    with pytest.raises(PassProblem, match="8 shares for 9 slots"):
        record.check_audit(1, audit_of(record, 1, shares[1:]))


def test_an_audit_publication_is_a_seed_points_and_one_proof():
    audit = audit_of(dealt(), 1)
    with pytest.raises(ValueError, match="pass seed is 32 bytes"):
        AuditShares(b"short", audit.shares, audit.proof)
    with pytest.raises(ValueError, match="32-byte point"):
        AuditShares(audit.seed, (audit.shares[0][:31],), audit.proof)
    with pytest.raises(ValueError, match="proof is 64 bytes"):
        AuditShares(audit.seed, audit.shares, audit.proof + b"\x00")


def test_a_pass_out_of_turn_short_repeated_or_not_canonical_is_refused():
    record = ElGamalDeal.fresh(0, 0, PLAYERS, elgamal.CardTable("p2pgames/test", NAMES), KEYS)
    permutation, scalars = pass_randomness(seed_of(0, 0), record.size)
    passed = elgamal.reencryption_pass(record.inputs, record.joint_key, permutation, scalars)
    made = [[card.nonce, card.masked] for card in passed]
    with pytest.raises(PassProblem, match="from seat 1 is not due"):
        record.check_pass(1, made)
    with pytest.raises(PassProblem, match="8 cards for 9 slots"):
        record.check_pass(0, made[:-1])
    with pytest.raises(PassProblem, match="repeats a card"):
        record.check_pass(0, made[:-1] + made[:1])
    with pytest.raises(PassProblem, match="item 2: a point's y is not below p"):
        record.check_pass(0, made[:2] + [[made[2][0], elgamal.FIELD_PRIME.to_bytes(32, "little")]] + made[3:])
    assert record.check_pass(0, made) == [elgamal.Ciphertext(*card) for card in made]


def test_a_reshuffle_of_slots_from_two_deals_is_one_pass_per_holder_with_no_rekey():
    first, second = dealt(0, 0), dealt(1, 9)
    sources = [first.locked[2], first.locked[5], second.locked[0], second.locked[8]]
    names = {*NAMES}
    record = ElGamalDeal(
        2, 18, PLAYERS, elgamal.CardTable("p2pgames/test", NAMES), sources, KEYS, source_slots=(2, 5, 9, 17)
    )
    assert record.joint_key == first.joint_key  # the same holders: the same key
    make_passes(record)
    audit_everyone(record)
    assert record.audit(GAME_ID) is None
    reshuffled = sorted(record.all_values().values())
    audit_everyone(first)
    audit_everyone(second)
    before = sorted([first.all_values()[2], first.all_values()[5], second.all_values()[9], second.all_values()[17]])
    assert reshuffled == before and set(reshuffled) <= names


def test_pass_randomness_is_a_permutation_and_scalars_fixed_by_the_seed():
    permutation, scalars = pass_randomness(bytes(32), 20)
    assert sorted(permutation) == list(range(20)) and len(set(scalars)) == 20
    assert pass_randomness(bytes(32), 20) == (permutation, scalars)
    assert pass_randomness(bytes(31) + b"\x01", 20) != (permutation, scalars)
    with pytest.raises(crypto.CryptoError):
        pass_randomness(b"short", 3)


def test_a_proven_share_is_a_point_and_a_proof():
    share = share_of(dealt(), 0, 0)
    with pytest.raises(ValueError, match="32-byte point"):
        ProvenShare(share.share[:31], share.proof)
    with pytest.raises(ValueError, match="64 bytes"):
        ProvenShare(share.share, share.proof + b"\x00")


def test_a_sealed_share_opens_for_its_receiver_alone_and_says_what_is_wrong_with_a_bad_one():
    record = dealt()
    receiver = crypto.SealKey.generate()
    context = b"sealed share of slot 3 from seat 0 to seat 2"
    proven = share_of(record, 3, 0)
    box, commitment = seal_share(receiver.public_bytes(), proven, context)
    assert len(box) == 144 and commitment == crypto.sealed_commitment(proven.share)

    def opened(sender=0, key=receiver, sealed=box, signed=commitment):
        return sealed_share_problem(record, GAME_ID, 3, sender, key, sealed, signed, context)

    assert opened() == proven
    assert opened(key=crypto.SealKey.generate()) == "does not open"
    assert opened(signed=bytes(32)) == "is not the share it committed to"
    assert opened(sender=1) == "fails its proof"
    assert opened(sealed=crypto.seal(receiver.public_bytes(), proven.share, context)) == "is no share and proof"
    # Another proof of the same share keeps the commitment: the audit's share is checked against it.
    again = share_of(record, 3, 0)
    assert again.proof != proven.proof and seal_share(receiver.public_bytes(), again, context)[1] == commitment
