"""A ``keys`` submission that publishes no key at all — 32 bytes outside [1, n−1] — is its author's
``bad-key`` (SPEC §B6.2), refused when it comes; the submission alone proves it, so every other
peer confirms the host's report instead of taking the host for a false accuser (it did, before
this was checked: the evidence's key could not be read, and the report was called false).
Tests §C5's deck (its published lock keys), which version-10 transcripts use."""

from __future__ import annotations

import functools

from switchboard import Switchboard as _Switchboard

from independent import transcript as independent
from p2pgames import LOCK_DECK_PROTOCOL
from p2pgames.games import get_game
from p2pgames.session import make_envelope, open_envelope, verify_transcript
from p2pgames.session._faults import FaultCode

Switchboard = functools.partial(_Switchboard, protocol=LOCK_DECK_PROTOCOL)  # §C5's deck, protocol 10


def test_a_published_key_that_is_no_scalar_is_proved_to_everyone_by_the_keys_submission():
    board = Switchboard("beltpunk", 3, seed=b"no scalar")
    forged = []

    def no_scalar(seat: int, data: bytes) -> bytes:
        envelope = open_envelope(data)
        body = envelope.body["body"] if envelope.kind == "submit" else {}
        if seat == 1 and body.get("t") == "keys" and body["public"] and not forged:
            public = [list(item) for item in body["public"]]
            public[0][1] = b"\xff" * 32
            forged.append(True)
            return make_envelope(board.sessions[1].identity, "submit", {**envelope.body, "body": {**body, "public": public}}).raw
        return data

    board.tamper = no_scalar
    board.run()
    assert forged
    for seat in (0, 2):
        fault = board.sessions[seat].fault
        assert (fault.culprit, fault.code, fault.reporter) == (1, FaultCode.BAD_KEY, None), (seat, fault)
        report = verify_transcript(bytes(board.transcripts[seat]), get_game)
        assert report.ok and report.stop_confirmed, report.describe()
        assert independent.verify(bytes(board.transcripts[seat])).ok
