"""Cheating at Steam Court (2015 draft), each cheat by a real misbehaving peer in a loopback game.

The cheater sits at seat 1 (a joiner) among honest bot peers; seeds are chosen so that the
situation arises (the cheater holds the character the cheat needs, and the cards) and each test
checks that it did. Every test checks: the cheat is detected, at the point the rules say; every
honest peer names the cheater and stops cleanly with a message saying why; and what they hold is
intact — they agree with each other on the state they stopped in, the cheat never entered their
logs unless revealing it is how it was caught, and their transcripts verify, the replay
confirming the fault.

Where a cheat is caught (as at the published game: SPEC §B3, §B9):

* a hidden choice shown false by cards revealed later (the Tea Boy's "two highest", a lay's
  declaration) is a ``rule-violation`` found by every peer on the entry that revealed it;
* a move the public state refuses (a keep while a put-back is owed, a retrieve with no retrieve
  window open, a bid that doesn't outbid) is ``illegal``: the host refuses it at once and its
  signed submission proves it to the others.

Three players play the smallest game; the option ``three`` seats the characters a cheat needs.
"""

from __future__ import annotations

from functools import partial

import steamcourt_checks
from cheaters import Honest
from sc2015_cheaters import (
    AlchemistLowersByOne,
    BidThatDoesNotOutbid,
    PirateRetrievesFromAWonTrick,
    PlagueDoctorKeepsThree,
    TeaBoyKeepsHisBest,
)
from steamcourt_checks import CHEATER, ILLEGAL, SHOWN

from p2pgames.games import get_game
from p2pgames.games.steamcourt.actions import KeepRest, Retrieve
from p2pgames.games.steamcourt.cards import a_face
from p2pgames.games.steamcourt.rules import Phase
from p2pgames.games.steamcourt2015.rules import AUCTION, Bid
from p2pgames.net import play_table
from p2pgames.session import FaultCode

GAME = "steamcourt2015"
PLAYERS = 3
# The checks every Steam Court cheating test makes (steamcourt_checks.py), for this game.
check_caught = partial(steamcourt_checks.check_caught, GAME)
check_tea_boy_caught = partial(steamcourt_checks.check_tea_boy_caught, GAME)
check_refused_by_host = partial(steamcourt_checks.check_refused_by_host, GAME)


async def play(tmp_path, cheater, *, seed: bytes, options: dict):
    """One seeded 3-player game by ``options`` with ``cheater`` at seat 1, honest peers elsewhere."""
    ruleset = get_game(GAME).ruleset(PLAYERS, options)
    sessions = [Honest(seat, ruleset, seed) for seat in range(PLAYERS)]
    sessions[CHEATER] = cheater
    await play_table(GAME, PLAYERS, options=options, sessions=sessions, transcripts=tmp_path, seed=seed)
    return sessions


# -- 1. the Tea Boy's two highest numbered cards -----------------------------------------------


async def tea_boy_caught(tmp_path, seed):
    cheater = TeaBoyKeepsHisBest(seed=seed + b"/cheater")
    sessions = await play(tmp_path, cheater, seed=seed, options={})
    assert cheater.cheat_character == "teaboy"
    return check_tea_boy_caught(tmp_path, seed, sessions, cheater, entries_after=20)


async def test_tea_boy_who_serves_his_lowest_cards_and_trades_the_rest_away_is_named_at_the_quarters_audit(
    tmp_path, autojump_clock,
):
    state, hidden = await tea_boy_caught(tmp_path, SEEDS["teaboy at the audit"])
    # He traded the hand he kept for the Court Hand: his best cards lay in the Court Hand, which
    # nobody plays; only the quarter's audit showed them.
    table = state.tables[0]
    assert state.quarter == 1 and state.phase == Phase.AUDITING and table.phase == Phase.DONE
    assert hidden <= set(table.court)
    assert not hidden & {slot for hand in state.hands for slot in hand}


async def test_tea_boy_who_serves_his_lowest_cards_is_named_as_soon_as_his_cards_are_public(tmp_path, autojump_clock):
    state, hidden = await tea_boy_caught(tmp_path, SEEDS["teaboy on his lay"])
    # He kept his hand and played it out: the reveal of his last card shows the claim false,
    # before the quarter ends (his last lay never stood: he is not out).
    table = state.tables[0]
    assert state.phase == Phase.PLAYING and table.phase == Phase.REVEALING
    assert table.actor == CHEATER and not state.hands[CHEATER] and CHEATER not in table.out
    assert hidden <= set(table.lays[-1][1])


# -- 2. the Plague Doctor keeps three ----------------------------------------------------------


async def test_plague_doctor_who_keeps_three_of_the_four_he_drew_is_refused_at_once_and_named(tmp_path, autojump_clock):
    seed = SEEDS["plaguedoctor"]
    cheater = PlagueDoctorKeepsThree(seed=seed + b"/cheater")
    sessions = await play(tmp_path, cheater, seed=seed, options={"three": "queen+plaguedoctor+pirate"})
    assert cheater.cheat_character == "plaguedoctor" and cheater.cheat_action == KeepRest()
    replica = check_caught(tmp_path, seed, sessions, FaultCode.ILLEGAL, f"{ILLEGAL}put back 1 more drawn card first")
    check_refused_by_host(sessions, cheater)
    # Refused as the quarter starts, in his draw: three drawn cards still in his hand, one owed.
    state = replica.state
    table = state.tables[0]
    assert state.quarter == 1 and table.phase == Phase.RETURN and table.actor == CHEATER
    assert table.owed == 1 and table.drawn == list(cheater.kept)
    assert set(cheater.kept) <= set(state.hands[CHEATER])


# -- 3. the Alchemist lowers a card by one -----------------------------------------------------


async def test_alchemist_who_lowers_a_card_by_one_is_named_when_the_lay_is_revealed(tmp_path, autojump_clock):
    seed = SEEDS["alchemist"]
    cheater = AlchemistLowersByOne(seed=seed + b"/cheater")
    sessions = await play(tmp_path, cheater, seed=seed, options={"three": "queen+duke+alchemist"})
    assert cheater.cheat_character == "alchemist"
    lay = cheater.cheat_action
    # One numbered card, declared one below its number: he may lower a card by exactly two.
    assert lay.value == cheater.laid - 1 and lay.quantity == 1
    replica = check_caught(
        tmp_path, seed, sessions, FaultCode.RULE_VIOLATION,
        f"{SHOWN}declared {lay.value}s but laid {cheater.laid}: {a_face(str(cheater.laid))} can't count as {lay.value}",
    )
    # Caught on the entry that revealed the lay; it never stood (nobody got to answer it). The
    # state is the one before that entry: the card was being revealed.
    table = replica.state.tables[0]
    assert table.phase == Phase.REVEALING and table.actor == CHEATER
    assert table.lays[-1] == [CHEATER, list(lay.slots), lay.value, 1, -1]
    assert replica.state.cards.expected_values() == set(lay.slots)


# -- 4. the Pirate takes back his cards from a trick he won ------------------------------------


async def test_pirate_who_takes_back_his_cards_from_a_trick_he_won_is_refused_at_once_and_named(tmp_path, autojump_clock):
    seed = SEEDS["pirate"]
    cheater = PirateRetrievesFromAWonTrick(seed=seed + b"/cheater")
    sessions = await play(tmp_path, cheater, seed=seed, options={"three": "queen+plaguedoctor+pirate"})
    assert cheater.cheat_character == "pirate" and cheater.cheat_action == Retrieve()
    # No retrieve window is open: it is his turn to lead the next trick.
    replica = check_caught(tmp_path, seed, sessions, FaultCode.ILLEGAL, f"{ILLEGAL}cards are taken back only right after losing a trick you laid in")
    check_refused_by_host(sessions, cheater)
    # He won the trick just ended and leads the next; his cards of that trick are in the discard
    # pile, where they stay; his retrieve stayed unused.
    state = replica.state
    table = state.tables[0]
    assert table.phase == Phase.TURN and table.turn == CHEATER and not table.lays
    assert ("trick", CHEATER) in state.notes and ("lead", CHEATER, CHEATER) in state.notes
    won = cheater.won_lays
    assert won[-1][0] == CHEATER  # his lay was on top: the trick was his
    his_cards = {slot for lay in won if lay[0] == CHEATER for slot in lay[1] + ([lay[4]] if lay[4] >= 0 else [])}
    assert his_cards and his_cards <= set(table.discard)
    assert not his_cards & set(state.hands[CHEATER])
    assert "retrieve" not in state.used[CHEATER] and state.used[CHEATER] == cheater.used_before


# -- 5. a bid that doesn't outbid the standing bid ---------------------------------------------


async def test_bid_that_does_not_outbid_the_standing_bid_is_refused_at_once_and_named(tmp_path, autojump_clock):
    seed = SEEDS["auction"]
    cheater = BidThatDoesNotOutbid(seed=seed + b"/cheater")
    sessions = await play(tmp_path, cheater, seed=seed, options={"characters": "auction"})
    bidder, points = cheater.standing
    assert bidder != CHEATER and cheater.cheat_action == Bid(points)
    replica = check_caught(
        tmp_path, seed, sessions, FaultCode.ILLEGAL, f"{ILLEGAL}a bid must outbid the standing {points} points",
    )
    check_refused_by_host(sessions, cheater)
    # Refused in the auction: the standing bid still stands, the cheater still to bid.
    state = replica.state
    assert state.phase == AUCTION and state.bidder == CHEATER
    assert state.standing == [bidder, points] and state.auctioned()[state.offered] == cheater.offered


# Seeds under which the cheat's situation arises (each test asserts it did).
SEEDS = {
    "teaboy at the audit": b"sc15-23",
    "teaboy on his lay": b"sc15-44",
    "plaguedoctor": b"sc15-0",
    "alchemist": b"sc15-0",
    "pirate": b"sc15-3",
    "auction": b"sc15-0",
}
