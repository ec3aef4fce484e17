"""Tricks: the lead, following, passing, winning, Masterstrokes, Multipliers, 3/9 and 6/12, the
Duke, and revealed lays that don't make what they claimed (rulebook: "First Trick", "Passing",
"Winning the Trick", "Explanation of Cards and Tokens", FAQ)."""

import pytest

from p2pgames.engine import Act, CardOperations, IllegalAction, Reveal, RuleViolation, Turn
from p2pgames.games.steamcourt import SteamCourt
from p2pgames.games.steamcourt.actions import Lay, Masterstroke, Pass

from steamcourt_scenarios import Court

ALICE, BOB, CAROL = 0, 1, 2
# Three players whose characters don't change how tricks are played (no Duke).
PLAIN = SteamCourt({3: ("queen", "inspector", "teaboy"), 4: ("queen", "inspector", "vagabond", "teaboy")})


def plain(hands, **options):
    return Court(len(hands), hands, game=PLAIN, play=True, **options)


def test_the_lead_sets_the_quantity_and_the_others_must_play_as_many_of_a_higher_value():
    table = plain([["5", "5", "5", "9"], ["4", "4", "4", "6", "6", "6", "7"], ["8", "8", "8", "3"]])
    assert table.step() == Turn((ALICE,), "lead a trick")
    assert table.texts(ALICE) == ["lay 5", "lay 5 5", "lay 5 5 5", "lay 9"]
    table.do(ALICE, "lay 5 5 5")
    assert table.step() == Turn((BOB,), "beat 3 × 5, or pass")
    assert table.texts(BOB) == ["lay 6 6 6", "pass"]
    with pytest.raises(IllegalAction, match="you must beat 5"):
        table.act(BOB, Lay(table.slots(BOB, ["4", "4", "4"]), 4, 3))
    with pytest.raises(IllegalAction, match="you must play 3 cards to follow this trick"):
        table.act(BOB, Lay((table.slot(BOB, "7"),), 7, 1))
    table.do(BOB, "lay 6 6 6")
    assert table.texts(CAROL) == ["lay 8 8 8", "pass"]


def test_played_cards_are_revealed_to_everyone():
    table = plain([["5", "5"], ["6"], ["7"]])
    fives = table.slots(ALICE, ["5", "5"])
    after = table.game.apply(table.state, Act(ALICE, Lay(fives, 5, 2)))
    assert table.game.step(after) == CardOperations((Reveal(fives),))


def test_the_leader_cannot_pass():
    table = plain([["5"], ["6"], ["7"]])
    assert "pass" not in table.texts(ALICE)
    with pytest.raises(IllegalAction, match="you lead this trick: you can't pass"):
        table.act(ALICE, Pass())


def test_a_card_the_player_does_not_hold_is_refused_before_anything_is_revealed():
    table = plain([["5"], ["6"], ["7"]])
    with pytest.raises(IllegalAction, match="that card is not in your hand"):
        table.act(ALICE, Lay((table.slot(BOB, "6"),), 6, 1))
    with pytest.raises(IllegalAction, match="not your turn"):
        table.act(BOB, Lay((table.slot(BOB, "6"),), 6, 1))


def test_passing_sits_out_the_trick_and_play_goes_round_until_everyone_has_passed():
    table = plain([["5", "9", "2"], ["6", "10"], ["8", "3"]])
    table.do(ALICE, "lay 5")
    table.do(BOB, "pass")  # FAQ: a player may pass though he could play
    table.do(CAROL, "lay 8")
    table.do(ALICE, "lay 9")
    # bob has passed: he sits out the rest of the trick, though he holds a 10.
    assert table.step() == Turn((CAROL,), "beat 1 × 9, or pass")
    table.do(CAROL, "pass")
    # Everyone else has passed, but the trick goes on until alice passes too.
    assert table.step() == Turn((ALICE,), "beat 1 × 9, or pass")
    table.do(ALICE, "pass")
    # The highest card wins; its player leads the next trick.
    assert table.state.tricks == [1, 0, 0]
    assert table.step() == Turn((ALICE,), "lead a trick")
    assert table.table.lays == [] and len(table.table.discard) == 3
    assert table.story().splitlines()[-5:] == [
        "carol lays 8", "alice lays 9", "carol passes", "alice passes", "alice wins the trick"
    ]


def test_a_player_may_play_over_his_own_cards():
    # FAQ: two 10s, everyone else passes, then two 11s on top of his own.
    table = plain([["10", "10", "11", "11", "2"], ["2"], ["3"]])
    table.do(ALICE, "lay 10 10")
    table.passes(BOB, CAROL)
    assert table.texts(ALICE) == ["lay 11 11", "pass"]
    table.do(ALICE, "lay 11 11")
    assert table.step() == Turn((ALICE,), "beat 2 × 11, or pass")


def test_a_masterstroke_beats_everything_and_ends_the_trick_at_once():
    table = plain([["5", "5", "5", "2"], ["MS", "4"], ["MS", "9"]])
    table.do(ALICE, "lay 5 5 5")
    # On a trick of any quantity: a single Masterstroke beats three 5s.
    assert "lay MS" in table.texts(BOB)
    table.do(BOB, "lay MS")
    # Nobody plays after it — not even carol's Masterstroke: bob won and leads.
    assert table.state.tricks == [0, 1, 0]
    assert table.step() == Turn((BOB,), "lead a trick")


def test_a_masterstroke_may_be_led_and_its_player_leads_again():
    table = plain([["MS", "5"], ["6"], ["7"]])
    table.do(ALICE, "lay MS")
    assert table.step() == Turn((ALICE,), "lead a trick")
    assert "alice lays a Masterstroke" in table.lines


def test_a_multiplier_makes_cards_of_one_value_count_as_many_as_declared():
    # Others hold 3 and 4 cards: a Multiplier lead may count as up to 5 (I12).
    table = plain([["5", "X"], ["9", "9", "X", "2"], ["3", "3", "3"]])
    assert table.texts(ALICE) == [
        "lay 5", "lay 5 +X1", "lay 5 +X2", "lay 5 +X3", "lay 5 +X4", "lay 5 +X5", "lay X"
    ]
    with pytest.raises(IllegalAction, match="at most 5 here"):
        table.act(ALICE, Lay((table.slot(ALICE, "5"),), 5, 6, table.slot(ALICE, "X")))
    table.do(ALICE, "lay 5 +X4")
    assert table.step() == Turn((BOB,), "beat 4 × 5, or pass")
    # To follow, the Multiplier counts exactly as the trick's quantity.
    assert table.texts(BOB) == ["lay 9 +X4", "lay 9 9 +X4", "pass"]
    table.do(BOB, "lay 9 9 +X4")
    assert "bob lays 9 9 +X4" in table.lines


def test_two_sevens_and_a_multiplier_beat_three_fives():
    # FAQ: "If a player started the trick with three 5s, you could lay two 7s and a Multiplier."
    table = plain([["5", "5", "5", "1"], ["7", "7", "X", "1"], ["2"]])
    table.do(ALICE, "lay 5 5 5")
    table.do(BOB, "lay 7 7 +X3")
    table.passes(CAROL, ALICE, BOB)
    assert table.state.tricks == [0, 1, 0]


def test_a_multiplier_alone_is_a_single_1():
    table = plain([["X", "4"], ["2"], ["3"]])
    assert "lay X" in table.texts(ALICE)
    table.do(ALICE, "lay X")
    assert table.step() == Turn((BOB,), "beat 1 × 1, or pass")
    assert table.texts(BOB) == ["lay 2", "pass"]


def test_3_9_and_6_12_count_as_either_value():
    table = plain([["3/9", "6/12"], ["7"], ["2"]])
    assert table.texts(ALICE) == [
        "lay 3/9 as 3", "lay 6/12 as 6", "lay 3/9 as 9", "lay 6/12 as 12"
    ]
    table.do(ALICE, "lay 3/9 as 3")
    table.do(BOB, "lay 7")
    table.do(CAROL, "pass")
    assert table.texts(ALICE) == ["lay 6/12 as 12", "pass"]
    table.do(ALICE, "lay 6/12 as 12")
    assert "alice lays 6/12 as 12" in table.lines


def test_the_duke_may_match_instead_of_beating():
    table = Court(3, [["7", "7"], ["7", "7", "8"], ["8", "8"]], play=True)
    assert table.table.characters == ["queen", "duke", "teaboy"]
    table.do(ALICE, "lay 7 7")
    assert table.step() == Turn((BOB,), "match or beat 2 × 7, or pass")
    assert table.texts(BOB) == ["lay 7 7", "pass"]
    table.do(BOB, "lay 7 7")
    # Anyone else must still beat the value on top.
    assert table.texts(CAROL) == ["lay 8 8", "pass"]
    with pytest.raises(IllegalAction, match="you must beat 7"):
        table.act(CAROL, Lay(table.slots(CAROL, ["8", "8"]), 7, 2))


def second_multiplier(t):
    five, (first, second) = t.slot(BOB, "5"), t.slots(BOB, ["X", "X"])
    return Lay(tuple(sorted([five, second])), 5, 3, first)


@pytest.mark.parametrize(
    "lead, hand, lay, reason",
    [
        # A Multiplier declared with unlike cards.
        ("lay 4 4 4", ["5", "7", "X"], lambda t: Lay(t.slots(BOB, ["5", "7"]), 5, 3, t.slot(BOB, "X")),
         "declared 5s but laid 5 7: a 7 can't count as 5"),
        # At most one Multiplier: a second one can't stand for a 5.
        ("lay 4 4 4", ["5", "X", "X"], second_multiplier, "declared 5s but laid 5 X: an X can't count as 5"),
        # A 3/9 declared as a 7.
        ("lay 4", ["3/9"], lambda t: Lay((t.slot(BOB, "3/9"),), 7, 1),
         "declared 7s but laid 3/9: a 3/9 can't count as 7"),
        # Not the value claimed.
        ("lay 4", ["6"], lambda t: Lay((t.slot(BOB, "6"),), 8, 1), "declared 8s but laid 6: a 6 can't count as 8"),
        # A card that is no Multiplier, laid as one.
        ("lay 4 4", ["5", "7"], lambda t: Lay((t.slot(BOB, "5"),), 5, 2, t.slot(BOB, "7")),
         "laid a 7 as the Multiplier"),
        # A card that is no Masterstroke, laid as one.
        ("lay 4", ["9"], lambda t: Masterstroke(t.slot(BOB, "9")), "laid a 9 as a Masterstroke"),
    ],
)
def test_a_lay_whose_revealed_cards_dont_make_what_it_claimed_is_a_rule_violation(lead, hand, lay, reason):
    table = plain([["4", "4", "4"], hand, ["2"]])
    table.do(ALICE, lead)
    action = lay(table)
    with pytest.raises(RuleViolation) as caught:
        table.act(BOB, action)
    assert caught.value.player == BOB
    assert caught.value.reason == reason
    # The event that revealed it is not applied: the reveal is still pending.
    assert isinstance(table.step(), CardOperations)
