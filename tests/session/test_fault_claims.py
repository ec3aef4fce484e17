"""A fault another seat reports, at the session level: what a peer records and shows for it
(protocol/SPEC.md §B9, §B11). Proved by its evidence: the accused is the culprit. Disproved: the
reporter is. Anything else is the reporter's claim, which blames nobody it names: the reporter
stopped the game on its own word, and is named as the one who stopped it (as a leaver is)."""

from __future__ import annotations

import pytest
from switchboard import Switchboard

from p2pgames import canonical
from p2pgames.games import get_game
from p2pgames.session import FaultCode, encode_record, iter_records, make_envelope, open_envelope, verify_transcript

REPORTER, ACCUSED, LISTENER = 1, 2, 0  # a joiner reports; the host hears it first-hand


def board_after(entries: int) -> Switchboard:
    board = Switchboard("probe", 3, seed=b"claims")
    board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= entries)
    return board


def report(board: Switchboard, culprit: int | None, code: str, reason: str, evidence=()) -> None:
    """Seat REPORTER's signed fault message, delivered to the host as if REPORTER sent it."""
    session = board.sessions[REPORTER]
    message = make_envelope(session.identity, "fault", {
        "game_id": session.game_id, "culprit": culprit, "code": code, "reason": reason,
        "seq": session.replica.seq, "evidence": list(evidence),
    })
    board.host.receive(REPORTER, message.raw)


def records(board: Switchboard, seat: int) -> list:
    board.flush()
    return list(iter_records(bytes(board.transcripts[seat])))


def test_a_claim_is_recorded_apart_and_shown_in_the_reporters_words():
    board = board_after(6)
    report(board, ACCUSED, FaultCode.REPLAY, "p2 (seat 2) sent an old\tmessage")
    fault = board.host.fault
    assert (fault.culprit, fault.accused, fault.reporter, fault.code) == (REPORTER, ACCUSED, REPORTER, "replay")
    assert fault.describe(board.host.names) == (
        "p1 (seat 1) stopped the game, claiming p2 (seat 2) sent an old message again, in its words: "
        "“p2 (seat 2) sent an old message”; the claim is unproven"
    )
    record = [value for kind, value in records(board, LISTENER) if kind == "fault"][-1]
    assert record == {
        "culprit": REPORTER, "accused": ACCUSED, "reporter": REPORTER, "code": "replay",
        "reason": "p2 (seat 2) sent an old message", "seq": record["seq"], "evidence": (),
    }
    board.run()  # the host relayed it: seat 2 records the same claim (about itself)
    assert board.sessions[ACCUSED].fault == fault
    for seat in (LISTENER, ACCUSED):
        verified = verify_transcript(bytes(board.transcripts[seat]), get_game)
        assert verified.ok and (verified.stopped.culprit, verified.stopped.accused) == (REPORTER, ACCUSED), verified.describe()


def test_a_claim_that_names_nobody_names_its_reporter_as_the_one_who_stopped_the_game():
    """A fault message with no culprit and no evidence: before, it stopped the game for everyone
    with nobody blamed, while a leave names the leaver (issue 23, point 5)."""
    board = board_after(6)
    report(board, None, FaultCode.OVERSIZE, "something was too big")
    board.run()
    text = (
        "p1 (seat 1) stopped the game, claiming someone sent an oversize frame, in its words: “something was too "
        "big”; the claim is unproven"
    )
    for seat in (LISTENER, ACCUSED):
        fault = board.sessions[seat].fault
        assert (fault.culprit, fault.accused, fault.reporter) == (REPORTER, None, REPORTER), fault
        assert fault.describe(board.sessions[seat].names) == text
        record = [value for kind, value in records(board, seat) if kind == "fault"][-1]
        assert (record["culprit"], record["accused"], record["reporter"]) == (REPORTER, None, REPORTER), record
        verified = verify_transcript(bytes(board.transcripts[seat]), get_game)
        assert verified.ok and not verified.stop_confirmed, verified.describe()
        assert verified.describe().splitlines()[-2] == f"The game stopped after {fault.seq} log entries: {text}."


def test_a_seat_that_names_itself_is_the_culprit_on_its_own_word():
    board = board_after(6)
    report(board, REPORTER, FaultCode.DESYNC, "my state is not yours")
    fault = board.host.fault
    assert (fault.culprit, fault.reporter, fault.accused) == (REPORTER, REPORTER, REPORTER)
    assert fault.describe(board.host.names) == (
        "p1 (seat 1) reported that it itself reached another state than the others, in its words: “my state is not yours”"
    )
    board.flush()
    verified = verify_transcript(bytes(board.transcripts[LISTENER]), get_game)
    assert verified.ok and (verified.stopped.culprit, verified.stopped.accused) == (REPORTER, REPORTER), verified.describe()


def test_an_accusation_of_a_seat_that_does_not_exist_is_the_reporters_fault():
    board = board_after(6)
    report(board, 7, FaultCode.ILLEGAL, "seat 7 did it")
    fault = board.host.fault
    assert (fault.culprit, fault.code, fault.reporter) == (REPORTER, FaultCode.MALFORMED, None)
    assert fault.reason == "p1 (seat 1) accused seat 7, which does not exist"


def test_a_claim_record_with_no_signed_report_behind_it_does_not_verify():
    """A claim is only as good as the reporter's signed fault message in the file: a record of
    one that no such message backs was altered (or made up)."""
    board = board_after(6)
    report(board, ACCUSED, FaultCode.OVERSIZE, "too big")
    items = [item for item in records(board, LISTENER) if item[0] != "fault-message"]
    data = b"".join(encode_record(canonical.encode([kind, value])) for kind, value in items)
    verified = verify_transcript(data, get_game)
    assert not verified.ok
    assert verified.problems == [
        "the writer's record says p1 (seat 1) reported the fault that stopped the game, but no fault message of "
        "theirs in the file says so"
    ]


@pytest.mark.parametrize("named", [ACCUSED, None, REPORTER])
@pytest.mark.parametrize("written", ["with the accused in culprit", "with culprit nil beside accused"])
def test_a_record_of_an_older_version_is_read_as_the_claim_it_was(named, written):
    """Before claims were recorded apart, a record of another seat's report put the seat it named
    in ``culprit``; then, until the reporter was named as the one who stopped the game, a claim's
    culprit was nil beside ``accused``. Both read as the claim they record: the reporter stopped
    the game."""
    board = board_after(6)
    report(board, named, FaultCode.OVERSIZE, "too big")
    items = records(board, LISTENER)
    for index, (kind, value) in enumerate(items):
        if kind == "fault":
            old = {key: item for key, item in value.items() if key != "accused"}
            if written == "with the accused in culprit":
                items[index] = (kind, dict(old, culprit=named))
            elif named == REPORTER:  # a seat that named itself was the culprit, with no accused
                items[index] = (kind, dict(old, culprit=REPORTER))
            else:
                items[index] = (kind, dict(old, culprit=None, **({} if named is None else {"accused": named})))
    data = b"".join(encode_record(canonical.encode([kind, value])) for kind, value in items)
    verified = verify_transcript(data, get_game)
    assert verified.ok and (verified.stopped.culprit, verified.stopped.accused) == (REPORTER, named), verified.describe()
    said = {
        ACCUSED: "p1 (seat 1) stopped the game, claiming p2 (seat 2) sent an oversize frame, in its words: “too big”; "
                 "the claim is unproven.",
        None: "p1 (seat 1) stopped the game, claiming someone sent an oversize frame, in its words: “too big”; "
              "the claim is unproven.",
        REPORTER: "p1 (seat 1) reported that it itself sent an oversize frame, in its words: “too big”.",
    }
    assert verified.describe().splitlines()[-2].endswith(said[named]), verified.describe()


def test_a_joiner_back_from_a_restart_acknowledges_again_as_before_and_nobody_is_blamed():
    """After a restart a joiner rejoins with nothing and acknowledges every entry again: the same
    acknowledgements (one log gives one state), which are no equivocation."""
    board = board_after(8)
    key = board.sessions[REPORTER].identity.public_key.raw
    board.restart(REPORTER)
    board.run()
    acked: dict[int, set[tuple[bytes, bytes]]] = {}
    twice = set()
    for data in board.received[LISTENER]:
        envelope = open_envelope(data)
        if envelope.kind == "ack" and envelope.sender == key:
            seq = envelope.body["seq"]
            if seq in acked:
                twice.add(seq)
            acked.setdefault(seq, set()).add((envelope.body["entry"], envelope.body["state"]))
    assert twice, "the restarted joiner acknowledged nothing a second time"
    assert all(len(values) == 1 for values in acked.values())
    assert all(session.fault is None and session.stage == "over" for session in board.sessions)
