"""What the two halves of the terminal UI share: where the game is, and what the player did.

The game half (:mod:`p2pgames.tui._app`, trio) owns a :class:`Mode`; the screen half
(:mod:`p2pgames.tui._screen`, prompt_toolkit) reads it and hands back :data:`PlayerInput`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

__all__ = ["Mode", "Question", "Typed", "Interrupt", "Answer", "Dismiss", "PlayAgain", "PlayerInput"]


class Mode(enum.Enum):
    """Where the game is, as far as the screen is concerned."""

    CONNECTING = "connecting"  # setup is running: no node yet
    LOBBY = "lobby"  # at the table (or being seated); the game hasn't started
    PLAYING = "playing"
    OVER = "over"  # the game ended with a result
    STOPPED = "stopped"  # halted by a fault, refused by the host, or the connection closed
    LEAVING = "leaving"  # the player is leaving: telling the others, closing connections

    @property
    def typing(self) -> bool:
        """Whether the player types lines now (otherwise a key answers a question)."""
        return self in (Mode.CONNECTING, Mode.LOBBY, Mode.PLAYING)


class Question(enum.Enum):
    """What the bottom row asks, to answer with y or n, instead of the input line."""

    LEAVE = "leave"  # leave the game? (quit, Ctrl-C while the game runs)
    END = "end"  # end the game for everyone, because a seat is away? (abandon)
    OPEN = "open"  # play on with a bot in the seat of a player who is away? (bot)
    FORFEIT = "forfeit"  # claim the game by forfeit, the other player away? (forfeit)
    ADJOURN = "adjourn"  # agree to another player's request to adjourn? (y agrees, n declines)
    AGAIN = "again"  # play the next game another player asked for? (y plays, n leaves)


@dataclass(frozen=True, slots=True)
class Typed:
    """A line the player entered."""

    text: str


@dataclass(frozen=True, slots=True)
class Interrupt:
    """Ctrl-C, or Ctrl-D on an empty line: quit (asking first while the game runs)."""


@dataclass(frozen=True, slots=True)
class Answer:
    """The answer to the :class:`Question` asked: ``yes`` (y) or no (any other key); ``bot`` (b)
    to the question whether to leave: hand the seat to a bot instead of ending the game;
    ``adjourn`` (a) to it at a table of our own bots: stop here, to go on later."""

    yes: bool
    bot: bool = False
    adjourn: bool = False


@dataclass(frozen=True, slots=True)
class Dismiss:
    """A key pressed to leave once the game is over or has stopped."""


@dataclass(frozen=True, slots=True)
class PlayAgain:
    """Once the game is over: ask to play ``game`` next at this table (None: this game again)."""

    game: str | None = None


PlayerInput = Typed | Interrupt | Answer | Dismiss | PlayAgain
