"""The Duo variant (rulebook: "2 Players (Duo Variant)"); RULES.md, Duo, and interpretations
I48–I50."""

import pytest

from p2pgames.bots import PlayoutBot
from p2pgames.engine import (
    CardOperations,
    ChanceOutcome,
    Disclose,
    GameOver,
    NewDeal,
    RulesetError,
    Turn,
)
from p2pgames.engine.conformance import play_random_game
from p2pgames.games.steamcourt import GAME
from p2pgames.games.steamcourt.cards import KIND, NUMBER, NUMBERED
from p2pgames.games.steamcourt.duo import DUO_DECK, LADDER, characters
from p2pgames.games.steamcourt.presentation import PRESENTATION

from steamcourt_scenarios import Court, seating_seed

ALICE, BOB = 0, 1


class Duo(Court):
    """A Duo table: :class:`Court`'s helpers with the Duo deck (24 cards each, 24 to the Court
    Hand) and ruleset."""

    deck = DUO_DECK

    def __init__(self, hands=(), court=(), *, win="points", seed=b"duo", tokens="character", **rest):
        options = {"variant": "duo", "duo_win": win, "start_tokens": tokens}
        super().__init__(2, hands, court, options=options, seed=seed, **rest)


def test_the_duo_variant_is_for_exactly_two_players_and_chosen_with_its_win_condition():
    ruleset = GAME.ruleset(2, {"variant": "duo"})
    assert ruleset["duo_win"] == "points"
    assert GAME.ruleset(2, {"variant": "duo", "duo_win": "queen"})["duo_win"] == "queen"
    # Two players play the core game unless the Duo variant is asked for (I1).
    assert GAME.ruleset(2)["variant"] == "court"
    for players in (1, 3):
        with pytest.raises(RulesetError, match="Duo variant is for exactly 2 players"):
            GAME.ruleset(players, {"variant": "duo"})
    with pytest.raises(RulesetError, match="Clock Climbing"):
        GAME.ruleset(2, {"variant": "duo", "scoring": "clock"})
    with pytest.raises(RulesetError, match="duo_win is an option of the Duo variant"):
        GAME.ruleset(2, {"duo_win": "queen"})


def test_the_1s_and_2s_are_removed_before_dealing_24_cards_each_and_24_to_the_court_hand():
    assert len(DUO_DECK) == 72
    assert not any(KIND[name] == NUMBERED and NUMBER[name] <= 2 for name in DUO_DECK)
    state = GAME.apply(GAME.setup(GAME.ruleset(2, {"variant": "duo"})), ChanceOutcome(seating_seed((0, 1))))
    assert GAME.step(state) == CardOperations((
        NewDeal(0, DUO_DECK, 0), Disclose(tuple(range(24)), 0), Disclose(tuple(range(24, 48)), 1),
    ))
    assert state.tables[0].court == list(range(48, 72))
    assert "— quarter 1: 24 cards each, 24 in the Court Hand —" in Duo().lines


@pytest.mark.parametrize("seats", [(ALICE, BOB), (BOB, ALICE)])
def test_start_tokens_seat_the_players_as_the_plague_doctor_and_the_tea_boy(seats):
    table = Duo(seats=seats)
    # The Plague Doctor is the preeminent seat: the ladder's new rung ranks higher (I48).
    assert table.table.characters == ["plaguedoctor", "teaboy"]
    assert table.table.seats == list(seats)
    # The printed tokens: the Plague Doctor's 11 and the Tea Boy's 6 (they only seat: I2, I49).
    assert table.state.start[seats[0]] == 11 and table.state.start[seats[1]] == 6
    names = ("alice", "bob")
    assert table.lines[0] == f"start tokens: 11 {names[seats[0]]} (Plague Doctor), 6 {names[seats[1]]} (Tea Boy)"
    by_seat = Duo(seats=seats, tokens="seat")
    assert by_seat.state.start[seats[0]] == 1 and by_seat.state.start[seats[1]] == 2
    assert by_seat.lines[0] == f"start tokens: 1 {names[seats[0]]} (Plague Doctor), 2 {names[seats[1]]} (Tea Boy)"


def test_the_tea_boy_serves_the_plague_doctor_who_then_leads_the_first_trick():
    table = Duo([["5"], ["3", "11", "12"]])
    assert table.step() == Turn((BOB,), "give your two highest numbered cards")
    assert table.texts(BOB) == ["give 11 12 to alice"]
    table.do(BOB, "give 11 12 to alice")
    assert table.texts(BOB) == ["trade", "keep"]
    table.do(BOB, "keep")
    assert table.step() == Turn((ALICE,), "lead a trick")
    assert table.hand(ALICE) == ["5", "11", "12"]


def test_a_coup_in_duo_seizes_the_preeminent_seat():
    table = Duo([["5"], ["MS", "MS", "MS"]], coup=True, later=[([["5"], ["6"]], [])])
    table.do(BOB, "coup")
    assert table.table.seats == [BOB, ALICE]
    assert table.table.characters == ["plaguedoctor", "teaboy"]
    assert table.state.quarter == 1


def test_the_duo_characters_climb_the_ladder_one_rung_a_quarter():
    assert LADDER == ("teaboy", "plaguedoctor", "alchemist", "duke", "general", "queen")
    assert [characters(q) for q in (1, 2, 3, 4)] == [
        ("plaguedoctor", "teaboy"), ("alchemist", "plaguedoctor"), ("duke", "alchemist"), ("general", "duke"),
    ]


def test_the_first_player_out_takes_the_next_character_and_the_other_the_lower_one():
    # bob, the Tea Boy, goes out first: he climbs to the Alchemist; alice keeps the Plague Doctor.
    table = Duo([["3", "4"], ["9"]], seats=(ALICE, BOB), play=True)
    table.do(ALICE, "lay 3")
    table.do(BOB, "lay 9")
    assert table.state.quarter == 2
    assert table.table.seats == [BOB, ALICE]
    assert table.table.characters == ["alchemist", "plaguedoctor"]
    assert "new seats: bob Alchemist, alice Plague Doctor" in table.lines
    # Two players: the first out takes the 2 gear token, the other the 1-point token and its power.
    assert table.state.gears == [[1], [2]]
    assert table.state.powers[ALICE] == [["unpass", False]]


@pytest.mark.parametrize("tokens", ["character", "seat"])
def test_four_quarters_climb_to_the_general_and_score_the_gear_tokens(tokens):
    table = Duo(trim=False, seed=b"duo-full", tokens=tokens)
    table.play_with([PlayoutBot(b"duo-full")] * 2)
    result = table.step()
    assert isinstance(result, GameOver)
    seats = [note[2] for note in table.notes if note[0] == "quarter-end"]
    outs = [note[1] for note in table.notes if note[0] == "out"]
    # Each quarter the first out holds the new (preeminent) character the next quarter.
    for quarter in range(3):
        assert seats[quarter][0] == outs[2 * quarter]
    assert table.table.characters == ["general", "duke"]
    # The printed start tokens (11, 6) only seat; by seat position, tokens 1 and 2 count too (I49).
    scored = [1, 2] if tokens == "seat" else [0, 0]
    assert sorted(table.state.start) == ([1, 2] if tokens == "seat" else [6, 11])
    totals = [(table.state.start[p] if tokens == "seat" else 0) + sum(table.state.gears[p]) for p in (ALICE, BOB)]
    assert result.scores == tuple(totals) and sum(totals) == sum(scored) + 4 * (2 + 1)
    assert result.summary.endswith("points after four quarters") or "tied" in result.summary


def test_the_queen_win_goes_to_the_first_player_out_in_the_fourth_quarter():
    table = Duo(trim=False, seed=b"duo-full", win="queen")
    table.play_with([PlayoutBot(b"duo-full")] * 2)
    result = table.step()
    first = table.state.going_out_order()[0]
    # The first out climbs to the Queen (rung 6); the other to the General (rung 5) (I50).
    assert result.winners == (first,)
    assert result.scores[first] == 6 and result.scores[1 - first] == 5
    assert result.summary == "Engineer to the Queen: first out in the 4th quarter"


def test_the_points_win_breaks_a_tie_by_the_first_out_in_the_fourth_quarter():
    # The printed tokens only seat: the gear tokens alone score, and tie at 6 each (I49).
    state = GAME.setup(GAME.ruleset(2, {"variant": "duo"}))
    state.phase, state.start, state.tables[0].out = "over", [11, 6], [ALICE, BOB]
    state.gears = [[2, 1, 2, 2], [1, 2, 1, 1]]
    assert GAME.step(state).scores == (7, 5) and GAME.step(state).winners == (ALICE,)
    state.gears = [[1, 2, 1, 2], [2, 1, 2, 1]]
    assert GAME.step(state).scores == (6, 6) and GAME.step(state).winners == (ALICE,)
    state.tables[0].out = [BOB, ALICE]
    state.gears = [[2, 1, 2, 1], [1, 2, 1, 2]]
    assert GAME.step(state).scores == (6, 6) and GAME.step(state).winners == (BOB,)
    # By seat position the tokens 1 and 2 count.
    state = GAME.setup(GAME.ruleset(2, {"variant": "duo", "start_tokens": "seat"}))
    state.phase, state.start, state.tables[0].out = "over", [1, 2], [ALICE, BOB]
    state.gears = [[2, 1, 2, 2], [1, 2, 1, 1]]
    assert GAME.step(state).scores == (8, 7) and GAME.step(state).winners == (ALICE,)
    state.gears = [[1, 1, 2, 2], [2, 2, 1, 1]]
    assert GAME.step(state).scores == (7, 8) and GAME.step(state).winners == (BOB,)
    state.gears = [[2, 1, 2, 2], [1, 2, 1, 2]]
    assert GAME.step(state).scores == (8, 8) and GAME.step(state).winners == (ALICE,)


def test_the_duo_panels_show_the_ladder_and_the_goal():
    table = Duo([["5"], ["3", "11", "12"]], win="queen")
    panels = PRESENTATION.panels(table.state, ALICE, table.view(ALICE), ["alice", "bob"])
    ladder = next(panel for panel in panels if panel.title == "The Duo ladder")
    text = ["".join(t for _, t in line) for line in ladder.lines]
    assert text == [
        "now: Tea Boy (bob), Plague Doctor (alice)",
        "· first out climbs to the Alchemist",
        "goal: Engineer to the Queen (go out first in the 4th quarter)",
    ]
    assert all(len("".join(t for _, t in line)) <= 78 for panel in panels for line in panel.lines)


@pytest.mark.parametrize("win, seed", [("points", b"duo-1"), ("points", b"duo-2"), ("queen", b"duo-3")])
def test_random_duo_games_conform(win, seed):
    report = play_random_game(PRESENTATION, GAME.ruleset(2, {"variant": "duo", "duo_win": win}), seed)
    assert report.result is not None and len(report.result.winners) == 1
