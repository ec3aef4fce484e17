"""A whole table joins at once from one address while a stranger holds junk connections open
(issue 23, point 3, its acceptance): real ``p2pgames`` processes on 127.0.0.1, read line by line as
a script would, and a stranger process (``junk_stranger.py``) holding 40 connections that never
say hello — more than the host holds at once (32) — from the same address.

The table seats 13, one more than any real game (the deal bench, a test game that deals and
audits an 84-card deck among every seat, then ends): the host's seat, played by a bot in the host's
process, and 12 ``join --bot`` processes started at once — a whole table of 12 at the door, all
seated. Nothing sleeps to wait for anything: each read blocks on a process's next line, with
:data:`peer_processes.TIMEOUT` only as a guard.
"""

from __future__ import annotations

import select
import subprocess
import sys
from pathlib import Path

from peer_processes import TIMEOUT, join_code

STRANGER = Path(__file__).with_name("junk_stranger.py")
SEATS = 13  # the host's seat and 12 joiners
JUNK = 40


def test_twelve_joiners_are_seated_at_once_from_one_address_while_a_stranger_holds_40_junk_connections(peers):
    host = peers("host", "dealbench", "--players", str(SEATS), "--bot", "--bind", "127.0.0.1", "--name", "hostess",
                 "--no-transcript")
    code = join_code(host)
    port = code.partition("/")[0].rpartition(":")[2]
    stranger = subprocess.Popen([sys.executable, str(STRANGER), port, str(JUNK)], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, text=True)
    try:
        assert first_line(stranger) == f"holding {JUNK}\n"
        joiners = [
            peers("join", code, "--bot", "--profile", f"p{number}", "--name", f"p{number}", "--no-transcript")
            for number in range(1, SEATS)
        ]
        for peer in [*joiners, host]:  # a joiner turned away says why before the host is waited for
            exit_code, out, err = peer.finish()
            assert (exit_code, err) == (0, ""), (out, err)
            begins = next(line for line in out if line.startswith("The game begins: "))
            assert begins.count("(seat ") == SEATS, begins
            assert out[-1].startswith("Game over: "), out[-3:]
        said, _ = stranger.communicate(timeout=TIMEOUT)  # its stdin closed, it says how many the host closed
    finally:
        if stranger.poll() is None:  # something failed (or it hangs): it goes with the test
            stranger.kill()
        stranger.communicate()
    assert [line for line in host.out if line.startswith("seated: ")][-1].endswith(f"({SEATS} of {SEATS})")
    closed = int(said.removeprefix("closed "))
    assert closed >= JUNK - 32, f"the stranger held more than the host's room all along: {said!r}"


def first_line(process: subprocess.Popen) -> str:
    """The first line ``process`` writes, waited for :data:`TIMEOUT` seconds at most (it writes
    nothing more until told to: nothing is left unread in the pipe's buffer)."""
    ready, _, _ = select.select([process.stdout], [], [], TIMEOUT)
    assert ready, f"nothing written within {TIMEOUT:.0f} s"
    return process.stdout.readline()  # type: ignore[union-attr]
