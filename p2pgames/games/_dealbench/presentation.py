"""How the deal benchmark's one move reads: ``audit``. It narrates nothing."""

from __future__ import annotations

from typing import Any, Sequence

from p2pgames.engine import Event, Knowledge, Presentation
from p2pgames.games._dealbench import GAME, DealBenchState

__all__ = ["PRESENTATION", "DealBenchPresentation"]


class DealBenchPresentation(Presentation[DealBenchState]):
    """The deal benchmark's only move, and no lines."""

    def describe_action(
        self, state: DealBenchState, player: int, action: Any, knowledge: Knowledge, names: Sequence[str]
    ) -> str:
        return "audit"

    def narrate(self, before: DealBenchState, event: Event, after: DealBenchState, names: Sequence[str]) -> list[str]:
        return []


PRESENTATION = DealBenchPresentation(GAME)
