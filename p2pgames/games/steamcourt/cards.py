"""Steam Court's deck, its characters, and what each card can be played as.

The deck has 84 cards, every one with a unique name (a deal needs unique names; equal cards would
show as equal ciphertexts):

==============================  ===================================  =====
cards                           names                                count
==============================  ===================================  =====
gear cards 1–12, six of each    ``1a`` … ``1f``, …, ``12a`` … ``12f``   72
Masterstroke                    ``MSa`` ``MSb`` ``MSc``                 3
Multiplier                      ``MXa`` ``MXb`` ``MXc``                 3
3/9                             ``3/9a`` ``3/9b`` ``3/9c``              3
6/12                            ``6/12a`` ``6/12b`` ``6/12c``           3
==============================  ===================================  =====

A card's *face* is what people call it: ``7``, ``3/9``, ``6/12``, ``X`` (a Multiplier) or ``MS``.
Only the gear cards 1–12 are *numbered* cards; the other twelve are *special* cards (rulebook FAQ:
the Tea Boy "only has to give away his highest numbered cards, not his special cards").
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, NamedTuple, Sequence

__all__ = [
    "HandByKind",
    "hand_by_kind",
    "a_face",
    "follow_problem",
    "lay_problem",
    "one_slot_per_face",
    "two_slots_per_pair_of_faces",
    "two_highest_numbered",
    "DECK",
    "SEVENTH",
    "CARD_NAMES",
    "NUMBERED",
    "DUAL",
    "MULTIPLIER",
    "MASTERSTROKE",
    "KIND",
    "NUMBER",
    "FACE",
    "FACE_ORDER",
    "MAX_QUANTITY",
    "MASTERSTROKE_VALUE",
    "CHARACTERS",
    "CHARACTER_NUMBER",
    "CHARACTER_TITLE",
    "RECOMMENDED",
    "PARTY",
    "PARTY_REMOVABLE",
    "party_characters",
    "TABLE_NAMES",
    "makes",
    "values_of",
]

# Card kinds.
NUMBERED, DUAL, MULTIPLIER, MASTERSTROKE = 0, 1, 2, 3

_LETTERS = "abcdef"
DECK: tuple[str, ...] = (
    tuple(f"{number}{letter}" for number in range(1, 13) for letter in _LETTERS)
    + tuple(f"MS{letter}" for letter in "abc")
    + tuple(f"MX{letter}" for letter in "abc")
    + tuple(f"3/9{letter}" for letter in "abc")
    + tuple(f"6/12{letter}" for letter in "abc")
)

# A seventh gear card of each number, ``1g`` … ``12g``: the 2015 rules add one of each from the
# second deck to a table of seven players (every card in a deal needs a name of its own).
SEVENTH: tuple[str, ...] = tuple(f"{number}g" for number in range(1, 13))
# Every card name any deck uses.
CARD_NAMES: tuple[str, ...] = DECK + SEVENTH

KIND: dict[str, int] = {}
NUMBER: dict[str, int] = {}  # numbered cards: their number; duals: the lower value (3 or 6)
FACE: dict[str, str] = {}
for _name in CARD_NAMES:
    _stem = _name[:-1]
    if _stem == "MS":
        KIND[_name], NUMBER[_name], FACE[_name] = MASTERSTROKE, 0, "MS"
    elif _stem == "MX":
        KIND[_name], NUMBER[_name], FACE[_name] = MULTIPLIER, 0, "X"
    elif "/" in _stem:
        KIND[_name], NUMBER[_name], FACE[_name] = DUAL, int(_stem.split("/")[0]), _stem
    else:
        KIND[_name], NUMBER[_name], FACE[_name] = NUMBERED, int(_stem), _stem
del _name, _stem

# How faces are listed in a hand: by number, the specials after the gear cards.
FACE_ORDER: dict[str, int] = {str(n): n for n in range(1, 13)}
FACE_ORDER.update({"3/9": 13, "6/12": 14, "X": 15, "MS": 16})

# A declared multiplicity is at most 16: without a Multiplier no player can ever lay more than
# 15 cards of one value (six 3s, six 5s lowered by the Alchemist and three 3/9s), so every larger
# number is followed in exactly the same ways as 16 (RULES.md, I12).
MAX_QUANTITY = 16

# The value a Masterstroke's lay is recorded with in the machine: above every gear value.
MASTERSTROKE_VALUE = 13


def values_of(name: str, alchemist: bool = False) -> tuple[int, ...]:
    """The values card ``name`` can count as in a set (empty for a Multiplier or Masterstroke).

    The Alchemist may lower any numbered card by exactly two (never below 1).
    """
    kind = KIND[name]
    if kind == NUMBERED:
        number = NUMBER[name]
        return (number, number - 2) if alchemist and number >= 3 else (number,)
    if kind == DUAL:
        return (3, 9) if NUMBER[name] == 3 else (6, 12)
    return ()


def makes(name: str, value: int, alchemist: bool = False) -> bool:
    """Whether card ``name`` can count as ``value`` in a set."""
    return value in values_of(name, alchemist)


# -- characters ----------------------------------------------------------------------------------

# Every character by its printed number (rulebook, "Characters").
CHARACTERS: tuple[str, ...] = (
    "queen",
    "general",
    "duke",
    "timetraveler",
    "jester",
    "teaboy",
    "submariner",
    "inspector",
    "alchemist",
    "pirate",
    "plaguedoctor",
    "vagabond",
)
CHARACTER_NUMBER: dict[str, int] = {name: index + 1 for index, name in enumerate(CHARACTERS)}
CHARACTER_TITLE: dict[str, str] = {
    "queen": "Queen",
    "general": "General",
    "duke": "Duke",
    "timetraveler": "Time Traveler",
    "jester": "Jester",
    "teaboy": "Tea Boy",
    "submariner": "Submariner",
    "inspector": "Inspector",
    "alchemist": "Alchemist",
    "pirate": "Pirate",
    "plaguedoctor": "Plague Doctor",
    "vagabond": "Vagabond",
}

# The rulebook's "Character Recommendations" for one table, in seat order (preeminent first).
# Two players have no recommendation outside the Duo variant: Queen and Tea Boy (RULES.md, I1).
RECOMMENDED: dict[int, tuple[str, ...]] = {
    2: ("queen", "teaboy"),
    3: ("queen", "duke", "teaboy"),
    4: ("queen", "duke", "timetraveler", "teaboy"),
    5: ("queen", "duke", "timetraveler", "jester", "teaboy"),
    6: ("queen", "general", "duke", "timetraveler", "jester", "teaboy"),
    7: ("queen", "general", "duke", "inspector", "timetraveler", "jester", "teaboy"),
}

# The Party variant (7–12 players): the Royal table's and the Renegade table's characters, each in
# seat order (rulebook, "Character Recommendations"; 7 players: RULES.md, I20). Eleven players
# remove one character of the players' choosing (RULES.md, I21): see :func:`party_characters`.
_ROYAL_4 = ("queen", "duke", "timetraveler", "teaboy")
_ROYAL_5 = ("queen", "general", "duke", "timetraveler", "teaboy")
_RENEGADES_5 = ("submariner", "alchemist", "pirate", "plaguedoctor", "vagabond")
PARTY: dict[int, tuple[tuple[str, ...], tuple[str, ...]]] = {
    7: (_ROYAL_4, ("submariner", "alchemist", "vagabond")),
    8: (_ROYAL_4, ("submariner", "alchemist", "pirate", "vagabond")),
    9: (_ROYAL_4, _RENEGADES_5),
    10: (_ROYAL_5, _RENEGADES_5),
    12: (CHARACTERS[:6], CHARACTERS[6:]),
}
# The Party variant's tables, in the order of ``state.tables``.
TABLE_NAMES: tuple[str, ...] = ("Royal table", "Renegade table")
# The characters eleven players may remove (any but the Queen, who leads the Royal table).
PARTY_REMOVABLE: tuple[str, ...] = CHARACTERS[1:]


def party_characters(players: int, removed: str = "jester") -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The Royal and the Renegade table's characters for ``players`` (7–12) in the Party variant.

    Eleven players use every character card but ``removed`` (by default the Jester: the twelve
    less the one whose seat the recommendations drop first, as ten players have neither the
    Jester nor the Inspector, RULES.md I21).
    """
    if players == 11:
        royal, renegades = PARTY[12]
        return (
            tuple(c for c in royal if c != removed),
            tuple(c for c in renegades if c != removed),
        )
    return PARTY[players]


def a_face(face: str) -> str:
    """``face`` with its spoken article, for messages: "a 7", "an 8", "an 11", "an X", "an MS"."""
    return ("an " if face in ("8", "11", "X", "MS") else "a ") + face


def one_slot_per_face(slots: Sequence[int], names: Any) -> list[int]:
    """One slot per face (the lowest), in slot order: cards of one face are interchangeable.

    ``names`` maps slots to card names (``.get``); a slot it doesn't know is a face of its own.
    """
    seen: set[str] = set()
    result = []
    for slot in sorted(slots):
        name = names.get(slot)
        face = FACE[name] if name is not None else f"#{slot}"
        if face not in seen:
            seen.add(face)
            result.append(slot)
    return result


def two_slots_per_pair_of_faces(slots: Sequence[int], names: Any) -> list[tuple[int, int]]:
    """Every way to choose two of ``slots`` up to equal faces: the two lowest slots of a face held
    twice, and the lowest slot of each of two faces; each pair in slot order, the pairs in order.

    ``names`` maps slots to card names (``.get``); a slot it doesn't know is a face of its own.
    """
    by_face: dict[str, list[int]] = {}
    for slot in sorted(slots):
        name = names.get(slot)
        by_face.setdefault(FACE[name] if name is not None else f"#{slot}", []).append(slot)
    firsts = [held[0] for held in by_face.values()]
    pairs = {(held[0], held[1]) for held in by_face.values() if len(held) >= 2}
    pairs.update((a, b) for i, a in enumerate(firsts) for b in firsts[i + 1:])
    return sorted(tuple(sorted(pair)) for pair in pairs)  # type: ignore[misc]


class HandByKind(NamedTuple):
    """A hand's known cards sorted as a lay is built from them (:func:`hand_by_kind`)."""

    by_number: list[list[int]]  # the slots of each numbered card, by its number (0 … 14)
    duals: dict[int, list[int]]  # 3/9 cards under 3, 6/12 cards under 6
    multiplier: int  # the lowest slot of a Multiplier, or -1
    masterstroke: int  # the lowest slot of a Masterstroke, or -1


def hand_by_kind(slots: Sequence[int], name_of: Callable[[int], str | None]) -> HandByKind:
    """``slots`` (a hand) sorted by kind, each list in slot order; ``name_of`` names a slot's card,
    or gives ``None`` for one not known (left out). ``by_number`` reaches 14, so that a value
    plus the Alchemist's two can be looked up directly."""
    by_number: list[list[int]] = [[] for _ in range(15)]
    duals: dict[int, list[int]] = {3: [], 6: []}
    multiplier = masterstroke = -1
    for slot in sorted(slots):
        name = name_of(slot)
        if name is None:
            continue
        kind = KIND[name]
        if kind == NUMBERED:
            by_number[NUMBER[name]].append(slot)
        elif kind == DUAL:
            duals[NUMBER[name]].append(slot)
        elif kind == MULTIPLIER:
            multiplier = slot if multiplier < 0 else multiplier
        elif masterstroke < 0:
            masterstroke = slot
    return HandByKind(by_number, duals, multiplier, masterstroke)


def two_highest_numbered(slots: Sequence[int], names: Any) -> tuple[int, ...]:
    """The slots of the two highest numbered cards among ``slots`` (fewer if there are fewer), in
    slot order; of equal numbers the lower slots. The Tea Boy's and the Vagabond's gift (I5).

    ``names`` maps slots to card names (``.get``); a slot it doesn't know is left out.
    """
    numbered = []
    for slot in slots:
        name = names.get(slot)
        if name is not None and KIND[name] == NUMBERED:
            numbered.append((-NUMBER[name], slot))
    numbered.sort()
    return tuple(sorted(slot for _, slot in numbered[:2]))


def follow_problem(quantity: int, value: int, needed: int, top: int, matcher: str | None, goal: str) -> str | None:
    """What is wrong with laying ``quantity`` × ``value`` on ``needed`` × ``top`` (to ``goal``:
    "follow this trick", "beat this trick"): the same quantity and a higher value, or an equal one
    for a character who may match (``matcher``, his title: the Duke). None if nothing is."""
    if quantity != needed:
        return f"you must play {needed} card{'s' if needed != 1 else ''} to {goal}"
    if matcher is not None:
        return f"the {matcher} must match or beat {top}" if value < top else None
    return f"you must beat {top}" if value <= top else None


def lay_problem(
    slots: Sequence[int], value: int, multiplier: int | None, alchemist: bool, values: Mapping[int, str]
) -> str | None:
    """What is wrong with a lay, judged on the cards whose values are in ``values`` (``alchemist``:
    its player may lower numbered cards by two); else None."""
    for slot in slots:
        name = values.get(slot)
        if name is not None and value not in values_of(name, alchemist):
            faces = " ".join(FACE[values[s]] if s in values else "?" for s in slots)
            return f"declared {value}s but laid {faces}: {a_face(FACE[name])} can't count as {value}"
    if multiplier is not None:
        name = values.get(multiplier)
        if name is not None and KIND[name] != MULTIPLIER:
            return f"laid {a_face(FACE[name])} as the Multiplier"
    return None
