"""The commands this program prints for the player to type ("Check it at any time: p2pgames verify
FILE"), made by :func:`command` so that each one works where the player is.

A command starts with ``p2pgames`` when that name, looked up on ``PATH``, runs this very program.
Otherwise — ``scripts/play`` runs ``.venv/bin/python -m p2pgames`` from a shell whose ``PATH`` lacks
``.venv/bin``, or another p2pgames is installed there — it starts with the full path of the
``p2pgames`` script of the Python environment that is running (``/home/ann/p2pgames/.venv/bin/p2pgames``),
or, where there is none, with ``PYTHON -m p2pgames``. A full path, not one relative to the current
directory: the farewell says "at any time", and the player may be elsewhere by then.

Reads the environment (``sys.argv``, ``sys.executable``, ``PATH``) when called, never hashed or
sent: the same command prints the same for one player, whatever the layer that prints it.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from pathlib import Path

__all__ = ["NAME", "command", "program"]

NAME = "p2pgames"  # the console script pyproject.toml installs


def command(*words: str) -> str:
    """``p2pgames WORDS…`` as the player can type it here: :func:`program`, then each word
    quoted for a shell (a path with a space in it stays one word; ``HOST:PORT`` needs no quotes)."""
    return " ".join([program(), *(shlex.quote(word) for word in words)])


def program(*, argv0: str | None = None, executable: str | None = None, search_path: str | None = None) -> str:
    """How the player runs this program from a shell, quoted: ``p2pgames`` if that is what
    ``PATH`` finds, else a full path (see the module docstring). ``argv0``, ``executable`` and
    ``search_path`` stand for ``sys.argv[0]``, ``sys.executable`` and ``$PATH`` (tests give them)."""
    if argv0 is None:
        argv0 = sys.argv[0] if sys.argv else ""
    if executable is None:
        executable = sys.executable
    running = _running_script(argv0, executable)
    on_path = shutil.which(NAME, path=os.environ.get("PATH", os.defpath) if search_path is None else search_path)
    if running is not None and on_path is not None and _same_file(running, Path(on_path)):
        return NAME
    if running is not None:
        return shlex.quote(str(running))
    if executable:
        return f"{shlex.quote(executable)} -m {NAME}"
    return NAME  # no interpreter to name (an embedded Python): the installed name is the best guess


def _running_script(argv0: str, executable: str) -> Path | None:
    """The ``p2pgames`` script that runs this process: the one it was started as, or the one
    installed beside ``executable`` (``python -m p2pgames`` from that environment); ``None`` if
    neither exists."""
    if Path(argv0).name == NAME and _runnable(Path(argv0)):
        return Path(os.path.abspath(argv0))
    if executable:
        beside = Path(os.path.abspath(executable)).parent / NAME
        if _runnable(beside):
            return beside
    return None


def _runnable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def _same_file(one: Path, other: Path) -> bool:
    try:
        return os.path.samefile(one, other)
    except OSError:
        return False
