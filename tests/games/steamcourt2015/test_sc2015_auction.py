"""The Character Auction variation (rulebook, "Variations"): characters bid for, one at a time, in
negative victory points that count in the final score."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "steamcourt"))
from steamcourt_scenarios import NAMES, seating_seed  # noqa: E402

from p2pgames.bots import PlayoutBot  # noqa: E402
from p2pgames.engine import IllegalAction, LocalTable  # noqa: E402
from p2pgames.games.steamcourt.actions import Pass  # noqa: E402
from p2pgames.games.steamcourt2015 import GAME  # noqa: E402
from p2pgames.games.steamcourt2015.rules import AUCTION, Bid  # noqa: E402


class Auction(LocalTable):
    """Five players, player one (seat 0) bidding first for the Queen; log lines kept."""

    def __init__(self, players: int = 5) -> None:
        self.lines: list[str] = []
        super().__init__(GAME, GAME.ruleset(players, {"characters": "auction"}), b"auction")
        self.settle()

    def _seed(self) -> bytes:
        return seating_seed(tuple(range(self.state.players)))  # the first drawn, seat 0, bids first

    def feed(self, event) -> None:
        before = self.state
        super().feed(event)
        self.lines.extend(self.game.narrate(before, event, self.state, NAMES[: self.state.players]))

    def bids(self, *moves: tuple[int, int | None]) -> None:
        for seat, points in moves:
            assert self.state.bidder == seat, f"seat {self.state.bidder} bids, not {seat}"
            self.act(seat, Pass() if points is None else Bid(points))


def test_the_rulebooks_example():
    # "player one bids -1 point for the Queen character, player 2 bids -3 points, player 3 passes,
    # player 4 passes, player 5 bids -4 points, player one passes, player 2 bids -5 points, players
    # 3 and 4 already passed and cannot re-enter, player 5 passes and the queen character card goes
    # to player 2 for -5 points"
    auction = Auction()
    assert auction.state.phase == AUCTION and auction.state.auctioned()[0] == "queen"
    auction.bids((0, 1), (1, 3), (2, None), (3, None), (4, 4), (0, None), (1, 5), (4, None))
    assert auction.state.holders[1] == "queen" and auction.state.bids[1] == 5
    assert {"alice bids -1", "bob bids -5", "carol passes", "bob takes the Queen for -5 points"} <= set(auction.lines)
    # The next character, the General, among the four without one.
    assert auction.state.auctioned()[auction.state.offered] == "general"
    assert auction.state.bidder == 2  # after the last opener, clockwise (I14)


def test_a_bid_must_outbid_the_standing_bid_and_names_its_bidder():
    auction = Auction()
    auction.bids((0, 2))
    with pytest.raises(IllegalAction, match="outbid the standing 2 points") as caught:
        auction.game.check_action(auction.state, 1, Bid(2))
    assert caught.value.player == 1
    with pytest.raises(IllegalAction, match="not your turn to bid"):
        auction.game.check_action(auction.state, 3, Bid(5))
    assert auction.game.parse_action(auction.state, 1, "bid -3", auction.view(1), NAMES[:5]) == Bid(3)


def test_everyone_gets_a_character_the_last_one_unbid_and_sits_by_it():
    # "The auction continues until all players receive a character card."
    auction = Auction()
    auction.bids((0, 0), (1, None), (2, None), (3, None), (4, None))  # the Queen to alice for 0
    auction.bids((1, None), (2, None), (3, 2), (4, None))  # the General to dave for 2
    auction.bids((2, 1), (4, None), (1, None))  # the Duke to carol for 1
    auction.bids((4, None))  # bob, left alone, takes the Alchemist unbid; erin the Tea Boy, the last
    state = auction.state
    assert state.holders == ["queen", "alchemist", "duke", "general", "teaboy"]
    assert state.bids == [0, 0, 1, 2, 0]
    table = state.tables[0]
    assert table.seats == [0, 3, 2, 1, 4]  # Queen, General, Duke, Alchemist, Tea Boy
    assert [state.start[player] for player in table.seats] == [1, 2, 3, 4, 5]
    assert {"alice bids 0", "bob takes the Alchemist for nothing", "erin takes the Tea Boy for nothing"} <= set(auction.lines)
    assert state.phase == "playing"


def test_the_bids_count_in_the_final_score():
    table = LocalTable(GAME, GAME.ruleset(5, {"characters": "auction"}), b"auction-score")
    table.play_with([PlayoutBot(b"score")] * 5)
    state = table.state
    assert any(state.bids)
    assert state.totals() == [state.start[p] + sum(state.gears[p]) - state.bids[p] for p in range(5)]


def test_no_auction_with_the_party_variation():
    with pytest.raises(Exception, match="Party variation"):
        GAME.ruleset(5, {"characters": "auction", "variation": "party"})
