"""A player past chat's limits is told so on the screen (issue 23, point 1): "Chat limit: …", and
the line goes nowhere. Real peers over loopback, the human typing into a pipe.

The human's own limits are made small here (3 lines a game) so that the test needs no clock:
the rate's wording is the session's (``tests/session/test_chat_limits.py``), shown the same way.
"""

from __future__ import annotations

import pytest

from p2pgames.session import ChatReceived
from p2pgames.session._chat import ChatLimits, ChatPolicy
from p2pgames.tui import run_terminal_game
from tui_tables import SizedOutput, Table


@pytest.mark.parametrize("columns, rows", [(80, 24), (120, 40)])
def test_a_line_past_the_chat_limit_is_refused_with_the_reason(pipe, deadline, columns, rows):
    table = Table(pipe)

    async def script(table: Table) -> None:
        await table.next_decision()
        session = table.human.session
        session.chat_limits = ChatLimits("in this game", own=session.seat, policy=ChatPolicy(lines=3))
        for n in range(3):
            table.type(f"say line {n}\r")
            await table.screen.wait_for(f"alice: line {n}")
        table.type("say one line too many\r")
        await table.screen.wait_for("Chat limit: a seat may say 3 lines in this game,")
        await table.screen.wait_for("and you have said them all.")
        for bot in table.bots:
            await bot.wait_until(lambda: len(bot.events_of(ChatReceived)) == 3)
        assert "one line too many" not in table.screen.text()
        table.type("quit\r")
        await table.screen.wait_for("Leave the game?")
        table.type("y")

    assert run_terminal_game(
        table.setup(script), title="Probe", input=table.pipe, output=SizedOutput(columns, rows),
        on_screen=table.on_screen,
    ) == 0
    for bot in table.bots:
        assert [event.text for event in bot.events_of(ChatReceived)] == [f"line {n}" for n in range(3)]
