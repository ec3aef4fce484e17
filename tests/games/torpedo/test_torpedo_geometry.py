"""Geometry: positions, locations per seat, relative position, range, adjacency and "closer to the
control room" (geometry.py), with the rulebook's targeting examples and its trigger example."""

import pytest

from p2pgames.games.torpedo.geometry import (
    ADJACENT,
    AFT,
    CLOSER,
    CONTROL,
    FORE,
    POSITIONS,
    control_distance,
    facing_location,
    hit_location,
    location_positions,
    parse_position,
    position,
    position_name,
    range_of,
    reaches,
    relative_position,
)
from p2pgames.games.torpedo.tiles import TILESET


def test_positions_are_named_by_column_letter_and_row_number_and_read_back():
    assert [position_name(p) for p in POSITIONS] == ["A1", "B1", "C1", "D1", "E1", "A2", "B2", "C2", "D2", "E2"]
    assert all(parse_position(position_name(p)) == p for p in POSITIONS)
    assert parse_position("c2") == CONTROL == position(1, 2)
    assert parse_position("F1") is None and parse_position("A3") is None and parse_position("A") is None


def test_the_control_room_is_the_center_column_of_the_row_closest_to_its_player():
    assert position_name(CONTROL) == "C2"


def test_fore_and_aft_are_the_two_columns_at_each_end_for_both_players():
    assert [position_name(p) for p in FORE] == ["D1", "E1", "D2", "E2"]
    assert [position_name(p) for p in AFT] == ["A1", "B1", "A2", "B2"]
    for seat in (0, 1):
        assert location_positions(seat, "fore") == FORE
        assert location_positions(seat, "aft") == AFT
        # Column C is in neither.
        assert not {p for p in POSITIONS if p % 5 == 2} & set(FORE + AFT)


def test_port_and_starboard_are_rows_and_not_the_same_rows_for_both_players():
    names = lambda seat, where: [position_name(p) for p in location_positions(seat, where)]  # noqa: E731
    # Player 0 sits below the battle area: facing sector 5, port is up, its inner row.
    assert names(0, "port") == ["A1", "B1", "C1", "D1", "E1"]
    assert names(0, "starboard") == ["A2", "B2", "C2", "D2", "E2"]
    # Player 1 sits above: port is still up the table, which is its outer row.
    assert names(1, "port") == ["A2", "B2", "C2", "D2", "E2"]
    assert names(1, "starboard") == ["A1", "B1", "C1", "D1", "E1"]


def test_range_is_close_in_the_same_or_adjacent_sectors_and_distant_two_or_more_apart():
    assert range_of((3, 3)) == "close"
    assert range_of((2, 3)) == "close"
    assert range_of((4, 3)) == "close"
    assert range_of((1, 3)) == "distant"
    assert range_of((1, 5)) == "distant"


def test_relative_position_in_different_sectors_is_in_front_or_behind():
    # Both face sector 5: a greater sector is in front.
    assert relative_position(0, (2, 4), upper=1) == "front"
    assert relative_position(1, (2, 4), upper=1) == "behind"
    assert relative_position(0, (5, 1), upper=0) == "behind"


def test_relative_position_in_one_sector_is_port_side_for_the_one_below_starboard_for_the_one_above():
    # The start: both in sector 3, submarine 1 up.
    assert relative_position(0, (3, 3), upper=1) == "port"
    assert relative_position(1, (3, 3), upper=1) == "starboard"
    # After a maneuver that puts submarine 0 up.
    assert relative_position(0, (3, 3), upper=0) == "starboard"
    assert relative_position(1, (3, 3), upper=0) == "port"


def test_each_relative_position_faces_the_location_opposite_it():
    assert facing_location("front") == "aft"
    assert facing_location("behind") == "fore"
    assert facing_location("port") == "starboard"
    assert facing_location("starboard") == "port"
    assert hit_location("facing", "behind") == "fore"
    assert hit_location("port", "front") == "port"  # a tile may say otherwise


def test_at_the_start_both_players_fire_at_each_others_inner_row():
    # Player 0 sees the enemy to port and hits its starboard: player 1's inner row; player 1 sees
    # the enemy to starboard and hits its port: player 0's inner row.
    for seat in (0, 1):
        relative = relative_position(seat, (3, 3), upper=1)
        hit = facing_location(relative)
        assert [position_name(p) for p in location_positions(1 - seat, hit)] == ["A1", "B1", "C1", "D1", "E1"]


# The rulebook's targeting examples: (icon position, icon range, hits) and a situation where the
# weapon fires and one where it can't.
@pytest.mark.parametrize(
    "arc, rng, hits, fires, fails",
    [
        # "Target is in front of you and you fire at your opponent's aft only at close range."
        ("front", "close", "aft", ((2, 3), 1), ((2, 4), 1)),
        # "Target is behind you and you fire at your opponent's fore only at close range."
        ("behind", "close", "fore", ((3, 2), 1), ((3, 1), 1)),
        # "Target is in front of you and you fire at your opponent's aft only at distant range."
        ("front", "distant", "aft", ((1, 3), 1), ((2, 3), 1)),
        # "Target is behind you and you fire at your opponent's fore only at distant range."
        ("behind", "distant", "fore", ((5, 1), 1), ((3, 2), 1)),
        # "Target is on your port side and you fire at your opponent's starboard only at close range."
        ("port", "close", "starboard", ((3, 3), 1), ((3, 3), 0)),
        # "Target is on your starboard side and you fire at your opponent's port only at close range."
        ("starboard", "close", "port", ((3, 3), 0), ((3, 4), 0)),
    ],
)
def test_rulebook_targeting_examples(arc, rng, hits, fires, fails):
    sectors, upper = fires
    assert reaches(arc, rng, 0, sectors, upper)
    assert hit_location("facing", relative_position(0, sectors, upper)) == hits
    sectors, upper = fails
    assert not reaches(arc, rng, 0, sectors, upper)


def test_any_position_and_any_range_reach_everywhere():
    for sectors in ((1, 5), (3, 3), (2, 3)):
        assert reaches("any", "any", 0, sectors, 1)
    assert not reaches("any", "close", 0, (1, 5), 1)
    assert not reaches("any", "distant", 0, (3, 3), 1)


def test_adjacency_is_the_eight_neighbours_within_the_grid():
    assert sorted(position_name(p) for p in ADJACENT[position(0, 0)]) == ["A2", "B1", "B2"]
    assert sorted(position_name(p) for p in ADJACENT[position(0, 2)]) == ["B1", "B2", "C2", "D1", "D2"]
    assert len(ADJACENT[position(1, 2)]) == 5
    for p in POSITIONS:
        assert p not in ADJACENT[p]
        assert all(p in ADJACENT[n] for n in ADJACENT[p])


def test_closer_to_the_control_room_means_strictly_fewer_moves_from_it():
    assert control_distance(CONTROL) == 0
    assert [control_distance(p) for p in POSITIONS] == [2, 1, 1, 1, 2, 2, 1, 0, 1, 2]
    assert CLOSER[CONTROL] == ()
    # Next to the control room: the only move closer is into it.
    for p in POSITIONS:
        if control_distance(p) == 1:
            assert CLOSER[p] == (CONTROL,)
    # From the ends: the two tiles of the next column toward the centre.
    assert sorted(position_name(p) for p in CLOSER[position(0, 0)]) == ["B1", "B2"]
    assert sorted(position_name(p) for p in CLOSER[position(1, 4)]) == ["D1", "D2"]


def test_rulebook_trigger_example_gatling_gun_has_two_moves_toward_the_control_room():
    # "Ludovic (Talion) decides to activate the Gatling Gun compartment with his sailor. … Ludovic
    # can either choose to move him to the Long-range Sights or to the Anti-propeller Chain."
    layout = TILESET.starters["talion"].layout
    gatling = layout.index("Gatling Gun")
    assert sorted(layout[p] for p in CLOSER[gatling]) == ["Anti-propeller Chain", "Long-range Sights"]
