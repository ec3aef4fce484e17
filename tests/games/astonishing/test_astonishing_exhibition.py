"""The Exhibition phase (rulebook, "The Exhibition Phase", "Final Scoring" and the Exhibition
abilities), in the rulebook's order: the Queen or King chosen face down (a sealed choice),
descriptions, the vote, three dice, the exhibition actions and the installed cards revealed, Jacks
re-rolling, the exhibition Queens and Kings, which positions work, the score, the audit."""

import pytest

from p2pgames.engine import (
    Chance,
    ChanceOutcome,
    ChoicesSealed,
    GameOver,
    IllegalAction,
    RuleViolation,
    Sealed,
    Simultaneous,
    SimultaneousActs,
    Turn,
    Unseal,
)
from p2pgames.games.astonishing.actions import (
    Describe,
    ExhibitCard,
    Intimidate,
    KeepParts,
    OnlyJokers,
    Promote,
    ReplacePart,
    Reroll,
    Sabotage,
    SwayCrowd,
    Vote,
)
from p2pgames.games.astonishing.bots import make_bot
from p2pgames.games.astonishing.presentation import PRESENTATION

from tests.games.astonishing.astonishing_scenarios import (
    CLUBS,
    DIAMONDS,
    GAME,
    HEARTS,
    SPADES,
    Phase,
    act,
    describe_all,
    hand,
    installed,
    knows,
    legal,
    panel_lines,
    play,
    play_all,
    reroll_to,
    roll,
    seal,
    simultaneous,
    slot,
    table,
    texts,
    typed,
)

KINGS = {0: "king, vote bob", 1: "king, vote alice", 2: "king, vote alice"}
VOTES = {0: "vote bob", 1: "vote alice", 2: "vote alice"}


def _fair(installed, hands=None, inventors=(CLUBS, DIAMONDS, HEARTS), first=0, **options):
    """The exhibition about to begin (Queen or King to be chosen face down): alice, bob, carol
    play ``inventors``; the deck is spent; ``options`` are table options."""
    return table(
        len(inventors), inventors, first, hands=hands or {}, installed=installed, rest="out", phase=Phase.CHOOSE_EXHIBIT,
        **options,
    )


def _exhibit(t, choices=KINGS, dice=(4, 4, 4), descriptions=None):
    """The whole exhibition up to the Jacks: ``choices[seat]`` is ``"<card>, vote <name>"``; each
    card is sealed, everyone describes (``descriptions`` typed, else the first choice), votes, and
    the crowd rolls ``dice``; then the cards are opened and the installed cards revealed."""
    seal(t, {seat: choice.split(", ")[0] for seat, choice in choices.items()})
    describe_all(t, descriptions)
    roll(t, *dice)
    play_all(t, {seat: choice.split(", ")[1] for seat, choice in choices.items()})


def _keep_jacks(t):
    while t.state.phase == Phase.JACKS:
        play(t, t.state.queue[0], "keep my jacks")


SIMPLE = {0: [["9C", "3H"], ["7D"], []], 1: [["10D"], ["2S"], ["5C"]], 2: [["6H"], ["8S"], ["4H"]]}


# -- describing ------------------------------------------------------------------------------------


def test_each_position_is_described_by_the_number_of_one_of_its_cards_an_empty_position_by_none():
    t = _fair({0: [["AC", "9H"], ["7D"], []], 1: [["AD"], ["AH"], ["3D"]]})
    seal(t)
    assert legal(t, 0) == [Describe((9, 7, 0)), Describe((11, 7, 0))]  # her own Ace: the revolutionized 11
    assert texts(t, 0) == ["describe 9 7 -", "describe 11 7 -"]
    play(t, 0, "describe 11 7 - pitch Behold!")
    assert t.state.descriptions[0] == [11, 7, 0] and t.state.pitches[0] == "Behold!"
    # Bob's own Ace is 11 to him; the Ace of Hearts is an ordinary 1.
    assert legal(t, 1) == [Describe((11, 1, 3))]


def test_descriptions_come_in_turn_from_the_first_player_and_are_announced():
    t = _fair(SIMPLE, first=1)
    seal(t)
    assert t.step() == Turn((1,), "describe your contraption to the fair")
    describe_all(t)
    assert [line.split(" presents ")[0] for line in t.lines[1:]] == ["Abimbola Kayin", "Marisol Chang", "Lady Calibrette Merchant"]
    assert t.state.phase == Phase.VOTE


def test_a_description_must_give_a_number_to_each_filled_position_and_none_to_an_empty_one():
    t = _fair(SIMPLE)
    seal(t)
    with pytest.raises(IllegalAction, match="position 3 is empty: its descriptor is 0"):
        act(t, 0, Describe((9, 7, 5)))
    with pytest.raises(IllegalAction, match="position 2 holds a card: choose its descriptor"):
        act(t, 0, Describe((9, 0, 0)))


def test_a_false_descriptor_is_caught_naming_the_player_when_the_cards_are_revealed():
    t = _fair(SIMPLE)
    seal(t)
    act(t, 0, Describe((5, 7, 0)))  # no 5 in position 1: nobody can tell yet
    describe_all(t)
    roll(t, 4, 4, 4)
    with pytest.raises(RuleViolation) as caught:
        play_all(t, VOTES)  # the dice, the exhibition actions, then the installed cards revealed
    assert caught.value.player == 0
    assert caught.value.reason == "described position 1 with descriptor 5, but no card of that number is installed there"


def test_describing_an_own_ace_as_an_ordinary_ace_is_false():
    t = _fair({0: [["AC"], ["7D"], []], 1: [["10D"], [], []], 2: [["6H"], [], []]})
    seal(t)
    act(t, 0, Describe((1, 7, 0)))
    describe_all(t)
    roll(t, 4, 4, 4)
    with pytest.raises(RuleViolation, match="descriptor 1"):
        play_all(t, VOTES)


# -- the exhibition actions, the vote, the dice, the reveal ---------------------------------------


def test_queen_or_king_is_chosen_first_face_down_before_the_descriptions():
    t = _fair(SIMPLE)
    assert t.step() == Sealed((0, 1, 2), "choose Queen or King for the exhibition (face down until after the dice)")
    assert texts(t, 0) == ["queen", "king"] and legal(t, 2) == [ExhibitCard("queen"), ExhibitCard("king")]
    assert typed(t, 0, "choose queen") == ExhibitCard("queen")
    seal(t, {0: "queen", 1: "king", 2: "queen"})
    assert t.log[-1] == ChoicesSealed()
    assert t.lines == ["Everyone has chosen an exhibition action, face down until after the dice."]
    assert t.step() == Turn((0,), "describe your contraption to the fair")


def test_the_exhibition_actions_are_not_in_the_public_state_or_the_log_before_the_dice():
    t = _fair(SIMPLE)
    hidden = GAME.encode_state(t.state)
    seal(t, {0: "queen", 1: "king", 2: "queen"})
    # The sealing changed the state (the descriptions begin) but nothing says who chose what: a
    # table where everyone chose King instead is in the very same public state.
    other = _fair(SIMPLE)
    seal(other, {0: "king", 1: "king", 2: "king"})
    assert GAME.state_hash(t.state) == GAME.state_hash(other.state) and t.log == other.log
    assert hidden["exhibit"] == t.state.exhibit == ["", "", ""]
    describe_all(t)
    # The vote: still nothing of them, in the state, the log or anyone's panels.
    state = GAME.apply(t.state, SimultaneousActs(((0, Vote(2)), (1, Vote(0)), (2, Vote(0)))))
    assert state.phase == Phase.DICE and state.exhibit == ["", "", ""]
    lines = t.lines + PRESENTATION.narrate(t.state, SimultaneousActs(((0, Vote(2)), (1, Vote(0)), (2, Vote(0)))), state, t.names)
    assert not any("Queen" in line or "King" in line for line in lines), lines
    for viewer in (None, 0, 1, 2):
        knowledge = t.knowledge[viewer] if viewer is not None else {}
        shown = " ".join(text for panel in PRESENTATION.panels(state, viewer, knowledge, t.names) for line in panel.lines for _, text in line)
        assert "· queen" not in shown and "· king" not in shown, shown


def test_the_vote_comes_after_the_descriptions_all_at_once_never_for_oneself():
    t = _fair(SIMPLE)
    seal(t)
    describe_all(t)
    assert t.step() == Simultaneous((0, 1, 2), "vote for a competitor's invention")
    assert texts(t, 0) == ["vote bob", "vote carol"] and texts(t, 1) == ["vote alice", "vote carol"]
    with pytest.raises(IllegalAction, match="vote for a competitor: never for yourself"):
        simultaneous(t, {0: Vote(0), 1: Vote(0), 2: Vote(0)})
    with pytest.raises(IllegalAction, match="exhibition actions are chosen face down as the exhibition begins"):
        GAME.check_action(t.state, 0, ExhibitCard("queen"))


def test_the_votes_are_public_jacks_handed_to_the_competitor_voted_for():
    t = _fair(SIMPLE)
    _exhibit(t, {0: "king, vote carol", 1: "queen, vote carol", 2: "king, vote bob"})
    assert t.state.votes == [2, 2, 1] and t.state.jacks == [0, 1, 2]
    assert "Votes: alice → carol; bob → carol; carol → bob." in t.lines


def test_the_crowd_is_three_dice_rolled_by_chance_after_the_vote():
    t = _fair(SIMPLE)
    seal(t)
    describe_all(t)
    after = GAME.apply(t.state, SimultaneousActs(tuple((s, Vote((s + 1) % 3)) for s in range(3))))
    assert GAME.step(after) == Chance("the crowd: three dice")
    seen = set()
    for n in range(60):
        rolled = GAME.apply(after, ChanceOutcome(n.to_bytes(32, "big")))
        assert len(rolled.dice) == 3 and all(1 <= d <= 6 for d in rolled.dice)
        assert rolled.demonstration == sum(rolled.dice)
        assert GAME.step(rolled) == Unseal((0, 1, 2), "the exhibition actions")  # opened next
        seen.update(rolled.dice)
    assert seen == {1, 2, 3, 4, 5, 6}


def test_the_exhibition_actions_are_opened_after_the_dice_then_the_installed_cards_revealed():
    t = _fair(SIMPLE)
    seal(t, {0: "queen", 1: "king", 2: "king"})
    describe_all(t)
    assert not knows(t, 1, "9C") and not knows(t, None, "8S")
    roll(t, 6, 5, 4)
    play_all(t, {0: "vote bob", 1: "vote alice", 2: "vote alice"})
    # The log's events after the vote: the dice, the opening (the sealed choices), the reveal.
    assert [type(event).__name__ for event in t.log[-3:]] == ["ChanceOutcome", "SimultaneousActs", "CardsDone"]
    assert t.log[-2] == SimultaneousActs(((0, ExhibitCard("queen")), (1, ExhibitCard("king")), (2, ExhibitCard("king"))))
    assert t.state.exhibit == ["queen", "king", "king"]
    for name in ("9C", "3H", "7D", "10D", "2S", "5C", "6H", "8S", "4H"):
        assert knows(t, None, name)
    assert t.lines[-8:] == [
        "The crowd: 6 + 5 + 4 = 15.",
        "Exhibition actions revealed: alice Queen; bob King; carol King.",
        "alice's contraption — form: 9♣ 3♥; workings: 7♦; wonder: —.",
        "bob's contraption — form: 10♦; workings: 2♠; wonder: 5♣.",
        "carol's contraption — form: 6♥; workings: 8♠; wonder: 4♥.",
        "alice: 1: 9♣ 3♥ = 12 ✗; 2: 7♦ = 7 ✗; 3: empty ✗",
        "bob: 1: 10♦ = 10 ✗; 2: 2♠ = 2 ✗; 3: 5♣ = 5 ✗",
        "carol: 1: 6♥ = 6 ✗; 2: 8♠ = 8 ✗; 3: 4♥ = 4 ✗",
    ]
    players = {viewer: " ".join(text for line in PRESENTATION.panels(t.state, viewer, {}, t.names)[1].lines for _, text in line)
               for viewer in (None,)}
    assert "· queen" in players[None] and players[None].count("· king") == 2


# -- Jacks -----------------------------------------------------------------------------------------


def test_a_player_with_jacks_may_reroll_any_number_of_dice_one_jack_each_the_same_die_again_too():
    t = _fair(SIMPLE)
    _exhibit(t, {0: "king, vote bob", 1: "king, vote alice", 2: "king, vote bob"}, dice=(6, 5, 4))
    assert t.state.jacks == [1, 2, 0] and t.state.queue == [0, 1]
    assert t.step() == Turn((0,), "re-roll a die with a Jack, or keep them")
    play(t, 0, "keep my jacks")
    assert texts(t, 1) == ["reroll die 1", "reroll die 2", "reroll die 3", "keep my jacks"]
    reroll_to(t, 0, 2)
    play(t, 1, "reroll die 1")
    assert t.state.dice == [2, 5, 4] and t.state.jacks[1] == 1
    assert t.lines[-1] == "bob spends a Jack: die 1 rolls again, 6 → 2; the crowd: 11."
    reroll_to(t, 0, 1)
    play(t, 1, "reroll die 1")
    assert t.state.dice == [1, 5, 4] and t.state.jacks[1] == 0
    # No Jack left: on to the Kings, and alice's unused Jack is worth 1 Acclaim.
    assert t.state.phase == Phase.EXHIBIT_KING and t.state.jacks == [1, 0, 0]


def test_jacks_are_used_in_one_pass_in_turn_from_the_first_player():
    t = _fair(SIMPLE, first=2)
    _exhibit(t, {0: "king, vote bob", 1: "king, vote alice", 2: "king, vote alice"})
    assert t.state.queue == [0, 1] and t.step().actors == (0,)  # carol has no Jack
    play(t, 0, "keep my jacks")
    assert t.step().actors == (1,)
    play(t, 1, "keep my jacks")
    assert t.state.phase == Phase.EXHIBIT_KING
    with pytest.raises(IllegalAction):
        act(t, 0, Reroll(0))  # once the Kings resolve, Jacks can no longer be used


def test_each_jack_still_held_is_worth_1_acclaim():
    t = _fair({0: [[], [], []], 1: [[], [], []], 2: [[], [], []]})
    _exhibit(t, {0: "king, vote bob", 1: "king, vote alice", 2: "king, vote bob"})
    _keep_jacks(t)
    for seat, competitor in ((0, 1), (1, 0), (2, 0)):
        act(t, seat, Promote(competitor))
    assert GAME.step(t.state).scores == (1, 2, 0)


# -- Queens at the exhibition ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "cards, before, after",
    [
        (["9C", "3H"], 12, 14),
        (["9C", "4H"], 13, 15),
        (["9C", "5H"], 14, 15),  # the cap: 14 + 2 counts as 15
        (["9C", "6H"], 15, 15),  # at 15 already: nothing more
        (["10C", "7H"], 17, 17),  # above 15: not lowered to it
    ],
)
def test_clubs_queen_intimidate_counts_a_position_2_higher_up_to_15(cards, before, after):
    t = _fair({0: [cards, ["2D"], []], 1: [["10D"], [], []], 2: [["2S"], [], []]})
    _exhibit(t, {0: "queen, vote bob", 1: "king, vote alice", 2: "king, vote alice"}, dice=(6, 6, 3))
    _keep_jacks(t)
    assert t.state.reliability(0, 0) == before
    assert legal(t, 0) == [Intimidate(0), Intimidate(1)]  # positions of hers that hold cards
    play(t, 0, "intimidate position 1")
    assert t.state.reliability(0, 0) == after
    assert t.state.works(0, 0) == (after >= 15)
    assert "alice intimidates: position 1 counts 2 more." in t.lines


def test_diamonds_queen_exchanges_a_diamond_installed_on_any_invention_for_a_card_from_her_hand():
    t = _fair(
        {0: [["9C"], ["7D"], []], 1: [["10D", "2D"], [], []], 2: [["6H"], [], []]},
        hands={1: ["9S", "3C"]},
    )
    _exhibit(t, {0: "king, vote bob", 1: "queen, vote alice", 2: "king, vote alice"})
    _keep_jacks(t)
    assert t.step() == Turn((1,), "use your Queen at the exhibition")
    choices = texts(t, 1)
    assert sorted(choices) == sorted(
        f"replace {old} with {new}" for old in ("7♦", "10♦", "2♦") for new in ("9♠", "3♣")
    )
    play(t, 1, "replace 7d with 9s")
    assert installed(t, 0) == [["9C"], ["9S"], []] and hand(t, 1) == ["3C", "7D"]  # the Diamond to his hand
    assert knows(t, None, "9S") and t.state.reliability(0, 1) == 9
    assert t.lines[-2:] == [
        "bob replaces 7♦ in alice's position 2 with a card.",
        "alice's contraption — form: 9♣; workings: 9♠; wonder: —.",
    ]


def test_with_the_optional_replacement_option_the_diamonds_queen_may_replace_nothing():
    # The other reading of rulebook line 251, "You may exchange" (RULES.md I10): a table option, off
    # by default (test_diamonds_queen_exchanges_a_diamond_installed_on_any_invention_for_a_card_from_her_hand).
    installed_cards = {0: [["9C"], ["7D"], []], 1: [["10D", "2D"], [], []], 2: [["6H"], [], []]}
    t = _fair(installed_cards, hands={1: ["9S", "3C"]}, optional_replacement=True)
    _exhibit(t, {0: "king, vote bob", 1: "queen, vote alice", 2: "king, vote alice"})
    _keep_jacks(t)
    assert "Queen: swap an installed ♦ for a card from your hand, or none" in panel_lines(t, 1, "Your workshop")
    assert "replace nothing" in texts(t, 1) and "replace 7♦ with 9♠" in texts(t, 1)
    play(t, 1, "replace nothing")
    assert installed(t, 0) == [["9C"], ["7D"], []] and sorted(hand(t, 1)) == ["3C", "9S"]
    assert t.lines[-1] == "bob replaces no part." and t.state.phase == Phase.EXHIBIT_KING
    t = _fair(installed_cards, hands={1: ["JOKER2"]}, optional_replacement=True)
    _exhibit(t, {0: "king, vote bob", 1: "queen, vote alice", 2: "king, vote alice"})
    _keep_jacks(t)
    assert legal(t, 1) == [KeepParts()]  # nothing to say about the Jokers: she keeps the parts


def test_with_the_optional_replacement_option_a_bot_keeps_its_parts_when_every_exchange_costs_it():
    # Bob's only Diamonds hold his position 1 at 12 against a crowd of 12; his hand is one Ace.
    t = _fair(
        {0: [["9C"], ["7S"], []], 1: [["10D", "2D"], [], []], 2: [["6H"], [], []]},
        hands={1: ["AC"]}, optional_replacement=True,
    )
    _exhibit(t, {0: "king, vote bob", 1: "queen, vote alice", 2: "king, vote alice"})
    _keep_jacks(t)
    assert len(legal(t, 1)) == 3
    assert make_bot(b"keep").choose(GAME, t.state, 1, t.knowledge[1], t.step()) == KeepParts()


def test_diamonds_queen_replacing_with_a_joker_is_caught_when_it_is_revealed():
    t = _fair({0: [["9C"], ["7D"], []], 1: [["10D"], [], []], 2: [["6H"], [], []]}, hands={1: ["JOKER2", "3C"]})
    _exhibit(t, {0: "king, vote bob", 1: "queen, vote alice", 2: "king, vote alice"})
    _keep_jacks(t)
    assert "replace 7♦ with Joker" not in texts(t, 1)
    with pytest.raises(RuleViolation) as caught:
        act(t, 1, ReplacePart(slot(t, "7D"), slot(t, "JOKER2")))
    assert caught.value.player == 1
    assert caught.value.reason == "installed a Joker: Jokers can never be used to build a contraption"


def test_diamonds_queen_with_only_jokers_in_hand_says_so():
    t = _fair({0: [["9C"], ["7D"], []], 1: [["10D"], [], []], 2: [["6H"], [], []]}, hands={1: ["JOKER2"]})
    _exhibit(t, {0: "king, vote bob", 1: "queen, vote alice", 2: "king, vote alice"})
    _keep_jacks(t)
    assert legal(t, 1) == [OnlyJokers()]
    play(t, 1, "only jokers")
    assert t.state.phase == Phase.EXHIBIT_KING


def test_diamonds_queen_saying_only_jokers_with_another_card_in_hand_is_caught_at_the_audit():
    t = _fair({0: [["9C"], ["7D"], []], 1: [["10D"], [], []], 2: [["6H"], [], []]}, hands={1: ["JOKER2", "3C"]})
    _exhibit(t, {0: "king, vote bob", 1: "queen, vote alice", 2: "king, vote alice"})
    _keep_jacks(t)
    act(t, 1, OnlyJokers())  # nobody can tell yet
    play(t, 0, "promote bob")
    with pytest.raises(RuleViolation) as caught:
        play(t, 2, "promote alice")  # the last King: the audit follows
    assert caught.value.player == 1
    assert caught.value.reason == "said their hand held only Jokers, so their Queen could do nothing"


def test_diamonds_queen_with_no_diamond_installed_anywhere_can_do_nothing():
    t = _fair({0: [["9C"], ["7S"], []], 1: [["10C"], [], []], 2: [["6H"], [], []]}, hands={1: ["3C"]})
    _exhibit(t, {0: "king, vote bob", 1: "queen, vote alice", 2: "king, vote alice"})
    _keep_jacks(t)
    assert "bob's Queen can do nothing now." in t.lines and t.state.phase == Phase.EXHIBIT_KING


def test_hearts_queen_turns_one_die_by_1_or_2_a_6_may_become_5_or_4_never_7():
    t = _fair(SIMPLE)
    _exhibit(t, {0: "king, vote bob", 1: "king, vote alice", 2: "queen, vote alice"}, dice=(6, 3, 1))
    _keep_jacks(t)
    assert legal(t, 2) == [
        SwayCrowd(0, 4), SwayCrowd(0, 5),
        SwayCrowd(1, 1), SwayCrowd(1, 2), SwayCrowd(1, 4), SwayCrowd(1, 5),
        SwayCrowd(2, 2), SwayCrowd(2, 3),
    ]
    with pytest.raises(IllegalAction, match="your Queen can't do that: Sway the Crowd"):
        act(t, 2, SwayCrowd(1, 6))  # turned by 3
    with pytest.raises(IllegalAction, match="your Queen can't do that"):
        act(t, 2, SwayCrowd(0, 6))  # not turned at all
    play(t, 2, "turn die 1 to 4")
    assert t.state.dice == [4, 3, 1] and t.state.demonstration == 8
    assert t.lines[-1] == "carol sways the crowd: die 1 turns 6 → 4; the crowd: 8."


def test_spades_queen_sabotages_an_installed_spade_worth_7_or_less_to_its_owner():
    fair = {0: [["AS", "9C"], ["8S"], []], 1: [["10D"], ["7S"], []], 2: [["6H", "3S"], ["2H"], []]}
    t = _fair(fair, inventors=(CLUBS, SPADES, HEARTS))
    _exhibit(t, {0: "king, vote bob", 1: "queen, vote alice", 2: "king, vote alice"}, dice=(3, 3, 3))
    _keep_jacks(t)
    assert sorted(texts(t, 1)) == ["sabotage 3♠", "sabotage 7♠", "sabotage A♠"]  # 8♠ is worth 8
    assert t.state.reliability(2, 0) == 9 and t.state.works(2, 0)
    with pytest.raises(IllegalAction, match="your Queen can't do that: Saboteur's Gambit"):
        act(t, 1, Sabotage(slot(t, "8S")))
    play(t, 1, "sabotage 3s")
    assert t.state.reliability(2, 0) == 6 and not t.state.works(2, 0)  # it stops counting
    assert t.lines[-1] == "bob sabotages 3♠ in carol's position 1: it no longer counts."


def test_the_spades_inventors_own_ace_is_worth_11_to_its_owner_and_is_no_target():
    fair = {0: [["10C"], [], []], 1: [["AS", "2D"], ["9S"], []], 2: [["6H"], [], []]}
    t = _fair(fair, inventors=(CLUBS, SPADES, HEARTS))
    _exhibit(t, {0: "king, vote bob", 1: "queen, vote alice", 2: "king, vote alice"})
    _keep_jacks(t)
    assert t.state.reliability(1, 0) == 13
    assert "bob's Queen can do nothing now." in t.lines  # his own A♠ (11) is the only Spade under 8


def test_a_sabotaged_card_can_make_a_position_fail_and_a_king_loses_its_acclaim():
    fair = {0: [["10C"], [], []], 1: [["10D"], [], []], 2: [["9C", "3S"], [], []]}
    t = _fair(fair, inventors=(CLUBS, SPADES, HEARTS))
    _exhibit(t, {0: "king, vote bob", 1: "queen, vote alice", 2: "king, vote alice"}, dice=(4, 4, 4))
    _keep_jacks(t)
    play(t, 1, "sabotage 3s")
    play(t, 0, "promote carol")
    assert t.state.acclaim[0] == 0 and t.lines[-1] == "alice's King: 0 Acclaim from carol's invention."


def test_a_queen_at_the_exhibition_must_take_effect_there_is_no_passing():
    t = _fair(SIMPLE)
    _exhibit(t, {0: "queen, vote bob", 1: "king, vote alice", 2: "king, vote alice"})
    _keep_jacks(t)
    assert all(isinstance(action, Intimidate) for action in legal(t, 0))


# -- Kings -----------------------------------------------------------------------------------------


def test_a_king_earns_1_acclaim_for_each_card_of_its_suit_in_a_competitors_working_positions():
    fair = {0: [["10C"], [], []], 1: [["10D"], [], []], 2: [["6C", "7C"], ["9C"], ["2C", "5C"]]}
    t = _fair(fair)
    _exhibit(t, dice=(3, 4, 4))  # 11: carol's 13 and 9 and 7
    _keep_jacks(t)
    assert t.step() == Turn((0,), "choose a competitor for your King")
    assert legal(t, 0) == [Promote(1), Promote(2)]
    with pytest.raises(IllegalAction, match="choose a competitor's invention, not yours"):
        act(t, 0, Promote(0))
    play(t, 0, "promote carol")
    assert t.state.acclaim[0] == 2  # 6♣ and 7♣ work; 9♣ and 2♣ 5♣ fail
    assert t.lines[-1] == "alice's King: 2 Acclaim from carol's invention."


def test_kings_resolve_in_turn_from_the_first_player():
    t = _fair(SIMPLE, first=1)
    _exhibit(t)
    _keep_jacks(t)
    assert t.state.queue == [1, 2, 0] and t.step().actors == (1,)


# -- which positions work, the score ---------------------------------------------------------------


def test_a_position_works_when_its_reliability_is_at_least_the_demonstration_number():
    t = _fair({0: [["9C", "3H"], ["9D", "2H"], []], 1: [["10D"], [], []], 2: [["6H"], [], []]})
    _exhibit(t, dice=(4, 4, 3))
    assert t.state.demonstration == 11
    assert t.state.works(0, 0) and t.state.works(0, 1)  # 12 and 11: equal works
    t = _fair({0: [["9C", "3H"], ["9D", "2H"], []], 1: [["10D"], [], []], 2: [["6H"], [], []]})
    _exhibit(t, dice=(4, 4, 4))
    assert t.state.works(0, 0) and not t.state.works(0, 1)  # 11 < 12 fails


def test_an_empty_position_always_fails():
    t = _fair({0: [["3C"], [], []], 1: [["10D"], [], []], 2: [["6H"], [], []]})
    _exhibit(t, dice=(1, 1, 1))
    assert t.state.works(0, 0) and not t.state.works(0, 1) and not t.state.works(0, 2)


def test_a_reliability_of_18_or_more_never_fails():
    t = _fair({0: [["10C", "8H"], ["10D", "7H"], ["AC", "9H"]], 1: [["10S"], [], []], 2: [["6H"], [], []]})
    _exhibit(t, dice=(6, 6, 6))
    assert t.state.reliability(0, 0) == 18 and t.state.works(0, 0)
    assert t.state.reliability(0, 1) == 17 and not t.state.works(0, 1)
    assert t.state.reliability(0, 2) == 20 and t.state.works(0, 2)  # her own Ace: 11


def test_an_invention_with_every_position_empty_describes_nothing_in_particular_and_works_nowhere():
    t = _fair({0: [[], [], []], 1: [["10D"], [], []], 2: [["6H"], [], []]})
    seal(t, {0: "queen", 1: "king", 2: "king"})
    assert legal(t, 0) == [Describe((0, 0, 0))]
    play(t, 0, "describe - - -")
    assert t.lines[-1] == "Lady Calibrette Merchant presents a contraption of no particular shape."
    describe_all(t)
    roll(t, 1, 1, 1)
    play_all(t, {0: "vote bob", 1: "vote alice", 2: "vote alice"})
    _keep_jacks(t)
    assert "alice's Queen can do nothing now." in t.lines  # nothing to intimidate
    play(t, 1, "promote alice")
    play(t, 2, "promote alice")
    assert t.state.acclaim == [0, 0, 0]
    # alice: her two Jacks only; bob: one working position and a Jack; carol: one working position.
    assert GAME.step(t.state).scores == (2, 3, 2)


def _scored_game():
    fair = {
        0: [["10C", "8H"], ["7C", "5D"], []],  # 18, 12, empty
        1: [["10D", "2C"], ["9D"], ["AD"]],  # 12, 9, 11 (his own Ace)
        2: [["10H", "3C"], ["6H", "6C"], ["2H"]],  # 13, 12, 2
    }
    t = _fair(fair, hands={0: ["5S"], 1: ["JOKER1"]})
    _exhibit(t, {0: "king, vote bob", 1: "king, vote carol", 2: "king, vote bob"}, dice=(4, 4, 4))
    _keep_jacks(t)
    play(t, 0, "promote carol")  # 3♣ and 6♣ work: 2
    play(t, 1, "promote alice")  # 5♦ works: 1
    play(t, 2, "promote alice")  # 8♥ works: 1
    return t


def test_the_score_is_2_a_working_position_1_a_jack_held_and_what_the_king_earned_ties_share_the_win():
    t = _scored_game()
    # alice 2 working ×2 + 0 Jacks + 2; bob 1 working ×2 + 2 Jacks + 1; carol 2 ×2 + 1 Jack + 1.
    assert t.step() == GameOver((6, 5, 6), (0, 2), "6 Acclaim (a tie); demonstration number 12")


def test_the_game_ends_with_the_audit_every_card_public_every_claim_checked():
    t = _scored_game()
    assert "The audit: every card of the deal is public; every claim checked." in t.lines
    assert knows(t, None, "5S") and knows(t, None, "JOKER1")  # the hands ...
    assert all(s in t.state.cards.revealed for s in t.truth)  # ... and every card left out of play
    assert t.state.phase == Phase.OVER


def test_a_single_best_score_wins_alone():
    fair = {0: [["10C", "8H"], ["10D", "9H"], ["10S", "9S"]], 1: [["2D"], [], []], 2: [["2H"], [], []]}
    t = _fair(fair)
    _exhibit(t, {0: "king, vote bob", 1: "king, vote alice", 2: "king, vote alice"}, dice=(4, 4, 4))
    _keep_jacks(t)
    for seat, competitor in ((0, 1), (1, 0), (2, 0)):
        act(t, seat, Promote(competitor))
    # alice: 3 working ×2 + 2 Jacks; bob: 1 Jack + 10♦ in alice's; carol: 8♥ 9♥ in alice's.
    assert t.step() == GameOver((8, 2, 2), (0,), "8 Acclaim (the winner); demonstration number 12")
