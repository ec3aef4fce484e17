"""The tile data and its loader: the shipped set is complete, and a bad file is refused naming the
tile and the field (tiles.py, tiles.toml)."""

import pytest

from p2pgames.games.torpedo.tiles import (
    ALERTS,
    BUTTONS,
    CREW_KINDS,
    POSITIONS,
    RANGES,
    TILESET,
    TileError,
    load_tiles,
)

GOOD_TILE = """
[[tile]]
name = "Test Gun"
short = "TestGun"
faction = "panzer"
type = "standard"
structure = 3
oxygen = 1

[[tile.effect]]
button = "duty"
kind = "attack"
value = 2
range = "close"
position = "front"
hits = "aft"
"""


def _with_shipped(extra: str) -> str:
    from importlib import resources

    return resources.files("p2pgames.games.torpedo").joinpath("tiles.toml").read_text() + extra


def _refused(text: str) -> TileError:
    with pytest.raises(TileError) as caught:
        load_tiles(text)
    return caught.value


# -- the shipped set ---------------------------------------------------------------------------------


def test_two_starter_submarines_of_ten_tiles_each_with_a_control_room_in_the_middle_of_the_outer_row():
    assert set(TILESET.starters) == {"panzer", "talion"}
    assert TILESET.starters["panzer"].name == "Panzer la Rochelle"
    assert TILESET.starters["talion"].name == "Talion"
    for starter in TILESET.starters.values():
        assert len(starter.layout) == len(set(starter.layout)) == 10
        controls = [index for index, name in enumerate(starter.layout) if TILESET.tiles[name].is_control]
        assert controls == [7]
        assert all(TILESET.tiles[name].faction == starter.faction for name in starter.layout)


def test_at_least_ten_tiles_beyond_the_starters_and_a_control_room_per_player():
    in_starters = {name for starter in TILESET.starters.values() for name in starter.layout}
    assert len(set(TILESET.tiles) - in_starters) >= 10
    assert len(TILESET.control_rooms) >= 2


def test_every_experimental_tile_can_be_used_in_the_opponents_turn():
    # "Experimental (blue) tiles … can be used during your opponent's turn!" (I29): each has a
    # counter effect; the loader refuses one without (test_a_bad_tile_is_refused_…).
    experimental = [tile for tile in TILESET.tiles.values() if tile.type == "experimental"]
    assert experimental and "Telin Gas Launcher" in {tile.name for tile in experimental}
    for tile in experimental:
        assert any(effect.button == "counter" for effect in tile.effects), tile.name
    counter = GOOD_TILE.replace('type = "standard"', 'type = "experimental"').replace('button = "duty"', 'button = "counter"')
    assert load_tiles(_with_shipped(counter)).tiles["Test Gun"].type == "experimental"


def test_the_tiles_use_every_mechanic_the_rulebook_describes():
    effects = [effect for tile in TILESET.tiles.values() for effect in tile.effects]
    assert {effect.button for effect in effects} == set(BUTTONS)
    assert {effect.alert for effect in effects} == set(ALERTS)
    aimed = [effect for effect in effects if effect.aimed]
    assert {effect.range for effect in aimed} == set(RANGES)
    assert {effect.position for effect in aimed} == set(POSITIONS)
    kinds = {effect.kind for effect in effects}
    assert kinds >= {
        "attack", "oxygen-attack", "crew-attack", "board", "repel", "repair", "refill",
        "move-crew", "move-sub", "armor-bonus", "speed-bonus", "attack-bonus",
    }
    assert {effect.crew for effect in effects if effect.kind == "crew-attack"} == set(CREW_KINDS)
    types = {tile.type for tile in TILESET.tiles.values()}
    assert types == {"standard", "engine", "armored", "experimental", "control"}
    assert any(len(tile.effects) == 2 for tile in TILESET.tiles.values())
    # A counter that attacks (a reaction with a target) and a two-keys attack.
    assert any(e.button == "counter" and e.kind == "attack" for e in effects)
    assert any(e.alert == "two-keys" and e.kind == "attack" for e in effects)


def test_every_control_room_is_a_combat_compartment():
    for name in TILESET.control_rooms:
        assert any(effect.kind == "attack" for effect in TILESET.tiles[name].effects)


def test_short_names_are_unique_and_fit_the_grid():
    shorts = [tile.short.casefold() for tile in TILESET.tiles.values()]
    assert len(shorts) == len(set(shorts))
    assert all(3 <= len(tile.short) <= 9 for tile in TILESET.tiles.values())


def test_tiles_are_found_by_name_or_short_name_in_any_case():
    assert TILESET.find("gatling gun").name == "Gatling Gun"
    assert TILESET.find("  GATLING ").name == "Gatling Gun"
    assert TILESET.find("Gatling  Gun").name == "Gatling Gun"
    assert TILESET.find("no such tile") is None


def test_a_small_good_file_loads():
    starters = """
[[starter]]
faction = "panzer"
name = "P"
inner = ["Stern Mortar", "Armoured Bulkhead", "Broadside Battery", "Riveted Hold", "Bow Cannon"]
outer = ["Boiler Room", "Oxygen Tanks", "Panzer Control Room", "Turbine Hall", "Grapeshot Gun"]
"""
    assert "Test Gun" in load_tiles(_with_shipped(GOOD_TILE)).tiles
    # Starters of the shipped file, restated, are refused as duplicates: one per faction.
    error = _refused(_with_shipped(starters))
    assert error.field == "faction" and "two starters" in str(error)


# -- bad files: each names the tile and the field ----------------------------------------------------


@pytest.mark.parametrize(
    "change, field, words",
    [
        (("structure = 3", "structure = 0"), "structure", "from 1 to 9"),
        (("structure = 3", "structure = 10"), "structure", "from 1 to 9"),
        (("structure = 3", 'structure = "3"'), "structure", "whole number"),
        (("structure = 3", "structure = true"), "structure", "whole number"),
        (("oxygen = 1", "oxygen = 4"), "oxygen", "from 0 to 3"),
        (('faction = "panzer"', 'faction = "british"'), "faction", "not one of"),
        (('type = "standard"', 'type = "reactor"'), "type", "not one of"),
        (('short = "TestGun"', 'short = "TestGunnery"'), "short", "3–9 letters"),
        (('short = "TestGun"', 'short = "B2"'), "short", "3–9 letters"),
        (('short = "TestGun"', 'short = "with"'), "short", "typed moves"),
        (('short = "TestGun"', 'short = "Gatling"'), "short", "already the short name of Gatling Gun"),
        (('short = "TestGun"', 'short = "Test Gun"'), "short", "3–9 letters"),
        (('oxygen = 1', 'oxygen = 1\ncolour = "red"'), "colour", "unknown field"),
        (('button = "duty"', 'button = "push"'), "effect 1.button", "not one of"),
        (('button = "duty"', 'button = "duty"\nalert = "twice"'), "effect 1.alert", "not one of"),
        (('kind = "attack"', 'kind = "explode"'), "effect 1.kind", "not one of"),
        (("value = 2", "value = 0"), "effect 1.value", "from 1 to 9"),
        (('range = "close"', 'range = "near"'), "effect 1.range", "not one of"),
        (('position = "front"', 'position = "above"'), "effect 1.position", "not one of"),
        (('hits = "aft"', 'hits = "keel"'), "effect 1.hits", "not one of"),
        (('hits = "aft"\n', ""), "effect 1.hits", "needs it"),
        (('hits = "aft"', 'hits = "aft"\ncrew = "sailor"'), "effect 1.crew", "has no crew"),
        (('button = "duty"', 'button = "standby"'), "effect 1.button", "bonuses"),
        (('button = "duty"', 'button = "duty"\nalert = "two-keys"'), None, None),
        (('button = "duty"', 'button = "counter"'), None, None),
        (('position = "front"', 'position = "port"'), None, None),
        (('range = "close"\nposition = "front"', 'range = "distant"\nposition = "port"'), "effect 1.range", "never distant"),
        (('type = "standard"', 'type = "control"'), None, None),
        (('type = "standard"', 'type = "experimental"'), "effect", "needs a counter effect"),
    ],
)
def test_a_bad_tile_is_refused_naming_the_tile_and_the_field(change, field, words):
    old, new = change
    assert old in GOOD_TILE
    text = _with_shipped(GOOD_TILE.replace(old, new, 1))
    if field is None:
        assert "Test Gun" in load_tiles(text).tiles  # a good variation: loads
        return
    error = _refused(text)
    assert error.tile == "Test Gun"
    assert error.field == field
    assert words in str(error)
    assert str(error).startswith(f"tile Test Gun, field {field!r}: ")


@pytest.mark.parametrize(
    "effect, field, words",
    [
        ('button = "standby"\nkind = "speed-bonus"\nvalue = 1\nalert = "single"', "effect 1.alert", "no alert"),
        ('button = "duty"\nkind = "speed-bonus"\nvalue = 1', "effect 1.button", "must be standby"),
        ('button = "duty"\nkind = "move-crew"\nalert = "two-keys"', "effect 1.alert", "doubles a number"),
        ('button = "counter"\nkind = "board"\nrange = "close"\nposition = "front"\nhits = "aft"', "effect 1.button", "can't board"),
        ('button = "duty"\nkind = "armor-bonus"\nvalue = 1\nlocation = "keel"', "effect 1.location", "not one of"),
        ('kind = "repair"\nvalue = 1', "effect 1.button", "missing"),
    ],
)
def test_effects_that_could_not_work_are_refused(effect, field, words):
    tile = GOOD_TILE.split("[[tile.effect]]")[0] + "[[tile.effect]]\n" + effect + "\n"
    error = _refused(_with_shipped(tile))
    assert (error.tile, error.field) == ("Test Gun", field)
    assert words in str(error)


def test_a_control_room_without_an_attack_and_a_tile_with_three_effects_are_refused():
    control = GOOD_TILE.replace('type = "standard"', 'type = "control"').replace(
        'kind = "attack"\nvalue = 2\nrange = "close"\nposition = "front"\nhits = "aft"', 'kind = "repair"\nvalue = 1'
    )
    error = _refused(_with_shipped(control))
    assert (error.tile, error.field) == ("Test Gun", "effect")
    effect = GOOD_TILE.split("[[tile.effect]]")[1]
    three = GOOD_TILE + "[[tile.effect]]" + effect + "[[tile.effect]]" + effect
    error = _refused(_with_shipped(three))
    assert (error.tile, error.field) == ("Test Gun", "effect") and "0–2" in str(error)


def test_duplicate_names_and_missing_fields_are_refused():
    error = _refused(_with_shipped(GOOD_TILE.replace("Test Gun", "Gatling Gun").replace("TestGun", "Other")))
    assert (error.tile, error.field) == ("Gatling Gun", "name")
    error = _refused(_with_shipped(GOOD_TILE.replace("structure = 3\n", "")))
    assert (error.tile, error.field) == ("Test Gun", "structure") and "missing" in str(error)
    error = _refused(_with_shipped(GOOD_TILE.replace('name = "Test Gun"\n', "")))
    assert error.field == "name" and error.tile.startswith("#")


def test_bad_toml_and_unknown_tables_are_refused():
    error = _refused("[[tile]\nname = ")
    assert "not a valid TOML file" in str(error)
    error = _refused(_with_shipped("\n[[monster]]\nname = 'kraken'\n"))
    assert error.field == "monster"


@pytest.mark.parametrize(
    "old, new, field, words",
    [
        ('"Bow Cannon"]\nouter', '"Gatling Gun"]\nouter', "inner", "is a talion tile"),
        ('"Bow Cannon"]\nouter', '"No Such Tile"]\nouter', "inner", "is not a tile"),
        ('"Bow Cannon"]\nouter', '"Stern Mortar"]\nouter', "inner", "in the layout twice"),
        ('"Riveted Hold", "Bow Cannon"]', '"Bow Cannon"]', "inner", "5 tile names"),
        ('"Oxygen Tanks", "Panzer Control Room"', '"Panzer Control Room", "Oxygen Tanks"', "outer", "middle tile of the outer row"),
        ('name = "Panzer la Rochelle"', 'name = "Panzer la Rochelle"\nspeed = 3', "speed", "unknown field"),
    ],
)
def test_a_bad_starter_is_refused_naming_it_and_the_field(old, new, field, words):
    text = _with_shipped("")
    assert old in text
    error = _refused(text.replace(old, new, 1))
    assert (error.tile, error.field) == ("starter panzer", field)
    assert words in str(error)


def test_a_file_without_a_starter_for_each_faction_is_refused():
    text = _with_shipped("")
    cut = text.index('[[starter]]\nfaction = "talion"')
    error = _refused(text[:cut])
    assert error.tile == "starter talion" and "missing" in str(error)
