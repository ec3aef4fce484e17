"""Faults: what went wrong in a game, whose fault it was, and the signed evidence.

A peer that detects a fault stops the game, tells the others, and writes it into its transcript.
Faults fall in two kinds:

* *provable*: the evidence (signed messages) lets every peer — and ``p2pgames verify`` — reach the
  same verdict on its own (an illegal move, a commitment opened with a different value, a wrong card
  key, a shuffle that swapped a card, a false claim);
* *reported*: only the reporter saw it (a bad signature, a malformed or oversize frame, a replay, a
  peer that stopped answering); the others name the culprit *as reported by* the reporter.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from p2pgames.words import with_article

__all__ = ["Fault", "ProtocolFault", "LocalError", "NotAMove", "FaultCode"]


class FaultCode:
    """The ``code`` values a fault carries (stable strings: they are in transcripts)."""

    BAD_SIGNATURE = "bad-signature"
    MALFORMED = "malformed"
    OVERSIZE = "oversize"
    REPLAY = "replay"
    BAD_SEQUENCE = "bad-sequence"
    ILLEGAL = "illegal"
    BAD_OPENING = "bad-opening"
    BAD_KEY = "bad-key"
    BAD_PASS = "bad-pass"
    RULE_VIOLATION = "rule-violation"
    BAD_DISPUTE = "bad-dispute"
    UNRESPONSIVE = "unresponsive"
    DESYNC = "desync"
    LEFT = "left"
    DISCONNECTED = "disconnected"
    # Not a fault of anyone's: a seat was away longer than the others would wait, and they ended
    # the game (the culprit is None; the reason names who was away and who ended it).
    ENDED = "ended"


@dataclass(frozen=True, slots=True)
class Fault:
    """A reason the game stopped.

    ``culprit`` is the seat at fault (``None`` if nobody could be named, e.g. a desync with no
    majority); ``reporter`` the seat that detected it (``None``: this peer itself); ``seq`` the
    number of log entries applied when it was detected; ``evidence`` raw signed envelopes.
    """

    culprit: int | None
    code: str
    reason: str
    seq: int
    reporter: int | None = None
    evidence: tuple[bytes, ...] = field(default=(), repr=False)

    def describe(self, names: list[str] | None = None) -> str:
        def who(seat: int | None) -> str:
            if seat is None:
                return "unknown"
            if names is not None and 0 <= seat < len(names):
                return f"{names[seat]} (seat {seat})"
            return f"seat {seat}"

        text = self.reason
        if self.culprit is not None and who(self.culprit) not in text:
            text = f"{who(self.culprit)}: {text}"
        if self.reporter is not None:
            text += f" [reported by {who(self.reporter)}]"
        return text


class ProtocolFault(Exception):
    """Raised inside the session when a remote peer's message is invalid; carries the fault."""

    def __init__(self, fault: Fault) -> None:
        super().__init__(fault.reason)
        self.fault = fault


class LocalError(Exception):
    """The local player asked for something not allowed now; ``str()`` is the reason to show."""


class NotAMove(LocalError):
    """What the local player typed names no move of the game; ``str()`` is the game's reason
    ("'g99' is not a card: …"), to show with the moves it resembles."""
