"""Chaos over real processes: seats killed for good at random moments (issue 25).

Each game is a table of ``python -m p2pgames`` processes on 127.0.0.1, one ``--bot`` peer per
process, every peer with ``--grace 1s``: 4-player Steam Court, 4-player Beltpunk or 3-player
Astonishing!, drawn in turn. Once a surviving peer has printed a drawn number of lines of the game,
one seat — the host or a joiner, drawn too — is ``kill -9``ed and never comes back. The others
must finish: every survivor exits 0 with "Game over", its transcript verifies whole, names the
seat a bot took (and, for the host, who hosted from when), and blames nobody. At tables of three
or more the SPEC leaves no moment at which a bot can't take a vanished seat (protocol 7): a game
that ends instead is a failure.

    .venv/bin/python scripts/chaos_departures.py [GAMES] [--seed TEXT]

prints one line per game and a summary; exit status 0 if every game ended as it should.
(The suite's own chaos runs over real TCP in one process: tests/net/test_departure_chaos.py.)
"""

from __future__ import annotations

import argparse
import os
import queue
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPOSITORY))

from p2pgames.games import get_game  # noqa: E402
from p2pgames.session import verify_transcript  # noqa: E402

# (game, players, the most lines a survivor prints before the kill: well inside a game's length)
TABLES = [("steamcourt", 4, 160), ("beltpunk", 4, 160), ("astonishing", 3, 60)]
NAMES = ["ann", "bea", "cy", "dot"]
WAIT = 240.0  # seconds a process may take to say its next line or exit: a guard, not a measure


class Peer:
    def __init__(self, home: Path, *args: str) -> None:
        environment = dict(os.environ, P2PGAMES_HOME=str(home), PYTHONIOENCODING="utf-8")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "p2pgames", *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, cwd=REPOSITORY, env=environment, encoding="utf-8",
        )
        self.out: list[str] = []
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:  # type: ignore[union-attr]
            self._lines.put(line.rstrip("\n"))
        self._lines.put(None)

    def next_line(self) -> str | None:
        line = self._lines.get(timeout=WAIT)
        if line is not None:
            self.out.append(line)
        return line

    def line_starting(self, prefix: str) -> str:
        while (line := self.next_line()) is not None:
            if line.startswith(prefix):
                return line
        raise RuntimeError(f"no line starting {prefix!r}: {self.out[-5:]}")

    def finish(self) -> tuple[int, str]:
        code = self.process.wait(WAIT)
        while self.next_line() is not None:
            pass
        return code, self.process.stderr.read()  # type: ignore[union-attr]

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


def play(game: str, players: int, victim: int, lines: int, work: Path) -> tuple[str, str]:
    """One game, process ``victim`` (0: the host) killed once another has printed ``lines`` lines
    of it; ``(outcome, detail)``: outcome ``played on``,
    ``no kill`` (the game was over first) or ``FAILED``."""
    transcripts = work / "transcripts"
    names = NAMES[:players]
    peers: list[Peer] = []
    try:
        host = Peer(work / "ann", "host", game, "--players", str(players), "--bot", "--grace", "1s", "--port", "0",
                    "--bind", "127.0.0.1", "--name", "ann", "--profile", "ann", "--transcripts", str(transcripts))
        peers.append(host)
        code = host.line_starting("Join code: ").removeprefix("Join code: ")
        for name in names[1:]:
            peers.append(Peer(work / name, "join", code, "--bot", "--grace", "1s", "--profile", name, "--name", name,
                              "--transcripts", str(transcripts)))
        watcher = peers[1 if victim == 0 else 0]
        watcher.line_starting("The game begins: ")
        for _ in range(lines):
            line = watcher.next_line()
            if line is None or line.startswith("Game over: "):
                return "no kill", f"the game ended within {lines} lines"
        peers[victim].kill()
        gone = names[victim]
        survivors = [peer for index, peer in enumerate(peers) if index != victim]
        results = {names[peers.index(peer)]: peer.finish() for peer in survivors}
        reports = {}  # by the name of the seat that kept it (seats are taken in the order joiners came)
        for path in transcripts.glob("*.p2pt"):
            report = verify_transcript(path.read_bytes(), get_game)
            reports[report.names[report.seat]] = report
        for name in results:
            report = reports.get(name)
            if report is None or not report.ok:
                return "FAILED", f"{name}'s transcript: {report.describe() if report else 'missing'}"
            if report.stopped is not None and report.stopped.code != "ended":
                return "FAILED", f"{name}'s transcript blames: {report.describe()}"
        ended = [peer for peer in survivors if any("ending the game (a bot can't take their seat" in line for line in peer.out)]
        if ended:
            why = next(line for line in ended[0].out if "a bot can't take their seat" in line)
            return "FAILED", f"ended: {gone} killed; exits {sorted(code for code, _ in results.values())}; {why.split('seat: ', 1)[1][:90]}"
        seat = next(iter(reports.values())).names.index(gone)
        for peer in survivors:
            name = names[peers.index(peer)]
            exit_code, err = results[name]
            if exit_code != 0 or err or not any(line.startswith("Game over: ") for line in peer.out):
                return "FAILED", f"{name} exit {exit_code}: {err.strip()[:200] or peer.out[-3:]}"
            report = reports[name]
            if not report.complete or seat not in report.open_seats:
                return "FAILED", f"{name}'s transcript doesn't say a bot took {gone}'s seat: {report.describe()}"
            if victim == 0 and report.hosts[-1][1] == 0:
                return "FAILED", f"{name}'s transcript says nobody took the table over: {report.describe()}"
        entry = reports[names[peers.index(survivors[0])]].open_seats[seat]
        return "played on", f"{gone}{' (the host)' if victim == 0 else f' (seat {seat})'} killed; a bot from entry {entry}"
    except (RuntimeError, queue.Empty, subprocess.TimeoutExpired) as error:
        return "FAILED", f"{type(error).__name__}: {error}"
    finally:
        for peer in peers:
            peer.kill()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=12)
    parser.add_argument("--seed", default="chaos-departures")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    counts: dict[str, int] = {}
    for number in range(args.games):
        game, players, most = TABLES[number % len(TABLES)]
        victim, lines = rng.randrange(players), rng.randrange(3, most)
        work = Path(tempfile.mkdtemp(prefix="p2pgames-chaos-"))
        try:
            outcome, detail = play(game, players, victim, lines, work)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        counts[outcome] = counts.get(outcome, 0) + 1
        who = "the host" if victim == 0 else f"joiner {victim}"
        print(f"{number + 1:3} {game:12} {players}p, {who:8} killed after {lines:3} lines: {outcome} — {detail}", flush=True)
    print(", ".join(f"{outcome}: {count}" for outcome, count in sorted(counts.items())) + f" (of {args.games})")
    return 1 if counts.get("FAILED") else 0


if __name__ == "__main__":
    raise SystemExit(main())
