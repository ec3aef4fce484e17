"""The published game's texts that the 2015 rules' views share code with, pinned as they read
before the 2015 game was shown (the Masterstroke, the Party variant's two tables, the gifts, the
seats' numbers): the 2015 wording must never leak into the published game."""

from __future__ import annotations

import re

from sc2015_scenarios import NAMES  # noqa: F401 - puts the published scenario helpers on the path
from steamcourt_scenarios import Court

from p2pgames.bots import PlayoutBot
from p2pgames.engine import LocalTable
from p2pgames.games.steamcourt import GAME
from p2pgames.games.steamcourt.cards import CHARACTER_NUMBER
from p2pgames.games.steamcourt.presentation import PRESENTATION

ALICE, BOB, CAROL, DAVE = range(4)


def text(panel) -> list[str]:
    return ["".join(part for _, part in line) for line in panel.lines]


def shown(state, viewer, knowledge, names) -> dict[str, list[str]]:
    return {panel.title: text(panel) for panel in PRESENTATION.panels(state, viewer, knowledge, names)}


def test_the_masterstroke_keeps_its_published_name_face_and_typing():
    # Six players: bob the General may stop carol's Masterstroke, which stays in the machine.
    court = Court(6, [["4", "1"], ["5"], ["MS", "6"], ["7"], ["8"], ["9"]], play=True)
    assert shown(court.state, CAROL, court.view(CAROL), NAMES[:6])["Your hand (2)"] == ["6 MS  (MS beats all)"]
    court.do(ALICE, "lay 4")
    court.passes(BOB)
    assert court.texts(CAROL) == ["lay 6", "lay MS", "pass"]
    court.do(CAROL, "lay MS")
    assert court.lines[-1] == "carol lays a Masterstroke"
    machine = shown(court.state, DAVE, court.view(DAVE), NAMES[:6])["The machine"]
    assert machine[-1].split() == ["carol", "MS", "(Masterstroke)", "beats", "all"]
    asked = shown(court.state, BOB, court.view(BOB), NAMES[:6])["You are asked"]
    assert asked[0].startswith("carol laid a Masterstroke — stop it?")


def test_the_coup_asks_about_three_masterstrokes():
    court = Court(3, [["5"], ["MS", "MS", "MS"], ["6"]], coup=True)  # the Queen has no coup to pull
    assert court.step().prompt == "pull a coup with three Masterstrokes?"
    asked = shown(court.state, BOB, court.view(BOB), NAMES[:3])["You are asked"]
    assert asked[0] == "You hold three Masterstrokes. Pull a coup? (coup / pass)"


def test_a_published_gift_to_the_only_other_player_names_him():
    court = Court(2, [["1", "2"], ["5"]])
    asked = shown(court.state, ALICE, court.view(ALICE), NAMES[:2])["You are asked"]
    assert asked[0] == "Give one card to bob? (give N to bob / pass)"
    assert court.step().prompt == "give one card to another player, or pass"


def test_one_table_shows_seat_positions_and_the_log_the_points():
    court = Court(3, [["1"], ["2", "5"], ["3", "6"]], play=True)
    table = shown(court.state, None, {}, NAMES[:3])["The table"]
    assert [row.split()[0] for row in table] == ["1", "2", "3"]  # seats, not the characters' 1, 3, 6
    assert court.lines[0] == "start tokens: 1 alice (Queen), 3 bob (Duke), 6 carol (Tea Boy)"
    court.do(ALICE, "lay 1")
    court.passes(BOB, CAROL)
    assert "alice is out of cards (1st) and takes the 3 gear token" in court.lines


def test_the_party_variant_keeps_its_start_tokens_standing_and_one_table_header():
    names = NAMES[:8]
    table = LocalTable(GAME, GAME.ruleset(8, {"variant": "party"}), b"party")
    setup = GAME.setup(table.ruleset)
    seated = GAME.apply(setup, table.log[0])  # the start tokens drawn
    royal_seats = ", ".join(
        f"{CHARACTER_NUMBER[c]} {names[p]} ({GAME.book[c].title})"
        for p, c in zip(seated.tables[0].seats, seated.tables[0].characters)
    )
    assert PRESENTATION.narrate(setup, table.log[0], seated, names)[0] == f"start tokens, Royal table: {royal_seats}"
    table.play_with([PlayoutBot(b"party")] * 8, until=lambda t: t.state.quarter == 2 and any(tb.out for tb in t.state.tables))
    lines: list[str] = []
    state = setup
    for event in table.log:
        after = GAME.apply(state, event)
        lines += PRESENTATION.narrate(state, event, after, names)
        state = after
    out = re.compile(r"(Royal|Renegades): \w+ is out of cards \(\d+\w\w\) and takes token \d+")
    assert any(out.fullmatch(line) for line in lines)
    assert not any(line.startswith("points: ") for line in lines)
    state = table.state
    royal = state.tables[0]
    viewer = royal.seats[0]
    screen = shown(state, viewer, table.view(viewer), names)
    assert len(screen["Steam Court"]) == 1 and "gear tokens" not in screen["Steam Court"][0]
    assert "Renegade table:" not in screen["Steam Court"][0]
    for row, player, character in zip(screen["Royal table"], royal.seats, royal.characters):
        assert int(row.split()[0]) == CHARACTER_NUMBER[character]
        assert row.endswith(f"start {state.start[player]}")
    assert "pts" not in " ".join(screen["Renegade table"])


def published_score(state, player: int) -> str:
    """A seat's score as the published game's row has always ended (start token, gear tokens):
    ``start 2``, ``2+6+5 = 13``; with the Duo variant's unscored start tokens ``gears 0``,
    ``gears 2+1 = 3``; the clock's ``space 4 · 2 tricks``. No bid, no minus sign."""
    if state.scoring == "clock":
        tricks = state.tricks[player]
        return f"space {state.clock[player]} · {tricks} trick{'s' if tricks != 1 else ''}"
    gears, total = state.gears[player], state.totals()[player]
    if not state.scores_start():
        return "gears " + ("+".join(map(str, gears)) + f" = {total}" if gears else "0")
    if not gears:
        return f"start {state.start[player]}"
    return "+".join(map(str, (state.start[player], *gears))) + f" = {total}"


def test_the_published_score_texts_read_as_they_always_have_through_whole_games():
    # The 2015 auction's bids are taken off in the same rows (steamcourt/views.py _score_text);
    # the published rows, with no bid, must not change.
    for players, options in ((5, {}), (6, {"scoring": "clock"}), (2, {"variant": "duo", "start_tokens": "character"})):
        table = LocalTable(GAME, GAME.ruleset(players, options), b"published-scores")
        bot = PlayoutBot(b"published-scores")
        rows_seen = 0
        while True:
            state = table.state
            if state.quarter:
                rows = shown(state, None, {}, NAMES[:players])["The table"]
                for row, player in zip(rows, state.tables[0].seats):
                    # (the 1-point tokens not yet used may follow: " +Unpass+Steal")
                    ending = re.escape(published_score(state, player)) + r"( \+[A-Za-z+]+)?"
                    assert re.search(f" {ending}$", row), (options, row)
                    rows_seen += 1
            if table.over:
                break
            table.play_with([bot] * players, until=lambda t, at=len(table.log): len(t.log) >= at + 7)
        standings = " ".join(shown(table.state, None, {}, NAMES[:players])["Final standings"])
        assert "bid" not in standings and "tokens" not in standings, standings
        assert rows_seen > 30, options
