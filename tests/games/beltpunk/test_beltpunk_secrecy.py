"""No card put out of sight can be traced to what a seat saw of it (issue 24): a hand that holds a
card another seat knows — taken from a pile, drawn after a look, received in an exchange — is
re-masked before its owner can place or give one of its cards unseen."""

import pytest

from p2pgames.engine.conformance import ConformanceError, play_random_game
from p2pgames.games.beltpunk import GAME, card_actions
from p2pgames.games.beltpunk.actions import Exchange, Give, Place, Skip, Take
from p2pgames.games.beltpunk.presentation import PRESENTATION

from test_beltpunk_actions import ALICE, BOB, CAROL, three_player_table


def knowers(table, slot):
    """The seats that can tell which card ``slot`` holds (everyone, if it is public)."""
    if slot in table.state.cards.revealed:
        return {ALICE, BOB, CAROL}
    return {seat for seat in (ALICE, BOB, CAROL) if slot in table.view(seat)}


def test_a_public_card_taken_and_placed_back_face_down_cant_be_told_from_the_hand():
    table = three_player_table([["S1"], ["G2", "E7"], ["P3"]], machine=["S9", "S10", "S11"])
    table.discard({ALICE: "S1", BOB: "G2", CAROL: "P3"})
    table.act(ALICE, Skip())  # Alice's Steam overflows into her pile: S9 S10 S11 S1, all seen
    table.act(BOB, Take(table.slot("S9")))
    table.act(BOB, Place(table.slot("S9")))  # back into Alice's pile, face down
    placed = table.state.scrap[ALICE][-1]
    assert table.name(placed) == "S9"
    assert knowers(table, placed) == {BOB}


def test_after_an_exchange_only_its_holder_can_tell_where_each_card_is():
    table = three_player_table([["S2", "E9"], ["P6", "G4"], ["G3"]])
    table.discard({ALICE: "S2", BOB: "P6", CAROL: "G3"})
    table.act(ALICE, Exchange(table.slot("E9"), BOB))
    table.act(BOB, Give(table.slot("G4")))
    # Alice knows E9 is in Bob's hand, Bob that G4 is in Alice's: neither knows which slot, so
    # neither could tell it when the other places or gives a card unseen.
    for seat, card in ((BOB, "E9"), (ALICE, "G4")):
        assert table.slot(card) in table.state.hands[seat]
        assert knowers(table, table.slot(card)) == {seat}
    assert all(knowers(table, slot) == {ALICE} for slot in table.state.hands[ALICE])
    assert all(knowers(table, slot) == {BOB} for slot in table.state.hands[BOB])


# Random games: test_beltpunk_conformance's, where the conformance check holds every legal action
# to it (p2pgames.engine.conformance: no card put out of a seat's sight that seat can tell).


def test_without_re_masks_the_conformance_check_finds_the_leak(monkeypatch):
    monkeypatch.setattr(card_actions, "remask", lambda state, seat: None)
    with pytest.raises(ConformanceError, match="re-masked"):
        play_random_game(PRESENTATION, GAME.ruleset(3), b"b\x03", exhaustive=False)
