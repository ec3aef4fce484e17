"""How a game of Steam Court ends (rulebook, "End of 4th Quarter"; the Party variant's "Victory
Condition"; Clock Climbing): the line a result says, and the names of the clock's spaces.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from p2pgames.games.steamcourt.state import SteamCourtState

__all__ = ["party_result_summary", "result_summary", "space_name"]


def space_name(space: int) -> str:
    """A Clock Climbing space: 12 outer circles, then the inner circles (round again after)."""
    hour = space % 12 + 1
    if space < 12:
        return f"outer {hour}"
    lap = space // 12
    return f"inner {hour}" + (f" (lap {lap})" if lap > 1 else "")


def result_summary(state: "SteamCourtState", winner: int, tied: int) -> str:
    """One line for :class:`GameOver`, naming nobody (the session puts the names in front)."""
    totals = state.totals()
    if state.scoring == "clock":
        return f"farthest on the clock: space {totals[winner]} ({space_name(totals[winner])})"
    if tied > 1:
        return f"{totals[winner]} points, tied; first out in the 4th quarter breaks the tie"
    return f"{totals[winner]} points after four quarters"


def party_result_summary(state: "SteamCourtState", winner: int) -> str:
    """One line for the Party variant's :class:`GameOver` (the session puts the winner's name in front)."""
    return "first out at the Royal table in the 4th quarter: Engineer to Her Royal Majesty the Queen"
