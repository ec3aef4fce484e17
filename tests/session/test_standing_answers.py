"""A standing answer ("not this quarter"): given once, then answered by the player's own peer,
which tells nobody: the others see the same moves as if the player had answered each time."""

from __future__ import annotations

import pytest

from p2pgames.engine import ReactionWindow, StandingAnswer
from p2pgames.games._probe import Cheer, card_value
from p2pgames.session import LocalError
from p2pgames.session._messages import open_envelope
from switchboard import Switchboard


class NeverCheers:
    """Plays the first legal move, and never cheers (so every cheer window reaches every seat)."""

    def choose(self, game, state, player, knowledge, step):
        options = game.legal_actions(state, player, knowledge)
        return Cheer(False) if isinstance(step, ReactionWindow) else options[0]


class MustNotBeAsked:
    """Plays its lowest card (so it wins no round, and is asked to cheer after each); must never be
    asked to cheer."""

    def choose(self, game, state, player, knowledge, step):
        if isinstance(step, ReactionWindow):
            raise AssertionError("asked to cheer after answering 'never cheer'")
        options = game.legal_actions(state, player, knowledge)
        return min(options, key=lambda action: card_value(knowledge[action.slot]))


def watch_moves(board: Switchboard, seat: int) -> list:
    """The actions ``seat`` sends the host from now on, as the host receives them."""
    moves: list = []

    def watch(sender: int, data: bytes) -> bytes:
        envelope = open_envelope(data)
        if sender == seat and envelope.kind == "submit" and envelope.body["body"]["t"] == "act":
            moves.append(board.game.decode_action(envelope.body["body"]["action"]))
        return data

    board.tamper = watch
    return moves


def test_a_standing_answer_is_given_now_and_then_by_the_players_own_peer():
    # Seeds whose deal gives seat 1 more than one cheer window to answer (most do).
    board = Switchboard("probe", 3, bots=[NeverCheers(), MustNotBeAsked(), NeverCheers()], seed=b"e", presented=True)
    human = board.sessions[1]
    moves = watch_moves(board, 1)
    board.run(until=lambda: human.decision() is not None and isinstance(human.decision().step, ReactionWindow))
    decision = human.decision()
    assert decision.standing == StandingAnswer("never cheer", Cheer(False), "cheer")
    human.stand_by(decision.standing)
    board.run()
    assert all(session.result is not None and session.fault is None for session in board.sessions)
    # What the host received from seat 1 in every cheer window: an ordinary pass, as if it had
    # answered each (the first one it answered itself; the rest its peer sent without asking).
    cheers = [move for move in moves if isinstance(move, Cheer)]
    assert cheers == [Cheer(False)] * len(cheers) and len(cheers) >= 2


def test_only_the_standing_answer_on_offer_is_taken():
    board = Switchboard("probe", 3, bots=[NeverCheers()] * 3)
    human = board.sessions[1]
    with pytest.raises(LocalError, match="that answer is not on offer now"):
        human.stand_by(StandingAnswer("never cheer", Cheer(False), "cheer"))
