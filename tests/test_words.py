"""Times as people type them (``--grace``) and as a clock shows them."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from p2pgames.words import duration, joined, parse_duration, sentence_start


@pytest.mark.parametrize("typed, seconds", [
    ("180", 180), ("90s", 90), ("3m", 180), ("1m30s", 90), ("1h", 3600), ("1h2m3s", 3723),
    (" 2 m ", 120), ("3M", 180), ("3:00", 180), ("0:42", 42), ("1:02:03", 3723), ("0", 0),
])
def test_a_time_is_read_as_typed(typed, seconds):
    assert parse_duration(typed) == seconds


@pytest.mark.parametrize("typed", ["", "   ", "soon", "3m2h", "1:60", "-5", "1.5m", "3 minutes", "1:2", "m", "h30"])
def test_what_is_no_time_says_which_forms_are(typed):
    with pytest.raises(ValueError, match=r"is not a time: write it as 180, 90s, 3m, 1m30s, 1h or 3:00$"):
        parse_duration(typed)


@given(st.integers(min_value=0, max_value=10 * 24 * 3600))
def test_a_time_reads_back_as_the_clock_shows_it(seconds):
    assert parse_duration(duration(seconds)) == seconds


@pytest.mark.parametrize("words, said", [
    ([], ""), (["alice"], "alice"), (["alice", "bob"], "alice and bob"), (["a", "b", "c"], "a, b and c"),
])
def test_words_are_listed_as_a_sentence_lists_them(words, said):
    assert joined(words) == said
    assert joined(iter(words)) == said


def test_no_words_can_be_said_otherwise():
    assert joined([], "nothing") == "nothing"


def test_words_may_be_listed_as_choices():
    assert joined(["a", "b", "c"], conjunction="or") == "a, b or c"
    assert joined(["a"], conjunction="or") == "a"


@pytest.mark.parametrize("text, shown", [
    ("your move", "Your move"),
    ("root to move: choose a card", "root to move: choose a card"),  # a name as its player typed it
    ("root, bob: to move", "root, bob: to move"),
    ("rooted in the past", "Rooted in the past"),  # only a whole name
    ("", ""),
])
def test_a_sentence_starts_with_a_capital_unless_it_starts_with_a_name(text, shown):
    assert sentence_start(text, ("alice", "root", "bob")) == shown
