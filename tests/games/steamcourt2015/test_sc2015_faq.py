"""The draft's FAQ, each answer a test, and the trick and quarter rules it explains (the Alchemist,
the Multiplier, going out, the coup, promotion between two tables).

Five players at the Royal table: alice the Queen, bob the General, carol the Duke, dave the
Alchemist, erin the Tea Boy (``play``: the privileges skipped, the Queen leads).
"""

from __future__ import annotations

import pytest
from sc2015_scenarios import Court2015

from p2pgames.bots import PlayoutBot
from p2pgames.engine import LocalTable, ReactionWindow, RuleViolation, Turn
from p2pgames.games.steamcourt.actions import Lay, Serve
from p2pgames.games.steamcourt2015 import GAME

ALICE, BOB, CAROL, DAVE, ERIN = range(5)


def test_the_tea_boy_and_the_vagabond_keep_their_special_cards():
    # "Do I have to give away my Masterstroke, Multiplier, 3/9, 6/12 cards? No."
    court = Court2015(5, [["1"], ["2"], ["3"], ["4"], ["MS", "X", "6/12", "3/9", "9", "10", "2"]])
    court.pass_privileges_until(ERIN)
    (serve,) = court.legal(ERIN)
    assert court.faces(serve.slots) == ["9", "10"]


def test_a_tea_boy_who_keeps_a_higher_numbered_card_is_named_at_the_quarters_audit():
    court = Court2015(5, [["1"], ["2"], ["3"], ["4"], ["12", "11", "2", "3"]])
    court.pass_privileges_until(ERIN)
    cheat = Serve(court.slots(ERIN, ["2", "3"]), ALICE)  # his lowest: accepted now, a claim
    court.act(ERIN, cheat)
    court.do(ERIN, "keep")
    with pytest.raises(RuleViolation) as caught:
        LocalTable.play_with(court, [PlayoutBot(b"on")] * 5)
    assert caught.value.player == ERIN and "two highest numbered cards" in str(caught.value)


def test_the_general_may_stop_a_putsch_and_its_player_may_lay_it_again():
    # "Can the General stop a player from playing a Masterstroke card? ... that player could
    # still lay his Masterstroke card the next time around."
    court = Court2015(5, [["2", "1"], ["3", "9"], ["5", "MS"], ["1"], ["1"]], play=True)
    court.do(ALICE, "lay 2")
    court.do(BOB, "lay 3")
    court.do(CAROL, "lay Putsch")
    assert isinstance(court.step(), ReactionWindow) and court.texts(BOB) == ["stop carol", "pass"]
    court.do(BOB, "stop carol")
    assert "MS" in court.hand(CAROL)
    court.passes(DAVE, ERIN, ALICE)
    court.do(BOB, "pass")
    court.do(CAROL, "lay Putsch")  # round again: no pass was forced on her
    assert court.state.tricks[CAROL] == 1


def test_two_cards_and_a_multiplier_beat_three_fives():
    # "Can I lay two cards with a Multiplier card? Yes. If a player started the trick with three
    # 5s, you could lay two 7s and a Multiplier."
    court = Court2015(5, [["5", "5", "5", "1"], ["7", "7", "X"], ["1"], ["1"], ["1"]], play=True)
    court.do(ALICE, "lay 5 5 5")
    court.do(BOB, "lay 7 7 +X3")
    assert court.table.lays[-1][2:4] == [7, 3]


def test_a_multiplier_alone_is_a_single_one():
    court = Court2015(5, [["X", "2"], ["1"], ["1"], ["1"], ["1"]], play=True)
    # "It can also be played by itself, but it will equal a single 1 card."
    court.do(ALICE, "lay X")
    assert court.table.lays[-1][2:4] == [1, 1]


def test_the_alchemist_lowers_a_numbered_card_by_exactly_two():
    # "He may lower the value of any of his numbered cards by exactly two digits."
    court = Court2015(5, [["2", "1"], ["1"], ["1"], ["5", "4"], ["1"]], play=True)
    court.do(ALICE, "lay 2")
    court.passes(BOB, CAROL)
    assert "lay 5 as 3" in court.texts(DAVE) and "lay 5 as 4" not in court.texts(DAVE)
    # Laid face down as a 4, the card is judged when revealed: a rule-violation naming him.
    with pytest.raises(RuleViolation, match="can't count as 4") as caught:
        court.act(DAVE, Lay((court.slot(DAVE, "5"),), 4, 1))
    assert caught.value.player == DAVE


def test_when_nobody_beats_the_last_card_the_player_to_the_left_of_the_one_out_leads():
    # "If a player plays his last card and no one else can play on that trick, the player to his
    # left starts the next trick, and everyone is back in the game who had passed."
    court = Court2015(5, [["12"], ["3", "4"], ["1"], ["1"], ["1"]], play=True)
    court.do(ALICE, "lay 12")
    court.passes(BOB, CAROL, DAVE, ERIN)
    assert court.table.out == [ALICE] and court.state.gears[ALICE] == [5]  # the highest token
    assert court.step() == Turn((BOB,), "lead a trick")


def test_a_coup_moves_its_player_to_the_queens_seat_and_deals_again_for_no_points():
    # "If you are dealt three Masterstroke cards, you can pull a coup ... The cards are reshuffled,
    # dealt, and then the Quarter restarts."  FAQ: no bonus points (I18).
    court = Court2015(5, [["1"], ["2"], ["MS", "MS", "MS"], ["3"], ["4"]], coup=True)
    court.do(BOB, "pass")
    court.do(CAROL, "coup")
    assert court.table.seats == [CAROL, ALICE, BOB, DAVE, ERIN]
    assert court.state.quarter == 1 and court.state.start == [1, 2, 3, 4, 5]


def test_three_players_have_two_putsch_cards_so_no_coup():
    from p2pgames.games.steamcourt.cards import FACE
    from p2pgames.games.steamcourt2015.book import deck_for

    assert sum(FACE[name] == "MS" for name in deck_for(3)) == 2


def test_two_tables_promote_the_renegades_first_two_out_and_banish_the_royals_last_two():
    # "the player who goes out first at the Renegade Table ... would reseat as the Alchemist, the
    # second lowest character at the Royal Table. The player who goes out last at the Royal
    # Table ... would reseat as the Inspector, the Renegade Table's second highest character."
    table = LocalTable(GAME, GAME.ruleset(10), b"promotion")
    bots = [PlayoutBot(b"promote")] * 10
    table.play_with(bots, until=lambda t: t.state.quarter == 1 and all(tb.phase == "done" for tb in t.state.tables))
    royal_out, renegade_out = (tb.out[:] for tb in table.state.tables)
    table.play_with(bots, until=lambda t: t.state.quarter == 2)
    royal, renegades = table.state.tables
    assert royal.character_of(renegade_out[0]) == "alchemist"
    assert royal.character_of(renegade_out[1]) == "teaboy"
    assert renegades.character_of(royal_out[-1]) == "inspector"
    assert renegades.character_of(royal_out[-2]) == "submariner"


def test_a_one_can_be_followed_by_the_duke_though_the_faq_calls_it_impossible():
    # "It is impossible to play a 1 card(s) unless you lead the trick" — advice, true of everyone
    # but the Duke, who may match a 1 (I23). A lone Multiplier is a 1, and can't beat one.
    court = Court2015(5, [["1", "4"], ["X", "5"], ["1", "6"], ["7"], ["8"]], play=True)
    court.do(ALICE, "lay 1")
    assert "lay X" not in court.texts(BOB)
    court.passes(BOB)
    assert "lay 1" in court.texts(CAROL)
    court.do(CAROL, "lay 1")


def test_a_multiplier_goes_with_a_3_9_played_as_either_number():
    # "A Multiplier card (X) can be played with one or more of the same numbered card(s)"; the FAQ
    # calls the 3/9 a special card, not a "numbered" one, when the Tea Boy serves (I26): played,
    # it is the number its player names, and a Multiplier multiplies it.
    hands = [["3/9", "X", "1"], ["5", "5", "10", "10"], ["4", "2"], ["7", "1"], ["8", "1"]]
    court = Court2015(5, hands, play=True)
    assert {"lay 3/9 +X2 as 3", "lay 3/9 +X2 as 9"} <= set(court.texts(ALICE))
    court.do(ALICE, "lay 3/9 +X2 as 9")
    assert court.texts(BOB) == ["lay 10 10", "pass"], "two 9s are beaten by two 10s, not by two 5s"
    court = Court2015(5, hands, play=True)
    court.do(ALICE, "lay 3/9 +X2 as 3")
    assert court.texts(BOB) == ["lay 5 5", "lay 10 10", "pass"], "two 3s are beaten by two 5s too"
