"""A transcript's `notes` (SPEC §B11): the writer's own record of each seat's thinking time, never
sent nor signed; verify checks its shape and reports it as the writer's word."""

from __future__ import annotations

from pathlib import Path

import pytest

from p2pgames import canonical
from p2pgames.games import get_game
from p2pgames.session import encode_record, verify_transcript

VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors"


def _with_notes(value) -> bytes:
    return (VECTORS / "session-probe-3p.p2pt").read_bytes() + encode_record(canonical.encode(["notes", value]))


def test_notes_of_one_whole_number_per_seat_verify_as_the_writers_word():
    report = verify_transcript(_with_notes({"clocks": [5, 61, 3]}), get_game)
    assert report.ok and report.clocks == [5, 61, 3]
    assert ("Thinking time, as p1 (seat 1)'s program timed it (its word, not proof): p0 0:05, p1 1:01, p2 0:03."
            in report.describe())


@pytest.mark.parametrize("value", [{"clocks": [5, 61]}, {"clocks": [5, -1, 3]}, {"clocks": [5, True, 3]}, [5, 61, 3]])
def test_notes_of_another_shape_are_damage(value):
    report = verify_transcript(_with_notes(value), get_game)
    assert not report.ok and any("the writer's notes, is damaged" in problem for problem in report.problems)
