"""The Solo variant (rulebook: "1 Player (Solo Variant)", "The Court Hand", "Character
Privileges", "End Game"); RULES.md, Solo, and interpretations I40–I47."""

import pytest

from p2pgames import canonical
from p2pgames.engine import (
    CardOperations,
    CardsDone,
    GameOver,
    IllegalAction,
    MalformedAction,
    NewDeal,
    Reveal,
    RulesetError,
    Turn,
)
from p2pgames.engine.conformance import play_random_game
from p2pgames.games.steamcourt import GAME
from p2pgames.games.steamcourt.presentation import PRESENTATION, SOLO_PRESENTATION, SteamCourtSoloPresentation
from p2pgames.games.steamcourt.solo_game import SOLO_GAME as SOLO, SteamCourtSolo
from p2pgames.games.steamcourt.actions import Pass
from p2pgames.games.steamcourt.cards import DECK
from p2pgames.games.steamcourt.solo import (
    LADDER,
    Beat,
    DiscardLowest,
    GiveUp,
    Recall,
    SoloState,
    StopTrick,
    Strike,
    rank_of,
)

from solo_scenarios import Solo

# A hand for the first round: the Tea Boy gives up 11 and 12 and draws two 8s.
HAND = ["3", "4", "5", "7", "7", "9", "10", "11", "12", "X", "MS", "3/9"]
COURT = ["5", "6", "5", "X", "9"]


def first_round():
    table = Solo(HAND, COURT, ["8", "8"])
    table.do("give up 11 12")
    return table


# -- setup -----------------------------------------------------------------------------------------


def test_one_player_plays_solo_and_the_variants_check_their_player_counts():
    assert GAME.min_players == 1
    assert GAME.ruleset(1)["variant"] == "solo"
    # Solo is a game of its own: tables and sessions play a solo ruleset with it.
    assert GAME.for_ruleset(GAME.ruleset(1)) is SOLO and GAME.for_ruleset(GAME.ruleset(2)) is GAME
    described = "Steam Court, 1 player: the Solo variant against the Court Hand"
    assert GAME.describe_ruleset(GAME.ruleset(1)) == SOLO.describe_ruleset(GAME.ruleset(1)) == described
    with pytest.raises(MalformedAction, match="unknown Steam Court action 'beat'"):
        GAME.decode_action(["beat", 0, [3], 7, 1, None])  # no Solo move in a court game
    assert isinstance(SOLO.setup(GAME.ruleset(1)), SoloState)
    with pytest.raises(RulesetError, match="Solo variant is for exactly 1 player"):
        GAME.ruleset(2, {"variant": "solo"})
    with pytest.raises(RulesetError, match="one player plays solo"):
        GAME.ruleset(1, {"variant": "court"})
    with pytest.raises(RulesetError, match="duo_win is an option of the Duo variant"):
        GAME.ruleset(1, {"duo_win": "queen"})
    with pytest.raises(RulesetError, match="Clock Climbing"):
        GAME.ruleset(1, {"scoring": "clock"})


def test_setup_deals_12_cards_to_you_22_to_the_court_hand_and_the_rest_to_the_draw_pile():
    state = SOLO.setup(GAME.ruleset(1))
    # One deal of the whole deck; your twelve cards are turned face up (I40), the rest stay down.
    assert SOLO.step(state) == CardOperations((NewDeal(0, DECK, 0), Reveal(tuple(range(12)))))
    assert state.hand == list(range(12))
    assert state.court == list(range(12, 34))
    assert state.draw == list(range(34, 84))


def test_the_court_hand_and_the_draw_pile_stay_face_down_until_turned_or_drawn():
    table = first_round()
    revealed = table.state.cards.revealed
    assert not any(slot in revealed for slot in table.state.draw)
    turned = [slot for trick in table.state.tricks for slot in trick[0]]
    # Every card the Court Hand has not turned up is hidden, but the two the Tea Boy put under it.
    hidden = [slot for slot in table.state.court if slot not in revealed]
    assert len(hidden) == len(table.state.court) - 2
    assert table.knowledge[0] == {}  # nothing is disclosed privately: what you see, all see
    # The transcript shows the order: each Court Hand card is turned by its own reveal, top first.
    turns = [event.values for event in table.log if isinstance(event, CardsDone)][-5:]
    assert [values[0][0] for values in turns] == sorted(turned) == [12, 13, 14, 15, 16]
    assert all(len(values) == 1 for values in turns)


def test_the_character_ladder_is_the_royal_tables_six_from_the_tea_boy_up_to_the_queen():
    assert LADDER == ("teaboy", "jester", "timetraveler", "duke", "general", "queen")
    assert Solo().character == "teaboy"


# -- a round -------------------------------------------------------------------------------------


def test_the_tea_boy_gives_up_his_two_highest_numbered_cards_under_the_court_hand_then_draws_to_12():
    table = Solo(HAND, COURT, ["8", "8"])
    assert table.step() == Turn((0,), "give up your two highest numbered cards")
    # Special cards are not numbered cards: the 3/9, X and MS stay (FAQ).
    assert table.texts() == ["give up 11 12"]
    with pytest.raises(IllegalAction, match="two highest numbered"):
        table.act(0, GiveUp(tuple(sorted((table.state.hand[9], table.state.hand[6])))))
    table.do("give up 11 12")
    assert table.court()[-2:] == ["11", "12"]
    assert table.hand() == ["3", "4", "5", "7", "7", "8", "8", "9", "10", "3/9", "X", "MS"]
    assert "you (Tea Boy) puts 11 12 under the Court Hand" in table.lines
    assert "you draws 2 cards" in table.lines


def test_the_court_hand_stacks_duplicates_and_puts_a_multiplier_on_the_left_most_trick():
    table = first_round()
    assert table.tricks() == [(3, 5, ["5", "5", "X"]), (1, 6, ["6"]), (1, 9, ["9"])]
    assert table.lines[-6:] == [
        "the Court Hand turns up 5: trick 1",
        "the Court Hand turns up 6: trick 2",
        "the Court Hand turns up 5: stacked on trick 1",
        "the Court Hand turns up X: a Multiplier on trick 1",
        "the Court Hand turns up 9: trick 3",
        "tricks on the table — 1: 3 × 5 (5 5 X), 2: 1 × 6 (6), 3: 1 × 9 (9); Court Hand 19",
    ]
    assert table.step() == Turn((0,), "beat the Court Hand's tricks, or pass to end the round")


def test_a_masterstroke_turned_up_is_a_multiplier_and_one_before_any_trick_waits_for_the_first():
    table = Solo(["4"], ["MS", "X", "3/9", "3", "6/12", "6", "7"])
    table.do("give up 2 4")
    # 3/9 and 6/12 count as the lower number, and stack with the 3s and 6s.
    assert table.tricks() == [(4, 3, ["3", "3/9", "X", "MS"]), (2, 6, ["6", "6/12"]), (1, 7, ["7"])]
    assert "the Court Hand turns up MS: a Multiplier for the first trick" in table.lines


def test_a_trick_is_beaten_by_the_same_quantity_of_a_higher_value():
    table = first_round()
    texts = table.texts()
    assert "lay 7 on 2" in texts and "lay 5 on 2" not in texts
    assert "lay 10 on 3" in texts and "lay 9 on 3" not in texts
    # Three 5s need three cards: only with your Multiplier (or a Masterstroke) here.
    assert [t for t in texts if t.endswith("on 1")][:2] == ["lay 7 +X3 on 1", "lay 7 7 +X3 on 1"]
    six = table.state.tricks[1]
    with pytest.raises(IllegalAction, match="you must beat 6"):
        table.act(0, Beat(1, (table.state.hand[2],), 5, 1))
    with pytest.raises(IllegalAction, match="you must play 3 cards to beat this trick"):
        table.act(0, Beat(0, tuple(sorted(table.state.hand[3:5])), 7, 2))
    assert six[3] == []


def test_your_multiplier_counts_as_the_tricks_quantity_and_your_masterstroke_beats_any_trick():
    table = first_round()
    table.do("lay 7 7 +X3 on 1")
    table.do("lay MS on 3")
    assert table.lines[-2:] == ["you beats trick 1 with 7 7 +X3", "you beats trick 3 with MS"]
    assert "lay 3/9 as 9 on 2" in table.texts()
    with pytest.raises(IllegalAction, match="a 3/9 can't count as 8"):
        table.act(0, Beat(1, (table.slot("3/9"),), 8, 1))


def test_an_illegal_beat_names_an_8_with_an():
    table = first_round()  # holds two 8s, drawn for the 11 and 12 given up
    eight = table.slot("8")
    with pytest.raises(IllegalAction, match="^seat 0: declared 9s but laid 8: an 8 can't count as 9$"):
        table.act(0, Beat(1, (eight,), 9, 1))
    with pytest.raises(IllegalAction, match="^seat 0: laid an 8 as the Multiplier$"):
        table.act(0, Beat(0, (table.slot("7"),), 7, 3, multiplier=eight))
    with pytest.raises(IllegalAction, match="^seat 0: that card is an 8, not a Masterstroke$"):
        table.act(0, Strike(0, eight))


def test_a_multiplier_alone_is_a_single_1():
    table = Solo(["X", "2"], ["1", "3", "4"], at="duke")
    # The Duke may match a 1 with a Multiplier laid alone; nobody else could beat with it.
    assert "lay X on 1" in table.texts()
    table.do("lay X on 1")
    assert table.state.tricks[0][3][1:] == [1, 1, table.state.tricks[0][3][3]]


def test_beating_all_three_tricks_discards_them_and_advances_to_the_next_character():
    table = first_round()
    table.do("lay 7 7 +X3 on 1")
    table.do("lay 8 on 2")
    table.do("lay 10 on 3")
    assert table.character == "jester"
    assert "every trick beaten: 3 tricks to the discard pile" in table.lines
    assert "you advances: Engineer to the Jester" in table.lines
    assert len(table.state.discard) == 5 + 5
    # The next round: no privilege for the Jester; draw back up to 12, three new tricks.
    assert len(table.state.hand) == 12 and len(table.state.tricks) == 3
    assert table.state.round == 2


def test_a_partial_beat_discards_the_beaten_tricks_and_leaves_the_others_for_the_next_round():
    table = Solo(HAND, ["5", "6", "9", "9", "8", "6"], ["8", "8"])
    table.do("give up 11 12")
    # Three tricks are on the table: the Court Hand turns no more (the next 9 stays in it).
    assert table.tricks() == [(1, 5, ["5"]), (1, 6, ["6"]), (1, 9, ["9"])]
    table.do("lay 7 on 2")
    table.do("pass")
    assert "1 trick beaten and discarded; the others stay" in table.lines
    # Same character (and the Tea Boy gives up nothing again); the unbeaten tricks stay, new
    # cards are turned until three tricks lie on the table, and duplicates stack on old ones.
    assert table.character == "teaboy" and table.state.round == 2
    assert table.step() == Turn((0,), "beat the Court Hand's tricks, or pass to end the round")
    assert table.tricks() == [(1, 5, ["5"]), (2, 9, ["9", "9"]), (1, 8, ["8"])]
    assert table.faces(table.state.discard) == ["6", "7"]


def test_when_no_trick_is_beaten_all_three_are_discarded_and_three_new_ones_turned_up():
    table = first_round()
    # You may pass with playable cards (FAQ), ending the round.
    table.do("pass")
    assert "no trick beaten: all 3 tricks are discarded" in table.lines
    assert len(table.state.discard) == 5
    assert len(table.state.tricks) == 3 and table.character == "teaboy"
    assert all(not trick[3] for trick in table.state.tricks)


def test_the_court_hand_running_out_loses_the_game():
    table = first_round()
    while not isinstance(table.step(), GameOver):
        table.do("pass")
    result = table.step()
    assert result.winners == () and result.scores == (0,)
    assert result.summary == "the Court Hand ran out: lost as Engineer to the Tea Boy (0 of 6 characters beaten)"
    assert table.state.court == [] and len(table.state.tricks) < 3
    assert "you lost as Engineer to the Tea Boy" in table.lines
    # The deal is audited at the end: every card is public.
    assert table.state.cards.audited == {0}


# -- the characters' privileges ------------------------------------------------------------------


def test_the_jester_plays_a_single_card_as_a_set_once_a_round():
    table = Solo(["10", "11", "12"], ["4", "4", "5", "5", "6", "6", "7", "7", "8", "8"], at="jester")
    assert table.tricks() == [(2, 4, ["4", "4"]), (2, 5, ["5", "5"]), (1, 6, ["6"])]
    assert "lay 10 as set on 1" in table.texts()
    table.do("lay 10 as set on 1")
    assert not any(text.endswith("as set on 2") for text in table.texts())
    with pytest.raises(IllegalAction, match="once a round"):
        table.act(0, Beat(1, (table.slot("11"),), 11, 2))
    table.do("pass")
    # A new round: the power is back.
    assert any(text.endswith("as set on 1") for text in table.texts())


def test_only_the_jester_plays_a_single_card_as_a_set():
    table = Solo(["10", "11", "12"], ["4", "4", "5"], at="duke")
    assert not any("as set" in text for text in table.texts())
    with pytest.raises(IllegalAction, match="only the Jester"):
        table.act(0, Beat(0, (table.state.hand[-1],), 12, 2))


def test_the_time_traveler_retrieves_a_card_from_the_discard_pile_once_a_round():
    table = Solo(["10", "11", "12"], ["4", "5", "6", "7", "8", "9"], at="timetraveler")
    assert "retrieve 4" not in " ".join(table.texts())  # the discard pile is empty
    table.do("lay 10 on 1")
    table.do("pass")
    assert table.texts().count("retrieve 4") == 1 and "retrieve 10" in table.texts()
    table.do("retrieve 10")
    assert table.hand().count("10") == 1 and len(table.state.hand) == 13
    assert "you (Time Traveler) retrieves 10 from the discard pile" in table.lines
    assert not any(text.startswith("retrieve") for text in table.texts())
    with pytest.raises(IllegalAction, match="once a round"):
        table.act(0, Recall(table.state.discard[0]))


def test_the_duke_may_match_the_number_laid():
    table = Solo(["5", "6", "9"], ["5", "6", "9"], at="duke")
    assert {"lay 5 on 1", "lay 6 on 2", "lay 9 on 3"} <= set(table.texts())
    table.do("lay 5 on 1")
    table.do("lay 6 on 2")
    table.do("lay 9 on 3")
    assert table.character == "general"


def test_the_general_discards_his_lowest_card_draws_a_replacement_and_stops_one_trick():
    table = Solo(["3", "3/9", "7", "12", "12"], ["4", "5", "11"], ["10"], at="general", fill="high")
    assert table.step() == Turn((0,), "discard your lowest card and draw, or pass")
    # His lowest card: a 3, or the 3/9 as a 3 (I46); one card only.
    assert table.texts() == ["discard 3", "discard 3/9", "pass"]
    with pytest.raises(IllegalAction, match="only discard your lowest card"):
        table.act(0, DiscardLowest((table.slot("7"),)))
    table.do("discard 3")
    assert "10" in table.hand() and len(table.state.hand) == 12
    assert table.faces(table.state.discard) == ["3"]
    # He may stop the Court Hand from laying one trick: two to beat.
    table.do("stop 3")
    assert table.court()[-1] == "11"
    assert "you (General) stops trick 3: 11 go back under the Court Hand" in table.lines
    assert not any(text.startswith("stop") for text in table.texts())
    with pytest.raises(IllegalAction, match="one trick a round"):
        table.act(0, StopTrick(0))
    table.do("lay 12 on 1")
    table.do("lay 12 on 2")
    assert table.character == "queen"


def test_only_the_general_stops_a_trick():
    table = first_round()
    with pytest.raises(IllegalAction, match="only the General"):
        table.act(0, StopTrick(0))


def test_the_queen_discards_her_lowest_card_or_set_and_beating_the_court_hand_as_queen_wins():
    table = Solo(["2", "2", "3", "10", "11", "12"], ["4", "5", "6"], ["9", "9"], at="queen", fill="high")
    assert table.step() == Turn((0,), "discard your lowest card or set and draw, or pass")
    assert table.texts() == ["discard 2", "discard 2 2", "pass"]
    table.do("discard 2 2")
    assert table.hand().count("9") == 2 and len(table.state.hand) == 12
    table.do("lay 10 on 1")
    table.do("lay 11 on 2")
    table.do("lay 12 on 3")
    # The end: every card of the deal is audited, then the game is won with a rank.
    result = table.step()
    assert isinstance(result, GameOver)
    assert 0 in table.state.cards.audited
    assert result.winners == (0,) and result.scores == (6,)
    assert result.summary == "Master Engineer: beat the Court Hand as Engineer to the Queen with 19 cards left in it"
    # The winning round's tricks stay on the table: the log doesn't send them to the discard pile.
    assert "every trick beaten" in table.lines
    assert not any(line.startswith("every trick beaten:") for line in table.lines)


@pytest.mark.parametrize(
    "left, rank",
    [(0, "Apprentice Engineer"), (1, "Apprentice Engineer"), (2, "Apprentice Engineer"),
     (3, "Skilled Engineer"), (4, "Skilled Engineer"), (5, "Master Engineer"), (6, "Master Engineer"),
     (7, "Master Engineer"), (19, "Master Engineer")],
)
def test_the_rank_by_cards_left_in_the_court_hand(left, rank):
    # 1–2 Apprentice, 3–4 Skilled, 5–6 Master; none left counts as Apprentice, more than 6 as
    # Master (I47).
    assert rank_of(left) == rank


def test_when_the_draw_pile_runs_out_the_discard_pile_is_shuffled_into_a_new_one():
    table = first_round()
    table.do("pass")  # five cards to the discard pile
    table.state.draw = []  # a test shortcut: the draw pile is empty
    table.do("lay MS on 1")
    # The MS and trick 1 join the discard pile, which becomes the new draw pile (I44).
    discarded = len(table.state.discard) + len(table.state.tricks[0][0]) + 1
    table.do("pass")
    assert [note for note in table.notes if note[0] == "reshuffle"] == [("reshuffle", discarded)]
    assert list(table.state.cards.deals) == [0, 1] and len(table.state.hand) == 12
    assert table.state.discard == [] and len(table.state.draw) == discarded - 1
    assert f"the draw pile is empty: the discard pile ({discarded} cards) is shuffled into a new one" in table.lines


# -- presentation and conformance ------------------------------------------------------------------


EVERY_KIND = [Beat(0, (3, 4), 7, 2), Beat(2, (5,), 7, 3), Beat(1, (5,), 6, 4, 9), Beat(0, (), 1, 1, 9),
              Strike(1, 8), StopTrick(2), Recall(40), GiveUp((1, 2)), GiveUp(()), DiscardLowest((3, 7)),
              Pass()]


@pytest.mark.parametrize("action", EVERY_KIND, ids=repr)
def test_solo_actions_round_trip_their_wire_form_and_repr(action):
    wire = SOLO.encode_action(action)
    assert SOLO.decode_action(canonical.decode(canonical.encode(wire))) == action
    namespace = vars(__import__(type(action).__module__, fromlist=["_"]))
    assert eval(repr(action), dict(namespace)) == action


@pytest.mark.parametrize(
    "build",
    [lambda: Beat(3, (1,), 7, 1), lambda: Beat(0, (2, 1), 7, 2), lambda: Beat(0, (1, 2), 7, 3),
     lambda: Beat(0, (), 5, 1, 9), lambda: Beat(0, (1,), 13, 1), lambda: GiveUp((1, 2, 3)),
     lambda: DiscardLowest(()), lambda: Recall(-1), lambda: Strike(0, "7")],
)
def test_malformed_solo_actions_are_refused(build):
    with pytest.raises(MalformedAction):
        build()


def test_solo_panels_show_the_ladder_the_tricks_and_the_hand_in_80_columns():
    table = first_round()
    table.do("lay 7 7 +X3 on 1")
    panels = SOLO_PRESENTATION.panels(table.state, 0, {}, ["alice"])
    titles = [panel.title for panel in panels]
    # Titles fit the terminal's title column (16) and lines the room beside it (61 of 80): the
    # same layout every round (see tests/tui/test_tui_solo_layout.py).
    assert titles == ["Solo", "The ladder", "The tricks", "Your hand (9)", "Your privilege"]
    text = ["".join(t for _, t in line) for panel in panels for line in panel.lines]
    assert all(len(line) <= 61 for line in text)
    assert "round 1 · Court Hand 19 · draw pile 48 · discard pile 0" in text
    assert "[Tea Boy] → Jester → Time Traveler → Duke → General → Queen" in text
    assert any(line.startswith("1 3 × 5 (5 5 X)") and line.endswith("beaten by 7 7 +X3") for line in text)
    assert any(line.startswith("2 1 × 6 (6)") and line.endswith("to beat: 1 × above 6") for line in text)
    assert "(you draw up to 12)" in text[-2]
    # The Tea Boy's give-up is done once the first round's privilege is over.
    assert text[-1] == "Tea Boy: round 1: give up your two top numbered cards (done)"


def test_the_help_explains_the_variants_and_their_commands():
    text = PRESENTATION.help_text()
    for command in ("lay 7 7 on 2", "lay 7 as set on 3", "lay MS on 1", "stop 2", "retrieve 7",
                    "give up 11 12", "discard 3 3", "duo_win=queen"):
        assert command in text
    assert max(len(line) for line in text.splitlines()) <= 78


def test_the_solo_state_round_trips_its_encoding():
    table = first_round()
    data = canonical.decode(canonical.encode(SOLO.encode_state(table.state)))
    again = SOLO.decode_state(data)
    assert isinstance(again, SoloState)
    assert SOLO.state_hash(again) == SOLO.state_hash(table.state)


@pytest.mark.parametrize("seed", [b"solo-1", b"solo-2", b"solo-3", b"solo-4"])
def test_random_solo_games_conform(seed):
    report = play_random_game(PRESENTATION, GAME.ruleset(1), seed)
    assert report.result is not None and report.result.scores[0] in range(0, 7)


class Eager(SteamCourtSolo):
    """Random play that always beats a trick when it can: it climbs the ladder and sometimes wins."""

    def playout_choice(self, state, player, actions, knowledge, random):
        beats = [a for a in actions if isinstance(a, (Beat, Strike, StopTrick))]
        if beats:
            return beats[random.below(len(beats))]
        return actions[random.below(len(actions))]


EAGER = Eager()


@pytest.mark.parametrize("seed, won", [(b"eager-0", False), (b"eager-1", False), (b"eager-12", True),
                                       (b"eager-36", True)])
def test_eager_solo_games_conform_climb_the_ladder_and_sometimes_win(seed, won):
    report = play_random_game(SteamCourtSoloPresentation(EAGER), GAME.ruleset(1), seed)
    assert report.result is not None
    assert bool(report.result.winners) is won
    if won:
        # eager-36 wins with 7 cards left in the Court Hand: more than 6 is a Master (I47).
        assert report.result.scores == (6,) and report.result.summary.endswith("left in it")
