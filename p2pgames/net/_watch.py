"""Watching a table over TCP (SPEC §B19): dial the host, greet it as a watcher, and follow its log
until the game ends, the host turns us away or the connection closes. The protocol is the sans-I/O
:class:`~p2pgames.session.Watcher`'s; this is only its socket."""

from __future__ import annotations

from typing import Any, Callable

import trio

from p2pgames.crypto import Identity
from p2pgames.games import get_presentation
from p2pgames.net._framing import FrameError, FrameReader, frame
from p2pgames.net._joincode import JoinCode
from p2pgames.net._launch import SetupError, _connect_problem
from p2pgames.net._node import NetSettings
from p2pgames.session import LocalError, Notice, SessionEvent, Watcher

__all__ = ["watch_headless", "watch_table"]


def watch_headless(watch: Callable[..., Any], on_event: Callable[[Watcher, SessionEvent], None]) -> Watcher:
    """Run ``watch(on_event)`` (``watch_table`` with its table given) to its end, without a
    screen; the watcher. Raises :class:`SetupError` when the table can't be reached."""
    return trio.run(watch, on_event)


async def watch_table(
    code: JoinCode, on_event: Callable[[Watcher, SessionEvent], None], *, name: str, settings: NetSettings = NetSettings(),
    identity: Identity | None = None, say: trio.MemoryReceiveChannel[str] | None = None,
    task_status=trio.TASK_STATUS_IGNORED,
) -> Watcher:
    """Watch the table at ``code`` (its fingerprint, if it has one, must be the host's), giving
    each event to ``on_event(watcher, event)`` as it comes; return the watcher once the watching
    has ended (its ``stage`` says how). Started (``nursery.start``: the watcher) once connected.
    Each line from ``say`` is said to the table where its host lets watchers chat (a line that
    can't be is a :class:`Notice` saying why). A watcher's key is its own and seats nothing: a
    fresh one unless ``identity``. Raises :class:`SetupError` when the host can't be reached."""
    watcher = Watcher(identity or Identity.generate(), name, get_presentation, code.fingerprint)
    try:
        with trio.fail_after(settings.connect_timeout):
            stream = await trio.open_tcp_stream(code.host, code.port)
    except trio.TooSlowError:
        raise SetupError(f"can't reach the table at {code.host}:{code.port}: no answer within {settings.connect_timeout:.0f} s") from None
    except OSError as error:
        raise _connect_problem(error, code) from None
    task_status.started(watcher)
    sending = trio.Lock()

    async def send_what_is_due() -> None:
        async with sending:
            for data in watcher.take_outgoing():
                await stream.send_all(frame(data))

    async def say_lines() -> None:
        assert say is not None
        async for text in say:
            try:
                watcher.chat(text)
            except LocalError as error:
                on_event(watcher, Notice(f"Not sent: {error}."))
                continue
            try:
                await send_what_is_due()
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                return  # the reading side says how the connection ended

    async def read_until_the_end() -> None:
        reader = FrameReader(stream, settings.max_frame)
        try:
            while not watcher.finished:
                payload = await reader.next_frame()
                if payload is None:
                    watcher.disconnected()
                    break
                watcher.receive(payload)
                await send_what_is_due()
                for event in watcher.take_events():
                    on_event(watcher, event)
        except FrameError as error:
            watcher.disconnected(f"the host sent a broken frame: {error}")
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as error:
            watcher.disconnected(str(error) or "the connection failed")

    async with stream:
        async with trio.open_nursery() as nursery:
            if say is not None:
                nursery.start_soon(say_lines)
            await read_until_the_end()
            nursery.cancel_scope.cancel()
    for event in watcher.take_events():
        on_event(watcher, event)
    return watcher
