"""Steps (what the game waits for next) and events (what moves it on).

A game's ``step(state)`` returns exactly one step:

=====================  ==========================================  ===============================
step                   who answers                                 event that answers it
=====================  ==========================================  ===============================
:class:`Turn`          any one of ``actors``; the log's order       :class:`Act`
                       decides when several may act (two tables,
                       open negotiation)
:class:`Simultaneous`  every one of ``players``, committed first     :class:`SimultaneousActs`
                       and opened together
:class:`ReactionWindow` each of ``players`` reacts or passes, in     :class:`Act`
                       log order
:class:`Chance`        nobody: a fresh jointly random seed           :class:`ChanceOutcome`
:class:`CardOperations` nobody: the table performs the operations    :class:`CardsDone`
:class:`GameOver`      nothing more
=====================  ==========================================  ===============================
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from p2pgames.engine._cards import CardOperation

__all__ = [
    "Turn",
    "Simultaneous",
    "ReactionWindow",
    "Chance",
    "CardOperations",
    "GameOver",
    "Step",
    "Act",
    "SimultaneousActs",
    "ChanceOutcome",
    "CardsDone",
    "Event",
]


@dataclass(frozen=True, slots=True)
class Turn:
    """Each seat in ``actors`` may act now; ``prompt`` says what is being decided."""

    actors: tuple[int, ...]
    prompt: str


@dataclass(frozen=True, slots=True)
class Simultaneous:
    """Every seat in ``players`` chooses in secret (commit), then all choices are opened at once."""

    players: tuple[int, ...]
    prompt: str


@dataclass(frozen=True, slots=True)
class ReactionWindow:
    """Each seat in ``players`` may act out of turn or pass; ``prompt`` names what is reacted to."""

    players: tuple[int, ...]
    prompt: str


@dataclass(frozen=True, slots=True)
class Chance:
    """The game needs a fresh seed that no seat could bias (``prompt`` says what it is for)."""

    prompt: str


@dataclass(frozen=True, slots=True)
class CardOperations:
    """The game waits for these card operations to be carried out, in order."""

    operations: tuple[CardOperation, ...]


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game has ended: ``scores`` by seat, ``winners`` (several on a tie), a one-line summary."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    summary: str


Step = Turn | Simultaneous | ReactionWindow | Chance | CardOperations | GameOver


@dataclass(frozen=True, slots=True)
class Act:
    """Seat ``player`` takes ``action`` (in a :class:`Turn` or a :class:`ReactionWindow`)."""

    player: int
    action: Any


@dataclass(frozen=True, slots=True)
class SimultaneousActs:
    """The opened choices of a :class:`Simultaneous` step, as ``(seat, action)`` in seat order."""

    actions: tuple[tuple[int, Any], ...]


@dataclass(frozen=True, slots=True)
class ChanceOutcome:
    """The jointly random 32-byte seed asked for by a :class:`Chance` step."""

    seed: bytes


@dataclass(frozen=True, slots=True)
class CardsDone:
    """The pending card operations are done; ``values`` are ``(slot, card name)`` made public."""

    values: tuple[tuple[int, str], ...] = ()


Event = Act | SimultaneousActs | ChanceOutcome | CardsDone
