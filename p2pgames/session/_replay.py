"""Replaying a transcript: the table after each log entry, as a seat saw it then, or with every
card the deals' audits showed (``p2pgames replay``, README "Looking back").

A seat's view needs no secret of that seat. The log says, slot by slot, whose lock keys were
published and whose were sealed to whom (the sealed keys themselves stay secret), so it says
which slots each seat could read after each entry; and a finished game's audits publish every
key, so its transcript holds every card's value. A seat's knowledge at entry ``n`` is then the
value of each slot it could read then — what its screen showed. Only a game cut short before
an audit keeps some cards back: those stay face down here, and :attr:`Replay.unseen` says how
many of the writer's own cards that leaves out. (One more case it does not follow: a card shown
to a seat by the released escrow shares of a seat rebuilt from its escrow, §B16 step 4.)

Pure: bytes in, states out. Entries are applied as :func:`verify_transcript` applies them
(signatures checked); the first entry that can't be applied ends the replay, and
:attr:`Replay.stopped` says why — ``p2pgames verify`` says whose fault that is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from p2pgames.crypto import BadCardValue, CryptoError
from p2pgames.engine import EngineError, Event, Game, GameState
from p2pgames.session._deals import DealCrypto, PassProblem
from p2pgames.session._faults import ProtocolFault
from p2pgames.session._messages import MalformedMessage, open_envelope
from p2pgames.session._replica import Replica, SeatInfo, display_names
from p2pgames.session._transcript import CutShort, TranscriptError, iter_records, read_header

if TYPE_CHECKING:
    from p2pgames.engine import Presentation

__all__ = ["Replay", "ReplayStep", "public_values", "replay_transcript"]


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """The table after one log entry (``entry`` −1: the start, before any).

    ``events`` are the engine's ``(before, event, after)`` of the entry, for its narration;
    ``readable`` is, by seat, the live slots that seat could read once the entry was applied."""

    entry: int
    state: GameState
    events: tuple[tuple[GameState, Event, GameState], ...]
    readable: tuple[frozenset[int], ...]


@dataclass
class Replay:
    """A transcript's game, entry by entry (see the module docstring)."""

    game: Game
    shown: Presentation  # how the game is shown: its lines, its rounds, its panels
    names: list[str]
    seat: int | None  # whose transcript it is (None: the header names no seat)
    steps: list[ReplayStep]
    values: dict[int, str] = field(default_factory=dict)  # every slot's card the log shows
    stopped: str | None = None  # why the replay ends before the file does
    cut_short: bool = False  # the file ends inside a record

    @property
    def entries(self) -> int:
        """The log entries replayed."""
        return len(self.steps) - 1

    def knowledge(self, index: int, seat: int | None) -> dict[int, str]:
        """What ``seat`` knew after step ``index``: each slot it could read, with its card (where
        the log shows it); with ``seat`` None, every card of the table the log shows."""
        step = self.steps[index]
        if seat is None:
            return {slot: self.values[slot] for slot in _live_slots(step.state) if slot in self.values}
        return {slot: self.values[slot] for slot in sorted(step.readable[seat]) if slot in self.values}

    def unseen(self, index: int, seat: int) -> int:
        """How many slots ``seat`` could read after step ``index`` whose card the log never shows
        (a game cut short before their audit)."""
        return sum(1 for slot in self.steps[index].readable[seat] if slot not in self.values)

    def lines(self, index: int) -> list[str]:
        """What step ``index``'s entry narrated, as everyone's log showed it."""
        return [line for before, event, after in self.steps[index].events
                for line in self.shown.narrate(before, event, after, self.names)]

    def private_lines(self, index: int, seat: int) -> list[str]:
        """What step ``index``'s entry told ``seat`` alone (its own cards), as its log showed it."""
        knowledge = self.knowledge(index, seat)
        return [line for before, event, after in self.steps[index].events
                for line in self.shown.narrate_private(before, event, after, seat, knowledge, self.names)]

    def round_of(self, index: int) -> str | None:
        """The round (quarter, turn: as the game names it) the table is in after step ``index``."""
        return self.shown.round_label(self.steps[index].state)

    # -- stepping: each takes a step's index and gives the one to show next ----------------------

    def next_move(self, index: int) -> int:
        """The next step whose entry narrated something (a move, a card shown), else the last."""
        return next((later for later in range(index + 1, len(self.steps)) if self._narrates(later)), len(self.steps) - 1)

    def previous_move(self, index: int) -> int:
        """The step before ``index`` whose entry narrated something, else the start."""
        return next((earlier for earlier in range(index - 1, 0, -1) if self._narrates(earlier)), 0)

    def next_round(self, index: int) -> int:
        """The first step of the next round (as :meth:`round_of` names them), else the last."""
        now = self.round_of(index)
        return next((later for later in range(index + 1, len(self.steps)) if self.round_of(later) != now),
                    len(self.steps) - 1)

    def previous_round(self, index: int) -> int:
        """The first step of this round, or of the one before if ``index`` is its first."""
        if index > 0 and self.round_of(index - 1) != self.round_of(index):
            index -= 1  # at a round's first step: back to the round before's first
        now = self.round_of(index)
        while index > 0 and self.round_of(index - 1) == now:
            index -= 1
        return index

    def step_of_entry(self, entry: int) -> int:
        """The step that shows the table after log entry ``entry``; raises :class:`ValueError`
        naming the entries there are if the replay holds no such entry."""
        if not 0 <= entry < self.entries:
            there = "the log holds no entry" if not self.entries else f"the log's entries are 0 to {self.entries - 1}"
            raise ValueError(f"there is no entry {entry}: {there}")
        return entry + 1

    def _narrates(self, index: int) -> bool:
        return any(self.shown.narrate(before, event, after, self.names) for before, event, after in self.steps[index].events)


def _live_slots(state: GameState) -> list[int]:
    return [slot for record in state.cards.deals.values() for slot in range(record.first_slot, record.first_slot + record.size)]


def _readable(deals: Sequence[DealCrypto], seat: int) -> frozenset[int]:
    """The live slots ``seat`` can read: every other holder's key of it published or sealed to it."""
    found = []
    for crypto in deals:
        for index in range(crypto.size):
            if all(holder == seat or holder in crypto.published[index]
                   or any(sealed.sender == holder and sealed.to == seat for sealed in crypto.sealed[index])
                   for holder in crypto.holders):
                found.append(crypto.first_slot + index)
    return frozenset(found)


def public_values(deals: Iterable[DealCrypto]) -> dict[int, str]:
    """Every slot's card that the log shows: every slot of an audited deal, and each slot whose
    every key was published."""
    values: dict[int, str] = {}
    for crypto in deals:
        if crypto.next_pass() is not None:
            continue  # a deal voided before it was locked (§B16 step 5) shows nothing
        if crypto.audited:
            try:
                values.update(crypto.all_values())
                continue
            except (BadCardValue, CryptoError, KeyError):
                pass  # a cheat's deal: its audit named whom; the public slots still read
        for index in range(crypto.size):
            if len(crypto.published[index]) == len(crypto.holders):
                try:
                    values[crypto.first_slot + index] = crypto.value_if_public(index)
                except (PassProblem, BadCardValue, CryptoError):
                    pass
    return values


def replay_transcript(data: bytes, presentation_loader: Callable[[str], Presentation]) -> Replay:
    """Replay the transcript ``data`` entry by entry (see the module docstring), shown by
    ``presentation_loader(name)``, the presentation of the game called ``name`` (and its rules).

    Raises :class:`TranscriptError` if the file is no transcript, names a game that isn't
    installed or its start record can't be read; anything later that stops the replay is
    reported in :attr:`Replay.stopped`.
    """
    records = iter_records(data)
    header = read_header(records)  # (a file cut inside it is no transcript: CutShort says so)
    try:
        shown = presentation_loader(str(header.get("game")))
    except KeyError as error:
        raise TranscriptError(str(error)) from None
    seat = header.get("seat")
    replica: Replica | None = None
    replay: Replay | None = None
    deals: dict[int, DealCrypto] = {}  # every deal the log set up, retired ones too (their audits)
    last_dealt: tuple = ()  # the live deals when what each seat can read was last worked out
    try:
        for kind, value in records:
            if kind == "start":
                if replica is not None:
                    raise TranscriptError("the file holds two start records")
                try:
                    start = open_envelope(value)
                    seats = [SeatInfo.decode(item) for item in start.body["seats"]]
                    start.verify(seats[0].key)
                    ruleset = shown.rules.decode_ruleset(start.body["ruleset"])
                    game = shown.rules.for_ruleset(ruleset)
                    shown = shown.for_ruleset(ruleset)
                    replica = Replica(game, ruleset, start.body["game_id"], seats, start.digest)
                except (MalformedMessage, CryptoError, EngineError, KeyError, IndexError, TypeError, ValueError) as error:
                    raise TranscriptError(f"the start record is not valid: {error}") from None
                names = display_names(seats)
                if type(seat) is not int or not 0 <= seat < len(seats):
                    seat = None
                empty = tuple(frozenset() for _ in seats)
                replay = Replay(game, shown, names, seat, [ReplayStep(-1, replica.state, (), empty)])
            elif kind == "entry" and replay is not None and replica is not None and replay.stopped is None:
                number = replica.seq
                try:
                    applied = replica.apply_entry(value)
                except ProtocolFault as problem:
                    replay.stopped = f"entry {number} can't be replayed: {problem.fault.reason}"
                    continue
                for crypto in replica.deals.values():
                    deals[crypto.deal] = crypto  # (a deal set up again replaces its voided self)
                # Only a key moving or a deal set up or retired changes what a seat can read: the
                # steps between share it (a long game's steps would otherwise hold a set apiece).
                live = list(replica.deals.values())
                dealt = tuple((crypto.deal, id(crypto)) for crypto in live)
                if applied.key_slots or dealt != last_dealt:
                    readable = tuple(_readable(live, other) for other in range(replica.players))
                    last_dealt = dealt
                else:
                    readable = replay.steps[-1].readable
                replay.steps.append(ReplayStep(number, replica.state, tuple(applied.events), readable))
    except CutShort:
        if replay is not None:
            replay.cut_short = True
    if replay is None:
        raise TranscriptError("the file has no start record: the game never began")
    replay.values = public_values(deals.values())
    return replay

