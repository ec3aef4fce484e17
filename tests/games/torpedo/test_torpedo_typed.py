"""Typed moves (typed.py): every description reads back as its action, and a refused move says why."""

import pytest

from p2pgames.engine import IllegalAction, MalformedAction
from p2pgames.games.torpedo import GAME
from p2pgames.games.torpedo.actions import (
    Build,
    CaptainMove,
    Drive,
    Maneuver,
    Move,
    Pick,
    Swap,
    TargetCrew,
    TargetTile,
    Trigger,
)
from p2pgames.games.torpedo.build import starter_build
from p2pgames.games.torpedo.presentation import PRESENTATION
from p2pgames.games.torpedo.rules import Phase

from tests.games.torpedo.torpedo_scenarios import CONTROL, NAMES, PANZER, TALION, act, at, crew, fire, layout, put, table


def parse(state, player, text):
    return PRESENTATION.parse_action(state, player, text, {}, NAMES)


def test_trigger_names_the_tile_by_short_name_or_position_and_the_crew():
    state = table(active=1)
    put(state, crew(1, 1), "E2")
    action = Trigger(at("E2"), 0, (crew(1, 1),))
    assert PRESENTATION.describe_action(state, 1, action, {}, NAMES) == "trigger Gatling with sailor 1"
    assert parse(state, 1, "trigger gatling with sailor 1") == action
    assert parse(state, 1, "  TRIGGER   E2 with Sailor 1") == action
    assert parse(state, 1, "trigger Gatling 1 with sailor 1") == action


def test_a_tile_with_two_triggered_effects_needs_its_number():
    state = table(active=0)
    put(state, crew(0, 1), "C1")
    with pytest.raises(IllegalAction, match="Broadside has two effects"):
        parse(state, 0, "trigger Broadside with sailor 1")
    assert parse(state, 0, "trigger Broadside 1 with sailor 1") == Trigger(at("C1"), 0, (crew(0, 1),))


def test_two_keys_are_typed_with_and():
    panzer = layout(("E1", "Twin Torpedo Tubes"), base=PANZER)
    state = table(active=0, layouts=(panzer, TALION), sectors=(2, 3))
    put(state, crew(0, 1), "E1")
    put(state, crew(0, 2), "E1")
    action = Trigger(at("E1"), 0, (crew(0, 1), crew(0, 2)))
    assert PRESENTATION.describe_action(state, 0, action, {}, NAMES) == "trigger TwinTubes with sailor 1 and sailor 2"
    assert parse(state, 0, "trigger TwinTubes with sailor 2 and sailor 1") == action


def test_maneuvers_and_drives_read_the_side_as_the_enemys_side_of_you():
    state = table(active=0, sectors=(2, 3))
    assert parse(state, 0, "maneuver +1 0 port") == Maneuver(1, 0, 1)
    assert parse(state, 0, "maneuver 1 0 starboard") == Maneuver(1, 0, 0)
    assert PRESENTATION.describe_action(state, 0, Maneuver(1, 0, 1), {}, NAMES) == "maneuver +1 0 port"
    assert PRESENTATION.describe_action(state, 1, Drive(0, -2, 1), {}, NAMES) == "drive enemy -2 starboard"
    with pytest.raises(IllegalAction, match="your speed is 1"):
        parse(state, 0, "maneuver +2 0")
    with pytest.raises(MalformedAction, match="number of sectors"):
        parse(state, 0, "maneuver far 0")


def test_moves_and_the_captains_free_move():
    state = table(active=0)
    assert parse(state, 0, "move sailor 2 to B1") == Move(crew(0, 2), at("B1"))
    assert parse(state, 0, "move captain to bulkhead") == Move(crew(0, 0), at("B1"))
    assert parse(state, 0, "captain to B1") == CaptainMove(at("B1"))
    with pytest.raises(IllegalAction, match="not next to it"):
        parse(state, 0, "move sailor 2 to E1")
    with pytest.raises(IllegalAction, match="Gatling is not in your submarine"):
        parse(state, 0, "move sailor 2 to Gatling")
    with pytest.raises(MalformedAction, match="sailors are numbered 1–4"):
        parse(state, 0, "move sailor 5 to B1")
    with pytest.raises(MalformedAction, match="not a compartment"):
        parse(state, 0, "move sailor 1 to kitchen")


def test_targets_name_the_enemys_crew_or_the_right_submarines_compartment():
    state = table(active=1, sectors=(1, 4))
    put(state, crew(1, 1), "E1")  # Harpoon: a captain or sailor of the enemy's
    put(state, crew(0, 0), "D1")
    put(state, crew(0, 1), "E2")
    state = fire(state, 1, "E1", crew(1, 1))
    assert parse(state, 1, "target captain") == TargetCrew(crew(0, 0))
    assert PRESENTATION.describe_action(state, 1, TargetCrew(crew(0, 1)), {}, NAMES) == "target sailor 1"
    with pytest.raises(IllegalAction, match="choose a crew member of the enemy in its fore"):
        parse(state, 1, "target sailor 3")
    # Boarding names the enemy's compartments.
    state = table(active=1, sectors=(3, 3), upper=0)
    put(state, crew(1, 1), "B1")
    state = fire(state, 1, "B1", crew(1, 1))
    assert parse(state, 1, "target O2Tanks") == TargetTile(at("B2"))
    with pytest.raises(IllegalAction, match="Gatling is not in the enemy's submarine"):
        parse(state, 1, "target Gatling")


def test_unknown_words_and_missing_parts_are_not_moves():
    state = table(active=0)
    with pytest.raises(MalformedAction, match="not a Steam Torpedo move"):
        parse(state, 0, "fly away")
    with pytest.raises(MalformedAction, match="'with' is missing"):
        parse(state, 0, "trigger PzBridge")
    with pytest.raises(MalformedAction, match="unexpected"):
        parse(state, 0, "end now")
    with pytest.raises(MalformedAction, match="nothing was typed"):
        parse(state, 0, "   ")


def test_a_move_of_the_wrong_kind_for_now_says_what_is_expected():
    state = table(active=0)
    with pytest.raises(IllegalAction, match="now maneuver, move, trigger or end"):
        parse(state, 0, "absorb")
    with pytest.raises(IllegalAction, match="not your turn"):
        parse(state, 1, "end")


def test_builds_swaps_and_picks():
    state = GAME.setup(GAME.ruleset(2))
    assert parse(state, 0, "build starter panzer") == Build(starter_build("panzer"))
    assert PRESENTATION.describe_action(state, 0, Build(starter_build("talion")), {}, NAMES) == "build starter talion"
    shorts = "ProtoBrdg Gatling Chain Sights GasLaunch BoardTube Harpoon ElecTurb Ballast Barracks"
    built = parse(state, 0, f"build {shorts}")
    assert built.tiles == tuple(sorted(built.tiles)) and "Prototype Bridge" in built.tiles
    assert PRESENTATION.describe_action(state, 0, built, {}, NAMES) == "build " + " ".join(
        GAME_short(name) for name in built.tiles
    )
    with pytest.raises(IllegalAction, match="10 compartments, not 2"):
        parse(state, 0, "build Gatling Chain")
    with pytest.raises(IllegalAction, match="needs a control room"):
        parse(state, 0, "build Gatling Chain Sights GasLaunch BoardTube Harpoon ElecTurb Ballast Barracks Hull")
    with pytest.raises(MalformedAction, match="'Kraken' is not a tile"):
        parse(state, 0, "build Kraken")
    placed = table(active=0)
    placed.phase = Phase.SWAP
    assert parse(placed, 0, "swap Bulkhead Mortar") == Swap(at("A1"), at("B1"))
    with pytest.raises(IllegalAction, match="control room stays"):
        parse(placed, 0, "swap PzBridge Mortar")
    draft = GAME.setup(GAME.ruleset(2, {"build": "draft"}))
    draft.phase, draft.drafter, draft.pool = Phase.DRAFT, 0, list(__import__("p2pgames.games.torpedo.tiles", fromlist=["x"]).TILESET.names)
    assert parse(draft, 0, "pick gatling") == Pick("Gatling Gun")


def GAME_short(name):
    from p2pgames.games.torpedo.tiles import TILESET

    return TILESET.tiles[name].short


def test_every_description_of_a_legal_action_reads_back_in_a_whole_game():
    # The conformance test does this at every step; here one game with names to check the
    # texts stay unique and parse with real names.
    from p2pgames.engine import DeterministicRandom, GameOver, LocalTable, Simultaneous, Turn, normalize_typed

    table_ = LocalTable(GAME, GAME.ruleset(2, {"build": "starter"}), b"typed")
    chooser = DeterministicRandom(b"typed")
    while not isinstance(GAME.step(table_.state), GameOver):
        state = table_.state
        step = GAME.step(state)
        players = step.players if not isinstance(step, Turn) else step.actors
        for player in players:
            options = GAME.legal_actions(state, player, {})
            texts = [PRESENTATION.describe_action(state, player, a, {}, NAMES) for a in options]
            assert len({normalize_typed(t) for t in texts}) == len(texts)
            for action, text in zip(options, texts):
                assert parse(state, player, text) == action
        if isinstance(step, Simultaneous):
            table_.act_simultaneous([(p, GAME.legal_actions(state, p, {})[0]) for p in step.players])
        else:
            options = GAME.legal_actions(state, players[0], {})
            table_.act(players[0], options[chooser.below(len(options))])
    assert CONTROL == 7
