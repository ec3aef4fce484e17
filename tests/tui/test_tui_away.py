"""A seat away: the log says who was lost and who is back, the status line counts how long it has
been away, and ``abandon`` ends the game for everyone once the node says the grace period is over.

Most tests give a :class:`TerminalGame` a fake node whose ``away_for`` answers what the test says,
so the times shown are exact; one plays a real table whose bot loses its connection.
"""

from __future__ import annotations

import pytest
import trio
import trio.testing
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from p2pgames.bots import bot_for
from p2pgames.games import get_game
from p2pgames.net import JoinCode, NetSettings, Node, drive_bot, open_host_listeners
from p2pgames.session import AwayTooLong, GameStarted, OpenSeatAsked, SeatAway, SeatBack, SeatOpened
from p2pgames.tui import _app as tui_app
from p2pgames.tui import run_terminal_game
from p2pgames.tui._app import TerminalGame
from p2pgames.tui._commands import EndGame, Move, NewCode, OpenSeat, Unknown, interpret
from p2pgames.tui._completion import ChoiceCompleter
from p2pgames.tui._screen import away_seconds
from p2pgames.tui._state import Answer, Interrupt, Mode, Question
from p2pgames.tui._text import duration, plain
from tui_tables import (
    LOOPBACK, FakeNode, FakeReplica, FakeSession, ScreenWatcher, SizedOutput, Watched, seeded_session, terminal_game, unwrapped,
)

GRACE = NetSettings().away_grace  # 180 s: "3:00"


def last_log(game: TerminalGame) -> tuple[str, str]:
    """The log's last line: (its style, its text)."""
    line = game.log_lines[-1]
    return line[0][0], plain(line)


def away(session: FakeSession, seat: int, reason: str = "the connection closed") -> SeatAway:
    session.away[seat] = reason
    return SeatAway(seat, session.names[seat], reason, host=seat == 0 and not session.is_host)


def back(session: FakeSession, seat: int) -> SeatBack:
    del session.away[seat]
    return SeatBack(seat, session.names[seat], host=seat == 0 and not session.is_host)


# -- the time ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "seconds, shown",
    [(0, "0:00"), (0.9, "0:00"), (42, "0:42"), (59.99, "0:59"), (180, "3:00"), (3599, "59:59"),
     (3600, "1:00:00"), (3723.5, "1:02:03"), (-1, "0:00")],
)
def test_times_away_read_like_a_clock(seconds, shown):
    assert duration(seconds) == shown


def test_the_status_counts_the_longest_time_of_the_away_seats_it_waits_for():
    # Which seats those are is the session's rule (tests/session/test_rejoin.py checks it).
    session = FakeSession()
    times = {1: 42.0, 2: 70.0}
    session.awaited = (1, 2)
    assert away_seconds(session, times.get) == 70.0
    session.awaited = (1,)
    assert away_seconds(session, times.get) == 42.0
    session.awaited = ()
    assert away_seconds(session, times.get) is None
    session.awaited = (0,)  # a joiner's host, for which no time is known (yet)
    assert away_seconds(session, times.get) is None


def test_the_status_line_shows_the_time_away(pipe):
    session = FakeSession()
    game, node = terminal_game(pipe, session)
    session.away, session.awaited, node.times = {1: "lost"}, (1,), {1: 42.0}
    session.said_status = "waiting for bob to reconnect"
    assert plain(game.screen._status_bar(60)[0]).rstrip() == " Waiting for bob to reconnect (0:42)"
    session.awaited = ()
    session.said_status = "you to move: choose a card"
    assert plain(game.screen._status_bar(60)[0]).rstrip() == " Your move: choose a card"  # bob isn't needed yet

    joiner = FakeSession(is_host=False)
    game, node = terminal_game(pipe, joiner)
    joiner.away, joiner.awaited, node.times = {0: "lost"}, (0,), {0: 3725.0}
    joiner.said_status = "waiting for the host, alice, to come back"
    assert plain(game.screen._status_bar(80)[0]).rstrip() == " Waiting for the host, alice, to come back (1:02:05)"


def test_the_screen_is_redrawn_every_second_only_while_someone_is_away_or_a_clock_runs(pipe):
    session = FakeSession()
    game, node = terminal_game(pipe, session)
    redraws = []
    game.screen.refresh = lambda: redraws.append(trio.current_time())  # type: ignore[method-assign]

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(game._redraw_every_second)
            await trio.sleep(60)
            assert redraws == []  # nobody away: no redraws of its own
            session.away = {1: "lost"}
            game._changed()  # an event: bob is away
            await trio.sleep(3.5)
            assert len(redraws) == 1 + 3
            session.away = {}
            game._changed()  # bob is back
            await trio.sleep(1)
            settled = len(redraws)
            await trio.sleep(60)
            assert len(redraws) == settled
            session.away = {1: "lost"}
            game.mode = Mode.STOPPED  # the game is over: nothing to count
            game._changed()
            await trio.sleep(60)
            assert len(redraws) == settled + 1
            session.away, game.mode = {}, Mode.PLAYING
            session.deciding, session.waiting = True, (1,)  # bob thinks: his clock runs
            game._changed()
            await trio.sleep(2.5)
            assert len(redraws) == settled + 2 + 2
            session.deciding = False  # cards are dealt: no clock runs
            game._changed()
            await trio.sleep(1)
            settled = len(redraws)
            await trio.sleep(60)
            assert len(redraws) == settled
            nursery.cancel_scope.cancel()

    trio.run(main, clock=trio.testing.MockClock(autojump_threshold=0))


# -- the log -----------------------------------------------------------------------------------------


def test_the_log_says_who_was_lost_who_is_back_and_when_the_game_may_be_ended(pipe):
    session = FakeSession()
    game, _ = terminal_game(pipe, session)
    game._on_event(away(session, 1, "stopped answering: nothing heard from it for 30 s"))
    assert last_log(game) == ("class:log.notice", (
        "bob's connection was lost (stopped answering: nothing heard from it for 30 s); the game waits"
        " for them where it needs them (they can come back: p2pgames join or resume)."
    ))
    game._on_event(AwayTooLong(1, "bob", 180.4))
    assert last_log(game) == ("class:log.ask", (
        "bob has been away for 3:00. Type abandon to end the game for everyone (every transcript will say"
        " why), or keep waiting."
    ))
    assert game.overdue == {1}
    game._on_event(back(session, 1))
    assert last_log(game) == ("class:log.info", "bob is back.")
    assert game.overdue == set()


def test_a_joiner_is_told_about_its_own_connection_to_the_host(pipe):
    session = FakeSession(is_host=False)
    game, _ = terminal_game(pipe, session)
    game._on_event(away(session, 0, "the connection closed"))
    assert last_log(game) == ("class:log.notice", "The connection to the host, alice, was lost (the connection closed); reconnecting …")
    game._on_event(AwayTooLong(0, "alice", 3725, host=True))
    assert last_log(game)[1].startswith("The host, alice, has been away for 1:02:05. Type abandon to end the game")
    game._on_event(back(session, 0))
    assert last_log(game) == ("class:log.info", "Reconnected to the host; caught up.")
    # Another seat away, seen by a joiner, reads as the host sees it.
    game._on_event(away(session, 2))
    assert last_log(game)[1].startswith("carol's connection was lost (the connection closed); the game waits")


def test_too_long_for_a_seat_already_back_is_not_shown(pipe):
    session = FakeSession()
    game, _ = terminal_game(pipe, session)
    before = len(game.log_lines)
    game._on_event(AwayTooLong(1, "bob", 181))  # bob came back meanwhile
    assert len(game.log_lines) == before and game.overdue == set()


# -- abandon -----------------------------------------------------------------------------------------


def test_abandon_is_a_command_and_is_offered_and_end_is_not(pipe):
    assert interpret("abandon", None) == EndGame()
    assert isinstance(interpret("ABANDON  Game", ("pass",)), EndGame)
    # "end" is a game's word (Steam Torpedo ends a turn with it, Astonishing! an Invention phase):
    # to the terminal it is no command at all.
    assert isinstance(interpret("end", None), Unknown)
    assert isinstance(interpret("end game", ("pass",)), Unknown)
    completer = ChoiceCompleter(lambda: None)
    assert [c.text for c in completer.get_completions(Document("ab"), CompleteEvent())][0] == "abandon"
    assert "end" not in [c.text for c in completer.get_completions(Document("en"), CompleteEvent())]
    game, _ = terminal_game(pipe, FakeSession())
    help_rows = [plain(row) for row in game.screen._help_lines(120)]
    assert any(row.startswith("  abandon ") and "seat is away" in row for row in help_rows)
    assert not any(row.startswith("  end ") for row in help_rows)


def test_abandon_with_nobody_away_says_so(pipe):
    game, node = terminal_game(pipe, FakeSession())
    game._on_typed("abandon")
    assert last_log(game) == (
        "class:log.problem", "Nobody is away: abandon ends the game once a player's connection has been lost a while."
    )
    assert game.asking is None and node.ended == 0


def test_abandon_before_the_grace_period_is_refused_with_how_long_is_left(pipe):
    session = FakeSession()
    game, node = terminal_game(pipe, session)
    game._on_event(away(session, 1))
    node.times = {1: 42.0}
    game._on_typed("abandon")
    assert last_log(game) == ("class:log.problem", (
        "bob has been away for 0:42: you may end the game once they have been away for 3:00;"
        " until then the game waits for them."
    ))
    assert game.asking is None and node.ended == 0


def test_abandon_after_the_grace_period_asks_first_then_ends_the_game(pipe):
    session = FakeSession()
    game, node = terminal_game(pipe, session)
    game._on_event(away(session, 1))
    game._on_event(AwayTooLong(1, "bob", GRACE))
    game._on_typed("abandon")
    assert game.asking is Question.END and node.ended == 0
    assert "End the game for everyone?" in plain(game.screen._banner())
    game._on_input(Answer(False))  # n: keep waiting
    assert game.asking is None and node.ended == 0
    game._on_typed("abandon game")
    game._on_input(Answer(True))
    assert game.asking is None and node.ended == 1


def test_abandon_refused_by_the_session_shows_its_reason(pipe):
    session = FakeSession()
    game, node = terminal_game(pipe, session)
    game._on_event(away(session, 1))
    game._on_event(AwayTooLong(1, "bob", GRACE))
    node.refuse = "nobody is away: there is no reason to end the game"
    game._on_typed("abandon")
    game._on_input(Answer(True))
    assert node.ended == 1
    assert last_log(game) == ("class:log.problem", "Nobody is away: there is no reason to end the game.")


def test_a_seat_back_while_asking_withdraws_the_question(pipe):
    session = FakeSession()
    game, node = terminal_game(pipe, session)
    game._on_event(away(session, 1))
    game._on_event(AwayTooLong(1, "bob", GRACE))
    game._on_typed("abandon")
    assert game.asking is Question.END
    game._on_event(back(session, 1))
    assert game.asking is None
    game._on_event(away(session, 1))  # away again: its grace starts again, as the node counts it
    game._on_typed("abandon")
    assert game.asking is None and last_log(game)[0] == "class:log.problem"


def test_quit_while_asking_to_abandon_asks_to_leave_instead(pipe):
    session = FakeSession()
    game, _ = terminal_game(pipe, session)
    game._on_event(away(session, 1))
    game._on_event(AwayTooLong(1, "bob", GRACE))
    game._on_typed("abandon")
    game._on_input(Interrupt())  # Ctrl-C at the question
    assert game.asking is Question.LEAVE


# -- code: a host that came back at another address ------------------------------------------------

NEW_CODE = "10.0.0.5:40123/abcd-efgh-ijkl-mnop"


def test_code_is_a_command_and_is_offered(pipe):
    assert interpret(f"code {NEW_CODE}", None) == NewCode(NEW_CODE)
    assert interpret(f"CODE   {NEW_CODE}", ("pass",)) == NewCode(NEW_CODE)
    assert interpret("code", None) == NewCode("")
    assert interpret("code", ("pass", "code")) == Move(1)  # a game's move called code wins
    completer = ChoiceCompleter(lambda: None)
    offered = [c.text for c in completer.get_completions(Document("co"), CompleteEvent())]
    assert offered == ["code "]
    game, _ = terminal_game(pipe, FakeSession(is_host=False))
    help_rows = [plain(row) for row in game.screen._help_lines(120)]
    assert any(row.startswith("  code CODE ") and "join code" in row for row in help_rows)


def test_code_dials_the_host_where_its_new_code_says(pipe):
    game, node = terminal_game(pipe, FakeSession(is_host=False))
    game._on_typed(f"code {NEW_CODE}")
    assert node.redirected == [JoinCode("10.0.0.5", 40123, "abcd-efgh-ijkl-mnop")]
    assert last_log(game) == ("class:log.info", "The host is dialled at 10.0.0.5:40123 from now on (its key is checked when it answers).")


@pytest.mark.parametrize("typed, problem", [
    ("code", "Type code and the host's new join code, as the host shows it: code HOST:PORT/FINGERPRINT."),
    ("code 10.0.0.5", "'10.0.0.5' is not a join code: expected HOST:PORT or HOST:PORT/FINGERPRINT."),
    ("code 10.0.0.5:40123/nope", "'nope' is not a key fingerprint (16 letters a–z and digits 2–7)."),
])
def test_code_that_is_no_join_code_says_what_is_wrong_and_changes_nothing(pipe, typed, problem):
    game, node = terminal_game(pipe, FakeSession(is_host=False))
    game._on_typed(typed)
    assert last_log(game) == ("class:log.problem", problem)
    assert node.redirected == []


def test_code_refused_by_the_node_shows_its_reason(pipe):
    # What the node refuses (another key, the host itself, a game over) is tested on real nodes
    # in tests/net/test_network_faults.py.
    game, node = terminal_game(pipe, FakeSession(is_host=False))
    node.refuse = "the join code's key abcd-efgh-ijkl-mnop is not the key of your game's host (aaaa-bbbb-cccc-dddd): that is another table"
    game._on_typed(f"code {NEW_CODE}")
    assert last_log(game) == ("class:log.problem", (
        "The join code's key abcd-efgh-ijkl-mnop is not the key of your game's host (aaaa-bbbb-cccc-dddd):"
        " that is another table."
    ))
    assert node.redirected == []


# -- the whole screen --------------------------------------------------------------------------------


class Ruleset:
    def describe(self) -> str:
        return "a probe of three"


def play(pipe, start, script, *, columns: int = 80, rows: int = 24, renders: list | None = None) -> int:
    """Run the terminal game on the node ``await start(nursery)`` returns; once the screen shows,
    ``script(screen)`` plays (typing into ``pipe``). ``renders`` gets an item per redraw."""
    shown = trio.Event()
    watcher: list[ScreenWatcher] = []

    async def run_script() -> None:
        await shown.wait()
        try:
            with trio.fail_after(15):
                await script(watcher[0])
        except trio.TooSlowError:
            raise AssertionError(f"the script timed out; the screen shows:\n{watcher[0].text()}") from None

    async def setup(nursery: trio.Nursery, say) -> Node:
        node = await start(nursery)
        nursery.start_soon(run_script)
        return node

    def on_screen(app) -> None:
        watcher.append(ScreenWatcher(app))
        if renders is not None:
            app.after_render += lambda app: renders.append(1)
        shown.set()

    output = SizedOutput(columns, rows)
    return run_terminal_game(setup, title="Probe", color=False, input=pipe, output=output, on_screen=on_screen)


def test_on_screen_the_status_counts_and_abandon_ends_the_game(pipe, deadline, monkeypatch):
    monkeypatch.setattr(tui_app, "REDRAW", 0.01)  # the screen's own redraws, sooner
    session = FakeSession()
    node = FakeNode(session)
    shown: dict[str, str] = {}
    renders: list[int] = []

    async def start(nursery: trio.Nursery) -> FakeNode:
        node.open_events()
        return node

    async def script(screen: ScreenWatcher) -> None:
        node.push(GameStarted(0, tuple(session.names), Ruleset()))
        session.awaited, node.times = (1,), {1: 42.0}
        session.said_status = "waiting for bob to reconnect"
        node.push(away(session, 1))
        await screen.wait_for("Waiting for bob to reconnect (0:42)")
        await screen.wait_for("bob's connection was lost")
        node.times = {1: 43.0}
        seen = len(renders)
        await screen.wait_until(lambda: len(renders) >= seen + 3)  # redrawn without an event
        assert "Waiting for bob to reconnect (0:43)" in screen.text()
        pipe.send_text("abandon\r")
        await screen.wait_for("bob has been away for 0:43: you may end the game once")
        node.times = {1: 180.0}
        node.push(AwayTooLong(1, "bob", 180.0))
        await screen.wait_for("Type abandon to end the game")
        pipe.send_text("abandon\r")
        await screen.wait_for("End the game for everyone?")
        shown["asking"] = screen.text()
        pipe.send_text("y")
        await screen.wait_for("Press q or Enter to leave")
        shown["end"] = screen.text()
        pipe.send_text("q")

    assert play(pipe, start, script, renders=renders) == 1  # the game stopped before its end
    assert node.ended == 1
    assert "y end it   n keep waiting" in shown["asking"]
    assert "bob was away and alice ended the game" in shown["end"]


# -- a real table ------------------------------------------------------------------------------------


def test_a_bot_that_loses_its_connection_can_be_ended_for(pipe, deadline):
    """The host's screen shows the real events: a bot's connection is lost, the (shortened) grace
    period passes, and ``abandon`` stops the game for everyone."""
    game = get_game("probe")
    seed = b"tui-away"
    bot_scope = trio.CancelScope()
    shown: dict[str, str] = {}

    async def start(nursery: trio.Nursery) -> Node:
        settings = NetSettings(away_grace=0.0)  # AwayTooLong at the watchdog's next tick
        human = Watched(Node(seeded_session(seed, "alice", ruleset=game.ruleset(2)), settings=settings))
        listeners = await open_host_listeners(0, LOOPBACK)
        port = listeners[0].socket.getsockname()[1]
        await nursery.start(human.node.serve, listeners)
        nursery.start_soon(human.pump)
        bot = Node(seeded_session(seed, "bot-1", bot=True, presentation=None))

        async def run_bot() -> None:
            with bot_scope:
                async with trio.open_nursery() as inner:
                    await inner.start(bot.connect, LOOPBACK, port)
                    inner.start_soon(drive_bot, bot, bot_for(game, seed + b"/bot"))

        nursery.start_soon(run_bot)
        await human.wait_until(lambda: human.session.decision() is not None)
        return human.node

    async def script(screen: ScreenWatcher) -> None:
        bot_scope.cancel()  # the bot's process "crashes": its connection is gone
        await screen.wait_for("bot-1's connection was lost")
        await screen.wait_for("Type abandon to end the game")
        pipe.send_text("abandon\r")
        await screen.wait_for("End the game for everyone?")
        pipe.send_text("y")
        await screen.wait_for("Press q or Enter to leave")
        shown["end"] = screen.text()
        pipe.send_text("q")

    assert play(pipe, start, script, columns=100, rows=30) == 1
    assert "ended the game rather than wait" in unwrapped(shown["end"]), shown["end"]


def test_a_joiner_who_leaves_while_the_host_is_away_is_told_its_seat_is_kept_and_how_to_take_it(pipe, deadline, capsys, tmp_path):
    """Nobody can be told while the host is away: the farewell says the seat is kept and gives
    the command that takes it again (not "the other players were told"), and the seat file stays."""
    game = get_game("probe")
    seed = b"tui-kept"
    host_scope = trio.CancelScope()

    async def start(nursery: trio.Nursery) -> Node:
        host = Node(seeded_session(seed, "hostess", ruleset=game.ruleset(2), bot=True, presentation=None))
        listeners = await open_host_listeners(0, LOOPBACK)
        port = listeners[0].socket.getsockname()[1]

        async def run_host() -> None:
            with host_scope:
                async with trio.open_nursery() as inner:
                    await inner.start(host.serve, listeners)
                    inner.start_soon(drive_bot, host, bot_for(game, seed + b"/host"))

        nursery.start_soon(run_host)
        human = Watched(Node(seeded_session(seed, "alice"), seat_dir=tmp_path))
        await nursery.start(human.node.connect, LOOPBACK, port)
        nursery.start_soon(human.pump)
        await human.wait_until(lambda: human.session.decision() is not None)
        return human.node

    async def script(screen: ScreenWatcher) -> None:
        host_scope.cancel()  # the host's process "crashes"
        await screen.wait_for("The connection to the host, hostess, was lost")
        pipe.send_text("quit\r")
        await screen.wait_for("Leave the game?")
        pipe.send_text("y")

    assert play(pipe, start, script) == 0
    assert list(tmp_path.glob("*.p2pseat")), "the seat is kept, to be taken again"
    said = capsys.readouterr()
    assert said.out == "You left while the host was away: your seat is kept; p2pgames resume takes it again.\n", said


# -- bot: play on with a bot in the seat (issue 25) --------------------------------------------------


def test_bot_is_a_command_offered_when_a_bot_can_take_the_seat_and_help_lists_it(pipe):
    assert interpret("bot", None) == OpenSeat("")
    assert interpret("BOT  bob", ("pass",)) == OpenSeat("bob")
    session = FakeSession()
    game, _ = terminal_game(pipe, session)
    help_rows = [plain(row) for row in game.screen._help_lines(160)]
    assert any(row.startswith("  bot NAME ") and "play on with a bot" in row for row in help_rows)
    game._on_event(away(session, 1))
    game._on_event(AwayTooLong(1, "bob", 180.4, can_open=True))
    assert last_log(game) == ("class:log.ask", (
        "bob has been away for 3:00. Type bot to play on with a bot in bob's seat (its cards shown to everyone,"
        " once every player agrees), abandon to end the game for everyone (every transcript will say why), or"
        " keep waiting."
    ))
    game._on_event(away(session, 2))
    game._on_event(AwayTooLong(2, "carol", 181, why_not="it holds keys of deal 3, not yet audited: its cards would stay locked"))
    assert last_log(game) == ("class:log.ask", (
        "carol has been away for 3:01. Type abandon to end the game for everyone (every transcript will say why),"
        " or keep waiting (a bot can't take their seat now: it holds keys of deal 3, not yet audited: its cards"
        " would stay locked)."
    ))


def test_bot_after_the_grace_period_asks_first_then_agrees(pipe):
    session = FakeSession()
    session.replica = FakeReplica()
    game, node = terminal_game(pipe, session)
    game._on_event(away(session, 1))
    game._on_event(AwayTooLong(1, "bob", GRACE, can_open=True))
    game._on_typed("bot")
    assert game.asking is Question.OPEN and node.opened == []
    assert "Play on with a bot in their seat?" in plain(game.screen._banner())
    game._on_input(Answer(False))  # n: keep waiting
    assert game.asking is None and node.opened == []
    game._on_typed("bot Bob")
    game._on_input(Answer(True))
    assert game.asking is None and node.opened == [1]
    game._on_event(SeatOpened(1, "bob", 214))
    assert last_log(game) == (
        "class:log.notice", "bob's seat is played by a bot from entry 214; its cards are shown to everyone."
    )
    assert game.overdue == set()


def test_bot_is_refused_before_the_grace_period_for_a_seat_holding_keys_and_for_nobody(pipe):
    session = FakeSession()
    session.replica = FakeReplica()
    game, node = terminal_game(pipe, session)
    game._on_typed("bot")
    assert last_log(game)[1] == "Nobody is away: bot plays on in the seat of a player whose connection has been lost a while."
    game._on_typed("bot dave")
    assert last_log(game)[1] == "Nobody at the table is called dave: the players are alice, bob and carol."
    game._on_event(away(session, 1))
    node.times = {1: 42.0}
    game._on_typed("bot")
    assert last_log(game)[1] == (
        "bob has been away for 0:42: you may play on with a bot in their seat once they have been away for 3:00;"
        " until then the game waits for them."
    )
    session.replica.problems[1] = "it holds keys of deal 3, not yet audited: its cards would stay locked"
    game._on_event(AwayTooLong(1, "bob", GRACE))
    game._on_typed("bot")
    assert last_log(game)[1] == (
        "bob's seat can't be played by a bot now: it holds keys of deal 3, not yet audited: its cards would stay locked."
    )
    assert game.asking is None and node.opened == []


def test_another_players_agreement_is_shown_with_how_to_agree_too(pipe):
    session = FakeSession()
    session.replica = FakeReplica()
    game, _ = terminal_game(pipe, session)
    game._on_event(OpenSeatAsked(2, "carol", "bob", ("alice",)))
    assert last_log(game) == ("class:log.ask", (
        "bob agrees to play on with a bot for carol; still to agree: alice (p2pgames asks each player: the bot"
        " takes the seat once all agree). Type bot carol to agree too."
    ))


# -- forfeit (a two-player table that plays it) ----------------------------------------------------


def two_players(pipe, *, forfeit: bool = True):
    session = FakeSession(names=("alice", "bob"))
    session.forfeit = forfeit
    return session, *terminal_game(pipe, session)


def test_forfeit_is_offered_once_the_other_player_is_away_past_the_grace_period_and_asks_first(pipe):
    session, game, node = two_players(pipe)
    game._on_event(away(session, 1))
    game._on_event(AwayTooLong(1, "bob", GRACE, why_not="it holds keys of deal 0", can_forfeit=True))
    assert last_log(game) == ("class:log.ask", (
        "bob has been away for 3:00. Type forfeit to win the game by forfeit (a bot can't take their seat now:"
        " it holds keys of deal 0), abandon to end it without a winner (every transcript will say why), or keep"
        " waiting."
    ))
    game._on_typed("forfeit")
    assert game.asking is Question.FORFEIT and node.forfeits == []
    assert "Claim the game by forfeit?" in plain(game.screen._banner())
    game._on_input(Answer(False))
    assert game.asking is None and node.forfeits == []
    game._on_typed("forfeit")
    game._on_input(Answer(True))
    assert node.forfeits == [1]


def test_forfeit_before_the_grace_period_or_at_a_table_without_it_is_refused_with_why(pipe):
    session, game, node = two_players(pipe)
    game._on_event(away(session, 1))
    node.times = {1: 42.0}
    game._on_typed("forfeit")
    assert last_log(game) == ("class:log.problem", (
        "bob has been away for 0:42: you may claim the game by forfeit once they have been away for 3:00;"
        " until then the game waits for them."
    ))
    session, game, node = two_players(pipe, forfeit=False)
    game._on_event(away(session, 1))
    game._on_event(AwayTooLong(1, "bob", GRACE))
    game._on_typed("forfeit")
    assert game.asking is None and node.forfeits == []
    assert last_log(game) == ("class:log.problem",
                              "This table plays no win by forfeit (the host chooses it before the game: --forfeit).")
    game = terminal_game(pipe, FakeSession())[0]  # three players
    game._on_typed("forfeit")
    assert last_log(game)[1].startswith("There is no two-player game going on")


def test_where_a_bot_could_play_on_forfeit_is_offered_beside_it(pipe):
    session, game, node = two_players(pipe)
    game._on_event(away(session, 1))
    game._on_event(AwayTooLong(1, "bob", GRACE, can_open=True, can_forfeit=True))
    assert last_log(game) == ("class:log.ask", (
        "bob has been away for 3:00. Type bot to play on with a bot in bob's seat (its cards shown to everyone, once"
        " every player agrees), forfeit to win the game by forfeit, abandon to end the game for everyone (every"
        " transcript will say why), or keep waiting."
    ))
