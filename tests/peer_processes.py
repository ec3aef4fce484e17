"""``p2pgames`` processes read line by line as a script would, for tests that run real tables
over loopback between processes (tests/cli, tests/net). Nothing sleeps to wait for anything: each
read blocks on a process's next line of output or on its exit, with :data:`TIMEOUT` only as a
guard against hanging (never a claim about speed)."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

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
        threading.Thread(target=self._read, daemon=True).start()

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

    def finish(self) -> tuple[int, list[str], str]:
        """Wait for the exit; (exit code, every line of stdout, stderr)."""
        code = self.process.wait(TIMEOUT)
        while (line := self._lines.get(timeout=TIMEOUT)) is not None:
            self.out.append(line)
        return code, self.out, self.process.stderr.read()  # type: ignore[union-attr]


def join_code(host: Peer) -> str:
    return host.line_starting("Join code: ").removeprefix("Join code: ")
