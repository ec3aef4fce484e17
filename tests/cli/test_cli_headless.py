"""Seats played by bots in their own processes, with no terminal: ``host GAME --bot`` and
``join CODE --bot`` (issue 9, point 5), and a transcript directory that can't be written, for every
command that saves transcripts (point 4).

The tables here are real: ``python -m p2pgames`` processes on 127.0.0.1, each with its own
identity, read line by line as a script would. Nothing sleeps to wait for anything: each test
blocks on a process's next line of output or on its exit, with :data:`peer_processes.TIMEOUT` only as a guard
against hanging (never a claim about speed).
"""

from __future__ import annotations

import errno
import functools
import os
import signal
import socket
import tempfile
from pathlib import Path

import pytest
import trio

from cli_calls import call
from peer_processes import TIMEOUT, join_code
from p2pgames import cli
from p2pgames.bots import bot_for
from p2pgames.crypto import Identity
from p2pgames.games import get_game
from p2pgames.net import NetSettings, Node, host_table, play_headless
from p2pgames.session import GameStarted, Session, verify_transcript


# -- a table spread over processes --------------------------------------------------------------------


def test_a_table_of_three_processes_plays_to_the_end_and_every_transcript_verifies(peers, tmp_path):
    transcripts = tmp_path / "transcripts"
    host = peers("host", "probe", "--players", "3", "--bot", "--port", "0", "--bind", "127.0.0.1",
                 "--name", "hostess", "--transcripts", str(transcripts))
    code = join_code(host)
    assert code.startswith("127.0.0.1:")
    joiners = [
        peers("join", code, "--bot", "--profile", f"p{number}", "--name", f"p{number}", "--transcripts", str(transcripts))
        for number in (1, 2)
    ]
    finished = [peer.finish() for peer in [host, *joiners]]
    for exit_code, out, err in finished:
        assert (exit_code, err) == (0, ""), (out, err)
        assert out[-3].startswith("Game over: ")
        assert out[-2].startswith("Your transcript of the game: ")
        assert out[-1].startswith("Check it at any time: p2pgames verify ")
        begins = next(line for line in out if line.startswith("The game begins: "))
        assert "hostess (seat 0" in begins and "p1 (seat " in begins and "p2 (seat " in begins
    _, host_out, _ = finished[0]
    assert host_out[1] == f"Join code: {code}"  # after the new identity's line, before anything else
    seated = [line for line in host_out if line.startswith("seated: ")]
    assert seated[-1] == "seated: hostess, p1, p2 (3 of 3)" or seated[-1] == "seated: hostess, p2, p1 (3 of 3)"
    assert len({line for line in (out[-3] for _, out, _ in finished)}) == 1  # one result, said by all
    files = sorted(transcripts.glob("*.p2pt"))
    assert len(files) == 3
    for exit_code, out, _ in finished:
        assert Path(out[-2].removeprefix("Your transcript of the game: ")) in files
    for path in files:
        report = verify_transcript(path.read_bytes(), get_game)
        assert report.ok and report.complete, report.describe()


def test_a_join_code_with_an_ipv6_address_plays_a_whole_game(peers, tmp_path, ipv6_loopback):
    # Issue 13: "p2pgames join [::1]:PORT/FINGERPRINT plays a whole game". Bound to ::1, the host's
    # code names it, and its own bot dials it too.
    transcripts = tmp_path / "transcripts"
    host = peers("host", "probe", "--players", "3", "--bots", "1", "--bot", "--bind", "::1",
                 "--name", "hostess", "--transcripts", str(transcripts))
    code = join_code(host)
    assert code.startswith("[::1]:")
    joiner = peers("join", code, "--bot", "--profile", "six", "--name", "six", "--transcripts", str(transcripts))
    for exit_code, out, err in (host.finish(), joiner.finish()):
        assert (exit_code, err) == (0, ""), (out, err)
        assert out[-3].startswith("Game over: ")
    files = sorted(transcripts.glob("*.p2pt"))
    assert len(files) == 2
    for path in files:
        report = verify_transcript(path.read_bytes(), get_game)
        assert report.ok and report.complete, report.describe()


def test_a_signal_makes_a_bot_seat_leave_the_table_first(peers):
    host = peers("host", "probe", "--players", "3", "--bot", "--bind", "127.0.0.1", "--name", "hostess", "--no-transcript")
    code = join_code(host)
    joiner = peers("join", code, "--bot", "--profile", "p1", "--name", "p1", "--no-transcript")
    joiner.line_starting("seated: hostess, p1 (2 of 3)")
    host.line_starting("seated: hostess, p1 (2 of 3)")
    joiner.process.send_signal(signal.SIGINT)  # Ctrl-C: the joiner leaves, the host sees it go
    assert joiner.finish() == (130, joiner.out, "p2pgames: interrupted; leaving the table\n")
    host.line_starting("seated: hostess (1 of 3)")
    second = peers("join", code, "--bot", "--profile", "p2", "--name", "p2", "--no-transcript")
    second.line_starting("seated: hostess, p2 (2 of 3)")
    host.process.send_signal(signal.SIGTERM)  # the host closes the table; its joiner is told
    assert host.finish() == (143, host.out, "p2pgames: terminated; leaving the table\n")
    assert second.finish() == (1, second.out, "p2pgames: you are not at the table any more: the host closed the table\n")


def test_a_kind_the_hosts_game_lacks_is_refused_before_taking_a_seat(peers):
    host = peers("host", "probe", "--players", "2", "--bot", "--bind", "127.0.0.1", "--name", "hostess", "--no-transcript")
    code = join_code(host)
    host_and_port = code.partition("/")[0]
    exit_code, out, err = call("join", code, "--bot", "search", "--no-transcript")  # a Steam Torpedo kind
    assert exit_code == 2 and "seated" not in out
    assert err == f"p2pgames: the table at {host_and_port} plays Probe; Probe has one kind of bot; give --bot without a KIND\n"
    # The seat is still free: the game is the next joiner's (had the refused one sat down, the
    # table of two would have been full).
    exit_code, out, err = call("join", code, "--bot", "--no-transcript")
    assert (exit_code, err) == (0, ""), out
    assert host.finish()[0] == 0


def test_a_bot_seat_ends_the_game_when_a_seat_stays_away_past_the_grace_period(autojump_clock):
    # In one process (a second of grace, not three minutes): the joiner vanishes once the game began.
    # On the autojump clock, the grace period and the watchdog's ticks cost no real time.
    settings = NetSettings(away_grace=1.0)
    said: list[str] = []
    warned: list[str] = []

    async def main() -> int:
        async def vanishing_joiner(port: int) -> None:
            node = Node(Session(Identity.generate(), "ghost", get_game, bot=True), settings=settings)
            with trio.CancelScope() as gone:
                async with trio.open_nursery() as nursery:
                    await nursery.start(node.connect, "127.0.0.1", port)
                    async for event in node.events:
                        if isinstance(event, GameStarted):
                            gone.cancel()  # like a process killed: the connection just closes

        async def setup(nursery, say):
            node = await host_table(
                nursery, identity=Identity.generate(), name="hostess", ruleset=get_game("probe").ruleset(2),
                bind="127.0.0.1", settings=settings, say=say, bot=True,
            )
            port = int(said[0].removeprefix("Join code: ").split("/")[0].rpartition(":")[2])
            nursery.start_soon(vanishing_joiner, port)
            return node

        return await play_headless(setup, lambda game: bot_for(game, b"s"), say=said.append, warn=warned.append)

    assert trio.run(main, clock=autojump_clock) == 1
    assert any(line.startswith("ghost's connection was lost (") for line in said), said
    # A bot can't take a seat whose keys lock cards: the game ends, and the bot seat says why.
    assert any(line.startswith("ghost has been away for 0:0") and line.endswith(
        "longer than the grace period: ending the game (a bot can't take their seat: it holds keys of deal 0,"
        " not yet audited: its cards would stay locked)."
    ) for line in said), said
    assert warned == ["p2pgames: The game stopped: ghost (seat 1) was away (connection lost) and the host ended the game rather than wait."]


# -- a table found on the LAN (mDNS) -------------------------------------------------------------------


def test_a_headless_host_is_found_on_the_lan_and_a_joiner_from_what_was_found_plays_it_to_the_end(peers, monkeypatch):
    """The host announces over mDNS on 127.0.0.1 (``P2PGAMES_INTERFACE``, set for every test and
    inherited by the processes); it is found, its seat count follows the bot sitting down, the
    command line's own search (``join`` with no code) finds it too, a ``join CODE --bot`` from what
    was found plays the game, and the announcement goes once the table is full."""
    from p2pgames.net import JoinCode, discover, watch
    from p2pgames.net import find_tables as real_find_tables

    assert os.environ["P2PGAMES_INTERFACE"] == "127.0.0.1"
    # --no-upnp: on every interface the host would ask a router too (test_port_mapping_cli.py does).
    host = peers("host", "probe", "--players", "3", "--bots", "1", "--bot", "--name", "hostess", "--no-upnp")
    code = JoinCode.parse(join_code(host))
    fingerprint = code.fingerprint
    # Other tests' tables may be announced on loopback too: this test looks at its host's only.
    monkeypatch.setattr(
        "p2pgames.net.find_tables", lambda: [t for t in real_find_tables() if t.fingerprint == fingerprint]
    )
    joiners = []

    async def find_join_and_see_it_go():
        send, receive = trio.open_memory_channel(1000)
        async with trio.open_nursery() as nursery:
            await nursery.start(watch, send)
            with trio.fail_after(TIMEOUT):
                async for name, table in receive:  # until the bot is seated
                    if table is not None and table.fingerprint == fingerprint and table.seated == 2:
                        break
            assert (table.address, table.port, table.game, table.host, table.seats) == ("127.0.0.1", code.port, "probe", "hostess", 3)
            found = {}

            async def search(key, find):
                found[key] = await find()

            # Both searches at once, as two programs on a LAN would (each browses for its 2.5 s).
            async with trio.open_nursery() as searches:
                searches.start_soon(search, "discover", discover)
                searches.start_soon(search, "command line", functools.partial(trio.to_thread.run_sync, cli._find_table))
            assert [str(t.join_code) for t in found["discover"] if t.fingerprint == fingerprint] == [str(table.join_code)]
            chosen = found["command line"]  # one table: no question asked
            assert chosen == table
            joiners.append(peers("join", str(chosen.join_code), "--bot", "--profile", "p1", "--name", "p1"))
            with trio.fail_after(TIMEOUT):
                async for gone, table in receive:  # full: the host says goodbye
                    if gone == name and table is None:
                        break
            nursery.cancel_scope.cancel()

    trio.run(find_join_and_see_it_go)
    for exit_code, out, err in [peer.finish() for peer in [host, *joiners]]:
        assert (exit_code, err) == (0, ""), (out, err)
        assert out[-3].startswith("Game over: ")


# -- what is checked before anything starts ----------------------------------------------------------


def test_join_with_a_bot_needs_no_terminal():
    with socket.socket() as closed:  # bound, never listening: nothing answers there
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
        for args in (["join", f"127.0.0.1:{port}", "--bot"], ["join", "--bot", f"127.0.0.1:{port}"]):
            exit_code, out, err = call(*args)  # stdin is no terminal (conftest)
            assert exit_code == 3, err
            assert out.endswith(f"Connecting to 127.0.0.1:{port} …\n")  # after "Created identity …", the first time
            assert err == (
                f"p2pgames: can't connect to 127.0.0.1:{port}: nothing is listening there (connection refused); "
                "check the join code, and that the host is still running\n"
            )


def test_host_with_a_bot_needs_no_terminal():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        exit_code, out, err = call("host", "probe", "--bot", "--bind", "127.0.0.1", "--port", str(port), "--no-transcript")
    assert exit_code == 3 and "terminal" not in err
    assert err.startswith(f"p2pgames: can't listen on port {port} (127.0.0.1): the port is already in use")


@pytest.mark.parametrize("args", [["host", "probe"], ["join", "127.0.0.1:4000"]])
def test_host_or_join_without_a_terminal_says_a_bot_can_play_the_seat(args):
    assert call(*args) == (2, "", f"p2pgames: '{args[0]}' needs a terminal (without one, --bot lets a bot play your seat)\n")


USAGE_ERRORS = {
    "a kind for a game with one kind of bot": (
        ["host", "probe", "--bot", "search"], "Probe has one kind of bot; give --bot without a KIND"),
    "a kind the game lacks": (
        ["host", "torpedo", "--bot", "clever"], "Steam Torpedo has no bot called 'clever'; choose one of: search, heuristic"),
    "two kinds for one seat": (
        ["host", "torpedo", "--bot", "search,heuristic"], "--bot names 2 kinds for 1 seat"),
    "a kind for the --bots seats with none": (
        ["host", "torpedo", "--bots-kind", "search"],
        "--bots-kind names the kind of the --bots seats, and there are none (add --bots K)"),
    "a --bots kind for a game with one kind of bot": (
        ["host", "probe", "--bots", "1", "--bots-kind", "search"], "Probe has one kind of bot; leave out --bots-kind"),
    "a --bots kind the game lacks": (
        ["host", "torpedo", "--bot", "--bots", "1", "--bots-kind", "clever"],
        "Steam Torpedo has no bot called 'clever'; choose one of: search, heuristic"),
    "a kind no game has, before joining": (
        ["join", "127.0.0.1:4000", "--bot", "clever"],
        "no game has a bot called 'clever' (torpedo: search, heuristic); name one of those, or give --bot without a KIND"),
    "a bot joining without a code": (
        ["join", "--bot"], "join --bot needs the host's join code: p2pgames join HOST:PORT/FINGERPRINT --bot"),
    "a bot joining with a code that is no code": (
        ["join", "nowhere", "--bot"], "'nowhere' is not a join code"),
    "the game taken for the kind": (
        ["host", "--bot", "probe"], "the following arguments are required: GAME"),
}


@pytest.mark.parametrize("name", sorted(USAGE_ERRORS))
def test_a_bot_seat_named_wrong_is_one_line_and_nothing_started(name, home):
    args, expected = USAGE_ERRORS[name]
    exit_code, out, err = call(*args)
    assert (exit_code, out) == (2, ""), err
    assert len(err.splitlines()) == 1 and err.startswith("p2pgames: ") and expected in err, err
    assert not (home / "identities").exists()  # no identity, no connection, no listener


def test_help_says_what_a_bot_seat_is():
    for command in ("host", "join"):
        exit_code, out, _ = call(command, "--help")
        text = " ".join(out.split())  # as read, not as wrapped
        assert exit_code == 0 and "--bot [KIND] a bot plays your seat, in this process, with no terminal" in text
    assert "--bots-kind KIND" in call("host", "--help")[1]


# -- a transcript directory that can't be written -----------------------------------------------------

WRITE_ERRORS = [(errno.EROFS, "Read-only file system"), (errno.EACCES, "Permission denied"), (errno.ENOSPC, "No space left on device")]
LEAVE_IT_OUT = "choose another with --transcripts DIR, or leave it out"
NO_TRANSCRIPT = "choose another with --transcripts DIR, or play with --no-transcript"
COMMANDS = {
    "selfplay": (["selfplay", "probe"], LEAVE_IT_OUT),
    "host": (["host", "probe"], NO_TRANSCRIPT),
    "host --bot": (["host", "probe", "--bot"], NO_TRANSCRIPT),
    "join": (["join", "127.0.0.1:4000"], NO_TRANSCRIPT),
    "join --bot": (["join", "127.0.0.1:4000", "--bot"], NO_TRANSCRIPT),
    "play": (["play", "probe"], NO_TRANSCRIPT),
}


@pytest.mark.parametrize("number, reason", WRITE_ERRORS, ids=[errno.errorcode[number] for number, _ in WRITE_ERRORS])
@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_transcript_directory_that_cant_be_written_stops_the_command_before_the_game(
    command, number, reason, tmp_path, home, monkeypatch
):
    # Tests run as root, which permissions don't stop: the file system's answer is injected.
    def refuse(*args, **kwargs):
        raise OSError(number, os.strerror(number))

    monkeypatch.setattr(tempfile, "TemporaryFile", refuse)  # cli imports it where it checks the directory
    monkeypatch.setattr(cli, "_need_terminal", lambda command: None)  # as if in a terminal
    listened: list = []
    monkeypatch.setattr("p2pgames.net._launch.open_host_listeners", lambda *args: listened.append(args))
    args, advice = COMMANDS[command]
    directory = tmp_path / "transcripts"
    exit_code, out, err = call(*args, "--transcripts", str(directory))
    assert (exit_code, out) == (1, "")
    assert err == f"p2pgames: can't save transcripts in {directory}: {reason}; {advice}\n"
    assert not listened and not (home / "identities").exists()  # before any game started
