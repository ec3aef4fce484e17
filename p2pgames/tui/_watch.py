"""``p2pgames watch``: a table's game, live, on the replay's screen (SPEC §B19).

What the screen shows is the watcher's game so far (:attr:`Watcher.replay`): the table as a player
holding no cards sees it, and the log. It follows the game while it shows the latest entry; the
replay's keys step back through what happened (End follows again). Before the start it shows the
lobby; once the watching ends (the game over, the host gone, turned away) it says why and stays
until q. trio runs the connection inside prompt_toolkit's event loop, as a guest (see ``_app``).
"""

from __future__ import annotations

import asyncio
import functools
import math
from typing import Any, Callable

import trio
from prompt_toolkit.filters import Condition
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import ConditionalKeyBindings, KeyBindings, KeyPressEvent, merge_key_bindings
from prompt_toolkit.key_binding.key_bindings import KeyBindingsBase
from prompt_toolkit.keys import Keys
from prompt_toolkit.output import Output

from p2pgames.session import GameEnded, Halted, LobbyChanged, Notice, Rejected, SessionEvent, Watcher
from p2pgames.tui._exceptions import only_exception
from p2pgames.tui._replay import ReplayScreen
from p2pgames.tui._text import Line, pad

__all__ = ["WatchScreen", "run_watch"]

WATCH_KEYS = "watching live · ← → ↓ ↑ step back through it · End follows again · q quits"
WATCH_KEYS_CHAT = "watching live · ← → ↓ ↑ look back · End follows · s says a line · q quits"


class WatchScreen(ReplayScreen):
    """The replay's screen over a game still being played: :meth:`update` after each event."""

    def __init__(self, *, color: bool, input: Input | None = None, output: Output | None = None,
                 say: Callable[[str], None] | None = None) -> None:
        self.say = say  # says a line to the table (where its host lets watchers chat)
        self.saying: str | None = None  # the line being typed, after s
        self.may_chat = False
        super().__init__(None, None, color=color, input=input, output=output)  # type: ignore[arg-type]
        self.lobby: LobbyChanged | None = None
        self.ended: str | None = None  # how the watching ended, once it has

    def _bindings(self) -> KeyBindingsBase:
        """The replay's keys, and s to say a line (typed on the bottom row, Enter sends it)."""
        saying = Condition(lambda: self.saying is not None)
        chat = KeyBindings()

        @chat.add("s", filter=~saying)
        def _start(event: KeyPressEvent) -> None:
            if self.may_chat and self.say is not None and self.ended is None:
                self.saying = ""
                self.app.invalidate()

        @chat.add(Keys.Any, filter=saying)
        def _type(event: KeyPressEvent) -> None:
            if event.data.isprintable():
                self.saying = ((self.saying or "") + event.data)[:500]
                self.app.invalidate()

        @chat.add("backspace", filter=saying)
        def _erase(event: KeyPressEvent) -> None:
            self.saying = (self.saying or "")[:-1]
            self.app.invalidate()

        @chat.add("enter", filter=saying)
        def _send(event: KeyPressEvent) -> None:
            text, self.saying = self.saying, None
            if text and self.say is not None:
                self.say(text)
            self.app.invalidate()

        @chat.add("escape", filter=saying, eager=True)
        @chat.add("c-c", filter=saying)
        def _cancel(event: KeyPressEvent) -> None:
            self.saying = None
            self.app.invalidate()

        return merge_key_bindings([ConditionalKeyBindings(super()._bindings(), ~saying), chat])

    def update(self, watcher: Watcher, event: SessionEvent | None) -> None:
        """Take what the watcher now holds; follow the game if the screen shows its latest step."""
        following = self.replay is None or self.index == len(self.replay.steps) - 1
        self.replay = watcher.replay
        self.may_chat = watcher.may_chat
        if isinstance(event, LobbyChanged):
            self.lobby = event
        elif isinstance(event, GameEnded):
            self.ended = f"Game over: {event.message}"
        elif isinstance(event, (Halted, Rejected, Notice)) and watcher.finished and self.ended is None:
            self.ended = event.message if isinstance(event, Halted) else event.reason if isinstance(event, Rejected) else event.text
        if following and self.replay is not None:
            self.index = len(self.replay.steps) - 1
        self.app.invalidate()

    def _title(self, width: int, height: int | None) -> list[Line]:
        if self.replay is None:
            return [pad([("class:title", " Watching · the game has not begun")], width, "class:title")]
        return super()._title(width, height)

    def _table(self, width: int, height: int | None) -> list[Line]:
        if self.replay is None:
            if self.lobby is None:
                return [[("class:log.info", "Waiting for the host's table …")]]
            seated = ", ".join(name for name, _ in self.lobby.players)
            return [[("", f"Seated: {seated} ({len(self.lobby.players)} of {self.lobby.seats}).")],
                    [("class:log.info", "The game begins once every seat is taken.")]]
        return super()._table(width, height)

    def _log(self, width: int, height: int | None) -> list[Line]:
        lines = [] if self.replay is None else super()._log(width, None)
        if self.ended is not None:
            lines.append([("class:log.end", self.ended)])
        return lines if height is None else lines[-height:] if height > 0 else []

    def _keys(self, width: int, height: int | None) -> list[Line]:
        if self.saying is not None:
            return [[("class:status", f" say: {self.saying}▏ (Enter sends, Esc cancels)")]]
        if self.problem is not None or self.typed:
            return super()._keys(width, height)
        if self.ended is not None:
            return [[("class:status", " the watching has ended · q quits")]]
        return [[("class:status", " " + (WATCH_KEYS_CHAT if self.may_chat and self.say is not None else WATCH_KEYS))]]


def run_watch(
    watch: Callable[..., Any], *, color: bool, input: Input | None = None, output: Output | None = None,
) -> Watcher | None:
    """Run ``watch(on_event, task_status=…)`` in trio (``watch_table`` with its table given: it
    reports the watcher as started once connected, then follows the table) and, once it has
    started, a :class:`WatchScreen` until the player quits; the watcher. The screen opens only
    once the host answered: a table that can't be reached raises before any screen."""
    holder: dict[str, Any] = {}

    def say(text: str) -> None:  # (from the screen, in the same thread: trio is a guest)
        token, _ = holder["cancel"]
        token.run_sync_soon(holder["say"].send_nowait, text)

    screen = WatchScreen(color=color, input=input, output=output, say=say)

    async def trio_main() -> None:
        scope = trio.CancelScope()
        holder["cancel"] = (trio.lowlevel.current_trio_token(), scope)
        holder["say"], lines = trio.open_memory_channel[str](math.inf)
        with scope:
            async with trio.open_nursery() as nursery:
                holder["watcher"] = await nursery.start(functools.partial(watch, screen.update, say=lines))
                holder["started"].set()

    async def main() -> Any:
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Any] = loop.create_future()
        holder["started"] = asyncio.Event()
        trio.lowlevel.start_guest_run(
            trio_main, run_sync_soon_threadsafe=loop.call_soon_threadsafe, run_sync_soon_not_threadsafe=loop.call_soon,
            done_callback=done.set_result, host_uses_signal_set_wakeup_fd=True,
        )
        started = asyncio.ensure_future(holder["started"].wait())
        try:
            await asyncio.wait({started, done}, return_when=asyncio.FIRST_COMPLETED)
            if started.done():
                await screen.app.run_async()
        finally:
            started.cancel()
            if not done.done():
                token, scope = holder["cancel"]
                try:
                    token.run_sync_soon(scope.cancel)
                except trio.RunFinishedError:
                    pass
        return await asyncio.shield(done)

    try:
        asyncio.run(main()).unwrap()
    except BaseExceptionGroup as group:
        raise only_exception(group) from None
    return holder.get("watcher")
