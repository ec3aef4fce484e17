"""Bot players: pure decision functions that act through the same interface a person uses.

A bot sees exactly what its seat's peer sees — the public state, the step, and the seat's knowledge
of hidden cards — and returns one of ``game.legal_actions(...)``. Strategies for a game live in
``p2pgames/games/<game>/bots.py`` and are found through :func:`bot_for`; the network layer wraps a
bot in a real peer with its own keys.
"""

from __future__ import annotations

import hashlib
import importlib
from typing import Any, Callable, Protocol, Sequence

from p2pgames.engine import DeterministicRandom, Game, Knowledge, Step

__all__ = ["Bot", "RandomBot", "PlayoutBot", "bot_for", "bot_kinds", "best_of", "legal_options"]


class Bot(Protocol):
    """Chooses an action for ``player`` at ``step``; must return one of the legal actions."""

    def choose(self, game: Game, state: Any, player: int, knowledge: Knowledge, step: Step) -> Any: ...


def legal_options(game: Game, state: Any, player: int, knowledge: Knowledge, step: Step) -> list[Any]:
    """``player``'s legal actions at ``step``, as a list. A bot is asked only when its seat must
    act, so none at all is a bug of the caller or the game: raises :class:`ValueError` naming it."""
    options = list(game.legal_actions(state, player, knowledge))
    if not options:
        raise ValueError(f"seat {player} has no legal action at {step!r}")
    return options


class RandomBot:
    """Picks uniformly among the legal actions (reproducibly, from ``seed``)."""

    def __init__(self, seed: bytes = b"") -> None:
        self.random = DeterministicRandom(hashlib.sha256(b"random-bot\x00" + seed).digest())

    def choose(self, game: Game, state: Any, player: int, knowledge: Knowledge, step: Step) -> Any:
        options = legal_options(game, state, player, knowledge, step)
        return options[self.random.below(len(options))]


class PlayoutBot:
    """Random play as the game defines it (:meth:`Game.playout_choice`): conformance, benchmarks."""

    def __init__(self, seed: bytes = b"") -> None:
        self.random = DeterministicRandom(hashlib.sha256(b"playout-bot\x00" + seed).digest())

    def choose(self, game: Game, state: Any, player: int, knowledge: Knowledge, step: Step) -> Any:
        options = legal_options(game, state, player, knowledge, step)
        return game.playout_choice(state, player, options, knowledge, self.random)


def best_of(options: Sequence[Any], worth: Callable[[Any], float], random: DeterministicRandom) -> Any:
    """The option ``worth`` rates highest; among options within 1e-9 of it, one picked by ``random``.

    Bots rate options with floats (their play is not hashed); the tolerance keeps options that
    differ only by rounding equal, so the choice among them stays reproducible from the seed.
    """
    best: list[Any] = []
    best_value = None
    for option in options:
        value = worth(option)
        if best_value is None or value > best_value + 1e-9:
            best, best_value = [option], value
        elif abs(value - best_value) <= 1e-9:
            best.append(option)
    return best[random.below(len(best))] if len(best) > 1 else best[0]


def _bots_module(game: Game) -> Any | None:
    from p2pgames.games import game_package

    try:
        return importlib.import_module(f"{game_package(game.name)}.bots")
    except ModuleNotFoundError:
        return None


def bot_kinds(game: Game) -> tuple[str, ...]:
    """The kinds of bot ``game`` offers by name (its bots module's ``BOT_KINDS``, the default
    first); empty when it has one kind only."""
    module = _bots_module(game)
    return tuple(getattr(module, "BOT_KINDS", {})) if module is not None else ()


def bot_for(game: Game, seed: bytes = b"", kind: str | None = None) -> Bot:
    """A bot for ``game``, reproducible from ``seed``: the kind named (one of :func:`bot_kinds`),
    or its default (its bots module's ``make_bot(seed)``), or a :class:`RandomBot` for a game
    without bots. Raises :class:`ValueError` for a kind the game doesn't have."""
    module = _bots_module(game)
    if kind is not None:
        kinds = getattr(module, "BOT_KINDS", {}) if module is not None else {}
        if kind not in kinds:
            offered = ", ".join(kinds) or "only its one bot"
            raise ValueError(f"{game.title} has no bot called {kind!r} (its bots: {offered})")
        return kinds[kind](seed)
    if module is None:
        return RandomBot(seed)
    return module.make_bot(seed)
