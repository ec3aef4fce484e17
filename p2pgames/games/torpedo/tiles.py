"""The compartment tiles of Steam Torpedo: data in ``tiles.toml``, read and checked by one loader.

:func:`load_tiles` turns the text of a tile file into a :class:`TileSet` or raises
:class:`TileError` naming the tile and the field that is wrong, so a bad edit to the data never
reaches a game. :data:`TILESET` is the set this program ships, loaded once at import.

A tile (:class:`Tile`) is a compartment: its type (standard, engine, armoured, experimental, or
the control room), its structure (gears) of which ``oxygen`` carry the oxygen symbol, and up to two
effects (:class:`Effect`): a button (standby: works while manned; duty: a ready crew member
triggers it; counter: like duty, and also as a reaction in the opponent's turn), an alert icon
(single-use, two keys) and what it does. The kinds of effect and the fields each needs are listed
in :data:`KIND_FIELDS`; the header of ``tiles.toml`` says the same for people editing it.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from typing import Any, Mapping

from p2pgames import canonical
from p2pgames.games._package_data import read_text

__all__ = [
    "ALERTS",
    "BUTTONS",
    "CREW_KINDS",
    "Effect",
    "FACTIONS",
    "HITS",
    "KIND_FIELDS",
    "POSITIONS",
    "RANGES",
    "Starter",
    "TILESET",
    "Tile",
    "TileError",
    "TileSet",
    "TYPES",
    "load_tiles",
]

FACTIONS = ("panzer", "talion")
TYPES = ("standard", "engine", "armored", "experimental", "control")
BUTTONS = ("standby", "duty", "counter")
ALERTS = ("none", "single", "two-keys")
RANGES = ("close", "distant", "any")
POSITIONS = ("front", "behind", "port", "starboard", "any")  # where the enemy is, seen from you
HITS = ("fore", "aft", "port", "starboard", "facing")  # the enemy location an effect reaches
CREW_KINDS = ("sailor", "captain-or-sailor")
BONUS_LOCATIONS = ("fore", "aft", "port", "starboard", "all")

# Every kind of effect and the fields it needs besides button and alert (and no others).
KIND_FIELDS: Mapping[str, tuple[str, ...]] = {
    "attack": ("value", "range", "position", "hits"),
    "oxygen-attack": ("value", "range", "position", "hits"),
    "crew-attack": ("range", "position", "hits", "crew"),
    "board": ("range", "position", "hits"),
    "repel": ("crew",),
    "repair": ("value",),
    "refill": ("value",),
    "move-crew": (),
    "move-sub": ("value",),
    "armor-bonus": ("value", "location"),
    "speed-bonus": ("value",),
    "attack-bonus": ("value",),
}
# Effects aimed at the enemy submarine: they need the enemy where their position and range say.
AIMED_KINDS = frozenset({"attack", "oxygen-attack", "crew-attack", "board"})
# Effects that add to a number while their compartment is manned: standby, and only standby.
BONUS_KINDS = frozenset({"armor-bonus", "speed-bonus", "attack-bonus"})
# Two keys doubles "the final effect": only an effect with a number can be doubled (I9).
DOUBLED_KINDS = frozenset({"attack", "oxygen-attack", "repair", "refill", "move-sub"})

MAX_STRUCTURE = 9  # one digit on the grid
MAX_VALUE = 9
MAX_NAME = 40
_SHORT = re.compile(r"[A-Za-z][A-Za-z0-9]{2,8}\Z")
_POSITION_NAME = re.compile(r"[a-e][12]\Z")
# Words typed moves use around a tile's short name: a short name may not be one of them.
RESERVED_WORDS = frozenset(
    {
        "and", "with", "to", "captain", "sailor", "me", "enemy", "port", "starboard", "starter",
        "panzer", "talion", "effect", "all", "none", "keep", "pass", "end", "absorb",
    }
)


class TileError(ValueError):
    """A tile file that can't be used: ``tile`` is the tile's name (or its number in the file, or
    the starter's faction) and ``field`` the field at fault; the message says both and why."""

    def __init__(self, tile: str | None, field: str | None, problem: str) -> None:
        where = []
        if tile is not None:
            where.append(f"tile {tile}")
        if field is not None:
            where.append(f"field {field!r}")
        super().__init__(f"{', '.join(where)}: {problem}" if where else problem)
        self.tile = tile
        self.field = field
        self.problem = problem


@dataclass(frozen=True, slots=True)
class Effect:
    """One effect of a tile. Fields a kind doesn't use are ``0`` or ``""``."""

    button: str
    alert: str
    kind: str
    value: int = 0
    range: str = ""
    position: str = ""
    hits: str = ""
    crew: str = ""
    location: str = ""

    @property
    def triggered(self) -> bool:
        """Whether crew trigger it (duty or counter); standby effects work while manned."""
        return self.button != "standby"

    @property
    def aimed(self) -> bool:
        """Whether it reaches the enemy submarine (and so needs a position and a range)."""
        return self.kind in AIMED_KINDS


@dataclass(frozen=True, slots=True)
class Tile:
    """A compartment tile: the printed card, never the state of a copy of it in a game."""

    name: str
    short: str
    faction: str
    type: str
    structure: int
    oxygen: int
    effects: tuple[Effect, ...]
    flavor: str = ""

    @property
    def is_control(self) -> bool:
        return self.type == "control"

    @property
    def is_engine(self) -> bool:
        """Engines, and the control room: "both combat and engine compartments"."""
        return self.type == "engine" or self.type == "control"

    @property
    def is_armored(self) -> bool:
        return self.type == "armored"


@dataclass(frozen=True, slots=True)
class Starter:
    """A faction's first-game submarine: ``layout`` holds the tile names by position index
    ``row * 5 + column`` (row 0 inner, row 1 outer; column 0 = A … 4 = E)."""

    faction: str
    name: str
    layout: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TileSet:
    """Every tile by name (in file order) and the starters by faction; ``lookup`` finds a tile by
    its name or short name, case folded (built by :func:`load_tiles`). ``edition`` names the set
    by what plays: 12 hex digits of the SHA-256 of its data in canonical form, flavour text left
    out (so comments, spacing, line endings and flavour don't change it; any number does)."""

    tiles: Mapping[str, Tile]
    starters: Mapping[str, Starter]
    lookup: Mapping[str, Tile]
    edition: str

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.tiles)

    @property
    def control_rooms(self) -> tuple[str, ...]:
        return tuple(name for name, tile in self.tiles.items() if tile.is_control)

    def find(self, typed: str) -> Tile | None:
        """The tile ``typed`` names: its name or its short name, in any case and spacing."""
        return self.lookup.get(" ".join(typed.split()).casefold())


# -- the loader ------------------------------------------------------------------------------------


def load_tiles(text: str) -> TileSet:
    """The tiles and starters described by ``text`` (TOML, see ``tiles.toml``).

    Raises :class:`TileError` for anything wrong, naming the tile and the field: bad TOML, an
    unknown or missing field, a value of the wrong type or out of range, a duplicate name or
    short name, an effect whose fields don't fit its kind (or a standby effect that is not a
    bonus, a bonus that is not standby, single-use on standby, two keys on an effect without a
    number, a counter that boards, a port or starboard effect at distant range — it could never
    be used), a control room without an attack, and a starter whose layout is not ten distinct
    known tiles of its faction with exactly one control room, in the middle of the outer row.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise TileError(None, None, f"not a valid TOML file: {error}") from None
    for key in data:
        if key not in ("tile", "starter"):
            raise TileError(None, key, "unknown top-level table (the file holds [[tile]] and [[starter]])")
    raw_tiles = data.get("tile", [])
    if not isinstance(raw_tiles, list) or not raw_tiles:
        raise TileError(None, "tile", "the file must hold [[tile]] tables")
    tiles: dict[str, Tile] = {}
    shorts: dict[str, str] = {}
    for number, raw in enumerate(raw_tiles, 1):
        tile = _read_tile(raw, number)
        if tile.name in tiles or tile.name.casefold() in {name.casefold() for name in tiles}:
            raise TileError(tile.name, "name", "two tiles have this name")
        if tile.short.casefold() in shorts:
            raise TileError(tile.name, "short", f"{tile.short!r} is already the short name of {shorts[tile.short.casefold()]}")
        if tile.short.casefold() in {name.casefold() for name in tiles}:
            raise TileError(tile.name, "short", f"{tile.short!r} is another tile's name")
        tiles[tile.name] = tile
        shorts[tile.short.casefold()] = tile.name
    for tile in tiles.values():
        if tile.name.casefold() in shorts and shorts[tile.name.casefold()] != tile.name:
            raise TileError(tile.name, "name", "this name is another tile's short name")
    starters = _read_starters(data.get("starter", []), tiles)
    lookup = {tile.name.casefold(): tile for tile in tiles.values()}
    lookup.update((tile.short.casefold(), tile) for tile in tiles.values())
    played = {
        "tile": [{key: value for key, value in raw.items() if key != "flavor"} for raw in raw_tiles],
        "starter": data.get("starter", []),
    }
    return TileSet(tiles, starters, lookup, canonical.digest(played).hex()[:12])


def _read_tile(raw: Any, number: int) -> Tile:
    if not isinstance(raw, dict):
        raise TileError(f"#{number}", None, "a [[tile]] must be a table")
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise TileError(f"#{number}", "name", "every tile needs a name (a non-empty string)")
    if name != " ".join(name.split()) or len(name) > MAX_NAME or not name.isprintable() or "," in name:
        raise TileError(
            f"#{number}", "name", f"{name!r} must be at most {MAX_NAME} printable characters, single-spaced, no commas"
        )
    allowed = {"name", "short", "faction", "type", "structure", "oxygen", "effect", "flavor"}
    for key in raw:
        if key not in allowed:
            raise TileError(name, key, "unknown field")
    for key in ("short", "faction", "type", "structure", "oxygen"):
        if key not in raw:
            raise TileError(name, key, "missing")
    short = raw["short"]
    if not isinstance(short, str) or not _SHORT.match(short):
        raise TileError(name, "short", f"{short!r} must be 3–9 letters or digits, starting with a letter")
    if _POSITION_NAME.match(short.casefold()) or short.casefold() in RESERVED_WORDS:
        raise TileError(name, "short", f"{short!r} reads as a position or a word of the typed moves")
    faction = _choice(raw, name, "faction", FACTIONS)
    kind = _choice(raw, name, "type", TYPES)
    structure = _integer(raw, name, "structure", 1, MAX_STRUCTURE)
    oxygen = _integer(raw, name, "oxygen", 0, structure)
    flavor = raw.get("flavor", "")
    if not isinstance(flavor, str) or not flavor.isprintable():
        raise TileError(name, "flavor", "must be one line of printable text")
    raw_effects = raw.get("effect", [])
    if not isinstance(raw_effects, list) or len(raw_effects) > 2:
        raise TileError(name, "effect", "a tile has 0–2 [[tile.effect]] tables")
    effects = tuple(_read_effect(raw_effect, name, index) for index, raw_effect in enumerate(raw_effects, 1))
    if kind == "control" and not any(effect.kind == "attack" for effect in effects):
        raise TileError(name, "effect", "a control room is a combat compartment: it needs an attack")
    if kind == "experimental" and not any(effect.button == "counter" for effect in effects):
        # "Experimental tiles … can be used during your opponent's turn!" (I29)
        raise TileError(name, "effect", "an experimental tile is used in the opponent's turn: it needs a counter effect")
    return Tile(name, short, faction, kind, structure, oxygen, effects, flavor)


def _read_effect(raw: Any, name: str, index: int) -> Effect:
    where = f"effect {index}"
    if not isinstance(raw, dict):
        raise TileError(name, where, "must be a table")
    kind = raw.get("kind")
    if kind not in KIND_FIELDS:
        raise TileError(name, f"{where}.kind", f"{kind!r} is not one of {', '.join(KIND_FIELDS)}")
    needed = KIND_FIELDS[kind]
    for key in raw:
        if key not in ("button", "alert", "kind") and key not in needed:
            raise TileError(name, f"{where}.{key}", f"a {kind} effect has no {key}")
    for key in needed:
        if key not in raw:
            raise TileError(name, f"{where}.{key}", f"a {kind} effect needs it")
    if "button" not in raw:
        raise TileError(name, f"{where}.button", "missing")
    button = _choice(raw, name, "button", BUTTONS, where)
    alert = _choice(raw, name, "alert", ALERTS, where) if "alert" in raw else "none"
    fields: dict[str, Any] = {}
    if "value" in needed:
        fields["value"] = _integer(raw, name, "value", 1, MAX_VALUE, where)
    for key, choices in (
        ("range", RANGES),
        ("position", POSITIONS),
        ("hits", HITS),
        ("crew", CREW_KINDS),
        ("location", BONUS_LOCATIONS),
    ):
        if key in needed:
            fields[key] = _choice(raw, name, key, choices, where)
    effect = Effect(button, alert, kind, **fields)
    if (kind in BONUS_KINDS) != (button == "standby"):
        if button == "standby":
            raise TileError(name, f"{where}.button", "standby effects are bonuses (armor, speed, attack) while manned")
        raise TileError(name, f"{where}.button", f"a {kind} works while manned: its button must be standby")
    if button == "standby" and alert != "none":
        raise TileError(name, f"{where}.alert", "a standby effect is never triggered: it takes no alert icon")
    if alert == "two-keys" and kind not in DOUBLED_KINDS:
        raise TileError(name, f"{where}.alert", f"two keys doubles a number: a {kind} effect has none")
    if kind == "board" and button == "counter":
        raise TileError(name, f"{where}.button", "reacting crew return to the control room: a counter can't board")
    if effect.position in ("port", "starboard") and effect.range == "distant":
        raise TileError(name, f"{where}.range", "an enemy at your side is in your sector: it is never distant")
    return effect


def _choice(raw: Mapping[str, Any], name: str, key: str, choices: tuple[str, ...], where: str = "") -> str:
    value = raw.get(key)
    if value not in choices or not isinstance(value, str):
        field = f"{where}.{key}" if where else key
        raise TileError(name, field, f"{value!r} is not one of {', '.join(choices)}")
    return value


def _integer(raw: Mapping[str, Any], name: str, key: str, low: int, high: int, where: str = "") -> int:
    value = raw.get(key)
    if type(value) is not int or not low <= value <= high:
        field = f"{where}.{key}" if where else key
        raise TileError(name, field, f"{value!r} must be a whole number from {low} to {high}")
    return value


def _read_starters(raw: Any, tiles: Mapping[str, Tile]) -> dict[str, Starter]:
    if not isinstance(raw, list):
        raise TileError(None, "starter", "must be [[starter]] tables")
    starters: dict[str, Starter] = {}
    for number, entry in enumerate(raw, 1):
        if not isinstance(entry, dict):
            raise TileError(f"starter #{number}", None, "a [[starter]] must be a table")
        faction = entry.get("faction")
        label = f"starter {faction}" if isinstance(faction, str) else f"starter #{number}"
        for key in entry:
            if key not in ("faction", "name", "inner", "outer"):
                raise TileError(label, key, "unknown field")
        if faction not in FACTIONS:
            raise TileError(label, "faction", f"{faction!r} is not one of {', '.join(FACTIONS)}")
        if faction in starters:
            raise TileError(label, "faction", "two starters for this faction")
        title = entry.get("name")
        if not isinstance(title, str) or not title.strip():
            raise TileError(label, "name", "a starter needs a name")
        layout: list[str] = []
        for row in ("inner", "outer"):
            names = entry.get(row)
            if not isinstance(names, list) or len(names) != 5:
                raise TileError(label, row, "must list 5 tile names, column A to E")
            for tile_name in names:
                if tile_name not in tiles:
                    raise TileError(label, row, f"{tile_name!r} is not a tile")
                if tile_name in layout:
                    raise TileError(label, row, f"{tile_name} is in the layout twice")
                if tiles[tile_name].faction != faction:
                    raise TileError(label, row, f"{tile_name} is a {tiles[tile_name].faction} tile")
                layout.append(tile_name)
        controls = [index for index, tile_name in enumerate(layout) if tiles[tile_name].is_control]
        if controls != [7]:
            raise TileError(label, "outer", "the one control room must be the middle tile of the outer row")
        starters[faction] = Starter(faction, title, tuple(layout))
    for faction in FACTIONS:
        if faction not in starters:
            raise TileError(f"starter {faction}", None, "missing: every faction needs a starter submarine")
    return starters


def _load_shipped() -> TileSet:
    return load_tiles(read_text(__spec__, "tiles.toml"))


TILESET: TileSet = _load_shipped()
"""The tiles this program ships (``tiles.toml``)."""
