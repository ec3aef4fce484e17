"""Winning (rulebook, "Winning"): the three losses, checked the moment each happens, and the draw."""

from p2pgames.engine import GameOver, IllegalAction
from p2pgames.games.torpedo import GAME
from p2pgames.games.torpedo.actions import Assign, EndTurn
from p2pgames.games.torpedo.effects import loss_reasons
from p2pgames.games.torpedo.resolving import check_over
from p2pgames.games.torpedo.rules import Phase

from tests.games.torpedo.torpedo_scenarios import CONTROL, act, at, crew, fire, hurt, kill, put, table

import pytest


def test_the_game_ends_the_moment_the_last_crew_member_goes_down_even_mid_attack():
    # Bruno's Bow Cannon: 2 damage at Ludovic's aft, where his last two crew are, in the Gas
    # Launcher (A1) with one structure left.
    state = table(active=0, sectors=(2, 3))
    put(state, crew(0, 1), "E1")
    for k in (0, 1, 2):
        kill(state, crew(1, k))
    put(state, crew(1, 3), "A1")
    put(state, crew(1, 4), "A1")
    hurt(state, 1, "A1", 2)
    state = fire(state, 0, "E1", crew(0, 1))
    state = act(state, 1, Assign(at("A1")))
    # One damage point is left, but the game is over: nothing more is placed or asked.
    assert state.phase == Phase.OVER and state.winner == 0
    assert isinstance(GAME.step(state), GameOver)
    assert GAME.legal_actions(state, 0, {}) == [] and GAME.legal_actions(state, 1, {}) == []
    with pytest.raises(IllegalAction, match="game is over"):
        GAME.check_action(state, 0, EndTurn())
    assert loss_reasons(state, 1) == ["all its crew eliminated"]


def test_a_loss_is_one_of_three_and_several_may_come_together():
    state = table(active=0)
    assert loss_reasons(state, 0) == []
    hurt(state, 0, "C2", state.kit[0][CONTROL].structure)  # the control room destroyed, the five crew in it with it
    assert loss_reasons(state, 0) == ["its control room destroyed", "all its crew eliminated"]
    state.oxygen[0] = [0] * 10
    assert loss_reasons(state, 0)[-1] == "no oxygen left"


def test_both_players_losing_at_once_is_a_draw():
    # No tile of this set can make it happen (the acting player keeps the crew member who acted,
    # and every loss comes from one submarine); the rules still say what it would be.
    state = table(active=0)
    state.oxygen[0] = [0] * 10
    state.oxygen[1] = [0] * 10
    assert check_over(state)
    over = GAME.step(state)
    assert over.winners == (0, 1) and over.scores == (1, 1) and "a draw" in over.summary
    assert state.winner is None


def test_the_control_room_destroyed_wins_at_once():
    state = table(active=0, sectors=(2, 3))
    put(state, crew(0, 1), "E1")
    hurt(state, 1, "C2", state.kit[1][CONTROL].structure - 1)  # one token from destroyed
    for where in ("A1", "B1", "A2", "B2"):
        hurt(state, 1, where, state.kit[1][at(where)].structure)
    state = fire(state, 0, "E1", crew(0, 1))  # nothing left in the aft: the control room takes it
    assert state.phase == Phase.OVER and state.losers == [1]
    assert state.damage[1][CONTROL] == state.kit[1][CONTROL].structure
