"""A table that plays on when someone leaves for good (issue 25), over real ``python -m p2pgames``
processes on 127.0.0.1, one ``--bot`` peer per process.

As in test_cli_resume, nothing sleeps to synchronise: each step waits for a process's next line
of output or for its exit (with a timeout only as a guard against hanging).
"""

from __future__ import annotations

import re
import signal

import pytest
from peer_processes import join_code

from p2pgames.games import get_game
from p2pgames.session import verify_transcript

# Moments at which a seat that vanished can't be played by a bot, so the table can only end (the
# SPEC's §B14/§B16 refusals; issue 25's note): in Astonishing!, about 2.5 % of a joiner's entries
# (a give or take under way whose card only its key locks; never the host's, in the games
# measured), in Steam Court and Beltpunk none past the first entries. A kill is a moment chosen by
# timing, not by the test: one that lands there is tried again, a few times at most, at another
# moment (and any other reason fails the test).
# Steam Torpedo, two players (no escrow): about 1 % of the entries after the builds, a choice
# committed to and not opened (a seat opens only as it is there).
CANT_PLAY_ON = {
    "astonishing": ("a re-shuffle it takes part in is under way over a card only its key still locks",),
    "torpedo": ("it has committed to a choice it has not opened",),
}
TRIES = 3


def ended_where_no_bot_can_play(out: list[str], who: str, game: str) -> bool:
    """Whether ``out`` says the game was ended because ``who`` vanished at one of the moments
    :data:`CANT_PLAY_ON` names for ``game`` (a reason other than those fails the test)."""
    ended = [line for line in out if re.match(rf"{re.escape(who)} has been away for .*: ending the game", line)]
    if not ended:
        return False
    reasons = CANT_PLAY_ON.get(game, ())
    assert any(f"(a bot can't take their seat: {reason})." in ended[0] for reason in reasons), ended
    return True


def test_a_torpedo_captain_killed_for_good_after_the_builds_is_played_by_a_bot_and_the_game_finishes(peers, tmp_path):
    """Steam Torpedo holds nothing secret once both builds are open: the joiner is ``kill -9``ed
    and never comes back; after ``--grace 1s`` the host's bot seat agrees to play on (a bot's
    default), the host plays the joiner's seat with a bot to the end and exits 0, and its
    transcript verifies and says from which entry."""
    for attempt in range(TRIES):
        transcripts = tmp_path / f"transcripts-{attempt}"
        host = peers("host", "torpedo", "--bot", "heuristic", "--grace", "1s", "--port", "0", "--bind", "127.0.0.1",
                     "--name", "ann", "--profile", f"ann{attempt}", "--transcripts", str(transcripts))
        joiner = peers("join", join_code(host), "--bot", "heuristic", "--profile", f"bea{attempt}", "--name", "bea",
                       "--transcripts", str(transcripts))
        # Both builds are open once both are narrated; then a move or two.
        joiner.line_starting("ann built")
        joiner.line_starting("bea built")
        joiner.line_starting("ann")
        joiner.process.kill()
        joiner.process.wait()
        code, out, err = host.finish()
        if not ended_where_no_bot_can_play(out, "bea", "torpedo"):
            break
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


def test_a_torpedo_host_killed_for_good_after_the_builds_is_taken_over_by_the_one_left(peers, tmp_path):
    """Two players, no escrow: once both builds are open the host's seat holds nothing secret, so
    when the host is ``kill -9``ed for good, the joiner alone takes the table over (its own consent)
    after ``--grace 1s``, plays the host's seat with a bot to the end, and exits 0; its transcript
    verifies and says who hosted from when."""
    for attempt in range(TRIES):
        transcripts = tmp_path / f"transcripts-{attempt}"
        host = peers("host", "torpedo", "--bot", "heuristic", "--port", "0", "--bind", "127.0.0.1",
                     "--name", "ann", "--profile", f"ann{attempt}", "--transcripts", str(transcripts))
        joiner = peers("join", join_code(host), "--bot", "heuristic", "--grace", "1s", "--profile", f"bea{attempt}",
                       "--name", "bea", "--transcripts", str(transcripts))
        joiner.line_starting("ann built")
        joiner.line_starting("bea built")
        joiner.line_starting("ann")
        host.process.kill()
        host.process.wait()
        code, out, err = joiner.finish()
        if not ended_where_no_bot_can_play(out, "The host, ann,", "torpedo"):
            break
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


def test_a_beltpunk_joiner_killed_for_good_with_two_players_ends_the_game(peers, tmp_path):
    """Two players, no escrow: the joiner's keys lock cards only it could open, so when it is
    ``kill -9``ed for good the host's bot can't play on; after ``--grace 1s`` it ends the game,
    saying why, and its transcript verifies, blaming nobody. (No forfeit: issue 25 leaves it.)"""
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


def handed_over_at(out: list[str], name: str) -> int:
    """The entry from which a bot played ``name``'s seat, as its own output says."""
    [handed] = [line for line in out if line.startswith(f"{name}'s seat is played by a bot from entry ")]
    return int(re.search(r"entry (\d+)", handed).group(1))


def finished_beside_the_bot(peer, name: str, entry: int) -> list[str]:
    """``peer`` exits 0, silent on stderr, its result saying a bot played ``name``'s seat from
    ``entry``; its output."""
    code, out, err = peer.finish()
    assert (code, err) == (0, ""), (out, err)
    [over] = [line for line in out if line.startswith("Game over: ")]
    assert over.endswith(f"({name}'s seat was played by a bot from entry {entry}.)"), over
    return out


def verified(transcripts, players: int) -> list:
    """The reports of the ``players`` transcripts in ``transcripts``, each verified."""
    files = sorted(transcripts.glob("*.p2pt"))
    assert len(files) == players, files
    reports = [verify_transcript(path.read_bytes(), get_game) for path in files]
    for report in reports:
        assert report.ok, report.describe()
    return reports


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
