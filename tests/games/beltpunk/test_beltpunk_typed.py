"""Typed moves (BeltpunkPresentation.parse_action): every printed form reads back, and the common mistakes
get a reason a person can read instead of "not one of your choices"."""

import pytest

from p2pgames.engine import IllegalAction, LocalTable, MalformedAction
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
from p2pgames.games.beltpunk.bots import make_bot
from p2pgames.games.beltpunk.presentation import PRESENTATION

from beltpunk_scenarios import StackedTable, score, skip_all, stacked_deck

ALICE, BOB, CAROL = range(3)
NAMES = ["alice", "bob", "carol"]


def parse(table, seat, text, names=NAMES, state=None):
    state = state or table.state
    return PRESENTATION.parse_action(state, seat, text, table.view(seat), names)


def refused(table, seat, text, names=NAMES, state=None):
    """The reason the move typed as ``text`` is refused (it must be refused)."""
    with pytest.raises(IllegalAction) as caught:
        parse(table, seat, text, names, state)
    return caught.value.reason


def table_of(hands, machine=("G11", "G12", "E13")):
    return StackedTable(3, [stacked_deck(3, hands, list(machine))], first_foreman=ALICE)


def test_a_card_typed_where_it_is_not_says_where_it_is():
    table = table_of([["P2", "S5"], ["S2", "E9"], ["P7"]])
    assert parse(table, ALICE, "  DISCARD   p2 ") == Discard(table.slot("P2"))
    assert refused(table, ALICE, "discard G11") == "G11 is in The Machine, not in your hand"
    # Bob's card: Alice can't see where it is.
    assert refused(table, ALICE, "discard S2") == "S2 is not in your hand"
    assert refused(table, ALICE, "skip") == (
        "choose a card from your hand to discard into The Machine"
    )


def test_a_move_the_discarded_card_does_not_allow_names_the_cards_actions():
    table = table_of([["P2", "S5"], ["S2", "E9"], ["P7"]])
    table.discard({ALICE: "P2", BOB: "S2", CAROL: "P7"})
    # Bob's Steam card resolves first.
    assert refused(table, ALICE, "skip") == "it is not your card that is being resolved"
    assert refused(table, BOB, "look machine") == "a Steam card allows draw or exchange (or skip)"
    assert parse(table, BOB, "exchange e9 WITH Alice") == Exchange(table.slot("E9"), ALICE)
    assert refused(table, BOB, "exchange E9 with bob") == (
        "exchange with another player at the table"
    )
    assert refused(table, BOB, "exchange G11 with alice") == (
        "G11 is in The Machine, not in your hand"
    )
    table.act(BOB, Skip())
    # Alice's Parts card: look and draw, or take and place.
    assert refused(table, ALICE, "draw") == (
        "a Parts card allows look and draw or take and place (or skip)"
    )
    assert refused(table, ALICE, "draw G11") == (
        "look at a scrap pile first, then draw one of its cards"
    )
    assert refused(table, ALICE, "place S5") == (
        "take a card from a scrap pile first, then place one into it"
    )


def test_draw_with_a_card_under_a_card_that_draws_from_the_deck_says_draw_takes_none():
    table = table_of([["P2", "S5"], ["S2", "E9"], ["E7"]])
    table.discard({ALICE: "P2", BOB: "S2", CAROL: "E7"})
    # Bob's Steam card draws the top card of the deck: drawing is allowed, naming a card is not.
    assert refused(table, BOB, "draw G11") == (
        "draw takes no card: type draw for the top card of the deck"
    )
    empty = table.state.copy()
    empty.deck = []
    assert refused(table, BOB, "draw G11", state=empty) == (
        "draw takes no card, and the deck is empty"
    )
    table.act(BOB, Skip())
    table.act(ALICE, Skip())
    # Carol's Electricity card: draw, or look and draw.
    assert table.state.actor == CAROL
    assert refused(table, CAROL, "draw G11") == (
        "look at a scrap pile first, then draw one of its cards (draw alone takes the top card "
        "of the deck)"
    )
    empty = table.state.copy()
    empty.deck = []
    assert refused(table, CAROL, "draw G11", state=empty) == (
        "look at a scrap pile first, then draw one of its cards"
    )


def test_take_look_and_draw_name_the_pile():
    table = table_of([["P2", "S5"], ["S2", "E9"], ["P7"]])
    table.discard({ALICE: "P2", BOB: "S2", CAROL: "P7"})
    table.act(BOB, Skip())
    assert refused(table, ALICE, "take S5") == (
        "S5 is in your hand: you can only take a card from The Machine or a scrap pile"
    )
    assert refused(table, ALICE, "take S5 from machine") == "S5 is in your hand, not in The Machine"
    assert refused(table, ALICE, "take G12 from bob") == (
        "G12 is in The Machine, not in bob's scrap pile"
    )
    assert parse(table, ALICE, "take g12") == parse(table, ALICE, "Take G12 From Machine") == Take(
        table.slot("G12")
    )
    assert refused(table, ALICE, "look bob") == "bob's scrap pile is empty"
    assert refused(table, ALICE, "look alice") == "your scrap pile is empty"
    assert parse(table, ALICE, "look at the machine") == Look(None)
    assert parse(table, ALICE, "LOOK MACHINE") == Look(None)
    table.act(ALICE, Look(None))
    assert refused(table, ALICE, "draw S5") == (
        "S5 is in your hand, not in The Machine, the pile you looked at"
    )
    assert refused(table, ALICE, "skip") == "now draw one of the cards of the pile you looked at"
    assert parse(table, ALICE, "draw e13") == Pick(table.slot("E13"))


def test_a_face_down_card_is_typed_by_its_place_in_the_pile():
    table = table_of([["P2", "S5"], ["S2", "E9", "G4"], ["P7"]])
    table.discard({ALICE: "P2", BOB: "S2", CAROL: "P7"})
    table.act(BOB, Skip())
    state = table.state.copy()
    hidden = [table.slot("E9"), table.slot("G4")]  # face down in Bob's pile, unseen by Alice
    state.hands[BOB] = [slot for slot in state.hands[BOB] if slot not in hidden]
    state.scrap[BOB] = hidden
    view = table.view(ALICE)
    assert PRESENTATION.describe_action(state, ALICE, Take(hidden[1]), view, NAMES) == "take bob#2"
    assert parse(table, ALICE, "TAKE BOB#2", state=state) == Take(hidden[1])
    assert refused(table, ALICE, "take bob#3", state=state) == (
        "bob's scrap pile has 2 cards: there is no bob#3"
    )
    assert refused(table, ALICE, "take E9", state=state) == (
        "you haven't seen E9 in The Machine or a scrap pile (take a face-down card by its place: "
        "bob#2 is the second from the bottom of bob's pile)"
    )
    # Named with its pile: the pile has cards Alice can't see, so E9 may be one of them.
    assert refused(table, ALICE, "take E9 from bob", state=state) == (
        "you haven't seen E9 in bob's scrap pile (take a face-down card by its place: "
        "bob#2 is the second from the bottom of bob's pile)"
    )
    assert refused(table, ALICE, "take E9 from machine", state=state) == (
        "E9 is not in The Machine"
    )
    # Cards placed face down into Alice's own pile by others are unseen by her too.
    state.scrap[ALICE], state.scrap[BOB] = hidden, []
    assert refused(table, ALICE, "take E9 from alice", state=state) == (
        "you haven't seen E9 in your scrap pile (take a face-down card by its place: "
        "alice#2 is the second from the bottom of your pile)"
    )
    # With no face-down card anywhere, E9 (in Bob's hand) is simply not there.
    assert refused(table, ALICE, "take E9") == "E9 is not in The Machine or a scrap pile"


def declaring_table():
    table = table_of([["S1", "S2", "S3", "P2"], ["G2"], ["P7"]])
    table.discard({ALICE: "P2", BOB: "G2", CAROL: "P7"})
    skip_all(table)
    assert table.state.declarer == ALICE
    return table


def test_declarations_in_order_and_only_with_a_set():
    table = declaring_table()
    assert refused(table, BOB, "declare no") == "it is not your turn to declare"
    assert refused(table, ALICE, "score S1 S2 S3") == (
        "first declare whether you score a set: declare yes or declare no"
    )
    assert parse(table, ALICE, "Yes") == parse(table, ALICE, "declare  YES") == Declare(True)
    table.act(ALICE, Declare(True))
    assert refused(table, BOB, "declare yes") == "you hold no set, so you can only declare no"
    assert parse(table, BOB, "no") == Declare(False)


def test_a_set_typed_that_is_not_a_set_says_why():
    table = declaring_table()
    table.act(ALICE, Declare(True))
    table.act(BOB, Declare(False))
    table.act(CAROL, Declare(False))
    assert refused(table, ALICE, "score S2 S1") == (
        "S1 S2 is not a set: two cards must be a pair of one rank (Goggles); a run needs three"
    )
    assert parse(table, ALICE, "score s3 S1 s2") == score(table, ["S1", "S2", "S3"])
    assert refused(table, ALICE, "score S1 S2 S1") == "S1 is named twice"
    assert refused(table, ALICE, "score S1 G11") == "G11 is in The Machine, not in your hand"
    assert refused(table, ALICE, "skip") == "you declared a set: choose the set you score"
    assert refused(table, BOB, "score G2 P7") == "only players who declared a set choose one now"


@pytest.mark.parametrize(
    "text",
    ["", "fly", "discard", "discard S14", "discard S1 S2", "look", "look nowhere",
     "exchange S7 with zed", "exchange S7", "take", "score", "declare maybe", "skip S1"],
)
def test_words_that_are_no_beltpunk_move_are_malformed(text):
    table = table_of([["P2"], ["S2"], ["P7"]])
    with pytest.raises(MalformedAction):
        parse(table, ALICE, text)


def test_player_names_with_spaces_or_called_machine():
    names = ["Alice Smith", "Machine", "carol"]
    table = table_of([["P2", "S5"], ["S2", "E9"], ["P7"]])
    table.discard({ALICE: "P2", BOB: "S2", CAROL: "P7"})
    exchange = Exchange(table.slot("E9"), ALICE)
    assert parse(table, BOB, "exchange E9 with ALICE  SMITH", names) == exchange
    table.act(BOB, Skip())
    state = table.state.copy()
    state.scrap[BOB] = [table.slot("G11")]
    state.conveyors[1].remove(table.slot("G11"))
    view = table.view(ALICE)
    assert PRESENTATION.describe_action(state, ALICE, Look(BOB), view, names) == "look machine's"
    assert parse(table, ALICE, "look Machine's", names, state) == Look(BOB)
    assert parse(table, ALICE, "look machine", names, state) == Look(None)
    assert parse(table, ALICE, "take G11 from machine's", names, state) == Take(table.slot("G11"))
    # "the machine" is The Machine too, whoever plays: a player so called is "the machine's".
    names = ["Alice Smith", "The  Machine", "carol"]
    assert PRESENTATION.describe_action(state, ALICE, Look(BOB), view, names) == "look the machine's"
    assert parse(table, ALICE, "look the machine", names, state) == Look(None)
    assert parse(table, ALICE, "look at The Machine", names, state) == Look(None)
    assert parse(table, ALICE, "look the machine's", names, state) == Look(BOB)


def test_a_name_that_could_mean_two_players_is_refused_saying_so():
    table = table_of([["P2", "S5"], ["S2", "E9"], ["P7"]])
    table.discard({ALICE: "P2", BOB: "S2", CAROL: "P7"})
    # The lobby seats no such table any more; a game that gets one says why it can't read it.
    names = ["Bob Smith", "bob", "bob  smith"]
    with pytest.raises(MalformedAction) as caught:
        parse(table, BOB, "exchange E9 with BOB SMITH", names)
    assert str(caught.value) == (
        "'bob smith' could be Bob Smith or bob  smith: their names differ only in case or spacing"
    )
    table.act(BOB, Skip())
    state = table.state.copy()
    state.scrap[BOB] = [table.slot("G11")]
    state.conveyors[1].remove(table.slot("G11"))
    # A player called machine's beside one called machine: "machine's" is the pile of either.
    names = ["alice", "Machine", "machine's"]
    with pytest.raises(MalformedAction) as caught:
        parse(table, ALICE, "look machine's", names, state)
    assert str(caught.value) == (
        "\"machine's\" could be the pile of Machine or machine's: the pile of a player called "
        "machine is typed machine's"
    )
    assert parse(table, ALICE, "look machine", names, state) == Look(None)


@pytest.mark.parametrize(
    "names",
    [["Bob from Accounts", "MACHINE", "x#1"], ["The  Machine", "at machine", "machine's"]],
)
def test_every_legal_move_reads_back_from_its_text_with_awkward_names(names):
    # The conformance test plays with names like seat0; people have spaces and odd characters,
    # and may call themselves what the game calls The Machine.
    table = LocalTable(GAME, GAME.ruleset(3), b"awkward")
    bots = [make_bot(bytes([seat])) for seat in range(3)]
    checked = set()

    def check(table):
        for seat in range(3):
            view = table.view(seat)
            for action in GAME.legal_actions(table.state, seat, view):
                text = PRESENTATION.describe_action(table.state, seat, action, view, names)
                for typed in (text, f" {text.upper()} ".replace(" ", "  ")):
                    assert PRESENTATION.parse_action(table.state, seat, typed, view, names) == action, typed
                checked.add(type(action))
        return False

    table.play_with(bots, until=check)
    # The bots never offer an exchange, so nobody is asked to give: an exchange is set up below.
    kinds = {Discard, Draw, Look, Pick, Take, Place, Exchange, Skip, Declare, Score}
    assert table.over and checked == kinds
    exchanged = table_of([["P2", "S5"], ["S2", "E9"], ["P7"]])
    exchanged.discard({ALICE: "P2", BOB: "S2", CAROL: "P7"})
    exchanged.act(BOB, Exchange(exchanged.slot("E9"), CAROL))
    check(exchanged)
    assert Give in checked


@pytest.mark.parametrize(
    "number, said",
    [(1, "first"), (2, "second"), (9, "ninth"), (10, "10th"), (11, "11th"), (12, "12th"),
     (13, "13th"), (21, "21st"), (22, "22nd"), (23, "23rd"), (40, "40th"), (111, "111th")],
)
def test_places_in_a_pile_are_said_as_ordinals(number, said):
    from p2pgames.games.beltpunk.typed import _ordinal

    assert _ordinal(number) == said


def test_declaring_and_scoring_follow_the_legal_actions_when_a_card_in_hand_is_unseen():
    # A knowledge that lacks a card of the hand (the engine never gives one, but parse_action takes
    # any): "yes" and the sets are what legal_actions offers, no more.
    table = declaring_table()
    view = dict(table.view(ALICE))
    del view[table.slot("E12")]  # a filler card of her hand
    assert GAME.legal_actions(table.state, ALICE, view) == [Declare(False)]
    with pytest.raises(IllegalAction) as caught:
        PRESENTATION.parse_action(table.state, ALICE, "declare yes", view, NAMES)
    assert caught.value.reason == (
        "you haven't seen every card in your hand, so you can only declare no"
    )
    table.act(ALICE, Declare(True))
    table.act(BOB, Declare(False))
    table.act(CAROL, Declare(False))
    # The known cards still hold S1 S2 S3, so a pair of them is no set to show.
    assert score(table, ["S1", "S2", "S3"]) in GAME.legal_actions(table.state, ALICE, view)
    with pytest.raises(IllegalAction) as caught:
        PRESENTATION.parse_action(table.state, ALICE, "score S1 S2", view, NAMES)
    assert caught.value.reason == (
        "S1 S2 is not a set: two cards must be a pair of one rank (Goggles); a run needs three"
    )
