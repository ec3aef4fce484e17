"""The published game's scenario helpers (``steamcourt_scenarios.Court``), set up for the 2015
draft rules: its game and presentation, its decks, no scoring option."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Sequence

sys.path.insert(0, str(Path(__file__).parents[1] / "steamcourt"))
from steamcourt_scenarios import NAMES, Court  # noqa: E402

from p2pgames.games.steamcourt2015 import GAME  # noqa: E402
from p2pgames.games.steamcourt2015.book import deck_for  # noqa: E402
from p2pgames.games.steamcourt2015.presentation import PRESENTATION  # noqa: E402

__all__ = ["Court2015", "NAMES", "GAME"]


class Court2015(Court):
    """A :class:`Court` of the 2015 rules (``options``: the ruleset's, e.g. ``table``)."""

    def __init__(
        self, players: int, hands: Sequence[Sequence[str]] = (), court: Sequence[str] = (), **kwargs: Any
    ) -> None:
        self.deck = deck_for(players)
        super().__init__(players, hands, court, game=GAME, scoring=None, shown=PRESENTATION, **kwargs)

    def pass_privileges_until(self, seat: int) -> None:
        """Decline every Beginning of Quarter privilege before ``seat``'s (the Tea Boy serves
        and keeps his hand)."""
        while self.table.phase in ("give", "inspect", "serve", "trade", "plague") and self.table.actor != seat:
            actor, phase = self.table.actor, self.table.phase
            if phase == "serve":
                self.act(actor, self.legal(actor)[0])
            else:
                self.do(actor, "keep" if phase == "trade" else "pass")
        assert self.table.actor == seat, f"{NAMES[seat]} has no privilege now ({self.table.phase})"
