"""Overflows (rulebook: "The Machine" and "Turn Structure" 3)."""

from p2pgames.games.beltpunk.actions import Look, Pick, Place, Skip, Take

from beltpunk_scenarios import StackedTable, stacked_deck

ALICE, BOB, CAROL = range(3)


def table_with(hands, machine):
    return StackedTable(3, [stacked_deck(3, hands, machine)], first_foreman=ALICE)


def test_a_conveyor_over_capacity_overflows_into_the_resolving_players_scrap_pile():
    table = table_with([["S1"], ["G2"], ["P3"]], ["S9", "S10", "S11"])
    table.discard({ALICE: "S1", BOB: "G2", CAROL: "P3"})
    # Four Steam cards with three players: too many, but only after Alice's action resolves.
    assert table.conveyor(0) == ["S9", "S10", "S11", "S1"]
    table.act(ALICE, Skip())
    assert table.conveyor(0) == []
    assert table.names(table.state.scrap[ALICE]) == ["S9", "S10", "S11", "S1"]
    # Face down in her pile, but everyone saw them in The Machine: their values stay public.
    assert all(slot in table.state.cards.revealed for slot in table.state.scrap[ALICE])
    assert "the Steam conveyor overflows: 4 cards into alice's scrap pile" in table.lines


def test_a_conveyor_at_capacity_does_not_overflow():
    table = table_with([["S1"], ["G2"], ["P3"]], ["S9", "S10", "G11"])
    table.discard({ALICE: "S1", BOB: "G2", CAROL: "P3"})
    table.act(ALICE, Skip())
    assert table.conveyor(0) == ["S9", "S10", "S1"] and table.state.scrap[ALICE] == []


def test_the_player_whose_card_makes_one_too_many_takes_the_overflow():
    table = table_with([["P3"], ["S4"], ["S5"]], ["S9", "S10", "G11"])
    table.discard({ALICE: "P3", BOB: "S4", CAROL: "S5"})
    table.act(BOB, Skip())  # S4 fills the Steam conveyor: three cards, no overflow
    assert table.state.scrap[BOB] == []
    table.act(CAROL, Skip())  # S5 is the fourth
    assert table.names(table.state.scrap[CAROL]) == ["S9", "S10", "S4", "S5"]


def test_drawing_out_of_a_full_conveyor_prevents_its_overflow():
    table = table_with([["P1"], ["G2"], ["E3"]], ["P9", "P10", "P11"])
    table.discard({ALICE: "P1", BOB: "G2", CAROL: "E3"})
    table.act(BOB, Skip())
    assert table.state.actor == ALICE and len(table.conveyor(2)) == 4
    table.act(ALICE, Look(None))
    table.act(ALICE, Pick(table.slot("P9")))
    assert table.conveyor(2) == ["P10", "P11", "P1"] and table.state.scrap[ALICE] == []
    assert not any("overflows" in line for line in table.lines)


def test_taking_out_of_a_full_conveyor_and_placing_elsewhere_prevents_its_overflow():
    table = table_with([["P1", "E8"], ["G2"], ["E3"]], ["P9", "P10", "P11"])
    table.discard({ALICE: "P1", BOB: "G2", CAROL: "E3"})
    table.act(BOB, Skip())
    table.act(ALICE, Take(table.slot("P10")))
    table.act(ALICE, Place(table.slot("E8")))
    assert table.conveyor(2) == ["P9", "P11", "P1"] and table.conveyor(3) == ["E8", "E3"]
    assert table.state.scrap[ALICE] == []


def test_placing_into_the_machine_can_overflow_another_conveyor_onto_the_placer():
    table = table_with([["P1", "G3"], ["S2"], ["E3"]], ["G9", "G10", "G11"])
    table.discard({ALICE: "P1", BOB: "S2", CAROL: "E3"})
    table.act(BOB, Skip())
    table.act(ALICE, Take(table.slot("P1")))
    table.act(ALICE, Place(table.slot("G3")))
    # The placed card triggers no ability, but the check after Alice's resolution sees 4 Gears.
    assert table.names(table.state.scrap[ALICE]) == ["G9", "G10", "G11", "G3"]
    assert table.conveyor(1) == [] and table.slot("P1") in table.state.hands[ALICE]
    assert "the Gears conveyor overflows: 4 cards into alice's scrap pile" in table.lines
