"""Astonishing!'s cards, Inventors (with their Queens' powers) and descriptor lists.

The secret deck is the 40 numbered cards, Ace to 10 of each suit, plus the two Jokers. A card's name
is its rank then its suit letter — ``"AC"``, ``"7D"``, ``"10H"`` — and the Jokers are ``"JOKER1"``
and ``"JOKER2"`` (names in a deal must differ; the two play alike). The face cards are not in the
deck: each Inventor's roster is the Jack, Queen and King of its suit, public and never shuffled.

A card's worth depends on who owns the invention it is in (rulebook, "Playing the Game"): the Ace of
an Inventor's own suit is an 11-point resource for that Inventor, every other Ace 1 point, every
other card its number. Jokers are worth nothing and can never be installed or discarded.

==========  ==================  =========================================================
suit        Inventor            purview
==========  ==================  =========================================================
Clubs       Lady Calibrette     munitions, military engineering
            Merchant
Diamonds    Abimbola Kayin      telephony, railways, "incorporeal technologies"
Hearts      Marisol Chang       performance, music, "impossible art"
Spades      Albert Smithering   velocity, vehicles, exploration
==========  ==================  =========================================================
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

from p2pgames.games._package_data import read_text

__all__ = [
    "SUITS",
    "SUIT_LETTERS",
    "SUIT_SYMBOLS",
    "INVENTORS",
    "RANKS",
    "JOKERS",
    "DECK",
    "HAND_SIZE",
    "HAND_LIMIT",
    "POSITIONS",
    "POSITION_CAPACITY",
    "ACE_WORTH",
    "suit_title",
    "inventor_title",
    "Power",
    "QUEENS",
    "FAIR_QUEENS",
    "queen_help",
    "exhibition_queen_help",
    "is_joker",
    "suit_of",
    "rank_of",
    "worth",
    "descriptor_number",
    "card_text",
    "parse_card",
    "Descriptors",
    "descriptors",
    "DescriptorError",
]

SUITS = ("clubs", "diamonds", "hearts", "spades")
SUIT_LETTERS = ("C", "D", "H", "S")
SUIT_SYMBOLS = ("♣", "♦", "♥", "♠")
INVENTORS = ("Lady Calibrette Merchant", "Abimbola Kayin", "Marisol Chang", "Albert Smithering")
RANKS = range(1, 11)  # Ace (1) … 10
JOKERS = ("JOKER1", "JOKER2")
DECK: tuple[str, ...] = tuple(
    f"{'A' if rank == 1 else rank}{letter}" for letter in SUIT_LETTERS for rank in RANKS
) + JOKERS

HAND_SIZE = 4  # cards dealt to each player (setup, step 5)
HAND_LIMIT = 6  # most resource cards a player may keep at the end of a turn
POSITIONS = 3  # positions of every contraption
POSITION_CAPACITY = 2  # most cards installed in one position
ACE_WORTH = 11  # an Inventor's own-suit Ace, for that Inventor

_SUIT_OF = {name: SUIT_LETTERS.index(name[-1]) for name in DECK if name not in JOKERS}
_RANK_OF = {name: 1 if name[0] == "A" else int(name[:-1]) for name in _SUIT_OF}


def is_joker(name: str) -> bool:
    return name in JOKERS


def suit_of(name: str) -> int:
    """The suit index (0 Clubs … 3 Spades) of a numbered card; raises ``KeyError`` for a Joker."""
    return _SUIT_OF[name]


def rank_of(name: str) -> int:
    """1 (Ace) … 10; raises ``KeyError`` for a Joker."""
    return _RANK_OF[name]


def worth(name: str, inventor: int) -> int:
    """Build points of ``name`` for the Inventor of suit ``inventor``: its own Ace 11, other Aces
    1, other cards their number. A Joker is worth nothing (it can never be installed)."""
    if name in JOKERS:
        return 0
    rank = _RANK_OF[name]
    if rank == 1 and _SUIT_OF[name] == inventor:
        return ACE_WORTH
    return rank


def descriptor_number(name: str, inventor: int) -> int:
    """Which descriptor of a list ``name`` stands for, for the Inventor of suit ``inventor``: its
    rank, and 11 (the list's Ace entry: "you have revolutionized the design") for its own Ace."""
    return ACE_WORTH if worth(name, inventor) == ACE_WORTH else _RANK_OF[name]


def card_text(name: str) -> str:
    """``"AC"`` → ``"A♣"``, ``"10H"`` → ``"10♥"``, a Joker → ``"Joker"``."""
    if name in JOKERS:
        return "Joker"
    rank = _RANK_OF[name]
    return f"{'A' if rank == 1 else rank}{SUIT_SYMBOLS[_SUIT_OF[name]]}"


def suit_title(suit: int) -> str:
    """``"Hearts ♥"``."""
    return f"{SUITS[suit].capitalize()} {SUIT_SYMBOLS[suit]}"


def inventor_title(suit: int) -> str:
    """The Inventor of ``suit`` with its suit: ``"Marisol Chang (Hearts ♥)"``."""
    return f"{INVENTORS[suit]} ({suit_title(suit)})"


@dataclass(frozen=True, slots=True)
class Power:
    """A Queen's effect: its name on the Inventor sheet, and what it does in a few words (short
    enough for a panel line after ``"Fair Queen: "``)."""

    name: str
    does: str

    def __str__(self) -> str:
        return f"{self.name}: {self.does}"


# By suit: the Invention Queens, then the Exhibition Queens.
QUEENS = (
    Power("Capture Resources", "draw 2, or draw 1 and take 1 at random from a rival"),
    Power("Buy Resources", "discard 0–2 cards, then draw one more than discarded"),
    Power("Finagle Resources", "take 1 at random from a rival, draw 2, give 1 back"),
    Power("Beg, Borrow and Steal", "draw 1 + 1 at random from a rival or top 5 discards"),
)
FAIR_QUEENS = (
    Power("Intimidate", "a position of yours counts 2 more (to 15)"),
    Power("Replacement Part", "swap an installed ♦ for a card from your hand"),
    Power("Sway the Crowd", "turn one die 1 or 2 up or down"),
    Power("Saboteur's Gambit", "an installed ♠ worth 7 or less stops counting"),
)


def queen_help(suit: int) -> str:
    """The Invention Queen of ``suit``: its name and what it does."""
    return str(QUEENS[suit])


def exhibition_queen_help(suit: int) -> str:
    """The Exhibition Queen of ``suit``: its name and what it does."""
    return str(FAIR_QUEENS[suit])


_TYPED_SUITS = {
    **{letter.lower(): index for index, letter in enumerate(SUIT_LETTERS)},
    **{symbol: index for index, symbol in enumerate(SUIT_SYMBOLS)},
    **{suit: index for index, suit in enumerate(SUITS)},
    **{suit[:-1]: index for index, suit in enumerate(SUITS)},  # "club", "heart"
}
_TYPED_RANKS = {"a": 1, "ace": 1, "1": 1, **{str(rank): rank for rank in range(2, 11)}}


def parse_card(text: str) -> str:
    """The card a person means by ``text``: ``7d``, ``7♦``, ``10H``, ``AS``, ``ace of spades``,
    ``joker`` (the first Joker's name: which one is the holder's business). Raises ``ValueError``
    saying how cards are written."""
    typed = " ".join(text.lower().replace("of", " ").split())
    if typed in ("joker", "jk", "x"):
        return JOKERS[0]
    words = typed.split()
    if len(words) == 2:
        rank_text, suit_text = words
    else:
        compact = typed.replace(" ", "")
        split = next((i for i in range(len(compact), 0, -1) if compact[:i] in _TYPED_RANKS), 0)
        rank_text, suit_text = compact[:split], compact[split:]
    rank, suit = _TYPED_RANKS.get(rank_text), _TYPED_SUITS.get(suit_text)
    if rank is None or suit is None:
        raise ValueError(
            f"{text.strip()!r} is not a card: write a rank A, 2–10 and a suit C, D, H or S (7D, 10H, AS), or joker"
        )
    return f"{'A' if rank == 1 else rank}{SUIT_LETTERS[suit]}"


# -- descriptors ---------------------------------------------------------------------------------

LISTS = ("form", "workings", "wonder")


class DescriptorError(ValueError):
    """``descriptors.toml`` is not as the game needs it (the message names the place)."""


@dataclass(frozen=True)
class Descriptors:
    """One Inventor's three lists: ``lists[position][number - 1]`` for numbers 1–10, and
    ``aces[position]`` for 11 (the revolutionized first entry, for the own-suit Ace)."""

    inventor: str
    lists: tuple[tuple[str, ...], ...]
    aces: tuple[str, ...]

    def entry(self, position: int, number: int) -> str:
        """The descriptor of ``number`` (1–11) in ``position``'s list (0–2)."""
        return self.aces[position] if number == ACE_WORTH else self.lists[position][number - 1]

    def compose(self, numbers: Iterable[int]) -> str:
        """The contraption the chosen ``numbers`` describe (0: the position is empty), as a
        sentence's object: ``a walking fortress, driven by …, that …``."""
        form, workings, wonder = (
            self.entry(position, number) if number else "" for position, number in enumerate(numbers)
        )
        text = form or "a contraption of no particular shape"
        if workings:
            text += f", {workings}"
        if wonder:
            text += f"{',' if workings else ''} {wonder}"
        return text


@lru_cache(maxsize=None)
def descriptors() -> tuple[Descriptors, ...]:
    """The four Inventors' lists, by suit, from ``descriptors.toml`` beside this module.

    Raises :class:`DescriptorError` naming the suit and list that are missing or malformed.
    """
    text = read_text(__spec__, "descriptors.toml")
    return load_descriptors(tomllib.loads(text))


def load_descriptors(data: dict) -> tuple[Descriptors, ...]:
    """Check and build the lists from parsed TOML (see :func:`descriptors`)."""
    result = []
    for suit, inventor in zip(SUITS, INVENTORS):
        table = data.get(suit)
        if not isinstance(table, dict):
            raise DescriptorError(f"descriptors: [{suit}] is missing")
        if table.get("inventor") != inventor:
            raise DescriptorError(f"descriptors: [{suit}] inventor must be {inventor!r}, not {table.get('inventor')!r}")
        lists, aces = [], []
        for name in LISTS:
            part = table.get(name)
            where = f"[{suit}.{name}]"
            if not isinstance(part, dict):
                raise DescriptorError(f"descriptors: {where} is missing")
            entries, ace = part.get("entries"), part.get("ace")
            if not isinstance(entries, list) or len(entries) != len(RANKS):
                raise DescriptorError(f"descriptors: {where} entries must list {len(RANKS)} descriptors, for 1–10")
            for number, entry in enumerate([*entries, ace], 1):
                if not isinstance(entry, str) or not entry.strip():
                    raise DescriptorError(f"descriptors: {where} descriptor {number} must be text")
            lists.append(tuple(entries))
            aces.append(ace)
        result.append(Descriptors(inventor, tuple(lists), tuple(aces)))
    return tuple(result)
