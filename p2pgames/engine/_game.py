"""The rules every game implements, and the ruleset a table agrees on before it starts.

How a game is shown to people is the other half of its contract, kept apart
(:class:`~p2pgames.engine.Presentation`): the rules never need it.

A game is a pure state machine. :class:`Game` is stateless; the state is a game-specific object
with ``copy()`` that :meth:`Game.apply` copies and then changes, so a state once returned is never
changed again (the conformance test checks this). Hidden card values never enter the public state
until revealed; a player's own view of hidden cards is its *knowledge*, a mapping from slot to card
name, passed in where a decision depends on it.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Generic, Mapping, Sequence, TypeVar

from p2pgames import canonical
from p2pgames.engine._cards import CardState, Claim
from p2pgames.engine._errors import EventMismatch, IllegalAction, MalformedAction, RulesetError
from p2pgames.engine._random import DeterministicRandom
from p2pgames.words import spelled_duration
from p2pgames.engine._steps import (
    Act,
    CardOperations,
    CardsDone,
    Chance,
    ChanceOutcome,
    ChoicesSealed,
    Event,
    GameOver,
    ReactionWindow,
    Sealed,
    Simultaneous,
    SimultaneousActs,
    Step,
    Turn,
    Unseal,
)

__all__ = [
    "Concealment",
    "Game",
    "GameState",
    "Ruleset",
    "RulesetOption",
    "Knowledge",
    "NO_KNOWLEDGE",
    "RESERVED_WORDS",
    "normalize_typed",
]

Knowledge = Mapping[int, str]
NO_KNOWLEDGE: Knowledge = {}


@dataclass(frozen=True, slots=True)
class Concealment:
    """An action moves the card in ``slot``, one of its player's own, to where the seats outside
    ``seen_by`` (and its player) can't see it: installed face down, passed to another hand, offered
    face down. See :meth:`Game.concealed_moves`."""

    slot: int
    seen_by: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class RulesetOption:
    """One rule a table may choose before starting; ``choices`` lists every allowed value."""

    name: str
    default: Any
    choices: tuple[Any, ...]
    description: str


# The longest a table's move time may be (a day): longer is no limit at all.
MAX_MOVE_TIME = 86_400


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The game, the number of seats and a value for every option: what every peer agrees to.

    ``edition`` is the edition of the game's rules this ruleset plays (:meth:`Game.edition_of`):
    a log replays to the same states only under the edition it was played with. ``open_seats``,
    a table's choice rather than the game's: whether a seat whose player left may be played by a
    bot (protocol/SPEC.md §B14); without it the game ends when someone leaves for good.
    ``forfeit``, also the table's (two players only): whether the one left wins by forfeit when
    the other has gone for good and no bot can take their seat (§B17). ``move_time``, the
    table's too: the seconds a player may take over a decision before its own program lets its
    bot make that one move (0: no limit; §A4). Each player's program keeps its own limit: no
    peer can check another's clock.
    """

    game: str
    players: int
    options: tuple[tuple[str, Any], ...]
    edition: int = 1
    open_seats: bool = True
    forfeit: bool = False
    move_time: int = 0

    def __getitem__(self, name: str) -> Any:
        for key, value in self.options:
            if key == name:
                return value
        raise KeyError(name)

    def encode(self) -> dict:
        """The wire form; ``edition`` only from 2 on, so that every game's first edition keeps
        the form rulesets had before editions were recorded (their logs still replay)."""
        encoded = {"game": self.game, "players": self.players, "options": dict(self.options)}
        if self.edition != 1:
            encoded["edition"] = self.edition
        if not self.open_seats:  # (only when not the default: rulesets before it keep their form)
            encoded["open_seats"] = False
        if self.forfeit:  # (likewise only when chosen)
            encoded["forfeit"] = True
        if self.move_time:  # (likewise)
            encoded["move_time"] = self.move_time
        return encoded

    def describe(self) -> str:
        options = ", ".join(f"{key}={value}" for key, value in self.options)
        seats = f"{self.players} player" + ("" if self.players == 1 else "s")
        return f"{self.game}, {seats}" + (f" ({options})" if options else "")


def normalize_typed(text: str) -> str:
    """``text`` as typed moves are compared: words separated by single spaces, case folded."""
    return " ".join(text.split()).casefold()


# The words a player's interface keeps for its own commands (the terminal's help, say, quit,
# abandon …), as typed, case folded. Nothing a game has a player type begins with one — no move's
# text, standing answer, composer command or information command — so each word means one thing
# at the prompt whatever the game (a game's "end the turn" can't be read as "end the game").
# The conformance check holds every game to it.
RESERVED_WORDS: frozenset[str] = frozenset(
    {"say", "help", "?", "h", "/help", "log", "table", "abandon", "adjourn", "bot", "forfeit", "code", "quit", "exit", "q",
     "/quit"}
)


class GameState(ABC):
    """What a game's state object provides to the engine machinery."""

    cards: CardState

    @abstractmethod
    def copy(self) -> "GameState":
        """An independent copy: changing it must never change ``self``."""


S = TypeVar("S", bound=GameState)


class Game(ABC, Generic[S]):
    """A game's rules. Subclasses fill in the class attributes and the abstract methods."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[RulesetOption, ...]] = ()
    # Named variants for the command line (``--variant NAME``): name -> {"options": {option: value},
    # "about": "what it is", "players": N (optional: the count when --players isn't given)}.
    cli_variants: ClassVar[Mapping[str, Mapping[str, Any]]] = {}
    # The edition of the rules: raised by one whenever a change makes a log of the game replay to
    # other states (a new state key, a rule read differently). A ruleset records the edition it
    # plays, and a log of another edition is refused as another version's, never replayed into a
    # false verdict (see :meth:`decode_ruleset`).
    rules_edition: ClassVar[int] = 1

    # -- rulesets ------------------------------------------------------------------------------

    @property
    def deck_domain(self) -> str:
        """Domain that makes this game's card points distinct from every other game's."""
        return f"p2pgames/{self.name}"

    def ruleset(
        self, players: int, options: Mapping[str, Any] | None = None, *, open_seats: bool = True, forfeit: bool = False,
    ) -> Ruleset:
        """Validate ``players`` and ``options`` (missing options take their defaults);
        ``open_seats`` and ``forfeit``: the table's choices (see :class:`Ruleset`).

        Raises :class:`RulesetError` naming the bad option and the allowed values (and for
        ``forfeit`` at a table of other than two players).
        """
        if forfeit and players != 2:
            raise RulesetError(f"a win by forfeit is for two-player tables, not {players} players")
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise RulesetError(
                f"{self.title} is for {self.min_players}–{self.max_players} players, not {players}"
            )
        given = dict(options or {})
        chosen: list[tuple[str, Any]] = []
        for option in self.options:
            value = given.pop(option.name, option.default)
            if value not in option.choices or type(value) is not type(option.default):
                allowed = ", ".join(str(choice) for choice in option.choices)
                raise RulesetError(f"option {option.name} must be one of {allowed}, not {value!r}")
            chosen.append((option.name, value))
        if given:
            raise RulesetError(f"{self.title} has no option {sorted(given)[0]!r}")
        ruleset = Ruleset(self.name, players, tuple(sorted(chosen)), open_seats=open_seats, forfeit=forfeit)
        self.check_ruleset(ruleset)
        return replace(ruleset, edition=self.edition_of(ruleset))

    def edition_of(self, ruleset: Ruleset) -> int:
        """The edition of the rules ``ruleset`` plays: :attr:`rules_edition`, unless a change left
        some of the game's rulesets as they were (those may keep the edition they had, so their
        old logs still replay)."""
        return self.rules_edition

    def decode_ruleset(self, data: Any) -> Ruleset:
        """Rebuild a ruleset from :meth:`Ruleset.encode` output (no ``edition``: edition 1).

        Raises :class:`RulesetError`: for a malformed ruleset, and for one of another edition of
        the rules than this program plays for it — made by another version of p2pgames, whose
        logs this version would replay to other states (so it says so instead).
        """
        try:
            if data["game"] != self.name:
                raise RulesetError(f"ruleset is for {data['game']!r}, not {self.name!r}")
            edition = data.get("edition", 1)
            if type(edition) is not int or edition < 1:
                raise RulesetError(f"malformed ruleset: edition {edition!r}")
            if data.get("open_seats", False) is not False:
                raise RulesetError(f"malformed ruleset: open_seats {data['open_seats']!r} (only false is written)")
            open_seats = "open_seats" not in data
            if data.get("forfeit", True) is not True:
                raise RulesetError(f"malformed ruleset: forfeit {data['forfeit']!r} (only true is written)")
            forfeit = "forfeit" in data
            move_time = data.get("move_time", 0)
            if "move_time" in data and not (type(move_time) is int and 1 <= move_time <= MAX_MOVE_TIME):
                raise RulesetError(f"malformed ruleset: move_time {move_time!r} (1 to {MAX_MOVE_TIME} seconds)")
            try:
                ruleset = self.ruleset(data["players"], data["options"], open_seats=open_seats, forfeit=forfeit)
            except RulesetError:
                if edition != self.rules_edition:
                    raise self._other_edition(edition) from None
                raise
            if ruleset.edition != edition:
                raise self._other_edition(edition, ruleset.edition)
            return replace(ruleset, move_time=move_time) if move_time else ruleset
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise RulesetError(f"malformed ruleset: {error}") from None

    def _other_edition(self, edition: int, ours: int | None = None) -> RulesetError:
        ours = self.rules_edition if ours is None else ours
        which = "an earlier" if edition < ours else "a later"
        return RulesetError(
            f"it was made by {which} version of p2pgames, which plays edition {edition} of {self.title}'s "
            f"rules (this one plays edition {ours}, whose states differ): use that version for it"
        )

    def check_ruleset(self, ruleset: Ruleset) -> None:
        """Cross-option checks (e.g. a variant's player count); raise :class:`RulesetError`."""

    def for_ruleset(self, ruleset: Ruleset) -> "Game":
        """The game whose rules run ``ruleset``: this one, unless a variant is a game of its own
        (its own state and rules, under this game's name). Everything that plays a ruleset —
        tables, sessions, transcript checks — plays it with the game this returns."""
        return self

    def describe_ruleset(self, ruleset: Ruleset) -> str:
        """One line for people: the players and the options that matter (default: every option)."""
        return ruleset.describe()

    def describe_table(self, ruleset: Ruleset) -> str:
        """:meth:`describe_ruleset`, and what the table chose besides the game's rules (no bot
        in a leaver's seat): what a player is shown before the game starts."""
        table = "" if ruleset.open_seats else "; no bot takes a leaver's seat"
        if ruleset.forfeit:
            table += "; the one left wins by forfeit"
        if ruleset.move_time:
            table += f"; a move may take {spelled_duration(ruleset.move_time)}, then the player's bot makes it"
        return self.describe_ruleset(ruleset) + table

    # -- the state machine ---------------------------------------------------------------------

    @abstractmethod
    def setup(self, ruleset: Ruleset) -> S:
        """The state before anything has happened (usually waiting for a chance or a deal)."""

    @abstractmethod
    def step(self, state: S) -> Step:
        """What the game waits for now (cheap: called after every event)."""

    @abstractmethod
    def legal_actions(self, state: S, player: int, knowledge: Knowledge) -> Sequence[Any]:
        """Every action ``player`` may take now, given the hidden values it can see.

        Empty when ``player`` has nothing to decide. In a :class:`Simultaneous` or :class:`Sealed`
        step these are the choices it may commit to.
        """

    @abstractmethod
    def check_action(self, state: S, player: int, action: Any) -> None:
        """Raise :class:`IllegalAction` if ``action`` breaks a rule visible in the public state.

        Rules that need hidden values are checked when the values are revealed (a
        :class:`RuleViolation` from ``apply``) or recorded as claims.
        """

    def apply(self, state: S, event: Event) -> S:
        """Return the state after ``event``; ``state`` itself is not changed.

        Raises :class:`IllegalAction` (a player's move breaks a public rule),
        :class:`RuleViolation` (revealed values show an earlier hidden choice or claim was illegal)
        or :class:`EventMismatch` (the event does not answer the current step).
        """
        return self._apply_checked(state, event)

    def apply_unchecked(self, state: S, event: Event) -> S:
        """The fast path: changes ``state`` itself and returns it, without checking the action.

        Only for events already known to be legal (chosen from :meth:`legal_actions` by a local
        simulation). Revealed values still go through the game's claims and rules (no one chose
        them), but the event is trusted to answer the current step.
        """
        return self._apply_fast(state, event)

    def _apply_checked(self, state: S, event: Event) -> S:
        step = self.step(state)
        # Validate everything that doesn't need a copy first, so an illegal move costs nothing.
        if isinstance(event, Act):
            if isinstance(step, Turn):
                if event.player not in step.actors:
                    raise IllegalAction(event.player, "it is not your turn")
            elif isinstance(step, ReactionWindow):
                if event.player not in step.players:
                    raise IllegalAction(event.player, "you have nothing to react to now")
            else:
                raise IllegalAction(event.player, f"no move is expected now ({_step_name(step)})")
            self.check_action(state, event.player, event.action)
            state = state.copy()
            self.apply_action(state, event.player, event.action)
            return state
        if isinstance(event, SimultaneousActs):
            # An Unseal step's choices are checked now, as a Simultaneous step's: an illegal
            # sealed choice is its chooser's fault when it is opened.
            if not isinstance(step, (Simultaneous, Unseal)):
                raise EventMismatch(f"simultaneous choices arrived during {_step_name(step)}")
            seats = tuple(player for player, _ in event.actions)
            if seats != step.players:
                raise EventMismatch(f"choices from seats {seats}, expected {step.players}")
            for player, action in event.actions:
                self.check_action(state, player, action)
            state = state.copy()
            self.apply_simultaneous(state, event.actions)
            return state
        if isinstance(event, ChoicesSealed):
            if not isinstance(step, Sealed):
                raise EventMismatch(f"sealed choices arrived during {_step_name(step)}")
            state = state.copy()
            self.apply_sealed(state)
            return state
        if isinstance(event, ChanceOutcome):
            if not isinstance(step, Chance):
                raise EventMismatch(f"a random seed arrived during {_step_name(step)}")
            if not isinstance(event.seed, bytes) or len(event.seed) != 32:
                raise EventMismatch("a random seed must be 32 bytes")
            state = state.copy()
            self.apply_chance(state, event.seed)
            return state
        if isinstance(event, CardsDone):
            if not isinstance(step, CardOperations):
                raise EventMismatch(f"card values arrived during {_step_name(step)}")
            values = dict(event.values)
            if len(values) != len(event.values):
                raise EventMismatch("a slot's value was given twice")
            state = state.copy()
            claims = state.cards.complete(values)
            for claim in claims:
                self.check_claim(state, claim)
            self.after_cards(state, values)
            return state
        raise EventMismatch(f"not an event: {event!r}")

    def _apply_fast(self, state: S, event: Event) -> S:
        # The unchecked path: the event is trusted to answer the current step.
        if isinstance(event, Act):
            self.apply_action(state, event.player, event.action)
        elif isinstance(event, SimultaneousActs):
            self.apply_simultaneous(state, event.actions)
        elif isinstance(event, ChoicesSealed):
            self.apply_sealed(state)
        elif isinstance(event, ChanceOutcome):
            self.apply_chance(state, event.seed)
        elif isinstance(event, CardsDone):
            values = dict(event.values)
            for claim in state.cards.complete(values):
                self.check_claim(state, claim)
            self.after_cards(state, values)
        else:
            raise EventMismatch(f"not an event: {event!r}")
        return state

    @abstractmethod
    def apply_action(self, state: S, player: int, action: Any) -> None:
        """Change ``state`` in place for a checked action (a copy made by :meth:`apply`)."""

    def apply_simultaneous(self, state: S, actions: tuple[tuple[int, Any], ...]) -> None:
        """Change ``state`` in place for a set of opened simultaneous choices: a
        :class:`Simultaneous` step's, or those an :class:`Unseal` step opens (the game tells which
        from its own state)."""
        raise EventMismatch(f"{self.title} has no simultaneous steps")

    def apply_sealed(self, state: S) -> None:
        """Change ``state`` in place once every seat of a :class:`Sealed` step has committed to
        its choice (the values stay secret until the game's :class:`Unseal` step)."""
        raise EventMismatch(f"{self.title} has no sealed choices")

    def apply_chance(self, state: S, seed: bytes) -> None:
        """Change ``state`` in place for a jointly random seed."""
        raise EventMismatch(f"{self.title} has no chance steps")

    def after_cards(self, state: S, values: Mapping[int, str]) -> None:
        """Continue in place once card operations are done (``values`` just became public).

        Raise :class:`RuleViolation` if the values show an earlier hidden choice was illegal.
        """

    def check_claim(self, state: S, claim: Claim) -> None:
        """Raise :class:`RuleViolation` if ``claim`` was false (its slots are now public)."""
        raise EventMismatch(f"{self.title} makes no claims, but one was recorded: {claim!r}")

    def kept_slots(self, state: S, seat: int) -> Sequence[int]:
        """The hidden slots in ``seat``'s own keeping — its hand, its cards face down — which
        every seat sees once a bot plays ``seat`` (an open seat, SPEC §B14): a player handing its
        seat over publishes, besides its own keys, the keys others sealed to it for these. The
        default, for games with no hidden card in a seat's keeping: none."""
        return ()

    def concealed_moves(self, state: S, player: int, action: Any) -> Sequence[Concealment]:
        """The cards ``action`` (legal for ``player`` now) moves out of sight of some seats.

        The table's promise of secrecy rests on it: no seat may know the card of a concealed slot
        (it was revealed, or shown to that seat) unless it is among ``seen_by`` — else a card
        put face down could be traced to what that seat saw of it in the hand. A game keeps the
        promise by re-masking a hand (:meth:`CardState.remask`) once someone else has seen one of
        its cards and before its owner may conceal one; the conformance check holds every legal
        action to it. The default, for games whose actions never hide a card: none.
        """
        return ()

    # -- encodings -----------------------------------------------------------------------------

    @abstractmethod
    def encode_action(self, action: Any) -> Any:
        """The canonical wire value of ``action``."""

    @abstractmethod
    def decode_action(self, data: Any) -> Any:
        """Rebuild an action from :meth:`encode_action` output; raises :class:`MalformedAction`."""

    @abstractmethod
    def encode_state(self, state: S) -> Any:
        """The canonical value of the public state: everything that affects the game."""

    @abstractmethod
    def decode_state(self, data: Any) -> S:
        """Rebuild a state from :meth:`encode_state` output."""

    def state_hash(self, state: S) -> bytes:
        """SHA-256 of the canonical encoding of the public state."""
        return hashlib.sha256(canonical.encode(self.encode_state(state))).digest()

    # -- what is legal, and how random play picks -------------------------------------------

    def allows(self, state: S, player: int, action: Any, knowledge: Knowledge) -> bool:
        """Whether ``action`` is one of ``player``'s legal actions now. The default: it is in
        :meth:`legal_actions`. A game whose :meth:`legal_actions` lists only some of a step's
        actions (too many to list: a submarine built from a pool) says here which others are
        legal too; :meth:`check_action` must refuse every one it doesn't allow."""
        return action in self.legal_actions(state, player, knowledge)

    def playout_choice(
        self, state: S, player: int, actions: Sequence[Any], knowledge: Knowledge, random: DeterministicRandom
    ) -> Any:
        """How random play (conformance playthroughs, benchmarks, random bots) picks an action.

        Uniform over ``actions`` (the legal ones) by default. A game whose uniformly random play
        would practically never end may bias the choice, but must return one of ``actions``.
        """
        return actions[random.below(len(actions))]


def _step_name(step: Step) -> str:
    return {
        Turn: "a turn",
        Simultaneous: "simultaneous choices",
        Sealed: "sealed choices",
        Unseal: "the opening of sealed choices",
        ReactionWindow: "a reaction window",
        Chance: "a random draw",
        CardOperations: "card operations",
        GameOver: "the end of the game",
    }[type(step)]
