"""A seat played by a bot in its own process, with no terminal: ``p2pgames host/join --bot``.

:func:`run_headless` sets a table up as the terminal does (the same ``setup(nursery, say)``: a
host's :func:`~p2pgames.net.host_table` or a joiner's :func:`~p2pgames.net.join_table`), then
plays the seat with :func:`~p2pgames.net.drive_bot` and tells whoever reads the output what
happens, one line at a time:

=============================  ======================================================  ========
what                           line                                                    where
=============================  ======================================================  ========
setup                          what setup says (``Join code: HOST:PORT/FINGERPRINT``)  ``say``
the lobby changed              ``seated: alice, bot-1 (2 of 4)``                       ``say``
the game began                 ``The game begins: … alice (seat 0, you), …``           ``say``
an entry of the log            the game's own lines, as the terminal's log shows them  ``say``
chat, notices                  ``bob: hello``; the notice's text                       ``say``
a seat away, back              ``bob's connection was lost (…); the game waits …``     ``say``
the game ended                 ``Game over: alice wins — …``                           ``say``
the game stopped, or refused   ``p2pgames: The game stopped: …``                       ``warn``
where the transcript is        ``Your transcript of the game: PATH`` and how to check  either
=============================  ======================================================  ========

A seat away for longer than the grace period (``NetSettings.away_grace``) ends the game: a bot
seat ends it as a person may, so a scripted table whose process died doesn't wait for ever.

The exit code is the command line's: 0 the game ended; 1 it stopped on a fault, the host
refused us or closed the table, or the connection closed before the end; 3 a network problem
while setting up; 128 + the signal's number (130 for SIGINT, 143 for SIGTERM) when the process
was told to stop — the seat leaves the table first (the others are told), then the process ends.
A second signal ends it at once.
"""

from __future__ import annotations

import contextlib
import functools
import math
import os
import signal
import threading
from typing import Any, Awaitable, Callable, Iterator

import trio

from p2pgames.bots import Bot
from p2pgames.engine import Game
from p2pgames.invocation import command
from p2pgames.net._launch import SetupError
from p2pgames.net._node import Node
from p2pgames.net._players import drive_bot
from p2pgames.session import (
    AdjournAsked,
    AdjournDeclined,
    Adjourned,
    AwayTooLong,
    ChatReceived,
    DesyncReport,
    GameEnded,
    GameStarted,
    Halted,
    LobbyChanged,
    LocalError,
    Logged,
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

__all__ = ["run_headless", "play_headless", "HEADLESS_SIGNALS"]

Setup = Callable[[trio.Nursery, Callable[[str], None]], Awaitable[Node]]

FINISHED, FAILED, NETWORK = 0, 1, 3
HEADLESS_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def run_headless(
    setup: Setup,
    choose_bot: Callable[[Game], Bot],
    *,
    say: Callable[[str], None],
    warn: Callable[[str], None],
    if_away: str = "bot",
    if_i_leave: str = "end",
) -> int:
    """:func:`play_headless`, for callers outside trio (the command line): runs its own trio loop.
    In the main thread it takes SIGINT and SIGTERM (see the module docstring)."""

    async def main() -> int:
        return await play_headless(setup, choose_bot, say=say, warn=warn, if_away=if_away, if_i_leave=if_i_leave)

    return trio.run(main)


async def play_headless(
    setup: Setup,
    choose_bot: Callable[[Game], Bot],
    *,
    say: Callable[[str], None],
    warn: Callable[[str], None],
    if_away: str = "bot",
    if_i_leave: str = "end",
) -> int:
    """Set the table up with ``setup(nursery, say)``, play the seat with the bot
    ``choose_bot(game)`` returns once the game is known, and return the exit code. A seat away
    past the grace period is answered as ``if_away`` says (:func:`drive_bot`): by default, play on
    with a bot in it where it can be, else end the game. The first SIGINT or SIGTERM leaves as
    ``if_i_leave`` says: ``"bot"`` hands the seat to a bot (a joiner's; as soon as it can be),
    ``"end"`` leaves at once, which ends the game for the others.

    ``say`` is for what happens, ``warn`` for what went wrong (stdout and stderr on the command
    line). What ``choose_bot`` raises, and what ``setup`` raises besides the expected failures
    (:class:`SetupError`, :class:`OSError`: a line on ``warn`` and an exit code), is raised here,
    once the seat has left the table and everything setup started has stopped. Everything started in the nursery setup is given is
    cancelled once the seat's node has stopped.
    """
    seat = _HeadlessSeat(say, warn, if_away, if_i_leave)
    with _signals_taken() as signals:
        async with trio.open_nursery() as nursery:
            if signals is not None:
                nursery.start_soon(seat.watch_signals, signals, nursery.cancel_scope)
            await seat.play(setup, choose_bot, nursery)
            nursery.cancel_scope.cancel()
    if seat.raised is not None:
        raise seat.raised
    return seat.code


@contextlib.contextmanager
def _signals_taken() -> Iterator[Any]:
    """SIGINT and SIGTERM as a channel of signal numbers while it is open (None outside the main
    thread, where signals can't be taken: they keep their usual effect)."""
    if threading.current_thread() is not threading.main_thread():
        yield None
        return
    with trio.open_signal_receiver(*HEADLESS_SIGNALS) as received:
        yield received


class _Watched:
    """The node as :func:`drive_bot` sees it: everything the node's, but the events are the ones
    :class:`_HeadlessSeat` has shown first (the node has one channel of events, and both read it)."""

    def __init__(self, node: Node, events: trio.MemoryReceiveChannel[SessionEvent]) -> None:
        self._node = node
        self.events = events

    def __getattr__(self, name: str) -> Any:
        return getattr(self._node, name)


class _HeadlessSeat:
    def __init__(
        self, say: Callable[[str], None], warn: Callable[[str], None], if_away: str = "bot", if_i_leave: str = "end",
    ) -> None:
        self.say = say
        self.warn = warn
        self.if_away = if_away
        self.if_i_leave = if_i_leave
        self.node: Node | None = None
        self.code: int | None = None
        self.raised: BaseException | None = None
        self.stopped = False  # a Halted or a Rejected was shown
        self._seated: tuple[str, ...] | None = None
        self._signalled: int | None = None

    async def play(self, setup: Setup, choose_bot: Callable[[Game], Bot], nursery: trio.Nursery) -> None:
        try:
            node = await setup(nursery, self.say)
        except Exception as error:
            failed = _setup_failed(error)
            if failed is None:
                self.raised = error  # raised once everything setup started has stopped
                return
            message, self.code = failed
            self.warn(message)
            return
        self.node = node
        session = node.session
        assert session.game is not None  # a host knows its game, a seated joiner the host's
        try:
            bot = choose_bot(session.game)
        except Exception as error:
            self.raised = error
            node.leave("could not play")
            with trio.move_on_after(node.settings.linger):
                await node.finished.wait()
            return
        send, receive = trio.open_memory_channel[SessionEvent](math.inf)
        nursery.start_soon(functools.partial(drive_bot, _Watched(node, receive), bot, if_away=self.if_away))
        async with send:
            async for event in node.events:
                self.show(event)
                send.send_nowait(event)
        self.finish(node)

    def show(self, event: SessionEvent) -> None:
        session = self.node.session  # type: ignore[union-attr]
        if isinstance(event, LobbyChanged):
            names = tuple(name for name, _ in event.players)
            if names != self._seated:
                self._seated = names
                self.say(f"seated: {', '.join(names)} ({len(names)} of {event.seats})")
        elif isinstance(event, GameStarted):
            self.say(event.text(session.game))
        elif isinstance(event, Logged):
            for line in event.lines + event.private:
                self.say(line)
        elif isinstance(event, ChatReceived):
            self.say(f"{event.name}: {event.text}")
        elif isinstance(event, Notice):
            self.say(event.text)
        elif isinstance(event, DesyncReport):
            where = self.node.desync_report  # type: ignore[union-attr]
            text = "The peers disagree about the state of the game"
            self.say(f"{text}; the report is saved in {where}" if where else text)
        elif isinstance(event, (SeatAway, SeatBack)):
            self.say(event.text)
        elif isinstance(event, AwayTooLong):
            if self.if_away == "bot" and event.can_open:
                self.say(f"{event.text}, longer than the grace period: agreeing to play on with a bot in their seat.")
            elif self.if_away == "bot" and event.can_forfeit:
                why = f" (a bot can't take their seat: {event.why_not})" if event.why_not else ""
                self.say(f"{event.text}, longer than the grace period: claiming the game by forfeit{why}.")
            else:
                why = f" (a bot can't take their seat: {event.why_not})" if self.if_away == "bot" and event.why_not else ""
                self.say(f"{event.text}, longer than the grace period: ending the game{why}.")
        elif isinstance(event, (OpenSeatAsked, SeatOpened, HostChanged, TakeOverAgreed, AdjournAsked, AdjournDeclined)):
            self.say(event.text)
        elif isinstance(event, Adjourned):
            self.say(event.text)
            self.code = FINISHED  # (stopped as everyone agreed: no failure)
        elif isinstance(event, GameEnded):
            self.say(f"Game over: {event.message}")
        elif isinstance(event, Halted):
            self.stopped = True
            if self._signalled is None:
                self.warn(f"p2pgames: {event.message}")
        elif isinstance(event, Rejected):
            self.stopped = True
            if self._signalled is None:
                self.warn(f"p2pgames: you are not at the table any more: {event.reason}")

    def finish(self, node: Node) -> None:
        """The node has stopped: the exit code, and where the transcript is."""
        session = node.session
        if self.code is None:
            if session.result is not None and session.fault is None:
                self.code = FINISHED
            else:
                self.code = FAILED
                if not self.stopped:
                    self.warn("p2pgames: the connection to the table closed before the game ended")
        tell = self.say if self.code == FINISHED else self.warn
        path = node.transcript_path
        if path is not None and path.exists():
            tell(f"Your transcript of the game: {path}")
            tell(f"Check it at any time: {command('verify', str(path))}")

    async def watch_signals(self, signals: Any, everything: trio.CancelScope) -> None:
        """The first SIGINT or SIGTERM: leave the table (the others are told), then end — or,
        with ``if_i_leave="bot"``, hand the seat to a bot; the second: end at once."""
        async for number in signals:
            if self._signalled is not None:
                everything.cancel()
                return
            self._signalled = number
            self.code = 128 + number
            name = "interrupted" if number == signal.SIGINT else "terminated"
            node = self.node
            if node is None or node.finished.is_set():
                self.warn(f"p2pgames: {name}")
                everything.cancel()  # still setting up: nothing to leave yet
                return
            session = node.session
            if self.if_i_leave == "bot" and session.stage == "playing":  # a host hands the table on too (§B15)
                try:
                    node.hand_over()
                except LocalError:
                    pass
                else:
                    waiting = session.hand_over_waits_for()
                    why = f" (it waits: {waiting})" if waiting is not None else ""
                    self.warn(f"p2pgames: {name}; handing your seat to a bot as soon as it can be{why} (again: leave at once)")
                    continue
            self.warn(f"p2pgames: {name}; leaving the table")
            node.leave("game over" if session.stage == "over" else "quit")


def _setup_failed(error: BaseException) -> tuple[str, int] | None:
    """The line to print and the exit code when setting up failed as it may (a
    :class:`SetupError`, an :class:`OSError`); None for anything else (a bug: raised as it is)."""
    leaves = _leaves(error)
    if len(leaves) == 1 and isinstance(leaves[0], SetupError):
        return f"p2pgames: {leaves[0]}", NETWORK if leaves[0].network else FAILED
    if not leaves or not all(isinstance(leaf, OSError) for leaf in leaves):
        return None
    reasons = "; ".join(dict.fromkeys(leaf.strerror or str(leaf) or os.strerror(leaf.errno or 0) for leaf in leaves))  # type: ignore[union-attr]
    return f"p2pgames: could not start the game: {reasons}", NETWORK


def _leaves(error: BaseException) -> list[BaseException]:
    if isinstance(error, BaseExceptionGroup):
        return [leaf for inner in error.exceptions for leaf in _leaves(inner)]
    return [error]
