"""Cards as *slots* of a secret deal, and the card operations a game asks the table to carry out.

A deal turns a list of uniquely named cards into slots whose order nobody knows. The public state
records which zone each slot is in (that is the game's business) and the values of slots revealed to
everyone (kept here, in :class:`CardState`). Which player may see which slot is private knowledge,
held outside the public state by each peer.

A game never learns a hidden value by itself: it *queues* operations (deal, reveal, disclose to one
player, re-shuffle a sub-pile, audit) and the game's ``step()`` then asks for them with
:class:`CardOperations`. Whoever drives the game (the session between peers, or :class:`LocalTable`
in one process) performs them and answers with one :class:`CardsDone` event carrying the values of
every slot that became public.

Rules that constrain hidden choices are recorded as :class:`Claim` s. Once every slot a claim is
about is public (at the latest at the deal's audit) the game checks it, and a false claim is a
:class:`RuleViolation` by the claimer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from p2pgames.engine._errors import EngineError, EventMismatch

__all__ = [
    "NewDeal",
    "Reshuffle",
    "Reveal",
    "Disclose",
    "Audit",
    "CardOperation",
    "Claim",
    "DealRecord",
    "CardState",
]


@dataclass(frozen=True, slots=True)
class NewDeal:
    """Shuffle and lock the named cards into slots ``first_slot … first_slot + len(cards) - 1``.

    Names are unique within a deal (equal cards would show as equal ciphertexts). ``holders`` are
    the seats that shuffle and lock it, in seat order (empty: every seat): a table's own players,
    when several tables play at once.
    """

    deal: int
    cards: tuple[str, ...]
    first_slot: int
    holders: tuple[int, ...] = ()

    def encode(self) -> list:
        return ["deal", self.deal, list(self.cards), self.first_slot, list(self.holders)]


@dataclass(frozen=True, slots=True)
class Reshuffle:
    """Give the cards now in ``source_slots`` a fresh secret order, in new slots from ``first_slot``.

    The source slots stop existing for play; the new slots form deal ``deal``.
    """

    deal: int
    source_slots: tuple[int, ...]
    first_slot: int
    holders: tuple[int, ...] = ()

    def encode(self) -> list:
        return ["reshuffle", self.deal, list(self.source_slots), self.first_slot, list(self.holders)]


@dataclass(frozen=True, slots=True)
class Reveal:
    """Make the values of ``slots`` known to everyone (they arrive in :class:`CardsDone`)."""

    slots: tuple[int, ...]

    def encode(self) -> list:
        return ["reveal", list(self.slots)]


@dataclass(frozen=True, slots=True)
class Disclose:
    """Let player ``to`` see ``slots`` (receiving a card, peeking, a card passed on).

    ``remask``: the slots are ``to``'s own cards re-masked (:meth:`CardState.remask`), which it
    has seen before: nothing new to tell it.
    """

    slots: tuple[int, ...]
    to: int
    remask: bool = False

    def encode(self) -> list:
        # A plain disclosure keeps the three-item form it always had.
        return ["disclose", list(self.slots), self.to, *([True] if self.remask else [])]


@dataclass(frozen=True, slots=True)
class Audit:
    """End of the deals: every key is published, every slot's value becomes public, claims checked."""

    deals: tuple[int, ...]

    def encode(self) -> list:
        return ["audit", list(self.deals)]


CardOperation = NewDeal | Reshuffle | Reveal | Disclose | Audit


def decode_operation(data: Any) -> CardOperation:
    kind = data[0]
    if kind == "deal":
        return NewDeal(int(data[1]), tuple(data[2]), int(data[3]), tuple(data[4]))
    if kind == "reshuffle":
        return Reshuffle(int(data[1]), tuple(data[2]), int(data[3]), tuple(data[4]))
    if kind == "reveal":
        return Reveal(tuple(data[1]))
    if kind == "disclose":
        return Disclose(tuple(data[1]), int(data[2]), len(data) > 3 and data[3] is True)
    if kind == "audit":
        return Audit(tuple(data[1]))
    raise ValueError(f"unknown card operation {kind!r}")


@dataclass(frozen=True, slots=True)
class Claim:
    """``player`` asserted something about hidden ``slots`` that can only be checked later.

    ``kind`` and ``detail`` (a canonical value) mean whatever the game says; the game's
    ``check_claim`` decides whether the claim held once the slots' values are public.
    """

    player: int
    kind: str
    slots: tuple[int, ...]
    detail: Any = None

    def encode(self) -> list:
        return [self.player, self.kind, list(self.slots), self.detail]

    @classmethod
    def decode(cls, data: Any) -> "Claim":
        player, kind, slots, detail = data
        return cls(int(player), str(kind), tuple(slots), detail)


@dataclass(frozen=True, slots=True)
class DealRecord:
    """One deal: fresh ``cards`` (by name) or a re-shuffle of ``source_slots``, among ``holders``
    (empty: every seat)."""

    deal: int
    first_slot: int
    size: int
    cards: tuple[str, ...] | None
    source_slots: tuple[int, ...] | None
    holders: tuple[int, ...] = ()

    def encode(self) -> list:
        return [
            self.deal,
            self.first_slot,
            self.size,
            None if self.cards is None else list(self.cards),
            None if self.source_slots is None else list(self.source_slots),
            list(self.holders),
        ]

    @classmethod
    def decode(cls, data: Any) -> "DealRecord":
        deal, first_slot, size, cards, source, holders = data
        return cls(
            deal,
            first_slot,
            size,
            None if cards is None else tuple(cards),
            None if source is None else tuple(source),
            tuple(holders),
        )


class CardState:
    """The public side of a game's deals (those not retired): slots, public values, queued
    operations, claims.

    A game keeps one ``CardState`` inside its state, calls the queueing methods from its rules, and
    lets :meth:`complete` absorb the :class:`CardsDone` answer. Mutable; :meth:`copy` is cheap and
    ``apply`` copies before changing anything.
    """

    __slots__ = ("deals", "next_deal", "next_slot", "revealed", "pending", "claims", "audited")

    def __init__(self) -> None:
        # The deals not retired, by number; ``next_deal`` counts every deal of the game, retired
        # or not (the number the next one gets).
        self.deals: dict[int, DealRecord] = {}
        self.next_deal = 0
        self.next_slot = 0
        self.revealed: dict[int, str] = {}
        self.pending: list[CardOperation] = []
        self.claims: list[Claim] = []
        self.audited: set[int] = set()

    # -- copying and encoding ------------------------------------------------------------------

    def copy(self) -> "CardState":
        other = CardState.__new__(CardState)
        other.deals = dict(self.deals)
        other.next_deal = self.next_deal
        other.next_slot = self.next_slot
        other.revealed = dict(self.revealed)
        other.pending = list(self.pending)
        other.claims = list(self.claims)
        other.audited = set(self.audited)
        return other

    def encode(self) -> dict:
        return {
            "deals": [self.deals[deal].encode() for deal in sorted(self.deals)],
            "next_deal": self.next_deal,
            "next_slot": self.next_slot,
            "revealed": [[slot, self.revealed[slot]] for slot in sorted(self.revealed)],
            "pending": [operation.encode() for operation in self.pending],
            "claims": [claim.encode() for claim in self.claims],
            "audited": sorted(self.audited),
        }

    @classmethod
    def decode(cls, data: Mapping[str, Any]) -> "CardState":
        state = cls()
        for item in data["deals"]:
            record = DealRecord.decode(item)
            state.deals[record.deal] = record
        state.next_deal = int(data["next_deal"])
        state.next_slot = int(data["next_slot"])
        state.revealed = {int(slot): str(value) for slot, value in data["revealed"]}
        state.pending = [decode_operation(item) for item in data["pending"]]
        state.claims = [Claim.decode(item) for item in data["claims"]]
        state.audited = set(data["audited"])
        return state

    # -- queries -------------------------------------------------------------------------------

    def deal_of(self, slot: int) -> DealRecord:
        # Newest first: a game mostly asks about recent deals (hands re-masked turn after turn).
        for record in reversed(self.deals.values()):
            if record.first_slot <= slot < record.first_slot + record.size:
                return record
        raise EngineError(f"slot {slot} belongs to no deal")

    def slots_of(self, deal: int) -> range:
        record = self.deals[deal]
        return range(record.first_slot, record.first_slot + record.size)

    def value(self, slot: int) -> str | None:
        """The public value of ``slot``, or ``None`` while it is hidden."""
        return self.revealed.get(slot)

    def disclosed_to(self, seat: int) -> tuple[int, ...]:
        """The slots the pending operations show to ``seat`` alone, in order (a card passed to
        it, drawn, dealt): what a :class:`CardsDone` that ends them lets it see. A re-mask's
        slots are left out: they are cards the seat held already."""
        return tuple(
            slot for operation in self.pending
            if isinstance(operation, Disclose) and operation.to == seat and not operation.remask
            for slot in operation.slots
        )

    # -- queueing operations (called by game rules) -------------------------------------------

    def new_deal(self, cards: Iterable[str], holders: Iterable[int] = ()) -> range:
        """Queue a fresh deal of ``cards``; returns its slots (deal order, top of deck first).

        ``holders`` (seats, any order; empty for every seat) are the seats that shuffle and lock
        it: a table's players when several tables play at once. Others can still be shown its
        cards. Consecutive deals queued together are dealt at the same time.
        """
        names = tuple(cards)
        if len(set(names)) != len(names):
            raise EngineError("card names within a deal must be unique")
        seats = tuple(sorted(set(holders)))
        deal = self.next_deal
        self.next_deal += 1
        first = self.next_slot
        self.deals[deal] = DealRecord(deal, first, len(names), names, None, seats)
        self.next_slot += len(names)
        self.pending.append(NewDeal(deal, names, first, seats))
        return range(first, first + len(names))

    def reshuffle(self, source_slots: Iterable[int]) -> range:
        """Queue a re-shuffle of ``source_slots``; returns the new slots.

        The sources must all come from deals with the same holders, who hold this one too.
        """
        source = tuple(source_slots)
        holder_sets = {self.deal_of(slot).holders for slot in source}
        if len(holder_sets) > 1:
            raise EngineError("a re-shuffle can't mix cards of deals held by different seats")
        seats = holder_sets.pop() if holder_sets else ()
        deal = self.next_deal
        self.next_deal += 1
        first = self.next_slot
        self.deals[deal] = DealRecord(deal, first, len(source), None, source, seats)
        self.next_slot += len(source)
        self.pending.append(Reshuffle(deal, source, first, seats))
        return range(first, first + len(source))

    def remask(self, slots: Iterable[int], owner: int) -> range:
        """Queue a re-mask of ``owner``'s cards in ``slots``: a re-shuffle into new slots, each then
        shown to ``owner`` alone. Returns the new slots, which replace ``slots`` in the game's zone.

        Use it before ``owner`` may move one of these cards to where some seat can't see it (face
        down, or to another hand), when a seat other than ``owner`` knows one of them (it was
        public, or shown to that seat): afterwards nobody but ``owner`` can tell which new slot
        holds which card, as at a table where a hand is held in a fan. The cards of ``slots`` must
        come from deals with the same holders (as for :meth:`reshuffle`); the new deal is audited
        with its sources.
        """
        fresh = self.reshuffle(slots)
        self.pending.append(Disclose(tuple(fresh), owner, remask=True))
        return fresh

    def remask_hand(self, hand: list[int], owner: int) -> int | None:
        """:meth:`remask` ``owner``'s whole ``hand`` (a game's list of slots, which the new slots
        replace in place); the re-mask's deal number, or ``None`` for an empty hand (nothing to
        re-mask, nothing queued)."""
        if not hand:
            return None
        hand[:] = self.remask(hand, owner)
        return self.next_deal - 1

    def reveal(self, slots: Iterable[int]) -> None:
        hidden = tuple(slot for slot in slots if slot not in self.revealed)
        if hidden:
            self.pending.append(Reveal(hidden))

    def disclose(self, slots: Iterable[int], to: int) -> None:
        hidden = tuple(slot for slot in slots if slot not in self.revealed)
        if hidden:
            self.pending.append(Disclose(hidden, to))

    def audit(self, deals: Iterable[int]) -> None:
        """Queue the audit of ``deals``; a re-shuffled deal must be audited with its sources."""
        wanted = tuple(sorted(set(deals)))
        covered = set(wanted) | self.audited
        for deal in wanted:
            record = self.deals[deal]
            if record.source_slots is not None:
                for slot in record.source_slots:
                    if self.deal_of(slot).deal not in covered:
                        raise EngineError(
                            f"deal {deal} re-shuffled cards of deal {self.deal_of(slot).deal}, "
                            "which must be audited with it"
                        )
        self.pending.append(Audit(wanted))

    def claim(self, claim: Claim) -> None:
        self.claims.append(claim)

    # -- completing operations (called from apply on CardsDone) -------------------------------

    def expected_values(self) -> set[int]:
        """The slots whose values the pending operations make public."""
        wanted: set[int] = set()
        for operation in self.pending:
            if isinstance(operation, Reveal):
                wanted.update(operation.slots)
            elif isinstance(operation, Audit):
                for deal in operation.deals:
                    wanted.update(self.slots_of(deal))
        wanted.difference_update(self.revealed)
        return wanted

    def complete(self, values: Mapping[int, str]) -> list[Claim]:
        """Absorb the values of a :class:`CardsDone`; returns the claims that are now checkable.

        Raises :class:`EventMismatch` if nothing was pending, a value is missing or unasked for,
        or a value is not a card of its deal (or repeats a card already seen in that deal).
        """
        if not self.pending:
            raise EventMismatch("no card operations are pending")
        wanted = self.expected_values()
        given = set(values)
        if given != wanted:
            missing = sorted(wanted - given)
            extra = sorted(given - wanted)
            raise EventMismatch(f"card values don't match the operations (missing {missing}, extra {extra})")
        self._check_values(values)
        self.revealed.update(values)
        for operation in self.pending:
            if isinstance(operation, Audit):
                self.audited.update(operation.deals)
        self.pending.clear()
        ready = [claim for claim in self.claims if all(s in self.revealed for s in claim.slots)]
        if ready:
            self.claims = [claim for claim in self.claims if claim not in ready]
        return ready

    def _check_values(self, incoming: Mapping[int, str]) -> None:
        """Each value must be a card of its slot's deal, and no card may show twice in a deal."""
        by_deal: dict[int, list[tuple[int, str]]] = {}
        for slot, name in incoming.items():
            by_deal.setdefault(self.deal_of(slot).deal, []).append((slot, name))
        for deal, items in by_deal.items():
            record = self.deals[deal]
            allowed = set(record.cards) if record.cards is not None else set(self._names_behind(record))
            seen = {
                self.revealed[slot]: slot
                for slot in range(record.first_slot, record.first_slot + record.size)
                if slot in self.revealed
            }
            for slot, name in items:
                if name not in allowed:
                    raise EventMismatch(f"{name!r} is not a card of deal {deal}")
                if seen.get(name, slot) != slot:
                    raise EventMismatch(f"card {name!r} appears twice in deal {deal}")
                seen[name] = slot

    def _names_behind(self, record: DealRecord) -> Iterable[str]:
        # The cards a re-shuffled deal can hold: those of the fresh deals its source slots came
        # from, through any chain of re-shuffles (each deal visited once: hands re-masked turn
        # after turn make long chains).
        names: set[str] = set()
        visited = {record.deal}
        pending = [record]
        while pending:
            current = pending.pop()
            if current.cards is not None:
                names.update(current.cards)
                continue
            for slot in current.source_slots or ():
                source = self.deal_of(slot)
                if source.deal not in visited:
                    visited.add(source.deal)
                    pending.append(source)
        return names

    def retire(self, deal: int) -> None:
        """Forget an audited deal (the game no longer refers to its slots): its record, its slots'
        values and its place in ``audited`` leave the state, so that a long game's state (and the
        cost of hashing it, every event) stays as small as its deals in play."""
        if deal not in self.audited:
            raise EngineError(f"deal {deal} can't be retired before its audit")
        for slot in self.slots_of(deal):
            self.revealed.pop(slot, None)
        del self.deals[deal]
        self.audited.discard(deal)
