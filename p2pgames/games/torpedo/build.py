"""The rulebook's "Setup": 1. build your submarine — what makes a legal build, the builds offered
as examples, random builds and the draft, as the ruleset's ``build`` option says — and 2. rule the
seas: the tiles placed face down at random with the control room switched into place, each
player's swap of two tiles, one oxygen token on each oxygen gear, the first player chosen.

A build is 10 distinct tiles of the tile set, exactly one of them a control room ("Create your
submarine by choosing 10 compartment tiles, including a 'control room'. There can be only one copy
of a particular compartment in a submarine"). Both players may use the same tile: each has their
own copy. The functions of tile names are pure (the local composer's commands call them too);
those given a state change it.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from p2pgames.engine import DeterministicRandom, IllegalAction

from p2pgames.games.torpedo.actions import Build, Pick, Swap
from p2pgames.games.torpedo.geometry import CONTROL
from p2pgames.games.torpedo.state import SEATS, Phase, TorpedoState
from p2pgames.games.torpedo.tiles import TILESET, Tile, TileSet
from p2pgames.games.torpedo.turn import start_turn

__all__ = [
    "BUILD_SIZE",
    "NO_KIT",
    "apply_pick",
    "build_problem",
    "check_build",
    "check_pick",
    "check_swap",
    "choose_drafter",
    "choose_first",
    "deal",
    "draft_choices",
    "draft_options",
    "draft_seat",
    "kit_of",
    "man_the_submarines",
    "open_builds",
    "open_swaps",
    "place",
    "place_at_random",
    "random_build",
    "sample_builds",
    "starter_build",
    "starter_of",
]

BUILD_SIZE = 10
TILES = TILESET.tiles
NO_KIT: tuple[Tile, ...] = ()  # a submarine's tiles before it has all 10


# -- 1. build your submarine: custom, the starters, random ---------------------------------------------


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


def kit_of(tiles: Sequence[str]) -> tuple[Tile, ...]:
    """The :class:`Tile` of each name, once a submarine has its 10 tiles (else empty)."""
    return tuple(TILES[name] for name in tiles) if len(tiles) == BUILD_SIZE else NO_KIT


def place(state: TorpedoState, seat: int, order: Sequence[str]) -> None:
    state.tiles[seat] = tuple(order)
    state.kit[seat] = kit_of(order)


def check_build(state: TorpedoState, player: int, action: Build) -> None:
    problem = build_problem(action.tiles)
    if problem is not None:
        raise IllegalAction(player, problem)


def open_builds(state: TorpedoState, actions: tuple[tuple[int, Any], ...]) -> None:
    for seat, action in actions:
        place(state, seat, action.tiles)
        state.notes.append(("built", seat, starter_of(action.tiles)))
    state.phase = Phase.PLACEMENT


def deal(state: TorpedoState, random: DeterministicRandom) -> None:
    for seat in SEATS:
        place(state, seat, random_build(random))
    state.notes.append(("dealt",))
    state.phase = Phase.PLACEMENT


# -- 1. build your submarine: the draft ----------------------------------------------------------------


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


def choose_drafter(state: TorpedoState, random: DeterministicRandom) -> None:
    state.drafter = random.below(2)
    state.notes.append(("draft-first", state.drafter))
    state.phase = Phase.DRAFT


def draft_options(state: TorpedoState, seat: int) -> list[str]:
    other = 1 - seat
    other_lacks = 0 if any(TILES[name].is_control for name in state.tiles[other]) else 1
    return draft_choices(state.pool, state.tiles[seat], other_lacks)


def check_pick(state: TorpedoState, player: int, action: Pick) -> None:
    if action.name not in TILES:
        raise IllegalAction(player, f"{action.name!r} is not a tile")
    if action.name not in state.pool:
        raise IllegalAction(player, f"{action.name} has been picked already")
    if action.name not in draft_options(state, player):
        if TILES[action.name].is_control:
            if any(TILES[name].is_control for name in state.tiles[player]):
                raise IllegalAction(player, "you have a control room already")
            raise IllegalAction(player, "the other player needs the last control room")
        raise IllegalAction(player, "your last pick must be a control room")


def apply_pick(state: TorpedoState, player: int, action: Pick) -> None:
    state.pool.remove(action.name)
    place(state, player, (*state.tiles[player], action.name))
    state.picks += 1
    state.notes.append(("picked", player, action.name))
    if state.picks == 2 * BUILD_SIZE:
        for seat in SEATS:
            place(state, seat, sorted(state.tiles[seat]))
        state.phase = Phase.PLACEMENT


# -- 2. rule the seas ----------------------------------------------------------------------------------


def place_at_random(state: TorpedoState, random: DeterministicRandom) -> None:
    for seat in SEATS:
        order = list(state.tiles[seat])
        random.shuffle(order)
        # "Your control room tile must be positioned in the center column closest to you
        # … you must, if necessary, switch the control room and the compartment that
        # occupies this position."
        control = next(i for i, name in enumerate(order) if TILES[name].is_control)
        order[control], order[CONTROL] = order[CONTROL], order[control]
        place(state, seat, order)
    state.notes.append(("placed",))
    state.phase = Phase.SWAP


def check_swap(state: TorpedoState, player: int, action: Swap) -> None:
    if CONTROL in (action.a, action.b):
        raise IllegalAction(player, "the control room stays in the middle of your outer row (C2)")


def open_swaps(state: TorpedoState, actions: tuple[tuple[int, Any], ...]) -> None:
    # Both opened together.
    for seat, action in actions:
        if type(action) is Swap:
            order = list(state.tiles[seat])
            order[action.a], order[action.b] = order[action.b], order[action.a]
            place(state, seat, order)
            state.notes.append(("swapped", seat, action.a, action.b))
        else:
            state.notes.append(("kept", seat))
    man_the_submarines(state)
    state.phase = Phase.FIRST


def man_the_submarines(state: TorpedoState) -> None:
    """Setup's last steps: one oxygen token on each oxygen gear, five crew in the control room
    (already there since setup), both submarines in sector 3."""
    for seat in SEATS:
        state.oxygen[seat] = [tile.oxygen for tile in state.kit[seat]]


def choose_first(state: TorpedoState, random: DeterministicRandom) -> None:
    state.first = random.below(2)
    state.notes.append(("first", state.first))
    start_turn(state, state.first)
