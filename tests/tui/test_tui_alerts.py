"""Turn alerts (issue 26, point 5): the bell, and a desktop notification where the terminal
shows one, when it becomes your move after others have played; ``--no-alerts`` turns both off."""

from __future__ import annotations

import pytest

from p2pgames.session import DecisionNeeded
from p2pgames.tui import run_terminal_game
from p2pgames.tui._alerts import notification
from tui_tables import SizedOutput, Table


class RecordingOutput(SizedOutput):
    """A terminal that draws nothing but keeps the bells rung and the raw sequences written."""

    def __init__(self) -> None:
        super().__init__()
        self.bells = 0
        self.raw: list[str] = []

    def bell(self) -> None:
        self.bells += 1

    def write_raw(self, data: str) -> None:
        self.raw.append(data)


def _play(table: Table, output: RecordingOutput, alerts: bool) -> list[DecisionNeeded]:
    async def script(table: Table) -> None:
        await table.next_decision()
        await table.play_to_the_end()
        await table.screen.wait_for("Press q or Enter to leave")
        table.type("\r")

    code = run_terminal_game(
        table.setup(script), title="p2pgames — joining", input=table.pipe, output=output, on_screen=table.on_screen, alerts=alerts,
    )
    assert code == 0
    return table.human.events_of(DecisionNeeded)


def test_the_bell_rings_each_time_it_becomes_your_move_after_the_others_played(pipe, deadline, monkeypatch):
    monkeypatch.setenv("TERM_PROGRAM", "iTerm.app")
    for name in ("TMUX", "STY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    output = RecordingOutput()
    decisions = _play(Table(pipe), output, alerts=True)
    after_others = sum(event.after_others for event in decisions)
    assert after_others >= 2
    assert output.bells == after_others
    notifications = [text for text in output.raw if text.startswith("\x1b]9;")]
    assert notifications == ["\x1b]9;p2pgames: Your move in Probe\x07"] * after_others


def test_no_alerts_rings_nothing(pipe, deadline, monkeypatch):
    monkeypatch.setenv("TERM_PROGRAM", "iTerm.app")
    output = RecordingOutput()
    decisions = _play(Table(pipe), output, alerts=False)
    assert any(event.after_others for event in decisions)
    assert output.bells == 0 and not any(text.startswith("\x1b]") for text in output.raw)


@pytest.mark.parametrize(
    "environment, expected",
    [
        ({"TERM_PROGRAM": "iTerm.app"}, "\x1b]9;p2pgames: Your move\x07"),
        ({"TERM": "xterm-kitty"}, "\x1b]9;p2pgames: Your move\x07"),
        ({"TERM_PROGRAM": "WezTerm"}, "\x1b]777;notify;p2pgames;Your move\x07"),
        ({"TERM": "xterm-256color", "VTE_VERSION": "7600"}, "\x1b]777;notify;p2pgames;Your move\x07"),
        ({"TERM": "foot"}, "\x1b]777;notify;p2pgames;Your move\x07"),
        ({"TERM": "xterm-256color"}, ""),  # unknown: it might print the text, or read it as something else
        ({"TERM_PROGRAM": "iTerm.app", "TMUX": "/tmp/tmux-1000/default,1,0"}, ""),  # tmux would swallow it
        ({"TERM": "screen-256color", "VTE_VERSION": "7600"}, ""),
        ({}, ""),
    ],
)
def test_a_desktop_notification_only_where_the_terminal_is_known_to_show_it(environment, expected):
    assert notification(environment, "p2pgames", "Your move") == expected


def test_a_notification_carries_nothing_that_could_end_it_early():
    sequence = notification({"VTE_VERSION": "7600"}, "p2pgames", "a;b\x07c\x1b]0;title\x9c" + "x" * 500)
    body = sequence[len("\x1b]777;notify;p2pgames;"):-1]
    assert sequence.endswith("\x07") and not any(ord(char) < 32 or 0x7F <= ord(char) < 0xA0 or char == ";" for char in body)
    assert len(body) == 200
