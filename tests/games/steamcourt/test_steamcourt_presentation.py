"""Wire encodings, state round trips, action texts, log lines, panels and help."""

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pgames import canonical
from p2pgames.bots import PlayoutBot
from p2pgames.engine import LocalTable, MalformedAction
from p2pgames.games import steamcourt
from p2pgames.games.steamcourt import GAME, actions
from p2pgames.games.steamcourt.presentation import PRESENTATION, SteamCourtSoloPresentation
from p2pgames.games.steamcourt.actions import (
    Coup,
    DiscardTwo,
    Dive,
    Give,
    Hoard,
    Inspect,
    KeepRest,
    Lay,
    Masterstroke,
    Pass,
    Plague,
    PutBack,
    Retrieve,
    Serve,
    Steal,
    Stop,
    Trade,
    Unpass,
)

from steamcourt_scenarios import NAMES, Court

EVERY_KIND = [
    Lay((3, 9, 12), 7, 3),
    Lay((4,), 5, 2),
    Lay((4, 8), 5, 6, 80),
    Lay((), 1, 1, 80),
    Masterstroke(77),
    Pass(),
    Give(5, 2),
    Serve((1, 9), 0),
    Serve((), 0),
    Trade(True),
    Hoard(False),
    Inspect(3),
    Coup((1, 2, 3)),
    Stop(2),
    Retrieve(),
    Steal(40),
    Unpass("token"),
    Unpass("jester"),
    DiscardTwo((2, 6)),
    Dive("court", 7),
    Plague(),
    PutBack(99),
    KeepRest(),
]


@pytest.mark.parametrize("action", EVERY_KIND)
def test_actions_round_trip_their_wire_form_and_repr(action):
    wire = canonical.decode(canonical.encode(GAME.encode_action(action)))
    assert GAME.decode_action(wire) == action
    assert eval(repr(action), vars(actions)) == action


@pytest.mark.parametrize(
    "data",
    [
        None, 5, "pass", [], ["fly"], ["pass", 1], ["lay", [1], 7], ["lay", [1], 7, 1, None, 0],
        ["lay", [], 7, 1, None],  # no cards
        ["lay", [1, 2], 7, 3, None],  # two cards without a Multiplier count as two
        ["lay", [1, 2], 7, 1, 5],  # a Multiplier with two cards counts as at least two
        ["lay", [1], 7, 1, 1],  # the Multiplier listed among the cards
        ["lay", [], 5, 1, 3],  # a Multiplier alone is a single 1
        ["lay", [2, 1], 7, 2, None], ["lay", [1, 1], 7, 2, None], ["lay", [1], 13, 1, None],
        ["lay", [1], 7, 17, 4], ["lay", [1], True, 1, None], ["lay", 1, 7, 1, None],
        ["ms", -1], ["ms", 1.5], ["give", 1, 12], ["give", 1], ["serve", [1, 2, 3], 0],
        ["trade", 1], ["hoard", "yes"], ["inspect", -1], ["coup", [1, 2]], ["coup", [1, 2, 2]],
        ["unpass", "jest"], ["discard", [1]], ["dive", "deck", 1], ["dive", "court"],
        ["putback", None], ["keep", 1], ["steal"], ["decline"],
    ],
)
def test_malformed_wire_actions_are_refused(data):
    with pytest.raises(MalformedAction):
        GAME.decode_action(data)


@settings(max_examples=300, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=8),
        lambda inner: st.lists(inner, max_size=6),
        max_leaves=12,
    )
)
def test_decoding_anything_raises_only_malformed_action(data):
    try:
        action = GAME.decode_action(data)
    except MalformedAction:
        return
    assert GAME.decode_action(GAME.encode_action(action)) == action


def test_encoding_a_non_action_raises_malformed_action():
    with pytest.raises(MalformedAction):
        GAME.encode_action("pass")
    with pytest.raises(MalformedAction):
        Lay([1, 2], 7, 2)


def random_table(players, seed, until, scoring="gears"):
    table = LocalTable(GAME, GAME.ruleset(players, {"scoring": scoring}), seed)
    table.play_with([PlayoutBot(seed)] * players, until=until)
    return table


def test_states_round_trip_through_their_canonical_encoding_mid_game():
    table = random_table(4, b"mid", lambda t: t.state.quarter == 2 and t.state.tables[0].lays)
    encoded = canonical.encode(GAME.encode_state(table.state))
    again = GAME.decode_state(canonical.decode(encoded))
    assert canonical.encode(GAME.encode_state(again)) == encoded
    seat = table.state.tables[0].turn
    assert GAME.legal_actions(again, seat, table.view(seat)) == GAME.legal_actions(
        table.state, seat, table.view(seat)
    )


def test_action_texts_are_short_and_unique_and_panels_fit_80_columns_through_whole_games():
    names = ["alice", "bob", "carol", "dave", "erin", "frank", "gina"]
    for players, scoring in ((7, "gears"), (6, "clock")):
        table = LocalTable(GAME, GAME.ruleset(players, {"scoring": scoring}), b"texts")
        bot = PlayoutBot(b"texts")
        while not table.over:
            for seat in range(players):
                view = table.view(seat)
                texts = [
                    PRESENTATION.describe_action(table.state, seat, action, view, names)
                    for action in GAME.legal_actions(table.state, seat, view)
                ]
                assert len(texts) == len(set(texts))
                assert all(len(text) <= 40 for text in texts), texts
            if len(table.log) % 7 == 0:
                for viewer in (None, *range(players)):
                    for panel in PRESENTATION.panels(table.state, viewer, {} if viewer is None else table.view(viewer), names):
                        assert len(panel.title) <= 76
                        for line in panel.lines:
                            assert len("".join(text for _, text in line)) <= 78, line
            step = table.step()
            seat = step.actors[0] if hasattr(step, "actors") else step.players[0]
            table.act(seat, bot.choose(GAME, table.state, seat, table.view(seat), step))


def test_the_help_fits_78_columns_and_names_every_command():
    text = PRESENTATION.help_text()
    assert max(len(line) for line in text.splitlines()) <= 78
    for command in (
        "lay 7 7 7", "lay 5 5 +X3", "lay 3/9 as 9", "lay X", "lay 7 as pair", "lay MS", "pass",
        "give 2 to carol", "trade", "hoard", "inspect bob", "coup", "stop bob", "retrieve",
        "unpass", "discard 2 5", "steal 7", "plague", "dive court 7", "put back 7", "not this quarter",
    ):
        assert command in text


def test_the_log_tells_what_everyone_saw_and_nothing_hidden():
    table = Court(3, [["1", "12"], ["5", "6"], ["10", "11", "4"]])
    table.do(0, "give 12 to bob")
    table.do(2, "give 10 11 to alice")
    table.do(2, "trade")
    assert table.lines[-3:] == [
        "alice (Queen) gives bob a card",
        "carol (Tea Boy) gives alice the two highest numbered cards",
        "carol (Tea Boy) trades 1 card for the Court Hand (77 cards)",
    ]
    assert not any("12" in line or "10" in line for line in table.lines[-3:])


def test_panels_show_the_table_the_machine_the_hand_and_the_powers():
    table = Court(6, [["5", "5", "MS"], ["6"], ["7"], ["8"], ["9"], ["10"]], play=True)
    table.do(0, "lay 5 5")
    titles = {panel.title: panel for panel in PRESENTATION.panels(table.state, 1, table.view(1), NAMES[:6])}
    assert list(titles) == [
        "Steam Court", "The table", "The machine", "Your hand (1)", "Your powers"
    ]
    text = lambda panel: ["".join(t for _, t in line) for line in panel.lines]  # noqa: E731
    assert text(titles["Steam Court"])[0].startswith("quarter 1 of 4 · gear tokens")
    table_lines = text(titles["The table"])
    assert table_lines[0].split()[:4] == ["1", "Queen", "alice", "1"]
    assert "to act" in table_lines[1]
    assert text(titles["The machine"]) == ["alice          5 5                      2 × 5"]
    assert text(titles["Your hand (1)"]) == ["6"]
    assert text(titles["Your powers"]) == ["General: once a quarter: stop a lay (not a lead)"]
    spectator = PRESENTATION.panels(table.state, None, {}, NAMES[:6])
    assert [panel.title for panel in spectator] == [
        "Steam Court", "The table", "The machine"
    ]


# -- the game-over screen (issue 7) ----------------------------------------------------------------


def finished(players, options, seed):
    shown = PRESENTATION.for_ruleset(GAME.ruleset(players, options))
    table = LocalTable(shown.rules, GAME.ruleset(players, options), seed)
    table.play_with([PlayoutBot(seed)] * players)
    assert table.over
    return shown, table


def screen(shown, table, viewer):
    names = NAMES[: table.ruleset.players] if table.ruleset.players <= len(NAMES) else [f"p{n}" for n in range(12)]
    panels = shown.panels(table.state, viewer, table.view(viewer), names)
    return {panel.title: ["".join(text for _, text in line) for line in panel.lines] for panel in panels}, names


@pytest.mark.parametrize("players, options", [(4, {}), (4, {"scoring": "clock"}), (2, {"variant": "duo"}),
                                              (2, {"variant": "duo", "duo_win": "queen"})])
def test_the_game_over_screen_shows_the_final_standings_and_the_last_quarters_table(players, options):
    game, table = finished(players, options, b"final")
    result = table.step()
    shown, names = screen(game, table, 0)
    assert list(shown)[:2] == ["Steam Court", "Final standings"] and "The table" in shown
    assert shown["Steam Court"][0].startswith("game over")
    standings = " ".join(shown["Final standings"])
    assert standings.startswith(f"{names[result.winners[0]]} wins")
    assert all(names[player] in standings for player in range(players))
    # The table as the 4th quarter ended: every seat, who went out when, the scores.
    seats = shown["The table"][:players]
    totals = table.state.totals()
    for player in range(players):
        row = next(row for row in seats if f" {names[player]} " in row)
        assert f"= {totals[player]}" in row or f"space {totals[player]} " in row, row
    holders = [player for player in range(players) if table.state.hands[player]]
    if options.get("scoring") != "clock":
        # The last player is "last" with his cards, not "0 cards out 4th".
        last = table.state.tables[0].out[-1]
        held = len(table.state.hands[last])
        assert holders == [last] and any(f"{held:>2} card" in row and "last" in row for row in seats)
    else:
        assert len(holders) == players - 2  # the quarter ended as the second player went out
    # Every player's cards left are on the table, face up (I27).
    for player in holders:
        who = "you were" if player == 0 else f"{names[player]} was"
        assert any(row.startswith(f"{who} left holding: ") for row in shown["The table"]), (who, shown["The table"])
    # Nothing to decide any more: no powers, no question.
    assert "Your powers" not in shown and "You are asked" not in shown


def test_the_party_game_over_screen_shows_the_final_court_and_both_tables_4th_quarters():
    game, table = finished(8, {"variant": "party"}, b"final")
    result = table.step()
    shown, names = screen(game, table, 0)
    assert list(shown) == ["Steam Court", "Final standings", "Quarter 4"]
    standings = shown["Final standings"]
    assert standings[0].startswith(f"{names[result.winners[0]]} wins")
    assert all(names[player] in " ".join(standings) for player in range(8))
    quarter = " ".join(shown["Quarter 4"])
    assert quarter.startswith("Royal:") and "Renegades:" in quarter and "quarter over" not in quarter
    assert quarter.count("last, left holding") == 2


@pytest.mark.parametrize("seed, won", [(b"eager-5", True), (b"solo-1", False)])
def test_the_solo_game_over_screen_keeps_the_last_tricks_on_the_table(seed, won):
    import test_steamcourt_solo

    game = test_steamcourt_solo.EAGER if won else GAME.for_ruleset(GAME.ruleset(1))
    table = LocalTable(game, GAME.ruleset(1), seed)
    table.play_with([PlayoutBot(seed)])
    assert bool(table.step().winners) is won
    header, _, tricks, *_ = (
        ["".join(text for _, text in line) for line in panel.lines]
        for panel in SteamCourtSoloPresentation(game).panels(table.state, 0, {}, ["you"])
    )
    assert ("won:" if won else "lost") in " ".join(header)
    assert tricks != ["none on the table"]
    if won:
        # The last round's three tricks stay, beaten, instead of vanishing into the discard pile.
        assert len(tricks) == 3 and all("beaten by" in row for row in tricks)


def test_rules_md_names_its_rulebook_and_cites_only_files_a_reader_can_find():
    # `p2pgames rules steamcourt` prints RULES.md: it used to cite shared/rules/steam-court.txt,
    # which is not in the repository (issue 7).
    package = Path(steamcourt.__file__).parent
    text = (package / "RULES.md").read_text()
    assert "*Steam Court*, designed by Will Meadows and Ryan Pilz, published by\nTantrum House" in text
    cited = re.findall(r"`([\w./-]+\.(?:txt|py|md|json))`", text)
    assert cited and all((package / path).exists() or (package.parents[2] / path).exists() for path in cited), cited


def test_every_test_rules_md_names_exists():
    package = Path(steamcourt.__file__).parent
    text = (package / "RULES.md").read_text()
    here = Path(__file__).parent
    named = re.findall(r"`(\w+)::(test_\w+|\*)`", text)
    assert len(named) > 150
    missing = []
    for short, name in named:
        source = here / f"test_steamcourt_{short}.py"
        if not source.exists() or (name != "*" and f"def {name}(" not in source.read_text()):
            missing.append(f"{short}::{name}")
    assert missing == []


@pytest.mark.parametrize("players, options", [(12, {"variant": "party"}), (2, {"variant": "duo"})])
def test_every_panel_line_fits_beside_the_title_column_for_players_and_spectators(players, options):
    # 61 columns and titles of at most 16 keep the terminal's title-column layout at 80 columns; a
    # Party spectator's header (it names the table) used to run to 74.
    names = [f"player-{'x' * 12}{n}" for n in range(players)]
    table = LocalTable(GAME, GAME.ruleset(players, options), b"widths")
    table.play_with([PlayoutBot(b"widths")] * players, until=lambda t: len(t.log) >= 120)
    for viewer in (None, *range(players)):
        for panel in PRESENTATION.panels(table.state, viewer, {} if viewer is None else table.view(viewer), names):
            assert len(panel.title) <= 16
            for line in panel.lines:
                assert len("".join(text for _, text in line)) <= 61, (panel.title, line)
