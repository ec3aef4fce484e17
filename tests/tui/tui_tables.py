"""Real tables for terminal game tests: the human seat typed into through a pipe, bots over loopback.

A test builds a :class:`Table`, hands ``table.setup(script)`` and ``on_screen=table.on_screen``
to ``run_terminal_game`` and lets ``script`` play the human once the screen shows: it reads the human's session to know what is asked, types keys into the
pipe, and waits — never sleeps — for what the screen shows or what a peer receives.

Without a table, :func:`terminal_game` gives a :class:`TerminalGame` a :class:`FakeSession` on a
:class:`FakeNode` that a test sets as it likes, and calls into directly. :func:`unwrapped` reads a
screen's text with its wrapped log lines joined again.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Awaitable, Callable

import trio
import trio.testing
from prompt_toolkit.application import Application
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import PipeInput
from prompt_toolkit.layout.mouse_handlers import MouseHandlers
from prompt_toolkit.layout.screen import Screen, WritePosition
from prompt_toolkit.output import DummyOutput

from p2pgames.bots import bot_for
from p2pgames.crypto import Identity, reproducible_bytes
from p2pgames.games import get_game, get_presentation
from p2pgames.net import JoinCode, NetSettings, Node, drive_bot, join_table, open_host_listeners
from p2pgames.session import Fault, FaultCode, Halted, LocalError, Session, SessionEvent
from p2pgames.tui._app import TerminalGame
from p2pgames.tui._state import Mode

LOOPBACK = "127.0.0.1"
SCRIPT_TIMEOUT = 15.0


def unwrapped(text: str) -> str:
    """A screen's text with each log line that wrapped at the screen's edge (going on in the next
    row, indented) joined again."""
    return re.sub(r" *\n +", " ", text)


def peer_random_bytes(seed: bytes, name: str) -> Callable[[int], bytes]:
    """The randomness of the peer called ``name`` at a table seeded with ``seed``."""
    return reproducible_bytes(seed + b"/peer/" + name.encode())


def seeded_session(seed: bytes, name: str, **options) -> Session:
    """The session of the peer called ``name``: its identity and randomness from ``seed``."""
    random_bytes = peer_random_bytes(seed, name)
    options.setdefault("presentation", get_presentation)  # (a terminal shows the game)
    return Session(Identity.generate(random_bytes(32)), name, get_game, random_bytes=random_bytes, **options)


class SizedOutput(DummyOutput):
    """Draws nothing, but says the terminal is ``columns`` × ``rows`` (DummyOutput says 80 × 40)."""

    def __init__(self, columns: int = 80, rows: int = 24) -> None:
        self.columns, self.rows = columns, rows

    def get_size(self) -> Size:
        return Size(rows=self.rows, columns=self.columns)


class Watched:
    """A node whose events are recorded on their way to whoever reads ``node.events``."""

    def __init__(self, node: Node) -> None:
        self.node = node
        self.session = node.session
        self.seen: list[SessionEvent] = []
        self._changed = trio.Event()
        self._source = node.events
        self._send, node.events = trio.open_memory_channel[SessionEvent](math.inf)

    async def pump(self) -> None:
        async with self._send:
            async for event in self._source:
                self.seen.append(event)
                self._send.send_nowait(event)
                self._changed.set()
                self._changed = trio.Event()

    async def wait_until(self, predicate: Callable[[], bool]) -> None:
        """Wait for ``predicate()`` to hold, checking after every event of this node."""
        while not predicate():
            await self._changed.wait()

    def events_of(self, kind: type) -> list:
        return [event for event in self.seen if isinstance(event, kind)]


class ScreenWatcher:
    """The running application's screen, drawn on demand, with a wake-up whenever it is redrawn."""

    def __init__(self, app: Application) -> None:
        self.app = app
        self._changed = trio.Event()
        self._token = trio.lowlevel.current_trio_token()
        # After every redraw, not on invalidate(): prompt_toolkit drops an invalidate() that comes
        # while a redraw is pending, but that redraw shows its change. Redraws happen outside
        # trio, so the wake-up goes in through the token.
        app.after_render += self._redrawn

    def _redrawn(self, app: Application) -> None:
        try:
            self._token.run_sync_soon(self._wake)
        except trio.RunFinishedError:
            pass  # the last redraw, as the application closes

    def _wake(self) -> None:
        self._changed.set()
        self._changed = trio.Event()

    def cells(self) -> tuple[Screen, int, int]:
        size = self.app.output.get_size()
        screen = Screen()
        self.app.layout.container.write_to_screen(
            screen, MouseHandlers(), WritePosition(0, 0, size.columns, size.rows), "", False, None
        )
        screen.draw_all_floats()
        return screen, size.columns, size.rows

    def lines(self) -> list[str]:
        """The screen's text, one string per row, trailing spaces removed."""
        screen, columns, rows = self.cells()
        return [
            "".join(screen.data_buffer[y][x].char for x in range(columns)).rstrip()
            for y in range(rows)
        ]

    def text(self) -> str:
        return "\n".join(self.lines())

    async def wait_for(self, text: str) -> None:
        """Wait until ``text`` is on the screen (it may span no row boundary)."""
        await self.wait_until(lambda: text in self.text())

    async def wait_until(self, predicate: Callable[[], bool]) -> None:
        while not predicate():
            changed = self._changed
            await changed.wait()


Script = Callable[["Table"], Awaitable[None]]


class Table:
    """A probe (or other) table on 127.0.0.1: the human ``alice`` and ``bots`` bot peers.

    With ``human_hosts`` the human's node hosts; otherwise a bot called ``host_name`` hosts and
    the human joins as a player does (:func:`~p2pgames.net.join_table`, with the host's key in the
    join code, or ``join_fingerprint`` instead) — after the bots have taken their seats with
    ``late``. ``bots`` may be fewer than the empty seats, leaving the table waiting in its lobby.
    The first ``launched`` bots are ones the human's process launched (``host --bots`` does): its
    node knows their keys; the others only say they are bots.
    With ``join_port`` the human joins a table hosted elsewhere on 127.0.0.1 (another terminal's,
    running in another thread: give ``join_fingerprint`` too) and no host bot is started.
    ``options`` are the ruleset's, ``bot_kind`` the kind of bot (``None``: the game's default).
    ``script_timeout`` bounds the script (seconds).
    Every peer's key, shuffles and bot draw on ``seed`` and its name, so a table plays the same
    game every run.
    """

    def __init__(
        self,
        pipe: PipeInput,
        *,
        game: str = "probe",
        players: int = 3,
        bots: int | None = None,
        human_hosts: bool = True,
        late: bool = False,
        seed: bytes = b"tui-table",
        human_name: str = "alice",
        host_name: str = "bot-host",
        join_fingerprint: str | None = None,
        transcripts: Path | None = None,
        options: dict | None = None,
        bot_kind: str | None = None,
        launched: int = 0,
        join_port: int | None = None,
        script_timeout: float = SCRIPT_TIMEOUT,
    ) -> None:
        self.human_name = human_name
        self.host_name = host_name
        self.join_fingerprint = join_fingerprint
        self.transcripts = transcripts
        self.pipe = pipe
        self.seed = seed
        self.game = get_game(game)
        self.ruleset = self.game.ruleset(players, options or {})
        self.bot_kind = bot_kind  # None: the game's default bot
        self.bot_count = players - 1 if bots is None else bots
        self.launched = launched
        self.human_hosts = human_hosts
        self.join_port = join_port
        self.script_timeout = script_timeout
        self.late = late
        self.human: Watched | None = None
        self.bots: list[Watched] = []
        self.screen: ScreenWatcher | None = None
        self._screen_shown = trio.Event()
        self.port = 0

    def on_screen(self, app: Application) -> None:
        """For ``run_terminal_game(on_screen=…)``: the screen shows; the script may start."""
        self.screen = ScreenWatcher(app)
        self._screen_shown.set()

    def type(self, text: str) -> None:
        """Type ``text`` at the terminal (``\\r`` is Enter)."""
        self.pipe.send_text(text)

    async def settle(self) -> None:
        """Let every trio task (the screen's included) finish with what it has been given."""
        await trio.testing.wait_all_tasks_blocked()

    def setup(self, script: Script) -> Callable[[trio.Nursery, Callable[[str], None]], Awaitable[Node]]:
        """The ``setup`` for ``run_terminal_game``: builds the table, starts ``script``."""

        async def setup(nursery: trio.Nursery, say: Callable[[str], None]) -> Node:
            if self.human_hosts:
                human = Node(self._session(self.human_name, ruleset=self.ruleset), transcript_dir=self.transcripts)
                listeners = await open_host_listeners(0, LOOPBACK)
                self.port = listeners[0].socket.getsockname()[1]
                await nursery.start(human.serve, listeners)
                say(f"Join code: {LOOPBACK}:{self.port}")
            else:
                if self.join_port is not None:  # another terminal hosts
                    self.port = self.join_port
                else:
                    host = await self._start_bot(nursery, self.host_name, host=True)
                    self.bots.append(host)
                    if self.late:
                        await self._start_bots(nursery)
                        await host.wait_until(lambda: host.session.lobby_size == len(self.bots))
                fingerprint = self.join_fingerprint or self.bots[0].session.identity.public_key.fingerprint()
                # Its own stream even when the host bot has the human's name (names at a table can repeat).
                random_bytes = self._random_bytes("joining " + self.human_name)
                human = await join_table(
                    nursery, identity=Identity.generate(random_bytes(32)), name=self.human_name,
                    code=JoinCode(LOOPBACK, self.port, fingerprint), transcripts=self.transcripts, say=say,
                    random_bytes=random_bytes,
                )
            self.human = Watched(human)
            nursery.start_soon(self.human.pump)
            if not self.late:
                await self._start_bots(nursery)
            nursery.start_soon(self._run_script, script)
            return human

        return setup

    def _random_bytes(self, name: str) -> Callable[[int], bytes]:
        return peer_random_bytes(self.seed, name)

    def _session(self, name: str, **options) -> Session:
        return seeded_session(self.seed, name, **options)

    async def _start_bots(self, nursery: trio.Nursery) -> None:
        # A host bot is one of ``bot_count``.
        for number in range(self.bot_count - (0 if self.human_hosts or self.join_port is not None else 1)):
            bot = await self._start_bot(nursery, f"bot-{number + 1}")
            if number < self.launched:
                self.human.node.launched_bots.add(bot.session.identity.public_key.raw)
            self.bots.append(bot)

    async def _start_bot(self, nursery: trio.Nursery, name: str, host: bool = False) -> Watched:
        ruleset = self.ruleset if host else None
        node = Node(self._session(name, ruleset=ruleset, bot=True, presentation=None))
        watched = Watched(node)
        if host:
            listeners = await open_host_listeners(0, LOOPBACK)
            self.port = listeners[0].socket.getsockname()[1]
            await nursery.start(node.serve, listeners)
        else:
            await nursery.start(node.connect, LOOPBACK, self.port)
        nursery.start_soon(watched.pump)
        nursery.start_soon(drive_bot, node, bot_for(self.game, self.seed + b"/bot/" + name.encode(), self.bot_kind))
        return watched

    async def _run_script(self, script: Script) -> None:
        try:
            with trio.fail_after(self.script_timeout):
                await self._screen_shown.wait()
                await script(self)
        except trio.TooSlowError:
            shows = self.screen.text() if self.screen is not None else "(no screen was shown)"
            raise AssertionError(f"the script timed out; the screen shows:\n{shows}") from None

    # -- what scripts often do ---------------------------------------------------------------------

    async def next_decision(self):
        """Wait until the human has something to decide (or the game is over); return it or None."""
        session = self.human.session
        await self.human.wait_until(lambda: session.finished or session.decision() is not None)
        return session.decision()

    async def play_to_the_end(self, pick: Callable[[object], str] = lambda decision: decision.texts[0]) -> int:
        """Type ``pick(decision)`` for every decision until the game is over; how many were typed."""
        return (await self.play_until(lambda decision: False, pick))[1]

    async def play_until(
        self,
        stop: Callable[[object], bool],
        pick: Callable[[object], str] = lambda decision: decision.texts[0],
        reached: Callable[[], bool] = lambda: False,
    ) -> tuple[object, int]:
        """Type ``pick(decision)`` for every decision until one for which ``stop(decision)`` holds
        (left unanswered), or the game is over or ``reached()`` holds, checked after every event,
        decision or not (``None``); that decision and how many were typed."""
        session = self.human.session
        typed = 0
        answered = None
        while True:
            await self.human.wait_until(
                lambda: session.finished or reached() or (session.decision() is not None and self._moment() != answered)
            )
            if session.finished or reached():
                return None, typed
            decision = session.decision()
            if stop(decision):
                return decision, typed
            answered = self._moment()
            self.type(pick(decision) + "\r")
            typed += 1

    def _moment(self) -> tuple:
        replica = self.human.session.replica
        return (replica.seq, replica.counters[self.human.session.seat])


# -- a terminal game without a table -------------------------------------------------------------


class FakeSession:
    """What the terminal game reads of a session in play, set by the test."""

    def __init__(self, *, is_host: bool = True, names=("alice", "bob", "carol")) -> None:
        self.is_host = is_host
        self.names = list(names)
        self.seats = self.names
        self.seat = 0 if is_host else 1
        self.name = self.names[self.seat]
        self.stage = "playing"
        self.away: dict[int, str] = {}
        self.waiting: tuple[int, ...] = ()
        self.awaited: tuple[int, ...] = ()  # what Session.awaited_away says (tested with sessions)
        self.said_status = "working"
        self.deciding = False  # what Session.waiting_on_decision says: the thinking clocks run
        self.game = self.presentation = self.replica = self.ruleset = None
        self.host_fingerprint = "00:11"

    def status(self) -> str:
        return self.said_status

    def waiting_for(self) -> tuple[int, ...]:
        return self.waiting

    def awaited_away(self) -> tuple[int, ...]:
        return self.awaited

    def waiting_on_decision(self) -> bool:
        return self.deciding

    def play_on_problem(self, seat: int) -> str | None:
        """As the session: why the table can't play on with a bot in ``seat`` (its replica's say)."""
        return "the game has not started" if self.replica is None else self.replica.open_seat_problem(seat)

    def forfeit_problem(self, seat: int) -> str | None:
        """As the session, for a two-player table that plays a win by forfeit (``forfeit``)."""
        if not getattr(self, "forfeit", False):
            return "this table plays no win by forfeit (the host chooses it before the game: --forfeit)"
        return None if seat in self.away else f"{self.names[seat]} is at the table"

    def decision(self):
        return None

    def parse_move(self, text: str):
        return None


class FakeReplica:
    """The log as the terminal asks it about open seats: ``problems`` says why a seat can't be
    given to a bot (none: it can), ``open_consents`` who agreed so far."""

    def __init__(self) -> None:
        self.problems: dict[int, str] = {}
        self.open_consents: dict[int, set[int]] = {}

    def open_seat_problem(self, seat: int) -> str | None:
        return self.problems.get(seat)


class FakeNode:
    """A node that plays no game: ``times`` says how long each seat has been away, ``end_game``
    and ``open_seat`` are recorded (the first ends the game as the real one does; either raises
    ``refuse``)."""

    def __init__(self, session: FakeSession) -> None:
        self.session = session
        self.settings = NetSettings()
        self.times: dict[int, float] = {}
        self.ended = 0
        self.opened: list[int] = []
        self.forfeits: list[int] = []
        self.refuse: str | None = None
        self.redirected: list[JoinCode] = []
        self.transcript_path = None
        self.desync_report = None
        self._send = None

    def open_events(self) -> None:
        """In trio: the events channel the terminal game reads; :meth:`push` sends on it."""
        self._send, self.events = trio.open_memory_channel(math.inf)
        self.finished = trio.Event()

    def push(self, event) -> None:
        self._send.send_nowait(event)

    def note_clocks(self, seconds) -> None:
        self.clocks_noted = list(seconds)

    def away_for(self, seat: int) -> float | None:
        return self.times.get(seat) if seat in self.session.away else None

    def redirect(self, code: JoinCode) -> None:
        if self.refuse is not None:
            raise LocalError(self.refuse)
        self.redirected.append(code)

    def open_seat(self, seat: int) -> None:
        self.opened.append(seat)
        if self.refuse is not None:
            raise LocalError(self.refuse)

    def claim_forfeit(self, seat: int) -> None:
        self.forfeits.append(seat)
        if self.refuse is not None:
            raise LocalError(self.refuse)

    def end_game(self) -> None:
        self.ended += 1
        if self.refuse is not None:
            raise LocalError(self.refuse)
        if self._send is not None:
            self.session.stage = "halted"
            self.finished.set()  # as a real node, whose connections close once the game halts
            self.push(Halted(Fault(None, FaultCode.ENDED, "bob was away", 3), "bob was away and alice ended the game"))


def terminal_game(pipe, session: FakeSession) -> tuple[TerminalGame, FakeNode]:
    """A terminal game in play on a fake node, its screen never shown: the test calls in."""
    game = TerminalGame(None, title="Probe", color=False, input=pipe, output=DummyOutput())  # type: ignore[arg-type]
    node = FakeNode(session)
    game.node = node  # type: ignore[assignment]
    game.mode = Mode.PLAYING
    return game, node
