"""How a Beltpunk table is shown: its moves as printed and typed, its log lines, panels, warnings
and help, beside the rules (``rules.py``), which import none of it.

The texts are made in ``views.py``, typed moves are read in ``typed.py``; this class is what the
session and the terminal ask.
"""

from __future__ import annotations

from typing import Any, Sequence

from p2pgames.engine import Event, Knowledge, Panel, Presentation
from p2pgames.games.beltpunk import GAME, typed, views
from p2pgames.games.beltpunk.state import BeltpunkState

__all__ = ["PRESENTATION", "BeltpunkPresentation"]


class BeltpunkPresentation(Presentation[BeltpunkState]):
    """Beltpunk Haberdasher's moves, lines, panels and help for a person."""

    def describe_action(
        self,
        state: BeltpunkState,
        player: int,
        action: Any,
        knowledge: Knowledge,
        names: Sequence[str],
    ) -> str:
        return views.describe_action(state, player, action, knowledge, names)

    def parse_action(
        self,
        state: BeltpunkState,
        player: int,
        text: str,
        knowledge: Knowledge,
        names: Sequence[str],
    ) -> Any:
        """The action ``text`` names (typed as :meth:`describe_action` prints it), checked by
        :meth:`Beltpunk.check_action`. Raises :class:`MalformedAction` for text that is no Beltpunk
        move and :class:`IllegalAction` with the reason for a move the rules refuse (see
        ``typed.py``)."""
        return typed.parse_action(self.rules, state, player, text, knowledge, names)

    def warnings(
        self, state: BeltpunkState, player: int, knowledge: Knowledge, names: Sequence[str]
    ) -> list[str]:
        """Overflows the choice now can cause or prevent, and a round's certain last turn (see
        :func:`views.warnings`)."""
        return views.warnings(state, player, knowledge)

    def round_label(self, state: BeltpunkState) -> str | None:
        return f"round {state.round}" if state.round else None

    def narrate(
        self, before: BeltpunkState, event: Event, after: BeltpunkState, names: Sequence[str]
    ) -> list[str]:
        return views.narrate(before, event, after, names)

    def narrate_private(
        self, before: BeltpunkState, event: Event, after: BeltpunkState, viewer: int, knowledge: Knowledge,
        names: Sequence[str],
    ) -> list[str]:
        return views.narrate_private(before, event, after, viewer, knowledge, names)

    def panels(
        self, state: BeltpunkState, viewer: int | None, knowledge: Knowledge, names: Sequence[str]
    ) -> list[Panel]:
        return views.panels(state, viewer, knowledge, names)

    def help_text(self) -> str:
        return views.HELP


PRESENTATION = BeltpunkPresentation(GAME)
