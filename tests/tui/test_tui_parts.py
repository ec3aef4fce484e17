"""The terminal UI's pure parts: text fitting, reading typed lines, completion, panel layout."""

from __future__ import annotations

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from p2pgames.engine import ChoiceGroup, LocalTable, Panel, Simultaneous, Turn
from p2pgames.games import get_game, get_presentation
from p2pgames.session import Decision
from p2pgames.tui._commands import (
    BadNumber,
    Chat,
    Help,
    Move,
    PickGroup,
    Quit,
    ShowLog,
    ShowTable,
    Unknown,
    interpret,
)
from p2pgames.tui._completion import ChoiceCompleter
from p2pgames.tui._panels import MAX_GUTTER, layout_panels, natural_width
from p2pgames.tui._screen import choice_lines, hanging_indent, paragraphs
from p2pgames.tui._text import line_width, pad, plain, truncate, wrap
from p2pgames.tui._theme import Theme

# -- text ------------------------------------------------------------------------------------------


def test_truncate_marks_what_it_cut():
    line = [("a", "hello "), ("b", "world")]
    assert truncate(line, 20) == line
    assert plain(truncate(line, 8)) == "hello w…"
    assert truncate(line, 8)[-1] == ("b", "w…")
    assert truncate(line, 0) == []


def test_pad_fills_to_the_width():
    assert plain(pad([("", "ab")], 5)) == "ab   "
    assert line_width(pad([("", "abcdefgh")], 5)) == 5


def test_wrap_breaks_at_spaces_keeps_styles_and_indents():
    line = [("x", "the quick brown "), ("y", "fox jumps over the lazy dog")]
    rows = wrap(line, 16, indent=2)
    assert [plain(row) for row in rows] == ["the quick brown", "  fox jumps over", "  the lazy dog"]
    assert all(line_width(row) <= 16 for row in rows)
    assert ("y", "fox jumps over") in rows[1]


def test_wrap_breaks_long_words_and_keeps_empty_lines():
    assert [plain(row) for row in wrap([("", "abcdefghij")], 4)] == ["abcd", "efgh", "ij"]
    assert wrap([], 10) == [[]]


def test_wide_characters_count_twice():
    assert line_width([("", "牌牌")]) == 4
    assert all(line_width(row) <= 3 for row in wrap([("", "牌牌牌")], 3))


# -- typed lines -----------------------------------------------------------------------------------

CHOICES = ("discard S7", "discard G12", "score S4 S5 S6", "exchange S7 with bob")


@pytest.mark.parametrize(
    "typed, meaning",
    [
        ("discard G12", Move(1)),
        ("  DISCARD   g12 ", Move(1)),  # case and spaces don't matter
        ("2", Move(1)),
        ("score S6 S4 S5", Move(2)),  # the same words in another order
        ("help", Help()),
        ("?", Help()),
        ("quit", Quit()),
        ("exit", Quit()),
        ("log", ShowLog()),
        ("table", ShowTable()),
        ("say hello there", Chat("hello there")),
        ("SAY  hi", Chat("hi")),
        ("say", Chat("")),
        ("9", BadNumber(9, 4)),
        ("0", BadNumber(0, 4)),
        ("", None),
        ("   ", None),
    ],
)
def test_interpret(typed, meaning):
    assert interpret(typed, CHOICES) == meaning


def test_interpret_suggests_what_the_player_may_have_meant():
    unknown = interpret("discard", CHOICES)
    assert isinstance(unknown, Unknown)
    assert unknown.suggestions[:2] == ("discard S7", "discard G12")
    assert interpret("dicsard S7", CHOICES).suggestions[0] == "discard S7"
    assert interpret("fly", CHOICES) == Unknown("fly", ())


def test_a_choice_wins_over_a_command_of_the_same_name():
    assert interpret("log", ("log", "pass")) == Move(0)
    assert interpret("help", None) == Help()


def test_numbers_pick_nothing_when_nothing_is_asked():
    assert interpret("1", None) == BadNumber(1, 0)
    assert interpret("discard S7", None) == Unknown("discard S7", ())


def test_a_number_picks_a_line_of_the_list_a_choice_or_a_group_to_narrow_down():
    choices = ("lay 5", "lay 5 +X2", "lay 5 +X3", "pass")
    menu = [(0,), (1, 2), (3,)]
    assert interpret("1", choices, menu) == Move(0)
    assert interpret("2", choices, menu) == PickGroup(1)
    assert interpret("3", choices, menu) == Move(3)
    assert interpret("4", choices, menu) == BadNumber(4, 3)
    assert interpret("lay 5 +x3", choices, menu) == Move(2)  # typed in full, a member is a move


def completions(typed: str, choices=CHOICES, requested: bool = False, groups=(), standing=None) -> list[str]:
    return [text for text, _ in numbered_completions(typed, choices, requested, groups, standing)]


def numbered_completions(typed: str, choices=CHOICES, requested: bool = False, groups=(), standing=None) -> list[tuple[str, str]]:
    completer = ChoiceCompleter(lambda: decision(choices, groups=groups, standing=standing))
    event = CompleteEvent(completion_requested=requested)
    return [(completion.text, completion.display_meta_text) for completion in completer.get_completions(Document(typed), event)]


def test_completion_offers_matching_choices_then_commands():
    assert completions("disc") == ["discard S7", "discard G12"]
    assert completions("DISCARD g") == ["discard G12"]
    assert completions("dg12") == ["discard G12"]  # in order, not necessarily together
    assert completions("q") == ["quit"]
    assert completions("", requested=True)[: len(CHOICES)] == list(CHOICES)


def test_completion_numbers_each_choice_with_its_line_of_the_list():
    choices = ("lay 5", "lay 5 +X2", "lay 5 +X3", "pass")
    groups = (ChoiceGroup("lay 5", (0,)), ChoiceGroup("lay 5 +X…", (1, 2)), ChoiceGroup("pass", (3,)))
    # A choice inside a group has no number of its own (typing 2 shows that group's choices).
    assert numbered_completions("lay 5 +x", choices, groups=groups) == [("lay 5 +X2", ""), ("lay 5 +X3", "")]
    assert numbered_completions("pa", choices, groups=groups) == [("pass", "choice 3")]
    assert numbered_completions("pa", choices) == [("pass", "choice 4")]


def test_grouped_choices_complete_to_their_common_start_until_it_is_typed():
    choices = ("lay 5", "lay 5 5", "lay 5 +X1", "lay 5 +X2", "lay 5 5 +X2", "lay 5 5 +X3", "pass")
    fives = ChoiceGroup("lay 5 …", (0, 1, 2, 3, 4, 5), (
        ChoiceGroup("lay 5", (0,)), ChoiceGroup("lay 5 5", (1,)),
        ChoiceGroup("lay 5 +X…", (2, 3)), ChoiceGroup("lay 5 5 +X…", (4, 5)),
    ))
    groups = (fives, ChoiceGroup("pass", (6,)))
    completer = ChoiceCompleter(lambda: decision(choices, groups=groups))

    def offered(typed: str) -> list[tuple[str, str]]:
        event = CompleteEvent(completion_requested=True)
        return [(c.text, c.display_text) for c in completer.get_completions(Document(typed), event)]

    assert offered("lay 5") == [
        ("lay 5", "lay 5"), ("lay 5 5", "lay 5 5"), ("lay 5 +X", "lay 5 +X…"), ("lay 5 5 +X", "lay 5 5 +X…"),
    ]
    assert offered("lay 5 5 +X") == [("lay 5 5 +X2", "lay 5 5 +X2"), ("lay 5 5 +X3", "lay 5 5 +X3")]
    assert offered("")[:3] == [("lay 5", "lay 5"), ("lay 5 5", "lay 5 5"), ("lay 5 +X", "lay 5 +X…")]


def test_completion_stays_quiet_on_an_empty_line_and_in_chat():
    assert completions("") == []
    assert completions("say disc") == []
    assert completions("12") == []  # a number picks from the list; no menu for it


# -- panels ----------------------------------------------------------------------------------------

THEME = Theme(color=True)


def test_panels_share_rows_with_their_titles_when_they_fit():
    panels = [Panel("Hand", ((("suit-steam", "S4"), ("", " "), ("suit-gears", "G7")),)), Panel("Score", ((("", "3"),), (("", "4"),)))]
    rows = [plain(row) for row in layout_panels(panels, 40, THEME)]
    assert rows == [" Hand │ S4 G7", "Score │ 3", "      │ 4"]
    assert natural_width(panels, THEME) == len(" Hand │ S4 G7")


def test_panels_too_wide_for_a_gutter_get_headings():
    panels = [Panel("A rather long title", ((("", "x" * 30),),))]
    rows = [plain(row) for row in layout_panels(panels, 32, THEME)]
    assert rows[0].startswith("── A rather long title ")
    assert len(rows[0]) == 32
    assert rows[1] == "x" * 30


def test_long_titles_wrap_in_the_gutter():
    panels = [Panel("Beltpunk Haberdasher", ((("", "a"),), (("", "b"),)))]
    rows = [plain(row) for row in layout_panels(panels, 40, THEME)]
    assert rows == ["        Beltpunk │ a", "     Haberdasher │ b"]
    assert all(len(row.split("│")[0]) == MAX_GUTTER + 1 for row in rows)


def test_panels_too_tall_give_up_rows_tallest_first_and_keep_their_titles():
    panels = [
        Panel("Table", ((("", "round 1"),),)),
        Panel("Players", tuple(((("", f"player {n}"),)) for n in range(8))),
        Panel("Your hand", ((("", "S1 S2"),),)),
    ]
    rows = [plain(row) for row in layout_panels(panels, 60, THEME, max_rows=6)]
    assert rows == [
        "    Table │ round 1",
        "  Players │ player 0",
        "          │ player 1",
        "          │ player 2",
        "          │ … 5 more · F2 shows the whole table",
        "Your hand │ S1 S2",
    ]
    assert len(layout_panels(panels, 60, THEME, max_rows=10)) == 10
    assert len(layout_panels(panels, 60, THEME, max_rows=100)) == 10
    headed = [plain(row) for row in layout_panels(panels, 12, THEME, max_rows=8)]
    assert len(headed) == 8 and headed[-2] == "── Your han…"


def test_game_styles_map_to_screen_styles():
    colour, mono = Theme(True), Theme(False)
    assert colour.game_style("you") == "class:g-you"
    assert colour.game_style("suit-steam") == "class:suit-steam"
    assert colour.game_style("suit-cogs").startswith("fg:#")  # a suit of some other game
    assert mono.game_style("suit-cogs") == "class:suit-cogs"
    assert colour.game_style("sparkly") == ""
    assert colour.game_line([("bold", "a\nb")]) == [("class:g-bold", "a b")]


@pytest.mark.parametrize("name", ["probe", "beltpunk"])
def test_game_panels_fit_80_columns(name):
    game = get_game(name)
    players = game.max_players
    table = LocalTable(game, game.ruleset(players), b"tui")
    names = [f"player-{seat}" for seat in range(players)]
    for _ in range(30):
        step = table.settle()
        if isinstance(step, Simultaneous):
            table.act_simultaneous([(p, game.legal_actions(table.state, p, table.view(p))[0]) for p in step.players])
        elif isinstance(step, Turn):
            actor = step.actors[0]
            table.act(actor, game.legal_actions(table.state, actor, table.view(actor))[0])
        else:
            break
        rows = layout_panels(get_presentation(name).panels(table.state, 0, table.view(0), names), 80, THEME)
        assert all(line_width(row) <= 80 for row in rows)


# -- the prompt and the help -----------------------------------------------------------------------


def decision(texts, simultaneous=False, prompt="choose a card", groups=(), warnings=(), standing=None):
    step = Simultaneous((0, 1), prompt) if simultaneous else Turn((0,), prompt)
    return Decision(step, tuple(range(len(texts))), tuple(texts), simultaneous, tuple(groups), tuple(warnings), standing)


def test_choices_are_numbered_after_the_prompt():
    rows = [plain(row) for row in choice_lines(decision(["play c3", "play c7"], simultaneous=True), 80)]
    assert rows == ["Your move — choose a card (secret until everyone has chosen)", " 1 play c3   2 play c7"]


def test_grouped_choices_are_one_numbered_line_each():
    texts = ["lay 5", "lay 5 +X2", "lay 5 +X3", "lay 5 +X4", "pass"]
    groups = [ChoiceGroup("lay 5", (0,)), ChoiceGroup("lay 5 +X2…4", (1, 2, 3)), ChoiceGroup("pass", (4,))]
    rows = [plain(row) for row in choice_lines(decision(texts, groups=groups), 80)]
    assert rows == ["Your move — choose a card", " 1 lay 5   2 lay 5 +X2…4   3 pass"]


def test_a_standing_answer_is_the_last_line_of_the_list_and_picked_by_its_number_or_text():
    from p2pgames.engine import StandingAnswer
    from p2pgames.tui._commands import choice_texts, menu_lines

    standing = StandingAnswer("not this quarter", 1, ("stop", 1))
    offered = decision(["stop bob", "pass"], standing=standing)
    assert [plain(row) for row in choice_lines(offered, 80)][1] == " 1 stop bob   2 pass   3 not this quarter"
    texts, menu = choice_texts(offered), [line.members for line in menu_lines(offered)]
    assert interpret("3", texts, menu) == Move(2) == interpret("Not this  quarter", texts, menu)
    assert completions("not", ("stop bob", "pass"), standing=standing) == ["not this quarter"]


def test_a_picked_group_lists_its_parts_then_its_choices():
    from p2pgames.tui._commands import menu_lines

    choices = ("lay 5", "lay 5 5", "lay 5 +X1", "lay 5 +X2", "pass")
    counts = ChoiceGroup("lay 5 +X…", (2, 3))
    fives = ChoiceGroup("lay 5 …", (0, 1, 2, 3), (ChoiceGroup("lay 5", (0,)), ChoiceGroup("lay 5 5", (1,)), counts))
    offered = decision(choices, groups=(fives, ChoiceGroup("pass", (4,))))
    assert [line.label for line in menu_lines(offered)] == ["lay 5 …", "pass"]
    assert [line.label for line in menu_lines(offered, fives)] == ["lay 5", "lay 5 5", "lay 5 +X…"]
    assert [line.label for line in menu_lines(offered, counts)] == ["lay 5 +X1", "lay 5 +X2"]
    rows = [plain(row) for row in choice_lines(offered, 80, fives)]
    assert rows == [
        "Your move — choose a card · lay 5 … (empty line: all choices)", " 1 lay 5   2 lay 5 5   3 lay 5 +X…",
    ]


def test_warnings_come_between_the_prompt_and_the_choices():
    warning = "If you skip, Parts overflows: all 5 of its cards go to your scrap pile, face down."
    rows = [plain(row) for row in choice_lines(decision(["skip", "take P3"], warnings=[warning]), 60)]
    assert rows == [
        "Your move — choose a card",
        "⚠ If you skip, Parts overflows: all 5 of its cards go to",
        "  your scrap pile, face down.",
        " 1 skip   2 take P3",
    ]


def test_warnings_beyond_two_rows_end_in_an_ellipsis():
    warnings = ["Gears is 4/3: all 4 cards go to your scrap pile unless you remove one.", "This is the round's last turn."]
    rows = [plain(row) for row in choice_lines(decision(["skip"], warnings=warnings), 50)]
    assert rows[1:3] == ["⚠ Gears is 4/3: all 4 cards go to your scrap pile", "  unless you remove one. …"]
    assert rows[3] == " 1 skip"


def test_too_many_choices_say_how_many_more_tab_lists():
    texts = [f"exchange S{n} with somebody" for n in range(40)]
    rows = [plain(row) for row in choice_lines(decision(texts), 80)]
    assert len(rows) == 3
    assert all(len(row) <= 80 for row in rows)
    shown = sum(row.count("exchange") for row in rows)
    assert rows[-1].endswith(f"… {40 - shown} more: Tab lists them all")


def test_help_text_paragraphs_are_joined_but_tables_kept():
    text = "A long line of prose that the author broke\nhere to fit.\n\n  key     meaning\n  other   thing"
    assert paragraphs(text) == [
        "A long line of prose that the author broke here to fit.",
        "",
        "  key     meaning",
        "  other   thing",
    ]
    assert hanging_indent("  key     meaning") == len("  key     ")
    assert hanging_indent("    indented prose") == 4
