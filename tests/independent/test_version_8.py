"""What version 8 of the SPEC added, as the independent peer reads it: a ruleset's `move_time`
(§A4) and a transcript's `notes` record, the writer's word (§B11)."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from . import canon, transcript
from .peer import PROTOCOL
from .wire import _is_ruleset

RULESET = {"game": "probe", "players": 3, "options": {}}
VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors"


def test_since_version_8_a_move_time_of_1_to_86400_seconds():
    assert PROTOCOL >= 8
    assert _is_ruleset({**RULESET, "move_time": 1}) and _is_ruleset({**RULESET, "move_time": 86_400})


@pytest.mark.parametrize("value", [0, 86_401, -1, 1.5, True, "60"])
def test_any_other_move_time_is_malformed(value):
    assert not _is_ruleset({**RULESET, "move_time": value})


def _with_notes(value) -> bytes:
    record = canon.encode(["notes", value])
    return (VECTORS / "session-probe-3p.p2pt").read_bytes() + struct.pack(">I", len(record)) + record


def test_notes_of_one_whole_number_per_seat_verify_as_the_writers_word():
    report = transcript.verify(_with_notes({"clocks": [5, 61, 3]}))
    assert report.ok and report.clocks == [5, 61, 3]


@pytest.mark.parametrize("value", [{"clocks": [5, 61]}, {"clocks": [5, -1, 3]}, {"clocks": [5, True, 3]}, [5, 61, 3]])
def test_notes_of_another_shape_are_damage(value):
    report = transcript.verify(_with_notes(value))
    assert not report.ok and report.code == "damage" and "notes of the wrong shape" in report.problem
