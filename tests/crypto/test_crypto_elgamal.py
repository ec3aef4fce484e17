"""The ElGamal deck on edwards25519 (p2pgames.crypto.elgamal, SPEC §C9): what its functions
promise beyond the vectors, and what they refuse."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pgames import crypto
from p2pgames.crypto import elgamal

NAMES = [f"card-{i}" for i in range(12)]


def reproducible(label: str, size: int = 32 * 64) -> bytes:
    return crypto.reproducible_bytes(label.encode())(size)


def deal(holders: int, label: str = "deal"):
    """A whole deal: (secrets, keys, joint key, audit records, final deck, card points)."""
    points = [elgamal.card_point("test/elgamal-api", name) for name in NAMES]
    secrets = [elgamal.random_scalar(reproducible(f"{label}/secret/{j}")) for j in range(holders)]
    keys = [elgamal.public_key(x) for x in secrets]
    joint_key = elgamal.combine_public_keys(keys)
    deck = elgamal.open_deck(points)
    records = []
    for j in range(holders):
        permutation = crypto.random_permutation(len(deck), reproducible(f"{label}/permutation/{j}"))
        scalars = [elgamal.random_scalar(reproducible(f"{label}/pass/{j}/{t}")) for t in range(len(deck))]
        out = elgamal.read_deck(elgamal.reencryption_pass(deck, joint_key, permutation, scalars))
        records.append((deck, out, permutation, scalars))
        deck = out
    return secrets, keys, joint_key, records, deck, points


@pytest.mark.parametrize("holders", [1, 2, 4])
def test_every_slot_of_a_deal_opens_to_a_different_card_and_every_pass_audits_clean(holders):
    secrets, keys, joint_key, records, deck, points = deal(holders)
    opened = [elgamal.decrypt(card, [elgamal.decryption_share(x, card.nonce) for x in secrets]) for card in deck]
    assert sorted(opened) == sorted(points)
    assert opened != points  # (the passes permuted them)
    for inputs, outputs, permutation, scalars in records:
        assert elgamal.check_reencryption_pass(inputs, outputs, joint_key, permutation, scalars) is None


def test_a_slot_missing_one_holders_share_opens_to_no_card():
    secrets, _keys, _joint, _records, deck, points = deal(3)
    card = deck[0]
    assert elgamal.decrypt(card, [elgamal.decryption_share(x, card.nonce) for x in secrets[1:]]) not in points


def test_the_audit_names_the_first_output_a_pass_got_wrong():
    _secrets, _keys, joint_key, records, _deck, _points = deal(2)
    inputs, outputs, permutation, scalars = records[1]
    wrong = list(outputs)
    wrong[5] = elgamal.reencrypt(wrong[5], joint_key, 7)  # the same card, re-encrypted once more
    assert elgamal.check_reencryption_pass(inputs, wrong, joint_key, permutation, scalars) == 5
    other = list(scalars)
    other[2] += 1  # the audit's scalars are not the ones the pass used
    assert elgamal.check_reencryption_pass(inputs, outputs, joint_key, permutation, other) == 2
    with pytest.raises(ValueError, match="gave 11"):
        elgamal.check_reencryption_pass(inputs, outputs[:-1], joint_key, permutation, scalars)


def test_proofs_hold_only_for_their_key_context_and_kind():
    secrets, keys, _joint, _records, deck, _points = deal(2)
    proof = elgamal.prove_key(secrets[0], b"deal 1, seat 0")
    assert elgamal.check_key_proof(keys[0], proof, b"deal 1, seat 0")
    assert not elgamal.check_key_proof(keys[0], proof, b"deal 1, seat 1")
    assert not elgamal.check_key_proof(keys[1], proof, b"deal 1, seat 0")
    nonce = deck[3].nonce
    share, share_proof = elgamal.proven_decryption_share(secrets[1], nonce, b"slot 3")
    assert share == elgamal.decryption_share(secrets[1], nonce)
    assert elgamal.check_decryption_share(keys[1], nonce, share, share_proof, b"slot 3")
    assert not elgamal.check_decryption_share(keys[0], nonce, share, share_proof, b"slot 3")
    assert not elgamal.check_decryption_share(keys[1], deck[4].nonce, share, share_proof, b"slot 3")
    assert not elgamal.check_decryption_share(keys[1], nonce, share, share_proof, b"slot 4")
    # Each proof hashes its own domain: neither passes for the other.
    assert not elgamal.check_key_proof(keys[1], share_proof, b"slot 3")
    # Two proofs of one share draw fresh nonces, so they differ and both hold.
    _share, again = elgamal.proven_decryption_share(secrets[1], nonce, b"slot 3")
    assert again != share_proof and elgamal.check_decryption_share(keys[1], nonce, share, again, b"slot 3")


JUNK = st.one_of(
    st.none(), st.integers(), st.text(max_size=40), st.binary(max_size=80), st.lists(st.binary(max_size=33), max_size=3)
)


@settings(max_examples=60, deadline=None)
@given(key=JUNK, nonce=JUNK, share=JUNK, proof=JUNK, context=JUNK)
def test_checks_of_what_a_peer_sent_never_raise(key, nonce, share, proof, context):
    assert elgamal.check_key_proof(key, proof, context) is False
    assert elgamal.check_decryption_share(key, nonce, share, proof, context) is False
    assert isinstance(elgamal.is_valid_point(key), bool)
    assert isinstance(elgamal.check_key_split(key, [nonce, share]), bool)


def test_a_deck_from_a_peer_is_refused_at_its_first_bad_card():
    _secrets, _keys, _joint, _records, deck, _points = deal(1)
    cards = [list(card) for card in deck]
    cards[4][1] = elgamal.FIELD_PRIME.to_bytes(32, "little")  # y = p: the order-4 point's other name
    with pytest.raises(crypto.BadCardValue, match="item 4: a point's y is not below p") as refused:
        elgamal.read_deck(cards)
    assert refused.value.index == 4
    with pytest.raises(crypto.BadCardValue, match="item 0: a card is a pair"):
        elgamal.read_deck([deck[0].nonce])
    with pytest.raises(crypto.BadCardValue, match="item 1: a point is 32 bytes"):
        elgamal.read_deck([deck[0], [deck[1].nonce, deck[1].masked[:31]]])


def test_a_pass_refuses_a_point_off_the_curve_naming_its_card():
    secrets, keys, joint_key, _records, deck, _points = deal(1)
    off_curve = (2).to_bytes(32, "little")  # no x has y = 2 (the vectors' "no point has this y")
    cards = elgamal.read_deck([list(card) for card in deck[:6]] + [[deck[6].nonce, off_curve]] + list(deck[7:]))
    with pytest.raises(crypto.BadCardValue, match="item 6: not a point of the curve") as refused:
        elgamal.reencryption_pass(cards, joint_key, list(range(len(cards))), [3] * len(cards))
    assert refused.value.index == 6


def test_no_secret_multiplies_a_point_outside_the_group():
    order_eight = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")
    mixed = elgamal._add(elgamal.BASE_POINT, order_eight)  # on the curve, not in the group
    for bad in (order_eight, mixed, elgamal.IDENTITY, b"\x00" * 31):
        with pytest.raises(crypto.BadCardValue):
            elgamal.decryption_share(5, bad)
        with pytest.raises(crypto.BadCardValue):
            elgamal.proven_decryption_share(5, bad, b"")


def test_scalars_and_keys_refuse_what_is_out_of_range():
    for bad in (0, elgamal.GROUP_ORDER, -1):
        with pytest.raises(crypto.CryptoError, match="outside"):
            elgamal.scalar_to_bytes(bad)
        with pytest.raises(crypto.CryptoError, match="outside"):
            elgamal.public_key(bad)
    with pytest.raises(crypto.CryptoError, match="outside"):
        elgamal.scalar_from_bytes(elgamal.GROUP_ORDER.to_bytes(32, "little"))
    with pytest.raises(crypto.CryptoError, match="32 bytes"):
        elgamal.scalar_from_bytes(b"\x01" * 31)
    with pytest.raises(TypeError):
        elgamal.public_key(True)
    assert elgamal.scalar_from_bytes(elgamal.scalar_to_bytes(elgamal.GROUP_ORDER - 1)) == elgamal.GROUP_ORDER - 1
    with pytest.raises(crypto.CryptoError, match="ran out"):
        elgamal.random_scalar(b"\xff" * 32)  # 2²⁵³ − 1 ≥ ℓ, and nothing more to draw


def test_joint_keys_passes_and_splits_refuse_what_would_break_them():
    key = elgamal.public_key(12345)
    minus_key = elgamal._subtract(elgamal.IDENTITY, key)
    with pytest.raises(crypto.CryptoError, match="sum to the identity"):
        elgamal.combine_public_keys([key, minus_key])
    with pytest.raises(crypto.CryptoError, match="at least one"):
        elgamal.combine_public_keys([])
    with pytest.raises(crypto.BadCardValue, match="item 1"):
        elgamal.combine_public_keys([key, b"\x01" * 32])
    deck = elgamal.open_deck([elgamal.card_point("test/elgamal-api", name) for name in NAMES[:3]])
    with pytest.raises(ValueError, match="not a permutation"):
        elgamal.reencryption_pass(deck, key, [0, 0, 1], [1, 2, 3])
    with pytest.raises(ValueError, match="as many scalars"):
        elgamal.reencryption_pass(deck, key, [0, 1, 2], [1, 2])
    with pytest.raises(ValueError, match="at least one holder"):
        elgamal.split_key(5, 0)


@pytest.mark.parametrize("holders", [1, 2, 5])
def test_a_key_split_opens_a_card_as_the_key_does_and_its_commitments_sum_to_the_key(holders):
    secrets, keys, _joint, _records, deck, points = deal(3, "split")
    shares = elgamal.split_key(secrets[0], holders)
    assert sum(shares) % elgamal.GROUP_ORDER == secrets[0] and len(shares) == holders
    assert elgamal.split_key(secrets[0], holders) == shares  # recomputable from the secret
    commitments = elgamal.key_share_commitments(shares)
    assert elgamal.check_key_split(keys[0], commitments)
    assert not elgamal.check_key_split(keys[1], commitments)
    card = deck[2]
    for share, commitment in zip(shares, commitments):
        made, proof = elgamal.proven_decryption_share(share, card.nonce, b"escrow")
        assert elgamal.check_decryption_share(commitment, card.nonce, made, proof, b"escrow")
    from_shares = [elgamal.decryption_share(share, card.nonce) for share in shares]
    others = [elgamal.decryption_share(x, card.nonce) for x in secrets[1:]]
    assert elgamal.decrypt(card, from_shares + others) == elgamal.decrypt(
        card, [elgamal.decryption_share(x, card.nonce) for x in secrets]
    ) and elgamal.decrypt(card, others + from_shares) in points


def test_card_points_are_distinct_valid_points_of_the_group():
    points = {elgamal.card_point("test/elgamal-api", name) for name in NAMES}
    assert len(points) == len(NAMES) and all(elgamal.is_valid_point(point) for point in points)
    assert elgamal.card_point("another deck", NAMES[0]) not in points
    with pytest.raises(TypeError):
        elgamal.card_point("test", 3)


def test_one_proof_holds_for_a_holders_shares_of_many_slots_and_for_nothing_else():
    """§C9.3's batched share proof: 64 bytes for any number of shares, holding for exactly those
    shares, in that order, of that holder, for that context."""
    secrets, keys, _, _, deck, _ = deal(2, "batch")
    nonces = [card.nonce for card in deck]
    shares, proof = elgamal.proven_decryption_shares(secrets[0], nonces, b"ctx", reproducible("batch/w"))
    assert shares == [elgamal.decryption_share(secrets[0], nonce) for nonce in nonces] and len(proof) == 64
    assert elgamal.check_decryption_shares(keys[0], nonces, shares, proof, b"ctx")
    one_wrong = [*shares[:3], elgamal.decryption_share(secrets[1], nonces[3]), *shares[4:]]
    for key, nonces_, shares_, context in [
        (keys[1], nonces, shares, b"ctx"),  # another holder's key
        (keys[0], nonces, shares, b"other"),  # another context
        (keys[0], nonces, one_wrong, b"ctx"),  # one share made with another key
        (keys[0], nonces, [shares[1], shares[0], *shares[2:]], b"ctx"),  # two swapped
        (keys[0], nonces[1:], shares[1:], b"ctx"),  # one left out
        (keys[0], nonces, shares[:-1], b"ctx"),  # lists of different lengths
        (keys[0], [], [], b"ctx"),  # nothing proven
        (keys[0], nonces, [elgamal.IDENTITY, *shares[1:]], b"ctx"),  # a share that is the identity
    ]:
        assert not elgamal.check_decryption_shares(key, nonces_, shares_, proof, context)
    with pytest.raises(ValueError):
        elgamal.proven_decryption_shares(secrets[0], [], b"ctx")


def test_a_batch_made_or_checked_here_is_answered_again_as_a_full_check_answers_it(monkeypatch):
    """A batch this process proved, or checked, is accepted again without its products (a peer
    checks its own keys as they come back in the log); anything else is checked in full, and
    with nothing remembered nothing is looked up."""
    secrets, keys, _, _, deck, _ = deal(2, "batch memo")
    nonces = [card.nonce for card in deck]
    shares, proof = elgamal.proven_decryption_shares(secrets[0], nonces, b"memo", reproducible("memo/w"))
    multiplied = []
    real_times = elgamal._times
    monkeypatch.setattr(elgamal, "_times", lambda k, point: multiplied.append(point) or real_times(k, point))
    assert elgamal.check_decryption_shares(keys[0], nonces, shares, proof, b"memo") and not multiplied
    assert elgamal.check_decryption_shares(keys[0], tuple(nonces), tuple(shares), proof, b"memo") and not multiplied
    swapped = [shares[1], shares[0], *shares[2:]]
    assert not elgamal.check_decryption_shares(keys[0], nonces, swapped, proof, b"memo") and multiplied
    assert not elgamal.check_decryption_shares(keys[1], nonces, shares, proof, b"memo")
    assert not elgamal.check_decryption_shares(keys[0], nonces, shares, proof, b"other")
    assert not elgamal.check_decryption_shares(keys[0], [bytearray(n) for n in nonces], shares, proof, b"memo")
    multiplied.clear()
    with crypto.nothing_remembered():
        assert elgamal.check_decryption_shares(keys[0], nonces, shares, proof, b"memo") and multiplied
    other_shares, other_proof = elgamal.proven_decryption_shares(secrets[1], nonces, b"memo", reproducible("memo/w1"))
    multiplied.clear()
    assert elgamal.check_decryption_shares(keys[1], nonces, other_shares, other_proof, b"memo") and not multiplied


@settings(max_examples=60, deadline=None)
@given(
    st.binary(min_size=0, max_size=40), st.lists(st.binary(min_size=0, max_size=40), max_size=3),
    st.lists(st.binary(min_size=0, max_size=40), max_size=3), st.binary(min_size=0, max_size=70),
)
def test_a_check_of_batched_shares_from_a_peer_never_raises(key, nonces, shares, proof):
    assert elgamal.check_decryption_shares(key, nonces, shares, proof, b"ctx") in (True, False)
