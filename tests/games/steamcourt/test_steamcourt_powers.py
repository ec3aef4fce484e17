"""Character powers and the 1-point tokens' powers: the General's stop, the Time Traveler, the
Jester, the Unpass and Discard-two tokens, the Pirate, the Submariner, the Plague Doctor and the
Alchemist (rulebook: "Characters", "Explanation of Cards and Tokens", FAQ)."""

import pytest

from p2pgames.bots import PlayoutBot
from p2pgames.engine import (
    Act,
    CardOperations,
    IllegalAction,
    LocalTable,
    ReactionWindow,
    Reshuffle,
    Reveal,
    RuleViolation,
    StandingAnswer,
    Turn,
)
from p2pgames.games.steamcourt import GAME, SteamCourt
from p2pgames.games.steamcourt.actions import DiscardTwo, Dive, Lay, Pass, Stop
from p2pgames.games.steamcourt.presentation import PRESENTATION

from steamcourt_scenarios import Court

ALICE, BOB, CAROL, DAVE, ERIN, FRANK = range(6)


# -- the General -------------------------------------------------------------------------------


def six(hands):
    """Queen alice, General bob, Duke carol, Time Traveler dave, Jester erin, Tea Boy frank."""
    return Court(6, hands, play=True)


STOP_HANDS = [["5", "9", "1"], ["2", "1"], ["3", "1"], ["6", "10", "1"], ["7", "11", "1"], ["8", "12", "1"]]


def test_the_general_may_stop_a_lay_but_not_a_lead():
    table = six(STOP_HANDS)
    table.do(ALICE, "lay 5")
    assert table.step() == Turn((BOB,), "beat 1 × 5, or pass")  # no window after a lead
    table.passes(BOB, CAROL)
    table.do(DAVE, "lay 6")
    assert table.step() == ReactionWindow((BOB,), "stop the lay just made?")
    assert table.texts(BOB) == ["stop dave", "pass"]
    table.do(BOB, "stop dave")
    # dave takes his card back and doesn't pass; play goes on from him, over alice's 5.
    assert table.hand(DAVE) == ["1", "6", "10"] and DAVE not in table.table.passed
    assert table.step() == Turn((ERIN,), "beat 1 × 5, or pass")
    assert "bob (General) stops dave: the cards go back" in table.lines
    table.do(ERIN, "lay 7")
    # Once a quarter: no more windows.
    assert table.step() == Turn((FRANK,), "beat 1 × 7, or pass")
    table.do(FRANK, "lay 8")
    table.do(ALICE, "lay 9")
    # dave lays again once play has gone round to him.
    assert table.step() == Turn((DAVE,), "beat 1 × 9, or pass")
    assert table.texts(DAVE) == ["lay 10", "pass"]


def standing(table, seat):
    return table.shown.standing_answer(table.state, seat, table.view(seat))


def test_the_general_may_answer_not_this_quarter_a_pass_his_own_peer_repeats():
    # "not this quarter" is a standing answer (I28): a pass now, which the General's own peer
    # gives again in every stop window of this quarter (the key), telling nobody.
    table = six(STOP_HANDS)
    table.do(ALICE, "lay 5")
    assert all(standing(table, seat) is None for seat in range(6))  # a turn: nothing to stand by
    table.passes(BOB, CAROL)
    table.do(DAVE, "lay 6")
    answer = standing(table, BOB)
    assert answer == StandingAnswer("not this quarter", Pass(), ("stop", 1))
    assert answer.action in table.legal(BOB) and "not this quarter" not in table.texts(BOB)
    assert all(standing(table, seat) is None for seat in range(6) if seat != BOB)
    heard = len(table.lines)
    table.act(BOB, answer.action)
    # Nothing public tells it from a pass: no log line, nothing kept in the state.
    assert table.lines[heard:] == [] and table.state.used[BOB] == []
    table.do(ERIN, "lay 7")
    # Asked again (the game doesn't know), with the same key: his peer passes for him.
    assert table.step() == ReactionWindow((BOB,), "stop the lay just made?")
    assert standing(table, BOB) == answer


def test_the_general_must_stop_a_lay_before_the_next_player_lays():
    table = six(STOP_HANDS)
    table.do(ALICE, "lay 5")
    table.passes(BOB, CAROL)
    table.do(DAVE, "lay 6")
    table.do(BOB, "pass")
    # The window has closed: during erin's turn the General can't stop anyone.
    with pytest.raises(IllegalAction, match="not your turn"):
        table.act(BOB, Stop(DAVE))
    table.do(ERIN, "lay 7")
    # Now he may only stop erin: dave's 6 stays in the machine.
    assert table.texts(BOB) == ["stop erin", "pass"]
    # A stop names the lay it stops, so it can't come to mean another lay on its way.
    with pytest.raises(IllegalAction, match="the lay to stop is seat 4's, not seat 3's"):
        table.act(BOB, Stop(DAVE))
    table.do(BOB, "stop erin")
    assert table.hand(DAVE) == ["1", "10"] and table.hand(ERIN) == ["1", "7", "11"]


def test_the_general_may_stop_a_masterstroke_which_can_be_laid_again():
    hands = [["5", "9", "1"], ["2", "1"], ["3", "1"], ["MS", "1"], ["7", "1"], ["8", "1"]]
    table = six(hands)
    table.do(ALICE, "lay 5")
    table.passes(BOB, CAROL)
    table.do(DAVE, "lay MS")
    table.do(BOB, "stop dave")
    # FAQ: the trick goes on; stopping doesn't make him pass.
    table.do(ERIN, "lay 7")
    table.passes(FRANK, ALICE)
    assert table.texts(DAVE) == ["lay MS", "pass"]
    table.do(DAVE, "lay MS")
    assert table.state.tricks[DAVE] == 1


# -- the Time Traveler -------------------------------------------------------------------------


def test_the_time_traveler_retrieves_his_last_lay_of_a_lost_trick_once_a_quarter():
    # Queen alice, Duke bob, Time Traveler carol, Tea Boy dave.
    table = Court(4, [["5", "1", "1"], ["1", "2"], ["6", "10", "1", "1"], ["7", "11", "1", "4", "9"]], play=True)
    table.do(ALICE, "lay 5")
    table.do(BOB, "pass")
    table.do(CAROL, "lay 6")
    table.do(DAVE, "lay 7")
    table.do(ALICE, "pass")
    table.do(CAROL, "lay 10")
    table.do(DAVE, "lay 11")
    table.passes(CAROL, DAVE)
    assert table.step() == ReactionWindow((CAROL,), "retrieve your last lay of the lost trick?")
    assert table.texts(CAROL) == ["retrieve", "pass"]
    table.do(CAROL, "retrieve")
    # Only the last card he played in that trick comes back: the 6 is cleared with the rest.
    assert table.hand(CAROL) == ["1", "1", "10"]
    assert "carol (Time Traveler) retrieves 10" in table.lines
    assert table.step() == Turn((DAVE,), "lead a trick")
    table.do(DAVE, "lay 4")
    table.do(ALICE, "pass")
    table.do(BOB, "pass")
    table.do(CAROL, "lay 10")
    table.passes(DAVE, CAROL)  # alice and bob passed earlier in this trick
    # He won this one: nothing to retrieve. Next time he loses, the power is spent.
    assert table.step() == Turn((CAROL,), "lead a trick")
    table.do(CAROL, "lay 1")
    table.do(DAVE, "lay 9")
    table.passes(ALICE, BOB, CAROL, DAVE)
    assert table.step() == Turn((DAVE,), "lead a trick")


def test_the_time_traveler_may_answer_not_this_quarter():
    # Queen alice, Duke bob, Time Traveler carol, Tea Boy dave. A pass lets one trick's retrieve
    # go; "not this quarter" is that pass, given again by her own peer this quarter (I28).
    table = Court(4, [["5", "1", "1"], ["1", "2"], ["6", "10", "8", "1", "1"], ["7", "11", "1", "4", "9"]], play=True)
    table.do(ALICE, "lay 5")
    table.do(BOB, "pass")
    table.do(CAROL, "lay 6")
    table.do(DAVE, "lay 7")
    table.do(ALICE, "pass")
    table.do(CAROL, "lay 10")
    table.do(DAVE, "lay 11")
    table.passes(CAROL, DAVE)
    assert table.step() == ReactionWindow((CAROL,), "retrieve your last lay of the lost trick?")
    answer = standing(table, CAROL)
    assert answer == StandingAnswer("not this quarter", Pass(), ("retrieve", 1))
    assert all(standing(table, seat) is None for seat in (ALICE, BOB, DAVE))
    heard = len(table.lines)
    table.act(CAROL, answer.action)
    assert table.hand(CAROL) == ["1", "1", "8"] and table.state.used[CAROL] == []
    assert not any("carol" in line for line in table.lines[heard:])
    # She loses the next trick too, with her 8 in it: asked again, under the same key.
    table.do(DAVE, "lay 4")
    table.passes(ALICE, BOB)
    table.do(CAROL, "lay 8")
    table.do(DAVE, "lay 9")
    table.passes(CAROL, DAVE)
    assert table.step() == ReactionWindow((CAROL,), "retrieve your last lay of the lost trick?")
    assert standing(table, CAROL) == answer


def test_the_time_traveler_is_asked_only_about_a_trick_he_laid_in_and_lost():
    table = Court(4, [["5", "1", "1"], ["1", "2"], ["6", "10", "1", "1"], ["7", "11", "1", "4", "9"]], play=True)
    table.do(ALICE, "lay 5")
    table.do(BOB, "pass")
    table.do(CAROL, "pass")  # nothing of hers in this trick
    table.do(DAVE, "lay 7")
    table.passes(ALICE, DAVE)
    assert table.step() == Turn((DAVE,), "lead a trick")
    assert table.state.used[CAROL] == []
    # She wins the next one, her power unused: nothing to take back, so she isn't asked.
    table.do(DAVE, "lay 4")
    table.passes(ALICE, BOB)
    table.do(CAROL, "lay 10")
    table.passes(DAVE, CAROL)
    assert table.step() == Turn((CAROL,), "lead a trick")
    assert table.state.used[CAROL] == [] and table.state.tricks[CAROL] == 1


# -- the Jester and the Unpass token -------------------------------------------------------------

JESTER = SteamCourt({3: ("queen", "jester", "teaboy")})


def test_the_jester_may_unpass_once_when_play_comes_round_to_him():
    table = Court(3, [["5", "7", "2", "3", "4"], ["9", "10", "1", "1"], ["6", "8", "1"]], game=JESTER, play=True)
    table.do(ALICE, "lay 5")
    table.do(BOB, "pass")
    table.do(CAROL, "lay 6")
    table.do(ALICE, "lay 7")
    # Before the player to his left (carol) lays, bob may unpass.
    assert table.step() == ReactionWindow((BOB,), "unpass and play again?")
    assert table.texts(BOB) == ["unpass", "pass"]
    table.do(BOB, "unpass")
    assert table.step() == Turn((BOB,), "beat 1 × 7, or pass")
    table.do(BOB, "lay 9")
    table.do(CAROL, "pass")
    table.do(ALICE, "pass")
    table.do(BOB, "pass")
    assert "bob unpasses (the Jester's power)" in table.lines
    assert table.state.tricks[BOB] == 1
    table.do(BOB, "lay 1")
    table.do(CAROL, "pass")
    table.do(ALICE, "lay 2")
    table.do(BOB, "pass")
    table.do(ALICE, "lay 3")
    # Once a quarter: play goes round to alice again without asking bob.
    assert table.step() == Turn((ALICE,), "beat 1 × 3, or pass")


def test_unpassing_is_only_offered_with_a_card_to_play():
    table = Court(3, [["5", "7", "1"], ["2", "1"], ["6", "8", "1"]], game=JESTER, play=True)
    table.do(ALICE, "lay 5")
    table.do(BOB, "pass")
    table.do(CAROL, "lay 6")
    table.do(ALICE, "lay 7")
    # The window opens (whether he could play is hidden) but he can only pass: answered for him.
    assert table.texts(BOB) == ["pass"]


def test_the_jester_plays_a_single_card_as_a_pair_once_a_quarter():
    table = Court(3, [["5", "5", "1"], ["9", "10", "4", "1"], ["6", "1"]], game=JESTER, play=True)
    table.do(ALICE, "lay 5 5")
    assert "lay 9 as pair" in table.texts(BOB)
    table.do(BOB, "lay 9 as pair")
    assert table.table.lays[-1][2:4] == [9, 2]
    assert "bob lays 9 as pair" in table.lines
    table.passes(CAROL, ALICE, BOB)
    assert table.step() == Turn((BOB,), "lead a trick")
    assert not any("pair" in text for text in table.texts(BOB))
    with pytest.raises(IllegalAction, match="once a quarter"):
        table.act(BOB, Lay((table.slot(BOB, "10"),), 10, 2))


def test_only_the_jester_plays_a_single_card_as_a_pair():
    table = Court(3, [["5", "1"], ["9", "1"], ["6", "1"]], game=JESTER, play=True)
    assert "lay 5 as pair" not in table.texts(ALICE)
    with pytest.raises(IllegalAction, match="only the Jester plays a single card as a pair"):
        table.act(ALICE, Lay((table.slot(ALICE, "5"),), 5, 2))


PLAIN = SteamCourt({3: ("queen", "inspector", "teaboy")})


def test_the_unpass_token_lets_a_passed_player_play_again_when_it_would_be_his_turn():
    table = Court(3, [["5", "7", "1"], ["6", "1"], ["9", "1", "1"]], game=PLAIN, play=True)
    table.state.powers[CAROL].append(["unpass", False])
    table.do(ALICE, "lay 5")
    table.do(BOB, "lay 6")
    table.do(CAROL, "pass")
    table.do(ALICE, "lay 7")
    table.do(BOB, "pass")
    # Play comes round to carol's seat, before alice (on her left) plays again.
    assert table.step() == ReactionWindow((CAROL,), "unpass and play again?")
    table.do(CAROL, "unpass")
    table.do(CAROL, "lay 9")
    assert table.state.powers[CAROL] == [["unpass", True]]
    assert "carol unpasses (the Unpass token)" in table.lines


# -- the Discard-two token -----------------------------------------------------------------------


def test_the_discard_two_token_discards_two_numbered_cards_on_your_turn():
    table = Court(3, [["2", "5", "5", "MS", "9"], ["6", "1"], ["7", "1"]], game=PLAIN, play=True)
    table.state.powers[ALICE].append(["discard", False])
    texts = table.texts(ALICE)
    assert {"discard 2 5", "discard 5 5", "discard 2 9", "discard 5 9"} <= set(texts)
    assert not any("MS" in text for text in texts if text.startswith("discard"))
    table.do(ALICE, "discard 2 5")
    # Her turn goes on: she still leads.
    assert table.step() == Turn((ALICE,), "lead a trick")
    assert table.hand(ALICE) == ["5", "9", "MS"]
    assert table.faces(table.table.discard) == ["2", "5"]
    assert table.state.powers[ALICE] == [["discard", True]]
    assert not any(text.startswith("discard") for text in table.texts(ALICE))


def test_discarding_a_special_card_with_the_token_is_a_rule_violation():
    table = Court(3, [["5", "MS", "9"], ["6", "1"], ["7", "1"]], game=PLAIN, play=True)
    table.state.powers[ALICE].append(["discard", False])
    with pytest.raises(RuleViolation, match="discarded 5 and MS: the token discards numbered cards only"):
        table.act(ALICE, DiscardTwo(table.slots(ALICE, ["5", "MS"])))


def test_discarding_the_last_two_cards_goes_out():
    table = Court(3, [["5", "9"], ["6", "1"], ["7", "1"]], game=PLAIN, play=True)
    table.state.powers[ALICE].append(["discard", False])
    table.do(ALICE, "discard 5 9")
    assert table.table.out == [ALICE] and table.state.gears[ALICE] == [3]
    assert table.step() == Turn((BOB,), "lead a trick")


# -- the Pirate ----------------------------------------------------------------------------------

PIRATE = SteamCourt({3: ("queen", "pirate", "teaboy"), 4: ("queen", "timetraveler", "pirate", "teaboy")})


def test_the_pirate_steals_a_numbered_card_from_the_machine_before_it_is_cleared():
    table = Court(3, [["5", "1"], ["2", "1"], ["6/12", "1", "3"]], game=PIRATE, play=True)
    table.do(ALICE, "lay 5")
    table.do(BOB, "pass")
    table.do(CAROL, "lay 6/12 as 12")
    table.passes(ALICE, CAROL)
    assert table.step() == ReactionWindow((BOB,), "steal a numbered card from the machine?")
    # Numbered cards only: not the 6/12.
    assert table.texts(BOB) == ["steal 5", "pass"]
    table.do(BOB, "steal 5")
    assert table.hand(BOB) == ["1", "2", "5"]
    assert table.faces(table.table.discard) == ["6/12"]
    # The trick's result stands: carol won it and leads.
    assert table.state.tricks[CAROL] == 1 and table.step() == Turn((CAROL,), "lead a trick")
    table.do(CAROL, "lay 1")
    table.do(ALICE, "pass")
    table.do(BOB, "lay 2")
    table.passes(CAROL, BOB)
    # Once a quarter.
    assert table.step() == Turn((BOB,), "lead a trick")


def test_the_pirate_may_answer_not_this_quarter():
    table = Court(3, [["5", "1", "3"], ["2", "1", "4"], ["6/12", "1", "3", "7"]], game=PIRATE, play=True)
    table.do(ALICE, "lay 5")
    table.do(BOB, "pass")
    table.do(CAROL, "lay 6/12 as 12")
    table.passes(ALICE, CAROL)
    assert table.step() == ReactionWindow((BOB,), "steal a numbered card from the machine?")
    answer = standing(table, BOB)
    assert answer == StandingAnswer("not this quarter", Pass(), ("steal", 1))
    table.act(BOB, answer.action)
    assert table.state.used[BOB] == [] and not any("steal" in line for line in table.lines)
    # The next trick has numbered cards in it too: asked again, under the same key.
    table.do(CAROL, "lay 1")
    table.do(ALICE, "lay 3")
    table.do(BOB, "lay 4")
    table.do(CAROL, "lay 7")
    table.passes(ALICE, BOB, CAROL)
    assert table.step() == ReactionWindow((BOB,), "steal a numbered card from the machine?")
    assert standing(table, BOB) == answer


def test_when_powers_conflict_the_higher_ranked_player_goes_first():
    # FAQ: the Time Traveler (rank 4) before the Pirate (rank 10).
    table = Court(4, [["5", "1"], ["6", "1"], ["2", "1"], ["8", "1"]], game=PIRATE, play=True)
    table.do(ALICE, "lay 5")
    table.do(BOB, "lay 6")
    table.do(CAROL, "pass")
    table.do(DAVE, "lay 8")
    table.passes(ALICE, BOB, DAVE)
    assert table.step() == ReactionWindow((BOB,), "retrieve your last lay of the lost trick?")
    table.do(BOB, "retrieve")
    assert table.step() == ReactionWindow((CAROL,), "steal a numbered card from the machine?")
    assert table.texts(CAROL) == ["steal 5", "steal 8", "pass"]


# -- the Submariner, the Alchemist and the Plague Doctor -----------------------------------------

RENEGADES = SteamCourt({3: ("submariner", "alchemist", "plaguedoctor")})


def test_the_submariner_reveals_a_numbered_card_and_dives_into_the_court_hand():
    table = Court(3, [["3", "8"], ["4", "1"], ["6", "1"]], game=RENEGADES, play=True)
    texts = table.texts(ALICE)
    assert "dive court 3" in texts and "dive court 8" in texts
    assert not any(text.startswith("dive discard") for text in texts)  # the discard pile is empty
    three = table.slot(ALICE, "3")
    court = list(table.table.court)
    table.feed(Act(ALICE, Dive("court", three)))
    step = table.step()
    assert step == CardOperations((Reveal((three,)), Reshuffle(1, tuple(court), 84)))
    table.settle()
    # He draws as many cards as the card shows, seen by him alone, and keeps at least half.
    drawn = list(range(84, 87))
    assert all(slot in table.view(ALICE) for slot in drawn)
    assert not any(slot in table.view(BOB) for slot in drawn)
    assert table.state.cards.revealed[three] == "3a"  # revealed, and still in his hand
    assert table.step() == Turn((ALICE,), "put back up to 1 drawn card")
    assert table.texts(ALICE)[-1] == "keep"
    table.act(ALICE, table.legal(ALICE)[0])
    assert len(table.state.hands[ALICE]) == 4 and len(table.table.court) == len(court) - 2
    assert table.step() == Turn((ALICE,), "lead a trick")
    assert not any(text.startswith("dive") for text in table.texts(ALICE))  # once a quarter
    assert "alice (Submariner) reveals a 3, shuffles the Court Hand and draws 3 cards" in table.lines


def test_diving_with_a_special_card_is_a_rule_violation():
    table = Court(3, [["MS", "8"], ["4", "1"], ["6", "1"]], game=RENEGADES, play=True)
    with pytest.raises(RuleViolation, match="revealed MS for a dive: it must be a numbered card"):
        table.act(ALICE, Dive("court", table.slot(ALICE, "MS")))


def test_the_alchemist_lowers_numbered_cards_by_exactly_two():
    table = Court(3, [["6", "6", "1"], ["9", "7", "10", "1"], ["2", "1"]], game=RENEGADES, play=True)
    table.do(ALICE, "lay 6 6")
    assert "lay 7 9 as 7" in table.texts(BOB)
    with pytest.raises(RuleViolation, match="a 9 can't count as 8"):
        table.act(BOB, Lay(table.slots(BOB, ["9", "10"]), 8, 2))


def test_the_plague_doctor_draws_four_from_the_shuffled_discard_pile_and_keeps_two():
    table = Court(3, [["3", "3", "1"], ["4", "4", "1"], ["8", "8", "1"]], game=RENEGADES, play=True)
    table.do(ALICE, "lay 3 3")
    table.do(BOB, "lay 4 4")
    table.do(CAROL, "lay 8 8")
    table.passes(ALICE, BOB, CAROL)
    assert "plague" in table.texts(CAROL)
    discard = list(table.table.discard)
    table.do(CAROL, "plague")
    assert table.notes[-1] == ("plague", CAROL, 4)
    assert table.step() == Turn((CAROL,), "put back up to 2 drawn cards")
    table.act(CAROL, table.legal(CAROL)[0])
    table.do(CAROL, "keep")
    assert len(table.state.hands[CAROL]) == 1 + 3 and len(table.table.discard) == len(discard) - 3
    assert table.step() == Turn((CAROL,), "lead a trick")
    assert "plague" not in table.texts(CAROL)


def test_a_stopped_last_card_goes_back_so_its_player_is_not_out():
    hands = [["5", "9", "1"], ["2", "1"], ["3", "1"], ["6"], ["7", "1"], ["8", "1"]]
    table = six(hands)
    table.do(ALICE, "lay 5")
    table.passes(BOB, CAROL)
    table.do(DAVE, "lay 6")  # his last card …
    assert table.table.out == []  # … but he is out only once the lay stands
    table.do(BOB, "stop dave")
    assert table.hand(DAVE) == ["6"] and table.table.out == [] and table.state.gears[DAVE] == []


def test_a_time_traveler_who_went_out_takes_no_cards_back():
    table = Court(4, [["5", "1"], ["1", "2"], ["6"], ["7", "1"]], play=True)
    table.do(ALICE, "lay 5")
    table.do(BOB, "pass")
    table.do(CAROL, "lay 6")  # the Time Traveler's last card: out
    table.do(DAVE, "lay 7")
    table.passes(ALICE, DAVE)
    assert table.step() == Turn((DAVE,), "lead a trick")


def test_a_dive_into_a_smaller_pile_draws_all_of_it():
    table = Court(3, [["3", "3", "9", "1"], ["4", "4", "1"], ["8", "1"]], game=RENEGADES, play=True)
    table.do(ALICE, "lay 3 3")
    table.do(BOB, "lay 4 4")
    table.passes(CAROL, ALICE, BOB)
    # Four cards in the discard pile; a 9 asks for nine: she draws the four, keeps at least two.
    table.do(BOB, "lay 1")
    table.do(CAROL, "pass")
    assert "dive discard 9" in table.texts(ALICE)
    table.do(ALICE, "dive discard 9")
    assert table.notes[-1] == ("dive", ALICE, "discard", "9a", 4)
    assert table.step() == Turn((ALICE,), "put back up to 2 drawn cards")


def test_a_multiplier_lead_may_count_up_to_16_while_a_diver_may_still_draw():
    table = Court(3, [["5", "X", "1"], ["4", "1"], ["6", "1"]], game=RENEGADES, play=True)
    assert table.game.lead_cap(table.state, table.table) == 16
    assert "lay 5 +X16" in table.texts(ALICE)


def test_the_log_names_a_stolen_or_revealed_8_with_an():
    table = Court(4, [["5", "1"], ["6", "1"], ["2", "1"], ["8", "1"]], game=PIRATE, play=True)
    table.do(ALICE, "lay 5")
    table.do(BOB, "lay 6")
    table.do(CAROL, "pass")
    table.do(DAVE, "lay 8")
    table.passes(ALICE, BOB, DAVE)
    table.do(BOB, "pass")
    table.do(CAROL, "steal 8")
    assert "carol (Pirate) steals an 8 from the machine" in table.lines
    table = Court(3, [["3", "8"], ["4", "1"], ["6", "1"]], game=RENEGADES, play=True)
    table.do(ALICE, "dive court 8")
    assert "alice (Submariner) reveals an 8, shuffles the Court Hand and draws 8 cards" in table.lines


# -- "not this quarter": where it is offered (I28) --------------------------------------------------


@pytest.mark.parametrize("players, options", [(6, {}), (12, {"variant": "party"})])
def test_not_this_quarter_is_offered_in_exactly_the_stop_retrieve_and_steal_windows(players, options):
    # Random games: at every step, every seat's standing answer is "not this quarter" (a pass,
    # keyed by the power and the quarter) exactly when it is asked to stop, retrieve or steal.
    windows = {"stop": "stop", "retrieve": "retrieve", "steal": "steal"}
    table = LocalTable(GAME, GAME.ruleset(players, options), b"standing")
    bot = PlayoutBot(b"standing")
    offered = set()
    while not table.over:
        step = table.step()
        state = table.state
        for seat in range(players):
            answer = PRESENTATION.standing_answer(state, seat, table.view(seat))
            power = None
            if state.phase == "playing" and not state.cards.pending:
                seated = state.table_of(seat)
                power = windows.get(seated.phase) if seated.actor == seat else None
            if power is None:
                assert answer is None, (seat, step)
            else:
                assert answer == StandingAnswer("not this quarter", Pass(), (power, state.quarter))
                assert answer.action in GAME.legal_actions(state, seat, table.view(seat))
                offered.add(power)
        seat = step.actors[0] if hasattr(step, "actors") else step.players[0]
        table.act(seat, bot.choose(GAME, table.state, seat, table.view(seat), step))
    assert offered == {"stop", "retrieve"} | ({"steal"} if players == 12 else set())
