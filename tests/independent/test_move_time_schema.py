"""The independent peer reads a ruleset's `move_time` as SPEC §A4 says (version 8)."""

from __future__ import annotations

import pytest

from .peer import PROTOCOL
from .wire import _is_ruleset

RULESET = {"game": "probe", "players": 3, "options": {}}


def test_version_8_and_a_move_time_of_1_to_86400_seconds():
    assert PROTOCOL == 8
    assert _is_ruleset({**RULESET, "move_time": 1}) and _is_ruleset({**RULESET, "move_time": 86_400})


@pytest.mark.parametrize("value", [0, 86_401, -1, 1.5, True, "60"])
def test_any_other_move_time_is_malformed(value):
    assert not _is_ruleset({**RULESET, "move_time": value})
