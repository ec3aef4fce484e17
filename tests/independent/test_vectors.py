"""The independent implementation against the vector files in protocol/vectors (SPEC §A1, §A3, §C2–§C6)."""

import hashlib
import json
from pathlib import Path

import pytest

from . import canon, wire

VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors"


def load(name):
    return json.loads((VECTORS / name).read_text())


def described(d):
    """A canonical.json value description as a Python value (see the file's description)."""
    (tag, arg), = d.items()
    if tag == "nil":
        return None
    if tag == "bool":
        return arg
    if tag == "int":
        return int(arg)
    if tag == "str":
        return arg
    if tag == "str_repeat":
        return arg[0] * arg[1]
    if tag == "bytes":
        return bytes.fromhex(arg)
    if tag == "bytes_repeat":
        return bytes.fromhex(arg[0]) * arg[1]
    if tag == "array":
        return [described(x) for x in arg]
    if tag == "array_repeat":
        return [described(arg[0])] * arg[1]
    if tag == "nested":
        value = described(arg[0])
        for _ in range(arg[1]):
            value = [value]
        return value
    if tag == "map":
        return {k: described(v) for k, v in arg}
    if tag == "map_range":
        return {f"{arg[0]}{i}": i for i in range(arg[1])}
    if tag == "float":
        return float(arg)
    if tag == "map_int_keys":
        return {int(k): described(v) for k, v in arg}
    raise AssertionError(f"unknown description {tag}")


CANONICAL = load("canonical.json")


@pytest.mark.parametrize("case", CANONICAL["values"], ids=lambda c: c["name"])
def test_canonical_values(case):
    value = described(case["value"])
    data = canon.encode(value)
    if "hex" in case:
        assert data.hex() == case["hex"]
    else:
        assert data.hex().startswith(case["hex_prefix"])
        assert len(data) == case["length"]
        assert hashlib.sha256(data).hexdigest() == case["sha256"]
    assert canon.decode(data) == value


@pytest.mark.parametrize("case", CANONICAL["refused_bytes"], ids=lambda c: c["name"])
def test_canonical_refused_bytes(case):
    with pytest.raises(canon.CanonError):
        canon.decode(bytes.fromhex(case["hex"]))


@pytest.mark.parametrize("case", CANONICAL["refused_values"], ids=lambda c: c["name"])
def test_canonical_refused_values(case):
    with pytest.raises(canon.CanonError):
        canon.encode(described(case["value"]))


def test_signatures():
    cases = load("crypto-signatures.json")["cases"]
    seen = set()
    for case in cases:
        kind = case["kind"]
        seen.add(kind)
        if kind == "signature":
            private, public = bytes.fromhex(case["private_key"]), bytes.fromhex(case["public_key"])
            payload = canon.decode(bytes.fromhex(case["payload_canonical"]))
            assert wire.public_key(private) == public
            assert wire.signing_input(case["domain"], payload).hex() == case["signing_input"]
            assert wire.sign(private, case["domain"], payload).hex() == case["signature"]
            assert wire.verify(public, case["domain"], payload, bytes.fromhex(case["signature"]))
            assert wire.fingerprint(public) == case["fingerprint"]
        elif kind == "bad_signature":
            payload = canon.decode(bytes.fromhex(case["payload_canonical"]))
            assert not wire.verify(bytes.fromhex(case["public_key"]), case["domain"], payload,
                                   bytes.fromhex(case["signature"])), case["why"]
        elif kind == "invalid_public_key":
            assert not wire.valid_public_key(bytes.fromhex(case["public_key"])), case["why"]
        elif kind == "fingerprint_match":
            expected = case["matches"] in (True, "True", "true")
            assert wire.fingerprint_matches(bytes.fromhex(case["public_key"]), case["text"]) == expected, case
        else:
            raise AssertionError(f"unknown kind {kind}")
    assert seen == {"signature", "bad_signature", "invalid_public_key", "fingerprint_match"}


@pytest.mark.parametrize("case", load("session-envelopes.json")["cases"], ids=lambda c: c["kind"])
def test_envelopes(case):
    private = bytes.fromhex(case["signer_private"])
    raw = bytes.fromhex(case["envelope"])
    env = wire.open_envelope(raw)
    assert env.kind == case["kind"]
    assert env.sender.hex() == case["signer_public"]
    assert wire.signing_input("message", [env.kind, env.sender, env.body]).hex() == case["signing_input"]
    assert env.sig.hex() == case["signature"]
    assert env.digest.hex() == case["digest"]
    assert wire.make_envelope(private, env.kind, env.body) == raw


def test_the_gone_envelope_answers_the_rejoin_envelope():
    """§B12, §E: `gone` names the digest of the rejoin it answers, and the game that rejoin asked about."""
    cases = {case["kind"]: case for case in load("session-envelopes.json")["cases"]}
    rejoin = wire.open_envelope(bytes.fromhex(cases["rejoin"]["envelope"]))
    gone = wire.open_envelope(bytes.fromhex(cases["gone"]["envelope"]))
    assert (gone.body["game_id"], gone.body["rejoin"]) == (rejoin.body["game_id"], rejoin.digest)
    assert isinstance(gone.body["reason"], str)


def test_envelope_refusals():
    case = load("session-envelopes.json")["cases"][0]
    raw = bytes.fromhex(case["envelope"])
    flipped = bytearray(raw)
    flipped[-1] ^= 1
    with pytest.raises(wire.WireError) as e:
        wire.open_envelope(bytes(flipped))
    assert e.value.code == "bad-signature"
    with pytest.raises(wire.WireError) as e:
        wire.open_envelope(raw + b"\x00")
    assert e.value.code == "malformed"
    private = bytes.fromhex(case["signer_private"])
    with pytest.raises(wire.WireError) as e:
        wire.open_envelope(wire.make_envelope(private, "ping", {"nonce": -1}))
    assert e.value.code == "malformed"


def test_frames():
    reader = wire.FrameReader()
    data = wire.frame(b"abc") + wire.frame(b"de")
    assert reader.feed(data[:5]) == []
    assert reader.feed(data[5:]) == [b"abc", b"de"]
    with pytest.raises(wire.WireError) as e:
        wire.FrameReader().feed(b"\x00\x10\x00\x01")
    assert e.value.code == "oversize"
    with pytest.raises(wire.WireError) as e:
        wire.FrameReader().feed(b"\x00\x00\x00\x00")
    assert e.value.code == "malformed"
