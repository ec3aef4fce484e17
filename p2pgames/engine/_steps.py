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
:class:`Sealed`        every one of ``players``, committed now and   :class:`ChoicesSealed`
                       kept sealed (no value reaches the game)
:class:`Unseal`        nobody decides: the choices of the last       :class:`SimultaneousActs`
                       :class:`Sealed` step are opened (same seats)
:class:`ReactionWindow` each of ``players`` reacts or passes, in     :class:`Act`
                       log order
:class:`Chance`        nobody: a fresh jointly random seed           :class:`ChanceOutcome`
:class:`CardOperations` nobody: the table performs the operations    :class:`CardsDone`
:class:`GameOver`      nothing more
=====================  ==========================================  ===============================

A sealed choice is "commit now, open later": at a :class:`Sealed` step each listed seat commits to
one of its legal actions; the game learns only that they are committed
(:meth:`~p2pgames.engine.Game.apply_sealed`) and goes on; some steps later an :class:`Unseal` step
opens them, and the game gets the actions through ``apply_simultaneous`` like a
:class:`Simultaneous` step's (it knows from its own phase which it is). Each opened action is
checked with ``check_action`` against the state *at the opening*, so the game must accept there
every action it offered at the sealing (an illegal one is its chooser's fault). At most one sealed
set is outstanding at a time: a game must not reach another :class:`Sealed` step before the
:class:`Unseal` of the last one, nor an :class:`Unseal` with none outstanding (the machinery that
remembers the choices — :class:`~p2pgames.engine.LocalTable`, the session's replica — raises
:class:`~p2pgames.engine.EngineError` if it does: a bug of the game's, nobody's move).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from p2pgames.engine._cards import CardOperation

__all__ = [
    "Turn",
    "Simultaneous",
    "Sealed",
    "Unseal",
    "ReactionWindow",
    "Chance",
    "CardOperations",
    "GameOver",
    "Step",
    "Act",
    "SimultaneousActs",
    "ChoicesSealed",
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
class Sealed:
    """Every seat in ``players`` chooses in secret now (commit); the choices stay sealed until the
    game's next :class:`Unseal` step opens them (answered by :class:`ChoicesSealed`)."""

    players: tuple[int, ...]
    prompt: str


@dataclass(frozen=True, slots=True)
class Unseal:
    """The choices sealed at the last :class:`Sealed` step are opened now (nobody decides):
    ``players`` are that step's seats, in its order; ``prompt`` says what is revealed. Answered by
    :class:`SimultaneousActs` with the opened actions."""

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


Step = Turn | Simultaneous | Sealed | Unseal | ReactionWindow | Chance | CardOperations | GameOver


@dataclass(frozen=True, slots=True)
class Act:
    """Seat ``player`` takes ``action`` (in a :class:`Turn` or a :class:`ReactionWindow`)."""

    player: int
    action: Any


@dataclass(frozen=True, slots=True)
class SimultaneousActs:
    """The opened choices of a :class:`Simultaneous` step (or of the :class:`Sealed` step an
    :class:`Unseal` step opens), as ``(seat, action)`` in seat order."""

    actions: tuple[tuple[int, Any], ...]


@dataclass(frozen=True, slots=True)
class ChoicesSealed:
    """Every seat of a :class:`Sealed` step has committed to its choice; the values stay secret."""


@dataclass(frozen=True, slots=True)
class ChanceOutcome:
    """The jointly random 32-byte seed asked for by a :class:`Chance` step."""

    seed: bytes


@dataclass(frozen=True, slots=True)
class CardsDone:
    """The pending card operations are done; ``values`` are ``(slot, card name)`` made public."""

    values: tuple[tuple[int, str], ...] = ()


Event = Act | SimultaneousActs | ChoicesSealed | ChanceOutcome | CardsDone
