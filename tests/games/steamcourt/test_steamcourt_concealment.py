"""No card put out of a seat's sight can be traced by its slot to what that seat saw of the hand
(issue 24, point 1; RULES.md I51): a hand holding a card another seat was shown — a gift's giver,
the Inspector — is re-masked before its owner gives, serves or trades, and a Tea Boy whose hand was
re-masked names the cards given to him that he keeps (a claim, checked at the audit)."""

import pytest

from p2pgames.bots import PlayoutBot
from p2pgames.engine import Act, Audit, CardOperations, Disclose, Reshuffle, RuleViolation
from p2pgames.games.steamcourt import SteamCourt
from p2pgames.games.steamcourt.actions import Give, Serve, Trade, TradeKeeping

from steamcourt_scenarios import Court

ALICE, BOB, CAROL, DAVE, ERIN, FRANK = range(6)


def traceable(table, seat):
    """Each choice of ``seat`` that hides a card another seat can tell, with that seat."""
    state = table.state
    found = []
    for action in table.legal(seat):
        for hidden in table.game.concealed_moves(state, seat, action):
            for other in range(table.players):
                if other == seat or other in hidden.seen_by:
                    continue
                if state.cards.value(hidden.slot) is not None or hidden.slot in table.view(other):
                    found.append((action, other))
    return found


def test_the_general_gives_on_the_queens_card_from_a_re_masked_hand():
    table = Court(6, [["1", "9"], ["2", "3"], ["4"], ["5"], ["6"], ["8", "7"]])
    nine = table.slot(ALICE, "9")
    dealt = tuple(table.state.hands[BOB])
    after = table.game.apply(table.state, Act(ALICE, Give(nine, BOB)))
    # The Queen knows where her 9 went: before the General may give it on, his hand is re-masked,
    # its new slots shown to him alone.
    first = after.cards.next_slot - 3
    fresh = tuple(range(first, first + 3))
    assert table.game.step(after) == CardOperations((
        Disclose((nine,), BOB), Reshuffle(len(after.cards.deals) - 1, dealt + (nine,), first), Disclose(fresh, BOB, remask=True),
    ))
    table.do(ALICE, "give 9 to bob")
    hand = table.state.hands[BOB]
    assert table.hand(BOB) == ["2", "3", "9"] and nine not in hand
    assert not any(slot in table.view(ALICE) for slot in hand)
    assert traceable(table, BOB) == []
    table.do(BOB, "give 9 to frank")
    assert table.hand(FRANK) == ["7", "8", "9"]
    # The re-mask is no news to anyone's log: the General was told of the Queen's 9 once.
    assert table.private[BOB] == ["alice (Queen) gives you 9"]


def _general_gives_the_tea_boy_a_3():
    # The 2 and the 4 go to the Court Hand in his trade, for two of its cards.
    table = Court(6, [["1"], ["2", "3"], ["4"], ["5"], ["6"], ["8", "7", "4", "2"]])
    del table.table.court[2:]
    table.do(ALICE, "pass")
    three = table.slot(BOB, "3")
    table.do(BOB, "give 3 to frank")
    return table, three


def test_the_tea_boy_serves_from_a_hand_re_masked_after_the_generals_gift_and_keeps_the_gift():
    table, three = _general_gives_the_tea_boy_a_3()
    hand = table.state.hands[FRANK]
    # The General can't tell whether his 3 is served: it has a new slot, like every card there.
    assert three not in hand and not any(slot in table.view(BOB) for slot in hand)
    assert traceable(table, FRANK) == []
    table.do(FRANK, "give 7 8 to alice")
    # He names the 3 he must keep, as he sees it; "trade" still says it all.
    gift = table.slot(FRANK, "3")
    assert table.legal(FRANK) == [TradeKeeping((gift,)), Trade(False)]
    assert table.texts(FRANK) == ["trade", "keep"]
    assert traceable(table, FRANK) == []
    court = table.faces(table.table.court)
    table.do(FRANK, "trade")
    assert sorted(table.hand(FRANK)) == sorted(["3"] + court) and table.faces(table.table.court) == ["2", "4"]
    assert "frank (Tea Boy) trades 2 cards for the Court Hand (2 cards)" in table.lines
    assert table.private[FRANK] == [
        "bob (General) gives you 3", "From the Court Hand you take " + " ".join(court),
    ]
    # The claim holds at the audit: the next quarter begins.
    table.play_with([PlayoutBot(b"kept")] * 6, until=lambda t: t.state.quarter == 2)
    assert table.state.quarter == 2 and not table.state.cards.claims


def test_a_tea_boy_who_trades_away_a_card_given_to_him_is_caught_at_the_audit():
    table, three = _general_gives_the_tea_boy_a_3()
    table.do(FRANK, "give 7 8 to alice")
    table.act(FRANK, TradeKeeping(()))  # the 3 goes into the Court Hand, which nobody sees
    with pytest.raises(RuleViolation) as caught:
        table.play_with([PlayoutBot(b"kept")] * 6)
    assert caught.value.player == FRANK
    assert caught.value.reason == "kept nothing in a trade: the Tea Boy keeps the cards given to him, and only those"
    step = table.step()
    assert isinstance(step, CardOperations) and isinstance(step.operations[0], Audit)


def test_the_queens_gift_to_the_tea_boy_needs_no_re_mask_he_serves_her():
    # She alone knows her card, and he serves her: nothing he gives her is hidden from her.
    table = Court(3, [["1", "2"], ["5"], ["12", "11", "3", "4"]])
    two = table.slot(ALICE, "2")
    table.do(ALICE, "give 2 to carol")
    assert two in table.state.hands[CAROL] and traceable(table, CAROL) == []
    table.do(CAROL, "give 11 12 to alice")
    assert table.legal(CAROL) == [Trade(True), Trade(False)]


INSPECTED = SteamCourt({3: ("queen", "inspector", "vagabond")})


def test_the_vagabond_serves_from_a_hand_re_masked_after_the_inspector_saw_it():
    table = Court(3, [["1"], ["2"], ["10", "12", "X", "4"]], game=INSPECTED)
    table.do(ALICE, "pass")
    seen = list(table.state.hands[CAROL])
    table.do(BOB, "inspect carol")
    assert all(slot in table.view(BOB) for slot in seen)
    hand = table.state.hands[CAROL]
    assert table.hand(CAROL) == ["4", "10", "12", "X"]
    assert not any(slot in seen or slot in table.view(BOB) for slot in hand)
    assert traceable(table, CAROL) == []
    (line,) = table.private[BOB]
    assert line.endswith("; carol holds 4 10 12 X")
    table.do(CAROL, "give 10 12 to bob")
    assert table.private[CAROL] == []
