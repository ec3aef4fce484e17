"""What every command-line test shares: a private P2PGAMES_HOME and a stdin that is no terminal
(the autouse ``home`` fixture); :func:`cli_calls.call` (in ``tests/``, as the network tests use it
too) runs ``p2pgames`` in-process."""

import io
import sys
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("P2PGAMES_HOME", str(home))
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # not a terminal, even under pytest -s
    return home
