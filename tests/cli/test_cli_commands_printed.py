"""The commands p2pgames prints for the player to type work where the player is (issue 22, point 7):
``p2pgames …`` when that name on PATH is this program, else the full path of the program that
runs (``scripts/play`` runs ``.venv/bin/python -m p2pgames`` from a shell whose PATH lacks
``.venv/bin``: "Check it at any time: p2pgames verify …" said ``command not found``).

The farewell is checked through a real game in a pseudo-terminal, as ``scripts/play`` runs it, and
the command it prints is then run as printed, with the player's PATH.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from cli_calls import call
from peer_processes import TIMEOUT, TerminalPeer

from p2pgames.invocation import command, program

VENV_SCRIPT = Path(sys.executable).parent / "p2pgames"  # what `pip install` put beside this Python
WITHOUT_IT = os.pathsep.join(["/usr/bin", "/bin"])  # a shell's PATH with no .venv/bin on it


def script(directory: Path, name: str = "p2pgames") -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)
    return path


# -- which program: the rules, with the process's facts given ----------------------------------------


def test_the_name_is_enough_when_path_finds_the_program_that_runs(tmp_path):
    running = script(tmp_path / "venv" / "bin")
    assert program(argv0=str(running), executable="/nowhere/python", search_path=str(running.parent)) == "p2pgames"


def test_python_m_p2pgames_is_the_script_beside_its_python(tmp_path):
    bin_dir = tmp_path / "venv" / "bin"
    script(bin_dir)
    python = str(bin_dir / "python")
    main = "/src/p2pgames/__main__.py"  # sys.argv[0] under python -m
    assert program(argv0=main, executable=python, search_path=f"/usr/bin{os.pathsep}{bin_dir}") == "p2pgames"
    assert program(argv0=main, executable=python, search_path="/usr/bin") == str(bin_dir / "p2pgames")


def test_another_p2pgames_on_path_is_not_this_program(tmp_path):
    running = script(tmp_path / "checkout" / ".venv" / "bin")
    script(tmp_path / "elsewhere")  # an older install, say
    found = program(argv0=str(running), executable="/nowhere/python", search_path=str(tmp_path / "elsewhere"))
    assert found == str(running)


def test_a_relative_argv0_becomes_a_full_path(tmp_path, monkeypatch):
    script(tmp_path / ".venv" / "bin")
    monkeypatch.chdir(tmp_path)
    assert program(argv0=".venv/bin/p2pgames", executable="/nowhere/python", search_path="") == str(tmp_path / ".venv/bin/p2pgames")


def test_without_a_script_it_is_this_python_with_m(tmp_path):
    python = str(tmp_path / "bin" / "python3")
    assert program(argv0="/src/p2pgames/__main__.py", executable=python, search_path="") == f"{python} -m p2pgames"


def test_a_path_with_a_space_is_quoted_as_one_word(tmp_path):
    running = script(tmp_path / "my games" / "bin")
    found = program(argv0=str(running), executable="/nowhere/python", search_path="")
    assert shlex.split(found) == [str(running)]


def test_each_word_of_a_command_is_quoted_for_a_shell():
    assert command("verify", "/tmp/a transcript.p2pt") == "p2pgames verify '/tmp/a transcript.p2pt'"
    assert command("join", "HOST:PORT/FINGERPRINT", "--bot") == "p2pgames join HOST:PORT/FINGERPRINT --bot"


def test_an_error_names_the_command_as_the_player_can_type_it(monkeypatch):
    """The PATH the tests run with finds this program (tests/conftest.py); without it, the
    command is the full path of the script."""
    assert call("play", "--solo", "beltpunk")[2].endswith("(see p2pgames rules beltpunk)\n")
    if not VENV_SCRIPT.exists():
        pytest.skip("this Python has no p2pgames script beside it")
    monkeypatch.setenv("PATH", WITHOUT_IT)
    assert call("play", "--solo", "beltpunk")[2].endswith(f"(see {VENV_SCRIPT} rules beltpunk)\n")


# -- the farewell, as scripts/play runs it ---------------------------------------------------------


@pytest.mark.parametrize("on_path", [True, False], ids=["p2pgames-on-path", "scripts-play"])
def test_the_farewells_verify_command_runs_where_the_player_is(tmp_path, on_path):
    if not VENV_SCRIPT.exists():
        pytest.skip("this Python has no p2pgames script beside it")
    path = os.pathsep.join([str(VENV_SCRIPT.parent), WITHOUT_IT]) if on_path else WITHOUT_IT
    transcripts = tmp_path / "transcripts"
    player = TerminalPeer(tmp_path / "home", "play", "probe", "--players", "2", "--transcripts", str(transcripts),
                          environment={"PATH": path})
    try:
        player.wait_for("The game begins")
        player.type(b"quit\r")
        player.wait_for("Leave the game")
        player.type(b"y")
        printed = player.wait_for(r"Check it at any time: (.+?)\r?\n").group(1)
        assert player.finish() == 0
    finally:
        player.close()
    [transcript] = transcripts.glob("*.p2pt")
    assert printed == f"{'p2pgames' if on_path else VENV_SCRIPT} verify {transcript}"
    environment = dict(os.environ, PATH=path, P2PGAMES_HOME=str(tmp_path / "home"))
    ran = subprocess.run(shlex.split(printed), env=environment, capture_output=True, text=True, timeout=TIMEOUT)
    assert ran.returncode == 0 and ran.stdout.startswith(f"{transcript}:\n"), (ran.stdout, ran.stderr)
