"""The command's entry point (:func:`p2pgames.__main__.run`): what the installed ``p2pgames``
script and ``python -m p2pgames`` both run."""

from __future__ import annotations

import gc
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from p2pgames import __main__ as entry
from p2pgames import cli

REPOSITORY = Path(__file__).parents[2]


def test_the_installed_script_and_python_dash_m_run_the_same_entry():
    scripts = tomllib.loads((REPOSITORY / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts == {"p2pgames": "p2pgames.__main__:run"}
    done = subprocess.run([sys.executable, "-m", "p2pgames", "--version"], capture_output=True, text=True)
    assert (done.returncode, done.stdout.split()[0]) == (0, "p2pgames")


def test_the_collector_is_on_while_a_command_runs(monkeypatch: pytest.MonkeyPatch):
    # Off only while the modules load: a game runs for an hour and makes garbage like any program.
    seen = []
    monkeypatch.setattr(cli, "main", lambda: seen.append(gc.isenabled()) or 7)
    try:
        assert entry.run() == 7
    finally:
        gc.unfreeze()  # this test's process goes on
    assert seen == [True] and gc.isenabled()
