"""The terminal game: a full-screen prompt_toolkit application with trio running inside it as a guest.

There is one thread. asyncio runs prompt_toolkit; trio runs as a *guest* of the same event loop
(:func:`trio.lowlevel.start_guest_run`), so trio tasks and prompt_toolkit callbacks take turns and
never run at the same time. Who owns what:

* trio tasks own the game. They run the caller's ``setup``, read the node's events, and call
  ``act``, ``chat`` and ``leave``. What they change is plain attributes of :class:`TerminalGame`,
  which the screen reads when it is drawn; after every change they call ``app.invalidate()``.
* prompt_toolkit callbacks (key bindings, the input line) never touch the node: they hand what the
  player did to trio through a memory channel (``TrioToken.run_sync_soon`` puts it in from outside
  trio), and change only presentation on their own (scrolling, which view is shown).

The application ends when trio's main task returns (the player left, or setup failed); if the
application stops first (it crashed), trio is cancelled and waited for, so neither outlives the other.
"""

from __future__ import annotations

import asyncio
import math
import re
import sys
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

import trio
from prompt_toolkit.application import Application, get_app
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import (
    ConditionalContainer,
    Dimension,
    DynamicContainer,
    Float,
    FloatContainer,
    HSplit,
    Layout,
    VSplit,
    Window,
    WindowAlign,
)
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
from prompt_toolkit.layout.menus import CompletionsMenu
from prompt_toolkit.layout.processors import BeforeInput
from prompt_toolkit.output import ColorDepth, Output

from p2pgames.engine import Panel
from p2pgames.net import Node
from p2pgames.session import (
    ChatReceived,
    Decision,
    DesyncReport,
    GameEnded,
    GameStarted,
    Halted,
    LobbyChanged,
    LocalError,
    Logged,
    Notice,
    Rejected,
    SessionEvent,
)
from p2pgames.tui._commands import (
    COMMANDS,
    BadNumber,
    Chat,
    Help,
    Move,
    Quit,
    ShowLog,
    ShowTable,
    Unknown,
    interpret,
)
from p2pgames.tui._completion import ChoiceCompleter
from p2pgames.tui._controls import FittedLines, ScrollingLog, ScrollingPage
from p2pgames.tui._panels import layout_panels, natural_width
from p2pgames.tui._text import Line, line_width, pad, truncate, wrap
from p2pgames.tui._theme import Theme, color_wanted

__all__ = ["run_terminal_game", "TerminalGame", "Setup"]

Setup = Callable[[trio.Nursery, Callable[[str], None]], Awaitable[Node]]

# How long leaving after the game waits for every peer to confirm the final state, so the
# transcripts end agreed; a person pressing a key shouldn't wait longer than this.
FINAL_AGREEMENT_WAIT = 5.0
MAX_LOG_LINES = 5000
MIN_LOG_ROWS = 3
# Table and log side by side on terminals this wide, if the log keeps SIDE_LOG_WIDTH columns.
SIDE_BY_SIDE_COLUMNS = 100
SIDE_LOG_WIDTH = 40
MAX_CHOICE_ROWS = 2

# What the game is doing, as far as the screen is concerned.
CONNECTING = "connecting"  # setup is running: no node yet
LOBBY = "lobby"  # seated (or being seated); the game hasn't started
PLAYING = "playing"
OVER = "over"  # the game ended with a result
STOPPED = "stopped"  # halted by a fault, refused by the host, or the connection closed
LEAVING = "leaving"  # the player quit: telling the others, closing connections

# Which view fills the middle of the screen.
NORMAL, HELP, LOG, TABLE = "normal", "help", "log", "table"


# -- what prompt_toolkit hands to trio --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Typed:
    text: str


@dataclass(frozen=True, slots=True)
class _Interrupt:
    """Ctrl-C, or Ctrl-D on an empty line."""


@dataclass(frozen=True, slots=True)
class _Answer:
    """The answer to "leave the game?"."""

    leave: bool


@dataclass(frozen=True, slots=True)
class _Dismiss:
    """A key pressed to leave once the game is over or stopped."""


_Input = _Typed | _Interrupt | _Answer | _Dismiss


def run_terminal_game(
    setup: Setup,
    *,
    title: str,
    color: bool = True,
    input: Input | None = None,
    output: Output | None = None,
) -> int:
    """Play one game in the terminal, full screen, until the player leaves; return an exit code.

    ``setup(nursery, say)`` starts whatever the table needs in ``nursery`` (a host's listeners, a
    joiner's connection, bot peers) and returns the local player's :class:`~p2pgames.net.Node`;
    ``say(text)`` puts a line in the log (a join code, "connecting to …"). Everything started in
    ``nursery`` is cancelled when the player leaves.

    Returns 0 when the player leaves normally (after the game, or by quitting it), 1 when the game
    stopped on a fault, the host refused the player, or ``setup`` failed with :class:`OSError` (a
    refused connection, an address in use); in that last case the reason is printed to stderr
    once the screen is restored. Any other exception from ``setup`` or the node is re-raised, also
    after the screen is restored.

    ``color=False`` (or a non-empty ``NO_COLOR`` environment variable) draws in monochrome.
    ``input`` and ``output`` replace the terminal (tests pass a pipe input and a dummy output).
    Call it from synchronous code: it runs its own asyncio event loop.
    """
    game = TerminalGame(setup, title=title, color=color_wanted(color), input=input, output=output)
    code = asyncio.run(game.run())
    if game.failure is not None:
        print(game.failure, file=sys.stderr)
    return code


class TerminalGame:
    """The screen and the player's side of one game; see the module docstring for who owns what.

    Use :func:`run_terminal_game`; this class is public to the package for tests and debugging.
    """

    def __init__(
        self,
        setup: Setup,
        *,
        title: str,
        color: bool = True,
        input: Input | None = None,
        output: Output | None = None,
    ) -> None:
        self.setup = setup
        self.title = title
        self.theme = Theme(color)
        self.node: Node | None = None
        self.mode = CONNECTING
        self.view = NORMAL
        self.confirming_quit = False
        self.decision: Decision | None = None
        self.lobby: LobbyChanged | None = None
        self.said: list[str] = []
        self.verdict = ""  # why the game ended or stopped, once it has
        self.exit_code = 0
        self.failure: str | None = None
        self.log_lines: list[Line] = []
        self._generation = 0  # bumped on every change the screen may show
        self._panels_cache: tuple[Any, list[Panel]] | None = None
        self._token: trio.lowlevel.TrioToken | None = None
        self._input_send: trio.MemorySendChannel[_Input] | None = None
        self._early_input: list[_Input] = []
        self._left: trio.Event | None = None
        self._main_scope: trio.CancelScope | None = None
        self._nursery: trio.Nursery | None = None
        self.app = self._build_application(color, input, output)

    # -- running -------------------------------------------------------------------------------

    async def run(self) -> int:
        """Run the application and trio inside it until the player leaves; the exit code."""
        loop = asyncio.get_running_loop()
        trio_done: asyncio.Future[Any] = loop.create_future()

        def trio_finished(outcome: Any) -> None:
            trio_done.set_result(outcome)
            if self.app.is_running and not self.app.is_done:
                self.app.exit()

        def start_trio() -> None:
            # Started from inside the running application, so trio's tasks see it as the current
            # app, and after prompt_toolkit took SIGINT (trio then leaves it alone).
            trio.lowlevel.start_guest_run(
                self._trio_main,
                run_sync_soon_threadsafe=loop.call_soon_threadsafe,
                run_sync_soon_not_threadsafe=loop.call_soon,
                done_callback=trio_finished,
                host_uses_signal_set_wakeup_fd=True,
            )
            started.append(True)

        started: list[bool] = []
        try:
            await self.app.run_async(pre_run=start_trio)
        finally:
            if started and not trio_done.done():
                self._cancel_trio()
                await asyncio.shield(trio_done)
        outcome = trio_done.result()
        try:
            outcome.unwrap()
        except BaseExceptionGroup as group:
            raise _only_exception(group) from None
        return self.exit_code

    def _cancel_trio(self) -> None:
        if self._token is not None and self._main_scope is not None:
            try:
                self._token.run_sync_soon(self._main_scope.cancel)
            except trio.RunFinishedError:
                pass

    async def _trio_main(self) -> None:
        self._left = trio.Event()
        self._input_send, input_receive = trio.open_memory_channel[_Input](math.inf)
        for item in self._early_input:
            self._input_send.send_nowait(item)
        self._early_input.clear()
        self._token = trio.lowlevel.current_trio_token()
        with trio.CancelScope() as self._main_scope:
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                nursery.start_soon(self._read_input, input_receive)
                nursery.start_soon(self._start_table, nursery)
                await self._left.wait()
                nursery.cancel_scope.cancel()

    async def _start_table(self, nursery: trio.Nursery) -> None:
        """Run setup (the player may leave meanwhile), then show the node's events until it stops."""
        assert self._left is not None
        try:
            node = await self.setup(nursery, self.say)
        except Exception as error:
            reason = _setup_failure(error)
            if reason is None:
                raise
            self.failure = f"{self.title}: could not start the game: {reason}"
            self.exit_code = 1
            self._left.set()
            return
        self._attach(node)
        await self._follow(node)

    def say(self, text: str) -> None:
        """Put ``text`` in the log (and, before the game, on the lobby screen)."""
        self.said.append(text)
        self._log([("class:log.say", text)])
        self._changed()

    def _attach(self, node: Node) -> None:
        self.node = node
        if self.mode == CONNECTING:
            self.mode = LOBBY
        self._changed()

    async def _follow(self, node: Node) -> None:
        """Show the node's events until it stops."""
        async for event in node.events:
            self._on_event(event)
            self._changed()
        if self.mode in (LOBBY, PLAYING, CONNECTING):
            self._stop("The connection to the table closed.")
            self._changed()

    async def _read_input(self, receive: trio.MemoryReceiveChannel[_Input]) -> None:
        async for item in receive:
            if isinstance(item, _Typed):
                self._on_typed(item.text)
            elif isinstance(item, _Interrupt):
                self._on_interrupt()
            elif isinstance(item, _Answer):
                self.confirming_quit = False
                if item.leave:
                    self._leave()
            elif isinstance(item, _Dismiss):
                if self.mode in (OVER, STOPPED):
                    self._leave()
            self._changed()

    def _send_to_trio(self, item: _Input) -> None:
        """From prompt_toolkit: queue ``item`` for trio's input task."""
        if self._token is None or self._input_send is None:
            self._early_input.append(item)
            return
        try:
            self._token.run_sync_soon(self._deliver, item)
        except trio.RunFinishedError:
            pass

    def _deliver(self, item: _Input) -> None:
        # Runs in trio's system context, where raising would crash the run.
        if self._input_send is not None:
            try:
                self._input_send.send_nowait(item)
            except (trio.ClosedResourceError, trio.BrokenResourceError):
                pass

    # -- the game's events -----------------------------------------------------------------------

    def _on_event(self, event: SessionEvent) -> None:
        session = self.node.session if self.node is not None else None
        if isinstance(event, Logged):
            for text in event.lines:
                self._log([("", text)])
        elif isinstance(event, ChatReceived):
            own = session is not None and event.seat == session.seat
            self._log([("class:log.chat-name" + (".you" if own else ""), f"{event.name}:"), ("", f" {event.text}")])
        elif isinstance(event, LobbyChanged):
            self._on_lobby(event)
        elif isinstance(event, GameStarted):
            self.mode = PLAYING
            seats = ", ".join(
                f"{name} (seat {seat}{', you' if seat == event.seat else ''})" for seat, name in enumerate(event.names)
            )
            self._log([("class:log.info", f"The game begins: {event.ruleset.describe()}. {seats}.")])
        elif isinstance(event, GameEnded):
            if self.mode != LEAVING:
                self.mode = OVER
            self.verdict = f"Game over: {event.message}"
            self._log([("class:log.end", self.verdict)])
        elif isinstance(event, Halted):
            self._log([("class:log.fault", event.message)])
            if self.mode != LEAVING:
                self._stop(event.message)
        elif isinstance(event, Rejected):
            message = f"Could not join the table: {event.reason}."
            self._log([("class:log.fault", message)])
            if self.mode != LEAVING:
                self._stop(message)
        elif isinstance(event, Notice):
            self._log([("class:log.notice", event.text)])
        elif isinstance(event, DesyncReport):
            where = self.node.desync_report if self.node is not None else None
            text = "The peers disagree about the state of the game"
            self._log([("class:log.notice", f"{text}; report saved to {where}" if where else text)])

    def _on_lobby(self, event: LobbyChanged) -> None:
        before = [name for name, _ in self.lobby.players] if self.lobby is not None else []
        me = self.node.session.name if self.node is not None else None
        for seat, (name, bot) in enumerate(event.players):
            if name not in before and name != me:
                self._log([("class:log.info", f"{name} took seat {seat}{' (a bot)' if bot else ''}.")])
        now = [name for name, _ in event.players]
        for name in before:
            if name not in now:
                self._log([("class:log.info", f"{name} left the table.")])
        self.lobby = event

    def _stop(self, message: str) -> None:
        self.mode = STOPPED
        self.verdict = message
        self.exit_code = 1
        self.confirming_quit = False

    # -- the player's input ----------------------------------------------------------------------

    def _on_typed(self, text: str) -> None:
        if self.mode not in (CONNECTING, LOBBY, PLAYING):
            return  # typed before the game ended; the banner now asks for a key
        self.confirming_quit = False
        self._refresh_decision()
        decision = self.decision
        command = interpret(text, decision.texts if decision is not None else None)
        if command is None:
            return
        if isinstance(command, Help):
            self.view = HELP if self.view != HELP else NORMAL
            self._help_control.top()
            return
        if isinstance(command, ShowLog):
            self.view = LOG if self.view != LOG else NORMAL
            return
        if isinstance(command, ShowTable):
            self.view = TABLE if self.view != TABLE else NORMAL
            return
        self.view = NORMAL
        if isinstance(command, Quit):
            self._on_interrupt()
        elif isinstance(command, Move):
            assert decision is not None and self.node is not None
            choice = decision.texts[command.index]
            try:
                self.node.act(decision.actions[command.index])
            except LocalError as error:
                self._problem(f"You can't {choice} now: {error}.")
                return
            secret = " (secret until everyone has chosen)" if decision.simultaneous else ""
            self._log([("class:log.you", f"› {choice}{secret}")])
        elif isinstance(command, Chat):
            if not command.text.strip():
                self._problem("Type say and then your message, for example: say good luck")
                return
            if self.node is None:
                self._problem("Chat opens once the game has started.")
                return
            try:
                self.node.chat(command.text)
            except LocalError as error:
                self._problem(f"{str(error)[:1].upper()}{str(error)[1:]}.")
        elif isinstance(command, BadNumber):
            if command.count == 0:
                self._problem(f"There is no choice {command.number}: you have nothing to choose right now.")
            else:
                self._problem(f"There is no choice {command.number}: pick a number from 1 to {command.count}.")
        elif isinstance(command, Unknown):
            self._problem(self._unknown_message(command))

    def _unknown_message(self, command: Unknown) -> str:
        typed = f"“{command.text}”"
        if self.decision is not None:
            message = f"{typed} is not one of your choices."
            if command.suggestions:
                message += f" Did you mean {' or '.join(command.suggestions)}?"
            return message + " Tab lists your choices; help shows the commands."
        if self.mode == PLAYING and self.node is not None:
            return (
                f"{typed} is not a command, and you have nothing to choose right now"
                f" ({self.node.session.status()}). Type help for the commands."
            )
        return f"{typed} is not a command, and the game hasn't started yet. Type help for the commands."

    def _on_interrupt(self) -> None:
        """Ctrl-C, Ctrl-D or ``quit``: leave, asking first while a game is running."""
        if self.mode == PLAYING and not self.confirming_quit:
            self.confirming_quit = True
            return
        self.confirming_quit = False
        self._leave()

    def _leave(self) -> None:
        assert self._left is not None and self._nursery is not None
        if self.mode == LEAVING or self.node is None:
            self._left.set()  # asked twice, or nothing to tell anyone: go now
            return
        self.mode = LEAVING
        self._nursery.start_soon(self._say_goodbye, self.node)

    async def _say_goodbye(self, node: Node) -> None:
        """Tell the other peers we are going, let the node close its connections, then end."""
        assert self._left is not None
        if not node.finished.is_set():
            if node.session.stage == "over":
                with trio.move_on_after(FINAL_AGREEMENT_WAIT):
                    await node.final_agreement.wait()
                node.leave("game over")
            else:
                node.leave("quit")
            self._changed()
            await node.finished.wait()
        self._left.set()

    def _problem(self, text: str) -> None:
        self._log([("class:log.problem", text)])

    def _log(self, line: Line) -> None:
        self.log_lines.append(line)
        if len(self.log_lines) > MAX_LOG_LINES:
            del self.log_lines[: len(self.log_lines) - MAX_LOG_LINES]
        self._log_control.appended(line)

    def _refresh_decision(self) -> None:
        node = self.node
        self.decision = node.session.decision() if node is not None and self.mode == PLAYING else None

    def _changed(self) -> None:
        """After anything changed: recompute what is derived, move the focus, redraw."""
        self._generation += 1
        self._refresh_decision()
        self._sync_focus()
        self.app.invalidate()

    # -- what the screen shows -------------------------------------------------------------------

    def _typing(self) -> bool:
        """Whether the bottom line is the input line (otherwise it is a banner asking for a key)."""
        return self.mode in (CONNECTING, LOBBY, PLAYING) and not self.confirming_quit

    def _sync_focus(self) -> None:
        target = self._input_window if self._typing() else self._banner_window
        if self.app.layout.current_window is not target:
            self.app.layout.focus(target)

    def _columns(self) -> int:
        # get_app(): while the layout is being built there is no self.app yet.
        return get_app().output.get_size().columns

    def _panels(self) -> list[Panel]:
        key = (self._generation, self.mode)
        if self._panels_cache is not None and self._panels_cache[0] == key:
            return self._panels_cache[1]
        panels = self._game_panels()
        if panels is None:
            panels = self._lobby_panels()
        self._panels_cache = (key, panels)
        return panels

    def _game_panels(self) -> list[Panel] | None:
        node = self.node
        if node is None or self.mode in (CONNECTING, LOBBY):
            return None
        session = node.session
        if session.replica is None or session.game is None or session.seat is None:
            return None
        try:
            panels = list(session.game.panels(session.replica.state, session.seat, session.knowledge, session.names))
        except Exception as error:  # a bug in a game's view must not take the player's game down
            return [Panel("Table", ((("bad", f"the table can't be drawn: {type(error).__name__}: {error}"),),))]
        return panels or [self._seats_panel()]

    def _seats_panel(self) -> Panel:
        """For a game with no panels of its own: who sits where and who is to move."""
        assert self.node is not None
        session = self.node.session
        waiting = session.waiting_for()
        lines = []
        for seat, info in enumerate(session.seats):
            line = [("dim", f"{seat} "), ("you" if seat == session.seat else "bold", info.name)]
            if seat == session.seat:
                line.append(("dim", " (you)"))
            if info.bot:
                line.append(("dim", " bot"))
            if seat in waiting:
                line.append(("warn", " ◂ to move"))
            lines.append(tuple(line))
        return Panel("Players", tuple(lines))

    def _lobby_panels(self) -> list[Panel]:
        session = self.node.session if self.node is not None else None
        panels = []
        if session is not None and session.game is not None and session.ruleset is not None:
            panels.append(Panel("Game", ((("bold", session.game.title), ("", f" · {session.ruleset.describe()}")),)))
        if self.lobby is not None:
            players, seats = list(self.lobby.players), self.lobby.seats
        elif session is not None and session.is_host and session.ruleset is not None:
            players, seats = [(session.name, session.bot)], session.ruleset.players
        else:
            players, seats = [], 0
        if seats:
            lines = []
            for seat in range(seats):
                if seat >= len(players):
                    lines.append((("dim", f"{seat} waiting for a player…"),))
                    continue
                name, bot = players[seat]
                you = session is not None and name == session.name
                line = [("dim", f"{seat} "), ("you" if you else "bold", name)]
                line += [("dim", " (you)")] if you else []
                line += [("dim", " host")] if seat == 0 else []
                line += [("dim", " bot")] if bot else []
                lines.append(tuple(line))
            panels.append(Panel(f"Seats {len(players)}/{seats}", tuple(lines)))
        elif self.mode != STOPPED:
            panels.append(Panel("Seats", ((("dim", "waiting for the host…" if session else "setting up…"),),)))
        if self.said:
            panels.append(Panel("Table", tuple((("", text),) for text in self.said[-6:])))
        return panels

    def _table_lines(self, width: int) -> list[Line]:
        return layout_panels(self._panels(), width, self.theme)

    def _table_overflow(self, hidden: int, width: int) -> Line:
        return [("class:more", f"▼ {hidden} more rows · F2 shows the whole table")]

    def _title_line(self, width: int) -> list[Line]:
        session = self.node.session if self.node is not None else None
        title = self.title
        if session is not None and session.game is not None and session.game.title not in title:
            title = f"{title} · {session.game.title}"  # a joiner learns the game from the host
        left = [("class:title", f" {title}")]
        if session is None:
            right = ""
        elif session.seat is not None and session.seats:
            right = f"{session.name} · seat {session.seat} of {len(session.seats)} "
        else:
            right = f"{session.name} · {'hosting' if session.is_host else 'joining'} "
        space = width - line_width(left) - len(right)
        if space < 1:
            return [pad(left, width, "class:title")]
        return [left + [("class:title", " " * space), ("class:title.seat", right)]]

    def _status_line(self, width: int) -> list[Line]:
        node = self.node
        style = "class:status"
        if self.mode == CONNECTING:
            text = "setting up the table…"
        elif self.mode == LEAVING:
            text = "leaving the table…"
        elif node is None:
            text = ""
        elif self.mode in (OVER, STOPPED):
            # The whole story is above the input line, where it has room to wrap.
            text = "game over" if self.mode == OVER else "the game has stopped"
            style = "class:status.over" if self.mode == OVER else "class:status.bad"
        else:
            session = node.session
            text = session.status()
            if text.startswith("you to move:"):
                text = "your move:" + text[len("you to move:"):]
            if session.seat is not None and session.seat in session.waiting_for():
                style = "class:status.you"
            elif session.stage == "over":
                style = "class:status.over"
            elif session.stage in ("halted", "closed"):
                style = "class:status.bad"
        text = text[:1].upper() + text[1:]
        return [pad([(style, f" {text}")], width, style)]

    def _prompt_lines(self, width: int) -> list[Line]:
        """Above the input line: your choices, or how the game ended."""
        if self.mode in (OVER, STOPPED):
            style = "class:banner.over" if self.mode == OVER else "class:banner.fault"
            return wrap([(style, self.verdict)], width, 2)[:3]
        if self.mode != PLAYING or self.decision is None or self.confirming_quit:
            return []
        return _choice_lines(self.decision, width)

    def _prompt_height(self) -> Dimension:
        return Dimension.exact(len(self._prompt_lines(self._columns())))

    def _banner(self) -> list[tuple[str, str]]:
        if self.confirming_quit:
            return [
                ("class:banner.ask", " Leave the game? It stops the game for everyone."),
                ("", "  "),
                ("class:help.key", "y"),
                ("", " leave  "),
                ("class:help.key", "n"),
                ("", " stay"),
            ]
        if self.mode == OVER:
            return [("class:banner.ask", " Press any key to leave."), ("class:banner.info", "  (PgUp/PgDn scroll the log)")]
        if self.mode == STOPPED:
            return [("class:banner.ask", " Press q to quit."), ("class:banner.info", "  (PgUp/PgDn scroll the log)")]
        if self.mode == LEAVING:
            return [("class:banner.info", " Leaving the table… (Ctrl-C again to leave at once)")]
        return []

    def _hint(self) -> list[tuple[str, str]]:
        if self.decision is not None:
            return [("class:hint", "Tab: choices · F1: help · Ctrl-C: quit ")]
        return [("class:hint", "say TEXT: chat · F1: help · Ctrl-C: quit ")]

    def _log_rule(self, width: int) -> list[Line]:
        label = " Log " if not self._log_control.offset else " Log (scrolled back: PgDn or Esc for the latest) "
        right = " PgUp/PgDn " if not self._log_control.offset else ""
        line = [("class:rule", "──"), ("class:rule.label", label)]
        fill = width - line_width(line) - len(right) - 2
        line += [("class:rule", "─" * max(0, fill)), ("class:rule.label", right), ("class:rule", "──")]
        return [truncate(line, width)]

    def _log_more_below(self, hidden: int) -> Line:
        return [("class:more", f"▼ {hidden} newer rows below · PgDn or Esc for the latest")]

    def _help_lines(self, width: int) -> list[Line]:
        game = self.node.session.game if self.node is not None else None
        rows: list[Line] = []

        def add(line: Line, indent: int = 0) -> None:
            rows.extend(wrap(line, width, indent))

        if game is not None:
            add([("class:help.heading", f"{game.title}: how to play")])
            for text in _paragraphs(game.help_text()):
                add([("", text)], _hanging_indent(text))
            add([])
        keys = (
            ("Tab", "complete a choice or a command"),
            ("↑ ↓", "lines you typed before"),
            ("PgUp PgDn", "scroll the log (or this help)"),
            ("F1 F2 F3", "this help · the whole table · the whole log"),
            ("Esc", "back to the table and the latest log lines"),
            ("Ctrl-C", "quit (asks first while the game is running)"),
        )
        commands = (("your move", "type one of your choices: Tab completes it; its number in the list works too"),)
        column = 2 + max(len(name) for name, _ in commands + COMMANDS + keys) + 2
        for heading, entries in (("Commands", commands + COMMANDS), ("Keys", keys)):
            add([("class:help.heading", heading)])
            for name, meaning in entries:
                add([("class:help.key", f"  {name}".ljust(column)), ("", meaning)], column)
            add([])
        add([("class:more", "Esc or F1 returns to the table.")])
        return rows

    def _help_more_below(self, hidden: int) -> Line:
        return [("class:more", f"▼ {hidden} more rows · PgDn to read on · Esc returns to the table")]

    def _side_by_side(self) -> bool:
        columns = self._columns()
        table = natural_width(self._panels(), self.theme) + 1
        return columns >= SIDE_BY_SIDE_COLUMNS and table + 1 + SIDE_LOG_WIDTH <= columns

    def _table_width(self) -> Dimension:
        return Dimension.exact(natural_width(self._panels(), self.theme) + 1)

    def _body(self) -> Any:
        if self.view == HELP:
            return self._help_body
        if self.view == LOG:
            return self._log_body
        if self.view == TABLE:
            return self._table_body
        return self._wide_body if self._side_by_side() else self._stacked_body

    # -- the application ---------------------------------------------------------------------------

    def _build_application(self, color: bool, input: Input | None, output: Output | None) -> Application:
        self._log_control = ScrollingLog(self.log_lines, self._log_more_below)
        self._help_control = ScrollingPage(self._help_lines, self._help_more_below)
        self._buffer = Buffer(
            multiline=False,
            completer=ChoiceCompleter(lambda: self.decision.texts if self.decision is not None else ()),
            complete_while_typing=True,
            history=InMemoryHistory(),
            accept_handler=self._accept,
        )
        self._input_window = Window(
            BufferControl(self._buffer, input_processors=[BeforeInput([("class:prompt", "› ")])]),
            height=1,
        )
        self._banner_window = Window(FormattedTextControl(self._banner, focusable=True, show_cursor=False), height=1)
        hint = ConditionalContainer(
            Window(FormattedTextControl(self._hint), align=WindowAlign.RIGHT, dont_extend_width=True, height=1),
            filter=Condition(lambda: not self._buffer.text),
        )
        typing = Condition(self._typing)
        bottom = HSplit([
            ConditionalContainer(VSplit([self._input_window, hint]), filter=typing),
            ConditionalContainer(self._banner_window, filter=~typing),
        ])

        def table(overflow: bool = True) -> Window:
            control = FittedLines(self._table_lines, self._table_overflow if overflow else None)
            return Window(control, dont_extend_height=True)

        def log() -> Window:
            return Window(self._log_control, height=Dimension(min=MIN_LOG_ROWS))

        log_rule = Window(FittedLines(self._log_rule), height=1)
        self._stacked_body = HSplit([table(), log_rule, log()])
        self._wide_body = VSplit([
            Window(FittedLines(self._table_lines, self._table_overflow), width=self._table_width),
            Window(char="│", width=1, style="class:rule"),
            HSplit([log_rule, log()]),
        ])
        self._log_body = HSplit([log_rule, log()])
        self._table_body = Window(
            FittedLines(self._table_lines, lambda hidden, width: [("class:more", f"▼ {hidden} more rows: the terminal is too small")])
        )
        self._help_body = Window(self._help_control)
        root = FloatContainer(
            HSplit([
                Window(FittedLines(self._title_line), height=1),
                Window(FittedLines(self._status_line), height=1),
                DynamicContainer(self._body),
                Window(FittedLines(self._prompt_lines), height=self._prompt_height),
                bottom,
            ]),
            floats=[Float(xcursor=True, ycursor=True, content=CompletionsMenu(max_height=8, scroll_offset=1))],
        )
        application: Application = Application(
            layout=Layout(root, focused_element=self._input_window),
            key_bindings=self._key_bindings(),
            style=self.theme.style,
            include_default_pygments_style=False,
            color_depth=None if color else ColorDepth.DEPTH_1_BIT,
            full_screen=True,
            mouse_support=False,
            input=input,
            output=output,
        )
        application.ttimeoutlen = 0.1  # Esc answers quickly; escape sequences arrive well within this
        return application

    def _accept(self, buffer: Buffer) -> bool:
        self._send_to_trio(_Typed(buffer.text))
        return False  # clear the line (it is in the history)

    def _key_bindings(self) -> KeyBindings:
        bindings = KeyBindings()
        typing = Condition(self._typing)
        asking = Condition(lambda: self.confirming_quit)
        over = Condition(lambda: self.mode == OVER and not self.confirming_quit)
        stopped = Condition(lambda: self.mode == STOPPED and not self.confirming_quit)
        elsewhere = Condition(lambda: self.view != NORMAL or self._log_control.offset > 0)

        # Registered first so the specific keys below win over it (prompt_toolkit prefers them).
        @bindings.add(Keys.Any, filter=over)
        def _(event: KeyPressEvent) -> None:
            self._send_to_trio(_Dismiss())

        @bindings.add(Keys.Any, filter=asking)
        def _(event: KeyPressEvent) -> None:
            self._send_to_trio(_Answer(False))

        @bindings.add("y", filter=asking)
        @bindings.add("Y", filter=asking)
        def _(event: KeyPressEvent) -> None:
            self._send_to_trio(_Answer(True))

        @bindings.add("q", filter=stopped)
        @bindings.add("Q", filter=stopped)
        @bindings.add("enter", filter=stopped | over)
        def _(event: KeyPressEvent) -> None:
            self._send_to_trio(_Dismiss())

        @bindings.add("c-c")
        def _(event: KeyPressEvent) -> None:
            self._send_to_trio(_Interrupt())

        @bindings.add("c-d", filter=~typing | Condition(lambda: not self._buffer.text))
        def _(event: KeyPressEvent) -> None:
            self._send_to_trio(_Interrupt())

        @bindings.add("pageup")
        def _(event: KeyPressEvent) -> None:
            if self.view == HELP:
                self._help_control.page_up()
            else:
                self._log_control.page_up()

        @bindings.add("pagedown")
        def _(event: KeyPressEvent) -> None:
            if self.view == HELP:
                self._help_control.page_down()
            else:
                self._log_control.page_down()

        @bindings.add("escape", filter=elsewhere)
        def _(event: KeyPressEvent) -> None:
            self.view = NORMAL
            self._log_control.follow()

        @bindings.add("f1")
        def _(event: KeyPressEvent) -> None:
            self._help_control.top()
            self.view = HELP if self.view != HELP else NORMAL

        @bindings.add("f2")
        def _(event: KeyPressEvent) -> None:
            self.view = TABLE if self.view != TABLE else NORMAL

        @bindings.add("f3")
        def _(event: KeyPressEvent) -> None:
            self.view = LOG if self.view != LOG else NORMAL

        return bindings


def _choice_lines(decision: Decision, width: int) -> list[Line]:
    """"Your move — <prompt>" and the numbered choices, in at most :data:`MAX_CHOICE_ROWS` rows."""
    head: Line = [("class:move", f"Your move — {decision.step.prompt}")]  # type: ignore[union-attr]
    if decision.simultaneous:
        head.append(("class:move.secret", " (secret until everyone has chosen)"))
    items = [[("class:choice.number", f"{number} "), ("", text)] for number, text in enumerate(decision.texts, 1)]
    rows = _flow(items, width)
    if len(rows) > MAX_CHOICE_ROWS:
        rows = _flow(items, width, MAX_CHOICE_ROWS)
    return wrap(head, width, 2)[:2] + rows


def _flow(items: list[Line], width: int, max_rows: int | None = None) -> list[Line]:
    """``items`` side by side in rows of ``width``; with ``max_rows``, the last row says how many
    items didn't fit."""

    def note(hidden: int) -> Line:
        return [("class:more", f"   … {hidden} more: Tab lists them all")]

    reserve = line_width(note(len(items)))
    rows: list[Line] = []
    row: Line = []
    for index, item in enumerate(items):
        last = max_rows is not None and len(rows) == max_rows - 1
        if row and line_width(row) + 3 + line_width(item) + (reserve if last else 0) > width:
            if last:
                rows.append(row + note(len(items) - index))
                return rows
            rows.append(row)
            row = []
        row = row + [("", "   " if row else " ")] + item
    rows.append(row)
    return rows


def _paragraphs(text: str) -> list[str]:
    """``text``'s lines with hard-wrapped prose joined back into paragraphs, to wrap to the screen.

    A line continues the one before it when both are plain prose (no indent, no column gaps)
    and the one before is about as long as the longest line: the author broke it for width.
    """
    lines = text.splitlines()
    longest = max((len(line) for line in lines), default=0)
    out: list[str] = []
    for line in lines:
        previous = out[-1] if out else ""
        prose = line and not line[0].isspace() and "   " not in line
        if prose and previous and not previous[0].isspace() and "   " not in previous and len(previous) >= longest - 20:
            out[-1] = f"{previous} {line}"
        else:
            out.append(line)
    return out


def _hanging_indent(line: str) -> int:
    """Where a wrapped ``line`` continues: its second column if it has columns, else its indent."""
    gap = re.search(r"\S( {2,})(?=\S)", line)
    return gap.end() if gap else len(line) - len(line.lstrip(" "))


def _leaves(error: BaseException) -> list[BaseException]:
    if isinstance(error, BaseExceptionGroup):
        return [leaf for inner in error.exceptions for leaf in _leaves(inner)]
    return [error]


def _setup_failure(error: BaseException) -> str | None:
    """The reason to print when ``error`` from setup is an expected failure (OSError), else None."""
    leaves = _leaves(error)
    if leaves and all(isinstance(leaf, OSError) for leaf in leaves):
        return "; ".join(dict.fromkeys(str(leaf) or type(leaf).__name__ for leaf in leaves))
    return None


def _only_exception(group: BaseExceptionGroup) -> BaseException:
    """The single exception a group wraps (what the caller of setup raised), else the group."""
    leaves = _leaves(group)
    return leaves[0] if len(leaves) == 1 else group
