"""Setup (rulebook, "Setup"): building, placement with the control-room swap, the secret swap, the
crew and oxygen, the submarines' start and the first player; every build option."""

import pytest

from p2pgames.engine import (
    Act,
    Chance,
    ChanceOutcome,
    IllegalAction,
    LocalTable,
    Simultaneous,
    SimultaneousActs,
    Turn,
)
from p2pgames.games.torpedo import GAME
from p2pgames.games.torpedo.actions import Build, Keep, Pick, Swap
from p2pgames.games.torpedo.build import BUILD_SIZE, draft_seat, sample_builds, starter_build
from p2pgames.games.torpedo.geometry import CONTROL
from p2pgames.games.torpedo.rules import Phase
from p2pgames.games.torpedo.tiles import TILESET

SEED = bytes(range(32))


def _custom():
    return GAME.setup(GAME.ruleset(2))


def _built(builds=(starter_build("panzer"), starter_build("talion"))):
    state = _custom()
    return GAME.apply(state, SimultaneousActs(tuple((seat, Build(tiles)) for seat, tiles in enumerate(builds))))


def test_game_identity_two_players_exactly():
    assert (GAME.name, GAME.title, GAME.min_players, GAME.max_players) == ("torpedo", "Steam Torpedo", 2, 2)


def test_custom_build_is_a_simultaneous_secret_choice_of_both_players():
    state = _custom()
    assert state.phase == Phase.BUILD
    step = GAME.step(state)
    assert isinstance(step, Simultaneous) and step.players == (0, 1)
    state = _built()
    assert state.phase == Phase.PLACEMENT and isinstance(GAME.step(state), Chance)
    assert ("built", 0, "panzer") in state.notes


@pytest.mark.parametrize(
    "tiles, reason",
    [
        (starter_build("panzer")[:9] + ("Bow Cannon",), "Bow Cannon is in the build twice"),
        (starter_build("panzer")[:9], "a submarine has 10 compartments, not 9"),
        (tuple(sorted(n for n in TILESET.names if not TILESET.tiles[n].is_control))[:10], "needs a control room"),
        (tuple(sorted(("Talion Control Room", *starter_build("panzer")[1:]))), "one control room, not 2"),
        (tuple(sorted(("Kraken Tank", *starter_build("panzer")[1:]))), "'Kraken Tank' is not a tile"),
    ],
)
def test_an_invalid_build_is_refused_with_the_reason_naming_its_builder(tiles, reason):
    state = _custom()
    action = Build(tuple(sorted(tiles)))
    with pytest.raises(IllegalAction, match=reason) as caught:
        GAME.check_action(state, 1, action)
    assert caught.value.player == 1
    # At the reveal, the opened builds are checked: the culprit is named.
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, SimultaneousActs(((0, Build(starter_build("panzer"))), (1, action))))
    assert caught.value.player == 1
    assert not GAME.allows(state, 1, action, {})


def test_any_legal_build_is_allowed_though_only_a_few_are_listed():
    state = _custom()
    listed = GAME.legal_actions(state, 0, {})
    assert Build(starter_build("panzer")) in listed and Build(starter_build("talion")) in listed
    assert all(GAME.allows(state, 0, action, {}) for action in listed)
    mixed = Build(tuple(sorted(("Prototype Bridge", *[n for n in TILESET.names if not TILESET.tiles[n].is_control][-9:]))))
    assert mixed not in listed
    assert GAME.allows(state, 0, mixed, {})
    GAME.check_action(state, 0, mixed)
    # Both players may build with the same tiles: each has a copy.
    GAME.apply(state, SimultaneousActs(((0, mixed), (1, mixed))))


def test_the_sample_builds_are_legal():
    from p2pgames.games.torpedo.build import build_problem

    assert all(build_problem(tiles) is None for tiles in sample_builds())


def test_placement_is_random_and_swaps_the_control_room_into_the_middle_of_the_outer_row():
    layouts = set()
    for seed in range(12):
        state = GAME.apply(_built(), ChanceOutcome(bytes([seed]) * 32))
        assert state.phase == Phase.SWAP
        for seat, faction in enumerate(("panzer", "talion")):
            assert sorted(state.tiles[seat]) == list(starter_build(faction))
            assert TILESET.tiles[state.tiles[seat][CONTROL]].is_control
        layouts.add(state.tiles[0])
    assert len(layouts) > 6


def test_each_player_may_swap_two_tiles_in_secret_but_not_the_control_room():
    state = GAME.apply(_built(), ChanceOutcome(SEED))
    step = GAME.step(state)
    assert isinstance(step, Simultaneous) and step.players == (0, 1)
    options = GAME.legal_actions(state, 0, {})
    assert Keep() in options and Swap(0, 9) in options and len(options) == 37
    with pytest.raises(IllegalAction, match="control room stays"):
        GAME.check_action(state, 0, Swap(2, CONTROL))
    before = state.tiles[0]
    after = GAME.apply(state, SimultaneousActs(((0, Swap(0, 9)), (1, Keep()))))
    assert after.tiles[0][0] == before[9] and after.tiles[0][9] == before[0]
    assert after.tiles[1] == state.tiles[1]
    assert after.phase == Phase.FIRST


def _manned():
    state = GAME.apply(_built(), ChanceOutcome(SEED))
    return GAME.apply(state, SimultaneousActs(((0, Keep()), (1, Keep()))))


def test_five_crew_start_ready_in_the_control_room_and_every_oxygen_gear_holds_a_token():
    state = _manned()
    assert state.crew == [(seat, CONTROL, True, True) for seat in (0, 0, 0, 0, 0, 1, 1, 1, 1, 1)]
    for seat in (0, 1):
        assert state.oxygen[seat] == [tile.oxygen for tile in state.kit[seat]]
        assert state.damage[seat] == [0] * 10


def test_both_submarines_start_in_sector_3_player_1_up():
    state = _manned()
    assert state.sectors == [3, 3] and state.upper == 1


def test_the_first_player_is_chosen_by_joint_randomness():
    firsts = set()
    for seed in range(8):
        state = GAME.apply(_manned(), ChanceOutcome(bytes([seed]) * 32))
        assert state.first == state.active and state.turn == 1 and state.turns_taken[state.first] == 1
        assert state.phase in (Phase.RECOVERY, Phase.ACTION)
        firsts.add(state.first)
    assert firsts == {0, 1}


def test_build_starter_uses_the_faction_layouts_with_no_placement_or_swap():
    state = GAME.setup(GAME.ruleset(2, {"build": "starter"}))
    assert state.phase == Phase.FIRST
    assert state.tiles[0] == TILESET.starters["panzer"].layout
    assert state.tiles[1] == TILESET.starters["talion"].layout
    assert state.oxygen[0] == [tile.oxygen for tile in state.kit[0]]


def test_build_random_deals_each_player_a_legal_submarine_by_joint_randomness():
    from p2pgames.games.torpedo.build import build_problem

    state = GAME.setup(GAME.ruleset(2, {"build": "random"}))
    assert state.phase == Phase.DEAL and isinstance(GAME.step(state), Chance)
    seen = set()
    for seed in range(6):
        dealt = GAME.apply(state, ChanceOutcome(bytes([seed]) * 32))
        assert dealt.phase == Phase.PLACEMENT
        for seat in (0, 1):
            assert build_problem(dealt.tiles[seat]) is None
            seen.add(dealt.tiles[seat])
    assert len(seen) > 6


def test_build_draft_alternates_visible_picks_as_a_snake_and_each_ends_with_one_control_room():
    assert [draft_seat(0, pick) for pick in range(8)] == [0, 1, 1, 0, 0, 1, 1, 0]
    table = LocalTable(GAME, GAME.ruleset(2, {"build": "draft"}), b"draft")
    state = table.state
    assert state.phase == Phase.DRAFT
    first = state.drafter
    picks = 0
    while table.state.phase == Phase.DRAFT:
        step = GAME.step(table.state)
        assert isinstance(step, Turn) and step.actors == (draft_seat(first, picks),)
        options = GAME.legal_actions(table.state, step.actors[0], {})
        # Greedy for control rooms: the draft must still leave each player exactly one.
        controls = [o for o in options if TILESET.tiles[o.name].is_control]
        table.act(step.actors[0], (controls or options)[0])
        picks += 1
    assert picks == 2 * BUILD_SIZE
    for seat in (0, 1):
        assert sum(TILESET.tiles[name].is_control for name in table.state.tiles[seat]) == 1
    assert not set(table.state.tiles[0]) & set(table.state.tiles[1])


def test_a_draft_pick_refuses_a_second_control_room_and_a_tile_already_taken():
    state = LocalTable(GAME, GAME.ruleset(2, {"build": "draft"}), b"draft").state
    seat = draft_seat(state.drafter, 0)
    state = GAME.apply(state, Act(seat, Pick("Panzer Control Room")))
    other = draft_seat(state.drafter, 1)
    with pytest.raises(IllegalAction, match="picked already"):
        GAME.check_action(state, other, Pick("Panzer Control Room"))
    state = GAME.apply(state, Act(other, Pick("Gatling Gun")))
    state = GAME.apply(state, Act(other, Pick("Mine Layer")))
    with pytest.raises(IllegalAction, match="control room already"):
        GAME.check_action(state, seat, Pick("Talion Control Room"))
