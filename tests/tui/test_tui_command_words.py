"""The terminal's own commands are words no game's moves begin with, so a word at the prompt
means one thing whatever the game (the field report's Steam Torpedo player was told "type end to
end the game" where ``end`` ends a turn).

The terminal's words are among the engine's ``RESERVED_WORDS``; the conformance check, run on
every game (``tests/engine/test_conformance_every_game.py``, and each game's own), refuses a game
that offers, reads or explains one; so a new game can't bring the collision back.
"""

from __future__ import annotations

import pytest

from p2pgames.engine import RESERVED_WORDS, Composer, IllegalAction, MalformedAction, normalize_typed
from p2pgames.engine.conformance import ConformanceError, play_random_game
from p2pgames.games import get_presentation
from p2pgames.games._probe import GAME as PROBE
from p2pgames.games._probe.presentation import ProbePresentation
from p2pgames.tui._commands import _HELP, _QUIT, COMMAND_NAMES, COMMAND_WORDS, COMMANDS, Move, Unknown, interpret


def test_the_terminal_reads_each_reserved_word_as_a_command_and_its_words_are_reserved():
    for word in COMMAND_NAMES:  # the engine's RESERVED_WORDS
        command = interpret(f"{word} x" if word in ("say", "code") else word, ("play 3",))
        assert not isinstance(command, (Move, Unknown)), word
    # The words with one meaning among them, what the completer and the help offer: all reserved.
    assert _HELP | _QUIT <= RESERVED_WORDS
    assert {normalize_typed(word) for word in COMMAND_WORDS} <= COMMAND_NAMES
    assert {normalize_typed(name).partition(" ")[0] for name, _ in COMMANDS} <= COMMAND_NAMES


class _SaysLog(ProbePresentation):
    """The probe game with its moves typed as ``log play S3``: a move beginning with a word the
    terminal keeps for itself."""

    def describe_action(self, state, player, action, knowledge, names):
        return "log " + super().describe_action(state, player, action, knowledge, names)

    def parse_action(self, state, player, text, knowledge, names):
        words = text.split()
        return super().parse_action(state, player, " ".join(words[1:]), knowledge, names)


class _ExplainsHelp(ProbePresentation):
    """The probe game answering ``help`` as an information command of its own."""

    def explain(self, state, viewer, text, names):
        return ["the probe's own help"] if normalize_typed(text) == "help" else None


class _ReadsQuit(ProbePresentation):
    """The probe game reading ``quit`` as a move (refused now, but known)."""

    def parse_action(self, state, player, text, knowledge, names):
        if normalize_typed(text) == "quit":
            raise IllegalAction(player, "you can't quit now")
        return super().parse_action(state, player, text, knowledge, names)


class _Later(Composer):
    """A composer whose first screen offers only ``next``; after it, ``offers`` and a refusal of
    the word ``reads`` (a command it knows)."""

    def __init__(self, offers: tuple[str, ...], reads: str | None, started: bool = False) -> None:
        self.offers, self.reads, self.started = offers, reads, started

    def commands(self):
        return list(self.offers) if self.started else ["next"]

    def apply(self, text):
        if not self.started and normalize_typed(text) == "next":
            return _Later(self.offers, self.reads, True)
        if self.started and normalize_typed(text) == self.reads:
            raise IllegalAction(0, f"you can't {self.reads} now")
        raise MalformedAction(f"{text!r} is no command here")

    def panels(self):
        return []

    def action(self):
        return None


class _ComposesLater(ProbePresentation):
    """The probe game with a composer to play a card that uses a reserved word only after its
    first command."""

    def __init__(self, offers: tuple[str, ...] = (), reads: str | None = None) -> None:
        super().__init__(PROBE)
        self.offers, self.reads = offers, reads

    def composer(self, state, player, knowledge):
        return _Later(self.offers, self.reads) if state.phase == "play" else None


@pytest.mark.parametrize("shown, problem", [
    (_SaysLog(PROBE), "begins with the reserved word 'log'"),
    (_ExplainsHelp(PROBE), "explain answers the reserved word 'help'"),
    (_ReadsQuit(PROBE), "parse_action knows the reserved word 'quit'"),
    (_ComposesLater(offers=("log it",)), "is offered 'log it', which begins with the reserved word 'log'"),
    (_ComposesLater(reads="quit"), "the composer after 'next' knows the reserved word 'quit'"),
])
def test_the_conformance_check_refuses_a_game_that_uses_a_reserved_word(shown, problem):
    with pytest.raises(ConformanceError, match=problem):
        play_random_game(shown, PROBE.ruleset(2), b"reserved", exhaustive=False)


def test_steam_torpedo_ends_a_turn_with_end_which_the_terminal_leaves_to_it():
    torpedo = get_presentation("torpedo")
    assert "end" not in RESERVED_WORDS and "end" not in COMMAND_NAMES
    # In the action phase "end" is the move; anywhere else it is still no command of the terminal.
    assert interpret("end", ("maneuver +1 0", "end")) == Move(1)
    assert isinstance(interpret("end", ("absorb", "assign Bulkhead")), Unknown)
    play_random_game(torpedo, torpedo.rules.ruleset(2, {"build": "starter"}), b"reserved", exhaustive=False)
