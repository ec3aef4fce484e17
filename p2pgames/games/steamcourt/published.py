"""The published rules' twelve characters (rulebook, "Characters"; RULES.md cites each rule).

Read beside another rulebook's module to see how the two differ; the flow of play that uses these
records is ``rules.py`` and its parts, ``privileges.py`` above all (see :mod:`~.rulebook`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from p2pgames.games.steamcourt import duo
from p2pgames.games.steamcourt.cards import CHARACTER_NUMBER, CHARACTER_TITLE, CHARACTERS, DECK, MAX_QUANTITY
from p2pgames.games.steamcourt.phases import Phase
from p2pgames.games.steamcourt.rulebook import Character, Draw, Gift, Inspection, Rulebook, Service

if TYPE_CHECKING:
    from p2pgames.games.steamcourt.state import SteamCourtState, Table

__all__ = ["PUBLISHED"]


def _anyone_else(table: "Table", giver: int) -> list[int]:
    return [player for player in table.seats if player != giver]


def _anyone_but_the_queen(table: "Table", giver: int) -> list[int]:
    return [player for player in table.seats if player != giver and table.character_of(player) != "queen"]


def _the_preeminent(table: "Table", giver: int) -> list[int]:
    return [table.seats[0]]


_ANOTHER_PLAYER = "give the cards to another player at the table"

_POWERS: dict[str, dict] = {
    "queen": dict(
        privilege=Gift(_anyone_else), power_text=("", "give a card as the quarter starts; lead first"),
    ),
    "general": dict(
        privilege=Gift(_anyone_but_the_queen, "the General can't give a card to the Queen"),
        stops=True,
        power_text=("stop", "once a quarter: stop a lay (not a lead)"),
    ),
    "duke": dict(matches=True, power_text=("", "match the lay instead of beating it")),
    "timetraveler": dict(
        trick_end=Phase.RETRIEVE, power_text=("retrieve", "once a quarter: take back a lost trick's lay"),
    ),
    "jester": dict(pairs=True, unpasses=True, power_text=("", "unpass once, play a card as a pair once")),
    "teaboy": dict(
        privilege=Service(_the_preeminent, "the Tea Boy serves the preeminent player", Phase.TRADE),
        power_text=("", "give the Queen two top numbered cards; may trade"),
    ),
    "submariner": dict(
        # At least half of what he draws, rounded up, stays in his hand (RULES.md, I7).
        dive=Draw(("court", "discard"), None, lambda drawn: (drawn + 1) // 2),
        power_text=("dive", "once a quarter, on your turn: dive into a pile"),
    ),
    "inspector": dict(privilege=Inspection(), power_text=("", "at quarter start: see the Court Hand and one hand")),
    "alchemist": dict(lowers=True, power_text=("", "lower any numbered card by two when you lay it")),
    "pirate": dict(trick_end=Phase.STEAL, power_text=("steal", "once a quarter: steal a numbered card from a trick")),
    "plaguedoctor": dict(
        plague=Draw(("discard",), 4, lambda drawn: min(2, drawn)),
        power_text=("plague", "once a quarter, on your turn: draw 4 discards"),
    ),
    "vagabond": dict(
        privilege=Service(_anyone_else, _ANOTHER_PLAYER, Phase.HOARD),
        power_text=("", "give away your top two numbered cards; may hoard"),
    ),
}

def _deck(state: "SteamCourtState") -> tuple[str, ...]:
    """The 84 cards, at each table; the Duo variant plays without 1s and 2s."""
    return duo.DUO_DECK if state.variant == "duo" else DECK


#: The published rulebook: its characters in the order of their printed numbers, and its deck.
PUBLISHED = Rulebook(
    "published",
    {
        name: Character(name, CHARACTER_TITLE[name], CHARACTER_NUMBER[name], **_POWERS[name])
        for name in CHARACTERS
    },
    _deck,
    MAX_QUANTITY,
)
