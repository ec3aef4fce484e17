"""A turn (rulebook, "Game Play"): recovery, maneuver with its two examples, crew moves, the
captain's free move, ending the turn."""

import pytest

from p2pgames.engine import Act, IllegalAction
from p2pgames.games.torpedo.actions import Absorb, Breathe, CaptainMove, EndTurn, Maneuver, Move, Trigger
from p2pgames.games.torpedo.effects import speed
from p2pgames.games.torpedo.geometry import relative_position
from p2pgames.games.torpedo.rules import Phase

from tests.games.torpedo.torpedo_scenarios import CONTROL, GAME, act, at, crew, destroy, hurt, put, table


def _ended(state, seat=0):
    return act(state, seat, EndTurn())


# -- recovery ------------------------------------------------------------------------------------------


def test_recovery_removes_one_oxygen_token_from_the_compartment_the_player_chooses():
    state = _ended(table(active=0))
    assert state.phase == Phase.RECOVERY and state.active == 1 and GAME.step(state).actors == (1,)
    options = GAME.legal_actions(state, 1, {})
    assert Breathe(at("E2")) not in options  # the Gatling Gun has no oxygen
    assert Breathe(CONTROL) in options  # the control room's oxygen is breathable too
    with pytest.raises(IllegalAction, match="holds no oxygen"):
        act(state, 1, Breathe(at("E2")))
    before = state.total_oxygen(1)
    state = act(state, 1, Breathe(at("D1")))  # the Long-range Sights: 2 oxygen
    assert state.oxygen[1][at("D1")] == 1 and state.total_oxygen(1) == before - 1
    assert state.phase == Phase.ACTION


def test_recovery_readies_every_crew_member_of_the_active_player():
    state = table(active=0)
    put(state, crew(1, 1), "D1", ready=False)
    put(state, crew(1, 2), "B1", sub=0, ready=False)  # a boarder too
    put(state, crew(0, 1), "D1", ready=False)
    state = act(_ended(state), 1, Breathe(at("D1")))
    assert state.crew[crew(1, 1)][2] and state.crew[crew(1, 2)][2]
    assert not state.crew[crew(0, 1)][2]  # the other player's crew stay as they are


def test_recovery_with_oxygen_in_only_one_compartment_happens_by_itself():
    state = table(active=0)
    state.oxygen[1] = [0] * 10
    state.oxygen[1][at("B2")] = 2
    state = _ended(state)
    assert state.phase == Phase.ACTION and state.oxygen[1][at("B2")] == 1
    assert ("breathe", 1, at("B2"), True) in state.notes


def test_breathing_the_last_oxygen_token_loses_the_game_at_once():
    state = table(active=0)
    state.oxygen[1] = [0] * 10
    state.oxygen[1][at("B2")] = 1
    state = _ended(state)
    assert state.phase == Phase.OVER and state.losers == [1]
    assert "no oxygen left" in GAME.step(state).summary


# -- maneuver --------------------------------------------------------------------------------------------


def _engines_manned(state):
    """Bruno's (player 0, Panzer) four crew in three engine compartments: Boiler Room (A2),
    Turbine Hall (D2) and two in the control room (C2); the fifth in the Bulkhead (B1)."""
    put(state, crew(0, 1), "A2")
    put(state, crew(0, 2), "D2")
    put(state, crew(0, 3), "B1")
    return state


def test_speed_is_one_sector_per_manned_engine_compartment_the_control_room_included():
    state = table(active=0)
    assert speed(state, 0) == 1  # everyone in the control room: several crew add nothing
    _engines_manned(state)
    assert speed(state, 0) == 3
    hurt(state, 0, "A2", 3)  # a destroyed engine (and the crew in it) counts no more
    assert speed(state, 0) == 2


def test_rulebook_maneuver_example_1_speed_three_split_between_both_submarines():
    # "Bruno decides to move his Panzer La Rochelle for two speed points and he moves his
    # opponent's Talion submarine to an adjacent sector using his remaining speed point."
    state = _engines_manned(table(active=0, sectors=(1, 3)))
    assert Maneuver(2, 1, None) in GAME.legal_actions(state, 0, {})
    state = act(state, 0, Maneuver(2, 1, None))
    assert state.sectors == [3, 4] and state.maneuvered
    with pytest.raises(IllegalAction, match="maneuvered this action phase already"):
        act(state, 0, Maneuver(1, 0, None))


def test_rulebook_maneuver_example_2_two_speed_points_to_the_other_side_of_the_opponent():
    # "Bruno decides to use only two speed points to move his submarine to the other side of his
    # opponent's Talion submarine and ends his maneuver": from behind it to in front of it.
    state = _engines_manned(table(active=0, sectors=(2, 3)))
    assert relative_position(0, state.sectors, state.upper) == "front"
    state = act(state, 0, Maneuver(2, 0, None))
    assert state.sectors == [4, 3] and relative_position(0, state.sectors, state.upper) == "behind"


def test_a_maneuver_may_not_exceed_the_speed():
    state = table(active=0, sectors=(1, 3))
    with pytest.raises(IllegalAction, match="your speed is 1.*needs 2"):
        act(state, 0, Maneuver(1, 1, None))
    assert not any(isinstance(a, Maneuver) and abs(a.own) + abs(a.enemy) > 1 for a in GAME.legal_actions(state, 0, {}))


def test_no_submarine_can_leave_the_battle_area():
    state = _engines_manned(table(active=0, sectors=(1, 5)))
    with pytest.raises(IllegalAction, match="battle area"):
        act(state, 0, Maneuver(-1, 0, None))
    with pytest.raises(IllegalAction, match="battle area"):
        act(state, 0, Maneuver(0, 1, None))


def test_maneuvering_into_one_sector_chooses_port_or_starboard():
    state = table(active=0, sectors=(2, 3))
    options = [a for a in GAME.legal_actions(state, 0, {}) if isinstance(a, Maneuver) and a.own == 1]
    assert options == [Maneuver(1, 0, 0), Maneuver(1, 0, 1)]
    with pytest.raises(IllegalAction, match="choose port or starboard"):
        act(state, 0, Maneuver(1, 0, None))
    with pytest.raises(IllegalAction, match="only when both end in one sector"):
        act(state, 0, Maneuver(-1, 0, 1))
    state = act(state, 0, Maneuver(1, 0, 0))  # Bruno's submarine up: the enemy on his starboard side
    assert state.upper == 0 and relative_position(0, state.sectors, state.upper) == "starboard"


def test_swinging_round_to_the_enemys_other_side_in_one_sector_costs_two():
    state = table(active=0, sectors=(3, 3), upper=1)
    assert Maneuver(0, 0, 0) not in GAME.legal_actions(state, 0, {})  # speed 1
    with pytest.raises(IllegalAction, match="your speed is 1"):
        act(state, 0, Maneuver(0, 0, 0))
    _engines_manned(state)
    with pytest.raises(IllegalAction, match="other side"):
        act(state, 0, Maneuver(0, 0, 1))
    state = act(state, 0, Maneuver(0, 0, 0))
    assert state.upper == 0 and state.sectors == [3, 3]


def test_a_maneuver_is_allowed_in_a_players_first_turn():
    state = table(active=0, first_turns=True)
    state = act(state, 0, Maneuver(1, 0, None))
    assert state.sectors == [4, 3]


# -- crew moves ------------------------------------------------------------------------------------------


def test_a_ready_crew_member_moves_to_an_adjacent_compartment_and_is_exhausted():
    state = table(active=0)
    state = act(state, 0, Move(crew(0, 1), at("B1")))  # diagonal from C2
    assert state.crew[crew(0, 1)] == (0, at("B1"), False, True)
    with pytest.raises(IllegalAction, match="exhausted"):
        act(state, 0, Move(crew(0, 1), at("A1")))
    with pytest.raises(IllegalAction, match="not next to it"):
        act(state, 0, Move(crew(0, 2), at("E1")))
    with pytest.raises(IllegalAction, match="not yours"):
        act(state, 0, Move(crew(1, 2), at("B1")))


def test_crew_cannot_move_into_a_destroyed_compartment():
    state = table(active=0)
    destroy(state, 0, "B1")
    assert Move(crew(0, 1), at("B1")) not in GAME.legal_actions(state, 0, {})
    with pytest.raises(IllegalAction, match="destroyed"):
        act(state, 0, Move(crew(0, 1), at("B1")))


def test_the_captain_moves_free_once_a_turn_ready_or_exhausted_and_stays_as_he_was():
    state = table(active=0)
    state = act(state, 0, Move(crew(0, 0), at("B1")))  # his activation: exhausted
    state = act(state, 0, CaptainMove(at("A1")))
    assert state.crew[crew(0, 0)] == (0, at("A1"), False, True)
    with pytest.raises(IllegalAction, match="free move this turn"):
        act(state, 0, CaptainMove(at("B1")))
    state = act(state, 0, EndTurn())
    state = act(state, 1, Breathe(at("D1")))
    state = act(state, 1, CaptainMove(at("D2")))  # the other captain's own free move
    assert not any(isinstance(a, CaptainMove) for a in GAME.legal_actions(state, 0, {}))


def test_the_captains_free_move_may_come_before_his_activation():
    state = table(active=0)
    state = act(state, 0, CaptainMove(at("B2")))
    assert state.crew[crew(0, 0)][2]  # still ready
    state = act(state, 0, Move(crew(0, 0), at("A2")))
    assert state.crew[crew(0, 0)] == (0, at("A2"), False, True)


def test_the_captains_free_move_comes_just_before_his_activation_which_must_follow():
    # "Just before or after his normal activation": made first, his activation comes next —
    # nothing else of the turn between, and not no activation at all (I15).
    state = table(active=0)
    state = act(state, 0, Move(crew(0, 1), at("B1")))  # a sailor first: the captain hasn't activated
    state = act(state, 0, CaptainMove(at("D2")))
    options = GAME.legal_actions(state, 0, {})
    # He moves on, or triggers the Turbine Hall he stands in (alone): nothing else.
    assert options and all(
        (isinstance(a, Move) and a.crew == crew(0, 0)) or (isinstance(a, Trigger) and a.crews == (crew(0, 0),))
        for a in options
    )
    for other in (EndTurn(), Move(crew(0, 2), at("B2")), Maneuver(1, 0, None)):
        with pytest.raises(IllegalAction, match="free move just before his activation: move him or trigger with him now"):
            act(state, 0, other)
    state = act(state, 0, Move(crew(0, 0), at("E2")))
    assert state.crew[crew(0, 0)] == (0, at("E2"), False, True)
    assert EndTurn() in GAME.legal_actions(state, 0, {})
    with pytest.raises(IllegalAction, match="free move this turn"):
        act(state, 0, CaptainMove(at("D2")))


def test_the_captains_free_move_comes_just_after_his_activation_not_later():
    state = table(active=0)
    state = act(state, 0, Move(crew(0, 0), at("B1")))  # his activation
    state = act(state, 0, Move(crew(0, 1), at("D1")))  # something else: too late now
    assert not any(isinstance(a, CaptainMove) for a in GAME.legal_actions(state, 0, {}))
    with pytest.raises(IllegalAction, match="just before or just after his activation, not later"):
        act(state, 0, CaptainMove(at("A1")))
    # After a trigger he takes part in, once its effect (and the window after it) is over.
    state = table(active=0)
    state = act(state, 0, Trigger(CONTROL, 0, (crew(0, 0),)))
    state = act(state, 1, Absorb())
    assert state.phase == Phase.ACTION and CaptainMove(at("B1")) in GAME.legal_actions(state, 0, {})
    state = act(state, 0, CaptainMove(at("B1")))
    assert state.crew[crew(0, 0)] == (0, at("B1"), False, True)


def test_the_captains_free_move_is_not_allowed_in_the_opponents_turn():
    state = table(active=0)
    with pytest.raises(IllegalAction, match="not your turn"):
        GAME.apply(state, Act(1, CaptainMove(at("D1"))))


def test_ending_the_turn_passes_play_to_the_opponent():
    state = act(table(active=0), 0, EndTurn())
    assert state.active == 1 and state.turn == 4 and state.turns_taken == [2, 3]
    assert not state.maneuvered and not state.captain_moved and state.used == []
