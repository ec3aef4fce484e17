"""Building a submarine: what makes a legal build, the builds offered as examples, random builds,
the draft, and the local composer's commands (plain functions a composer calls).

A build is 10 distinct tiles of the tile set, exactly one of them a control room ("Create your
submarine by choosing 10 compartment tiles, including a 'control room'. There can be only one copy
of a particular compartment in a submarine"). Both players may use the same tile: each has their
own copy. Pure: nothing here keeps state.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from p2pgames.engine import DeterministicRandom

from p2pgames.games.torpedo.tiles import TILESET, TileSet

__all__ = [
    "BUILD_SIZE",
    "build_problem",
    "draft_choices",
    "draft_seat",
    "random_build",
    "sample_builds",
    "starter_build",
    "starter_of",
]

BUILD_SIZE = 10


def build_problem(tiles: Sequence[str], tileset: TileSet = TILESET) -> str | None:
    """Why ``tiles`` is not a legal submarine (a sentence to show its builder), or ``None``."""
    for name in tiles:
        if name not in tileset.tiles:
            return f"{name!r} is not a tile"
    seen: set[str] = set()
    for name in tiles:
        if name in seen:
            return f"{name} is in the build twice: a submarine holds one copy of each compartment"
        seen.add(name)
    if len(tiles) != BUILD_SIZE:
        return f"a submarine has {BUILD_SIZE} compartments, not {len(tiles)}"
    controls = [name for name in tiles if tileset.tiles[name].is_control]
    if not controls:
        return "a submarine needs a control room"
    if len(controls) > 1:
        return f"a submarine has one control room, not {len(controls)} ({', '.join(controls)})"
    return None


def starter_build(faction: str, tileset: TileSet = TILESET) -> tuple[str, ...]:
    """A faction's starter tiles as a build (sorted names)."""
    return tuple(sorted(tileset.starters[faction].layout))


def starter_of(tiles: Iterable[str], tileset: TileSet = TILESET) -> str | None:
    """The faction whose starter submarine is exactly these tiles, or ``None``."""
    chosen = sorted(tiles)
    for faction, starter in tileset.starters.items():
        if sorted(starter.layout) == chosen:
            return faction
    return None


def sample_builds(tileset: TileSet = TILESET) -> list[tuple[str, ...]]:
    """The builds a list of choices offers (there are far too many to list): both starters, and
    for each control room the first nine other tiles of the set in file order that are in no
    starter (topped up from the rest): a few legal builds, always the same."""
    builds = [starter_build(faction, tileset) for faction in tileset.starters]
    in_starters = {name for starter in tileset.starters.values() for name in starter.layout}
    others = [name for name, tile in tileset.tiles.items() if not tile.is_control]
    fresh = [name for name in others if name not in in_starters] + [name for name in others if name in in_starters]
    for control in tileset.control_rooms:
        build = tuple(sorted([control, *fresh[: BUILD_SIZE - 1]]))
        if build not in builds:
            builds.append(build)
    return builds


def random_build(random: DeterministicRandom, tileset: TileSet = TILESET) -> tuple[str, ...]:
    """A legal build drawn from ``random``: a control room, then nine other distinct tiles."""
    controls = tileset.control_rooms
    control = controls[random.below(len(controls))]
    others = [name for name, tile in tileset.tiles.items() if not tile.is_control]
    random.shuffle(others)
    return tuple(sorted([control, *others[: BUILD_SIZE - 1]]))


# -- the draft -----------------------------------------------------------------------------------------


def draft_seat(first: int, picks: int) -> int:
    """Who picks the draft's pick number ``picks`` (from 0): a snake, A B B A A B B A …, so the
    second picker's two picks in a row make up for the first pick."""
    return first if picks % 4 in (0, 3) else 1 - first


def draft_choices(pool: Sequence[str], mine: Sequence[str], others_without_control: int, tileset: TileSet = TILESET) -> list[str]:
    """The tiles a drafter holding ``mine`` may pick from ``pool``: never a second control room;
    only a control room once nine tiles are picked without one; and never the control room
    another drafter still needs (``others_without_control`` of them lack one)."""
    tiles = tileset.tiles
    has_control = any(tiles[name].is_control for name in mine)
    controls_left = sum(1 for name in pool if tiles[name].is_control)
    choices = []
    for name in pool:
        if tiles[name].is_control:
            if has_control or controls_left - 1 < others_without_control:
                continue
        elif not has_control and len(mine) == BUILD_SIZE - 1:
            continue
        choices.append(name)
    return choices
