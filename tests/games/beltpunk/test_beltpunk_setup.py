"""Setup and the start of a round (rulebook: "Setup", "Turn Structure" 1)."""

import pytest

from p2pgames.engine import (
    CardOperations,
    Chance,
    ChanceOutcome,
    DeterministicRandom,
    Disclose,
    NewDeal,
    Reveal,
    Simultaneous,
)
from p2pgames.games.beltpunk import GAME
from p2pgames.games.beltpunk.cards import DECK, HAND_SIZE

from beltpunk_scenarios import StackedTable, stacked_deck


def test_game_identity_and_target_option():
    assert GAME.name == "beltpunk" and GAME.title == "Beltpunk Haberdasher"
    assert (GAME.min_players, GAME.max_players) == (2, 4)
    assert GAME.ruleset(3)["target"] == 25
    assert GAME.ruleset(3, {"target": 35})["target"] == 35
    with pytest.raises(Exception, match="target"):
        GAME.ruleset(3, {"target": 30})


@pytest.mark.parametrize("players", [2, 3, 4])
def test_first_foreman_is_a_fair_random_pick(players):
    state = GAME.setup(GAME.ruleset(players))
    assert isinstance(GAME.step(state), Chance)
    for n in range(12):
        seed = bytes([n]) * 32
        after = GAME.apply(state, ChanceOutcome(seed))
        assert after.foreman == DeterministicRandom(seed).below(players)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_hands_by_player_count_are_disclosed_to_their_owners_only(players):
    state = GAME.apply(GAME.setup(GAME.ruleset(players)), ChanceOutcome(bytes(32)))
    step = GAME.step(state)
    assert isinstance(step, CardOperations)
    deal, *rest = step.operations
    assert isinstance(deal, NewDeal) and deal.cards == DECK
    size = HAND_SIZE[players]
    assert size == {2: 8, 3: 7, 4: 6}[players]
    for seat in range(players):
        assert state.hands[seat][:size] == list(range(seat * size, (seat + 1) * size))
        assert Disclose(tuple(range(seat * size, (seat + 1) * size)), seat) in rest


@pytest.mark.parametrize("players", [2, 3, 4])
def test_as_many_cards_as_players_go_face_up_into_the_machine(players):
    hands = [[] for _ in range(players)]
    machine = ["G7", "P5", "P10", "E2"][:players]
    table = StackedTable(players, [stacked_deck(players, hands, machine)])
    state = table.state
    dealt = players * HAND_SIZE[players]
    # The cards right after the hands are revealed to everyone and sorted into conveyors by suit.
    assert all(slot in state.cards.revealed for slot in range(dealt, dealt + players))
    by_suit = [[name for name in machine if name[0] == suit] for suit in "SGPE"]
    assert [table.conveyor(suit) for suit in range(4)] == by_suit
    # The deck is what is left after the first turn's draws, nothing in it is public.
    assert len(state.deck) == 52 - dealt - players - players
    assert not any(slot in state.cards.revealed for slot in state.deck)


def test_first_turn_starts_with_the_foreman_drawing_first():
    deck = ["S1", "G2", "P3"]
    table = StackedTable(3, [stacked_deck(3, [], [], deck)], first_foreman=1)
    assert table.state.foreman == 1 and table.state.turn == 1
    # Foreman (seat 1) draws the top card, then seat 2, then seat 0: clockwise.
    assert table.name(table.state.hands[1][-1]) == "S1"
    assert table.name(table.state.hands[2][-1]) == "G2"
    assert table.name(table.state.hands[0][-1]) == "P3"
    assert table.view(1)[table.slot("S1")] == "S1" and table.slot("S1") not in table.view(0)
    assert all(len(hand) == 8 for hand in table.state.hands)
    assert isinstance(table.step(), Simultaneous)


def test_the_opening_operations_are_one_step():
    state = GAME.apply(GAME.setup(GAME.ruleset(2)), ChanceOutcome(bytes(32)))
    operations = GAME.step(state).operations
    kinds = [type(operation) for operation in operations]
    # Deal, two hands, The Machine's two cards, then the first turn's two draws.
    assert kinds == [NewDeal, Disclose, Disclose, Reveal, Disclose, Disclose]
