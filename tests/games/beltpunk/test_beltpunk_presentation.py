"""Wire encodings, state round trips, action texts, log lines, panels and help."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pgames import canonical
from p2pgames.engine import LocalTable, MalformedAction
from p2pgames.games.beltpunk import GAME, actions
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

from beltpunk_scenarios import StackedTable, skip_all, stacked_deck

EVERY_KIND = [
    Discard(3),
    Draw(),
    Look(None),
    Look(2),
    Pick(7),
    Take(60),
    Place(0),
    Exchange(5, 1),
    Give(9),
    Skip(),
    Declare(True),
    Declare(False),
    Score((1, 4, 9)),
]


@pytest.mark.parametrize("action", EVERY_KIND)
def test_actions_round_trip_their_wire_form_and_repr(action):
    wire = canonical.decode(canonical.encode(GAME.encode_action(action)))
    assert GAME.decode_action(wire) == action
    assert eval(repr(action), vars(actions)) == action


@pytest.mark.parametrize(
    "data",
    [
        None,
        5,
        "draw",
        [],
        ["fly"],
        ["draw", 1],
        ["discard"],
        ["discard", -1],
        ["discard", True],
        ["discard", 2**40],
        ["look", 4],
        ["look", "machine"],
        ["exchange", 1],
        ["exchange", 1, 9],
        ["declare", 1],
        ["score", [3, 2]],
        ["score", [1]],
        ["score", [1, 1]],
        ["score", 5],
        ["score", list(range(14))],
        ["give", 1.5],
    ],
)
def test_malformed_wire_actions_are_refused(data):
    with pytest.raises(MalformedAction):
        GAME.decode_action(data)


@settings(max_examples=300, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=8),
        lambda inner: st.lists(inner, max_size=4),
        max_leaves=12,
    )
)
def test_decoding_anything_raises_only_malformed_action(data):
    try:
        action = GAME.decode_action(data)
    except MalformedAction:
        return
    assert GAME.decode_action(GAME.encode_action(action)) == action


def test_building_a_bad_action_raises_malformed_action():
    with pytest.raises(MalformedAction):
        Score([1, 2])
    with pytest.raises(MalformedAction):
        Exchange(1, -1)
    with pytest.raises(MalformedAction):
        GAME.encode_action("draw")


def bot_table(players, seed, *, until=None):
    """A checked table played by bots, stopped when ``until(table)`` holds (or at the end)."""
    table = LocalTable(GAME, GAME.ruleset(players), seed)
    table.play_with([make_bot(seed + bytes([seat])) for seat in range(players)], until=until)
    return table


def test_states_round_trip_through_their_canonical_encoding_mid_game():
    table = bot_table(3, b"mid", until=lambda t: t.state.round == 2 and t.state.phase == "action")
    encoded = canonical.encode(GAME.encode_state(table.state))
    again = GAME.decode_state(canonical.decode(encoded))
    assert canonical.encode(GAME.encode_state(again)) == encoded
    assert GAME.legal_actions(again, again.actor, table.view(again.actor)) == GAME.legal_actions(
        table.state, table.state.actor, table.view(table.state.actor)
    )


def test_action_texts_are_short_and_unique_through_a_whole_game():
    names = ["alice", "bob", "carol", "dave"]
    table = bot_table(4, b"texts", until=lambda t: t.state.turn >= 8)
    for seat in range(4):
        texts = [
            PRESENTATION.describe_action(table.state, seat, a, table.view(seat), names)
            for a in GAME.legal_actions(table.state, seat, table.view(seat))
        ]
        assert len(texts) == len(set(texts))
        assert all(len(text) <= 40 for text in texts)


def can_look_at_a_players_pile(table):
    if table.state.phase != "action":
        return False
    seat = table.state.actor
    looks = [a for a in GAME.legal_actions(table.state, seat, table.view(seat)) if type(a) is Look]
    return Look(None) in looks and len(looks) > 1


def test_a_player_called_machine_does_not_clash_with_the_machine():
    table = bot_table(2, b"clash", until=can_look_at_a_players_pile)
    assert not table.over
    for names in (["machine", "bob"], ["alice", "machine"]):
        seat = table.state.actor
        texts = [
            PRESENTATION.describe_action(table.state, seat, a, table.view(seat), names)
            for a in GAME.legal_actions(table.state, seat, table.view(seat))
        ]
        assert len(texts) == len(set(texts))
        assert "look machine" in texts


def test_panels_fit_80_columns_and_show_the_table():
    table = bot_table(
        4, b"panels", until=lambda t: t.state.round == 2 and t.state.phase == "action"
    )
    assert not table.over
    names = ["alice", "bob", "carol", "a-very-long-player-name-indeed"]
    for viewer in (None, 0, 1, 2, 3):
        panels = PRESENTATION.panels(
            table.state, viewer, {} if viewer is None else table.view(viewer), names
        )
        titles = [panel.title for panel in panels]
        assert titles[:3] == ["Beltpunk Haberdasher", "The Machine", "Players"]
        assert ("Your hand" in titles) == (viewer is not None)
        for panel in panels:
            for line in panel.lines:
                assert len("".join(text for _, text in line)) <= 78, (panel.title, line)
    machine = PRESENTATION.panels(table.state, 0, table.view(0), names)[1]
    assert [line[0][1].strip() for line in machine.lines] == [
        "Steam",
        "Gears",
        "Parts",
        "Electricity",
    ]
    hand = PRESENTATION.panels(table.state, 0, table.view(0), names)[3]
    shown = [text for line in hand.lines for style, text in line if style.startswith("suit-")]
    assert sorted(shown) == sorted(table.view(0)[slot] for slot in table.state.hands[0])


def test_log_lines_use_public_information_only():
    table = bot_table(3, b"log")
    names = ["alice", "bob", "carol"]
    state = GAME.setup(table.ruleset)
    hidden_leaks = 0
    for event in table.log:
        after = GAME.apply(state, event)
        for line in PRESENTATION.narrate(state, event, after, names):
            assert isinstance(line, str) and line
            # A card named in a line is public in the state before or after the event.
            for word in line.replace(",", " ").replace(":", " ").replace("(", " ").split():
                if word in table.truth.values() and word[0] in "SGPE" and word[1:].isdigit():
                    public = set(state.cards.revealed.values()) | set(after.cards.revealed.values())
                    hidden_leaks += word not in public
        state = after
    assert hidden_leaks == 0


def test_help_text_names_every_action():
    text = PRESENTATION.help_text()
    for typed in (
        "discard S7",
        "draw",
        "look machine",
        "take G4 from machine",
        "place S7",
        "exchange S7 with bob",
        "give E3",
        "skip",
        "declare yes",
        "score S4 S5 S6",
    ):
        assert typed in text
    assert all(len(line) <= 100 for line in text.splitlines())


def test_rules_md_names_only_tests_that_exist():
    import pathlib
    import re

    import p2pgames.games.beltpunk as package

    rules = (pathlib.Path(package.__file__).parent / "RULES.md").read_text()
    here = pathlib.Path(__file__).parent
    named = re.findall(r"(test_beltpunk_\w+\.py)::(test_\w+)", rules)
    assert len(named) > 40
    for filename, test in named:
        assert re.search(
            rf"^def {test}\(", (here / filename).read_text(), re.M
        ), f"{filename}::{test}"


def test_rules_md_names_the_rulebook_and_cites_only_files_in_the_repository():
    # `p2pgames rules beltpunk` prints RULES.md to players who have only the repository.
    import pathlib
    import re

    import p2pgames.games.beltpunk as package

    rules = (pathlib.Path(package.__file__).parent / "RULES.md").read_text()
    root = pathlib.Path(package.__file__).parents[3]
    source = rules.split("\n\n")[1]
    for fact in ("Beltpunk Haberdasher", "1.0.0", "Matt Ajifu"):
        assert fact in source
    for quoted in re.findall(r"`([^`\s]+/[^`\s]*)`", rules):
        path = quoted.split("::")[0]
        assert (root / path).exists() or (root / "tests/games/beltpunk" / path).exists(), quoted
    for command in re.findall(r"`\.venv/bin/python (\S+)", rules):
        assert (root / command).exists(), command


def test_spec_d2_lists_every_wire_action_for_what_it_does():
    import pathlib
    import re

    import p2pgames.games.beltpunk as package

    spec = (pathlib.Path(package.__file__).parents[3] / "protocol/SPEC.md").read_text()
    d2 = spec.split("## D2.")[1].split("## D3.")[0]
    rows = dict(
        (kind, what) for what, kind in re.findall(r'^\| (.+?) \| `\["(\w+)"', d2, re.M)
    )
    assert sorted(rows) == sorted({GAME.encode_action(action)[0] for action in EVERY_KIND})
    # A pick only ever follows a look (a take is followed by a place).
    assert "looked at" in rows["pick"] and "taken" not in rows["pick"]
    assert "taken from" in rows["place"]


def panel_texts(panel):
    return ["".join(text for _, text in line) for line in panel.lines]


def test_the_game_over_screen_shows_the_final_table_and_who_won():
    from beltpunk_scenarios import short_round

    table = short_round(totals=(15, 0, 0, 0))
    assert table.over
    names = ["alice", "bob", "carol", "a-very-long-player-name-indeed"]
    for viewer in (None, 0, 1):
        view = {} if viewer is None else table.view(viewer)
        panels = PRESENTATION.panels(table.state, viewer, view, names)
        shown = {panel.title: panel_texts(panel) for panel in panels}
        assert list(shown) == [
            "Beltpunk Haberdasher", "Final standings", "The Machine", "Sets and scrap"
        ]
        assert all(len(line) <= 78 for lines in shown.values() for line in lines)
        # Beside the panel titles (16 columns and " │ ") on an 80-column screen.
        assert all(len(line) <= 61 for line in shown["Final standings"])
        assert shown["Beltpunk Haberdasher"][1] == "alice wins with 25 points"
        assert "game over" in shown["Beltpunk Haberdasher"][0]
        assert shown["Final standings"][0] == (
            "alice            sets 10 − scrap  0 = +10 · total  25 · wins"
        )
        assert shown["Final standings"][1].startswith(
            "bob              sets  0 − scrap  6 =  -6 · total  -6"
        )
        assert [line.split()[1:] for line in shown["The Machine"]] == [
            ["S10", "S13", "·", "·", "2/4"],
            ["G10", "G12", "G13", "·", "3/4"],
            ["P12", "P1", "P2", "P3", "4/4", "full"],
            ["E5", "E1", "E2", "·", "3/4"],
        ]
        piles = shown["Sets and scrap"]
        assert piles[0] == "alice: sets [S1 S2 S3] [G5 G6 G7]"
        # After the audit every scrap card is public: the others' last hands, for everyone to see.
        assert piles[1].startswith("bob: scrap ") and "??" not in " ".join(piles)


def test_the_final_standings_show_the_round_score_the_game_banked():
    from beltpunk_scenarios import short_round

    table = short_round(totals=(15, 0, 0, 0))
    assert table.state.last_round == [10, -6, -6, -6]
    # The panel reads the banked score, not a sum of its own: change the record, the line follows.
    state = table.state.copy()
    state.last_round = [11, -6, -6, -6]
    standings = PRESENTATION.panels(state, None, {}, ["alice", "bob", "carol", "dave"])[1]
    assert panel_texts(standings)[0].startswith("alice sets 10 − scrap  0 = +11 · total  25")


def test_a_shared_win_is_shown_as_shared():
    from beltpunk_scenarios import short_round

    table = short_round(totals=(15, 31, 0, 0))
    table_panel = PRESENTATION.panels(table.state, None, {}, ["alice", "bob", "carol", "dave"])[0]
    assert panel_texts(table_panel)[1] == "alice and bob share the win with 25 points each"


# -- warnings (shown above the choices) ------------------------------------------------------------


def warned(table, seat, state=None):
    names = table.NAMES[: table.ruleset.players]
    return list(PRESENTATION.warnings(state or table.state, seat, table.view(seat), names))


def warning_table(hands, machine):
    from beltpunk_scenarios import StackedTable, stacked_deck

    return StackedTable(3, [stacked_deck(3, hands, machine)], first_foreman=0)


def test_the_player_whose_action_a_conveyor_overflows_on_is_told_how_to_prevent_it():
    # Parts holds 4 of 3 when Alice's P1 resolves: she can look and draw, or take and place.
    table = warning_table([["P1"], ["G2"], ["E3"]], ["P9", "P10", "P11"])
    table.discard({0: "P1", 1: "G2", 2: "E3"})
    assert warned(table, 1) == []  # Bob's Gears card resolves first: Parts is not his problem
    table.act(1, Skip())
    assert warned(table, 0) == [
        "Parts is 4/3: all 4 cards go to your scrap pile unless you remove one.",
        "Prevent it: look machine and draw one, or take one and place another suit.",
    ]
    assert warned(table, 1) == [] and warned(table, 2) == []
    table.act(0, Look(None))
    assert warned(table, 0) == [
        "Parts is 4/3: draw one of its cards, or all 4 go to your scrap pile."
    ]


def test_a_card_whose_actions_cannot_prevent_the_overflow_says_so():
    table = warning_table([["S1"], ["G2"], ["P3"]], ["S9", "S10", "S11"])
    table.discard({0: "S1", 1: "G2", 2: "P3"})
    assert warned(table, 0) == [
        "Steam is 4/3: whatever you choose, all 4 cards go to your scrap pile."
    ]
    table.act(0, Skip())
    assert table.names(table.state.scrap[0]) == ["S9", "S10", "S11", "S1"]  # as warned


def test_electricity_can_only_look_and_gears_only_take():
    table = warning_table([["P1"], ["G1"], ["P3"]], ["G9", "G10", "G11"])
    table.discard({0: "P1", 1: "G1", 2: "P3"})
    assert warned(table, 1) == [
        "Gears is 4/3: all 4 cards go to your scrap pile unless you remove one.",
        "Prevent it: take one and place another suit.",
    ]
    table = warning_table([["E1"], ["G1"], ["P3"]], ["E9", "E10", "E11"])
    table.discard({0: "E1", 1: "G1", 2: "P3"})
    table.act(1, Skip())
    table.act(2, Skip())
    assert warned(table, 0) == [
        "Electricity is 4/3: all 4 cards go to your scrap pile unless you remove one.",
        "Prevent it: look machine and draw one.",
    ]


def test_placing_into_a_full_conveyor_names_the_cards_that_overflow_it():
    table = warning_table([["P1", "G3", "G4", "E8"], ["S2"], ["E3"]], ["G9", "G10", "G11"])
    table.discard({0: "P1", 1: "S2", 2: "E3"})
    table.act(1, Skip())
    table.act(0, Take(table.slot("P1")))
    assert warned(table, 0) == ["Placing G3 or G4 overflows Gears: all 4 go to your scrap pile."]


def test_placing_any_card_of_a_suit_whose_conveyor_is_full_is_said_once():
    # Bob holds nothing but Gears: taking a Gears card out and placing one back can't help.
    hands = [["P1"], ["G1", "G2", "G3", "G4", "G5", "G6", "G7"], ["E3"]]
    table = StackedTable(
        3, [stacked_deck(3, hands, ["G9", "G10", "G11"], ["S8", "G8", "E8"])], first_foreman=0
    )
    table.discard({0: "P1", 1: "G1", 2: "E3"})
    assert table.state.actor == 1
    assert warned(table, 1) == [
        "Gears is 4/3: whatever you choose, all 4 cards go to your scrap pile."
    ]
    table.act(1, Take(table.slot("G9")))
    assert warned(table, 1) == [
        "Placing any Gears card overflows it: all 4 go to your scrap pile."
    ]


def two_player_table(hands, machine, deck):
    return StackedTable(2, [stacked_deck(2, hands, machine, deck)], first_foreman=0)


def test_taking_is_offered_only_with_a_card_of_a_suit_whose_conveyor_has_room():
    # Turn 1 fills Steam (2/2) and Parts (2/2); on turn 2 Alice's P2 makes Parts 3/2. Placing her
    # S3 would overflow Steam instead: the suits that help are Gears and Electricity.
    hands = [["P1", "P2", "S3", "G4", "E6"], ["S1", "E9"]]
    table = two_player_table(hands, ["P9", "S9"], ["E2", "G2", "G3", "E3"])
    table.discard({0: "P1", 1: "S1"})
    skip_all(table)
    table.declare_all()
    table.discard({0: "P2", 1: "E9"})
    assert table.state.actor == 0
    assert warned(table, 0) == [
        "Parts is 3/2: all 3 cards go to your scrap pile unless you remove one.",
        "Prevent it: look machine and draw one.",
        "Or take one and place a Gears or Electricity card.",
    ]
    # Bob holds Steam besides Gears, but Steam is full: his Gears card has no way out (taking a
    # Gears card and placing a Steam one would send 3 Steam cards instead).
    hands = [["G4", "E5"], ["S1", "S5", "S7", "G1", "G2", "G5", "G7", "G12"]]
    table = two_player_table(hands, ["G9", "S9"], ["E2", "G3", "S12", "E3"])
    table.discard({0: "G4", 1: "S1"})
    skip_all(table)
    table.declare_all()
    table.discard({0: "E5", 1: "G1"})
    assert table.state.actor == 1 and table.hand(1) == [
        "S5", "S7", "S12", "G2", "G3", "G5", "G7", "G12"
    ]
    assert warned(table, 1) == [
        "Gears is 3/2: whatever you choose, 3 cards go to your scrap pile."
    ]


def test_placing_into_an_overflowing_conveyor_counts_the_card_placed():
    # Parts is full; Alice's P4 makes it 4/3, she takes S1 out of The Machine and holds P5, P6.
    table = warning_table([["P4", "P5"], ["S1"], ["E3"]], ["P9", "P10", "P11"])
    assert warned(table, 0) == ["Parts is full: a Parts discard may overflow into your scrap pile."]
    table.discard({0: "P4", 1: "S1", 2: "E3"})
    table.act(1, Skip())
    table.act(0, Take(table.slot("S1")))
    assert warned(table, 0) == [
        "Parts is 4/3: after you place, all its cards go to your scrap pile.",
        "Placing P5 or P6 adds one to Parts: all 5 go to your scrap pile.",
    ]
    table.act(0, Place(table.slot("P5")))
    assert ("overflow", 2, 0, 5) in table.notes  # as warned: 5, not the 4 of 4/3
    assert table.names(table.state.scrap[0]) == ["P9", "P10", "P11", "P4", "P5"]


def bobs_pile_table(suit):
    """Two players: on turn 1 Gears overflows onto Bob (G9 G10 G1 in his pile); on turn 2 Alice's
    card of ``suit`` (P or E) makes that conveyor 3/2, and hers is the card being resolved."""
    hands = [[f"{suit}1", f"{suit}5", f"{suit}6"], ["G1", f"{suit}2"]]
    table = two_player_table(hands, ["G9", "G10"], ["S2", "S3", "S4", "S5"])
    table.discard({0: f"{suit}1", 1: "G1"})
    skip_all(table)
    assert table.names(table.state.scrap[1]) == ["G9", "G10", "G1"]
    table.declare_all()
    table.discard({0: f"{suit}5", 1: f"{suit}2"})
    table.act(1, Skip())
    assert table.state.actor == 0
    return table


def test_taking_from_a_players_pile_says_the_overflow_comes_after_you_place():
    table = bobs_pile_table("P")
    table.act(0, Take(table.slot("G9")))
    assert table.state.pile == 1
    # Into Bob's pile nothing overflows: her P6 would add to Parts only in The Machine.
    assert warned(table, 0) == [
        "Parts is 3/2: after you place, all 3 cards go to your scrap pile."
    ]


def test_looking_at_a_players_pile_says_the_overflow_comes_after_your_draw():
    table = bobs_pile_table("E")
    table.act(0, Look(1))
    assert warned(table, 0) == [
        "Electricity is 3/2: after your draw, all 3 cards go to your scrap pile."
    ]


def test_a_discard_into_a_full_conveyor_is_warned_to_those_holding_its_suit():
    table = warning_table([["S1", "P4"], ["G2"], ["P3"]], ["S9", "S10", "S11"])
    hands = {seat: {name[0] for name in table.hand(seat)} for seat in range(3)}
    expected = ["Steam is full: a Steam discard may overflow into your scrap pile."]
    for seat in range(3):
        assert warned(table, seat) == (expected if "S" in hands[seat] else [])


def test_the_last_turn_of_a_round_is_warned_while_discarding_and_declaring():
    table = warning_table([["S1", "S2", "S3", "P4"], ["G2"], ["P3"]], ["S9", "G10", "G11"])
    last = "This is the round's last turn: each card left in your hand will cost 1 point."
    assert last not in warned(table, 0)
    state = table.state.copy()
    state.deck = []
    assert last in warned(table, 0, state) and last in warned(table, 1, state)
    table.discard({0: "P4", 1: "G2", 2: "P3"})
    skip_all(table)
    assert table.state.declarer == 0 and warned(table, 0) == []
    state = table.state.copy()
    state.deck = []
    assert warned(table, 0, state) == [last] and warned(table, 1, state) == []
    state.hands[2] = []  # an empty hand ends the round too
    state.deck = table.state.deck[:]
    assert warned(table, 0, state) == [last]


def test_warnings_fit_the_screen_through_whole_games():
    # Every seat is asked before every decision, with what it really knows then (its view), so the
    # warnings that depend on a hand show up too.
    seen: list[str] = []
    for players in (2, 3, 4):
        names = ["a", "b", "c", "d"][:players]

        def ask_everyone(table):
            for seat in range(players):
                lines = PRESENTATION.warnings(table.state, seat, table.view(seat), names)
                assert all(len(line) <= 78 for line in lines), lines
                seen.extend(lines)
            return False

        table = bot_table(players, b"warnings", until=ask_everyone)
        assert table.over
    # Those that depend on the hand: a suit held, a card to place, a suit with room to place.
    assert any(line.endswith("discard may overflow into your scrap pile.") for line in seen)
    assert any(line.startswith("Placing ") for line in seen)
    assert any(line.startswith("Prevent it: ") and "take one" in line for line in seen)
