"""The actions of Steam Torpedo: small immutable values that check their own shape.

Every action validates its field types and ranges when built and raises :class:`MalformedAction`
otherwise (actions arrive from the network); whether it is *legal* now is the rules' business
(:meth:`Torpedo.check_action`). Positions are tile indexes 0–9 (``row * 5 + column``, see
``geometry.py``), crew members are indexes 0–9 (``seat * 5 + k``: ``k = 0`` the captain, 1–4 the
sailors), effects are a tile's effect index 0–1, seats 0–1. Each ``repr`` reads back as an equal
action.

A trigger is split into small decisions so that every list of legal actions stays short:
``Trigger`` names the compartment, the effect and the crew; each triggering crew member's move
toward the control room is a ``Step`` when more than one tile qualifies (else it happens by
itself); the effect's target is a ``TargetTile``, ``TargetCrew``, ``Relocate`` or ``Drive``
when there is a choice; an attack's defender then answers ``Absorb`` or ``Assign``.

===================================  ===========================================================
action                               when
===================================  ===========================================================
``Build(tiles)``                     build (simultaneous): 10 tile names, sorted
``Pick(name)``                       draft: a tile from the pool
``Swap(a, b)`` / ``Keep()``          after placement (simultaneous): switch two tiles, or don't
``Breathe(position)``                recovery: the compartment to take an oxygen token from
``Maneuver(own, enemy, upper)``      once an action phase: sectors to move each submarine
``Move(crew, to)``                   a ready crew member to an adjacent compartment (exhausts)
``CaptainMove(to)``                  the captain's free move, once a turn
``Trigger(position, effect, crews)`` a duty or counter effect, by 1 crew member (2: two keys)
``Step(crew, to)``                   the triggering crew member's move toward the control room
``TargetTile(position)``             the compartment an effect aims at
``TargetCrew(crew)``                 the crew member an effect aims at
``Relocate(crew, to)``               move-crew effects: whom and where
``Drive(seat, by, upper)``           move-sub effects: which submarine and how far
``Absorb()``                         the defender puts one damage token on the control room
``Assign(position)``                 the defender's compartment for damage (or oxygen removal)
``React(position, effect)``          a counter effect in the opponent's turn
``Pass()``                           no (more) reactions
``EndTurn()``                        the action phase is over
===================================  ===========================================================
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from p2pgames.engine import ActionCodec, MalformedAction

__all__ = [
    "Absorb",
    "Assign",
    "Breathe",
    "Build",
    "CaptainMove",
    "Drive",
    "EndTurn",
    "Keep",
    "Maneuver",
    "Move",
    "Pass",
    "Pick",
    "React",
    "Relocate",
    "Step",
    "Swap",
    "TargetCrew",
    "TargetTile",
    "Trigger",
    "decode_action",
    "encode_action",
]

MAX_SPEED = 4  # the farthest a submarine can go in five sectors
MAX_BUILD = 32  # a build names 10 tiles; anything this long is garbage, not a build
MAX_TILE_NAME = 40


def _int(value: Any, low: int, high: int, what: str) -> None:
    if type(value) is not int or not low <= value <= high:
        raise MalformedAction(f"{what} must be a whole number {low}–{high}, not {value!r}")


def _position(value: Any, what: str = "position") -> None:
    _int(value, 0, 9, what)


def _crew(value: Any, what: str = "crew") -> None:
    _int(value, 0, 9, what)


def _seat_or_none(value: Any, what: str) -> None:
    if value is not None:
        _int(value, 0, 1, what)


def _name(value: Any, what: str) -> None:
    if type(value) is not str or not 0 < len(value) <= MAX_TILE_NAME:
        raise MalformedAction(f"{what} must be a tile name, not {value!r}")


@dataclass(frozen=True, slots=True)
class Build:
    """The tiles of the submarine you build, by name, sorted. Whether they make a legal submarine
    (10 distinct known tiles, one control room) is the rules' check, so that the reason is given
    and the builder named when the builds are opened."""

    tiles: tuple[str, ...]

    def __post_init__(self) -> None:
        if type(self.tiles) is not tuple or not 0 < len(self.tiles) <= MAX_BUILD:
            raise MalformedAction(f"tiles must be a tuple of tile names, not {self.tiles!r}")
        for name in self.tiles:
            _name(name, "each tile")
        if list(self.tiles) != sorted(self.tiles):
            raise MalformedAction("a build's tiles must be listed in sorted order")


@dataclass(frozen=True, slots=True)
class Pick:
    """Draft the tile called ``name`` from the pool."""

    name: str

    def __post_init__(self) -> None:
        _name(self.name, "name")


@dataclass(frozen=True, slots=True)
class Swap:
    """Switch the tiles at positions ``a`` and ``b`` (``a < b``) of your submarine."""

    a: int
    b: int

    def __post_init__(self) -> None:
        _position(self.a, "a")
        _position(self.b, "b")
        if self.a >= self.b:
            raise MalformedAction(f"a swap names two positions in increasing order, not {self.a}, {self.b}")


@dataclass(frozen=True, slots=True)
class Keep:
    """Swap nothing: keep the submarine as placed."""


@dataclass(frozen=True, slots=True)
class Breathe:
    """Recovery: take one oxygen token from the compartment at ``position``."""

    position: int

    def __post_init__(self) -> None:
        _position(self.position)


@dataclass(frozen=True, slots=True)
class Maneuver:
    """Move your submarine ``own`` sectors and the enemy's ``enemy`` sectors (toward sector 5 is
    positive). ``upper`` is the seat whose submarine ends up (port of the other) when both end in
    one sector, else ``None``. ``Maneuver(0, 0, upper)`` swings round to the enemy's other side
    within your shared sector (out and back: 2 speed)."""

    own: int
    enemy: int
    upper: int | None

    def __post_init__(self) -> None:
        _int(self.own, -MAX_SPEED, MAX_SPEED, "own")
        _int(self.enemy, -MAX_SPEED, MAX_SPEED, "enemy")
        _seat_or_none(self.upper, "upper")


@dataclass(frozen=True, slots=True)
class Move:
    """Move the ready crew member ``crew`` to the adjacent compartment at ``to`` (exhausts it)."""

    crew: int
    to: int

    def __post_init__(self) -> None:
        _crew(self.crew)
        _position(self.to, "to")


@dataclass(frozen=True, slots=True)
class CaptainMove:
    """The captain's free move to the adjacent compartment at ``to``: once a turn, ready or
    exhausted, and he stays as he was."""

    to: int

    def __post_init__(self) -> None:
        _position(self.to, "to")


@dataclass(frozen=True, slots=True)
class Trigger:
    """Trigger effect ``effect`` of your compartment at ``position`` with the ready crew members
    ``crews`` there (one; two for a two-keys effect, which doubles it), in increasing order."""

    position: int
    effect: int
    crews: tuple[int, ...]

    def __post_init__(self) -> None:
        _position(self.position)
        _int(self.effect, 0, 1, "effect")
        if type(self.crews) is not tuple or not 1 <= len(self.crews) <= 2:
            raise MalformedAction(f"crews must be a tuple of one or two crew members, not {self.crews!r}")
        for crew in self.crews:
            _crew(crew)
        if len(self.crews) == 2 and self.crews[0] >= self.crews[1]:
            raise MalformedAction("two keys name two crew members in increasing order")


@dataclass(frozen=True, slots=True)
class Step:
    """The triggering crew member ``crew`` moves to ``to``, an adjacent tile closer to the control
    room."""

    crew: int
    to: int

    def __post_init__(self) -> None:
        _crew(self.crew)
        _position(self.to, "to")


@dataclass(frozen=True, slots=True)
class TargetTile:
    """The effect being resolved aims at the compartment at ``position`` (of the submarine the
    effect reaches: the enemy's for boarding and the oxygen fallback, yours for repair and refill)."""

    position: int

    def __post_init__(self) -> None:
        _position(self.position)


@dataclass(frozen=True, slots=True)
class TargetCrew:
    """The effect being resolved eliminates the crew member ``crew``."""

    crew: int

    def __post_init__(self) -> None:
        _crew(self.crew)


@dataclass(frozen=True, slots=True)
class Relocate:
    """A move-crew effect moves your crew member ``crew`` to the compartment at ``to``."""

    crew: int
    to: int

    def __post_init__(self) -> None:
        _crew(self.crew)
        _position(self.to, "to")


@dataclass(frozen=True, slots=True)
class Drive:
    """A move-sub effect moves seat ``seat``'s submarine ``by`` sectors (not zero); ``upper`` as in
    :class:`Maneuver`."""

    seat: int
    by: int
    upper: int | None

    def __post_init__(self) -> None:
        _int(self.seat, 0, 1, "seat")
        _int(self.by, -MAX_SPEED, MAX_SPEED, "by")
        if self.by == 0:
            raise MalformedAction("a submarine driven moves at least one sector")
        _seat_or_none(self.upper, "upper")


@dataclass(frozen=True, slots=True)
class Absorb:
    """The defender absorbs the whole damage total into the control room (one damage token)."""


@dataclass(frozen=True, slots=True)
class Assign:
    """The defender puts the damage (or takes the oxygen) on the compartment at ``position`` until
    it is destroyed (emptied) or nothing is left."""

    position: int

    def __post_init__(self) -> None:
        _position(self.position)


@dataclass(frozen=True, slots=True)
class React:
    """In the opponent's turn: use counter effect ``effect`` of your manned compartment at
    ``position``."""

    position: int
    effect: int

    def __post_init__(self) -> None:
        _position(self.position)
        _int(self.effect, 0, 1, "effect")


@dataclass(frozen=True, slots=True)
class Pass:
    """No (more) reactions now."""


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End your action phase: play passes to the opponent."""


# Wire form: [kind, *fields]; the kinds are short because every act is signed and logged.
_KIND_OF = {
    Build: "build",
    Pick: "pick",
    Swap: "swap",
    Keep: "keep",
    Breathe: "breathe",
    Maneuver: "maneuver",
    Move: "move",
    CaptainMove: "captain",
    Trigger: "trigger",
    Step: "step",
    TargetTile: "tile",
    TargetCrew: "crew",
    Relocate: "relocate",
    Drive: "drive",
    Absorb: "absorb",
    Assign: "assign",
    React: "react",
    Pass: "pass",
    EndTurn: "end",
}
_CODEC = ActionCodec("Steam Torpedo", _KIND_OF, sequence_fields=("tiles", "crews"))
encode_action = _CODEC.encode
decode_action = _CODEC.decode
