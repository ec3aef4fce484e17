"""Faults: what went wrong in a game, whose fault it was, and the signed evidence.

A peer that detects a fault stops the game, tells the others, and writes it into its transcript.
Faults fall in two kinds:

* *provable*: the evidence (signed messages) lets every peer — and ``p2pgames verify`` — reach the
  same verdict on its own (an illegal move, a commitment opened with a different value, a wrong card
  key, a shuffle that swapped a card, a false claim);
* *reported*: only the reporter saw it (a bad signature, a malformed or oversize frame, a replay, a
  peer that stopped answering). The reporter names the culprit in its own record (its own
  observation); every other peer records the report as the reporter's *claim*: ``accused`` the seat
  it names, ``reason`` the reporter's own words, and ``culprit`` the reporter — nobody is blamed on
  someone else's word, and a player who stops the game on an unproven word is named as the one who
  stopped it, as ``leave`` names the leaver (protocol/SPEC.md §B9).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from p2pgames.session._messages import clean_text
from p2pgames.words import joined

__all__ = [
    "Fault", "ProtocolFault", "LocalError", "NotAMove", "FaultCode", "what_was_done", "odd_one_out", "ended_reason",
]


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
    # An escrow share that doesn't open or match its commitment, or an escrow of another secret
    # than the seat's keys came from (§B16).
    BAD_ESCROW = "bad-escrow"
    RULE_VIOLATION = "rule-violation"
    BAD_DISPUTE = "bad-dispute"
    UNRESPONSIVE = "unresponsive"
    DESYNC = "desync"
    # A seat signed two acknowledgements of the same entry with different states (§B8).
    EQUIVOCATION = "equivocation"
    LEFT = "left"
    DISCONNECTED = "disconnected"
    # A seat signed a chat line past its totals for the game (§B10): the line proves it.
    FLOOD = "flood"
    # Not a fault of anyone's: a seat was away longer than the others would wait, and they ended
    # the game (the culprit is None; the reason names who was away and who ended it).
    ENDED = "ended"


# How a claim ends: nothing signed proves it (so the reporter, who stopped the game, is named).
_UNPROVEN = "the claim is unproven"


@dataclass(frozen=True, slots=True)
class Fault:
    """A reason the game stopped.

    ``culprit`` is the seat at fault (``None`` if nobody could be named, e.g. a desync with no
    majority); ``reporter`` the seat that detected it (``None``: this peer itself); ``seq`` the
    number of log entries applied when it was detected; ``evidence`` raw signed envelopes.

    A fault another seat reported that this peer could not check is that seat's *claim*:
    ``reporter`` is set, ``culprit`` is the reporter (it stopped the game on its own word),
    ``accused`` the seat its message named (``None`` if none; the reporter itself if it named
    itself) and ``reason`` its own words, shown as a quote.
    """

    culprit: int | None
    code: str
    reason: str
    seq: int
    reporter: int | None = None
    evidence: tuple[bytes, ...] = field(default=(), repr=False)
    accused: int | None = None

    def describe(self, names: list[str] | None = None) -> str:
        """The fault in a sentence for people; a reported one as its reporter's claim, its words
        quoted (see :meth:`claim`)."""
        def who(seat: int | None) -> str:
            if seat is None:
                return "unknown"
            if names is not None and 0 <= seat < len(names):
                return f"{names[seat]} (seat {seat})"
            return f"seat {seat}"

        if self.reporter is not None:
            return self.claim(who)
        text = self.reason
        if self.culprit is not None and who(self.culprit) not in text:
            text = f"{who(self.culprit)}: {text}"
        return text

    def claim(self, who: Callable[[int | None], str]) -> str:
        """A reported fault as its reporter's claim: who stopped the game saying what of whom,
        their words quoted, and that the claim is unproven (unless the reporter named itself: its
        own word against itself). ``who(seat)`` names a seat."""
        reporter, quote = who(self.reporter), self.quote()
        if self.code == FaultCode.ENDED:
            return f"{reporter} ended the game{quote}; {_UNPROVEN}"
        if self.accused == self.reporter:
            return f"{reporter} reported that it itself {what_was_done(self.code)}{quote}"
        accused = "someone" if self.accused is None else who(self.accused)
        return f"{reporter} stopped the game, claiming {accused} {what_was_done(self.code)}{quote}; {_UNPROVEN}"

    def quote(self) -> str:
        """The reporter's own words, cleaned, as a quote (``", in its words: “…”"``), or ``""``."""
        words = clean_text(self.reason)
        return f", in its words: “{words}”" if words else ""


# What a fault's code says was done, as a verb phrase ("… claiming bob (seat 1) sent an oversize frame").
_DONE = {
    FaultCode.BAD_SIGNATURE: "sent a message with a bad signature",
    FaultCode.MALFORMED: "sent a malformed message",
    FaultCode.OVERSIZE: "sent an oversize frame",
    FaultCode.REPLAY: "sent an old message again",
    FaultCode.BAD_SEQUENCE: "sent something out of sequence",
    FaultCode.ILLEGAL: "made a move the rules don't allow",
    FaultCode.BAD_OPENING: "opened a commitment with another value",
    FaultCode.BAD_KEY: "published or sealed a wrong card key",
    FaultCode.BAD_PASS: "made a wrong shuffle or lock pass",
    FaultCode.BAD_ESCROW: "escrowed its card keys falsely",
    FaultCode.RULE_VIOLATION: "broke a rule with a hidden card",
    FaultCode.BAD_DISPUTE: "disputed a deal that was correct",
    FaultCode.UNRESPONSIVE: "stopped answering",
    FaultCode.DESYNC: "reached another state than the others",
    FaultCode.EQUIVOCATION: "acknowledged one entry with two different states",
    FaultCode.LEFT: "left the game",
    FaultCode.DISCONNECTED: "could not get back to the game",
    FaultCode.FLOOD: "sent chat past its limits",
}


def what_was_done(code: str) -> str:
    """``code`` as what was done, in words; a code this version doesn't know, quoted."""
    return _DONE.get(code) or f"committed a fault it calls “{clean_text(str(code), 40)}”"


def ended_reason(
    ender: str, away: list[str], *, stopped_for: str | None = None, gone: list[str] | None = None, host_gone: bool = False
) -> str:
    """Why a game was ended for seats that are away (fault ``ended``), in words: ``away`` (who)
    were away and ``ender`` ended it rather than wait.

    If this peer's own process was stopped (``stopped_for``, how long: the others dropped it as
    silent) and ``gone`` (or, with ``host_gone``, a joiner's host) went away when it woke, their
    absence is its own: it was away, and could not get back to them (``away`` then names only the
    seats that were away before)."""
    parts = []
    if away:
        parts.append(f"{joined(away)} {'was' if len(away) == 1 else 'were'} away (connection lost)")
    if stopped_for is not None:
        after = "could not get back to the host" if host_gone else f"{joined(gone or [])} did not come back"
        parts.append(f"{ender} was away{' too' if away else ''} (its process was stopped for {stopped_for}) and {after} after")
        return f"{'; '.join(parts)}; it ended the game rather than wait"
    return f"{'; '.join(parts)} and {ender} ended the game rather than wait"


def odd_one_out(acks: dict[int, tuple[bytes, bytes]]) -> int | None:
    """The seat a desync names (§B8): given every seat's acknowledged ``(entry, state)`` of one
    entry, the one seat that differs from all the others when they all agree; else ``None``."""
    groups: dict[tuple[bytes, bytes], list[int]] = {}
    for seat, value in sorted(acks.items()):
        groups.setdefault(value, []).append(seat)
    ranked = sorted(groups.values(), key=len, reverse=True)
    if len(ranked) == 2 and len(ranked[1]) == 1 and len(ranked[0]) > 1:
        return ranked[1][0]
    return None


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
