"""The games, by the name used on the command line.

Each game lives in its own package and exposes ``GAME``, an instance of its
:class:`p2pgames.engine.Game`. Packages whose names start with ``_`` are for testing the platform
and are not offered to players.
"""

from __future__ import annotations

import importlib

from p2pgames.engine import Game

__all__ = ["PLAYABLE", "get_game", "game_package", "UnknownGame"]

# name -> package; the order is the order of the menu.
PLAYABLE: dict[str, str] = {
    "beltpunk": "p2pgames.games.beltpunk",
    "steamcourt": "p2pgames.games.steamcourt",
}
_PLATFORM_TESTS: dict[str, str] = {
    "probe": "p2pgames.games._probe",
    "dealbench": "p2pgames.games._dealbench",
}


class UnknownGame(KeyError):
    def __str__(self) -> str:
        return f"unknown game {self.args[0]!r}; choose one of: {', '.join(PLAYABLE)}"


def game_package(name: str) -> str:
    """The package that holds the game called ``name``; raises :class:`UnknownGame`."""
    package = PLAYABLE.get(name) or _PLATFORM_TESTS.get(name)
    if package is None:
        raise UnknownGame(name)
    return package


def get_game(name: str) -> Game:
    """The game called ``name``; raises :class:`UnknownGame`."""
    return importlib.import_module(game_package(name)).GAME
