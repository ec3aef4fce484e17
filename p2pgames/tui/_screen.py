"""The screen: what the player sees of a :class:`~p2pgames.tui._app.TerminalGame` (a
:class:`ShownGame`), and their keys.

Rows, top to bottom::

    title bar     the game, your name and seat
    status bar    what the table is doing or waiting for (Session.status); while it waits for a
                  seat that is away, for how long: "waiting for bob to reconnect (0:42)"
    body          the table (the game's panels, or the lobby) above the log; side by side on a
                  wide terminal where that gives the log more room (a tall table); or, on
                  request, only the help, only the log, only the table
    prompt        "Your move — …" and your numbered choices; or how the game ended
    input line    "› " and what you type, with completion; or a one-key question

The screen reads the game's state and never changes it: whatever the player does goes to the
game as a :data:`~p2pgames.tui._state.PlayerInput` through ``send``. Only presentation is the
screen's own: which view fills the body, and how far the log and the help are scrolled.
"""

from __future__ import annotations

import enum
import os
import re
from typing import Any, Callable, Protocol, Sequence

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

from p2pgames.engine import ChoiceGroup, Composer, Panel, Sealed
from p2pgames.games import PLAYABLE, get_game
from p2pgames.net import BOT_CLAIMED, BOT_LAUNCHED_HERE, Node
from p2pgames.session import Decision, LobbyChanged, Session
from p2pgames.tui._commands import COMMANDS, menu_lines
from p2pgames.tui._alerts import notification
from p2pgames.tui._clocks import ThinkingClocks, clocks_text
from p2pgames.tui._completion import ChoiceCompleter
from p2pgames.tui._controls import FittedLines, ScrollingLog, ScrollingPage
from p2pgames.tui._panels import SEE_ALL, content_width, layout_panels, natural_width
from p2pgames.tui._state import Answer, Dismiss, Interrupt, Mode, PlayAgain, PlayerInput, Question, Typed
from p2pgames.tui._text import Line, duration, line_width, pad, plain, truncate, wrap
from p2pgames.words import sentence_start
from p2pgames.tui._theme import Theme

__all__ = ["Screen", "View", "away_seconds", "LEAVE_PROMPT"]

MIN_LOG_ROWS = 3
# Table and log side by side on terminals this wide, if the log keeps SIDE_LOG_WIDTH columns and
# gets more room so than below the table (counting no more than READ_LOG_WIDTH of its columns:
# few log lines are longer).
SIDE_BY_SIDE_COLUMNS = 100
SIDE_LOG_WIDTH = 40
READ_LOG_WIDTH = 100
MAX_CHOICE_ROWS = 2
MAX_WARNING_ROWS = 2
MAX_VERDICT_ROWS = 3

# What the bottom row asks, and what y and n do.
QUESTIONS = {
    Question.LEAVE: ("Leave the game? It stops the game for everyone.", "leave", "stay"),
    Question.END: ("End the game for everyone? Transcripts say why.", "end it", "keep waiting"),
    Question.OPEN: ("Play on with a bot in their seat? Its cards are then shown to everyone.", "play on", "keep waiting"),
    Question.FORFEIT: ("Claim the game by forfeit? You win; the transcripts say why.", "claim it", "keep waiting"),
    Question.ADJOURN: ("Adjourn: stop here, go on later with p2pgames resume?", "agree", "play on"),
    Question.AGAIN: ("Play the next game at this table?", "play", "leave"),
}
# The bottom row once the game has ended, however it ended (over, or stopped): q and Enter leave
# in both (any key, too, once it is over).
LEAVE_PROMPT = "Press q or Enter to leave."
# … where the table may play again (§B20): a replays this game, g chooses another.
AGAIN_PROMPT = "a plays again, g another game, q leaves."


def _bot_mark(note: str | None) -> list[tuple[str, str]]:
    """A seat's bot note in the players' panels: short for a bot launched here, in full for a
    seat that only says it is one (see ``Node.bot_note``)."""
    if note is None:
        return []
    return [("dim", " bot" if note == BOT_LAUNCHED_HERE else f" ({note})")]


def away_seconds(session: Session, away_for: Callable[[int], float | None]) -> float | None:
    """How long the status line has waited for a seat that is away (the longest, if it names
    several: :meth:`Session.awaited_away`), as ``away_for(seat)`` tells; ``None`` when the
    status is about no such seat."""
    times = [seconds for seconds in map(away_for, session.awaited_away()) if seconds is not None]
    return max(times, default=None)


class View(enum.Enum):
    """Which view fills the body of the screen."""

    NORMAL = "normal"  # the table and the log
    HELP = "help"
    LOG = "log"
    TABLE = "table"


class ShownGame(Protocol):
    """What a :class:`Screen` draws from and asks: the terminal's game
    (:class:`~p2pgames.tui._app.TerminalGame`, which owns the screen and so is not imported here)."""

    node: Node | None
    mode: Mode
    asking: Question | None
    decision: Decision | None
    composing: Composer | None
    narrowed: ChoiceGroup | None
    lobby: LobbyChanged | None
    said: list[str]
    verdict: str
    log_lines: list[Line]
    generation: int
    may_play_again: bool
    title: str
    clocks: ThinkingClocks
    clock: Callable[[], float]

    @property
    def offered(self) -> Decision | None: ...

    @property
    def lines(self) -> list[ChoiceGroup]: ...

    def can_adjourn_alone(self) -> bool: ...

    def can_hand_over(self) -> bool: ...


class Screen:
    """The prompt_toolkit application showing ``game``; ``send`` takes what the player did."""

    def __init__(
        self,
        game: ShownGame,
        send: Callable[[PlayerInput], None],
        *,
        color: bool,
        input: Input | None = None,
        output: Output | None = None,
    ) -> None:
        self.game = game
        self.send = send
        self.theme = Theme(color)
        self.view = View.NORMAL
        self.choosing_game = False  # the bottom row lists the games to play next (g, at the end)
        self._panels_cache: tuple[Any, list[Panel]] | None = None
        self._table_rows: int | None = None  # the rows the table had when last drawn beside the log
        self.log_control = ScrollingLog(game.log_lines, self._log_more_below)
        self.help_control = ScrollingPage(self._help_lines, self._help_more_below)
        self.app = self._build_application(color, input, output)

    # -- what the game calls ---------------------------------------------------------------------

    def show(self, view: View) -> None:
        """Fill the body with ``view``."""
        self.help_control.top()
        self.view = view

    def toggle(self, view: View) -> None:
        """Show ``view``, or the table and log again if it is showing."""
        self.show(view if self.view is not view else View.NORMAL)

    def log_appended(self, line: Line) -> None:
        self.log_control.appended(line)

    def alert(self, text: str) -> None:
        """Ring the terminal's bell and, where the terminal shows one, raise a desktop
        notification saying ``text`` (:mod:`p2pgames.tui._alerts`); nothing before the screen is
        open (the terminal is not ours yet)."""
        if not self.app.is_running:
            return
        output = self.app.output
        output.bell()
        sequence = notification(os.environ, "p2pgames", text)
        if sequence:
            output.write_raw(sequence)
        output.flush()

    def refresh(self) -> None:
        """The game changed: put the focus where the player's keys now belong, and redraw."""
        target = self._input_window if self._typing() else self._banner_window
        if self.app.layout.current_window is not target:
            self.app.layout.focus(target)
        self.app.invalidate()

    # -- state -------------------------------------------------------------------------------------

    def _typing(self) -> bool:
        """Whether the bottom row is the input line (otherwise a one-key question)."""
        return self.game.mode.typing and self.game.asking is None

    def _columns(self) -> int:
        # get_app(), not self.app: the layout is measured while the application is being built.
        return get_app().output.get_size().columns

    # -- the table ----------------------------------------------------------------------------------

    def _panels(self) -> list[Panel]:
        key = self.game.generation
        if self._panels_cache is not None and self._panels_cache[0] == key:
            return self._panels_cache[1]
        panels = self._game_panels()
        if panels is None:
            panels = self._lobby_panels()
        self._panels_cache = (key, panels)
        return panels

    def _game_panels(self) -> list[Panel] | None:
        node = self.game.node
        if node is None or self.game.mode in (Mode.CONNECTING, Mode.LOBBY):
            return None
        session = node.session
        if session.replica is None or session.presentation is None or session.seat is None:
            return None
        try:
            if self.game.composing is not None:  # building an action: what is chosen so far
                return list(self.game.composing.panels())
            panels = list(
                session.presentation.panels(session.replica.state, session.seat, session.knowledge, session.names)  # type: ignore[union-attr]
            )
        except Exception as error:  # a bug in a game's view must not take the player's game down
            problem = f"the table can't be drawn: {type(error).__name__}: {error}"
            return [Panel("Table", ((("bad", problem),),))]
        return panels or [self._seats_panel()]

    def _seats_panel(self) -> Panel:
        """For a game with no panels of its own: who sits where and who is to move."""
        session = self.game.node.session  # type: ignore[union-attr]
        waiting = session.waiting_for()
        lines = []
        for seat, info in enumerate(session.seats):
            line = [("dim", f"{seat} "), ("you" if seat == session.seat else "bold", info.name)]
            line += [("dim", " (you)")] if seat == session.seat else []
            line += _bot_mark(self.game.node.bot_note(seat, info.bot))  # type: ignore[union-attr]
            line += [("warn", " ◂ to move")] if seat in waiting else []
            lines.append(tuple(line))
        return Panel("Players", tuple(lines))

    def _lobby_panels(self) -> list[Panel]:
        game = self.game
        session = game.node.session if game.node is not None else None
        panels = []
        if session is not None and session.game is not None and session.ruleset is not None:
            about = (("bold", session.game.title), ("", f" · {session.game.describe_table(session.ruleset)}"))
            panels.append(Panel("Game", (about,)))
        if game.lobby is not None:
            players, seats = list(game.lobby.players), game.lobby.seats
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
                you = seat == (game.lobby.you if game.lobby is not None else 0 if session is not None and session.is_host else None)
                line = [("dim", f"{seat} "), ("you" if you else "bold", name)]
                line += [("dim", " (you)")] if you else []
                line += [("dim", " host")] if seat == 0 else []
                line += _bot_mark(game.node.bot_note(seat, bot, name) if game.node is not None else BOT_CLAIMED if bot else None)
                lines.append(tuple(line))
            panels.append(Panel(f"Seats {len(players)}/{seats}", tuple(lines)))
        if session is not None and not session.is_host and session.host_fingerprint is not None:
            # What the README asks a joiner to compare with the host's join code.
            key = (("dim", "host key "), ("bold", session.host_fingerprint))
            panels.append(Panel("Host", (key,)))
        if game.said:
            panels.append(Panel("Table", tuple((("", text),) for text in game.said[-6:])))
        return panels

    def _table_lines(self, width: int, height: int | None) -> list[Line]:
        self._table_rows = height
        return layout_panels(self._panels(), width, self.theme, max_rows=height, see_all=self._see_all(width, height))

    def _whole_table(self, width: int, height: int | None) -> list[Line]:
        return layout_panels(self._panels(), width, self.theme)

    def _table_more(self, hidden: int, width: int) -> Line:
        return [("class:more", f"▼ {hidden} more rows · {self._see_all(width, self._table_rows)}")]

    def _terminal_too_small(self, hidden: int, width: int) -> Line:
        return [("class:more", f"▼ {hidden} more rows · {self._too_small()}")]

    def _see_all(self, width: int, height: int | None) -> str:
        """How to see what of the table ``height`` rows leave out: F2 (the table alone), or, when
        the terminal can't show it whole even so, that it is too small and the size that can."""
        if height is None:
            return SEE_ALL
        panels = self._panels()
        whole = len(layout_panels(panels, width, self.theme))
        alone = get_app().output.get_size().rows - 3 - len(self._prompt(width))  # the table view's rows
        if whole <= height or (whole <= alone and content_width(panels, self.theme) <= width):
            return SEE_ALL
        return self._too_small()

    def _too_small(self) -> str:
        """The terminal is too small, and the size (columns × rows) whose screen shows the whole
        table beside the log's fewest rows and what is asked now: at least as wide as the table's
        widest line (of the widths its layouts take, the smaller screen)."""
        size = get_app().output.get_size()
        panels = self._panels()
        sizes = []
        for columns in {max(size.columns, content_width(panels, self.theme)), max(size.columns, natural_width(panels, self.theme))}:
            table, log = len(layout_panels(panels, columns, self.theme)), 1 + MIN_LOG_ROWS  # its rule, fewest rows
            body = max(table, log) if self._side_by_side(columns) else table + log
            sizes.append((columns, 2 + body + len(self._prompt(columns)) + 1))
        columns, rows = min(sizes, key=lambda size: (size[0] * size[1], size[0]))
        return f"the terminal is too small ({columns}×{rows} shows it all)"

    def _side_by_side(self, columns: int | None = None) -> bool:
        """Whether the table and the log go side by side on a terminal ``columns`` wide (default:
        this one): when it is wide enough for both and the log gets more room so — a short table
        beside the log would leave the rest of its column empty and the log narrow, where below it
        the log has the whole width."""
        size = get_app().output.get_size()
        columns = size.columns if columns is None else columns
        table = natural_width(self._panels(), self.theme) + 1
        if columns < SIDE_BY_SIDE_COLUMNS or table + 1 + SIDE_LOG_WIDTH > columns:
            return False
        body = size.rows - 3 - len(self._prompt(columns))  # less the title, status and input rows
        # Counted, not drawn: _table_lines would also note the rows and word what a cut hides.
        above = len(layout_panels(self._panels(), columns, self.theme, max_rows=max(body - 1 - MIN_LOG_ROWS, 0)))
        beside = min(columns - table - 1, READ_LOG_WIDTH) * (body - 1)
        below = min(columns, READ_LOG_WIDTH) * (body - 1 - above)
        return beside > below

    def _table_width(self) -> Dimension:
        return Dimension.exact(natural_width(self._panels(), self.theme) + 1)

    # -- bars, prompt and banner ----------------------------------------------------------------

    def _title_bar(self, width: int, height: int | None = None) -> list[Line]:
        game = self.game
        session = game.node.session if game.node is not None else None
        title = game.title
        if session is not None and session.game is not None and session.game.title not in title:
            title = f"{title} · {session.game.title}"  # a joiner learns the game from the host
        left = [("class:title", f" {title}")]
        if session is None:
            right = ""
        elif session.seat is not None and session.seats:
            right = f"{session.name} · seat {session.seat} of {len(session.seats)} "
        elif game.lobby is not None and game.lobby.you is not None:
            right = f"{session.name} · seat {game.lobby.you} of {game.lobby.seats} "
        else:
            right = f"{session.name} · {'hosting' if session.is_host else 'joining'} "
        space = width - line_width(left) - len(right)
        if space < 1:
            return [pad(left, width, "class:title")]
        clocks = ""
        if game.mode is Mode.PLAYING and session is not None and session.seats:
            clocks = clocks_text(game.clocks, session.names, session.seat, game.clock(), space - 4)
        if clocks:
            clocks += "  "
            space -= len(clocks)
        return [left + [("class:title", " " * space), ("class:title", clocks), ("class:title.seat", right)]]

    def _status_bar(self, width: int, height: int | None = None) -> list[Line]:
        game = self.game
        mode = game.mode
        style = "class:status"
        if mode is Mode.LEAVING:
            text = "leaving the table…"
        elif mode in (Mode.OVER, Mode.STOPPED):
            # The whole story is above the input line, where it has room to wrap.
            text = "game over" if mode is Mode.OVER else "the game has stopped"
            style = "class:status.over" if mode is Mode.OVER else "class:status.bad"
        elif game.node is None:
            text = ""
        else:
            session = game.node.session
            text = session.status()
            if text.startswith("you to move:"):
                text = "your move:" + text[len("you to move:"):]
            away = away_seconds(session, game.node.away_for)
            if away is not None:
                text += f" ({duration(away)})"
            if session.seat is not None and session.seat in session.waiting_for():
                style = "class:status.you"
        names = game.node.session.names if game.node is not None else ()
        return [pad([(style, f" {sentence_start(text, names)}")], width, style)]

    def _prompt(self, width: int, height: int | None = None) -> list[Line]:
        """Above the input line: your choices, or how the game ended."""
        game = self.game
        if game.mode in (Mode.OVER, Mode.STOPPED):
            if self._verdict_in_view():
                return []
            style = "class:banner.over" if game.mode is Mode.OVER else "class:banner.fault"
            return wrap([(style, game.verdict)], width, 2)[:MAX_VERDICT_ROWS]
        offered = game.offered
        if game.mode is not Mode.PLAYING or offered is None or game.asking is not None:
            return []
        return choice_lines(offered, width, game.narrowed if game.composing is None else None)

    def _verdict_in_view(self) -> bool:
        """Whether the log's last line, on screen, already says how the game ended."""
        lines = self.game.log_lines
        showing_log = self.view in (View.NORMAL, View.LOG) and self.log_control.offset == 0
        return showing_log and bool(lines) and plain(lines[-1]) == self.game.verdict

    def _prompt_height(self) -> Dimension:
        return Dimension.exact(len(self._prompt(self._columns())))

    def _banner(self) -> list[tuple[str, str]]:
        """The bottom row when a key, not a line, is wanted."""
        game = self.game
        if game.asking is Question.LEAVE and game.can_adjourn_alone():
            return _leave_question("a", "adjourn: resume later", "end it")
        if game.asking is Question.LEAVE and game.can_hand_over():
            return _leave_question("b", "a bot plays on, cards shown", "end it for all")
        if game.asking is not None:
            question, yes, no = QUESTIONS[game.asking]
            return [
                ("class:banner.ask", f" {question}"),
                ("", "   "),
                ("class:help.key", "y"),
                ("", f" {yes}   "),
                ("class:help.key", "n"),
                ("", f" {no}"),
            ]
        scroll = ("class:banner.info", "  (PgUp/PgDn scroll the log)")
        if self.choosing_game:
            listed = "  ".join(f"{number} {get_game(name).title}" for number, name in enumerate(PLAYABLE, 1))
            return [("class:banner.ask", " Play which next? "), ("", listed), ("class:banner.info", "  (any other key: back)")]
        if game.mode is Mode.OVER and game.may_play_again:
            return [("class:banner.ask", f" {AGAIN_PROMPT}"), scroll]
        if game.mode in (Mode.OVER, Mode.STOPPED):
            return [("class:banner.ask", f" {LEAVE_PROMPT}"), scroll]
        if game.mode is Mode.LEAVING:
            return [("class:banner.info", " Leaving the table… (Ctrl-C again to leave at once)")]
        return []

    def _hint(self) -> list[tuple[str, str]]:
        if self.game.decision is not None:
            return [("class:hint", "Tab: choices · F1: help · Ctrl-C: quit ")]
        return [("class:hint", "say TEXT: chat · F1: help · Ctrl-C: quit ")]

    # -- the log and the help -----------------------------------------------------------------------

    def _log_rule(self, width: int, height: int | None = None) -> list[Line]:
        scrolled = self.log_control.offset > 0
        label = " Log (scrolled back: PgDn or Esc for the latest) " if scrolled else " Log "
        right = "" if scrolled else " PgUp/PgDn "
        line = [("class:rule", "──"), ("class:rule.label", label)]
        fill = width - line_width(line) - len(right) - 2
        line += [("class:rule", "─" * max(0, fill)), ("class:rule.label", right), ("class:rule", "──")]
        return [truncate(line, width)]

    def _log_more_below(self, hidden: int) -> Line:
        return [("class:more", f"▼ {hidden} newer rows below · PgDn or Esc for the latest")]

    def _help_lines(self, width: int) -> list[Line]:
        node = self.game.node
        shown = node.session.presentation if node is not None else None
        rows: list[Line] = []

        def add(line: Line, indent: int = 0) -> None:
            rows.extend(wrap(line, width, indent))

        if shown is not None:
            add([("class:help.heading", f"{shown.rules.title}: how to play")])
            for text in paragraphs(shown.help_text()):
                add([("", text)], hanging_indent(text))
            add([])
        keys = (
            ("Tab", "complete a choice or a command"),
            ("↑ ↓", "lines you typed before"),
            ("PgUp PgDn", "scroll the log (or this help)"),
            ("F1 F2 F3", "this help · the whole table · the whole log"),
            ("Esc", "back to the table and the latest log lines"),
            ("Ctrl-C", "quit (asks first while the game is running)"),
        )
        commands = (("your move", "type one of your choices: Tab completes it; its number works too"),)
        if shown is not None:
            commands += tuple(shown.info_commands)
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

    # -- the application ----------------------------------------------------------------------------

    def _body(self) -> Any:
        if self.view is View.HELP:
            return self._help_body
        if self.view is View.LOG:
            return self._log_body
        if self.view is View.TABLE:
            return self._table_body
        return self._wide_body if self._side_by_side() else self._stacked_body

    def _build_application(self, color: bool, input: Input | None, output: Output | None) -> Application:
        game = self.game
        self._buffer = Buffer(
            multiline=False,
            completer=ChoiceCompleter(lambda: game.offered, lambda: game.lines),
            complete_while_typing=True,
            history=InMemoryHistory(),
            accept_handler=self._accept,
        )
        self._input_window = Window(
            BufferControl(self._buffer, input_processors=[BeforeInput([("class:prompt", "› ")])]),
            height=1,
        )
        self._banner_window = Window(
            FormattedTextControl(self._banner, focusable=True, show_cursor=False), height=1
        )
        hint = ConditionalContainer(
            Window(
                FormattedTextControl(self._hint), align=WindowAlign.RIGHT, dont_extend_width=True, height=1
            ),
            filter=Condition(lambda: not self._buffer.text),
        )
        typing = Condition(self._typing)
        bottom = HSplit([
            ConditionalContainer(VSplit([self._input_window, hint]), filter=typing),
            ConditionalContainer(self._banner_window, filter=~typing),
        ])

        def log() -> Window:
            return Window(self.log_control, height=Dimension(min=MIN_LOG_ROWS))

        log_rule = Window(FittedLines(self._log_rule), height=1)
        self._stacked_body = HSplit([
            Window(FittedLines(self._table_lines, self._table_more), dont_extend_height=True),
            log_rule,
            log(),
        ])
        self._wide_body = VSplit([
            Window(FittedLines(self._table_lines, self._table_more), width=self._table_width),
            Window(char="│", width=1, style="class:rule"),
            HSplit([log_rule, log()]),
        ])
        self._log_body = HSplit([log_rule, log()])
        self._table_body = Window(FittedLines(self._whole_table, self._terminal_too_small))
        self._help_body = Window(self.help_control)
        root = FloatContainer(
            HSplit([
                Window(FittedLines(self._title_bar), height=1),
                Window(FittedLines(self._status_bar), height=1),
                DynamicContainer(self._body),
                Window(FittedLines(self._prompt), height=self._prompt_height),
                bottom,
            ]),
            floats=[
                Float(xcursor=True, ycursor=True, content=CompletionsMenu(max_height=8, scroll_offset=1))
            ],
        )
        application: Application = Application(
            layout=Layout(root, focused_element=self._input_window),
            key_bindings=self._key_bindings(),
            style=self.theme.style,
            include_default_pygments_style=False,
            color_depth=None if color else ColorDepth.DEPTH_1_BIT,
            full_screen=True,
            mouse_support=False,  # the terminal's own selection stays usable: join codes get copied
            input=input,
            output=output,
        )
        application.ttimeoutlen = 0.1  # Esc answers quickly; escape sequences arrive well within this
        return application

    def _accept(self, buffer: Buffer) -> bool:
        self.view = View.NORMAL
        self.log_control.follow()
        self.send(Typed(buffer.text))
        return False  # clear the line (it is in the history)

    def _key_bindings(self) -> KeyBindings:
        bindings = KeyBindings()
        game = self.game
        typing = Condition(self._typing)
        asking = Condition(lambda: game.asking is not None)
        over = Condition(lambda: game.mode is Mode.OVER and game.asking is None)
        stopped = Condition(lambda: game.mode is Mode.STOPPED and game.asking is None)
        elsewhere = Condition(lambda: self.view is not View.NORMAL or self.log_control.offset > 0)

        # prompt_toolkit prefers a binding for a specific key to one for any key, so the keys
        # bound below (Ctrl-C, the scrolling and view keys) keep working at a question.
        again = Condition(lambda: game.may_play_again and game.mode is Mode.OVER and game.asking is None)
        choosing = Condition(lambda: self.choosing_game)

        # (Where the table may play again, only q leaves: a stray key must not end the evening.)
        @bindings.add(Keys.Any, filter=over & ~choosing & ~again)
        def _(event: KeyPressEvent) -> None:
            self.send(Dismiss())

        @bindings.add("q", filter=over & again & ~choosing)
        @bindings.add("Q", filter=over & again & ~choosing)
        def _(event: KeyPressEvent) -> None:
            self.send(Dismiss())

        @bindings.add("a", filter=over & again & ~choosing)
        def _(event: KeyPressEvent) -> None:
            self.send(PlayAgain())

        @bindings.add("g", filter=over & again & ~choosing)
        def _(event: KeyPressEvent) -> None:
            self.choosing_game = True

        @bindings.add(Keys.Any, filter=choosing)
        def _(event: KeyPressEvent) -> None:
            self.choosing_game = False
            games = list(PLAYABLE)
            if event.data.isdigit() and 1 <= int(event.data) <= len(games):
                self.send(PlayAgain(games[int(event.data) - 1]))

        @bindings.add(Keys.Any, filter=asking)
        def _(event: KeyPressEvent) -> None:
            self.send(Answer(False))

        @bindings.add("y", filter=asking)
        @bindings.add("Y", filter=asking)
        def _(event: KeyPressEvent) -> None:
            self.send(Answer(True))

        @bindings.add("b", filter=asking)
        @bindings.add("B", filter=asking)
        def _(event: KeyPressEvent) -> None:
            self.send(Answer(False, bot=True))

        @bindings.add("a", filter=asking)
        @bindings.add("A", filter=asking)
        def _(event: KeyPressEvent) -> None:
            self.send(Answer(False, adjourn=True))

        @bindings.add("q", filter=stopped)
        @bindings.add("Q", filter=stopped)
        @bindings.add("enter", filter=stopped | (over & ~again))
        def _(event: KeyPressEvent) -> None:
            self.send(Dismiss())

        @bindings.add("c-c")
        def _(event: KeyPressEvent) -> None:
            self.send(Interrupt())

        @bindings.add("c-d", filter=~typing | Condition(lambda: not self._buffer.text))
        def _(event: KeyPressEvent) -> None:
            self.send(Interrupt())

        @bindings.add("pageup")
        def _(event: KeyPressEvent) -> None:
            (self.help_control if self.view is View.HELP else self.log_control).page_up()

        @bindings.add("pagedown")
        def _(event: KeyPressEvent) -> None:
            (self.help_control if self.view is View.HELP else self.log_control).page_down()

        # Eager: Esc also starts Alt-key sequences, and prompt_toolkit would wait a second to
        # see whether one follows.
        @bindings.add("escape", filter=elsewhere, eager=True)
        def _(event: KeyPressEvent) -> None:
            self.view = View.NORMAL
            self.log_control.follow()

        @bindings.add("f1")
        def _(event: KeyPressEvent) -> None:
            self.toggle(View.HELP)

        @bindings.add("f2")
        def _(event: KeyPressEvent) -> None:
            self.toggle(View.TABLE)

        @bindings.add("f3")
        def _(event: KeyPressEvent) -> None:
            self.toggle(View.LOG)

        return bindings


def _leave_question(key: str, instead: str, ending: str) -> list[tuple[str, str]]:
    """The bottom row asking whether to leave, with ``key`` for another way than ending the game."""
    return [
        ("class:banner.ask", " Leave the game?"),
        ("", "  "),
        ("class:help.key", key),
        ("", f" {instead}  "),
        ("class:help.key", "y"),
        ("", f" {ending}  "),
        ("class:help.key", "n"),
        ("", " stay"),
    ]


def secret_note(decision: Decision) -> str:
    """How long a secret choice stays secret: until everyone has chosen, or — a sealed choice —
    until the game reveals it, some steps later."""
    if isinstance(decision.step, Sealed):
        return " (sealed: secret until it is revealed later)"
    return " (secret until everyone has chosen)"


def choice_lines(decision: Decision, width: int, narrowed: ChoiceGroup | None = None) -> list[Line]:
    """"Your move — <prompt>", the game's warnings, and the numbered choices (a group of choices
    is one numbered line; ``narrowed`` to one, its parts), the choices in at most
    :data:`MAX_CHOICE_ROWS` rows."""
    head: Line = [("class:move", f"Your move — {decision.step.prompt}")]  # type: ignore[union-attr]
    if decision.simultaneous:
        head.append(("class:move.secret", secret_note(decision)))
    if narrowed is not None:
        head.append(("class:move.secret", f" · {narrowed.label} (empty line: all choices)"))
    warnings = [row for text in decision.warnings for row in wrap([("class:move.warn", f"⚠ {text}")], width, 2)]
    items = [
        [("class:choice.number", f"{number} "), ("", line.label)]
        for number, line in enumerate(menu_lines(decision, narrowed), 1)
    ]
    rows = _flow(items, width)
    if len(rows) > MAX_CHOICE_ROWS:
        rows = _flow(items, width, MAX_CHOICE_ROWS)
    if len(warnings) > MAX_WARNING_ROWS:  # the last row shown says that more was cut
        last = warnings[MAX_WARNING_ROWS - 1]
        ended = last + [("class:more", " …")] if line_width(last) + 2 <= width else truncate(last + [("", "  ")], width)
        warnings = warnings[: MAX_WARNING_ROWS - 1] + [ended]
    return wrap(head, width, 2)[:2] + warnings + rows


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


def paragraphs(text: str) -> list[str]:
    """``text``'s lines with hard-wrapped prose joined back into paragraphs, to wrap to the screen.

    A line continues the one before it when both are plain prose (no indent, no column gaps)
    and the one before is about as long as the longest line: its author broke it for width.
    """
    lines = text.splitlines()
    longest = max((len(line) for line in lines), default=0)

    def prose(line: str) -> bool:
        return bool(line) and not line[0].isspace() and "   " not in line

    out: list[str] = []
    for number, line in enumerate(lines):
        before = lines[number - 1] if number else ""
        if prose(line) and prose(before) and len(before) >= longest - 20:
            out[-1] = f"{out[-1]} {line}"
        else:
            out.append(line)
    return out


def hanging_indent(line: str) -> int:
    """Where a wrapped ``line`` continues: its second column if it has columns, else its indent."""
    gap = re.search(r"\S( {2,})(?=\S)", line)
    return gap.end() if gap else len(line) - len(line.lstrip(" "))
