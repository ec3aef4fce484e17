"""Going out, gear tokens, the end of a quarter, reseating, four quarters and the final score,
and the coup (rulebook: "Winning the Trick", "End of Quarter", "Tokens", "Starting a New
Quarter", "End of 4th Quarter", "Explanation of Cards", FAQ)."""

from collections import Counter

import pytest

from p2pgames.bots import PlayoutBot
from p2pgames.engine import (
    Act,
    Audit,
    CardOperations,
    CardsDone,
    GameOver,
    IllegalAction,
    ReactionWindow,
    Reveal,
    RuleViolation,
    Turn,
)
from p2pgames.games.steamcourt import GAME
from p2pgames.games.steamcourt.presentation import PRESENTATION
from p2pgames.games.steamcourt.actions import Coup, Lay

from steamcourt_scenarios import NAMES, Court

ALICE, BOB, CAROL = 0, 1, 2


def test_going_out_takes_the_highest_token_and_play_goes_on():
    # Queen alice, Duke bob, Tea Boy carol.
    table = Court(3, [["5"], ["3", "4"], ["6", "7"]], play=True)
    table.do(ALICE, "lay 5")
    assert table.table.out == [ALICE] and table.state.gears[ALICE] == [3]
    assert "alice is out of cards (1st) and takes the 3 gear token" in table.lines
    # The trick goes on around the table without her.
    assert table.step() == Turn((BOB,), "match or beat 1 × 5, or pass")
    table.do(BOB, "pass")
    assert table.texts(CAROL) == ["lay 6", "lay 7", "pass"]


def test_when_nobody_beats_the_last_card_the_player_to_the_left_of_the_one_out_leads():
    # FAQ: "If a player plays his last card and no one else can play on that trick, the player
    # to his left starts the next trick."
    table = Court(3, [["5"], ["3", "4"], ["6", "7"]], play=True)
    table.do(ALICE, "lay 5")
    table.passes(BOB, CAROL)
    assert table.state.tricks[ALICE] == 1
    assert table.step() == Turn((BOB,), "lead a trick")
    assert "alice has no cards: bob leads" in table.lines


def test_the_last_player_with_cards_takes_the_1_point_token_and_the_quarter_ends():
    table = Court(3, [["5"], ["3", "4"], ["6", "7"]], play=True)
    table.do(ALICE, "lay 5")
    table.passes(BOB, CAROL)
    table.do(BOB, "lay 3")
    table.do(CAROL, "lay 6")
    table.do(BOB, "pass")
    table.do(CAROL, "lay 7")
    # carol is out second: only bob holds cards. He takes the 1-point token; the quarter ends.
    assert [note[1] for note in table.notes if note[0] == "out"] == [ALICE, CAROL, BOB]
    assert table.state.gears == [[3], [1], [2]]
    # Quarter 1's 1-point token carries the Unpass power (I8).
    assert table.state.powers[BOB] == [["unpass", False]]
    assert "bob's 1-point token: Unpass (once, later)" in table.lines
    # The quarter's deal is audited, then forgotten; players reseat by going-out order.
    assert table.state.quarter == 2
    cards = table.state.cards
    assert 0 not in cards.deals and 0 not in cards.audited and cards.next_deal > 1
    assert table.table.seats == [ALICE, CAROL, BOB]
    assert table.table.characters == ["queen", "duke", "teaboy"]
    assert "new seats: alice Queen, carol Duke, bob Tea Boy" in table.lines
    assert table.state.totals() == [1 + 3, 3 + 1, 6 + 2]  # start tokens Queen 1, Duke 3, Tea Boy 6


def test_the_end_of_a_quarter_asks_for_the_audit_of_all_its_deals():
    table = Court(3, [["5"], ["3", "4"], ["6", "7"]], play=True)
    table.do(ALICE, "lay 5")
    table.passes(BOB, CAROL)
    table.do(BOB, "lay 3")
    table.do(CAROL, "lay 6")
    table.do(BOB, "pass")
    seven = table.slot(CAROL, "7")
    before = table.game.apply(table.state, Act(CAROL, Lay((seven,), 7, 1)))
    assert table.game.step(before) == CardOperations((Reveal((seven,)),))
    after = table.game.apply(before, CardsDone(((seven, table.name(seven)),)))
    assert after.phase == "auditing"
    assert table.game.step(after) == CardOperations((Audit((0,)),))


def full_game(players, seed, scoring="gears"):
    table = Court(players, trim=False, seed=seed, scoring=scoring)
    table.play_with([PlayoutBot(seed)] * players)
    return table


def test_four_quarters_then_start_token_plus_four_gear_tokens_wins():
    table = full_game(4, b"four")
    step = table.step()
    assert isinstance(step, GameOver)
    assert [note[1] for note in table.notes if note[0] == "quarter"] == [1, 2, 3, 4]
    # Each quarter hands out the tokens 1–4 once each, in going-out order.
    outs = [note for note in table.notes if note[0] == "out"]
    assert [note[2] for note in outs] == [4, 3, 2, 1] * 4
    scores = [table.state.start[p] + sum(table.state.gears[p]) for p in range(4)]
    assert all(len(gears) == 4 for gears in table.state.gears)
    assert step.scores == tuple(scores)
    assert step.winners[0] in [p for p in range(4) if scores[p] == max(scores)]
    # The 1-point tokens' powers: Unpass in quarters 1 and 3, Discard two in 2 and 4 (I8).
    assert [note[2] for note in table.notes if note[0] == "one-point"] == [
        "unpass", "discard", "unpass", "discard"
    ]
    assert Counter(kind for powers in table.state.powers for kind, _ in powers) == {
        "unpass": 2, "discard": 2
    }


def test_each_quarter_players_reseat_in_going_out_order():
    table = full_game(5, b"reseat")
    outs = [note[1] for note in table.notes if note[0] == "out"]
    seats = [note[2] for note in table.notes if note[0] == "quarter-end"]
    for quarter in range(4):
        assert seats[quarter] == tuple(outs[5 * quarter: 5 * quarter + 5])


def test_a_tie_is_won_by_the_tied_player_who_went_out_first_in_the_fourth_quarter():
    state = GAME.setup(GAME.ruleset(3))
    state.phase = "over"
    state.start = [1, 2, 3]
    state.gears = [[3, 3, 3, 1], [2, 2, 2, 2], [1, 1, 1, 3]]
    state.tables[0].out = [CAROL, ALICE, BOB]  # the 4th quarter's going-out order
    result = GAME.step(state)
    assert result.scores == (11, 10, 9)
    state.gears = [[3, 3, 3, 1], [3, 2, 2, 2], [1, 1, 1, 3]]
    result = GAME.step(state)
    assert result.scores == (11, 11, 9) and result.winners == (ALICE,)
    assert result.summary == "11 points, tied; first out in the 4th quarter breaks the tie"


# -- the coup ----------------------------------------------------------------------------------


def test_three_masterstrokes_seize_the_queens_seat_and_the_quarter_restarts():
    table = Court(
        3, [["1", "1"], ["MS", "MS", "MS", "2"], ["3", "4"]], coup=True,
        later=[([["5"], ["6"], ["7"]], [])],
    )
    assert table.step() == ReactionWindow((BOB, CAROL), "pull a coup with three Masterstrokes?")
    assert table.texts(BOB) == ["coup", "pass"] and table.texts(CAROL) == ["pass"]
    table.do(BOB, "coup")
    # He moves to the Queen's seat; the Queen moves down one.
    assert table.table.seats == [BOB, ALICE, CAROL]
    assert table.table.characters == ["queen", "duke", "teaboy"]
    # The abandoned deal is audited and forgotten, and the deck is dealt again: same quarter.
    assert 0 not in table.state.cards.deals and table.state.quarter == 1
    assert list(table.state.cards.deals) == [1] and table.state.cards.next_deal == 2
    assert table.lines[-3:] == [
        "bob pulls a coup: revealing three Masterstrokes",
        "bob seizes the Queen's seat; the cards are dealt again",
        "— quarter 1: 21 cards each, 21 in the Court Hand —",
    ]
    assert table.step() == ReactionWindow((ALICE, CAROL), "pull a coup with three Masterstrokes?")
    # FAQ: no bonus points for a coup; start tokens don't change.
    assert table.state.start == [1, 3, 6] and table.state.totals() == [1, 3, 6]


def test_a_coup_from_the_lowest_seat_moves_everyone_down():
    table = Court(3, [["1"], ["2"], ["MS", "MS", "MS"]], coup=True)
    table.do(BOB, "pass")
    table.do(CAROL, "coup")
    assert table.table.seats == [CAROL, ALICE, BOB]


def test_a_coup_claimed_without_three_masterstrokes_is_a_rule_violation():
    table = Court(3, [["1"], ["MS", "MS", "5"], ["3"]], coup=True)
    with pytest.raises(RuleViolation) as caught:
        table.act(BOB, Coup(table.slots(BOB, ["MS", "MS", "5"])))
    assert caught.value.player == BOB
    assert caught.value.reason == "claimed a coup without three Masterstrokes (revealed 5 MS MS)"


def test_the_queen_cannot_pull_a_coup_and_nobody_can_with_cards_they_do_not_hold():
    table = Court(3, [["MS", "MS", "MS"], ["1"], ["2"]], coup=True)
    with pytest.raises(IllegalAction, match="nothing to react to"):
        table.act(ALICE, Coup(table.slots(ALICE, ["MS", "MS", "MS"])))
    with pytest.raises(IllegalAction, match="not in your hand"):
        table.act(BOB, Coup(table.slots(ALICE, ["MS", "MS", "MS"])))


# -- the last player, and the end of the game (issue 7) -------------------------------------------


def lines_of(panels, title):
    return ["".join(text for _, text in line) for panel in panels if panel.title == title for line in panel.lines]


def test_the_player_left_holding_cards_is_last_and_the_audit_shows_his_cards():
    table = Court(3, [["5"], ["3", "4", "9"], ["6", "7"]], play=True)
    table.do(ALICE, "lay 5")
    table.passes(BOB, CAROL)
    table.do(BOB, "lay 3")
    table.do(CAROL, "lay 6")
    table.do(BOB, "pass")
    # carol's last card ends the quarter; the audit hasn't shown bob's cards yet.
    seven = table.slot(CAROL, "7")
    before = GAME.apply(table.state, Act(CAROL, Lay((seven,), 7, 1)))
    after = GAME.apply(before, CardsDone(((seven, table.name(seven)),)))
    assert after.phase == "auditing"
    lines = PRESENTATION.narrate(before, CardsDone(((seven, table.name(seven)),)), after, NAMES[:3])
    assert "bob is left holding 2 cards: last (3rd) and takes the 1 gear token" in lines
    assert not any("bob is out of cards" in line for line in lines)
    # On the table he is last with his 2 cards, not "0 cards out 3rd"; he sees which they are.
    seen_by_alice = lines_of(PRESENTATION.panels(after, ALICE, table.view(ALICE), NAMES[:3]), "The table")
    assert seen_by_alice[1].split()[1:6] == ["Duke", "bob", "2", "cards", "last"]
    assert not any("left holding" in line for line in seen_by_alice)
    seen_by_bob = lines_of(PRESENTATION.panels(after, BOB, table.view(BOB), NAMES[:3]), "The table")
    assert seen_by_bob[-1] == "you were left holding: 4 9"
    # The audit shows them to everyone in the log; the same event deals the next quarter, so the
    # table has his new hand, not those cards (I27).
    table.do(CAROL, "lay 7")
    assert "bob was left holding 4 9" in table.lines
    assert table.lines.index("bob was left holding 4 9") < table.lines.index("quarter 1 ends; points: alice 4, carol 8, bob 4")
    assert table.state.quarter == 2 and table.table.out == []
    seen_by_alice = lines_of(PRESENTATION.panels(table.state, ALICE, table.view(ALICE), NAMES[:3]), "The table")
    assert not any("left holding" in line for line in seen_by_alice)


def test_after_the_4th_quarter_the_1_point_token_is_worth_its_point_and_promises_nothing():
    table = full_game(4, b"four")
    tokens = [line for line in table.lines if "1-point token" in line]
    assert len(tokens) == 4
    assert all(line.endswith(": Unpass (once, later)") or line.endswith(": Discard two numbered cards (once, later)")
               for line in tokens[:3])
    last = next(note[1] for note in table.notes if note[0] == "one-point" and not note[3])
    assert tokens[3] == f"{NAMES[last]}'s 1-point token is worth 1 point (the game is over: its power goes unused)"


def test_the_game_ends_with_the_4th_quarters_table_as_it_was_played():
    table = full_game(4, b"four")
    state = table.state
    assert isinstance(table.step(), GameOver)
    quarter_ends = [note for note in table.notes if note[0] == "quarter-end"]
    # The 4th quarter's seats stay (nobody reseats for a quarter that won't be played); the
    # going-out order is kept, and the last player still holds his cards, now face up.
    assert table.table.seats == list(quarter_ends[2][2])
    # The going-out order kept is the 4th quarter's, as its "out" notes came.
    fourth = table.notes.index(quarter_ends[2]) + 1
    outs = [note[1] for note in table.notes[fourth:] if note[0] == "out"]
    assert table.table.out == outs and len(outs) == 4
    last = table.table.out[-1]
    assert state.hands[last] and all(slot in state.cards.revealed for slot in state.hands[last])
    assert not any(state.hands[player] for player in table.table.out[:-1])
    # The 4th quarter's deal is audited but not forgotten: the final table stays readable.
    fourth = table.table.deals[0]
    assert fourth in state.cards.audited and state.cards.deals[fourth].size == 84
