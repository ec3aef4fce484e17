"""The 2015 powers used in play — the Submariner's dive, the Pirate's take-back — and the end of a
quarter and of the game (tokens, scores, the Party variation's winner).

At the Renegade table of five: alice the Submariner, bob the Inspector, carol the Plague Doctor,
dave the Pirate, erin the Vagabond; ``play`` skips the privileges, so the Submariner leads.
"""

from __future__ import annotations

import pytest
from sc2015_scenarios import Court2015

from p2pgames.bots import PlayoutBot
from p2pgames.engine import IllegalAction, LocalTable
from p2pgames.games.steamcourt.actions import Dive, KeepRest, PutBack, Retrieve
from p2pgames.games.steamcourt2015 import GAME

ALICE, BOB, CAROL, DAVE, ERIN = range(5)


def renegades(hands) -> Court2015:
    return Court2015(5, hands, options={"table": "renegade"}, play=True)


def test_the_submariner_dives_into_the_discard_pile_only_and_keeps_at_most_half():
    # "reveal a numbered card from his hand, shuffle the discard pile, and then dive in and pull
    # out that many cards. He may keep up to half of those cards."  Half of 2 is 1 (I8).
    court = renegades([["2", "7", "9"], ["12", "5"], ["1"], ["1"], ["1"]])
    court.do(ALICE, "lay 7")
    court.do(BOB, "lay 12")
    court.passes(CAROL, DAVE, ERIN, ALICE, BOB)  # bob wins; the discard pile holds the 7 and the 12
    assert len(court.table.discard) == 2
    court.do(BOB, "lay 5")
    court.passes(CAROL, DAVE, ERIN)
    dives = [move for move in court.legal(ALICE) if type(move) is Dive]
    assert dives and {move.pile for move in dives} == {"discard"}
    with pytest.raises(IllegalAction, match="doesn't dive into the Court Hand"):
        court.game.check_action(court.state, ALICE, Dive("court", court.slot(ALICE, "2")))
    court.act(ALICE, Dive("discard", court.slot(ALICE, "2")))
    assert court.hand(ALICE) == ["2", "7", "9", "12"]  # the 2 shown and kept, both discards drawn
    assert KeepRest() not in court.legal(ALICE)
    with pytest.raises(IllegalAction, match="put back 1 more drawn card first"):
        court.game.check_action(court.state, ALICE, KeepRest())
    court.act(ALICE, PutBack(court.slot(ALICE, "7")))
    # One kept (half of two): he may keep it, or put it back too.
    assert KeepRest() in court.legal(ALICE)
    court.act(ALICE, KeepRest())
    assert court.hand(ALICE) == ["2", "9", "12"] and court.table.phase == "turn" and court.table.turn == ALICE


def test_the_pirate_takes_back_every_card_he_played_in_a_trick_he_lost():
    # "Once during the Quarter, after losing a trick, the Pirate's Engineer may steal back the
    # cards he played during that trick and put them back into his hand."
    court = renegades([["3", "1"], ["4", "1"], ["1"], ["6", "9", "1"], ["8", "11", "1"]])
    court.do(ALICE, "lay 3")
    court.do(BOB, "lay 4")
    court.passes(CAROL)
    court.do(DAVE, "lay 6")
    court.do(ERIN, "lay 8")
    court.passes(ALICE, BOB)
    court.do(DAVE, "lay 9")
    court.do(ERIN, "lay 11")
    court.passes(DAVE, ERIN)
    assert court.table.phase == "retrieve" and court.actor() == DAVE
    court.act(DAVE, Retrieve())
    assert court.hand(DAVE) == ["1", "6", "9"]
    assert court.table.turn == ERIN  # erin won the trick all the same, and leads


def test_the_pirate_is_not_asked_after_a_trick_he_won():
    court = renegades([["3", "1"], ["1"], ["1"], ["6", "1"], ["1"]])
    court.do(ALICE, "lay 3")
    court.passes(BOB, CAROL)
    court.do(DAVE, "lay 6")
    court.passes(ERIN, ALICE, DAVE)
    assert court.table.phase == "turn" and court.table.turn == DAVE
    with pytest.raises(IllegalAction):
        court.game.check_action(court.state, DAVE, Retrieve())


def played_out(players: int, seed: bytes, **options: str) -> LocalTable:
    table = LocalTable(GAME, GAME.ruleset(players, options), seed)
    table.play_with([PlayoutBot(seed)] * players)
    return table


@pytest.mark.parametrize("players", [5, 10])
def test_a_score_is_the_five_tokens_and_the_last_token_has_no_power(players):
    # "At the end of the 4th Quarter, players add up the five gear tokens they collected."
    table = played_out(players, b"scores")
    state = table.state
    assert state.phase == "over"
    assert all(len(gears) == 4 for gears in state.gears)
    assert all(powers == [] for powers in state.powers)
    assert state.totals() == [state.start[p] + sum(state.gears[p]) for p in range(players)]
    assert sorted(state.start) == list(range(1, players + 1))
    # "That player takes the last (lowest) gear token": the table's lowest, 1 at the Renegade
    # table (or the only one), above the Renegades' at the Royal table.
    for index, table_state in enumerate(state.tables):
        lowest = players - len(table_state.seats) + 1 if index == 0 and len(state.tables) == 2 else 1
        assert state.gears[table_state.out[-1]][-1] == lowest


@pytest.mark.parametrize("players", [5, 9])
def test_the_party_variations_winner_is_the_first_out_at_the_royal_table_in_the_fourth_quarter(players):
    table = played_out(players, b"party", variation="party")
    state = table.state
    result = table.game.step(state)
    assert result.winners == (state.tables[0].out[0],)
    assert sorted(state.totals()) == list(range(1, players + 1))  # a standing, not points


def test_the_party_variations_standing_at_one_table_puts_the_winner_first():
    table = played_out(4, b"one-party-table", variation="party")
    state = table.state
    result = table.game.step(state)
    (winner,) = result.winners
    assert state.tables[0].seats[0] == winner and result.scores[winner] == max(result.scores) == 4


def test_a_dukes_match_nobody_beats_takes_the_trick():
    # "The Duke's Engineer need only match the previously laid card/set"; "Whoever plays the
    # highest card(s) wins the trick" (I25): his match is the lay to beat, as the Sample Game's
    # Queen beats the Duke's three 3s; unbeaten, it wins.
    court = Court2015(5, [["4", "1"], ["5", "1"], ["4", "2"], ["7", "1"], ["8", "1"]], play=True)
    court.do(ALICE, "lay 4")
    court.passes(BOB)
    court.do(CAROL, "lay 4")
    court.do(BOB, "pass")  # the General does not stop it
    court.passes(DAVE, ERIN, ALICE, CAROL)
    assert court.story().endswith("carol wins the trick")
