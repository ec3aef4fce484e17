"""A whole table in one process, with no secrecy: for tests, benchmarks and bots that simulate.

:class:`LocalTable` plays the part the peers' session plays over the network: it answers chance
steps with seeds from its own deterministic stream, carries out card operations knowing every
value, and keeps each seat's knowledge of hidden cards. The events it feeds the game are recorded
in :attr:`LocalTable.log`, so replaying them through :meth:`Game.apply` from the same ruleset must
reproduce every state. Sealed choices (:class:`Sealed`) are kept in :attr:`LocalTable.sealed` until
the game's :class:`Unseal` step, which the table answers by itself with them.
"""

from __future__ import annotations

import hashlib
from typing import Any, Callable, Sequence

from p2pgames.engine._cards import Audit, Disclose, NewDeal, Reshuffle, Reveal
from p2pgames.engine._errors import EngineError
from p2pgames.engine._game import Game, Ruleset
from p2pgames.engine._random import DeterministicRandom
from p2pgames.engine._steps import (
    Act,
    CardOperations,
    CardsDone,
    Chance,
    ChanceOutcome,
    ChoicesSealed,
    Event,
    GameOver,
    Sealed,
    Simultaneous,
    SimultaneousActs,
    Step,
    Turn,
    Unseal,
)

__all__ = ["LocalTable"]


class LocalTable:
    """Drives ``game`` from its setup; every hidden value is known to the table.

    ``seed`` makes the run reproducible: the same game, ruleset, seed and decisions give the same
    log; with ``record_hashes`` the state hash after setup and after every event is kept in
    :attr:`hashes`. ``knowledge[seat]`` maps every slot that seat may see to its card name (slots revealed to
    all are in the public state instead). With ``check=False`` events are applied without copying or
    validating — the fast path for benchmarks and bot simulations.
    """

    def __init__(
        self,
        game: Game,
        ruleset: Ruleset,
        seed: bytes,
        *,
        check: bool = True,
        record_hashes: bool = False,
    ) -> None:
        self.game = game = game.for_ruleset(ruleset)
        self.ruleset = ruleset
        self.check = check
        self.hashes: list[bytes] | None = [] if record_hashes else None
        self.random = DeterministicRandom(hashlib.sha256(b"p2pgames/v1/local-table\x00" + seed).digest())
        self.state = game.setup(ruleset)
        if self.hashes is not None:
            self.hashes.append(game.state_hash(self.state))
        self.truth: dict[int, str] = {}
        self._deal_slots: dict[int, range] = {}  # the deals performed and not yet retired
        self.knowledge: list[dict[int, str]] = [{} for _ in range(ruleset.players)]
        self.log: list[Event] = []
        # The choices of the last Sealed step, (seat, action) in seat order, until its Unseal.
        self.sealed: tuple[tuple[int, Any], ...] | None = None
        self.settle()

    # -- driving -------------------------------------------------------------------------------

    def step(self) -> Step:
        return self.game.step(self.state)

    def feed(self, event: Event) -> None:
        """Apply one event (validated unless ``check`` is off) and record it."""
        if self.check:
            self.state = self.game.apply(self.state, event)
        else:
            self.state = self.game.apply_unchecked(self.state, event)
        self.log.append(event)
        if isinstance(event, CardsDone):
            self._forget_retired()
        if self.hashes is not None:
            self.hashes.append(self.game.state_hash(self.state))

    def act(self, player: int, action: Any) -> None:
        self.feed(Act(player, action))
        self.settle()

    def act_simultaneous(self, actions: Sequence[tuple[int, Any]]) -> None:
        self.feed(SimultaneousActs(tuple(sorted(actions, key=lambda pair: pair[0]))))
        self.settle()

    def seal(self, actions: Sequence[tuple[int, Any]]) -> None:
        """Commit the choices of a :class:`Sealed` step: the game hears only that they are
        sealed; the table keeps them and opens them at the game's :class:`Unseal` step.

        Raises :class:`EngineError` if a sealed set is already outstanding (the game broke the
        contract) or the current step is not a :class:`Sealed` one.
        """
        step = self.game.step(self.state)
        if not isinstance(step, Sealed):
            raise EngineError(f"choices can be sealed only at a Sealed step, not at {step!r}")
        if self.sealed is not None:
            raise EngineError("the game sealed choices again before opening the last ones")
        chosen = tuple(sorted(actions, key=lambda pair: pair[0]))
        self.feed(ChoicesSealed())
        self.sealed = chosen
        self.settle()

    def settle(self) -> Step:
        """Resolve chance, card and unseal steps until a player must act or the game is over.

        Raises :class:`EngineError` at an :class:`Unseal` step with no sealed choices, or for
        other seats than the ones that sealed them.
        """
        while True:
            step = self.game.step(self.state)
            if isinstance(step, Chance):
                self.feed(ChanceOutcome(self._seed()))
            elif isinstance(step, CardOperations):
                self.feed(CardsDone(self._perform(step)))
            elif isinstance(step, Unseal):
                sealed = self.sealed
                if sealed is None:
                    raise EngineError("the game opens sealed choices, but none are sealed")
                if tuple(seat for seat, _ in sealed) != tuple(sorted(step.players)):
                    raise EngineError(f"the game opens the sealed choices of seats {step.players}, not of those that sealed them")
                self.sealed = None
                self.feed(SimultaneousActs(sealed))
            else:
                return step

    def play_with(self, bots: Sequence[Any], *, until: Callable[["LocalTable"], bool] | None = None) -> None:
        """Let ``bots[seat]`` decide for each seat until the game ends or ``until(self)`` holds.

        A bot is anything with ``choose(game, state, player, knowledge, step)`` returning a legal
        action (:class:`p2pgames.bots.Bot`). When several seats may act, the first with a legal
        action does.
        """
        game = self.game
        while not self.over and not (until is not None and until(self)):
            step = game.step(self.state)
            if isinstance(step, (Simultaneous, Sealed)):
                chosen = [
                    (seat, bots[seat].choose(game, self.state, seat, self.knowledge[seat], step))
                    for seat in step.players
                ]
                if isinstance(step, Sealed):
                    self.seal(chosen)
                else:
                    self.act_simultaneous(chosen)
                continue
            actors = step.actors if isinstance(step, Turn) else step.players  # type: ignore[union-attr]
            seat = actors[0] if len(actors) == 1 else next(
                p for p in actors if game.legal_actions(self.state, p, self.knowledge[p])
            )
            self.act(seat, bots[seat].choose(game, self.state, seat, self.knowledge[seat], step))

    @property
    def over(self) -> bool:
        return isinstance(self.game.step(self.state), GameOver)

    # -- chance and cards ----------------------------------------------------------------------

    def _seed(self) -> bytes:
        return b"".join(self.random.below(256).to_bytes(1, "big") for _ in range(32))

    def _perform(self, step: CardOperations) -> tuple[tuple[int, str], ...]:
        public: dict[int, str] = {}
        for operation in step.operations:
            if isinstance(operation, NewDeal):
                stacked = self._stacked_order(operation)
                if stacked is None:
                    names = list(operation.cards)
                    self.random.shuffle(names)
                else:
                    names = list(stacked)
                self._place(operation.deal, operation.first_slot, names)
            elif isinstance(operation, Reshuffle):
                names = [self.truth[slot] for slot in operation.source_slots]
                self.random.shuffle(names)
                self._place(operation.deal, operation.first_slot, names)
            elif isinstance(operation, Reveal):
                for slot in operation.slots:
                    public[slot] = self.truth[slot]
            elif isinstance(operation, Disclose):
                seen = self.knowledge[operation.to]
                for slot in operation.slots:
                    seen[slot] = self.truth[slot]
            elif isinstance(operation, Audit):
                for deal in operation.deals:
                    for slot in self.state.cards.slots_of(deal):
                        if slot not in self.state.cards.revealed:
                            public[slot] = self.truth[slot]
            else:  # pragma: no cover - the union is closed
                raise EngineError(f"unknown card operation {operation!r}")
        return tuple(sorted(public.items()))

    def _stacked_order(self, operation: NewDeal) -> Sequence[str] | None:
        """The order a test stacks ``operation``'s cards in, or ``None`` (the default): shuffled.
        Scenario tables override it to deal a known deck."""
        return None

    def _place(self, deal: int, first_slot: int, names: Sequence[str]) -> None:
        """Deal ``names``, in this order, into deal ``deal``'s slots from ``first_slot``."""
        for offset, name in enumerate(names):
            self.truth[first_slot + offset] = name
        self._deal_slots[deal] = range(first_slot, first_slot + len(names))

    def _forget_retired(self) -> None:
        # A deal performed that the state no longer has was retired: its slots are never referred
        # to again, so drop what anyone knew of them.
        live = self.state.cards.deals
        for deal in [deal for deal in self._deal_slots if deal not in live]:
            slots = self._deal_slots.pop(deal)
            for seen in self.knowledge:
                for slot in slots:
                    seen.pop(slot, None)
            for slot in slots:
                self.truth.pop(slot, None)

    def view(self, player: int) -> dict[int, str]:
        """What ``player`` can see of hidden cards (its knowledge)."""
        return self.knowledge[player]
