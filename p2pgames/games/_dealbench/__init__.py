"""Deal bench: a game that only deals and audits, for measuring the platform's card protocol.

Not offered to players. With ``tables=2`` the seats split into two tables (the first half and the
second half), each dealing its own deck among its own players at the same time — what Steam Court's
Party variant does. Each table's deck is dealt into one hand per player plus a Court Hand (extras
to the Court Hand), each hand disclosed to its player. Then seat 0 asks for the audit of every deal,
and the game ends.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from p2pgames.engine import (
    CardOperations,
    CardState,
    Event,
    Game,
    GameOver,
    GameState,
    IllegalAction,
    Knowledge,
    MalformedAction,
    Ruleset,
    RulesetError,
    RulesetOption,
    Step,
    Turn,
)

_FINISH = Turn((0,), "ask for the audit")


@dataclass(frozen=True, slots=True)
class AuditNow:
    """Seat 0 ends the deal: every key is published and checked."""


class DealBenchState(GameState):
    __slots__ = ("cards", "hands", "phase")

    def copy(self) -> "DealBenchState":
        other = DealBenchState.__new__(DealBenchState)
        other.cards = self.cards.copy()
        other.hands = [list(hand) for hand in self.hands]
        other.phase = self.phase
        return other


def deck(size: int) -> list[str]:
    """``size`` uniquely named cards (84: Steam Court's deck size; 52: Beltpunk's)."""
    return [f"card{number}" for number in range(size)]


class DealBench(Game[DealBenchState]):
    name = "dealbench"
    title = "Deal bench"
    min_players = 1
    # More than any real game seats (12): a crowd at the host's door (12 joiners and the host)
    # is a test of the platform, whatever the games allow.
    max_players = 16
    rules_edition = 2  # 2: the card state's next_deal key
    options = (
        RulesetOption("cards", 84, (52, 84), "cards in each table's deck"),
        RulesetOption("tables", 1, (1, 2), "tables dealing at the same time, each its own deck"),
    )

    def check_ruleset(self, ruleset: Ruleset) -> None:
        if ruleset["tables"] == 2 and ruleset.players < 4:
            raise RulesetError("two tables need at least 4 players")

    def setup(self, ruleset: Ruleset) -> DealBenchState:
        state = DealBenchState()
        state.cards = CardState()
        state.hands = [[] for _ in range(ruleset.players)]
        state.phase = "dealing"
        players = list(range(ruleset.players))
        half = ruleset.players // 2
        tables = [players] if ruleset["tables"] == 1 else [players[:half], players[half:]]
        for seats in tables:
            slots = list(state.cards.new_deal(deck(ruleset["cards"]), holders=seats))
            size = len(slots) // (len(seats) + 1)
            for index, seat in enumerate(seats):
                state.hands[seat] = slots[index * size:(index + 1) * size]
        for seat, hand in enumerate(state.hands):
            state.cards.disclose(hand, seat)
        return state

    def step(self, state: DealBenchState) -> Step:
        if state.cards.pending:
            return CardOperations(tuple(state.cards.pending))
        if state.phase == "over":
            return GameOver(tuple(0 for _ in state.hands), tuple(range(len(state.hands))), "dealt and audited")
        return _FINISH

    def legal_actions(self, state: DealBenchState, player: int, knowledge: Knowledge) -> list[Any]:
        return [AuditNow()] if player == 0 and state.phase == "dealing" and not state.cards.pending else []

    def check_action(self, state: DealBenchState, player: int, action: Any) -> None:
        if not isinstance(action, AuditNow) or player != 0 or state.phase != "dealing":
            raise IllegalAction(player, "only seat 0 asks for the audit, once")

    def apply_action(self, state: DealBenchState, player: int, action: Any) -> None:
        state.cards.audit(state.cards.deals)
        state.phase = "over"

    def encode_action(self, action: Any) -> Any:
        return ["audit"]

    def decode_action(self, data: Any) -> Any:
        if not isinstance(data, (list, tuple)) or list(data) != ["audit"]:
            raise MalformedAction(f"not a deal-bench action: {data!r}")
        return AuditNow()

    def encode_state(self, state: DealBenchState) -> Any:
        return {"cards": state.cards.encode(), "hands": state.hands, "phase": state.phase}

    def decode_state(self, data: Any) -> DealBenchState:
        state = DealBenchState()
        state.cards = CardState.decode(data["cards"])
        state.hands = [list(hand) for hand in data["hands"]]
        state.phase = data["phase"]
        return state


GAME = DealBench()
