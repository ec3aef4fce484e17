"""Astonishing! cheaters: real sessions behind real nodes that cheat at Astonishing! in one way.

Each is an honest :class:`Session` (see :mod:`cheaters`) playing with the Astonishing! bot until
the first moment its cheat makes sense; then, instead of the move its bot chose, it sends a validly
signed submission with the cheat (with the right counter), once. Until then it may steer its own
play — always a legal move, one its bot could have made — toward the moment its cheat needs (the
Hearts Inventor, a Queen or a King this turn, two cards in one position, a Joker kept for a King).
What a cheater sees of the cards is what the deal disclosed to it (its *knowledge*): nothing here
peeks at other peers' secrets.

A joiner sends the cheat to the host like any submission. A host can't send its cheat through its
own session (which checks its own moves before sequencing them), so a cheating host signs the
submission, wraps it in an entry of its own and broadcasts that, as a host running its own code
would: the joiners check every entry's submission before applying it. The one exception is the
Joker installed face down: nobody can see it, so the rules accept the build as it is made, from a
host as from a joiner; it goes through the ordinary path and is caught when the card is revealed.

The cheats (the acceptance list of issue 10):

=============================  ===============================================================
:class:`OtherActionCard`       commits to one action card and opens another (legal) one
:class:`RepeatedActionCard`    plays its King again the turn after it played it
:class:`AnswerNotHeld`         answers a trade face down with a card it doesn't hold (the top
                               card of the deck)
:class:`InstallsJoker`         a King's build with a Joker it holds, face down, beside a card
:class:`BuildsIntoFullPosition`  adds a card to a position holding two, scrapping nothing
:class:`HeartsKeepsThird`      the Hearts Queen gives back a card of its own instead of one of
                               the three just taken
:class:`VotesForItself`        votes for its own contraption at the exhibition
:class:`SwaysByThree`          the Hearts exhibition Queen turns a die by 3
=============================  ===============================================================
"""

from __future__ import annotations

from typing import Any

from cheaters import GameCheater

from p2pgames.games.astonishing.actions import (
    Answer,
    Build,
    ChooseAction,
    ChooseInventor,
    EndInvention,
    ExhibitCard,
    GiveBack,
    SwayCrowd,
    Vote,
)
from p2pgames.games.astonishing.cards import POSITION_CAPACITY, POSITIONS, is_joker
from p2pgames.games.astonishing.rules import HEARTS, AstonishingState, Phase
from p2pgames.session._replica import CHOICE_DOMAIN, CommitPhase


class AstonishingCheater(GameCheater):
    """An Astonishing! player who replaces one of its submissions by a cheat, once.

    Hooks besides :class:`cheaters.GameCheater`'s (:meth:`instead`, :meth:`steer`,
    :meth:`hold_back`; each returns ``None`` for "nothing special now"):

    * :meth:`commit_instead` — the (illegal, or hidden-illegal) choice to commit to instead of a
      simultaneous choice; its opening, when due, is the cheat;
    * :meth:`open_instead` — another value to open a commitment with (a bad opening).

    ``inventor``, if set, is the Inventor (suit) it chooses when that one is still free.
    """

    inventor: int | None = None
    # The cheat is a choice the rules accept when it is opened (nobody can see what it hides):
    # the opening goes the ordinary way, and the cheat is caught when the cards are revealed.
    opens_honestly = False

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cheat_phase: int | None = None  # the commit phase whose opening is the cheat
        self.committed: Any = None  # what it committed to, when it opened something else

    @property
    def state(self) -> AstonishingState:
        return self.replica.state

    # -- hooks ---------------------------------------------------------------------------------

    def commit_instead(self, action: Any) -> Any:
        return None

    def open_instead(self, action: Any) -> Any:
        return None

    # -- the submissions -----------------------------------------------------------------------

    def _submit(self, body: dict, decision: bool = False) -> None:
        if self.cheated or self.stage != "playing":
            super()._submit(body, decision)
            return
        replica = self.replica
        phase = replica.phase
        kind = body.get("t")
        choice = isinstance(phase, CommitPhase) and phase.purpose == CHOICE_DOMAIN
        if kind == "commit" and choice and decision:
            chosen = self.game.decode_action(self.secrets.choices[phase.phase_id])
            replacement = self.commit_instead(chosen)
            if replacement is not None:
                self.cheat_action = replacement
                self.cheat_phase = phase.phase_id
                if self.opens_honestly:
                    self.cheated = True
                    self.cheat_seq = replica.seq
            else:
                replacement = self.steer(chosen)
                if replacement is not None:
                    assert replacement in self.legal(), replacement  # honest: a legal choice
            if replacement is not None:
                body = self.secrets.choose(replica, self.game.encode_action(replacement))
        elif kind == "open" and choice:
            if self.cheat_phase == phase.phase_id:
                # The opening is true to the commitment: what it opens is the cheat.
                assert self.game.decode_action(body["value"]) == self.cheat_action
                self.send_cheat(body, decision)
                return
            committed = self.game.decode_action(body["value"])
            other = self.open_instead(committed)
            if other is not None:
                self.committed = committed
                self.cheat_action = other
                self.send_cheat(dict(body, value=self.game.encode_action(other)), decision)
                return
        elif kind == "act":
            body = self.act_or_cheat(body, decision)
            if body is None:
                return
        super()._submit(body, decision)

    # -- honest steering helpers ---------------------------------------------------------------

    def choose_inventor(self, action: Any) -> Any:
        if type(action) is ChooseInventor and self.inventor is not None and action.suit != self.inventor:
            if ChooseInventor(self.inventor) in self.legal():
                return ChooseInventor(self.inventor)
        return None

    def action_card(self, action: Any, *cards: str) -> Any:
        """The first of ``cards`` that may be chosen now, instead of the bot's action card
        (``None``: it is the bot's choice already, or none of them may be chosen)."""
        if type(action) is not ChooseAction:
            return None
        legal = self.legal()
        for card in cards:
            if ChooseAction(card) in legal:
                return None if card == action.card else ChooseAction(card)
        return None

    def cards(self, *, jokers: bool) -> list[int]:
        """Our hand's slots that are (``jokers``) or aren't Jokers, as far as we know them."""
        return sorted(
            slot for slot in self.state.hands[self.seat]
            if (name := self.name_of(slot)) is not None and is_joker(name) == jokers
        )


# -- 1. the action cards -------------------------------------------------------------------------


class OtherActionCard(AstonishingCheater):
    """Commits to its bot's action card on the first turn, then opens another one (every card is
    legal on the first turn: the opening is refused only for not being the one committed)."""

    def open_instead(self, action: Any) -> Any:
        if type(action) is not ChooseAction:
            return None
        return next(ChooseAction(card) for card in ("jack", "queen", "king") if card != action.card)


class RepeatedActionCard(AstonishingCheater):
    """Plays its King on the first turn, then commits to its King again on the second turn."""

    def steer(self, action: Any) -> Any:
        if self.state.turn == 1:
            return self.action_card(action, "king")
        return None

    def commit_instead(self, action: Any) -> Any:
        state = self.state
        if type(action) is not ChooseAction or state.final or state.last_action[self.seat] != "king":
            return None
        return ChooseAction("king")


# -- 2. trades -----------------------------------------------------------------------------------


class AnswerNotHeld(AstonishingCheater):
    """Answers another player's trade offer with a face-down card it doesn't hold: the top card of
    the deck. It answers last (waiting while others still owe an answer), so that nothing else can
    enter the log between its answer and the host's check: a race would be forgiven as stale."""

    def _answering(self) -> bool:
        state = self.state
        return state.phase == Phase.RESPOND and self.seat in state.owing and state.trader != self.seat

    def hold_back(self, action: Any) -> bool:
        return self._answering() and self.state.owing != [self.seat] and bool(self.state.deck)

    def instead(self, action: Any) -> Any:
        state = self.state
        if not self._answering() or state.owing != [self.seat] or not state.deck:
            return None
        self.slot = state.deck[0]
        assert all(self.slot not in hand for hand in state.hands)
        return Answer((self.slot,), (False,))


# -- 3. building ---------------------------------------------------------------------------------


class InstallsJoker(AstonishingCheater):
    """Installs a Joker it holds (one nobody else has seen), face down, beside a card of its own.

    It plays Queens (for more cards) until it holds a Joker, then a King (and votes to keep
    inventing meanwhile: an honest vote, for more turns); the build puts the Joker beside the one
    card of a position, or with an ordinary card into an empty position (or, with every position
    full, in place of a card it scraps), so that it can still describe the position honestly at
    the exhibition. It never scraps that position afterwards: the Joker stays hidden until the
    installed cards are revealed at the exhibition.
    """

    opens_honestly = True
    joker: int | None = None  # the Joker it installed

    def hidden_jokers(self) -> list[int]:
        revealed = self.state.cards.revealed
        return [slot for slot in self.cards(jokers=True) if slot not in revealed]

    def steer(self, action: Any) -> Any:
        if type(action) is EndInvention and action.agree:
            return EndInvention(False)  # more turns, more cards: keep inventing until it has one
        if self.build_with_joker() is not None:
            return self.action_card(action, "king", "queen")
        return self.action_card(action, "queen", "king")

    def build_with_joker(self) -> Build | None:
        jokers, cards = self.hidden_jokers(), self.cards(jokers=False)
        if not jokers:
            return None
        installed = self.state.installed[self.seat]
        for position in range(POSITIONS):
            if len(installed[position]) == 1:
                return Build(position, (jokers[0],), ())
        for position in range(POSITIONS):
            if not installed[position] and cards:
                return Build(position, tuple(sorted((jokers[0], cards[0]))), ())
        for position in range(POSITIONS):
            if len(installed[position]) == POSITION_CAPACITY:
                return Build(position, (jokers[0],), (min(installed[position]),))
        return None

    def _submit(self, body: dict, decision: bool = False) -> None:
        # Once it is installed, it never scraps the Joker's position (the scrapped cards would be
        # revealed, and the Joker caught then): a later King builds elsewhere, honestly.
        if self.cheated and self.stage == "playing" and body.get("t") == "commit" and decision:
            chosen = self.game.decode_action(self.secrets.choices[self.replica.phase.phase_id])
            if type(chosen) is Build and self.joker in chosen.scrap:
                keeping = [build for build in self.legal() if type(build) is Build and self.joker not in build.scrap]
                if keeping:
                    body = self.secrets.choose(self.replica, self.game.encode_action(keeping[0]))
        super()._submit(body, decision)

    def commit_instead(self, action: Any) -> Any:
        if self.state.phase != Phase.BUILD:
            return None
        build = self.build_with_joker()
        if build is None:
            return None
        self.joker = next(slot for slot in build.slots if slot in self.hidden_jokers())
        return build


class BuildsIntoFullPosition(AstonishingCheater):
    """Builds two cards into one empty position with its first King, plays its Queen the next
    turn, and with its next King adds a card to that full position without scrapping."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.filled: int | None = None  # the position its first King filled

    def steer(self, action: Any) -> Any:
        state = self.state
        if type(action) is ChooseAction:
            if self.filled is not None and state.last_action[self.seat] == "king":
                return self.action_card(action, "queen", "jack")
            return self.action_card(action, "king")
        if type(action) is Build and self.filled is None:
            installed = state.installed[self.seat]
            cards = self.cards(jokers=False)
            for position in range(POSITIONS):
                if not installed[position] and len(cards) >= 2:
                    self.filled = position
                    return Build(position, tuple(cards[:2]), ())
        return None

    def commit_instead(self, action: Any) -> Any:
        state = self.state
        if state.phase != Phase.BUILD or self.filled is None:
            return None
        installed = state.installed[self.seat][self.filled]
        if len(installed) != POSITION_CAPACITY:
            return None
        hand = self.cards(jokers=False) or sorted(state.hands[self.seat])
        self.before = list(installed)
        return Build(self.filled, (hand[0],), ())


# -- 4. the Hearts Queen -------------------------------------------------------------------------


class HeartsKeepsThird(AstonishingCheater):
    """The Hearts Inventor plays her Queen, takes a card from a rival and two from the deck, and
    gives back a card she held before instead of one of the three."""

    inventor = HEARTS

    def steer(self, action: Any) -> Any:
        return self.choose_inventor(action) or self.action_card(action, "queen")

    def instead(self, action: Any) -> Any:
        state = self.state
        if state.phase != Phase.GIVE_BACK or state.taker != self.seat:
            return None
        older = sorted(slot for slot in state.hands[self.seat] if slot not in state.taken)
        if not older:
            return None
        self.taken = list(state.taken)
        self.rival = state.source
        return GiveBack(older[0])


# -- 5. the exhibition ---------------------------------------------------------------------------


class VotesForItself(AstonishingCheater):
    """At the exhibition, commits to a vote for its own contraption."""

    def commit_instead(self, action: Any) -> Any:
        if type(action) is not Vote:
            return None
        return Vote(self.seat)


class SwaysByThree(AstonishingCheater):
    """The Hearts Inventor chooses (face down) her Queen at the exhibition and turns a die by 3."""

    inventor = HEARTS

    def steer(self, action: Any) -> Any:
        if type(action) is ExhibitCard and action.card != "queen":
            return ExhibitCard("queen")
        return self.choose_inventor(action)

    def instead(self, action: Any) -> Any:
        state = self.state
        if type(action) is not SwayCrowd or state.phase != Phase.EXHIBIT_QUEEN:
            return None
        shown = state.dice[0]
        self.shown = shown
        return SwayCrowd(0, shown + 3 if shown <= 3 else shown - 3)
