"""The custom build's local composer: a player builds a submarine tile by tile on their own peer
(``add Gatling``, ``remove Gatling``, ``starter panzer``, ``clear``, ``done``) and the finished
:class:`Build` is committed like any other secret choice. Nothing here is hashed or sent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from p2pgames.engine import Composer, IllegalAction, MalformedAction, Panel

from p2pgames.games.torpedo.actions import Build
from p2pgames.games.torpedo.build import BUILD_SIZE, build_problem, starter_build
from p2pgames.games.torpedo.tiles import TILESET, Tile
from p2pgames.games.torpedo.views import POOL_KEY, POOL_WIDTH, TYPE_KEY, Segment, pool_lines

__all__ = ["BuildComposer"]


@dataclass(frozen=True)
class BuildComposer(Composer):
    """A submarine being built by seat ``player``: ``chosen`` tile names in the order added;
    ``finished`` once the player said ``done`` with a legal build."""

    player: int
    chosen: tuple[str, ...] = ()
    finished: bool = False

    prompt = "build your submarine: add 10 compartments, one a control room, then done"

    def commands(self) -> Sequence[str]:
        """``done`` first once the build is legal, then the starter shortcuts (while fewer than
        10 are chosen), what may be added, what may be removed, ``clear``."""
        if self.finished:
            return ()
        tiles = TILESET.tiles
        has_control = any(tiles[name].is_control for name in self.chosen)
        commands = []
        if build_problem(self.chosen) is None:
            commands.append("done")
        full = len(self.chosen) >= BUILD_SIZE
        if not full:
            commands.extend(f"starter {faction}" for faction in TILESET.starters)
            commands.extend(
                f"add {tile.short}"
                for name, tile in tiles.items()
                if name not in self.chosen and not (tile.is_control and has_control)
            )
        commands.extend(f"remove {tiles[name].short}" for name in self.chosen)
        if full:
            commands.extend(f"starter {faction}" for faction in TILESET.starters)
        if self.chosen:
            commands.append("clear")
        return commands

    def apply(self, text: str) -> "BuildComposer":
        words = text.split()
        if not words:
            raise MalformedAction("nothing was typed")
        verb, rest = words[0].casefold(), " ".join(words[1:])
        if verb == "add":
            tile = self._tile(rest)
            if tile.name in self.chosen:
                raise IllegalAction(self.player, f"{tile.short} is in your submarine already")
            if len(self.chosen) >= BUILD_SIZE:
                raise IllegalAction(self.player, f"you have {BUILD_SIZE} compartments already: remove one first")
            if tile.is_control and any(TILESET.tiles[name].is_control for name in self.chosen):
                raise IllegalAction(self.player, "you have a control room already: remove it first")
            return BuildComposer(self.player, (*self.chosen, tile.name))
        if verb == "remove":
            tile = self._tile(rest)
            if tile.name not in self.chosen:
                raise IllegalAction(self.player, f"{tile.short} is not in your submarine")
            return BuildComposer(self.player, tuple(name for name in self.chosen if name != tile.name))
        if verb == "starter":
            faction = rest.casefold()
            if faction not in TILESET.starters:
                raise MalformedAction(f"the starters are {' and '.join(TILESET.starters)}, not {rest!r}")
            return BuildComposer(self.player, starter_build(faction))
        if verb == "clear" and not rest:
            return BuildComposer(self.player)
        if verb == "done" and not rest:
            problem = build_problem(self.chosen)
            if problem is not None:
                raise IllegalAction(self.player, problem)
            return BuildComposer(self.player, self.chosen, True)
        raise MalformedAction(f"{text!r} is not a build command: add NAME, remove NAME, starter panzer, clear, done")

    def panels(self) -> Sequence[Panel]:
        """One panel, the screen's whole width: how many are chosen and which, what is missing,
        then the pool left to add from (each tile's type, structure/oxygen and effects, in
        three columns: the whole pool fits beside the choices and the log at 80×24)."""
        tiles = TILESET.tiles
        chosen = [tiles[name] for name in self.chosen]
        count: Segment = ("bold", f"{len(chosen)}/{BUILD_SIZE} chosen")
        if not chosen:
            status = [count, ("dim", f" · {TYPE_KEY}")]
        else:
            missing = [] if any(tile.is_control for tile in chosen) else ["no control room yet"]
            if build_problem(self.chosen) is None:
                missing = ["ready: type done"]
            words = " ".join(tile.short for tile in chosen)
            status = [count, ("", f": {words}")] + [("good" if m.startswith("ready") else "warn", f" · {m}") for m in missing]
        lines = [tuple(status)] if sum(len(text) for _, text in status) <= POOL_WIDTH else _wrapped(status)
        pool = [tile for name, tile in tiles.items() if name not in self.chosen]
        lines.extend(pool_lines(pool))
        return [Panel(f"pool · {POOL_KEY}", tuple(lines))]

    def action(self) -> Build | None:
        return Build(tuple(sorted(self.chosen))) if self.finished else None

    def _tile(self, typed: str) -> Tile:
        tile = TILESET.find(typed) if typed else None
        if tile is None:
            raise MalformedAction(f"{typed!r} is not a tile: type its short name or its name ('tile NAME' shows one)")
        return tile


def _wrapped(segments: list[Segment]) -> list[tuple[Segment, ...]]:
    """``segments`` (the chosen tiles' line) broken at spaces into lines of :data:`POOL_WIDTH`."""
    lines: list[list[Segment]] = [[]]
    used = 0
    for style, text in segments:
        for index, word in enumerate(text.split(" ")):
            piece = (" " if index else "") + word
            if used + len(piece) > POOL_WIDTH and used:
                lines.append([])
                used = 0
                piece = word
            lines[-1].append((style, piece))
            used += len(piece)
    return [tuple(line) for line in lines]
