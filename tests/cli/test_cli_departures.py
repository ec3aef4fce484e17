"""A table that plays on when a joiner leaves for good (issue 25), over real ``python -m p2pgames``
processes on 127.0.0.1, one ``--bot`` peer per process. (The host's departures:
test_cli_host_departures.py.)

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

def test_a_torpedo_captain_killed_for_good_after_the_builds_is_played_by_a_bot_and_the_game_finishes(peers, tmp_path):
    """Steam Torpedo holds nothing secret once both builds are open: the joiner is ``kill -9``ed
    and never comes back; after ``--grace 1s`` the host's bot seat agrees to play on (a bot's
    default), the host plays the joiner's seat with a bot to the end and exits 0, and its
    transcript verifies and says from which entry."""
    code, out, err, transcripts = torpedo_captain_killed_after_the_builds(peers, tmp_path, "bea")
    assert (code, err) == (0, ""), (out, err)
    assert any(re.fullmatch(r"bea has been away for 0:0\d, longer than the grace period: agreeing to play on with a bot"
                            r" in their seat\.", line) for line in out), out
    [opened] = [line for line in out if line.startswith("bea's seat is played by a bot from entry ")]
    entry = int(re.search(r"entry (\d+)", opened).group(1))
    [over] = [line for line in out if line.startswith("Game over: ")]
    assert over.endswith(f"(bea's seat was played by a bot from entry {entry}.)"), over
    [path] = [path for path in transcripts.glob("*.p2pt") if verify_transcript(path.read_bytes(), get_game).seat == 0]
    report = verify_transcript(path.read_bytes(), get_game)
    assert report.ok and report.complete, report.describe()
    assert f"From entry {entry} a bot played the seat of bea (seat 1), its cards open to all." in report.describe()


def test_a_beltpunk_joiner_killed_for_good_with_two_players_ends_the_game(peers, tmp_path):
    """Two players, no escrow: the joiner's keys lock cards only it could open, so when it is
    ``kill -9``ed for good the host's bot can't play on; after ``--grace 1s`` it ends the game,
    saying why, and its transcript verifies, blaming nobody. (Unless the table plays a win by
    forfeit: below.)"""
    transcripts = tmp_path / "transcripts"
    host = peers("host", "beltpunk", "--players", "2", "--bot", "--grace", "1s", "--port", "0", "--bind", "127.0.0.1",
                 "--name", "ann", "--profile", "ann", "--transcripts", str(transcripts))
    joiner = peers("join", join_code(host), "--bot", "--profile", "bea", "--name", "bea", "--transcripts", str(transcripts))
    joiner.line_starting("The game begins: ")
    joiner.line_starting("ann")
    joiner.process.kill()
    joiner.process.wait()
    code, out, err = host.finish()
    assert any(re.fullmatch(r"bea has been away for 0:0\d, longer than the grace period: ending the game \(a bot can't"
                            r" take their seat: it holds keys of deal \d+, not yet audited: its cards would stay locked\)\.",
                            line) for line in out), (code, out, err)
    [path] = [path for path in transcripts.glob("*.p2pt") if verify_transcript(path.read_bytes(), get_game).seat == 0]
    report = verify_transcript(path.read_bytes(), get_game)
    assert report.ok, report.describe()
    assert report.stopped is not None and report.stopped.code == "ended", report.describe()
    assert "cheat" not in report.describe()
    # Ended, as a game stopped before its end always was: exit status 1, the reason on stderr.
    assert code == 1 and err.startswith("p2pgames: The game stopped: ") and "bea" in err, (code, out, err)


@pytest.mark.parametrize("killed", ["bea", "ann"])
def test_at_a_two_player_table_that_plays_it_the_one_left_wins_by_forfeit(peers, tmp_path, killed):
    """``host --forfeit``: when either player of a 2-player Beltpunk is ``kill -9``ed for good, no
    bot can take the seat, so after ``--grace 1s`` the one left (a bot peer: its default) claims the
    game by forfeit — the host logs its claim; a joiner whose host is gone signs the entry itself —,
    wins, exits 0, and its transcript verifies and says so, blaming nobody."""
    transcripts = tmp_path / "transcripts"
    host = peers("host", "beltpunk", "--players", "2", "--forfeit", "--bot", "--grace", "1s", "--port", "0",
                 "--bind", "127.0.0.1", "--name", "ann", "--profile", "ann", "--transcripts", str(transcripts))
    joiner = peers("join", join_code(host), "--bot", "--grace", "1s", "--profile", "bea", "--name", "bea",
                   "--transcripts", str(transcripts))
    joiner.line_starting("The game begins: ")
    joiner.line_starting("ann")
    gone, survivor = (joiner, host) if killed == "bea" else (host, joiner)
    gone.process.kill()
    gone.process.wait()
    code, out, err = survivor.finish()
    assert (code, err) == (0, ""), (out, err)
    who = "bea" if killed == "bea" else "The host, ann,"
    assert any(re.fullmatch(rf"{re.escape(who)} has been away for 0:0\d, longer than the grace period: claiming the game"
                            r" by forfeit \(a bot can't take their seat: .*\)\.", line) for line in out), out
    winner = "ann" if killed == "bea" else "bea"
    [over] = [line for line in out if line.startswith("Game over: ")]
    assert over == f"Game over: {winner} wins — a win by forfeit, the other player gone.", over
    [path] = [path for path in transcripts.glob("*.p2pt")
              if verify_transcript(path.read_bytes(), get_game).names[verify_transcript(path.read_bytes(), get_game).seat] == winner]
    report = verify_transcript(path.read_bytes(), get_game)
    assert report.ok and report.complete and report.stopped is None, report.describe()
    assert f"claimed the game by forfeit, {killed} (seat {1 if killed == 'bea' else 0}) gone" in report.describe()


@pytest.mark.parametrize("game, players", [("astonishing", 3), ("steamcourt", 4), ("beltpunk", 4)])
def test_a_joiner_leaving_mid_deal_hands_its_seat_to_a_bot_and_the_others_finish(peers, tmp_path, game, players):
    """One ``--bot`` peer per process: a joiner with ``--if-I-leave bot`` gets SIGTERM mid-deal,
    hands its seat over (its cards shown to all) and exits; the host plays it with a bot to the
    end; those who stayed exit 0 and their transcripts verify and say from which entry the bot
    played it."""
    transcripts = tmp_path / "transcripts"
    host = peers("host", game, "--players", str(players), "--bot", "--port", "0", "--bind", "127.0.0.1",
                 "--name", "ann", "--profile", "ann", "--transcripts", str(transcripts))
    code = join_code(host)
    stayers = [peers("join", code, "--bot", "--profile", name, "--name", name, "--transcripts", str(transcripts))
               for name in ["bea", "dot"][:players - 2]]
    leaver = peers("join", code, "--bot", "--if-I-leave", "bot", "--profile", "cy", "--name", "cy",
                   "--transcripts", str(transcripts))
    leaver.line_starting("The game begins: ")
    leaver.line_starting("ann")  # the first moves are made: the deck is dealt
    leaver.process.send_signal(signal.SIGTERM)
    leaver_code, leaver_out, leaver_err = leaver.finish()
    assert leaver_code == 128 + signal.SIGTERM, (leaver_out, leaver_err)
    assert "handing your seat to a bot as soon as it can be" in leaver_err, leaver_err
    entry = handed_over_at(leaver_out, "cy")
    for peer in (host, *stayers):
        out = finished_beside_the_bot(peer, "cy", entry)
        assert f"cy's seat is played by a bot from entry {entry}; its cards are shown to everyone." in out
    for report in verified(transcripts, players):
        assert re.search(rf"From entry {entry} a bot played the seat of cy \(seat \d\), its cards open to all\.",
                         report.describe()), report.describe()


@pytest.mark.parametrize("game, players", [("steamcourt", 4), ("astonishing", 3), ("beltpunk", 4)])
def test_a_joiner_killed_for_good_is_rebuilt_from_its_escrow_and_the_others_finish(peers, tmp_path, game, players):
    """A joiner holding cards is ``kill -9``ed mid-game and never comes back. After ``--grace 1s``
    every other peer's bot agrees to play on (a bot's default), giving its shares of the gone
    seat's escrow (§B16); its keys rebuilt, a bot plays it to the end; everyone who stayed exits 0
    and has a transcript that verifies and says from which entry, its keys rebuilt; nobody is
    named a cheater."""
    for attempt in range(TRIES):
        transcripts = tmp_path / f"transcripts-{attempt}"
        host = peers("host", game, "--players", str(players), "--bot", "--grace", "1s", "--port", "0",
                     "--bind", "127.0.0.1", "--name", "ann", "--profile", f"ann{attempt}", "--transcripts", str(transcripts))
        code = join_code(host)
        stayers = [peers("join", code, "--bot", "--grace", "1s", "--profile", f"{name}{attempt}", "--name", name,
                         "--transcripts", str(transcripts)) for name in ["bea", "dot"][:players - 2]]
        gone = peers("join", code, "--bot", "--profile", f"cy{attempt}", "--name", "cy", "--transcripts", str(transcripts))
        gone.line_starting("The game begins: ")
        for _ in range(4):  # a few moves in: the cards are dealt, its keys lock some (Astonishing!'s
            gone.line_starting("ann")  # first lines may come before its deal)
        gone.process.kill()
        gone.process.wait()
        finished = [peer.finish() for peer in (host, *stayers)]
        if not ended_where_no_bot_can_play(finished[0][1], "cy", game):
            break
    entries = set()
    for code_, out, err in finished:
        assert (code_, err) == (0, ""), (out, err)
        assert any(re.fullmatch(r"cy has been away for 0:0\d, longer than the grace period: agreeing to play on with"
                                r" a bot in their seat\.", line) for line in out), out
        [opened] = [line for line in out if line.startswith("cy's seat is played by a bot from entry ")]
        assert opened.endswith("; the others rebuild its card keys from its escrow; its cards are shown to everyone."), opened
        entry = int(re.search(r"entry (\d+)", opened).group(1))
        entries.add(entry)
        [over] = [line for line in out if line.startswith("Game over: ")]
        assert over.endswith(f"(cy's seat was played by a bot from entry {entry}.)"), over
    [entry] = entries
    files = [path for path in transcripts.glob("*.p2pt")]
    reports = [verify_transcript(path.read_bytes(), get_game) for path in files]
    stayed = [report for report in reports if report.names[report.seat] != "cy"]
    assert len(stayed) == players - 1
    for report in stayed:
        assert report.ok and report.complete, report.describe()
        assert report.stopped is None and report.failure is None
        assert (f"From entry {entry} a bot played the seat of cy (seat {report.names.index('cy')}) (its keys rebuilt by"
                " all the others from its escrow), its cards open to all.") in report.describe()
