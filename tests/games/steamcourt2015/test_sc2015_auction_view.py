"""The Character Auction on screen: what is offered and what it does, the standing bid and its
maker, whose turn it is and who bids after, who passed, the characters won (for how much) and
those to come, and what the bidder types; laid out as the terminal lays it out at 80×24."""

from __future__ import annotations

import pytest

from p2pgames.bots import PlayoutBot
from p2pgames.engine import LocalTable
from p2pgames.games.steamcourt.actions import Pass
from p2pgames.games.steamcourt.presentation import SteamCourtPresentation
from p2pgames.games.steamcourt.views import WIDTH
from p2pgames.games.steamcourt2015 import GAME
from p2pgames.games.steamcourt2015.presentation import PRESENTATION
from p2pgames.games.steamcourt2015.rules import AUCTION, Bid
from p2pgames.session import Decision
from p2pgames.tui._panels import layout_panels
from p2pgames.tui._screen import MIN_LOG_ROWS, choice_lines
from p2pgames.tui._text import line_width, plain
from p2pgames.tui._theme import Theme

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "gina", "hal", "ida", "jo"]
THEME = Theme(False)
# Rows of an 80×24 screen that are not the table (as tests/tui/test_tui_steamcourt.py counts them).
FIXED_ROWS = 2 + 1 + 1 + MIN_LOG_ROWS


class Auction(LocalTable):
    """An auction at ``players`` seats, its chance drawn from ``seed``."""

    def __init__(self, players: int, seed: bytes = b"auction-view") -> None:
        super().__init__(GAME, GAME.ruleset(players, {"characters": "auction"}), seed)
        self.settle()

    def bids(self, *points: int | None) -> None:
        """Whoever is to bid bids each of ``points`` in turn (``None``: passes)."""
        for bid in points:
            self.act(self.state.bidder, Pass() if bid is None else Bid(bid))


def lines_of(table: LocalTable, viewer: int | None, title: str) -> list[str]:
    for panel in PRESENTATION.panels(table.state, viewer, table.view(viewer) if viewer is not None else None, NAMES):
        if panel.title == title:
            return ["".join(text for _, text in line) for line in panel.lines]
    return []


def screen_rows(table: LocalTable, seat: int, columns: int = 80, rows: int = 24) -> list[str]:
    """The table part of the screen as the terminal UI lays it out for ``seat``, deciding or not;
    asserts it fits the rows the screen leaves it."""
    view = table.view(seat)
    names = NAMES[: table.state.players]
    actions = GAME.legal_actions(table.state, seat, view)
    budget = rows - FIXED_ROWS
    if actions:
        texts = tuple(PRESENTATION.describe_action(table.state, seat, action, view, names) for action in actions)
        groups = tuple(PRESENTATION.group_choices(table.state, seat, actions, texts))
        if all(len(group.members) == 1 for group in groups):
            groups = ()
        decision = Decision(table.step(), tuple(actions), texts, False, groups, (), None)
        budget -= len(choice_lines(decision, columns))
    panels = PRESENTATION.panels(table.state, seat, view, names)
    assert all(sum(len(text) for _, text in line) <= WIDTH for panel in panels for line in panel.lines)
    laid = layout_panels(panels, columns, THEME, max_rows=budget)
    assert len(laid) <= budget and all(line_width(row) <= columns for row in laid)
    return [plain(row) for row in laid]


def test_the_offer_the_standing_bid_the_turn_and_the_passes_in_the_rulebooks_example():
    auction = Auction(5)
    first = auction.state.bidder
    seat = [(first + step) % 5 for step in range(5)]  # player one … player five, clockwise
    auction.bids(1, 3, None, None)  # -1, -3, player 3 and player 4 pass
    offer = "\n".join(lines_of(auction, seat[0], "On offer"))
    assert "Queen: give two cards to the lowest player; lead first" in offer
    assert f"standing bid -3 by {NAMES[seat[1]]}" in offer
    assert f"to bid: {NAMES[seat[4]]}" in offer
    # Player one bids after player five; player two made the standing bid and waits to be outbid.
    assert f"then: {NAMES[seat[0]]}\n" in offer + "\n"
    assert f"passed: {NAMES[seat[2]]}, {NAMES[seat[3]]}" in offer
    assert lines_of(auction, seat[0], "Characters") == ["to come: General, Duke, Alchemist, Tea Boy"]


def test_won_characters_show_their_winners_and_bids_and_those_to_come_shrink():
    auction = Auction(5)
    queen = auction.state.bidder
    auction.bids(4, None, None, None, None)  # the Queen for -4
    general = auction.state.bidder
    auction.bids(None, None, 0, None)  # the General for 0: the third bidder opens at 0 and the rest pass
    winner = auction.state.holders.index("general")
    assert general != winner
    assert lines_of(auction, None, "Characters") == [
        f"won: Queen {NAMES[queen]} -4; General {NAMES[winner]} 0",
        "to come: Alchemist, Tea Boy",
    ]
    assert lines_of(auction, None, "On offer")[0] == "Duke: match the lay instead of beating it"
    assert lines_of(auction, None, "On offer")[1].startswith("no bid yet · to bid: ")
    assert "character 3 of 5" in lines_of(auction, None, "Steam Court")[0]


def test_only_the_bidder_is_asked_what_to_type_and_the_least_bid():
    auction = Auction(3)
    bidder = auction.state.bidder
    assert lines_of(auction, bidder, "You are asked") == [
        "Bid for the Queen? (bid -N / pass)",
        "bid 0: the least you may bid now; at most bid -15",
        "pass: sit out the Queen; no way back in",
    ]
    others = [seat for seat in range(3) if seat != bidder]
    assert all(lines_of(auction, seat, "You are asked") == [] for seat in others)
    auction.bids(2)
    assert lines_of(auction, auction.state.bidder, "You are asked")[1] == "bid -3: the least you may bid now; at most bid -15"
    # What it says to type is understood.
    assert PRESENTATION.parse_action(auction.state, auction.state.bidder, "bid -3", auction.view(auction.state.bidder), NAMES[:3]) == Bid(3)


def test_the_last_character_on_offer_has_nothing_to_come():
    auction = Auction(3)
    auction.bids(0, None, None)  # the Queen; the Duke is next among two, the Tea Boy last
    assert auction.state.phase == AUCTION
    assert lines_of(auction, None, "Characters")[-1] == "to come: Tea Boy"


@pytest.mark.parametrize("players", [3, 5, 10])
def test_every_position_of_random_auctions_fits_80x24_for_every_seat(players):
    shown = 0
    for game in range(6):
        auction = Auction(players, b"auction-fit-%d" % game)
        bot = PlayoutBot(b"auction-fit-%d" % game)
        while auction.state.phase == AUCTION:
            state = auction.state
            offered = state.book[state.auctioned()[state.offered]]
            for seat in range(players):
                rows = screen_rows(auction, seat)
                text = "\n".join(rows)
                # Beside the titles (no heading rows), nothing cut short.
                assert not any(row.startswith("──") or "more · F2" in row for row in rows), text
                assert f"{offered.title}: {offered.power_text[1]}" in text
                assert ("You are asked" in text) == (seat == state.bidder), text
                assert f"to bid: {NAMES[state.bidder]}" in text
                shown += 1
            step = auction.step()
            auction.act(state.bidder, bot.choose(GAME, state, state.bidder, auction.view(state.bidder), step))
    assert shown >= 6 * players * (players - 1)  # at least one decision a character, each seat


def test_after_the_auction_the_published_panels_show():
    auction = Auction(3)
    auction.bids(0, None, None, 0, None)  # the Queen, then the Duke; the Tea Boy goes unbid
    state = auction.state
    assert state.phase != AUCTION and state.quarter == 1
    for seat in range(3):
        assert PRESENTATION.panels(state, seat, auction.view(seat), NAMES[:3]) == SteamCourtPresentation.panels(
            PRESENTATION, state, seat, auction.view(seat), NAMES[:3]
        )
    titles = [panel.title for panel in PRESENTATION.panels(state, 0, auction.view(0), NAMES[:3])]
    assert "On offer" not in titles and "The table" in titles
