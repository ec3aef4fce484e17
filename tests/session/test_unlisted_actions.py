"""A step whose actions are too many to list: ``legal_actions`` lists some, ``Game.allows`` says
which others are legal, and the session takes those (a submarine built from a pool of tiles)."""

from __future__ import annotations

import pytest

from p2pgames.engine import Simultaneous
from p2pgames.games._probe import PlayCard, Probe
from p2pgames.session import LocalError
from switchboard import Switchboard


class ListsOnlyTheFirstCard(Probe):
    def legal_actions(self, state, player, knowledge):
        actions = super().legal_actions(state, player, knowledge)
        return actions[:1] if state.phase == "play" else actions

    def allows(self, state, player, action, knowledge):
        return state.phase == "play" and isinstance(action, PlayCard) and action.slot in state.hands[player]


def test_an_action_the_game_allows_but_does_not_list_is_taken():
    game = ListsOnlyTheFirstCard()
    board = Switchboard("probe", 3, loader=lambda name: game)
    human = board.sessions[1]
    board.run(until=lambda: human.decision() is not None and isinstance(human.decision().step, Simultaneous))
    listed = human.decision().actions
    unlisted = next(PlayCard(slot) for slot in human.replica.state.hands[1] if PlayCard(slot) not in listed)
    human.act(unlisted)  # committed like any choice, and opened with the others
    board.run(until=lambda: human.replica.state.played)
    assert [1, unlisted.slot] in human.replica.state.played
    assert all(session.fault is None for session in board.sessions)


def test_an_action_the_game_neither_lists_nor_allows_is_refused():
    game = ListsOnlyTheFirstCard()
    board = Switchboard("probe", 3, loader=lambda name: game)
    human = board.sessions[1]
    board.run(until=lambda: human.decision() is not None and isinstance(human.decision().step, Simultaneous))
    elsewhere = next(slot for slot in human.replica.state.hands[2])  # another seat's card
    with pytest.raises(LocalError, match="is not in your hand"):
        human.act(PlayCard(elsewhere))
