"""``p2pgames replay`` on the command line (issue 26, point 3): ``--at N`` prints the table after
entry N and exits; anything wrong is said in one line, with the exit status of its kind."""

from __future__ import annotations

from cli_calls import call
from saved_files import VECTORS

from p2pgames.cli import EXIT_FAILED, EXIT_OK, EXIT_USAGE


def test_at_prints_the_table_after_that_entry_as_the_transcripts_seat_saw_it():
    code, out, err = call("replay", str(VECTORS / "session-astonishing-3p.p2pt"), "--at", "150")
    assert code == EXIT_OK and not err
    lines = out.splitlines()
    assert lines[0] == "Astonishing! · entry 150 of 245 · turn 6 · as p1 (seat 1) saw it"
    assert any(line.strip().startswith("Your workshop") for line in lines)
    assert "Every card" not in out and all(len(line) <= 80 for line in lines)


def test_another_seat_and_every_card():
    path = str(VECTORS / "session-astonishing-3p.p2pt")
    code, out, _ = call("replay", path, "--at", "150", "--seat", "2")
    assert code == EXIT_OK and "as p2 (seat 2) saw it" in out.splitlines()[0]
    code, every, _ = call("replay", path, "--at", "150", "--every-card")
    assert code == EXIT_OK and "Every card" in every and every.splitlines()[0].endswith(" · every card")


def test_an_entry_or_a_seat_not_there_and_a_file_that_is_no_transcript_say_so():
    path = str(VECTORS / "session-probe-3p.p2pt")
    code, _, err = call("replay", path, "--at", "9999")
    assert code == EXIT_USAGE and "--at 9999: there is no entry 9999: the log's entries are 0 to 47" in err
    code, _, err = call("replay", path, "--at", "3", "--seat", "5")
    assert code == EXIT_USAGE and "--seat 5: the game had seats 0 to 2" in err
    code, _, err = call("replay", str(VECTORS / "session-probe-3p.json"), "--at", "3")
    assert code == EXIT_FAILED and "not a transcript that can be replayed" in err
    code, _, err = call("replay", str(VECTORS / "no-such-file.p2pt"), "--at", "3")
    assert code == EXIT_FAILED and "can't read" in err


def test_without_a_terminal_the_screen_is_not_opened_and_at_is_offered(monkeypatch):
    import sys

    monkeypatch.setattr(sys.stdin, "isatty", lambda: False)
    code, _, err = call("replay", str(VECTORS / "session-probe-3p.p2pt"))
    assert code == EXIT_USAGE and "'replay' needs a terminal (without one, --at N prints the table after entry N)" in err
