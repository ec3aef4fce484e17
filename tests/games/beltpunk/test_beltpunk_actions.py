"""The card actions (rulebook: "Card Actions") and who sees what when they resolve."""

import pytest

from p2pgames.engine import Act, CardOperations, Disclose, IllegalAction, Turn
from p2pgames.games.beltpunk import GAME
from p2pgames.games.beltpunk.actions import (
    Declare,
    Discard,
    Draw,
    Exchange,
    Give,
    Look,
    Pick,
    Place,
    Score,
    Skip,
    Take,
)

from beltpunk_scenarios import StackedTable, stacked_deck

ALICE, BOB, CAROL, DAVE = range(4)


def kinds(table, seat):
    return {type(action) for action in table.legal(seat)}


def test_each_suit_offers_its_two_actions_or_skip():
    table = StackedTable(
        4, [stacked_deck(4, [["S2"], ["G2"], ["P2"], ["E2"]], ["S9", "G9", "P9", "E9"])]
    )
    table.discard({ALICE: "S2", BOB: "G2", CAROL: "P2", DAVE: "E2"})
    expected = {
        ALICE: {Draw, Exchange, Skip},  # Steam
        BOB: {Take, Exchange, Skip},  # Gears
        CAROL: {Look, Take, Skip},  # Parts
        DAVE: {Draw, Look, Skip},  # Electricity
    }
    for seat in (ALICE, BOB, CAROL, DAVE):
        assert table.state.actor == seat
        assert kinds(table, seat) == expected[seat]
        assert all(table.legal(other) == [] for other in range(4) if other != seat)
        every = [
            Draw(),
            Look(None),
            Take(table.slot("S9")),
            Exchange(table.state.hands[seat][0], (seat + 1) % 4),
        ]
        for action in every:
            if type(action) not in expected[seat]:
                with pytest.raises(IllegalAction, match="allows"):
                    GAME.check_action(table.state, seat, action)
        table.act(seat, Skip())


def three_player_table(hands, machine=("G11", "G12", "E13"), deck=()):
    return StackedTable(3, [stacked_deck(3, hands, list(machine), list(deck))], first_foreman=ALICE)


def test_draw_takes_the_top_card_for_the_drawer_only():
    table = three_player_table([["S2"], ["P6"], ["P7"]], deck=["P1", "P2", "P3", "E8"])
    table.discard({ALICE: "S2", BOB: "P6", CAROL: "P7"})
    table.act(ALICE, Draw())
    assert table.slot("E8") in table.state.hands[ALICE]
    assert table.view(ALICE)[table.slot("E8")] == "E8"
    assert (
        table.slot("E8") not in table.view(BOB)
        and table.slot("E8") not in table.state.cards.revealed
    )
    assert "alice draws a card from the deck" in table.lines


def test_draw_is_not_offered_when_the_deck_is_empty():
    table = three_player_table([["S2"], ["P6"], ["P7"]])
    table.discard({ALICE: "S2", BOB: "P6", CAROL: "P7"})
    state = table.state.copy()
    state.deck = []
    assert Draw() not in GAME.legal_actions(state, ALICE, table.view(ALICE))
    with pytest.raises(IllegalAction, match="deck is empty"):
        GAME.check_action(state, ALICE, Draw())


def test_look_at_the_machine_and_draw_any_of_its_cards():
    table = three_player_table([["E2"], ["S6"], ["S7"]])
    table.discard({ALICE: "E2", BOB: "S6", CAROL: "S7"})
    for seat in (BOB, CAROL):  # Steam resolves before Electricity
        table.act(seat, Skip())
    assert table.state.actor == ALICE
    table.act(ALICE, Look(None))
    # The Machine's cards are public: nothing to disclose, straight to the choice.
    step = table.step()
    assert isinstance(step, Turn) and step.actors == (ALICE,)
    assert sorted(table.texts(ALICE)) == [
        "draw E13",
        "draw E2",
        "draw G11",
        "draw G12",
        "draw S6",
        "draw S7",
    ]
    table.act(ALICE, Pick(table.slot("G12")))
    assert table.slot("G12") in table.state.hands[ALICE]
    assert table.conveyor(1) == ["G11"]
    assert "alice draws G12 (Gears 12) from The Machine" in table.lines


def test_the_card_just_discarded_may_be_drawn_back_from_the_machine():
    table = three_player_table([["E2"], ["S6"], ["S7"]])
    table.discard({ALICE: "E2", BOB: "S6", CAROL: "S7"})
    for seat in (BOB, CAROL):
        table.act(seat, Skip())
    table.act(ALICE, Look(None))
    assert "draw E2" in table.texts(ALICE)  # her own discard, whose action this is (I16)
    table.act(ALICE, Pick(table.slot("E2")))
    assert table.slot("E2") in table.state.hands[ALICE]
    assert table.conveyor(3) == ["E13"]


def test_the_card_just_discarded_may_be_taken_back_from_the_machine():
    table = three_player_table([["G2", "S8"], ["P6"], ["P7"]])
    table.discard({ALICE: "G2", BOB: "P6", CAROL: "P7"})
    assert "take G2 from machine" in table.texts(ALICE)  # (I16)
    table.act(ALICE, Take(table.slot("G2")))
    table.act(ALICE, Place(table.slot("S8")))
    assert table.slot("G2") in table.state.hands[ALICE]
    assert table.conveyor(1) == ["G11", "G12"] and table.conveyor(0) == ["S8"]


def overflow_then_hide(table):
    """Alice's Steam overflows into her pile; Bob takes S9 from it and hides a card there."""
    table.discard({ALICE: "S1", BOB: "G2", CAROL: "P3"})
    table.act(ALICE, Skip())
    assert table.names(table.state.scrap[ALICE]) == ["S9", "S10", "S11", "S1"]
    assert table.state.actor == BOB
    assert "take S9 from alice" in table.texts(BOB)
    table.act(BOB, Take(table.slot("S9")))
    hidden = table.slot("E7")
    assert "place E7" in table.texts(BOB)
    table.act(BOB, Place(hidden))
    return hidden


def test_take_and_place_into_a_players_pile_goes_face_down():
    table = three_player_table([["S1"], ["G2", "E7"], ["P3"]], machine=["S9", "S10", "S11"])
    hidden = overflow_then_hide(table)
    assert table.state.scrap[ALICE][-1] == hidden
    assert hidden not in table.state.cards.revealed
    assert hidden not in table.view(ALICE) and hidden not in table.view(CAROL)
    assert "bob places a card face down into alice's scrap pile" in table.lines
    # The taken card is in Bob's hand and was public all along.
    assert table.slot("S9") in table.state.hands[BOB]


def test_look_at_a_players_pile_shows_its_hidden_cards_to_the_looker_only():
    table = three_player_table([["S1"], ["G2", "E7"], ["P3"]], machine=["S9", "S10", "S11"])
    hidden = overflow_then_hide(table)
    assert table.state.actor == CAROL
    assert {"look alice", "look machine"} <= set(table.texts(CAROL))
    assert "look bob" not in table.texts(CAROL)  # an empty pile can't be looked at
    table.act(CAROL, Look(ALICE))
    # The look disclosed the face-down card to Carol alone; everyone saw which pile it was.
    assert table.view(CAROL)[hidden] == "E7" and hidden not in table.view(ALICE)
    assert "carol looks at alice's scrap pile" in table.lines
    assert "draw E7" in table.texts(CAROL)
    table.act(CAROL, Pick(hidden))
    # In her hand, re-masked: a new slot only she can tell from her other cards.
    assert hidden not in table.state.scrap[ALICE] and hidden not in table.state.hands[CAROL]
    assert table.slot("E7") in table.state.hands[CAROL] and table.view(CAROL)[table.slot("E7")] == "E7"
    assert table.slot("E7") not in table.view(ALICE) and table.slot("E7") not in table.view(BOB)
    assert any(
        line.startswith("carol draws card alice#4 from alice's scrap pile") for line in table.lines
    )


def test_look_discloses_exactly_the_hidden_cards_of_the_pile():
    table = three_player_table([["S1"], ["G2", "E7"], ["P3"]], machine=["S9", "S10", "S11"])
    hidden = overflow_then_hide(table)
    state = GAME.apply(table.state, Act(CAROL, Look(ALICE)))
    assert GAME.step(state) == CardOperations((Disclose((hidden,), CAROL),))


def test_take_from_a_face_down_pile_is_blind_until_the_card_is_in_hand():
    table = three_player_table([["S1"], ["G2", "E7"], ["P3"]], machine=["S9", "S10", "S11"])
    hidden = overflow_then_hide(table)
    # Carol does not know the card Bob hid: she can take it only by its place in the pile.
    assert "take alice#4" in table.texts(CAROL)
    assert "take S10 from alice" in table.texts(CAROL)
    table.act(CAROL, Take(hidden))
    assert table.view(CAROL)[hidden] == "E7"
    assert hidden not in table.state.cards.revealed
    # Then she places a card from her hand into that same pile, face down.
    assert table.step().actors == (CAROL,)
    assert {type(action) for action in table.legal(CAROL)} == {Place}
    table.act(CAROL, Place(table.slot("E7")))  # placing back the card just taken is allowed
    # Bob saw E7 go into the pile; once back among Carol's cards, he can't tell which one she placed.
    assert table.state.scrap[ALICE][-1] == table.slot("E7") != hidden
    assert table.slot("E7") not in table.view(BOB)


def test_take_and_place_into_the_machine_goes_face_up_into_its_conveyor():
    table = three_player_table([["G2", "S8"], ["P6"], ["P7"]])
    table.discard({ALICE: "G2", BOB: "P6", CAROL: "P7"})
    assert "take G11 from machine" in table.texts(ALICE)
    table.act(ALICE, Take(table.slot("G11")))
    table.act(ALICE, Place(table.slot("S8")))
    # The placed card is revealed, then goes into its suit's conveyor; no ability is triggered.
    assert table.slot("S8") in table.state.cards.revealed
    assert table.conveyor(0) == ["S8"] and table.conveyor(1) == ["G12", "G2"]
    assert table.state.actor == BOB
    assert "alice places a card into The Machine" in table.lines
    assert "alice's card is S8: into the Steam conveyor" in table.lines


def test_place_back_the_card_just_taken_from_the_machine():
    table = three_player_table([["G2"], ["P6"], ["P7"]])
    table.discard({ALICE: "G2", BOB: "P6", CAROL: "P7"})
    table.act(ALICE, Take(table.slot("G11")))
    assert "place G11" in table.texts(ALICE)
    table.act(ALICE, Place(table.slot("G11")))
    assert table.conveyor(1) == ["G12", "G2", "G11"]
    # Back among her cards it was one of them (her hand re-masked): it shows as it lands, face up.
    assert "alice places a card into The Machine" in table.lines
    assert "alice's card is G11: into the Gears conveyor" in table.lines


def test_exchange_the_other_player_chooses_what_to_give_and_each_alone_is_told_which_card_it_got():
    table = three_player_table([["S2", "E9"], ["P6", "G4"], ["P7"]])
    table.discard({ALICE: "S2", BOB: "P6", CAROL: "P7"})
    assert "exchange E9 with bob" in table.texts(ALICE)
    table.act(ALICE, Exchange(table.slot("E9"), BOB))
    step = table.step()
    assert isinstance(step, Turn) and step.actors == (BOB,)
    # Bob chooses from his own hand without seeing the card offered.
    assert table.slot("E9") not in table.view(BOB)
    assert {type(action) for action in table.legal(BOB)} == {Give}
    assert table.legal(ALICE) == []
    assert "give G4" in table.texts(BOB)
    table.act(BOB, Give(table.slot("G4")))
    assert (
        table.slot("G4") in table.state.hands[ALICE] and table.slot("E9") in table.state.hands[BOB]
    )
    assert table.view(ALICE)[table.slot("G4")] == "G4" and table.view(BOB)[table.slot("E9")] == "E9"
    assert (
        table.slot("G4") not in table.view(CAROL)
        and table.slot("G4") not in table.state.cards.revealed
    )
    assert "alice and bob exchange the two cards" in table.lines
    assert table.private[ALICE] == ["the exchange brings you G4 (Gears 4) from bob"]
    assert table.private[BOB] == ["the exchange brings you E9 (Electricity 9) from alice"]
    assert table.private[CAROL] == []
    assert not any("G4" in line or "E9" in line for line in table.lines)
    assert table.state.actor == BOB  # Bob's own Parts card resolves next


def test_exchange_needs_a_card_on_both_sides():
    table = three_player_table([["S2", "E9"], ["P6"], ["P7"]])
    table.discard({ALICE: "S2", BOB: "P6", CAROL: "P7"})
    state = table.state.copy()
    state.hands[BOB] = []
    assert all(
        action.with_seat != BOB
        for action in GAME.legal_actions(state, ALICE, table.view(ALICE))
        if isinstance(action, Exchange)
    )
    with pytest.raises(IllegalAction, match="no cards"):
        GAME.check_action(state, ALICE, Exchange(table.slot("E9"), BOB))
    with pytest.raises(IllegalAction, match="another player"):
        GAME.check_action(table.state, ALICE, Exchange(table.slot("E9"), ALICE))
    with pytest.raises(IllegalAction, match="not in your hand"):
        GAME.check_action(table.state, ALICE, Exchange(table.slot("P7"), BOB))


def test_skip_declines_the_action():
    table = three_player_table([["S2"], ["P6"], ["P7"]])
    table.discard({ALICE: "S2", BOB: "P6", CAROL: "P7"})
    hand = list(table.state.hands[ALICE])
    table.act(ALICE, Skip())
    assert table.state.hands[ALICE] == hand and table.state.actor == BOB
    assert "alice takes no action" in table.lines


def test_public_rules_are_checked_with_readable_reasons():
    table = three_player_table([["S2"], ["P6"], ["P7"]])
    with pytest.raises(IllegalAction, match="not in your hand"):
        GAME.check_action(table.state, ALICE, Discard(table.slot("P6")))
    with pytest.raises(IllegalAction, match="discard"):
        GAME.check_action(table.state, ALICE, Skip())
    table.discard({ALICE: "S2", BOB: "P6", CAROL: "P7"})
    with pytest.raises(IllegalAction, match="not your card"):
        GAME.check_action(table.state, BOB, Skip())
    table.act(ALICE, Skip())
    with pytest.raises(IllegalAction, match="empty"):
        GAME.check_action(table.state, BOB, Look(CAROL))
    with pytest.raises(IllegalAction, match="no seat"):
        GAME.check_action(table.state, BOB, Look(3))
    with pytest.raises(IllegalAction, match="not in The Machine"):
        GAME.check_action(table.state, BOB, Take(table.slot("P7")))
    with pytest.raises(IllegalAction, match="Parts card allows"):
        GAME.check_action(table.state, BOB, Declare(True))
    for seat in (BOB, CAROL):
        table.act(seat, Skip())
    with pytest.raises(IllegalAction, match="not your turn to declare"):
        GAME.check_action(table.state, BOB, Declare(False))
    with pytest.raises(IllegalAction, match="not your turn to declare"):
        GAME.check_action(table.state, ALICE, Score((1, 2)))
