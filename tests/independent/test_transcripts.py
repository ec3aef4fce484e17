"""The independent verifier (SPEC §B11) accepts real transcripts of every game and refuses altered ones.

Real transcripts: the session vectors (Beltpunk, Steam Court, its 2015 draft rules, Steam Torpedo,
the probe game), fresh games of Steam Torpedo, Astonishing! and the 2015 Steam Court played here
by the product's bots over loopback TCP, and 4-player Beltpunk and Steam Court games on the
product's in-memory switchboard whose seat 3 is gone for good and rebuilt from its escrow by the
three others (§B16), and the Steam Court vector whose host vanished and whose table seat 1 took over
(§B15). The games whose states the SPEC gives in full (all but Astonishing! and the 2015 Steam
Court) are replayed, every state hash computed, not taken from the host. Take-overs altered and
signed again with the vector's keys, and take-overs made here on the replica, are refused with the
code and culprit §B15 gives.
"""

import copy
import importlib.util
import json
import struct
from pathlib import Path

import pytest

from p2pgames.crypto import reproducible_bytes
from p2pgames.games import get_game
from p2pgames.net import play_table
from p2pgames.session import verify_transcript

from . import canon, replica, transcript, wire
from .test_escrow import GAME_ID, escrowed_table, in_round_two_after, made, rebuild_by

VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors"
SESSION_VECTORS = ["session-probe-3p", "session-beltpunk-2p", "session-steamcourt-3p", "session-steamcourt2015-3p",
                   "session-torpedo-2p", "session-beltpunk-4p-gone", "session-steamcourt-4p-host-gone"]
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
    # Who signed the entries from where (§B15): seat 0 throughout, unless the vector says otherwise.
    assert report.hosts == meta.get("hosts", [[0, 0]])
    if "gone" in meta:  # a seat rebuilt from its escrow (§B16), reported where the vector says
        gone = meta["gone"]
        # Opened at the last consent — or, the host's, at the take-over's entry, as if every
        # remaining seat had consented (§B15) — and rebuilt later, with the shares.
        assert report.open_seats == {gone["seat"]: gone["entry"]} and set(report.rebuilt) == {gone["seat"]}
        assert report.rebuilt[gone["seat"]] > gone["entry"]
        if "hosts" in meta:  # the host gone: the take-over, at that entry, by the seat that signs from there on
            [(first, successor)] = [host for host in meta["hosts"] if host[0] > 0]
            assert first == gone["entry"] and gone["seat"] == 0
            assert report.bodies[first][0] == successor and report.bodies[first][1]["t"] == "take-over"


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


# --- the take-over of a host gone for good (§B15) ----------------------------------------------------

HOST_GONE = (VECTORS / "session-steamcourt-4p-host-gone.p2pt").read_bytes()
HOST_GONE_RECORDS = [(kind, value) for _index, kind, value in transcript.records(HOST_GONE)]
HOST_GONE_ENTRIES = [i for i, (kind, _value) in enumerate(HOST_GONE_RECORDS) if kind == "entry"]
TAKE_OVER = HOST_GONE_ENTRIES[59]  # seat 1's take-over of seat 0's table (the vector's gone.entry)
# The vector's players' keys, as its generator seeds them (so the tests can sign as they would).
HOST_GONE_PRIVATE = [reproducible_bytes(b"vector-host-gone" + bytes([seat]))(32) for seat in range(4)]


def file_of(items):
    return b"".join(struct.pack(">I", len(raw)) + raw for raw in (canon.encode([k, v]) for k, v in items))


def take_over_entry():
    entry = wire.open_envelope(HOST_GONE_RECORDS[TAKE_OVER][1])
    return entry, wire.open_envelope(entry.body["submission"])


def consent(seat, **change):
    """Seat's `takeover` consent to the vector's take-over, `change` its fields."""
    entry, _sub = take_over_entry()
    body = {"game_id": entry.body["game_id"], "seq": 59, "entry": entry.body["prev"], "host": 0, "successor": 1}
    return wire.make_envelope(HOST_GONE_PRIVATE[seat], "takeover", dict(body, **change))


def taken_over(change=lambda consents: None, submission_by=1, entry_by=1):
    """The vector with its take-over's consents changed, the submission signed again by
    `submission_by`'s key and the entry by `entry_by`'s."""
    entry, sub = take_over_entry()
    consents = list(sub.body["body"]["consents"])
    change(consents)
    submission = wire.make_envelope(HOST_GONE_PRIVATE[submission_by], "submit",
                                    dict(sub.body, body=dict(sub.body["body"], consents=consents)))
    items = list(HOST_GONE_RECORDS)
    items[TAKE_OVER] = ("entry", wire.make_envelope(HOST_GONE_PRIVATE[entry_by], "entry",
                                                    dict(entry.body, submission=submission)))
    return file_of(items)


def test_the_take_over_entry_holds_one_consent_per_remaining_seat_signed_by_the_successor():
    entry, sub = take_over_entry()
    start = wire.open_envelope(next(value for kind, value in HOST_GONE_RECORDS if kind == "start"))
    keys = [record[0] for record in start.body["seats"]]
    # Signed by seat 1, the successor, not by seat 0, whose table it takes; so is its submission.
    assert entry.sender == keys[1] and sub.sender == keys[1] and sub.body["seat"] == 1
    consents = [wire.open_envelope(raw) for raw in sub.body["body"]["consents"]]
    assert [c.sender for c in consents] == keys[1:]
    assert all(c.kind == "takeover" and c.body == {"game_id": entry.body["game_id"], "seq": 59,
                                                   "entry": entry.body["prev"], "host": 0, "successor": 1}
               for c in consents)
    assert taken_over() == HOST_GONE  # (the harness: signed again unchanged, the same bytes)


def test_a_take_over_altered_and_not_signed_again_is_damage_at_its_record():
    entry, sub = take_over_entry()
    # A consent dropped, the submission and the entry keeping their signatures.
    body = dict(sub.body, body=dict(sub.body["body"], consents=sub.body["body"]["consents"][:2]))
    submission = canon.encode({"body": body, "kind": "submit", "sender": sub.sender, "sig": sub.sig})
    items = list(HOST_GONE_RECORDS)
    items[TAKE_OVER] = ("entry", canon.encode({"body": dict(entry.body, submission=submission), "kind": "entry",
                                               "sender": entry.sender, "sig": entry.sig}))
    altered = file_of(items)
    report = transcript.verify(altered)
    assert not report.ok and report.code == "damage" and report.culprit is None, report.problem
    assert report.problem.startswith(f"record {TAKE_OVER}:") and report.entries == 59
    assert not verify_transcript(altered, get_game).ok, "the product must refuse it too"


@pytest.mark.parametrize("what, change, code", [
    ("a consent left out", lambda c: c.pop(), "illegal"),
    ("one consent too many", lambda c: c.append(consent(3)), "illegal"),
    ("the consents out of seat order", lambda c: c.reverse(), "bad-signature"),
    ("seat 2's place signed by seat 3", lambda c: c.__setitem__(1, c[2]), "bad-signature"),
    ("a consent to an earlier entry", lambda c: c.__setitem__(1, consent(2, seq=58)), "illegal"),
    ("a consent to another head", lambda c: c.__setitem__(1, consent(2, entry=bytes(32))), "illegal"),
    ("a consent of another game", lambda c: c.__setitem__(2, consent(3, game_id=bytes(32))), "illegal"),
    ("a consent naming another host", lambda c: c.__setitem__(2, consent(3, host=2)), "illegal"),
    ("a consent naming another successor", lambda c: c.__setitem__(0, consent(1, successor=2)), "illegal"),
    ("a consent that is an ack", lambda c: c.__setitem__(2, wire.make_envelope(
        HOST_GONE_PRIVATE[3], "ack", {"game_id": bytes(32), "seq": 58, "entry": bytes(32), "state": bytes(32)})),
     "malformed"),
    ("a consent that is no envelope", lambda c: c.__setitem__(2, b"junk"), "malformed"),
])
@pytest.mark.parametrize("follow", [True, False])
def test_a_take_over_whose_consents_are_wrong_is_its_authors_fault(what, change, code, follow):
    altered = taken_over(change)
    report = transcript.verify(altered, follow_games=follow)
    assert not report.ok and (report.code, report.culprit) == (code, 1), (what, report.problem)
    assert report.problem.startswith("entry 59:"), report.problem
    assert report.hosts == [[0, 0]] and report.entries == 60  # the replay stops there


def test_the_product_blames_the_author_of_a_take_over_whose_consents_are_wrong():
    """§B15 step 4: a take-over is checked against its author's key, and 'each fault is the
    author's: it signed the entry' — in both verifiers (the product's took it for damage once)."""
    altered = taken_over(lambda consents: consents.pop())
    assert transcript.verify(altered).code == "illegal"
    report = verify_transcript(altered, get_game)
    assert "damaged or was altered" not in report.describe()
    assert not report.ok and report.failure is not None and report.failure.culprit == 1, report.describe()


def test_a_take_over_is_signed_by_its_author_not_by_the_host_it_names_nor_by_another_seat():
    # The host it names sequenced it: a take-over is no submission to a host — its author's illegal.
    report = transcript.verify(taken_over(entry_by=0))
    assert not report.ok and (report.code, report.culprit) == ("illegal", 1), report.problem
    assert "sequenced by seat 0" in report.problem
    # Signed by a seat that neither sequences nor authors it: damage, naming nobody (§B11 case 4).
    report = transcript.verify(taken_over(entry_by=2))
    assert not report.ok and (report.code, report.culprit) == ("damage", None), report.problem
    assert report.problem.startswith(f"record {TAKE_OVER}:")
    # Its submission signed by another key than its author's (its seat field, 1): the signer's fault.
    report = transcript.verify(taken_over(submission_by=2))
    assert not report.ok and (report.code, report.culprit) == ("bad-signature", 1), report.problem


def test_after_the_take_over_the_old_hosts_key_signs_no_entry():
    items = list(HOST_GONE_RECORDS)
    index = HOST_GONE_ENTRIES[60]
    entry = wire.open_envelope(items[index][1])
    items[index] = ("entry", wire.make_envelope(HOST_GONE_PRIVATE[0], "entry", entry.body))
    report = transcript.verify(file_of(items))
    assert not report.ok and (report.code, report.culprit) == ("damage", None), report.problem
    assert report.problem.startswith(f"record {index}:") and report.entries == 60


# The replica driven directly (as test_escrow.py does): a 3-seat probe table, every seat escrowed,
# its identity keys real ones so that consents can be signed. The entry's `prev` is made up here.

PRIVATE = [made(b"take-over identity %d" % seat) for seat in range(4)]
PREV = made(b"the head")


def keyed(table):
    for seat, record in enumerate(table.rep.seats):
        record[0] = wire.public_key(PRIVATE[seat])
    return table


def take_over(rep, author, seats=None, **change):
    """`author`'s take-over of the replica's host with the consents of `seats` (the remaining seats)."""
    fields = {"game_id": GAME_ID, "seq": rep.seq, "entry": PREV, "host": rep.sequencer, "successor": author}
    fields.update(change)
    return {"t": "take-over", "consents": [wire.make_envelope(PRIVATE[s], "takeover", fields)
                                           for s in (rep.remaining() if seats is None else seats)]}


def taken(rep, author, body, signer=None):
    return rep.apply(author, body, prev=PREV, signer=author if signer is None else signer)


def refused_take_over(rep, author, body, code, signer=None):
    trial = copy.deepcopy(rep)
    with pytest.raises(replica.Fault) as caught:
        taken(trial, author, body, signer)
    assert (caught.value.code, caught.value.culprit) == (code, author), str(caught.value)


def test_a_take_over_opens_the_vanished_hosts_seat_to_be_rebuilt_and_its_author_hosts_to_the_end():
    table = keyed(escrowed_table())
    rep = table.rep
    table.play(until=in_round_two_after(1))
    assert rep._holds_keys(0) and rep.remaining() == [1, 2]
    refused_take_over(rep, 0, take_over(rep, 0), "illegal")             # the host it takes the table from
    refused_take_over(rep, 1, take_over(rep, 1), "illegal", signer=0)   # sequenced by the host
    refused_take_over(rep, 1, take_over(rep, 1, seats=[1]), "illegal")  # a remaining seat's consent missing
    refused_take_over(rep, 1, take_over(rep, 1, seats=[2, 1]), "bad-signature")
    refused_take_over(rep, 1, take_over(rep, 1, seq=rep.seq - 1), "illegal")
    refused_take_over(rep, 1, take_over(rep, 1, successor=2), "illegal")
    refused_take_over(rep, 1, dict(take_over(rep, 1), extra=1), "malformed")
    refused_take_over(rep, 1, {"t": "take-over", "consents": b"none"}, "malformed")
    no_bots = copy.deepcopy(rep)
    no_bots.bots_allowed = False
    refused_take_over(no_bots, 1, take_over(rep, 1), "illegal")
    entry = rep.seq
    taken(rep, 1, take_over(rep, 1))
    # From this entry on seat 1 is the host and seat 0's caretaker; seat 0 is open from it, to be
    # rebuilt from its escrow: its holders give their shares from the next entry on (§B16).
    assert rep.sequencer == 1 and rep.author(0) == 1 and rep.open == {0: entry} and rep.rebuilding == {0}
    refused_take_over(rep, 2, take_over(rep, 2), "illegal")  # seat 1 is the host now: one take-over only
    for seat in (1, 2):  # (the consents are the take-over's: the shares follow at once)
        table.submit(seat, table.rebuild(seat, 0))
    assert rep.rebuilt == {0: rep.seq - 1}
    table.play()
    assert rep.result() is not None


def test_a_take_over_opens_a_host_that_holds_nothing_as_it_is_and_waits_while_it_cant_be_opened():
    table = keyed(escrowed_table())
    rep = table.rep
    assert not rep._holds_keys(0)  # before the first deal: nothing secret
    trial = copy.deepcopy(rep)
    taken(trial, 2, take_over(trial, 2))
    assert trial.open == {0: rep.seq} and trial.rebuilding == set() and trial.sequencer == 2
    # Holding keys with no escrow among the remaining seats, the host's seat can't be opened.
    unescrowed = keyed(escrowed_table())
    unescrowed.rep.escrows.pop(0)
    unescrowed.play(until=in_round_two_after(1))
    refused_take_over(unescrowed.rep, 1, take_over(unescrowed.rep, 1), "illegal")


def test_a_take_over_waits_while_an_open_seat_the_host_plays_owes_the_opening_of_its_choice():
    table = keyed(escrowed_table(4))
    rep = table.rep
    table.play(until=in_round_two_after(1))
    rebuild_by(table, 1, (0, 2, 3))  # seat 1, rebuilt: seat 0 its caretaker
    # The host escrows anew with the seats still playing, so its own seat could be rebuilt.
    table.submit(0, table.escrow(0))
    while table.lock_escrow_due(0) is not None:
        table.submit(0, table.lock_escrow(0, table.lock_escrow_due(0)))
    assert rep.due(1) == "commit"
    table.submit(1, table.make_commit(1))  # the caretaker's commitment, salted with its own secrets
    refused_take_over(rep, 2, take_over(rep, 2), "illegal")
    phase = rep.phase
    table.play(until=lambda t: t.rep.phase is not phase or 1 in phase["opens"])
    taken(rep, 2, take_over(rep, 2))
    assert rep.sequencer == 2 and set(rep.open) == {0, 1}
