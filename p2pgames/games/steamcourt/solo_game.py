"""The Solo variant as a game of its own: :meth:`SteamCourt.for_ruleset` returns :data:`SOLO_GAME`
for a ruleset with ``variant`` ``solo``, and tables, sessions and transcript checks play it.

It carries Steam Court's name (so its deck is Steam Court's) and makes the Solo rules (:mod:`.solo`)
a game; their presentation is :class:`~.presentation.SteamCourtSoloPresentation`'s.
"""

from __future__ import annotations

from typing import Any

from p2pgames.engine import ActionCodec, Game, Knowledge, Ruleset, Step
from p2pgames.games.steamcourt.actions import Pass
from p2pgames.games.steamcourt.solo import SOLO, SOLO_KINDS, SoloState

__all__ = ["SteamCourtSolo", "SOLO_GAME"]


class SteamCourtSolo(Game[SoloState]):
    """One player against the Court Hand (RULES.md, Solo). Stateless."""

    name = "steamcourt"
    title = "Steam Court"
    min_players = 1
    max_players = 1

    def describe_ruleset(self, ruleset: Ruleset) -> str:
        return "Steam Court, 1 player: the Solo variant against the Court Hand"

    def setup(self, ruleset: Ruleset) -> SoloState:
        return SOLO.setup()

    def step(self, state: SoloState) -> Step:
        return SOLO.step(state)

    def legal_actions(self, state: SoloState, player: int, knowledge: Knowledge) -> list[Any]:
        return SOLO.legal_actions(state, player)

    def check_action(self, state: SoloState, player: int, action: Any) -> None:
        SOLO.check_action(state, player, action)

    def apply_action(self, state: SoloState, player: int, action: Any) -> None:
        SOLO.apply_action(state, action)

    def after_cards(self, state: SoloState, values: Any) -> None:
        SOLO.after_cards(state)

    def encode_action(self, action: Any) -> Any:
        return _CODEC.encode(action)

    def decode_action(self, data: Any) -> Any:
        return _CODEC.decode(data)

    def encode_state(self, state: SoloState) -> Any:
        return SOLO.encode_state(state)

    def decode_state(self, data: Any) -> SoloState:
        return SOLO.decode_state(data)


# Solo's wire kinds and Pass (the one core action Solo uses), as the court writes them.
_CODEC = ActionCodec("Steam Court", {**SOLO_KINDS, Pass: "pass"})
SOLO_GAME = SteamCourtSolo()
