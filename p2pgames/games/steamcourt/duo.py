"""The Duo variant of Steam Court: two players climbing the character ladder (RULES.md, Duo).

The Duo variant is the one-table game with three changes, each a small hook in ``rules.py``:

* the deck has no 1s and no 2s (:data:`DUO_DECK`, 72 cards: 24 to each player, 24 to the Court
  Hand);
* the two characters change every quarter (:func:`characters`): the ladder's two lowest rungs in
  the first quarter, one rung higher each quarter after. The character new to the ladder is the
  preeminent seat (I48), so the core reseating — the first player out becomes preeminent — gives
  "the player to play all of his cards first" the new character;
* the winner (:func:`result`): the most points (``duo_win`` ``points``), or the player who goes out
  first in the 4th quarter, who would climb to the Queen (``duo_win`` ``queen``, I50).

Everything here reads the state and never changes it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from p2pgames.engine import GameOver, Panel

from p2pgames.games.steamcourt.cards import CHARACTER_TITLE, DECK, KIND, NUMBER, NUMBERED
from p2pgames.engine import wrap_segments

if TYPE_CHECKING:
    from p2pgames.games.steamcourt.rules import SteamCourtState

__all__ = ["DUO_DECK", "LADDER", "characters", "result", "ladder_panel", "QUEEN_RUNG", "HELP"]

# Before dealing, remove all of the 1s and 2s from the deck.
DUO_DECK: tuple[str, ...] = tuple(
    name for name in DECK if not (KIND[name] == NUMBERED and NUMBER[name] <= 2)
)

# The Duo ladder, lowest rung first: the rulebook's quarters name the first five; the Queen is the
# rung the first player out of the 4th quarter climbs to (I50).
LADDER: tuple[str, ...] = ("teaboy", "plaguedoctor", "alchemist", "duke", "general", "queen")
QUEEN_RUNG = len(LADDER)  # 6: the Queen's rung, counted from the Tea Boy's 1


def characters(quarter: int) -> tuple[str, str]:
    """The quarter's two characters in seat order, the preeminent (the new rung) first (I48)."""
    return (LADDER[quarter], LADDER[quarter - 1])


def result(state: "SteamCourtState") -> GameOver | None:
    """The Duo winner by ``state.duo_win``; ``None`` for ``points`` (the core scoring decides)."""
    if state.duo_win != "queen":
        return None
    first = state.going_out_order()[0]
    # The first out of the 4th quarter climbs to the Queen; the other takes the General (I50).
    scores = tuple(QUEEN_RUNG if player == first else QUEEN_RUNG - 1 for player in range(state.players))
    return GameOver(scores, (first,), "Engineer to the Queen: first out in the 4th quarter")


def ladder_panel(state: "SteamCourtState", names: Sequence[str]) -> Panel:
    """This quarter's two rungs of the Duo ladder, the next one (once the game is over: who climbed
    to it), and the win condition: two lines (the whole ladder is in help)."""
    quarter = max(1, min(state.quarter, 4))
    table = state.tables[0]
    holders = dict(zip(table.characters, table.seats)) if state.quarter else {}
    rungs: list[tuple[str, str]] = [("dim", "Q4:" if state.phase == "over" else "now:")]
    held = [character for character in LADDER if character in holders]
    for character in held:
        comma = "," if character != held[-1] else ""
        rungs.append(("bold", f"{CHARACTER_TITLE[character]} ({names[holders[character]][:12]}){comma}"))
    nxt = CHARACTER_TITLE[LADDER[quarter + 1]]
    if state.phase == "over":
        first = state.going_out_order()[0]
        rungs.append(("", f"· {names[first][:12]} out first: up to the {nxt}"))
    else:
        rungs.append(("", f"· first out climbs to the {nxt}"))
    goal = (
        "goal: Engineer to the Queen (go out first in the 4th quarter)"
        if state.duo_win == "queen"
        else "goal: the most points (start token + gear tokens)"
        if state.scores_start()
        else "goal: the most gear tokens (start tokens only seat)"
    )
    lines = [*wrap_segments(rungs), (("dim", goal),)]
    return Panel("The Duo ladder", tuple(lines))


HELP = """\
Duo (2 players, no 1s or 2s): you start as the Tea Boy and the Plague Doctor;
the first player out each quarter takes the next character on the ladder
(Plague Doctor, Alchemist, Duke, General), the other the lower of the next
quarter's two. Win by gear points (the gear tokens; the start tokens 11 and 6
only seat you; start_tokens=seat scores tokens 1 and 2 as well), or
(duo_win=queen) by going out first in the 4th quarter: Engineer to the Queen."""
