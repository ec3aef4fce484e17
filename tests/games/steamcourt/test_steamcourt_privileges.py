"""Beginning of Quarter privileges: the Queen, the General, the Inspector, the Tea Boy and the
Vagabond (rulebook: "Characters", FAQ). A player's own log names the hidden cards that come to it
— a card given, the Tea Boy's two highest, the Court Hand taken in trade or hoarded, what the
Inspector sees — once it can see them; nobody else's log does (``SteamCourt.narrate_private``)."""

import pytest

from p2pgames.bots import PlayoutBot
from p2pgames.engine import Act, Audit, CardOperations, Disclose, IllegalAction, RuleViolation
from p2pgames.games.steamcourt import SteamCourt
from p2pgames.games.steamcourt.actions import Give, Serve, Trade

from steamcourt_scenarios import Court

ALICE, BOB, CAROL, DAVE = 0, 1, 2, 3


def test_the_queen_gives_one_card_to_any_player_who_alone_sees_it():
    table = Court(3, [["1", "1", "1", "9"], ["5"], ["12", "11"]])
    texts = table.texts(ALICE)
    assert texts == [
        "give 1 to bob", "give 9 to bob", "give 1 to carol", "give 9 to carol", "pass"
    ]
    nine = table.slot(ALICE, "9")
    state = table.game.apply(table.state, Act(ALICE, Give(nine, CAROL)))
    assert table.game.step(state) == CardOperations((Disclose((nine,), CAROL),))
    # FAQ: "undesirable" doesn't mean lowest: she keeps her three 1s and gives the 9 away.
    table.do(ALICE, "give 9 to carol")
    assert table.hand(ALICE) == ["1", "1", "1"]
    assert "9" in table.hand(CAROL) and table.view(CAROL)[nine] == "9a"
    assert nine not in table.view(BOB)
    assert "alice (Queen) gives carol a card" in table.lines
    assert table.private[CAROL] == ["alice (Queen) gives you 9"]
    assert table.private[ALICE] == [] and table.private[BOB] == []
    assert not any("9" in line for line in table.lines)


def test_the_queen_may_keep_her_cards():
    table = Court(3, [["1"], ["5"], ["12", "11"]])
    table.do(ALICE, "pass")
    assert table.hand(ALICE) == ["1"]
    assert "alice (Queen) gives no card" in table.lines


def test_the_general_gives_a_card_to_anyone_but_the_queen():
    table = Court(6, [["1"], ["2", "3"], ["4"], ["5"], ["6"], ["8", "7"]])
    table.do(ALICE, "pass")
    texts = table.texts(BOB)
    assert "give 2 to carol" in texts and not any("to alice" in text for text in texts)
    with pytest.raises(IllegalAction, match="can't give a card to the Queen"):
        table.act(BOB, Give(table.slot(BOB, "2"), ALICE))
    table.do(BOB, "give 3 to frank")
    assert table.hand(5) == ["3", "7", "8"]


def test_the_tea_boy_must_give_his_two_highest_numbered_cards_to_the_preeminent_player():
    table = Court(4, [["1"], ["2"], ["3"], ["12", "9", "11", "4"]])
    table.do(ALICE, "pass")
    # The Duke and the Time Traveler have no privilege; the Tea Boy has no choice to make.
    assert table.texts(DAVE) == ["give 11 12 to alice"]
    table.do(DAVE, "give 11 12 to alice")
    assert table.hand(ALICE) == ["1", "11", "12"]
    assert table.hand(DAVE) == ["4", "9"]
    assert "dave (Tea Boy) gives alice the two highest numbered cards" in table.lines
    assert table.private[ALICE] == ["dave (Tea Boy) gives you 11 12"]
    assert not any(table.private[seat] for seat in (BOB, CAROL, DAVE))


def test_the_tea_boy_keeps_his_special_cards():
    # FAQ: he doesn't give away Masterstroke, Multiplier, 3/9 or 6/12 cards.
    table = Court(3, [["1"], ["2"], ["MS", "X", "3/9", "6/12", "5", "4"]])
    table.do(ALICE, "pass")
    assert table.texts(CAROL) == ["give 4 5 to alice"]
    fewer = Court(3, [["1"], ["2"], ["MS", "X", "7"]])
    fewer.do(ALICE, "pass")
    assert fewer.texts(CAROL) == ["give 7 to alice"]
    none = Court(3, [["1"], ["2"], ["MS", "X"]])
    none.do(ALICE, "pass")
    assert none.texts(CAROL) == ["give nothing to alice"]


def test_the_tea_boy_may_trade_his_hand_for_the_unseen_court_hand_keeping_cards_given_to_him():
    table = Court(3, [["1", "2"], ["5"], ["12", "11", "3", "4"]], ["9", "9"], trim=False)
    # Only the named cards in hand; the Court Hand is exactly two 9s.
    table.trim()
    table.table.court[:] = [slot for slot in table.table.court if table.name(slot) in ("9a", "9b")]
    table.do(ALICE, "give 2 to carol")
    table.do(CAROL, "give 11 12 to alice")
    old = [slot for slot in table.state.hands[CAROL] if table.name(slot) in ("3a", "4a")]
    court = list(table.table.court)
    assert not any(slot in table.view(CAROL) for slot in court)  # before looking at it
    table.do(CAROL, "trade")
    assert table.hand(CAROL) == ["2", "9", "9"]  # the Queen's 2 stays with him
    assert sorted(table.table.court) == sorted(old)
    assert all(slot in table.view(CAROL) for slot in court)
    assert "carol (Tea Boy) trades 2 cards for the Court Hand (2 cards)" in table.lines
    assert table.private[CAROL] == ["alice (Queen) gives you 2", "From the Court Hand you take 9 9"]
    assert table.private[ALICE] == ["carol (Tea Boy) gives you 11 12"] and table.private[BOB] == []


def test_a_tea_boy_who_keeps_back_a_higher_card_is_caught_at_the_audit():
    table = Court(3, [["1", "2"], ["5", "6"], ["12", "11", "3"]])
    table.do(ALICE, "pass")
    # He gives the 3 and the 11 and keeps the 12: a hidden choice, recorded as a claim.
    table.act(CAROL, Serve(table.slots(CAROL, ["3", "11"]), ALICE))
    assert table.state.cards.claims[0].player == CAROL
    table.do(CAROL, "trade")  # the 12 goes into the Court Hand, seen by nobody until the audit
    with pytest.raises(RuleViolation) as caught:
        table.play_with([PlayoutBot(b"audit")] * 3)
    assert caught.value.player == CAROL
    assert caught.value.reason == (
        "gave 3 and 11 while holding a 12: the Tea Boy must give his two highest numbered cards"
    )
    step = table.step()
    assert isinstance(step, CardOperations) and isinstance(step.operations[0], Audit)


def test_a_tea_boy_who_serves_one_card_while_holding_another_numbered_card_is_caught():
    table = Court(3, [["1", "2"], ["5", "6"], ["12", "11", "3"]])
    table.do(ALICE, "pass")
    table.act(CAROL, Serve(table.slots(CAROL, ["12"]), ALICE))
    table.do(CAROL, "trade")
    with pytest.raises(RuleViolation) as caught:
        table.play_with([PlayoutBot(b"audit")] * 3)
    assert caught.value.player == CAROL
    assert caught.value.reason == (
        "gave 12 while holding an 11: the Tea Boy must give his two highest numbered cards"
    )


def test_a_tea_boy_who_serves_a_special_card_as_numbered_is_caught():
    table = Court(3, [["1"], ["5"], ["MS", "7", "2"]])
    table.do(ALICE, "pass")
    table.act(CAROL, Serve(table.slots(CAROL, ["MS", "7"]), ALICE))
    table.do(CAROL, "keep")
    with pytest.raises(RuleViolation, match="gives numbered cards, not MS") as caught:
        table.play_with([PlayoutBot(b"ms")] * 3)
    assert caught.value.player == CAROL


def test_an_honest_tea_boy_passes_the_audit_and_the_next_quarter_begins():
    table = Court(3, [["1", "2"], ["5", "6"], ["12", "11", "3"]])
    table.do(ALICE, "pass")
    table.do(CAROL, "give 11 12 to alice")
    table.do(CAROL, "trade")
    table.play_with([PlayoutBot(b"honest")] * 3, until=lambda t: t.state.quarter == 2)
    assert table.state.quarter == 2 and not table.state.cards.claims


def test_the_inspector_looks_at_the_court_hand_and_one_players_hand():
    table = Court(7, [["1"], ["2"], ["3"], ["4"], ["5", "6"], ["7"], ["8", "9"]])
    table.do(ALICE, "pass")
    table.do(BOB, "pass")
    assert table.step().actors == (DAVE,) and table.table.phase == "inspect"
    assert table.texts(DAVE) == [
        "inspect alice", "inspect bob", "inspect carol", "inspect erin", "inspect frank",
        "inspect gina", "pass",
    ]
    erin = list(table.state.hands[4])
    unseen = [slot for slot in table.table.court if not any(slot in table.view(p) for p in range(7))]
    assert len(unseen) == 14  # the dealt Court Hand (the rest was cut from the hands)
    table.do(DAVE, "inspect erin")
    view = table.view(DAVE)
    assert all(slot in view for slot in table.table.court + erin)
    assert not any(slot in table.view(p) for slot in unseen for p in range(7) if p != DAVE)
    assert "dave (Inspector) looks at the Court Hand (75 cards) and at erin's hand" in table.lines
    (seen,) = table.private[DAVE]
    assert seen.startswith("The Court Hand holds ") and seen.endswith("; erin holds 5 6")
    assert not any(table.private[seat] for seat in range(7) if seat != DAVE)


VAGABOND_TABLE = SteamCourt({3: ("submariner", "alchemist", "vagabond")})


def test_the_vagabond_gives_his_two_highest_numbered_cards_to_anyone_and_may_hoard_the_court_hand():
    table = Court(3, [["1"], ["2"], ["10", "12", "X", "4"]], ["9"], game=VAGABOND_TABLE)
    # The Submariner and the Alchemist have no Beginning of Quarter privilege.
    assert table.texts(CAROL) == ["give 10 12 to alice", "give 10 12 to bob"]
    table.do(CAROL, "give 10 12 to bob")
    assert table.hand(BOB) == ["2", "10", "12"]
    assert table.private[BOB] == ["carol (Vagabond) gives you 10 12"]
    court = len(table.table.court)
    assert table.texts(CAROL) == ["hoard", "leave"]
    table.do(CAROL, "hoard")
    assert len(table.hand(CAROL)) == 2 + court and table.table.court == []
    (hoarded,) = table.private[CAROL]
    assert hoarded.startswith("From the Court Hand you take ") and "9" in hoarded
    assert table.step().actors == (ALICE,) and table.table.phase == "turn"


def test_the_tea_boy_cannot_trade_for_an_empty_court_hand():
    table = Court(3, [["1"], ["2"], ["12", "11", "3"]])
    table.do(ALICE, "pass")
    table.do(CAROL, "give 11 12 to alice")
    table.table.court.clear()  # as if a Vagabond had hoarded it
    assert table.texts(CAROL) == ["keep"]
    with pytest.raises(IllegalAction, match="nothing to trade for"):
        table.act(CAROL, Trade(True))
