"""``p2pgames watch``'s screen (issue 26, point 4): the lobby, then the table as a player holding
no cards sees it, following the game while it shows the latest entry; a table that can't be
reached raises before any screen opens."""

from __future__ import annotations

import pytest
import trio
from prompt_toolkit.output import DummyOutput

from p2pgames.crypto import Identity
from p2pgames.games import get_presentation
from p2pgames.net import SetupError
from p2pgames.session import Notice, Watcher
from p2pgames.tui import run_watch
from p2pgames.tui._text import plain
from p2pgames.tui._watch import WatchScreen
from session.switchboard import Switchboard


def text(lines) -> str:
    return "\n".join(plain(line) for line in lines)


def test_the_screen_shows_the_lobby_then_follows_the_game_and_can_look_back(pipe):
    board = Switchboard("beltpunk", 3, seed=b"watch-screen")
    watcher = Watcher(Identity.generate(b"w" * 32), "wanda", get_presentation)
    screen = WatchScreen(color=False, input=pipe, output=DummyOutput())
    assert "Waiting for the host's table" in text(screen._table(80, None))
    board.watch(watcher)
    board.run(until=lambda: watcher.replica is not None and watcher.replica.seq >= 50)
    for event in watcher.take_events():
        screen.update(watcher, event)
    assert screen.index == len(watcher.replay.steps) - 1 and "Your hand" not in text(screen._table(80, None))
    assert "entry 49 of 49" in text(screen._title(80, 1))
    screen.go(10)  # looking back: new entries don't move it
    board.run()
    for event in watcher.take_events():
        screen.update(watcher, event)
    assert screen.index == 10
    assert text(screen._log(80, 3)).endswith(f"Game over: {board.host._result_text(board.host.result)}")
    assert "the watching has ended" in text(screen._keys(80, 1))


def test_a_table_that_cannot_be_reached_raises_before_any_screen(pipe):
    async def unreachable(on_event, say=None, task_status=trio.TASK_STATUS_IGNORED):
        raise SetupError("can't reach the table at 127.0.0.1:1")

    with pytest.raises(SetupError, match="can't reach the table"):
        run_watch(unreachable, color=False, input=pipe, output=DummyOutput())


def test_q_closes_the_screen_and_stops_the_watching(pipe):
    stopped = []

    async def watching(on_event, say=None, task_status=trio.TASK_STATUS_IGNORED):
        task_status.started("a watcher")
        try:
            await trio.sleep_forever()
        finally:
            stopped.append(True)

    pipe.send_text("q")
    assert run_watch(watching, color=False, input=pipe, output=DummyOutput()) == "a watcher"
    assert stopped == [True]


def test_s_says_a_line_where_the_host_lets_watchers_chat(pipe):
    said: list[str] = []

    class Chatty:  # what the screen reads of a watcher
        replay = None
        may_chat = True
        finished = False

    async def watching(on_event, say=None, task_status=trio.TASK_STATUS_IGNORED):
        task_status.started("a watcher")
        on_event(Chatty(), Notice("the host took us"))
        async for line in say:
            said.append(line)

    pipe.send_text("shi all\rq")
    run_watch(watching, color=False, input=pipe, output=DummyOutput())
    assert said == ["hi all"]
