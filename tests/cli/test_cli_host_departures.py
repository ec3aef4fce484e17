"""A table that plays on when its host leaves for good (issue 25): with a hand-over, or ``kill -9``ed
and taken over by the others (SPEC §B15), over real ``python -m p2pgames`` processes on 127.0.0.1,
one ``--bot`` peer per process. (The joiners' departures: test_cli_departures.py.)

As in test_cli_resume, nothing sleeps to synchronise: each step waits for a process's next line
of output or for its exit (with a timeout only as a guard against hanging).
"""

from __future__ import annotations

import re
import signal

import pytest
from departures import (
    TRIES, ended_where_no_bot_can_play, finished_beside_the_bot, handed_over_at, torpedo_captain_killed_after_the_builds, verified,
)
from peer_processes import join_code

from p2pgames.games import get_game
from p2pgames.session import verify_transcript


def test_a_torpedo_host_killed_for_good_after_the_builds_is_taken_over_by_the_one_left(peers, tmp_path):
    """Two players, no escrow: once both builds are open the host's seat holds nothing secret, so
    when the host is ``kill -9``ed for good, the joiner alone takes the table over (its own consent)
    after ``--grace 1s``, plays the host's seat with a bot to the end, and exits 0; its transcript
    verifies and says who hosted from when."""
    code, out, err, transcripts = torpedo_captain_killed_after_the_builds(peers, tmp_path, "ann")
    assert (code, err) == (0, ""), (out, err)
    assert "ann is gone; you host the table now (everyone agreed), and a bot plays ann's seat." in out, out
    entry = handed_over_at(out, "ann")
    [over] = [line for line in out if line.startswith("Game over: ")]
    assert over.endswith(f"(ann's seat was played by a bot from entry {entry}.)"), over
    [path] = [path for path in transcripts.glob("*.p2pt") if verify_transcript(path.read_bytes(), get_game).seat == 1]
    report = verify_transcript(path.read_bytes(), get_game)
    assert report.ok and report.complete, report.describe()
    assert (f"From entry {entry} bea (seat 1) hosted the table (every seat still playing agreed to take it over from"
            " ann (seat 0), gone).") in report.describe()


@pytest.mark.parametrize("game, players", [("steamcourt", 4), ("astonishing", 3), ("beltpunk", 4)])
def test_the_host_leaving_hands_the_table_to_a_successor_and_the_others_finish(peers, tmp_path, game, players):
    """The host, with ``--if-I-leave bot``, gets SIGTERM once the game is under way: it hands
    its seat to a bot and the log to the first joiner (which listens on loopback and said so), and
    exits. The successor hosts from the next entry; the other joiners hang up on the old host,
    dial the successor and rejoin it by themselves; everyone who stayed finishes, exits 0, and
    has a transcript that verifies and says who hosted from when."""
    transcripts = tmp_path / "transcripts"
    host = peers("host", game, "--players", str(players), "--bot", "--if-I-leave", "bot", "--port", "0",
                 "--bind", "127.0.0.1", "--name", "ann", "--profile", "ann", "--transcripts", str(transcripts))
    code = join_code(host)
    names = ["bea", "cy", "dot"][:players - 1]
    joiners = [peers("join", code, "--bot", "--profile", name, "--name", name, "--transcripts", str(transcripts))
               for name in names]
    seated = host.line_starting("seated: ")
    while not seated.endswith(f"({players} of {players})"):
        seated = host.line_starting("seated: ")
    successor = seated.removeprefix("seated: ").split(", ")[1]  # seat 1: the first still playing
    host.line_starting("The game begins: ")
    host.line_starting(successor)  # a few moves in: cards are out
    host.process.send_signal(signal.SIGTERM)
    host_code, host_out, host_err = host.finish()
    assert host_code == 128 + signal.SIGTERM, (host_out, host_err)
    assert "handing your seat to a bot as soon as it can be" in host_err, host_err
    entry = handed_over_at(host_out, "ann")
    for peer, name in zip(joiners, names):
        out = finished_beside_the_bot(peer, "ann", entry)
        expected = ("ann left; you host the table now (the others reconnect to you)." if name == successor
                    else f"ann left; {successor} hosts the table now (reconnecting …).")
        assert expected in out, (name, out)
    for report in verified(transcripts, players):
        if report.seat != 0:
            assert report.complete, report.describe()
            assert f"From entry {entry + 1} {successor} (seat 1) hosted the table (ann (seat 0) handed it over)." in report.describe()
        assert f"From entry {entry} a bot played the seat of ann (seat 0), its cards open to all." in report.describe()


@pytest.mark.parametrize("game, players", [("steamcourt", 4), ("astonishing", 3), ("beltpunk", 4)])
def test_the_host_killed_for_good_is_taken_over_by_the_others_who_finish(peers, tmp_path, game, players):
    """The host is ``kill -9``ed once the game is under way and never comes back. After
    ``--grace 1s`` every joiner's bot agrees to play on (a bot's default): the first joiner, the
    successor, claims the table; the others dial it where it said it listens, rejoin it and
    consent; it signs the take-over, the host's keys are rebuilt from its escrow and a bot plays
    its seat. Everyone who stayed finishes, exits 0, and has a transcript that verifies and says
    who hosted from when; nobody is named a cheater."""
    for attempt in range(TRIES):
        transcripts = tmp_path / f"transcripts-{attempt}"
        host = peers("host", game, "--players", str(players), "--bot", "--port", "0", "--bind", "127.0.0.1",
                     "--name", "ann", "--profile", f"ann{attempt}", "--transcripts", str(transcripts))
        code = join_code(host)
        names = ["bea", "cy", "dot"][:players - 1]
        joiners = [peers("join", code, "--bot", "--grace", "1s", "--profile", f"{name}{attempt}", "--name", name,
                         "--transcripts", str(transcripts)) for name in names]
        seated = host.line_starting("seated: ")
        while not seated.endswith(f"({players} of {players})"):
            seated = host.line_starting("seated: ")
        successor = seated.removeprefix("seated: ").split(", ")[1]  # seat 1: the first still playing
        host.line_starting("The game begins: ")
        for _ in range(4):  # a few moves in: cards are out, locked by the host's keys too
            host.line_starting(successor)
        host.process.kill()
        host.process.wait()
        finished = [peer.finish() for peer in joiners]
        if not ended_where_no_bot_can_play(finished[0][1], "The host, ann,", game):
            break
    entries = set()
    for (code_, out, err), name in zip(finished, names):
        assert (code_, err) == (0, ""), (out, err)
        assert any(re.fullmatch(r"The host, ann, has been away for 0:0\d, longer than the grace period: agreeing to"
                                r" play on with a bot in their seat\.", line) for line in out), out
        expected = ("ann is gone; you host the table now (everyone agreed), and a bot plays ann's seat." if name == successor
                    else f"ann is gone; {successor} hosts the table now (everyone agreed), and a bot plays ann's seat.")
        assert expected in out, (name, out)
        entry = handed_over_at(out, "ann")
        entries.add(entry)
        [over] = [line for line in out if line.startswith("Game over: ")]
        assert over.endswith(f"(ann's seat was played by a bot from entry {entry}.)"), over
    [entry] = entries
    reports = [verify_transcript(path.read_bytes(), get_game) for path in sorted(transcripts.glob("*.p2pt"))]
    stayed = [report for report in reports if report.seat != 0]
    assert len(stayed) == players - 1
    for report in stayed:
        assert report.ok and report.complete, report.describe()
        assert report.stopped is None and report.failure is None
        text = report.describe()
        assert (f"From entry {entry} {successor} (seat 1) hosted the table (every seat still playing agreed to take it"
                " over from ann (seat 0), gone).") in text, text
        assert (f"From entry {entry} a bot played the seat of ann (seat 0) (its keys rebuilt by all the others from its"
                " escrow), its cards open to all.") in text, text
