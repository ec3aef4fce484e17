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

import re
from dataclasses import dataclass, field

__all__ = ["Fault", "ProtocolFault", "LocalError", "FaultCode", "with_article"]


# Words whose first letter misleads: a vowel said as "you" or "won", a silent "h".
_SAID_WITH_A = ("uni", "usa", "use", "usu", "ura", "ure", "uro", "uti", "eu", "ewe")
_SAID_WITH_AN = ("hour", "honest", "honor", "honour", "heir")
# Letters whose names begin with a vowel sound: an F, an RSA key, an x.
_LETTERS_WITH_AN = "aefhilmnorsx"


def with_article(word: str) -> str:
    """``word`` with its indefinite article, for messages: "an entry", "a pass".

    The article goes by how the word is said: "a use", "an hour", "an RSA key" (a word in capitals
    is spelt out, and so is a single letter), "an 8-byte frame", "an 18-card deck", "a 1048577-byte
    frame". Leading quotes or brackets are skipped: "a 'shuffle' pass". An empty word gets "a ".
    """
    return ("an " if _starts_with_vowel_sound(word) else "a ") + word


def _starts_with_vowel_sound(word: str) -> bool:
    start = word.lstrip("'\"‘“([{<")
    if not start:
        return False
    if start[0].isdigit():
        digits = re.match(r"[0-9][0-9,]*", start).group().replace(",", "")  # type: ignore[union-attr]
        # Said in groups of three from the left: 8, 11, 18, 80–89, 800–899 thousand … say "an".
        lead = digits[: len(digits) % 3 or 3]
        return lead.startswith("8") or lead in ("11", "18")
    if re.match(r"[A-Z]{2,}(?![a-z])|[A-Za-z](?![A-Za-z])", start):
        return start[0].lower() in _LETTERS_WITH_AN  # spelt out: an x, an RSA key, a PEM file
    letters = re.match(r"[A-Za-z]*", start).group()  # type: ignore[union-attr]
    if not letters:
        return False
    lower = letters.lower()
    if lower in ("one", "once") or lower.startswith(_SAID_WITH_A):
        return False
    if lower.startswith(_SAID_WITH_AN):
        return True
    return lower[0] in "aeiou"


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
