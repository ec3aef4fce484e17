"""Steam Court at the terminal, without a terminal: its panels laid out as the screen lays them at
80×24, what a player is asked in a reaction, and completing every typed form of RULES.md's
"Typing actions" at the input line. One real game on a loopback table checks the whole screen."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Callable

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input

from p2pgames.bots import PlayoutBot
from p2pgames.engine import LocalTable, ReactionWindow, Turn
from p2pgames.games import get_game, get_presentation
from p2pgames.games.steamcourt import SteamCourt
from p2pgames.session import Decision
from p2pgames.tui import run_terminal_game
from p2pgames.tui._commands import Move, interpret
from p2pgames.tui._completion import ChoiceCompleter
from p2pgames.tui._panels import layout_panels
from p2pgames.tui._screen import MIN_LOG_ROWS, choice_lines
from p2pgames.tui._text import line_width, plain
from p2pgames.tui._theme import Theme
from tui_tables import SizedOutput, Table

sys.path.insert(0, str(Path(__file__).parents[1] / "games" / "steamcourt"))
from steamcourt_scenarios import NAMES, Court  # noqa: E402

GAME = get_game("steamcourt")
SHOWN = get_presentation("steamcourt")
THEME = Theme(False)
ALICE, BOB, CAROL, DAVE = 0, 1, 2, 3

# Rows of an 80×24 screen that are not the table: the title and status bars, the input line, the
# log's rule and the log's fewest rows; the prompt above the input line takes what it needs.
FIXED_ROWS = 2 + 1 + 1 + MIN_LOG_ROWS


def decision_of(table: LocalTable, seat: int, names) -> Decision:
    """``seat``'s decision as its session offers it: the choices, grouped, and the standing answer."""
    view = table.view(seat)
    actions = GAME.legal_actions(table.state, seat, view)
    texts = tuple(SHOWN.describe_action(table.state, seat, action, view, names) for action in actions)
    groups = tuple(SHOWN.group_choices(table.state, seat, actions, texts))
    if all(len(group.members) == 1 for group in groups):
        groups = ()
    standing = SHOWN.standing_answer(table.state, seat, view)
    return Decision(table.step(), tuple(actions), texts, False, groups, (), standing)


def screen_rows(table: LocalTable, seat: int, names, columns: int = 80, rows: int = 24) -> list[str]:
    """The table part of the screen as the terminal UI lays it out for ``seat`` to decide."""
    decision = decision_of(table, seat, names)
    budget = rows - FIXED_ROWS - len(choice_lines(decision, columns))
    laid = layout_panels(SHOWN.panels(table.state, seat, table.view(seat), names), columns, THEME, max_rows=budget)
    assert len(laid) <= budget and all(line_width(row) <= columns for row in laid)
    return [plain(row) for row in laid]


def asked(table: LocalTable, seat: int) -> list[str]:
    """The lines of the "You are asked" panel ``seat`` sees (empty: none)."""
    for panel in SHOWN.panels(table.state, seat, table.view(seat), NAMES[: table.players]):
        if panel.title == "You are asked":
            return ["".join(text for _, text in line) for line in panel.lines]
    return []


# -- the table at 80×24 ----------------------------------------------------------------------------


def named(name: str) -> re.Pattern[str]:
    """``name`` as a word of its own (a "▸" before it is fine), not inside another word."""
    return re.compile(rf"(?<!\w){re.escape(name)}(?!\w)")


# The fewest positions each game must lay out (the seeded games lay out 884, 705, 1592, 946, 218:
# how long a seeded random game runs, which changes whenever the legal actions change).
@pytest.mark.parametrize("players, options, fewest", [
    (7, {"scoring": "gears"}, 800), (6, {"scoring": "clock"}, 650), (12, {"variant": "party"}, 1500),
    (7, {"variant": "party"}, 900), (2, {"variant": "duo"}, 200),
])
def test_whole_games_fit_80x24_with_every_seat_in_view_and_nothing_cut(players, options, fewest):
    names = ["alice", "bob", "carol", "dave", "erin", "frank", "gina", "hal", "ida", "jo", "kim", "lou"][:players]
    table = LocalTable(GAME, GAME.ruleset(players, options), b"tui-fit")
    bot = PlayoutBot(b"tui-fit")
    checked = 0
    while not table.over:
        step = table.step()
        seat = step.actors[0] if hasattr(step, "actors") else step.players[0]
        if table.state.quarter:
            rows = screen_rows(table, seat, names)
            # Beside the titles (no heading rows), no panel cut short, every seat on its own row.
            assert not any(row.startswith("──") or "more · F2" in row for row in rows), "\n".join(rows)
            seats = [row for row in rows if any(f" {name} " in row for name in names)]
            if len(table.state.tables) == 1:
                assert len(seats) >= players
            else:  # the Party variant: the seat's own table a row a seat, the other at a glance
                own = table.state.table_of(seat)
                assert len(seats) >= len(own.seats)
                other = next(other for other in table.state.tables if other is not own)
                if other.phase != "done":
                    shown = "\n".join(rows)
                    assert all(named(names[player]).search(shown) for player in other.seats), shown
            checked += 1
        table.act(seat, bot.choose(GAME, table.state, seat, table.view(seat), step))
    assert checked >= fewest, checked  # positions laid out


def test_the_table_shows_characters_cards_passes_tokens_and_points():
    table = Court(6, [["5", "1"], ["2", "1"], ["7", "1"], ["8"], ["9", "1"], ["10", "1"]], play=True)
    table.state.gears[CAROL] = [6]
    table.state.powers[CAROL].append(["unpass", False])
    table.do(ALICE, "lay 5")
    table.do(BOB, "pass")
    rows = screen_rows(table, CAROL, NAMES[:6])
    text = "\n".join(rows)
    assert "1 Queen         alice     1 card          start 1" in text
    assert "2 General       bob       2 cards passed  start 2" in text
    assert "3 Duke          carol     2 cards to act  3+6 = 9 +Unpass" in text
    assert "6 Tea Boy       frank     2 cards         start 6" in text
    assert "alice          5                        1 × 5" in text
    assert "Your hand (2) │ 1 7" in text
    assert "Duke: match the lay instead of beating it" in text
    assert "1-point token: Unpass (after you pass)" in text


# -- reactions and privileges, spelled out ---------------------------------------------------------


def test_the_general_is_asked_to_stop_a_named_lay():
    table = Court(6, [["5", "1"], ["2", "1"], ["7", "7", "1"], ["8"], ["9", "1"], ["10", "1"]], play=True)
    table.do(ALICE, "lay 5")
    table.do(BOB, "pass")
    table.do(CAROL, "lay 7")
    assert isinstance(table.step(), ReactionWindow) and table.texts(BOB) == ["stop carol", "pass"]
    # "not this quarter" is the list's last line: a standing answer, not a move (RULES.md, I28).
    assert [plain(row) for row in choice_lines(decision_of(table, BOB, NAMES[:6]), 80)] == [
        "Your move — stop the lay just made?",
        " 1 stop carol   2 pass   3 not this quarter",
    ]
    assert asked(table, BOB) == [
        "carol laid 7 — stop it? (stop carol / pass)",
        "stop carol: the cards go back to carol, who plays again later",
    ]
    assert asked(table, CAROL) == []  # only the one asked sees it
    rows = "\n".join(screen_rows(table, BOB, NAMES[:6]))
    assert "You are asked │ carol laid 7 — stop it? (stop carol / pass)" in rows
    table.do(BOB, "stop carol")
    assert asked(table, BOB) == []
    assert "General: stop used this quarter" in "\n".join(screen_rows(table, BOB, NAMES[:6]))


def unpass_position(both: bool) -> Court:
    game = SteamCourt({3: ("queen", "jester" if both else "inspector", "teaboy")})
    table = Court(3, [["5", "7", "1"], ["6", "10", "1"], ["9", "1", "1"]], game=game, play=True)
    table.state.powers[BOB if both else CAROL].append(["unpass", False])
    if both:  # bob, the Jester, passes; play comes round to him again
        table.do(ALICE, "lay 5")
        table.do(BOB, "pass")
        table.do(CAROL, "lay 9")
        table.do(ALICE, "pass")
        return table
    table.do(ALICE, "lay 5")
    table.do(BOB, "lay 6")
    table.do(CAROL, "pass")
    table.do(ALICE, "lay 7")
    table.do(BOB, "pass")
    return table


def test_an_unpass_names_what_was_laid_and_what_it_uses():
    table = unpass_position(both=False)
    assert " ".join(asked(table, CAROL)) == (
        "You passed; alice laid 7. Unpass (the Unpass token) and play now? (unpass / pass)"
    )
    both = unpass_position(both=True)
    assert both.texts(BOB)[:2] == ["unpass token", "unpass jester"]
    assert " ".join(asked(both, BOB)) == (
        "You passed; carol laid 9. Unpass and play now? (unpass token / unpass jester / pass)"
    )


def retrieve_position() -> Court:
    table = Court(4, [["5", "1", "1"], ["1", "2"], ["6", "10", "1", "1"], ["7", "11", "1", "4", "9"]], play=True)
    for seat, text in ((ALICE, "lay 5"), (BOB, "pass"), (CAROL, "lay 6"), (DAVE, "lay 7"), (ALICE, "pass"),
                       (CAROL, "lay 10"), (DAVE, "lay 11")):
        table.do(seat, text)
    table.passes(CAROL, DAVE)
    return table


def steal_position() -> Court:
    game = SteamCourt({3: ("queen", "pirate", "teaboy")})
    table = Court(3, [["5", "1"], ["2", "1"], ["6/12", "1", "3"]], game=game, play=True)
    table.do(ALICE, "lay 5")
    table.do(BOB, "pass")
    table.do(CAROL, "lay 6/12 as 12")
    table.passes(ALICE, CAROL)
    return table


def coup_position() -> Court:
    return Court(3, [["1"], ["MS", "MS", "MS", "2"], ["3"]], coup=True)


def privileges_position() -> Court:
    return Court(3, [["2", "1"], ["5"], ["12", "11", "3"]])


def test_every_window_and_privilege_says_what_happened_and_what_to_type():
    assert asked(retrieve_position(), CAROL) == ["You lost this trick. Take back your 10? (retrieve / pass)"]
    assert asked(steal_position(), BOB)[0] == (
        "Trick over: steal 5 from the machine? (steal N / pass)"
    )
    assert asked(steal_position(), BOB)[1] == "steal N: once a quarter; the trick's winner stays"
    assert asked(coup_position(), BOB)[0] == "You hold three Masterstrokes. Pull a coup? (coup / pass)"
    table = privileges_position()
    assert asked(table, ALICE) == ["Give one card away? (give N to NAME / pass)", "give N to NAME: only NAME sees the card"]
    table.do(ALICE, "pass")
    assert asked(table, CAROL) == ["Give your two highest numbered cards to the Queen: give 11 12", "to alice"]
    table.do(CAROL, "give 11 12 to alice")
    assert asked(table, CAROL)[0].startswith("Trade for the unseen Court Hand (")
    assert "(trade / keep)" in " ".join(asked(table, CAROL))


# -- completing and reading every typed form --------------------------------------------------------


def _renegades() -> Court:
    game = SteamCourt({3: ("submariner", "alchemist", "plaguedoctor")})
    return Court(3, [["3", "3", "1"], ["4", "4", "1"], ["8", "8", "1"]], game=game, play=True)


def _after_the_plague() -> tuple[Court, int]:
    table = _renegades()
    for seat, text in ((ALICE, "lay 3 3"), (BOB, "lay 4 4"), (CAROL, "lay 8 8")):
        table.do(seat, text)
    table.passes(ALICE, BOB, CAROL)
    return table, CAROL


def _plague_drawn() -> tuple[Court, int]:
    table, seat = _after_the_plague()
    table.do(seat, "plague")
    return table, seat


def _dive_discard() -> tuple[Court, int]:
    table, seat = _after_the_plague()
    table.do(seat, "lay 1")
    return table, ALICE


def _lead(*faces: str, game: SteamCourt | None = None) -> Callable[[], tuple[Court, int]]:
    def position() -> tuple[Court, int]:
        kwargs = {"game": game} if game is not None else {}
        return Court(3, [list(faces) + ["1"], ["1"], ["1"]], play=True, **kwargs), ALICE
    return position


def _alchemist() -> tuple[Court, int]:
    game = SteamCourt({3: ("submariner", "alchemist", "plaguedoctor")})
    table = Court(3, [["6", "6", "1"], ["9", "7", "10", "1"], ["2", "1"]], game=game, play=True)
    table.do(ALICE, "lay 6 6")
    return table, BOB


def _jester() -> tuple[Court, int]:
    table = Court(3, [["5", "5", "1"], ["7", "1"], ["1"]], game=SteamCourt({3: ("queen", "jester", "teaboy")}), play=True)
    table.do(ALICE, "lay 5 5")
    return table, BOB


def _served() -> tuple[Court, int]:
    table = privileges_position()
    table.do(ALICE, "pass")
    table.do(CAROL, "give 11 12 to alice")
    return table, CAROL


def _serve() -> tuple[Court, int]:
    table = privileges_position()
    table.do(ALICE, "pass")
    return table, CAROL


def _vagabond() -> tuple[Court, int]:
    table = Court(3, [["2", "1"], ["5", "9", "10"], ["12"]], game=SteamCourt({3: ("queen", "vagabond", "teaboy")}))
    table.do(ALICE, "pass")
    table.act(BOB, table.legal(BOB)[0])
    return table, BOB


def _inspector() -> tuple[Court, int]:
    table = Court(7, [["1"], ["2"], ["3"], ["4"], ["5", "6"], ["7"], ["8", "9"]])
    table.do(ALICE, "pass")
    table.do(BOB, "pass")
    return table, DAVE


def _stop() -> tuple[Court, int]:
    table = Court(6, [["5", "1"], ["2", "1"], ["7", "7", "1"], ["8"], ["9", "1"], ["10", "1"]], play=True)
    table.do(ALICE, "lay 5")
    table.do(BOB, "pass")
    table.do(CAROL, "lay 7")
    return table, BOB


def _discard() -> tuple[Court, int]:
    table = Court(3, [["2", "5", "5", "MS", "9"], ["6", "1"], ["7", "1"]], game=SteamCourt({3: ("queen", "inspector", "teaboy")}), play=True)
    table.state.powers[ALICE].append(["discard", False])
    return table, ALICE


# Each form of RULES.md "Typing actions" (as a player types it), and a position where it is legal.
FORMS: dict[str, Callable[[], tuple[Court, int]]] = {
    "lay 7 7 7": _lead("7", "7", "7"),
    "lay 5 5 +X3": _lead("5", "5", "X"),
    "lay X": _lead("X"),
    "lay 3/9 as 9": _lead("3/9"),
    "lay 9 7 as 7": _alchemist,  # shown as "lay 7 9 as 7": the same words in another order
    "lay 7 as pair": _jester,
    "lay MS": _lead("MS"),
    "pass": _jester,
    "give 2 to carol": lambda: (privileges_position(), ALICE),
    "give 11 12 to alice": _serve,
    "trade": _served,
    "keep": _served,
    "hoard": _vagabond,
    "leave": _vagabond,
    "inspect bob": _inspector,
    "coup": lambda: (coup_position(), BOB),
    "stop carol": _stop,
    "retrieve": lambda: (retrieve_position(), CAROL),
    "steal 5": lambda: (steal_position(), BOB),
    "unpass": lambda: (unpass_position(both=False), CAROL),
    "unpass token": lambda: (unpass_position(both=True), BOB),
    "unpass jester": lambda: (unpass_position(both=True), BOB),
    "discard 2 5": _discard,
    "dive court 3": lambda: (_renegades(), ALICE),
    "dive discard 1": _dive_discard,
    "plague": _after_the_plague,
    "put back 8": _plague_drawn,
}


def completions(typed: str, choices) -> list[str]:
    decision = Decision(Turn((0,), "lay or pass"), tuple(range(len(choices))), tuple(choices), False)
    completer = ChoiceCompleter(lambda: decision)
    return [c.text for c in completer.get_completions(Document(typed), CompleteEvent(completion_requested=True))]


@pytest.mark.parametrize("form", list(FORMS))
def test_every_typed_form_completes_and_is_understood(form):
    table, seat = FORMS[form]()
    texts = table.texts(seat)
    words = form.split()
    shown = next((text for text in texts if sorted(text.split()) == sorted(words)), None)
    assert shown is not None, f"{form!r} is not among {texts}"
    index = texts.index(shown)
    # Typed in full (any case, any spacing, the cards in any order), it makes that move.
    assert interpret(form, texts) == Move(index)
    assert interpret("  " + form.upper().replace(" ", "   ") + " ", texts) == Move(index)
    # Tab after the first word offers it; Tab after all of it offers it first.
    assert shown in completions(words[0] + " ", texts)
    assert completions(shown, texts)[0] == shown
    # Its number picks it too.
    assert interpret(str(index + 1), texts) == Move(index)


def test_a_form_that_is_not_a_choice_gets_suggestions():
    table, seat = unpass_position(both=True), BOB
    unknown = interpret("unpass", table.texts(seat))
    assert unknown.suggestions[:2] == ("unpass token", "unpass jester")


# -- the whole screen ---------------------------------------------------------------------------------


@pytest.mark.parametrize("columns, rows, color", [(80, 24, False), (120, 40, True)])
def test_a_real_six_player_table_on_screen(columns, rows, color, deadline):
    shown: dict[str, str] = {}

    async def script(table: Table) -> None:
        await table.next_decision()
        await table.screen.wait_for("Your move — ")
        await table.screen.wait_until(lambda: "Your hand (" in table.screen.text())
        shown["first"] = table.screen.text()
        table.type("help\r")
        await table.screen.wait_for("Steam Court: how to play")
        shown["help"] = table.screen.text()
        table.type("\x1b")
        await table.settle()
        table.type("\x03")  # Ctrl-C, then y: leave
        await table.screen.wait_for("Leave the game?")
        table.type("y")

    with create_pipe_input() as pipe:
        table = Table(pipe, game="steamcourt", players=6)
        run_terminal_game(
            table.setup(script), title="Steam Court", color=color, input=pipe, output=SizedOutput(columns, rows),
            on_screen=table.on_screen,
        )
    screen = shown["first"]
    for character in ("Queen", "General", "Duke", "Time Traveler", "Jester", "Tea Boy"):
        assert f" {character} " in screen
    assert "more · F2" not in screen
    assert all("Log" in line for line in screen.splitlines() if "── " in line)  # no panel headings
    assert "The machine │" in screen and "Your powers │" in screen
    assert all(len(line) <= columns for line in screen.splitlines())
    assert "Steam Court: how to play" in shown["help"]
