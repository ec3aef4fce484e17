"""Thinking clocks (issue 26, point 5): each seat's thinking time, chess-clock style, in the
title bar — the time the table waited on its decisions, as this peer saw it."""

from __future__ import annotations

from p2pgames.tui._clocks import ThinkingClocks, clocks_text
from p2pgames.tui._text import plain
from tui_tables import FakeSession, terminal_game


def test_a_clock_runs_only_while_its_seat_is_awaited_and_adds_up():
    clocks = ThinkingClocks()
    clocks.update(10.0, (1,))
    assert clocks.total(1, 15.0) == 5.0 and clocks.total(0, 15.0) == 0.0
    clocks.update(15.0, (0,))  # bob moved: alice thinks now
    clocks.update(18.0, (1, 2))  # a simultaneous choice: both run
    clocks.update(30.0, ())  # cards being dealt: nobody's clock runs
    assert [clocks.total(seat, 100.0) for seat in range(3)] == [3.0, 17.0, 12.0]
    assert clocks.running == ()


def test_the_clocks_line_shows_every_seat_or_the_running_ones_and_yours_or_nothing():
    clocks = ThinkingClocks()
    clocks.update(0.0, (1,))
    names = ("alice", "bob", "carol")
    assert clocks_text(clocks, names, 0, 42.0, 80) == "you 0:00 · ▸bob 0:42 · carol 0:00"
    assert clocks_text(clocks, names, 0, 42.0, 20) == "you 0:00 · ▸bob 0:42"
    assert clocks_text(clocks, names, 0, 42.0, 10) == ""
    assert clocks_text(clocks, names, None, 42.0, 80) == "alice 0:00 · ▸bob 0:42 · carol 0:00"  # not seated


def test_the_title_bar_shows_the_clocks_of_a_game_in_play(pipe):
    session = FakeSession()
    game, _ = terminal_game(pipe, session)
    now = [100.0]
    game.clock = lambda: now[0]
    session.deciding, session.waiting = True, (1,)
    game._changed()  # bob's decision is awaited from now on
    now[0] = 142.0
    title = plain(game.screen._title_bar(80)[0])
    assert "you 0:00 · ▸bob 0:42 · carol 0:00  alice · seat 0 of 3" in title and len(title) == 80
    session.deciding = False  # the table deals: bob's clock stands
    game._changed()
    now[0] = 500.0
    assert "you 0:00 · bob 0:42 · carol 0:00  alice" in plain(game.screen._title_bar(80)[0])
    assert "0:42" not in plain(game.screen._title_bar(30)[0])  # no room: the clocks give way


def test_at_a_table_with_a_move_time_the_players_bot_moves_once_the_time_runs_out(pipe, deadline):
    import dataclasses

    from p2pgames.tui import run_terminal_game
    from tui_tables import SizedOutput, Table

    table = Table(pipe)
    table.ruleset = dataclasses.replace(table.ruleset, move_time=1)
    made = {}

    async def script(table: Table) -> None:
        session = table.human.session
        await table.next_decision()
        first = (session.replica.seq, session.replica.counters[session.seat])
        await table.screen.wait_for("Your 1 second for this move ran out: your bot makes it.")
        await table.human.wait_until(lambda: session.replica.counters[session.seat] > first[1])
        made["counter"] = session.replica.counters[session.seat] - first[1]
        made["screen"] = table.screen.text()
        table.type("\x03\x03")

    code = run_terminal_game(table.setup(script), title="Probe", input=table.pipe, output=SizedOutput(), on_screen=table.on_screen)
    assert code == 0
    assert made["counter"] >= 1  # the move was made for the player, and logged as theirs
    assert "› " in made["screen"]


def test_the_clocks_are_kept_in_the_transcripts_notes_and_verify_reports_them_as_the_writers_word(pipe, deadline, tmp_path):
    from p2pgames.games import get_game
    from p2pgames.session import iter_records, verify_transcript
    from p2pgames.tui import run_terminal_game
    from tui_tables import SizedOutput, Table

    table = Table(pipe, transcripts=tmp_path)

    async def script(table: Table) -> None:
        await table.next_decision()
        await table.play_to_the_end()
        await table.screen.wait_for("Press q or Enter to leave")
        table.type("\r")

    code = run_terminal_game(table.setup(script), title="Probe", input=table.pipe, output=SizedOutput(), on_screen=table.on_screen)
    assert code == 0
    [path] = [path for path in tmp_path.glob("*.p2pt") if "alice" in path.name]
    data = path.read_bytes()
    notes = [value for kind, value in iter_records(data) if kind == "notes"]
    assert len(notes) == 1 and len(notes[0]["clocks"]) == 3 and all(type(seconds) is int for seconds in notes[0]["clocks"])
    report = verify_transcript(data, get_game)
    assert report.ok and report.clocks == list(notes[0]["clocks"])
    assert "Thinking time, as alice (seat 0)'s program timed it (its word, not proof): alice 0:" in report.describe()
