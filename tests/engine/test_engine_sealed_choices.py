"""Sealed choices in the engine: a Sealed step answered by ChoicesSealed (no values), an Unseal
step some steps later answered by SimultaneousActs with the opened actions, each checked then.
The local table keeps the choices in between; the conformance check plays through them."""

import pytest

from p2pgames.engine import (
    Act,
    ChanceOutcome,
    ChoicesSealed,
    EngineError,
    EventMismatch,
    IllegalAction,
    LocalTable,
    Sealed,
    SimultaneousActs,
    Turn,
    Unseal,
)
from p2pgames.engine.conformance import ConformanceError, play_random_game

from tests.engine.sealed_game import GAME, PRESENTATION, Guess, Say, SealedGuess, SealedGuessPresentation


def _ruleset(players=3):
    return GAME.ruleset(players)


class FirstChoice:
    def choose(self, game, state, player, knowledge, step):
        return game.legal_actions(state, player, knowledge)[0]


def test_a_sealed_step_is_answered_by_choices_sealed_which_carries_no_values():
    state = GAME.setup(_ruleset())
    assert GAME.step(state) == Sealed((0, 1, 2), "guess the roll")
    after = GAME.apply(state, ChoicesSealed())
    assert GAME.step(after) == Turn((0,), "say something")
    assert after.guesses == [0, 0, 0] and GAME.step(state) == Sealed((0, 1, 2), "guess the roll")
    assert GAME.apply_unchecked(state.copy(), ChoicesSealed()).phase == "talk"


def test_choices_sealed_or_opened_at_another_step_do_not_answer_it():
    state = GAME.setup(_ruleset())
    with pytest.raises(EventMismatch, match="simultaneous choices arrived during sealed choices"):
        GAME.apply(state, SimultaneousActs(((0, Guess(1)), (1, Guess(1)), (2, Guess(1)))))
    talk = GAME.apply(state, ChoicesSealed())
    with pytest.raises(EventMismatch, match="sealed choices arrived during a turn"):
        GAME.apply(talk, ChoicesSealed())


def _at_unseal():
    state = GAME.apply(GAME.setup(_ruleset()), ChoicesSealed())
    for seat in range(3):
        state = GAME.apply(state, Act(seat, Say("hi")))
    state = GAME.apply(state, ChanceOutcome(bytes(32)))
    assert GAME.step(state) == Unseal((0, 1, 2), "the guesses")
    return state


def test_the_unseal_step_takes_the_opened_actions_and_checks_each_then():
    state = _at_unseal()
    roll = state.rolls[-1]
    other = 1 if roll != 1 else 2
    opened = GAME.apply(state, SimultaneousActs(((0, Guess(other)), (1, Guess(roll)), (2, Guess(other)))))
    assert opened.points == [0, 1, 0] and opened.guesses == [other, roll, other]
    # An illegal sealed choice is its chooser's fault when it is opened.
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, SimultaneousActs(((0, Guess(1)), (1, Guess(7)), (2, Guess(1)))))
    assert caught.value.player == 1
    with pytest.raises(EventMismatch, match="expected"):
        GAME.apply(state, SimultaneousActs(((0, Guess(1)), (1, Guess(1)))))


def test_the_local_table_keeps_the_sealed_choices_and_opens_them_at_the_unseal_step():
    table = LocalTable(GAME, _ruleset(), b"seal")
    table.seal([(2, Guess(3)), (0, Guess(1)), (1, Guess(2))])
    assert table.sealed == ((0, Guess(1)), (1, Guess(2)), (2, Guess(3)))
    assert table.state.guesses == [0, 0, 0] and table.log == [ChoicesSealed()]
    for seat in range(3):
        table.act(seat, Say("ho"))
    # The roll and the opening are automatic: the table settles them and waits for the next seal.
    assert table.sealed is None
    assert table.log[-1] == SimultaneousActs(((0, Guess(1)), (1, Guess(2)), (2, Guess(3))))
    assert table.state.guesses == [1, 2, 3] and table.step() == Sealed((0, 1, 2), "guess the roll")


def test_the_local_table_refuses_to_seal_outside_a_sealed_step_and_a_game_that_seals_twice():
    table = LocalTable(GAME, _ruleset(), b"seal")
    table.seal([(seat, Guess(1)) for seat in range(3)])
    with pytest.raises(EngineError, match="only at a Sealed step"):
        table.seal([(seat, Guess(1)) for seat in range(3)])

    class SealsTwice(SealedGuess):
        def apply_sealed(self, state):
            pass  # stays at the Sealed step: seals again before opening

    twice = LocalTable(SealsTwice(), _ruleset(), b"seal")
    twice.seal([(seat, Guess(1)) for seat in range(3)])
    with pytest.raises(EngineError, match="sealed choices again before opening"):
        twice.seal([(seat, Guess(1)) for seat in range(3)])


def test_the_local_table_refuses_an_unseal_with_nothing_sealed():
    class OpensFirst(SealedGuess):
        def setup(self, ruleset):
            state = super().setup(ruleset)
            state.phase = "open"
            return state

    with pytest.raises(EngineError, match="none are sealed"):
        LocalTable(OpensFirst(), _ruleset(), b"seal")


def test_play_with_bots_seals_and_opens_and_the_log_replays():
    table = LocalTable(GAME, _ruleset(2), b"bots", record_hashes=True)
    table.play_with([FirstChoice(), FirstChoice()])
    assert table.over and table.state.guesses == [1, 1]
    assert sum(isinstance(event, ChoicesSealed) for event in table.log) == 2
    state = GAME.setup(_ruleset(2))
    hashes = [GAME.state_hash(state)]
    for event in table.log:
        state = GAME.apply(state, event)
        hashes.append(GAME.state_hash(state))
    assert hashes == table.hashes


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_game_with_sealed_choices_conforms(players):
    for n in range(5):
        report = play_random_game(PRESENTATION, _ruleset(players), bytes([players, n]))
        assert report.result is not None


def test_the_conformance_check_catches_a_sealed_choice_refused_when_offered():
    class RefusesGuessesWhileSealing(SealedGuess):
        def check_action(self, state, player, action):
            if state.phase == "seal":
                raise IllegalAction(player, "no guessing yet")
            super().check_action(state, player, action)

    with pytest.raises(ConformanceError, match="legal action Guess"):
        play_random_game(SealedGuessPresentation(RefusesGuessesWhileSealing()), _ruleset(), b"x")


def test_the_conformance_check_catches_a_sealed_choice_refused_when_opened():
    class RefusesGuessesWhenOpening(SealedGuess):
        def check_action(self, state, player, action):
            if state.phase == "open":
                raise IllegalAction(player, "too late")
            super().check_action(state, player, action)

    with pytest.raises(IllegalAction, match="too late"):
        play_random_game(SealedGuessPresentation(RefusesGuessesWhenOpening()), _ruleset(), b"x")
