"""The places in the flow of the court's rules (``rules.py`` draws the flow), apart so that the
state, the characters' records and the typed-move reader name them as the rules do."""

from __future__ import annotations

__all__ = ["Phase"]


class Phase:
    """Names of the places in the flow (plain strings: they are part of the hashed state)."""

    # state.phase
    SEATING = "seating"
    PLAYING = "playing"
    AUDITING = "auditing"
    OVER = "over"
    # table.phase
    COUP = "coup"
    COUP_REVEAL = "coup-reveal"
    COUP_AUDIT = "coup-audit"
    GIVE = "give"
    INSPECT = "inspect"
    SERVE = "serve"
    TRADE = "trade"
    HOARD = "hoard"
    TURN = "turn"
    REVEALING = "revealing"
    STOP = "stop"
    UNPASS = "unpass"
    RETRIEVE = "retrieve"
    STEAL = "steal"
    DIVING = "diving"
    RETURN = "return"
    DISCARDING = "discarding"
    DONE = "done"
