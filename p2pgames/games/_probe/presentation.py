"""How the probe game is shown: its moves as typed (``play c3``, ``pass c3``, ``cheer``), its
log's lines and the warning before passing a card. The rules are in the package's ``__init__``."""

from __future__ import annotations

import re
from typing import Any, Sequence

from p2pgames.engine import (
    Act,
    CardsDone,
    ChanceOutcome,
    Event,
    IllegalAction,
    Knowledge,
    MalformedAction,
    Presentation,
    SimultaneousActs,
    StandingAnswer,
    normalize_typed,
)
from p2pgames.games._probe import GAME, Cheer, PassCard, PlayCard, ProbeState, card_value

__all__ = ["PRESENTATION", "ProbePresentation"]

_CARD = re.compile(r"c[1-9][0-9]?")


class ProbePresentation(Presentation[ProbeState]):
    """The probe game's moves, lines and warnings for a person."""

    def describe_action(
        self, state: ProbeState, player: int, action: Any, knowledge: Knowledge, names: Sequence[str]
    ) -> str:
        if isinstance(action, (PlayCard, PassCard)):
            verb = "play" if isinstance(action, PlayCard) else "pass"
            return f"{verb} {knowledge.get(action.slot) or state.cards.value(action.slot) or f'#{action.slot}'}"
        return "cheer" if action.cheer else "pass"

    def parse_action(
        self, state: ProbeState, player: int, text: str, knowledge: Knowledge, names: Sequence[str]
    ) -> Any:
        words = normalize_typed(text).split()
        if words == ["cheer"] or words == ["pass"] and state.phase == "cheer":
            if state.phase != "cheer" or player not in self.rules.cheerers(state):
                raise IllegalAction(player, "there is nothing to cheer for now")
            return Cheer(words == ["cheer"])
        if len(words) != 2 or words[0] not in ("play", "pass") or not _CARD.fullmatch(words[1]):
            raise MalformedAction(f"{text!r} is not a probe move (play cN, pass cN, cheer or pass)")
        verb, card = words
        hand = state.hands[player]
        slot = next((slot for slot in hand if knowledge.get(slot) == card), None)
        if slot is None:
            raise IllegalAction(player, f"{card} is not in your hand")
        if verb == "play":
            if state.phase != "play":
                raise IllegalAction(player, "cards are played at the start of a round")
            return PlayCard(slot)
        if state.phase != "pass" or player != state.winner:
            raise IllegalAction(player, "only the round's winner passes a card, after winning it")
        highest = max((knowledge[slot] for slot in hand if slot in knowledge), key=card_value)
        if highest != card:
            raise IllegalAction(player, f"you must pass your highest card, {highest}")
        return PassCard(slot)

    def standing_answer(self, state: ProbeState, player: int, knowledge: Knowledge) -> StandingAnswer | None:
        if state.phase == "cheer" and player in self.rules.cheerers(state):
            return StandingAnswer("never cheer", Cheer(False), "cheer")  # for the rest of the game
        return None

    def warnings(self, state: ProbeState, player: int, knowledge: Knowledge, names: Sequence[str]) -> Sequence[str]:
        if state.phase == "pass" and player == state.winner:
            left = names[(player + 1) % state.players]
            return (f"The card you pass goes to {left}, who will know you held it.",)
        return ()

    def narrate(self, before: ProbeState, event: Event, after: ProbeState, names: Sequence[str]) -> list[str]:
        if isinstance(event, ChanceOutcome):
            return [f"{names[after.first]} starts"]
        if isinstance(event, SimultaneousActs):
            return ["everyone has chosen a card"]
        if isinstance(event, CardsDone) and before.phase == "revealing":
            return [f"{names[after.winner]} wins the round"]
        if isinstance(event, Act):
            if isinstance(event.action, PassCard):
                return [f"{names[event.player]} passes a card to the left"]
            if isinstance(event.action, Cheer) and event.action.cheer:
                return [f"{names[event.player]} cheers and scores a point"]
        return []

    def narrate_private(
        self, before: ProbeState, event: Event, after: ProbeState, viewer: int, knowledge: Knowledge,
        names: Sequence[str],
    ) -> list[str]:
        # The card passed to the left is seen once its keys arrive: the card operations' end.
        if isinstance(event, CardsDone) and before.phase == "cheer":
            passed = [knowledge[slot] for slot in before.cards.disclosed_to(viewer) if slot in knowledge]
            return [f"{names[before.winner]} passed you {card}" for card in passed]
        return []


PRESENTATION = ProbePresentation(GAME)
