"""The custom build's local composer: a player builds a submarine tile by tile on their own peer
(``add Gatling``, ``remove Gatling``, ``starter panzer``, ``clear``, ``done``) and the finished
:class:`Build` is committed like any other secret choice. Nothing here is hashed or sent.

Its first choice offers the starter submarines, which the rulebook recommends for a first game
("For your first game, you should choose a faction … This gives you a fair fight"), and
``custom``, which opens the pool to build from (``add NAME`` does too, in one go).
"""

from __future__ import annotations

import textwrap
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
    ``pool`` once the player has the pool in view (the first choice, starters or ``custom``,
    made); ``finished`` once the player said ``done`` with a legal build."""

    player: int
    chosen: tuple[str, ...] = ()
    finished: bool = False
    pool: bool = False

    prompt = "build your submarine: a starter for a first game, or add 10 compartments, then done"

    def commands(self) -> Sequence[str]:
        """First the starters, then ``custom``. With the pool in view: ``done`` first once the
        build is legal, then the starter shortcuts (while fewer than 10 are chosen), what may be
        added, what may be removed, ``clear``."""
        if self.finished:
            return ()
        if not self.pool:
            return (*(f"starter {faction}" for faction in TILESET.starters), "custom")
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
            return BuildComposer(self.player, (*self.chosen, tile.name), pool=True)
        if verb == "remove":
            tile = self._tile(rest)
            if tile.name not in self.chosen:
                raise IllegalAction(self.player, f"{tile.short} is not in your submarine")
            return BuildComposer(self.player, tuple(name for name in self.chosen if name != tile.name), pool=True)
        if verb == "starter":
            faction = rest.casefold()
            if faction not in TILESET.starters:
                raise MalformedAction(f"the starters are {' and '.join(TILESET.starters)}, not {rest!r}")
            return BuildComposer(self.player, starter_build(faction), pool=True)
        if verb == "custom" and not rest:
            return BuildComposer(self.player, self.chosen, pool=True)
        if verb == "clear" and not rest:
            return BuildComposer(self.player, pool=True)
        if verb == "done" and not rest:
            problem = build_problem(self.chosen)
            if problem is not None:
                raise IllegalAction(self.player, problem)
            return BuildComposer(self.player, self.chosen, True, True)
        raise MalformedAction(
            f"{text!r} is not a build command: starter panzer, starter talion, custom, add NAME, remove NAME, clear, done"
        )

    def panels(self) -> Sequence[Panel]:
        """One panel, the screen's whole width. First the starters, each with its tiles, and what
        ``custom`` does; with the pool in view, how many are chosen and which, what is missing,
        then the pool left to add from (each tile's type, structure/oxygen and effects, in
        three columns: the whole pool fits beside the choices and the log at 80×24)."""
        if not self.pool:
            return [Panel("build your submarine", tuple(first_choice_lines()))]
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


def first_choice_lines() -> list[tuple[Segment, ...]]:
    """The first choice of a custom build: the starters, recommended for a first game as the
    rulebook does (each with its tiles), then ``custom`` (lines of at most :data:`POOL_WIDTH`)."""
    lines: list[tuple[Segment, ...]] = [
        (("bold", "A first game? Take a starter submarine,"), ("", " as the rulebook recommends: ten")),
        (("", "ready-made compartments, a fair fight. Or build your own from the pool."),),
        (),
    ]
    command = 2 + max(len(f"starter {faction}") for faction in TILESET.starters) + 2
    for faction, starter in TILESET.starters.items():
        shorts = " ".join(TILESET.tiles[name].short for name in starter.layout)
        for number, row in enumerate(textwrap.wrap(f"{starter.name}: {shorts}", POOL_WIDTH - command)):
            head = f"  starter {faction}" if number == 0 else ""
            lines.append((("bold", f"{head:<{command}}"), ("", row)))
    built = f"build your own: 10 of the {len(TILESET.tiles)} tiles, one of them a control room"
    lines += [(("bold", f"{'  custom':<{command}}"), ("", built)), ()]
    lines.append((("dim", "Type or pick one; 'tile NAME' shows a tile's card, 'help' every build command."),))
    return lines


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
