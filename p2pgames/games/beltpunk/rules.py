"""The rules of Beltpunk Haberdasher as a pure state machine (see ``RULES.md`` beside this file).

The state is public: which slot lies where (deck, hands, The Machine's conveyors, scrap piles,
scored sets) and everything the table has agreed on. Card values live in ``state.cards.revealed``
once public; a player's view of its own hidden cards is its *knowledge*. A round is one deal of all
52 cards, audited and retired when the round ends.

Flow of a round (the ``phase`` field names the place in it)::

    deal ─► turn: draws ─► discard (simultaneous) ─► revealing
            ─► for each discard, in Machine Order:
                action ─► [pick | place ─► placing | give] ─► overflow check
            ─► declare (one by one, from the Foreman) ─► score (simultaneous) ─► scoring
            ─► next turn, or round end ─► auditing ─► next round, or over

This module is the flow: the :class:`Beltpunk` class answers the engine (steps, legal actions,
checks, events) and goes from one place to the next. What happens at each place is in the module
named after its part of the rulebook, which this one calls:

==================  ===============================================================================
``setup.py``        Setup, and each round's deal: hands by player count, the first Foreman, The
                    Machine's opening cards; the table cleared for the next round
``turn.py``         Turn Structure 1–3 and The Machine: the Foreman passing, the draws, the
                    discards revealed together and resolved in Machine Order, conveyors, overflows
``card_actions.py`` Card Actions: what each suit offers; draw, look and draw, take and place,
                    exchange; re-masking a hand that took in a card another seat knows
``scoring.py``      Turn Structure 4 and the ends: declarations, sets, Ending the round, Scoring,
                    Ending the game
``state.py``        the state (:class:`BeltpunkState`, :class:`Phase`) and its wire form
==================  ===============================================================================

Sets and their points are ``cards.py``, the actions and their wire form ``actions.py``. None of
these imports the presentation (``presentation.py``, ``views.py``, ``typed.py``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping, Sequence

from p2pgames.engine import (
    CardOperations,
    Chance,
    Concealment,
    DeterministicRandom,
    Game,
    GameOver,
    IllegalAction,
    Knowledge,
    Ruleset,
    RulesetOption,
    Simultaneous,
    Step,
    Turn,
)

from p2pgames.games.beltpunk import card_actions, scoring, setup, turn
from p2pgames.games.beltpunk.actions import (
    Declare,
    Discard,
    Draw,
    Exchange,
    Give,
    Look,
    Pick,
    SUIT_ACTIONS,
    Place,
    Score,
    Skip,
    Take,
    decode_action,
    encode_action,
)
from p2pgames.games.beltpunk.cards import SUIT_NAMES, has_set
from p2pgames.games.beltpunk.state import (
    RESOLUTION_PHASES,
    BeltpunkState,
    Phase,
    decode_state,
    encode_state,
)
from p2pgames.words import with_article

__all__ = ["Beltpunk", "BeltpunkState", "SUIT_ACTIONS", "Phase"]


ACTION_NAMES = {Draw: "draw", Look: "look and draw", Take: "take and place", Exchange: "exchange"}
TARGETS = (25, 35)


# Steps are immutable: build each one once.
_SEATS = range(4)
_DISCARD_STEPS = {
    players: Simultaneous(tuple(range(players)), "choose a card to discard into The Machine")
    for players in (2, 3, 4)
}
_ACTION_TURNS = [
    [
        Turn((seat,), f"{SUIT_NAMES[suit]}: {ACTION_NAMES[first]}, {ACTION_NAMES[second]} or skip")
        for seat in _SEATS
    ]
    for suit, (first, second) in enumerate(SUIT_ACTIONS)
]
_TURNS = {
    phase: [Turn((seat,), prompt) for seat in _SEATS]
    for phase, prompt in (
        (Phase.DECLARE, "declare whether you will score a set this turn"),
        (Phase.PICK, "draw a card from the pile you looked at"),
        (Phase.PLACE, "place a card from your hand into the pile you took from"),
        (Phase.GIVE, "choose a card of yours to give in the exchange"),
    )
}
# Actions are immutable too; the ones offered again and again are kept (a few rounds' worth).
_discard = lru_cache(maxsize=512)(Discard)
_pick = lru_cache(maxsize=512)(Pick)
_place = lru_cache(maxsize=512)(Place)
_give = lru_cache(maxsize=512)(Give)
_YES, _NO = Declare(True), Declare(False)


class Beltpunk(Game[BeltpunkState]):
    """Beltpunk Haberdasher for 2–4 players. Stateless: every method takes the state."""

    name = "beltpunk"
    title = "Beltpunk Haberdasher"
    min_players = 2
    max_players = 4
    # 2: hands are re-masked after a pick, a take and an exchange; 3: a round's retired deals
    # leave the card state (its next_deal key).
    rules_edition = 3
    options = (
        RulesetOption(
            "target",
            25,
            TARGETS,
            "points that end the game at the end of a round (the rulebook says 25 and 35)",
        ),
    )

    # -- setup and steps -----------------------------------------------------------------------

    def setup(self, ruleset: Ruleset) -> BeltpunkState:
        return setup.new_state(ruleset)

    def step(self, state: BeltpunkState) -> Step:
        # Called after every event, several times: steps are shared, prebuilt values.
        if state.cards.pending:
            return CardOperations(tuple(state.cards.pending))
        phase = state.phase
        if phase == Phase.DISCARD:
            return _DISCARD_STEPS[state.players]
        if phase in RESOLUTION_PHASES:
            actor = state.order[state.resolving][0]
            if phase == Phase.ACTION:
                return _ACTION_TURNS[state.discarded_suit()][actor]
            if phase == Phase.GIVE:
                return _TURNS[phase][state.partner]
            return _TURNS[phase][actor]
        if phase == Phase.DECLARE:
            return _TURNS[phase][(state.foreman + state.declaring) % state.players]
        if phase == Phase.SCORE:
            return Simultaneous(tuple(state.scorers), "choose the set you score")
        if phase == Phase.FIRST_FOREMAN:
            return Chance("choose the first Foreman")
        if phase == Phase.OVER:
            winners = state.leaders()
            return GameOver(tuple(state.totals), winners, scoring.result_summary(state, winners))
        raise AssertionError(f"no step for phase {phase!r}")  # pragma: no cover

    # -- legal actions -------------------------------------------------------------------------

    def playout_choice(
        self,
        state: BeltpunkState,
        player: int,
        actions: Sequence[Any],
        knowledge: Knowledge,
        random: DeterministicRandom,
    ) -> Any:
        """Random play that always declares a set when it holds one; otherwise uniform.

        Uniformly random players turn down half the sets they could score and lose about 2.5
        points a round, so nobody ever reaches the target: such games don't end (RULES.md).
        """
        # Only a declaration step offers "yes"; testing the phase first keeps this cheap.
        if state.phase == Phase.DECLARE and _YES in actions:
            return _YES
        return actions[random.below(len(actions))]

    def legal_actions(self, state: BeltpunkState, player: int, knowledge: Knowledge) -> list[Any]:
        if state.cards.pending:
            return []
        phase = state.phase
        if phase == Phase.DISCARD:
            return [_discard(slot) for slot in state.hands[player]]
        if phase in RESOLUTION_PHASES:
            actor = state.order[state.resolving][0]
            if phase == Phase.ACTION:
                return card_actions.action_options(state, player) if player == actor else []
            if phase == Phase.PICK:
                return (
                    [_pick(slot) for slot in state.pile_slots(state.pile)]
                    if player == actor
                    else []
                )
            if phase == Phase.PLACE:
                return [_place(slot) for slot in state.hands[player]] if player == actor else []
            if phase == Phase.GIVE and player == state.partner:
                return [_give(slot) for slot in state.hands[player]]
            return []
        if phase == Phase.DECLARE:
            if player != (state.foreman + state.declaring) % state.players:
                return []
            names = [state.value(slot, knowledge) for slot in state.hands[player]]
            if None not in names and has_set(names):
                return [_YES, _NO]
            return [_NO]
        if phase == Phase.SCORE and player in state.scorers:
            return scoring.set_options(state, player, knowledge)
        return []

    # -- checking actions ----------------------------------------------------------------------

    def kept_slots(self, state: BeltpunkState, seat: int) -> list[int]:
        return list(state.hands[seat])

    def concealed_moves(self, state: BeltpunkState, player: int, action: Any) -> list[Concealment]:
        # Placed face down into a scrap pile; offered or given in an exchange, seen by the other.
        kind = type(action)
        if kind is Place and state.pile is not None:
            return [Concealment(action.slot)]
        if kind is Exchange:
            return [Concealment(action.slot, (action.with_seat,))]
        if kind is Give:
            return [Concealment(action.slot, (state.actor,))]
        return []

    def check_action(self, state: BeltpunkState, player: int, action: Any) -> None:
        """Raise :class:`IllegalAction` unless ``action`` is allowed by the public state.

        Whether a scored set is really a set is checked when its cards are revealed.
        """
        kind = type(action)
        self.check_kind(state, player, kind)
        hand = state.hands[player] if 0 <= player < state.players else []
        if kind is Discard or kind is Place or kind is Give:
            _require_in_hand(player, action.slot, hand)
        elif kind is Pick:
            if action.slot not in state.pile_slots(state.pile):
                raise IllegalAction(player, "that card is not in the pile you looked at")
        elif kind is Declare:
            if action.score and len(hand) < 2:
                raise IllegalAction(
                    player, "you can't score a set with fewer than two cards in hand"
                )
        elif kind is Score:
            for slot in action.slots:
                _require_in_hand(player, slot, hand)
        elif kind is Draw:
            if not state.deck:
                raise IllegalAction(player, "the deck is empty")
        elif kind is Look:
            if action.pile is not None and action.pile >= state.players:
                raise IllegalAction(player, f"there is no seat {action.pile}")
            if not state.pile_slots(action.pile):
                raise IllegalAction(player, "that scrap pile is empty")
        elif kind is Take:
            if state.pile_of(action.slot) is None:
                raise IllegalAction(player, "that card is not in The Machine or a scrap pile")
        elif kind is Exchange:
            _require_in_hand(player, action.slot, hand)
            seat = action.with_seat
            if seat == player or seat >= state.players:
                raise IllegalAction(player, "exchange with another player at the table")
            if not state.hands[seat]:
                raise IllegalAction(player, "that player has no cards to exchange")

    def check_kind(self, state: BeltpunkState, player: int, kind: type) -> None:
        """Raise :class:`IllegalAction` unless ``player`` may make a move of ``kind`` now (an
        action class such as :class:`Take`), whatever its cards: the first half of
        :meth:`check_action`, which typed moves are checked with before their cards are found."""
        if state.cards.pending:
            raise IllegalAction(player, "wait until the cards being dealt or revealed are done")
        phase = state.phase
        if phase == Phase.DISCARD:
            if kind is not Discard:
                raise IllegalAction(
                    player, "choose a card from your hand to discard into The Machine"
                )
        elif phase == Phase.ACTION:
            if player != state.actor:
                raise IllegalAction(player, "it is not your card that is being resolved")
            if kind is Skip:
                return
            suit = state.discarded_suit()
            allowed = SUIT_ACTIONS[suit]
            if kind not in allowed:
                # The second halves of two actions: say which first half comes before them.
                if kind is Pick and Look in allowed:
                    raise IllegalAction(
                        player, "look at a scrap pile first, then draw one of its cards"
                    )
                if kind is Place and Take in allowed:
                    raise IllegalAction(
                        player, "take a card from a scrap pile first, then place one into it"
                    )
                first, second = (ACTION_NAMES[k] for k in allowed)
                raise IllegalAction(
                    player, f"{with_article(SUIT_NAMES[suit])} card allows {first} or {second} (or skip)"
                )
        elif phase == Phase.PICK:
            if player != state.actor:
                raise IllegalAction(player, "the player who looked must draw a card from that pile")
            if kind is not Pick:
                raise IllegalAction(player, "now draw one of the cards of the pile you looked at")
        elif phase == Phase.PLACE:
            if player != state.actor:
                raise IllegalAction(player, "the player who took a card must place one from hand")
            if kind is not Place:
                raise IllegalAction(
                    player, "now place a card from your hand into the pile you took from"
                )
        elif phase == Phase.GIVE:
            if player != state.partner:
                raise IllegalAction(player, "the player asked for an exchange must give a card")
            if kind is not Give:
                raise IllegalAction(
                    player, "you were offered an exchange: give a card from your hand"
                )
        elif phase == Phase.DECLARE:
            if player != state.declarer or kind is not Declare:
                raise IllegalAction(player, "it is not your turn to declare")
        elif phase == Phase.SCORE:
            if player not in state.scorers:
                raise IllegalAction(player, "only players who declared a set choose one now")
            if kind is not Score:
                raise IllegalAction(player, "you declared a set: choose the set you score")
        elif phase == Phase.OVER:
            raise IllegalAction(player, "the game is over")
        else:
            raise IllegalAction(player, "no move is expected now")

    # -- applying events -----------------------------------------------------------------------

    def apply_chance(self, state: BeltpunkState, seed: bytes) -> None:
        state.notes = []
        setup.choose_first_foreman(state, seed)
        self._start_round(state)

    def apply_simultaneous(
        self, state: BeltpunkState, actions: tuple[tuple[int, Any], ...]
    ) -> None:
        state.notes = []
        if state.phase == Phase.DISCARD:
            turn.reveal_discards(state, actions)
        else:  # Phase.SCORE
            scoring.reveal_sets(state, actions)
        if not state.cards.pending:
            # Every chosen card was public already (taken from The Machine): nothing to wait for.
            self._proceed(state)

    def after_cards(self, state: BeltpunkState, values: Mapping[int, str]) -> None:
        state.notes = []
        self._proceed(state)

    def _proceed(self, state: BeltpunkState) -> None:
        """Go on from a phase that waited for card values (now public)."""
        if state.opening:
            # The round's first cards go into The Machine once everyone can see them.
            setup.open_the_machine(state)
        phase = state.phase
        if phase == Phase.REVEALING:
            turn.sort_in_machine_order(state)
            self._begin_resolution(state)
        elif phase == Phase.PLACING:
            card_actions.place_into_the_machine(state)
            self._end_resolution(state)
        elif phase == Phase.SCORING:
            scoring.score_sets(state)
            self._end_turn(state)
        elif phase == Phase.AUDITING:
            if scoring.game_over(state):
                # The last round's table stays as it ended, every card public since the audit, so
                # the final screen shows the sets and scrap piles that decided the game. Its deal
                # is not retired: no round follows that could reuse the slots.
                state.phase = Phase.OVER
                state.notes.append(("game-over",))
            else:
                for deal in setup.round_deals(state):
                    state.cards.retire(deal)
                setup.clear_table(state)
                self._start_round(state)

    def apply_action(self, state: BeltpunkState, player: int, action: Any) -> None:
        state.notes = []
        if type(action) is Declare:
            if action.score:
                state.scorers.append(player)
            state.declaring += 1
            self._next_declaration(state)
        elif card_actions.resolve(state, player, action):
            self._end_resolution(state)

    # -- the flow ------------------------------------------------------------------------------

    def _start_round(self, state: BeltpunkState) -> None:
        setup.deal_round(state)
        turn.start_turn(state)

    def _begin_resolution(self, state: BeltpunkState) -> None:
        player = state.order[state.resolving][0]
        turn.discard_into_the_machine(state)
        if not card_actions.has_an_action(state, player):
            state.notes.append(("no-action", player))
            self._end_resolution(state)

    def _end_resolution(self, state: BeltpunkState) -> None:
        turn.overflow(state)
        state.pile = None
        state.offer = -1
        state.partner = -1
        state.resolving += 1
        if state.resolving < len(state.order):
            self._begin_resolution(state)
        else:
            state.order = []
            state.resolving = 0
            state.declaring = 0
            state.scorers = []
            state.phase = Phase.DECLARE
            self._next_declaration(state)

    def _next_declaration(self, state: BeltpunkState) -> None:
        scoring.pass_short_hands(state)
        if state.declaring < state.players:
            return  # that seat declares
        if state.scorers:
            state.scorers.sort()
            state.phase = Phase.SCORE
        else:
            self._end_turn(state)

    def _end_turn(self, state: BeltpunkState) -> None:
        if not state.deck:
            scoring.end_round(state, "the deck is empty")
        elif not all(state.hands):
            scoring.end_round(state, "a player's hand is empty")
        else:
            turn.start_turn(state)

    # -- encodings -----------------------------------------------------------------------------

    def encode_action(self, action: Any) -> Any:
        return encode_action(action)

    def decode_action(self, data: Any) -> Any:
        return decode_action(data)

    def encode_state(self, state: BeltpunkState) -> Any:
        return encode_state(state)

    def decode_state(self, data: Any) -> BeltpunkState:
        return decode_state(data)


def _require_in_hand(player: int, slot: int, hand: list[int]) -> None:
    if slot not in hand:
        raise IllegalAction(player, "that card is not in your hand")
