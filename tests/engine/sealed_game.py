"""Sealed Guess: a tiny test-only game whose choices are sealed at one step and opened later.

Not offered to players and not the probe game (whose wire behaviour the vectors pin down): it
exists so the engine, the local table, the conformance check and the session can be tested on a
sealed choice ("commit now, open later") on its own.

Rules (2–4 players), ``ROUNDS`` rounds of::

    seal (Sealed: every seat guesses 1–3) ─► talk (each seat in turn says hi or ho)
    ─► roll (Chance: a number 1–3) ─► open (Unseal: the guesses revealed) ─► next round …

A guess equal to the roll scores a point; most points wins (ties share the win). A guess is legal
only while guessing or opening (so a guess opened anywhere else would be refused by
:meth:`SealedGuess.check_action`), and only 1–3.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from p2pgames.engine import (
    Presentation,
    CardState,
    Chance,
    DeterministicRandom,
    Event,
    Game,
    GameOver,
    GameState,
    IllegalAction,
    Knowledge,
    MalformedAction,
    Ruleset,
    Sealed,
    Step,
    Turn,
    Unseal,
)

ROUNDS = 2
GUESSES = (1, 2, 3)
WORDS = ("hi", "ho")


@dataclass(frozen=True, slots=True)
class Guess:
    """A sealed guess of the next roll, 0–9 on the wire (only 1–3 are legal)."""

    number: int

    def __post_init__(self) -> None:
        if type(self.number) is not int or not 0 <= self.number <= 9:
            raise MalformedAction(f"a guess is a number 0–9, not {self.number!r}")


@dataclass(frozen=True, slots=True)
class Say:
    """A word said while the guesses are sealed."""

    word: str

    def __post_init__(self) -> None:
        if self.word not in WORDS:
            raise MalformedAction(f"say hi or ho, not {self.word!r}")


class SealedGuessState(GameState):
    __slots__ = ("players", "phase", "round", "queue", "guesses", "rolls", "points", "said", "cards")

    def copy(self) -> "SealedGuessState":
        other = SealedGuessState.__new__(SealedGuessState)
        other.players = self.players
        other.phase = self.phase
        other.round = self.round
        other.queue = list(self.queue)
        other.guesses = list(self.guesses)
        other.rolls = list(self.rolls)
        other.points = list(self.points)
        other.said = list(self.said)
        other.cards = self.cards.copy()
        return other


class SealedGuess(Game[SealedGuessState]):
    name = "sealed-guess"
    title = "Sealed Guess"
    min_players = 2
    max_players = 4

    def setup(self, ruleset: Ruleset) -> SealedGuessState:
        state = SealedGuessState.__new__(SealedGuessState)
        state.players = ruleset.players
        state.phase = "seal"
        state.round = 1
        state.queue = []
        state.guesses = [0] * ruleset.players  # 0 until opened
        state.rolls = []
        state.points = [0] * ruleset.players
        state.said = []
        state.cards = CardState()
        return state

    def step(self, state: SealedGuessState) -> Step:
        everyone = tuple(range(state.players))
        if state.phase == "seal":
            return Sealed(everyone, "guess the roll")
        if state.phase == "talk":
            return Turn((state.queue[0],), "say something")
        if state.phase == "roll":
            return Chance("the roll")
        if state.phase == "open":
            return Unseal(everyone, "the guesses")
        best = max(state.points)
        winners = tuple(seat for seat in everyone if state.points[seat] == best)
        return GameOver(tuple(state.points), winners, f"{best} points")

    def legal_actions(self, state: SealedGuessState, player: int, knowledge: Knowledge) -> list[Any]:
        if state.phase == "seal":
            return [Guess(number) for number in GUESSES]
        if state.phase == "talk" and state.queue[0] == player:
            return [Say(word) for word in WORDS]
        return []

    def check_action(self, state: SealedGuessState, player: int, action: Any) -> None:
        if isinstance(action, Guess):
            if state.phase not in ("seal", "open"):
                raise IllegalAction(player, "guesses are sealed before the talk")
            if action.number not in GUESSES:
                raise IllegalAction(player, f"guess 1–3, not {action.number}")
        elif isinstance(action, Say):
            if state.phase != "talk" or state.queue[0] != player:
                raise IllegalAction(player, "it is not your turn to talk")
        else:
            raise IllegalAction(player, f"{action!r} is no move of {self.title}")

    def apply_sealed(self, state: SealedGuessState) -> None:
        state.phase = "talk"
        state.queue = list(range(state.players))

    def apply_action(self, state: SealedGuessState, player: int, action: Any) -> None:
        state.said.append([player, action.word])
        state.queue.pop(0)
        if not state.queue:
            state.phase = "roll"

    def apply_chance(self, state: SealedGuessState, seed: bytes) -> None:
        state.rolls.append(1 + DeterministicRandom(seed).below(3))
        state.phase = "open"

    def apply_simultaneous(self, state: SealedGuessState, actions: tuple[tuple[int, Any], ...]) -> None:
        assert state.phase == "open", state.phase
        for seat, guess in actions:
            state.guesses[seat] = guess.number
            if guess.number == state.rolls[-1]:
                state.points[seat] += 1
        if state.round == ROUNDS:
            state.phase = "over"
        else:
            state.round += 1
            state.phase = "seal"

    def encode_action(self, action: Any) -> Any:
        if isinstance(action, Guess):
            return ["guess", action.number]
        if isinstance(action, Say):
            return ["say", action.word]
        raise MalformedAction(f"not a {self.title} action: {action!r}")

    def decode_action(self, data: Any) -> Any:
        if isinstance(data, (list, tuple)) and len(data) == 2:
            if data[0] == "guess":
                return Guess(data[1])
            if data[0] == "say":
                return Say(data[1])
        raise MalformedAction(f"not a {self.title} action: {data!r}")

    def encode_state(self, state: SealedGuessState) -> Any:
        return {
            "players": state.players, "phase": state.phase, "round": state.round, "queue": state.queue,
            "guesses": state.guesses, "rolls": state.rolls, "points": state.points, "said": state.said,
            "cards": state.cards.encode(),
        }

    def decode_state(self, data: Any) -> SealedGuessState:
        state = SealedGuessState.__new__(SealedGuessState)
        for name in ("players", "phase", "round"):
            setattr(state, name, data[name])
        for name in ("queue", "guesses", "rolls", "points"):
            setattr(state, name, list(data[name]))
        state.said = [list(pair) for pair in data["said"]]
        state.cards = CardState.decode(data["cards"])
        return state


GAME = SealedGuess()


class SealedGuessPresentation(Presentation[SealedGuessState]):
    """Sealed Guess's moves (``guess 3``, ``shout hello``) and its log's lines."""

    def describe_action(
        self, state: SealedGuessState, player: int, action: Any, knowledge: Knowledge, names: Sequence[str]
    ) -> str:
        # Not "say …": the terminal keeps "say" for chat (RESERVED_WORDS).
        return f"guess {action.number}" if isinstance(action, Guess) else f"shout {action.word}"

    def narrate(self, before: SealedGuessState, event: Event, after: SealedGuessState, names: Sequence[str]) -> list[str]:
        if before.phase == "seal":
            return ["Everyone has sealed a guess."]
        if before.phase == "open":
            return ["Guesses: " + ", ".join(f"{names[s]} {g}" for s, g in enumerate(after.guesses)) + "."]
        return []


PRESENTATION = SealedGuessPresentation(GAME)


def loader(name: str) -> Game:
    """A game loader (as :func:`p2pgames.games.get_game`) that knows Sealed Guess."""
    if name == GAME.name:
        return GAME
    from p2pgames.games import get_game

    return get_game(name)

