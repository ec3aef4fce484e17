"""Helpers that put a Steam Court table into a chosen position: stacked decks, chosen seats,
hands cut down to the cards a test names, and moves typed as a player types them.

A :class:`Court` is a :class:`LocalTable` whose deals come out as a test stacks them and whose
start tokens seat the players as a test says (by default player *i* in position *i*: alice is the
Queen); it keeps the log's lines in ``lines`` and each player's own (``narrate_private``, with what
it could see then) in ``private[player]``, as its presentation ``shown`` tells them. Cards are named by face (``"7"``, ``"3/9"``, ``"X"``, ``"MS"``); each face is turned into
the next unused card of that face (``"7a"``, ``"7b"`` …). With ``trim`` (the default) every card a
test didn't name is moved from the hands to the Court Hand right after the deal, so a scenario
plays with exactly the named cards.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable, Sequence

from p2pgames.engine import (
    DeterministicRandom,
    LocalTable,
    NewDeal,
    ReactionWindow,
    Turn,
)
from p2pgames.games.steamcourt import GAME, SteamCourt, tricks
from p2pgames.games.steamcourt.actions import Pass
from p2pgames.games.steamcourt.cards import DECK, FACE, FACE_ORDER, KIND, NUMBERED
from p2pgames.games.steamcourt.presentation import SteamCourtPresentation

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "gina", "hal", "ivy", "jon")


def hand_size(players: int, deck: Sequence[str] = DECK) -> int:
    return len(deck) // (players + 1)


def take(unused: list[str], face: str) -> str:
    """The first card of ``face`` in ``unused``, taken out of it."""
    for name in unused:
        if FACE[name] == face:
            unused.remove(name)
            return name
    raise AssertionError(f"no card {face!r} left")


def stacked_deck(
    players: int, hands: Sequence[Sequence[str]], court: Sequence[str] = (), deck: Sequence[str] = DECK
) -> tuple[list[str], list[list[str]]]:
    """A whole deal of ``deck`` in slot order (hands by position, then the Court Hand) and the
    names chosen for each hand's named faces. Hands are filled up with numbered cards, low ones
    first."""
    unused = list(deck)
    chosen: list[list[str]] = []
    for position in range(players):
        chosen.append([take(unused, face) for face in (hands[position] if position < len(hands) else ())])
    court_names = [take(unused, face) for face in court]
    order: list[str] = []
    size = hand_size(players, deck)
    fillers = [name for name in unused if KIND[name] == NUMBERED]
    for position in range(players):
        hand = chosen[position][:]
        assert len(hand) <= size, f"hand {position} has more than {size} cards"
        while len(hand) < size:
            name = fillers.pop(0)
            unused.remove(name)
            hand.append(name)
        order.extend(hand)
    order.extend(court_names)
    order.extend(unused)
    assert sorted(order) == sorted(deck)
    return order, chosen


@lru_cache(maxsize=None)
def seating_seed(seats: tuple[int, ...]) -> bytes:
    """A chance seed whose start tokens seat ``seats[position]`` in each position."""
    for n in range(1_000_000):
        seed = n.to_bytes(32, "big")
        order = list(range(len(seats)))
        DeterministicRandom(seed).shuffle(order)
        if tuple(order) == seats:
            return seed
    raise AssertionError("no seed gives that seating")  # pragma: no cover


class Court(LocalTable):
    """A local table with stacked deals, chosen seats and moves typed as text.

    ``hands`` are faces by position; ``court`` the Court Hand's named faces; ``later`` more
    stacked deals (each ``(hands, court)``) for the deals that follow (a coup, later quarters);
    ``options`` more ruleset options (a variant that deals another deck sets ``deck`` too).
    With ``coup`` false (the default) the coup window after the first deal is passed; with
    ``play`` the privileges are skipped too and the Queen is to lead. ``shown`` is the presentation
    of ``game`` (by default the published game's).
    """

    deck: Sequence[str] = DECK  # the cards of each stacked deal

    def __init__(
        self,
        players: int,
        hands: Sequence[Sequence[str]] = (),
        court: Sequence[str] = (),
        *,
        game: SteamCourt = GAME,
        scoring: str | None = "gears",
        seats: Sequence[int] | None = None,
        trim: bool = True,
        coup: bool = False,
        later: Iterable[tuple[Sequence[Sequence[str]], Sequence[str]]] = (),
        seed: bytes = b"stacked",
        play: bool = False,
        options: dict | None = None,
        shown: SteamCourtPresentation | None = None,
    ) -> None:
        self.players = players
        self.shown = shown if shown is not None else SteamCourtPresentation(game)
        self.stacks = [stacked_deck(players, hands, court, self.deck)] + [
            stacked_deck(players, h, c, self.deck) for h, c in later
        ]
        self.named: list[list[str]] = []
        self.wanted = tuple(seats) if seats is not None else tuple(range(players))
        self.trim_hands = trim
        self.notes: list[tuple] = []
        self.lines: list[str] = []
        self.private: list[list[str]] = [[] for _ in range(players)]
        chosen = {"scoring": scoring} if scoring is not None else {}  # None: a ruleset without the option
        super().__init__(game, game.ruleset(players, {**chosen, **(options or {})}), seed)
        if trim:
            self.trim()
        if not coup:
            self.pass_coup()
        if play:
            self.skip_to_play()

    # -- the LocalTable hooks ------------------------------------------------------------------

    def feed(self, event) -> None:
        # Keep every event's notes and log lines, and each seat's private lines (with what it can
        # see then): tests look at what an event did and said, and to whom.
        before = self.state
        super().feed(event)
        names = NAMES[: self.players]
        self.notes.extend(self.state.notes)
        self.lines.extend(self.shown.narrate(before, event, self.state, names))
        for seat, lines in enumerate(self.private):
            lines.extend(self.shown.narrate_private(before, event, self.state, seat, self.view(seat), names))

    def _seed(self) -> bytes:
        if self.state.phase == "seating":
            return seating_seed(self.wanted)
        return super()._seed()  # pragma: no cover - the only chance step is the seating

    def _stacked_order(self, operation: NewDeal):
        if not self.stacks:
            return None
        order, self.named = self.stacks.pop(0)
        return order

    # -- setting positions up ------------------------------------------------------------------

    @property
    def table(self):
        return self.state.tables[0]

    def trim(self) -> None:
        """Move every card the stacked deal didn't name from the hands to the Court Hand."""
        seats = self.table.seats
        for position, player in enumerate(seats):
            wanted = list(self.named[position]) if position < len(self.named) else []
            keep = []
            for slot in self.state.hands[player]:
                name = self.truth[slot]
                if name in wanted:
                    wanted.remove(name)
                    keep.append(slot)
                else:
                    self.table.court.append(slot)
            self.state.hands[player] = keep

    def pass_coup(self) -> None:
        while self.table.phase == "coup":
            self.act(self.table.asking[0], Pass())

    def skip_to_play(self) -> None:
        """Skip the Beginning of Quarter privileges: the Queen leads now (a test shortcut), as
        after the last privilege (no privilege under way)."""
        self.table.privilege = -1
        self.table.actor = -1
        tricks.lead(self.state, self.table, self.table.seats[0])

    def pass_privileges(self) -> None:
        """Every Beginning of Quarter privilege declined (the Tea Boy serves and keeps)."""
        while self.table.phase in ("give", "inspect", "serve", "trade", "hoard", "plague"):
            seat = self.table.actor
            phase = self.table.phase
            if phase == "serve":
                self.act(seat, self.legal(seat)[0])
            elif phase == "trade":
                self.do(seat, "keep")
            elif phase == "hoard":
                self.do(seat, "leave")
            else:
                self.do(seat, "pass")

    # -- naming cards --------------------------------------------------------------------------

    def name(self, slot: int) -> str:
        return self.truth[slot]

    def hand(self, seat: int) -> list[str]:
        """``seat``'s cards by face, in order."""
        faces = [FACE[self.truth[slot]] for slot in self.state.hands[seat]]
        return sorted(faces, key=lambda face: FACE_ORDER[face])

    def slot(self, seat: int, face: str) -> int:
        """A slot of ``seat``'s hand holding a card of ``face``."""
        for slot in sorted(self.state.hands[seat]):
            if FACE[self.truth[slot]] == face:
                return slot
        raise KeyError(f"{NAMES[seat]} holds no {face}")

    def slots(self, seat: int, faces: Iterable[str]) -> tuple[int, ...]:
        chosen: list[int] = []
        for face in faces:
            slot = next(
                s for s in sorted(self.state.hands[seat]) if FACE[self.truth[s]] == face and s not in chosen
            )
            chosen.append(slot)
        return tuple(sorted(chosen))

    def faces(self, slots: Iterable[int]) -> list[str]:
        return sorted((FACE[self.truth[slot]] for slot in slots), key=lambda face: FACE_ORDER[face])

    # -- moves as text -------------------------------------------------------------------------

    def legal(self, seat: int) -> list:
        return self.game.legal_actions(self.state, seat, self.view(seat))

    def texts(self, seat: int) -> list[str]:
        return [
            self.shown.describe_action(self.state, seat, action, self.view(seat), NAMES[: self.players])
            for action in self.legal(seat)
        ]

    def do(self, seat: int, text: str) -> None:
        """``seat`` makes the legal move described by ``text`` (as a player would type it)."""
        texts = self.texts(seat)
        assert text in texts, f"{NAMES[seat]} can't {text!r}; legal: {texts}"
        self.act(seat, self.legal(seat)[texts.index(text)])

    def actor(self) -> int:
        step = self.step()
        if isinstance(step, Turn):
            return step.actors[0]
        assert isinstance(step, ReactionWindow), step
        return step.players[0]

    def passes(self, *seats: int) -> None:
        for seat in seats:
            assert self.actor() == seat, f"{NAMES[self.actor()]} acts, not {NAMES[seat]}"
            self.do(seat, "pass")

    def story(self) -> str:
        return "\n".join(self.lines)
