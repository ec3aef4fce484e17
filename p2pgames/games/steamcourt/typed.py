"""Typed Steam Court moves read back into actions: the inverse of the games' ``describe_action``.

Words are separated by spaces and compared without case; cards are typed by face (``7``, ``3/9``,
``6/12``, ``X``, ``MS``), seats by their players' names. A face names the lowest slot of that face
in the zone the move takes it from — the slot the legal moves use (equal cards are
interchangeable) — so a typed move is the very action its description came from. The court at one
table (and Duo, and Party, whose players each see their own table):

==========================================  ======================================================
typed                                       action
==========================================  ======================================================
``lay 7 7``, ``lay 5 5 +X3``, ``lay X``     :class:`Lay` (``+X3``: with a Multiplier, counting 3)
``lay 3/9 as 9``, ``lay 9 7 as 7``          … the value the cards count as (3/9, 6/12, Alchemist)
``lay 7 as pair``, ``lay 3/9 as pair of 9`` … the Jester's single card as a pair
``lay MS``                                  :class:`Masterstroke` (2015: ``lay putsch`` too)
``pass``                                    :class:`Pass`
``give 2 to carol``                         :class:`Give` (Queen, General)
``give 11 12 to alice``, ``give nothing …`` :class:`Serve` (Tea Boy, Vagabond)
``trade`` / ``keep``, ``hoard`` / ``leave`` :class:`Trade`, :class:`Hoard`
``inspect bob``, ``stop bob``, ``coup``     :class:`Inspect`, :class:`Stop`, :class:`Coup`
``retrieve``                                :class:`Retrieve`
``steal 7``, ``discard 2 5``                :class:`Steal`, :class:`DiscardTwo`
``unpass``, ``unpass token|jester``         :class:`Unpass`
``dive court 7``, ``plague``                :class:`Dive`, :class:`Plague`
``put back 7``, ``keep``                    :class:`PutBack`, :class:`KeepRest`
==========================================  ======================================================

and Solo (tricks numbered 1–3 from the left): ``lay 7 7 on 2``, ``lay 5 +X3 on 1``, ``lay 7 as set
on 3``, ``lay X on 1``, ``lay MS on 1``, ``stop 2``, ``retrieve 7``, ``give up 11 12``,
``discard 3 3``, ``pass``. A lay's value may be left out when its cards count as one value only
(``lay 3/9 9`` is ``lay 3/9 9 as 9``). A rulebook that renames the Masterstroke (the 2015 draft's
Putsch: :attr:`~.rulebook.Rulebook.masterstroke`) has it typed by either face, wherever a card is typed.

Text that is no move of the game raises :class:`MalformedAction`. A move the rules refuse now
raises :class:`IllegalAction` with the game's reason ("you must play 3 cards to follow this
trick", "you hold no 8"): whose move it is and which moves the moment takes first
(:meth:`SteamCourt.check_kind`, :meth:`Solo.check_kind`), then the cards (held, and making what is
declared: :func:`~.cards.lay_problem`, judged on the cards the player can see), then the game's
``check_action``, which every action returned has passed. The court and Solo read a lay alike
(:func:`_lay_parts`). Reading a move costs a few dictionary look-ups over the player's hand: the
engine's conformance test reads back every legal action of random games, hundreds a step.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Sequence

from p2pgames.engine import NO_KNOWLEDGE, IllegalAction, Knowledge, MalformedAction, normalize_typed

from p2pgames.games.steamcourt.actions import (
    Bestow,
    Coup,
    DiscardTwo,
    Dive,
    Give,
    Hoard,
    Inspect,
    KeepRest,
    Lay,
    Masterstroke,
    Pass,
    Plague,
    PutBack,
    Retrieve,
    Serve,
    Steal,
    Stop,
    Trade,
    TradeKeeping,
    Unpass,
    PILES,
    UNPASS_SOURCES,
)
from p2pgames.games.steamcourt.cards import (
    DECK,
    FACE,
    FACE_ORDER,
    KIND,
    NUMBERED,
    TABLE_NAMES,
    lay_problem,
    two_highest_numbered,
    values_of,
)
from p2pgames.games.steamcourt.phases import Phase
from p2pgames.games.steamcourt.published import PUBLISHED
from p2pgames.games.steamcourt.rulebook import CardWords
from p2pgames.games.steamcourt.solo import (
    Beat,
    DiscardLowest,
    GiveUp,
    Recall,
    Solo,
    SoloState,
    StopTrick,
    Strike,
)

if TYPE_CHECKING:
    from p2pgames.games.steamcourt.rulebook import Rulebook
    from p2pgames.games.steamcourt.rules import SteamCourt
    from p2pgames.games.steamcourt.state import SteamCourtState

__all__ = ["parse_court", "parse_solo"]

# Typed faces (case folded) -> faces.
_FACES = {face.casefold(): face for face in FACE_ORDER}
_EVERY_FACE = "cards are typed 1–12, 3/9, 6/12, X (a Multiplier) and MS (a Masterstroke)"
# The faces of numbered cards (1–12), the only cards some powers take.
_NUMBERED_FACES = frozenset(FACE[name] for name in DECK if KIND[name] == NUMBERED)
# A face's cards in a sentence: "two 5s", "one 3/9".
_NUMBERS = ("no", "one", "two", "three", "four", "five", "six")

# The actions without fields, built once.
_PASS, _RETRIEVE, _PLAGUE, _KEEP_REST = Pass(), Retrieve(), Plague(), KeepRest()

_Card = Any  # a face (str) or a slot typed as ``#12`` (int)


def _typed_faces(book: "Rulebook") -> dict[str, str]:
    """Typed faces -> faces for ``book``: ``_FACES``, and the Masterstroke's face in ``book`` if
    it renames the card (the 2015 draft's Putsch: ``putsch`` is ``MS``)."""
    return _faces_naming_the_masterstroke(book.masterstroke.face)


@lru_cache(maxsize=None)
def _faces_naming_the_masterstroke(face: str) -> dict[str, str]:
    # Built once per name: a _Court is made for every typed move (hundreds a step in conformance).
    return _FACES if face == "MS" else {**_FACES, face.casefold(): "MS"}


def _every_face(faces: dict[str, str]) -> str:
    """How cards are typed (:data:`_EVERY_FACE`), naming a renamed Masterstroke's face first."""
    renamed = [typed for typed, face in faces.items() if face == "MS" and typed != "ms"]
    if not renamed:
        return _EVERY_FACE
    return f"cards are typed 1–12, 3/9, 6/12, X (a Multiplier) and {renamed[0].title()} (or MS)"


def _cards(words: Sequence[str], example: str, faces: dict[str, str] = _FACES) -> list[_Card]:
    """Faces (or ``#slot``) typed as ``words`` (``faces``: typed faces -> faces); MalformedAction
    for anything else."""
    cards: list[_Card] = []
    for word in words:
        face = faces.get(word)
        if face is not None:
            cards.append(face)
        elif word.startswith("#") and word[1:].isdigit() and word[1:].isascii():
            cards.append(int(word[1:]))
        else:
            raise MalformedAction(f"{word!r} is not a card ({_every_face(faces)}): {example}")
    return cards


def _value(word: str) -> int:
    if not (word.isdigit() and word.isascii() and 1 <= int(word) <= 12):
        raise MalformedAction(f"{word!r} is not a value: cards count as 1–12")
    return int(word)


def _held(count: int, face: str) -> str:
    """How many cards of ``face`` are held, in words: "no 8", "one 5", "two 5s"."""
    word = _NUMBERS[count] if count < len(_NUMBERS) else str(count)
    return f"{word} {face}" + ("s" if count > 1 else "")


@dataclass(frozen=True, slots=True)
class _LayForm:
    """How a reader's lays are typed: the Jester's word for his single card as a group (``pair``
    at court, ``set`` in Solo), what follows the cards (`` on 1`` in Solo: an example), and what the
    Jester's card counts as, for the reason given when ``as pair`` is misused."""

    group: str
    on: str
    jester: str


_COURT_LAY = _LayForm("pair", "", "two")
_SOLO_LAY = _LayForm("set", " on 3", "the whole set")


class _Lay:
    """A lay as typed: its cards (faces and ``#slot`` references), the Multiplier's count (``None``:
    no Multiplier), the value (``None``: not said), and whether it is the Jester's single card as a
    group (``as pair`` at court, ``as set`` in Solo). MalformedAction for words that are no lay,
    and for a lay that names no card (``lay as 9``)."""

    __slots__ = ("cards", "times", "value", "grouped", "form")

    def __init__(self, words: Sequence[str], form: _LayForm, example: str, faces: dict[str, str] = _FACES) -> None:
        group = form.group
        self.form = form
        self.cards: list[_Card] = []
        self.times: int | None = None
        self.value: int | None = None
        self.grouped = False
        at = 0
        count = len(words)
        while at < count and words[at] != "as":
            word = words[at]
            if word.startswith("+x"):
                digits = word[2:]
                if self.times is not None:
                    raise MalformedAction(f"one Multiplier per lay, as in {example}")
                if not (digits.isdigit() and digits.isascii()):
                    raise MalformedAction(f"{word!r}: +X is followed by the number the cards count as, as in {example}")
                self.times = int(digits)
            else:
                self.cards.extend(_cards((word,), example, faces))
            at += 1
        rest = words[at:]
        if not self.cards and self.times is None:
            raise MalformedAction(f"say which cards: {example}")
        if not rest:
            return
        if len(rest) == 2 and rest[1] == group:
            self.grouped = True
        elif len(rest) == 4 and rest[1] == group and rest[2] == "of":
            self.grouped = True
            self.value = _value(rest[3])
        elif len(rest) == 2:
            self.value = _value(rest[1])
        else:
            raise MalformedAction(f"after 'as': a value (as 9) or 'as {group}', as in {example}")


class _Hand:
    """The cards a zone holds, by face, each face's slots lowest first (as the legal moves take
    them); ``known`` maps the slots whose card the player sees to their names."""

    __slots__ = ("by_face", "known", "slots")

    def __init__(self, slots: Sequence[int], revealed: Knowledge, knowledge: Knowledge = NO_KNOWLEDGE) -> None:
        self.slots = slots
        by_face: dict[str, list[int]] = {}
        known: dict[int, str] = {}
        # Built for every typed move, hundreds of times a step in the conformance test: inlined.
        for slot in sorted(slots):
            name = revealed.get(slot) or knowledge.get(slot)
            if name is not None:
                known[slot] = name
                face = FACE[name]
                if face in by_face:
                    by_face[face].append(slot)
                else:
                    by_face[face] = [slot]
        self.by_face = by_face
        self.known = known

    def take(self, player: int, cards: Sequence[_Card], place: str | None = None) -> list[int]:
        """The slots of ``cards``: each ``#slot`` the one named, each face the lowest of that face
        not named already. ``place`` says where the zone is ("in the machine"; ``None``: the
        player's hand) in the IllegalAction for a card that isn't there as many times as typed
        ("you hold no 8", "you hold only one 5", "there is no 8 in the machine"), a slot that isn't
        there or a slot named twice."""
        named: list[int] = []
        wanted: dict[str, int] = {}
        for card in cards:
            if type(card) is int:
                if card in named:
                    raise IllegalAction(player, f"card #{card} is named twice")
                if card not in self.slots:
                    raise IllegalAction(player, f"card #{card} is not {place or 'in your hand'}")
                named.append(card)
            else:
                wanted[card] = wanted.get(card, 0) + 1
        chosen = named[:]
        for face, count in wanted.items():
            held = self.by_face.get(face, _NONE)
            slots = [slot for slot in held if slot not in named] if named else held
            if len(slots) < count:
                raise IllegalAction(player, _too_few(face, len(held), place))  # fewer than named and typed
            chosen.extend(slots[:count])
        return chosen

    def one(self, player: int, card: _Card, place: str | None = None) -> int:
        return self.take(player, (card,), place)[0]


_NONE: list[int] = []


def _too_few(face: str, count: int, place: str | None) -> str:
    """"you hold no 8", "you hold only one 5"; with ``place``: "there is no 8 in the machine",
    "there are only two 5s among the cards you drew"."""
    have = f"only {_held(count, face)}" if count else _held(0, face)
    if place is None:
        return f"you hold {have}"
    return f"there {'are' if count > 1 else 'is'} {have} {place}"


def _value_of(player: int, lay: _Lay, names: Sequence[str], alchemist: bool) -> int:
    """The value ``lay`` counts as: said, or the only one its cards can all count as."""
    if lay.value is not None:
        return lay.value
    faces = {FACE[name] for name in names}
    if len(faces) == 1 and KIND[names[0]] == NUMBERED:
        return int(faces.pop())  # 7 7 are 7s, as printed (the Alchemist says "as 5" to lower them)
    common: set[int] | None = None
    for name in names:
        values = set(values_of(name, alchemist))
        common = values if common is None else common & values
    if common is not None and len(common) == 1:
        return common.pop()
    if common:
        faces = " ".join(sorted({FACE[name] for name in names}, key=FACE_ORDER.__getitem__))
        said = f"as {lay.form.group} of" if lay.grouped else "as"  # the advice keeps the Jester's group
        options = " or ".join(f"{said} {value}" for value in sorted(common))
        raise IllegalAction(player, f"say what {faces} counts as: {options}")
    if not names:
        raise IllegalAction(player, "say what the cards count as, as in lay #12 as 7")
    # Cards of no one value: the first card's value, which lay_problem then says the others miss.
    return values_of(names[0], alchemist)[0]


def _masterstroke(player: int, lay: _Lay, hand: _Hand, words: CardWords = PUBLISHED.masterstroke) -> int:
    """The slot of a typed Masterstroke (called ``words``), which is laid alone."""
    if len(lay.cards) > 1 or lay.times is not None or lay.value is not None or lay.grouped:
        raise IllegalAction(player, f"a {words.name} is laid alone: lay {words.face}{lay.form.on}")
    if not hand.by_face.get("MS"):
        raise IllegalAction(player, f"you hold no {words.face}")  # as _too_few says it, by the shown face
    return hand.one(player, "MS")


def _lay_parts(
    player: int, lay: _Lay, hand: _Hand, grouped_as: int, alchemist: bool
) -> tuple[tuple[int, ...], int, int, int | None]:
    """(slots, value, quantity, the Multiplier's slot or ``None``) of a typed lay that is no
    Masterstroke, at court or in Solo: a Multiplier alone is a single 1; the Jester's single card
    (``as pair``, ``as set``) counts as ``grouped_as``; the value is said or the one the cards
    make. IllegalAction with the reason for cards not held and lays that are no lay's shape."""
    faces = lay.cards
    on = lay.form.on
    if "X" in faces:
        if faces != ["X"] or lay.times is not None or lay.value is not None or lay.grouped:
            raise IllegalAction(
                player, f"a Multiplier is typed +X and the number it makes, as in lay 5 +X3{on} (alone: lay X{on})"
            )
        return (), 1, 1, hand.one(player, "X")
    if not faces:
        raise IllegalAction(player, f"a Multiplier laid alone is typed lay X{on}")
    slots = hand.take(player, faces)
    multiplier = None if lay.times is None else hand.one(player, "X")
    value = _value_of(player, lay, [hand.known[slot] for slot in slots if slot in hand.known], alchemist)
    if lay.grouped:
        if len(slots) != 1 or multiplier is not None:
            form = lay.form
            jester = f"'as {form.group}' is the Jester's single card played as {form.jester}"
            raise IllegalAction(player, f"{jester}: lay 7 as {form.group}{on}")
        quantity = grouped_as
    else:
        quantity = len(slots) if lay.times is None else lay.times
    return tuple(sorted(slots)), value, quantity, multiplier


def _built(player: int, kind: type, *fields: Any) -> Any:
    """``kind(*fields)``; the shape its constructor refuses is an IllegalAction with that reason."""
    try:
        return kind(*fields)
    except MalformedAction as error:
        raise IllegalAction(player, str(error)) from None


def _require_two_highest(player: int, hand: _Hand, chosen: Sequence[int], due: Sequence[int], reason: str) -> None:
    """IllegalAction ("``reason``: 11 12") unless the faces ``chosen`` are those of ``due``, the
    two highest numbered cards a Tea Boy (or Vagabond) must give."""
    known = hand.known
    faces = sorted((FACE[known[slot]] for slot in chosen), key=FACE_ORDER.__getitem__)
    must = sorted((FACE[known[slot]] for slot in due if slot in known), key=FACE_ORDER.__getitem__)
    if faces != must:
        raise IllegalAction(player, f"{reason}: {' '.join(must) or 'nothing'}")


def _seat(words: Sequence[str], names: Sequence[str], example: str) -> int:
    if not words:
        raise MalformedAction(f"say who: {example}")
    typed = " ".join(words)
    for seat, name in enumerate(names):
        if normalize_typed(name) == typed:
            return seat
    raise MalformedAction(f"nobody called {typed!r} plays at this table")


# -- the court ------------------------------------------------------------------------------------


def parse_court(
    game: "SteamCourt", state: "SteamCourtState", player: int, text: str, knowledge: Knowledge, names: Sequence[str]
) -> Any:
    """The court's (and Duo's, and Party's) action ``text`` names for ``player`` now (see the
    module docstring): MalformedAction for text that is no Steam Court move, IllegalAction with the
    reason for a move the rules refuse now."""
    words = normalize_typed(text).split()
    if not words:
        raise MalformedAction("nothing was typed")
    read = _COURT_VERBS.get(words[0])
    if read is None:
        raise MalformedAction(f"{words[0]!r} is not a Steam Court move (help lists them)")
    return read(_Court(game, state, player, knowledge, names), words[1:])


class _Court:
    """One typed move being read: the table as ``player`` sees it."""

    __slots__ = ("game", "state", "player", "knowledge", "names", "faces")

    def __init__(
        self, game: "SteamCourt", state: "SteamCourtState", player: int, knowledge: Knowledge, names: Sequence[str]
    ) -> None:
        self.game = game
        self.state = state
        self.player = player
        self.knowledge = knowledge
        self.names = names
        self.faces = _typed_faces(state.book)

    def _hand(self) -> _Hand:
        return _Hand(self.state.hands[self.player], self.state.cards.revealed, self.knowledge)

    def _checked(self, action: Any) -> Any:
        self.game.check_action(self.state, self.player, action)
        return action

    def _seat(self, words: Sequence[str], example: str) -> int:
        """The seat a move names, by its player's name: one at the player's table (the Party
        variant has two)."""
        seat = _seat(words, self.names, example)
        tables = self.state.tables
        if len(tables) > 1 and seat not in self.state.table_of(self.player).seats:
            other = next((index for index, table in enumerate(tables) if seat in table.seats), None)
            if other is not None:
                raise IllegalAction(self.player, f"{self.names[seat]} plays at the {TABLE_NAMES[other]}")
        return seat

    def _alone(self, rest: Sequence[str], action: Any, example: str) -> Any:
        if rest:
            raise MalformedAction(f"{example} takes nothing more")
        self.game.check_kind(self.state, self.player, type(action))
        return self._checked(action)

    # -- the verbs ------------------------------------------------------------------------------

    def lay(self, rest: list[str]) -> Any:
        player = self.player
        lay = _Lay(rest, _COURT_LAY, "lay 7 7, lay 5 5 +X3, lay 3/9 as 9", self.faces)
        if "MS" in lay.cards:
            self.game.check_kind(self.state, player, Masterstroke)
            words = self.state.book.masterstroke
            return self._checked(Masterstroke(_masterstroke(player, lay, self._hand(), words)))
        table = self.game.check_kind(self.state, player, Lay)
        hand = self._hand()
        alchemist = self.game.book[table.character_of(player)].lowers
        slots, value, quantity, multiplier = _lay_parts(player, lay, hand, 2, alchemist)
        action = _built(player, Lay, slots, value, quantity, multiplier)
        if not slots:
            return self._checked(action)  # a Multiplier alone
        # The cards must make what is declared: judged here on the cards the player sees (the
        # rules judge them when they are revealed).
        problem = lay_problem(action.slots, value, multiplier, alchemist, hand.known)
        if problem:
            raise IllegalAction(player, problem)
        # check_action's checks of a lay, whose kind and turn check_kind passed above.
        self.game.check_lay(self.state, table, player, action)
        return action

    def pass_(self, rest: list[str]) -> Any:
        return self._alone(rest, _PASS, "pass")

    def give(self, rest: list[str]) -> Any:
        example = "give 7 to carol"
        if "to" not in rest:
            raise MalformedAction(f"say to whom: {example}")
        at = rest.index("to")  # faces are never "to": the name is the rest
        typed, to = rest[:at], self._seat(rest[at + 1:], example)
        table = self.state.table_of(self.player)
        if table.phase == Phase.SERVE:
            return self._serve(typed, to)
        cards = _cards(typed, example, self.faces)
        if len(cards) == 2 and Bestow in self.game.phase_kinds.get(table.phase, ((),))[0]:  # the 2015 Queen's gift
            self.game.check_kind(self.state, self.player, Bestow)
            return self._checked(Bestow(tuple(sorted(self._hand().take(self.player, cards))), to))
        self.game.check_kind(self.state, self.player, Give)
        if len(cards) != 1:
            raise IllegalAction(self.player, f"give one card: {example}")
        return self._checked(Give(self._hand().one(self.player, cards[0]), to))

    def _serve(self, typed: list[str], to: int) -> Any:
        player = self.player
        self.game.check_kind(self.state, player, Serve)
        cards = [] if typed == ["nothing"] else _cards(typed, "give 11 12 to alice", self.faces)
        hand = self._hand()
        served = self.game.two_highest(self.state, player, self.knowledge)
        chosen = hand.take(player, cards)
        _require_two_highest(player, hand, chosen, served, "you must give your two highest numbered cards")
        return self._checked(Serve(served, to))

    def trade(self, rest: list[str]) -> Any:
        # A re-masked hand trades naming the cards given to him, as his choices list them.
        state, player = self.state, self.player
        offered = [
            action for action in self.game.legal_actions(state, player, self.knowledge) if type(action) is TradeKeeping
        ]
        return self._alone(rest, offered[0] if offered else Trade(True), "trade")

    def keep(self, rest: list[str]) -> Any:
        # Keep your hand (Tea Boy), or keep the cards drawn by a dive or the plague.
        if self.state.phase == Phase.PLAYING and self.state.table_of(self.player).phase == Phase.RETURN:
            return self._alone(rest, _KEEP_REST, "keep")
        return self._alone(rest, Trade(False), "keep")

    def hoard(self, rest: list[str]) -> Any:
        return self._alone(rest, Hoard(True), "hoard")

    def leave(self, rest: list[str]) -> Any:
        return self._alone(rest, Hoard(False), "leave")

    def inspect(self, rest: list[str]) -> Any:
        seat = self._seat(rest, "inspect bob")
        self.game.check_kind(self.state, self.player, Inspect)
        return self._checked(Inspect(seat))

    def stop(self, rest: list[str]) -> Any:
        seat = self._seat(rest, "stop bob")
        table = self.game.check_kind(self.state, self.player, Stop)
        last = table.lays[-1][0]
        if seat != last:
            raise IllegalAction(self.player, f"only the lay just made can be stopped: {self.names[last]}'s")
        return self._checked(Stop(seat))

    def coup(self, rest: list[str]) -> Any:
        if rest:
            raise MalformedAction("coup takes nothing more")
        self.game.check_kind(self.state, self.player, Coup)
        held = self._hand().by_face.get("MS", [])
        if len(held) != 3:
            words = self.state.book.masterstroke
            have = _held(len(held), "MS") if words.face == "MS" else f"{_NUMBERS[len(held)]}"
            raise IllegalAction(self.player, f"a coup needs all three {words.plural}: you hold {have}")
        return self._checked(Coup(tuple(held)))

    def retrieve(self, rest: list[str]) -> Any:
        return self._alone(rest, _RETRIEVE, "retrieve")

    def not_(self, rest: list[str]) -> Any:
        # "not this quarter" is no move: a standing answer the player's own peer keeps (RULES.md,
        # I28), listed with the choices when it is on offer (and then never read here).
        raise MalformedAction(
            "not this quarter answers the General's stop, the Time Traveler's retrieve or the "
            "Pirate's steal, when you are asked"
        )

    def steal(self, rest: list[str]) -> Any:
        player = self.player
        cards = _cards(rest, "steal 7", self.faces)
        if len(cards) != 1:
            raise MalformedAction("steal one card: steal 7")
        table = self.game.check_kind(self.state, player, Steal)
        revealed = self.state.cards.revealed
        if type(cards[0]) is str and cards[0] not in _NUMBERED_FACES:
            raise IllegalAction(player, "the Pirate steals numbered cards only")
        numbered = [slot for lay in table.lays for slot in lay[1] if KIND[revealed[slot]] == NUMBERED]
        machine = _Hand(numbered, revealed)
        return self._checked(Steal(machine.one(player, cards[0], "in the machine")))

    def unpass(self, rest: list[str]) -> Any:
        player = self.player
        if len(rest) > 1 or (rest and rest[0] not in UNPASS_SOURCES):
            raise MalformedAction("unpass, unpass token or unpass jester")
        table = self.game.check_kind(self.state, player, Unpass)
        sources = self.state.unpass_sources(player)
        if rest:
            source = rest[0]
        elif len(sources) == 1:
            source = sources[0]
        elif sources:
            raise IllegalAction(player, "you can unpass two ways: unpass token or unpass jester")
        else:
            raise IllegalAction(player, "you have no way to unpass: no Unpass token, no Jester's power")
        if source in sources and not self.game.lay_options(self.state, table, player, self.knowledge):
            raise IllegalAction(player, "nothing you hold can beat the lay: pass")
        return self._checked(Unpass(source))

    def discard(self, rest: list[str]) -> Any:
        player = self.player
        cards = _cards(rest, "discard 2 5", self.faces)
        self.game.check_kind(self.state, player, DiscardTwo)
        if not self.state.can_discard_two(player):
            raise IllegalAction(player, "you have no Discard-two token to use")
        if len(cards) != 2:
            raise IllegalAction(player, "the Discard-two token discards two numbered cards: discard 2 5")
        hand = self._hand()
        slots = hand.take(player, cards)
        self._numbered(hand, slots)
        return self._checked(DiscardTwo(tuple(sorted(slots))))

    def dive(self, rest: list[str]) -> Any:
        player = self.player
        if len(rest) != 2 or rest[0] not in PILES:
            raise MalformedAction("dive court 7 or dive discard 7")
        cards = _cards(rest[1:], "dive court 7", self.faces)
        self.game.check_kind(self.state, player, Dive)
        hand = self._hand()
        slot = hand.one(player, cards[0])
        self._numbered(hand, [slot])
        return self._checked(Dive(rest[0], slot))

    def plague(self, rest: list[str]) -> Any:
        return self._alone(rest, _PLAGUE, "plague")

    def put(self, rest: list[str]) -> Any:
        player = self.player
        if not rest or rest[0] != "back":
            raise MalformedAction("put back 7")
        cards = _cards(rest[1:], "put back 7", self.faces)
        if len(cards) != 1:
            raise MalformedAction("put back one card: put back 7")
        table = self.game.check_kind(self.state, player, PutBack)
        drawn = _Hand(
            [slot for slot in table.drawn if slot in self.state.hands[player]], self.state.cards.revealed, self.knowledge
        )
        return self._checked(PutBack(drawn.one(player, cards[0], "among the cards you drew")))

    def _numbered(self, hand: _Hand, slots: Sequence[int]) -> None:
        for slot in slots:
            name = hand.known.get(slot)
            if name is not None and KIND[name] != NUMBERED:
                raise IllegalAction(self.player, f"{FACE[name]} is not a numbered card")


_COURT_VERBS: dict[str, Callable[[_Court, list[str]], Any]] = {
    "lay": _Court.lay,
    "pass": _Court.pass_,
    "give": _Court.give,
    "trade": _Court.trade,
    "keep": _Court.keep,
    "hoard": _Court.hoard,
    "leave": _Court.leave,
    "inspect": _Court.inspect,
    "stop": _Court.stop,
    "coup": _Court.coup,
    "retrieve": _Court.retrieve,
    "not": _Court.not_,
    "steal": _Court.steal,
    "unpass": _Court.unpass,
    "discard": _Court.discard,
    "dive": _Court.dive,
    "plague": _Court.plague,
    "put": _Court.put,
}


# -- Solo -----------------------------------------------------------------------------------------


def parse_solo(solo: Solo, state: SoloState, text: str) -> Any:
    """The Solo action ``text`` names now (see the module docstring): MalformedAction for text that
    is no Solo move, IllegalAction with the reason for a move the rules refuse now."""
    words = normalize_typed(text).split()
    if not words:
        raise MalformedAction("nothing was typed")
    read = _SOLO_VERBS.get(words[0])
    if read is None:
        raise MalformedAction(f"{words[0]!r} is not a Solo move (help lists them)")
    return read(_Solo(solo, state), words[1:])


class _Solo:
    """One typed Solo move being read."""

    __slots__ = ("solo", "state")

    def __init__(self, solo: Solo, state: SoloState) -> None:
        self.solo = solo
        self.state = state

    def _trick(self, words: Sequence[str], example: str) -> int:
        """The index of the trick a move names (typed 1–3), checked by :meth:`Solo.check_trick`."""
        if len(words) != 1 or not (words[0].isdigit() and words[0].isascii()) or not 1 <= int(words[0]) <= 3:
            raise MalformedAction(f"tricks are numbered 1–3 from the left: {example}")
        index = int(words[0]) - 1
        self.solo.check_trick(self.state, 0, index)
        return index

    def _hand(self) -> _Hand:
        return _Hand(self.state.hand, self.state.cards.revealed)

    def _checked(self, action: Any) -> Any:
        self.solo.check_action(self.state, 0, action)
        return action

    def lay(self, rest: list[str]) -> Any:
        example = "lay 7 7 on 2"
        if "on" not in rest:
            raise MalformedAction(f"say which trick: {example}")
        at = len(rest) - 1 - rest[::-1].index("on")
        typed, where = rest[:at], rest[at + 1:]
        lay = _Lay(typed, _SOLO_LAY, example)
        if "MS" in lay.cards:
            self.solo.check_kind(self.state, 0, Strike)
            index = self._trick(where, "lay MS on 1")
            return self._checked(Strike(index, _masterstroke(0, lay, self._hand())))
        self.solo.check_kind(self.state, 0, Beat)
        index = self._trick(where, example)
        quantity = self.state.tricks[index][2]  # the Jester's single card counts as the whole set
        slots, value, quantity, multiplier = _lay_parts(0, lay, self._hand(), quantity, False)
        return self._checked(_built(0, Beat, index, slots, value, quantity, multiplier))

    def stop(self, rest: list[str]) -> Any:
        self.solo.check_kind(self.state, 0, StopTrick)
        self.solo.check_power(self.state, StopTrick)
        return self._checked(StopTrick(self._trick(rest, "stop 2")))

    def retrieve(self, rest: list[str]) -> Any:
        cards = _cards(rest, "retrieve 7")
        if len(cards) != 1:
            raise MalformedAction("retrieve one card from the discard pile: retrieve 7")
        self.solo.check_kind(self.state, 0, Recall)
        self.solo.check_power(self.state, Recall)
        pile = _Hand(self.state.discard, self.state.cards.revealed)
        return self._checked(Recall(pile.one(0, cards[0], "in the discard pile")))

    def give(self, rest: list[str]) -> Any:
        if not rest or rest[0] != "up":
            raise MalformedAction("give up 11 12 (the Tea Boy's first round)")
        typed = rest[1:]
        cards = [] if typed == ["nothing"] else _cards(typed, "give up 11 12")
        self.solo.check_kind(self.state, 0, GiveUp)
        hand = self._hand()
        given = two_highest_numbered(self.state.hand, self.state.cards.revealed)
        _require_two_highest(0, hand, hand.take(0, cards), given, "the Tea Boy gives up his two highest numbered cards")
        return self._checked(GiveUp(given))

    def discard(self, rest: list[str]) -> Any:
        cards = _cards(rest, "discard 3")
        if not cards:
            raise MalformedAction("say which cards: discard 3")
        self.solo.check_kind(self.state, 0, DiscardLowest)
        slots = self._hand().take(0, cards)
        return self._checked(_built(0, DiscardLowest, tuple(sorted(slots))))

    def pass_(self, rest: list[str]) -> Any:
        if rest:
            raise MalformedAction("pass takes nothing more")
        self.solo.check_kind(self.state, 0, Pass)
        return self._checked(_PASS)


_SOLO_VERBS: dict[str, Callable[[_Solo, list[str]], Any]] = {
    "lay": _Solo.lay,
    "stop": _Solo.stop,
    "retrieve": _Solo.retrieve,
    "give": _Solo.give,
    "discard": _Solo.discard,
    "pass": _Solo.pass_,
}
