"""Every bot starts from ``p2pgames.bots.legal_options``: the seat's legal actions, or an error
naming the seat and the step when it has none (a caller's or a game's bug, never a silent pick)."""

import pytest

from p2pgames.bots import PlayoutBot, RandomBot, bot_for
from p2pgames.games import get_game


@pytest.mark.parametrize("make", [RandomBot, PlayoutBot, lambda seed: bot_for(get_game("beltpunk"), seed)])
def test_a_bot_asked_for_a_seat_with_no_legal_action_says_so(make):
    game = get_game("beltpunk")
    state = game.setup(game.ruleset(2))  # waiting for the first Foreman: nobody may act
    with pytest.raises(ValueError, match="seat 1 has no legal action at 'nothing to do'"):
        make(b"seed").choose(game, state, 1, {}, "nothing to do")
