"""The independent verifier (SPEC §B11) accepts real transcripts of every game and refuses altered ones.

Real transcripts: the session vectors (Beltpunk, Steam Court, its 2015 draft rules, Steam Torpedo,
the probe game) and fresh games of Steam Torpedo, Astonishing! and the 2015 Steam Court played here
by the product's bots over loopback TCP. The games whose states the SPEC gives in full (all but
Astonishing! and the 2015 Steam Court) are replayed, every state hash computed, not taken from the
host.
"""

import json
import struct
from pathlib import Path

import pytest

from p2pgames.games import get_game
from p2pgames.net import play_table
from p2pgames.session import verify_transcript

from . import transcript, wire

VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors"
SESSION_VECTORS = ["session-probe-3p", "session-beltpunk-2p", "session-steamcourt-3p", "session-steamcourt2015-3p",
                   "session-torpedo-2p"]
FOLLOWED_GAMES = {"probe", "beltpunk", "steamcourt", "torpedo"}


@pytest.mark.parametrize("name", SESSION_VECTORS)
def test_session_vector_transcripts_verify_with_the_vectors_counts(name):
    meta = json.loads((VECTORS / f"{name}.json").read_text())
    report = transcript.verify((VECTORS / meta["file"]).read_bytes())
    assert report.ok, report.problem
    assert report.game == meta["game"]
    assert report.followed == (meta["game"] in FOLLOWED_GAMES)
    # What the counts count (§E): entries; acks = the host's (each entry's state) and the ack records;
    # signatures = start, accepts, entries, the submissions inside them and the ack records;
    # audits = audit sub-steps.
    assert (report.entries, report.acks, report.signatures, report.audits) == (
        meta["entries"], meta["acks"], meta["signatures"], meta["audits"])
    assert [state.hex() for state in report.states] == meta["state_hashes"]
    assert report.agreed == report.entries
    assert report.result == meta["result"]


@pytest.mark.parametrize("game, players, kinds", [
    ("torpedo", 2, ("heuristic",)), ("astonishing", 2, (None,)), ("steamcourt2015", 3, (None,)),
])
async def test_fresh_transcripts_of_the_newer_games_verify(tmp_path, autojump_clock, game, players, kinds):
    table = await play_table(game, players, seed=b"independent", transcripts=tmp_path, bot_kinds=kinds,
                             verify=False)
    assert table.ok, [seat.fault for seat in table.seats]
    for seat in table.seats:
        report = transcript.verify(seat.transcript.read_bytes())
        assert report.ok, (seat.seat, report.problem)
        assert report.entries == table.entries and report.agreed == table.entries
        assert report.seat == seat.seat and report.game == game
        assert report.followed == (game in FOLLOWED_GAMES)  # Steam Torpedo: every state hash replayed
        assert report.result is not None and report.result["winners"] == list(table.result.winners)


def _record_spans(data):
    """(offset of the record's value bytes, length, kind) for each record."""
    spans, pos = [], 0
    while pos < len(data):
        n = struct.unpack(">I", data[pos:pos + 4])[0]
        kind = transcript.canon.decode(data[pos + 4:pos + 4 + n])[0]
        spans.append((pos + 4, n, kind))
        pos += 4 + n
    return spans


def _flip(data, offset):
    altered = bytearray(data)
    altered[offset] ^= 0x01
    return bytes(altered)


PROBE = (VECTORS / "session-probe-3p.p2pt").read_bytes()
ENTRY_RECORDS = [i for i, span in enumerate(_record_spans(PROBE)) if span[2] == "entry"]


@pytest.mark.parametrize("where", ["entry signature", "entry state", "submission in an entry", "ack signature"])
def test_one_flipped_byte_is_damage_naming_nobody_at_that_record(where):
    spans = _record_spans(PROBE)
    if where == "ack signature":
        index = next(i for i, span in enumerate(spans) if span[2] == "ack" and i > ENTRY_RECORDS[5])
    else:
        index = ENTRY_RECORDS[5]
    start, length, _kind = spans[index]
    # Each record's value is canon(["entry"|"ack", envelope bytes]); the envelope ends with its sig.
    if where.endswith("signature"):
        offset = start + length - 1
    else:
        envelope = wire.open_envelope(transcript.canon.decode(PROBE[start:start + length])[1])
        field = envelope.body["state"] if where == "entry state" else envelope.body["submission"][-70:-60]
        offset = PROBE.index(field, start)
    altered = _flip(PROBE, offset)
    report = transcript.verify(altered)
    assert not report.ok
    assert report.code == "damage" and report.culprit is None, report.problem
    assert report.problem.startswith(f"record {index}:"), report.problem
    if where != "ack signature":
        assert report.entries == 5  # the entries before it were replayed, none after
    product = verify_transcript(altered, get_game)
    assert not product.ok, "the product must refuse it too"


def test_a_dropped_entry_record_is_damage_at_the_next_one():
    spans = _record_spans(PROBE)
    start, length, _ = spans[ENTRY_RECORDS[3]]
    altered = PROBE[:start - 4] + PROBE[start + length:]
    report = transcript.verify(altered)
    assert not report.ok and report.code == "damage" and report.culprit is None
    assert "entry 4 where entry 3 was due" in report.problem
    assert not verify_transcript(altered, get_game).ok


def test_a_file_cut_inside_a_record_is_cut_short():
    report = transcript.verify(PROBE[:-3])
    entries = json.loads((VECTORS / "session-probe-3p.json").read_text())["entries"]
    assert not report.ok and report.cut_short and report.entries == entries
