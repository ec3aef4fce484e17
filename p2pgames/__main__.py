"""The ``p2pgames`` command (``python -m p2pgames``, and the installed script): :func:`run`."""

from __future__ import annotations

import gc
import sys


def run() -> int:
    """Run the command line (:func:`p2pgames.cli.main`) and return its exit code.

    Start-up makes thousands of objects that live as long as the process (modules, classes,
    tables) and next to no garbage, so the cyclic collector is off while the command's modules
    load, and what they made is then frozen (``gc.freeze``): no later collection walks it again,
    nor the interpreter's last one, at exit. About a tenth of a short command's time (``verify``
    of a Torpedo transcript, measured by ``scripts/bench``).
    """
    gc.disable()
    try:
        from p2pgames.cli import main
    finally:
        gc.freeze()
        gc.enable()
    code = main()
    gc.freeze()
    return code


if __name__ == "__main__":
    sys.exit(run())
