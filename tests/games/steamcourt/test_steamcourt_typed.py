"""Typed moves (``parse_action``) and the choice list's groups (``group_choices``), issue 7.

A move is typed as its description prints it (the conformance test reads back every legal action
of random games, in upper case with extra spaces too); these tests check the reasons a person
reads when the rules refuse what he typed, and what the list of choices says when the leader holds
a Multiplier (every count of every set of cards used to be its own line: "… 176 more").
"""

import os

import pytest

from p2pgames.engine import IllegalAction, LocalTable, MalformedAction
from p2pgames.games.steamcourt import GAME, SteamCourt
from p2pgames.games.steamcourt.actions import DiscardTwo, Give, Lay, Masterstroke, Pass, Retrieve, Serve, Unpass
from p2pgames.games.steamcourt.presentation import PRESENTATION
from p2pgames.games.steamcourt.solo import Beat, GiveUp, Recall, StopTrick, Strike

from solo_scenarios import Solo
from steamcourt_scenarios import NAMES, Court

ALICE, BOB, CAROL, DAVE = range(4)


def parse(table, seat, text):
    return table.shown.parse_action(table.state, seat, text, table.view(seat), NAMES[: table.ruleset.players])


def refused(table, seat, text):
    with pytest.raises(IllegalAction) as caught:
        parse(table, seat, text)
    assert caught.value.player == seat
    return caught.value.reason


# -- the court: what a typed move reads as ---------------------------------------------------------


def test_a_typed_lay_names_the_lowest_cards_of_each_face_as_the_legal_moves_do():
    table = Court(4, [["5", "5", "7", "X", "MS", "3/9"], ["1"], ["2"], ["3"]], play=True)
    fives = table.slots(ALICE, ["5", "5"])
    assert parse(table, ALICE, "lay 5 5") == Lay(fives, 5, 2)
    assert parse(table, ALICE, "  LAY 5   5 +x3 ") == Lay(fives, 5, 3, table.slot(ALICE, "X"))
    assert parse(table, ALICE, "lay X") == Lay((), 1, 1, table.slot(ALICE, "X"))
    assert parse(table, ALICE, "lay ms") == Masterstroke(table.slot(ALICE, "MS"))
    assert parse(table, ALICE, "lay 3/9 as 9") == Lay((table.slot(ALICE, "3/9"),), 9, 1)
    # Each is the very action the list of choices offers under that text.
    for action, text in zip(table.legal(ALICE), table.texts(ALICE)):
        assert parse(table, ALICE, text) == action


def test_names_are_matched_without_case_and_the_answers_of_each_moment_are_read():
    table = Court(3, [["2", "1"], ["5"], ["12", "11", "3"]])
    assert parse(table, ALICE, "GIVE 2 TO Carol") == Give(table.slot(ALICE, "2"), CAROL)
    table.do(ALICE, "pass")
    assert parse(table, CAROL, "give 11 12 to alice") == Serve(table.slots(CAROL, ["11", "12"]), ALICE)


def test_the_time_travelers_answers_are_typed_too():
    table = Court(4, [["5", "1", "1"], ["1", "2"], ["6", "10", "1", "1"], ["7", "11", "1", "4", "9"]], play=True)
    for seat, text in ((ALICE, "lay 5"), (BOB, "pass"), (CAROL, "lay 6"), (DAVE, "lay 7"), (ALICE, "pass"),
                       (CAROL, "lay 10"), (DAVE, "lay 11"), (CAROL, "pass"), (DAVE, "pass")):
        table.do(seat, text)
    assert parse(table, CAROL, "Retrieve") == Retrieve()
    assert parse(table, CAROL, "pass") == Pass()
    # "not this quarter" is no move: a standing answer her own peer keeps, listed beside the
    # choices when it is on offer (RULES.md, I28); read as a move, it says when it is offered.
    for text in ("not this quarter", "not now"):
        with pytest.raises(MalformedAction, match="answers the General's stop, the Time Traveler's retrieve"):
            parse(table, CAROL, text)


# -- the court: the reasons for common mistakes ----------------------------------------------------


def test_a_follow_of_the_wrong_size_or_value_says_what_the_trick_needs():
    # Queen alice, Duke bob, Tea Boy carol.
    table = Court(3, [["5", "5", "5", "1"], ["4", "4", "4", "6"], ["7", "7", "7", "8", "3", "3", "3"]], play=True)
    table.do(ALICE, "lay 5 5 5")
    assert refused(table, BOB, "lay 6") == "you must play 3 cards to follow this trick"
    assert refused(table, BOB, "lay 4 4 4") == "the Duke must match or beat 5"
    table.do(BOB, "pass")
    assert refused(table, CAROL, "lay 3 3 3") == "you must beat 5"
    assert refused(table, CAROL, "lay 8 8 8") == "you hold only one 8"
    assert refused(table, CAROL, "lay 9 9 9") == "you hold no 9"
    assert refused(table, ALICE, "lay 1") == "it is not your turn"


def test_a_lay_whose_cards_dont_make_one_value_says_so():
    table = Court(3, [["5", "7", "3/9", "X", "7", "1"], ["2"], ["3"]], play=True)
    assert refused(table, ALICE, "lay 5 7") == "declared 5s but laid 5 7: a 7 can't count as 5"
    assert refused(table, ALICE, "lay 3/9") == "say what 3/9 counts as: as 3 or as 9"
    assert refused(table, ALICE, "lay 7 7 as 9") == "declared 9s but laid 7 7: a 7 can't count as 9"
    assert refused(table, ALICE, "lay 7 7 X").startswith("a Multiplier is typed +X and the number it makes")
    assert refused(table, ALICE, "lay 7 7 +X1") == "a Multiplier with 2 cards counts as at least 2, not 1"
    assert refused(table, ALICE, "lay 7 7 +X16") == "a Multiplier may count as at most 7 here"
    assert refused(table, ALICE, "lay 7 as pair") == "only the Jester plays a single card as a pair"
    assert refused(table, ALICE, "lay 7 MS") == "a Masterstroke is laid alone: lay MS"
    assert refused(table, ALICE, "lay MS") == "you hold no MS"
    assert refused(table, ALICE, "pass") == "you lead this trick: you can't pass"


def test_a_move_of_another_moment_gets_that_moments_reason():
    table = Court(3, [["2", "1"], ["5"], ["12", "11", "3"]])
    assert refused(table, ALICE, "lay 2") == "give a card or pass"
    assert refused(table, BOB, "pass") == "you have nothing to decide now"
    table.do(ALICE, "pass")
    assert refused(table, CAROL, "give 12 to alice") == "you must give your two highest numbered cards: 11 12"
    assert refused(table, CAROL, "give 11 12 to bob") == "the Tea Boy serves the preeminent player"
    assert refused(table, CAROL, "trade") == "you must give your two highest numbered cards"
    table.do(CAROL, "give 11 12 to alice")
    assert refused(table, CAROL, "retrieve") == "trade or keep your hand"


def test_the_generals_gift_and_stop_say_whom_they_may_name():
    table = Court(6, [["5", "9", "1"], ["2", "1"], ["3", "1"], ["6", "10", "1"], ["7", "11", "1"], ["8", "12", "1"]])
    table.do(ALICE, "pass")
    assert refused(table, BOB, "give 2 to alice") == "the General can't give a card to the Queen"
    assert refused(table, BOB, "give 2 to bob") == "give the card to another player at the table"
    table.skip_to_play()
    table.do(ALICE, "lay 5")
    table.passes(BOB, CAROL)
    table.do(DAVE, "lay 6")
    assert refused(table, BOB, "stop erin") == "only the lay just made can be stopped: dave's"


def test_the_tokens_and_the_jester_unpass_and_discard_as_typed():
    jester = SteamCourt({3: ("queen", "jester", "teaboy")})
    table = Court(3, [["5", "7", "2", "3", "4"], ["9", "10", "1", "1"], ["6", "8", "1"]], game=jester, play=True)
    table.do(ALICE, "lay 5")
    table.do(BOB, "pass")
    table.do(CAROL, "lay 6")
    table.do(ALICE, "lay 7")
    assert parse(table, BOB, "unpass") == Unpass("jester")
    assert refused(table, BOB, "unpass token") == "you can't unpass with the token now"
    assert refused(table, BOB, "discard 1 1") == "unpass or pass"
    table.state.powers[ALICE].append(["discard", False])  # a test shortcut: alice has the token
    table.do(BOB, "pass")
    table.passes(CAROL)
    assert refused(table, ALICE, "discard 2") == "the Discard-two token discards two numbered cards: discard 2 5"
    assert refused(table, ALICE, "discard 2 9") == "you hold no 9"
    assert parse(table, ALICE, "discard 4 2") == DiscardTwo(table.slots(ALICE, ["2", "4"]))


def test_words_that_are_no_move_are_malformed():
    table = Court(3, [["2", "1"], ["5"], ["12", "11", "3"]], play=True)
    for text in ("", "fly", "lay", "lay 5 banana", "lay 13", "lay 5 as 15", "lay 5 as pear", "give 2 to nobody",
                 "give 2 carol", "dive deep 7", "put 7", "unpass forever", "coup now", "pass pass"):
        with pytest.raises(MalformedAction):
            parse(table, ALICE, text)
    # A lay that names no card asks for the cards (not for a Multiplier).
    for text in ("lay as 9", "lay as pair"):
        with pytest.raises(MalformedAction, match="say which cards"):
            parse(table, ALICE, text)


def test_the_jesters_dual_card_as_pair_is_asked_which_pair():
    # Following the advice must make the Jester's pair, not lay the card as a single one.
    jester = SteamCourt({3: ("queen", "jester", "teaboy")})
    table = Court(3, [["5", "5", "1"], ["3/9", "1"], ["1"]], game=jester, play=True)
    table.do(ALICE, "lay 5 5")
    assert refused(table, BOB, "lay 3/9 as pair") == "say what 3/9 counts as: as pair of 3 or as pair of 9"
    assert parse(table, BOB, "lay 3/9 as pair of 9") == Lay((table.slot(BOB, "3/9"),), 9, 2)
    assert "lay 3/9 as pair of 9" in table.texts(BOB)


def test_a_card_named_by_its_slot_and_by_its_face_is_two_cards():
    table = Court(3, [["7", "7", "5", "1"], ["2"], ["3"]], play=True)
    low, high = table.slots(ALICE, ["7", "7"])
    # "#low 7": the 7 named by its face is the other one, never the card already named.
    assert parse(table, ALICE, f"lay #{low} 7") == Lay((low, high), 7, 2)
    assert parse(table, ALICE, f"lay 7 #{low}") == Lay((low, high), 7, 2)
    assert refused(table, ALICE, f"lay #{low} #{low}") == f"card #{low} is named twice"
    five = table.slot(ALICE, "5")
    assert refused(table, ALICE, f"lay #{five} 5") == "you hold only one 5"


def test_cards_taken_from_the_machine_or_the_drawn_cards_name_that_place():
    pirate = SteamCourt({3: ("queen", "pirate", "teaboy")})
    table = Court(3, [["5", "1"], ["2", "1"], ["6/12", "1", "3"]], game=pirate, play=True)
    table.do(ALICE, "lay 5")
    table.do(BOB, "pass")
    table.do(CAROL, "lay 6/12 as 12")
    table.passes(ALICE, CAROL)
    assert refused(table, BOB, "steal 9") == "there is no 9 in the machine"
    assert refused(table, BOB, "steal 6/12") == "the Pirate steals numbered cards only"
    mine = table.slot(BOB, "2")
    assert refused(table, BOB, f"steal #{mine}") == f"card #{mine} is not in the machine"
    renegades = SteamCourt({3: ("submariner", "alchemist", "plaguedoctor")})
    table = Court(3, [["3", "3", "1"], ["4", "4", "1"], ["8", "8", "1"]], game=renegades, play=True)
    for seat, text in ((ALICE, "lay 3 3"), (BOB, "lay 4 4"), (CAROL, "lay 8 8")):
        table.do(seat, text)
    table.passes(ALICE, BOB, CAROL)
    table.do(CAROL, "plague")
    kept = table.slot(CAROL, "1")  # in her hand before she drew
    assert refused(table, CAROL, f"put back #{kept}") == f"card #{kept} is not among the cards you drew"
    assert refused(table, CAROL, "put back 12") == "there is no 12 among the cards you drew"


# -- the choice list's groups ----------------------------------------------------------------------


def groups(table, seat):
    actions, texts = table.legal(seat), table.texts(seat)
    found = table.shown.group_choices(table.state, seat, actions, texts)
    assert sorted(i for group in found for i in group.members) == list(range(len(actions)))
    return [(group.label, [texts[i] for i in group.members]) for group in found]


def test_a_leader_with_a_multiplier_sees_one_line_per_set_of_cards_and_completes_the_count():
    table = Court(4, [["5", "5", "7", "X", "MS", "9"], ["1"], ["2"], ["3"]], play=True)
    assert len(table.legal(ALICE)) == 33
    found = groups(table, ALICE)
    assert [label for label, _ in found] == [
        "lay 5", "lay 5 5", "lay 7", "lay 9",
        "lay 5 +X…", "lay 5 5 +X…", "lay 7 +X…", "lay 9 +X…",
        "lay X", "lay MS",
    ]
    # A group stands for the counts its cards can make (here up to 7: one more than the largest
    # hand, I12), in order; picking it leaves the count to type after their common prefix.
    members = dict(found)
    assert members["lay 5 5 +X…"] == [f"lay 5 5 +X{n}" for n in range(2, 8)]
    assert members["lay 5 +X…"] == [f"lay 5 +X{n}" for n in range(1, 8)]
    assert os.path.commonprefix(members["lay 5 5 +X…"]) == "lay 5 5 +X"
    assert members["lay X"] == ["lay X"]


def test_a_hand_with_too_many_lines_lists_one_line_per_card_and_completes_within_it():
    table = Court(4, [["X", "5", "5", "7", "7", "7", "3/9", "9", "11", "12", "MS", "1"], ["1", "2"], ["2", "3"], ["4", "6"]], play=True)
    actions, texts = table.legal(ALICE), table.texts(ALICE)
    found = table.shown.group_choices(table.state, ALICE, actions, texts)
    assert len(actions) == 165
    assert [group.label for group in found] == [
        "lay 1 …", "lay 3/9 …", "lay 5 …", "lay 7 …", "lay 9 …", "lay 11 …", "lay 12 …", "lay X", "lay MS",
    ]
    fives = found[2]
    assert [part.label for part in fives.parts] == ["lay 5", "lay 5 5", "lay 5 +X…", "lay 5 5 +X…"]
    assert os.path.commonprefix([texts[i] for i in fives.members]) == "lay 5"
    nines = found[4]
    assert [part.label for part in nines.parts] == ["lay 9", "lay 9 3/9 as 9", "lay 9 +X…", "lay 9 3/9 +X… as 9"]
    assert sorted(i for group in found for i in group.members) == list(range(len(actions)))


def test_a_dual_card_with_a_multiplier_keeps_its_value_after_the_count():
    table = Court(3, [["3/9", "X", "1"], ["2"], ["4"]], play=True)
    members = dict(groups(table, ALICE))
    assert members["lay 3/9 +X… as 9"][:2] == ["lay 3/9 +X1 as 9", "lay 3/9 +X2 as 9"]
    assert os.path.commonprefix(members["lay 3/9 +X… as 9"]) == "lay 3/9 +X"


def test_a_gift_is_one_line_per_card_completed_by_the_receivers_name():
    table = Court(4, [["2", "7", "7"], ["5"], ["6"], ["8"]])
    assert groups(table, ALICE) == [
        ("give 2 to …", ["give 2 to bob", "give 2 to carol", "give 2 to dave"]),
        ("give 7 to …", ["give 7 to bob", "give 7 to carol", "give 7 to dave"]),
        ("pass", ["pass"]),
    ]


def test_discard_two_pairs_and_a_dives_cards_are_one_line_each():
    plain = SteamCourt({3: ("queen", "inspector", "teaboy")})
    table = Court(3, [["2", "5", "5", "MS", "9"], ["6", "1"], ["7", "1"]], game=plain, play=True)
    table.state.powers[ALICE].append(["discard", False])  # a test shortcut: alice has the token
    found = groups(table, ALICE)
    # The token's pairs by their lower card; every other choice on its own line.
    assert [(label, texts) for label, texts in found if label.startswith("discard")] == [
        ("discard 2 …", ["discard 2 5", "discard 2 9"]),
        ("discard 5 …", ["discard 5 5", "discard 5 9"]),
    ]
    assert all(len(texts) == 1 for label, texts in found if not label.startswith("discard"))
    renegades = SteamCourt({3: ("submariner", "alchemist", "plaguedoctor")})
    table = Court(3, [["3", "8", "1"], ["4", "1"], ["6", "1"]], game=renegades, play=True)
    found = groups(table, ALICE)
    assert [label for label, _ in found] == ["lay 1", "lay 3", "lay 8", "dive court …"]
    assert sorted(dict(found)["dive court …"]) == ["dive court 1", "dive court 3", "dive court 8"]


# -- Solo -----------------------------------------------------------------------------------------


def first_round():
    # Tea Boy: 11 and 12 go under the Court Hand; the Court Hand lays 5 5 X, 6 and 4 4.
    return Solo(["7", "7", "X", "MS", "11", "12", "3", "9"], ["5", "5", "6", "X", "4", "4"], ["10", "10"])


def test_solo_moves_are_typed_as_described():
    table = first_round()
    assert parse(table, 0, "give up 11 12") == GiveUp(tuple(sorted((table.slot("11"), table.slot("12")))))
    table.do("give up 11 12")
    sevens = tuple(sorted(s for s in table.state.hand if table.truth[s] in ("7a", "7b")))
    assert parse(table, 0, "LAY 7 7 +X3 ON 1") == Beat(0, sevens, 7, 3, table.slot("X"))
    assert parse(table, 0, "lay MS on 3") == Strike(2, table.slot("MS"))
    for action, text in zip(table.legal(), table.texts()):
        assert parse(table, 0, text) == action


def test_solo_mistakes_get_the_rules_reasons():
    table = first_round()
    assert refused(table, 0, "lay 7 on 2") == "use your character's privilege"
    assert refused(table, 0, "give up 12") == "the Tea Boy gives up his two highest numbered cards: 11 12"
    table.do("give up 11 12")
    assert refused(table, 0, "lay 7 on 1") == "you must play 3 cards to beat this trick"
    assert refused(table, 0, "lay 3 on 2") == "you must beat 6"
    assert refused(table, 0, "lay 8 on 2") == "you hold no 8"
    assert refused(table, 0, "lay 7 as set on 1") == "only the Jester plays a single card as a set"
    assert refused(table, 0, "stop 2") == "only the General stops the Court Hand"
    assert refused(table, 0, "retrieve 7") == "only the Time Traveler retrieves from the discard pile"
    table.do("lay MS on 2")
    assert refused(table, 0, "lay 9 on 2") == "trick 2 is beaten already"
    for text in ("lay 7 7", "lay 7 on 4", "lay 7 on two", "retrieve", "give 11 12", "fly"):
        with pytest.raises(MalformedAction):
            parse(table, 0, text)


def test_solo_powers_name_the_pile_they_take_from():
    table = Solo(["3", "3/9", "7", "12", "12"], ["4", "5", "11"], ["10"], at="timetraveler", fill="high")
    assert refused(table, 0, "retrieve 7") == "there is no 7 in the discard pile"
    hand = min(table.state.hand)
    assert refused(table, 0, f"retrieve #{hand}") == f"card #{hand} is not in the discard pile"
    general = Solo(["3", "3/9", "7", "12", "12"], ["4", "5", "11"], ["10"], at="general", fill="high")
    assert refused(general, 0, "discard 7") == "you may only discard your lowest card"
    assert parse(general, 0, "discard 3/9") != parse(general, 0, "discard 3")
    general.do("discard 3")
    assert parse(general, 0, "stop 3") == StopTrick(2)
    assert parse(general, 0, "pass") == Pass()
    assert refused(general, 0, "retrieve 12") == "only the Time Traveler retrieves from the discard pile"
    table.do("lay 12 on 1")
    table.do("pass")  # trick 1 beaten and discarded: its 4 and the 12
    assert parse(table, 0, "retrieve 12") == Recall(table.state.discard[-1])


def test_a_party_player_names_players_at_his_own_table():
    table = LocalTable(GAME, GAME.ruleset(8, {"variant": "party"}), b"typed-party")
    while table.state.tables[0].phase != "give":  # the coup windows pass: the Queen gives first
        step = table.step()
        seat = next(p for p in step.players if table.state.table_of(p).phase == "coup")
        table.act(seat, Pass())
    royal, renegades = table.state.tables
    queen, names = royal.seats[0], [f"p{seat}" for seat in range(8)]

    def read(text):
        return PRESENTATION.parse_action(table.state, queen, text, table.view(queen), names)

    card = next(iter(table.state.hands[queen]))
    assert read(f"give #{card} to {names[royal.seats[1]]}") == Give(card, royal.seats[1])
    with pytest.raises(IllegalAction) as caught:
        read(f"give #{card} to {names[renegades.seats[0]]}")
    assert caught.value.reason == f"{names[renegades.seats[0]]} plays at the Renegade table"
    with pytest.raises(MalformedAction, match="nobody called 'p9' plays at this table"):
        read(f"give #{card} to p9")
