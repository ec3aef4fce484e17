"""The platform's panel width (engine.PANEL_WIDTH): what every game fits its panel lines to, and
what the terminal's gutter is built from — one number, so a game and the screen can't disagree."""

from p2pgames.engine import PANEL_RULE, PANEL_TITLE_WIDTH, PANEL_WIDTH, wrap_segments
from p2pgames.tui._panels import GUTTER_RULE, MAX_GUTTER


def test_a_panel_line_of_the_panel_width_fits_an_80_column_terminal_beside_the_titles():
    assert (MAX_GUTTER, GUTTER_RULE) == (PANEL_TITLE_WIDTH, PANEL_RULE)
    assert PANEL_TITLE_WIDTH + len(PANEL_RULE) + PANEL_WIDTH == 80


def test_segments_wrap_at_the_width_with_a_space_between_and_the_indent_after_the_first_line():
    words = [("", "alpha"), ("bold", "beta"), ("", "gamma")]
    assert wrap_segments(words, "  ", [("dim", "Hand:")], width=16) == [
        (("dim", "Hand:"), ("", " "), ("", "alpha"), ("", " "), ("bold", "beta")),
        (("", "  "), ("", "gamma")),
    ]
    assert wrap_segments([("", "x" * 30)], width=10) == [(("", "x" * 30),)], "a long segment has its own line"
    assert wrap_segments([("", "a "), ("", "b")]) == [(("", "a "), ("", "b"))], "no second space"
