"""The independent verifier (SPEC §B11) accepts real transcripts of every game and refuses altered ones.

Real transcripts: the session vectors (Beltpunk, Steam Court, its 2015 draft rules, Steam Torpedo,
the probe game), fresh games of Steam Torpedo, Astonishing! and the 2015 Steam Court played here
by the product's bots over loopback TCP, and 4-player Beltpunk and Steam Court games on the
product's in-memory switchboard whose seat 3 is gone for good and rebuilt from its escrow by the
three others (§B16), and the Steam Court vector whose host vanished and whose table seat 1 took over
(§B15). The games whose states the SPEC gives in full (all but Astonishing! and the 2015 Steam
Court) are replayed, every state hash computed, not taken from the host. Take-overs altered and
signed again with the vector's keys, and take-overs made here on the replica, are refused with the
code and culprit §B15 gives. The Beltpunk vector won by forfeit (§B17) verifies with who claimed it;
forfeits altered and signed again with its keys, and forfeits made here on the replica, are refused
with the code and culprit §B17 gives, and so are rulesets that play it wrongly (§A4).
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
from p2pgames.session._elgamal_keys import deck_key_record

from . import canon, probe, replica, transcript, wire
from .test_escrow import GAME_ID, Table, escrowed_table, in_round_two_after, made, rebuild_by

VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors"
SESSION_VECTORS = [name + version for version in ("", "-v10") for name in (  # (-v10: as protocol 10 wrote them)
    "session-probe-3p", "session-beltpunk-2p", "session-steamcourt-3p", "session-steamcourt2015-3p",
    "session-torpedo-2p", "session-beltpunk-4p-gone", "session-steamcourt-4p-host-gone",
    "session-beltpunk-2p-forfeit", "session-steamcourt-4p-gone-dispute",
)] + ["session-probe-3p-v9"]  # (as version 9 wrote it: every ack an `ack` record, §B11)
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
    # §B8: agreed once every seat not open acknowledged it. A forfeit's entry is acknowledged by its
    # claimant only (its signature): the other seat, gone, is not open (§B17), so never agrees on it;
    # nor is the entry that stops a game (§B3: its host signed no state).
    assert report.agreed == report.entries - ("forfeit" in meta) - ("stopped" in meta)
    if "stopped" in meta:  # the fault the replay finds, at the entry that stops the game (§B7)
        stopped = meta["stopped"]
        assert report.stopped is not None and report.stopped[:3] == (stopped["code"], stopped["culprit"], stopped["entry"])
    else:
        assert report.stopped is None
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
    assert report.forfeit is None or "forfeit" in meta
    if "forfeit" in meta:  # a win by forfeit (§B17), at the last entry, by its author, who signed it
        forfeit = meta["forfeit"]
        assert report.forfeit == (forfeit["winner"], forfeit["gone"], forfeit["entry"])
        assert forfeit["entry"] == report.entries - 1 == forfeit["after"] - 1  # (the gone host's last entry void)
        assert report.bodies[forfeit["entry"]] == (forfeit["winner"], {"t": "forfeit"})
        assert report.hosts == [[0, 0], [forfeit["entry"], forfeit["winner"]]] and forfeit["gone"] == 0
        assert report.states[forfeit["entry"]] == report.states[forfeit["entry"] - 1]  # the state unchanged
        assert report.result == {"scores": [], "winners": [forfeit["winner"]],
                                 "summary": "a win by forfeit, the other player gone"}
        assert report.audits == 0 and report.open_seats == {}  # no audit follows; nobody's seat opened


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
        index = next(i for i, span in enumerate(spans) if span[2] in ("ack", "acks") and i > ENTRY_RECORDS[5])
    else:
        index = ENTRY_RECORDS[5]
    start, length, _kind = spans[index]
    # Each record's value is canon(["entry"|"ack", envelope bytes]), the envelope ending with its sig,
    # or canon(["acks", [[seat, seq, entry, state, sig]]]), ending with the ack's sig.
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


# --- a win by forfeit (§B17) ---------------------------------------------------------------------

FORFEIT = (VECTORS / "session-beltpunk-2p-forfeit.p2pt").read_bytes()
FORFEIT_META = json.loads((VECTORS / "session-beltpunk-2p-forfeit.json").read_text())
FORFEIT_RECORDS = [(kind, value) for _index, kind, value in transcript.records(FORFEIT)]
FORFEIT_ENTRIES = [i for i, (kind, _value) in enumerate(FORFEIT_RECORDS) if kind == "entry"]
CLAIM = FORFEIT_ENTRIES[FORFEIT_META["forfeit"]["entry"]]  # seat 1's forfeit, the last entry
AT = FORFEIT_META["forfeit"]["entry"]  # (its entry number: the entries after it are AT + 1 …)
# The vector's players' keys, as its generator seeds them.
FORFEIT_PRIVATE = [reproducible_bytes(b"vector-forfeit" + bytes([seat]))(32) for seat in range(2)]


def opened(value):
    return wire.open_envelope(value, check_signature=False)


def claim_entry():
    entry = opened(FORFEIT_RECORDS[CLAIM][1])
    return entry, opened(entry.body["submission"])


def counter_of(seat, before=CLAIM):
    """The counter of `seat`'s next submission after the records before `before`."""
    return sum(1 for kind, value in FORFEIT_RECORDS[:before] if kind == "entry"
               and opened(opened(value).body["submission"]).body["seat"] == seat)


def claimed(body=None, seat=1, submission_by=None, entry_by=None, state=None, winners=None):
    """The vector with its forfeit's entry made again: the submission's `body` and `seat` (its
    counter that seat's next), signed by `submission_by`'s key (default: the seat's), the entry's
    `state`, signed by `entry_by`'s (default: the seat's); the end record's winners `winners`."""
    entry, sub = claim_entry()
    fields = dict(sub.body, seat=seat, counter=counter_of(seat), body={"t": "forfeit"} if body is None else body)
    submission = wire.make_envelope(FORFEIT_PRIVATE[seat if submission_by is None else submission_by], "submit", fields)
    items = list(FORFEIT_RECORDS)
    items[CLAIM] = ("entry", wire.make_envelope(FORFEIT_PRIVATE[seat if entry_by is None else entry_by], "entry",
                                                dict(entry.body, submission=submission,
                                                     state=entry.body["state"] if state is None else state)))
    if winners is not None:
        assert items[-1][0] == "end"
        items[-1] = ("end", dict(items[-1][1], winners=winners))
    return file_of(items)


def after_claim(seat, body, signer):
    """The vector with one more entry after the forfeit: `seat`'s submission `body`, the entry
    signed by `signer`'s key (the state the forfeit's)."""
    entry, sub = claim_entry()
    fields = dict(sub.body, seat=seat, counter=counter_of(seat, CLAIM + 1), based_on=AT + 1, body=body)
    more = wire.make_envelope(FORFEIT_PRIVATE[signer], "entry", dict(
        entry.body, seq=AT + 1, prev=opened(FORFEIT_RECORDS[CLAIM][1]).digest,
        submission=wire.make_envelope(FORFEIT_PRIVATE[seat], "submit", fields)))
    items = list(FORFEIT_RECORDS)
    items.insert(CLAIM + 1, ("entry", more))
    return file_of(items), CLAIM + 1


def rechained(ruleset):
    """The vector with the start's ruleset `ruleset`, every signature over it made again: the
    start (seat 0's), the accepts naming it, every entry (linked to it, by its signer) and the acks."""
    keys = [wire.public_key(private) for private in FORFEIT_PRIVATE]
    new = {}  # old digest -> new digest
    items = []
    for kind, value in FORFEIT_RECORDS:
        if kind in ("start", "accept", "entry", "ack"):
            env = opened(value)
            body = dict(env.body)
            if kind == "start":
                body["ruleset"] = ruleset
            elif kind == "accept":
                body["start"] = new[body["start"]]
            elif kind == "entry":
                body["prev"] = new[body["prev"]]
            else:
                body["entry"] = new[body["entry"]]
            value = wire.make_envelope(FORFEIT_PRIVATE[keys.index(env.sender)], kind, body)
            new[env.digest] = opened(value).digest
        items.append((kind, value))
    return file_of(items)


def product_refuses(data) -> bool:
    """The product's verifier refuses `data`: a report that is not ok, or (a start it can't read) an error."""
    try:
        return not verify_transcript(data, get_game).ok
    except Exception:  # noqa: BLE001 — whatever the product raises for a start it refuses
        return True


def refused_claim(altered, code, culprit, where=f"entry {AT}:", follow=True):
    report = transcript.verify(altered, follow_games=follow)
    assert not report.ok and (report.code, report.culprit) == (code, culprit), report.problem
    assert report.problem.startswith(where), report.problem
    return report


def test_the_forfeit_entry_is_signed_by_its_author_and_the_harness_signs_it_again_unchanged():
    entry, sub = claim_entry()
    keys = [wire.public_key(private) for private in FORFEIT_PRIVATE]
    start = opened(next(value for kind, value in FORFEIT_RECORDS if kind == "start"))
    assert [record[0] for record in start.body["seats"]] == keys
    assert start.body["ruleset"]["forfeit"] is True and start.body["ruleset"]["players"] == 2
    assert entry.sender == keys[1] and sub.sender == keys[1] and sub.body["body"] == {"t": "forfeit"}
    assert claimed() == FORFEIT and rechained(start.body["ruleset"]) == FORFEIT


@pytest.mark.parametrize("follow", [True, False])
def test_the_forfeit_vector_verifies_game_followed_or_not(follow):
    report = transcript.verify(FORFEIT, follow_games=follow)
    assert report.ok and report.followed == follow, report.problem
    assert report.forfeit == (1, 0, AT) and report.hosts == [[0, 0], [AT, 1]]
    assert report.result["winners"] == [1] and report.result["scores"] == []


@pytest.mark.parametrize("follow", [True, False])
@pytest.mark.parametrize("what, made, code", [
    ("a forfeit with a field more", lambda: claimed(body={"t": "forfeit", "winner": 1}), "malformed"),
    ("a forfeit naming the gone seat", lambda: claimed(body={"t": "forfeit", "seat": 0}), "malformed"),
    # Sent to the host as a submission, the host sequencing it (the entry in seat 0's key).
    ("a joiner's forfeit sequenced by the host", lambda: claimed(entry_by=0), "illegal"),
    # Its submission in another key than its author's: the signer of the entry, its author, at fault.
    ("a forfeit of seat 1 signed by seat 0", lambda: claimed(submission_by=0), "bad-signature"),
])
def test_a_forfeit_altered_and_signed_again_is_its_authors_fault(what, made, code, follow):
    altered = made()
    report = refused_claim(altered, code, 1, follow=follow)
    # (A wrong signature stops before the entry counts; the others stop the replay at it.)
    assert report.forfeit is None and report.hosts == [[0, 0]], what
    assert report.entries == (AT if code == "bad-signature" else AT + 1), what
    assert product_refuses(altered), f"the product must refuse it too: {what}"


def test_a_forfeit_that_changes_the_state_is_the_claimants_desync():
    # §B17: the state, and so the state hash, is the one before it: seat 1 signed another (an
    # earlier entry's: the latest that differs from it).
    states = [opened(FORFEIT_RECORDS[FORFEIT_ENTRIES[n]][1]).body["state"] for n in range(AT)]
    altered = claimed(state=next(state for state in reversed(states) if state != states[AT - 1]))
    refused_claim(altered, "desync", 1)
    assert not verify_transcript(altered, get_game).ok, "the product must refuse it too"


def test_a_forfeit_signed_by_a_seat_that_neither_hosts_nor_claims_is_damage():
    # Seat 0 claims (its submission, its counter), but seat 1 signed the entry: at the forfeit's entry seat 0
    # still sequences, so seat 1's signature is no one's (§B11 case 4).
    refused_claim(claimed(seat=0, entry_by=1), "damage", None, where=f"record {CLAIM}:")


@pytest.mark.parametrize("follow", [True, False])
def test_the_host_may_claim_the_game_itself_signing_its_entry_as_any_of_its_own(follow):
    altered = claimed(seat=0, winners=[0])  # seat 1 gone, seat 0 the host claims
    report = transcript.verify(altered, follow_games=follow)
    assert report.ok, report.problem
    assert report.forfeit == (0, 1, AT) and report.hosts == [[0, 0]] and report.result["winners"] == [0]
    assert verify_transcript(altered, get_game).ok, "the product accepts it too"
    # Its end record must say so: the winner is the claimant.
    report = transcript.verify(claimed(seat=0), follow_games=follow)
    assert not report.ok and report.code == "damage" and "result" in report.problem


def test_after_a_forfeit_the_game_is_over_and_the_gone_host_signs_nothing():
    # Seat 1, now sequencing, goes on with a move: the game is over — illegal, seat 1's fault.
    altered, index = after_claim(1, {"t": "act", "action": ["pass"]}, signer=1)
    report = refused_claim(altered, "illegal", 1, where=f"entry {AT + 1}:")
    assert report.forfeit == (1, 0, AT) and report.hosts == [[0, 0], [AT, 1]]
    # A second claim, by seat 1: over.
    refused_claim(after_claim(1, {"t": "forfeit"}, signer=1)[0], "illegal", 1, where=f"entry {AT + 1}:")
    # Seat 0, gone, claiming the game back under its own key, as a claimant signs: over, its fault.
    refused_claim(after_claim(0, {"t": "forfeit"}, signer=0)[0], "illegal", 0, where=f"entry {AT + 1}:")
    # Seat 0's key signing anything else after the forfeit: not the sequencer's — damage.
    altered, index = after_claim(1, {"t": "act", "action": ["pass"]}, signer=0)
    refused_claim(altered, "damage", None, where=f"record {index}:")


@pytest.mark.parametrize("follow", [True, False])
def test_a_forfeit_at_a_table_that_does_not_play_it_is_illegal(follow):
    start = opened(next(value for kind, value in FORFEIT_RECORDS if kind == "start"))
    ruleset = {key: value for key, value in start.body["ruleset"].items() if key != "forfeit"}
    altered = rechained(ruleset)
    report = refused_claim(altered, "illegal", 1, follow=follow)
    assert report.entries == AT + 1 and report.forfeit is None
    assert not verify_transcript(altered, get_game).ok, "the product must refuse it too"


def started(ruleset, seats=None):
    """The vector with its start made again with `ruleset` (and `seats`), nothing else changed:
    a verifier refuses it at the start."""
    items = list(FORFEIT_RECORDS)
    index = next(i for i, (kind, _value) in enumerate(items) if kind == "start")
    start = opened(items[index][1])
    body = dict(start.body, ruleset=ruleset, seats=start.body["seats"] if seats is None else seats)
    items[index] = ("start", wire.make_envelope(FORFEIT_PRIVATE[0], "start", body))
    return file_of(items), index


@pytest.mark.parametrize("follow", [True, False])
def test_a_ruleset_with_forfeit_false_or_for_three_players_is_refused(follow):
    start = opened(next(value for kind, value in FORFEIT_RECORDS if kind == "start"))
    ruleset = start.body["ruleset"]
    # `false` is never written (§A4): the start is malformed, as a message (so, in a file, damage).
    with pytest.raises(wire.WireError) as caught:
        wire.open_envelope(wire.make_envelope(FORFEIT_PRIVATE[0], "start", dict(start.body, ruleset=dict(
            ruleset, forfeit=False))))
    assert caught.value.code == "malformed"
    for bad in (False, 1, None, "true"):
        altered, index = started(dict(ruleset, forfeit=bad))
        report = transcript.verify(altered, follow_games=follow)
        assert not report.ok and report.code == "damage" and report.problem.startswith(f"record {index}:"), bad
    # With 3 players it is refused as the game refuses a bad option: the host's start, seat 0's.
    key = wire.public_key(made(b"forfeit third"))
    # (With a deck key and its proof where the start's records have them, §B6.3: the product makes
    # them, as a seat of its would; the verifier under test is the independent one.)
    deck = deck_key_record(made(b"forfeit third deck"), key) if len(start.body["seats"][0]) == 6 else []
    third = [key, start.body["seats"][1][1], "third", False, *deck]
    altered, index = started(dict(ruleset, players=3), start.body["seats"] + [third])
    report = refused_claim(altered, "illegal", 0, where=f"record {index}:", follow=follow)
    assert "forfeit" in report.problem
    assert product_refuses(altered), "the product must refuse it too"
    # The replica refuses to be made for it, as the games refuse a bad option.
    with pytest.raises(ValueError):
        replica.Replica(None, GAME_ID, [third] * 3, "", dict(ruleset, players=3))


# The replica driven directly: a 2-seat probe table (test_escrow.py's), at a table playing a win by
# forfeit unless said otherwise.

def probe_game():
    return probe.Probe(2)


def forfeit_table(plays=True):
    table = Table(2)
    table.rep.forfeit_allowed = plays
    return table


def refused_forfeit(rep, seat, code, body=None, signer=None):
    trial = copy.deepcopy(rep)
    with pytest.raises(replica.Fault) as caught:
        trial.apply(seat, {"t": "forfeit"} if body is None else body, signer=seat if signer is None else signer)
    assert (caught.value.code, caught.value.culprit) == (code, seat), str(caught.value)


def test_a_replica_plays_a_win_by_forfeit_only_where_its_ruleset_says_forfeit_true():
    seats = Table(2).rep.seats
    ruleset = {"game": "probe", "players": 2, "options": {}}
    assert not replica.Replica(probe_game(), GAME_ID, seats, "", ruleset).forfeit_allowed
    assert replica.Replica(probe_game(), GAME_ID, seats, "", dict(ruleset, forfeit=True)).forfeit_allowed
    refused_forfeit(forfeit_table(plays=False).rep, 1, "illegal")
    refused_forfeit(forfeit_table(plays=False).rep, 0, "illegal")


def test_a_joiners_forfeit_ends_the_game_with_it_the_winner_and_it_sequences_from_there():
    table = forfeit_table()
    rep = table.rep
    table.play(until=lambda t: t.rep.seq >= 6)
    before, entry = rep.state_hash(), rep.seq
    refused_forfeit(rep, 1, "malformed", body={"t": "forfeit", "winner": 1})
    refused_forfeit(rep, 1, "malformed", body={"t": "forfeit", "seat": 0})
    refused_forfeit(rep, 1, "illegal", signer=0)  # sent to the host, sequenced by it
    assert rep.apply(1, {"t": "forfeit"}, signer=1) == before  # the state hash is the one before it
    assert rep.forfeit == (1, 0, entry) and rep.sequencer == 1 and rep.seq == entry + 1
    assert rep.phase["kind"] == "over"
    assert rep.result() == {"scores": [], "winners": [1], "summary": "a win by forfeit, the other player gone"}
    assert all(rep.due(seat) is None for seat in (0, 1))  # no audit follows
    refused_forfeit(rep, 1, "illegal")  # over: one claim only
    refused_forfeit(rep, 0, "illegal")


def test_the_hosts_forfeit_is_sequenced_as_its_own_and_it_goes_on_hosting():
    table = forfeit_table()
    rep = table.rep
    table.play(until=lambda t: t.rep.seq >= 9)
    before, entry = rep.state_hash(), rep.seq
    refused_forfeit(rep, 0, "illegal", signer=1)  # sequenced by another seat than its author
    assert rep.apply(0, {"t": "forfeit"}, signer=0) == before
    assert rep.forfeit == (0, 1, entry) and rep.sequencer == 0 and rep.result()["winners"] == [0]


def test_no_forfeit_while_a_seat_is_open_nor_once_the_game_is_over():
    table = forfeit_table()
    rep = table.rep
    assert not rep._holds_keys(1)  # before the first deal: seat 1 can be opened as it is
    open_one = copy.deepcopy(rep)
    open_one.apply(0, {"t": "open-seat", "seat": 1})
    assert open_one.open == {1: 0}
    refused_forfeit(open_one, 0, "illegal")  # the game goes on with its bot
    table.play()
    assert rep.phase["kind"] == "over" and rep.forfeit is None
    refused_forfeit(rep, 0, "illegal")
    refused_forfeit(rep, 1, "illegal")


# --- a seat opened with a choice committed while the phase is not opening yet (§B14, protocol 7) ---

def torpedo_board(seed, reach=False):
    """Two Torpedo captains played by the product's quick heuristic bot (which plays an open seat too)."""
    from p2pgames.bots import bot_for
    game = get_game("torpedo")
    board = switchboard.Switchboard("torpedo", 2, seed=seed, reach=reach,
                                    bots=[bot_for(game, seed + bytes([seat]), "heuristic") for seat in (0, 1)])
    for session in board.sessions:
        session.open_seat_bot = "heuristic"
    return board


def commit_alone(board, seat):
    """Play until a choice phase begins (the captains' builds) and have only `seat`'s bot commit."""
    from p2pgames.session._replica import CHOICE_DOMAIN, CommitPhase

    def choosing():
        rep = board.sessions[seat].replica
        return (rep is not None and isinstance(rep.phase, CommitPhase) and rep.phase.purpose == CHOICE_DOMAIN
                and not rep.phase.commitments and board.sessions[seat].decision(texts=False) is not None)

    board.run(until=choosing)
    session = board.sessions[seat]
    step = session.decision(texts=False).step
    session.act(board.bots[seat].choose(session.game, session.replica.state, seat, session.knowledge, step))
    board.run(play=False)


@pytest.mark.parametrize("gone", [0, 1])
def test_a_captain_gone_having_committed_alone_is_opened_as_it_is_and_its_bot_chooses_again(gone):
    """Two captains, no escrow (§C8): the one that committed alone to its build vanishes; the
    other opens its seat — the host's by a take-over (§B15) —, its commitment is dropped and its
    caretaker commits anew before any opening (§B14, protocol 7). The independent verifier
    follows it to the end."""
    board = torpedo_board(b"indep-committed-alone" + bytes([gone]), reach=True)
    commit_alone(board, gone)
    left = 1 - gone
    session = board.sessions[left]
    (board.kill if gone == 0 else board.cut)(gone)
    board.run(play=False)
    session.open_seat(gone)
    board.flush()
    board.run()
    assert session.result is not None and session.fault is None
    report = transcript.verify(bytes(board.transcripts[left]))
    assert report.ok and report.followed and report.result is not None, report.problem
    [entry] = report.open_seats.values()
    assert report.open_seats == {gone: entry} and report.rebuilt == {}
    kinds = [(seat, body["t"]) for seat, body in report.bodies]
    assert kinds[:entry] == [(gone, "commit")]  # its commitment, alone, before it opened
    assert kinds[entry] == ((left, "take-over") if gone == 0 else (left, "open-seat"))
    if gone == 0:
        assert report.hosts == [[0, 0], [entry, 1]]
    # Then both commit again (the caretaker for the open seat), and only then does anyone open.
    first_open = kinds.index(next(k for k in kinds if k[1] == "open"))
    assert sorted(kinds[entry + 1:first_open]) == [(0, "commit"), (1, "commit")]
    assert report.bodies[entry + 1:first_open] and all(
        body["commitment"] != report.bodies[0][1]["commitment"] for _s, body in report.bodies[entry + 1:first_open])


def consent_inserted(data, seed, at):
    """`data`'s records up to its entry `at`, then an entry `at` of seat 0 (the host) consenting to
    opening seat 1, signed with the board's keys as its sessions sign."""
    private = [reproducible_bytes(seed + bytes([seat]))(32) for seat in (0, 1)]
    items = [(kind, value) for _i, kind, value in transcript.records(data)]
    start = opened(next(value for kind, value in items if kind == "start"))
    assert [wire.public_key(p) for p in private] == [s[0] for s in start.body["seats"]]
    positions = [i for i, (kind, _value) in enumerate(items) if kind == "entry"]
    before = opened(items[positions[at - 1]][1])
    counter = sum(1 for i in positions[:at] if opened(opened(items[i][1]).body["submission"]).body["seat"] == 0)
    submission = wire.make_envelope(private[0], "submit", {
        "game_id": start.body["game_id"], "seat": 0, "counter": counter, "based_on": at,
        "body": {"t": "open-seat", "seat": 1}})
    entry = wire.make_envelope(private[0], "entry", {"game_id": before.body["game_id"], "seq": at,
                                                      "prev": before.digest, "state": before.body["state"],
                                                      "submission": submission})
    return file_of(items[:positions[at]] + [("entry", entry)])


def test_a_consent_to_opening_a_seat_whose_choice_waits_in_a_phase_opening_is_illegal():
    """Seat 1 committed first, then seat 0: the phase is opening (every seat has committed, §B5)
    and seat 1 has not opened, so the host's consent to opening it is `illegal` (§B14), its
    fault; one commitment earlier (seat 0's not in), the same consent opens seat 1 as it is."""
    seed = b"indep-opening"
    board = torpedo_board(seed)
    commit_alone(board, 1)
    board.run()
    data = bytes(board.transcripts[0])
    bodies = transcript.verify(data).bodies
    assert [(s, b["t"]) for s, b in bodies[:3]] == [(1, "commit"), (0, "commit"), (0, "open")]
    report = transcript.verify(consent_inserted(data, seed, 1))
    assert report.ok and report.open_seats == {1: 1} and report.entries == 2, report.problem
    product = verify_transcript(consent_inserted(data, seed, 1), get_game)
    assert product.ok and product.open_seats == {1: 1}, product.describe()
    report = transcript.verify(consent_inserted(data, seed, 2))
    assert not report.ok and (report.code, report.culprit) == ("illegal", 0), report.problem
    assert report.problem.startswith("entry 2:"), report.problem
    assert not verify_transcript(consent_inserted(data, seed, 2), get_game).ok
