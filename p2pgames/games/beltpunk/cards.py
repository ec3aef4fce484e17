"""Beltpunk Haberdasher's cards, Machine Order, and the sets a tophat can be decorated with.

A card's name is its value: a suit letter in Machine Order — ``S`` Steam, ``G`` Gears, ``P``
Parts, ``E`` Electricity — followed by its rank 1–13 (``"S1"`` … ``"E13"``). :data:`DECK` lists
the 52 cards in Machine Order, so a card's index in it is its place in Machine Order.

Sets (rulebook, "Scoring"):

=================  =========================================================  ================
set                cards                                                      points
=================  =========================================================  ================
Goggles            two cards of one rank                                      3
Broken Gears       three cards of one rank                                    5
Perfect Gears      four cards of one rank                                     10
Perfect Belt       three or more consecutive ranks, all of one suit           5, +2 per card
                                                                              beyond the third
Cobbled Belt       three or four consecutive ranks, no two of one suit        1 per card
=================  =========================================================  ================

Ranks don't wrap around: 13 and 1 are not consecutive. Anything else is not a set.
"""

from __future__ import annotations

import enum
from itertools import combinations, product
from typing import Iterable, Mapping, Sequence

__all__ = [
    "SUITS",
    "SUIT_NAMES",
    "RANKS",
    "DECK",
    "MACHINE_ORDER",
    "SUIT_OF",
    "RANK_OF",
    "HAND_SIZE",
    "SetKind",
    "classify",
    "why_not_a_set",
    "set_points",
    "find_sets",
    "has_set",
    "card_title",
]

SUITS = ("S", "G", "P", "E")
SUIT_NAMES = ("Steam", "Gears", "Parts", "Electricity")
RANKS = range(1, 14)
DECK: tuple[str, ...] = tuple(f"{suit}{rank}" for suit in SUITS for rank in RANKS)

# Lookup tables: card name -> place in Machine Order / suit index / rank.
MACHINE_ORDER: dict[str, int] = {name: index for index, name in enumerate(DECK)}
SUIT_OF: dict[str, int] = {name: index // 13 for index, name in enumerate(DECK)}
RANK_OF: dict[str, int] = {name: index % 13 + 1 for index, name in enumerate(DECK)}

# Cards dealt to each player at the start of a round, by player count (rulebook, "Setup").
HAND_SIZE = {2: 8, 3: 7, 4: 6}

# The longest possible set: a Perfect Belt of a whole suit.
LONGEST_SET = 13


class SetKind(enum.Enum):
    """The kinds of set, valued by their display names."""

    GOGGLES = "Goggles"
    BROKEN_GEARS = "Broken Gears"
    PERFECT_GEARS = "Perfect Gears"
    PERFECT_BELT = "Perfect Belt"
    COBBLED_BELT = "Cobbled Belt"


def card_title(name: str) -> str:
    """``"S3"`` → ``"Steam 3"``; raises ``KeyError`` for a name that is not a card."""
    return f"{SUIT_NAMES[SUIT_OF[name]]} {RANK_OF[name]}"


def classify(names: Iterable[str]) -> SetKind | None:
    """The kind of set ``names`` form, or ``None`` if they are not a set.

    Raises ``KeyError`` for a name that is not a card. Repeated names are not a set.
    """
    cards = list(names)
    count = len(cards)
    if count < 2 or count > LONGEST_SET or len(set(cards)) != count:
        return None
    ranks = sorted(RANK_OF[name] for name in cards)
    if ranks[0] == ranks[-1]:
        # Unique cards of one rank: at most four (one per suit).
        return (SetKind.GOGGLES, SetKind.BROKEN_GEARS, SetKind.PERFECT_GEARS)[count - 2]
    if count < 3 or any(ranks[i + 1] != ranks[i] + 1 for i in range(count - 1)):
        return None
    suits = {SUIT_OF[name] for name in cards}
    if len(suits) == 1:
        return SetKind.PERFECT_BELT
    if len(suits) == count and count <= 4:
        return SetKind.COBBLED_BELT
    return None


def why_not_a_set(names: Sequence[str]) -> str | None:
    """Why ``names`` are not a set, in words a player can read; ``None`` if they are one.

    Raises ``KeyError`` for a name that is not a card.
    """
    if classify(names) is not None:
        return None
    count = len(names)
    if len(set(names)) != count:
        return "it names a card twice"
    if count < 2:
        return "a set has at least two cards"
    if count > LONGEST_SET:
        return f"a set has at most {LONGEST_SET} cards"
    ranks = sorted(RANK_OF[name] for name in names)
    if count == 2:
        return "two cards must be a pair of one rank (Goggles); a run needs three"
    if len(set(ranks)) != count:
        return "cards of one rank make Gears, a run needs different ranks: not both"
    if any(ranks[i + 1] != ranks[i] + 1 for i in range(count - 1)):
        shown = " ".join(str(rank) for rank in ranks)
        wrap = "; 13 and 1 are not neighbours" if ranks[0] == 1 and ranks[-1] == 13 else ""
        return f"the ranks {shown} are not consecutive{wrap}"
    if count > 4:
        return "a run of more than four cards must be all one suit (Perfect Belt)"
    return "a run must be all one suit (Perfect Belt) or all different suits (Cobbled Belt)"


def set_points(names: Sequence[str]) -> int:
    """Points of the set ``names`` form; raises ``ValueError`` if they are not a set."""
    kind = classify(names)
    if kind is None:
        raise ValueError(f"{' '.join(names)} is not a set")
    return points_of(kind, len(names))


def points_of(kind: SetKind, size: int) -> int:
    """Points of a set of ``kind`` with ``size`` cards."""
    if kind is SetKind.GOGGLES:
        return 3
    if kind is SetKind.BROKEN_GEARS:
        return 5
    if kind is SetKind.PERFECT_GEARS:
        return 10
    if kind is SetKind.PERFECT_BELT:
        return 5 + 2 * (size - 3)
    return size  # Cobbled Belt


def find_sets(hand: Mapping[int, str]) -> list[tuple[int, ...]]:
    """Every set that can be made from ``hand`` (slot → card name), as increasing slot tuples.

    The result is in a fixed order (by kind, then by Machine Order of the cards), so that callers
    that enumerate it stay deterministic.
    """
    by_rank: list[list[tuple[int, int]]] = [[] for _ in range(14)]  # rank -> [(suit, slot)]
    by_suit: list[dict[int, int]] = [{} for _ in range(4)]  # suit -> {rank: slot}
    for slot, name in sorted(hand.items(), key=lambda item: MACHINE_ORDER[item[1]]):
        suit, rank = SUIT_OF[name], RANK_OF[name]
        by_rank[rank].append((suit, slot))
        by_suit[suit][rank] = slot
    found: list[tuple[int, ...]] = []
    # Same rank: Goggles, Broken Gears, Perfect Gears.
    for group in by_rank:
        slots = [slot for _, slot in group]
        for size in range(2, len(slots) + 1):
            found.extend(tuple(sorted(chosen)) for chosen in combinations(slots, size))
    # Perfect Belts: every stretch of three or more consecutive ranks within one suit.
    for ranks in by_suit:
        for low in range(1, 12):
            if low not in ranks:
                continue
            high = low
            while high + 1 in ranks:
                high += 1
                if high - low >= 2:
                    found.append(tuple(sorted(ranks[r] for r in range(low, high + 1))))
    # Cobbled Belts: three or four consecutive ranks, one card each, all suits different.
    for length in (3, 4):
        for low in range(1, 15 - length):
            groups = by_rank[low : low + length]
            if not all(groups):
                continue
            for choice in product(*groups):
                if len({suit for suit, _ in choice}) == length:
                    found.append(tuple(sorted(slot for _, slot in choice)))
    return found


def has_set(names: Iterable[str]) -> bool:
    """Whether some set can be made from ``names`` (cheaper than :func:`find_sets`)."""
    seen_ranks: list[int] = [0] * 15  # rank -> bit mask of suits held
    for name in names:
        seen_ranks[RANK_OF[name]] |= 1 << SUIT_OF[name]
    for rank in range(1, 14):
        mask = seen_ranks[rank]
        if mask & (mask - 1):  # two suits of one rank: Goggles
            return True
    for rank in range(1, 12):
        a, b, c = seen_ranks[rank], seen_ranks[rank + 1], seen_ranks[rank + 2]
        if not (a and b and c):
            continue
        if a & b & c:  # one suit holds all three: a Perfect Belt
            return True
        # With every rank held in a single suit (no pairs, checked above), three distinct suits
        # make a Cobbled Belt; otherwise two of them share a suit with the third different.
        if a != b and b != c and a != c:
            return True
    return False
