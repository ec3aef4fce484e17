"""Misbehaviour over loopback that the honest peers can't pin on one seat by its signature, or
that they can: an accusation without proof, a wrong or a second acknowledgement, a submission in
another seat's name, a skipped counter (issue 11, holes 1, 3 and 4; protocol/SPEC.md §B8, §B9).

An unproven accusation never makes the seat it names the culprit: every peer records it as the
accuser's claim, in the accuser's own (cleaned) words, and names the accuser as the one who stopped
the game, as a leave names the leaver (issue 23, point 5); the transcripts verify and say so. A transcript that ends in a desync verifies when the recorded acknowledgements bear it out.
"""

import pytest
from cheaters import DoubleAck, FalseAccuser, SignedAsAnother, SkippedCounter, WrongAck
from test_cheaters import CHEATER_SEAT, check_caught, play_with_cheater

from p2pgames import canonical
from p2pgames.games import get_game
from p2pgames.session import FaultCode, iter_records, verify_transcript

VICTIM = 2  # an honest seat the cheater accuses


def fault_record(path) -> dict:
    return [value for kind, value in iter_records(path.read_bytes()) if kind == "fault"][-1]


def accuser(code: str, evidence: tuple[bytes, ...] = (), victim: int | None = VICTIM) -> type:
    return type("Accuser", (FalseAccuser,), {"code": code, "evidence": evidence, "victim": victim})


@pytest.mark.parametrize(
    "code, evidence, victim",
    [
        ("illegal", (), VICTIM),  # a provable code, but no evidence
        ("oversize", (), VICTIM),  # nothing can prove it
        ("bad-signature", (b"\x93 not a message",), VICTIM),  # a badly signed frame proves nothing
        ("left", (), VICTIM),
        ("no-such-code", (), VICTIM),
        ("oversize", (), None),  # nobody named: before, it stopped the game with nobody blamed
        ("illegal", (), None),
    ],
)
async def test_an_accusation_without_proof_names_the_accuser_as_the_one_who_stopped_the_game(
    tmp_path, autojump_clock, code, evidence, victim
):
    table, sessions = await play_with_cheater(tmp_path, accuser(code, evidence, victim))
    assert sessions[CHEATER_SEAT].cheated
    accused = "someone" if victim is None else "honest-2 (seat 2)"
    for seat in (0, VICTIM):
        session = sessions[seat]
        fault = session.fault
        assert session.stage == "halted", (seat, fault)
        # Live: the accuser's claim; the accuser stopped the game, the accused is only accused.
        assert (fault.culprit, fault.accused, fault.reporter, fault.code) == (CHEATER_SEAT, victim, CHEATER_SEAT, code), fault
        shown = f"The game stopped: {fault.describe(session.names)}."  # what the Halted event says
        assert shown.startswith(f"The game stopped: cheater (seat 1) stopped the game, claiming {accused} "), shown
        assert "“I say so [31m honest-2 (seat 2) cheated”" in shown and shown.endswith(
            "; the claim is unproven."
        ), shown
        assert "\x1b" not in shown and "\n" not in shown
        # In the transcript: the accuser the culprit, the accused and the reporter in their own fields.
        record = fault_record(table.seats[seat].transcript)
        assert (record["culprit"], record["accused"], record["reporter"]) == (CHEATER_SEAT, victim, CHEATER_SEAT), record
        # And as verify tells it.
        report = verify_transcript(table.seats[seat].transcript.read_bytes(), get_game)
        assert report.ok and not report.stop_confirmed, report.describe()
        assert (report.stopped.culprit, report.stopped.accused) == (CHEATER_SEAT, victim)
        text = report.describe()
        assert f"cheater (seat 1) stopped the game, claiming {accused} " in text, text
        assert text.splitlines()[-2].endswith("; the claim is unproven."), text
        assert "honest-2 (seat 2) —" not in text and "honest-2 (seat 2):" not in text, text


async def test_a_wrong_acknowledgement_stops_the_game_and_every_transcript_verifies(tmp_path, autojump_clock):
    """Seat 1 acknowledges entry 4 with a state it did not reach: every honest peer stops on a
    desync naming it, and their transcripts verify, saying the game stopped there."""
    table, sessions = await play_with_cheater(tmp_path, WrongAck)
    for seat in (0, VICTIM):
        fault = sessions[seat].fault
        assert (fault.culprit, fault.code, fault.seq) == (CHEATER_SEAT, FaultCode.DESYNC, WrongAck.at), fault
        report = verify_transcript(table.seats[seat].transcript.read_bytes(), get_game)
        assert report.ok and report.stop_confirmed, report.describe()
        text = report.describe()
        assert text.endswith("\nVerified."), text
        assert f"The game stopped at entry {WrongAck.at}: desync, cheater (seat 1) — peers disagree" in text, text
        assert (
            "replaying the log gives the state honest-0 (seat 0) and honest-2 (seat 2) acknowledged, and "
            "cheater (seat 1) signed another." in text
        ), text
    # The desync reports are kept apart from the transcripts.
    reports = sorted((tmp_path / "reports").glob("desync-*.msgpack"))
    assert reports and not list(tmp_path.glob("desync-*"))
    assert canonical.decode(reports[0].read_bytes())["seq"] == WrongAck.at


async def test_a_recorded_desync_that_names_another_seat_than_the_acknowledgements_do_fails(tmp_path, autojump_clock):
    """verify checks the recorded desync against the recorded acknowledgements: naming another
    seat than the odd one out is not borne out, and the wrong acknowledgement is the verdict."""
    table, sessions = await play_with_cheater(tmp_path, WrongAck)
    from p2pgames.session import encode_record

    items = list(iter_records(table.seats[0].transcript.read_bytes()))
    for index, (kind, value) in enumerate(items):
        if kind == "fault":
            items[index] = (kind, dict(value, culprit=VICTIM))
    data = b"".join(encode_record(canonical.encode([kind, value])) for kind, value in items)
    report = verify_transcript(data, get_game)
    assert not report.ok and report.failure is not None
    assert (report.failure.culprit, report.failure.code) == (CHEATER_SEAT, FaultCode.DESYNC), report.describe()
    assert f"FAILED at entry {WrongAck.at}: cheater (seat 1) — acknowledged entry {WrongAck.at} with a different state." \
        in report.describe()


async def test_a_second_acknowledgement_with_another_state_is_proven_equivocation(tmp_path, autojump_clock):
    table, sessions = await play_with_cheater(tmp_path, DoubleAck)
    check_caught(table, sessions, FaultCode.EQUIVOCATION, provable=True)
    for seat in (0, VICTIM):
        fault = sessions[seat].fault
        assert len(fault.evidence) == 2 and fault.reporter is None, fault  # both acks: proof for anyone
        assert "acknowledged entry 4 twice, with two different states" in fault.reason, fault


async def test_a_second_acknowledgement_of_another_entry_names_nobody(tmp_path, autojump_clock):
    """Two different entries acknowledged under one number: the host may have sent them both (a
    fork), or the seat lies; no signature says which, so nobody is named."""
    twice = type("OtherEntry", (DoubleAck,), {"second": staticmethod(lambda entry, state: (bytes(32), state))})
    table, sessions = await play_with_cheater(tmp_path, twice)
    for seat in (0, VICTIM):
        fault = sessions[seat].fault
        assert sessions[seat].stage == "halted" and (fault.culprit, fault.code) == (None, FaultCode.DESYNC), fault
        assert "no signature says which" in fault.reason
        report = verify_transcript(table.seats[seat].transcript.read_bytes(), get_game)
        assert report.ok, report.describe()


async def test_a_submission_in_another_seats_name_is_a_bad_signature(tmp_path, autojump_clock):
    table, sessions = await play_with_cheater(tmp_path, SignedAsAnother)
    check_caught(table, sessions, FaultCode.BAD_SIGNATURE, provable=False, reported=True)
    assert "signed as seat 2" in sessions[0].fault.reason


async def test_a_submission_that_skips_its_counter_is_out_of_sequence(tmp_path, autojump_clock):
    table, sessions = await play_with_cheater(tmp_path, SkippedCounter)
    check_caught(table, sessions, FaultCode.BAD_SEQUENCE, provable=False, reported=True)
    assert "skipped submissions" in sessions[0].fault.reason
