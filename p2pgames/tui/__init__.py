"""The terminal user interface: one game, full screen, with completion of your legal moves.

:func:`run_terminal_game` is the whole public API: the command line builds a ``setup`` that starts
the table's nodes and hands it here. prompt_toolkit draws the screen on asyncio; trio runs the
network inside the same event loop as a guest (see ``_app``'s module docstring).

What the player types (see ``help`` in the game): one of their choices (Tab completes it; a number
picks it from the list), ``say TEXT`` to chat, ``help``, ``log``, ``table`` and ``quit``.
"""

from p2pgames.tui._app import run_terminal_game

__all__ = ["run_terminal_game"]
