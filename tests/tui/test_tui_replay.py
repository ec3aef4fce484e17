"""``p2pgames replay``'s screen (issue 26, point 3): the keys step through the game as the help
line says, and the screen draws the table after the entry it is at."""

from __future__ import annotations

from pathlib import Path

import pytest
from prompt_toolkit.output import DummyOutput

from p2pgames.games import get_presentation
from p2pgames.session import replay_transcript
from p2pgames.tui import ReplayScreen

VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors"


@pytest.fixture(scope="module")
def replay():
    return replay_transcript((VECTORS / "session-beltpunk-2p.p2pt").read_bytes(), get_presentation)


def pressed(replay, pipe, keys: str) -> ReplayScreen:
    screen = ReplayScreen(replay, replay.seat, color=False, input=pipe, output=DummyOutput())
    pipe.send_text(keys)
    screen.run()
    return screen


def test_moves_rounds_start_and_end(replay, pipe, deadline):
    three = replay.next_move(replay.next_move(replay.next_move(0)))
    assert pressed(replay, pipe, "nnnq").index == three
    assert pressed(replay, pipe, "nnnpq").index == replay.previous_move(three)
    second_round = replay.next_round(replay.next_round(0))
    assert pressed(replay, pipe, "]]q").index == second_round
    assert pressed(replay, pipe, "]]n[q").index == second_round
    assert pressed(replay, pipe, "\x1b[F" + "q").index == len(replay.steps) - 1  # End


def test_digits_then_enter_jump_to_that_entry_and_a_shows_every_card(replay, pipe, deadline):
    screen = pressed(replay, pipe, "120\raq")
    assert screen.index == replay.step_of_entry(120) and screen.every_card
    assert "entry 120 of 255" in "".join(text for _, text in screen._title(80, 1)[0])


def test_an_entry_not_in_the_log_is_said_on_the_bottom_line_and_nothing_moves(replay, pipe, deadline):
    screen = pressed(replay, pipe, "n99999\rq")
    assert screen.index == replay.next_move(0)
    assert screen.problem == "there is no entry 99999: the log's entries are 0 to 255"


def test_a_replay_that_stops_at_a_fault_says_why_at_its_end_within_the_screens_width(pipe, deadline):
    stopped = replay_transcript((VECTORS / "session-steamcourt-4p-gone-dispute.p2pt").read_bytes(), get_presentation)
    screen = pressed(stopped, pipe, "\x1b[F" + "q")  # End
    assert screen.index == len(stopped.steps) - 1
    rows = ["".join(text for _, text in row) for row in screen._log(60, None)]
    assert all(len(row) <= 60 for row in rows), rows
    said = " ".join(row.strip() for row in rows)
    assert f"The replay stops here: {stopped.stopped}." in said
