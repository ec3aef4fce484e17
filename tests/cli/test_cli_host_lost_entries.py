"""A host whose disk filled loses the last entries of its transcript, then its process dies: resumed
with ``p2pgames resume``, it takes them back from its joiners and the game finishes (issue 22,
point 16), over real ``python -m p2pgames`` processes on 127.0.0.1.

The full disk is the transcript cut after an entry, once the process is dead (what the disk kept).
As in test_cli_resume, nothing sleeps to synchronise: each step waits for a process's next line of
output or for its exit.
"""

from __future__ import annotations

from disk_full import through_entry
from peer_processes import all_finished_and_verified, start_table

from p2pgames.session import iter_records


def test_a_resumed_host_whose_transcript_lost_its_last_entries_takes_them_back_and_the_game_finishes(peers, tmp_path):
    transcripts = tmp_path / "transcripts"
    host, joiners, _ = start_table(peers, transcripts)
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
    all_finished_and_verified([again, *joiners], transcripts)
