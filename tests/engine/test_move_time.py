"""A table's move time (issue 26, point 5): in the ruleset the start signs, written only when
chosen, checked on the way in, and said to every player before the game (SPEC §A4)."""

from __future__ import annotations

import dataclasses

import pytest

from p2pgames.engine import MAX_MOVE_TIME, RulesetError
from p2pgames.games import get_game
from p2pgames.session._messages import KINDS
from p2pgames.words import spelled_duration


def test_a_move_time_round_trips_in_the_ruleset_and_is_written_only_when_chosen():
    game = get_game("beltpunk")
    plain = game.ruleset(3)
    timed = dataclasses.replace(plain, move_time=120)
    assert "move_time" not in plain.encode() and timed.encode()["move_time"] == 120
    assert game.decode_ruleset(timed.encode()) == timed
    assert game.decode_ruleset(plain.encode()) == plain  # rulesets before it keep their form


@pytest.mark.parametrize("value", [0, -5, MAX_MOVE_TIME + 1, 2.5, True, "120"])
def test_a_move_time_out_of_its_range_or_not_a_whole_number_is_malformed(value):
    game = get_game("beltpunk")
    with pytest.raises(RulesetError, match="malformed ruleset: move_time"):
        game.decode_ruleset({**game.ruleset(3).encode(), "move_time": value})
    assert not KINDS["host-hello"]["ruleset"]({**game.ruleset(3).encode(), "move_time": value})


def test_every_player_is_told_the_move_time_before_the_game():
    game = get_game("beltpunk")
    timed = dataclasses.replace(game.ruleset(3), move_time=120)
    assert KINDS["host-hello"]["ruleset"](timed.encode())
    assert game.describe_table(timed).endswith("; a move may take 2 minutes, then the player's bot makes it")
    assert [spelled_duration(seconds) for seconds in (1, 90, 60, 3600, 7200, 3660)] == [
        "1 second", "90 seconds", "1 minute", "1 hour", "2 hours", "61 minutes",
    ]
