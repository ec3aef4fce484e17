"""The terminal user interface: one game, full screen, with completion of your legal moves.

:func:`run_terminal_game` is the public API for playing: the command line builds a ``setup`` that
starts the table's nodes and hands it here. :class:`ReplayScreen` and :func:`replay_text` show a
transcript's game again (``p2pgames replay``). prompt_toolkit draws the screen on asyncio; trio runs the
network inside the same event loop as a guest (see ``_app``'s module docstring).

What the player types at the ``›`` prompt (``help`` or F1 shows it all, with the game's rules):

* one of their choices, as listed above the prompt (Tab completes it; its number picks it too);
* ``say TEXT`` to chat with the table;
* ``help``, ``log`` (only the log), ``table`` (only the table) and ``quit``;
* ``abandon`` to end the game for everyone when a player's connection has been lost for longer
  than the grace period (the log says when; the status line counts how long they have been away).

These words are the platform's own: no game's moves begin with one (the engine reserves them,
``RESERVED_WORDS``), so a game's ``end`` (Steam Torpedo's end of a turn) never ends the game.

Keys: PgUp/PgDn scroll the log, F1/F2/F3 show the help, the whole table, the whole log, Esc goes
back, Ctrl-C (or Ctrl-D on an empty line) quits — asking first while the game is running.
"""

from p2pgames.tui._app import run_terminal_game
from p2pgames.tui._replay import ReplayScreen, replay_text
from p2pgames.tui._watch import run_watch

__all__ = ["ReplayScreen", "replay_text", "run_terminal_game", "run_watch"]
