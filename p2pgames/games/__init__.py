"""The games, by the name used on the command line.

Each game lives in its own package and exposes ``GAME``, an instance of its
:class:`p2pgames.engine.Game` (the rules), and in the package's ``presentation`` module
``PRESENTATION``, its :class:`p2pgames.engine.Presentation` (how the game is shown), which the
rules never import. Packages whose names start with ``_`` are for testing the platform
and are not offered to players.
"""

from __future__ import annotations

import importlib
import re
from typing import TYPE_CHECKING

from p2pgames.engine import Game

if TYPE_CHECKING:  # (loaded only with a game's presentation)
    from p2pgames.engine import Presentation

__all__ = ["PLAYABLE", "TEST_GAMES", "find_game", "get_game", "get_presentation", "game_package", "UnknownGame"]

# name -> package; the order is the order of the menu.
PLAYABLE: dict[str, str] = {
    "beltpunk": "p2pgames.games.beltpunk",
    "steamcourt": "p2pgames.games.steamcourt",
    "steamcourt2015": "p2pgames.games.steamcourt2015",
    "torpedo": "p2pgames.games.torpedo",
    "astonishing": "p2pgames.games.astonishing",
}
_PLATFORM_TESTS: dict[str, str] = {
    "probe": "p2pgames.games._probe",
    "dealbench": "p2pgames.games._dealbench",
}
# The platform's own test games: not offered to players, accepted by their exact names.
TEST_GAMES: tuple[str, ...] = tuple(_PLATFORM_TESTS)


class UnknownGame(KeyError):
    """No game has that name. ``suggestion`` is the game the name resembles, if any."""

    def __init__(self, name: str, suggestion: str | None = None) -> None:
        super().__init__(name)
        self.suggestion = suggestion

    def __str__(self) -> str:
        guess = f"; did you mean {self.suggestion}?" if self.suggestion else ""
        return f"unknown game {self.args[0]!r}{guess} (the games: {', '.join(PLAYABLE)})"


def game_package(name: str) -> str:
    """The package that holds the game called ``name``; raises :class:`UnknownGame`."""
    package = PLAYABLE.get(name) or _PLATFORM_TESTS.get(name)
    if package is None:
        raise UnknownGame(name)
    return package


def get_game(name: str) -> Game:
    """The game called ``name``; raises :class:`UnknownGame`."""
    return importlib.import_module(game_package(name)).GAME


def get_presentation(name: str) -> Presentation:
    """How the game called ``name`` is shown: its package's ``presentation`` module's
    ``PRESENTATION``, whose ``rules`` are :func:`get_game`'s. Raises :class:`UnknownGame`.
    Loaded only when asked for: the rules alone never load it."""
    return importlib.import_module(game_package(name) + ".presentation").PRESENTATION


def _simplified(text: str) -> str:
    """``text`` without case, spaces, hyphens, underscores or punctuation: how names are compared."""
    return re.sub(r"[^0-9a-z]", "", text.casefold())


def find_game(typed: str) -> str:
    """The name of the playable game a person means by ``typed``: its name or its title, in any
    case, with or without spaces and hyphens (``Beltpunk``, ``steam-court``, ``Steam Court``).

    Raises :class:`UnknownGame` with the game it most resembles (a typo), if one does. The wire
    protocol names games exactly: use :func:`get_game` there.
    """
    if typed in _PLATFORM_TESTS:
        return typed  # the platform's own test games, by their exact names only
    wanted = _simplified(typed)
    known: dict[str, str] = {}  # simplified name or title -> name
    for name in PLAYABLE:
        known[_simplified(name)] = name
        known[_simplified(get_game(name).title)] = name
    if wanted in known:
        return known[wanted]
    import difflib  # only for a name nobody knows: not loaded by commands given a right one

    close = difflib.get_close_matches(wanted, list(known), n=1, cutoff=0.6)
    raise UnknownGame(typed, known[close[0]] if close else None)
