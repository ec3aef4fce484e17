"""Playing again (issue 26, point 1; SPEC §B20): after the end, a seat asks to play a next game at
the same table; once every seat still there said yes (the host among them), each peer's table
closes and the next one is set up; a seat that says no, or leaves, is not waited for.

Sessions only, on the in-memory switchboard (its bots don't leave at the end: the test does)."""

from __future__ import annotations

import pytest
from switchboard import Switchboard

from p2pgames.session import AgainAgreed, AgainAsked, AgainDeclined, LocalError


def over(game: str = "probe", players: int = 3) -> Switchboard:
    board = Switchboard(game, players, seed=b"again-" + game.encode())
    board.run()
    assert all(session.stage == "over" for session in board.sessions)
    return board


def events(board: Switchboard, seat: int) -> list:
    return board.events[seat] + board.sessions[seat].take_events()


def test_everyone_says_yes_and_every_table_closes_with_the_plan_of_the_next_game():
    board = over()
    board.sessions[1].again("beltpunk")
    board.run(play=False)
    asked = [event for event in events(board, 2) if isinstance(event, AgainAsked)]
    assert [(event.name, event.title) for event in asked] == [("p1", "Beltpunk Haberdasher")]
    assert "p1 asks to play again: Beltpunk Haberdasher" in asked[0].text
    for seat in (0, 2):
        board.sessions[seat].again()
        board.run(play=False)
    for seat, session in enumerate(board.sessions):
        [agreed] = [event for event in events(board, seat) if isinstance(event, AgainAgreed)]
        assert (agreed.game, agreed.players, agreed.seats, agreed.host, agreed.you_host) == (
            "beltpunk", 3, (0, 1, 2), "p0", seat == 0)
        assert session.stage == "closed" and not session.seat_kept


def test_a_seat_that_says_no_or_leaves_is_not_waited_for_but_the_host_is():
    board = over()
    board.sessions[2].again()
    board.run(play=False)
    board.sessions[1].decline_again()
    board.run(play=False)
    assert [event.text for event in events(board, 0) if isinstance(event, AgainDeclined)] == ["p1 won't play again."]
    assert board.host.again_agreed is None, "the host has not said yes"
    with pytest.raises(LocalError, match="you said you won't play again"):
        board.sessions[1].again()
    board.host.again()
    board.run(play=False)
    assert board.host.again_agreed.seats == (0, 2) and board.sessions[2].again_agreed.seats == (0, 2)


def test_a_request_for_another_game_than_the_one_asked_for_is_refused_saying_which():
    board = over()
    board.sessions[1].again("beltpunk")
    board.run(play=False)
    with pytest.raises(LocalError, match="p1 asked for Beltpunk Haberdasher already: answer that"):
        board.sessions[2].again("probe")
    with pytest.raises(LocalError, match="Steam Torpedo is for 2–2 players, and this table has 3"):
        over("probe", 3).sessions[1].again("torpedo")
    with pytest.raises(LocalError, match="there is no game called 'chess'"):
        over("probe", 3).sessions[1].again("chess")


def test_not_before_the_end_and_not_once_the_host_has_left():
    board = Switchboard("probe", 2, seed=b"again-early")
    with pytest.raises(LocalError, match="you can play again once the game is over"):
        board.sessions[1].again()
    board.run()
    board.host.leave("game over")
    board.run(play=False)
    with pytest.raises(LocalError, match="the host has left"):
        board.sessions[1].again()


def test_a_seat_that_said_no_is_given_no_next_game():
    board = over()
    board.sessions[1].again()
    board.run(play=False)
    board.sessions[2].decline_again()
    board.host.again()
    board.run(play=False)
    assert board.host.again_agreed is not None and board.sessions[1].again_agreed is not None
    assert board.sessions[2].again_agreed is None and board.sessions[2].stage == "over"
