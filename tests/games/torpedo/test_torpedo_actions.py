"""Actions check their own shape, travel as canonical wire values and read back from their repr
(actions.py)."""

import pytest

from p2pgames import canonical
from p2pgames.engine import MalformedAction
from p2pgames.games.torpedo import actions as A
from p2pgames.games.torpedo.actions import decode_action, encode_action

EXAMPLES = [
    A.Build(("Bow Cannon", "Gatling Gun")),
    A.Pick("Gatling Gun"),
    A.Swap(0, 9),
    A.Keep(),
    A.Breathe(3),
    A.Maneuver(2, -1, None),
    A.Maneuver(0, 0, 1),
    A.Move(6, 2),
    A.CaptainMove(8),
    A.Trigger(4, 1, (6,)),
    A.Trigger(4, 0, (1, 3)),
    A.Step(2, 8),
    A.TargetTile(3),
    A.TargetCrew(9),
    A.Relocate(1, 0),
    A.Drive(1, -2, 0),
    A.Absorb(),
    A.Assign(4),
    A.React(9, 0),
    A.Pass(),
    A.EndTurn(),
]


@pytest.mark.parametrize("action", EXAMPLES, ids=lambda action: type(action).__name__)
def test_every_action_round_trips_its_wire_form_and_its_repr(action):
    wire = canonical.decode(canonical.encode(encode_action(action)))
    assert decode_action(wire) == action
    assert eval(repr(action), vars(A)) == action  # noqa: S307 - our own reprs


def test_every_action_class_has_an_example():
    assert {type(action) for action in EXAMPLES} == set(A._KIND_OF)


@pytest.mark.parametrize(
    "make",
    [
        lambda: A.Swap(3, 3),
        lambda: A.Swap(4, 2),
        lambda: A.Swap(0, 10),
        lambda: A.Breathe(True),
        lambda: A.Breathe(-1),
        lambda: A.Maneuver(5, 0, None),
        lambda: A.Maneuver(1, 0, 2),
        lambda: A.Move(10, 0),
        lambda: A.Trigger(0, 2, (1,)),
        lambda: A.Trigger(0, 0, ()),
        lambda: A.Trigger(0, 0, (1, 2, 3)),
        lambda: A.Trigger(0, 0, (2, 1)),
        lambda: A.Trigger(0, 0, [1]),
        lambda: A.Drive(0, 0, None),
        lambda: A.Drive(2, 1, None),
        lambda: A.Build(()),
        lambda: A.Build(("b", "a")),
        lambda: A.Build(("a", 3)),
        lambda: A.Build(["a"]),
        lambda: A.Pick(""),
        lambda: A.Pick("x" * 41),
        lambda: A.React(0, -1),
    ],
)
def test_malformed_actions_are_refused_when_built(make):
    with pytest.raises(MalformedAction):
        make()


@pytest.mark.parametrize(
    "wire",
    [None, [], ["nope"], ["swap", 1], ["swap", 1, 2, 3], ["trigger", 0, 0, 5], ["build", "a"], [3, 1]],
)
def test_malformed_wire_values_are_refused(wire):
    with pytest.raises(MalformedAction):
        decode_action(wire)


def test_a_build_may_hold_a_duplicate_or_the_wrong_count_for_the_rules_to_refuse_with_a_reason():
    # The shape check leaves the rules' checks to check_action, which names the builder.
    assert A.Build(("Bow Cannon", "Bow Cannon")).tiles == ("Bow Cannon", "Bow Cannon")
    assert len(A.Build(("Bow Cannon",)).tiles) == 1
