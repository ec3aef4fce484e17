"""``p2pgames verify`` loads only what replaying a transcript needs.

Its time is measured with start-up included (``scripts/bench``), so the live session's roles, the
network, the terminal, the bots and their libraries must not load for it. These tests check *what*
``python -m p2pgames verify FILE`` imports (``sys.modules`` when it is done: ``-X importtime`` misses
modules loaded by ``importlib.import_module``, as the games are), never how long it takes.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from test_import_graph import is_presentation

REPOSITORY = Path(__file__).resolve().parents[2]
VECTORS = REPOSITORY / "protocol" / "vectors"

# Modules (and everything under them) that verifying a transcript has no use for.
NOT_FOR_VERIFY = (
    "trio",
    "prompt_toolkit",
    "zeroconf",  # LAN discovery (mDNS), and its dependency
    "ifaddr",
    "miniupnpc",  # port mapping, only when hosting (or for a joiner the table would go to)
    "p2pgames.net",
    "p2pgames.tui",
    "p2pgames.bots",
    "p2pgames.profiles",
    "p2pgames.session._session",
    "p2pgames.session._host",
    "p2pgames.session._joiner",
    "p2pgames.session._events",
    "p2pgames.session._secrets",
    "p2pgames.session._saved",
    "p2pgames.engine._presentation",  # how games are shown: the Presentation contract, panels, composers
    "difflib",  # only to suggest a game for a mistyped name
)


# Runs the command as ``python -m p2pgames`` does, then writes every module loaded on stderr's last line.
_RUN_AND_LIST = """
import json, runpy, sys
sys.argv = ["p2pgames", *sys.argv[1:]]
try:
    runpy.run_module("p2pgames", run_name="__main__", alter_sys=True)
except SystemExit as exit:
    code = exit.code
print(json.dumps({"code": code, "modules": sorted(sys.modules)}), file=sys.stderr)
"""


def imported_by(*args: str, script: str = _RUN_AND_LIST) -> tuple[int, str, set[str]]:
    """Run ``p2pgames ARGS`` in a new Python process: its exit code, its output and every module
    it imported."""
    done = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, cwd=REPOSITORY)
    assert done.stderr.strip(), done.stdout
    listed = json.loads(done.stderr.strip().splitlines()[-1])
    return listed["code"], done.stdout, set(listed["modules"])


def unneeded(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == name or m.startswith(name + ".") for name in NOT_FOR_VERIFY))


@pytest.mark.parametrize("game", ["beltpunk", "steamcourt", "torpedo", "astonishing", "probe"])
def test_verify_imports_only_what_replaying_needs(game):
    (vector,) = VECTORS.glob(f"session-{game}-*p.p2pt")  # the whole game's (not a -gone one)
    code, output, modules = imported_by("verify", str(vector))
    assert (code, output.splitlines()[-1]) == (0, "  Verified.")
    package = "p2pgames.games._probe" if game == "probe" else f"p2pgames.games.{game}"
    assert {"p2pgames.session._transcript", "p2pgames.session._replica", package} <= modules
    assert unneeded(modules) == []
    # The game's bots play, its presentation shows it; replaying needs only its rules.
    assert not any(m.startswith(f"p2pgames.games.{game}.bots") for m in modules)
    assert [m for m in modules if is_presentation(m)] == []


def test_the_check_sees_what_a_command_imports():
    # The same listing does show the live session where it is used.
    script = "import p2pgames.session\np2pgames.session.Session\n" + _RUN_AND_LIST
    code, _, modules = imported_by("--version", script=script)
    assert code == 0
    assert {"p2pgames.session._session", "p2pgames.session._host", "p2pgames.session._joiner"} <= set(unneeded(modules))
