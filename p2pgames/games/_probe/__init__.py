"""Probe: a tiny game that uses every kind of step and card operation the platform offers.

It is not offered to players; it exists so the engine, session and network can be tested on every
mechanism (including audited claims and sub-pile re-shuffles, which Beltpunk doesn't need) before a
real game depends on them.

Rules (2–4 players, cards ``c1`` … ``c{4N}`` worth their number):

1. A random seat starts. The deck is dealt secretly: three cards to each player, the rest is stock.
2. Each of two rounds: every player secretly chooses a card from hand; all are revealed together;
   the highest scores a point (the round's *winner*).
3. The winner passes one card from hand to the player on their left, and must pass their **highest**
   card — a hidden choice, recorded as a claim and checked at the audit.
4. Then the others, in seat order from the winner's left, may *cheer*: the first to cheer scores a
   point and closes the window; the rest pass.
5. The revealed cards are re-shuffled face down, and each player, from the winner's left, draws one
   blind from that pile.
6. After two rounds every deal is audited; most points wins (ties share the win).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from p2pgames.engine import (
    CardOperations,
    CardState,
    Chance,
    Claim,
    DeterministicRandom,
    Game,
    GameOver,
    GameState,
    IllegalAction,
    Knowledge,
    MalformedAction,
    ReactionWindow,
    Ruleset,
    RuleViolation,
    Simultaneous,
    Step,
    Turn,
)

ROUNDS = 2
HAND_SIZE = 3



def card_value(name: str) -> int:
    return int(name[1:])


@dataclass(frozen=True, slots=True)
class PlayCard:
    slot: int

    def __post_init__(self) -> None:
        if type(self.slot) is not int or self.slot < 0:
            raise MalformedAction(f"slot must be a non-negative integer, not {self.slot!r}")


@dataclass(frozen=True, slots=True)
class PassCard:
    slot: int

    def __post_init__(self) -> None:
        if type(self.slot) is not int or self.slot < 0:
            raise MalformedAction(f"slot must be a non-negative integer, not {self.slot!r}")


@dataclass(frozen=True, slots=True)
class Cheer:
    cheer: bool


class ProbeState(GameState):
    __slots__ = (
        "players", "cards", "first", "phase", "round", "hands", "stock", "played", "points",
        "winner", "answered",
    )

    def copy(self) -> "ProbeState":
        other = ProbeState.__new__(ProbeState)
        other.players = self.players
        other.cards = self.cards.copy()
        other.first = self.first
        other.phase = self.phase
        other.round = self.round
        other.hands = [list(hand) for hand in self.hands]
        other.stock = list(self.stock)
        other.played = list(self.played)
        other.points = list(self.points)
        other.winner = self.winner
        other.answered = list(self.answered)
        return other


class Probe(Game[ProbeState]):
    name = "probe"
    title = "Probe"
    min_players = 2
    max_players = 4
    rules_edition = 2  # 2: retired deals leave the card state (its next_deal key)

    def setup(self, ruleset: Ruleset) -> ProbeState:
        state = ProbeState()
        state.players = ruleset.players
        state.cards = CardState()
        state.first = -1
        state.phase = "seat"
        state.round = 0
        state.hands = [[] for _ in range(ruleset.players)]
        state.stock = []
        state.played = []  # [seat, slot] in seat order
        state.points = [0] * ruleset.players
        state.winner = -1
        state.answered = []
        return state

    # -- steps ---------------------------------------------------------------------------------

    def step(self, state: ProbeState) -> Step:
        if state.cards.pending:
            return CardOperations(tuple(state.cards.pending))
        phase = state.phase
        if phase == "seat":
            return Chance("who starts")
        if phase == "play":
            return Simultaneous(tuple(range(state.players)), "choose a card to play")
        if phase == "pass":
            return Turn((state.winner,), "pass your highest card to your left")
        if phase == "cheer":
            return ReactionWindow(self.cheerers(state), "cheer for the round's winner?")
        if phase == "over":
            best = max(state.points)
            winners = tuple(p for p in range(state.players) if state.points[p] == best)
            return GameOver(tuple(state.points), winners, f"{best} points")
        raise AssertionError(f"no step for phase {phase!r}")  # pragma: no cover

    def cheerers(self, state: ProbeState) -> tuple[int, ...]:
        order = [(state.winner + k) % state.players for k in range(1, state.players)]
        return tuple(p for p in order if p not in state.answered)

    # -- actions -------------------------------------------------------------------------------

    def legal_actions(self, state: ProbeState, player: int, knowledge: Knowledge) -> list[Any]:
        if state.cards.pending:
            return []
        if state.phase == "play":
            return [PlayCard(slot) for slot in state.hands[player]]
        if state.phase == "pass" and player == state.winner:
            hand = state.hands[player]
            if all(slot in knowledge for slot in hand):
                best = max(hand, key=lambda slot: card_value(knowledge[slot]))
                return [PassCard(best)]
            return [PassCard(slot) for slot in hand]
        if state.phase == "cheer" and player in self.cheerers(state):
            return [Cheer(True), Cheer(False)]
        return []

    def check_action(self, state: ProbeState, player: int, action: Any) -> None:
        if state.phase == "play":
            if not isinstance(action, PlayCard):
                raise IllegalAction(player, "choose a card to play")
            if action.slot not in state.hands[player]:
                raise IllegalAction(player, f"slot {action.slot} is not in your hand")
        elif state.phase == "pass":
            if not isinstance(action, PassCard):
                raise IllegalAction(player, "pass a card to your left")
            if action.slot not in state.hands[player]:
                raise IllegalAction(player, f"slot {action.slot} is not in your hand")
        elif state.phase == "cheer":
            if not isinstance(action, Cheer):
                raise IllegalAction(player, "cheer or pass")
        else:
            raise IllegalAction(player, "no move is expected now")

    def apply_chance(self, state: ProbeState, seed: bytes) -> None:
        state.first = DeterministicRandom(seed).below(state.players)
        slots = list(state.cards.new_deal(f"c{n}" for n in range(1, 4 * state.players + 1)))
        for player in range(state.players):
            hand = slots[player * HAND_SIZE:(player + 1) * HAND_SIZE]
            state.hands[player] = hand
            state.cards.disclose(hand, player)
        state.stock = slots[state.players * HAND_SIZE:]
        state.phase = "play"

    def apply_simultaneous(self, state: ProbeState, actions: tuple[tuple[int, Any], ...]) -> None:
        state.played = [[player, action.slot] for player, action in actions]
        for player, action in actions:
            state.hands[player].remove(action.slot)
        state.cards.reveal(slot for _, slot in state.played)
        state.phase = "revealing"

    def after_cards(self, state: ProbeState, values: Mapping[int, str]) -> None:
        if state.phase == "revealing":
            best = max(state.played, key=lambda pair: card_value(state.cards.revealed[pair[1]]))
            state.winner = best[0]
            state.points[state.winner] += 1
            state.phase = "pass" if state.hands[state.winner] else "cheer"
            state.answered = []

    def apply_action(self, state: ProbeState, player: int, action: Any) -> None:
        if isinstance(action, PassCard):
            hand = state.hands[player]
            # The rule wants the highest card: a hidden choice, so it is a claim for the audit.
            rest = tuple(slot for slot in hand if slot != action.slot)
            state.cards.claim(Claim(player, "highest", (action.slot,) + rest))
            hand.remove(action.slot)
            left = (player + 1) % state.players
            state.hands[left].append(action.slot)
            state.cards.disclose([action.slot], left)
            state.phase = "cheer"
            state.answered = []
        elif isinstance(action, Cheer):
            state.answered.append(player)
            if action.cheer:
                state.points[player] += 1
                state.answered = [p for p in range(state.players) if p != state.winner]
            if not self.cheerers(state):
                self._end_round(state)

    def _end_round(self, state: ProbeState) -> None:
        state.round += 1
        pile = list(state.cards.reshuffle(slot for _, slot in state.played))
        state.played = []
        order = [(state.winner + k) % state.players for k in range(1, state.players + 1)]
        for player, slot in zip(order, pile):
            state.hands[player].append(slot)
            state.cards.disclose([slot], player)
        if state.round == ROUNDS:
            state.cards.audit(state.cards.deals)
            state.phase = "over"
        else:
            state.phase = "play"

    def check_claim(self, state: ProbeState, claim: Claim) -> None:
        values = [card_value(state.cards.revealed[slot]) for slot in claim.slots]
        if values[0] != max(values):
            raise RuleViolation(
                claim.player,
                f"passed c{values[0]} while holding c{max(values)}: the highest card must be passed",
            )

    # -- encodings -----------------------------------------------------------------------------

    def encode_action(self, action: Any) -> Any:
        if isinstance(action, PlayCard):
            return ["play", action.slot]
        if isinstance(action, PassCard):
            return ["pass", action.slot]
        if isinstance(action, Cheer):
            return ["cheer", action.cheer]
        raise MalformedAction(f"not a probe action: {action!r}")

    def decode_action(self, data: Any) -> Any:
        try:
            kind, argument = data
        except (TypeError, ValueError):
            raise MalformedAction(f"a probe action is [kind, argument], not {data!r}") from None
        if kind == "play":
            return PlayCard(argument)
        if kind == "pass":
            return PassCard(argument)
        if kind == "cheer" and type(argument) is bool:
            return Cheer(argument)
        raise MalformedAction(f"unknown probe action {data!r}")

    def encode_state(self, state: ProbeState) -> Any:
        return {
            "players": state.players,
            "cards": state.cards.encode(),
            "first": state.first,
            "phase": state.phase,
            "round": state.round,
            "hands": state.hands,
            "stock": state.stock,
            "played": state.played,
            "points": state.points,
            "winner": state.winner,
            "answered": state.answered,
        }

    def decode_state(self, data: Any) -> ProbeState:
        state = ProbeState()
        state.players = data["players"]
        state.cards = CardState.decode(data["cards"])
        state.first = data["first"]
        state.phase = data["phase"]
        state.round = data["round"]
        state.hands = [list(hand) for hand in data["hands"]]
        state.stock = list(data["stock"])
        state.played = [list(pair) for pair in data["played"]]
        state.points = list(data["points"])
        state.winner = data["winner"]
        state.answered = list(data["answered"])
        return state


GAME = Probe()
