"""A turn: draws, simultaneous discards, Machine Order, declarations, the Foreman, round ends.

Rulebook: "Turn Structure" 1–5 and "The Machine".
"""

import pytest

from p2pgames.engine import Reveal, RuleViolation, Simultaneous, SimultaneousActs, Turn
from p2pgames.games.beltpunk import GAME
from p2pgames.games.beltpunk.actions import Declare, Discard, Draw, Skip

from beltpunk_scenarios import (
    StackedTable,
    return_to_deck,
    score,
    short_round,
    skip_all,
    stacked_deck,
)

JAKE, NOAH, MATT = 0, 1, 2


def test_machine_order_example():
    # "Matt discards a 3 of Steam, Noah a 10 of Steam, and Jake a 1 of Parts": Steam before Parts,
    # and within Steam the lower number first — Matt, then Noah, then Jake, whatever the seats.
    table = StackedTable(3, [stacked_deck(3, [["P1"], ["S10"], ["S3"]], ["G1", "G2", "E1"])])
    table.discard({JAKE: "P1", NOAH: "S10", MATT: "S3"})
    assert [seat for seat, _ in table.state.order] == [MATT, NOAH, JAKE]
    resolved = []
    while table.state.phase == "action":
        resolved.append(table.state.actor)
        # Each card enters its conveyor when its player resolves it, not before.
        assert (
            table.state.order[table.state.resolving][1]
            in table.state.conveyors[
                "SGPE".index(table.name(table.state.order[table.state.resolving][1])[0])
            ]
        )
        table.act(table.state.actor, Skip())
    assert resolved == [MATT, NOAH, JAKE]
    assert table.conveyor(0) == ["S3", "S10"] and table.conveyor(2) == ["P1"]


def test_machine_order_sorts_suits_before_ranks():
    hands = [["E1"], ["P13"], ["G2"], ["S12"]]
    table = StackedTable(4, [stacked_deck(4, hands, ["G10", "G11", "P2", "P3"])])
    table.discard({0: "E1", 1: "P13", 2: "G2", 3: "S12"})
    assert [table.name(slot) for _, slot in table.state.order] == ["S12", "G2", "P13", "E1"]
    assert [seat for seat, _ in table.state.order] == [3, 2, 1, 0]


def test_discards_are_chosen_secretly_then_revealed_together():
    table = StackedTable(2, [stacked_deck(2, [["S3"], ["G4"]], ["E5", "E6"])])
    step = table.step()
    assert isinstance(step, Simultaneous) and step.players == (0, 1)
    assert table.legal(0) == [Discard(slot) for slot in table.state.hands[0]]
    chosen = SimultaneousActs(((0, Discard(table.slot("S3"))), (1, Discard(table.slot("G4")))))
    state = GAME.apply(table.state, chosen)
    # Both chosen cards are revealed in one operation, before anything resolves.
    assert GAME.step(state).operations == (Reveal((table.slot("S3"), table.slot("G4"))),)
    assert table.slot("S3") not in state.hands[0]


def test_foreman_passes_clockwise_every_turn_and_draws_first():
    deck = ["P1", "P2", "P3", "P4", "P5", "P6"]
    table = StackedTable(
        3, [stacked_deck(3, [["S1"], ["S2"], ["S3"]], ["G1", "G2", "E1"], deck)], first_foreman=2
    )
    assert table.state.foreman == 2
    assert [table.names(hand)[-1] for hand in table.state.hands] == ["P2", "P3", "P1"]
    table.discard({0: "S1", 1: "S2", 2: "S3"})
    skip_all(table)
    table.declare_all()
    # Turn 2: the Foreman card has passed clockwise to seat 0, who draws first.
    assert table.state.foreman == 0 and table.state.turn == 2
    assert [table.names(hand)[-1] for hand in table.state.hands] == ["P4", "P5", "P6"]


def test_a_deck_that_runs_out_mid_draw_leaves_the_last_players_without_a_card():
    # 4 players: 24 cards dealt, 4 into The Machine, 20 left after the first turn's draws. Steam
    # draws bring the deck down to 2 cards before the fourth turn, whose Foreman is seat 3.
    hands = [
        [f"{suit}{rank}" for suit in "SE" for rank in (r, r + 1, r + 2)] for r in (1, 4, 7, 10)
    ]
    table = StackedTable(4, [stacked_deck(4, hands, ["G10", "G11", "P12", "P13"])], first_foreman=0)
    while table.state.turn < 4:
        phase = table.state.phase
        if phase == "discard":
            table.discard({seat: table.hand(seat)[0] for seat in range(4)})
        elif phase == "action":
            keep = 2 if table.state.turn == 3 else 0
            drawing = Draw() in table.legal(table.state.actor) and len(table.state.deck) > keep
            table.act(table.state.actor, Draw() if drawing else Skip())
        else:
            table.declare_all()
    assert ("turn", 4, 3, (3, 0)) in table.notes
    assert table.state.deck == [] and table.state.phase == "discard"
    assert (
        "turn 4: dave holds the Foreman; dave and alice draw; "
        "the deck is empty, bob and carol draw nothing" in table.lines
    )


def test_declarations_go_from_the_foreman_and_yes_needs_a_set():
    hands = [["S5", "G5", "P9"], ["S6", "G8", "P10"], ["P11", "E11", "G1"]]
    # Seat 1 (the Foreman) draws S3 first, which makes no set with its hand.
    table = StackedTable(3, [stacked_deck(3, hands, ["G12", "E3", "E4"], ["S3"])], first_foreman=1)
    table.discard({0: "P9", 1: "P10", 2: "G1"})
    skip_all(table)
    step = table.step()
    assert isinstance(step, Turn) and step.actors == (1,)
    # Seat 1 holds no set: "no" is its only choice. Then seat 2 (clockwise), then seat 0.
    assert table.texts(1) == ["declare no"]
    table.act(1, Declare(False))
    assert table.step().actors == (2,)
    assert table.texts(2) == ["declare yes", "declare no"]
    table.act(2, Declare(True))
    assert table.step().actors == (0,)
    table.act(0, Declare(True))
    # Those who said yes choose their set at the same time.
    step = table.step()
    assert isinstance(step, Simultaneous) and step.players == (0, 2)
    assert "score S5 G5" in table.texts(0)
    table.act_simultaneous([(0, score(table, ["S5", "G5"])), (2, score(table, ["P11", "E11"]))])
    # The sets lie face up in front of their owners; the turn is over.
    assert [sorted(table.names(slots)) for slots in table.state.sets[0]] == [["G5", "S5"]]
    assert all(slot in table.state.cards.revealed for slot in table.state.sets[2][0])
    assert table.state.turn == 2


def test_no_more_than_one_set_per_turn():
    hands = [["S5", "G5", "P7", "E7", "S12"], [], []]
    table = StackedTable(3, [stacked_deck(3, hands, ["G12", "E3", "E4"])], first_foreman=0)
    table.discard({0: "S12", 1: table.hand(1)[0], 2: table.hand(2)[0]})
    skip_all(table)
    table.act(0, Declare(True))
    table.declare_all()
    # One Score is one set: both pairs are offered, never the two together.
    options = table.texts(0)
    assert "score S5 G5" in options and "score P7 E7" in options
    assert all(len(text.split()) == 3 for text in options)
    table.act_simultaneous([(0, score(table, ["P7", "E7"]))])
    assert len(table.state.sets[0]) == 1 and table.state.phase == "discard"
    assert {"S5", "G5"} <= set(table.hand(0))


def test_a_revealed_set_that_is_not_a_set_is_a_rule_violation():
    hands = [["S5", "G5", "P9"], ["S6", "G8", "P10"], ["P11", "E11", "G1"]]
    table = StackedTable(3, [stacked_deck(3, hands, ["G12", "E3", "E4"])], first_foreman=0)
    table.discard({0: "P9", 1: "P10", 2: "G1"})
    skip_all(table)
    table.act(0, Declare(True))
    table.act(1, Declare(False))
    table.act(2, Declare(False))
    # Seat 0 commits two cards that are not a set: only the reveal can show it.
    stranger = next(name for name in table.hand(0) if name not in ("S5", "G5") and name[1:] != "5")
    liar = score(table, ["S5", stranger])
    GAME.check_action(table.state, 0, liar)  # nothing visible publicly is wrong with it
    with pytest.raises(RuleViolation) as caught:
        table.act_simultaneous([(0, liar)])
    assert caught.value.player == 0 and "not a set" in caught.value.reason


def test_a_player_with_fewer_than_two_cards_declares_no_automatically():
    table = StackedTable(
        2, [stacked_deck(2, [["S5", "G5"], ["S9", "G9"]], ["E3", "E4"])], first_foreman=0
    )
    return_to_deck(table, 0, [name for name in table.hand(0) if name not in ("S5", "G5")])
    table.discard({0: "S5", 1: "S9"})
    skip_all(table)
    # Seat 0 (the Foreman) holds one card: everyone can see it has no set, so seat 1 declares first.
    assert ("declare-auto", 0) in table.notes
    assert "alice has fewer than two cards: no set this turn" in table.lines
    assert table.state.phase == "declare" and table.state.declarer == 1


def test_round_ends_when_a_hand_is_empty():
    # Alice scores a Perfect Belt on each of two turns and runs out of cards; the deck is not empty.
    table = short_round()
    assert table.state.round == 2
    # The cards left in the other hands (six each) go into their owners' scrap piles at -1 each.
    assert (
        "round-end",
        "a player's hand is empty",
        ((10, 0), (0, 6), (0, 6), (0, 6)),
    ) in table.notes
    assert table.state.last_round == [10, -6, -6, -6]
    assert "  alice: sets 10 − scrap 0 = +10, total 10" in table.lines


def test_round_ends_when_the_deck_is_empty():
    table = StackedTable(2, [stacked_deck(2, [], [])])
    while not table.state.last_round:
        phase = table.state.phase
        if phase == "discard":
            table.discard({seat: table.hand(seat)[0] for seat in range(2)})
        elif phase == "action":
            options = table.legal(table.state.actor)
            table.act(table.state.actor, Draw() if Draw() in options else Skip())
        else:
            table.declare_all()
    notes = [note for note in table.notes if note[0] == "round-end"]
    assert notes and notes[0][1] == "the deck is empty"
    assert "round 1 ends: the deck is empty" in table.lines


def test_a_false_declaration_must_still_reveal_two_cards_and_is_caught():
    # "yes" is only offered with a set, but nothing public forbids it: a cheating peer may send it.
    table = StackedTable(
        2,
        [
            stacked_deck(
                2, [["S2", "G4", "P6", "E8", "S10", "G12", "P1", "E3"], []], ["G9", "E13"], ["S13"]
            )
        ],
        first_foreman=0,
    )
    table.discard({0: "S2", 1: table.hand(1)[0]})
    skip_all(table)
    assert table.texts(0) == ["declare no"]
    GAME.check_action(table.state, 0, Declare(True))
    table.act(0, Declare(True))
    table.declare_all()
    # With no set to offer, any two cards are offered so the step can go on; the reveal tells.
    options = table.legal(0)
    assert len(options) == 28 and all(len(action.slots) == 2 for action in options)
    with pytest.raises(RuleViolation, match="not a set"):
        table.act_simultaneous([(0, options[0])])


def test_the_foreman_keeps_passing_into_the_next_round():
    table = short_round()  # first Foreman alice; bob held it on turn 2, when the round ended
    assert ("turn", 3, 2, (2, 3, 0, 1)) in table.notes
    assert table.state.round == 2 and table.state.foreman == 2


def test_a_card_that_allows_nothing_resolves_without_asking():
    table = StackedTable(2, [stacked_deck(2, [["S2"], ["G3"]], ["G9", "E13"])], first_foreman=0)
    return_to_deck(table, 0, [name for name in table.hand(0) if name != "S2"])
    table.state.deck = (
        []
    )  # as if drawn: no Draw, and after discarding S2 alice has no card to exchange
    table.discard({0: "S2", 1: "G3"})
    assert ("no-action", 0) in table.notes and "alice has no action available" in table.lines
    assert table.state.actor == 1
