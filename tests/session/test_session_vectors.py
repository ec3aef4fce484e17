"""The session's test vectors (protocol/vectors/session-*): what another implementation must match.

Regenerating them (scripts/make_session_vectors.py) from the same seeds must give the same bytes:
that checks, end to end, that a whole game is deterministic — deals, signatures, hashes, all.
"""

import hashlib
import json
from pathlib import Path

import pytest
from switchboard import Switchboard

from p2pgames import canonical
from p2pgames.crypto import Identity, PublicKey
from p2pgames.bots import bot_for
from p2pgames.games import get_game
from p2pgames.session import iter_records, open_envelope, verify_transcript
from p2pgames.session._faults import ProtocolFault
from p2pgames.session._replica import Replica, SeatInfo

VECTORS = Path(__file__).parents[2] / "protocol" / "vectors"
# Whole games, one in which a seat vanishes and is rebuilt from its escrow (``-gone``, §B16), one
# in which the host vanishes and the others take the table over (``-host-gone``, §B15), and a
# two-player one whose host vanishes and the other claims the game by forfeit (``-forfeit``, §B17);
# and a game stopped by a wrong dispute after a rebuild (``-gone-dispute``, §B7, §B16 step 5). Each
# also as protocol 10 wrote it (``-v10``: §C5's lock deck), which must still verify.
TRANSCRIPTS = sorted(path.name for pattern in (
    "session-*p.json", "session-*p-gone.json", "session-*p-host-gone.json", "session-*p-forfeit.json",
    "session-*p-gone-dispute.json",
) for suffix in ("", "-v10") for path in VECTORS.glob(pattern.replace(".json", f"{suffix}.json")))


def replayed_hashes(replica: Replica, records: list) -> list[str]:
    """The state hash after each entry of ``records``; for the entry that stops the game, the 32
    zero bytes its host signed (§B3)."""
    hashes = []
    for kind, value in records:
        if kind != "entry":
            continue
        try:
            replica.apply_entry(value)
        except ProtocolFault:
            assert open_envelope(value).body["state"] == bytes(32)
            hashes.append(bytes(32).hex())
            continue
        hashes.append(replica.state_hash.hex())
    return hashes


def test_every_playable_game_and_the_probe_have_a_transcript_vector():
    from p2pgames.games import PLAYABLE

    games = {json.loads((VECTORS / name).read_text())["game"] for name in TRANSCRIPTS}
    assert games == set(PLAYABLE) | {"probe"}


def test_envelope_vectors():
    vectors = json.loads((VECTORS / "session-envelopes.json").read_text())
    for case in vectors["cases"]:
        identity = Identity.from_private_bytes(bytes.fromhex(case["signer_private"]))
        raw = bytes.fromhex(case["envelope"])
        envelope = open_envelope(raw)
        assert envelope.kind == case["kind"]
        assert envelope.sender == identity.public_key.raw == bytes.fromhex(case["signer_public"])
        envelope.verify(PublicKey(envelope.sender))
        signing_input = b"p2pgames/v1/sign/message\x00" + canonical.encode([envelope.kind, envelope.sender, envelope.body])
        assert signing_input.hex() == case["signing_input"]
        assert identity.sign("message", [envelope.kind, envelope.sender, envelope.body]).hex() == case["signature"]
        assert hashlib.sha256(raw).hexdigest() == case["digest"] == envelope.digest.hex()


def test_the_envelope_vectors_speak_this_protocol_version():
    """A wire change moves the version (§A4) and the vectors with it: the rejoin vector names
    this version, and a kind added since (``reach``, §B15) has its case."""
    from p2pgames import PROTOCOL_VERSION

    cases = {case["kind"]: open_envelope(bytes.fromhex(case["envelope"])) for case in
             json.loads((VECTORS / "session-envelopes.json").read_text())["cases"]}
    assert cases["rejoin"].body["protocol"] == PROTOCOL_VERSION
    assert cases["reach"].body["addresses"]


@pytest.mark.parametrize("name", TRANSCRIPTS)
def test_transcript_vector_verifies_with_every_hash(name):
    summary = json.loads((VECTORS / name).read_text())
    data = (VECTORS / summary["file"]).read_bytes()
    assert hashlib.sha256(data).hexdigest() == summary["sha256"]
    report = verify_transcript(data, get_game)
    if "stopped" in summary:  # stopped by the fault it names, at that entry, with no result
        stopped = summary["stopped"]
        assert report.ok and not report.complete and report.stopped is not None, report.describe()
        assert (report.stopped.code, report.stopped.culprit, report.stopped.seq) == (
            stopped["code"], stopped["culprit"], stopped["entry"] + 1)  # (the entries applied, that one included)
        assert stopped["entry"] == summary["entries"] - 1
    else:
        assert report.ok and report.complete, report.describe()
    assert (report.entries, report.acks, report.audits, report.signatures) == (
        summary["entries"], summary["acks"], summary["audits"], summary["signatures"],
    )
    assert report.result == summary["result"]
    records = list(iter_records(data))
    start = open_envelope(next(value for kind, value in records if kind == "start"))
    game = get_game(summary["game"])
    replica = Replica(
        game, game.decode_ruleset(start.body["ruleset"]), start.body["game_id"],
        [SeatInfo.decode(item) for item in start.body["seats"]], start.digest,
    )
    assert replayed_hashes(replica, records) == summary["state_hashes"]
    if "gone" in summary:
        gone = summary["gone"]["seat"]
        assert report.open_seats == {gone: summary["gone"]["entry"]} and report.rebuilt == {gone}
        assert gone in replica.rebuilt
    if "hosts" in summary and "gone" in summary:  # taken over: the successor signs from the take-over entry on
        assert [list(pair) for pair in replica.sequencers] == summary["hosts"] == [[0, 0], [summary["gone"]["entry"], 1]]
    if "forfeit" in summary:  # claimed by seat 1, which signs the forfeit's entry itself
        forfeit = summary["forfeit"]
        assert report.forfeit == (forfeit["winner"], forfeit["gone"], forfeit["entry"]) == (1, 0, summary["entries"] - 1)
        assert [list(pair) for pair in replica.sequencers] == summary["hosts"] == [[0, 0], [forfeit["entry"], 1]]
        assert summary["result"] == {"scores": [], "winners": [1], "summary": "a win by forfeit, the other player gone"}


@pytest.mark.parametrize("name", TRANSCRIPTS)
def test_the_same_seeds_replay_the_same_game_byte_for_byte(name):
    summary = json.loads((VECTORS / name).read_text())
    game, players, seed = summary["game"], summary["players"], summary["seed"].encode()
    kind = summary["bot_kind"]
    bots = None if kind is None else [bot_for(get_game(game), seed + bytes([seat]), kind) for seat in range(players)]
    board = Switchboard(game, players, seed=seed, options=summary["options"], bots=bots, open_seats=summary["open_seats"],
                        reach=summary.get("reach", False), forfeit="forfeit" in summary, protocol=summary["protocol"])
    if "gone" in summary:  # as scripts/make_session_vectors.py does
        board.depart(summary["gone"]["seat"], summary["gone"]["after"])
    if "forfeit" in summary:
        board.forfeit(summary["forfeit"]["gone"], summary["forfeit"]["after"])
    if "dispute" in summary:  # once the seat gone is rebuilt
        board.run(play=False)
        assert board.escrowed_slots(summary["gone"]["seat"])[0] == summary["dispute"]["slot"]
        board.dispute(summary["dispute"]["seat"], summary["dispute"]["slot"])
    board.run()
    assert bytes(board.transcripts[1]) == (VECTORS / summary["file"]).read_bytes()


def test_the_acks_vector_rebuilds_the_ack_vector_written_out_and_left_to_the_log():
    """§B8: an ``acks`` item is its seat's ``ack`` envelope, byte for byte, once rebuilt — with its
    ``entry`` and ``state`` written out, or nil and taken from the log (entry 12's digest 01…01 and
    state field 02…02 in the vector's case)."""
    from p2pgames.session._acks import ack_from_item

    cases = {case["kind"]: case for case in json.loads((VECTORS / "session-envelopes.json").read_text())["cases"]}
    ack = open_envelope(bytes.fromhex(cases["ack"]["envelope"]))
    acks = open_envelope(bytes.fromhex(cases["acks"]["envelope"]))
    log = {12: (b"\x01" * 32, b"\x02" * 32)}
    rebuilt = [ack_from_item(item, acks.body["game_id"], ack.sender, log.get) for item in acks.body["acks"]]
    assert [envelope.raw for envelope in rebuilt] == [ack.raw, ack.raw]  # type: ignore[union-attr]
    assert ack_from_item(acks.body["acks"][1], acks.body["game_id"], ack.sender, {}.get) is None  # not in the log


def test_a_transcript_written_by_protocol_9_still_verifies():
    """Before protocol 10 every acknowledgement was an ``ack`` record (§B11): such a transcript
    verifies with the same counts, hashes and result."""
    summary = json.loads((VECTORS / "session-probe-3p-v9.json").read_text())
    data = (VECTORS / summary["file"]).read_bytes()
    assert hashlib.sha256(data).hexdigest() == summary["sha256"]
    kinds = {kind for kind, _ in iter_records(data)}
    assert "ack" in kinds and "acks" not in kinds
    report = verify_transcript(data, get_game)
    assert report.ok and report.complete, report.describe()
    assert (report.entries, report.acks, report.audits, report.signatures) == (
        summary["entries"], summary["acks"], summary["audits"], summary["signatures"],
    )
    assert report.result == summary["result"]
    now = json.loads((VECTORS / "session-probe-3p.json").read_text())
    assert {"acks"} <= {kind for kind, _ in iter_records((VECTORS / now["file"]).read_bytes())}
