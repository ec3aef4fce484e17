"""Actions check their own shape (they arrive from the network) and round-trip their wire form
and their ``repr``."""

import pytest

from p2pgames import canonical
from p2pgames.engine import MalformedAction
from p2pgames.games.astonishing import actions
from p2pgames.games.astonishing.actions import (
    Accept,
    Answer,
    Build,
    BuyResources,
    ChooseAction,
    ChooseInventor,
    Decline,
    Describe,
    DiscardCard,
    DrawTwo,
    EndInvention,
    ExhibitCard,
    GiveBack,
    Intimidate,
    KeepDice,
    KeepParts,
    KeepRest,
    NoTrade,
    Offer,
    OnlyJokers,
    Promote,
    Refill,
    Reopen,
    ReplacePart,
    Reroll,
    Sabotage,
    Stand,
    SwayCrowd,
    TakeFrom,
    TakeFromDiscard,
    Vote,
    Withdraw,
)

from tests.games.astonishing.astonishing_scenarios import GAME

EVERY_KIND = [
    ChooseInventor(2),
    ChooseAction("jack"),
    ChooseAction("king"),
    Offer((4,)),
    Offer((4, 17)),
    NoTrade(),
    Answer((3, 9), (True, False)),
    Answer((41,), (False,)),
    Stand(),
    Decline(),
    Accept(2),
    Reopen(),
    Withdraw(),
    DrawTwo(),
    TakeFrom(3),
    TakeFromDiscard(),
    BuyResources(()),
    BuyResources((5, 6)),
    GiveBack(12),
    Build(0, (3, 9), ()),
    Build(2, (7,), (1, 30)),
    OnlyJokers(),
    DiscardCard(8),
    KeepRest(),
    Refill(True),
    Refill(False),
    EndInvention(True),
    Describe((3, 0, 11)),
    Describe((1, 2, 3), "Behold, the age of steam!"),
    ExhibitCard("queen"),
    ExhibitCard("king"),
    Vote(1),
    Vote(0),
    Reroll(2),
    KeepDice(),
    KeepParts(),
    Intimidate(1),
    ReplacePart(4, 20),
    SwayCrowd(0, 6),
    Sabotage(33),
    Promote(3),
]


def test_every_action_kind_is_listed_here():
    kinds = {type(action) for action in EVERY_KIND}
    assert kinds == set(actions._KIND_OF) and len(kinds) == 32


@pytest.mark.parametrize("action", EVERY_KIND, ids=repr)
def test_actions_round_trip_their_wire_form_and_repr(action):
    wire = GAME.encode_action(action)
    assert isinstance(wire, list) and wire[0] == actions._KIND_OF[type(action)]
    assert GAME.decode_action(canonical.decode(canonical.encode(wire))) == action
    assert eval(repr(action), vars(actions)) == action


def test_the_wire_form_is_kind_then_fields_sequences_as_lists():
    assert GAME.encode_action(Answer((3, 9), (True, False))) == ["answer", [3, 9], [True, False]]
    assert GAME.encode_action(Build(2, (7,), (1, 30))) == ["build", 2, [7], [1, 30]]
    assert GAME.encode_action(Describe((3, 0, 11), "Behold")) == ["describe", [3, 0, 11], "Behold"]
    assert GAME.encode_action(NoTrade()) == ["no-trade"]


@pytest.mark.parametrize(
    "make",
    [
        lambda: ChooseInventor(4),
        lambda: ChooseInventor(-1),
        lambda: ChooseInventor(True),
        lambda: ChooseAction("ace"),
        lambda: ChooseAction("Jack"),
        lambda: Offer(()),
        lambda: Offer((1, 2, 3)),
        lambda: Offer((5, 5)),
        lambda: Offer((6, 5)),
        lambda: Offer([1]),
        lambda: Offer((-1,)),
        lambda: Answer((1,), ()),
        lambda: Answer((1, 2), (True,)),
        lambda: Answer((1,), (1,)),
        lambda: Answer((), ()),
        lambda: Answer((1, 2, 3), (True, True, True)),
        lambda: Accept(4),
        lambda: Accept("bob"),
        lambda: TakeFrom(-1),
        lambda: BuyResources((1, 2, 3)),
        lambda: GiveBack(None),
        lambda: Build(3, (1,), ()),
        lambda: Build(0, (), ()),
        lambda: Build(0, (1, 2, 3), ()),
        lambda: Build(0, (1,), (2, 3, 4)),
        lambda: DiscardCard("7d"),
        lambda: Refill(1),
        lambda: EndInvention(None),
        lambda: Describe((3, 9)),
        lambda: Describe((3, 9, 12)),
        lambda: Describe((3, 9, -1)),
        lambda: Describe([3, 9, 1]),
        lambda: Describe((1, 1, 1), "x" * 201),
        lambda: Describe((1, 1, 1), "two\nlines"),
        lambda: Describe((1, 1, 1), " padded"),
        lambda: ExhibitCard("jack"),
        lambda: ExhibitCard(1),
        lambda: Vote(4),
        lambda: Vote(-1),
        lambda: Vote("bob"),
        lambda: Reroll(3),
        lambda: Intimidate(3),
        lambda: ReplacePart(1, "2"),
        lambda: SwayCrowd(0, 7),
        lambda: SwayCrowd(0, 0),
        lambda: SwayCrowd(3, 4),
        lambda: Sabotage(1.0),
        lambda: Promote(5),
    ],
)
def test_an_action_of_the_wrong_shape_is_malformed(make):
    with pytest.raises(MalformedAction):
        make()


def test_a_malformed_action_says_which_field_is_wrong():
    with pytest.raises(MalformedAction, match="^suit must be 0–3, not 4$"):
        ChooseInventor(4)
    with pytest.raises(MalformedAction, match="^an action card is jack, queen or king, not 'ace'$"):
        ChooseAction("ace")
    with pytest.raises(MalformedAction, match="^face_up must say face up or down for each of the 2 card"):
        Answer((1, 2), (True,))
    with pytest.raises(MalformedAction, match="^a descriptor number is 0 .empty position. or 1–11, not 12$"):
        Describe((3, 9, 12))
    with pytest.raises(MalformedAction, match="^a die shows 1–6, not 7$"):
        SwayCrowd(0, 7)


@pytest.mark.parametrize(
    "data",
    [
        None,
        5,
        "stand",
        [],
        ["fly"],
        [3],
        ["stand", 1],
        ["accept"],
        ["offer", 4],
        ["answer", [1], True],
        ["build", 0, [1]],
        ["inventor", 7],
        ["describe", [1, 2, 3], 5],
    ],
)
def test_wire_data_that_is_no_action_is_malformed(data):
    with pytest.raises(MalformedAction):
        GAME.decode_action(data)


def test_encoding_something_that_is_no_action_is_malformed():
    with pytest.raises(MalformedAction, match="not an Astonishing! action"):
        GAME.encode_action(("offer", 4))
