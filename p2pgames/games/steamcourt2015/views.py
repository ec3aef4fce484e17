"""What the 2015 rules show people beyond the published game's views: the help, the command
line's variations, the Party variation's result line."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from p2pgames.games.steamcourt.rules import SteamCourtState

__all__ = ["CLI_VARIANTS", "HELP", "party_summary"]

# ``--variant NAME`` on the command line (see ``SteamCourt.cli_variants``).
CLI_VARIANTS: dict[str, dict[str, Any]] = {
    "party": {"options": {"variation": "party"}, "about": "character tokens instead of gear tokens"},
}

HELP = """\
Steam Court, by its 2015 draft rules ("Steam Corset"): get rid of your cards
before the others. Going out takes the top gear token of the quarter's stack;
after four quarters the most points (start token + four gear tokens) wins.
3-7 players sit at one table, 8-10 at two (the Royal and the Renegade table),
whose first two and last two out change tables between quarters.

Privileges as the quarter starts, highest seat first: the Queen gives two
cards to the lowest player; the General one card to the second-lowest; the
Inspector sees the Court Hand and one hand; the Plague Doctor draws four from
the Court Hand and keeps two; the Tea Boy and the Vagabond give their two
highest numbered cards to the highest player (the Tea Boy may then trade his
hand for the Court Hand). In play: the Duke may match instead of beating, the
Alchemist lowers a numbered card by two, the General stops one lay a quarter,
the Submariner dives once into the discard pile and keeps at most half of
what he draws, the Pirate takes back his cards of one lost trick.

A trick: lead any number of cards of one value; follow with as many, higher.
A Multiplier (X) with cards of one number counts as any number of them; alone
it is a single 1. A Putsch (MS) beats everything and ends the trick; three
Putsch dealt to you let you pull a coup and take the Queen's seat."""


def party_summary(state: "SteamCourtState", winner: int) -> str:
    """One line for the Party variation's :class:`GameOver` (the session puts the name in front)."""
    where = "at the Royal table" if len(state.tables) == 2 else "at the table"
    return f"first out {where} in the 4th quarter: Engineer to Her Royal Majesty the Queen"
