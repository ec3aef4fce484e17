"""The rules of Astonishing! as a pure state machine (see ``RULES.md`` beside this file).

This module is the door: the :class:`Astonishing` game, the preparation for play (the first
player, the Inventors, the deal) and the flow below. Each part of the rulebook is a module of its
own, to which the game hands that part's phases and actions:

==================  ===========================================================================
module              what it holds
==================  ===========================================================================
``invention.py``    the Invention phase: the action cards chosen in secret and revealed, the
                    Queens' special effects, the Kings' builds, the end of the turn, the final turn
``trade.py``        its step 3, Trade (Jacks): offers, answers, the initiator's decision
``exhibition.py``   the Exhibition phase: the exhibition actions, descriptions, the vote, the
                    dice and re-rolls, the exhibition Queens and Kings, the final scoring
``state.py``        the public state, the places in the flow (``Phase``) and the suits
``hands.py``        a hand of resource cards: drawing, re-masking, the refusals every part shares
``cards.py``        the cards, the Inventors, their Queens' powers and the descriptor lists
``actions.py``      every action and its encoding
==================  ===========================================================================

The state is public (see ``state.py``); the whole game is one deal, audited at the end.

Flow (the ``phase`` field names the place in it)::

    first (who is "youngest") ─► inventors (in turn) ─► deal
    ─► invention turn:
         choose (simultaneous) ─► trades, each Jack in turn:
             offer ─► respond (the others, any order) ─► decide ─► [respond ─► decide …]
         ─► queens, in turn (a random card from a hand: a chance step) ─► build (the Kings,
            simultaneous) ─► discard (over six cards) ─► [vote-end (option)] ─► next turn …
    ─► the deck ran out (or everyone agreed): one final turn with every action card
    ─► exhibition: choose-exhibit (Queen or King, sealed: committed now, opened after the dice)
         ─► describe (in turn) ─► vote (simultaneous) ─► dice (chance)
         ─► unseal (the exhibition actions revealed) ─► installed cards revealed
         ─► jacks (re-rolls, in turn) ─► queens (in turn) ─► kings (in turn) ─► audit ─► over

"In turn" always starts at the first player (the rulebook's "youngest") and goes clockwise (up
the seats).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from p2pgames.engine import (
    CardOperations,
    CardState,
    Chance,
    Claim,
    Concealment,
    DeterministicRandom,
    Game,
    GameOver,
    IllegalAction,
    Knowledge,
    Ruleset,
    RulesetOption,
    RuleViolation,
    Sealed,
    Simultaneous,
    Step,
    Turn,
    Unseal,
)

from p2pgames.games.astonishing import exhibition, invention, trade
from p2pgames.games.astonishing.actions import (
    Accept,
    Answer,
    Build,
    OnlyJokers,
    ChooseInventor,
    Describe,
    EndInvention,
    GiveBack,
    Withdraw,
    decode_action,
    encode_action,
)
from p2pgames.games.astonishing.cards import (
    DECK,
    HAND_SIZE,
    INVENTORS,
    POSITIONS,
    descriptor_number,
    inventor_title,
    is_joker,
)
from p2pgames.games.astonishing.hands import need
from p2pgames.games.astonishing.state import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    SPADES,
    AstonishingState,
    Phase,
    decode_state,
    encode_state,
)

__all__ = ["Astonishing", "AstonishingState", "Phase", "CLUBS", "DIAMONDS", "HEARTS", "SPADES"]


def inventor_refusal(state: AstonishingState, player: int, suit: int, names: Sequence[str] = ()) -> str | None:
    """Why ``player`` can't choose the Inventor of ``suit`` now (``None``: it can): they were
    chosen at the start (with the player's own), or another player — named, given ``names`` —
    took it."""
    if state.phase != Phase.INVENTORS:
        mine = state.inventor[player]
        return "the Inventors were chosen at the start" + (f": you play {inventor_title(mine)}" if mine >= 0 else "")
    if suit in state.inventor:
        taker = state.inventor.index(suit)
        return f"{names[taker] if names else 'another player'} plays {INVENTORS[suit]} already"
    return None


_FIRST_STEP = Chance("who goes first (the rulebook's youngest player)")
_DICE_STEP = Chance("the crowd: three dice")
_PICK_STEP = Chance("a card at random")
_REROLL_STEP = Chance("a die rolled again")


class Astonishing(Game[AstonishingState]):
    name = "astonishing"
    title = "Astonishing!"
    min_players = 2
    max_players = 4
    options = (
        RulesetOption(
            "early_end", True, (True, False),
            "once every position of every player holds a card, the players may end the Invention "
            "phase early if all agree (the rulebook's option)",
        ),
        RulesetOption(
            "free_discard", False, (False, True),
            "at the end of a turn every player may discard cards it doesn't want, not only a player "
            "over six (another reading of the rulebook's \"Players may discard extra cards\")",
        ),
        RulesetOption(
            "optional_replacement", False, (False, True),
            "the Diamonds Queen at the exhibition may exchange no part (another reading of her "
            "\"You may exchange\", against \"A Queen, once played, must take effect\")",
        ),
    )
    # Edition 2: the free_discard and optional_replacement options (state keys), and a King scraps
    # installed cards only to make room (RULES.md I16). Edition 3: retired deals leave the card
    # state (its next_deal key).
    rules_edition = 3

    def describe_ruleset(self, ruleset: Ruleset) -> str:
        early = "the early end by agreement" if ruleset["early_end"] else "no early end"
        free = ", any player may discard at the end of a turn" if ruleset["free_discard"] else ""
        optional = ", the Diamonds Queen may replace no part" if ruleset["optional_replacement"] else ""
        return f"{ruleset.players} players, {early}{free}{optional}"

    # -- setup and steps -----------------------------------------------------------------------

    def setup(self, ruleset: Ruleset) -> AstonishingState:
        players = ruleset.players
        state = AstonishingState.__new__(AstonishingState)
        state.players = players
        state.early_end = ruleset["early_end"]
        state.free_discard = ruleset["free_discard"]
        state.optional_replacement = ruleset["optional_replacement"]
        state.cards = CardState()
        state.notes = []
        state.phase = Phase.FIRST
        state.first = -1
        state.inventor = [-1] * players
        state.turn = 0
        state.final = False
        state.deadline = False
        state.deal = 0
        state.deck = []
        state.discard = []
        state.hands = [[] for _ in range(players)]
        state.installed = [[[] for _ in range(POSITIONS)] for _ in range(players)]
        state.last_action = [""] * players
        state.action = [""] * players
        state.queue = []
        state.trader = -1
        state.offer = []
        state.answers = [[] for _ in range(players)]
        state.owing = []
        state.taker = -1
        state.source = -1
        state.taken = []
        state.discarding = []
        state.descriptions = [[] for _ in range(players)]
        state.pitches = [""] * players
        state.exhibit = [""] * players
        state.votes = [-1] * players
        state.jacks = [0] * players
        state.dice = []
        state.rerolling = -1
        state.intimidated = [-1] * players
        state.sabotaged = []
        state.acclaim = [0] * players
        return state

    def step(self, state: AstonishingState) -> Step:
        if state.cards.pending:
            return CardOperations(tuple(state.cards.pending))
        phase = state.phase
        players = tuple(range(state.players))
        if phase == Phase.FIRST:
            return _FIRST_STEP
        if phase == Phase.INVENTORS:
            return Turn((state.queue[0],), "choose your Inventor")
        if phase == Phase.CHOOSE:
            return Simultaneous(players, "choose an action card")
        if phase == Phase.OFFER:
            return Turn((state.trader,), "offer cards to trade, or initiate no trade")
        if phase == Phase.RESPOND:
            return Turn(tuple(state.owing), "answer the trade offer, or decline")
        if phase == Phase.DECIDE:
            return Turn((state.trader,), "accept an answer, revise, ask again or withdraw")
        if phase == Phase.QUEEN:
            return Turn((state.queue[0],), "use your Queen")
        if phase == Phase.GIVE_BACK:
            return Turn((state.taker,), "choose the card to give back to the rival")
        if phase in (Phase.PICK,):
            return _PICK_STEP
        if phase == Phase.BUILD:
            return Simultaneous(tuple(sorted(state.queue)), "build: install cards face down")
        if phase == Phase.DISCARD:
            if state.free_discard:
                return Turn(tuple(state.discarding), "discard cards if you wish (down to six if you hold more)")
            return Turn(tuple(state.discarding), "discard down to six cards")
        if phase == Phase.REFILL:
            return Turn(tuple(state.discarding), "your hand is empty: draw a card from the deck?")
        if phase == Phase.VOTE_END:
            return Simultaneous(players, "end the Invention phase now?")
        if phase == Phase.DESCRIBE:
            return Turn((state.queue[0],), "describe your contraption to the fair")
        if phase == Phase.CHOOSE_EXHIBIT:
            return Sealed(players, "choose Queen or King for the exhibition (face down until after the dice)")
        if phase == Phase.VOTE:
            return Simultaneous(players, "vote for a competitor's invention")
        if phase == Phase.UNSEAL:
            return Unseal(players, "the exhibition actions")
        if phase == Phase.DICE:
            return _DICE_STEP
        if phase == Phase.REROLL:
            return _REROLL_STEP
        if phase == Phase.JACKS:
            return Turn((state.queue[0],), "re-roll a die with a Jack, or keep them")
        if phase == Phase.EXHIBIT_QUEEN:
            return Turn((state.queue[0],), "use your Queen at the exhibition")
        if phase == Phase.EXHIBIT_KING:
            return Turn((state.queue[0],), "choose a competitor for your King")
        if phase == Phase.OVER:
            scores = tuple(state.score(seat) for seat in players)
            best = max(scores)
            winners = tuple(seat for seat in players if scores[seat] == best)
            return GameOver(scores, winners, exhibition.result_summary(state, scores, winners))
        raise AssertionError(f"no step for phase {phase!r}")  # pragma: no cover

    # -- legal actions -------------------------------------------------------------------------

    def legal_actions(self, state: AstonishingState, player: int, knowledge: Knowledge) -> list[Any]:
        if state.cards.pending or not 0 <= player < state.players:
            return []
        phase = state.phase
        if phase == Phase.INVENTORS and state.queue[0] == player:
            taken = set(state.inventor)
            return [ChooseInventor(suit) for suit in range(4) if suit not in taken]
        if phase in trade.PHASES:
            return trade.legal_actions(state, player, knowledge)
        if phase in invention.PHASES:
            return invention.legal_actions(state, player, knowledge)
        if phase in exhibition.PHASES:
            return exhibition.legal_actions(state, player, knowledge)
        return []

    def allows(self, state: AstonishingState, player: int, action: Any, knowledge: Knowledge) -> bool:
        # A description's pitch is free text: any pitch goes with a legal choice of descriptors.
        if isinstance(action, Describe) and action.pitch:
            return Describe(action.numbers) in self.legal_actions(state, player, knowledge)
        return super().allows(state, player, action, knowledge)

    def playout_choice(
        self, state: AstonishingState, player: int, actions: Sequence[Any], knowledge: Knowledge,
        random: DeterministicRandom,
    ) -> Any:
        # Random play must end: a trade's initiator closes it more often than it reopens it, and
        # the early end is agreed to more often than not.
        if state.phase == Phase.DECIDE and random.below(4):
            closing = [action for action in actions if isinstance(action, (Accept, Withdraw))]
            return closing[random.below(len(closing))]
        if state.phase == Phase.VOTE_END and random.below(4):
            return EndInvention(True)
        return actions[random.below(len(actions))]

    # -- checking ------------------------------------------------------------------------------

    def check_action(self, state: AstonishingState, player: int, action: Any) -> None:
        phase = state.phase
        step = self.step(state)
        hand = state.hands[player]

        if isinstance(step, CardOperations):
            raise IllegalAction(player, "the cards are being dealt or revealed")
        if isinstance(action, ChooseInventor):
            problem = inventor_refusal(state, player, action.suit)
            need(player, problem is None, problem or "")
        elif isinstance(action, OnlyJokers):
            need(
                player,
                (phase == Phase.BUILD and player in state.queue)
                or (phase == Phase.EXHIBIT_QUEEN and state.queue[0] == player and state.inventor[player] == DIAMONDS),
                "only a King that must build, or the Diamonds Queen's replacement, can be left undone for Jokers",
            )
            need(player, bool(hand), "your hand is empty")
        elif isinstance(action, trade.ACTIONS):
            trade.check_action(state, player, action)
        elif isinstance(action, invention.ACTIONS):
            invention.check_action(state, player, action)
        elif isinstance(action, exhibition.ACTIONS):
            exhibition.check_action(state, player, action)
        else:
            raise IllegalAction(player, f"{action!r} is not an Astonishing! action")

    def kept_slots(self, state: AstonishingState, seat: int) -> list[int]:
        # The hand, and the cards installed face down (turned up at the exhibition anyway).
        return [*state.hands[seat], *(slot for position in state.installed[seat] for slot in position)]

    def concealed_moves(self, state: AstonishingState, player: int, action: Any) -> list[Concealment]:
        # Installed face down (line 146), offered face down (line 120), given back to the rival
        # who alone sees it: no one else may be able to tell which of the hand's cards it was.
        if isinstance(action, Build):
            return [Concealment(slot) for slot in action.slots]
        if isinstance(action, Answer):
            return [Concealment(slot) for slot, up in zip(action.slots, action.face_up) if not up]
        if isinstance(action, GiveBack):
            return [Concealment(action.slot, (state.source,))]
        return []

    def check_claim(self, state: AstonishingState, claim: Claim) -> None:
        revealed = state.cards.revealed
        names = [revealed[slot] for slot in claim.slots]
        if claim.kind == "install":
            if any(is_joker(name) for name in names):
                raise RuleViolation(claim.player, "installed a Joker: Jokers can never be used to build a contraption")
        elif claim.kind == "discard":
            if any(is_joker(name) for name in names):
                raise RuleViolation(claim.player, "discarded a Joker: Jokers can never be discarded")
        elif claim.kind == "only-jokers":
            if not all(is_joker(name) for name in names):
                raise RuleViolation(claim.player, f"said their hand held only Jokers, so their {claim.detail} could do nothing")
        elif claim.kind == "descriptor":
            position, number = claim.detail
            if all(is_joker(name) or descriptor_number(name, state.inventor[claim.player]) != number for name in names):
                raise RuleViolation(
                    claim.player,
                    f"described position {position + 1} with descriptor {number}, but no card of that number is installed there",
                )
        else:  # pragma: no cover - our own claims only
            raise RuleViolation(claim.player, f"unknown claim {claim.kind!r}")

    # -- applying ------------------------------------------------------------------------------

    def apply_chance(self, state: AstonishingState, seed: bytes) -> None:
        state.notes = []
        random = DeterministicRandom(seed)
        if state.phase == Phase.FIRST:
            state.first = random.below(state.players)
            state.notes.append(("first", state.first))
            state.phase = Phase.INVENTORS
            state.queue = state.in_turn()
        elif state.phase == Phase.PICK:
            invention.take_at_random(state, random)
        elif state.phase in (Phase.DICE, Phase.REROLL):
            exhibition.apply_chance(state, random)
        else:  # pragma: no cover - step() asks for chance only in these phases
            raise AssertionError(state.phase)

    def apply_simultaneous(self, state: AstonishingState, actions: tuple[tuple[int, Any], ...]) -> None:
        state.notes = []
        if state.phase == Phase.CHOOSE:
            invention.reveal(state, actions)
            trade.begin(state)
        elif state.phase in (Phase.BUILD, Phase.VOTE_END):
            invention.apply_simultaneous(state, actions)
        elif state.phase in (Phase.VOTE, Phase.UNSEAL):
            exhibition.apply_simultaneous(state, actions)
        else:  # pragma: no cover
            raise AssertionError(state.phase)

    def apply_action(self, state: AstonishingState, player: int, action: Any) -> None:
        state.notes = []
        if isinstance(action, ChooseInventor):
            state.inventor[player] = action.suit
            state.notes.append(("inventor", player, action.suit))
            state.queue.pop(0)
            if not state.queue:
                self._deal(state)
        elif isinstance(action, trade.ACTIONS):
            trade.apply_action(state, player, action)
        elif isinstance(action, invention.ACTIONS):
            invention.apply_action(state, player, action)
        elif isinstance(action, OnlyJokers):  # the Diamonds exhibition Queen's (a King's goes with the builds)
            exhibition.only_jokers(state, player)
        elif isinstance(action, exhibition.ACTIONS):
            exhibition.apply_action(state, player, action)
        else:  # pragma: no cover - check_action refused it
            raise AssertionError(action)

    def after_cards(self, state: AstonishingState, values: Mapping[int, str]) -> None:
        state.notes = []
        if state.phase == Phase.REVEALING:
            exhibition.after_reveal(state)
        elif state.phase == Phase.REPLACING:
            exhibition.next_exhibition_queen(state)
        elif state.phase == Phase.AUDITING:
            state.phase = Phase.OVER

    def apply_sealed(self, state: AstonishingState) -> None:
        exhibition.sealed(state)

    # -- preparing for play --------------------------------------------------------------------

    def _deal(self, state: AstonishingState) -> None:
        state.deal = state.cards.next_deal  # the id new_deal gives it
        slots = list(state.cards.new_deal(DECK))
        state.deck = slots
        for seat in state.in_turn():
            hand = state.deck[:HAND_SIZE]
            del state.deck[:HAND_SIZE]
            state.hands[seat] = hand
            state.cards.disclose(hand, seat)
        invention.next_turn(state)

    # -- encodings -----------------------------------------------------------------------------

    def encode_action(self, action: Any) -> Any:
        return encode_action(action)

    def decode_action(self, data: Any) -> Any:
        return decode_action(data)

    def encode_state(self, state: AstonishingState) -> Any:
        return encode_state(state)

    def decode_state(self, data: Any) -> AstonishingState:
        return decode_state(data)
