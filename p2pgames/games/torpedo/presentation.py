"""How Steam Torpedo is shown to people: its moves as typed and read back, the log's lines, the
table's panels, the warnings, the build composer, ``tile NAME`` and the help.

The rules (``rules.py`` and the modules it imports) never import this module nor the ones it
delegates to: ``views.py`` (texts and panels), ``typed.py`` (typed moves read back) and
``composer.py`` (the custom build, tile by tile).
"""

from __future__ import annotations

from typing import Any, Sequence

from p2pgames.engine import ChoiceGroup, Composer, Event, Knowledge, Panel, Presentation, StandingAnswer

from p2pgames.games.torpedo import GAME, typed, views
from p2pgames.games.torpedo.actions import Pass
from p2pgames.games.torpedo.composer import BuildComposer
from p2pgames.games.torpedo.state import SEATS, Phase, TorpedoState
from p2pgames.games.torpedo.tiles import TILESET

__all__ = ["NO_REACTIONS", "PRESENTATION", "TorpedoPresentation"]

NO_REACTIONS = "no reactions this turn"  # the counter windows' standing answer, as offered
_PASS = Pass()


class TorpedoPresentation(Presentation[TorpedoState]):
    """Steam Torpedo's moves, lines, panels and help for a person (``views.py``, ``typed.py``)."""

    def describe_action(
        self, state: TorpedoState, player: int, action: Any, knowledge: Knowledge, names: Sequence[str]
    ) -> str:
        return views.describe_action(state, player, action)

    def parse_action(
        self, state: TorpedoState, player: int, text: str, knowledge: Knowledge, names: Sequence[str]
    ) -> Any:
        """The action ``text`` names (typed as :meth:`describe_action` prints it), checked by
        :meth:`Torpedo.check_action`. Raises :class:`MalformedAction` for text that is no Steam
        Torpedo move and :class:`IllegalAction` with the reason for a move the rules refuse
        (``typed.py``)."""
        return typed.parse_action(self.rules, state, player, text)

    def group_choices(
        self, state: TorpedoState, player: int, actions: Sequence[Any], texts: Sequence[str]
    ) -> list[ChoiceGroup]:
        """A long list one line per verb (``maneuver …``, ``move …``, ``trigger …``, ``end``), each
        with its parts per crew member or tile (:func:`views.group_choices`)."""
        return views.group_choices(texts)

    def round_label(self, state: TorpedoState) -> str | None:
        return f"turn {state.turn}" if state.turn else None

    def narrate(self, before: TorpedoState, event: Event, after: TorpedoState, names: Sequence[str]) -> list[str]:
        return views.narrate(before, event, after, names)

    def panels(self, state: TorpedoState, viewer: int | None, knowledge: Knowledge, names: Sequence[str]) -> list[Panel]:
        return views.panels(state, viewer, names)

    def help_text(self) -> str:
        return views.HELP

    def composer(self, state: TorpedoState, player: int, knowledge: Knowledge) -> Composer | None:
        """The custom build is composed tile by tile on the builder's peer (``composer.py``)."""
        if state.phase == Phase.BUILD and player in SEATS:
            return BuildComposer(player)
        return None

    def standing_answer(self, state: TorpedoState, player: int, knowledge: Knowledge) -> StandingAnswer | None:
        """In a counter window, "no reactions this turn": a pass now, and the player's own peer
        passes the rest of this turn's windows by itself. Windows open only when a reaction is
        legal (I6), so a player with none is never asked; this is for one who has some and wants
        none. The key is the turn's number: it lapses when the turn ends. It stays on that peer:
        the other sees ordinary passes."""
        if state.phase != Phase.COUNTER or player != 1 - state.active:
            return None
        return StandingAnswer(NO_REACTIONS, _PASS, ("no reactions", state.turn))

    def warnings(self, state: TorpedoState, player: int, knowledge: Knowledge, names: Sequence[str]) -> Sequence[str]:
        """Hits that will land on ``player``'s control room: a location with nothing left, damage
        a location can't hold (:func:`views.warnings`)."""
        return views.warnings(state, player)

    info_commands = (("tile NAME", "a compartment tile's full text"),)

    def explain(self, state: TorpedoState, viewer: int | None, text: str, names: Sequence[str]) -> Sequence[str] | None:
        """``tile NAME`` (its name or short name, any case): the tile's card text; ``None`` for
        any other text."""
        words = text.split()
        if not words or words[0].casefold() != "tile":
            return None
        asked = " ".join(words[1:])
        tile = TILESET.find(asked) if asked else None
        if tile is None:
            known = ", ".join(t.short for t in TILESET.tiles.values())
            if not asked:
                return [f"Type tile and a tile's name or short name: {known}."]
            return [f"No tile is called {asked!r}. The tiles: {known}."]
        return views.tile_answer(tile)


PRESENTATION = TorpedoPresentation(GAME)
