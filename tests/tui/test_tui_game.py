"""Whole games through the terminal UI: real peers over loopback, the human typing into a pipe."""

from __future__ import annotations

import signal

import pytest
import trio
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import ColorDepth

from p2pgames.crypto import Identity
from p2pgames.games import get_game
from p2pgames.net import Node
from p2pgames.session import ChatReceived, FaultCode, Halted, Session
from p2pgames.tui import run_terminal_game
from tui_tables import SizedOutput, Table


def run(table: Table, script, *, columns: int = 80, rows: int = 24, color: bool = True) -> int:
    return run_terminal_game(
        table.setup(script), title="Probe", color=color, input=table.pipe, output=SizedOutput(columns, rows),
        on_screen=table.on_screen,
    )


@pytest.fixture
def pipe():
    with create_pipe_input() as pipe:
        yield pipe


def test_a_whole_game_played_by_typing_the_first_choice(pipe, deadline, capsys):
    table = Table(pipe)
    shown = {}

    async def script(table: Table) -> None:
        decision = await table.next_decision()
        await table.screen.wait_for("Your move — ")
        shown["first"] = table.screen.text()
        assert decision.texts[0] in shown["first"]
        shown["typed"] = await table.play_to_the_end()
        await table.screen.wait_for("Press any key to leave")
        shown["end"] = table.screen.text()
        table.type("x")

    assert run(table, script) == 0
    session = table.human.session
    assert session.result is not None and session.fault is None
    assert shown["typed"] >= 3  # two rounds of cards, at least
    assert "Game over" in shown["end"] and "Scores:" in shown["end"]
    for bot in table.bots:
        assert bot.session.result == session.result
    # What the full screen showed last stays in the terminal.
    assert capsys.readouterr().out.startswith("Game over: ")


def test_choices_can_be_picked_by_number(pipe, deadline):
    table = Table(pipe)

    async def script(table: Table) -> None:
        decision = await table.next_decision()
        choice = len(decision.texts)
        table.type(f"{choice}\r")
        await table.screen.wait_for(f"› {decision.texts[choice - 1]}")
        await table.play_to_the_end()
        await table.screen.wait_for("Press any key to leave")
        table.type("\r")

    assert run(table, script) == 0


def test_unknown_input_and_bad_numbers_change_nothing(pipe, deadline):
    table = Table(pipe)

    async def script(table: Table) -> None:
        decision = await table.next_decision()
        session = table.human.session
        counter = session.replica.counters[session.seat]
        table.type("fly to the moon\r")
        await table.screen.wait_for("“fly to the moon” is not one of your choices")
        table.type("/me waves\r")
        await table.screen.wait_for("To chat, type say and your message")
        table.type("99\r")
        await table.screen.wait_for(f"There is no choice 99: pick a number from 1 to {len(decision.texts)}")
        # The decision is still open and nothing was submitted for this seat.
        assert session.replica.counters[session.seat] == counter
        assert session.decision() is not None and session.decision().texts == decision.texts
        table.type(decision.texts[0] + "x\r")  # almost a choice: suggested, not played
        await table.screen.wait_for("Did you mean")
        assert session.replica.counters[session.seat] == counter
        table.type("quit\r")
        await table.screen.wait_for("Leave the game?")
        table.type("y")

    assert run(table, script) == 0


def test_chat_reaches_the_other_peers(pipe, deadline):
    table = Table(pipe)

    async def script(table: Table) -> None:
        await table.next_decision()
        table.type("say good luck, brass hats\r")
        for bot in table.bots:
            await bot.wait_until(lambda: bot.events_of(ChatReceived))
        await table.screen.wait_for("alice: good luck, brass hats")
        table.type("\x03")  # Ctrl-C asks first,
        await table.screen.wait_for("Leave the game?")
        table.type("\x03")  # and a second Ctrl-C leaves.

    assert run(table, script) == 0
    for bot in table.bots:
        [chat] = bot.events_of(ChatReceived)
        assert (chat.name, chat.text, chat.seat) == ("alice", "good luck, brass hats", 0)


def test_quit_tells_the_others_who_left(pipe, deadline):
    table = Table(pipe, human_hosts=False)  # a joiner's leave goes through the host to the rest

    async def script(table: Table) -> None:
        await table.next_decision()
        table.type("quit\r")
        await table.screen.wait_for("Leave the game? It stops the game for everyone.")
        table.type("y")

    assert run(table, script) == 0
    for bot in table.bots:
        fault = bot.session.fault
        assert fault is not None and fault.code == FaultCode.LEFT
        assert "alice" in fault.reason and "left the game (quit)" in fault.reason
        assert any("alice" in event.message for event in bot.events_of(Halted))


def test_a_peer_leaving_stops_the_game_and_says_who(pipe, deadline, capsys):
    table = Table(pipe)

    async def script(table: Table) -> None:
        await table.next_decision()
        leaver = table.bots[0]
        leaver.node.leave("quit")
        await table.screen.wait_for("Press q to quit")
        text = table.screen.text()
        assert f"{leaver.session.name} (seat {leaver.session.seat}) left the game" in text
        table.type("q")

    assert run(table, script) == 1
    assert "left the game" in capsys.readouterr().err


def test_a_joiner_turned_away_sees_why(pipe, deadline, capsys):
    table = Table(pipe, players=2, bots=2, human_hosts=False, late=True)  # the bots fill the table

    async def script(table: Table) -> None:
        await table.screen.wait_for("Press q to quit")
        assert "Could not join the table: the game has already started." in table.screen.text()
        table.type("q")

    assert run(table, script) == 1
    assert "Could not join the table" in capsys.readouterr().err


def test_answering_no_keeps_playing(pipe, deadline):
    table = Table(pipe)

    async def script(table: Table) -> None:
        await table.next_decision()
        table.type("\x04")  # Ctrl-D on an empty line is quit too
        await table.screen.wait_for("Leave the game?")
        table.type("n")
        await table.screen.wait_for("Your move — ")
        assert not table.human.node.finished.is_set()
        await table.play_to_the_end()
        await table.screen.wait_for("Press any key to leave")
        table.type("q")

    assert run(table, script) == 0


def test_help_shows_the_game_rules_and_the_commands(pipe, deadline):
    table = Table(pipe)

    async def script(table: Table) -> None:
        await table.next_decision()
        table.type("help\r")
        await table.screen.wait_for("Commands")
        text = table.screen.text()
        assert "Probe: how to play" in text
        for command in ("say TEXT", "help", "log", "table", "quit", "Ctrl-C"):
            assert command in text
        table.type("\x1b")  # Esc: back to the table
        await table.screen.wait_until(lambda: "Commands" not in table.screen.text())
        assert "Your move — " in table.screen.text()
        table.type("quit\r")
        await table.screen.wait_for("Leave the game?")
        table.type("y")

    assert run(table, script) == 0


def test_the_lobby_shows_seats_and_join_code_and_quits_without_asking(pipe, deadline):
    table = Table(pipe, players=3, bots=1)  # one seat stays empty: the game never starts

    async def script(table: Table) -> None:
        await table.human.wait_until(lambda: table.human.session.lobby_size == 2)
        await table.screen.wait_for("Seats 2/3")
        text = table.screen.text()
        assert f"Join code: 127.0.0.1:{table.port}" in text
        assert "waiting for a player…" in text
        table.type("say anyone there?\r")  # chat works in the lobby: people say hello
        [bot] = table.bots
        await bot.wait_until(lambda: bot.events_of(ChatReceived))
        await table.screen.wait_for("alice: anyone there?")
        [chat] = bot.events_of(ChatReceived)
        assert (chat.seat, chat.name, chat.text) == (0, "alice", "anyone there?")
        table.type("play c1\r")
        await table.screen.wait_for("the game hasn't started yet")
        table.type("quit\r")

    assert run(table, script) == 0


@pytest.mark.parametrize("columns, rows", [(80, 24), (132, 40)])
def test_the_screen_fits_the_terminal(pipe, deadline, columns, rows):
    table = Table(pipe, players=4)

    async def script(table: Table) -> None:
        decision = await table.next_decision()
        await table.screen.wait_for("Your move — ")
        lines = table.screen.lines()
        assert len(lines) == rows
        assert all(len(line) <= columns for line in lines)
        assert lines[0].startswith(" Probe") and "alice · seat" in lines[0]
        assert lines[-1].startswith("›")
        assert "1 " + decision.texts[0] in "\n".join(lines[-4:])
        for name in ("alice", "bot-1", "bot-2", "bot-3"):
            assert name in "\n".join(lines)
        table.type("quit\r")
        await table.screen.wait_for("Leave the game?")
        table.type("y")

    assert run(table, script, columns=columns, rows=rows) == 0


def test_a_beltpunk_table_fits_80_by_24(pipe, deadline):
    table = Table(pipe, game="beltpunk", players=4)

    async def script(table: Table) -> None:
        decision = await table.next_decision()
        await table.screen.wait_for("Your move — ")
        lines = table.screen.lines()
        assert all(len(line) <= 80 for line in lines)
        text = "\n".join(lines)
        for title in ("The Machine", "Players", "Your hand", "Log"):
            assert title in text
        assert "▼" not in text  # nothing of the table cut off
        assert decision.texts[0] in text
        table.type("quit\r")
        await table.screen.wait_for("Leave the game?")
        table.type("y")

    assert run(table, script) == 0


@pytest.mark.parametrize("how", ["argument", "environment"])
def test_monochrome_has_no_colours(pipe, deadline, monkeypatch, how):
    if how == "environment":
        monkeypatch.setenv("NO_COLOR", "1")
    table = Table(pipe)
    colours = []

    async def script(table: Table) -> None:
        await table.next_decision()
        await table.screen.wait_for("Your move — ")
        app = table.screen.app
        assert app.color_depth == ColorDepth.DEPTH_1_BIT
        screen, columns, rows = table.screen.cells()
        for y in range(rows):
            for x in range(columns):
                attrs = app.style.get_attrs_for_style_str(screen.data_buffer[y][x].style)
                if attrs.color or attrs.bgcolor:
                    colours.append((x, y, attrs))
        table.type("\x03\x03")

    assert run(table, script, color=how != "argument") == 0
    assert colours == []


def test_colour_is_used_when_allowed(pipe, deadline, monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    table = Table(pipe)
    coloured = []

    async def script(table: Table) -> None:
        await table.next_decision()
        await table.screen.wait_for("Your move — ")
        app = table.screen.app
        screen, columns, rows = table.screen.cells()
        coloured.extend(
            (x, y)
            for y in range(rows)
            for x in range(columns)
            if app.style.get_attrs_for_style_str(screen.data_buffer[y][x].style).color
        )
        table.type("\x03\x03")

    assert run(table, script) == 0
    assert coloured


def test_setup_that_cannot_connect_returns_3_and_says_why(pipe, deadline, capsys):
    async def setup(nursery, say):
        say("Connecting…")
        await trio.open_tcp_stream("127.0.0.1", 1)  # nothing listens on port 1

    code = run_terminal_game(setup, title="Probe", input=pipe, output=SizedOutput())
    assert code == 3
    err = capsys.readouterr().err
    assert err.count("could not start the game") == 1
    assert "127.0.0.1:1" in err and "Connection refused" in err


def test_other_setup_errors_are_raised_after_the_screen_closes(pipe, deadline):
    async def setup(nursery, say):
        raise ValueError("no such ruleset")

    with pytest.raises(ValueError, match="no such ruleset"):
        run_terminal_game(setup, title="Probe", input=pipe, output=SizedOutput())


def test_ctrl_c_while_setup_is_still_connecting_stops_everything(pipe, deadline, capsys):
    stopped = trio.Event()

    async def setup(nursery, say):
        say("Waiting forever…")
        try:
            # No screen is open yet, so the terminal turns Ctrl-C into a signal.
            signal.raise_signal(signal.SIGINT)
            await trio.sleep_forever()
        finally:
            stopped.set()

    with pytest.raises(KeyboardInterrupt):
        run_terminal_game(setup, title="Probe", input=pipe, output=SizedOutput())
    assert stopped.is_set()
    assert capsys.readouterr().err == "Waiting forever…\n"  # said while setup ran: no screen hid it


def test_a_task_that_crashes_after_setup_is_raised_after_the_screen_closes(pipe, deadline):
    async def setup(nursery, say):
        async def crash():
            await trio.lowlevel.checkpoint()
            raise RuntimeError("a bug in a peer task")

        nursery.start_soon(crash)
        game = get_game("probe")
        return Node(Session(Identity.generate(), "alice", get_game, ruleset=game.ruleset(2)))

    with pytest.raises(RuntimeError, match="a bug in a peer task"):
        run_terminal_game(setup, title="Probe", input=pipe, output=SizedOutput())
