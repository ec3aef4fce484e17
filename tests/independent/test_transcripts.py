"""The independent verifier (SPEC §B11) accepts real transcripts of every game and refuses altered ones.

Real transcripts: the session vectors (Beltpunk, Steam Court, its 2015 draft rules, Steam Torpedo,
the probe game), fresh games of Steam Torpedo, Astonishing! and the 2015 Steam Court played here
by the product's bots over loopback TCP, and 4-player Beltpunk and Steam Court games on the
product's in-memory switchboard whose seat 3 is gone for good and rebuilt from its escrow by the
three others (§B16). The games whose states the SPEC gives in full (all but Astonishing! and the
2015 Steam Court) are replayed, every state hash computed, not taken from the host.
"""

import importlib.util
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
                   "session-torpedo-2p", "session-beltpunk-4p-gone"]
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
    if "gone" in meta:  # a seat rebuilt from its escrow (§B16), reported where the vector says
        gone = meta["gone"]
        assert report.open_seats == {gone["seat"]: gone["entry"]} and set(report.rebuilt) == {gone["seat"]}
        assert report.rebuilt[gone["seat"]] > gone["entry"]  # opened at the last consent, rebuilt with the shares


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


_spec = importlib.util.spec_from_file_location("independent_switchboard",
                                               Path(__file__).resolve().parents[1] / "session" / "switchboard.py")
switchboard = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(switchboard)


def rebuilt_table(game, cut_at, seed):
    """A 4-player table of the product's sessions, on the in-memory switchboard, whose seat 3 is
    cut for good once `cut_at` entries are in: the three others agree to play on with a bot (a
    session consents with its shares, a `rebuild`, when the seat holds keys, §B16) and play to the
    end."""
    board = switchboard.Switchboard(game, 4, seed=seed)
    board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= cut_at)
    board.cut(3)
    board.run(play=False)
    for seat in range(3):
        board.sessions[seat].open_seat(3)
    board.run()
    return board


# (Beltpunk's: the session-beltpunk-4p-gone vector, above, releases included.)
@pytest.mark.parametrize("game, cut_at", [("steamcourt", 80)])
def test_a_game_whose_gone_seat_is_rebuilt_from_its_escrow_verifies_to_the_end(game, cut_at):
    board = rebuilt_table(game, cut_at, b"rebuild-" + game.encode() + b"a")
    host = board.host
    assert host.result is not None and all(session.fault is None for session in board.sessions[:3])
    for seat in range(3):
        data = bytes(board.transcripts[seat])
        report = transcript.verify(data)
        # Every state hash replayed, every seat still playing agreeing on every entry.
        assert report.ok and report.followed, (seat, report.problem)
        assert report.entries == host.replica.seq and report.agreed == report.entries
        assert report.result["winners"] == list(host.result.winners)
        # The verifier's report: the entry seat 3 was rebuilt and opened at, as the product's says.
        [entry] = report.open_seats.values()
        assert report.open_seats == {3: entry} and set(report.rebuilt) == {3} and report.rebuilt[3] > entry
        assert verify_transcript(data, get_game).open_seats == {3: entry}
        kinds = [(s, body["t"]) for s, body in report.bodies]
        assert {s for s, t in kinds if t == "escrow"} == {0, 1, 2, 3}  # every seat escrows at the start
        assert [(s, body["seat"]) for s, body in report.bodies if body["t"] == "rebuild"] == [(0, 3), (1, 3), (2, 3)]
        if game == "beltpunk":  # cards seat 3 gave away: their keys released share by share
            assert {s for s, t in kinds if t == "release"} == {0, 1, 2}


def test_a_seat_rebuilt_before_its_lock_pass_of_a_deal_of_7_slots_verifies():
    board = rebuilt_table("beltpunk", 120, b"rebuild-beltpunka")
    report = transcript.verify(bytes(board.transcripts[0]))
    assert report.ok, report.problem


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
