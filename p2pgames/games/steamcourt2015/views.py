"""What the 2015 rules show people beyond the published game's views (``steamcourt/views.py``,
which ask ``state.book`` for the 2015 wording: the Putsch, the characters' numbers): the help (the
moves, the Party variation), the command line's variations, the Party variation's result line."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from p2pgames.games.steamcourt.rules import SteamCourtState

__all__ = ["CLI_VARIANTS", "HELP", "PARTY_HELP", "party_summary"]

# ``--variant NAME`` on the command line (see ``SteamCourt.cli_variants``).
CLI_VARIANTS: dict[str, dict[str, Any]] = {
    "party": {"options": {"variation": "party"}, "about": "character tokens instead of gear tokens"},
}

_COURT_HELP = """\
Steam Court, by its 2015 draft rules ("Steam Corset"): get rid of your cards
before the others. Going out takes the top gear token of the quarter's stack;
after four quarters the most points (start token + four gear tokens) wins.
3-7 players sit at one table, 8-10 at two (the Royal and the Renegade table,
each with its own deck and its own stack of gear tokens), whose first two and
last two out change tables between quarters.

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
it is a single 1. 3/9 and 6/12 count as either value. A Putsch beats
everything and ends the trick; three Putsch cards dealt to you let you pull a
coup and take the Queen's seat.

The table lists the seats from the highest: character, name, cards left,
passed / to act / out, and start + gear tokens = points.

Type (cards by face; seats by name):
  lay 7 7 7          three 7s             lay 5 5 +X3     two 5s, X: three 5s
  lay 3/9 as 9       a 3/9 as a 9         lay X           a Multiplier: one 1
  lay 9 7 as 7       (Alchemist) 9 as 7   pass            sit out the trick
  lay Putsch         a Putsch (lay MS is read as well)
  coup               (three Putsch cards) take the Queen's seat
  give 2 5 to erin   (Queen)              give 2 to dave  (General)
  give 11 12 to alice   (Tea Boy, Vagabond: your two highest numbered cards)
  trade | keep       (Tea Boy)            inspect bob     (Inspector)
  stop bob           (General)            retrieve        (Pirate)
  dive discard 7     (Submariner)         plague          (Plague Doctor)
  put back 7 | keep  after drawing"""

PARTY_HELP = """\
Party variation: no gear tokens. Going out takes the top character token of
your table's stack (the highest first), and the tokens set next quarter's
seats; at two tables the Royal table's last two out go down to the Renegade
table, its first two out go up. After the 4th quarter the first player out
at the Royal table (at one table: the first out) wins."""

HELP = _COURT_HELP + "\n\n" + PARTY_HELP


def party_summary(state: "SteamCourtState", winner: int) -> str:
    """One line for the Party variation's :class:`GameOver` (the session puts the name in front)."""
    where = "at the Royal table" if len(state.tables) == 2 else "at the table"
    return f"first out {where} in the 4th quarter: Engineer to Her Royal Majesty the Queen"
