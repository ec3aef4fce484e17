"""Whom ``p2pgames verify`` blames for a record that is wrong but correctly signed.

Damage to a file (a flipped bit, a record dropped, repeated or moved) proves nothing about any
player; a correctly signed message that breaks the rules proves its signer's fault. Only the host
signs entries, and an honest host signs one entry per number, each linked to the one before: so a
host-signed entry that contradicts the log is the host's fault, never damage. Here the host (and
the players) are cheaters we control: the probe vector re-signed with the keys its generator
derives from its seed, and a live game whose host sends one joiner an entry of its own making.
"""

from __future__ import annotations

from typing import Any, Callable

from switchboard import Switchboard
from test_transcript_texts import ACK, ENTRY_5, HEADER, described, file_of, flip, records

from p2pgames import canonical
from p2pgames.crypto import Identity, reproducible_bytes
from p2pgames.games import get_game
from p2pgames.session import iter_records, make_envelope, open_envelope, verify_transcript
from p2pgames.session._messages import SIGNATURE_DOMAIN

# The vector's players, as scripts/make_session_vectors.py seeds them (Switchboard, seed b"vector").
KEYS = [Identity.generate(reproducible_bytes(b"vector" + bytes([seat]))(32)) for seat in range(3)]
HOST = KEYS[0]


def resigned(raw: bytes, change: Callable[[dict], Any], signer: Identity = HOST) -> bytes:
    """The envelope in ``raw`` with its body changed by ``change`` and signed again by ``signer``."""
    envelope = open_envelope(raw)
    body = dict(envelope.body)
    change(body)
    return make_envelope(signer, envelope.kind, body).raw


def with_entry_5(change: Callable[[dict], Any]) -> list[tuple[str, Any]]:
    """The vector's records with entry 5 changed by ``change`` and signed by the host."""
    items = records()
    items[ENTRY_5 - 1] = ("entry", resigned(items[ENTRY_5 - 1][1], change))
    return items


def fault_record(code: str, reason: str, seq: int, *evidence: bytes, reporter: int | None = None) -> tuple:
    return ("fault", {
        "culprit": 0, "code": code, "reason": reason, "seq": seq, "reporter": reporter, "evidence": list(evidence),
    })


def checked(entries: int, signatures: int, acks: int) -> str:
    return (
        f"Checked {entries} log entries ({signatures} signatures, every chain link, every rule), "
        f"{acks} state-hash acknowledgements, no deal audits and no chat lines."
    )


def head_before_entry_5() -> str:
    return open_envelope(records()[ENTRY_5 - 1][1]).body["prev"].hex()[:12]


def test_the_keys_are_the_vectors():
    start = open_envelope(records()[1][1])
    assert [seat[0] for seat in start.body["seats"]] == [key.public_key.raw for key in KEYS]


# -- the host breaks its chain: its own signature proves it ------------------------------------------


def test_an_entry_with_its_number_but_another_link_is_the_hosts_fault():
    """Entry 5 linked to something other than entry 4: the host signed a fork (it sent someone
    else another entry 4, or lies about it). No damage can make this: a dropped, repeated or moved
    record shows a wrong number."""
    items = with_entry_5(lambda body: body.update(prev=bytes(32)))
    report = verify_transcript(file_of(items), get_game)
    assert report.failure is not None and (report.failure.culprit, report.failure.code) == (0, "bad-sequence")
    assert report.describe() == "\n".join([
        HEADER,
        checked(6, 150, 15),
        f"FAILED at entry 5: p0 (seat 0) — sent entry 5 out of order (expected 5 after {head_before_entry_5()}).",
        "NOT verified.",
    ])


def test_the_joiners_own_record_of_it_is_confirmed():
    """An honest joiner records the entry, then the fault it halted on (with the entry as
    evidence): the file proves the host's fault, and verifies."""
    items = with_entry_5(lambda body: body.update(prev=bytes(32)))[:ENTRY_5]
    items.append(fault_record("bad-sequence", "sent entry 5 out of order", 5, items[-1][1]))
    report = verify_transcript(file_of(items), get_game)
    assert report.ok and report.stop_confirmed
    assert report.describe() == "\n".join([
        HEADER,
        checked(6, 22, 13),
        "The game stopped after 5 log entries: p0 (seat 0) — sent entry 5 out of order; "
        "confirmed from the signed evidence.",
        "Verified.",
    ])


def test_an_entry_linked_to_the_last_one_under_another_number_is_the_hosts_fault():
    items = with_entry_5(lambda body: body.update(seq=7))
    report = verify_transcript(file_of(items), get_game)
    assert not report.damage and report.failure is not None
    assert (report.failure.culprit, report.failure.code) == (0, "bad-sequence")
    assert f"FAILED at entry 5: p0 (seat 0) — sent entry 7 out of order (expected 5 after {head_before_entry_5()})." \
        in report.describe()


def test_an_entry_of_another_game_linked_into_this_log_is_the_hosts_fault():
    items = with_entry_5(lambda body: body.update(game_id=bytes(32)))
    report = verify_transcript(file_of(items), get_game)
    assert not report.damage and report.failure is not None
    assert (report.failure.culprit, report.failure.code) == (0, "replay")
    assert "FAILED at entry 5: p0 (seat 0) — sent a log entry of another game." in report.describe()


def test_a_second_different_entry_with_a_number_already_in_the_log_is_the_hosts_fault():
    """The host signed two entries 5: proof of a fork, whatever else the file holds."""
    items = records()
    second = resigned(items[ENTRY_5 - 1][1], lambda body: body.update(state=bytes(32)))
    items.insert(ENTRY_5, ("entry", second))
    report = verify_transcript(file_of(items), get_game)
    assert not report.damage and report.failure is not None
    assert (report.failure.culprit, report.failure.code, report.failure.seq) == (0, "bad-sequence", 6)


def test_an_entry_linked_to_an_older_one_under_another_number_is_the_hosts_fault():
    """Entry 5's number, linked to entry 2 (whose successor is entry 3 in the log)."""
    items = records()
    entry_3 = open_envelope(items[12 - 1][1])
    assert entry_3.body["seq"] == 3
    items = with_entry_5(lambda body: body.update(prev=entry_3.body["prev"], seq=9))
    report = verify_transcript(file_of(items), get_game)
    assert not report.damage and report.failure is not None
    assert (report.failure.culprit, report.failure.code) == (0, "bad-sequence")


def test_a_malformed_entry_the_host_signed_is_the_hosts_fault():
    """No damage gives a record whose body breaks the schema but whose host signature verifies."""
    items = records()
    envelope = open_envelope(items[ENTRY_5 - 1][1])
    body = dict(envelope.body, state=bytes(31))
    signed = [envelope.kind, HOST.public_key.raw, body]
    raw = canonical.encode({
        "kind": envelope.kind, "sender": HOST.public_key.raw, "body": body, "sig": HOST.sign(SIGNATURE_DOMAIN, signed),
    })
    items[ENTRY_5 - 1] = ("entry", raw)
    report = verify_transcript(file_of(items), get_game)
    assert not report.damage and report.failure is not None
    assert (report.failure.culprit, report.failure.code, report.failure.seq) == (0, "malformed", 5)
    assert "FAILED at entry 5: p0 (seat 0) — sent a malformed log entry: entry field 'state' is not valid" \
        in report.describe()


def test_an_entry_whose_state_the_replay_does_not_reach_is_the_hosts_fault():
    items = with_entry_5(lambda body: body.update(state=bytes(32)))
    report = verify_transcript(file_of(items), get_game)
    assert not report.damage
    assert "FAILED at entry 5: p0 (seat 0) — claimed a different state after entry 5." in report.describe()


def test_an_old_submission_the_host_sequenced_again_is_the_hosts_fault():
    items = records()
    entry_2 = open_envelope(items[10 - 1][1])
    assert entry_2.body["seq"] == 2
    items = with_entry_5(lambda body: body.update(submission=entry_2.body["submission"]))
    report = verify_transcript(file_of(items), get_game)
    assert not report.damage and report.failure is not None
    assert (report.failure.culprit, report.failure.code) == (0, "replay")
    assert "p0 (seat 0) — replayed an old submission (counter 0, expected 2)" in report.describe()


def test_a_submission_its_author_did_not_sign_inside_a_host_signed_entry_is_the_hosts_fault():
    def forged(body: dict) -> None:
        submission = body["submission"]
        body["submission"] = flip(submission, len(submission) - 1)  # its author's signature

    report = verify_transcript(file_of(with_entry_5(forged)), get_game)
    assert not report.damage and report.failure is not None
    assert (report.failure.culprit, report.failure.code) == (0, "bad-signature")


# -- a player cheats inside a correctly signed entry: the player's signature proves it -----------------


def test_a_correctly_signed_bad_opening_inside_an_entry_is_its_authors_fault():
    """Entry 5 is p2's opening of its random contribution: p2 opens another value."""
    def other_value(body: dict) -> None:
        body["submission"] = resigned(body["submission"], lambda inner: inner["body"].update(value=bytes(32)), KEYS[2])

    report = verify_transcript(file_of(with_entry_5(other_value)), get_game)
    assert not report.damage
    assert report.describe() == "\n".join([
        HEADER,
        checked(6, 150, 15),
        "FAILED at entry 5: p2 (seat 2) — opened a commitment with a different value than it committed to.",
        "NOT verified.",
    ])


def test_a_correctly_signed_move_out_of_turn_inside_an_entry_is_its_authors_fault():
    """p1 (who opened at entry 4) opens again at entry 5, where p2 is due."""
    def out_of_turn(body: dict) -> None:
        def as_p1(inner: dict) -> None:
            inner.update(seat=1, counter=2)

        body["submission"] = resigned(body["submission"], as_p1, KEYS[1])

    report = verify_transcript(file_of(with_entry_5(out_of_turn)), get_game)
    assert not report.damage
    assert "FAILED at entry 5: p1 (seat 1) — sent an open submission out of turn." in report.describe()


def test_an_acknowledgement_of_another_game_is_damage_not_its_signers_fault():
    """p2 signed it, but for another game: an honest keeper never records one, and what it says
    about that game's entry 5 proves nothing about this one's."""
    items = records()
    items[ACK - 1] = ("ack", resigned(items[ACK - 1][1], lambda body: body.update(
        game_id=bytes(32), entry=bytes(32)), KEYS[2]))
    report = verify_transcript(file_of(items), get_game)
    assert report.failure is None and report.complete and not report.ok
    assert "FAILED: the file is damaged or was altered: record 25, a state-hash acknowledgement in the name of " \
        "p2 (seat 2), is of another game; this proves nothing about any player." in report.describe()


def acknowledged_another_entry_5() -> list[tuple[str, Any]]:
    """The vector with p2's acknowledgement of entry 5 naming another entry 5 (with the state
    this log gives): p2 signed it, but the host may have sent p2 another entry 5."""
    items = records()
    items[ACK - 1] = ("ack", resigned(items[ACK - 1][1], lambda body: body.update(entry=bytes(32)), KEYS[2]))
    return items


FORK = (
    "PROBLEM: p2 (seat 2) acknowledged another entry 5 than the one in this log: the host sent it a "
    "different one, or it misstates what it received; no signature here says which"
)


def test_an_acknowledgement_of_another_entry_names_nobody():
    """Only the host signs entries: p2's word that it got another entry 5 proves either the host
    forked the log or p2 lies, and nothing here says which. A different state for the same entry
    is p2's proven fault (test_transcript_texts)."""
    report = verify_transcript(file_of(acknowledged_another_entry_5()), get_game)
    assert report.failure is None and not report.damage and not report.ok and report.complete
    assert report.describe() == "\n".join([
        HEADER,
        "Checked 68 log entries (276 signatures, every chain link, every rule), 203 state-hash acknowledgements, "
        "1 deal audit and no chat lines.",
        FORK,
        "Result: p2 (seat 2) won — 2 points; scores p0: 1, p1: 1, p2: 2.",
        "NOT verified.",
    ])


def test_an_acknowledgement_of_another_entry_is_explained_by_the_keepers_desync():
    items = acknowledged_another_entry_5()[:ACK]
    items.append(("fault", {
        "culprit": 2, "code": "desync", "reason": "p2 (seat 2) reached a different state after entry 5",
        "seq": 6, "reporter": None, "evidence": [],
    }))
    report = verify_transcript(file_of(items), get_game)
    assert report.ok and not report.stop_confirmed
    assert report.describe().splitlines()[2:] == [
        "The game stopped after 6 log entries: p2 (seat 2) reached a different state after entry 5; "
        "as seen by p1 (seat 1), who kept this transcript — their word, which the signed log can neither prove nor disprove.",
        "Verified.",
    ]


# -- damage stays damage -------------------------------------------------------------------------------


def test_a_repeated_entry_is_damage():
    items = records()
    items.insert(ENTRY_5, items[ENTRY_5 - 1])
    report = verify_transcript(file_of(items), get_game)
    assert report.failure is None and not report.ok
    assert "FAILED at entry 6: the file is damaged or was altered: record 20 holds entry 5 " \
        "(a record is missing, repeated or out of order); this proves nothing about any player." in report.describe()


def test_entries_out_of_order_are_damage():
    items = records()
    items[ENTRY_5 - 1], items[21 - 1] = items[21 - 1], items[ENTRY_5 - 1]  # entries 5 and 6
    report = verify_transcript(file_of(items), get_game)
    assert report.failure is None and not report.ok
    assert "FAILED at entry 5: the file is damaged or was altered: record 19 holds entry 6" in report.describe()


def test_an_entry_of_another_game_linked_to_nothing_here_is_damage():
    items = with_entry_5(lambda body: body.update(game_id=bytes(32), prev=bytes(32)))
    report = verify_transcript(file_of(items), get_game)
    assert report.failure is None and not report.ok
    assert "FAILED at entry 5: the file is damaged or was altered: record 19 is an entry of another game" \
        in report.describe()


# -- a live game whose host sends one joiner an entry of its own making --------------------------------


def equivocating_game(change: Callable[[dict], Any] = lambda body: body.update(prev=bytes(32))) -> tuple[Switchboard, bytes]:
    """A 3-player Probe game whose host sends p1 (only) its entry 5 changed by ``change`` (by
    default: linked to nothing it sent); the forged entry is returned with the board."""
    board = Switchboard("probe", 3)

    def entry_5_for_p1() -> int | None:
        board.flush()
        for index, (direction, seat, _connection, data) in enumerate(board.queue):
            if direction == "down" and seat == 1:
                envelope = open_envelope(data)
                if envelope.kind == "entry" and envelope.body["seq"] == 5:
                    return index
        return None

    board.run(until=lambda: entry_5_for_p1() is not None)
    index = entry_5_for_p1()
    assert index is not None
    direction, seat, connection, data = board.queue[index]
    forged = resigned(data, change, board.host.identity)
    board.queue[index] = (direction, seat, connection, forged)
    board.run()
    return board, forged


def test_a_live_fork_is_proven_in_every_transcript():
    board, forged = equivocating_game()
    stopped = "The game stopped after {} log entries: p0 (seat 0) — {}; confirmed from the signed evidence."
    seen = board.sessions[1].fault
    assert seen is not None and (seen.culprit, seen.code) == (0, "bad-sequence")
    reason = seen.reason
    # p1 halted on the entry it recorded, with the entry as evidence.
    text = described(bytes(board.transcripts[1]))
    assert text.splitlines()[2:] == [stopped.format(5, reason), "Verified."], text
    # The host and p2 stopped on p1's report. Its evidence, the host-signed entry, contradicts
    # their own logs (there is another entry 5 in them): they prove it live, as a verifier of their
    # transcripts does, so p1, who reported it, is not the one named for stopping the game (§B9).
    for seat in (0, 2):
        fault = board.sessions[seat].fault
        assert (fault.culprit, fault.code, fault.reporter) == (0, "bad-sequence", None), fault
        report = verify_transcript(bytes(board.transcripts[seat]), get_game)
        assert report.ok and report.stopped is not None and report.stop_confirmed, report.describe()
        assert (report.stopped.culprit, report.stopped.code, report.stopped.reporter) == (0, "bad-sequence", None)
        assert report.describe().splitlines()[-2:] == [stopped.format(report.stopped.seq, reason), "Verified."]


def test_a_live_fork_without_the_joiners_record_names_the_host():
    board, forged = equivocating_game()
    items = [item for item in iter_records(bytes(board.transcripts[1])) if item[0] != "fault"]
    report = verify_transcript(file_of(items), get_game)
    assert report.failure is not None and (report.failure.culprit, report.failure.code) == (0, "bad-sequence")
    assert not report.damage and not report.ok


def test_a_damaged_record_of_a_live_fork_is_damage_but_the_intact_evidence_still_proves_it():
    """A bit flipped on disk in the forged entry's record: that record proves nothing, but the
    fault record beside it holds the entry as received, which still proves the host's fault."""
    board, forged = equivocating_game()
    items = list(iter_records(bytes(board.transcripts[1])))
    number = items.index(("entry", forged))
    items[number] = ("entry", flip(forged, len(forged) - 1))
    report = verify_transcript(file_of(items), get_game)
    assert report.failure is None and report.stop_confirmed and not report.ok
    lines = report.describe().splitlines()
    assert lines[2] == (
        f"FAILED at entry 5: the file is damaged or was altered: record {number + 1} has a signature that "
        "does not verify; this proves nothing about any player."
    )
    assert lines[3].startswith("The game stopped after 5 log entries: p0 (seat 0) — sent entry 5 out of order")
    assert lines[3].endswith("; confirmed from the signed evidence.")
    assert lines[4] == "NOT verified."


def test_a_live_fork_the_victim_applied_blames_nobody_in_the_others_transcripts():
    """The host sends p1 another entry 5, correctly linked (only its state claim differs), which p1
    applies and acknowledges. Its signed acknowledgement of another entry 5 is all the others see:
    it proves nothing against p1 (the host may have sent it, as here), so their transcripts show
    the desync they stopped on as their own word, not as p1's proven fault."""
    board, forged = equivocating_game(lambda body: body.update(state=bytes(32)))
    for seat in (0, 2):
        report = verify_transcript(bytes(board.transcripts[seat]), get_game)
        assert report.failure is None and report.ok, report.describe()
        assert report.stopped is not None and report.stopped.code == "desync" and not report.stop_confirmed
        assert report.describe().splitlines()[-2].endswith(f"as seen by p{seat} (seat {seat}), who kept this transcript — their word, which the signed log can neither prove nor disprove.")
    # p1 holds the forged entry: its state claim is the host's proven fault.
    report = verify_transcript(bytes(board.transcripts[1]), get_game)
    assert report.describe().splitlines()[2:] == [
        "FAILED at entry 5: p0 (seat 0) — claimed a different state after entry 5.",
        "NOT verified.",
    ]


def test_an_entry_record_that_does_not_open_is_damage_whatever_fault_follows_it():
    """A joiner records only the entry envelopes it opens, so a fault record can't explain one
    that doesn't (here 'entry' became 'dntry', and the fault record says the host sent it)."""
    items = records()[:ENTRY_5]
    raw = items[-1][1]
    items[-1] = ("entry", flip(raw, raw.index(b"\xa5entry") + 1))
    items.append(fault_record("malformed", "sent a malformed log entry", 5))
    report = verify_transcript(file_of(items), get_game)
    assert not report.ok and report.damage
    assert report.describe().splitlines()[2] == (
        "FAILED at entry 5: the file is damaged or was altered: record 19 is not a well-formed message "
        "(unknown message kind 'dntry'); this proves nothing about any player."
    )


def host_relays_a_badly_signed_acknowledgement() -> Switchboard:
    from p2pgames.session._session import ACK_RECORD_INTERVAL

    """A 3-player Probe game whose host passes on to p1 an acknowledgement of p2's with a flipped
    bit in its signature (in an ``acks`` message the host signs: §B8): of entry
    ``ACK_RECORD_INTERVAL``, which p1's transcript keeps (p2's latest when it writes them, §B11)."""
    board = Switchboard("probe", 3)

    def acks_of_p2_for_p1() -> tuple[int, int] | None:
        board.flush()
        for index, (direction, seat, _connection, data) in enumerate(board.queue):
            if direction == "down" and seat == 1:
                envelope = open_envelope(data)
                if envelope.kind == "acks":
                    for place, item in enumerate(envelope.body["acks"]):
                        if item[0] == 2 and item[1] == ACK_RECORD_INTERVAL:
                            return index, place
        return None

    board.run(until=lambda: acks_of_p2_for_p1() is not None)
    found = acks_of_p2_for_p1()
    assert found is not None
    index, place = found
    direction, seat, connection, data = board.queue[index]
    body = dict(open_envelope(data).body)
    items = [list(item) for item in body["acks"]]
    items[place][4] = flip(items[place][4], 63)
    forged = make_envelope(board.sessions[0].identity, "acks", {**body, "acks": items})
    board.queue[index] = (direction, seat, connection, forged.raw)
    board.run()
    return board


def test_a_badly_signed_acknowledgement_the_host_relayed_is_not_called_mere_damage():
    """p1 records relayed acknowledgements before checking them, and only the latest of each seat
    is checked (§B8): p2's next one superseded the forged one, so the game went on. Nothing proves
    who made it, but the report says the host may have relayed it so."""
    board = host_relays_a_badly_signed_acknowledgement()
    assert all(session.fault is None for session in board.sessions)
    report = verify_transcript(bytes(board.transcripts[1]), get_game)
    assert report.failure is None and report.complete and not report.ok
    [(entry, text)] = report.damage
    assert text.endswith(
        "a state-hash acknowledgement in the name of p2 (seat 2), has a signature that does not verify "
        "(unless the host relayed it so: a joiner records relayed acknowledgements unchecked)"
    )


def test_a_badly_signed_relayed_acknowledgement_is_explained_by_the_keepers_stop_on_the_host():
    """When p1 does check it (here: the file ends with p1's stop on the host's bad signature, as it
    would at a checkpoint), the file is p1's consistent report: the stop, as p1 saw it."""
    board = host_relays_a_badly_signed_acknowledgement()
    items = list(iter_records(bytes(board.transcripts[1])))
    damaged = verify_transcript(bytes(board.transcripts[1]), get_game).damage[0][1]
    number = int(damaged.split(",")[0].removeprefix("record "))
    items = items[:number]
    items.append(fault_record(
        "bad-signature", "the host relayed a message in p2 (seat 2)'s name that it did not sign", 5,
    ))
    report = verify_transcript(file_of(items), get_game)
    assert report.ok and not report.damage and not report.stop_confirmed
    assert report.describe().splitlines()[-2].endswith("as seen by p1 (seat 1), who kept this transcript — their word, which the signed log can neither prove nor disprove.")


def test_a_recorded_fault_its_evidence_proves_is_confirmed_beside_another_verdict_of_the_replay():
    """The replay stops on the host's forgery at entry 5; the record names another fault, p2's
    opening of another value, with p2's signed opening as evidence. Both are proven: the report
    shows both, and fails (the record does not name what the log shows)."""
    def forged(body: dict) -> None:
        submission = body["submission"]
        body["submission"] = flip(submission, len(submission) - 1)

    items = with_entry_5(forged)[:ENTRY_5]
    opening = open_envelope(records()[ENTRY_5 - 1][1]).body["submission"]  # p2's, as it signed it
    other = resigned(opening, lambda inner: inner["body"].update(value=bytes(32)), KEYS[2])
    items.append(("fault", {
        "culprit": 2, "code": "bad-opening", "reason": "opened a commitment with a different value than it committed to",
        "seq": 5, "reporter": None, "evidence": [other],
    }))
    report = verify_transcript(file_of(items), get_game)
    assert report.failure is not None and (report.failure.culprit, report.failure.code) == (0, "bad-signature")
    assert report.stop_confirmed and not report.ok
    assert report.describe().splitlines()[-2:] == [
        "The game stopped after 5 log entries: p2 (seat 2) — opened a commitment with a different value than it "
        "committed to; confirmed from the signed evidence.",
        "NOT verified.",
    ]
