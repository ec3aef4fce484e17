"""Resolving attacks (rulebook, "Resolving Attacks", steps 1–7), oxygen attacks, crew attacks and
the Example of Play."""

import pytest

from p2pgames.engine import IllegalAction
from p2pgames.games.torpedo.actions import Absorb, Assign, Step, TargetCrew, TargetTile, Trigger
from p2pgames.games.torpedo.rules import Phase

from tests.games.torpedo.torpedo_scenarios import (
    CONTROL,
    GAME,
    PANZER,
    TALION,
    act,
    at,
    crew,
    fire,
    hurt,
    layout,
    lines,
    put,
    table,
)

# Ludovic (player 1) fires a Stern Mortar (attack 2, distant, enemy behind, hits its fore) with a
# manned Long-range Sights (+1): an attack total of 3 at Bruno's (player 0) fore.
LUDOVIC = layout(("A1", "Stern Mortar"), base=TALION)


def example_of_play():
    """The rulebook's Example of Play, set up: Bruno's fore has three destroyed compartments and
    the armoured Riveted Hold (D1) with one structure point left and two sailors in it."""
    state = table(active=1, layouts=(PANZER, LUDOVIC), sectors=(2, 5))
    for where in ("E1", "D2", "E2"):
        hurt(state, 0, where, state.kit[0][at(where)].structure)
    hurt(state, 0, "D1", 3)
    put(state, crew(0, 1), "D1")
    put(state, crew(0, 2), "D1")
    put(state, crew(1, 1), "A1")  # Ludovic's gunner
    put(state, crew(1, 2), "D1")  # manning the Sights
    state = act(state, 1, Trigger(at("A1"), 0, (crew(1, 1),)))
    assert state.phase == Phase.STEP  # two tiles are closer to the control room from A1
    return act(state, 1, Step(crew(1, 1), at("B1")))


def test_example_of_play_attack_3_against_one_manned_armoured_tile_is_2_damage():
    state = example_of_play()
    # "Attack total 3 – armor value 1 = damage total 2." Two sailors in the tile count once.
    assert ("attack", 1, "attack", "fore", 3, 1, 2) in state.notes
    assert state.phase == Phase.DEFEND and GAME.step(state).actors == (0,)
    assert GAME.legal_actions(state, 0, {}) == [Absorb(), Assign(at("D1"))]


def test_example_of_play_option_1_the_defender_absorbs_into_the_control_room():
    state = act(example_of_play(), 0, Absorb())
    assert state.damage[0][CONTROL] == 1
    assert state.damage[0][at("D1")] == 3
    assert state.crew[crew(0, 1)][3] and state.crew[crew(0, 2)][3]
    assert state.phase == Phase.ACTION and state.active == 1


def test_example_of_play_option_2_destroys_the_tile_eliminates_both_sailors_and_passes_1_to_the_control_room():
    before = example_of_play()
    state = act(before, 0, Assign(at("D1")))
    assert state.damage[0][at("D1")] == 4  # destroyed
    assert not state.crew[crew(0, 1)][3] and not state.crew[crew(0, 2)][3]
    assert state.damage[0][CONTROL] == 1  # "the remaining damage point would pass to the control room"
    text = "\n".join(lines(before, Assign(at("D1")), state, 0))
    assert "1 damage on bruno's Hold (D1): destroyed" in text
    assert "bruno's sailor 1 went down with the compartment" in text
    assert "The control room absorbs the 1 damage" in text


def test_the_attack_must_be_valid_for_position_and_range():
    state = table(active=0, sectors=(3, 3))
    put(state, crew(0, 1), "E1")  # Bow Cannon fires at an enemy in front only
    with pytest.raises(IllegalAction, match="no target: the enemy is not in front of you at close range"):
        fire(state, 0, "E1", crew(0, 1))
    assert Trigger(at("E1"), 0, (crew(0, 1),)) not in GAME.legal_actions(state, 0, {})
    state.sectors = [2, 3]
    assert Trigger(at("E1"), 0, (crew(0, 1),)) in GAME.legal_actions(state, 0, {})
    state.sectors = [1, 3]  # distant
    assert Trigger(at("E1"), 0, (crew(0, 1),)) not in GAME.legal_actions(state, 0, {})


def test_armour_counts_each_manned_armoured_tile_in_the_location_hit_once():
    # Player 1's aft (A, B columns) holds no armour in the Talion layout; put the Marine Barracks
    # (armoured) at B1 and man it twice, and an unmanned armoured tile there counts nothing.
    talion = layout(("B1", "Marine Barracks"), ("A2", "Reinforced Hull"), base=TALION)
    state = table(active=0, layouts=(PANZER, talion), sectors=(2, 3))
    put(state, crew(0, 1), "E1")
    put(state, crew(1, 1), "B1")
    put(state, crew(1, 2), "B1")
    state = fire(state, 0, "E1", crew(0, 1))  # the Bow Cannon: attack 3
    assert ("attack", 0, "attack", "aft", 3, 1, 2) in state.notes  # Hull unmanned: it counts nothing


def test_a_manned_armour_bonus_adds_to_the_location_it_names_and_no_other():
    # The Armoured Turret (D2 of player 1: fore and port) is armoured and gives +1 armour in the fore.
    talion = layout(("D2", "Armoured Turret"), base=TALION)
    state = table(active=0, layouts=(PANZER, talion), sectors=(3, 1))
    put(state, crew(0, 1), "A1")
    put(state, crew(1, 1), "D2")
    state = fire(state, 0, "A1", crew(0, 1))  # the Stern Mortar: attack 3, hits the fore
    assert ("attack", 0, "attack", "fore", 3, 2, 1) in state.notes  # armoured tile 1 + bonus 1
    state = table(active=0, layouts=(PANZER, talion), sectors=(2, 3))
    put(state, crew(0, 1), "E1")
    put(state, crew(1, 1), "D2")
    state = fire(state, 0, "E1", crew(0, 1))  # the Bow Cannon: attack 3, hits the aft
    assert ("attack", 0, "attack", "aft", 3, 0, 3) in state.notes  # neither reaches the aft
    unmanned = table(active=0, layouts=(PANZER, talion), sectors=(3, 1))
    put(unmanned, crew(0, 1), "A1")
    unmanned = fire(unmanned, 0, "A1", crew(0, 1))
    assert ("attack", 0, "attack", "fore", 3, 0, 3) in unmanned.notes  # unmanned: neither counts


def test_damage_goes_compartment_by_compartment_and_overflows_within_the_location():
    state = table(active=0, sectors=(2, 3))
    put(state, crew(0, 1), "E1")
    put(state, crew(0, 2), "D1")  # Riveted Hold manned: no effect on the attack (its armour is ours)
    hurt(state, 1, "A1", 2)  # Gas Launcher: 1 left
    state.kit  # noqa: B018
    # Attack 3 on player 1's aft (A1 GasLaunch 3, B1 BoardTube 3, A2 ElecTurb 3, B2 Ballast 4).
    state = fire(state, 0, "E1", crew(0, 1))
    assert state.phase == Phase.DEFEND
    assert set(GAME.legal_actions(state, 1, {})) == {Absorb(), *(Assign(at(p)) for p in ("A1", "B1", "A2", "B2"))}
    with pytest.raises(IllegalAction, match="attack hit your aft"):
        act(state, 1, Assign(at("D1")))
    with pytest.raises(IllegalAction, match="attack hit your aft"):
        act(state, 1, Assign(CONTROL))
    state = act(state, 1, Assign(at("A1")))
    assert state.damage[1][at("A1")] == 3  # destroyed by the first token
    assert state.phase == Phase.DEFEND and state.amount == 2
    # Once placing has begun the control room can no longer absorb.
    assert Absorb() not in GAME.legal_actions(state, 1, {})
    with pytest.raises(IllegalAction, match="assign the rest"):
        act(state, 1, Absorb())
    state = act(state, 1, Assign(at("B2")))
    assert state.damage[1][at("B2")] == 2
    assert state.phase == Phase.ACTION


def test_absorbing_puts_one_token_on_the_control_room_whatever_the_damage_total():
    state = table(active=0, sectors=(2, 3))
    put(state, crew(0, 1), "E1")
    put(state, crew(0, 2), "E1")
    state = fire(state, 0, "E1", crew(0, 1))
    state = act(state, 1, Absorb())
    assert state.damage[1][CONTROL] == 1
    assert sum(state.damage[1]) == 1


def test_a_location_with_nothing_left_passes_the_damage_to_the_control_room():
    state = table(active=0, sectors=(2, 3))
    put(state, crew(0, 1), "E1")
    for where in ("A1", "B1", "A2", "B2"):
        hurt(state, 1, where, state.kit[1][at(where)].structure)
    state = fire(state, 0, "E1", crew(0, 1))
    assert state.damage[1][CONTROL] == 1 and state.phase == Phase.ACTION


def test_destroying_the_control_room_wins_at_once():
    state = table(active=0, sectors=(2, 3))
    put(state, crew(0, 1), "E1")
    hurt(state, 1, "C2", state.kit[1][CONTROL].structure - 1)  # one token from destroyed
    state = fire(state, 0, "E1", crew(0, 1))
    state = act(state, 1, Absorb())
    assert state.phase == Phase.OVER and state.losers == [1] and state.winner == 0
    over = GAME.step(state)
    assert over.winners == (0,) and over.scores == (1, 0)
    assert "control room destroyed" in over.summary


def test_a_destroyed_compartment_loses_its_oxygen_and_damage_covers_plain_gears_first():
    state = table(active=0, sectors=(2, 3))
    put(state, crew(0, 1), "E1")
    # Ballast Tanks (B2): 4 structure, 2 oxygen gears, both with tokens. Three damage (the Bow
    # Cannon) cover the two plain gears and one oxygen gear: one token lost.
    state = fire(state, 0, "E1", crew(0, 1))
    state = act(state, 1, Assign(at("B2")))
    assert state.damage[1][at("B2")] == 3 and state.oxygen[1][at("B2")] == 1
    # An empty oxygen gear takes damage before a full one.
    state = table(active=0, sectors=(2, 3))
    put(state, crew(0, 1), "E1")
    state.oxygen[1][at("B2")] = 1
    state = fire(state, 0, "E1", crew(0, 1))
    state = act(state, 1, Assign(at("B2")))
    assert state.oxygen[1][at("B2")] == 1


# -- oxygen attacks --------------------------------------------------------------------------------


def _gas():
    """Player 1's Telin Gas Launcher (A1: remove 1 oxygen, distant, enemy in front, hits its aft)
    with a manned Signal Room (D2: +1 to every attack total) at player 0 two sectors ahead: 2
    tokens. Player 0's aft: A1 Mortar (1), B1 Bulkhead (1), A2 Boiler (1), B2 O2Tanks (2)."""
    talion = layout(("D2", "Signal Room"), base=TALION)
    state = table(active=1, layouts=(PANZER, talion), sectors=(4, 1))
    put(state, crew(1, 1), "A1")
    put(state, crew(1, 2), "D2")
    return state


def test_an_oxygen_attack_empties_compartments_of_the_location_one_by_one_as_the_defender_chooses():
    state = _gas()
    state = fire(state, 1, "A1", crew(1, 1), to="B2")
    assert state.notes[-1][0] == "attack" and state.notes[-1][5] == 0  # no manned armour aft
    assert state.phase == Phase.DRAIN and GAME.step(state).actors == (0,)
    assert set(GAME.legal_actions(state, 0, {})) == {Assign(at(p)) for p in ("A1", "B1", "A2", "B2")}
    state = act(state, 0, Assign(at("A1")))  # 1 token there: one more to remove
    assert state.oxygen[0][at("A1")] == 0 and state.phase == Phase.DRAIN
    state = act(state, 0, Assign(at("B2")))
    assert state.oxygen[0][at("B2")] == 1 and state.phase == Phase.ACTION


def test_when_the_location_has_no_oxygen_left_the_attacker_takes_one_token_from_any_compartment():
    state = _gas()
    for where in ("A1", "B1", "A2"):
        state.oxygen[0][at(where)] = 0
    state.oxygen[0][at("B2")] = 1
    state = fire(state, 1, "A1", crew(1, 1), to="B2")
    # One token in the aft (B2, taken by itself: no choice), then the fallback: the attacker picks.
    assert ("drain", 0, at("B2"), 1, True) in state.notes
    assert state.phase == Phase.SCAVENGE and GAME.step(state).actors == (1,)
    options = GAME.legal_actions(state, 1, {})
    assert TargetTile(CONTROL) not in options and TargetTile(at("E1")) in options
    state = act(state, 1, TargetTile(at("E1")))  # the Bow Cannon's one token
    assert state.oxygen[0][at("E1")] == 0 and state.phase == Phase.ACTION


def test_running_out_of_oxygen_loses_at_once():
    state = _gas()
    state.oxygen[0] = [0] * 10
    state.oxygen[0][at("A1")] = 1
    state.oxygen[0][at("B2")] = 1
    state = fire(state, 1, "A1", crew(1, 1), to="B2")
    state = act(state, 0, Assign(at("A1")))
    assert state.phase == Phase.OVER and state.losers == [0]


# -- crew attacks ------------------------------------------------------------------------------------


def test_a_sailor_only_effect_ignores_armour_and_spares_the_captain():
    # Player 0's Grapeshot Gun (E2: a sailor, close, enemy on your port side, hits its starboard).
    state = table(active=0, sectors=(3, 3), upper=1)
    put(state, crew(0, 1), "E2")
    put(state, crew(1, 0), "D1")  # player 1's starboard is its inner row: D1 is the Sights
    put(state, crew(1, 1), "C1")  # Marine Barracks, armoured and manned: crew attacks ignore armour
    state = fire(state, 0, "E2", crew(0, 1))
    assert state.phase == Phase.ACTION  # one sailor to target: taken by itself
    assert not state.crew[crew(1, 1)][3] and state.crew[crew(1, 0)][3]


def test_a_captain_or_sailor_effect_may_take_the_captain_but_not_crew_in_the_control_room():
    # Player 1's Harpoon Battery (E1: captain or sailor, distant, anywhere, facing).
    state = table(active=1, sectors=(1, 4))
    put(state, crew(1, 1), "E1")
    put(state, crew(0, 0), "D1")  # player 0's fore (the location facing player 1 behind it)
    put(state, crew(0, 1), "E2")
    state = fire(state, 1, "E1", crew(1, 1))
    assert set(GAME.legal_actions(state, 1, {})) == {TargetCrew(crew(0, 0)), TargetCrew(crew(0, 1))}
    state = act(state, 1, TargetCrew(crew(0, 0)))
    assert not state.crew[crew(0, 0)][3]


def test_crew_outside_the_location_hit_cannot_be_targeted():
    state = table(active=1, sectors=(1, 4))
    put(state, crew(1, 1), "E1")
    assert Trigger(at("E1"), 0, (crew(1, 1),)) not in GAME.legal_actions(state, 1, {})
    with pytest.raises(IllegalAction, match="no enemy crew member is in its fore"):
        fire(state, 1, "E1", crew(1, 1))


def test_crew_in_the_control_room_can_be_targeted_when_the_location_hit_holds_it():
    # The control room can't be targeted by effects; the people in it can (I13). Ludovic's
    # Grapeshot Gun fires at Bruno on his port side (Bruno up): Bruno's starboard, his outer row,
    # with the control room, where all his crew are.
    ludovic = layout(("E1", "Grapeshot Gun"), base=TALION)
    state = table(active=1, layouts=(PANZER, ludovic), sectors=(3, 3), upper=0)
    put(state, crew(1, 1), "E1")
    state = fire(state, 1, "E1", crew(1, 1))
    assert state.phase == Phase.AIM
    assert set(GAME.legal_actions(state, 1, {})) == {TargetCrew(crew(0, k)) for k in range(1, 5)}
    state = act(state, 1, TargetCrew(crew(0, 3)))
    assert not state.crew[crew(0, 3)][3] and state.damage[0][CONTROL] == 0


def test_eliminating_the_last_crew_member_wins():
    state = table(active=1, sectors=(1, 4))
    put(state, crew(1, 1), "E1")
    for k in range(1, 5):
        state.crew[crew(0, k)] = (-1, -1, False, False)
    put(state, crew(0, 0), "D1")
    state = fire(state, 1, "E1", crew(1, 1))
    assert state.phase == Phase.OVER and state.winner == 1
    assert "all its crew eliminated" in GAME.step(state).summary
