"""The terminal game: a full-screen prompt_toolkit application with trio running inside it as a guest.

There is one thread. asyncio runs prompt_toolkit; trio runs as a *guest* of the same event loop
(:func:`trio.lowlevel.start_guest_run`), so trio tasks and prompt_toolkit callbacks take turns and
never run at the same time. Who owns what:

* trio tasks own the game (:class:`TerminalGame`). They run the caller's ``setup``, read the node's
  events, and call ``act``, ``chat`` and ``leave``. What they change is plain attributes, which
  the screen reads when it draws; after every change they ask the screen to redraw.
* prompt_toolkit callbacks (:class:`~p2pgames.tui._screen.Screen`: keys, the input line) never touch
  the node: they hand what the player did to trio through a memory channel
  (``TrioToken.run_sync_soon`` puts it in from outside trio), and change only presentation on
  their own (scrolling, which view is shown).

trio starts first and runs the caller's ``setup`` (hosting, or connecting to the host and being
seated) with no screen: a table that can't be set up is one line on stderr. The application opens
once setup has returned, and ends when trio's main task returns (the player left); if the
application stops first (it crashed), trio is cancelled and waited for, so neither outlives the other.
"""

from __future__ import annotations

import asyncio
import math
import os
import re
import sys
import time
from typing import Any, Awaitable, Callable, Sequence

import trio
from prompt_toolkit.application import Application
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

from p2pgames.engine import ChoiceGroup, Composer, IllegalAction, MalformedAction, normalize_typed
from p2pgames.invocation import command
from p2pgames.net import JoinCode, Node, SetupError, kept_seat_note
from p2pgames.session import (
    HOST_SEAT,
    AgainAgreed,
    AgainAsked,
    AgainDeclined,
    AdjournAsked,
    AdjournDeclined,
    Adjourned,
    AwayTooLong,
    ChatReceived,
    Decision,
    DecisionNeeded,
    DesyncReport,
    GameEnded,
    GameStarted,
    Halted,
    LobbyChanged,
    LocalError,
    Logged,
    NotAMove,
    Notice,
    OpenSeatAsked,
    HostChanged,
    TakeOverAgreed,
    Rejected,
    SeatAway,
    SeatBack,
    SeatOpened,
    SessionEvent,
)
from p2pgames.tui._commands import (
    Adjourn,
    BadNumber,
    Chat,
    EndGame,
    ClaimForfeit,
    Help,
    Move,
    NewCode,
    OpenSeat,
    PickGroup,
    Quit,
    ShowLog,
    ShowTable,
    Unknown,
    choice_texts,
    interpret,
    menu_lines,
)
from p2pgames.tui._clocks import ThinkingClocks
from p2pgames.tui._exceptions import leaves_of, only_exception
from p2pgames.tui._screen import Screen, View, secret_note
from p2pgames.tui._state import Answer, Dismiss, Interrupt, Mode, PlayAgain, PlayerInput, Question, Typed
from p2pgames.tui._text import Line, duration
from p2pgames.words import joined, sentence_start, spelled_duration
from p2pgames.tui._theme import color_wanted

__all__ = ["run_terminal_game", "TerminalGame", "Setup"]

Setup = Callable[[trio.Nursery, Callable[[str], None]], Awaitable[Node]]

# How long leaving after the game waits for every peer to confirm the final state, so that every
# transcript ends agreed; a person pressing a key shouldn't wait longer than this.
FINAL_AGREEMENT_WAIT = 5.0
MAX_LOG_LINES = 5000
# While a seat is away or a thinking clock runs, the screen is redrawn this often: the status
# line counts the time away, the title bar the clocks.
REDRAW = 1.0


def run_terminal_game(
    setup: Setup,
    *,
    title: str,
    color: bool = True,
    input: Input | None = None,
    output: Output | None = None,
    on_screen: Callable[[Application], None] | None = None,
    alerts: bool = True,
    next_game: Callable[[AgainAgreed, Node], Setup] | None = None,
) -> int:
    """Play one game in the terminal, full screen, until the player leaves; return an exit code.

    With ``next_game``, the table may play again (§B20: ``a`` at the end, or another game): once
    everyone still there agreed, ``next_game(plan, node)`` gives the next game's ``setup`` (the
    host's new table where it listened, a joiner's dial to it) and that game is played in turn,
    until one ends without a next.

    ``setup(nursery, say)`` starts whatever the table needs in ``nursery`` (a host's listeners, a
    joiner's connection, bot peers) and returns the local player's :class:`~p2pgames.net.Node`;
    ``say(text)`` tells the player something (a join code, "connecting to …"): on stderr while
    setup runs, and in the game's log. The full screen opens only once setup has returned, so a
    table that can't be set up is one line on stderr and no screen at all. Ctrl-C during setup
    raises :class:`KeyboardInterrupt` once everything setup started has stopped. Everything
    started in ``nursery`` is cancelled when the player leaves.

    Returns 0 when the player leaves (after the game, or by quitting it), 1 when the game stopped
    on a fault or setup was refused (:class:`~p2pgames.net.SetupError` that is not a network
    problem: the host refused us, or has another key than the join code's), and 3 (the command
    line's code for network problems) when setup failed on the network (a ``SetupError`` that is
    one, or an :class:`OSError`). Once the screen is closed, how it ended stays in the terminal:
    the result or the reason it stopped, and where the transcript is and how to check it (stdout
    after a game that ended normally, stderr otherwise). Any other exception from ``setup`` or the
    node is re-raised, also after the screen is closed.

    ``color=False`` (or a non-empty ``NO_COLOR`` environment variable) draws in monochrome.
    ``input`` and ``output`` replace the terminal (tests pass a pipe input and a dummy output);
    ``on_screen(application)`` is called in trio once the screen shows (tests watch it).
    ``alerts``: when it becomes the player's move after others have played, ring the bell and,
    where the terminal shows one, raise a desktop notification (``--no-alerts`` turns both off).
    Call it from synchronous code: it runs its own asyncio event loop.
    """
    while True:
        game = TerminalGame(
            setup, title=title, color=color_wanted(color), input=input, output=output, on_screen=on_screen,
            alerts=alerts, again=next_game is not None,
        )
        code = asyncio.run(game.run())
        # The full screen is gone now: leave the outcome in the terminal's scrollback.
        if game.failure is not None:
            print(game.failure, file=sys.stderr)
        else:
            stream = sys.stdout if code == 0 else sys.stderr
            for line in game.farewell():
                print(line, file=stream)
        if game.again_plan is None or next_game is None or game.node is None:
            return code
        setup = next_game(game.again_plan, game.node)


SETUP_FAILED = 3  # the exit code of a network problem, as the command line's EXIT_NETWORK
SETUP_REFUSED = 1  # the host said no: the command line's EXIT_FAILED


class TerminalGame:
    """The player's side of one game, on a :class:`Screen`; see the module docstring for who owns what.

    The attributes are what the screen shows: :attr:`mode`, :attr:`node`, :attr:`decision` (the
    local seat's, if any), :attr:`asking` (the question the bottom row asks, if any), :attr:`lobby`,
    :attr:`said` (lines from setup), :attr:`verdict` (how the game ended), :attr:`log_lines`;
    :attr:`generation` counts changes, for caches. :attr:`overdue` holds the seats away for longer
    than the grace period (the node said so with :class:`AwayTooLong`; they may be ended for).
    """

    def __init__(
        self,
        setup: Setup,
        *,
        title: str,
        color: bool = True,
        input: Input | None = None,
        output: Output | None = None,
        on_screen: Callable[[Application], None] | None = None,
        alerts: bool = True,
        again: bool = False,
    ) -> None:
        self.setup = setup
        # Whether the table may play again at the end (§B20), and the plan once all agreed.
        self.may_play_again = again
        self.again_plan: AgainAgreed | None = None
        self.title = title
        self.alerts = alerts
        self.clocks = ThinkingClocks()
        self.clock: Callable[[], float] = time.monotonic  # the clocks' time (tests set their own)
        # A table's move time: the decision being timed, as (its key, trio's time it runs out),
        # and an event set whenever that changes (see _keep_the_move_time).
        self._timed_decision: tuple[tuple[int, int], float] | None = None
        self._timing_changed = trio.Event()
        self._stand_in: Any = None  # the bot that moves for the player whose time ran out
        self.on_screen = on_screen
        self.node: Node | None = None
        self.mode = Mode.CONNECTING
        self.asking: Question | None = None
        self.overdue: set[int] = set()
        self.decision: Decision | None = None
        # Building the decision's action part by part on this peer (its Composer), while it lasts.
        self.composing: Composer | None = None
        # A line of the list the player picked by its number: the list shows its parts meanwhile.
        self.narrowed: ChoiceGroup | None = None
        self._narrowed_for: Decision | None = None
        self.lobby: LobbyChanged | None = None
        self.said: list[str] = []
        self.verdict = ""
        self.log_lines: list[Line] = []
        self.generation = 0
        self.exit_code = 0
        self.failure: str | None = None  # why setup failed, for stderr
        self._token: trio.lowlevel.TrioToken | None = None
        self._input_send: trio.MemorySendChannel[PlayerInput] | None = None
        self._left = trio.Event()
        self._counting = trio.Event()  # set while a time counts on screen (see _redraw_every_second)
        self._main_scope = trio.CancelScope()
        self._abandoned = False
        self._open_candidate: int | None = None  # the seat Question.OPEN asks about
        self._handed_over = False  # we left handing our seat to a bot
        self._nursery: trio.Nursery | None = None
        self.left_from: Mode | None = None  # where the player left from, if before the end
        self.screen_open = False
        self._set_up = asyncio.Event()  # set by trio when setup returned: the screen may open
        self.screen = Screen(self, self._send, color=color, input=input, output=output)

    # -- running -------------------------------------------------------------------------------

    async def run(self) -> int:
        """Run trio, and the application once setup is done, until the player leaves; the exit code."""
        loop = asyncio.get_running_loop()
        app = self.screen.app
        trio_done: asyncio.Future[Any] = loop.create_future()

        def trio_finished(outcome: Any) -> None:
            trio_done.set_result(outcome)
            if app.is_running and not app.is_done:
                app.exit()

        def screen_shown() -> None:
            self.screen_open = True
            if self._token is not None:
                try:
                    self._token.run_sync_soon(self._screen_shown)
                except trio.RunFinishedError:
                    pass

        # trio runs first, without prompt_toolkit: asyncio took SIGINT (Ctrl-C cancels this
        # task), so trio leaves signals alone; the application takes them over when it starts.
        trio.lowlevel.start_guest_run(
            self._trio_main,
            run_sync_soon_threadsafe=loop.call_soon_threadsafe,
            run_sync_soon_not_threadsafe=loop.call_soon,
            done_callback=trio_finished,
            host_uses_signal_set_wakeup_fd=True,
        )
        try:
            set_up = asyncio.ensure_future(self._set_up.wait())
            try:
                await asyncio.wait({set_up, trio_done}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                set_up.cancel()
            if not trio_done.done():
                await app.run_async(pre_run=screen_shown)
        finally:
            if not trio_done.done():
                self._cancel_trio()
                await asyncio.shield(trio_done)
        outcome = trio_done.result()
        try:
            outcome.unwrap()
        except BaseExceptionGroup as group:
            raise only_exception(group) from None
        return self.exit_code

    def _screen_shown(self) -> None:
        # Runs in trio's system context, where raising would crash the run: the work is a task's.
        if self._nursery is not None:
            try:
                self._nursery.start_soon(self._screen_is_shown)
            except RuntimeError:
                pass  # the nursery is closing (a task crashed, or the player left): nothing to show

    async def _screen_is_shown(self) -> None:
        self._changed()  # what changed while the screen opened, and where the keys go
        if self.on_screen is not None:
            self.on_screen(self.screen.app)

    def _cancel_trio(self) -> None:
        """From outside trio: end trio's main task, whether or not it has started yet."""
        self._abandoned = True
        if self._token is not None:
            try:
                self._token.run_sync_soon(self._main_scope.cancel)
            except trio.RunFinishedError:
                pass

    async def _trio_main(self) -> None:
        if self._abandoned:
            return  # the application stopped before trio's first step
        self._token = trio.lowlevel.current_trio_token()
        self._input_send, input_receive = trio.open_memory_channel[PlayerInput](math.inf)
        with self._main_scope:
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                nursery.start_soon(self._read_input, input_receive)
                nursery.start_soon(self._redraw_every_second)
                nursery.start_soon(self._keep_the_move_time)
                nursery.start_soon(self._start_table, nursery)
                await self._left.wait()
                nursery.cancel_scope.cancel()

    async def _start_table(self, nursery: trio.Nursery) -> None:
        """Run setup (the player may leave meanwhile), then show the node's events until it stops."""
        try:
            node = await self.setup(nursery, self.say)
        except Exception as error:
            failed = _setup_failed(error)
            if failed is None:
                raise
            self.failure, self.exit_code = failed
            self._left.set()
            return
        self.node = node
        if self.mode is Mode.CONNECTING:
            self.mode = Mode.LOBBY
        self._set_up.set()  # the screen may open
        self._changed()
        async for event in node.events:
            self._on_event(event)
            self._changed()
        if self.mode in (Mode.LOBBY, Mode.PLAYING):
            self._stop("The connection to the table closed.")
            self._changed()

    def say(self, text: str) -> None:
        """Put ``text`` in the log (and, before the game, on the lobby screen); until the screen
        opens, on stderr too, where the player is watching."""
        if not self.screen_open:
            print(text, file=sys.stderr, flush=True)
        self.said.append(text)
        self._log([("class:log.say", text)])
        self._changed()

    def farewell(self) -> list[str]:
        """What to leave in the terminal once the screen is closed: how the game ended (or that
        the player left it), and where the transcript is and how to check it."""
        lines = []
        if self.verdict:
            lines.append(self.verdict)
        elif self.left_from is Mode.PLAYING and self._handed_over:
            lines.append("You left the game; a bot plays your seat, your cards shown to everyone, and the others play on.")
        elif self.left_from is Mode.PLAYING and self.node is not None and self.node.session.seat_kept:
            lines.append(kept_seat_note())  # nobody could be told: the game goes on without us
        elif self.left_from is Mode.PLAYING:
            lines.append("You left the game. The other players were told; the game has stopped for them too.")
        elif self.left_from is Mode.LOBBY:
            lines.append("You left the table before the game began.")
        path = self.node.transcript_path if self.node is not None else None
        if path is not None and path.exists():
            lines.append(f"Your transcript of the game: {path}")
            lines.append(f"Check it at any time: {command('verify', str(path))}")
        return lines

    # -- from the screen to trio -----------------------------------------------------------------

    def _send(self, item: PlayerInput) -> None:
        """Called by the screen, outside trio: queue ``item`` for trio's input task."""
        if self._token is None:  # pragma: no cover - the screen opens after trio started
            return
        try:
            self._token.run_sync_soon(self._deliver, item)
        except trio.RunFinishedError:
            pass

    def _deliver(self, item: PlayerInput) -> None:
        # Runs in trio's system context, where raising would crash the run.
        try:
            self._input_send.send_nowait(item)  # type: ignore[union-attr]
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            pass

    async def _read_input(self, receive: trio.MemoryReceiveChannel[PlayerInput]) -> None:
        async for item in receive:
            self._on_input(item)
            self._changed()

    def _on_input(self, item: PlayerInput) -> None:
        """What the player did, in trio."""
        if isinstance(item, Typed):
            self._on_typed(item.text)
        elif isinstance(item, Interrupt):
            self._on_interrupt()
        elif isinstance(item, Answer):
            question, self.asking = self.asking, None
            if item.bot and question is Question.LEAVE and self.can_hand_over():
                self._hand_over()
            elif item.yes and question is Question.LEAVE:
                self._leave()
            elif item.yes and question is Question.END:
                self._end_game()
            elif item.yes and question is Question.OPEN and self._open_candidate is not None:
                self._open_seat(self._open_candidate)
            elif item.yes and question is Question.FORFEIT:
                self._claim_forfeit()
            elif item.adjourn and question is Question.LEAVE and self.can_adjourn_alone():
                self._adjourn(True)
            elif question is Question.ADJOURN and not item.bot and not item.adjourn:
                self._adjourn(item.yes)
            elif question is Question.AGAIN:
                self._play_again() if item.yes else self._leave()
        elif isinstance(item, Dismiss):
            if self.mode in (Mode.OVER, Mode.STOPPED):
                self._leave()
        elif isinstance(item, PlayAgain):
            if self.mode is Mode.OVER and self.may_play_again:
                self._play_again(item.game)

    # -- the game's events -----------------------------------------------------------------------

    def _on_event(self, event: SessionEvent) -> None:
        session = self.node.session if self.node is not None else None
        if isinstance(event, Logged):
            for text in event.lines:
                self._log([("", text)])
            for text in event.private:  # for this player's eyes: marked as about them
                self._log([("class:log.you", text)])
        elif isinstance(event, ChatReceived):
            own = session is not None and event.seat == (
                session.seat if session.stage != "lobby" else self.lobby.you if self.lobby is not None else None
            )
            name_style = "class:log.chat-name.you" if own else "class:log.chat-name"
            self._log([(name_style, f"{event.name}:"), ("", f" {event.text}")])
        elif isinstance(event, LobbyChanged):
            self._on_lobby(event)
        elif isinstance(event, GameStarted):
            self.mode = Mode.PLAYING
            self._log([("class:log.info", event.text(session.game if session is not None else None))])
        elif isinstance(event, GameEnded):
            self._note_clocks()
            self.verdict = f"Game over: {event.message}"
            self._log([("class:log.end", self.verdict)])
            if self.mode is not Mode.LEAVING:
                self.mode = Mode.OVER
        elif isinstance(event, Halted):
            self._log([("class:log.fault", event.message)])
            if self.mode is not Mode.LEAVING:
                self._stop(event.message)
        elif isinstance(event, Rejected):
            message = f"You are not at the table any more: {event.reason}."
            self._log([("class:log.fault", message)])
            if self.mode is not Mode.LEAVING:
                self._stop(message)
        elif isinstance(event, Notice):
            self._log([("class:log.notice", event.text)])
        elif isinstance(event, DesyncReport):
            where = self.node.desync_report if self.node is not None else None
            text = "The peers disagree about the state of the game"
            self._log([("class:log.notice", f"{text}; the report is saved in {where}" if where else text)])
        elif isinstance(event, (SeatAway, SeatBack, AwayTooLong)):
            self._on_away(event)
        elif isinstance(event, SeatOpened):
            self.overdue.discard(event.seat)
            if self.asking in (Question.END, Question.OPEN, Question.FORFEIT) and not self._overdue_away():
                self.asking = None  # nobody left to ask about
            self._log([("class:log.notice", event.text)])
        elif isinstance(event, (HostChanged, TakeOverAgreed)):
            self._log([("class:log.notice", event.text)])
        elif isinstance(event, DecisionNeeded):
            if event.after_others and self.alerts and self.mode is Mode.PLAYING:
                game = session.game if session is not None else None  # (the window's title may say "joining")
                self.screen.alert(f"Your move in {game.title if game is not None else self.title}")
        elif isinstance(event, AgainAsked):
            self._log([("class:log.ask", f"{event.text} y plays it, n leaves")])
            if self.may_play_again and self.asking is None:
                self.asking = Question.AGAIN
        elif isinstance(event, AgainDeclined):
            self._log([("class:log.notice", event.text)])
        elif isinstance(event, AgainAgreed):
            self.again_plan = event
            self._log([("class:log.end", event.text)])
            self.asking = None
            if self.node is not None and self._nursery is not None:
                # Once this game's table is closed (what we pass on is out), the next is set up.
                self._nursery.start_soon(self._leave_when_handed_over, self.node)
        elif isinstance(event, AdjournAsked):
            self._log([("class:log.ask", f"{event.text} Agree? (y agrees, n plays on)")])
            if self.mode is Mode.PLAYING and self.asking is None:
                self.asking = Question.ADJOURN
        elif isinstance(event, AdjournDeclined):
            self._log([("class:log.notice", event.text)])
            if self.asking is Question.ADJOURN:
                self.asking = None
        elif isinstance(event, Adjourned):
            self._note_clocks()
            self.verdict = event.text
            self._log([("class:log.end", event.text)])
            self.asking = None
            self._leave()  # (our seat is kept: the node stops without a goodbye)
        elif isinstance(event, OpenSeatAsked):
            agreed = session is not None and session.replica is not None and (
                session.seat in session.replica.open_consents.get(event.seat, ())
            )
            hint = "" if agreed else f" Type bot {event.name} to agree too."
            self._log([("class:log.ask", f"{event.text}{hint}")])

    def _on_away(self, event: SeatAway | SeatBack | AwayTooLong) -> None:
        """A seat's connection was lost, it is back, or it has been away past the grace period
        (then the player may end the game: ``abandon``)."""
        session = self.node.session if self.node is not None else None
        if isinstance(event, SeatAway):
            self._log([("class:log.notice", event.text)])
        elif isinstance(event, SeatBack):
            self.overdue.discard(event.seat)
            if self.asking in (Question.END, Question.FORFEIT) and not self._overdue_away():
                self.asking = None  # nobody left to end the game for
            self._log([("class:log.info", event.text)])
        elif session is not None and event.seat in session.away:  # else it came back meanwhile
            self.overdue.add(event.seat)
            if event.can_open:
                forfeit = ", forfeit to win the game by forfeit" if event.can_forfeit else ""
                offer = (
                    f"Type bot to play on with a bot in {event.name}'s seat (its cards shown to everyone, once"
                    f" every player agrees){forfeit}, abandon to end the game for everyone (every transcript will"
                    " say why), or keep waiting."
                )
            elif event.can_forfeit:
                why = f" (a bot can't take their seat now: {event.why_not})" if event.why_not else ""
                offer = (f"Type forfeit to win the game by forfeit{why}, abandon to end it without a winner (every"
                         " transcript will say why), or keep waiting.")
            else:
                why = f" (a bot can't take their seat now: {event.why_not})" if event.why_not else ""
                offer = f"Type abandon to end the game for everyone (every transcript will say why), or keep waiting{why}."
            self._log([("class:log.ask", f"{event.text}. {offer}")])

    def _on_lobby(self, event: LobbyChanged) -> None:
        before = [name for name, _ in self.lobby.players] if self.lobby is not None else []
        for seat, (name, bot) in enumerate(event.players):
            if name not in before and seat != event.you:
                note = self.node.bot_note(seat, bot, name) if self.node is not None else None
                self._log([("class:log.info", f"{name} took seat {seat}{f' ({note})' if note else ''}.")])
        now = [name for name, _ in event.players]
        for name in before:
            if name not in now:
                self._log([("class:log.info", f"{name} left the table.")])
        self.lobby = event

    def _stop(self, message: str) -> None:
        self.mode = Mode.STOPPED
        self.verdict = message
        self.exit_code = 1
        self.asking = None

    # -- the player's input ----------------------------------------------------------------------

    def _on_typed(self, text: str) -> None:
        if not self.mode.typing:
            return  # typed just as the game ended; the screen now asks for a key instead
        self.asking = None
        self._refresh_decision()
        decision = self.decision
        if self.composing is not None and decision is not None:
            self._compose(decision, self.composing, text)
            return
        if decision is None:
            command = interpret(text, None)
        else:
            command = interpret(text, choice_texts(decision), [line.members for line in self.lines])
        if command is None:
            self.narrowed = None  # an empty line: back to all the choices
            return
        if self._on_command(command, decision):
            return
        if isinstance(command, Move):
            if command.index < len(decision.texts):  # type: ignore[union-attr]
                self._move(decision, command.index)  # type: ignore[arg-type]
            else:
                self._stand(decision)  # type: ignore[arg-type]
        elif isinstance(command, PickGroup):
            self._narrow(self.lines[command.index])
        elif isinstance(command, Unknown):
            self._unknown(decision, command)

    def _on_command(self, command: Any, decision: Decision | None) -> bool:
        """The commands that are no move (help, log, table, quit, abandon, say, a bad number); whether
        ``command`` was one."""
        if isinstance(command, Help):
            self.screen.show(View.HELP)
        elif isinstance(command, ShowLog):
            self.screen.show(View.LOG)
        elif isinstance(command, ShowTable):
            self.screen.show(View.TABLE)
        elif isinstance(command, Quit):
            self._on_interrupt()
        elif isinstance(command, EndGame):
            self._ask_to_end()
        elif isinstance(command, ClaimForfeit):
            self._ask_to_claim_forfeit()
        elif isinstance(command, Adjourn):
            self._adjourn(True)
        elif isinstance(command, OpenSeat):
            self._ask_to_open(command.name)
        elif isinstance(command, NewCode):
            self._redirect(command.text)
        elif isinstance(command, Chat):
            self._chat(command.text)
        elif isinstance(command, BadNumber):
            if command.count == 0:
                hint = "you have nothing to choose right now"
            else:
                hint = f"pick a number from 1 to {command.count}"
            self._problem(f"There is no choice {command.number}: {hint}.")
        else:
            return False
        return True

    def _compose(self, decision: Decision, composer: Composer, text: str) -> None:
        """A line typed while building the decision's action with its composer: one of the
        composer's commands (or its number), or the usual commands (help, say, quit …)."""
        commands = tuple(composer.commands())
        command = interpret(text, commands)
        if command is None:
            return
        if isinstance(command, Move):
            text = commands[command.index]
        elif not isinstance(command, Unknown):
            self._on_command(command, decision)
            return
        elif self._explained(text):  # "tile NAME" while choosing tiles, say
            return
        try:
            composer = composer.apply(text)
        except IllegalAction as error:
            self._problem(_refused(text, error.reason))
            return
        except MalformedAction as error:
            suggestions = command.suggestions if isinstance(command, Unknown) else ()
            self._problem(self._unknown_message(Unknown(text, suggestions), str(error)))
            return
        self.composing = composer
        self._log([("class:log.you", f"› {text}")])
        action = composer.action()
        if action is not None:
            self._make(decision, action, self._describe(action))

    def _describe(self, action: Any) -> str:
        session = self.node.session  # type: ignore[union-attr]
        state = session.replica.state  # type: ignore[union-attr]
        return session.presentation.describe_action(state, session.seat, action, session.knowledge, session.names)  # type: ignore[union-attr, arg-type]

    def _move(self, decision: Decision, index: int) -> None:
        self._make(decision, decision.actions[index], decision.texts[index])

    def _make(self, decision: Decision, action: Any, text: str) -> None:
        assert self.node is not None
        try:
            self.node.act(action)
        except LocalError as error:
            self._problem(_refused(text, str(error)))
            return
        secret = secret_note(decision) if decision.simultaneous else ""
        self._log([("class:log.you", f"› {text}{secret}")])

    def _stand(self, decision: Decision) -> None:
        """The decision's standing answer: given now, and by this peer from now on."""
        assert self.node is not None and decision.standing is not None
        label = decision.standing.label
        try:
            self.node.stand_by(decision.standing)
        except LocalError as error:
            self._problem(_refused(label, str(error)))
            return
        self._log([("class:log.you", f"› {label} (answered for you from now on; only you know)")])

    def _unknown(self, decision: Decision | None, command: Unknown) -> None:
        """Not a choice on the list nor a command: the game may still read it as a move, to make
        (typed another way) or to refuse with its reason; else say what it resembles."""
        if self._explained(command.text):
            return
        reason = None
        if decision is not None and self.node is not None:
            try:
                action = self.node.session.parse_move(command.text)
            except NotAMove as error:
                reason = str(error)
            except LocalError as error:
                self._problem(_refused(command.text, str(error)))
                return
            else:
                if action in decision.actions:
                    self._move(decision, decision.actions.index(action))
                    return
                if action is not None:
                    self._make(decision, action, command.text)  # refused, with check_action's reason
                    return
        self._problem(self._unknown_message(command, reason))

    def _explained(self, text: str) -> bool:
        """Whether ``text`` is one of the game's information commands (``tile NAME``): then its
        answer goes in the log."""
        session = self.node.session if self.node is not None else None
        if session is None or session.presentation is None or session.replica is None:
            return False
        answer = session.presentation.explain(session.replica.state, session.seat, text, session.names)
        if answer is None:
            return False
        for line in answer:
            self._log([("class:log.info", line)])
        return True

    def _narrow(self, group: ChoiceGroup) -> None:
        """A numbered line standing for several choices: the list shows its parts, numbered in
        turn (the input line stays the player's: a number typed next picks from that list)."""
        self.narrowed, self._narrowed_for = group, self.decision

    def _chat(self, text: str) -> None:
        if not text.strip():
            self._problem("Type say and then your message, for example: say good luck")
        elif self.node is not None:
            try:
                self.node.chat(text)
            except LocalError as error:
                self._problem(_sentence(str(error), self._names()))

    def _unknown_message(self, command: Unknown, reason: str | None = None) -> str:
        typed = f"“{command.text}”"
        if command.text.startswith("/"):
            return f"{typed} is not a command. To chat, type say and your message; help shows the commands."
        if self.decision is not None:
            message = f"{typed} is not one of your choices" + (f": {_clause(reason)}" if reason else ".")
            if command.suggestions and not _names_one(reason, command.suggestions):
                message += f" Did you mean {joined(command.suggestions, conjunction='or')}?"
            return message + " Tab lists your choices; help shows the commands."
        if self.mode is Mode.PLAYING and self.node is not None:
            return (
                f"{typed} is not a command, and you have nothing to choose right now"
                f" ({self.node.session.status()}). Type help for the commands."
            )
        return f"{typed} is not a command, and the game hasn't started yet. Type help for the commands."

    def _on_interrupt(self) -> None:
        """Ctrl-C, Ctrl-D or ``quit``: leave, asking first while a game is running."""
        if self.mode is Mode.PLAYING and self.asking is not Question.LEAVE:
            self.asking = Question.LEAVE
            return
        self.asking = None
        self._leave()

    def _ask_to_end(self) -> None:
        """``abandon``: end the game for everyone because a seat is away — asking first, and only
        once a seat has been away past the grace period (:attr:`overdue`); else say why not."""
        session = self.node.session if self.node is not None else None
        if session is None or not session.away:
            self._problem("Nobody is away: abandon ends the game once a player's connection has been lost a while.")
            return
        if self._overdue_away():
            self.asking = Question.END
            return
        node = self.node
        assert node is not None
        seat = max(session.away, key=lambda seat: node.away_for(seat) or 0.0)
        name = session.names[seat] if seat < len(session.names) else f"seat {seat}"
        who = f"The host, {name}," if seat == HOST_SEAT and not session.is_host else name
        waited = node.away_for(seat)
        since = f"has been away for {duration(waited)}" if waited is not None else "is away"
        self._problem(
            f"{who} {since}: you may end the game once they have been away for"
            f" {duration(node.settings.away_grace)}; until then the game waits for them."
        )

    def _forfeit_seat(self) -> int | None:
        """The other player of a two-player table, or ``None``."""
        session = self.node.session if self.node is not None else None
        if session is None or session.seat is None or len(session.seats) != 2:
            return None
        return 1 - session.seat

    def _ask_to_claim_forfeit(self) -> None:
        """``forfeit``: win the game because the other player has gone — asking first, and only
        once they have been away past the grace period; else say why not."""
        session, seat = self.node.session if self.node is not None else None, self._forfeit_seat()
        if session is None or seat is None:
            self._problem("There is no two-player game going on: forfeit wins one whose other player has gone.")
            return
        problem = session.forfeit_problem(seat)
        if problem is None and seat not in self.overdue:
            node = self.node
            assert node is not None
            waited = node.away_for(seat)
            since = f"has been away for {duration(waited)}" if waited is not None else "is away"
            problem = (f"{session.names[seat]} {since}: you may claim the game by forfeit once they have been away"
                       f" for {duration(node.settings.away_grace)}; until then the game waits for them")
        if problem is not None:
            self._problem(_sentence(problem, self._names()))
            return
        self.asking = Question.FORFEIT

    def _claim_forfeit(self) -> None:
        """The player said yes to claiming the game by forfeit."""
        seat = self._forfeit_seat()
        if self.node is None or seat is None:
            return
        try:
            self.node.claim_forfeit(seat)
        except LocalError as error:
            self._problem(_sentence(str(error), self._names()))

    def _ask_to_open(self, name: str) -> None:
        """``bot [NAME]``: play on with a bot in the seat of a player away past the grace period
        (the one away longest, or NAME's) — asking first; else say why not."""
        session = self.node.session if self.node is not None else None
        node = self.node
        if session is None or node is None or session.replica is None:
            self._problem("There is no game going on.")
            return
        overdue = self._overdue_away()
        if name:
            # As names are told apart at the table (HostRole._unique_name): any case, any spacing.
            wanted = normalize_typed(name)
            seats = [seat for seat, seated in enumerate(session.names) if normalize_typed(seated) == wanted]
            if not seats:
                self._problem(f"Nobody at the table is called {name}: the players are {joined(session.names)}.")
                return
            seat = seats[0]
        elif overdue:
            seat = max(overdue, key=lambda seat: node.away_for(seat) or 0.0)
        elif session.away:
            seat = max(session.away, key=lambda seat: node.away_for(seat) or 0.0)
        else:
            self._problem("Nobody is away: bot plays on in the seat of a player whose connection has been lost a while.")
            return
        who = session.names[seat]
        if seat in session.away and seat not in overdue:
            waited = node.away_for(seat)
            since = f"has been away for {duration(waited)}" if waited is not None else "is away"
            self._problem(
                f"{who} {since}: you may play on with a bot in their seat once they have been away for"
                f" {duration(node.settings.away_grace)}; until then the game waits for them."
            )
            return
        if seat in session.away:
            problem = session.play_on_problem(seat)
            if problem is not None:
                self._problem(f"{who}'s seat can't be played by a bot now: {problem}.")
                return
            self._open_candidate = seat
            self.asking = Question.OPEN
            return
        try:  # not away: the session says why not (own seat, open already, at the table)
            session.open_seat(seat)
        except LocalError as error:
            self._problem(_sentence(str(error), self._names()))

    def _open_seat(self, seat: int) -> None:
        """The player said yes to playing on with a bot in ``seat``."""
        if self.node is None:
            return
        try:
            self.node.open_seat(seat)
        except LocalError as error:
            self._problem(_sentence(str(error), self._names()))

    def _redirect(self, text: str) -> None:
        """``code NEWCODE``: the host came back at another address with the join code ``text``;
        dial it there (the node refuses a code with another key, changing nothing)."""
        if not text:
            self._problem("Type code and the host's new join code, as the host shows it: code HOST:PORT/FINGERPRINT.")
            return
        try:
            code = JoinCode.parse(text)
        except ValueError as error:
            self._problem(_sentence(str(error), self._names()))
            return
        if self.node is None:
            self._problem(f"You are not at a table yet: give the join code to {command('join')}.")
            return
        try:
            self.node.redirect(code)
        except LocalError as error:
            self._problem(_sentence(str(error), self._names()))
            return
        where = JoinCode(code.host, code.port)
        self._log([("class:log.info", f"The host is dialled at {where} from now on (its key is checked when it answers).")])

    def _end_game(self) -> None:
        """The player said yes to ending the game for everyone."""
        if self.node is None:
            return
        try:
            self.node.end_game()
        except LocalError as error:
            self._problem(_sentence(str(error), self._names()))

    def _overdue_away(self) -> set[int]:
        """The seats still away that have been away past the grace period."""
        away = self.node.session.away if self.node is not None else {}
        return self.overdue & away.keys()

    async def _redraw_every_second(self) -> None:
        """While the game is on and a seat is away (the status line counts how long) or a
        thinking clock runs (the title bar shows it), redraw every second. Nothing is redrawn
        for time otherwise."""
        while True:
            await self._counting.wait()
            while self._counting_time():
                await trio.sleep(REDRAW)
                self.screen.refresh()
            self._counting = trio.Event()  # set again by _changed once a time counts

    def _counting_time(self) -> bool:
        return self._counting_away() or (self.mode is Mode.PLAYING and bool(self.clocks.running))

    def _time_the_table(self) -> None:
        """The clocks of the seats whose decision the table awaits now run; the others stand."""
        session = self.node.session if self.node is not None else None
        deciding = self.mode is Mode.PLAYING and session is not None and session.waiting_on_decision()
        self.clocks.update(self.clock(), session.waiting_for() if deciding else ())

    def _note_clocks(self) -> None:
        """Write the thinking clocks in our transcript's notes (the last notes count)."""
        node = self.node
        if node is None or not node.session.seats:
            return
        now = self.clock()
        node.note_clocks([int(self.clocks.total(seat, now)) for seat in range(len(node.session.seats))])

    def _time_the_decision(self) -> None:
        """At a table with a move time: a new decision of ours starts its time, and one made (or
        gone) stops it."""
        session = self.node.session if self.node is not None else None
        ruleset = session.ruleset if session is not None else None
        if ruleset is None or not ruleset.move_time:
            return
        key = None
        if self.mode is Mode.PLAYING and self.decision is not None and session.replica is not None:
            key = session.decision_key()
        if key == (self._timed_decision[0] if self._timed_decision is not None else None):
            return
        self._timed_decision = None if key is None else (key, trio.current_time() + ruleset.move_time)
        self._timing_changed.set()

    async def _keep_the_move_time(self) -> None:
        """When a decision of ours has waited the table's move time, our bot makes that move
        (once: the next decision has the whole time again)."""
        while True:
            await self._timing_changed.wait()
            self._timing_changed = trio.Event()
            timed = self._timed_decision
            if timed is None:
                continue
            with trio.move_on_at(timed[1]) as waiting:
                await self._timing_changed.wait()  # made, or another one, before its time
            if waiting.cancelled_caught and self._timed_decision == timed:
                self._time_is_up()

    def _time_is_up(self) -> None:
        """Our decision waited the table's move time: our own bot makes it, and the log says so."""
        node = self.node
        assert node is not None
        session = node.session
        decision = self.decision
        if decision is None or session.game is None or session.replica is None or session.seat is None:
            return
        from p2pgames.bots import bot_for

        if self._stand_in is None:
            self._stand_in = bot_for(session.game, session.game_id or b"")
        action = self._stand_in.choose(session.game, session.replica.state, session.seat, session.knowledge, decision.step)
        limit = spelled_duration(session.ruleset.move_time)  # type: ignore[union-attr]
        self._log([("class:log.notice", f"Your {limit} for this move ran out: your bot makes it.")])
        self.composing = self.narrowed = None
        self._make(decision, action, self._describe(action))
        self._changed()

    def _counting_away(self) -> bool:
        return self.mode is Mode.PLAYING and self.node is not None and bool(self.node.session.away)

    def _play_again(self, game: str | None = None) -> None:
        """Ask to play ``game`` next at this table (None: this game, or the one asked for), or
        agree to the request under way."""
        node = self.node
        if node is None:
            return
        try:
            node.again(game)
        except LocalError as error:
            self._problem(_sentence(str(error), self._names()))
            return
        session = node.session
        if session.again_agreed is None:
            title = session.game_loader(session.again_game).title if session.again_game else ""
            self._log([("class:log.info", f"You will play {title} again at this table once everyone still here agrees.")])

    def can_adjourn_alone(self) -> bool:
        """Whether quitting may adjourn instead: every other seat playing is a bot this program
        launched (``play``), which agrees at once — the game is taken up again with resume."""
        node = self.node
        session = node.session if node is not None else None
        if session is None or session.replica is None or self.mode is not Mode.PLAYING or session.adjourn_problem() is not None:
            return False
        return all(session.seats[seat].key.raw in node.launched_bots  # type: ignore[union-attr]
                   for seat in session.replica.playing_seats if seat != session.seat)

    def _adjourn(self, agree: bool) -> None:
        """Ask to adjourn (``adjourn``, or quitting at a table of our bots), agree, or decline."""
        node = self.node
        if node is None:
            return
        asking = not node.session.adjourn_votes
        try:
            node.adjourn(agree)
        except LocalError as error:
            self._problem(_sentence(str(error), self._names()))
            return
        if agree and asking and not node.session.adjourned:
            self._log([("class:log.info", "You asked to adjourn: the game stops here once everyone agrees.")])

    def can_hand_over(self) -> bool:
        """Whether leaving may hand our seat to a bot (while the game is on; a host's only if
        another seat can host the table, §B15)."""
        session = self.node.session if self.node is not None else None
        return (session is not None and self.mode is Mode.PLAYING and session.stage == "playing"
                and (not session.is_host or session.successor() is not None))

    def _hand_over(self) -> None:
        """Leave, a bot taking our seat: it goes once it can (a card step ends first, say); the
        node stops once it is in the log, and so do we."""
        node = self.node
        assert node is not None
        try:
            node.hand_over()
        except LocalError as error:
            self._problem(_sentence(str(error), self._names()))
            return
        self.left_from = self.mode
        self.mode = Mode.LEAVING
        self._handed_over = True
        self._log([("class:log.info", "Handing your seat to a bot as soon as it can be; then you leave.")])
        waiting = node.session.hand_over_waits_for()
        if waiting is not None:
            self._log([("class:log.info", f"It waits: {_sentence(waiting, self._names())} A bot makes your moves meanwhile.")])
        self._nursery.start_soon(self._leave_when_handed_over, node)  # type: ignore[union-attr]

    async def _leave_when_handed_over(self, node: Node) -> None:
        await node.finished.wait()
        self._left.set()

    def _leave(self) -> None:
        if self.mode in (Mode.CONNECTING, Mode.LOBBY, Mode.PLAYING):
            self.left_from = self.mode
        if self.mode is Mode.LEAVING or self.node is None:
            self._left.set()  # asked twice, or nobody to tell: go now
            return
        self.mode = Mode.LEAVING
        self._nursery.start_soon(self._say_goodbye, self.node)  # type: ignore[union-attr]

    async def _say_goodbye(self, node: Node) -> None:
        """Tell the other peers we are going, let the node close its connections, then end."""
        if not node.finished.is_set():
            if node.session.stage == "over":
                with trio.move_on_after(FINAL_AGREEMENT_WAIT):
                    await node.final_agreement.wait()
                if node.session.again_game is not None:
                    node.decline_again()  # (a request under way needn't wait for us)
                node.leave("game over")
            else:
                if node.session.stage == "playing":
                    self._note_clocks()  # how long each had thought, up to here
                node.leave("quit")
            self._changed()
            await node.finished.wait()
        self._left.set()

    # -- bookkeeping -------------------------------------------------------------------------------

    def _problem(self, text: str) -> None:
        self._log([("class:log.problem", text)])

    def _names(self) -> Sequence[str]:
        """The players' names at this table, as they typed them (none before the table is known)."""
        return self.node.session.names if self.node is not None else ()

    def _log(self, line: Line) -> None:
        self.log_lines.append(line)
        if len(self.log_lines) > MAX_LOG_LINES:
            del self.log_lines[: len(self.log_lines) - MAX_LOG_LINES]
        self.screen.log_appended(line)

    def _refresh_decision(self) -> None:
        node = self.node
        before = self.decision
        self.decision = node.session.decision() if node is not None and self.mode is Mode.PLAYING else None
        if self.decision != self._narrowed_for:
            self.narrowed = None  # a new decision lists all its choices again
        if self.decision is None or self.decision.composer is None:
            self.composing = None
        elif self.composing is None or before is None or before.step != self.decision.step:
            self.composing = self.decision.composer  # a new decision to compose: start afresh

    @property
    def offered(self) -> Decision | None:
        """What the list of choices shows: the decision, or while composing the composer's
        commands (as a decision whose texts they are)."""
        decision, composing = self.decision, self.composing
        if decision is None or composing is None:
            return decision
        commands = tuple(composing.commands())
        return Decision(decision.step, tuple(range(len(commands))), commands, decision.simultaneous, (), decision.warnings)

    @property
    def lines(self) -> list[ChoiceGroup]:
        """The numbered list shown now (see :func:`~p2pgames.tui._commands.menu_lines`)."""
        offered = self.offered
        return menu_lines(offered, self.narrowed if self.composing is None else None) if offered is not None else []

    def _changed(self) -> None:
        """After anything changed: recompute what is derived from the session, and redraw."""
        self.generation += 1
        self._refresh_decision()
        self._time_the_table()
        self._time_the_decision()
        if self._counting_time():
            self._counting.set()
        self.screen.refresh()


def _names_one(reason: str | None, moves: tuple[str, ...]) -> bool:
    """Whether ``reason`` already says which move was meant (``… bid -3, not bid 3``): then the
    lookalikes of what was typed are left out."""
    return reason is not None and any(re.search(rf"(?<![\w-]){re.escape(move)}(?![\w-])", reason) for move in moves)


def _refused(command: str, reason: str) -> str:
    """Why a typed ``command`` (a move, a standing answer, or a composer's command) can't be done,
    in the same words for every command: ``“add Hull” isn't possible now: …``, ``“done” isn't possible now: a
    submarine has 10 compartments, not 1.``"""
    return f"“{command}” isn't possible now: {_clause(reason)}"


def _clause(text: str) -> str:
    """``text`` to end a sentence with: as it is, with a full stop."""
    text = text.strip()
    return text + ("" if text.endswith((".", "!", "?")) else ".")


def _sentence(text: str, names: Sequence[str] = ()) -> str:
    """``text`` as a sentence: capitalised (unless it opens with one of ``names``) and ended."""
    text = sentence_start(text.strip(), names)
    return text + ("" if text.endswith((".", "!", "?")) else ".")


def _setup_failed(error: BaseException) -> tuple[str, int] | None:
    """What to print, and the exit code, when ``error`` from setup is an expected failure: a
    :class:`SetupError` (its message says all), or :class:`OSError` (a network problem, in the
    system's words); None for anything else (a bug, raised as it is)."""
    leaves = leaves_of(error)
    if len(leaves) == 1 and isinstance(leaves[0], SetupError):
        return f"p2pgames: {leaves[0]}", SETUP_FAILED if leaves[0].network else SETUP_REFUSED
    if not leaves or not all(isinstance(leaf, OSError) for leaf in leaves):
        return None
    reason = "; ".join(dict.fromkeys(_describe_os_error(leaf) for leaf in leaves))  # type: ignore[arg-type]
    return f"p2pgames: could not start the game: {reason}", SETUP_FAILED


def _describe_os_error(error: OSError) -> str:
    """``error`` in words, with the system's reason when it wraps one (trio's "all attempts to
    connect … failed" keeps the refusals in its cause)."""
    text = error.strerror or str(error) or type(error).__name__
    cause = error.__cause__
    if cause is not None and not error.strerror:
        leaves = leaves_of(cause)
        reasons = [os.strerror(leaf.errno) for leaf in leaves if isinstance(leaf, OSError) and leaf.errno]
        if reasons:
            text += f" ({', '.join(dict.fromkeys(reasons))})"
    return text
