"""Starting a game from the command line, as a newcomer does: the menu, game names, and every way
setting up a table can fail — each one clear line, before any full screen.

``host``, ``join`` and ``play`` run for real here, as far as the terminal: :func:`terminal` stands in
for it with a pipe the test types into and a screen of 80×24 that draws nothing.
"""

from __future__ import annotations

import contextlib
import os
import re
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import trio
from prompt_toolkit.input import create_pipe_input

from cli_calls import call
from p2pgames import cli
from p2pgames.cli import main
from p2pgames.crypto import Identity
from p2pgames.games import PLAYABLE, _simplified, find_game, get_game
from p2pgames.net import Node, open_host_listeners
from p2pgames.session import Session
from p2pgames.tui import run_terminal_game

sys.path.insert(0, str(Path(__file__).parents[1] / "tui"))
from tui_tables import SizedOutput  # noqa: E402

REPOSITORY = Path(__file__).parents[2]






class Terminal:
    """What ``host``, ``join`` and ``play`` get instead of a terminal: the game runs on a pipe.

    Once the screen shows, ``keys`` are typed (by default Ctrl-C twice: leave, asking first if
    the game is running). ``opened`` says whether the screen ever showed; ``node`` is the table's
    node that setup returned, ``said`` what setup said (the game's log and lobby show it).
    """

    def __init__(self, keys: str = "\x03\x03") -> None:
        self.keys = keys
        self.opened = False
        self.node: Node | None = None
        self.said: list[str] = []
        self.alerts: bool | None = None

    def run(self, setup, *, title, color, alerts=True, next_game=None) -> int:
        self.alerts = alerts  # what the command line asked for
        self.next_game = next_game  # (these tests play no next game)

        async def watched_setup(nursery, say):
            def heard(text: str) -> None:
                self.said.append(text)
                say(text)

            self.node = await setup(nursery, heard)
            return self.node

        def on_screen(app) -> None:
            self.opened = True
            pipe.send_text(self.keys)

        with create_pipe_input() as pipe:
            return run_terminal_game(
                watched_setup, title=title, color=color, input=pipe, output=SizedOutput(), on_screen=on_screen, alerts=alerts,
            )


@pytest.fixture
def terminal(monkeypatch) -> Terminal:
    assert call("id")[0] == 0  # the identity exists already: no "Created identity" line
    terminal = Terminal()
    monkeypatch.setattr(cli, "_need_terminal", lambda command: None)
    monkeypatch.setattr("p2pgames.tui.run_terminal_game", terminal.run)  # the command line's own code runs
    return terminal


def answering(monkeypatch, *answers: str) -> list[str]:
    """Answer ``input()`` prompts with ``answers``, in order; the prompts asked are returned."""
    prompts: list[str] = []
    remaining = iter(answers)

    def answer(prompt: str) -> str:
        prompts.append(prompt)
        try:
            return next(remaining)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", answer)
    return prompts


# -- the menu and game names -------------------------------------------------------------------------


def test_the_menu_takes_a_games_name_and_asks_how_many_players(monkeypatch, terminal, capsys):
    prompts = answering(monkeypatch, "Beltpunk", "3")
    assert main(["play"]) == 0
    assert terminal.opened and terminal.node.session.ruleset.players == 3
    assert terminal.node.session.ruleset.game == "beltpunk"
    assert prompts == ["\nGame (number or name): ", "Players at the table, you included (2–4, Enter for 4): "]


def test_the_menu_says_the_range_and_takes_enter_for_the_default(monkeypatch, terminal, capsys):
    answering(monkeypatch, "2", "13", "0", "")
    assert main(["play"]) == 0
    assert terminal.node.session.ruleset.game == "steamcourt" and terminal.node.session.ruleset.players == 4
    refusal = "Steam Court is for 1 to 12 players: type a number from 1 to 12, Enter for 4, or q.\n"
    assert capsys.readouterr().out.count(refusal) == 2


def test_the_menu_does_not_ask_how_many_play_a_two_player_game(monkeypatch, terminal, capsys):
    prompts = answering(monkeypatch, "steam torpedo")
    assert main(["play"]) == 0
    assert terminal.node.session.ruleset.game == "torpedo" and terminal.node.session.ruleset.players == 2
    assert prompts == ["\nGame (number or name): "]
    assert "Steam Torpedo  (2 players)   [torpedo]" in capsys.readouterr().out


def test_the_menu_suggests_a_game_for_a_typo_and_quits_on_q(monkeypatch, terminal, capsys):
    answering(monkeypatch, "beltpnk", "5", "q")
    assert main(["play"]) == 0
    assert not terminal.opened
    out = capsys.readouterr().out
    refusal = f"Type a number from 1 to {len(PLAYABLE)}, a game's name ({', '.join(PLAYABLE)}), or q.\n"
    assert "Did you mean beltpunk? " + refusal in out
    assert refusal in out.split("beltpunk? ")[1]


def test_the_menu_does_not_ask_for_players_given_on_the_command_line(monkeypatch, terminal):
    prompts = answering(monkeypatch, "steamcourt")
    assert main(["play", "--players", "2"]) == 0
    assert prompts == ["\nGame (number or name): "]
    assert terminal.node.session.ruleset.players == 2


@pytest.mark.parametrize("typed", ["Beltpunk", "BELTPUNK", "beltpunk-haberdasher", "Beltpunk Haberdasher"])
def test_a_game_is_known_by_its_name_or_title_in_any_case(typed):
    code, out, err = call("rules", typed)
    assert code == 0 and out.startswith("# Beltpunk Haberdasher") and not err


@pytest.mark.parametrize("typed, name", [
    ("steam court", "steamcourt"), ("Steam-Court", "steamcourt"), ("STEAMCOURT", "steamcourt"),
    ("Steam Court (2015 draft)", "steamcourt2015"), ("steamcourt2015", "steamcourt2015"),
    ("steam court 2015 draft", "steamcourt2015"),
])
def test_steam_court_and_its_2015_draft_rules_are_told_apart(typed, name):
    assert find_game(typed) == name


def test_no_two_playable_games_share_a_name_or_title_once_simplified():
    # find_game compares names and titles without case, spaces or punctuation: a clash would
    # silently take one game for the other.
    games_called: dict[str, set[str]] = {}  # simplified name or title -> the games it names
    for name in PLAYABLE:
        for text in (name, get_game(name).title):
            games_called.setdefault(_simplified(text), set()).add(name)
    assert {text: names for text, names in games_called.items() if len(names) > 1} == {}


def test_the_menu_offers_the_2015_steam_court_with_its_variant(monkeypatch, terminal, capsys):
    prompts = answering(monkeypatch, "Steam Court (2015 draft)", "")
    assert main(["play"]) == 0
    assert terminal.opened
    ruleset = terminal.node.session.ruleset
    assert (ruleset.game, ruleset.players) == ("steamcourt2015", 4)
    assert prompts == ["\nGame (number or name): ", "Players at the table, you included (3–10, Enter for 4): "]
    out = capsys.readouterr().out.splitlines()
    assert "  3. Steam Court (2015 draft)  (3–10 players)   [steamcourt2015]" in out
    assert "     variants: party (p2pgames play steamcourt2015 --variant NAME)" in out


def test_a_misspelt_game_gets_a_suggestion():
    assert call("rules", "beltpnk") == (
        2, "", f"p2pgames: unknown game 'beltpnk'; did you mean beltpunk? (the games: {', '.join(PLAYABLE)})\n"
    )
    assert call("selfplay", "chess") == (2, "", f"p2pgames: unknown game 'chess' (the games: {', '.join(PLAYABLE)})\n")


# -- hosting: the address and the port ------------------------------------------------------------


def refuse_to_listen(monkeypatch, number: int) -> None:
    """Listening fails with ``number`` (errno), whatever this machine would have said."""
    import errno as errnos
    import os

    async def refuse(port, host=None):
        raise OSError(number, os.strerror(number))

    monkeypatch.setattr("p2pgames.net._launch.open_host_listeners", refuse)
    assert number in (errnos.EADDRNOTAVAIL, errnos.EACCES)


def test_binding_to_an_address_this_machine_does_not_have_names_it(terminal, monkeypatch):
    import errno

    refuse_to_listen(monkeypatch, errno.EADDRNOTAVAIL)
    code, out, err = call("host", "beltpunk", "--bind", "10.9.9.9", "--bots", "1", "--players", "2")
    assert code == 3 and not terminal.opened and out == ""
    assert err == (
        "p2pgames: can't listen on 10.9.9.9: it is not an address of this machine; "
        "leave out --bind to listen on all of them\n"
    )


def test_a_port_that_needs_administrator_rights_says_so_only_below_1024(terminal, monkeypatch):
    import errno

    refuse_to_listen(monkeypatch, errno.EACCES)
    code, _, err = call("host", "beltpunk", "--port", "80", "--bots", "1", "--players", "2")
    assert code == 3 and err == (
        "p2pgames: can't listen on port 80 (all addresses): ports below 1024 need administrator rights; "
        "choose a port from 1024 to 65535, or leave out --port\n"
    )
    code, _, err = call("host", "beltpunk", "--port", "5000", "--bots", "1", "--players", "2")
    assert code == 3 and err == "p2pgames: can't listen on port 5000 (all addresses): Permission denied\n"


def test_a_port_in_use_is_named_with_what_to_do(terminal):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        code, out, err = call("host", "beltpunk", "--bind", "127.0.0.1", "--port", str(port), "--bots", "1", "--players", "2")
    assert code == 3 and not terminal.opened
    assert err == (
        f"p2pgames: can't listen on port {port} (127.0.0.1): the port is already in use (another program, "
        "or another p2pgames table); choose another --port, or leave it out for any free port\n"
    )


# -- joining ------------------------------------------------------------------------------------------


@contextlib.contextmanager
def hosted_table(players: int = 2):
    """A probe table hosted on 127.0.0.1 by another thread's trio; yields (port, fingerprint)."""
    ready = threading.Event()
    found: dict = {}
    cancel: list = []

    async def host() -> None:
        identity = Identity.generate()
        node = Node(Session(identity, "hostess", get_game, ruleset=get_game("probe").ruleset(players)))
        listeners = await open_host_listeners(0, "127.0.0.1")
        found["port"] = listeners[0].socket.getsockname()[1]
        found["fingerprint"] = identity.public_key.fingerprint()
        async with trio.open_nursery() as nursery:
            cancel.append((trio.lowlevel.current_trio_token(), nursery.cancel_scope.cancel))
            await nursery.start(node.serve, listeners)
            ready.set()
            await trio.sleep_forever()

    failures: list[BaseException] = []

    def run() -> None:
        try:
            trio.run(host)
        except BaseException as error:  # reported in the test's thread
            failures.append(error)
            ready.set()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(10), "the host thread did not start listening"
    if failures:
        raise failures[0]
    try:
        yield found["port"], found["fingerprint"]
    finally:
        token, stop = cancel[0]
        token.run_sync_soon(stop)
        thread.join(10)
        assert not thread.is_alive() and not failures, failures


def test_joining_with_a_wrong_fingerprint_is_one_line_and_no_screen(terminal):
    with hosted_table() as (port, fingerprint):
        code, out, err = call("join", f"127.0.0.1:{port}/aaaa-bbbb-cccc-dddd")
    assert code == 1 and not terminal.opened and out == ""
    assert err == (
        f"Connecting to 127.0.0.1:{port} …\n"
        "Connected; waiting for the host to seat you …\n"
        f"p2pgames: could not join the table at 127.0.0.1:{port}: the host's key {fingerprint} does not match "
        "the join code (aaaa-bbbb-cccc-dddd); someone else may be answering at that address\n"
    )


def test_joining_a_closed_port_is_one_line_and_no_screen(terminal):
    with socket.socket() as closed:  # a port nobody listens on: bound, never listening
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
        code, out, err = call("join", f"127.0.0.1:{port}")
    assert code == 3 and not terminal.opened and out == ""
    assert err == (
        f"Connecting to 127.0.0.1:{port} …\n"
        f"p2pgames: can't connect to 127.0.0.1:{port}: nothing is listening there (connection refused); "
        "check the join code, and that the host is still running\n"
    )


def test_the_fingerprint_and_the_profile_note_are_shown_inside_the_game(monkeypatch, terminal):
    from p2pgames.net import Announcement
    from p2pgames.profiles import open_profile

    with open_profile(None), hosted_table(players=3) as (port, fingerprint):  # "default" is in use
        table = Announcement("127.0.0.1", "probe", "Probe", "hostess", port, fingerprint, 1, 3)
        monkeypatch.setattr("p2pgames.net.find_tables", lambda: [table])
        code, out, err = call("join")
    assert code == 0 and terminal.opened
    assert out == "Looking for tables on this network …\nYou left the table before the game began.\n"
    assert terminal.said == [
        f"Joining Probe hosted by hostess (1/3 seated) at 127.0.0.1:{port}/{fingerprint}",
        "Profile 'default' is in use by another p2pgames process; using profile 'default-2' (choose one with --profile NAME).",
        "Created identity 'default-2': " + terminal.node.session.identity.public_key.fingerprint(),
        f"Connecting to 127.0.0.1:{port} …",
        "Connected; waiting for the host to seat you …",
        f"The host's key {fingerprint} matches the join code.",
    ]
    assert err == "".join(line + "\n" for line in terminal.said)  # and before the screen opened
    assert terminal.alerts is True


def test_no_alerts_reaches_the_terminal_game(monkeypatch, terminal):
    with hosted_table(players=3) as (port, fingerprint):
        code, _, _ = call("join", f"127.0.0.1:{port}/{fingerprint}", "--no-alerts")
    assert code == 0 and terminal.opened and terminal.alerts is False


# -- transcripts and pipes --------------------------------------------------------------------------


def test_a_transcript_directory_that_is_a_file_stops_the_command_before_the_game(tmp_path):
    file = tmp_path / "transcripts"
    file.write_text("not a directory")
    code, out, err = call("selfplay", "probe", "--transcripts", str(file))
    assert (code, out) == (1, "")
    assert err == f"p2pgames: can't save transcripts in {file}: it is a file, not a directory; choose another with --transcripts DIR, or leave it out\n"


def test_a_transcript_directory_that_is_a_dangling_link_is_named_with_its_target(tmp_path):
    link = tmp_path / "transcripts"
    link.symlink_to(tmp_path / "gone")
    code, _, err = call("selfplay", "probe", "--transcripts", str(link))
    assert code == 1 and err == (
        f"p2pgames: can't save transcripts in {link}: it is a symbolic link to {tmp_path / 'gone'}, which "
        "does not exist; choose another with --transcripts DIR, or leave it out\n"
    )


def test_a_transcript_directory_nobody_may_write_stops_the_command_before_the_game(tmp_path, monkeypatch):
    import errno
    import tempfile

    def read_only(*args, **kwargs):  # a read-only file system: even root can't write there
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(tempfile, "TemporaryFile", read_only)
    code, out, err = call("selfplay", "probe", "--transcripts", str(tmp_path))
    assert (code, out) == (1, "")
    assert err == (
        f"p2pgames: can't save transcripts in {tmp_path}: Read-only file system; choose another with "
        "--transcripts DIR, or leave it out\n"
    )


@pytest.mark.parametrize("args", [
    ["rules", "beltpunk"], ["selfplay", "probe", "--players", "2", "--games", "3"], ["id"], ["verify", "-"],
])
def test_a_reader_that_stops_reading_ends_the_command_quietly(args, home):
    # Buffered as in a terminal-less shell: a short output is written only when the command ends.
    environment = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}
    environment["P2PGAMES_HOME"] = str(home)
    if args == ["verify", "-"]:
        args = ["verify", str(REPOSITORY / "protocol" / "vectors" / "session-probe-3p.p2pt")]
    assert call("id")[0] == 0  # the identity exists: `id` says nothing on stderr
    process = subprocess.Popen(
        [sys.executable, "-m", "p2pgames", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        cwd=REPOSITORY, env=environment,
    )
    process.stdout.close()  # like `| head -0`: the first line written meets a closed pipe
    err = process.stderr.read()
    process.stderr.close()
    assert process.wait(60) == 141
    assert err == b""


# -- where the router and the LAN are asked (issue 13) ----------------------------------------------


@pytest.mark.parametrize("variable, value, said", [
    ("P2PGAMES_INTERFACE", "bogus", "P2PGAMES_INTERFACE='bogus': 'bogus' is not an IP address"),
    ("P2PGAMES_GATEWAY", "router.lan", "P2PGAMES_GATEWAY='router.lan' is not an IPv4 address with an optional :PORT"),
    ("P2PGAMES_GATEWAY", "192.168.1.1:99999", "P2PGAMES_GATEWAY='192.168.1.1:99999' is not an IPv4 address with an optional :PORT"),
])
@pytest.mark.parametrize("command", [("host", "beltpunk", "--bot"), ("doctor",)])
def test_a_setting_naming_no_address_is_a_usage_error_before_anything_starts(monkeypatch, command, variable, value, said):
    monkeypatch.setenv(variable, value)
    code, out, err = call(*command)
    assert (code, out, err) == (2, "", f"p2pgames: {said}\n")


def test_doctor_without_the_router_says_what_it_did_not_check():
    code, out, err = call("doctor", "--no-upnp")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "Can others reach a table you host? Checking …"
    assert "Router:        not asked (--no-upnp)." in lines
    # The port checked was any free one: the advice to forward it says to host on it (issue 22).
    advice = re.compile(
        r"- Over the internet over IPv4, friends can join you only if you forward TCP port (\d+) to \S+ on your "
        r"router by hand, then host with p2pgames host GAME --port \1 --no-upnp \(not checked: --no-upnp\)\."
    )
    assert any(advice.fullmatch(line) for line in lines), lines


@pytest.mark.parametrize("typed, said", [
    ("5s", "--move-time must be between 10s and 24h, not '5s'"),
    ("25h", "--move-time must be between 10s and 24h, not '25h'"),
    ("soon", "--move-time: 'soon' is not a time"),
])
def test_a_move_time_too_short_too_long_or_not_a_time_is_a_usage_error(typed, said):
    code, out, err = call("host", "probe", "--players", "2", "--move-time", typed)
    assert (code, out) == (2, "") and err.startswith(f"p2pgames: {said}")


def test_a_move_time_reaches_the_table_the_host_opens(monkeypatch, terminal):
    code, _, _ = call("host", "probe", "--players", "2", "--bots", "1", "--bind", "127.0.0.1", "--move-time", "1m30s")
    assert code == 0 and terminal.opened
    assert terminal.node.session.ruleset.move_time == 90
