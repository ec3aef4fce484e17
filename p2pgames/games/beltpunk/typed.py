"""Typed Beltpunk moves read back into actions: the inverse of :func:`views.describe_action`.

Words are separated by spaces and compared without case; cards are typed by name (``S7``), seats
by their players' names, and a set's cards in any order:

==========================================  ======================================================
typed                                       action
==========================================  ======================================================
``discard S7``                              :class:`Discard`
``draw``                                    :class:`Draw`
``look machine``, ``look bob``              :class:`Look` (``look at …`` too)
``draw G4``, ``draw bob#2``                 :class:`Pick`, from the pile looked at
``take G4 from machine``, ``take bob#2``    :class:`Take` (``take G4``: from wherever it lies)
``place S7``                                :class:`Place`
``exchange S7 with bob``                    :class:`Exchange`
``give E3``                                 :class:`Give`
``skip``                                    :class:`Skip`
``declare yes``, ``declare no``             :class:`Declare` (``yes`` and ``no`` alone too)
``score S4 S5 S6``                          :class:`Score`
==========================================  ======================================================

A card can also be typed the two ways :func:`views.describe_action` names a card its player can't
see: ``#12`` (its slot) and ``bob#2`` (the second card from the bottom of bob's scrap pile).

Players are typed by name, piles by their owners' names (:func:`views.pile_word`). ``machine`` and
``the machine`` always mean The Machine: the pile of a player so called is typed ``machine's``
(``the machine's``). ``look at X`` is ``look X`` unless a player is called "at X". Where a name
could mean two players — names the same ignoring case and spacing, or a player called machine's
beside one called machine — the move is refused (:class:`MalformedAction`) saying so.

Text that is no move of the game raises :class:`MalformedAction`. A move the rules refuse raises
:class:`IllegalAction` with the reason, saying where a misplaced card is ("S6 is in The Machine,
not in your hand") and why cards are not a set; the reasons :meth:`Beltpunk.check_action` gives
are reused for the rest, and every action returned has passed it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Sequence

from p2pgames.engine import IllegalAction, Knowledge, MalformedAction, normalize_typed

from p2pgames.games.beltpunk.actions import (
    Declare,
    Discard,
    Draw,
    Exchange,
    Give,
    Look,
    Pick,
    Place,
    SUIT_ACTIONS,
    Score,
    Skip,
    Take,
)
from p2pgames.games.beltpunk import views
from p2pgames.games.beltpunk.cards import DECK, RANK_OF, SUIT_OF, why_not_a_set
from p2pgames.words import joined

if TYPE_CHECKING:
    from p2pgames.games.beltpunk.rules import Beltpunk, BeltpunkState

__all__ = ["parse_action"]

# Typed card names (case folded) -> card names.
_CARDS = {name.casefold(): name for name in DECK}
_EVERY_CARD = "cards are S1–S13, G1–G13, P1–P13 and E1–E13"


def parse_action(
    game: "Beltpunk",
    state: "BeltpunkState",
    player: int,
    text: str,
    knowledge: Knowledge,
    names: Sequence[str],
) -> Any:
    """The action ``text`` names for ``player`` now (see the module docstring).

    Raises :class:`MalformedAction` when ``text`` is no Beltpunk move, and :class:`IllegalAction`
    with a reason a person can read when the rules refuse the move it names.
    """
    words = normalize_typed(text).split()
    if not words:
        raise MalformedAction("nothing was typed")
    read = _VERBS.get(words[0])
    if read is None:
        if words[0] in ("yes", "no") and len(words) == 1:
            return _Reader(game, state, player, knowledge, names).declare(words)
        raise MalformedAction(f"{words[0]!r} is not a Beltpunk move (help lists them)")
    return read(_Reader(game, state, player, knowledge, names), words[1:])


class _Reader:
    """One typed move being read: the table as ``player`` sees it."""

    __slots__ = ("game", "state", "player", "knowledge", "names")

    def __init__(
        self,
        game: "Beltpunk",
        state: "BeltpunkState",
        player: int,
        knowledge: Knowledge,
        names: Sequence[str],
    ) -> None:
        self.game = game
        self.state = state
        self.player = player
        self.knowledge = knowledge
        self.names = names

    # -- the verbs ------------------------------------------------------------------------------

    def discard(self, rest: list[str]) -> Any:
        ref = self._reference(rest, "discard S7")
        self._may(Discard)
        return self._checked(Discard(self._in_hand(ref)))

    def place(self, rest: list[str]) -> Any:
        ref = self._reference(rest, "place S7")
        self._may(Place)
        return self._checked(Place(self._in_hand(ref)))

    def give(self, rest: list[str]) -> Any:
        ref = self._reference(rest, "give E3")
        self._may(Give)
        return self._checked(Give(self._in_hand(ref)))

    def draw(self, rest: list[str]) -> Any:
        if not rest:
            self._may(Draw)
            return self._checked(Draw())
        # "draw G4": the card chosen from the pile just looked at.
        ref = self._reference(rest, "draw G4")
        self._deck_or_pile()
        self._may(Pick)
        pile = self.state.pile
        expected = f"in {self._pile_title(pile)}, the pile you looked at"
        slots = self.state.pile_slots(pile)
        return self._checked(Pick(self._find(ref, slots, expected, verb="draw")))

    def look(self, rest: list[str]) -> Any:
        if not rest:
            raise MalformedAction("say which pile: look machine, or look and a player's name")
        pile = self._pile(rest)
        self._may(Look)
        if not self.state.pile_slots(pile):
            raise IllegalAction(self.player, f"{self._pile_title(pile)} is empty")
        return self._checked(Look(pile))

    def take(self, rest: list[str]) -> Any:
        if not rest:
            raise MalformedAction("say which card: take G4 from machine, or take bob#2")
        ref, pile = self._split(rest, "from", self._reference, self._pile)
        self._may(Take)
        state = self.state
        if pile is not _ANYWHERE:
            expected = self._pile_title(pile)
            return self._checked(Take(self._find(ref, state.pile_slots(pile), f"in {expected}")))
        piles = (None, *range(state.players))
        everywhere = [slot for pile in piles for slot in state.pile_slots(pile)]
        return self._checked(Take(self._find(ref, everywhere, _TAKEABLE, taking=True)))

    def exchange(self, rest: list[str]) -> Any:
        ref, seat = self._split(rest, "with", self._reference, self._seat)
        if seat is _ANYWHERE:
            raise MalformedAction("say who with: exchange S7 with bob")
        self._may(Exchange)
        slot = self._in_hand(ref)
        if seat != self.player and not self.state.hands[seat]:
            raise IllegalAction(self.player, f"{self.names[seat]} has no cards to exchange")
        return self._checked(Exchange(slot, seat))

    def skip(self, rest: list[str]) -> Any:
        if rest:
            raise MalformedAction("skip takes no card: type skip")
        self._may(Skip)
        return self._checked(Skip())

    def declare(self, words: list[str]) -> Any:
        if len(words) != 1 or words[0] not in ("yes", "no"):
            raise MalformedAction("declare yes or declare no")
        self._may(Declare)
        action = Declare(words[0] == "yes")
        if action.score and action not in self._legal():
            # Saying yes without a set would be caught as a violation when the cards show.
            hand = [self._value(slot) for slot in self.state.hands[self.player]]
            if None in hand:
                reason = "you haven't seen every card in your hand, so you can only declare no"
            else:
                reason = "you hold no set, so you can only declare no"
            raise IllegalAction(self.player, reason)
        return self._checked(action)

    def score(self, rest: list[str]) -> Any:
        if not rest:
            raise MalformedAction("say which cards: score S4 S5 S6")
        refs = [self._reference([word], "score S4 S5 S6") for word in rest]
        self._may(Score)
        player = self.player
        slots = [self._in_hand(ref) for ref in refs]
        for word, slot in zip(rest, slots):
            if slots.count(slot) > 1:
                raise IllegalAction(player, f"{_shown(word)} is named twice")
        if len(slots) < 2:
            raise IllegalAction(player, "a set has at least two cards")
        try:
            action = Score(tuple(sorted(slots)))
        except MalformedAction as error:
            raise IllegalAction(player, str(error)) from None
        values = [value for value in map(self._value, slots) if value is not None]
        if len(values) == len(slots):
            reason = why_not_a_set(values)
            # After declaring a set one doesn't hold, any two cards are legal (the false
            # declaration shows when they are revealed): the legal actions say so.
            if reason is not None and action not in self._legal():
                laid = sorted(values, key=lambda name: (RANK_OF[name], SUIT_OF[name]))
                raise IllegalAction(player, f"{' '.join(laid)} is not a set: {reason}")
        return self._checked(action)

    # -- checks ---------------------------------------------------------------------------------

    def _deck_or_pile(self) -> None:
        """Refuse "draw G4" where the card being resolved draws from the deck: the rules' reason
        (Pick is not among its actions) would read as if drawing were not allowed."""
        state, player = self.state, self.player
        if state.phase != "action" or state.actor != player or state.cards.pending:
            return
        allowed = SUIT_ACTIONS[state.discarded_suit()]
        if Draw not in allowed:
            return
        if not state.deck:
            if Look not in allowed:
                raise IllegalAction(player, "draw takes no card, and the deck is empty")
        elif Look in allowed:
            raise IllegalAction(
                player,
                "look at a scrap pile first, then draw one of its cards (draw alone takes the "
                "top card of the deck)",
            )
        else:
            raise IllegalAction(
                player, "draw takes no card: type draw for the top card of the deck"
            )

    def _may(self, kind: type) -> None:
        """Refuse a move of the wrong kind before looking for its cards."""
        if self.state.declarer == self.player and kind is not Declare:
            raise IllegalAction(
                self.player, "first declare whether you score a set: declare yes or declare no"
            )
        self.game.check_kind(self.state, self.player, kind)

    def _checked(self, action: Any) -> Any:
        self.game.check_action(self.state, self.player, action)
        return action

    def _legal(self) -> list[Any]:
        return self.game.legal_actions(self.state, self.player, self.knowledge)

    # -- cards ----------------------------------------------------------------------------------

    def _value(self, slot: int) -> str | None:
        return self.state.value(slot, self.knowledge)

    def _reference(self, words: list[str], example: str) -> "_Ref":
        """What a card typed as ``words`` refers to: a card name, ``#slot`` or ``name#place``."""
        if not words:
            raise MalformedAction(f"say which card: {example}")
        typed = " ".join(words)
        name = _CARDS.get(typed)
        if name is not None:
            return name
        owner, hash_sign, number = typed.rpartition("#")
        if hash_sign and number.isdigit() and number.isascii():
            if not owner:
                return int(number)
            seat = self._seat_named(owner)
            if seat is not None and int(number) >= 1:
                return (seat, int(number))
        if len(words) > 1:
            raise MalformedAction(f"{example.split()[0]} takes one card, as in {example}")
        raise MalformedAction(f"{typed!r} is not a card: {_EVERY_CARD}")

    def _in_hand(self, ref: "_Ref") -> int:
        return self._find(ref, self.state.hands[self.player], "in your hand")

    def _find(
        self,
        ref: "_Ref",
        slots: Sequence[int],
        expected: str,
        *,
        taking: bool = False,
        verb: str = "take",
    ) -> int:
        """The slot among ``slots`` that ``ref`` names; otherwise IllegalAction saying where the
        card is instead (``expected``: where it should be, "in your hand"; ``taking``: any card
        in The Machine or a scrap pile would do; ``verb``: how a face-down card among ``slots``
        is typed by its place, "take bob#2")."""
        player = self.player
        if type(ref) is str:
            value = self._value
            for slot in slots:
                if value(slot) == ref:
                    return slot
            where = self._where(ref)
            if where is None:
                unseen = [slot for slot in slots if value(slot) is None]
                if unseen:
                    # It may be one of them: say how to name a card one can't see.
                    hint = self._by_place(unseen, verb)
                    raise IllegalAction(player, f"you haven't seen {ref} {expected} ({hint})")
                raise IllegalAction(player, f"{ref} is not {expected}")
            if taking:
                raise IllegalAction(
                    player,
                    f"{ref} is {where}: you can only take a card from The Machine or a scrap pile",
                )
            raise IllegalAction(player, f"{ref} is {where}, not {expected}")
        if type(ref) is int:
            if ref in slots:
                return ref
            raise IllegalAction(player, f"card #{ref} is not {expected}")
        seat, place = ref
        pile = self.state.scrap[seat]
        typed = f"{self.names[seat]}#{place}"
        if place > len(pile):
            title = self._pile_title(seat)
            size = f"has {len(pile)} card" + ("" if len(pile) == 1 else "s") if pile else "is empty"
            raise IllegalAction(player, f"{title} {size}: there is no {typed}")
        slot = pile[place - 1]
        if slot not in slots:
            raise IllegalAction(
                player, f"{typed} is in {self._pile_title(seat)}, not {expected}"
            )
        return slot

    def _by_place(self, unseen: Sequence[int], verb: str) -> str:
        """How to type a face-down card, shown with the topmost of ``unseen`` (face-down slots)."""
        state = self.state
        seat = next(seat for seat, pile in enumerate(state.scrap) if unseen[-1] in pile)
        place = state.scrap[seat].index(unseen[-1]) + 1
        owner = "your" if seat == self.player else f"{self.names[seat]}'s"
        return (
            f"{verb} a face-down card by its place: {self.names[seat]}#{place} is the "
            f"{_ordinal(place)} from the bottom of {owner} pile"
        )

    def _where(self, name: str) -> str | None:
        """Where ``player`` can see card ``name`` ("in The Machine"), or ``None``."""
        state, value = self.state, self._value
        you = self.player
        for slot in state.hands[you]:
            if value(slot) == name:
                return "in your hand"
        for conveyor in state.conveyors:
            for slot in conveyor:
                if value(slot) == name:
                    return "in The Machine"
        for seat, pile in enumerate(state.scrap):
            for slot in pile:
                if value(slot) == name:
                    return f"in {self._pile_title(seat)}"
        for seat, sets in enumerate(state.sets):
            for slots in sets:
                if any(value(slot) == name for slot in slots):
                    who = "you" if seat == you else self.names[seat]
                    return f"in a set {who} scored"
        for seat, hand in enumerate(state.hands):
            if seat != you and any(value(slot) == name for slot in hand):
                return f"in {self.names[seat]}'s hand"
        if any(value(slot) == name for _, slot in state.order[state.resolving :]):
            return "discarded this turn, waiting to go into The Machine"
        return None

    # -- piles and players ----------------------------------------------------------------------

    def _seat_named(self, typed: str) -> int | None:
        """The seat of the player called ``typed`` (normalized), or ``None``."""
        return self._one(typed, _typed_names(tuple(self.names))[0].get(typed, ()))

    def _seat(self, words: list[str]) -> int:
        typed = " ".join(words)
        seat = self._seat_named(typed)
        if seat is None:
            raise MalformedAction(f"nobody called {typed!r} plays at this table")
        return seat

    def _pile(self, words: list[str]) -> int | None:
        """The pile typed as ``words``: ``None`` for The Machine, else the owner's seat."""
        typed = " ".join(words)
        if typed in views.MACHINE_WORDS:
            return None
        seat = self._one(typed, _typed_names(tuple(self.names))[1].get(typed, ()))
        if seat is not None:
            return seat
        if words[0] == "at" and len(words) > 1:
            return self._pile(words[1:])
        raise MalformedAction(f"{typed!r} is not a pile: machine, or a player's name")

    def _one(self, typed: str, seats: tuple[int, ...]) -> int | None:
        """The one seat of ``seats`` (those ``typed`` names), ``None`` for none; refuses more."""
        if len(seats) <= 1:
            return seats[0] if seats else None
        names = [self.names[seat] for seat in seats]
        who = joined(names, conjunction="or")
        machine = [key for key in map(normalize_typed, names) if key in views.MACHINE_WORDS]
        if len({normalize_typed(name) for name in names}) == 1 or not machine:
            raise MalformedAction(
                f"{typed!r} could be {who}: their names differ only in case or spacing"
            )
        raise MalformedAction(
            f"{typed!r} could be the pile of {who}: the pile of a player called {machine[0]} is "
            f"typed {machine[0]}'s"
        )

    def _pile_title(self, pile: int | None) -> str:
        return views.pile_title(pile, self.names, self.player)

    def _split(
        self,
        words: list[str],
        joint: str,
        first: Callable[..., Any],
        second: Callable[[list[str]], Any],
    ) -> tuple[Any, Any]:
        """``words`` read as ``first JOINT second``, or as ``first`` alone (second: _ANYWHERE).

        A name may hold the joint word ("bob from accounts"), so every place it occurs is tried.
        """
        example = f"{'take' if joint == 'from' else 'exchange'} S7 {joint} bob"
        problem: Exception | None = None
        for at in range(len(words)):
            if words[at] == joint and 0 < at < len(words) - 1:
                try:
                    return first(words[:at], example), second(words[at + 1 :])
                except MalformedAction as error:
                    problem = problem or error
        try:
            return first(words, example), _ANYWHERE
        except MalformedAction:
            if problem is not None:
                raise problem from None
            raise


# A pile or partner not typed ("take G4"); and where a card to take may lie.
_ANYWHERE: Any = object()
_TAKEABLE = "in The Machine or a scrap pile"

_Ref = Any  # a card name (str), a slot (int) or a place in a scrap pile: (seat, 1-based place)


@lru_cache(maxsize=64)
def _typed_names(
    names: tuple[str, ...]
) -> tuple[dict[str, tuple[int, ...]], dict[str, tuple[int, ...]]]:
    """How the players of a table are typed: (name → seats, pile → owners), normalized; more
    than one seat for a key is a name that can't be told apart. Asked for every typed move that
    names a player; a table's names don't change. Callers must not change the dicts."""
    seats: dict[str, tuple[int, ...]] = {}
    piles: dict[str, tuple[int, ...]] = {}
    for seat, name in enumerate(names):
        key = normalize_typed(name)
        seats[key] = seats.get(key, ()) + (seat,)
        key = normalize_typed(views.pile_word(seat, names))
        piles[key] = piles.get(key, ()) + (seat,)
    return seats, piles


def _ordinal(number: int) -> str:
    """``2`` → ``second``; ``12`` → ``12th``, ``21`` → ``21st``."""
    if number <= len(_ORDINALS):
        return _ORDINALS[number - 1]
    if number % 10 in (1, 2, 3) and number % 100 not in (11, 12, 13):
        return f"{number}{('st', 'nd', 'rd')[number % 10 - 1]}"
    return f"{number}th"


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")


def _shown(word: str) -> str:
    return _CARDS.get(word, word)


_VERBS: dict[str, Callable[[_Reader, list[str]], Any]] = {
    "discard": _Reader.discard,
    "draw": _Reader.draw,
    "look": _Reader.look,
    "take": _Reader.take,
    "place": _Reader.place,
    "exchange": _Reader.exchange,
    "give": _Reader.give,
    "skip": _Reader.skip,
    "declare": _Reader.declare,
    "score": _Reader.score,
}
