"""The 2015 draft rules' ten characters, their seats and the decks (``steam-court-draft.txt``).

Read beside ``steamcourt/published.py`` to see how the two rulebooks differ; the flow of play that
uses these records is the published game's (``steamcourt/rules.py``), and :mod:`.rules` holds
what else the 2015 rules change (setup, tokens, scoring). ``RULES.md`` beside this file cites the
rulebook for each rule and records the readings chosen where it is silent (I1 …).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from p2pgames.games.steamcourt.cards import CHARACTER_TITLE, DECK, MAX_QUANTITY, SEVENTH
from p2pgames.games.steamcourt.phases import Phase
from p2pgames.games.steamcourt.rulebook import (
    CardWords,
    Character,
    Draw,
    DrawPrivilege,
    Gift,
    Inspection,
    Rulebook,
    Service,
)

if TYPE_CHECKING:
    from p2pgames.games.steamcourt.state import SteamCourtState, Table

__all__ = ["DRAFT_2015", "RANKS", "ROYALS", "RENEGADES", "characters_for", "deck_for", "REMOVABLE"]

# The seat order diagram is missing from the draft; every rank below is fixed by one of its
# sentences (RULES.md, I1): the Royal table, then the Renegade table, each preeminent first.
ROYALS: tuple[str, ...] = ("queen", "general", "duke", "alchemist", "teaboy")
RENEGADES: tuple[str, ...] = ("submariner", "inspector", "plaguedoctor", "pirate", "vagabond")
RANKS: tuple[str, ...] = ROYALS + RENEGADES


def _lowest(table: "Table", giver: int) -> list[int]:
    return [table.seats[-1]] if table.seats[-1] != giver else []


def _second_lowest(table: "Table", giver: int) -> list[int]:
    return [table.seats[-2]] if len(table.seats) >= 2 and table.seats[-2] != giver else []


def _highest(table: "Table", giver: int) -> list[int]:
    return [table.seats[0]]


_POWERS: dict[str, dict] = {
    # "bestow his two most undesirable cards to the lowest player at the table" (I4, I5).
    "queen": dict(
        privilege=Gift(_lowest, "the Queen gives to the lowest player at the table", cards=2),
        power_text=("", "give two cards to the lowest player; lead first"),
    ),
    # "may give one of his undesirable cards to the second-lowest player" (I6); the stop as published.
    "general": dict(
        privilege=Gift(_second_lowest, "the General gives to the second-lowest player at the table"),
        stops=True,
        power_text=("stop", "give a card to the second-lowest; stop a lay once"),
    ),
    "duke": dict(matches=True, power_text=("", "match the lay instead of beating it")),
    "alchemist": dict(lowers=True, power_text=("", "lower any numbered card by two when you lay it")),
    "teaboy": dict(
        privilege=Service(_highest, "the Tea Boy serves the highest player", Phase.TRADE),
        power_text=("", "to the highest: two top numbered cards; may trade"),
    ),
    # Once a quarter on his turn, into the discard pile only, keeping at most half (I8).
    "submariner": dict(
        dive=Draw(("discard",), None, lambda drawn: 0, lambda drawn: drawn // 2),
        power_text=("dive", "once a quarter, on your turn: dive into discards"),
    ),
    # "Once per Quarter ... look at the Court Hand as well as one other player's hand" (I7).
    "inspector": dict(privilege=Inspection(), power_text=("", "at quarter start: see the Court Hand and one hand")),
    # Four drawn at random from the Court Hand, exactly two kept, as the quarter starts (I9).
    "plaguedoctor": dict(
        privilege=DrawPrivilege(Draw(("court",), 4, lambda drawn: min(2, drawn), lambda drawn: min(2, drawn)), "plague"),
        power_text=("", "at the start: draw 4 Court Hand cards, keep 2"),
    ),
    # "after losing a trick ... steal back the cards he played during that trick" (I10).
    "pirate": dict(
        trick_end=Phase.RETRIEVE,
        retrieves_all=True,
        power_text=("retrieve", "once a quarter: take back your cards of a lost trick"),
    ),
    "vagabond": dict(
        privilege=Service(_highest, "the Vagabond serves the highest player", None),
        power_text=("", "give the highest player your two top numbered cards"),
    ),
}

# Characters that may be left out where the draft lets the players choose (4, 8 and 9 players):
# any but the Queen and the Submariner, who head their tables (I3).
REMOVABLE: tuple[str, ...] = tuple(name for name in RANKS if name not in ("queen", "submariner"))


def characters_for(players: int, table: str, removed: str, removed_renegade: str, three: str) -> tuple[tuple[str, ...], ...]:
    """The characters of each table for ``players`` (3–10), in seat order, preeminent first.

    ``table`` chooses the Royal or the Renegade table at 4–5 players; ``removed`` is left out at 4
    (Royal table), 8 (Royal table) and 9 players, ``removed_renegade`` at 4 (Renegade table) and
    8; ``three`` names the three characters of a 3-player game (I2, I3).
    """
    if players == 3:
        chosen = set(three.split("+"))
        return (tuple(name for name in RANKS if name in chosen),)
    if players in (4, 5):
        seats = ROYALS if table == "royal" else RENEGADES
        if players == 4:
            gone = removed if table == "royal" else removed_renegade
            seats = tuple(name for name in seats if name != gone)
        return (seats,)
    if players == 6:
        return (("queen", "general", "duke", "alchemist", "inspector", "teaboy"),)
    if players == 7:
        return (("queen", "general", "duke", "alchemist", "inspector", "pirate", "teaboy"),)
    gone = {removed, removed_renegade} if players == 8 else {removed} if players == 9 else set()
    return tuple(tuple(name for name in seats if name not in gone) for seats in (ROYALS, RENEGADES))


# The three characters of a 3-player game, any three of the ten named in rank order (I2).
THREES: tuple[str, ...] = tuple(
    "+".join((a, b, c))
    for i, a in enumerate(RANKS) for j, b in enumerate(RANKS[i + 1:], i + 1) for c in RANKS[j + 1:]
)

# Three players remove one card of each number and of each special card (68 cards); seven add
# one of each number from the Renegade table's deck (96 cards: the seventh copies, 1g … 12g).
_THREE_PLAYER_DECK: tuple[str, ...] = tuple(name for name in DECK if not name.endswith(("f", "MSc", "MXc", "3/9c", "6/12c")))
_SEVEN_PLAYER_DECK: tuple[str, ...] = DECK + SEVENTH


def deck_for(players: int) -> tuple[str, ...]:
    """The cards each table deals each quarter at ``players`` players."""
    if players == 3:
        return _THREE_PLAYER_DECK
    if players == 7:
        return _SEVEN_PLAYER_DECK
    return DECK


def _deck(state: "SteamCourtState") -> tuple[str, ...]:
    return deck_for(state.players)


#: The 2015 draft's characters (numbered by rank, the Queen 1 … the Vagabond 10) and decks. A
#: Multiplier declares at most 16 here too: no hand can hold more than 16 cards of one value (I11).
#: The Masterstroke is the Putsch, as its face too: "MS" abbreviates a name its players never read (I17).
DRAFT_2015 = Rulebook(
    "2015 draft",
    {
        name: Character(name, CHARACTER_TITLE[name], rank, **_POWERS[name])
        for rank, name in enumerate(RANKS, 1)
    },
    _deck,
    MAX_QUANTITY,
    CardWords("Putsch", "Putsch", "Putsch cards"),
)
