"""The draft's "Sample Game Play", both tricks, move by move (five players at the Royal table:
alice the Queen, bob the General, carol the Duke, dave the Alchemist, erin the Tea Boy)."""

from __future__ import annotations

from sc2015_scenarios import Court2015

from p2pgames.engine import ReactionWindow

ALICE, BOB, CAROL, DAVE, ERIN = range(5)


def sample_table() -> Court2015:
    return Court2015(
        5,
        [
            ["1", "1", "1", "9", "9", "9", "MS", "4", "12", "5"],
            ["3", "3", "3/9", "10", "X", "8", "12", "6"],
            ["3", "3", "3", "11", "7"],
            ["2", "2", "6"],
            ["11", "11", "11", "2"],
        ],
        play=True,  # the privileges are not part of the example
    )


def general_lets_it_stand(court: Court2015) -> None:
    assert isinstance(court.step(), ReactionWindow) and court.actor() == BOB
    court.do(BOB, "pass")


def the_first_trick(court: Court2015) -> None:
    """The first trick, move by move, checking what the draft says of it."""
    # "The Queen starts the first trick of the Quarter by laying three 1s."
    court.do(ALICE, "lay 1 1 1")
    # "The General lays three 3s (one of which was a 3/9 card)"
    court.do(BOB, "lay 3 3 3/9 as 3")
    # "the Duke lays three 3s (his privilege allows him to lay the same numbered cards)."
    court.do(CAROL, "lay 3 3 3")
    general_lets_it_stand(court)
    # "The Alchemist passes. The Tea Boy has three 11s, but ... he passes"
    court.passes(DAVE, ERIN)
    assert court.hand(ERIN) == ["2", "11", "11", "11"]
    # "The Queen lays three 9s."
    court.do(ALICE, "lay 9 9 9")
    general_lets_it_stand(court)
    # "The General lays a single 10 and a Multiplier; the Duke passes; the Alchemist already passed."
    court.do(BOB, "lay 10 +X3")
    court.passes(CAROL)
    # "The Queen lays a Putsch and wins the trick."
    court.do(ALICE, "lay Putsch")
    general_lets_it_stand(court)
    assert court.state.tricks[ALICE] == 1
    # "All of the players who had passed turn their character cards back around": a new trick,
    # which the winner leads.
    assert court.table.lays == [] and court.table.passed == [] and court.table.turn == ALICE


def test_the_first_trick():
    the_first_trick(sample_table())


def test_the_second_trick_and_the_generals_stop():
    court = sample_table()
    the_first_trick(court)
    # "The Queen leads the next trick by laying a single 4. The General lays an 8; the Duke lays an 11."
    court.do(ALICE, "lay 4")
    court.do(BOB, "lay 8")
    court.do(CAROL, "lay 11")
    general_lets_it_stand(court)
    # "The Alchemist passes; the Tea Boy passes. The Queen lays a 12."
    court.passes(DAVE, ERIN)
    court.do(ALICE, "lay 12")
    # "The General stops the Queen from laying using his privilege, then lays a 12."
    court.do(BOB, "stop alice")
    assert "12" in court.hand(ALICE)  # back in her hand: she doesn't forfeit the trick
    court.do(BOB, "lay 12")
    # "The Duke passes; the Queen also passes as she has no cards that can beat a 12."
    court.passes(CAROL)
    assert court.texts(ALICE) == ["pass"]
    court.passes(ALICE)
    # Everyone else has passed: he may play over his own 12 (FAQ), and passes instead.
    court.passes(BOB)
    # "The General wins the trick and starts the next trick."
    assert court.state.tricks[BOB] == 1 and court.table.turn == BOB and court.table.lays == []
