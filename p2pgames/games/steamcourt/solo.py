"""The Solo variant of Steam Court: one player against the Court Hand (RULES.md, Solo).

Its own state (:class:`SoloState`), actions and rules; :mod:`.solo_game` makes them a game of
their own, which :meth:`SteamCourt.for_ruleset` returns for a ruleset with ``variant`` ``solo``
(which one player gets by default).

One deal of the whole deck, dealt face down; the player's cards are *revealed* as they reach his
hand (with one seat there is nobody to keep them from, and every rule is then checked on public
values: I40), while the Court Hand and the draw pile stay face down until a card is turned up or
drawn. The transcript shows the order: the deal is locked before any card is turned, and the
game's end audits it.

Flow (``state.phase``)::

    dealing ─► [privilege] ─► drawing ─► revealing … ─► play ─► (round over) ─► [privilege] …
                                             └─ the Court Hand is out ─► auditing ─► over (lost)
    play: every trick beaten as the Queen ─► auditing ─► over (won)

A trick on the table is ``[court slots, value, quantity, lay]``: the Court Hand's cards (numbered
cards of one value, 3/9 and 6/12 as the lower number, Multipliers and Masterstrokes as
Multipliers), the value to beat, how many cards it counts as, and the player's lay on it
(``[]`` while unbeaten, else ``[slots, value, quantity, multiplier slot or -1]``, value 13: a
Masterstroke).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from p2pgames.engine import (
    CardOperations,
    CardState,
    GameOver,
    GameState,
    IllegalAction,
    MalformedAction,
    Step,
    Turn,
    check_slot,
    check_slots,
)

from p2pgames.games.steamcourt.actions import Pass, check_lay
from p2pgames.games.steamcourt.cards import (
    follow_problem,
    hand_by_kind,
    lay_problem,
    a_face,
    one_slot_per_face,
    two_highest_numbered,
    CHARACTER_TITLE,
    DECK,
    DUAL,
    FACE,
    KIND,
    MASTERSTROKE,
    MASTERSTROKE_VALUE,
    MAX_QUANTITY,
    MULTIPLIER,
    NUMBER,
    NUMBERED,
)

__all__ = [
    "SOLO",
    "SOLO_KINDS",
    "SoloState",
    "Solo",
    "LADDER",
    "HAND_SIZE",
    "COURT_SIZE",
    "TRICKS",
    "RANKS",
    "Beat",
    "Strike",
    "StopTrick",
    "Recall",
    "GiveUp",
    "DiscardLowest",
    "rank_of",
]

# The six Royal table characters, Tea Boy on top of the stack down to the Queen at the bottom.
LADDER: tuple[str, ...] = ("teaboy", "jester", "timetraveler", "duke", "general", "queen")
HAND_SIZE = 12
COURT_SIZE = 22
TRICKS = 3
# The rank a win earns, by cards left in the Court Hand (I47: 0 counts as 1–2, 7+ as 5–6).
RANKS = ("Apprentice Engineer", "Skilled Engineer", "Master Engineer")


def rank_of(left: int) -> str:
    """The rank of a win with ``left`` cards in the Court Hand."""
    return RANKS[min(2, max(0, (left - 1) // 2))]


class Phase:
    DEALING = "dealing"
    PRIVILEGE = "privilege"
    DRAWING = "drawing"
    REVEALING = "revealing"
    PLAY = "play"
    AUDITING = "auditing"
    OVER = "over"


# -- actions -----------------------------------------------------------------------------------


def _check_trick(trick: Any) -> None:
    if type(trick) is not int or not 0 <= trick < TRICKS:
        raise MalformedAction(f"trick must be 0–{TRICKS - 1}, not {trick!r}")


@dataclass(frozen=True, slots=True)
class Beat:
    """Lay ``slots`` on trick ``trick`` (0: the left-most) as ``quantity`` cards of ``value``.

    ``multiplier`` is the slot of a Multiplier laid with them (``None``: none). Without one,
    ``quantity`` is the number of cards, or any quantity for a single card (the Jester's set).
    With one, ``quantity`` is at least the number of other cards; a Multiplier alone is a single 1.
    """

    trick: int
    slots: tuple[int, ...]
    value: int
    quantity: int
    multiplier: int | None = None

    def __post_init__(self) -> None:
        _check_trick(self.trick)
        check_lay(self.slots, self.value, self.quantity, self.multiplier, one_card_as=None)


@dataclass(frozen=True, slots=True)
class Strike:
    """Lay the Masterstroke in ``slot`` on trick ``trick``: it beats any trick."""

    trick: int
    slot: int

    def __post_init__(self) -> None:
        _check_trick(self.trick)
        check_slot(self.slot)


@dataclass(frozen=True, slots=True)
class StopTrick:
    """General: stop the Court Hand from laying trick ``trick`` (it goes back under the Court Hand)."""

    trick: int

    def __post_init__(self) -> None:
        _check_trick(self.trick)


@dataclass(frozen=True, slots=True)
class Recall:
    """Time Traveler: take the card in ``slot`` back from the discard pile."""

    slot: int

    def __post_init__(self) -> None:
        check_slot(self.slot)


@dataclass(frozen=True, slots=True)
class GiveUp:
    """Tea Boy, first round: put your two highest numbered cards under the Court Hand."""

    slots: tuple[int, ...]

    def __post_init__(self) -> None:
        check_slots(self.slots, 0, 2)


@dataclass(frozen=True, slots=True)
class DiscardLowest:
    """General: discard your lowest card; Queen: your lowest card or set; draw to replace them."""

    slots: tuple[int, ...]

    def __post_init__(self) -> None:
        check_slots(self.slots, 1, MAX_QUANTITY)


# Wire kinds; every other kind is a core action (only ``Pass`` is used in Solo).
SOLO_KINDS: dict[type, str] = {
    Beat: "beat",
    Strike: "strike",
    StopTrick: "stoptrick",
    Recall: "recall",
    GiveUp: "giveup",
    DiscardLowest: "discardlow",
}
_PASS = Pass()


# -- the state -------------------------------------------------------------------------------------


class SoloState(GameState):
    """The public state of a Solo game. Mutable: ``apply`` copies it, then changes the copy.

    ``notes`` is not part of the public state: what the last event did, for the log.
    """

    __slots__ = (
        "cards",
        "phase",
        "rung",
        "round",
        "hand",
        "court",
        "draw",
        "discard",
        "tricks",
        "waiting",
        "turning",
        "used",
        "won",
        "notes",
    )

    players = 1
    variant = "solo"
    cards: CardState
    phase: str
    rung: int  # the character on the ladder (0: Tea Boy … 5: Queen)
    round: int  # rounds played so far, this one included
    hand: list[int]
    court: list[int]  # the Court Hand, top first
    draw: list[int]  # the draw pile, top first
    discard: list[int]  # the discard pile, oldest first
    tricks: list[list]  # the tricks on the table, left-most first (see the module docstring)
    waiting: list[int]  # Multipliers turned up with no trick on the table yet
    turning: int  # the Court Hand card being turned up (-1: none)
    used: list[str]  # powers used this round: "pair", "retrieve", "stop"
    won: int  # 1: won, 0: lost, -1: still playing
    notes: list[tuple]

    @property
    def character(self) -> str:
        return LADDER[self.rung]

    def copy(self) -> "SoloState":
        other = SoloState.__new__(SoloState)
        other.cards = self.cards.copy()
        other.phase = self.phase
        other.rung = self.rung
        other.round = self.round
        other.hand = self.hand[:]
        other.court = self.court[:]
        other.draw = self.draw[:]
        other.discard = self.discard[:]
        other.tricks = [[t[0][:], t[1], t[2], [x[:] if isinstance(x, list) else x for x in t[3]]] for t in self.tricks]
        other.waiting = self.waiting[:]
        other.turning = self.turning
        other.used = self.used[:]
        other.won = self.won
        other.notes = []
        return other


def _low_value(name: str) -> int:
    """What a card counts as for "lowest": its number, a 3/9 or 6/12 its lower; specials none (0)."""
    kind = KIND[name]
    return NUMBER[name] if kind in (NUMBERED, DUAL) else 0


# -- the rules -------------------------------------------------------------------------------------


class Solo:
    """The Solo rules, played by :class:`~.solo_game.SteamCourtSolo`. Stateless."""

    # -- setup and steps -------------------------------------------------------------------------

    def setup(self) -> SoloState:
        state = SoloState.__new__(SoloState)
        state.cards = CardState()
        state.rung = 0
        state.round = 0
        state.discard = []
        state.tricks = []
        state.waiting = []
        state.turning = -1
        state.used = []
        state.won = -1
        state.notes = []
        # Deal 12 cards to yourself, 22 to the Court Hand, the rest into the draw pile.
        slots = list(state.cards.new_deal(DECK))
        state.hand = slots[:HAND_SIZE]
        state.court = slots[HAND_SIZE:HAND_SIZE + COURT_SIZE]
        state.draw = slots[HAND_SIZE + COURT_SIZE:]
        state.cards.reveal(state.hand)
        state.phase = Phase.DEALING
        return state

    def step(self, state: SoloState) -> Step:
        if state.cards.pending:
            return CardOperations(tuple(state.cards.pending))
        phase = state.phase
        if phase == Phase.PLAY:
            return Turn((0,), "beat the Court Hand's tricks, or pass to end the round")
        if phase == Phase.PRIVILEGE:
            character = state.character
            if character == "teaboy":
                return Turn((0,), "give up your two highest numbered cards")
            if character == "general":
                return Turn((0,), "discard your lowest card and draw, or pass")
            return Turn((0,), "discard your lowest card or set and draw, or pass")
        if phase == Phase.OVER:
            return self.result(state)
        raise AssertionError(f"no step for solo phase {phase!r}")  # pragma: no cover

    def result(self, state: SoloState) -> GameOver:
        left = len(state.court)
        if state.won == 1:
            return GameOver(
                (len(LADDER),),
                (0,),
                f"{rank_of(left)}: beat the Court Hand as Engineer to the Queen with "
                f"{left} card{'' if left == 1 else 's'} left in it",
            )
        title = CHARACTER_TITLE[state.character]
        return GameOver(
            (state.rung,),
            (),
            f"the Court Hand ran out: lost as Engineer to the {title} "
            f"({state.rung} of {len(LADDER)} characters beaten)",
        )

    # -- legal actions ---------------------------------------------------------------------------

    def legal_actions(self, state: SoloState, player: int) -> list[Any]:
        if player != 0 or state.cards.pending:
            return []
        if state.phase == Phase.PRIVILEGE:
            return self._privilege_options(state)
        if state.phase != Phase.PLAY:
            return []
        options: list[Any] = []
        for index, trick in enumerate(state.tricks):
            if not trick[3]:
                options.extend(self._beat_options(state, index, trick))
        character = state.character
        if character == "general" and "stop" not in state.used:
            options.extend(StopTrick(index) for index, trick in enumerate(state.tricks) if not trick[3])
        if character == "timetraveler" and "retrieve" not in state.used:
            options.extend(Recall(slot) for slot in one_slot_per_face(state.discard, state.cards.revealed))
        options.append(_PASS)
        return options

    def _privilege_options(self, state: SoloState) -> list[Any]:
        revealed = state.cards.revealed
        if state.character == "teaboy":
            return [GiveUp(two_highest_numbered(state.hand, state.cards.revealed))]
        lowest = self.lowest_cards(state)
        if not lowest:
            return [_PASS]
        if state.character == "general":
            return [DiscardLowest((slot,)) for slot in one_slot_per_face(lowest, revealed)] + [_PASS]
        # The Queen: any number of the cards of her lowest value (a set), plain and dual alike.
        plain = [slot for slot in lowest if KIND[revealed[slot]] == NUMBERED]
        dual = [slot for slot in lowest if KIND[revealed[slot]] == DUAL]
        options: list[Any] = []
        for a in range(len(plain) + 1):
            for b in range(len(dual) + 1):
                if a + b:
                    options.append(DiscardLowest(tuple(sorted(plain[:a] + dual[:b]))))
        return options + [_PASS]

    def lowest_cards(self, state: SoloState) -> list[int]:
        """Every card in hand of the lowest value (numbered cards, 3/9 and 6/12 as the lower; I46)."""
        revealed = state.cards.revealed
        valued = [(_low_value(revealed[slot]), slot) for slot in sorted(state.hand)]
        valued = [(value, slot) for value, slot in valued if value]
        if not valued:
            return []
        low = min(value for value, _ in valued)
        return [slot for value, slot in valued if value == low]

    def _beat_options(self, state: SoloState, index: int, trick: list) -> list[Any]:
        by_number, duals, multiplier, masterstroke = hand_by_kind(state.hand, state.cards.revealed.__getitem__)
        _, top, quantity, _ = trick
        low = top if state.character == "duke" else top + 1
        jester = state.character == "jester" and "pair" not in state.used
        options: list[Any] = []
        for value in range(max(low, 1), 13):
            plain = by_number[value]
            dual = duals[3] if value in (3, 9) else duals[6] if value in (6, 12) else []
            for a in range(len(plain) + 1):
                for b in range(len(dual) + 1):
                    count = a + b
                    if count == 0 or count > quantity:
                        continue
                    slots = tuple(sorted(plain[:a] + dual[:b]))
                    if count == quantity:
                        options.append(Beat(index, slots, value, quantity))
                    elif jester and count == 1:
                        options.append(Beat(index, slots, value, quantity))
                    if multiplier >= 0:
                        options.append(Beat(index, slots, value, quantity, multiplier))
        if multiplier >= 0 and quantity == 1 and low <= 1:
            options.append(Beat(index, (), 1, 1, multiplier))
        if masterstroke >= 0:
            options.append(Strike(index, masterstroke))
        return options

    # -- checking actions ------------------------------------------------------------------------

    def check_kind(self, state: SoloState, player: int, kind: type) -> None:
        """Raise :class:`IllegalAction` unless ``player`` may make a move of ``kind`` now: the one
        seat, no cards being turned, and a kind the moment takes (a privilege: the Tea Boy's
        :class:`GiveUp`, else :class:`DiscardLowest` or a pass; the round: a beat, a Masterstroke,
        a power or a pass). The first check of :meth:`check_action`, and of a typed move before
        its cards are looked for."""
        if player != 0:
            raise IllegalAction(player, "a Solo game has one seat")
        if state.cards.pending:
            raise IllegalAction(player, "wait until the cards being dealt or revealed are done")
        if state.phase == Phase.PRIVILEGE:
            teaboy = state.character == "teaboy"  # the other privileges are the General's and the Queen's
            if kind not in ((GiveUp,) if teaboy else (DiscardLowest, Pass)):
                raise IllegalAction(player, "use your character's privilege" + ("" if teaboy else " or pass"))
        elif state.phase != Phase.PLAY:
            raise IllegalAction(player, "no move is expected now")
        elif kind not in (Beat, Strike, StopTrick, Recall, Pass):
            raise IllegalAction(player, "beat a trick, use a power, or pass")

    def check_trick(self, state: SoloState, player: int, index: int) -> list:
        """The trick at ``index`` (0: the left-most), which a lay or a stop names; IllegalAction
        if there is none or it is beaten already."""
        if index >= len(state.tricks):
            raise IllegalAction(player, f"there are only {len(state.tricks)} tricks on the table")
        trick = state.tricks[index]
        if trick[3]:
            raise IllegalAction(player, f"trick {index + 1} is beaten already")
        return trick

    def check_action(self, state: SoloState, player: int, action: Any) -> None:
        kind = type(action)
        self.check_kind(state, player, kind)
        revealed = state.cards.revealed
        hand = state.hand
        character = state.character
        if kind is GiveUp:
            for slot in action.slots:
                _require_in_hand(slot, hand)
            want = sorted((NUMBER[revealed[s]] for s in two_highest_numbered(hand, revealed)), reverse=True)
            got = sorted((_number(revealed[s]) for s in action.slots), reverse=True)
            if got != want:
                raise IllegalAction(player, "the Tea Boy gives up his two highest numbered cards")
        elif kind is DiscardLowest:
            for slot in action.slots:
                _require_in_hand(slot, hand)
            lowest = self.lowest_cards(state)
            if any(slot not in lowest for slot in action.slots):
                raise IllegalAction(player, "you may only discard your lowest card" + (
                    " or set" if character == "queen" else ""))
            if character == "general" and len(action.slots) != 1:
                raise IllegalAction(player, "the General discards one card")
        elif kind is Beat:
            self._check_beat(state, action, self.check_trick(state, player, action.trick))
        elif kind is Strike:
            self.check_trick(state, player, action.trick)
            _require_in_hand(action.slot, hand)
            if KIND[revealed[action.slot]] != MASTERSTROKE:
                raise IllegalAction(player, f"that card is {a_face(FACE[revealed[action.slot]])}, not a Masterstroke")
        elif kind is StopTrick:
            self.check_power(state, kind)
            self.check_trick(state, player, action.trick)
        elif kind is Recall:
            self.check_power(state, kind)
            if action.slot not in state.discard:
                raise IllegalAction(player, "that card is not in the discard pile")

    def check_power(self, state: SoloState, kind: type) -> None:
        """Raise :class:`IllegalAction` unless the character may use the power of ``kind`` now:
        the General's stop (:class:`StopTrick`), the Time Traveler's retrieve (:class:`Recall`)."""
        character = state.character
        if kind is StopTrick:
            if character != "general":
                raise IllegalAction(0, "only the General stops the Court Hand")
            if "stop" in state.used:
                raise IllegalAction(0, "the General stops one trick a round")
        elif kind is Recall:
            if character != "timetraveler":
                raise IllegalAction(0, "only the Time Traveler retrieves from the discard pile")
            if "retrieve" in state.used:
                raise IllegalAction(0, "the Time Traveler retrieves once a round")

    def _check_beat(self, state: SoloState, beat: Beat, trick: list) -> None:
        for slot in beat.slots:
            _require_in_hand(slot, state.hand)
        if beat.multiplier is not None:
            _require_in_hand(beat.multiplier, state.hand)
        _, top, quantity, _ = trick
        matcher = "Duke" if state.character == "duke" else None
        problem = follow_problem(beat.quantity, beat.value, quantity, top, matcher, "beat this trick")
        if problem:
            raise IllegalAction(0, problem)
        if beat.multiplier is None and len(beat.slots) != quantity:
            if state.character != "jester":
                raise IllegalAction(0, "only the Jester plays a single card as a set")
            if "pair" in state.used:
                raise IllegalAction(0, "the Jester plays a single card as a set once a round")
        # Every card is face up in Solo (I40): judged on the values at once.
        problem = lay_problem(beat.slots, beat.value, beat.multiplier, state.character == "alchemist", state.cards.revealed)
        if problem:
            raise IllegalAction(0, problem)

    # -- applying events -------------------------------------------------------------------------

    def after_cards(self, state: SoloState) -> None:
        state.notes = []
        phase = state.phase
        if phase == Phase.DEALING:
            state.notes.append(("deal", len(state.hand), len(state.court), len(state.draw)))
            self._begin_round(state)
        elif phase == Phase.DRAWING:
            self._fill_tricks(state)
        elif phase == Phase.REVEALING:
            slot = state.turning
            state.turning = -1
            self._place(state, slot)
            self._fill_tricks(state)
        elif phase == Phase.AUDITING:
            state.phase = Phase.OVER

    def apply_action(self, state: SoloState, action: Any) -> None:
        state.notes = []
        kind = type(action)
        if state.phase == Phase.PRIVILEGE:
            if kind is GiveUp:
                for slot in action.slots:
                    state.hand.remove(slot)
                state.court.extend(action.slots)
                state.notes.append(("give-up", action.slots))
                self._refill(state, 0)
            elif kind is DiscardLowest:
                for slot in action.slots:
                    state.hand.remove(slot)
                state.discard.extend(action.slots)
                state.notes.append(("discard", action.slots))
                self._refill(state, len(action.slots))
            else:
                state.notes.append(("no-privilege",))
                self._refill(state, 0)
            return
        if kind is Beat:
            trick = state.tricks[action.trick]
            for slot in action.slots:
                state.hand.remove(slot)
            multiplier = -1 if action.multiplier is None else action.multiplier
            if multiplier >= 0:
                state.hand.remove(multiplier)
            elif len(action.slots) != action.quantity:
                state.used.append("pair")
            trick[3] = [list(action.slots), action.value, action.quantity, multiplier]
            state.notes.append(("beat", action.trick, tuple(action.slots), action.value, action.quantity, multiplier))
            self._after_beat(state)
        elif kind is Strike:
            state.hand.remove(action.slot)
            state.tricks[action.trick][3] = [[action.slot], MASTERSTROKE_VALUE, 1, -1]
            state.notes.append(("beat", action.trick, (action.slot,), MASTERSTROKE_VALUE, 1, -1))
            self._after_beat(state)
        elif kind is StopTrick:
            trick = state.tricks.pop(action.trick)
            state.used.append("stop")
            # Stopped from laying it: its cards go back under the Court Hand (I45).
            state.court.extend(trick[0])
            state.notes.append(("stop", action.trick, tuple(trick[0])))
            self._after_beat(state)
        elif kind is Recall:
            state.discard.remove(action.slot)
            state.hand.append(action.slot)
            state.used.append("retrieve")
            state.notes.append(("recall", action.slot))
        else:
            state.notes.append(("pass",))
            self._end_round(state)

    def _after_beat(self, state: SoloState) -> None:
        if state.tricks and all(trick[3] for trick in state.tricks):
            self._end_round(state)

    # -- rounds ----------------------------------------------------------------------------------

    def _begin_round(self, state: SoloState) -> None:
        state.round += 1
        state.used = []
        character = state.character
        state.notes.append(("round", state.round, character))
        if (character == "teaboy" and state.round == 1) or character in ("general", "queen"):
            state.phase = Phase.PRIVILEGE
            return
        self._refill(state, 0)

    def _refill(self, state: SoloState, replace: int) -> None:
        """Draw back up to 12 cards (at least ``replace``), shuffling the discard pile into a new
        draw pile when the draw pile runs out (I44); then the Court Hand lays its tricks."""
        wanted = max(replace, HAND_SIZE - len(state.hand))
        drawn: list[int] = []
        while len(drawn) < wanted:
            if not state.draw:
                if not state.discard:
                    break
                count = len(state.discard)
                state.draw = list(state.cards.reshuffle(state.discard))
                state.discard = []
                state.notes.append(("reshuffle", count))
            take = state.draw[: wanted - len(drawn)]
            del state.draw[: len(take)]
            drawn.extend(take)
        state.hand.extend(drawn)
        state.cards.reveal(drawn)
        if drawn:
            state.notes.append(("draw", len(drawn)))
        state.phase = Phase.DRAWING
        if not state.cards.pending:
            self._fill_tricks(state)

    def _fill_tricks(self, state: SoloState) -> None:
        """Turn up Court Hand cards until three tricks are on the table; if it runs out, you lose."""
        revealed = state.cards.revealed
        while len(state.tricks) < TRICKS:
            if not state.court:
                state.notes.append(("court-out", len(state.tricks)))
                self._finish(state, won=False)
                return
            slot = state.court.pop(0)
            if slot not in revealed:
                state.turning = slot
                state.cards.reveal((slot,))
                state.phase = Phase.REVEALING
                return
            self._place(state, slot)
        state.phase = Phase.PLAY
        state.notes.append(("tricks",))

    def _place(self, state: SoloState, slot: int) -> None:
        """A card the Court Hand turned up joins the table (rulebook, "The Court Hand")."""
        name = state.cards.revealed[slot]
        kind = KIND[name]
        tricks = state.tricks
        if kind in (MULTIPLIER, MASTERSTROKE):
            # As a Multiplier on the left-most trick (it waits for the first one: I41).
            if tricks:
                tricks[0][0].append(slot)
                tricks[0][2] += 1
                state.notes.append(("court", slot, 0, "multiplier"))
            else:
                state.waiting.append(slot)
                state.notes.append(("court", slot, -1, "waiting"))
            return
        value = NUMBER[name]  # a 3/9 or 6/12 as the lower number
        for index, trick in enumerate(tricks):
            if trick[1] == value:
                trick[0].append(slot)
                trick[2] += 1
                state.notes.append(("court", slot, index, "stack"))
                return
        tricks.append([[slot] + state.waiting, value, 1 + len(state.waiting), []])
        state.notes.append(("court", slot, len(tricks) - 1, "new"))
        if state.waiting:
            state.notes.append(("court-waiting", len(state.waiting)))
        state.waiting = []

    def _end_round(self, state: SoloState) -> None:
        tricks = state.tricks
        beaten = [trick for trick in tricks if trick[3]]
        everything = bool(tricks) and len(beaten) == len(tricks)
        if everything and state.rung == len(LADDER) - 1:
            # The game is won: the last tricks stay on the table, beaten, for the final screen.
            state.notes.append(("last-round", len(beaten)))
            self._finish(state, won=True)
            return
        if not beaten:
            kept: list[list] = []
            discarded = tricks
        else:
            kept = [trick for trick in tricks if not trick[3]]
            discarded = beaten
        for trick in discarded:
            state.discard.extend(trick[0])
            if trick[3]:
                state.discard.extend(trick[3][0])
                if trick[3][3] >= 0:
                    state.discard.append(trick[3][3])
        state.tricks = kept
        state.notes.append(("round-over", len(beaten), len(discarded), everything))
        if everything:
            state.rung += 1
            state.notes.append(("advance", state.character))
        self._begin_round(state)

    def _finish(self, state: SoloState, won: bool) -> None:
        state.won = 1 if won else 0
        state.notes.append(("won" if won else "lost", len(state.court)))
        state.cards.audit(state.cards.deals)  # every deal of the game: the deal and its re-shuffles
        state.phase = Phase.AUDITING

    # -- encodings -------------------------------------------------------------------------------

    def encode_state(self, state: SoloState) -> dict:
        return {
            "variant": "solo",
            "players": 1,
            "cards": state.cards.encode(),
            "phase": state.phase,
            "rung": state.rung,
            "round": state.round,
            "hand": state.hand[:],
            "court": state.court[:],
            "draw": state.draw[:],
            "discard": state.discard[:],
            "tricks": [[t[0][:], t[1], t[2], [x[:] if isinstance(x, list) else x for x in t[3]]] for t in state.tricks],
            "waiting": state.waiting[:],
            "turning": state.turning,
            "used": state.used[:],
            "won": state.won,
        }

    def decode_state(self, data: Mapping[str, Any]) -> SoloState:
        state = SoloState.__new__(SoloState)
        state.cards = CardState.decode(data["cards"])
        state.phase = data["phase"]
        state.rung = data["rung"]
        state.round = data["round"]
        state.hand = list(data["hand"])
        state.court = list(data["court"])
        state.draw = list(data["draw"])
        state.discard = list(data["discard"])
        state.tricks = [
            [list(cards), value, quantity, [list(lay[0]), lay[1], lay[2], lay[3]] if lay else []]
            for cards, value, quantity, lay in data["tricks"]
        ]
        state.waiting = list(data["waiting"])
        state.turning = data["turning"]
        state.used = [str(name) for name in data["used"]]
        state.won = data["won"]
        state.notes = []
        return state


SOLO = Solo()


# -- helpers ---------------------------------------------------------------------------------------


def _number(name: str) -> int:
    return NUMBER[name] if KIND[name] == NUMBERED else 0


def _require_in_hand(slot: int, hand: list[int]) -> None:
    if slot not in hand:
        raise IllegalAction(0, "that card is not in your hand")
