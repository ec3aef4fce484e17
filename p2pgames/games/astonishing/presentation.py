"""How Astonishing! is shown: its moves as typed (``typed``), its log's lines, panels, help and the
``sheet`` command (``views``). The rules are in ``rules.py``; nothing there imports this."""

from __future__ import annotations

from typing import Any, Sequence

from p2pgames.engine import ChoiceGroup, Event, Knowledge, Panel, Presentation
from p2pgames.games.astonishing import GAME, typed, views
from p2pgames.games.astonishing.cards import card_text
from p2pgames.games.astonishing.rules import AstonishingState

__all__ = ["PRESENTATION", "AstonishingPresentation"]


class AstonishingPresentation(Presentation[AstonishingState]):
    """Astonishing!'s moves, lines, panels and help for a person."""

    def describe_action(
        self, state: AstonishingState, player: int, action: Any, knowledge: Knowledge, names: Sequence[str]
    ) -> str:
        return typed.describe(state, player, action, knowledge, names)

    def parse_action(
        self, state: AstonishingState, player: int, text: str, knowledge: Knowledge, names: Sequence[str]
    ) -> Any:
        return typed.parse(self.rules, state, player, text, knowledge, names)

    def group_choices(
        self, state: AstonishingState, player: int, actions: Sequence[Any], texts: Sequence[str]
    ) -> list[ChoiceGroup]:
        return views.group_choices(actions, texts)

    def card_text(self, state: AstonishingState, name: str) -> str:
        return card_text(name)

    def round_label(self, state: AstonishingState) -> str | None:
        return f"turn {state.turn}" if state.turn else None

    def narrate(self, before: AstonishingState, event: Event, after: AstonishingState, names: Sequence[str]) -> list[str]:
        return views.narrate(before, event, after, names)

    def narrate_private(
        self, before: AstonishingState, event: Event, after: AstonishingState, viewer: int, knowledge: Knowledge,
        names: Sequence[str],
    ) -> list[str]:
        return views.narrate_private(before, event, after, viewer, knowledge, names)

    def panels(self, state: AstonishingState, viewer: int | None, knowledge: Knowledge, names: Sequence[str]) -> list[Panel]:
        return views.panels(state, viewer, knowledge, names)

    def help_text(self) -> str:
        return views.HELP

    info_commands = views.INFO_COMMANDS

    def explain(self, state: AstonishingState, viewer: int | None, text: str, names: Sequence[str]) -> list[str] | None:
        return views.explain(state, viewer, text, names)


PRESENTATION = AstonishingPresentation(GAME)
