"""The 2015 rules' bot: the Queen's gift, the Plague Doctor's draw, the auction's bids, whole games."""

from __future__ import annotations

import pytest
from sc2015_scenarios import Court2015

from p2pgames.engine import LocalTable, Turn
from p2pgames.games.steamcourt.actions import Bestow, Pass
from p2pgames.games.steamcourt2015 import GAME
from p2pgames.games.steamcourt2015.bots import character_worth, make_bot
from p2pgames.games.steamcourt2015.rules import Bid

ALICE, ERIN = 0, 4


def choose(table: LocalTable, seat: int):
    step = table.step()
    assert isinstance(step, Turn) and seat in step.actors
    return make_bot(b"test").choose(table.game, table.state, seat, table.view(seat), step)


def test_the_queen_gives_away_her_two_worst_cards_never_a_putsch_or_a_multiplier():
    court = Court2015(5, [["1", "2", "12", "12", "MS", "X"], ["5"], ["6"], ["7"], ["8"]])
    move = choose(court, ALICE)
    assert type(move) is Bestow and move.to == ERIN
    assert court.faces(move.slots) == ["1", "2"]


def test_the_plague_doctor_declines_the_draw():
    court = Court2015(5, [["1"], ["2"], ["3"], ["4"], ["5"]], options={"table": "renegade"})
    court.pass_privileges_until(2)
    assert choose(court, 2) == Pass()


def test_the_auction_bids_up_to_what_the_character_is_worth():
    assert character_worth("queen", 10) > character_worth("vagabond", 10) == 0
    table = LocalTable(GAME, GAME.ruleset(10, {"characters": "auction"}), b"bids")
    table.settle()
    worth = character_worth("queen", 10)
    assert choose(table, table.state.bidder) == Bid(0)  # opened at the least
    table.act(table.state.bidder, Bid(worth - 1))
    assert choose(table, table.state.bidder) == Bid(worth)  # outbids by one, up to her worth
    table.act(table.state.bidder, Bid(worth))
    assert choose(table, table.state.bidder) == Pass()  # no more than she is worth


@pytest.mark.parametrize("players, options", [(3, {}), (6, {"characters": "auction"}), (9, {}), (5, {"variation": "party"})])
def test_bots_play_whole_games(players, options):
    table = LocalTable(GAME, GAME.ruleset(players, options), b"bot-games")
    table.play_with([make_bot(bytes([seat])) for seat in range(players)])
    assert table.state.phase == "over"
