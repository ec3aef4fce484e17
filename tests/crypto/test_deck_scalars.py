"""The scalar helpers the session builds its passes and audits from (crypto's, so no curve
arithmetic lives outside crypto/)."""

import pytest

from p2pgames.crypto import (
    CURVE_ORDER,
    BadCardValue,
    CardTable,
    CryptoError,
    combine_keys,
    lock_pass,
    lock_scalars,
    lock_verifiers,
    prepare_scalars,
    rekey_pass,
    transform,
    unlock,
)

POINTS = list(CardTable("p2pgames/test-scalars", [f"card{n}" for n in range(5)]).points)


def test_combined_keys_encrypt_as_the_keys_in_turn():
    assert combine_keys() == 1
    assert combine_keys(5, CURVE_ORDER - 1) == CURVE_ORDER - 5
    one_by_one = transform(transform(POINTS, 11), 29)
    assert transform(POINTS, combine_keys(11, 29)) == one_by_one


def test_a_lock_pass_is_its_values_and_its_verifiers():
    shuffled = transform(POINTS, 7)
    locks = [101, 202, 303, 404, 505]
    locked, verifiers = lock_pass(shuffled, 7, locks)
    assert locked == transform(shuffled, lock_scalars(7, locks)) == transform(POINTS, locks)
    assert verifiers == lock_verifiers(locks)


def test_a_rekey_pass_swaps_every_slots_lock_for_one_key():
    locks = [101, 202, 303, 404, 505]
    locked = transform(POINTS, locks)
    rekeyed = rekey_pass(locked, locks, 77)
    assert rekeyed == transform(POINTS, 77)
    assert [unlock(value, [77]) for value in rekeyed] == POINTS


def test_prepared_scalars_encrypt_as_the_scalars_do_even_prepared_a_part_at_a_time():
    scalars = lock_scalars(7, [101, 202, 303, 404, 505])
    whole = prepare_scalars(scalars)
    parts = prepare_scalars(()) + prepare_scalars(scalars[:2]) + prepare_scalars(scalars[2:])
    assert transform(POINTS, whole) == transform(POINTS, parts) == transform(POINTS, scalars)
    assert "101" not in repr(whole) and len(parts) == 5


def test_prepared_scalars_are_checked_like_scalars():
    with pytest.raises(CryptoError):
        prepare_scalars([5, CURVE_ORDER])
    with pytest.raises(ValueError):
        transform(POINTS, prepare_scalars([5, 6]))
    with pytest.raises(BadCardValue):
        transform([b"\xff" * 32] + POINTS[1:], prepare_scalars([5] * 5))


def test_remembered_products_are_the_librarys_own_and_stay_within_their_bound(monkeypatch):
    # Every multiplication goes through one table of the last products made (_deck._products):
    # remembered or made afresh, a product is the library's k·P, and the table never holds more
    # than its bound, however many different ones are asked for.
    from cryptography.hazmat.primitives.asymmetric import ec

    from p2pgames.crypto import _deck

    monkeypatch.setattr(_deck, "REMEMBERED_PRODUCTS", 4)
    monkeypatch.setattr(_deck, "_products", {})
    made = []
    for key in (3, 5, 7):  # 15 products
        made.append(transform(POINTS, key))
        assert 0 < len(_deck._products) <= 4
    assert (POINTS[-1], 7) in _deck._products  # the newest is kept
    assert [transform(POINTS, key) for key in (3, 5, 7)] == made
    curve = ec.SECP256R1()
    by_the_library = [
        ec.derive_private_key(7, curve).exchange(ec.ECDH(), ec.EllipticCurvePublicKey.from_encoded_point(curve, b"\x02" + x))
        for x in POINTS
    ]
    assert made[2] == by_the_library
    with pytest.raises(BadCardValue):  # a value that is no card is refused, whatever is kept
        transform([POINTS[0], b"\xff" * 32], 7)
