"""``p2pgames`` processes read line by line as a script would, for tests that run real tables
over loopback between processes (tests/cli, tests/net). Nothing sleeps to wait for anything: each
read blocks on a process's next line of output or on its exit, with :data:`TIMEOUT` only as a
guard against hanging (never a claim about speed)."""

from __future__ import annotations

import fcntl
import os
import pty
import queue
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path
from typing import Callable

REPOSITORY = Path(__file__).parents[1]
TIMEOUT = 60.0  # seconds: a guard against hanging on a loaded 2-core machine


class Peer:
    """A ``p2pgames`` process whose stdout is read a line at a time, as it comes."""

    def __init__(self, home: Path, *args: str, environment: dict[str, str] | None = None) -> None:
        environment = dict(os.environ, P2PGAMES_HOME=str(home), PYTHONIOENCODING="utf-8", **(environment or {}))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "p2pgames", *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, cwd=REPOSITORY, env=environment, encoding="utf-8",
        )
        self.out: list[str] = []  # the lines read so far
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for line in self.process.stdout:  # type: ignore[union-attr]
            self._lines.put(line.rstrip("\n"))
        self._lines.put(None)

    def line_starting(self, prefix: str) -> str:
        """Read on until a line starts with ``prefix``; that line."""
        while True:
            line = self._lines.get(timeout=TIMEOUT)
            if line is None:
                self.process.wait(TIMEOUT)
                raise AssertionError(f"no line starting {prefix!r}; stdout: {self.out}; stderr: {self.process.stderr.read()}")  # type: ignore[union-attr]
            self.out.append(line)
            if line.startswith(prefix):
                return line

    def close(self) -> None:
        """Kill the process if it still runs, let the reader reach the end of its output, then
        close the pipes (closed under the reader, its thread would fail on a closed file)."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        self._reader.join(TIMEOUT)
        self.process.stdout.close()  # type: ignore[union-attr]
        self.process.stderr.close()  # type: ignore[union-attr]

    def finish(self) -> tuple[int, list[str], str]:
        """Wait for the exit; (exit code, every line of stdout, stderr)."""
        code = self.process.wait(TIMEOUT)
        while (line := self._lines.get(timeout=TIMEOUT)) is not None:
            self.out.append(line)
        return code, self.out, self.process.stderr.read()  # type: ignore[union-attr]


def join_code(host: Peer) -> str:
    return host.line_starting("Join code: ").removeprefix("Join code: ")


def start_table(peers, transcripts: Path, players: int = 3) -> tuple[Peer, list[Peer], str]:
    """A table of ``players`` for the probe game on 127.0.0.1, every seat a bot in its own process
    (``peers``: the fixture), each writing its transcript in ``transcripts``: the host (profile
    ``hostess``), its joiners (profiles ``p1``, ``p2`` …) and its join code."""
    host = peers("host", "probe", "--players", str(players), "--bot", "--port", "0", "--bind", "127.0.0.1",
                 "--name", "hostess", "--profile", "hostess", "--transcripts", str(transcripts))
    code = join_code(host)
    joiners = [
        peers("join", code, "--bot", "--profile", f"p{number}", "--name", f"p{number}", "--transcripts", str(transcripts))
        for number in range(1, players)
    ]
    return host, joiners, code


def under_way(peer: Peer) -> None:
    """Wait until ``peer`` has seen the game begin and its first log line."""
    peer.line_starting("The game begins: ")
    peer.line_starting("")


def all_finished_and_verified(peers_: list[Peer], transcripts: Path, players: int = 3) -> None:
    """Every one of ``peers_`` ends well with the game over, and ``transcripts`` holds one
    transcript a seat (a resumed seat's new one replaced its old one), each verified whole."""
    from p2pgames.games import get_game
    from p2pgames.session import verify_transcript

    for peer in peers_:
        code, out, err = peer.finish()
        assert (code, err) == (0, ""), (out, err)
        assert any(line.startswith("Game over: ") for line in out), out
    files = sorted(transcripts.glob("*.p2pt"))
    assert len(files) == players, files
    for path in files:
        report = verify_transcript(path.read_bytes(), get_game)
        assert report.ok and report.complete, report.describe()


def _take_terminal() -> None:
    """In the child, before it runs: a session of its own whose controlling terminal is the
    pseudo-terminal on its stdin, so that Ctrl-C typed before the program sets the terminal raw
    is a SIGINT to it, as at a real terminal — and SIGINT and SIGQUIT taken as a terminal's
    programs take them, whatever started the suite (a job started with & in a script ignores
    both, and a program inherits that: Python then never turns Ctrl-C into KeyboardInterrupt)."""
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)


class TerminalPeer:
    """A ``p2pgames`` process in a pseudo-terminal of 80×24, as a person runs it: what it draws
    is read as it comes, with the terminal's escape sequences taken out (text that spans a
    redrawn line may come apart: look for short, distinctive text)."""

    _ESCAPE = re.compile(rb"\x1b(\[[0-9;?]*[ -/]*[@-~]|\][^\x07]*\x07|[()][A-Za-z0-9]|[=>78])")

    def __init__(self, home: Path, *args: str, environment: dict[str, str] | None = None) -> None:
        leader, follower = pty.openpty()
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        environment = dict(
            os.environ, P2PGAMES_HOME=str(home), PYTHONIOENCODING="utf-8", TERM="xterm-256color", **(environment or {}),
        )
        self.process = subprocess.Popen(
            [sys.executable, "-m", "p2pgames", *args], stdin=follower, stdout=follower, stderr=follower,
            cwd=REPOSITORY, env=environment, preexec_fn=_take_terminal,
        )
        os.close(follower)
        self._leader = leader
        self.screen = ""  # everything drawn so far, escapes taken out

    def wait_for(self, pattern: str) -> re.Match[str]:
        """Read on until what was drawn matches the regular expression ``pattern``; the match.
        Raises ``AssertionError`` if the process ends (or :data:`TIMEOUT` passes) first."""
        return self._read_until(lambda screen: re.search(pattern, screen), pattern, b"")

    def wait_for_after(self, pattern: re.Pattern[str], start: int) -> re.Match[str]:
        """As :meth:`wait_for`, but only what was drawn from offset ``start`` of :attr:`screen` on
        counts (what was drawn before is kept: offsets stay valid)."""
        return self._read_until(lambda screen: pattern.search(screen, start), pattern.pattern, self.screen.encode())

    def _read_until(self, find: Callable[[str], re.Match[str] | None], pattern: str, drawn: bytes) -> re.Match[str]:
        deadline = time.monotonic() + TIMEOUT
        while (found := find(self.screen)) is None:
            ready, _, _ = select.select([self._leader], [], [], max(0.0, deadline - time.monotonic()))
            try:
                chunk = os.read(self._leader, 65536) if ready else b""
            except OSError:  # the process ended and its terminal closed
                chunk = b""
            if not chunk:
                raise AssertionError(f"{pattern!r} was never drawn; the screen so far: {self.screen[-2000:]!r}")
            drawn += chunk
            self.screen = self._ESCAPE.sub(b" ", drawn).decode("utf-8", "replace")
        return found

    def type(self, keys: bytes) -> None:
        os.write(self._leader, keys)

    def finish(self) -> int:
        """Wait for the exit (reading what is drawn meanwhile, so that it never blocks on a full
        terminal); the exit code."""
        deadline = time.monotonic() + TIMEOUT
        while self.process.poll() is None and time.monotonic() < deadline:
            ready, _, _ = select.select([self._leader], [], [], 0.1)
            if ready:
                try:
                    os.read(self._leader, 65536)
                except OSError:
                    break
        return self.process.wait(TIMEOUT)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        os.close(self._leader)
