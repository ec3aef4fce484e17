"""The Duo variant of Steam Court: two players climbing the character ladder (RULES.md, Duo).

The Duo variant is the one-table game with three changes, each a small hook in the flow (the deck
in ``published.py``, the characters in ``setup.py``, the winner in ``scoring.py``):

* the deck has no 1s and no 2s (:data:`DUO_DECK`, 72 cards: 24 to each player, 24 to the Court
  Hand);
* the two characters change every quarter (:func:`characters`): the ladder's two lowest rungs in
  the first quarter, one rung higher each quarter after. The character new to the ladder is the
  preeminent seat (I48), so the core reseating — the first player out becomes preeminent — gives
  "the player to play all of his cards first" the new character;
* the winner (:func:`result`): the most points (``duo_win`` ``points``), or the player who goes out
  first in the 4th quarter, who would climb to the Queen (``duo_win`` ``queen``, I50).

Everything here reads the state and never changes it. The ladder's panel and the variant's help are
the views' (``views.py``: :func:`~.views.duo_ladder_panel`, :data:`~.views.DUO_HELP`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from p2pgames.engine import GameOver

from p2pgames.games.steamcourt.cards import DECK, KIND, NUMBER, NUMBERED

if TYPE_CHECKING:
    from p2pgames.games.steamcourt.state import SteamCourtState

__all__ = ["DUO_DECK", "LADDER", "characters", "result", "QUEEN_RUNG"]

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
