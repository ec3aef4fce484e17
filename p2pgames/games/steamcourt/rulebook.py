"""What a Steam Court rulebook says each character does, apart from the flow of play.

The flow — deals, privileges in seat order, tricks, windows, going out, quarters, two tables — is
``rules.py`` and the parts it calls (``setup.py``, ``privileges.py``, ``tricks.py``,
``scoring.py``), and every rulebook shares it. What differs from one rulebook to another is what each
character's card says: its Beginning of Quarter privilege and its powers. A :class:`Rulebook` holds
those as :class:`Character` records, and the flow asks the record (``book[name].matches``), never
the name, so two rulebooks' characters can be read side by side: ``published.py`` holds the
published rules' (a second rulebook adds a module of its own).

The records describe; they decide nothing about order or legality on their own, except where a
rulebook's words are a rule of their own (who may receive a gift: :attr:`Gift.receivers`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, NamedTuple, Protocol

from p2pgames.games.steamcourt.phases import Phase

__all__ = ["CardWords", "Character", "Draw", "DrawPrivilege", "Gift", "Inspection", "Rulebook", "Service"]


class Seating(Protocol):
    """What a rulebook's records read of a table (a :class:`~.state.Table`, named by what it offers:
    the state holds its rulebook, so this module doesn't import the state): who sits in each
    position, and who plays which character."""

    seats: list[int]

    def character_of(self, player: int) -> str: ...


#: The players a gift may go to, given the table and the giver, in seat order.
Receivers = Callable[[Seating, int], list[int]]


@dataclass(frozen=True)
class Gift:
    """A Beginning of Quarter gift the giver may make or decline (the ``give`` phase): ``cards``
    cards of his choice (one: a ``Give``; two: a ``Bestow``) to one of :attr:`receivers`;
    :attr:`refusal` says why another player at the table may not have them."""

    receivers: Receivers
    refusal: str = ""
    cards: int = 1
    phase = Phase.GIVE


@dataclass(frozen=True)
class Service:
    """The compulsory Beginning of Quarter gift of the giver's two highest numbered cards (the
    ``serve`` phase, a claim checked at the quarter's audit) to one of :attr:`receivers`
    (:attr:`refusal`: why another player may not have them); then the phase :attr:`then` (a trade
    or a hoard), or ``None``: the next privilege."""

    receivers: Receivers
    refusal: str
    then: str | None
    phase = Phase.SERVE


@dataclass(frozen=True)
class Inspection:
    """A Beginning of Quarter look, which the inspector may decline, at the Court Hand and one other
    player's hand (the ``inspect`` phase), private to him."""

    phase = Phase.INSPECT


@dataclass(frozen=True)
class Draw:
    """A once-a-quarter draw, blind, from the top of a re-shuffled pile: the Submariner's dive
    (``count`` ``None``: as many as the number of the card he reveals; the pile his choice of
    :attr:`piles`) or the Plague Doctor's plague. Of ``n`` cards drawn he keeps at least
    ``least_kept(n)`` and at most ``most_kept(n)`` (``None``: all of them); he puts the others
    back, one at a time. A most-kept rule needs a table that records the put-backs still owed (the
    2015 rules' ``Table2015.owed``): the published tables, whose state has no such key, take
    no draw with one."""

    piles: tuple[str, ...]
    count: int | None
    least_kept: Callable[[int], int]
    most_kept: Callable[[int], int] | None = None


@dataclass(frozen=True)
class DrawPrivilege:
    """A draw (:attr:`draw`) made, or declined, as a Beginning of Quarter privilege, in the table
    phase :attr:`phase` (the 2015 Plague Doctor's, before the first lead)."""

    draw: Draw
    phase: str


@dataclass(frozen=True)
class Character:
    """One character card: its name (the state's), its title and number as printed, and what it
    lets its player do. The once-a-quarter powers are named as ``state.used`` records them."""

    name: str
    title: str
    number: int
    privilege: Gift | Service | Inspection | DrawPrivilege | None = None  # Beginning of Quarter, in seat order
    matches: bool = False  # may match the lay to follow instead of beating it (the Duke)
    lowers: bool = False  # may lower a numbered card by two as he lays it (the Alchemist)
    stops: bool = False  # once a quarter stops another's lay, not a lead (the General)
    pairs: bool = False  # once a quarter lays a single card as a pair (the Jester)
    unpasses: bool = False  # once a quarter unpasses (the Jester)
    dive: Draw | None = None  # the Submariner
    plague: Draw | None = None  # the Plague Doctor
    trick_end: str | None = None  # the window a lost trick opens: Phase.RETRIEVE or Phase.STEAL
    retrieves_all: bool = False  # a retrieve takes back every lay of his in the trick, not the last
    power_text: tuple[str, str] = ("", "")  # the power to say "used" of, and a line about it


class CardWords(NamedTuple):
    """How people are shown one card: its face (in hands, lays and gifts, and typed), its name in
    sentences, and the name of several."""

    face: str
    name: str
    plural: str


@dataclass(frozen=True)
class Rulebook:
    """A rulebook's characters by name (the names are the state's, shared by the rulebooks), the
    cards each quarter deals at each table (``deck(state)``), the largest multiplicity a
    Multiplier may declare (see RULES.md, I12), and what it calls the card that beats everything
    (the cards' tables call it ``MS``: the published Masterstroke, the 2015 Putsch)."""

    name: str
    characters: Mapping[str, Character]
    deck: Callable[[Any], tuple[str, ...]]
    max_quantity: int
    masterstroke: CardWords = CardWords("MS", "Masterstroke", "Masterstrokes")
    _holders: Mapping[str, frozenset[str]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        holders = {
            power: frozenset(name for name, character in self.characters.items() if has(character))
            for power, has in (
                ("stop", lambda c: c.stops),
                ("dive", lambda c: c.dive is not None),
                ("plague", lambda c: c.plague is not None),
            )
        }
        object.__setattr__(self, "_holders", holders)

    def __getitem__(self, name: str) -> Character:
        return self.characters[name]

    def holders(self, power: str) -> frozenset[str]:
        """The characters with once-a-quarter ``power`` (``stop``, ``dive``, ``plague``)."""
        return self._holders[power]
