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
from p2pgames.games.torpedo.tiles import TILESET, Effect, Tile

__all__ = ["BuildComposer", "effect_brief", "tile_brief"]

_KINDS = {
    "attack": "attack",
    "oxygen-attack": "gas",
    "crew-attack": "kill",
    "board": "board",
    "repel": "repel",
    "repair": "repair",
    "refill": "refill",
    "move-crew": "move crew",
    "move-sub": "move sub",
    "armor-bonus": "armour",
    "speed-bonus": "speed",
    "attack-bonus": "attack",
}
_TYPE_LETTERS = {"standard": "S", "engine": "E", "armored": "A", "experimental": "X", "control": "C"}


def effect_brief(effect: Effect) -> str:
    """An effect in a few words for lists: ``duty attack 2 distant behind→fore (single)``
    (starboard is written ``stbd``)."""
    words = [effect.button, _KINDS[effect.kind]]
    if effect.kind in ("armor-bonus", "speed-bonus", "attack-bonus"):
        words[-1] = f"+{effect.value} {words[-1]}"
        if effect.kind == "armor-bonus":
            words.append(effect.location)
    elif effect.value:
        words.append(str(effect.value))
    if effect.crew:
        words.append("sailor" if effect.crew == "sailor" else "crew")
    if effect.aimed:
        words.append(effect.range)
        # "stbd": the usual short form, so that a two-effect tile fits one line.
        words.append(f"{effect.position}→{effect.hits}".replace("starboard", "stbd"))
    if effect.alert != "none":
        words.append("(single)" if effect.alert == "single" else "(two keys)")
    return " ".join(words)


def tile_brief(tile: Tile) -> str:
    """A tile on one line: ``Gatling   X 2/0 counter attack 1 close any→facing`` (type letter,
    structure/oxygen, effects)."""
    effects = "; ".join(effect_brief(effect) for effect in tile.effects) or "—"
    return f"{tile.short:<9} {_TYPE_LETTERS[tile.type]} {tile.structure}/{tile.oxygen} {effects}"


@dataclass(frozen=True)
class BuildComposer(Composer):
    """A submarine being built by seat ``player``: ``chosen`` tile names in the order added;
    ``finished`` once the player said ``done`` with a legal build."""

    player: int
    chosen: tuple[str, ...] = ()
    finished: bool = False

    prompt = "build your submarine: add 10 compartments, one a control room, then done"

    def commands(self) -> Sequence[str]:
        if self.finished:
            return ()
        tiles = TILESET.tiles
        has_control = any(tiles[name].is_control for name in self.chosen)
        commands = []
        if len(self.chosen) < BUILD_SIZE:
            commands.extend(
                f"add {tile.short}"
                for name, tile in tiles.items()
                if name not in self.chosen and not (tile.is_control and has_control)
            )
        commands.extend(f"remove {tiles[name].short}" for name in self.chosen)
        commands.extend(f"starter {faction}" for faction in TILESET.starters)
        if self.chosen:
            commands.append("clear")
        if build_problem(self.chosen) is None:
            commands.append("done")
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
        tiles = TILESET.tiles
        chosen = [tiles[name] for name in self.chosen]
        problem = build_problem(self.chosen)
        status = "ready: type done" if problem is None else problem
        lines = [(("bold", f"{len(chosen)}/{BUILD_SIZE} · "), ("good" if problem is None else "warn", status))]
        lines.extend(((("", tile_brief(tile)),) for tile in chosen))
        pool = [tile for name, tile in tiles.items() if name not in self.chosen]
        pool_lines = tuple(((("", tile_brief(tile)),) for tile in pool))
        return [Panel("your submarine", tuple(lines)), Panel("tiles to add", pool_lines)]

    def action(self) -> Build | None:
        return Build(tuple(sorted(self.chosen))) if self.finished else None

    def _tile(self, typed: str) -> Tile:
        tile = TILESET.find(typed) if typed else None
        if tile is None:
            raise MalformedAction(f"{typed!r} is not a tile: type its short name or its name ('tile NAME' shows one)")
        return tile
