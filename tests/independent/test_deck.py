"""The independent deck cryptography against crypto-*.json and engine-stream.json (SPEC §C3–§C6, §C8, §D1)."""

import json
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric import ec

from . import canon, deck

VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors"


def cases(name):
    return json.loads((VECTORS / name).read_text())["cases"]


def hexes(values):
    return [bytes.fromhex(v) for v in values]


def keys(values):
    return [int(v, 16) for v in values]


DECK = cases("crypto-deck.json")


def of_kind(kind):
    return [c for c in DECK if c["kind"] == kind]


def test_constants_and_card_points():
    (constants,) = of_kind("constants")
    assert int(constants["curve_order"], 16) == deck.N and int(constants["field_prime"], 16) == deck.P
    assert deck.VERIFIER_BASE.hex() == constants["verifier_base"]
    for case in of_kind("card_point"):
        value, counter, rejected = deck.card_point(case["deck_domain"], case["name"])
        assert value.hex() == case["x"] and counter == int(case["counter"])
        assert [r.hex() for r in rejected] == case["rejected_candidates"]


def test_encrypt_and_the_ecdh_form_the_spec_gives():
    for case in of_kind("encrypt"):
        x, k = bytes.fromhex(case["x"]), int(case["scalar"], 16)
        assert deck.encrypt(x, k).hex() == case["result"], case["note"]
        # §C5.3: "private key k, peer public key 0x02 ‖ x, shared secret = E_k(x)".
        peer = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b"\x02" + x)
        shared = ec.derive_private_key(k, ec.SECP256R1()).exchange(ec.ECDH(), peer)
        assert shared.hex() == case["result"]


def test_refused_values_and_wrong_lock_keys():
    for case in of_kind("bad_card_value"):
        assert not deck.is_card_value(bytes.fromhex(case["x"])), case["why"]
    for case in of_kind("wrong_lock_key"):
        assert deck.encrypt(deck.VERIFIER_BASE, int(case["key"], 16)).hex() != case["verifier"]
    for case in of_kind("not_a_card"):
        cards = {deck.card_point(case["deck_domain"], name)[0] for name in case["names"]}
        assert bytes.fromhex(case["x"]) not in cards


def test_a_whole_deal_pass_by_pass():
    (deal,) = of_kind("deal")
    values = [deck.card_point(deal["deck_domain"], name)[0] for name in deal["names"]]
    assert [v.hex() for v in values] == deal["card_values"]
    for step in deal["shuffle"]:
        inputs, k = hexes(step["inputs"]), int(step["shuffle_key"], 16)
        assert inputs == values
        values = [deck.encrypt(inputs[j], k) for j in step["permutation"]]
        assert [v.hex() for v in values] == step["outputs"]
    for step in deal["lock"]:
        inputs, s, locks = hexes(step["inputs"]), int(step["shuffle_key"], 16), keys(step["lock_keys"])
        assert inputs == values
        values = [deck.encrypt(v, l * deck.inverse(s) % deck.N) for v, l in zip(inputs, locks)]
        assert [v.hex() for v in values] == step["outputs"]
        assert [deck.encrypt(deck.VERIFIER_BASE, l).hex() for l in locks] == step["verifiers"]
        assert deck.first_bad_lock(inputs, values, hexes(step["verifiers"]), s, locks) is None
    names = dict(zip([deck.card_point(deal["deck_domain"], n)[0].hex() for n in deal["names"]], deal["names"]))
    for slot in deal["slots"]:
        i, owner = slot["slot"], slot["given_to"]
        assert values[i].hex() == slot["locked"]
        others = [int(step["lock_keys"][i], 16) for step in deal["lock"] if step["peer"] != owner]
        mine = int(deal["lock"][owner]["lock_keys"][i], 16)
        after = deck.encrypt(values[i], deck.inverse(deck.product(*others)))
        assert after.hex() == slot["after_others_unlock"]
        card = deck.encrypt(after, deck.inverse(mine))
        assert card.hex() == slot["card_value"] and names[card.hex()] == slot["card"]


@pytest.mark.parametrize("kind", ["bad_shuffle", "bad_lock", "bad_reshuffle", "bad_shuffle_lock"])
def test_audit_of_single_passes(kind):
    for case in of_kind(kind):
        inputs, outputs = hexes(case["inputs"]), hexes(case["outputs"])
        s = int(case["shuffle_key" if kind != "bad_shuffle_lock" else "strip_key"], 16)
        if kind == "bad_shuffle_lock":
            found = deck.first_bad_shuffle_lock(inputs, outputs, hexes(case["verifiers"]), s, keys(case["lock_keys"]))
        elif kind == "bad_shuffle":
            found = deck.first_bad_multiset(inputs, outputs, [s] * len(inputs))
        elif kind == "bad_reshuffle":
            found = deck.first_bad_multiset(inputs, outputs, [s * deck.inverse(o) % deck.N for o in keys(case["old_lock_keys"])])
        else:
            found = deck.first_bad_lock(inputs, outputs, hexes(case["verifiers"]), s, keys(case["lock_keys"]))
        assert found == case["first_bad"], case["why"]


def test_informative_draws():
    for case in of_kind("random_scalar"):
        k, _used = deck.scalar_from_stream(bytes.fromhex(case["rng_bytes"]))
        assert k == int(case["scalar"], 16), case["note"]
    for case in of_kind("random_permutation"):
        rng = bytes.fromhex(case["rng_bytes"])
        perm, used = deck.permutation_from_stream(rng, case["n"])
        assert perm == case["permutation"]
        assert used == case["bytes_used"]  # §C5.7: the rest of rng_bytes is slack for redraws


def test_commitments():
    for case in cases("crypto-commitments.json"):
        value = canon.decode(bytes.fromhex(case["value_canonical"]))
        args = (case["domain"], bytes.fromhex(case["game_id"]), int(case["seat"]), value, bytes.fromhex(case["salt"]))
        if case["kind"] == "commitment":
            assert deck.commit(*args).hex() == case["commitment"]
            assert deck.check_opening(bytes.fromhex(case["commitment"]), *args)
        else:
            assert not deck.check_opening(bytes.fromhex(case["commitment"]), *args), case["why"]


def test_joint_seeds():
    for case in cases("crypto-joint.json"):
        contributions = hexes(case["contributions"])
        if case["kind"] == "combine":
            assert deck.combine(contributions).hex() == case["seed"]
        else:
            with pytest.raises(deck.DeckError):
                deck.combine(contributions)


def test_sealed_messages():
    for case in cases("crypto-sealed.json"):
        private = bytes.fromhex(case["recipient_private"])
        ad = bytes.fromhex(case["associated_data"])
        if case["kind"] == "seal":
            sealed = deck.seal(bytes.fromhex(case["recipient_public"]), bytes.fromhex(case["plaintext"]), ad,
                               ephemeral_private=bytes.fromhex(case["ephemeral_private"]))
            assert sealed.hex() == case["sealed"]
            assert deck.open_sealed(private, sealed, ad).hex() == case["plaintext"]
            assert deck.sealed_commitment(bytes.fromhex(case["plaintext"])).hex() == case["commitment"]
        else:
            with pytest.raises(deck.DeckError):
                deck.open_sealed(private, bytes.fromhex(case["sealed"]), ad)


def test_engine_stream():
    data = json.loads((VECTORS / "engine-stream.json").read_text())
    for case in data["below"]:
        stream = deck.Stream(bytes.fromhex(case["seed"]))
        assert [stream.below(case["n"]) for _ in case["draws"]] == case["draws"]
        assert stream.counter == case["counter_after"]
    for case in data["shuffle"]:
        assert deck.Stream(bytes.fromhex(case["seed"])).shuffle(case["input"]) == case["output"]


def test_the_forms_sessions_send():
    """crypto-session-forms.json: commitments over [phase_id, value] (§B5) and sealed lock keys (§B6.2)."""
    for case in cases("crypto-session-forms.json"):
        game_id = bytes.fromhex(case["game_id"])
        if case["kind"] in ("session_commitment", "session_bad_opening"):
            committed = canon.decode(bytes.fromhex(case["committed_canonical"]))
            args = (case["domain"], game_id, int(case["seat"]), committed, bytes.fromhex(case["salt"]))
            if case["kind"] == "session_commitment":
                assert committed[0] == int(case["phase_id"])
                assert committed[1] == canon.decode(bytes.fromhex(case["value_canonical"]))
                assert deck.H(bytes.fromhex(case["hashed_bytes"])).hex() == case["commitment"]
                assert deck.commit(*args).hex() == case["commitment"]
                commit_body = {"t": "commit", "commitment": bytes.fromhex(case["commitment"])}
                open_body = {"t": "open", "salt": bytes.fromhex(case["salt"]), "value": committed[1]}
                assert canon.encode(commit_body).hex() == case["commit_body_canonical"]
                assert canon.encode(open_body).hex() == case["open_body_canonical"]
            else:
                assert not deck.check_opening(bytes.fromhex(case["commitment"]), *args), case["why"]
            continue
        slot, sender, to = int(case["slot"]), int(case["sender"]), int(case["to"])
        context = canon.encode(["sealed-key", game_id, slot, sender, to])
        private = bytes.fromhex(case["recipient_private"])
        if case["kind"] == "sealed_key":
            assert context.hex() == case["context"]
            key = bytes.fromhex(case["key"])
            box = deck.seal(bytes.fromhex(case["recipient_public"]), key, context,
                            ephemeral_private=bytes.fromhex(case["ephemeral_private"]))
            assert box.hex() == case["box"]
            assert deck.sealed_commitment(key).hex() == case["commitment"]
            item = [slot, to, box, deck.sealed_commitment(key)]
            assert canon.encode(item).hex() == case["sealed_item_canonical"]
            assert deck.open_sealed(private, box, context) == key
        else:
            with pytest.raises(deck.DeckError):
                deck.open_sealed(private, bytes.fromhex(case["box"]), context)


def test_key_escrow():
    """crypto-escrow.json (§C8): the split of a secret, its commitments, its rebuild; bad shares
    (the lock escrow's seeds and trees: below)."""
    for case in cases("crypto-escrow.json"):
        if case["kind"] not in ("split", "bad_share"):
            continue
        if case["kind"] == "split":
            secret, m = int(case["secret"], 16), case["holders"]
            shares = deck.escrow_split(secret, m)
            assert shares == keys(case["shares"])
            assert deck.escrow_commitments(secret, m) == hexes(case["commitments"])
            assert all(deck.check_share(s, c) for s, c in zip(shares, hexes(case["commitments"])))
            assert sum(shares) % deck.N == secret
        else:
            assert not deck.check_share(int(case["share"], 16), bytes.fromhex(case["commitment"])), case["why"]
    # The generator's commitment is G itself, compressed (y of G is odd).
    assert deck.share_commitment(1).hex() == "036b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296"


def test_lock_escrow_seeds_and_trees():
    """crypto-escrow.json (§C8, §B16): a seed's shares; a holder's tree of lock-key shares, its
    leaves, root and every path; Merkle roots and paths; refused paths."""
    seen = set()
    for case in cases("crypto-escrow.json"):
        kind = case["kind"]
        seen.add(kind)
        if kind == "seed_shares":
            assert deck.seed_shares(bytes.fromhex(case["seed"]), case["count"]) == keys(case["shares"])
        elif kind in ("lock_tree", "merkle"):
            if kind == "lock_tree":
                shares = deck.seed_shares(bytes.fromhex(case["seed"]), case["size"])
                assert shares == keys(case["shares"])
                leaves = deck.lock_leaves(bytes.fromhex(case["game_id"]), case["dealer"], case["deal"],
                                          case["holder"], shares)
                assert leaves == hexes(case["leaves"])
            else:
                leaves = hexes(case["leaves"])
            root = deck.mth(leaves)
            assert root.hex() == case["root"]
            for i, path in enumerate(case["paths"]):
                assert deck.tree_path(i, leaves) == hexes(path) and len(path) == deck.path_length(i, len(leaves))
                assert deck.check_path(leaves[i], i, len(leaves), hexes(path), root)
        elif kind == "bad_path":
            assert not deck.check_path(bytes.fromhex(case["leaf"]), case["index"], case["count"],
                                       hexes(case["path"]), bytes.fromhex(case["root"])), case["why"]
    assert seen >= {"seed_shares", "lock_tree", "merkle", "bad_path"}
