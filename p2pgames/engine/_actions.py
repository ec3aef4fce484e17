"""What every game's actions share: checks for their fields, and their form on the wire.

Actions are small frozen dataclasses that check themselves in ``__post_init__`` (so a decoded
action from the network is as trustworthy as one built locally); these checks raise
:class:`MalformedAction` naming the field. :class:`ActionCodec` turns them into the canonical
wire value ``[kind, *fields]`` (fields in declaration order, tuples as lists) and back.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from p2pgames.engine._errors import MalformedAction
from p2pgames.words import with_article

__all__ = ["check_slot", "check_slots", "check_seat", "check_bool", "ActionCodec", "SLOT_LIMIT"]

# Slots grow with every deal and re-shuffle; anything this large is garbage, not a long game.
SLOT_LIMIT = 1 << 31


def check_slot(slot: Any, what: str = "slot") -> None:
    """``slot`` is a card slot (an int in 0 … :data:`SLOT_LIMIT`); else :class:`MalformedAction`."""
    if type(slot) is not int or not 0 <= slot < SLOT_LIMIT:
        raise MalformedAction(f"{what} must be a card slot (a non-negative integer), not {slot!r}")


def check_slots(slots: Any, low: int, high: int, what: str = "slots") -> None:
    """``slots`` is a tuple of ``low``–``high`` distinct card slots in increasing order."""
    if type(slots) is not tuple:
        raise MalformedAction(f"{what} must be a tuple of card slots, not {slots!r}")
    if not low <= len(slots) <= high:
        raise MalformedAction(f"{what} must hold {low}–{high} cards, not {len(slots)}")
    for slot in slots:
        check_slot(slot)
    if any(a >= b for a, b in zip(slots, slots[1:])):
        raise MalformedAction(f"{what} must be listed once each, increasing: {slots!r}")


def check_seat(seat: Any, seats: int, what: str) -> None:
    """``seat`` is a seat number below ``seats``; else :class:`MalformedAction`."""
    if type(seat) is not int or not 0 <= seat < seats:
        raise MalformedAction(f"{what} must be a seat 0–{seats - 1}, not {seat!r}")


def check_bool(value: Any, what: str) -> None:
    if type(value) is not bool:
        raise MalformedAction(f"{what} must be True or False, not {value!r}")


class ActionCodec:
    """A game's actions on the wire: ``[kind, *fields]``, each field as the dataclass holds it
    except ``sequence_fields`` (tuples), written as lists.

    ``kinds`` maps each action class (a dataclass with ``__slots__``) to its short wire name.
    :meth:`decode` raises :class:`MalformedAction` for anything that is not such a list; the
    action's own checks then judge the field values.
    """

    def __init__(self, title: str, kinds: Mapping[type, str], sequence_fields: Iterable[str] = ("slots",)) -> None:
        self.title = title
        self.kinds = dict(kinds)
        self.classes = {kind: cls for cls, kind in self.kinds.items()}
        if len(self.classes) != len(self.kinds):
            raise ValueError("two action classes share a wire name")
        self.sequence_fields = frozenset(sequence_fields)

    def encode(self, action: Any) -> list:
        """The canonical wire value of ``action``; raises :class:`MalformedAction` for a non-action."""
        kind = self.kinds.get(type(action))
        if kind is None:
            raise MalformedAction(f"not {with_article(self.title)} action: {action!r}")
        fields = []
        for name in type(action).__slots__:
            value = getattr(action, name)
            fields.append(list(value) if name in self.sequence_fields else value)
        return [kind, *fields]

    def decode(self, data: Any) -> Any:
        """Rebuild an action from :meth:`encode` output; raises :class:`MalformedAction`."""
        if not isinstance(data, (list, tuple)) or not data or not isinstance(data[0], str):
            raise MalformedAction(f"{with_article(self.title)} action is [kind, ...fields], not {data!r}")
        cls = self.classes.get(data[0])
        if cls is None:
            raise MalformedAction(f"unknown {self.title} action {data[0]!r}")
        fields = list(data[1:])
        names = cls.__slots__
        if len(fields) != len(names):
            raise MalformedAction(f"{data[0]} takes {len(names)} field(s), not {len(fields)}")
        for index, name in enumerate(names):
            if name in self.sequence_fields:
                if not isinstance(fields[index], (list, tuple)):
                    raise MalformedAction(f"{data[0]} takes a list of {name}, not {fields[index]!r}")
                fields[index] = tuple(fields[index])
        return cls(*fields)
