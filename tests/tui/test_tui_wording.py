"""Words the terminal shows around the game (issue 22): player names in the status line as their
players typed them, and one way to leave once the game has ended, however it ended."""

from __future__ import annotations

import pytest

from p2pgames.tui._app import _sentence
from p2pgames.tui._commands import Unknown
from p2pgames.tui._state import Mode
from p2pgames.tui._text import plain
from tui_tables import FakeSession, terminal_game

__all__: list[str] = []


@pytest.mark.parametrize("status, shown", [
    ("root to move: choose a card", " root to move: choose a card"),  # was "Root to move"
    ("root and bob to move: choose a card", " root and bob to move: choose a card"),
    ("you and root to move: choose a card", " You and root to move: choose a card"),
    ("you to move: choose a card", " Your move: choose a card"),
    ("waiting for root to reconnect", " Waiting for root to reconnect"),
])
def test_the_status_line_shows_names_as_their_players_typed_them(pipe, status, shown):
    session = FakeSession(names=("alice", "root", "bob"))
    game, _ = terminal_game(pipe, session)
    session.said_status = status
    assert plain(game.screen._status_bar(80)[0]).rstrip() == shown


def test_a_game_over_and_a_stopped_game_say_the_same_way_to_leave(pipe):
    game, _ = terminal_game(pipe, FakeSession())
    shown = {}
    for mode in (Mode.OVER, Mode.STOPPED):
        game.mode = mode
        shown[mode] = plain(game.screen._banner())
    assert shown[Mode.OVER] == shown[Mode.STOPPED] == " Press q or Enter to leave.  (PgUp/PgDn scroll the log)"


def test_a_problem_that_opens_with_a_name_keeps_it_as_typed():
    assert _sentence("root is away", ("alice", "root")) == "root is away."
    assert _sentence("nobody is away", ("alice", "root")) == "Nobody is away."


def test_a_refusal_that_already_names_the_move_meant_offers_no_lookalikes(pipe):
    # `bid 3` in the 2015 auction said "… bid -3, not bid 3. Did you mean bid -3, bid -13, bid -9
    # or bid -8?": the reason already says what to type, and the lookalikes only blur it.
    game, _ = terminal_game(pipe, FakeSession())
    game.decision = object()  # type: ignore[assignment] - only "is there a decision" matters here
    reason = "a bid is in negative points, as the rulebook writes it: bid -3, not bid 3"
    message = game._unknown_message(Unknown("bid 3", ("bid -3", "bid -13", "bid -9", "bid -8")), reason)
    assert message == (
        "“bid 3” is not one of your choices: a bid is in negative points, as the rulebook writes it: bid -3, not"
        " bid 3. Tab lists your choices; help shows the commands."
    )
    # A reason that names none of them keeps them.
    message = game._unknown_message(Unknown("assign it", ("assign Boiler", "assign Hull")), "'it' is not a compartment")
    assert message.endswith("'it' is not a compartment. Did you mean assign Boiler or assign Hull? Tab lists your"
                            " choices; help shows the commands.")
    # A lookalike that is only the start of a word of the reason is no correction.
    message = game._unknown_message(Unknown("bid 3", ("bid -3",)), "bid -30 is the most")
    assert "Did you mean bid -3?" in message


def test_a_move_or_standing_answer_the_node_refuses_is_said_as_every_refusal(pipe):
    """One wording for whatever can't be done now (``_refused``): a typed move the game refuses,
    a composer's command, a move or a standing answer the node refuses (the host is away)."""
    from types import SimpleNamespace

    from p2pgames.session import LocalError

    game, node = terminal_game(pipe, FakeSession())

    def refuse(*_):
        raise LocalError("the host is away: moves wait until we have reconnected")

    node.act = node.stand_by = refuse
    game._make(None, object(), "play 5")
    game._stand(SimpleNamespace(standing=SimpleNamespace(label="never")))
    assert [plain(line) for line in game.log_lines[-2:]] == [
        "“play 5” isn't possible now: the host is away: moves wait until we have reconnected.",
        "“never” isn't possible now: the host is away: moves wait until we have reconnected.",
    ]
