"""Write protocol/vectors/crypto-*.json: deterministic test vectors for p2pgames.crypto.

Run from the repository root with the project's Python:

    .venv/bin/python scripts/make_crypto_vectors.py

Every secret (private keys, salts, scalars, permutations, ephemeral keys) is derived from a fixed
label, so running it again writes the same files. tests/crypto/test_crypto_vectors.py checks the library
against the files; regenerate them only when a construction changes on purpose, and say so in
protocol/SPEC.md (Part C).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from p2pgames import canonical
from p2pgames import crypto
from p2pgames.crypto import _domains, elgamal
from p2pgames.crypto._deck import _hash_to_x

VECTOR_DIR = Path(__file__).resolve().parents[1] / "protocol" / "vectors"


def fixed(label: str, size: int = 32) -> bytes:
    """Reproducible 'random' bytes for a vector, named by what they are for."""
    out = b""
    counter = 0
    while len(out) < size:
        out += hashlib.sha256(f"p2pgames test vectors/{label}/{counter}".encode()).digest()
        counter += 1
    return out[:size]


def scalar(label: str) -> int:
    return crypto.random_scalar(fixed(label, 32 * 4))


def sx(k: int) -> str:
    return crypto.scalar_to_bytes(k).hex()


# --- signatures -----------------------------------------------------------------------------------


def signatures() -> dict[str, Any]:
    cases: list[dict[str, Any]] = []
    payloads = [
        ("hello", {"name": "Ada", "protocol": 1, "key": bytes(range(32))}),
        ("event", [7, "play", {"cards": [3, 1, 4]}, None, True]),
        ("agree", [12, bytes.fromhex("ab" * 32)]),
        ("empty-payload", None),
        ("unicode-domain-ä", "Grüße"),
    ]
    identities = [crypto.Identity.from_private_bytes(fixed(f"identity/{i}")) for i in range(3)]
    identities.append(crypto.Identity.from_private_bytes(bytes(32)))
    for i, (domain, payload) in enumerate(payloads):
        identity = identities[i % len(identities)]
        encoded = canonical.encode(payload)
        signing_input = _domains.SIGN + domain.encode() + b"\x00" + encoded
        signature = identity.sign(domain, payload)
        cases.append(
            {
                "kind": "signature",
                "private_key": identity.private_bytes().hex(),
                "public_key": identity.public_key.raw.hex(),
                "fingerprint": identity.public_key.fingerprint(),
                "domain": domain,
                "payload_canonical": encoded.hex(),
                "signing_input": signing_input.hex(),
                "signature": signature.hex(),
            }
        )
    good = cases[1]
    sig = bytes.fromhex(good["signature"])
    bad_cases = [
        ("last signature byte changed", good["domain"], good["payload_canonical"],
         (sig[:-1] + bytes([sig[-1] ^ 1])).hex()),
        ("first signature byte changed", good["domain"], good["payload_canonical"],
         (bytes([sig[0] ^ 0x80]) + sig[1:]).hex()),
        ("other domain", "hello", good["payload_canonical"], good["signature"]),
        ("payload changed", good["domain"], canonical.encode([7, "play", {"cards": [3, 1, 5]}, None, True]).hex(),
         good["signature"]),
        ("signature truncated", good["domain"], good["payload_canonical"], sig[:63].hex()),
        ("signature too long", good["domain"], good["payload_canonical"], (sig + b"\x00").hex()),
        ("empty signature", good["domain"], good["payload_canonical"], ""),
        ("S not reduced (S + L)", good["domain"], good["payload_canonical"], _add_order_to_s(sig).hex()),
    ]
    for why, domain, payload_hex, signature_hex in bad_cases:
        cases.append(
            {
                "kind": "bad_signature",
                "why": why,
                "public_key": good["public_key"],
                "domain": domain,
                "payload_canonical": payload_hex,
                "signature": signature_hex,
            }
        )
    invalid_keys = [
        ("identity point (order 1): signature (identity, 0) would verify for every message",
         "01" + "00" * 31),
        ("point of order 2", "ec" + "ff" * 30 + "7f"),
        ("point of order 4", "00" * 32),
        ("point of order 8", "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"),
        ("y not reduced (y = p)", "ed" + "ff" * 30 + "7f"),
        ("no curve point with this y", "02" + "00" * 31),
        ("x = 0 with sign bit set", "01" + "00" * 30 + "80"),
        ("31 bytes", "11" * 31),
        ("33 bytes", "11" * 33),
    ]
    for why, raw in invalid_keys:
        cases.append({"kind": "invalid_public_key", "why": why, "public_key": raw})
    key = identities[0].public_key
    compact = key.fingerprint().replace("-", "")
    for text, matches in [
        (key.fingerprint(), True),
        (compact, True),
        (key.fingerprint().upper(), True),
        (f"  {compact.upper()}\n", True),
        (compact[:8] + "-" + compact[8:], True),
        (compact[:-1], False),
        (compact + "a", False),
        (compact[:-1] + ("a" if compact[-1] != "a" else "b"), False),
        ("", False),
        ("not a fingerprint at all", False),
        (compact[:15] + "é", False),
    ]:
        cases.append(
            {"kind": "fingerprint_match", "public_key": key.raw.hex(), "text": text, "matches": matches}
        )
    return {
        "description": (
            "Ed25519 signatures over canonical msgpack (protocol/SPEC.md §C2). signing_input = "
            "b'p2pgames/v1/sign/' + UTF-8 domain + b'\\x00' + canonical payload; the signature is "
            "plain RFC 8032 Ed25519 of signing_input. fingerprint = lowercase unpadded base32 of the "
            "first 10 bytes of SHA-256(b'p2pgames/v1/fingerprint\\x00' + public key), grouped 4-4-4-4. "
            "Bytes are lowercase hex. Kinds: 'signature' (must sign and verify to exactly these bytes), "
            "'bad_signature' (must be rejected), 'invalid_public_key' (must be refused as a key), "
            "'fingerprint_match' (whether text matches the key's fingerprint)."
        ),
        "cases": cases,
    }


def _add_order_to_s(signature: bytes) -> bytes:
    order = 2**252 + 27742317777372353535851937790883648493
    s = int.from_bytes(signature[32:], "little") + order
    return signature[:32] + s.to_bytes(32, "little")


# --- commitments ----------------------------------------------------------------------------------


def commitments() -> dict[str, Any]:
    cases: list[dict[str, Any]] = []
    inputs = [
        ("beltpunk/discard", fixed("game/1", 16), 0, [4, 17]),
        ("astonishing/vote", fixed("game/1", 16), 3, "yes"),
        ("torpedo/build", fixed("game/2", 16), 1, {"hull": 3, "weapons": [b"\x01", b"\x02"]}),
        ("joint-random", fixed("game/2", 16), 2, fixed("contribution/2")),
        ("empty", b"", 0, None),
    ]
    for i, (domain, game_id, seat, value) in enumerate(inputs):
        salt = fixed(f"salt/{i}")
        commitment, _ = crypto.commit(domain, game_id, seat, value, salt)
        preimage = _domains.COMMIT + canonical.encode([domain, game_id, seat, salt, value])
        cases.append(
            {
                "kind": "commitment",
                "domain": domain,
                "game_id": game_id.hex(),
                "seat": seat,
                "salt": salt.hex(),
                "value_canonical": canonical.encode(value).hex(),
                "hashed_bytes": preimage.hex(),
                "commitment": commitment.hex(),
            }
        )
    base = cases[0]
    for why, change in [
        ("other salt", {"salt": fixed("salt/other").hex()}),
        ("salt of 31 bytes", {"salt": base["salt"][:-2]}),
        ("salt of 33 bytes", {"salt": base["salt"] + "00"}),
        ("other value", {"value_canonical": canonical.encode([4, 18]).hex()}),
        ("other seat", {"seat": 1}),
        ("other game", {"game_id": fixed("game/2", 16).hex()}),
        ("other domain", {"domain": "beltpunk/declare"}),
        ("commitment of 31 bytes", {"commitment": base["commitment"][:-2]}),
    ]:
        case = {k: base[k] for k in ("domain", "game_id", "seat", "salt", "value_canonical", "commitment")}
        case.update(change)
        cases.append({"kind": "bad_opening", "why": why, **case})
    return {
        "description": (
            "Commitments (protocol/SPEC.md §C3): commitment = SHA-256(b'p2pgames/v1/commit\\x00' + "
            "canonical [domain, game_id, seat, salt, value]); hashed_bytes is the full SHA-256 input. "
            "Bytes are lowercase hex; value_canonical is the value's canonical msgpack. Kinds: "
            "'commitment' (must produce exactly this commitment and open with this salt), "
            "'bad_opening' (the opening must be refused)."
        ),
        "cases": cases,
    }


# --- joint randomness -----------------------------------------------------------------------------


def joint() -> dict[str, Any]:
    cases: list[dict[str, Any]] = []
    sets = [
        [fixed("contribution/0")],
        [fixed("contribution/0"), fixed("contribution/1")],
        [fixed("contribution/0"), fixed("contribution/1"), fixed("contribution/2"), fixed("contribution/3")],
        [bytes(32), bytes(32)],
        [fixed("contribution/0"), fixed("contribution/0")],
    ]
    for contributions in sets:
        xor = bytes(32)
        for c in contributions:
            xor = bytes(a ^ b for a, b in zip(xor, c))
        cases.append(
            {
                "kind": "combine",
                "contributions": [c.hex() for c in contributions],
                "xor": xor.hex(),
                "seed": crypto.combine_contributions(contributions).hex(),
            }
        )
    for why, contributions in [
        ("no contributions", []),
        ("31-byte contribution", [fixed("contribution/0"), fixed("contribution/1")[:31]]),
        ("33-byte contribution", [fixed("contribution/0", 33)]),
    ]:
        cases.append({"kind": "reject", "why": why, "contributions": [c.hex() for c in contributions]})
    return {
        "description": (
            "Joint randomness (protocol/SPEC.md §C4): seed = SHA-256(b'p2pgames/v1/joint-seed\\x00' + "
            "XOR of the 32-byte contributions in seat order). Bytes are lowercase hex. Kinds: "
            "'combine' (must give this xor and seed), 'reject' (must be refused)."
        ),
        "cases": cases,
    }


# --- the deck -------------------------------------------------------------------------------------


def deck() -> dict[str, Any]:
    cases: list[dict[str, Any]] = []
    cases.append(
        {
            "kind": "constants",
            "curve_order": format(crypto.CURVE_ORDER, "064x"),
            "field_prime": format(crypto.FIELD_PRIME, "064x"),
            "verifier_base_domain": _domains.VERIFIER_BASE_DOMAIN,
            "verifier_base_name": "G0",
            "verifier_base": crypto.VERIFIER_BASE.hex(),
        }
    )

    # Card points: include names whose first counters are rejected.
    points = []
    for deck_domain, name in [
        ("steam-court/2015", "Inspector"),
        ("steam-court/2015", "Tea Boy"),
        ("beltpunk", "hat-07"),
        ("test", "card-0"),
        ("test", "ä"),
        (_domains.VERIFIER_BASE_DOMAIN, "G0"),
    ]:
        points.append((deck_domain, name))
    extra = 0
    while sum(1 for d, n in points if _hash_to_x(d, n)[0] > 0) < 3:
        points.append(("test", f"card-{extra + 1}"))
        extra += 1
    for deck_domain, name in points:
        counter, x = _hash_to_x(deck_domain, name)
        rejected = []
        for c in range(counter):
            digest = hashlib.sha256(_domains.CARD + canonical.encode([deck_domain, name, c])).digest()
            rejected.append(digest.hex())
        cases.append(
            {
                "kind": "card_point",
                "deck_domain": deck_domain,
                "name": name,
                "counter": counter,
                "rejected_candidates": rejected,
                "x": x.hex(),
            }
        )

    # Encryptions.
    card = crypto.card_point("test", "card-0")
    for label, k in [
        ("one", 1),
        ("two", 2),
        ("n-1 (negation: same x)", crypto.CURVE_ORDER - 1),
        ("random a", scalar("encrypt/a")),
        ("random b", scalar("encrypt/b")),
    ]:
        cases.append({"kind": "encrypt", "note": label, "x": card.hex(), "scalar": sx(k),
                      "result": crypto.encrypt(card, k).hex()})
    a, b = scalar("encrypt/a"), scalar("encrypt/b")
    ab = crypto.encrypt(crypto.encrypt(card, a), b)
    cases.append({"kind": "encrypt", "note": "a then b = a·b", "x": crypto.encrypt(card, a).hex(),
                  "scalar": sx(b), "result": ab.hex()})
    cases.append({"kind": "encrypt", "note": "decrypt with a⁻¹ mod n", "x": crypto.encrypt(card, a).hex(),
                  "scalar": sx(pow(a, -1, crypto.CURVE_ORDER)), "result": card.hex()})

    # Random scalars and permutations (informative: the draw is each peer's secret business).
    rejected_high = b"\xff" * 32
    rejected_zero = bytes(32)
    for why, rng in [
        ("first candidate accepted", fixed("scalar/rng")),
        ("candidates >= n and 0 rejected", rejected_high + rejected_zero + fixed("scalar/rng")),
    ]:
        cases.append({"kind": "random_scalar", "note": why, "rng_bytes": rng.hex(),
                      "scalar": sx(crypto.random_scalar(rng))})
    for n in (1, 2, 5, 13):
        # 4n + 16 bytes leave room for redraws; these n need none, so only the first
        # bytes_used = 4(n-1) are read (one 4-byte draw for each i = n-1 ... 1) and the rest is unused.
        rng = fixed(f"permutation/{n}", 4 * n + 16)
        cases.append({"kind": "random_permutation", "n": n, "rng_bytes": rng.hex(),
                      "permutation": crypto.random_permutation(n, rng),
                      "bytes_used": _permutation_bytes_used(n, rng)})

    cases.append(_deal_case())

    # Negative cases.
    table = crypto.CardTable("test", [f"card-{i}" for i in range(5)])
    k = scalar("negative/shuffle")
    perm = crypto.random_permutation(5, fixed("negative/permutation", 64))
    outputs = crypto.shuffle_pass(list(table.points), k, perm)
    swapped = list(outputs)
    swapped[3] = crypto.encrypt(crypto.card_point("test", "card-9"), k)
    cases.append({"kind": "bad_shuffle", "why": "output 3 replaced by another card",
                  "inputs": [x.hex() for x in table.points], "outputs": [x.hex() for x in swapped],
                  "shuffle_key": sx(k), "first_bad": 3})
    duplicated = list(outputs)
    duplicated[4] = duplicated[1]
    cases.append({"kind": "bad_shuffle", "why": "output 1 duplicated into output 4",
                  "inputs": [x.hex() for x in table.points], "outputs": [x.hex() for x in duplicated],
                  "shuffle_key": sx(k), "first_bad": 4})
    other = scalar("negative/other-shuffle")
    cases.append({"kind": "bad_shuffle", "why": "published shuffle key is not the one used",
                  "inputs": [x.hex() for x in table.points], "outputs": [x.hex() for x in outputs],
                  "shuffle_key": sx(other), "first_bad": 0})

    locks = [scalar(f"negative/lock/{i}") for i in range(5)]
    locked, verifiers = crypto.lock_pass(outputs, k, locks)
    cases.append({"kind": "wrong_lock_key", "verifier": verifiers[2].hex(), "key": sx(locks[3])})
    cases.append({"kind": "wrong_lock_key", "verifier": verifiers[2].hex(),
                  "key": sx((locks[2] + 1) % crypto.CURVE_ORDER)})
    bad_locked = list(locked)
    bad_locked[2] = crypto.encrypt(outputs[2], locks[2])  # forgot to strip the shuffle key
    cases.append({"kind": "bad_lock", "why": "slot 2 not stripped of the shuffle key",
                  "inputs": [x.hex() for x in outputs], "outputs": [x.hex() for x in bad_locked],
                  "verifiers": [v.hex() for v in verifiers], "shuffle_key": sx(k),
                  "lock_keys": [sx(x) for x in locks], "first_bad": 2})
    bad_verifiers = list(verifiers)
    bad_verifiers[1], bad_verifiers[4] = verifiers[4], verifiers[1]
    cases.append({"kind": "bad_lock", "why": "verifiers 1 and 4 swapped",
                  "inputs": [x.hex() for x in outputs], "outputs": [x.hex() for x in locked],
                  "verifiers": [v.hex() for v in bad_verifiers], "shuffle_key": sx(k),
                  "lock_keys": [sx(x) for x in locks], "first_bad": 1})

    # The last holder's pass, which shuffles and locks at once (§B6.1): here over the locked
    # values a fresh deal's last shuffle pass would take, with no re-key key (strip 1).
    merge_perm = crypto.random_permutation(5, fixed("negative/shuffle-lock-permutation", 64))
    merged, merged_verifiers = crypto.shuffle_lock_pass(outputs, 1, merge_perm, locks)
    merged_case = {"kind": "bad_shuffle_lock", "inputs": [x.hex() for x in outputs],
                   "verifiers": [v.hex() for v in merged_verifiers], "strip_key": sx(1),
                   "lock_keys": [sx(x) for x in locks]}
    cases.append({**merged_case, "why": "none (a correct shuffle-lock pass; permutation given for reference)",
                  "permutation": merge_perm, "outputs": [x.hex() for x in merged], "first_bad": None})
    repeated = list(merged)
    repeated[3] = crypto.encrypt(outputs[merge_perm[0]], locks[3])  # output 0's card again, under key 3
    cases.append({**merged_case, "why": "output 3 is output 0's card again, under slot 3's key",
                  "outputs": [x.hex() for x in repeated], "first_bad": 3})
    swapped_verifiers = list(merged_verifiers)
    swapped_verifiers[0], swapped_verifiers[2] = merged_verifiers[2], merged_verifiers[0]
    cases.append({**merged_case, "why": "verifiers 0 and 2 swapped", "verifiers": [v.hex() for v in swapped_verifiers],
                  "outputs": [x.hex() for x in merged], "first_bad": 0})

    new_key = scalar("negative/reshuffle")
    reperm = crypto.random_permutation(5, fixed("negative/reshuffle-permutation", 64))
    reshuffled = crypto.reshuffle_pass(locked, locks, new_key, reperm)
    cases.append({"kind": "bad_reshuffle", "why": "none (a correct re-shuffle)",
                  "inputs": [x.hex() for x in locked], "outputs": [x.hex() for x in reshuffled],
                  "old_lock_keys": [sx(x) for x in locks], "shuffle_key": sx(new_key),
                  "first_bad": None})
    kept_lock = list(reshuffled)
    kept_lock[1] = crypto.encrypt(locked[reperm[1]], new_key)  # old lock left on
    cases.append({"kind": "bad_reshuffle", "why": "output 1 still carries its old lock",
                  "inputs": [x.hex() for x in locked], "outputs": [x.hex() for x in kept_lock],
                  "old_lock_keys": [sx(x) for x in locks], "shuffle_key": sx(new_key),
                  "first_bad": 1})

    not_on_curve = _first_x_without_point()
    for why, value in [
        ("no curve point has this x", not_on_curve),
        ("x = p (not reduced)", crypto.FIELD_PRIME.to_bytes(32, "big")),
        ("x = 2^256 - 1", b"\xff" * 32),
        ("31 bytes", card[:31]),
        ("33 bytes", card + b"\x00"),
    ]:
        cases.append({"kind": "bad_card_value", "why": why, "x": value.hex()})
    cases.append({"kind": "not_a_card", "deck_domain": "test", "names": [f"card-{i}" for i in range(5)],
                  "x": crypto.card_point("test", "card-5").hex()})

    return {
        "description": (
            "Mental-poker deck on P-256 x-coordinates (protocol/SPEC.md §C5). Card values and "
            "verifiers are 32-byte big-endian x-coordinates in lowercase hex. Scalars (keys) are "
            "lowercase hex of their 32-byte big-endian encoding (64 hex digits). Permutations list, "
            "for each output position j, the input index it takes: output[j] = f(input[permutation[j]]). "
            "Kinds: constants, card_point, encrypt, random_scalar and random_permutation "
            "(informative: peers may draw secrets any unbiased way; a permutation reads only the "
            "first bytes_used bytes of rng_bytes, one 4-byte draw per swap plus any redraw, and the "
            "rest is unused slack), deal (3-peer shuffle, lock, "
            "delivery and reveal of 5 cards, then a re-shuffle of a locked sub-pile, with every "
            "intermediate list), bad_shuffle / bad_reshuffle / bad_lock / bad_shuffle_lock (the audit must report "
            "first_bad, the index of the first output not accounted for; null when the pass is good), "
            "wrong_lock_key (check_lock_key is false), bad_card_value (not a P-256 x-coordinate), "
            "not_a_card (a point that is no card of the deal)."
        ),
        "cases": cases,
    }


def _permutation_bytes_used(n: int, rng: bytes) -> int:
    """How many bytes of ``rng`` :func:`crypto.random_permutation` reads for ``n`` items."""
    used = 0
    for i in range(n - 1, 0, -1):
        bound = i + 1
        while True:
            r = int.from_bytes(rng[used:used + 4], "big")
            used += 4
            if r < 2**32 - 2**32 % bound:
                break
    return used


def _first_x_without_point() -> bytes:
    x = 0
    while True:
        try:
            crypto.encrypt(x.to_bytes(32, "big"), 1)
        except crypto.BadCardValue:
            return x.to_bytes(32, "big")
        x += 1


def _deal_case() -> dict[str, Any]:
    deck_domain = "vectors/deal"
    names = ["Inspector", "Tea Boy", "General", "Plague Doctor", "Mime"]
    peers = 3
    table = crypto.CardTable(deck_domain, names)
    values = list(table.points)
    shuffle_keys = [scalar(f"deal/shuffle/{p}") for p in range(peers)]
    permutations = [crypto.random_permutation(len(names), fixed(f"deal/permutation/{p}", 64))
                    for p in range(peers)]
    shuffle = []
    for p in range(peers):
        out = crypto.shuffle_pass(values, shuffle_keys[p], permutations[p])
        shuffle.append({"peer": p, "shuffle_key": sx(shuffle_keys[p]), "permutation": permutations[p],
                        "inputs": [x.hex() for x in values], "outputs": [x.hex() for x in out]})
        values = out
    lock_keys = [[scalar(f"deal/lock/{p}/{i}") for i in range(len(names))] for p in range(peers)]
    lock = []
    for p in range(peers):
        out, verifiers = crypto.lock_pass(values, shuffle_keys[p], lock_keys[p])
        lock.append({"peer": p, "shuffle_key": sx(shuffle_keys[p]),
                     "lock_keys": [sx(k) for k in lock_keys[p]],
                     "inputs": [x.hex() for x in values], "outputs": [x.hex() for x in out],
                     "verifiers": [v.hex() for v in verifiers]})
        values = out
    locked = values
    slots = []
    for i, value in enumerate(locked):
        owner = i % peers  # slot i is given to this peer: the others publish their keys
        others = [lock_keys[p][i] for p in range(peers) if p != owner]
        partly = crypto.unlock(value, others)
        card = crypto.unlock(partly, [lock_keys[owner][i]])
        slots.append({"slot": i, "given_to": owner, "locked": value.hex(),
                      "after_others_unlock": partly.hex(), "card_value": card.hex(),
                      "card": table.name_of(card)})

    # Re-shuffle the locked sub-pile of slots 0, 2, 4 (as for a discard pile drawn blind), the way
    # the session does it (protocol/SPEC.md, "Re-shuffling a sub-pile"). Round 1 (re-key): every
    # peer in seat order swaps its old locks for one new key a_p, without permuting, since the
    # others must still find their locks where they left them. Round 2: every peer shuffles with
    # a second key r_p. Round 3: every peer locks, stripping a_p·r_p.
    pile = [0, 2, 4]
    size = len(pile)
    values = [locked[i] for i in pile]
    rekey_keys = [scalar(f"deal/rekey/{p}") for p in range(peers)]
    rekey = []
    for p in range(peers):
        old = [lock_keys[p][i] for i in pile]
        out = crypto.reshuffle_pass(values, old, rekey_keys[p], list(range(size)))
        rekey.append({"peer": p, "old_lock_keys": [sx(k) for k in old],
                      "shuffle_key": sx(rekey_keys[p]), "permutation": list(range(size)),
                      "inputs": [x.hex() for x in values], "outputs": [x.hex() for x in out]})
        values = out
    second_keys = {p: scalar(f"deal/reshuffle/{p}") for p in range(peers)}
    reshuffle = []
    for p in range(peers):
        perm = crypto.random_permutation(size, fixed(f"deal/reshuffle-permutation/{p}", 64))
        out = crypto.shuffle_pass(values, second_keys[p], perm)
        reshuffle.append({"peer": p, "shuffle_key": sx(second_keys[p]), "permutation": perm,
                          "inputs": [x.hex() for x in values], "outputs": [x.hex() for x in out]})
        values = out
    strip_keys = [rekey_keys[p] * second_keys[p] % crypto.CURVE_ORDER for p in range(peers)]
    new_locks = [[scalar(f"deal/relock/{p}/{i}") for i in range(size)] for p in range(peers)]
    relock = []
    for p in range(peers):
        out, verifiers = crypto.lock_pass(values, strip_keys[p], new_locks[p])
        relock.append({"peer": p, "shuffle_key": sx(strip_keys[p]),
                       "lock_keys": [sx(k) for k in new_locks[p]],
                       "inputs": [x.hex() for x in values], "outputs": [x.hex() for x in out],
                       "verifiers": [v.hex() for v in verifiers]})
        values = out
    reshuffled = [table.name_of(crypto.unlock(v, [new_locks[p][j] for p in range(peers)]))
                  for j, v in enumerate(values)]
    return {
        "kind": "deal",
        "deck_domain": deck_domain,
        "names": names,
        "card_values": [x.hex() for x in table.points],
        "shuffle": shuffle,
        "lock": lock,
        "slots": slots,
        "subpile": {
            "slots": pile,
            "rekey": rekey,
            "shuffle": reshuffle,
            "lock": relock,
            "cards": reshuffled,
        },
    }


# --- sealed messages ------------------------------------------------------------------------------


def _sealing_values(recipient: crypto.SealKey, ephemeral: crypto.SealKey) -> dict[str, str]:
    """The keys and every intermediate value of sealing to ``recipient`` with ``ephemeral`` (§C6.1)."""
    shared = X25519PrivateKey.from_private_bytes(ephemeral.private_bytes()).exchange(
        X25519PublicKey.from_public_bytes(recipient.public_bytes())
    )
    info = _domains.SEAL + ephemeral.public_bytes() + recipient.public_bytes()
    return {
        "recipient_private": recipient.private_bytes().hex(),
        "recipient_public": recipient.public_bytes().hex(),
        "ephemeral_private": ephemeral.private_bytes().hex(),
        "ephemeral_public": ephemeral.public_bytes().hex(),
        "shared_secret": shared.hex(),
        "hkdf_info": info.hex(),
        "message_key": HKDF(hashes.SHA256(), 32, b"", info).derive(shared).hex(),
    }


def sealed() -> dict[str, Any]:
    cases: list[dict[str, Any]] = []
    recipient = crypto.SealKey.from_private_bytes(fixed("seal/recipient"))
    messages = [
        (b"", b""),
        (crypto.scalar_to_bytes(scalar("seal/lock-key")), canonical.encode(["key", 7, 3])),
        (b"the Inspector is in slot 12" + fixed("seal/salt", 16), b"peek"),
        (bytes(range(256)) * 3, b"long"),
    ]
    for i, (plaintext, ad) in enumerate(messages):
        ephemeral = crypto.SealKey.from_private_bytes(fixed(f"seal/ephemeral/{i}"))
        out = crypto.seal(recipient.public_bytes(), plaintext, ad, ephemeral.private_bytes())
        cases.append(
            {
                "kind": "seal",
                **_sealing_values(recipient, ephemeral),
                "plaintext": plaintext.hex(),
                "associated_data": ad.hex(),
                "sealed": out.hex(),
                "commitment": crypto.sealed_commitment(plaintext).hex(),
            }
        )
    good = cases[1]
    sealed_bytes = bytes.fromhex(good["sealed"])
    other = crypto.SealKey.from_private_bytes(fixed("seal/other-recipient"))
    for why, key, data, ad in [
        ("ciphertext bit flipped", recipient, sealed_bytes[:40] + bytes([sealed_bytes[40] ^ 1]) + sealed_bytes[41:],
         good["associated_data"]),
        ("tag bit flipped", recipient, sealed_bytes[:-1] + bytes([sealed_bytes[-1] ^ 1]), good["associated_data"]),
        ("ephemeral key changed", recipient, bytes([sealed_bytes[0] ^ 1]) + sealed_bytes[1:], good["associated_data"]),
        ("other associated data", recipient, sealed_bytes, canonical.encode(["key", 7, 4]).hex()),
        ("other recipient", other, sealed_bytes, good["associated_data"]),
        ("truncated to 47 bytes", recipient, sealed_bytes[:47], good["associated_data"]),
        ("ephemeral key is a low-order point", recipient, bytes(32) + sealed_bytes[32:], good["associated_data"]),
    ]:
        cases.append({"kind": "open_fails", "why": why, "recipient_private": key.private_bytes().hex(),
                      "sealed": data.hex(), "associated_data": ad})
    return {
        "description": (
            "Sealed private messages (protocol/SPEC.md §C6). sealed = ephemeral X25519 public key "
            "(32 bytes) + ChaCha20-Poly1305(message_key, nonce = 12 zero bytes, plaintext, "
            "associated_data); message_key = HKDF-SHA256(ikm = X25519 shared secret, salt = empty, "
            "info = b'p2pgames/v1/seal\\x00' + ephemeral public + recipient public, length 32). "
            "commitment = SHA-256(b'p2pgames/v1/sealed\\x00' + plaintext). Bytes are lowercase hex. "
            "Kinds: 'seal' (must produce exactly these bytes and open again), 'open_fails' (opening "
            "with recipient_private must fail)."
        ),
        "cases": cases,
    }


# --- the forms sessions use -----------------------------------------------------------------------


def session_forms() -> dict[str, Any]:
    """Commitments of choices and random contributions, and sealed lock keys, exactly as a session
    makes them (protocol/SPEC.md §B5, §B6.2)."""
    cases: list[dict[str, Any]] = []
    game_id = fixed("session/game-id")
    commitments = [
        ("choice", 1, 15, ["play", 5]),
        ("choice", 0, 40, ["discard", 17]),
        ("choice", 2, 112, ["lay", [30, 31], 7, 2, None]),
        ("random", 2, 0, fixed("session/contribution/2")),
    ]
    for i, (domain, seat, phase_id, value) in enumerate(commitments):
        salt = fixed(f"session/salt/{i}")
        committed = [phase_id, value]
        commitment, _ = crypto.commit(domain, game_id, seat, committed, salt)
        cases.append({
            "kind": "session_commitment",
            "domain": domain,
            "game_id": game_id.hex(),
            "seat": seat,
            "phase_id": phase_id,
            "value_canonical": canonical.encode(value).hex(),
            "committed_canonical": canonical.encode(committed).hex(),
            "salt": salt.hex(),
            "hashed_bytes": (_domains.COMMIT + canonical.encode([domain, game_id, seat, salt, committed])).hex(),
            "commitment": commitment.hex(),
            "commit_body_canonical": canonical.encode({"t": "commit", "commitment": commitment}).hex(),
            "open_body_canonical": canonical.encode({"t": "open", "salt": salt, "value": value}).hex(),
        })
    base = cases[0]
    for why, change in [
        ("opened under another phase id", {"phase_id": base["phase_id"] + 1}),
        ("opened in the random domain", {"domain": "random"}),
        ("committed value not wrapped in [phase_id, value]", {"committed_canonical": base["value_canonical"]}),
        ("opened by another seat", {"seat": base["seat"] + 1}),
    ]:
        case = {key: base[key] for key in ("domain", "game_id", "seat", "phase_id", "committed_canonical",
                                            "salt", "commitment")}
        case.update(change)
        if "phase_id" in change:
            value = canonical.decode(bytes.fromhex(base["value_canonical"]))
            case["committed_canonical"] = canonical.encode([change["phase_id"], value]).hex()
        cases.append({"kind": "session_bad_opening", "why": why, **case})

    # A lock key sealed to another seat in a keys submission: seat 2 seals its key for slot 1 to seat 1.
    recipient = crypto.SealKey.from_private_bytes(fixed("session/seal/recipient"))
    sealed_keys = [(1, 2, 1, scalar("session/lock-key/1")), (37, 0, 3, scalar("session/lock-key/37"))]
    for i, (slot, sender, to, key) in enumerate(sealed_keys):
        key_bytes = crypto.scalar_to_bytes(key)
        context = canonical.encode(["sealed-key", game_id, slot, sender, to])
        ephemeral = crypto.SealKey.from_private_bytes(fixed(f"session/seal/ephemeral/{i}"))
        box = crypto.seal(recipient.public_bytes(), key_bytes, context, ephemeral.private_bytes())
        commitment = crypto.sealed_commitment(key_bytes)
        cases.append({
            "kind": "sealed_key",
            "game_id": game_id.hex(),
            "slot": slot,
            "sender": sender,
            "to": to,
            "key": key_bytes.hex(),
            "context": context.hex(),
            **_sealing_values(recipient, ephemeral),
            "box": box.hex(),
            "commitment": commitment.hex(),
            "sealed_item_canonical": canonical.encode([slot, to, box, commitment]).hex(),
        })
    base = next(case for case in cases if case["kind"] == "sealed_key")
    for why, change in [
        ("context names another slot", {"slot": base["slot"] + 1}),
        ("context names another sender", {"sender": base["sender"] + 1}),
        ("context names another recipient", {"to": base["to"] + 1}),
        ("context names another game", {"game_id": fixed("session/other-game-id").hex()}),
    ]:
        fields = {key: base[key] for key in ("game_id", "slot", "sender", "to")}
        fields.update(change)
        context = canonical.encode(["sealed-key", bytes.fromhex(fields["game_id"]), fields["slot"],
                                    fields["sender"], fields["to"]])
        cases.append({"kind": "sealed_key_open_fails", "why": why, **fields, "context": context.hex(),
                      "recipient_private": base["recipient_private"], "box": base["box"]})
    return {
        "description": (
            "The commitments and sealed keys sessions send (protocol/SPEC.md §B5, §B6.2). "
            "session_commitment: commitment = SHA-256(b'p2pgames/v1/commit\\x00' + canonical "
            "[domain, game_id, seat, salt, [phase_id, value]]) with domain 'choice' (value: the "
            "action's wire form) or 'random' (value: a 32-byte contribution); committed_canonical is "
            "[phase_id, value], hashed_bytes the full SHA-256 input, and the commit and open "
            "submission bodies are given canonically. session_bad_opening: the opening must be "
            "refused (committed_canonical is what the opener is checked against). sealed_key: a lock "
            "key sealed by seat sender to seat to for a slot, as in a keys submission's sealed item "
            "[slot, to, box, commitment]: context = canonical ['sealed-key', game_id, slot, sender, "
            "to] is the associated data, box = seal(recipient_public, key, context) with every "
            "intermediate value of protocol/SPEC.md §C6.1, commitment = SHA-256(b'p2pgames/v1/"
            "sealed\\x00' + key). sealed_key_open_fails: opening the box with that context must fail. "
            "Bytes are lowercase hex."
        ),
        "cases": cases,
    }


# --- key escrow -----------------------------------------------------------------------------------


def escrow() -> dict[str, Any]:
    cases: list[dict[str, Any]] = []
    for holders in (2, 3, 11):
        secret = scalar(f"escrow/secret/{holders}")
        shares = crypto.split_secret(secret, holders)
        cases.append({
            "kind": "split",
            "secret": sx(secret),
            "holders": holders,
            "shares": [sx(share) for share in shares],
            "commitments": [commitment.hex() for commitment in crypto.escrow_commitments(secret, holders)],
        })
    good = cases[1]
    first, second = (int(good["shares"][i], 16) for i in (0, 1))
    n = crypto.CURVE_ORDER
    for why, share, commitment in (
        ("another holder's share", second, good["commitments"][0]),
        ("share plus one", (first + 1) % n, good["commitments"][0]),
        ("negated share (same x-coordinate)", n - first, good["commitments"][0]),
        ("commitment's sign byte flipped", first, ("03" if good["commitments"][0][:2] == "02" else "02") + good["commitments"][0][2:]),
        ("uncompressed form of the right point", first, _uncompressed(first)),
    ):
        cases.append({"kind": "bad_share", "why": why, "share": sx(share), "commitment": commitment})
    cases.extend(lock_escrow_trees())
    return {
        "description": (
            "Key escrow (protocol/SPEC.md §C8). split: the shares of secret for holders holders; share j < "
            "holders-1 is the j-th random_scalar drawn (64 bytes a draw) from HMAC-SHA256(secret as 32 bytes, "
            "b'p2pgames/v1/escrow-split\\x00' + bytes([holders]) + counter as 8 bytes big-endian), the last "
            "is secret minus the others mod n; commitments[j] = shares[j]*G in SEC 1 compressed form; the "
            "secret is the sum of all shares mod n. bad_share: check_share(share, commitment) must be false. "
            "seed_shares: shares_from_seed(seed, count), the first count random_scalar draws (64 bytes a "
            "draw) from HMAC-SHA256(seed, b'p2pgames/v1/escrow-seed\\x00' + counter as 8 bytes big-endian). "
            "merkle: RFC 6962's tree over leaves with H(x) = SHA-256(b'p2pgames/v1/merkle-tree\\x00' + x), "
            "a leaf hashed as H(0x00 + leaf), a node as H(0x01 + left + right), the left subtree the "
            "largest power of two below the count; paths[i] is leaf i's path, the siblings from the leaf "
            "up. lock_tree: one holder's tree in a lock escrow (§B16): its shares from seed, leaves[i] = "
            "SHA-256(b'p2pgames/v1/escrow-share\\x00' + canon(['lock-share', game_id, dealer, deal, i, "
            "holder]) + shares[i]), root and paths as for merkle. bad_path: check_merkle_path(leaf, index, "
            "count, path, root) must be false."
        ),
        "cases": cases,
    }


def lock_escrow_trees() -> list[dict[str, Any]]:
    """The ``seed_shares``, ``lock_tree``, ``merkle`` and ``bad_path`` cases of crypto-escrow.json."""
    cases: list[dict[str, Any]] = []
    for count in (1, 5):
        seed = fixed(f"escrow/seed/{count}")
        cases.append({"kind": "seed_shares", "seed": seed.hex(), "count": count,
                      "shares": [sx(share) for share in crypto.shares_from_seed(seed, count)]})
    game_id, dealer, deal, holder, size = fixed("escrow/game"), 2, 3, 0, 12
    seed = fixed("escrow/lock-seed")
    shares = crypto.shares_from_seed(seed, size)
    leaves = [crypto.share_digest(share, canonical.encode(["lock-share", game_id, dealer, deal, i, holder]))
              for i, share in enumerate(shares)]
    root = crypto.merkle_root(leaves)
    tree = {"kind": "lock_tree", "game_id": game_id.hex(), "dealer": dealer, "deal": deal, "holder": holder,
            "seed": seed.hex(), "size": size, "shares": [sx(share) for share in shares],
            "leaves": [leaf.hex() for leaf in leaves], "root": root.hex(),
            "paths": [[item.hex() for item in crypto.merkle_path(leaves, i)] for i in range(size)]}
    cases.append(tree)
    for count in (1, 2, 3, 4, 5, 7, 9):
        plain = [fixed(f"escrow/leaf/{count}/{i}", 32) for i in range(count)]
        cases.append({"kind": "merkle", "leaves": [leaf.hex() for leaf in plain],
                      "root": crypto.merkle_root(plain).hex(),
                      "paths": [[item.hex() for item in crypto.merkle_path(plain, i)] for i in range(count)]})
    path = crypto.merkle_path(leaves, 9)  # slot 9 of 12: depth 3 (8 + (2 + 2))
    flipped = bytes([path[0][0] ^ 1]) + path[0][1:]
    # Leaves 8 and 9's parent is no leaf: it does not pass for leaf 4 of a tree of 6, one level up.
    parent = _merkle_node(_merkle_leaf(leaves[8]), _merkle_leaf(leaves[9]))
    for why, leaf, index, count, bad in (
        ("one hash short", leaves[9], 9, size, path[:-1]),
        ("one hash too many", leaves[9], 9, size, path + path[-1:]),
        ("another leaf", leaves[8], 9, size, path),
        ("another index", leaves[9], 8, size, path),
        ("a bit flipped", leaves[9], 9, size, (flipped, *path[1:])),
        ("an inner node passed off as a leaf", parent, 4, 6, path[1:]),
        ("the share, not its digest", crypto.scalar_to_bytes(shares[9]), 9, size, path),
    ):
        assert not crypto.check_merkle_path(leaf, index, count, bad, root)
        cases.append({"kind": "bad_path", "why": why, "leaf": leaf.hex(), "index": index, "count": count,
                      "path": [item.hex() for item in bad], "root": root.hex()})
    return cases


def _merkle_leaf(leaf: bytes) -> bytes:
    return hashlib.sha256(_domains.MERKLE_TREE + b"\x00" + leaf).digest()


def _merkle_node(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(_domains.MERKLE_TREE + b"\x01" + left + right).digest()


def _uncompressed(share: int) -> str:
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    key = ec.derive_private_key(share, ec.SECP256R1()).public_key()
    return key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint).hex()



# --- the ElGamal deck (§C9) ------------------------------------------------------------------------


def _edwards_scalar(label: str) -> int:
    return elgamal.random_scalar(fixed(label, 32 * 8))


def _edwards_not_on_curve() -> bytes:
    """The first y = 2, 3, … with no x: (y² − 1)/(d·y² + 1) is not a square."""
    y = 2
    while elgamal._is_candidate(y.to_bytes(32, "little")):
        y += 1
    return y.to_bytes(32, "little")


def _proven_share(secret: int, nonce: bytes, context: list, label: str) -> dict[str, str]:
    """A decryption share and its proof, with the context and the bytes its proof's nonce came from."""
    context_bytes, nonce_rng = canonical.encode(context), fixed(label, 32 * 8)
    share, proof = elgamal.proven_decryption_share(secret, nonce, context_bytes, nonce_rng)
    return {"share": share.hex(), "context": context_bytes.hex(), "nonce_rng_bytes": nonce_rng.hex(), "proof": proof.hex()}


def elgamal_deck() -> dict[str, Any]:
    cases: list[dict[str, Any]] = []
    cases.append(
        {
            "kind": "constants",
            "group_order": str(elgamal.GROUP_ORDER),
            "field_prime": str(elgamal.FIELD_PRIME),
            "curve_d": str(elgamal.CURVE_D),
            "base_point": elgamal.BASE_POINT.hex(),
            "identity": elgamal.IDENTITY.hex(),
        }
    )
    names = [("test/elgamal", f"card-{i}") for i in range(5)]
    names += [("steam-court/2015", "Inspector"), ("beltpunk", "hat-07"), ("test", "ä")]
    extra = 0
    while sum(1 for d, n in names if elgamal._card_point_search(d, n)[0] > 0) < 3:
        names.append(("test", f"card-{extra + 5}"))
        extra += 1
    for deck_domain, name in names:
        counter, point, rejected = elgamal._card_point_search(deck_domain, name)
        cases.append(
            {
                "kind": "card_point",
                "deck_domain": deck_domain,
                "name": name,
                "counter": counter,
                "rejected_candidates": [candidate.hex() for candidate in rejected],
                "point": point.hex(),
            }
        )

    order_eight = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")
    p = elgamal.FIELD_PRIME
    for encoding, valid, why in [
        (elgamal.BASE_POINT, True, "the base point"),
        (elgamal.card_point("test/elgamal", "card-0"), True, "a card point"),
        (elgamal.public_key(_edwards_scalar("elgamal/holder-0")), True, "a public key"),
        (elgamal.IDENTITY, False, "the identity"),
        (b"\x01" + bytes(30) + b"\x80", False, "the identity with its sign bit set"),
        ((p - 1).to_bytes(32, "little"), False, "the point of order 2 (y = −1)"),
        (bytes(32), False, "a point of order 4 (y = 0)"),
        (order_eight, False, "a point of order 8"),
        (
            elgamal._add(elgamal.BASE_POINT, order_eight),
            False,
            "the base point plus a point of order 8: on the curve, not in the group",
        ),
        (p.to_bytes(32, "little"), False, "y = p: not canonical"),
        ((p + 1).to_bytes(32, "little"), False, "y = p + 1: not canonical"),
        (_edwards_not_on_curve(), False, "no point has this y"),
        (elgamal.BASE_POINT[:31], False, "31 bytes"),
    ]:
        cases.append({"kind": "point", "encoding": encoding.hex(), "valid": valid, "why": why})

    for label in ("elgamal/scalar-0", "elgamal/scalar-1"):
        rng = fixed(label, 32 * 8)
        drawn = elgamal.scalar_to_bytes(elgamal.random_scalar(rng))
        cases.append({"kind": "random_scalar", "rng_bytes": rng.hex(), "scalar": drawn.hex()})

    # A deal: 3 holders, 5 cards.
    deck_domain = "test/elgamal"
    card_names = [f"card-{i}" for i in range(5)]
    points = [elgamal.card_point(deck_domain, name) for name in card_names]
    secrets = [_edwards_scalar(f"elgamal/holder-{j}") for j in range(3)]
    keys = [elgamal.public_key(x) for x in secrets]
    holders = []
    for j, (x, key) in enumerate(zip(secrets, keys)):
        context = canonical.encode(["test/elgamal/key", j])
        nonce_rng = fixed(f"elgamal/key-proof-{j}", 32 * 8)
        proof = elgamal.prove_key(x, context, nonce_rng)
        holders.append(
            {
                "secret": elgamal.scalar_to_bytes(x).hex(),
                "key": key.hex(),
                "context": context.hex(),
                "nonce_rng_bytes": nonce_rng.hex(),
                "proof": proof.hex(),
            }
        )
    joint_key = elgamal.combine_public_keys(keys)
    deck = elgamal.open_deck(points)
    passes = []
    for j in range(3):
        permutation = crypto.random_permutation(len(deck), fixed(f"elgamal/permutation-{j}", 4 * len(deck) + 16))
        scalars = [_edwards_scalar(f"elgamal/pass-{j}/{i}") for i in range(len(deck))]
        deck = elgamal.reencryption_pass(deck, joint_key, permutation, scalars)
        passes.append(
            {
                "permutation": permutation,
                "scalars": [elgamal.scalar_to_bytes(r).hex() for r in scalars],
                "outputs": [[card.nonce.hex(), card.masked.hex()] for card in deck],
            }
        )
    slots = []
    for slot, card in enumerate(deck):
        shares = [
            _proven_share(x, card.nonce, ["test/elgamal/share", slot, j], f"elgamal/share-proof-{slot}-{j}")
            for j, x in enumerate(secrets)
        ]
        opened = elgamal.decrypt(card, [bytes.fromhex(share["share"]) for share in shares])
        slots.append({"shares": shares, "point": opened.hex(), "card": card_names[points.index(opened)]})
    cases.append(
        {
            "kind": "deal",
            "deck_domain": deck_domain,
            "names": card_names,
            "points": [point.hex() for point in points],
            "holders": holders,
            "joint_key": joint_key.hex(),
            "passes": passes,
            "slots": slots,
        }
    )

    # What a check refuses.
    key, x = keys[0], secrets[0]
    context = bytes.fromhex(holders[0]["context"])
    proof = bytes.fromhex(holders[0]["proof"])
    challenge = int.from_bytes(proof[:32], "little")
    challenge_plus_one = ((challenge + 1) % elgamal.GROUP_ORDER).to_bytes(32, "little") + proof[32:]
    for why, bad_key, bad_proof, bad_context in [
        ("another context", key, proof, canonical.encode(["test/elgamal/key", 1])),
        ("another holder's key", keys[1], proof, context),
        ("the challenge plus one", key, challenge_plus_one, context),
        ("a response of ℓ", key, proof[:32] + elgamal.GROUP_ORDER.to_bytes(32, "little"), context),
        ("63 bytes", key, proof[:63], context),
        ("the key not a point of the group", order_eight, proof, context),
    ]:
        assert not elgamal.check_key_proof(bad_key, bad_proof, bad_context)
        cases.append(
            {"kind": "bad_key_proof", "why": why, "key": bad_key.hex(), "proof": bad_proof.hex(), "context": bad_context.hex()}
        )

    first_pass = passes[0]
    inputs = [[p.hex() for p in card] for card in elgamal.open_deck(points)]
    bad_passes = [("an output's masked point from another card", 3), ("two outputs swapped", 1), ("nothing wrong", None)]
    for why, position in bad_passes:
        outputs = [list(card) for card in first_pass["outputs"]]
        if why.startswith("an output"):
            outputs[position][1] = first_pass["outputs"][position - 1][1]
        elif why.startswith("two"):
            outputs[position], outputs[position + 1] = outputs[position + 1], outputs[position]
        found = elgamal.check_reencryption_pass(
            [elgamal.Ciphertext(*map(bytes.fromhex, card)) for card in inputs],
            [elgamal.Ciphertext(*map(bytes.fromhex, card)) for card in outputs],
            joint_key,
            first_pass["permutation"],
            [elgamal.scalar_from_bytes(bytes.fromhex(r)) for r in first_pass["scalars"]],
        )
        assert found == position
        cases.append(
            {
                "kind": "bad_pass",
                "why": why,
                "joint_key": joint_key.hex(),
                "inputs": inputs,
                "outputs": outputs,
                "permutation": first_pass["permutation"],
                "scalars": first_pass["scalars"],
                "first_bad": position,
            }
        )

    card = deck[0]
    share = slots[0]["shares"][0]
    good = (key, card.nonce, *(bytes.fromhex(share[field]) for field in ("share", "proof", "context")))
    for why, changed in [
        ("another holder's key", (keys[1], *good[1:])),
        ("another card's nonce", (good[0], deck[1].nonce, *good[2:])),
        ("a share made with another key", (*good[:2], elgamal.decryption_share(secrets[1], card.nonce), *good[3:])),
        ("another context", (*good[:4], canonical.encode(["test/elgamal/share", 1, 0]))),
        ("the share is the identity", (good[0], good[1], elgamal.IDENTITY, *good[3:])),
    ]:
        assert not elgamal.check_decryption_share(*changed)
        cases.append(
            {
                "kind": "bad_decryption_share",
                "why": why,
                "key": changed[0].hex(),
                "nonce": changed[1].hex(),
                "share": changed[2].hex(),
                "proof": changed[3].hex(),
                "context": changed[4].hex(),
            }
        )

    # A holder's key split among the 2 others, and slot 0 opened with the shares in its place.
    shares = elgamal.split_key(x, 2)
    commitments = elgamal.key_share_commitments(shares)
    assert elgamal.check_key_split(key, commitments)
    opening = [
        _proven_share(share, card.nonce, ["test/elgamal/escrow", 0, i], f"elgamal/escrow-proof-{i}")
        for i, share in enumerate(shares)
    ]
    cases.append(
        {
            "kind": "key_split",
            "secret": elgamal.scalar_to_bytes(x).hex(),
            "key": key.hex(),
            "holders": 2,
            "shares": [elgamal.scalar_to_bytes(s).hex() for s in shares],
            "commitments": [c.hex() for c in commitments],
            "slot": 0,
            "opening": opening,
            "point": slots[0]["point"],
        }
    )
    # One holder's shares of five slots under one batched proof (§C9.3), and what it refuses.
    nonces = [card.nonce for card in deck]
    batch_context = canonical.encode(["shares", bytes(16), 0, list(range(len(nonces)))])
    batch_rng = fixed("elgamal/batch-proof", 32 * 8)
    batch_shares, batch_proof = elgamal.proven_decryption_shares(x, nonces, batch_context, batch_rng)
    seed, weights = elgamal._share_weights(key, nonces, batch_shares, batch_context)
    refused = []
    for why, changed_shares, changed_nonces, changed_context in [
        ("one share changed", [elgamal.decryption_share(secrets[1], nonces[2]) if i == 2 else d for i, d in enumerate(batch_shares)], nonces, batch_context),
        ("two shares swapped", [batch_shares[1], batch_shares[0], *batch_shares[2:]], nonces, batch_context),
        ("a share left out", batch_shares[:-1], nonces[:-1], batch_context),
        ("another context", batch_shares, nonces, canonical.encode(["shares", bytes(16), 1, list(range(len(nonces)))])),
    ]:
        assert not elgamal.check_decryption_shares(key, changed_nonces, changed_shares, batch_proof, changed_context)
        refused.append({"why": why, "nonces": [n.hex() for n in changed_nonces], "shares": [d.hex() for d in changed_shares],
                        "context": changed_context.hex()})
    cases.append(
        {
            "kind": "batch_shares",
            "secret": elgamal.scalar_to_bytes(x).hex(),
            "key": key.hex(),
            "nonces": [n.hex() for n in nonces],
            "shares": [d.hex() for d in batch_shares],
            "context": batch_context.hex(),
            "nonce_rng_bytes": batch_rng.hex(),
            "seed": seed.hex(),
            "weights": [elgamal.scalar_to_bytes(z).hex() for z in weights],
            "combined_nonce": elgamal._weighted_sum(weights, nonces).hex(),
            "combined_share": elgamal._weighted_sum(weights, batch_shares).hex(),
            "proof": batch_proof.hex(),
            "refused": refused,
        }
    )
    return {
        "description": (
            "The ElGamal deck on edwards25519 (protocol/SPEC.md §C9; protocol 11's deck, §B6.3). Points are "
            "32-byte RFC 8032 encodings, scalars 32 bytes little-endian, all in lowercase hex; big numbers in "
            "constants are decimal strings. A card on the deck is [nonce, masked]. Permutations list, for each "
            "output position j, the input index it takes: output[j] = f(input[permutation[j]]). Kinds: "
            "constants, card_point (with the rejected candidates), point (valid or not, and why), random_scalar "
            "(informative), deal (3 holders' keys and key proofs, 3 re-encryption passes of 5 cards, every "
            "holder's decryption share of every slot with its proof, and the card each slot opens to), "
            "bad_key_proof, bad_pass (first_bad: the first output not accounted for, null when the pass is "
            "good), bad_decryption_share, key_split (holder 0's key split between 2 holders, and slot 0's "
            "share of it made by the split's shares instead), batch_shares (holder 0's shares of the 5 slots "
            "under one batched proof, with its seed, weights, combined nonce M and share Z, and the same "
            "proof refused for what 'refused' changes)."
        ),
        "cases": cases,
    }


def main() -> int:
    files = {
        "crypto-signatures.json": signatures(),
        "crypto-commitments.json": commitments(),
        "crypto-joint.json": joint(),
        "crypto-deck.json": deck(),
        "crypto-sealed.json": sealed(),
        "crypto-session-forms.json": session_forms(),
        "crypto-escrow.json": escrow(),
        "crypto-elgamal.json": elgamal_deck(),
    }
    for name, content in files.items():
        path = VECTOR_DIR / name
        path.write_text(json.dumps(content, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {path.relative_to(VECTOR_DIR.parents[1])} ({len(content['cases'])} cases)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
