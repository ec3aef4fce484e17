from __future__ import annotations

import hashlib
import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pgames import crypto

n = crypto.CURVE_ORDER
scalars = st.integers(1, n - 1)
TABLE = crypto.CardTable("tests", [f"card-{i}" for i in range(8)])
card_values = st.sampled_from(TABLE.points)


def stream(label: str, size: int) -> bytes:
    out = b""
    counter = 0
    while len(out) < size:
        out += hashlib.sha256(f"{label}/{counter}".encode()).digest()
        counter += 1
    return out[:size]


@settings(max_examples=40, deadline=None)
@given(x=card_values, a=scalars, b=scalars)
def test_encryption_commutes_and_inverts(x: bytes, a: int, b: int) -> None:
    ab = crypto.encrypt(crypto.encrypt(x, a), b)
    assert ab == crypto.encrypt(crypto.encrypt(x, b), a)
    assert ab == crypto.encrypt(x, a * b % n)
    assert crypto.unlock(ab, [a, b]) == x
    assert crypto.unlock(crypto.unlock(ab, [b]), [a]) == x
    assert crypto.encrypt(crypto.encrypt(x, a), pow(a, -1, n)) == x


def test_negation_has_the_same_x() -> None:
    x = TABLE.points[0]
    assert crypto.encrypt(x, n - 1) == x
    assert crypto.encrypt(x, 1) == x


@settings(max_examples=10, deadline=None)
@given(keys=st.lists(scalars, min_size=1, max_size=4), x=card_values)
def test_transform_matches_encrypt(keys: list[int], x: bytes) -> None:
    values = [x] * len(keys)
    assert crypto.transform(values, keys) == [crypto.encrypt(x, k) for k in keys]
    assert crypto.transform(values, keys[0]) == [crypto.encrypt(x, keys[0])] * len(keys)


def _deal(peers: int, names: list[str], seed: str):
    """Shuffle by each peer, lock by each peer; returns table, locked slots, all keys, transcript."""
    table = crypto.CardTable(f"deal/{seed}", names)
    values = list(table.points)
    shuffle_keys = [crypto.random_scalar(stream(f"{seed}/s{p}", 64)) for p in range(peers)]
    transcript = []
    for p in range(peers):
        perm = crypto.random_permutation(len(names), stream(f"{seed}/perm{p}", 8 * len(names) + 32))
        out = crypto.shuffle_pass(values, shuffle_keys[p], perm)
        transcript.append(("shuffle", p, values, out, None))
        values = out
    lock_keys = [[crypto.random_scalar(stream(f"{seed}/l{p}/{i}", 64)) for i in range(len(names))]
                 for p in range(peers)]
    for p in range(peers):
        out, verifiers = crypto.lock_pass(values, shuffle_keys[p], lock_keys[p])
        transcript.append(("lock", p, values, out, verifiers))
        values = out
    return table, values, shuffle_keys, lock_keys, transcript


@settings(max_examples=20, deadline=None)
@given(peers=st.integers(2, 4), size=st.integers(1, 9), seed=st.text(max_size=6))
def test_multi_peer_deal_end_to_end(peers: int, size: int, seed: str) -> None:
    names = [f"c{i}" for i in range(size)]
    table, locked, shuffle_keys, lock_keys, transcript = _deal(peers, names, seed)

    # Nothing in the locked deck is a card value yet.
    assert not set(locked) & set(table.points)

    # Give slot i to player i % peers: everyone else publishes their key i, the player adds its own.
    hands: dict[int, list[str]] = {p: [] for p in range(peers)}
    for i, value in enumerate(locked):
        owner = i % peers
        published = [lock_keys[p][i] for p in range(peers) if p != owner]
        partly = crypto.unlock(value, published)
        if peers > 1:
            with pytest.raises(crypto.BadCardValue):
                table.name_of(partly)  # the others alone learn nothing that names the card
        hands[owner].append(table.name_of(crypto.unlock(partly, [lock_keys[owner][i]])))
    assert sorted(itertools.chain(*hands.values())) == sorted(names)

    # The audit: every pass checks out with the published keys.
    for kind, p, inputs, outputs, verifiers in transcript:
        if kind == "shuffle":
            assert crypto.check_shuffle_pass(inputs, outputs, shuffle_keys[p]) is None
        else:
            assert crypto.check_lock_pass(inputs, outputs, verifiers, shuffle_keys[p], lock_keys[p]) is None
            assert all(crypto.check_lock_key(k, v) for k, v in zip(lock_keys[p], verifiers))


def test_full_size_deal() -> None:
    # 4 peers, 52 cards: every card arrives exactly once and nothing is a card before unlocking.
    names = [f"{rank}{suit}" for suit in "SHDC" for rank in "A23456789TJQK"]
    table, locked, _, lock_keys, _ = _deal(4, names, "full")
    assert not set(locked) & set(table.points)
    revealed = [table.name_of(crypto.unlock(v, [keys[i] for keys in lock_keys])) for i, v in enumerate(locked)]
    assert sorted(revealed) == sorted(names)
    assert revealed != names  # the order changed (fails with probability 1/52!)


def test_audit_catches_a_swapped_card() -> None:
    table = crypto.CardTable("audit", [f"c{i}" for i in range(6)])
    key = crypto.random_scalar()
    outputs = crypto.shuffle_pass(list(table.points), key, [5, 4, 3, 2, 1, 0])
    assert crypto.check_shuffle_pass(list(table.points), outputs, key) is None
    # A cheater replaces the card at output 2 with an extra copy of another card, encrypted alike.
    cheat = list(outputs)
    cheat[2] = outputs[4]
    assert crypto.check_shuffle_pass(list(table.points), cheat, key) == 4
    cheat = list(outputs)
    cheat[2] = crypto.encrypt(crypto.card_point("audit", "c99"), key)
    assert crypto.check_shuffle_pass(list(table.points), cheat, key) == 2
    # Garbage output bytes are not accounted for either, and don't raise.
    cheat[2] = b"\xff" * 32
    assert crypto.check_shuffle_pass(list(table.points), cheat, key) == 2
    # A published key other than the one used fails at once.
    assert crypto.check_shuffle_pass(list(table.points), outputs, key + 1) == 0


def test_audit_catches_a_wrong_lock_key() -> None:
    table = crypto.CardTable("audit", [f"c{i}" for i in range(4)])
    shuffle_key = crypto.random_scalar()
    values = crypto.shuffle_pass(list(table.points), shuffle_key, [1, 0, 3, 2])
    locks = [crypto.random_scalar() for _ in range(4)]
    locked, verifiers = crypto.lock_pass(values, shuffle_key, locks)
    # A peer publishing a wrong key for slot 2 is caught by the verifier, before anyone unlocks.
    wrong = list(locks)
    wrong[2] = crypto.random_scalar()
    assert not crypto.check_lock_key(wrong[2], verifiers[2])
    assert crypto.check_lock_pass(values, locked, verifiers, shuffle_key, wrong) == 2
    # Locking slot 1 with a key other than the one its verifier binds is caught at the audit.
    cheat, _ = crypto.lock_pass(values, shuffle_key, [locks[0], wrong[2], locks[2], locks[3]])
    assert crypto.check_lock_pass(values, cheat, verifiers, shuffle_key, locks) == 1
    # Unlocking with a wrong key gives no card of the deal.
    with pytest.raises(crypto.BadCardValue, match="not a card of this deal"):
        table.name_of(crypto.unlock(locked[2], [wrong[2]]))


@pytest.mark.parametrize("bad", [0, -1, n, n + 1, True, "1", 1.0, None])
def test_check_lock_key_never_raises(bad: object) -> None:
    verifier = crypto.encrypt(crypto.VERIFIER_BASE, 5)
    assert crypto.check_lock_key(5, verifier)
    assert crypto.check_lock_key(bad, verifier) is False  # type: ignore[arg-type]
    assert crypto.check_lock_key(5, bad) is False  # type: ignore[arg-type]


@settings(max_examples=15, deadline=None)
@given(size=st.integers(2, 6), peers=st.integers(2, 3), seed=st.text(max_size=4))
def test_subpile_reshuffle(size: int, peers: int, seed: str) -> None:
    names = [f"c{i}" for i in range(size)]
    table, locked, shuffle_keys, lock_keys, _ = _deal(peers, names, seed)
    rekey = [crypto.random_scalar() for _ in range(peers)]
    values = locked
    for p in range(peers):  # only the last peer may permute in this round
        perm = crypto.random_permutation(size) if p == peers - 1 else list(range(size))
        out = crypto.reshuffle_pass(values, lock_keys[p], rekey[p], perm)
        assert crypto.check_reshuffle_pass(values, out, lock_keys[p], rekey[p]) is None
        values = out
    second = [crypto.random_scalar() for _ in range(peers - 1)]
    for p in range(peers - 1):
        values = crypto.shuffle_pass(values, second[p], crypto.random_permutation(size))
    strip = [rekey[p] * (second[p] if p < peers - 1 else 1) % n for p in range(peers)]
    locks = [[crypto.random_scalar() for _ in range(size)] for _ in range(peers)]
    for p in range(peers):
        values, _ = crypto.lock_pass(values, strip[p], locks[p])
    revealed = [table.name_of(crypto.unlock(v, [locks[p][j] for p in range(peers)])) for j, v in enumerate(values)]
    assert sorted(revealed) == sorted(names)


def test_reshuffle_audit_catches_a_kept_lock() -> None:
    table = crypto.CardTable("audit", ["a", "b", "c"])
    old = [crypto.random_scalar() for _ in range(3)]
    locked = crypto.transform(list(table.points), old)
    key = crypto.random_scalar()
    out = crypto.reshuffle_pass(locked, old, key, [2, 0, 1])
    assert [table.name_of(crypto.unlock(v, [key])) for v in out] == ["c", "a", "b"]
    assert crypto.check_reshuffle_pass(locked, out, old, key) is None
    out[1] = crypto.encrypt(locked[0], key)
    assert crypto.check_reshuffle_pass(locked, out, old, key) == 1


def test_random_scalar_rejection_sampling() -> None:
    good = (12345).to_bytes(32, "big")
    assert crypto.random_scalar(good) == 12345
    assert crypto.random_scalar(b"\xff" * 32 + bytes(32) + n.to_bytes(32, "big") + good) == 12345
    assert crypto.random_scalar((n - 1).to_bytes(32, "big")) == n - 1
    with pytest.raises(crypto.CryptoError, match="ran out"):
        crypto.random_scalar(bytes(32))
    assert 0 < crypto.random_scalar() < n


def test_random_permutation_is_a_permutation_and_unbiased() -> None:
    for size in range(0, 12):
        perm = crypto.random_permutation(size)
        assert sorted(perm) == list(range(size))
    # Deterministic randomness: every permutation of 4 appears about equally often.
    counts = Counter(tuple(crypto.random_permutation(4, stream(f"perm/{i}", 64))) for i in range(4800))
    assert len(counts) == 24
    assert all(140 <= c <= 260 for c in counts.values()), counts  # mean 200; > 4σ bounds
    # Fisher–Yates from the end: item i swaps with item j = draw % (i + 1).
    assert crypto.random_permutation(2, (0).to_bytes(4, "big")) == [1, 0]
    assert crypto.random_permutation(2, (1).to_bytes(4, "big")) == [0, 1]
    # For bound 3, 2³² − 1 is at or above the largest multiple of 3 below 2³², so it is skipped.
    draws = (2**32 - 1).to_bytes(4, "big") + (5).to_bytes(4, "big") + (0).to_bytes(4, "big")
    assert crypto.random_permutation(3, draws) == [1, 0, 2]
    with pytest.raises(crypto.CryptoError, match="ran out"):
        crypto.random_permutation(3, bytes(4))
    with pytest.raises(ValueError):
        crypto.random_permutation(-1)


@pytest.mark.parametrize(
    "value",
    [b"", bytes(31), bytes(33), b"\xff" * 32, crypto.FIELD_PRIME.to_bytes(32, "big"), "x" * 32, None, bytearray(32)],
)
def test_bad_card_values_raise_bad_card_value(value: object) -> None:
    with pytest.raises(crypto.BadCardValue):
        crypto.encrypt(value, 3)  # type: ignore[arg-type]
    with pytest.raises(crypto.BadCardValue) as caught:
        crypto.transform([TABLE.points[0], value], 3)  # type: ignore[list-item]
    assert caught.value.index == 1


def test_bad_scalars_and_shapes() -> None:
    x = TABLE.points[0]
    for bad in (0, n, -5, 2**300):
        with pytest.raises(crypto.CryptoError, match="outside"):
            crypto.encrypt(x, bad)
    with pytest.raises(TypeError):
        crypto.encrypt(x, True)
    with pytest.raises(crypto.CryptoError):
        crypto.unlock(x, [1, 0])
    for bad_permutation in ([0, 0], [0], [0, 1, 2], [1.0, 0.0], [0, True]):
        with pytest.raises(ValueError, match="permutation"):
            crypto.shuffle_pass([x, TABLE.points[1]], 3, bad_permutation)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        crypto.lock_pass([x], 3, [4, 5])
    with pytest.raises(ValueError):
        crypto.transform([x], [4, 5])
    with pytest.raises(ValueError):
        crypto.check_shuffle_pass([x], [x, x], 3)


def test_unlock_with_no_keys_returns_the_value() -> None:
    assert crypto.unlock(TABLE.points[3], []) == TABLE.points[3]
    assert crypto.unlock(TABLE.points[3], [7, pow(7, -1, n)]) == TABLE.points[3]


def test_scalar_bytes_round_trip() -> None:
    for k in (1, 2, n - 1, 0xABCDEF):
        assert crypto.scalar_from_bytes(crypto.scalar_to_bytes(k)) == k
    for bad in (bytes(32), n.to_bytes(32, "big"), b"\x01" * 31, "1"):
        with pytest.raises(crypto.CryptoError):
            crypto.scalar_from_bytes(bad)  # type: ignore[arg-type]


def test_card_table() -> None:
    table = crypto.CardTable("t", ["a", "b", "c"])
    assert table.names == ("a", "b", "c")
    assert table.points == tuple(crypto.card_point("t", name) for name in "abc")
    assert [table.name_of(x) for x in table.points] == ["a", "b", "c"]
    assert len(table) == 3
    assert repr(table) == "CardTable('t', ('a', 'b', 'c'))"
    assert eval(repr(table), {"CardTable": crypto.CardTable}).points == table.points
    with pytest.raises(ValueError, match="'b' appears twice"):
        crypto.CardTable("t", ["a", "b", "b"])
    for bad in (crypto.card_point("other", "a"), b"", None):
        with pytest.raises(crypto.BadCardValue, match="not a card of this deal"):
            table.name_of(bad)  # type: ignore[arg-type]
    # The deck domain separates equal names.
    assert crypto.card_point("t", "a") != crypto.card_point("u", "a")


def test_classic_sra_baseline_commutes() -> None:
    one = crypto.ClassicSRA.generate()
    two = crypto.ClassicSRA.generate()
    m = 0xC0FFEE
    assert one.encrypt(two.encrypt(m)) == two.encrypt(one.encrypt(m))
    assert one.decrypt(two.decrypt(one.encrypt(two.encrypt(m)))) == m
    assert crypto.classic_encrypt(m, one.e) == one.encrypt(m)
    assert crypto.CLASSIC_SRA_PRIME.bit_length() == 2048
    injected = crypto.ClassicSRA.generate(bytes(255) + b"\x03")
    assert injected.e == 3 and injected.e * injected.d % (crypto.CLASSIC_SRA_PRIME - 1) == 1


def test_the_last_holders_shuffle_lock_pass_gives_what_its_shuffle_then_its_lock_would() -> None:
    """§B6.1, §C5.4: shuffling and locking in one pass leaves the same final values as a shuffle
    pass and, after the others' lock passes, a lock pass (encryption commutes); the audit check
    accepts it and names the first output a cheat changed."""
    table = crypto.CardTable("test", [f"card-{i}" for i in range(6)])
    first_shuffle, last_shuffle = crypto.random_scalar(stream("merge/first", 64)), crypto.random_scalar(stream("merge/last", 64))
    first_locks = [crypto.random_scalar(stream(f"merge/first-lock/{i}", 64)) for i in range(6)]
    last_locks = [crypto.random_scalar(stream(f"merge/last-lock/{i}", 64)) for i in range(6)]
    permutation = crypto.random_permutation(6, b"\x07" * 64)
    shuffled = crypto.shuffle_pass(list(table.points), first_shuffle, crypto.random_permutation(6, b"\x03" * 64))
    # Apart: the last shuffles, the first locks, the last locks.
    apart = crypto.shuffle_pass(shuffled, last_shuffle, permutation)
    apart, _ = crypto.lock_pass(apart, first_shuffle, first_locks)
    apart, _ = crypto.lock_pass(apart, last_shuffle, last_locks)
    # Together: the last shuffles and locks, then the first locks.
    merged, verifiers = crypto.shuffle_lock_pass(shuffled, 1, permutation, last_locks)
    together, _ = crypto.lock_pass(merged, first_shuffle, first_locks)
    assert together == apart
    assert verifiers == crypto.lock_verifiers(last_locks)
    assert crypto.check_shuffle_lock_pass(shuffled, merged, verifiers, 1, last_locks) is None
    # A cheat: output 4 is output 1's card again, under slot 4's key; or a key it does not show.
    cheat = list(merged)
    cheat[4] = crypto.encrypt(shuffled[permutation[1]], last_locks[4])
    assert len(set(cheat)) == len(cheat)  # (no repeated value gives it away)
    assert crypto.check_shuffle_lock_pass(shuffled, cheat, verifiers, 1, last_locks) == 4
    other = list(last_locks)
    other[2] = crypto.random_scalar(stream("merge/other", 64))
    assert crypto.check_shuffle_lock_pass(shuffled, merged, verifiers, 1, other) == 2
    # In a re-shuffle it takes its re-key key off as it locks.
    rekey = crypto.random_scalar(stream("merge/rekey", 64))
    rekeyed = crypto.transform(shuffled, rekey)
    again, again_verifiers = crypto.shuffle_lock_pass(rekeyed, rekey, permutation, last_locks)
    assert again == merged and crypto.check_shuffle_lock_pass(rekeyed, again, again_verifiers, rekey, last_locks) is None
    assert crypto.check_shuffle_lock_pass(rekeyed, again, again_verifiers, 1, last_locks) == 0
