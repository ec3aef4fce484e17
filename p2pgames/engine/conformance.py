"""The generic conformance check every game must pass, at every size it is played at
(``tests/engine/test_conformance_every_game.py``).

:func:`check_game` plays random legal games to the end on a :class:`LocalTable` and checks, at
every step, the properties the platform relies on:

* every decision step offers its actor(s) at least one legal action, and the game ends (random
  choices follow the game's :meth:`Game.playout_choice`, uniform unless the game biases it);
* every legal action offered is accepted by :meth:`Game.apply` (none raises; in a simultaneous or
  sealed step, by :meth:`Game.check_action`; a sealed choice is opened by the table at the game's
  :class:`Unseal` step and checked again there by ``apply``), has a description
  that is unique among the actions offered (ignoring case and spacing), and round-trips through its wire encoding, its
  ``repr`` and its typed form (:meth:`Presentation.parse_action` of the description gives it back);
* no legal action puts out of a seat's sight a card that seat knows (:meth:`Game.concealed_moves`:
  a card it saw face up, or was shown, must not be traceable by its slot once face down);
* the choices' groups (:meth:`Presentation.group_choices`) hold every action offered exactly once, and a
  standing answer (:meth:`Presentation.standing_answer`) answers with one of them;
* nothing the player may type begins with one of the :data:`RESERVED_WORDS` a player's interface
  keeps for its own commands — no action's description, standing answer, composer command or
  information command — and neither the game's parser, its composer nor :meth:`Presentation.explain`
  takes a reserved word alone for one of its own; a composer is checked as the player first meets
  it and after each command it offers there, applied once;
* ``apply`` never changes the state it was given;
* every state round-trips through its canonical encoding with an unchanged hash;
* replaying the recorded log from the same ruleset reproduces every state hash, and narrating it
  (the public lines, each seat's private ones, the round's label and each card's text, for a
  replay) raises nothing, and neither do the panels: the public ones and each seat's, each viewer
  in turn at every (N + 1)th state of an N-seat game, and every viewer's at its end.

Failures raise :class:`ConformanceError` describing the seed, the event number and what broke, so a
failing run can be reproduced exactly.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from p2pgames import canonical
from p2pgames.engine._errors import IllegalAction, MalformedAction
from p2pgames.engine._game import RESERVED_WORDS, Game, Ruleset, normalize_typed
from p2pgames.engine._presentation import Composer, Presentation
from p2pgames.engine._random import DeterministicRandom
from p2pgames.engine._steps import (
    Act,
    GameOver,
    ReactionWindow,
    Sealed,
    Simultaneous,
    SimultaneousActs,
    Turn,
)
from p2pgames.engine._table import LocalTable

__all__ = ["ConformanceError", "PlaythroughReport", "check_game", "play_random_game"]


class ConformanceError(AssertionError):
    """A game broke a property of the engine contract."""


@dataclass
class PlaythroughReport:
    seed: bytes
    events: int
    decisions: int
    hashes: list[bytes] = field(default_factory=list)
    result: GameOver | None = None


def _fail(seed: bytes, event_number: int, message: str) -> ConformanceError:
    return ConformanceError(f"seed {seed.hex()} at event {event_number}: {message}")


def _check_action_roundtrip(game: Game, action: Any, seed: bytes, n: int) -> None:
    wire = game.encode_action(action)
    try:
        again = game.decode_action(canonical.decode(canonical.encode(wire)))
    except Exception as error:
        raise _fail(seed, n, f"action {action!r} does not round-trip its encoding: {error!r}") from error
    if again != action:
        raise _fail(seed, n, f"action {action!r} decodes as {again!r}")
    namespace = vars(sys.modules[type(action).__module__])
    try:
        from_repr = eval(repr(action), dict(namespace))  # noqa: S307 - our own reprs, in a test
    except Exception as error:
        raise _fail(seed, n, f"repr {action!r} does not read back: {error!r}") from error
    if from_repr != action:
        raise _fail(seed, n, f"repr {action!r} reads back as {from_repr!r}")


def play_random_game(
    shown: Presentation,
    ruleset: Ruleset,
    seed: bytes,
    *,
    exhaustive: bool = True,
    max_events: int = 200_000,
) -> PlaythroughReport:
    """Play one random legal game, checking the contract at every step (see module docstring).

    The game is ``shown``'s rules: the rules and their presentation are checked together. With
    ``exhaustive`` every offered action is tried on a copy; otherwise only the ones chosen.
    """
    game = shown.rules.for_ruleset(ruleset)
    shown = shown.for_ruleset(ruleset)
    if shown.rules is not game:
        raise ConformanceError(f"{shown!r} does not present the rules of {ruleset.describe()}: {game!r}")
    table = LocalTable(game, ruleset, seed, record_hashes=True)
    chooser = DeterministicRandom(b"conformance-choices\x00" + seed)
    report = PlaythroughReport(seed=seed, events=0, decisions=0)
    while True:
        n = len(table.log)
        if n > max_events:
            raise _fail(seed, n, f"game did not end within {max_events} events")
        state = table.state
        step = game.step(state)
        _check_state_roundtrip(game, state, seed, n)
        if isinstance(step, GameOver):
            if table.sealed is not None:
                raise _fail(seed, n, "the game ended with sealed choices that were never opened")
            report.result = step
            break
        report.decisions += 1
        before_hash = table.hashes[-1]  # (the table hashed this state as it made it)
        if isinstance(step, (Simultaneous, Sealed)):
            choices = []
            for player in step.players:
                options = _offered(shown, table, player, seed, n, exhaustive)
                choices.append((player, game.playout_choice(state, player, options, table.view(player), chooser)))
            if isinstance(step, Sealed):
                table.seal(choices)  # opened by the table at the game's Unseal step
            else:
                table.act_simultaneous(choices)
        elif isinstance(step, (Turn, ReactionWindow)):
            actors = step.actors if isinstance(step, Turn) else step.players
            movers = [p for p in actors if game.legal_actions(state, p, table.view(p))]
            if not movers:
                raise _fail(seed, n, f"none of seats {actors} has a legal action in {step!r}")
            player = movers[chooser.below(len(movers))]
            options = _offered(shown, table, player, seed, n, exhaustive)
            table.act(player, game.playout_choice(state, player, options, table.view(player), chooser))
        else:
            raise _fail(seed, n, f"table stopped on an automatic step {step!r}")
        if game.state_hash(state) != before_hash:
            raise _fail(seed, n, "apply changed the state it was given")

    # Replay the log independently from the ruleset; every hash must match the live run's.
    names = [f"seat {i}" for i in range(ruleset.players)]
    state = game.setup(ruleset)
    hashes = [game.state_hash(state)]
    viewers = [None, *range(ruleset.players)]
    for event in table.log:
        after = game.apply(state, event)
        shown.narrate(state, event, after, names)
        for viewer in range(ruleset.players):  # (with what the seat saw by the end: never raises)
            shown.narrate_private(state, event, after, viewer, table.view(viewer), names)
        # Each viewer's panels (the public one's too) at every (N + 1)th event in turn, and
        # everyone's at the end: a game's panels are most of a replay's cost, and in turn each
        # viewer still sees hundreds of a game's states.
        last = len(hashes) == len(table.log)
        for viewer in viewers if last else [viewers[(len(hashes) - 1) % len(viewers)]]:
            shown.panels(after, viewer, {} if viewer is None else table.view(viewer), names)
        label = shown.round_label(after)  # (a replay steps by it)
        if label is not None and not (isinstance(label, str) and label):
            raise _fail(seed, len(hashes) - 1, f"round_label gave {label!r}, neither None nor a name")
        for name in table.view(0).values():
            if not shown.card_text(after, name):
                raise _fail(seed, len(hashes) - 1, f"card_text of {name!r} is empty")
        state = after
        hashes.append(game.state_hash(state))
    if hashes != table.hashes:
        first = next(i for i, (a, b) in enumerate(zip(hashes, table.hashes or [])) if a != b)
        raise _fail(seed, first, "a replay of the log gave a different state hash")
    report.events = len(table.log)
    report.hashes = hashes
    return report


def _offered(
    shown: Presentation, table: LocalTable, player: int, seed: bytes, n: int, exhaustive: bool
) -> Sequence[Any]:
    game = shown.rules
    state = table.state
    knowledge = table.view(player)
    options = list(game.legal_actions(state, player, knowledge))
    if not options:
        raise _fail(seed, n, f"seat {player} must act but has no legal action")
    names = [f"seat{i}" for i in range(table.ruleset.players)]
    texts = [shown.describe_action(state, player, action, knowledge, names) for action in options]
    typed = [normalize_typed(text) for text in texts]  # as a person types them: any case, any spacing
    if len(set(typed)) != len(typed):
        duplicates = sorted({t for t in texts if typed.count(normalize_typed(t)) > 1})
        raise _fail(seed, n, f"two legal actions share a description: {duplicates}")
    standing = shown.standing_answer(state, player, knowledge)
    if standing is not None and standing.action not in options:
        raise _fail(seed, n, f"seat {player}'s standing answer {standing!r} is not a legal action")
    for action in options:
        _check_action_roundtrip(game, action, seed, n)
    # The default parser finds a description among the legal actions': nothing to check.
    if type(shown).parse_action is not Presentation.parse_action:
        for action, text in zip(options, texts):
            _check_typed_roundtrip(shown, state, player, action, text, knowledge, names, seed, n)
    _check_groups(shown, state, player, options, texts, seed, n)
    for action, text in zip(options, texts):
        _check_concealment(game, table, player, action, text, seed, n)
    _check_reserved_words(shown, state, player, texts, knowledge, names, seed, n)
    if exhaustive:
        step = game.step(state)
        for action in options:
            try:
                if isinstance(step, (Simultaneous, Sealed)):
                    game.check_action(state, player, action)
                else:
                    game.apply(state, Act(player, action))
            except Exception as error:
                raise _fail(seed, n, f"legal action {action!r} of seat {player} raised {error!r}") from error
    return options


def _check_concealment(
    game: Game, table: LocalTable, player: int, action: Any, text: str, seed: bytes, n: int
) -> None:
    # A card put out of a seat's sight must not be one that seat knows (public, or shown to it):
    # it could follow the card by its slot where, at a table, it couldn't tell the hand's cards apart.
    state = table.state
    for concealed in game.concealed_moves(state, player, action):
        slot = concealed.slot
        public = state.cards.value(slot)
        for seat in range(table.ruleset.players):
            if seat == player or seat in concealed.seen_by:
                continue
            known = public if public is not None else table.view(seat).get(slot)
            if known is not None:
                how = "everyone saw it" if public is not None else f"seat {seat} was shown it"
                raise _fail(
                    seed, n,
                    f"seat {player}'s {text!r} puts slot {slot} out of seat {seat}'s sight, yet that seat "
                    f"can tell it is {known} ({how}): the hand should have been re-masked first",
                )


def _check_typed_roundtrip(
    shown: Presentation, state: Any, player: int, action: Any, text: str, knowledge: Any, names: Sequence[str],
    seed: bytes, n: int,
) -> None:
    # Typed as a person would: other case, extra spaces.
    for typed in (text, f"  {text.upper()} ".replace(" ", "  ")):
        try:
            parsed = shown.parse_action(state, player, typed, knowledge, names)
        except Exception as error:
            raise _fail(seed, n, f"{typed!r}, seat {player}'s legal action {action!r}, does not parse: {error!r}") from error
        if parsed != action:
            raise _fail(seed, n, f"{typed!r} parses as {parsed!r}, not as the legal action {action!r}")


def _check_reserved_words(
    shown: Presentation, state: Any, player: int, texts: Sequence[str], knowledge: Any, names: Sequence[str],
    seed: bytes, n: int,
) -> None:
    standing = shown.standing_answer(state, player, knowledge)
    typed = [*texts, *([standing.label] if standing is not None else []), *(name for name, _ in shown.info_commands)]
    readers: list[tuple[str, Callable[[str], Any]]] = [
        ("parse_action", lambda text: shown.parse_action(state, player, text, knowledge, names))
    ]
    for reader, composer in _composers(shown.composer(state, player, knowledge)):
        typed += composer.commands()
        readers.append((reader, composer.apply))
    for text in typed:
        first = normalize_typed(text).partition(" ")[0]
        if first in RESERVED_WORDS:
            raise _fail(seed, n, f"seat {player} is offered {text!r}, which begins with the reserved word {first!r}")
    for word in sorted(RESERVED_WORDS):
        for reader, read in readers:
            try:
                read(word)
            except MalformedAction:
                continue
            except Exception as error:
                raise _fail(seed, n, f"{reader} knows the reserved word {word!r}: {error!r}") from error
            raise _fail(seed, n, f"{reader} reads the reserved word {word!r} as one of its own")
        if shown.explain(state, player, word, names) is not None:
            raise _fail(seed, n, f"explain answers the reserved word {word!r}")


def _composers(composer: Composer | None) -> list[tuple[str, Composer]]:
    """The decision's composer as the player first meets it, then as each command it offers leaves
    it (a command it refuses now leaves none), each with its name in a failure."""
    if composer is None:
        return []
    found = [("the composer", composer)]
    for command in composer.commands():
        try:
            found.append((f"the composer after {command!r}", composer.apply(command)))
        except IllegalAction:
            continue
    return found


def _check_groups(
    shown: Presentation, state: Any, player: int, options: Sequence[Any], texts: Sequence[str], seed: bytes, n: int
) -> None:
    members = sorted(index for group in shown.group_choices(state, player, options, texts) for index in group.members)
    if members != list(range(len(options))):
        raise _fail(seed, n, f"the choice groups of seat {player} don't hold each of its {len(options)} actions once")


def _check_state_roundtrip(game: Game, state: Any, seed: bytes, n: int) -> None:
    encoded = canonical.encode(game.encode_state(state))
    rebuilt = game.decode_state(canonical.decode(encoded))
    if canonical.encode(game.encode_state(rebuilt)) != encoded:
        raise _fail(seed, n, "state does not round-trip through its canonical encoding")


def check_game(
    shown: Presentation, ruleset: Ruleset, seeds: Sequence[bytes], *, exhaustive: bool = True
) -> list[PlaythroughReport]:
    """Run :func:`play_random_game` for each seed; raises :class:`ConformanceError` on the first failure."""
    return [play_random_game(shown, ruleset, seed, exhaustive=exhaustive) for seed in seeds]
