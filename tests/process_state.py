"""What a test may not leave behind in the process: the guard every test runs under.

Tests share worker processes (pytest-xdist hands each worker files in whatever order), so a test
that changes the process and doesn't put it back fails some *later* test, on some workers, some of
the time. Issue 22's was a UPnP test that blocked SIGINT in the main thread: a Ctrl-C test on the
same worker then hung. :func:`snapshot` before a test and :meth:`ProcessState.changes_since` after
it name what changed, so the test that leaked fails instead of its victim, and
:meth:`ProcessState.restore` puts back what can be put back so the victims still pass.

What is compared:

- the main thread's signal mask, every signal's handler, the signal wakeup descriptor and the
  real-time interval timer (``deadline`` fixtures use SIGALRM);
- threads still running (trio's idle worker threads excepted: trio keeps them for reuse, and each
  ends by itself after 10 s of idleness);
- open file descriptors, and what descriptors 0–2 refer to;
- the environment and the working directory.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from dataclasses import dataclass, field

# How long a thread the test started may take to finish after the test, before it counts as left
# running (a thread told to stop at the end of the test may need a moment to get there).
THREAD_GRACE_SECONDS = 5.0

# pytest sets this one to the test and phase it is in: it changes between setup and teardown.
_PYTEST_VARIABLES = frozenset({"PYTEST_CURRENT_TEST"})

# trio's thread cache names its reusable worker threads so; they idle and end by themselves.
_TRIO_WORKER_PREFIX = "Trio thread "

_HANDLED_SIGNALS = tuple(
    sorted(s for s in signal.valid_signals() if s not in (signal.SIGKILL, signal.SIGSTOP) and s < signal.NSIG)
)


def _descriptors() -> frozenset[int]:
    try:
        return frozenset(int(name) for name in os.listdir("/proc/self/fd"))
    except FileNotFoundError:  # not Linux: descriptors aren't checked there
        return frozenset()


def _describe_descriptor(fd: int) -> str:
    try:
        return f"{fd} → {os.readlink(f'/proc/self/fd/{fd}')}"
    except OSError:
        return str(fd)


def _identity(fd: int) -> tuple[int, int] | None:
    try:
        stat = os.fstat(fd)
    except OSError:
        return None
    return stat.st_dev, stat.st_ino


def _wakeup_fd() -> int:
    previous = signal.set_wakeup_fd(-1)
    if previous != -1:
        signal.set_wakeup_fd(previous)
    return previous


def _threads() -> dict[int, threading.Thread]:
    return {
        thread.ident: thread
        for thread in threading.enumerate()
        if thread.ident is not None and not thread.name.startswith(_TRIO_WORKER_PREFIX)
    }


@dataclass(frozen=True)
class ProcessState:
    """What the process looked like at one moment (main thread only: signals live there)."""

    signal_mask: frozenset[int]
    handlers: dict[int, object]
    wakeup_fd: int
    interval_timer: tuple[float, float]
    threads: dict[int, threading.Thread]
    descriptors: frozenset[int]
    standard_streams: tuple[tuple[int, int] | None, ...]
    environment: dict[str, str] = field(repr=False)
    working_directory: str = ""

    def changes_since(self, before: ProcessState) -> list[str]:
        """One line per difference from ``before``, in words; empty if nothing changed."""
        changes: list[str] = []
        if self.signal_mask != before.signal_mask:
            blocked = sorted(signal.Signals(s).name for s in self.signal_mask - before.signal_mask)
            unblocked = sorted(signal.Signals(s).name for s in before.signal_mask - self.signal_mask)
            changes.append(f"the main thread's signal mask changed (now blocked: {blocked}, unblocked: {unblocked})")
        for number in _HANDLED_SIGNALS:
            if self.handlers.get(number) is not before.handlers.get(number):
                changes.append(
                    f"the handler of {signal.Signals(number).name} was {before.handlers.get(number)!r}, "
                    f"is {self.handlers.get(number)!r}"
                )
        if self.wakeup_fd != before.wakeup_fd:
            changes.append(f"the signal wakeup descriptor was {before.wakeup_fd}, is {self.wakeup_fd}")
        if self.interval_timer != before.interval_timer:
            changes.append(f"the real-time interval timer is still set: {self.interval_timer}")
        for ident, thread in self.threads.items():
            if ident not in before.threads:
                changes.append(f"a thread is left running: {thread!r}")
        opened = self.descriptors - before.descriptors
        closed = before.descriptors - self.descriptors
        if opened:
            changes.append("file descriptors left open: " + ", ".join(_describe_descriptor(fd) for fd in sorted(opened)))
        if closed:
            changes.append(f"file descriptors closed that were open before: {sorted(closed)}")
        for fd, (was, now) in enumerate(zip(before.standard_streams, self.standard_streams)):
            if was != now:
                changes.append(f"file descriptor {fd} refers to another file than before ({_describe_descriptor(fd)})")
        if self.environment != before.environment:
            keys = sorted(
                key for key in self.environment.keys() | before.environment.keys()
                if self.environment.get(key) != before.environment.get(key)
            )
            changes.append(f"environment variables changed: {keys}")
        if self.working_directory != before.working_directory:
            changes.append(f"the working directory was {before.working_directory}, is {self.working_directory}")
        return changes

    def restore(self) -> None:
        """Put back what can be: the signal mask, handlers, wakeup descriptor and timer, the
        environment and the working directory (threads and descriptors can't be undone here)."""
        signal.pthread_sigmask(signal.SIG_SETMASK, self.signal_mask)
        for number, handler in self.handlers.items():
            if handler is not None and signal.getsignal(number) is not handler:
                try:
                    signal.signal(number, handler)  # type: ignore[arg-type]
                except (OSError, ValueError, TypeError):
                    pass
        signal.set_wakeup_fd(self.wakeup_fd)
        signal.setitimer(signal.ITIMER_REAL, *self.interval_timer)
        for key in [key for key in os.environ if key not in self.environment and key not in _PYTEST_VARIABLES]:
            del os.environ[key]
        os.environ.update(self.environment)
        os.chdir(self.working_directory)


def snapshot() -> ProcessState:
    """The process as it is now; call it from the main thread."""
    handlers = {}
    for number in _HANDLED_SIGNALS:
        try:
            handlers[number] = signal.getsignal(number)
        except (OSError, ValueError):
            pass
    return ProcessState(
        signal_mask=frozenset(signal.pthread_sigmask(signal.SIG_BLOCK, [])),
        handlers=handlers,
        wakeup_fd=_wakeup_fd(),
        interval_timer=signal.getitimer(signal.ITIMER_REAL),
        threads=_threads(),
        descriptors=_descriptors(),
        standard_streams=tuple(_identity(fd) for fd in range(3)),
        environment={key: value for key, value in os.environ.items() if key not in _PYTEST_VARIABLES},
        working_directory=os.getcwd(),
    )


def wait_for_threads(before: ProcessState, timeout: float = THREAD_GRACE_SECONDS) -> None:
    """Give the threads started since ``before`` up to ``timeout`` seconds in all to finish
    (joins: this returns as soon as they have)."""
    deadline = time.monotonic() + timeout
    for ident, thread in _threads().items():
        if ident not in before.threads:
            thread.join(max(0.0, deadline - time.monotonic()))
