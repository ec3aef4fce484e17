"""What a line typed at the prompt means: one of your choices, a command, or a mistake to explain.

The rules, in order (case and extra spaces never matter):

1. the text of one of your current choices makes that move (a game's moves win over commands);
2. ``help`` (or ``?``), ``say TEXT``, ``log``, ``table``, ``abandon``, ``adjourn``, ``bot [NAME]``, ``code NEWCODE`` and
   ``quit`` (or ``exit``) are commands: words no game's moves begin with (the engine reserves them,
   :data:`~p2pgames.engine.RESERVED_WORDS`), so each means the same in every game;
3. a number picks that line of the numbered list: a choice, or a group of choices to narrow down
   (:class:`PickGroup`);
4. the words of exactly one choice in another order make that move (``score S6 S5 S4``);
5. anything else is :class:`Unknown`, with the choices it resembles (the game may still know it
   as a move it can explain: see ``Session.parse_move``).

Nothing here has side effects: :func:`interpret` only classifies. :func:`choice_texts` and
:func:`menu_lines` say what a decision offers: its choices, then its standing answer ("not this
quarter"), which the numbered list shows as its last line; or, once the player has picked a line
that stands for several choices, that line's parts (and its choices, at the last level).
"""

from __future__ import annotations

import difflib
from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from p2pgames.engine import RESERVED_WORDS, ChoiceGroup, normalize_typed
from p2pgames.session import Decision

__all__ = [
    "Move",
    "PickGroup",
    "Chat",
    "Help",
    "ShowLog",
    "ShowTable",
    "Quit",
    "EndGame",
    "Adjourn",
    "NewCode",
    "BadNumber",
    "Unknown",
    "Command",
    "COMMANDS",
    "COMMAND_WORDS",
    "COMMAND_NAMES",
    "interpret",
    "normalize",
    "choice_texts",
    "menu_lines",
]


@dataclass(frozen=True, slots=True)
class Move:
    """Make the choice at ``index`` of the current decision."""

    index: int


@dataclass(frozen=True, slots=True)
class PickGroup:
    """Narrow down the group of choices at ``index`` of the numbered list (it has several)."""

    index: int


@dataclass(frozen=True, slots=True)
class Chat:
    """Send ``text`` to the table (empty: the player typed ``say`` alone)."""

    text: str


@dataclass(frozen=True, slots=True)
class Help:
    pass


@dataclass(frozen=True, slots=True)
class ShowLog:
    pass


@dataclass(frozen=True, slots=True)
class ShowTable:
    pass


@dataclass(frozen=True, slots=True)
class Quit:
    pass


@dataclass(frozen=True, slots=True)
class EndGame:
    """End the game for everyone because a seat is away (once it has been away a while):
    ``abandon`` (or ``abandon game``)."""


@dataclass(frozen=True, slots=True)
class Adjourn:
    """Ask everyone to stop the game here and go on later (``p2pgames resume``): ``adjourn``."""


@dataclass(frozen=True, slots=True)
class ClaimForfeit:
    """Claim the game by forfeit, the other player away a while (a two-player table that
    plays one): ``forfeit``."""


@dataclass(frozen=True, slots=True)
class OpenSeat:
    """Play on with a bot in the seat of a player away past the grace period: ``bot`` (the one
    away longest) or ``bot NAME``."""

    name: str


@dataclass(frozen=True, slots=True)
class NewCode:
    """The host came back at another address and gave the join code ``text``: dial it there
    (empty: ``code`` was typed alone)."""

    text: str


@dataclass(frozen=True, slots=True)
class BadNumber:
    """A number that picks nothing (the numbered list has ``count`` lines, maybe none)."""

    number: int
    count: int


@dataclass(frozen=True, slots=True)
class Unknown:
    """Not a choice nor a command; ``suggestions`` are choices that look like it."""

    text: str
    suggestions: tuple[str, ...]


Command = (
    Move | PickGroup | Chat | Help | ShowLog | ShowTable | Quit | EndGame | Adjourn | ClaimForfeit | OpenSeat | NewCode
    | BadNumber | Unknown
)

# (what to type, what it does): the help screen and the completer both use this.
COMMANDS: tuple[tuple[str, str], ...] = (
    ("say TEXT", "send TEXT to everyone at the table"),
    ("help", "show the rules summary and these commands (also F1)"),
    ("log", "show only the log, to read back (also F3)"),
    ("table", "show only the table (also F2)"),
    ("abandon", "end the game for everyone while a seat is away, once it has been away a while (asks first)"),
    ("adjourn", "ask everyone to stop here and go on later with p2pgames resume, every seat saved (once all agree)"),
    ("forfeit", "win by forfeit when the other player has been away a while, at a two-player table that plays it (asks first)"),
    ("bot NAME", "play on with a bot in the seat of NAME, away a while (bot alone: whoever is away); their cards are shown to all (asks first)"),
    ("code CODE", "the host came back at another address: reconnect with the new join code it gives (same key only)"),
    ("quit", "leave the game; asks first while the game is running (also Ctrl-C)"),
)
COMMAND_WORDS: tuple[str, ...] = ("say ", "help", "log", "table", "abandon", "adjourn", "forfeit", "bot", "code ", "quit")

# Every word read as a command here: the engine's RESERVED_WORDS, which no game's moves begin
# with, are the terminal's list (tests/tui/test_tui_command_words.py checks that :func:`interpret`
# reads each as a command). The words that say the same thing:
COMMAND_NAMES: frozenset[str] = RESERVED_WORDS
_HELP = frozenset({"help", "?", "/help", "h"})
_QUIT = frozenset({"quit", "exit", "/quit", "q"})


normalize = normalize_typed  # the engine's: what the player types is compared as games read it


def choice_texts(decision: Decision) -> tuple[str, ...]:
    """What the player may type for ``decision``: its choices' texts, then its standing answer's
    label (so an index equal to ``len(decision.texts)`` means the standing answer)."""
    return decision.texts + ((decision.standing.label,) if decision.standing is not None else ())


def menu_lines(decision: Decision, narrowed: ChoiceGroup | None = None) -> list[ChoiceGroup]:
    """The numbered list for ``decision``, each line a group of indexes into :func:`choice_texts`:
    its groups, then its standing answer; or, ``narrowed`` to one of its groups, that group's parts
    (a group without parts: each of its choices)."""
    if narrowed is not None:
        if narrowed.parts:
            return list(narrowed.parts)
        return [ChoiceGroup(decision.texts[index], (index,)) for index in narrowed.members]
    lines = list(decision.menu)
    if decision.standing is not None:
        lines.append(ChoiceGroup(decision.standing.label, (len(decision.texts),)))
    return lines


def interpret(
    text: str, choices: Sequence[str] | None, menu: Sequence[Sequence[int]] | None = None
) -> Command | None:
    """The meaning of the line ``text`` when ``choices`` are on offer (``None``: no decision),
    listed as ``menu``: the members of each numbered line (default: each choice on its own).

    Returns ``None`` for a blank line.
    """
    typed = normalize(text)
    if not typed:
        return None
    choices = choices or ()
    keys = [normalize(choice) for choice in choices]
    if typed in keys:
        return Move(keys.index(typed))
    word, _, rest = " ".join(text.split()).partition(" ")
    command = word.casefold()
    if command == "say":
        return Chat(rest)
    if command == "abandon" and rest.casefold() in ("", "game"):
        return EndGame()
    if command == "adjourn" and not rest:
        return Adjourn()
    if command == "forfeit" and not rest:
        return ClaimForfeit()
    if command == "bot":
        return OpenSeat(rest)
    if command == "code":
        return NewCode(rest)
    if not rest:
        if command in _HELP:
            return Help()
        if command in _QUIT:
            return Quit()
        if command == "log":
            return ShowLog()
        if command == "table":
            return ShowTable()
        if command.isdigit():
            number = int(command)
            lines = menu if menu is not None else [(index,) for index in range(len(choices))]
            if not 1 <= number <= len(lines):
                return BadNumber(number, len(lines))
            members = lines[number - 1]
            return Move(members[0]) if len(members) == 1 else PickGroup(number - 1)
    words = Counter(typed.split())
    same_words = [index for index, key in enumerate(keys) if Counter(key.split()) == words]
    if len(same_words) == 1:
        return Move(same_words[0])
    return Unknown(" ".join(text.split()), _resembling(typed, choices, keys))


def _resembling(typed: str, choices: Sequence[str], keys: Sequence[str], limit: int = 4) -> tuple[str, ...]:
    """Choices that start with ``typed``, then those that look like it, at most ``limit``."""
    found = [choice for choice, key in zip(choices, keys) if key.startswith(typed)]
    close = difflib.get_close_matches(typed, keys, n=limit, cutoff=0.6)
    for key in close:
        choice = choices[keys.index(key)]
        if choice not in found:
            found.append(choice)
    return tuple(found[:limit])
