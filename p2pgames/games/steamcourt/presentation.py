"""How Steam Court is shown: its moves as typed (``typed.py``), its log, panels and help
(``views.py``; the Solo variant's ``solo_views.py``), and the standing answer "not this quarter".

The rules (``rules.py``, and the Solo variant's ``solo_game.py``) import none of it. The Solo
variant is a game of its own (:data:`~.solo_game.SOLO_GAME`), shown by a presentation of its own
(:class:`SteamCourtSoloPresentation`): :meth:`SteamCourtPresentation.for_ruleset` returns it for a
Solo ruleset, as the rules' ``for_ruleset`` returns the Solo rules.
"""

from __future__ import annotations

from typing import Any, Sequence

from p2pgames.engine import (
    ChoiceGroup,
    Event,
    IllegalAction,
    Knowledge,
    Panel,
    Presentation,
    Ruleset,
    StandingAnswer,
)
from p2pgames.games.steamcourt import GAME, solo_views, typed, views
from p2pgames.games.steamcourt.actions import Pass
from p2pgames.games.steamcourt.phases import Phase
from p2pgames.games.steamcourt.solo import SOLO, SoloState
from p2pgames.games.steamcourt.solo_game import SOLO_GAME
from p2pgames.games.steamcourt.state import SteamCourtState

__all__ = [
    "PRESENTATION",
    "SOLO_PRESENTATION",
    "SteamCourtPresentation",
    "SteamCourtSoloPresentation",
    "NOT_THIS_QUARTER",
]

# The windows that offer "not this quarter" (:meth:`SteamCourtPresentation.standing_answer`), by
# the power each asks about (RULES.md, I28).
_STANDING_POWERS = {Phase.STOP: "stop", Phase.RETRIEVE: "retrieve", Phase.STEAL: "steal"}
NOT_THIS_QUARTER = "not this quarter"  # the standing answer's label, as the list of choices shows it

_PASS = Pass()


class SteamCourtPresentation(Presentation[SteamCourtState]):
    """The court's, the Party variant's and the Duo variant's moves, lines, panels and help."""

    def for_ruleset(self, ruleset: Ruleset) -> Presentation:
        rules = self.rules.for_ruleset(ruleset)
        if rules is self.rules:
            return self
        return SOLO_PRESENTATION if rules is SOLO_PRESENTATION.rules else SteamCourtSoloPresentation(rules)

    def describe_action(
        self, state: SteamCourtState, player: int, action: Any, knowledge: Knowledge, names: Sequence[str]
    ) -> str:
        return views.describe_action(state, player, action, knowledge, names)

    def parse_action(
        self, state: SteamCourtState, player: int, text: str, knowledge: Knowledge, names: Sequence[str]
    ) -> Any:
        """The action ``text`` names, typed as :meth:`describe_action` prints it, checked by
        the rules' ``check_action``; MalformedAction for text that is no Steam Court move,
        IllegalAction with the reason for a move the rules refuse now (``typed.py``)."""
        return typed.parse_court(self.rules, state, player, text, knowledge, names)

    def group_choices(
        self, state: SteamCourtState, player: int, actions: Sequence[Any], texts: Sequence[str]
    ) -> list[ChoiceGroup]:
        """A Multiplier's counts, a gift's receivers, the Discard-two token's pairs and a dive's
        cards each on one line; when those lines are still more than ten, a hand's lays one line
        per card named first, each with its lines as parts (:func:`views.group_choices`)."""
        return views.group_choices(actions, texts)

    def standing_answer(self, state: SteamCourtState, player: int, knowledge: Knowledge) -> StandingAnswer | None:
        """"not this quarter" in the General's stop window, the Time Traveler's retrieve window and
        the Pirate's steal window (RULES.md, I28): a pass now, and the player's own peer passes
        every later window of that power by itself until the quarter ends. It stays on that peer:
        the others see ordinary passes, so nobody learns the threat is gone.

        The key is the power and the quarter number, so it lapses when the next quarter is dealt.
        A player holds one character a quarter (at either Party table), so the power names his
        windows. A coup re-deals the same quarter, but only right after a deal, before any trick
        at that table: no answer at that table can predate it (and the other Party table plays
        on, its answers standing)."""
        if state.cards.pending or state.phase != Phase.PLAYING:
            return None
        table = state.table_of(player)
        power = _STANDING_POWERS.get(table.phase)
        if power is None or player != table.actor:
            return None
        return StandingAnswer(NOT_THIS_QUARTER, _PASS, (power, state.quarter))

    def card_text(self, state: SteamCourtState, name: str) -> str:
        return views.card_shown(state, name)

    def round_label(self, state: SteamCourtState) -> str | None:
        return f"quarter {state.quarter}" if state.quarter else None

    def narrate(self, before: SteamCourtState, event: Event, after: SteamCourtState, names: Sequence[str]) -> list[str]:
        return views.narrate(before, event, after, names)

    def narrate_private(
        self, before: SteamCourtState, event: Event, after: SteamCourtState, viewer: int, knowledge: Knowledge,
        names: Sequence[str],
    ) -> list[str]:
        return views.narrate_private(before, event, after, viewer, knowledge, names)

    def panels(
        self, state: SteamCourtState, viewer: int | None, knowledge: Knowledge, names: Sequence[str]
    ) -> list[Panel]:
        result = views.panels(self.rules, state, viewer, knowledge, names)
        if state.variant == "duo":
            # Under the header; once the game is over, under the final standings.
            result.insert(2 if state.phase == Phase.OVER else 1, views.duo_ladder_panel(state, names))
        return result

    def help_text(self) -> str:
        return "\n\n".join((views.HELP, views.PARTY_HELP, views.DUO_HELP, solo_views.HELP))


class SteamCourtSoloPresentation(Presentation[SoloState]):
    """The Solo variant's moves (``lay 7 7 on 2``), lines, panels and help."""

    def describe_action(
        self, state: SoloState, player: int, action: Any, knowledge: Knowledge, names: Sequence[str]
    ) -> str:
        return solo_views.describe_action(state, action)

    def parse_action(
        self, state: SoloState, player: int, text: str, knowledge: Knowledge, names: Sequence[str]
    ) -> Any:
        """A Solo move typed as :meth:`describe_action` prints it (``lay 7 7 on 2``), checked by
        the Solo rules' ``check_action``; MalformedAction for text that is no Solo move,
        IllegalAction with the reason for a move the rules refuse now (``typed.py``)."""
        if player != 0:
            raise IllegalAction(player, "a Solo game has one seat")
        return typed.parse_solo(SOLO, state, text)

    def round_label(self, state: SoloState) -> str | None:
        return f"round {state.round}" if state.round else None

    def narrate(self, before: SoloState, event: Event, after: SoloState, names: Sequence[str]) -> list[str]:
        return solo_views.narrate(after, names)

    def panels(self, state: SoloState, viewer: int | None, knowledge: Knowledge, names: Sequence[str]) -> list[Panel]:
        return solo_views.panels(state, names)

    def help_text(self) -> str:
        return solo_views.HELP


SOLO_PRESENTATION = SteamCourtSoloPresentation(SOLO_GAME)
PRESENTATION = SteamCourtPresentation(GAME)
