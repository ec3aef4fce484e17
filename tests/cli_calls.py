"""Running the ``p2pgames`` command in-process, as the command-line tests do."""

from __future__ import annotations

import contextlib
import io

from p2pgames.cli import main


def call(*args: str) -> tuple[int, str, str]:
    """Run ``p2pgames ARGS``; returns (exit code, stdout, stderr). No traceback may escape."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as exit_:  # argparse's own exits (--help, --version, usage errors)
            code = exit_.code
    assert "Traceback" not in out.getvalue() + err.getvalue()
    return code, out.getvalue(), err.getvalue()
