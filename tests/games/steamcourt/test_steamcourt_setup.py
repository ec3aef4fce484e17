"""Setup: players and options, start tokens and seats, the deal, gear stacks, the order of the
Beginning of Quarter privileges and the first lead (rulebook: "Game Setup", "Game Play")."""

import pytest

from p2pgames.engine import (
    Chance,
    ChanceOutcome,
    CardOperations,
    GameOver,
    Disclose,
    LocalTable,
    NewDeal,
    ReactionWindow,
    RulesetError,
    Turn,
)
from p2pgames.games import get_game
from p2pgames.games.steamcourt import GAME
from p2pgames.games.steamcourt.bots import make_bot
from p2pgames.games.steamcourt.cards import DECK, RECOMMENDED

from steamcourt_scenarios import Court, seating_seed


def test_game_identity_players_and_the_scoring_option():
    assert get_game("steamcourt") is GAME
    assert (GAME.min_players, GAME.max_players) == (1, 12)
    assert GAME.ruleset(4)["scoring"] == "gears"
    assert GAME.ruleset(6, {"scoring": "clock"})["scoring"] == "clock"
    with pytest.raises(RulesetError, match="Clock Climbing is for 2–6 players"):
        GAME.ruleset(7, {"scoring": "clock"})
    # 8–12 players play the Party variant; one table seats at most 7.
    assert GAME.ruleset(8)["variant"] == "party"
    assert GAME.ruleset(7)["variant"] == "court"
    with pytest.raises(RulesetError, match="at most 7"):
        GAME.ruleset(8, {"variant": "court"})
    with pytest.raises(RulesetError):
        GAME.ruleset(13)
    with pytest.raises(RulesetError):
        GAME.ruleset(4, {"scoring": "points"})


def test_start_tokens_are_drawn_at_random_and_seat_the_players():
    state = GAME.setup(GAME.ruleset(5))
    assert GAME.step(state) == Chance("draw start tokens for seats")
    state = GAME.apply(state, ChanceOutcome(seating_seed((3, 0, 4, 1, 2))))
    table = state.tables[0]
    assert table.seats == [3, 0, 4, 1, 2]
    assert table.characters == list(RECOMMENDED[5])
    # Each token seats its player behind the character card of its number (Queen 1, Duke 3,
    # Time Traveler 4, Jester 5, Tea Boy 6); players keep it for scoring (I2).
    assert state.start == [3, 5, 6, 1, 4]
    assert state.totals() == state.start


@pytest.mark.parametrize(
    "players, tokens",
    [
        (3, [1, 3, 6]),
        (4, [1, 3, 4, 6]),
        (5, [1, 3, 4, 5, 6]),
        (6, [1, 2, 3, 4, 5, 6]),
        (7, [1, 2, 3, 8, 4, 5, 6]),  # the Inspector's seat, fourth, holds 8
    ],
)
def test_start_tokens_are_the_character_cards_printed_numbers(players, tokens):
    seats = tuple(reversed(range(players)))
    state = GAME.apply(GAME.setup(GAME.ruleset(players)), ChanceOutcome(seating_seed(seats)))
    assert [state.start[player] for player in state.tables[0].seats] == tokens
    # The clock order (unscored outside Clock Climbing) is still the seat order (I2, I9).
    assert [state.clock[player] for player in state.tables[0].seats] == list(range(players))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_the_seat_option_numbers_start_tokens_by_seat_position(players):
    seats = tuple(reversed(range(players)))
    state = GAME.apply(GAME.setup(GAME.ruleset(players, {"start_tokens": "seat"})), ChanceOutcome(seating_seed(seats)))
    assert [state.start[player] for player in state.tables[0].seats] == list(range(1, players + 1))
    assert state.totals() == state.start


def test_the_final_score_is_the_printed_start_token_plus_the_gear_tokens():
    table = LocalTable(GAME, GAME.ruleset(3), b"printed tokens score")
    table.play_with([make_bot(bytes([seat])) for seat in range(3)])
    state, over = table.state, GAME.step(table.state)
    assert sorted(state.start) == [1, 3, 6]
    assert isinstance(over, GameOver)
    assert list(over.scores) == [state.start[p] + sum(state.gears[p]) for p in range(3)]
    # The same game by seat positions scores tokens 1–3 instead.
    table = LocalTable(GAME, GAME.ruleset(3, {"start_tokens": "seat"}), b"printed tokens score")
    table.play_with([make_bot(bytes([seat])) for seat in range(3)])
    assert sorted(table.state.start) == [1, 2, 3]
    assert list(GAME.step(table.state).scores) == [table.state.start[p] + sum(table.state.gears[p]) for p in range(3)]


def test_the_start_tokens_option_and_its_errors():
    assert GAME.ruleset(4)["start_tokens"] == "character"
    assert GAME.ruleset(2, {"variant": "duo"})["start_tokens"] == "character"
    assert GAME.ruleset(2, {"scoring": "clock"})["start_tokens"] == "character"
    # Two players at one table: the Queen's 1 against the Tea Boy's 6 would decide the game.
    assert GAME.ruleset(2)["start_tokens"] == "seat"
    with pytest.raises(RulesetError, match="two players at one table would hold the Queen's 1 and the Tea Boy's 6"):
        GAME.ruleset(2, {"start_tokens": "character"})
    with pytest.raises(RulesetError, match="option start_tokens must be one of character, seat, not 'position'"):
        GAME.ruleset(4, {"start_tokens": "position"})
    with pytest.raises(RulesetError, match="start_tokens=seat: the Party variant's are the character numbers"):
        GAME.ruleset(9, {"start_tokens": "seat"})
    with pytest.raises(RulesetError, match="start_tokens=seat: Solo has none"):
        GAME.ruleset(1, {"start_tokens": "seat"})
    with pytest.raises(RulesetError, match="start_tokens=seat: Clock Climbing doesn't score start tokens"):
        GAME.ruleset(4, {"scoring": "clock", "start_tokens": "seat"})
    with pytest.raises(RulesetError, match="not with duo_win=queen"):
        GAME.ruleset(2, {"variant": "duo", "duo_win": "queen", "start_tokens": "seat"})
    assert GAME.describe_ruleset(GAME.ruleset(4, {"start_tokens": "seat"})) == (
        "Steam Court, 4 players at one table (gear tokens; start tokens by seat)"
    )
    assert GAME.describe_ruleset(GAME.ruleset(4)) == "Steam Court, 4 players at one table (gear tokens)"


@pytest.mark.parametrize(
    "players, size, court", [(2, 28, 28), (3, 21, 21), (4, 16, 20), (5, 14, 14), (6, 12, 12), (7, 10, 14)]
)
def test_the_deck_is_dealt_in_equal_hands_plus_the_court_hand_which_takes_the_extras(players, size, court):
    table = LocalTable(GAME, GAME.ruleset(players), b"deal")
    state = table.state
    assert [len(hand) for hand in state.hands] == [size] * players
    assert len(state.tables[0].court) == court
    assert size * players + court == 84


def test_hands_are_shown_to_their_owners_only_and_the_court_hand_to_nobody():
    state = GAME.apply(GAME.setup(GAME.ruleset(3)), ChanceOutcome(seating_seed((0, 1, 2))))
    operations = GAME.step(state)
    assert isinstance(operations, CardOperations)
    deal, *disclosures = operations.operations
    assert deal == NewDeal(0, DECK, 0)
    assert disclosures == [
        Disclose(tuple(range(0, 21)), 0),
        Disclose(tuple(range(21, 42)), 1),
        Disclose(tuple(range(42, 63)), 2),
    ]
    assert state.tables[0].court == list(range(63, 84))


def test_four_stacks_of_gear_tokens_one_per_quarter_highest_on_top():
    table = Court(5)
    assert table.table.stacks == [[1, 2, 3, 4, 5]] * 4
    clock = Court(5, scoring="clock")
    assert clock.table.stacks == []


def test_after_the_deal_anyone_but_the_queen_may_pull_a_coup():
    table = Court(4, coup=True)
    assert table.step() == ReactionWindow((1, 2, 3), "pull a coup with three Masterstrokes?")
    assert table.texts(1) == ["pass"]  # no three Masterstrokes: nothing to decide
    assert table.legal(0) == []


def test_privileges_in_seat_order_then_the_queen_leads_the_first_trick():
    # Six players: Queen, General, Duke, Time Traveler, Jester, Tea Boy.
    table = Court(6, [["5"], ["6"], ["7"], ["8"], ["9"], ["12", "10"]])
    assert table.step() == Turn((0,), "give one card to another player, or pass")
    table.do(0, "pass")
    assert table.step() == Turn((1,), "give one card to another player, or pass")
    table.do(1, "pass")
    # The Duke, Time Traveler and Jester have no Beginning of Quarter privilege.
    assert table.step() == Turn((5,), "give your two highest numbered cards")
    table.do(5, "give 10 12 to alice")
    assert table.step() == Turn((5,), "trade your hand for the Court Hand, or keep it")
    table.do(5, "keep")
    assert table.step() == Turn((0,), "lead a trick")
    assert table.hand(0) == ["5", "10", "12"]


def test_two_players_are_the_queen_and_the_tea_boy():
    table = Court(2, [["3"], ["12", "11", "4"]])
    assert table.table.characters == ["queen", "teaboy"]
    table.do(0, "pass")
    assert table.texts(1) == ["give 11 12 to alice"]


def test_a_ruleset_is_described_by_the_options_that_matter():
    assert GAME.describe_ruleset(GAME.ruleset(4)) == "Steam Court, 4 players at one table (gear tokens)"
    assert GAME.describe_ruleset(GAME.ruleset(5, {"scoring": "clock"})) == "Steam Court, 5 players at one table (Clock Climbing)"
    assert GAME.describe_ruleset(GAME.ruleset(9)) == "Steam Court, 9 players: the Party variant (Royal and Renegade tables)"
    assert GAME.describe_ruleset(GAME.ruleset(11, {"removed": "pirate"})) == (
        "Steam Court, 11 players: the Party variant (Royal and Renegade tables, without the Pirate)"
    )
    assert GAME.describe_ruleset(GAME.ruleset(2, {"variant": "duo", "duo_win": "queen"})) == (
        "Steam Court, 2 players: the Duo variant (goal: the Queen's seat)"
    )
    assert GAME.describe_ruleset(GAME.ruleset(1)) == "Steam Court, 1 player: the Solo variant against the Court Hand"
