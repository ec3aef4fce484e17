"""Triggers and effects (rulebook, "Activate", "Resolving Effects", "Buttons and Trigger Icons"):
the trigger's steps and every "cannot trigger" condition, standby, single-use, two keys, tiles
with two effects, counter reactions, and each kind of effect."""

from typing import Any

import pytest

from p2pgames.bots import PlayoutBot, bot_for
from p2pgames.engine import Act, IllegalAction, LocalTable, ReactionWindow
from p2pgames.games.torpedo.actions import (
    Absorb,
    Assign,
    Breathe,
    Drive,
    EndTurn,
    Maneuver,
    Move,
    Pass,
    React,
    Relocate,
    Step,
    TargetCrew,
    TargetTile,
    Trigger,
)
from p2pgames.games.torpedo.effects import armour, attack_total, bonus, speed
from p2pgames.games.torpedo.presentation import PRESENTATION
from p2pgames.games.torpedo.rules import BUILD_OPTIONS, Phase

from tests.games.torpedo.torpedo_scenarios import (
    CONTROL,
    GAME,
    PANZER,
    TALION,
    act,
    at,
    crew,
    destroy,
    fire,
    hurt,
    layout,
    lines,
    put,
    table,
)

# -- the trigger ---------------------------------------------------------------------------------------


def test_rulebook_trigger_example_the_gatling_gunner_moves_to_the_sights_exhausts_then_it_fires():
    # "Ludovic (Talion) decides to activate the Gatling Gun compartment with his sailor (n°1). …
    # Ludovic decides to move his sailor to the Long-range Sights and exhaust his sailor. The
    # Gatling Gun effect is applied."
    state = table(active=1)
    put(state, crew(1, 1), "E2")
    before = state
    state = act(state, 1, Trigger(at("E2"), 0, (crew(1, 1),)))
    assert state.phase == Phase.STEP
    assert GAME.legal_actions(state, 1, {}) == [Step(crew(1, 1), at("D1")), Step(crew(1, 1), at("D2"))]
    assert [PRESENTATION.describe_action(state, 1, a, {}, ()) for a in GAME.legal_actions(state, 1, {})] == [
        "step sailor 1 to Sights",
        "step sailor 1 to Chain",
    ]
    state = act(state, 1, Step(crew(1, 1), at("D1")))
    assert state.crew[crew(1, 1)] == (1, at("D1"), False, True)
    # The Gatling Gun's attack (3, close, anywhere) on the location facing Ludovic: player 0 is
    # on his starboard side, so its port — its inner row.
    assert ("attack", 1, "attack", "port", 3, 0, 3) in state.notes
    assert state.phase == Phase.DEFEND
    assert before.crew[crew(1, 1)][2]


def test_a_crew_member_next_to_the_control_room_moves_into_it_by_itself():
    state = table(active=0, sectors=(2, 3))
    put(state, crew(0, 1), "D1")  # Riveted Hold: repair; needs a damaged compartment
    hurt(state, 0, "E1", 1)
    state = act(state, 0, Trigger(at("D1"), 0, (crew(0, 1),)))
    assert state.crew[crew(0, 1)] == (0, CONTROL, False, True)
    assert state.damage[0][at("E1")] == 0  # the one damaged compartment: repaired by itself


def test_a_crew_member_triggering_the_control_room_does_not_move():
    state = table(active=0)
    state = act(state, 0, Trigger(CONTROL, 0, (crew(0, 3),)))
    assert state.crew[crew(0, 3)] == (0, CONTROL, False, True)


def test_a_duty_effect_may_be_triggered_by_as_many_crew_members_as_are_ready():
    state = table(active=0, sectors=(2, 3))
    for k in (1, 2):
        put(state, crew(0, k), "E1")  # the Bow Cannon: no alert icon
    for k in (1, 2):
        state = fire(state, 0, "E1", crew(0, k))
        state = act(state, 1, Absorb())
    assert state.damage[1][CONTROL] == 2


def test_an_exhausted_crew_member_cannot_trigger():
    state = table(active=0)
    put(state, crew(0, 1), "C2", ready=False)
    with pytest.raises(IllegalAction, match="exhausted"):
        act(state, 0, Trigger(CONTROL, 0, (crew(0, 1),)))


def test_no_trigger_without_a_valid_target():
    state = table(active=0, sectors=(3, 3))
    put(state, crew(0, 1), "A1")  # Stern Mortar: distant, enemy behind
    assert not any(isinstance(a, Trigger) and a.position == at("A1") for a in GAME.legal_actions(state, 0, {}))
    with pytest.raises(IllegalAction, match="no target: the enemy is not behind you at distant range"):
        act(state, 0, Trigger(at("A1"), 0, (crew(0, 1),)))


def test_no_trigger_when_the_crew_member_cannot_move_toward_the_control_room():
    state = table(active=0, sectors=(5, 1))
    put(state, crew(0, 1), "A1")
    destroy(state, 0, "B1")
    hurt(state, 0, "B2", 3)
    with pytest.raises(IllegalAction, match="can't move toward the control room"):
        act(state, 0, Trigger(at("A1"), 0, (crew(0, 1),)))
    hurt(state, 0, "B2", 0)
    state = fire(state, 0, "A1", crew(0, 1))  # one way left: taken by itself
    assert state.crew[crew(0, 1)][1] == at("B2")


def test_no_trigger_of_a_compartment_an_opposing_crew_member_is_in():
    state = table(active=0)
    put(state, crew(1, 2), "C2", sub=0)  # a boarder in Bruno's control room
    with pytest.raises(IllegalAction, match="enemy crew member is in PzBridge"):
        act(state, 0, Trigger(CONTROL, 0, (crew(0, 1),)))
    assert not any(isinstance(a, Trigger) for a in GAME.legal_actions(state, 0, {}))
    # His own crew may still be in it and move through it.
    assert Move(crew(0, 1), at("B1")) in GAME.legal_actions(state, 0, {})


def test_no_triggers_in_either_players_first_turn_not_even_as_reactions():
    state = table(active=0, first_turns=True)
    assert not any(isinstance(a, Trigger) for a in GAME.legal_actions(state, 0, {}))
    with pytest.raises(IllegalAction, match="first turn"):
        act(state, 0, Trigger(CONTROL, 0, (crew(0, 1),)))
    put(state, crew(1, 1), "E2")  # Ludovic's Gatling Gun is manned: still no window
    state = act(state, 0, Maneuver(1, 0, None))
    assert state.phase == Phase.ACTION
    # The second player's first turn: the first player can't react either.
    state = act(state, 0, EndTurn())
    state = act(state, 1, Breathe(at("D1")))
    assert state.first_turns and not any(isinstance(a, Trigger) for a in GAME.legal_actions(state, 1, {}))
    state = act(state, 1, EndTurn())
    state = act(state, 0, Breathe(at("B2")))
    assert not state.first_turns and any(isinstance(a, Trigger) for a in GAME.legal_actions(state, 0, {}))


# -- standby ------------------------------------------------------------------------------------------


def test_a_standby_effect_works_while_manned_once_however_many_crew_and_is_never_triggered():
    state = table(active=1, layouts=(PANZER, layout(("D2", "Signal Room"), base=TALION)))
    signals = at("D2")  # its effect 1: standby, +1 to every attack total
    assert bonus(state, 1, "attack-bonus") == 0
    put(state, crew(1, 1), signals)
    put(state, crew(1, 2), signals, ready=False)  # exhausted crew man it too
    assert bonus(state, 1, "attack-bonus") == 1
    gatling = state.kit[1][at("E2")].effects[0]
    assert attack_total(state, 1, gatling) == 4
    with pytest.raises(IllegalAction, match="standby"):
        act(state, 1, Trigger(signals, 1, (crew(1, 1),)))


def test_standby_works_in_the_opponents_turn_too_and_a_boarder_blocks_it():
    talion = layout(("A2", "Armoured Turret"), base=TALION)  # armoured in the aft, +1 in the fore
    state = table(active=0, layouts=(PANZER, talion))
    put(state, crew(1, 1), "A2")
    assert armour(state, 1, "fore") == 1  # the Turret's +1 in the fore, in Bruno's turn
    put(state, crew(0, 2), "A2", sub=1)  # a boarder blocks the effect …
    assert armour(state, 1, "fore") == 0
    assert armour(state, 1, "aft") == 1  # … but not the armoured type


def test_an_engine_bonus_adds_speed_while_manned():
    panzer = layout(("B1", "Overdrive Boiler"), base=PANZER)
    state = table(active=0, layouts=(panzer, TALION))
    put(state, crew(0, 1), "B1")
    assert speed(state, 0) == 3  # the control room, the Overdrive as an engine, and its +1


# -- alert icons ---------------------------------------------------------------------------------------


def test_a_single_use_effect_is_triggered_once_an_action_phase_whoever_triggers_it():
    state = table(active=0)
    state = act(state, 0, Trigger(CONTROL, 0, (crew(0, 1),)))  # the control room: single-use
    state = act(state, 1, Absorb())
    assert Trigger(CONTROL, 0, (crew(0, 2),)) not in GAME.legal_actions(state, 0, {})
    with pytest.raises(IllegalAction, match="single-use and was used this action phase"):
        act(state, 0, Trigger(CONTROL, 0, (crew(0, 2),)))
    # Next turn it is back.
    state = act(state, 0, EndTurn())
    state = act(state, 1, Breathe(at("D1")))
    state = act(state, 1, EndTurn())
    state = act(state, 0, Breathe(at("B2")))
    assert Trigger(CONTROL, 0, (crew(0, 2),)) in GAME.legal_actions(state, 0, {})


def test_two_keys_two_ready_crew_members_trigger_one_effect_doubled_after_the_armour():
    # "Double the final effect": what gets through the armour, (3 − 1) × 2 = 4, as two attacks of
    # 3 would deal (I9) — not 3 × 2 − 1 = 5.
    panzer = layout(("E1", "Twin Torpedo Tubes"), base=PANZER)
    talion = layout(("B1", "Marine Barracks"), base=TALION)  # armour in Ludovic's aft
    state = table(active=0, layouts=(panzer, talion), sectors=(2, 3))
    put(state, crew(1, 1), "B1")
    put(state, crew(0, 1), "E1")
    put(state, crew(0, 2), "E1")
    options = [a for a in GAME.legal_actions(state, 0, {}) if isinstance(a, Trigger) and a.position == at("E1")]
    assert options == [
        Trigger(at("E1"), 0, (crew(0, 1),)),
        Trigger(at("E1"), 0, (crew(0, 2),)),
        Trigger(at("E1"), 0, (crew(0, 1), crew(0, 2))),
    ]
    state = act(state, 0, Trigger(at("E1"), 0, (crew(0, 1), crew(0, 2))))
    # Each crew member moves toward the control room and exhausts before the effect resolves.
    assert state.phase == Phase.STEP and state.notes[-1][0] == "trigger"
    state = act(state, 0, Step(crew(0, 1), at("D1")))
    assert state.phase == Phase.STEP
    before = state
    state = act(state, 0, Step(crew(0, 2), at("D2")))
    assert ("attack", 0, "attack", "aft", 3, 1, 4) in state.notes
    assert "Attack on ludovic's aft: (3 − armour 1) × 2 (two keys) = 4 damage." in lines(before, Step(crew(0, 2), at("D2")), state, 0)
    assert not state.crew[crew(0, 1)][2] and not state.crew[crew(0, 2)][2]


def test_two_keys_with_one_crew_member_is_the_plain_effect_and_other_effects_take_one():
    panzer = layout(("E1", "Twin Torpedo Tubes"), base=PANZER)
    state = table(active=0, layouts=(panzer, TALION), sectors=(2, 3))
    put(state, crew(0, 1), "E1")
    state = fire(state, 0, "E1", crew(0, 1))
    assert ("attack", 0, "attack", "aft", 3, 0, 3) in state.notes
    state = table(active=0)
    with pytest.raises(IllegalAction, match="only a two-keys effect"):
        act(state, 0, Trigger(CONTROL, 0, (crew(0, 1), crew(0, 2))))


# -- a tile with two effects -----------------------------------------------------------------------------


def test_the_two_effects_of_a_tile_are_used_separately():
    # Broadside Battery (C1): effect 1 fires to port, effect 2 to starboard.
    state = table(active=0, sectors=(3, 3), upper=1)  # the enemy is on Bruno's port side
    put(state, crew(0, 1), "C1")
    put(state, crew(0, 2), "C1")
    triggers = {a for a in GAME.legal_actions(state, 0, {}) if isinstance(a, Trigger) and a.position == at("C1")}
    assert triggers == {Trigger(at("C1"), 0, (crew(0, 1),)), Trigger(at("C1"), 0, (crew(0, 2),))}
    assert PRESENTATION.describe_action(state, 0, Trigger(at("C1"), 0, (crew(0, 1),)), {}, ()) == "trigger Broadside 1 with sailor 1"
    state = fire(state, 0, "C1", crew(0, 1))
    state = act(state, 1, Absorb())
    # Swing round (speed 2: the Boiler manned) and fire the other effect.
    put(state, crew(0, 3), "A2")
    state = act(state, 0, Maneuver(0, 0, 0))
    state = fire(state, 0, "C1", crew(0, 2), effect=1)
    assert ("attack", 0, "attack", "port", 3, 0, 3) in state.notes


def test_a_standby_and_a_duty_effect_on_one_tile_the_gunner_leaving_ends_the_standby():
    panzer = layout(("E1", "Armoured Turret"), base=PANZER)
    state = table(active=0, layouts=(panzer, TALION), sectors=(1, 3))
    put(state, crew(0, 1), "E1")
    assert armour(state, 0, "fore") == 2  # armoured type + its standby +1 (fore)
    state = fire(state, 0, "E1", crew(0, 1), to="D2")
    assert ("attack", 0, "attack", "aft", 3, 0, 3) in state.notes
    assert armour(state, 0, "fore") == 0  # the Turret is unmanned now (D2 is an engine)


# -- counter reactions ---------------------------------------------------------------------------------


def _gatling_ready(state):
    put(state, crew(1, 1), "E2", ready=False)  # exhausted crew man a counter too
    return state


def test_a_counter_window_opens_after_an_opponents_effect_when_the_reactor_has_a_legal_reaction():
    state = _gatling_ready(table(active=0))
    state = act(state, 0, Trigger(CONTROL, 0, (crew(0, 1),)))
    state = act(state, 1, Absorb())
    step = GAME.step(state)
    assert state.phase == Phase.COUNTER and isinstance(step, ReactionWindow) and step.players == (1,)
    assert "PzBridge" in step.prompt
    assert GAME.legal_actions(state, 1, {}) == [React(at("E2"), 0), Pass()]
    assert GAME.legal_actions(state, 0, {}) == []


def test_a_reaction_resolves_at_once_the_active_player_defends_and_the_reacting_crew_return_exhausted():
    state = _gatling_ready(table(active=0))
    put(state, crew(1, 2), "E2")
    state = act(state, 0, Trigger(CONTROL, 0, (crew(0, 1),)))
    state = act(state, 1, Absorb())
    state = act(state, 1, React(at("E2"), 0))
    assert state.phase == Phase.DEFEND and GAME.step(state).actors == (0,)
    before = state
    state = act(state, 0, Absorb())
    assert state.damage[0][CONTROL] == 1
    for k in (1, 2):
        assert state.crew[crew(1, k)] == (1, CONTROL, False, True)
    assert "ludovic's sailor 1 and sailor 2 returned to the control room, exhausted." in lines(before, Absorb(), state, 0)
    # No reactions to reactions, and nothing more to react with: back to Bruno's action phase.
    assert state.phase == Phase.ACTION and state.active == 0


def test_no_window_opens_when_the_reactor_has_no_legal_reaction():
    state = table(active=0)  # the Gatling Gun is unmanned
    state = act(state, 0, Trigger(CONTROL, 0, (crew(0, 1),)))
    state = act(state, 1, Absorb())
    assert state.phase == Phase.ACTION
    # Manned, but the Mine Layer (enemy behind only) has no target with the enemy alongside.
    talion = layout(("E2", "Mine Layer"), base=TALION)
    state = table(active=0, layouts=(PANZER, talion))
    put(state, crew(1, 1), "E2")
    state = act(state, 0, Trigger(CONTROL, 0, (crew(0, 1),)))
    state = act(state, 1, Absorb())
    assert state.phase == Phase.ACTION


def test_a_counter_window_opens_after_an_opponents_maneuver():
    state = _gatling_ready(table(active=0, sectors=(2, 4)))
    state = act(state, 0, Maneuver(1, 0, None))
    assert state.phase == Phase.COUNTER and "maneuver" in GAME.step(state).prompt
    state = act(state, 1, Pass())
    assert state.phase == Phase.ACTION and state.maneuvered


def test_several_compartments_may_react_to_one_effect_each_once():
    state = _gatling_ready(table(active=0))
    put(state, crew(1, 2), "D2")  # the Anti-propeller Chain: counter, move a submarine 1
    state = act(state, 0, Trigger(CONTROL, 0, (crew(0, 1),)))
    state = act(state, 1, Absorb())
    assert GAME.legal_actions(state, 1, {}) == [React(at("D2"), 0), React(at("E2"), 0), Pass()]
    state = act(state, 1, React(at("D2"), 0))
    state = act(state, 1, Drive(1, 1, None))  # Ludovic moves his own submarine ahead
    assert state.phase == Phase.COUNTER
    assert GAME.legal_actions(state, 1, {}) == [React(at("E2"), 0), Pass()]
    with pytest.raises(IllegalAction, match="not manned"):
        act(state, 1, React(at("D2"), 0))
    state = act(state, 1, React(at("E2"), 0))
    state = act(state, 0, Absorb())
    assert state.phase == Phase.ACTION


def test_a_single_use_counter_reacts_once_in_the_opponents_action_phase():
    state = table(active=0)
    put(state, crew(1, 2), "D2")
    put(state, crew(1, 3), "D2")
    state = act(state, 0, Trigger(CONTROL, 0, (crew(0, 1),)))
    state = act(state, 1, Absorb())
    state = act(state, 1, React(at("D2"), 0))
    state = act(state, 1, Drive(1, 1, None))
    put(state, crew(1, 2), "D2")  # manned again
    state = act(state, 0, Maneuver(-1, 0, None))
    assert state.phase == Phase.ACTION  # used this action phase: no window


def test_a_reaction_counts_bonuses_of_the_reactor_and_armour_of_the_active_player():
    state = _gatling_ready(table(active=0, layouts=(PANZER, layout(("D2", "Signal Room"), base=TALION))))
    put(state, crew(1, 2), "D2")  # the Signal Room: +1 to Ludovic's attacks, reactions too
    put(state, crew(0, 2), "B1")  # Bruno's Bulkhead manned: port armour 1
    state = act(state, 0, Trigger(CONTROL, 0, (crew(0, 1),)))
    state = act(state, 1, Absorb())
    state = act(state, 1, React(at("E2"), 0))
    assert ("attack", 1, "attack", "port", 4, 1, 3) in state.notes


def test_a_counter_works_like_a_duty_button_in_its_owners_turn():
    state = table(active=1)
    put(state, crew(1, 1), "E2")
    assert Trigger(at("E2"), 0, (crew(1, 1),)) in GAME.legal_actions(state, 1, {})


# -- effects -------------------------------------------------------------------------------------------


def test_repair_removes_damage_from_one_of_your_compartments_but_not_the_control_room():
    state = table(active=0)
    put(state, crew(0, 1), "D1")
    hurt(state, 0, "E1", 3)
    hurt(state, 0, "B1", 1)
    hurt(state, 0, "C2", 2)
    state = act(state, 0, Trigger(at("D1"), 0, (crew(0, 1),)))
    assert state.phase == Phase.AIM
    assert GAME.legal_actions(state, 0, {}) == [TargetTile(at("B1")), TargetTile(at("E1"))]
    with pytest.raises(IllegalAction, match="not the control room"):
        act(state, 0, TargetTile(CONTROL))
    state = act(state, 0, TargetTile(at("E1")))
    assert state.damage[0][at("E1")] == 1 and state.damage[0][CONTROL] == 2


def test_refill_puts_oxygen_back_on_empty_undamaged_oxygen_gears():
    state = table(active=0)
    put(state, crew(0, 1), "B2")  # Oxygen Tanks: refill 2, single-use
    state.oxygen[0][at("C1")] = 0  # Broadside Battery: 2 oxygen gears, both empty …
    hurt(state, 0, "C1", 3)  # … and 3 of its 4 gears damaged: one oxygen gear left
    state.oxygen[0][at("B2")] = 1
    state.taken[0] = 3  # the enemy took 3 tokens: a refill may put them back (I27)
    state = act(state, 0, Trigger(at("B2"), 0, (crew(0, 1),)))
    assert GAME.legal_actions(state, 0, {}) == [TargetTile(at("C1")), TargetTile(at("B2"))]
    state = act(state, 0, TargetTile(at("C1")))
    assert state.oxygen[0][at("C1")] == 1
    assert state.taken[0] == 2


def test_refill_puts_back_only_oxygen_the_enemy_took_never_what_breathing_used():
    state = table(active=0)
    put(state, crew(0, 1), "B2")  # Oxygen Tanks: refill 2
    state.oxygen[0][at("B2")] = 0  # breathed away: no enemy took it
    with pytest.raises(IllegalAction, match="the enemy has taken no oxygen from you to put back"):
        act(state, 0, Trigger(at("B2"), 0, (crew(0, 1),)))
    state.taken[0] = 1  # one token lost to the enemy: the refill of 2 puts back one
    state = act(state, 0, Trigger(at("B2"), 0, (crew(0, 1),)))  # (its only target: chosen for you)
    assert state.oxygen[0][at("B2")] == 1 and state.taken[0] == 0


def play_watching_oxygen(table_: LocalTable, bots: list[Any]) -> bool:
    """Play ``table_`` to the end, checking after every step that a seat's oxygen plus the tokens
    the enemy took from it (``taken``) fell by one at its breath and never changed otherwise.
    Whether the enemy ever took oxygen."""
    seen: list[list[int]] = []
    took = False

    def watch(t: LocalTable) -> bool:
        nonlocal took
        state = t.state
        if state.phase in (Phase.ACTION, Phase.RECOVERY, Phase.COUNTER, Phase.DEFEND, Phase.DRAIN, Phase.OVER):
            totals = [sum(state.oxygen[s]) + state.taken[s] for s in (0, 1)]
            if seen:
                last = t.log[-1]
                breathed = last.player if isinstance(last, Act) and isinstance(last.action, Breathe) else None
                if state.turn != seen[-1][2] and state.phase != Phase.RECOVERY:
                    breathed = state.active  # the only compartment with oxygen: breathed for you
                for s in (0, 1):
                    assert totals[s] == seen[-1][s] - (1 if breathed == s else 0), len(t.log)
            seen.append([*totals, state.turn])
            took = took or any(state.taken)
        return False

    table_.play_with(bots, until=watch)
    watch(table_)
    assert table_.state.phase == Phase.OVER and table_.state.turn <= 2 * max(seen[0][:2]) + 1
    return took


@pytest.mark.parametrize("build", BUILD_OPTIONS)
def test_only_breathing_changes_oxygen_plus_what_the_enemy_took_so_every_game_ends(build):
    """Drains, the oxygen attack's fallback pick and damage over oxygen gears move tokens into
    ``taken``, refills move them back; only breathing loses one (I27). So a seat has at most as
    many turns as it had oxygen, and every game ends — random play here, the bots below."""
    for seed in (b"1", b"2", b"3"):
        table_ = LocalTable(GAME, GAME.ruleset(2, {"build": build}), seed + build.encode(), check=False)
        play_watching_oxygen(table_, [PlayoutBot(seed)] * 2)


def test_oxygen_the_enemy_takes_is_counted_in_bot_games_and_refills_give_it_back():
    took = False
    for number in range(4):
        seed = bytes([number])
        table_ = LocalTable(GAME, GAME.ruleset(2, {"build": "starter"}), seed, check=False)
        took = play_watching_oxygen(table_, [bot_for(GAME, seed + bytes([s]), "heuristic") for s in (0, 1)]) or took
    assert took  # the counting was exercised


def test_move_crew_moves_a_ready_or_exhausted_crew_member_anywhere_not_destroyed():
    state = table(active=1)
    put(state, crew(1, 1), "B2")  # Ballast Tanks: move-crew
    put(state, crew(1, 2), "A1", ready=False)
    hurt(state, 1, "E1", 3)
    state = fire(state, 1, "B2", crew(1, 1))
    options = GAME.legal_actions(state, 1, {})
    assert Relocate(crew(1, 2), at("E2")) in options and Relocate(crew(1, 2), at("E1")) not in options
    state = act(state, 1, Relocate(crew(1, 2), at("E2")))
    assert state.crew[crew(1, 2)] == (1, at("E2"), False, True)


def test_move_sub_moves_either_submarine_and_is_no_maneuver():
    talion = layout(("D1", "Sonar Room"), base=TALION)
    state = table(active=1, layouts=(PANZER, talion), sectors=(3, 3))
    put(state, crew(1, 1), "D1")
    state = fire(state, 1, "D1", crew(1, 1))
    options = GAME.legal_actions(state, 1, {})
    assert Drive(0, -2, None) in options and Drive(1, 2, None) in options and Drive(0, 3, None) not in options
    state = act(state, 1, Drive(0, -2, None))
    assert state.sectors == [1, 3] and not state.maneuvered


def test_boarding_moves_the_crew_member_into_an_enemy_compartment_which_it_blocks():
    # Ludovic's Boarding Tube (B1: close, enemy on his port side, hits its starboard).
    state = table(active=1, sectors=(3, 3), upper=0)
    put(state, crew(1, 1), "B1")
    state = fire(state, 1, "B1", crew(1, 1), to="B2")
    # Bruno's starboard is his outer row, the control room excepted.
    assert GAME.legal_actions(state, 1, {}) == [TargetTile(at(p)) for p in ("A2", "B2", "D2", "E2")]
    state = act(state, 1, TargetTile(at("B2")))
    assert state.crew[crew(1, 1)] == (0, at("B2"), False, True)
    # Bruno can't trigger his Oxygen Tanks while the boarder is there.
    state = act(state, 1, EndTurn())
    state = act(state, 0, Breathe(at("E1")))
    put(state, crew(0, 1), "B2")
    with pytest.raises(IllegalAction, match="enemy crew member is in O2Tanks"):
        act(state, 0, Trigger(at("B2"), 0, (crew(0, 1),)))


def test_a_boarder_may_move_inside_the_enemy_submarine_but_never_triggers_there():
    state = table(active=1)
    put(state, crew(1, 1), "B2", sub=0)
    options = GAME.legal_actions(state, 1, {})
    assert Move(crew(1, 1), at("A2")) in options
    assert not any(isinstance(a, Trigger) and crew(1, 1) in a.crews for a in options)
    state = act(state, 1, Move(crew(1, 1), at("A2")))
    assert state.crew[crew(1, 1)] == (0, at("A2"), False, True)


def test_a_boarder_goes_down_with_the_compartment_it_is_in():
    state = table(active=0, sectors=(2, 3))
    put(state, crew(0, 1), "E1")
    put(state, crew(0, 2), "A2", sub=1)  # Bruno's own boarder in Ludovic's aft
    hurt(state, 1, "A2", 2)
    state = fire(state, 0, "E1", crew(0, 1))
    state = act(state, 1, Assign(at("A2")))
    assert not state.crew[crew(0, 2)][3]


def test_repel_eliminates_a_boarder_as_a_reaction_to_the_boarding():
    panzer = layout(("B1", "Assault Lock"), base=PANZER)
    state = table(active=0, layouts=(panzer, TALION), sectors=(3, 3), upper=0)
    put(state, crew(0, 1), "B1")
    put(state, crew(1, 1), "C1")  # Ludovic's Marine Barracks: counter, repel
    state = fire(state, 0, "B1", crew(0, 1))  # Assault Lock: enemy to starboard, hits its port
    state = act(state, 0, TargetTile(at("B2")))
    assert state.crew[crew(0, 1)] == (1, at("B2"), False, True)
    assert state.phase == Phase.COUNTER and React(at("C1"), 0) in GAME.legal_actions(state, 1, {})
    state = act(state, 1, React(at("C1"), 0))
    assert not state.crew[crew(0, 1)][3]
    assert state.crew[crew(1, 1)] == (1, CONTROL, False, True)
    assert ("eliminated", crew(0, 1), "repel", True) in state.notes
    assert TargetCrew  # noqa: B018 - the only boarder was taken by itself
