"""The independent ElGamal deck on edwards25519 against crypto-elgamal.json (SPEC §C9)."""

import json
from pathlib import Path

from . import edwards

VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors"
CASES = json.loads((VECTORS / "crypto-elgamal.json").read_text())["cases"]


def of_kind(kind):
    found = [case for case in CASES if case["kind"] == kind]
    assert found, kind
    return found


def h(text):
    return bytes.fromhex(text)


def test_every_kind_is_checked_here():
    assert {case["kind"] for case in CASES} == {
        "constants", "card_point", "point", "random_scalar", "deal", "bad_key_proof", "bad_pass",
        "bad_decryption_share", "key_split", "batch_shares",
    }


def test_constants_card_points_and_points():
    (constants,) = of_kind("constants")
    assert int(constants["group_order"]) == edwards.L and int(constants["field_prime"]) == edwards.P
    assert int(constants["curve_d"]) == edwards.D
    assert edwards.encode(edwards.BASE).hex() == constants["base_point"]
    assert edwards.encode(edwards.NEUTRAL).hex() == constants["identity"]
    for case in of_kind("card_point"):
        counter, point, rejected = edwards.card_point(case["deck_domain"], case["name"])
        assert (counter, point.hex()) == (case["counter"], case["point"])
        assert [candidate.hex() for candidate in rejected] == case["rejected_candidates"]
        assert edwards.valid(point)
    for case in of_kind("point"):
        assert edwards.valid(h(case["encoding"])) == case["valid"], case["why"]


def test_random_scalars():
    for case in of_kind("random_scalar"):
        drawn = edwards.draw_scalar(edwards.injected(h(case["rng_bytes"])))
        assert drawn.to_bytes(32, "little").hex() == case["scalar"]


def test_a_whole_deal_its_proofs_and_every_slot_opened():
    (deal,) = of_kind("deal")
    points = [edwards.card_point(deal["deck_domain"], name)[1] for name in deal["names"]]
    assert [p.hex() for p in points] == deal["points"]
    keys = []
    for holder in deal["holders"]:
        secret, context = edwards.scalar(h(holder["secret"])), h(holder["context"])
        key = edwards.encode(edwards.multiply(secret, edwards.BASE))
        assert key.hex() == holder["key"]
        w = edwards.draw_scalar(edwards.injected(h(holder["nonce_rng_bytes"])))
        assert edwards.key_proof(secret, context, w).hex() == holder["proof"]
        assert edwards.key_proof_holds(key, h(holder["proof"]), context)
        keys.append(key)
    joint_key = edwards.sum_of(keys)
    assert joint_key.hex() == deal["joint_key"]
    deck = [[edwards.encode(edwards.NEUTRAL), point] for point in points]
    for step in deal["passes"]:
        scalars = [edwards.scalar(h(r)) for r in step["scalars"]]
        deck = edwards.reencryption_pass(deck, joint_key, step["permutation"], scalars)
        assert [[c1.hex(), c2.hex()] for c1, c2 in deck] == step["outputs"]
        assert all(edwards.valid(p) for card in deck for p in card)
    opened = []
    for card, slot, in zip(deck, deal["slots"]):
        shares = []
        for index, (holder, share) in enumerate(zip(deal["holders"], slot["shares"])):
            secret, context = edwards.scalar(h(holder["secret"])), h(share["context"])
            assert edwards.encode(edwards.multiply(secret, edwards.point(card[0]))).hex() == share["share"]
            w = edwards.draw_scalar(edwards.injected(h(share["nonce_rng_bytes"])))
            assert edwards.share_proof(secret, card[0], context, w).hex() == share["proof"]
            assert edwards.share_proof_holds(keys[index], card[0], h(share["share"]), h(share["proof"]), context)
            shares.append(h(share["share"]))
        point = edwards.opened(card, shares)
        assert point.hex() == slot["point"] and deal["names"][points.index(point)] == slot["card"]
        opened.append(slot["card"])
    assert sorted(opened) == sorted(deal["names"])


def test_refused_proofs_and_the_audit_of_a_pass():
    for case in of_kind("bad_key_proof"):
        assert not edwards.key_proof_holds(h(case["key"]), h(case["proof"]), h(case["context"])), case["why"]
    for case in of_kind("bad_decryption_share"):
        assert not edwards.share_proof_holds(
            h(case["key"]), h(case["nonce"]), h(case["share"]), h(case["proof"]), h(case["context"])
        ), case["why"]
    for case in of_kind("bad_pass"):
        inputs = [[h(p) for p in card] for card in case["inputs"]]
        scalars = [edwards.scalar(h(r)) for r in case["scalars"]]
        expected = edwards.reencryption_pass(inputs, h(case["joint_key"]), case["permutation"], scalars)
        got = [[h(p) for p in card] for card in case["outputs"]]
        first_bad = next((t for t, (want, out) in enumerate(zip(expected, got)) if want != out), None)
        assert first_bad == case["first_bad"], case["why"]


def test_a_key_split_opens_a_slot_as_the_key_would():
    (case,) = of_kind("key_split")
    (deal,) = of_kind("deal")
    secret = edwards.scalar(h(case["secret"]))
    shares = edwards.key_split(secret, case["holders"])
    assert [s.to_bytes(32, "little").hex() for s in shares] == case["shares"]
    commitments = [edwards.encode(edwards.multiply(s, edwards.BASE)) for s in shares]
    assert [c.hex() for c in commitments] == case["commitments"]
    assert edwards.sum_of(commitments).hex() == case["key"]
    card = [h(p) for p in deal["passes"][-1]["outputs"][case["slot"]]]
    made = []
    for share, commitment, opening in zip(shares, commitments, case["opening"]):
        share_and_proof = h(opening["share"]), h(opening["proof"])
        assert edwards.share_proof_holds(commitment, card[0], *share_and_proof, h(opening["context"]))
        made.append(h(opening["share"]))
    others = [h(share["share"]) for share in deal["slots"][case["slot"]]["shares"][1:]]
    assert edwards.opened(card, made + others).hex() == case["point"]


def test_one_proof_holds_for_a_holders_shares_and_is_refused_for_what_changes():
    """§C9.3's batched share proof: its seed, weights and combined points as the vector gives
    them, the proof holding, and refused for each change the vector lists."""
    (case,) = of_kind("batch_shares")
    key, context, proof = h(case["key"]), h(case["context"]), h(case["proof"])
    nonces, shares = [h(n) for n in case["nonces"]], [h(d) for d in case["shares"]]
    secret = edwards.scalar(h(case["secret"]))
    assert shares == [edwards.encode(edwards.multiply(secret, edwards.decode(n))) for n in nonces]
    seed, weights = edwards.shares_weights(key, nonces, shares, context)
    assert seed.hex() == case["seed"] and [w.to_bytes(32, "little").hex() for w in weights] == case["weights"]
    assert edwards.shares_proof_holds(key, nonces, shares, proof, context)
    w = edwards.draw_scalar(edwards.injected(h(case["nonce_rng_bytes"])))
    assert edwards.shares_proof(secret, nonces, context, w) == (shares, proof)  # made here as the vector's
    assert len(case["refused"]) == 4
    for refused in case["refused"]:
        assert not edwards.shares_proof_holds(
            key, [h(n) for n in refused["nonces"]], [h(d) for d in refused["shares"]], proof, h(refused["context"])
        ), refused["why"]
