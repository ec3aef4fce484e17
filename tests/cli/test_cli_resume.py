"""A seat taken again after its process was killed (issue 9): ``p2pgames resume`` and ``join`` with
the same profile, over real ``python -m p2pgames`` processes on 127.0.0.1.

As in test_cli_headless, nothing sleeps to synchronise: each step waits for a process's next line
of output or for its exit (with a timeout only as a guard against hanging).
"""

from __future__ import annotations

import pytest

from cli_calls import call
from peer_processes import TerminalPeer, all_finished_and_verified, join_code, start_table, under_way

from p2pgames.games import get_game
from p2pgames.net._resume import find_saved_seats
from p2pgames.profiles import read_identity
from p2pgames.session import verify_transcript


def test_a_joiner_killed_mid_game_takes_its_seat_again_with_resume(peers, tmp_path, home):
    transcripts = tmp_path / "transcripts"
    host, (first, second), _ = start_table(peers, transcripts)
    under_way(second)
    second.process.kill()  # kill -9: no goodbye, its saved seat left behind
    second.process.wait()
    saved = list((home / "seats").glob("*.p2pseat"))
    assert len(saved) >= 2, "a saved seat per running seat"
    assert all(path.stat().st_mode & 0o777 == 0o600 for path in saved), "secrets: readable by their owner only"
    again = peers("resume", "--bot", "--profile", "p2", "--name", "p2", "--transcripts", str(transcripts))
    assert again.line_starting("Resuming probe ").endswith(".p2pseat).")
    again.line_starting("Back at the table: caught up on ")
    all_finished_and_verified([host, first, again], transcripts)
    assert not list((home / "seats").glob("*")), "saved seats are deleted when the game ends"


def test_a_joiner_killed_mid_game_that_joins_again_with_the_same_profile_takes_its_seat(peers, tmp_path):
    transcripts = tmp_path / "transcripts"
    host, (first, second), code = start_table(peers, transcripts)
    under_way(second)
    second.process.kill()
    second.process.wait()
    again = peers("join", code, "--bot", "--profile", "p2", "--name", "p2", "--transcripts", str(transcripts))
    assert "unfinished game at this table" in again.line_starting("You have a seat in an unfinished game")
    all_finished_and_verified([host, first, again], transcripts)


def test_a_host_killed_mid_game_resumes_on_its_port_and_the_game_finishes(peers, tmp_path):
    transcripts = tmp_path / "transcripts"
    host, joiners, code = start_table(peers, transcripts)
    under_way(joiners[1])
    host.process.kill()
    host.process.wait()
    port = code.split("/")[0].split(":")[1]
    again = peers("resume", "--bot", "--profile", "hostess", "--bind", "127.0.0.1")
    line = again.line_starting("Resumed the game after ")
    assert line.endswith(f"listening on port {port}.")
    all_finished_and_verified([again, *joiners], transcripts)


def test_a_host_killed_mid_game_launches_its_bots_again_when_it_resumes_and_the_game_finishes(peers, tmp_path, home):
    """``host --bots``: the bots are peers of the host's own process, killed with it. Their seats
    were saved with their keys (and nowhere else), so the resumed host launches them again; with
    the game over, every saved seat is gone."""
    transcripts = tmp_path / "transcripts"
    host = peers("host", "probe", "--players", "3", "--bots", "2", "--bot", "--port", "0", "--bind", "127.0.0.1",
                 "--name", "hostess", "--profile", "hostess", "--transcripts", str(transcripts))
    under_way(host)
    bots = list((home / "seats" / "bots").glob("*.p2pseat"))
    assert len(bots) == 2 and all(path.stat().st_mode & 0o777 == 0o600 for path in bots)
    host.process.kill()
    host.process.wait()
    again = peers("resume", "--bot", "--profile", "hostess", "--bind", "127.0.0.1")
    again.line_starting("Resumed the game after ")
    all_finished_and_verified([again], transcripts, players=1)
    assert not list((home / "seats").rglob("*.p2pseat")), "saved seats are deleted when the game ends"


def test_play_adjourned_at_quit_is_taken_up_with_resume_its_bots_back_and_finished(peers, tmp_path, home):
    """Against bots, ``quit`` offers to adjourn (issue 26, point 6): the bots agree, every seat is
    kept, the screen closes saying how to go on; ``resume`` brings the bots back, and the game
    ends as any other (here a bot plays the player's seat: ``--bot``)."""
    transcripts = tmp_path / "transcripts"
    player = TerminalPeer(home, "play", "probe", "--players", "3", "--transcripts", str(transcripts))
    try:
        player.wait_for("The game begins")
        player.type(b"quit\r")
        player.wait_for("adjourn: resume later")
        player.type(b"a")
        player.wait_for(r"Adjourned\s+after\s+\d+\s+log\s+entries")
        player.wait_for(r"you\s+host\s+the\s+table:\s+run\s+p2pgames\s+resume\s+first")  # (the line wraps)
        assert player.finish() == 0
    finally:
        player.close()
    assert len(list((home / "seats").glob("*.p2pseat"))) == 1 and len(list((home / "seats" / "bots").glob("*.p2pseat"))) == 2
    again = peers("resume", "--bot")
    again.line_starting("Resumed the game after ")
    all_finished_and_verified([again], transcripts, players=1)
    assert not list((home / "seats").rglob("*.p2pseat"))


def test_a_host_resumed_on_another_port_with_bind_prints_the_code_host_would(peers, tmp_path):
    """``resume --bind 127.0.0.1 --port 0`` listens on loopback only: its new code names 127.0.0.1,
    as ``host --bind 127.0.0.1`` names it, never the LAN address (issue 22, point 3)."""
    transcripts = tmp_path / "transcripts"
    host, joiners, code = start_table(peers, transcripts)
    under_way(joiners[1])
    host.process.kill()
    host.process.wait()
    again = peers("resume", "--bot", "--profile", "hostess", "--bind", "127.0.0.1", "--port", "0")
    port = int(again.line_starting("Resumed the game after ").rsplit(" ", 1)[1].rstrip("."))
    fingerprint = code.split("/")[1]
    assert code == f"127.0.0.1:{code.split(':')[1].split('/')[0]}/{fingerprint}", "host --bind 127.0.0.1 names it"
    moved = f"127.0.0.1:{port}/{fingerprint}"
    assert again.line_starting("The table's address changed: ") == (
        f"The table's address changed: give the others the new code. A player still at the table types  code {moved} ;"
        f" one who quit runs  p2pgames resume --code {moved}"
    )
    assert again.line_starting("") == "Waiting for the others to rejoin …", "bound to one address: no other code"


def test_resume_while_the_game_still_runs_says_which_program_holds_the_profile(peers, tmp_path, home):
    """The old process still runs (a terminal left open, a frozen program): ``resume`` says that
    profile 'default' is in use by it, and what to do, not "nothing saved for 'default-2'" (issue
    22, point 17)."""
    transcripts = tmp_path / "transcripts"
    host = peers("host", "probe", "--players", "2", "--bot", "--port", "0", "--bind", "127.0.0.1",
                 "--name", "hostess", "--profile", "hostess", "--transcripts", str(transcripts))
    code = join_code(host)
    joiner = peers("join", code, "--bot", "--name", "ann", "--transcripts", str(transcripts))  # profile 'default'
    under_way(joiner)
    host.process.kill()  # the game can't end meanwhile: the joiner waits for its host, its seat saved
    host.process.wait()
    pid, port = joiner.process.pid, code.split("/")[0].split(":")[1]
    assert call("resume") == (1, "", (
        f"p2pgames: profile 'default' is in use by a running p2pgames (pid {pid}, joining the table at 127.0.0.1:{port}): "
        f"your game may still be going on there. Go back to that program; if it is stuck, stop it (kill {pid}) and "
        "run p2pgames resume again\n"
    ))
    assert sorted(path.name for path in (home / "identities").glob("*.key")) == ["default.key", "hostess.key"], (
        "no other profile was made in its place"
    )


def test_resume_takes_the_game_of_the_default_profile_a_second_terminal_played(peers, tmp_path):
    """Two players on one machine: the second terminal's seat is profile 'default-2''s. When it
    is killed, ``resume`` (no --profile) finds its game, though 'default' is busy with the other
    seat's game, and takes the seat as 'default-2'."""
    transcripts = tmp_path / "transcripts"
    host = peers("host", "probe", "--players", "3", "--bot", "--port", "0", "--bind", "127.0.0.1",
                 "--name", "hostess", "--profile", "hostess", "--transcripts", str(transcripts))
    code = join_code(host)
    first = peers("join", code, "--bot", "--name", "ann", "--transcripts", str(transcripts))
    first.line_starting("Created identity 'default'")
    second = peers("join", code, "--bot", "--name", "bob", "--transcripts", str(transcripts))
    second.line_starting("Created identity 'default-2'")
    under_way(second)
    second.process.kill()
    second.process.wait()
    again = peers("resume", "--bot", "--name", "bob", "--transcripts", str(transcripts))
    assert again.line_starting("") == "Using profile 'default-2', in which this game was played."
    again.line_starting("Back at the table: caught up on ")
    all_finished_and_verified([host, first, again], transcripts)


def test_a_joiner_resumed_before_its_host_waits_for_it_then_the_game_finishes(peers, tmp_path):
    """The host and a joiner crash together and the joiner's ``resume`` comes first: it says it
    waits for the host, and takes its seat once the host has resumed (issue 22, point 15)."""
    transcripts = tmp_path / "transcripts"
    host, (first, second), code = start_table(peers, transcripts)
    under_way(second)
    for peer in (host, second):
        peer.process.kill()
    for peer in (host, second):
        peer.process.wait()
    again = peers("resume", "--bot", "--profile", "p2", "--name", "p2", "--transcripts", str(transcripts))
    waiting = again.line_starting("The host is not answering at ")
    assert waiting == (
        f"The host is not answering at {code.split('/')[0]}: nothing is listening there (connection refused). "
        "Waiting for it to come back, for up to 3:00 (--grace sets how long; Ctrl-C stops) …"
    )
    host_again = peers("resume", "--bot", "--profile", "hostess", "--bind", "127.0.0.1")
    again.line_starting("Back at the table: caught up on ")
    all_finished_and_verified([host_again, first, again], transcripts)


def test_ctrl_c_while_waiting_for_the_host_stops_and_keeps_the_seat(peers, tmp_path, home):
    transcripts = tmp_path / "transcripts"
    host, (first, second), _ = start_table(peers, transcripts)
    under_way(second)
    for peer in (host, first, second):
        peer.process.kill()
        peer.process.wait()
    seats = sorted((home / "seats").glob("*.p2pseat"))
    player = TerminalPeer(home, "resume", "--profile", "p2")
    try:
        player.wait_for("Waiting for it to come back")
        player.type(b"\x03")  # Ctrl-C, before any screen opened: a SIGINT
        player.wait_for("p2pgames: interrupted")
        assert player.finish() == 130
    finally:
        player.close()
    assert sorted((home / "seats").glob("*.p2pseat")) == seats, "the seat is kept, to be taken later"


def test_resume_forget_deletes_the_seat_that_resume_would_take(peers, tmp_path, home):
    """When nothing can tell that the game is over (its host is gone for good), ``resume --forget``
    drops the seat the player names; a seat whose program still runs is not the player's to drop."""
    transcripts = tmp_path / "transcripts"
    host, (first, second), _ = start_table(peers, transcripts)
    under_way(second)
    for peer in (host, second):
        peer.process.kill()
        peer.process.wait()
    [(path, saved)] = find_saved_seats(home / "seats", read_identity("p2"))  # type: ignore[arg-type]
    game_id = saved.game_id.hex()[:8]
    assert call("resume", "--forget", game_id, "--profile", "p2") == (
        0, f"Forgot your seat in probe {game_id}, seat {saved.seat}: this program can't take it up again.\n", "",
    )
    assert not path.exists()
    assert call("resume", "--profile", "p2")[0] == 1, "nothing to resume now"
    code, _, err = call("resume", "--forget", game_id, "--profile", "p1")
    assert code == 1 and err.startswith(f"p2pgames: profile 'p1' is in use by a running p2pgames (pid {first.process.pid}, "), err


def test_resume_forget_needs_the_game_it_deletes(peers, tmp_path, home):
    """``--forget`` can't be undone: with no GAME it would delete the newest saved seat, maybe
    not the one the player meant (another game, or another default profile's). A usage error,
    deleting nothing."""
    host, (first, second), _ = start_table(peers, tmp_path / "transcripts")
    under_way(second)
    for peer in (host, first, second):
        peer.process.kill()
        peer.process.wait()
    seats = sorted((home / "seats").glob("*.p2pseat"))
    assert len(seats) == 3
    for profile in ((), ("--profile", "p2")):
        assert call("resume", "--forget", *profile) == (2, "", (
            "p2pgames: --forget deletes a saved seat for good: name its game (p2pgames resume --forget GAME, GAME the "
            "start of its id, as the message that suggested it gives it)\n"
        ))
    assert sorted((home / "seats").glob("*.p2pseat")) == seats


def a_game_ended_while_its_joiner_was_away(peers, transcripts) -> str:
    """A two-seat table whose joiner (profile p1) is killed; the host's bot seat ends the game
    a second later (--grace 1s), as a host's player may (``end``), and its program exits. The
    joiner's seat stays saved. Returns the port the game had."""
    host = peers("host", "probe", "--players", "2", "--bot", "--grace", "1s", "--port", "0", "--bind", "127.0.0.1",
                 "--name", "hostess", "--profile", "hostess", "--transcripts", str(transcripts))
    code = join_code(host)
    joiner = peers("join", code, "--bot", "--profile", "p1", "--name", "p1", "--transcripts", str(transcripts))
    under_way(joiner)
    joiner.process.kill()
    joiner.process.wait()
    exit_code, _, err = host.finish()
    assert exit_code == 1 and "was away" in err, err
    return code.split("/")[0].split(":")[1]


def test_joining_a_new_table_of_the_same_host_forgets_the_seat_of_its_ended_game_and_joins(peers, tmp_path, home):
    """A seat belongs to one game, not to a host: ``join NEWCODE`` to the host's next table tries
    the saved seat, hears from the host that its game is over, forgets the seat, says so, and
    joins as a new player (it said "could not take your seat again … you have no seat at this
    table's game" and exited 1: issue 22, point 2)."""
    transcripts = tmp_path / "transcripts"
    a_game_ended_while_its_joiner_was_away(peers, transcripts)
    [old_seat] = (home / "seats").glob("*-seat1.p2pseat")
    host = peers("host", "probe", "--players", "2", "--bot", "--port", "0", "--bind", "127.0.0.1",
                 "--name", "hostess", "--profile", "hostess", "--transcripts", str(transcripts))
    joiner = peers("join", join_code(host), "--bot", "--profile", "p1", "--name", "p1", "--transcripts", str(transcripts))
    assert joiner.line_starting("You have a seat in an unfinished game at this table (probe ")
    assert joiner.line_starting("That game has stopped") == (
        "That game has stopped: its host is not playing it any more (it ended while you were away). "
        "Your saved seat in it is forgotten; joining the table as a new player …"
    )
    for peer in (host, joiner):
        exit_code, out, err = peer.finish()
        assert (exit_code, err) == (0, ""), (out, err)
        assert any(line.startswith("Game over: ") for line in out), out
    assert not old_seat.exists()


def test_resume_of_a_game_its_host_no_longer_plays_forgets_the_seat_and_says_so(peers, tmp_path, home):
    transcripts = tmp_path / "transcripts"
    port = a_game_ended_while_its_joiner_was_away(peers, transcripts)
    [old_seat] = (home / "seats").glob("*-seat1.p2pseat")
    host = peers("host", "probe", "--players", "2", "--bot", "--port", port, "--bind", "127.0.0.1",
                 "--name", "hostess", "--profile", "hostess", "--transcripts", str(transcripts))
    join_code(host)  # listening on the game's port again, at a new table
    again = peers("resume", "--bot", "--profile", "p1")
    exit_code, out, err = again.finish()
    assert exit_code == 1, (out, err)
    assert err == (
        "p2pgames: could not take your seat again: the game has stopped: its host is not playing it any more "
        "(it ended while you were away); your saved seat in that game is forgotten\n"
    )
    assert not old_seat.exists()


def test_resume_with_nothing_saved_is_one_line(home):
    code, out, err = call("resume", "--profile", "nobody")
    assert code == 1 and out == ""
    assert err == (
        f"p2pgames: no unfinished game is saved for profile 'nobody' in {home / 'seats'} (a seat is saved "
        "there while its game runs, and deleted when it ends)\n"
    )


def test_resume_with_a_bad_code_is_a_usage_error(home):
    code, out, err = call("resume", "--code", "nowhere")
    assert code == 2 and out == "" and err.startswith("p2pgames: ")


def test_grace_sets_how_long_a_seat_may_be_away_before_a_bot_host_ends_the_game(peers, tmp_path):
    """``--grace 1s``: a joiner killed mid-game and never started again is waited for a second,
    not three minutes; then the host's bot seat ends the game, and every transcript verifies and
    says who was away and who ended it."""
    transcripts = tmp_path / "transcripts"
    host = peers("host", "probe", "--players", "2", "--bot", "--grace", "1s", "--port", "0", "--bind", "127.0.0.1",
                 "--name", "hostess", "--profile", "hostess", "--transcripts", str(transcripts))
    joiner = peers("join", join_code(host), "--bot", "--profile", "p1", "--name", "p1", "--transcripts", str(transcripts))
    under_way(joiner)
    joiner.process.kill()
    joiner.process.wait()
    code, out, err = host.finish()
    assert any(line.startswith("p1 has been away for 0:01") for line in out), out
    assert code == 1 and err.startswith("p2pgames: The game stopped: p1 (seat 1) was away"), err
    files = sorted(transcripts.glob("*.p2pt"))
    assert len(files) == 2, files
    for path in files:
        report = verify_transcript(path.read_bytes(), get_game)
        assert report.ok, report.describe()
    assert "The game was ended after " in verify_transcript(files[0].read_bytes(), get_game).describe()


@pytest.mark.parametrize("grace, problem", [
    ("0", "--grace must be between 1s and 24h, not '0'"),
    ("25h", "--grace must be between 1s and 24h, not '25h'"),
    ("soon", "--grace: 'soon' is not a time: write it as 180, 90s, 3m, 1m30s, 1h or 3:00"),
])
@pytest.mark.parametrize("command", [["host", "probe", "--bot"], ["join", "127.0.0.1:4000", "--bot"], ["resume"]])
def test_a_grace_that_is_no_time_is_a_usage_error(home, command, grace, problem):
    code, out, err = call(*command, "--grace", grace)
    assert (code, out, err) == (2, "", f"p2pgames: {problem}\n")
