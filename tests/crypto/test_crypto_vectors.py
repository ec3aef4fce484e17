"""The library reproduces protocol/vectors/crypto-*.json exactly, case by case.

Any change to a byte layout, a domain prefix or an algorithm breaks one of these tests; change the
vectors (scripts/make_crypto_vectors.py) only together with protocol/SPEC.md (Part C).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from p2pgames import canonical
from p2pgames import crypto
from p2pgames.crypto import elgamal
from p2pgames.session._secrets import sealing_context

VECTOR_DIR = Path(__file__).resolve().parents[2] / "protocol" / "vectors"


def load(name: str) -> dict[str, Any]:
    data = json.loads((VECTOR_DIR / name).read_text(encoding="utf-8"))
    assert data["description"]
    assert data["cases"]
    return data


def cases(name: str, kind: str) -> list[dict[str, Any]]:
    found = [case for case in load(name)["cases"] if case["kind"] == kind]
    assert found, f"{name} has no {kind!r} cases"
    return found


def h(text: str) -> bytes:
    return bytes.fromhex(text)


def k(text: str) -> int:
    assert len(text) == 64
    return crypto.scalar_from_bytes(h(text))


def test_every_case_kind_is_checked() -> None:
    checked = {
        "crypto-signatures.json": {"signature", "bad_signature", "invalid_public_key", "fingerprint_match"},
        "crypto-commitments.json": {"commitment", "bad_opening"},
        "crypto-joint.json": {"combine", "reject"},
        "crypto-deck.json": {
            "constants", "card_point", "encrypt", "random_scalar", "random_permutation", "deal",
            "bad_shuffle", "bad_reshuffle", "bad_lock", "bad_shuffle_lock", "wrong_lock_key", "bad_card_value",
            "not_a_card",
        },
        "crypto-sealed.json": {"seal", "open_fails"},
        "crypto-session-forms.json": {
            "session_commitment", "session_bad_opening", "sealed_key", "sealed_key_open_fails",
        },
        "crypto-escrow.json": {"split", "bad_share", "seed_shares", "lock_tree", "merkle", "bad_path"},
        "crypto-elgamal.json": {
            "constants", "card_point", "point", "random_scalar", "deal", "bad_key_proof", "bad_pass",
            "bad_decryption_share", "key_split", "batch_shares",
        },
    }
    assert {p.name for p in VECTOR_DIR.glob("crypto-*.json")} == set(checked)
    for name, kinds in checked.items():
        assert {case["kind"] for case in load(name)["cases"]} == kinds


# --- signatures -----------------------------------------------------------------------------------


@pytest.mark.parametrize("case", cases("crypto-signatures.json", "signature"), ids=lambda c: c["domain"])
def test_signature_vectors(case: dict[str, Any]) -> None:
    identity = crypto.Identity.from_private_bytes(h(case["private_key"]))
    key = identity.public_key
    assert key.raw.hex() == case["public_key"]
    assert key.fingerprint() == case["fingerprint"]
    payload = canonical.decode(h(case["payload_canonical"]))
    signing_input = b"p2pgames/v1/sign/" + case["domain"].encode() + b"\x00" + canonical.encode(payload)
    assert signing_input.hex() == case["signing_input"]
    assert identity.sign(case["domain"], payload).hex() == case["signature"]
    crypto.PublicKey(h(case["public_key"])).verify(case["domain"], payload, h(case["signature"]))


@pytest.mark.parametrize("case", cases("crypto-signatures.json", "bad_signature"), ids=lambda c: c["why"])
def test_bad_signature_vectors(case: dict[str, Any]) -> None:
    key = crypto.PublicKey(h(case["public_key"]))
    payload = canonical.decode(h(case["payload_canonical"]))
    with pytest.raises(crypto.BadSignature):
        key.verify(case["domain"], payload, h(case["signature"]))


@pytest.mark.parametrize("case", cases("crypto-signatures.json", "invalid_public_key"), ids=lambda c: c["why"])
def test_invalid_public_key_vectors(case: dict[str, Any]) -> None:
    with pytest.raises(crypto.CryptoError):
        crypto.PublicKey(h(case["public_key"]))


def test_fingerprint_match_vectors() -> None:
    for case in cases("crypto-signatures.json", "fingerprint_match"):
        key = crypto.PublicKey(h(case["public_key"]))
        assert crypto.fingerprint_matches(case["text"], key) is case["matches"], case["text"]


# --- commitments ----------------------------------------------------------------------------------


@pytest.mark.parametrize("case", cases("crypto-commitments.json", "commitment"), ids=lambda c: c["domain"])
def test_commitment_vectors(case: dict[str, Any]) -> None:
    value = canonical.decode(h(case["value_canonical"]))
    game_id, salt = h(case["game_id"]), h(case["salt"])
    hashed = b"p2pgames/v1/commit\x00" + canonical.encode(
        [case["domain"], game_id, case["seat"], salt, value]
    )
    assert hashed.hex() == case["hashed_bytes"]
    commitment, returned_salt = crypto.commit(case["domain"], game_id, case["seat"], value, salt)
    assert (commitment.hex(), returned_salt) == (case["commitment"], salt)
    crypto.check_opening(commitment, case["domain"], game_id, case["seat"], value, salt)


@pytest.mark.parametrize("case", cases("crypto-commitments.json", "bad_opening"), ids=lambda c: c["why"])
def test_bad_opening_vectors(case: dict[str, Any]) -> None:
    with pytest.raises(crypto.BadCommitment):
        crypto.check_opening(
            h(case["commitment"]),
            case["domain"],
            h(case["game_id"]),
            case["seat"],
            canonical.decode(h(case["value_canonical"])),
            h(case["salt"]),
        )


# --- joint randomness -----------------------------------------------------------------------------


def test_joint_vectors() -> None:
    for case in cases("crypto-joint.json", "combine"):
        contributions = [h(c) for c in case["contributions"]]
        xor = bytes(32)
        for c in contributions:
            xor = bytes(a ^ b for a, b in zip(xor, c))
        assert xor.hex() == case["xor"]
        assert crypto.combine_contributions(contributions).hex() == case["seed"]
    for case in cases("crypto-joint.json", "reject"):
        with pytest.raises(crypto.CryptoError):
            crypto.combine_contributions([h(c) for c in case["contributions"]])


# --- the deck -------------------------------------------------------------------------------------


def test_deck_constants() -> None:
    (case,) = cases("crypto-deck.json", "constants")
    assert int(case["curve_order"], 16) == crypto.CURVE_ORDER
    assert int(case["field_prime"], 16) == crypto.FIELD_PRIME
    assert crypto.card_point(case["verifier_base_domain"], case["verifier_base_name"]) == crypto.VERIFIER_BASE
    assert crypto.VERIFIER_BASE.hex() == case["verifier_base"]


def test_card_point_vectors() -> None:
    import hashlib

    for case in cases("crypto-deck.json", "card_point"):
        assert crypto.card_point(case["deck_domain"], case["name"]).hex() == case["x"]
        # The rejected candidates are exactly the earlier counters' hashes.
        for counter, rejected in enumerate(case["rejected_candidates"]):
            data = b"p2pgames/v1/card\x00" + canonical.encode([case["deck_domain"], case["name"], counter])
            assert hashlib.sha256(data).hexdigest() == rejected
        assert len(case["rejected_candidates"]) == case["counter"]


def test_encrypt_vectors() -> None:
    for case in cases("crypto-deck.json", "encrypt"):
        assert crypto.encrypt(h(case["x"]), k(case["scalar"])).hex() == case["result"], case["note"]


def test_random_draw_vectors() -> None:
    for case in cases("crypto-deck.json", "random_scalar"):
        assert crypto.random_scalar(h(case["rng_bytes"])) == k(case["scalar"])
    for case in cases("crypto-deck.json", "random_permutation"):
        assert crypto.random_permutation(case["n"], h(case["rng_bytes"])) == case["permutation"]
        # Only the first bytes_used bytes are read: the draw succeeds on them and no fewer.
        used = h(case["rng_bytes"])[: case["bytes_used"]]
        assert crypto.random_permutation(case["n"], used) == case["permutation"]
        if case["bytes_used"]:
            with pytest.raises(crypto.CryptoError, match="ran out"):
                crypto.random_permutation(case["n"], used[:-1])


def _hexes(values: list[bytes]) -> list[str]:
    return [v.hex() for v in values]


def test_deal_vector() -> None:
    (case,) = cases("crypto-deck.json", "deal")
    table = crypto.CardTable(case["deck_domain"], case["names"])
    assert _hexes(list(table.points)) == case["card_values"]

    values = list(table.points)
    for step in case["shuffle"]:
        assert step["inputs"] == _hexes(values)
        outputs = crypto.shuffle_pass(values, k(step["shuffle_key"]), step["permutation"])
        assert _hexes(outputs) == step["outputs"]
        assert crypto.check_shuffle_pass(values, outputs, k(step["shuffle_key"])) is None
        values = outputs

    lock_keys = []
    for step in case["lock"]:
        assert step["inputs"] == _hexes(values)
        keys = [k(x) for x in step["lock_keys"]]
        lock_keys.append(keys)
        outputs, verifiers = crypto.lock_pass(values, k(step["shuffle_key"]), keys)
        assert _hexes(outputs) == step["outputs"]
        assert _hexes(verifiers) == step["verifiers"]
        assert all(crypto.check_lock_key(key, v) for key, v in zip(keys, verifiers))
        assert crypto.check_lock_pass(values, outputs, verifiers, k(step["shuffle_key"]), keys) is None
        values = outputs

    for slot in case["slots"]:
        i, owner = slot["slot"], slot["given_to"]
        assert values[i].hex() == slot["locked"]
        others = [keys[i] for p, keys in enumerate(lock_keys) if p != owner]
        partly = crypto.unlock(values[i], others)
        assert partly.hex() == slot["after_others_unlock"]
        card = crypto.unlock(partly, [lock_keys[owner][i]])
        assert card.hex() == slot["card_value"]
        assert table.name_of(card) == slot["card"]
        # Unlocking with every key at once gives the same card.
        assert crypto.unlock(values[i], [keys[i] for keys in lock_keys]) == card
    assert sorted(slot["card"] for slot in case["slots"]) == sorted(case["names"])

    pile = case["subpile"]
    values = [values[i] for i in pile["slots"]]
    for step in pile["rekey"]:
        assert step["inputs"] == _hexes(values)
        old = [k(x) for x in step["old_lock_keys"]]
        outputs = crypto.reshuffle_pass(values, old, k(step["shuffle_key"]), step["permutation"])
        assert _hexes(outputs) == step["outputs"]
        assert crypto.check_reshuffle_pass(values, outputs, old, k(step["shuffle_key"])) is None
        values = outputs
    for step in pile["shuffle"]:
        assert step["inputs"] == _hexes(values)
        outputs = crypto.shuffle_pass(values, k(step["shuffle_key"]), step["permutation"])
        assert _hexes(outputs) == step["outputs"]
        values = outputs
    new_locks = []
    for step in pile["lock"]:
        assert step["inputs"] == _hexes(values)
        keys = [k(x) for x in step["lock_keys"]]
        new_locks.append(keys)
        outputs, verifiers = crypto.lock_pass(values, k(step["shuffle_key"]), keys)
        assert (_hexes(outputs), _hexes(verifiers)) == (step["outputs"], step["verifiers"])
        values = outputs
    names = [table.name_of(crypto.unlock(v, [keys[j] for keys in new_locks])) for j, v in enumerate(values)]
    assert names == pile["cards"]
    assert sorted(names) == sorted(case["slots"][i]["card"] for i in pile["slots"])


def test_bad_shuffle_vectors() -> None:
    for case in cases("crypto-deck.json", "bad_shuffle"):
        found = crypto.check_shuffle_pass(
            [h(x) for x in case["inputs"]], [h(x) for x in case["outputs"]], k(case["shuffle_key"])
        )
        assert found == case["first_bad"], case["why"]


def test_bad_reshuffle_vectors() -> None:
    for case in cases("crypto-deck.json", "bad_reshuffle"):
        found = crypto.check_reshuffle_pass(
            [h(x) for x in case["inputs"]],
            [h(x) for x in case["outputs"]],
            [k(x) for x in case["old_lock_keys"]],
            k(case["shuffle_key"]),
        )
        assert found == case["first_bad"], case["why"]


def test_bad_lock_vectors() -> None:
    for case in cases("crypto-deck.json", "bad_lock"):
        found = crypto.check_lock_pass(
            [h(x) for x in case["inputs"]],
            [h(x) for x in case["outputs"]],
            [h(x) for x in case["verifiers"]],
            k(case["shuffle_key"]),
            [k(x) for x in case["lock_keys"]],
        )
        assert found == case["first_bad"], case["why"]


def test_bad_shuffle_lock_vectors() -> None:
    for case in cases("crypto-deck.json", "bad_shuffle_lock"):
        found = crypto.check_shuffle_lock_pass(
            [h(x) for x in case["inputs"]],
            [h(x) for x in case["outputs"]],
            [h(x) for x in case["verifiers"]],
            k(case["strip_key"]),
            [k(x) for x in case["lock_keys"]],
        )
        assert found == case["first_bad"], case["why"]
        if case["first_bad"] is None:  # the pass itself, from its permutation
            outputs, verifiers = crypto.shuffle_lock_pass(
                [h(x) for x in case["inputs"]], k(case["strip_key"]), case["permutation"], [k(x) for x in case["lock_keys"]]
            )
            assert ([x.hex() for x in outputs], [v.hex() for v in verifiers]) == (case["outputs"], case["verifiers"])


def test_wrong_lock_key_vectors() -> None:
    for case in cases("crypto-deck.json", "wrong_lock_key"):
        assert crypto.check_lock_key(k(case["key"]), h(case["verifier"])) is False


def test_bad_card_value_vectors() -> None:
    for case in cases("crypto-deck.json", "bad_card_value"):
        with pytest.raises(crypto.BadCardValue):
            crypto.encrypt(h(case["x"]), 2)
        with pytest.raises(crypto.BadCardValue):
            crypto.unlock(h(case["x"]), [])


def test_not_a_card_vectors() -> None:
    for case in cases("crypto-deck.json", "not_a_card"):
        table = crypto.CardTable(case["deck_domain"], case["names"])
        with pytest.raises(crypto.BadCardValue, match="not a card of this deal"):
            table.name_of(h(case["x"]))


# --- sealed messages ------------------------------------------------------------------------------


@pytest.mark.parametrize("case", cases("crypto-sealed.json", "seal"), ids=lambda c: str(len(c["plaintext"]) // 2))
def test_seal_vectors(case: dict[str, Any]) -> None:
    recipient = crypto.SealKey.from_private_bytes(h(case["recipient_private"]))
    assert recipient.public_bytes().hex() == case["recipient_public"]
    ephemeral = crypto.SealKey.from_private_bytes(h(case["ephemeral_private"]))
    assert ephemeral.public_bytes().hex() == case["ephemeral_public"]
    assert case["hkdf_info"] == (b"p2pgames/v1/seal\x00" + ephemeral.public_bytes() + recipient.public_bytes()).hex()
    sealed = crypto.seal(
        h(case["recipient_public"]), h(case["plaintext"]), h(case["associated_data"]), h(case["ephemeral_private"])
    )
    assert sealed.hex() == case["sealed"]
    assert sealed[:32].hex() == case["ephemeral_public"]
    assert crypto.open_sealed(recipient, sealed, h(case["associated_data"])).hex() == case["plaintext"]
    assert crypto.sealed_commitment(h(case["plaintext"])).hex() == case["commitment"]


@pytest.mark.parametrize("case", cases("crypto-sealed.json", "open_fails"), ids=lambda c: c["why"])
def test_open_fails_vectors(case: dict[str, Any]) -> None:
    key = crypto.SealKey.from_private_bytes(h(case["recipient_private"]))
    with pytest.raises(crypto.SealError):
        crypto.open_sealed(key, h(case["sealed"]), h(case["associated_data"]))


# --- the forms sessions use -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "case", cases("crypto-session-forms.json", "session_commitment"), ids=lambda c: f"{c['domain']}-{c['phase_id']}"
)
def test_session_commitment_vectors(case: dict[str, Any]) -> None:
    value = canonical.decode(h(case["value_canonical"]))
    game_id, salt, seat, phase_id = h(case["game_id"]), h(case["salt"]), case["seat"], case["phase_id"]
    assert canonical.encode([phase_id, value]).hex() == case["committed_canonical"]
    hashed = b"p2pgames/v1/commit\x00" + canonical.encode([case["domain"], game_id, seat, salt, [phase_id, value]])
    assert hashed.hex() == case["hashed_bytes"]
    assert hashlib.sha256(hashed).hexdigest() == case["commitment"]
    # What a seat sends (SeatSecrets: commit over [phase_id, value]) and what the replica checks.
    commitment, _ = crypto.commit(case["domain"], game_id, seat, [phase_id, value], salt)
    assert commitment.hex() == case["commitment"]
    crypto.check_opening(commitment, case["domain"], game_id, seat, [phase_id, value], salt)
    assert canonical.encode({"t": "commit", "commitment": commitment}).hex() == case["commit_body_canonical"]
    assert canonical.encode({"t": "open", "salt": salt, "value": value}).hex() == case["open_body_canonical"]


@pytest.mark.parametrize("case", cases("crypto-session-forms.json", "session_bad_opening"), ids=lambda c: c["why"])
def test_session_bad_opening_vectors(case: dict[str, Any]) -> None:
    with pytest.raises(crypto.BadCommitment):
        crypto.check_opening(
            h(case["commitment"]), case["domain"], h(case["game_id"]), case["seat"],
            canonical.decode(h(case["committed_canonical"])), h(case["salt"]),
        )


@pytest.mark.parametrize("case", cases("crypto-session-forms.json", "sealed_key"), ids=lambda c: str(c["slot"]))
def test_sealed_key_vectors(case: dict[str, Any]) -> None:
    game_id, key = h(case["game_id"]), h(case["key"])
    context = sealing_context(game_id, case["slot"], case["sender"], case["to"])
    assert context.hex() == case["context"]
    assert canonical.encode(["sealed-key", game_id, case["slot"], case["sender"], case["to"]]) == context
    recipient = crypto.SealKey.from_private_bytes(h(case["recipient_private"]))
    assert recipient.public_bytes().hex() == case["recipient_public"]
    ephemeral = crypto.SealKey.from_private_bytes(h(case["ephemeral_private"]))
    assert ephemeral.public_bytes().hex() == case["ephemeral_public"]
    shared = X25519PrivateKey.from_private_bytes(h(case["ephemeral_private"])).exchange(
        X25519PublicKey.from_public_bytes(recipient.public_bytes())
    )
    assert shared.hex() == case["shared_secret"]
    info = b"p2pgames/v1/seal\x00" + ephemeral.public_bytes() + recipient.public_bytes()
    assert info.hex() == case["hkdf_info"]
    assert HKDF(hashes.SHA256(), 32, b"", info).derive(shared).hex() == case["message_key"]
    box = crypto.seal(recipient.public_bytes(), key, context, h(case["ephemeral_private"]))
    assert box.hex() == case["box"]
    assert crypto.open_sealed(recipient, box, context) == key
    commitment = crypto.sealed_commitment(key)
    assert commitment.hex() == case["commitment"]
    assert canonical.encode([case["slot"], case["to"], box, commitment]).hex() == case["sealed_item_canonical"]
    crypto.scalar_from_bytes(key)  # a lock key: a scalar in [1, n-1]


@pytest.mark.parametrize("case", cases("crypto-session-forms.json", "sealed_key_open_fails"), ids=lambda c: c["why"])
def test_sealed_key_open_fails_vectors(case: dict[str, Any]) -> None:
    context = sealing_context(h(case["game_id"]), case["slot"], case["sender"], case["to"])
    assert context.hex() == case["context"]
    with pytest.raises(crypto.SealError):
        crypto.open_sealed(crypto.SealKey.from_private_bytes(h(case["recipient_private"])), h(case["box"]), context)


# --- key escrow -----------------------------------------------------------------------------------


@pytest.mark.parametrize("case", cases("crypto-escrow.json", "split"), ids=lambda c: str(c["holders"]))
def test_escrow_split_vectors(case: dict[str, Any]) -> None:
    secret = k(case["secret"])
    shares = crypto.split_secret(secret, case["holders"])
    assert [crypto.scalar_to_bytes(share).hex() for share in shares] == case["shares"]
    assert [c.hex() for c in crypto.escrow_commitments(secret, case["holders"])] == case["commitments"]
    assert all(crypto.check_share(k(share), h(c)) for share, c in zip(case["shares"], case["commitments"]))
    assert crypto.rebuild_secret([k(share) for share in reversed(case["shares"])]) == secret


@pytest.mark.parametrize("case", cases("crypto-escrow.json", "bad_share"), ids=lambda c: c["why"])
def test_escrow_bad_share_vectors(case: dict[str, Any]) -> None:
    assert crypto.check_share(k(case["share"]), h(case["commitment"])) is False


@pytest.mark.parametrize("case", cases("crypto-escrow.json", "seed_shares"), ids=lambda c: str(c["count"]))
def test_escrow_seed_shares_vectors(case: dict[str, Any]) -> None:
    shares = crypto.shares_from_seed(h(case["seed"]), case["count"])
    assert [crypto.scalar_to_bytes(share).hex() for share in shares] == case["shares"]


@pytest.mark.parametrize("case", cases("crypto-escrow.json", "lock_tree"), ids=lambda c: str(c["size"]))
def test_escrow_lock_tree_vectors(case: dict[str, Any]) -> None:
    game_id, size = h(case["game_id"]), case["size"]
    shares = crypto.shares_from_seed(h(case["seed"]), size)
    assert [crypto.scalar_to_bytes(share).hex() for share in shares] == case["shares"]
    leaves = [crypto.share_digest(share, canonical.encode(["lock-share", game_id, case["dealer"], case["deal"], i, case["holder"]]))
              for i, share in enumerate(shares)]
    assert [leaf.hex() for leaf in leaves] == case["leaves"]
    check_tree(leaves, case)


@pytest.mark.parametrize("case", cases("crypto-escrow.json", "merkle"), ids=lambda c: str(len(c["leaves"])))
def test_merkle_vectors(case: dict[str, Any]) -> None:
    check_tree([h(leaf) for leaf in case["leaves"]], case)


def check_tree(leaves: list[bytes], case: dict[str, Any]) -> None:
    root = crypto.merkle_root(leaves)
    assert root.hex() == case["root"]
    for index, path in enumerate(case["paths"]):
        assert [item.hex() for item in crypto.merkle_path(leaves, index)] == path
        assert len(path) == crypto.merkle_path_length(index, len(leaves))
        assert crypto.check_merkle_path(leaves[index], index, len(leaves), [h(item) for item in path], root)


@pytest.mark.parametrize("case", cases("crypto-escrow.json", "bad_path"), ids=lambda c: c["why"])
def test_merkle_bad_path_vectors(case: dict[str, Any]) -> None:
    path = [h(item) for item in case["path"]]
    assert crypto.check_merkle_path(h(case["leaf"]), case["index"], case["count"], path, h(case["root"])) is False


# --- the ElGamal deck (§C9) ------------------------------------------------------------------------


def test_elgamal_constants_card_points_and_points() -> None:
    (constants,) = cases("crypto-elgamal.json", "constants")
    assert int(constants["group_order"]) == elgamal.GROUP_ORDER
    assert int(constants["field_prime"]) == elgamal.FIELD_PRIME and int(constants["curve_d"]) == elgamal.CURVE_D
    assert (h(constants["base_point"]), h(constants["identity"])) == (elgamal.BASE_POINT, elgamal.IDENTITY)
    for case in cases("crypto-elgamal.json", "card_point"):
        counter, point, rejected = elgamal._card_point_search(case["deck_domain"], case["name"])
        assert (counter, point.hex()) == (case["counter"], case["point"])
        assert [candidate.hex() for candidate in rejected] == case["rejected_candidates"]
        assert elgamal.card_point(case["deck_domain"], case["name"]) == point
    for case in cases("crypto-elgamal.json", "point"):
        encoding = h(case["encoding"])
        assert elgamal.is_valid_point(encoding) == case["valid"], case["why"]
        if not case["valid"]:
            with pytest.raises(crypto.BadCardValue):
                elgamal.check_point(encoding)


def test_elgamal_random_scalars() -> None:
    for case in cases("crypto-elgamal.json", "random_scalar"):
        assert elgamal.scalar_to_bytes(elgamal.random_scalar(h(case["rng_bytes"]))).hex() == case["scalar"]


def test_elgamal_deal_vector() -> None:
    (deal,) = cases("crypto-elgamal.json", "deal")
    points = [elgamal.card_point(deal["deck_domain"], name) for name in deal["names"]]
    assert [point.hex() for point in points] == deal["points"]
    keys = []
    for holder in deal["holders"]:
        secret, context = elgamal.scalar_from_bytes(h(holder["secret"])), h(holder["context"])
        keys.append(elgamal.public_key(secret))
        assert keys[-1].hex() == holder["key"]
        assert elgamal.prove_key(secret, context, h(holder["nonce_rng_bytes"])).hex() == holder["proof"]
        assert elgamal.check_key_proof(keys[-1], h(holder["proof"]), context)
    joint_key = elgamal.combine_public_keys(keys)
    assert joint_key.hex() == deal["joint_key"]
    deck = elgamal.open_deck(points)
    for step in deal["passes"]:
        scalars = [elgamal.scalar_from_bytes(h(r)) for r in step["scalars"]]
        made = elgamal.reencryption_pass(deck, joint_key, step["permutation"], scalars)
        received = elgamal.read_deck([[h(c1), h(c2)] for c1, c2 in step["outputs"]])
        assert made == received
        assert elgamal.check_reencryption_pass(deck, received, joint_key, step["permutation"], scalars) is None
        deck = received
    for card, slot in zip(deck, deal["slots"]):
        for holder, key, share in zip(deal["holders"], keys, slot["shares"]):
            secret, context = elgamal.scalar_from_bytes(h(holder["secret"])), h(share["context"])
            assert elgamal.decryption_share(secret, card.nonce).hex() == share["share"]
            made, proof = elgamal.proven_decryption_share(secret, card.nonce, context, h(share["nonce_rng_bytes"]))
            assert made.hex() == share["share"]
            assert proof.hex() == share["proof"]
            assert elgamal.check_decryption_share(key, card.nonce, h(share["share"]), proof, context)
        point = elgamal.decrypt(card, [h(share["share"]) for share in slot["shares"]])
        assert point.hex() == slot["point"] and deal["names"][points.index(point)] == slot["card"]


def test_elgamal_refused_proofs_and_passes() -> None:
    for case in cases("crypto-elgamal.json", "bad_key_proof"):
        assert not elgamal.check_key_proof(h(case["key"]), h(case["proof"]), h(case["context"])), case["why"]
    for case in cases("crypto-elgamal.json", "bad_decryption_share"):
        assert not elgamal.check_decryption_share(
            h(case["key"]), h(case["nonce"]), h(case["share"]), h(case["proof"]), h(case["context"])
        ), case["why"]
    for case in cases("crypto-elgamal.json", "bad_pass"):
        inputs = [elgamal.Ciphertext(h(c1), h(c2)) for c1, c2 in case["inputs"]]
        outputs = elgamal.read_deck([[h(c1), h(c2)] for c1, c2 in case["outputs"]])
        scalars = [elgamal.scalar_from_bytes(h(r)) for r in case["scalars"]]
        found = elgamal.check_reencryption_pass(inputs, outputs, h(case["joint_key"]), case["permutation"], scalars)
        assert found == case["first_bad"], case["why"]


def test_elgamal_batch_shares_vector() -> None:
    """§C9.3's batched share proof, made again byte for byte, and what it refuses."""
    (case,) = cases("crypto-elgamal.json", "batch_shares")
    secret, key, context = elgamal.scalar_from_bytes(h(case["secret"])), h(case["key"]), h(case["context"])
    nonces = [h(n) for n in case["nonces"]]
    shares, proof = elgamal.proven_decryption_shares(secret, nonces, context, h(case["nonce_rng_bytes"]))
    assert [d.hex() for d in shares] == case["shares"] and proof.hex() == case["proof"]
    seed, weights = elgamal._share_weights(key, nonces, shares, context)
    assert seed.hex() == case["seed"] and [elgamal.scalar_to_bytes(z).hex() for z in weights] == case["weights"]
    assert elgamal._weighted_sum(weights, nonces).hex() == case["combined_nonce"]
    assert elgamal._weighted_sum(weights, shares).hex() == case["combined_share"]
    assert elgamal.check_decryption_shares(key, nonces, shares, proof, context)
    assert len(case["refused"]) == 4
    for refused in case["refused"]:
        assert not elgamal.check_decryption_shares(
            key, [h(n) for n in refused["nonces"]], [h(d) for d in refused["shares"]], proof, h(refused["context"])
        ), refused["why"]


def test_elgamal_key_split_vector() -> None:
    (case,) = cases("crypto-elgamal.json", "key_split")
    (deal,) = cases("crypto-elgamal.json", "deal")
    shares = elgamal.split_key(elgamal.scalar_from_bytes(h(case["secret"])), case["holders"])
    assert [elgamal.scalar_to_bytes(share).hex() for share in shares] == case["shares"]
    commitments = elgamal.key_share_commitments(shares)
    assert [c.hex() for c in commitments] == case["commitments"]
    assert elgamal.check_key_split(h(case["key"]), commitments)
    card = elgamal.Ciphertext(*(h(p) for p in deal["passes"][-1]["outputs"][case["slot"]]))
    for share, commitment, opening in zip(shares, commitments, case["opening"]):
        context = h(opening["context"])
        _made, proof = elgamal.proven_decryption_share(share, card.nonce, context, h(opening["nonce_rng_bytes"]))
        assert proof.hex() == opening["proof"]
        assert elgamal.check_decryption_share(commitment, card.nonce, h(opening["share"]), proof, context)
    others = [h(share["share"]) for share in deal["slots"][case["slot"]]["shares"][1:]]
    assert elgamal.decrypt(card, [h(o["share"]) for o in case["opening"]] + others).hex() == case["point"]
