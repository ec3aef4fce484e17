"""A host whose disk filled loses the last entries of its transcript, then its process dies: resumed
with ``p2pgames resume``, it takes them back from its joiners and the game finishes (issue 22,
point 16), over real ``python -m p2pgames`` processes on 127.0.0.1.

The full disk is the transcript cut after an entry, once the process is dead (what the disk kept).
As in test_cli_resume, nothing sleeps to synchronise: each step waits for a process's next line of
output or for its exit.
"""

from __future__ import annotations

from disk_full import through_entry
from peer_processes import join_code

from p2pgames.games import get_game
from p2pgames.session import iter_records, verify_transcript


def test_a_resumed_host_whose_transcript_lost_its_last_entries_takes_them_back_and_the_game_finishes(peers, tmp_path):
    transcripts = tmp_path / "transcripts"
    host = peers("host", "probe", "--players", "3", "--bot", "--port", "0", "--bind", "127.0.0.1",
                 "--name", "hostess", "--profile", "hostess", "--transcripts", str(transcripts))
    code = join_code(host)
    joiners = [
        peers("join", code, "--bot", "--profile", f"p{number}", "--name", f"p{number}", "--transcripts", str(transcripts))
        for number in (1, 2)
    ]
    for joiner in joiners:
        joiner.line_starting("The game begins: ")
    for _ in range(6):  # a few moves into the game
        joiners[1].line_starting("")
    host.process.kill()
    host.process.wait()
    [written] = transcripts.glob("*-seat0-hostess.p2pt")
    data = written.read_bytes()
    entries = sum(kind == "entry" for kind, _ in iter_records(data))
    kept = entries // 2
    written.write_bytes(data[:through_entry(data, kept)])  # the disk filled after entry kept - 1
    again = peers("resume", "--bot", "--profile", "hostess", "--bind", "127.0.0.1")
    assert again.line_starting("Resumed the game after ").startswith(f"Resumed the game after {kept} log entries")
    for peer in (again, *joiners):
        exit_code, out, err = peer.finish()
        assert (exit_code, err) == (0, ""), (out, err)
        assert any(line.startswith("Game over: ") for line in out), out
    files = sorted(transcripts.glob("*.p2pt"))
    assert len(files) == 3, files  # the resumed host's new transcript replaced its old one
    for path in files:
        report = verify_transcript(path.read_bytes(), get_game)
        assert report.ok and report.complete, report.describe()
