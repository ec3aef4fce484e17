"""Errors raised by the rules engine.

Every error that concerns a move names the seat whose move it was, so the session can say whose
fault it is: a local player gets the reason to read; a remote peer is named as the culprit.
"""

from __future__ import annotations


class EngineError(Exception):
    """Base class of everything the engine raises on purpose."""


class RulesetError(EngineError):
    """A ruleset option or player count is not valid for the game."""


class MalformedAction(EngineError):
    """Wire data does not describe an action of this game (wrong shape, type or range)."""


class IllegalAction(EngineError):
    """An action breaks a rule that is visible in the public state.

    ``player`` is the seat that tried it, ``reason`` a sentence a person can read
    ("you must discard a card from your hand").
    """

    def __init__(self, player: int, reason: str) -> None:
        super().__init__(f"seat {player}: {reason}")
        self.player = player
        self.reason = reason


class RuleViolation(EngineError):
    """A hidden choice turned out to break a rule once its cards were revealed.

    Raised when a revealed value (or an end-of-deal audit) shows that ``player`` made a move or a
    claim that was not allowed. The event that revealed it is not applied.
    """

    def __init__(self, player: int, reason: str) -> None:
        super().__init__(f"seat {player}: {reason}")
        self.player = player
        self.reason = reason


class EventMismatch(EngineError):
    """An event does not fit the current step (an action during a deal, values not asked for …).

    This is a fault of whoever produced the event stream (the session), not of a player.
    """
