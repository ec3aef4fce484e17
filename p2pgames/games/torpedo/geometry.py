"""Where things are: the tiles of a submarine, the sea sectors, and who is where of whom.

The table (rulebook, "Setup" and "Targeting")::

                 player 1's tiles:   row 1 (outer)   A2 B2 C2 D2 E2      C2 = control room
                                     row 0 (inner)   A1 B1 C1 D1 E1
      battle area, sectors 1-5:                      1  2  3  4  5      both submarines face 5
                 player 0's tiles:   row 0 (inner)   A1 B1 C1 D1 E1
                                     row 1 (outer)   A2 B2 C2 D2 E2      C2 = control room

Each submarine is a 2×5 grid of positions ``(row, col)``, kept as the index ``row * 5 + col``:
row 0 is the *inner* row (next to the battle area), row 1 the *outer* row (nearest its player);
column ``c`` is sea sector ``c + 1``. Typed and shown as a column letter and a row number:
``A1`` … ``E1`` the inner row, ``A2`` … ``E2`` the outer row. The control room is ``C2``,
"the center column closest to you".

Both submarines face the same way, toward sector 5, and never turn. So for both, *fore* is
columns D and E and *aft* columns A and B (column C is in neither); *port* and *starboard* are rows,
and they are not the same rows for both players ("Locations are not necessarily the same tiles for
both players!"): facing sector 5, port is up the table, toward player 1. For player 0 (below) port
is the inner row and starboard the outer row; for player 1 (above) port is the outer row and
starboard the inner row.

In the battle area each submarine is in a sector 1–5. Sub 1 starts up, sub 0 down, both in sector
3; when both are in one sector the state says which is up (``upper``). Seen from a seat, the enemy
is *in front* (a greater sector), *behind* (a smaller one), or, in the same sector, on its *port
side* (up from it) or *starboard side* (down). Same or adjacent sectors: *close* range; two or more
apart: *distant*.

Pure functions over small ints and tuples; nothing here knows about tiles or the game's state.
"""

from __future__ import annotations

__all__ = [
    "ADJACENT",
    "AFT",
    "CLOSER",
    "COLUMNS",
    "CONTROL",
    "FORE",
    "LOCATIONS",
    "POSITIONS",
    "ROWS",
    "SECTORS",
    "column",
    "control_distance",
    "facing_location",
    "hit_location",
    "location_positions",
    "parse_position",
    "position",
    "position_name",
    "range_of",
    "reaches",
    "relative_position",
    "row",
    "sector_distance",
]

ROWS = 2
COLUMNS = 5
POSITIONS = tuple(range(ROWS * COLUMNS))
SECTORS = (1, 2, 3, 4, 5)
CONTROL = 7  # (1, 2): the middle of the outer row
LOCATIONS = ("fore", "aft", "port", "starboard")
_LETTERS = "ABCDE"


def position(row_: int, column_: int) -> int:
    """The index of the tile at ``(row, column)``."""
    return row_ * COLUMNS + column_


def row(position_: int) -> int:
    return position_ // COLUMNS


def column(position_: int) -> int:
    return position_ % COLUMNS


def position_name(position_: int) -> str:
    """``A1`` … ``E2``: the column's letter (sector 1–5), then 1 (inner row) or 2 (outer row)."""
    return f"{_LETTERS[position_ % COLUMNS]}{position_ // COLUMNS + 1}"


def parse_position(text: str) -> int | None:
    """The position ``text`` names (``b1``, ``C2``: any case), or ``None``."""
    if len(text) == 2 and text[0].upper() in _LETTERS and text[1] in "12":
        return position(int(text[1]) - 1, _LETTERS.index(text[0].upper()))
    return None


# -- inside a submarine ------------------------------------------------------------------------------


def _neighbours(position_: int) -> tuple[int, ...]:
    r, c = row(position_), column(position_)
    return tuple(
        position(r + dr, c + dc)
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= r + dr < ROWS and 0 <= c + dc < COLUMNS
    )


ADJACENT: tuple[tuple[int, ...], ...] = tuple(_neighbours(p) for p in POSITIONS)
"""The positions next to each position, orthogonally or diagonally (the rulebook's "Move")."""


def control_distance(position_: int) -> int:
    """How many moves a crew member at ``position_`` is from the control room (Chebyshev distance:
    moves go diagonally too)."""
    return max(abs(row(position_) - row(CONTROL)), abs(column(position_) - column(CONTROL)))


CLOSER: tuple[tuple[int, ...], ...] = tuple(
    tuple(n for n in ADJACENT[p] if control_distance(n) < control_distance(p)) for p in POSITIONS
)
"""For each position, the adjacent positions "closer to the control room": strictly fewer moves
from it (I3). Every position but the control room has at least one; a position next to the
control room has exactly one, the control room itself (the rulebook: "If he's already adjacent to
the control room, move him into the control room")."""


# -- locations --------------------------------------------------------------------------------------

FORE = tuple(p for p in POSITIONS if column(p) >= 3)
AFT = tuple(p for p in POSITIONS if column(p) <= 1)
_INNER = tuple(p for p in POSITIONS if row(p) == 0)
_OUTER = tuple(p for p in POSITIONS if row(p) == 1)
_LOCATION_POSITIONS = (
    {"fore": FORE, "aft": AFT, "port": _INNER, "starboard": _OUTER},  # player 0, below
    {"fore": FORE, "aft": AFT, "port": _OUTER, "starboard": _INNER},  # player 1, above
)


def location_positions(seat: int, location: str) -> tuple[int, ...]:
    """The positions of seat ``seat``'s submarine in ``location`` (fore, aft, port, starboard),
    the control room included where it lies (its row): it can't be targeted, which the rules
    check, not the geometry."""
    return _LOCATION_POSITIONS[seat][location]


# -- the battle area -----------------------------------------------------------------------------------


def sector_distance(sectors: tuple[int, int] | list[int]) -> int:
    return abs(sectors[0] - sectors[1])


def range_of(sectors: tuple[int, int] | list[int]) -> str:
    """``close`` (same or adjacent sectors) or ``distant`` (two or more apart)."""
    return "close" if abs(sectors[0] - sectors[1]) <= 1 else "distant"


def relative_position(seat: int, sectors: tuple[int, int] | list[int], upper: int) -> str:
    """Where the enemy is seen from ``seat``: ``front``, ``behind``, ``port`` (side) or
    ``starboard`` (side). ``upper`` is the seat whose submarine is up when both share a sector;
    facing sector 5, up is to port."""
    own, enemy = sectors[seat], sectors[1 - seat]
    if enemy > own:
        return "front"
    if enemy < own:
        return "behind"
    return "port" if upper != seat else "starboard"


_FACING = {"front": "aft", "behind": "fore", "port": "starboard", "starboard": "port"}


def facing_location(relative: str) -> str:
    """The enemy's location that faces you when it is at ``relative``: in front of you, its aft;
    behind you, its fore; on your port side, its starboard; on your starboard side, its port."""
    return _FACING[relative]


def hit_location(hits: str, relative: str) -> str:
    """The enemy location an effect reaches: ``hits`` as the tile says, ``facing`` resolved."""
    return _FACING[relative] if hits == "facing" else hits


def reaches(position_: str, range_: str, seat: int, sectors: tuple[int, int] | list[int], upper: int) -> bool:
    """Whether an effect of ``seat``'s that fires at ``position_`` (front, behind, port,
    starboard, any) and ``range_`` (close, distant, any) can reach the enemy now (step 1 of
    "Resolving Attacks": "Observe the icons to determine whether your position … and range …
    are appropriate")."""
    if range_ != "any" and range_ != range_of(sectors):
        return False
    return position_ == "any" or position_ == relative_position(seat, sectors, upper)
