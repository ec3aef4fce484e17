"""Ending a round, scoring, and ending the game (rulebook: "Ending the round", "Scoring",
"Ending the game")."""

import pytest

from p2pgames.engine import Act, Audit, CardOperations, CardsDone, GameOver, NewDeal, Simultaneous
from p2pgames.games.beltpunk import GAME
from p2pgames.games.beltpunk.actions import Declare, Skip

from beltpunk_scenarios import StackedTable, score, short_round, stacked_deck

ALICE, BOB, CAROL = range(3)


def test_round_score_is_set_points_minus_one_per_scrap_card():
    table = StackedTable(
        3,
        [stacked_deck(3, [["S1", "S5", "G5"], ["G2"], ["P3"]], ["S9", "S10", "S11"])],
        first_foreman=ALICE,
    )
    table.discard({ALICE: "S1", BOB: "G2", CAROL: "P3"})
    table.act(ALICE, Skip())  # the Steam conveyor overflows: 4 cards into Alice's scrap pile
    table.act(BOB, Skip())
    table.act(CAROL, Skip())
    table.act(ALICE, Declare(True))
    table.act(BOB, Declare(False))
    # Empty the deck (as if drawn): the round ends with this turn.
    table.state.deck = []
    table.act(CAROL, Declare(False))
    table.act_simultaneous([(ALICE, score(table, ["S5", "G5"]))])
    # Alice: Goggles 3, scrap 4 + the 5 cards left in her hand. Bob and Carol: 7 cards in hand.
    assert ("round-end", "the deck is empty", ((3, 9), (0, 7), (0, 7))) in table.notes
    assert table.state.totals == [-6, -7, -7]


def test_the_round_is_audited_then_forgotten_and_a_fresh_round_begins():
    table = short_round()
    state = table.state
    # The Foreman card kept passing: round 2's first turn is the game's third.
    assert state.round == 2 and state.turn == 3 and state.foreman == 2
    assert 0 not in state.cards.deals and 0 not in state.cards.audited and state.cards.next_deal == 2
    assert not any(slot < 52 for slot in state.cards.revealed)
    assert state.deal == 1 and all(slot >= 52 for hand in state.hands for slot in hand)
    assert [len(hand) for hand in state.hands] == [7, 7, 7, 7]
    assert sum(len(conveyor) for conveyor in state.conveyors) == 4
    assert state.scrap == [[], [], [], []] and state.sets == [[], [], [], []]
    assert state.totals == [10, -6, -6, -6]


def test_the_round_end_asks_for_the_audit_of_its_deal_then_deals_again():
    table = StackedTable(2, [stacked_deck(2, [], [])], first_foreman=ALICE)
    table.discard({seat: table.hand(seat)[0] for seat in range(2)})
    table.act(table.state.actor, Skip())
    table.act(table.state.actor, Skip())
    table.act(ALICE, Declare(False))
    table.state.deck = []  # as if drawn: the round ends with this turn
    state = GAME.apply(table.state, Act(BOB, Declare(False)))
    assert state.phase == "auditing"
    assert GAME.step(state) == CardOperations((Audit((0,)),))
    # Every card of the round becomes public at the audit; then the next round's deal is queued.
    values = tuple(
        (slot, table.truth[slot]) for slot in range(52) if slot not in state.cards.revealed
    )
    state = GAME.apply(state, CardsDone(values))
    assert isinstance(GAME.step(state).operations[0], NewDeal) and state.round == 2


def test_game_ends_at_the_end_of_a_round_once_someone_reaches_25():
    table = short_round(totals=(15, 0, 0, 0))
    step = table.step()
    assert isinstance(step, GameOver)
    assert step.scores == (25, -6, -6, -6) and step.winners == (0,)
    assert step.summary == "25 points after 1 round"
    assert "  alice: sets 10 − scrap 0 = +10, total 25" in table.lines


def test_with_target_35_the_game_goes_on_at_25():
    table = short_round(target=35, totals=(15, 0, 0, 0))
    assert isinstance(table.step(), Simultaneous) and table.state.round == 2
    table = short_round(target=35, totals=(25, 0, 0, 0))
    assert table.step().scores == (35, -6, -6, -6)


def test_the_most_points_wins_even_if_someone_else_reached_the_target():
    table = short_round(totals=(15, 40, 0, 0))
    step = table.step()
    assert step.scores == (25, 34, -6, -6) and step.winners == (1,)


def test_a_tie_for_the_most_points_shares_the_win():
    table = short_round(totals=(15, 31, 0, 0))
    step = table.step()
    assert step.scores == (25, 25, -6, -6) and step.winners == (0, 1)
    assert step.summary == "25 points each after 1 round"


@pytest.mark.parametrize("totals", [(14, 0, 0, 0), (0, 24, 30, 0)])
def test_below_the_target_a_new_round_starts(totals):
    table = short_round(totals=totals)
    assert not table.over and table.state.round == 2


def test_at_game_over_the_last_rounds_table_stays_as_it_ended():
    table = short_round(totals=(15, 0, 0, 0))
    state = table.state
    assert table.over and state.phase == "over"
    # Alice's two sets, everyone's scrap (the others' hands) and The Machine, as the round ended.
    assert [[table.names(slots) for slots in sets] for sets in state.sets] == [
        [["S1", "S2", "S3"], ["G5", "G6", "G7"]], [], [], []
    ]
    assert [len(pile) for pile in state.scrap] == [0, 6, 6, 6]
    assert [table.conveyor(suit) for suit in range(4)] == [
        ["S10", "S13"], ["G10", "G12", "G13"], ["P12", "P1", "P2", "P3"], ["E5", "E1", "E2"]
    ]
    # Audited and kept: every card of the last round is public, and the state hashes it.
    assert state.cards.audited == {0} and state.cards.deals[0].size == 52
    assert all(state.cards.revealed[slot] == table.truth[slot] for slot in range(52))
    again = GAME.decode_state(GAME.encode_state(state))
    assert GAME.state_hash(again) == GAME.state_hash(state) and again.sets == state.sets
