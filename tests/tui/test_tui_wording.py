"""Words the terminal shows around the game (issue 22): player names in the status line as their
players typed them, and one way to leave once the game has ended, however it ended."""

from __future__ import annotations

import pytest

from p2pgames.tui._app import _sentence
from p2pgames.tui._state import Mode
from p2pgames.tui._text import plain
from test_tui_away import FakeSession, pipe, terminal_game  # noqa: F401 - pipe is a fixture

__all__: list[str] = []


@pytest.mark.parametrize("status, shown", [
    ("root to move: choose a card", " root to move: choose a card"),  # was "Root to move"
    ("root and bob to move: choose a card", " root and bob to move: choose a card"),
    ("you and root to move: choose a card", " You and root to move: choose a card"),
    ("you to move: choose a card", " Your move: choose a card"),
    ("waiting for root to reconnect", " Waiting for root to reconnect"),
])
def test_the_status_line_shows_names_as_their_players_typed_them(pipe, status, shown):  # noqa: F811
    session = FakeSession(names=("alice", "root", "bob"))
    game, _ = terminal_game(pipe, session)
    session.said_status = status
    assert plain(game.screen._status_bar(80)[0]).rstrip() == shown


def test_a_game_over_and_a_stopped_game_say_the_same_way_to_leave(pipe):  # noqa: F811
    game, _ = terminal_game(pipe, FakeSession())
    shown = {}
    for mode in (Mode.OVER, Mode.STOPPED):
        game.mode = mode
        shown[mode] = plain(game.screen._banner())
    assert shown[Mode.OVER] == shown[Mode.STOPPED] == " Press q or Enter to leave.  (PgUp/PgDn scroll the log)"


def test_a_problem_that_opens_with_a_name_keeps_it_as_typed():
    assert _sentence("root is away", ("alice", "root")) == "root is away."
    assert _sentence("nobody is away", ("alice", "root")) == "Nobody is away."
