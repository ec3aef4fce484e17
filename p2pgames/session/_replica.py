"""The replica: the public, deterministic state of a game's log, and every check on it.

Every peer (host and joiners) and the offline verifier run one :class:`Replica` over the same
ordered log of entries and so reach the same states, the same hashes and the same verdicts. It
holds no secret: private keys and knowledge live in :class:`~p2pgames.session.SeatSecrets`.

The log is a chain of *entries*. The host (the sequencer) wraps each *submission* — a message
signed by its author — with a sequence number and the previous entry's hash, and signs that. The
replica decides, from the game's current step, who may submit what:

===================  ==============================================================================
game step            submissions expected
===================  ==============================================================================
Turn / Reaction      ``act`` from one of the seats the step lists
Simultaneous         ``commit`` from each listed seat, then ``open`` from each (value = the action)
Sealed               ``commit`` from each listed seat; the commitments are kept (:class:`SealedSet`)
Unseal               ``open`` from each seat of the kept set, for its phase id (value = the action)
Chance               ``commit`` from every seat, then ``open`` (value = 32 random bytes)
CardOperations       per operation: the deal's passes in seat order; one ``keys`` from every seat
                     holding a key that must be published or sealed; one ``audit`` from every seat
===================  ==============================================================================

A ``dispute`` may interrupt a deal: the accuser says a slot it was given does not decrypt; every
seat then publishes its audit keys at once (after a keys round revealing what a rebuilt seat's
escrow still keeps in those deals, §B16) and the audit names whoever was wrong (the accuser, if
nobody else was).

An ``open-seat`` submission, at any point, is one seat's consent that another seat — gone, and
holding nothing secret — be played by a bot from now on. Once every other seat still playing has
consented, the seat is *open*: its *caretaker* (the host) submits its decisions, signed with the
caretaker's key; it contributes to no random draw, holds no key of a later deal, sees the cards
dealt to it face up (every key published), and nobody waits for its acknowledgements. A seat
leaving of its own accord opens its own seat with one ``hand-over``: it publishes every key it
holds of a deal not yet audited (its hand is then everyone's to see) and, if it is in the sealed
set, what opens its sealed choice. A seat that vanished while holding keys is opened with its
keys *rebuilt* (§B16): every seat escrows the secret its keys derive from among the others
(``escrow``), and a ``rebuild`` consent carries the consenting seat's share; with every share in,
everyone adds them up, derives the seat's keys, checks and publishes them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

from p2pgames.crypto import (
    COMMITMENT_SIZE,
    CURVE_ORDER,
    BadCardValue,
    BadCommitment,
    BadSignature,
    CardTable,
    CryptoError,
    PublicKey,
    elgamal,
    SealKey,
    check_opening,
    check_share,
    combine_contributions,
    combine_keys,
    escrow_commitments,
    lock_pass,
    merkle_path_fits,
    rekey_pass,
    scalar_from_bytes,
    shuffle_lock_pass,
    shuffle_pass,
    sealed_commitment,
    unlock,
)
from p2pgames.engine import (
    Act,
    Audit,
    CardOperations,
    CardsDone,
    Chance,
    ChanceOutcome,
    ChoicesSealed,
    Disclose,
    EngineError,
    Event,
    EventMismatch,
    Game,
    GameOver,
    IllegalAction,
    MalformedAction,
    NewDeal,
    ReactionWindow,
    Reshuffle,
    Reveal,
    Ruleset,
    RuleViolation,
    Sealed,
    Simultaneous,
    SimultaneousActs,
    Step,
    Turn,
    Unseal,
)
from p2pgames.session._deals import (
    LOCKING_STAGES,
    DealCrypto,
    PassProblem,
    SealedKey,
    SeatAuditKeys,
    bad_point,
)
from p2pgames.session._escrows import (
    COMMITMENT_SIZE as SHARE_COMMITMENT_SIZE,
    ESCROW,
    MAX_SEED_BOX,
    MAX_SHARE_BOX,
    REBUILD,
    LOCK_ESCROW,
    EscrowRecord,
    LockEscrowRecord,
    deal_keys,
    open_lock_shares,
    open_released_share,
    open_share,
)
from p2pgames.session._elgamal_deals import (
    AuditShares,
    ElGamalDeal,
    ProvenShare,
    pass_randomness,
    SealedShare,
    sealed_share_context,
    sealed_share_problem,
    shares_context,
)
from p2pgames.session._elgamal_keys import (
    KeyEscrow,
    key_context,
    open_key_share,
    opened_part,
    pass_seed,
    released_share_holds,
)
from p2pgames.session._faults import Fault, FaultCode, ProtocolFault
from p2pgames.session._messages import Envelope, MalformedMessage, clean_text, open_envelope
from p2pgames.session._sealed_keys import sealed_key_problem, sealing_context
from p2pgames.words import with_article

__all__ = [
    "Replica",
    "SeatInfo",
    "seats_problem",
    "Submission",
    "Applied",
    "KeysRequirement",
    "SealedSet",
    "CHOICE_DOMAIN",
    "RANDOM_DOMAIN",
    "HOST_SEAT",
    "OPEN_SEAT",
    "HAND_OVER",
    "TAKE_OVER",
    "FORFEIT",
    "ESCROW",
    "LOCK_ESCROW",
    "REBUILD",
    "RELEASE",
]

# Faults that signed evidence can prove to anyone (see Replica.confirm).
PROVABLE = frozenset({
    FaultCode.ILLEGAL, FaultCode.MALFORMED, FaultCode.BAD_OPENING, FaultCode.BAD_KEY,
    FaultCode.BAD_PASS, FaultCode.BAD_SIGNATURE, FaultCode.EQUIVOCATION, FaultCode.BAD_ESCROW,
})
# What Replica.confirm says of evidence about another point of the log than ours (a submission
# with an earlier or later counter): it proves nothing either way here.
STALE_EVIDENCE = "the evidence is about another point of the log"
# The host's faults an entry it signed proves when it contradicts the log (§B11 case 3): a second
# entry for one number or a link elsewhere (bad-sequence), another game's entry linked in (replay).
CHAIN_BREAKS = frozenset({FaultCode.BAD_SEQUENCE, FaultCode.REPLAY})
CHOICE_DOMAIN = "choice"
RANDOM_DOMAIN = "random"
RELEASE = "release"
HOST_SEAT = 0
OPEN_SEAT = "open-seat"
HAND_OVER = "hand-over"
TAKE_OVER = "take-over"
FORFEIT = "forfeit"
# The submissions whose author signs the entry that holds them itself (§B15, §B17): it takes the
# table from a host that is gone (and, for a forfeit, ends the game).
SELF_SEQUENCED = frozenset({TAKE_OVER, FORFEIT})
MAX_SEALED_BOX = 32 + 32 + 16 + 64


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """A seat at the table: the player's signing key, sealing key, display name, and bot flag —
    and, at a table that deals with the ElGamal deck (protocol 11, §A4), its deck key and the key
    proof binding it to the signing key."""

    key: PublicKey
    seal: bytes
    name: str
    bot: bool
    deck_key: bytes | None = None
    deck_proof: bytes | None = None

    def encode(self) -> list:
        record = [self.key.raw, self.seal, self.name, self.bot]
        return record if self.deck_key is None else [*record, self.deck_key, self.deck_proof]

    @classmethod
    def decode(cls, data: Sequence[Any]) -> "SeatInfo":
        return cls(PublicKey(data[0]), data[1], data[2], data[3], *data[4:6])

    def deck_key_holds(self) -> bool:
        """Whether the seat's deck key is a point of the group and its proof proves it known by
        the owner of the seat's signing key (§C9.3). Never raises."""
        return self.deck_key is not None and self.deck_proof is not None and elgamal.check_key_proof(
            self.deck_key, self.deck_proof, key_context(self.key.raw)
        )


def seats_problem(seats: Sequence[SeatInfo]) -> str | None:
    """What is wrong with a start's seat records beyond their shape, if anything: some carry a
    deck key and some don't, or a deck key's proof fails (§A4). ``None`` if they are fine."""
    with_keys = [seat.deck_key is not None for seat in seats]
    if any(with_keys) and not all(with_keys):
        return "some seats have a deck key and some don't"
    bad = next((index for index, seat in enumerate(seats) if seat.deck_key is not None and not seat.deck_key_holds()), None)
    return None if bad is None else f"seat {bad}'s deck key is not proven"


def display_names(seats: Sequence[SeatInfo]) -> list[str]:
    """The seats' display names, safe to print (a host's start could carry anything)."""
    return [clean_text(seat.name, 40) or f"seat {index}" for index, seat in enumerate(seats)]


@dataclass(frozen=True, slots=True)
class Submission:
    """A checked submission: its envelope, author seat, counter and body."""

    envelope: Envelope
    seat: int
    counter: int
    body: Mapping[str, Any]

    @property
    def kind(self) -> str:
        return self.body["t"]


@dataclass(slots=True)
class KeysRequirement:
    """What one seat must release in a keys round: slots to publish, and ``(slot, to)`` pairs:
    its key of ``slot`` sealed to seat ``to`` (never for a slot it publishes)."""

    publish: set[int] = field(default_factory=set)
    seal: set[tuple[int, int]] = field(default_factory=set)
    # Its shares of a rebuilt seat's lock keys that key was due to release (§B16), as
    # ``(seat, slot, to)``: published (``to`` None) or sealed to seat ``to`` — in a ``release``.
    shares: set[tuple[int, int, int | None]] = field(default_factory=set)

    def __bool__(self) -> bool:
        return bool(self.publish or self.seal or self.shares)

    @property
    def owes_keys(self) -> bool:
        return bool(self.publish or self.seal)


@dataclass(slots=True)
class Applied:
    """What applying one entry did: the engine events it produced and the slots whose keys moved."""

    seq: int
    entry_digest: bytes
    submission: Submission
    events: list[tuple[Any, Event, Any]] = field(default_factory=list)  # (before, event, after)
    key_slots: list[int] = field(default_factory=list)
    author_verified: bool = True
    author: int = -1  # the seat whose key signed the submission (an open seat's caretaker's)
    retired: dict[int, range] = field(default_factory=dict)  # deals the game retired: their slots


# -- phases: what the log waits for between two engine events ----------------------------------


@dataclass
class DecisionPhase:
    step: Turn | ReactionWindow

    def waiting_for(self) -> tuple[int, ...]:
        return self.step.actors if isinstance(self.step, Turn) else self.step.players


@dataclass
class CommitPhase:
    """Commitments from ``seats``, then their openings. A phase that ``seals`` ends once every
    seat has committed (the set is kept as a :class:`SealedSet`); the :class:`Unseal` step's phase
    starts with those commitments, so it waits only for the openings, under the sealed phase's id.
    """

    purpose: str  # CHOICE_DOMAIN or RANDOM_DOMAIN
    seats: tuple[int, ...]
    phase_id: int
    commitments: dict[int, bytes] = field(default_factory=dict)
    openings: dict[int, Any] = field(default_factory=dict)  # seat -> action or contribution
    seals: bool = False

    @property
    def opening(self) -> bool:
        return len(self.commitments) == len(self.seats)

    def waiting_for(self) -> tuple[int, ...]:
        done = self.openings if self.opening else self.commitments
        return tuple(seat for seat in self.seats if seat not in done)


@dataclass(frozen=True)
class SealedSet:
    """The commitments of a :class:`Sealed` step, kept until the game's :class:`Unseal` step:
    the sealing phase's id (which the commitments, and so their openings, are bound to: §B5), its
    seats in the step's order and each seat's commitment. Part of the replica's state, rebuilt by
    anyone who replays the log."""

    phase_id: int
    seats: tuple[int, ...]
    commitments: Mapping[int, bytes]
    # The game's state at the Sealed step: the choices committed to were its legal actions (the
    # caretaker of a seat rebuilt meanwhile finds its opening among them, §B16).
    state: Any = field(default=None, compare=False, repr=False)


@dataclass
class DealSub:
    """Deals made at the same time: each one's passes go in its own holders' order."""

    deals: tuple[int, ...]


@dataclass
class KeysSub:
    operations: tuple[Reveal | Disclose, ...]
    requirements: dict[int, KeysRequirement] | None = None  # computed when the sub-step starts
    # Who knows each slot once the round is done: fixed when it starts, as U is (§B6.2), so a
    # seat opened during the round changes neither.
    knows_after: dict[int, set[int]] = field(default_factory=dict)
    done: set[int] = field(default_factory=set)  # seats whose ``keys`` are in
    released: set[int] = field(default_factory=set)  # seats whose ``release`` is in (§B16)

    def owing(self) -> tuple[int, ...]:
        """The seats that still owe a ``keys`` or a ``release`` in this round."""
        assert self.requirements is not None
        return tuple(seat for seat, requirement in sorted(self.requirements.items())
                     if (requirement.owes_keys and seat not in self.done)
                     or (requirement.shares and seat not in self.released))


@dataclass
class AuditSub:
    deals: tuple[int, ...]
    submitted: dict[int, dict[int, SeatAuditKeys]] = field(default_factory=dict)  # seat -> deal -> keys
    accuser: int | None = None  # set for a dispute
    slot: int | None = None


@dataclass
class CardPhase:
    operations: tuple[Any, ...]
    phase_id: int
    subs: list[DealSub | KeysSub | AuditSub]
    index: int = 0
    dispute: AuditSub | None = None
    # Before a dispute's audit: the keys round revealing what a rebuilt seat's escrow keeps (§B16).
    dispute_keys: KeysSub | None = None

    @property
    def current(self) -> DealSub | KeysSub | AuditSub | None:
        if self.dispute is not None:
            return self.dispute_keys or self.dispute
        return self.subs[self.index] if self.index < len(self.subs) else None


@dataclass
class OverPhase:
    result: GameOver


Phase = DecisionPhase | CommitPhase | CardPhase | OverPhase


def _plan(operations: Sequence[Any]) -> list[DealSub | KeysSub | AuditSub]:
    """Group card operations into sub-steps: consecutive deals are made together, consecutive
    reveals/disclosures share one keys round."""
    subs: list[DealSub | KeysSub | AuditSub] = []
    for operation in operations:
        if isinstance(operation, (NewDeal, Reshuffle)):
            # Consecutive deals are made at the same time (two tables' decks, say).
            if subs and isinstance(subs[-1], DealSub):
                subs[-1].deals += (operation.deal,)
            else:
                subs.append(DealSub((operation.deal,)))
        elif isinstance(operation, (Reveal, Disclose)):
            if subs and isinstance(subs[-1], KeysSub):
                subs[-1].operations += (operation,)
            else:
                subs.append(KeysSub((operation,)))
        elif isinstance(operation, Audit):
            subs.append(AuditSub(operation.deals))
    return subs


class Replica:
    """Applies log entries, checking each completely before changing anything.

    Raises :class:`ProtocolFault` naming the seat at fault for anything invalid; the replica is then
    unchanged and must not be used for further entries (the session halts).
    """

    def __init__(
        self,
        game: Game,
        ruleset: Ruleset,
        game_id: bytes,
        seats: Sequence[SeatInfo],
        start_digest: bytes,
    ) -> None:
        self.game = game
        self.ruleset = ruleset
        self.game_id = game_id
        self.seats = list(seats)
        self.players = len(seats)
        self.state = game.setup(ruleset)
        self.state_hash = game.state_hash(self.state)
        self.seq = 0
        self.head = start_digest
        # The start's digest, then each linked entry's: entry ``s`` links to ``chain[s]``.
        self.chain = [start_digest]
        # Each linked entry's ``state`` field: its signer's acknowledgement of it (§B8).
        self.entry_states: list[bytes] = []
        self.counters = [0] * self.players
        # Since protocol 11 a table deals with the ElGamal deck: its seat records carry deck keys
        # (§A4, §B6.3); a start of protocol 10 or earlier deals with the P-256 deck (§B6.1).
        self.elgamal = self.seats[0].deck_key is not None
        self.deals: dict[int, Any] = {}  # DealCrypto, or ElGamalDeal at an ElGamal table
        self.audits = 0
        # The commit envelopes of open commit phases (and of the sealed set), kept as evidence
        # should an opening not match.
        self._commit_envelopes: dict[tuple[int, int], bytes] = {}
        # The sealed choices not yet opened (at most one set: the engine contract).
        self.sealed: SealedSet | None = None
        # Open seats (played by their caretaker's bot) by the entry that opened them, and the
        # seats that consented so far to opening each seat proposed.
        self.open_seats: dict[int, int] = {}
        self.open_consents: dict[int, set[int]] = {}
        # What a seat that handed over published: its audit keys by deal, its sealed choice's opening.
        self.handed_over: dict[int, dict[int, SeatAuditKeys]] = {}
        self.handed_opening: dict[int, tuple[bytes, Any]] = {}
        # Each seat's current escrow (§B16); the shares given in ``rebuild`` consents, by the seat
        # to rebuild, then by the giver: (share, its ``sent`` keys, the signed consent); and the
        # escrow secret of each seat rebuilt (its keys derive from it: everyone knows them).
        self.escrows: dict[int, EscrowRecord] = {}
        self.rebuild_shares: dict[int, dict[int, tuple[int, list[tuple[int, int]], list[tuple[int, int]], bytes]]] = {}
        self.rebuilt: dict[int, int] = {}
        # Seats opened to be rebuilt whose escrow's holders have not all given their shares yet.
        self.rebuilding: set[int] = set()
        # Each seat's current escrow of its lock keys in each deal it holds, by (seat, deal).
        self.lock_escrows: dict[tuple[int, int], LockEscrowRecord] = {}
        # The shares of rebuilt seats' lock keys published so far, by (seat, slot), then holder.
        self.released_shares: dict[tuple[int, int], dict[int, int]] = {}
        # Re-shuffles whose source keeps a rebuilt seat's lock on a card it gave: by deal, then
        # position among the sources, (that seat, its stand-in, which takes the lock off).
        self.rekey_stand_ins: dict[int, dict[int, tuple[int, int]]] = {}
        # Who signs the entries: ``(first, seat)`` — from entry ``first`` on, ``seat`` sequences
        # (seat 0 from the start; a host that hands over names its successor, §B15).
        self.sequencers: list[tuple[int, int]] = [(0, HOST_SEAT)]
        # A win by forfeit (§B17): (the seat that claimed it, the seat gone, the entry), once logged.
        self.forfeit: tuple[int, int, int] | None = None
        self.phase: Phase = self._phase_for(game.step(self.state), None)

    # -- queries -------------------------------------------------------------------------------

    @property
    def step(self) -> Step:
        return self.game.step(self.state)

    def waiting_for(self) -> tuple[int, ...]:
        """Seats whose submission the log waits for now."""
        phase = self.phase
        if isinstance(phase, (DecisionPhase, CommitPhase)):
            return phase.waiting_for()
        if isinstance(phase, CardPhase):
            sub = phase.current
            if isinstance(sub, DealSub):
                due = (crypto.next_holder() for crypto in self.deals_under_way(sub))
                passing = {seat for seat in due if seat is not None}
                return tuple(sorted(passing | self._rebuilds_awaited(phase, sub)))
            if isinstance(sub, KeysSub):
                return sub.owing()
            if isinstance(sub, AuditSub):
                return tuple(s for s in self._auditors(sub.deals) if s not in sub.submitted)
        return ()

    @property
    def sequencer(self) -> int:
        """The seat that sequences the log now (signs the next entry): the host."""
        return self.sequencers[-1][1]

    def sequencer_at(self, seq: int) -> int:
        """The seat that signs entry ``seq`` (by the hand-overs of the log so far)."""
        return next(seat for first, seat in reversed(self.sequencers) if first <= seq)

    @property
    def caretaker(self) -> int:
        """The seat that submits an open seat's decisions: the host, which sequences them anyway."""
        return self.sequencer

    def author_of(self, seat: int) -> int:
        """The seat whose key signs ``seat``'s submissions: its own, or its caretaker's once open."""
        return self.caretaker if seat in self.open_seats else seat

    @property
    def playing_seats(self) -> tuple[int, ...]:
        """The seats not open: those that play for themselves, draw randomness and acknowledge."""
        return tuple(seat for seat in range(self.players) if seat not in self.open_seats)

    def open_seat_problem(self, seat: int, *, host_gone: bool = False) -> str | None:
        """Why ``seat`` can't be played by a bot now, in words, or ``None`` if it can: it must hold
        nothing the table needs from it — no key of a deal not yet audited, no committed choice
        not yet opened in a phase that is opening. (A random contribution committed and not opened
        is dropped instead, and so is a choice while some seat has still to commit: its caretaker
        chooses again.) ``host_gone``: judge the host's seat as any other's (a take-over, §B15)."""
        if seat == self.sequencer and not host_gone:
            return "the host's seat can't be played by a bot: the log needs its host"
        problem = self._seat_problem(seat, departed=True)
        if problem is not None:
            return problem
        for crypto in self.unaudited_deals_of(seat):
            return f"it holds keys of deal {crypto.deal}, not yet audited: its cards would stay locked"
        if self.sealed is not None and seat in self.sealed.seats:
            return "it has sealed a choice it has not opened"
        if self.elgamal:  # (protocol 11 only: version 10's transcripts replay as they were)
            return self._holds_escrowed_shares(seat)
        return None

    def hand_over_problem(self, seat: int) -> str | None:
        """Why ``seat`` can't hand its seat to a bot now, in words, or ``None`` if it can: not
        while a card step is under way (it owes passes, keys or an audit), nor while it has
        committed to a choice the others haven't all committed to (its opening would show it
        early), nor while a card of another seat's is locked by its key alone (publishing the
        key would show that card: a card it gave, not yet re-masked). (Cards given to it under
        another seat's key it shows with the keys it received: ``received``.)"""
        problem = self._seat_problem(seat)
        if problem is not None:
            return problem
        if seat == self.sequencer:
            problem = self._succession_problem()
            if problem is not None:
                return problem
        if isinstance(self.phase, CardPhase):
            return "a card step is under way: your keys are needed first"
        return self._card_shown_by_keys_of(seat, "your key") or self._holds_escrowed_shares(seat)

    def _holds_escrowed_shares(self, seat: int) -> str | None:
        """Why ``seat`` must not leave the table now: it holds a share of a rebuilt seat's lock key
        that stays escrowed (§B16), which the table needs from it until that deal's audit."""
        if self.elgamal:
            for dealer in sorted(self.rebuilt):
                record = self.escrows[dealer]
                if seat in record.holders and any(
                    dealer in crypto.unreleased[index] for crypto in self.deals.values() for index in range(crypto.size)
                ):
                    return (f"it holds a share of {self.seats[dealer].name}'s key of cards still hidden,"
                            " which the table needs until they are shown")
            return None
        for (dealer, deal), record in sorted(self.lock_escrows.items()):
            crypto = self.deals.get(deal)
            if (dealer in self.rebuilt and seat in record.holders and crypto is not None
                    and any(dealer in crypto.unreleased[index] for index in range(crypto.size))):
                return (f"it holds shares of {self.seats[dealer].name}'s keys of cards still hidden in deal {deal},"
                        " which the table needs until that deal's audit")
        return None

    def _card_shown_by_keys_of(self, seat: int, whose: str) -> str | None:
        """Why publishing every key of ``seat`` would show a card it should not, or ``None``: a
        slot outside its keeping (its own cards are shown to all once it is open), locked by its
        key alone, that another seat has seen — a card it gave away, say."""
        kept = set(self.game.kept_slots(self.state, seat))
        for crypto in self.unaudited_deals_of(seat):
            for index in range(crypto.size):
                if (crypto.unreleased[index] == {seat} and crypto.knows[index] - {seat}
                        and crypto.first_slot + index not in kept):
                    return (f"slot {crypto.first_slot + index}, which someone else has seen, is locked by {whose}"
                            " alone: publishing it would show that card (try again after the deal's audit)")
        return None

    # -- key escrow (§B16) -----------------------------------------------------------------------

    def escrow_holders_due(self, seat: int, current: bool = True) -> tuple[int, ...] | None:
        """The holders ``seat`` should escrow its secret among now, or ``None`` if no escrow is
        due from it: every other seat still playing, when they are two or more and (if
        ``current``) its current escrow has other holders or it has none."""
        if not self.ruleset.open_seats or seat in self.open_seats or isinstance(self.phase, OverPhase):
            return None
        holders = tuple(other for other in self.playing_seats if other != seat)
        if len(holders) < 2:
            return None  # one holder would hold the secret itself: two players have no escrow
        record = self.escrows.get(seat)
        if current and record is not None and record.holders == holders:
            return None
        return holders

    def rebuild_problem(self, seat: int, *, host_gone: bool = False) -> str | None:
        """Why the seats playing can't rebuild ``seat``'s keys from its escrow now, in words, or
        ``None`` if they can (each still consenting and giving its share, §B16). ``host_gone``:
        judge the host's seat as any other's (a take-over, §B15)."""
        if seat == self.sequencer and not host_gone:
            return "the host's seat can't be played by a bot: the log needs its host, and the table waits for it"
        problem = self._seat_problem(seat, rebuilding=True)
        if problem is not None:
            return problem
        holders = tuple(other for other in self.playing_seats if other != seat)
        record = self.escrows.get(seat)
        if record is None or record.holders != holders:
            return "it has no escrow among the seats playing now: its keys can't be rebuilt"
        for crypto in self.unaudited_deals_of(seat) if not self.elgamal else ():  # (its deck key is in its escrow)
            locks = self.lock_escrows.get((seat, crypto.deal))
            if seat in crypto.verifiers and (locks is None or locks.holders != holders):
                return f"it has no escrow of its lock keys in deal {crypto.deal} among the seats playing now"
        return self._holds_escrowed_shares(seat)

    def rebuild_shares_stale(self, author: int, seat: int) -> bool:
        """Whether ``author`` gave its shares for ``seat`` and the slots they cover are no longer
        those a rebuild needs (the cards moved since): it gives them again (§B16)."""
        given = self.rebuild_shares.get(seat, {}).get(author)
        return given is not None and [slot for slot, _ in given[2]] != self.rebuild_lock_slots(seat)

    def rebuild_lock_slots(self, seat: int) -> list[int]:
        """The slots whose lock key of ``seat`` a ``rebuild`` rebuilds (and publishes) from the
        shares it gives: every slot of a deal ``seat`` locked, not yet audited, whose key it has
        not published, if another seat's key still locks it too or the card is in ``seat``'s
        keeping (shown to all once a bot plays it). The others — a card it gave away, or one only
        it knew — stay escrowed: its holders release their shares when a card step needs the key,
        to whom it needs it (§B16)."""
        slots = []
        for crypto in self.unaudited_deals_of(seat):
            if (crypto.next_pass() is None) if self.elgamal else (seat in crypto.verifiers):
                slots.extend(crypto.first_slot + index for index in range(crypto.size)
                             if seat in crypto.unreleased[index] and not self._stays_escrowed(crypto, index, seat))
        return sorted(slots)

    def _stays_escrowed(self, crypto: DealCrypto, index: int, seat: int) -> bool:
        """Whether a rebuild of ``seat`` leaves its key of slot ``index`` of ``crypto`` escrowed:
        its key alone locks the card and it is not in its keeping (see rebuild_lock_slots) — nor
        on its way back there: a source of a re-mask of its own cards whose re-key pass it owes
        (the pass needs the key, and the cards are its own)."""
        slot = crypto.first_slot + index
        if crypto.unreleased[index] != {seat}:
            return False
        kept = set(self.game.kept_slots(self.state, seat))
        if slot in kept:
            return False
        if self.elgamal:
            return True  # (no pass of the ElGamal deck takes a key off: nothing is on its way back)
        return not any(
            other.source_slots is not None and slot in other.source_slots and seat in other.holders
            and ("rekey", seat) not in other.passes
            and all(new in kept for new in range(other.first_slot, other.first_slot + other.size))
            for other in self.deals.values()
        )

    def lock_escrows_due(self, seat: int) -> list[tuple[int, tuple[int, ...]]]:
        """The deals whose lock keys ``seat`` should escrow now, each with its holders: every
        deal it holds, not yet audited, whose current lock escrow has other holders or is none."""
        holders = self.escrow_holders_due(seat, current=False)
        if holders is None or self.elgamal:  # (the ElGamal deck has no lock keys, §B6.3)
            return []
        due = []
        for crypto in self.unaudited_deals_of(seat):
            record = self.lock_escrows.get((seat, crypto.deal))
            if record is None or record.holders != holders:
                due.append((crypto.deal, holders))
        return due

    def rebuild_sent_slots(self, author: int, seat: int) -> list[int]:
        """The slots whose ``author``'s lock key a ``rebuild`` of ``seat`` must publish: those in
        ``seat``'s keeping, in live deals, that it knows and ``author``'s key still locks (its
        key was sealed to ``seat``), increasing."""
        slots = []
        for slot in sorted(set(self.game.kept_slots(self.state, seat))):
            try:
                crypto, index = self.deal_of_slot(slot)
            except KeyError:
                continue
            if seat in crypto.knows[index] and author in crypto.unreleased[index] and author != seat:
                slots.append(slot)
        return slots

    def successor_candidates(self) -> tuple[int, ...]:
        """The seats that could take over sequencing from the host: those playing, but the host."""
        return tuple(seat for seat in self.playing_seats if seat != self.sequencer)

    def _succession_problem(self) -> str | None:
        """What stops the host from handing the log to a successor now: nobody left to take it,
        or a choice an open seat committed to under the host's care and not yet opened (its
        opening derives from the host's secrets, which leave with it)."""
        if not self.successor_candidates():
            return "nobody else plays at the table to host it"
        phase = self.phase
        for seat in sorted(self.open_seats):
            if (isinstance(phase, CommitPhase) and phase.purpose == CHOICE_DOMAIN
                    and seat in phase.commitments and seat not in phase.openings):
                return f"seat {seat}'s bot, which this host plays, has committed to a choice it has not opened"
            if (self.sealed is not None and seat in self.sealed.seats and seat not in self.handed_opening
                    and seat not in self.rebuilt and seat not in self.rebuilding):  # (those open with its secret)
                return f"seat {seat}'s bot, which this host plays, has sealed a choice it has not opened"
        return None

    def take_over_problem(self) -> str | None:
        """Why the seats playing can't take the table from the host now (§B15, a take-over), in
        words, or ``None`` if they can: its seat must open as any seat's would — as it is, or
        rebuilt from its escrow — and nothing its care of the open seats leaves behind may stand."""
        return self.departure_problem(self.sequencer, host_gone=True) or self._succession_problem()

    def departure_problem(self, seat: int, *, host_gone: bool = False) -> str | None:
        """Why a bot can't take departed ``seat`` now, in words, or ``None`` if it can: as it is,
        if it holds nothing secret (§B14), or with its keys rebuilt from its escrow (§B16). When
        neither can, why it can't be rebuilt if it escrowed its keys at all. ``host_gone``: judge
        the host's seat as any other's (a take-over, §B15)."""
        rebuild = self.rebuild_problem(seat, host_gone=host_gone)
        if rebuild is None:
            return None
        as_it_is = self.open_seat_problem(seat, host_gone=host_gone)
        if as_it_is is None:
            return None
        return rebuild if seat in self.escrows else as_it_is

    def take_over_body(self, successor: int) -> dict:
        """The body of a ``takeover`` consent to ``successor`` taking the table after the log as
        it is now (§B15)."""
        return {"game_id": self.game_id, "seq": self.seq, "entry": self.head, "host": self.sequencer, "successor": successor}

    def _seat_problem(self, seat: int, rebuilding: bool = False, departed: bool = False) -> str | None:
        """What stops ``seat`` from being played by a bot however it goes: a table that plays
        none, a seat played by one already, the game's end, a choice committed and not yet opened
        — unless ``rebuilding`` (its salt derives from the rebuilt secret, §B16), or ``departed``
        and the phase is not opening yet (nobody has seen an opening: the commitment is dropped
        and its caretaker chooses again, §B14). A seat handing itself over is neither: it is
        there to open its choice first."""
        if not self.ruleset.open_seats:
            return "this table plays no bot in the seat of a player who leaves (its host chose so)"
        if seat in self.open_seats:
            return "that seat is played by a bot already"
        phase = self.phase
        if isinstance(phase, OverPhase):
            return "the game is over"
        if (not rebuilding and isinstance(phase, CommitPhase) and phase.purpose == CHOICE_DOMAIN
                and seat in phase.commitments and seat not in phase.openings
                and (phase.opening or not departed)):
            return "it has committed to a choice it has not opened"
        return None

    def unaudited_deals_of(self, seat: int) -> Iterable[DealCrypto]:
        """The deals ``seat`` holds keys of whose audit has not completed, by deal number."""
        return [
            crypto for _, crypto in sorted(self.deals.items())
            if seat in crypto.holders and not crypto.audited
        ]

    def _auditors(self, deals: Sequence[int]) -> tuple[int, ...]:
        """The seats that must publish keys to audit ``deals``: their holders (but a seat that
        handed over or was rebuilt: its keys are in)."""
        return tuple(sorted({
            seat for deal in deals for seat in self.deals[deal].holders
            if seat not in self.handed_over and seat not in self.rebuilt
        }))

    def _departed_keys(self, seat: int, crypto: DealCrypto) -> SeatAuditKeys | None:
        """The keys a seat that left uses in ``crypto``, as its audit would publish them: those it
        handed over; or, rebuilt, its re-key and shuffle keys from its secret and its lock keys as
        published (every one is by the audit, §B16); ``None`` for a seat still playing."""
        if seat in self.handed_over:
            return self.handed_over[seat][crypto.deal]
        if seat in self.rebuilt:
            derived = deal_keys(self.rebuilt[seat], crypto.deal, crypto.size, crypto.source_slots is not None, locks=False)
            return SeatAuditKeys(derived.rekey, None if crypto.locking_pass(seat)[0] == "shuffle-lock" else derived.shuffle,
                                 tuple(crypto.published[index][seat] for index in range(crypto.size)))
        return None

    def waiting_on_decision(self) -> bool:
        """Whether the log waits for a person's decision (rather than automatic protocol steps)."""
        phase = self.phase
        return isinstance(phase, DecisionPhase) or (
            isinstance(phase, CommitPhase) and phase.purpose == CHOICE_DOMAIN and not phase.opening
        )

    def keys_requirement(self, seat: int) -> KeysRequirement | None:
        phase = self.phase
        if isinstance(phase, CardPhase) and isinstance(phase.current, KeysSub):
            sub = phase.current
            assert sub.requirements is not None
            requirement = sub.requirements.get(seat)
            if requirement is not None and requirement.owes_keys and seat not in sub.done:
                return requirement
        return None

    def release_requirement(self, seat: int) -> set[tuple[int, int, int | None]]:
        """The shares ``seat`` owes in the keys round under way (§B16), if its ``release`` is due."""
        phase = self.phase
        if isinstance(phase, CardPhase) and isinstance(phase.current, KeysSub):
            sub = phase.current
            assert sub.requirements is not None
            requirement = sub.requirements.get(seat)
            if requirement is not None and seat not in sub.released:
                return requirement.shares
        return set()

    def deal_of_slot(self, slot: int) -> tuple[DealCrypto, int]:
        for crypto in reversed(self.deals.values()):  # newest first, as CardState.deal_of
            if crypto.first_slot <= slot < crypto.first_slot + crypto.size:
                return crypto, slot - crypto.first_slot
        raise KeyError(slot)

    # -- phases --------------------------------------------------------------------------------

    def _phase_for(self, step: Step, applied: Applied | None) -> Phase:
        if isinstance(step, (Turn, ReactionWindow)):
            return DecisionPhase(step)
        if isinstance(step, Simultaneous):
            return CommitPhase(CHOICE_DOMAIN, step.players, self.seq)
        if isinstance(step, Sealed):
            if self.sealed is not None:
                raise EngineError(f"{self.game.title} sealed choices again before opening the last ones")
            return CommitPhase(CHOICE_DOMAIN, step.players, self.seq, seals=True)
        if isinstance(step, Unseal):
            sealed = self.sealed
            if sealed is None:
                raise EngineError(f"{self.game.title} opens sealed choices, but none are sealed")
            if tuple(step.players) != sealed.seats:
                raise EngineError(f"{self.game.title} opens the sealed choices of seats {step.players}, not {sealed.seats}")
            # Every commitment is in: the phase waits for the openings, under the sealed phase's id.
            return CommitPhase(CHOICE_DOMAIN, sealed.seats, sealed.phase_id, dict(sealed.commitments))
        if isinstance(step, Chance):
            return CommitPhase(RANDOM_DOMAIN, self.playing_seats, self.seq)
        if isinstance(step, CardOperations):
            phase = CardPhase(step.operations, self.seq, _plan(step.operations))
            self.phase = phase
            self._start_sub(phase, applied)
            return self.phase
        assert isinstance(step, GameOver)
        return OverPhase(step)

    def _start_sub(self, phase: CardPhase, applied: Applied | None) -> None:
        """Prepare the current sub-step (create a deal's record, compute who releases which key).

        A keys round that needs nobody (the viewer already knows every slot) is done at once.
        """
        sub = phase.current
        if isinstance(sub, DealSub):
            if self._show_before_reshuffle(phase, sub, applied):
                return
            for operation in phase.operations:
                if (isinstance(operation, (NewDeal, Reshuffle)) and operation.deal in sub.deals
                        and operation.deal not in self.deals and not self._awaits_rebuild(operation)):
                    self.deals[operation.deal] = self._new_deal_crypto(operation)
        elif isinstance(sub, KeysSub) and sub.requirements is None:
            sub.requirements, sub.knows_after = self._keys_round(sub.operations)
            if not any(sub.requirements.values()):
                self._finish_keys(phase, sub, applied)
        elif isinstance(sub, AuditSub) and not self._reveal_before_audit(phase, sub, applied):
            self._finish_audit_if_complete(applied, phase, sub)  # (its auditors may all be in)

    def _show_before_reshuffle(self, phase: CardPhase, sub: DealSub, applied: Applied | None) -> bool:
        """Before a re-shuffle whose source keeps a rebuilt seat's escrowed lock (a card it gave,
        or one only it knew): unless a holder of the new deal knows that card, a keys round first
        shows it to the lowest one (its escrow's holders seal it their shares), which then takes
        that lock off in its re-key pass (§B16). Whether one was inserted."""
        shows: dict[int, list[int]] = {}
        for operation in phase.operations:
            if (not isinstance(operation, Reshuffle) or operation.deal not in sub.deals or operation.deal in self.deals
                    or self._awaits_rebuild(operation)):
                continue
            holders = [seat for seat in (operation.holders or range(self.players)) if seat not in self.open_seats]
            for slot in operation.source_slots:
                crypto, index = self.deal_of_slot(slot)
                if crypto.unreleased[index] & set(self.rebuilt) and not crypto.knows[index] & set(holders):
                    shows.setdefault(min(holders), []).append(slot)
        if not shows:
            return False
        phase.subs.insert(phase.index, KeysSub(tuple(Disclose(tuple(slots), to) for to, slots in sorted(shows.items()))))
        self._start_sub(phase, applied)
        return True

    def _awaits_rebuild(self, operation: NewDeal | Reshuffle) -> set[int]:
        """The seats being rebuilt whose lock keys a re-shuffle's source slots still hold: the
        keys come off its starting values, or a stand-in takes them off (§B16 step 5), and
        neither can be before the rebuild — the re-shuffle is set up at the entry that rebuilds
        the last of them. Empty for a deal that can be set up now."""
        if not isinstance(operation, Reshuffle) or not self.rebuilding:
            return set()
        waits: set[int] = set()
        for slot in operation.source_slots:
            crypto, index = self.deal_of_slot(slot)
            waits |= crypto.unreleased[index] & self.rebuilding
        return waits

    def _rebuilds_awaited(self, phase: CardPhase, sub: DealSub) -> set[int]:
        """The seats being rebuilt that a re-shuffle of ``sub`` waits for (see _awaits_rebuild)."""
        return {seat for operation in phase.operations
                if isinstance(operation, Reshuffle) and operation.deal in sub.deals and operation.deal not in self.deals
                for seat in self._awaits_rebuild(operation)}

    def deals_under_way(self, sub: DealSub) -> list[DealCrypto]:
        """The deals of ``sub`` set up so far: all of them, but a re-shuffle that waits for a
        seat's rebuild (§B16 step 5)."""
        return [self.deals[deal] for deal in sub.deals if deal in self.deals]

    def _reveal_before_audit(self, phase: CardPhase, sub: AuditSub, applied: Applied | None) -> bool:
        """Before auditing ``sub``'s deals — a dispute's too: if a rebuilt seat's key is still
        escrowed in them, a keys round first, which reveals those slots — its escrow's holders
        publish their shares (the audit shows every card of these deals anyway, §B16). Whether
        one was inserted."""
        slots = tuple(sorted(
            self.deals[deal].first_slot + index for deal in sub.deals for index in range(self.deals[deal].size)
            if self.deals[deal].unreleased[index] & set(self.rebuilt)
        ))
        if not slots:
            return False
        if sub is phase.dispute:
            phase.dispute_keys = KeysSub((Reveal(slots),))
        else:
            phase.subs.insert(phase.index, KeysSub((Reveal(slots),)))
        self._start_sub(phase, applied)
        return True

    def _new_deal_crypto(self, operation: NewDeal | Reshuffle) -> DealCrypto:
        domain = self.game.deck_domain
        # An open seat locks no later deal: its cards are dealt among the seats still playing.
        holders = tuple(seat for seat in (operation.holders or range(self.players)) if seat not in self.open_seats)
        if self.elgamal:
            return self._new_elgamal_deal(operation, holders)
        if isinstance(operation, NewDeal):
            table = CardTable(domain, operation.cards)
            return DealCrypto(
                operation.deal, operation.first_slot, self.players, table, list(table.points),
                holders=holders,
            )
        names: set[str] = set()
        inputs = []
        sources = []
        for slot in operation.source_slots:
            crypto, index = self.deal_of_slot(slot)
            names.update(crypto.table.names)
            inputs.append(crypto.locked[index])
            sources.append(crypto)
        if any(seat not in holders for crypto in sources for seat in crypto.holders):
            # A source locked by an open seat: its lock keys are public (audited before it opened,
            # or handed over as it left), so they come off here — but a rebuilt seat's key of a
            # card it gave, which the card's stand-in takes off in its re-key pass (§B16).
            unlocked = []
            for position, slot in enumerate(operation.source_slots):
                crypto, index = self.deal_of_slot(slot)
                keys = []
                for seat in crypto.holders:
                    if seat in holders:
                        continue
                    if seat in crypto.unreleased[index]:
                        # Still escrowed: a holder of the new deal was shown it first (see _start_sub).
                        stand_in = min(other for other in holders if other in crypto.knows[index])
                        self.rekey_stand_ins.setdefault(operation.deal, {})[position] = (seat, stand_in)
                        continue
                    keys.append(self._lock_key(crypto, seat, index))
                unlocked.append(unlock(inputs[position], keys) if keys else inputs[position])
            inputs = unlocked
        table = CardTable(domain, sorted(names))
        return DealCrypto(
            operation.deal, operation.first_slot, self.players, table, inputs, operation.source_slots,
            holders=holders,
        )

    def _new_elgamal_deal(self, operation: NewDeal | Reshuffle, holders: tuple[int, ...]) -> ElGamalDeal:
        """A deal by the ElGamal deck (§B6.3). A fresh deal starts from its card points; a
        re-shuffle from its source slots' ciphertexts as the sources' last passes left them, under
        the joint key of the sources' holders, so no pass re-keys them. A source holder open
        since (§B14) has its share of each source taken off where it is public (published, or in
        the source's audit); a rebuilt seat whose share of some source is not (a card it gave, or
        knew alone: showing the share would show the card) stays a holder of the re-shuffle
        instead — its key stays on every source, its caretaker makes its pass and its escrow's
        holders give its shares (§B16)."""
        domain = self.game.deck_domain
        keys = tuple(seat.deck_key for seat in self.seats)
        if isinstance(operation, NewDeal):
            table = elgamal.CardTable(domain, operation.cards)
            return ElGamalDeal.fresh(operation.deal, operation.first_slot, self.players, table, keys, holders)
        sources = [self.deal_of_slot(slot) for slot in operation.source_slots]
        staying = {seat for crypto, index in sources for seat in crypto.holders
                   if seat not in holders and crypto.known_share(index, seat) is None}
        holders = tuple(sorted(set(holders) | staying))
        names: set[str] = set()
        inputs = []
        for slot, (crypto, index) in zip(operation.source_slots, sources):
            card = crypto.locked[index]
            for seat in crypto.holders:
                if seat not in holders:
                    card = elgamal.Ciphertext(card.nonce, elgamal.decrypt(card, [crypto.known_share(index, seat)]))
            if set(crypto.holders) & set(holders) != set(holders):
                raise EngineError(
                    f"{self.game.title} re-shuffles slot {slot}, held by seats {crypto.holders}, for seats {holders}"
                )
            names.update(crypto.table.names)
            inputs.append(card)
        table = elgamal.CardTable(domain, sorted(names))
        return ElGamalDeal(
            operation.deal, operation.first_slot, self.players, table, inputs, keys, tuple(operation.source_slots),
            holders=holders,
        )

    def _lock_key(self, crypto: DealCrypto, seat: int, index: int) -> int:
        """An open seat's lock key on slot ``index`` of ``crypto``: from its audit, its hand-over,
        or published (a rebuilt seat's, §B16)."""
        if seat in crypto.audit_keys:
            return crypto.audit_keys[seat].locks[index]
        if seat in self.handed_over:
            return self.handed_over[seat][crypto.deal].locks[index]
        return crypto.published[index][seat]

    def _requirements(
        self, operations: Sequence[Reveal | Disclose], only: range | set[int] | None = None,
    ) -> dict[int, KeysRequirement]:
        """Who must publish or seal which key, simulating the operations in order (``only``:
        of these slots alone, and leaving out what rebuilt seats' escrows would release)."""
        return self._keys_round(operations, only)[0]

    def _keys_round(
        self, operations: Sequence[Reveal | Disclose], only: range | set[int] | None = None,
    ) -> tuple[dict[int, KeysRequirement], dict[int, set[int]]]:
        """:meth:`_requirements`, and who knows each slot when the round is done: the working
        copies of U and K as §B6.2 leaves them, by slot."""
        requirements = {seat: KeysRequirement() for seat in range(self.players)}
        unreleased: dict[int, set[int]] = {}
        knows: dict[int, set[int]] = {}
        for operation in operations:
            for slot in operation.slots:
                if only is not None and slot not in only:
                    continue
                crypto, index = self.deal_of_slot(slot)
                holders = unreleased.setdefault(slot, set(crypto.unreleased[index]))
                seen = knows.setdefault(slot, set(crypto.knows[index]))
                if isinstance(operation, Reveal) or operation.to in self.open_seats:
                    # (An open seat's cards are everyone's to see: dealt to it face up.)
                    for seat in holders:
                        requirements[seat].publish.add(slot)
                    holders.clear()
                    seen.update(range(self.players))
                    continue
                to = operation.to
                if to in seen:
                    continue
                if to in holders:
                    # The receiver keeps its own lock, so the others' keys can be public.
                    for seat in holders - {to}:
                        requirements[seat].publish.add(slot)
                    holders.intersection_update({to})
                else:
                    # Publishing would reveal the card to all: seal each remaining key to the viewer.
                    for seat in holders:
                        requirements[seat].seal.add((slot, to))
                seen.add(to)
        for requirement in requirements.values():
            # A key published in the same step needs sealing to nobody.
            requirement.seal = {(slot, to) for slot, to in requirement.seal if slot not in requirement.publish}
        if only is None:
            for seat in self.rebuilt:
                self._to_releases(requirements, seat)
        return requirements, knows

    def keys_riding_with_lock(self, seat: int, deal: int) -> list[int]:
        """The slots of ``deal`` whose lock key ``seat`` publishes with its lock pass (§B6.1): those
        it would publish in the keys sub-step right after the deal's sub-step, computed as that
        sub-step will (§B6.2) over the deal's own slots. None for a rebuilt seat (its lock pass
        publishes every key, §B16) or when no keys sub-step follows."""
        phase = self.phase
        if not isinstance(phase, CardPhase) or seat in self.rebuilt or deal not in self.deals:
            return []
        following = phase.subs[phase.index + 1] if phase.index + 1 < len(phase.subs) else None
        if not isinstance(following, KeysSub):
            return []
        crypto = self.deals[deal]
        if self.elgamal and seat != crypto.last_holder:
            return []  # (a share is of the last pass's nonce: only its author's can ride, §B6.3)
        slots = range(crypto.first_slot, crypto.first_slot + crypto.size)
        return sorted(self._requirements(following.operations, only=slots)[seat].publish)

    def keys_riding_with_act(self, seat: int, action: Any) -> KeysRequirement:
        """What ``seat`` may publish and seal with its ``act`` of ``action`` (§B5): what it would
        owe in the keys sub-step that begins right after the act, of cards that only it knows and
        only it still locks (its own cards that the action shows or gives). Nothing for a rebuilt
        or open seat, or when the act leads to no keys sub-step. Changes nothing; ``action`` must
        be legal for ``seat`` now."""
        if seat in self.rebuilt or seat in self.open_seats or not isinstance(self.phase, DecisionPhase):
            return KeysRequirement()
        try:
            step = self.game.step(self.game.apply(self.state, Act(seat, action)))
        except (EngineError, IllegalAction, RuleViolation):
            return KeysRequirement()
        first = _plan(step.operations)[0] if isinstance(step, CardOperations) and step.operations else None
        if not isinstance(first, KeysSub):
            return KeysRequirement()
        alone = set()
        for operation in first.operations:
            for slot in operation.slots:
                crypto, index = self.deal_of_slot(slot)
                if crypto.unreleased[index] == {seat} and crypto.knows[index] == {seat}:
                    alone.add(slot)
        return self._requirements(first.operations, only=alone)[seat] if alone else KeysRequirement()

    def _to_releases(self, requirements: dict[int, KeysRequirement], seat: int) -> None:
        """Turn what rebuilt ``seat`` owes in a keys round — its keys still escrowed, of cards it
        no longer keeps — into the shares its escrow's holders release instead (§B16): published
        where it would publish, sealed to ``to`` where it would seal (but by ``to`` itself)."""
        owed, requirements[seat] = requirements[seat], KeysRequirement()
        for slot, to in [(slot, None) for slot in owed.publish] + sorted(owed.seal):
            crypto, index = self.deal_of_slot(slot)
            if seat not in crypto.unreleased[index]:
                continue  # published meanwhile (its rebuild)
            escrow = self.escrows[seat] if self.elgamal else self.lock_escrows[(seat, crypto.deal)]
            for holder in escrow.holders:
                if holder != to:
                    requirements[holder].shares.add((seat, slot, to))

    # -- checking submissions ------------------------------------------------------------------

    def check_submission(
        self,
        data: bytes | Envelope,
        arrived_from: int | None,
        *,
        host_signed: bool = False,
        verify_author: bool = True,
        sequenced_by: int | None = None,
    ) -> Submission:
        """Fully check a submission against the current phase without changing anything.

        ``arrived_from`` is the seat whose connection delivered it (``None`` when it comes inside
        a sequenced entry). With ``host_signed`` the bytes came inside an entry whose host signature
        was verified, so a submission by the host itself needs no second check of the same key.
        ``sequenced_by``: the seat that signed that entry, if not the sequencer (a take-over's
        author, §B15). Raises :class:`ProtocolFault`.
        """
        # Until the author's signature is checked, whoever delivered the bytes answers for them:
        # the joiner on whose connection they came, or the host that sequenced them in an entry.
        signer = self.sequencer if sequenced_by is None else sequenced_by
        blame = arrived_from if arrived_from is not None else signer
        try:
            envelope = data if isinstance(data, Envelope) else open_envelope(data)
        except MalformedMessage as error:
            raise self._fault(blame, FaultCode.MALFORMED, f"sent a malformed submission: {error}")
        if envelope.kind != "submit":
            raise self._fault(blame, FaultCode.MALFORMED, f"sent {with_article(envelope.kind)} where a submission belongs")
        body = envelope.body
        seat = body["seat"]
        if not 0 <= seat < self.players:
            raise self._fault(blame, FaultCode.MALFORMED, f"named seat {seat}, which doesn't exist")
        author = self.author_of(seat)
        if arrived_from is not None and author != arrived_from:
            # Signed by (or in the name of) another seat than the connection's: the wrong key (§B9).
            raise self._fault(arrived_from, FaultCode.BAD_SIGNATURE, f"sent a submission signed as seat {seat}")
        if envelope.sender != self.seats[author].key.raw:
            raise self._fault(blame, FaultCode.BAD_SIGNATURE, "sent a submission whose sender is not its seat's key")
        if verify_author and not (host_signed and author == signer):
            try:
                envelope.verify(self.seats[author].key)
            except (BadSignature, MalformedMessage) as error:
                raise self._fault(blame, FaultCode.BAD_SIGNATURE, f"sent a submission with a bad signature ({error})")
        if body["game_id"] != self.game_id:
            raise self._fault(blame, FaultCode.REPLAY, "sent a submission from another game")
        if body["counter"] != self.counters[seat]:
            # An old counter is a replay; one ahead of the next skips submissions: out of sequence.
            old = body["counter"] < self.counters[seat]
            raise self._fault(
                blame, FaultCode.REPLAY if old else FaultCode.BAD_SEQUENCE,
                f"{'replayed an old submission' if old else 'skipped submissions'} "
                f"(counter {body['counter']}, expected {self.counters[seat]})",
                evidence=(envelope.raw,),
            )
        submission = Submission(envelope, seat, body["counter"], body["body"])
        kind = submission.body.get("t")
        if isinstance(kind, str) and kind in SELF_SEQUENCED and signer != seat:  # (any type: malformed, below)
            # Its author sequences it itself, the host being gone or the author itself (§B15, §B17).
            raise self._illegal(submission, FaultCode.ILLEGAL, f"sent {with_article(kind)} to be sequenced by another seat")
        self._check_content(submission)
        return submission

    def _fault(
        self, seat: int | None, code: str, reason: str, evidence: tuple[bytes, ...] = ()
    ) -> ProtocolFault:
        return ProtocolFault(Fault(seat, code, reason, self.seq, None, evidence))

    def _illegal(self, submission: Submission, code: str, reason: str) -> ProtocolFault:
        # Signed by its author, so the evidence proves it to anyone replaying the log — and the
        # author is the one at fault: an open seat's caretaker, for an open seat's submission.
        return self._fault(self.author_of(submission.seat), code, reason, (submission.envelope.raw,))

    def _check_content(self, submission: Submission) -> None:
        body = submission.body
        kind = body.get("t")
        seat = submission.seat
        phase = self.phase
        expected = self.waiting_for()
        # What a seat may submit out of turn, in any phase (each check says when it may not).
        out_of_turn = {
            "dispute": self._check_dispute, OPEN_SEAT: self._check_open_seat, HAND_OVER: self._check_hand_over,
            ESCROW: self._check_escrow, LOCK_ESCROW: self._check_lock_escrow, REBUILD: self._check_rebuild,
            TAKE_OVER: self._check_take_over, FORFEIT: self._check_forfeit,
        }.get(kind) if isinstance(kind, str) else None  # (a kind of another type: malformed, below)
        if out_of_turn is not None:
            out_of_turn(submission)
            return
        if seat not in expected:
            raise self._illegal(submission, FaultCode.ILLEGAL, f"sent {with_article(kind)} submission out of turn")
        if seat in self.rebuilding:
            # Its moves need its hand and its card steps its keys: all wait for the shares.
            raise self._illegal(submission, FaultCode.ILLEGAL, f"moved for seat {seat}, whose keys are not rebuilt yet")
        if isinstance(phase, DecisionPhase):
            self._check_act(submission)
        elif isinstance(phase, CommitPhase):
            self._check_commit_or_open(submission, phase)
        elif isinstance(phase, CardPhase):
            sub = phase.current
            if isinstance(sub, DealSub):
                self._check_pass(submission, sub)
            elif isinstance(sub, KeysSub):
                if body.get("t") == RELEASE:
                    self._check_release(submission, sub)
                else:
                    self._check_keys(submission, sub)
            elif isinstance(sub, AuditSub):
                self._check_audit(submission, sub)
        else:
            raise self._illegal(submission, FaultCode.ILLEGAL, "submitted after the game ended")

    def _with_shares_proof(self, fields: dict[str, type | tuple[type, ...]]) -> dict[str, type | tuple[type, ...]]:
        """``fields`` with ``proof`` beside ``public`` at an ElGamal table: the one proof of the
        shares it publishes (§B6.3), nil where it publishes none."""
        if self.elgamal and "public" in fields:
            return {**fields, "proof": (bytes, type(None))}
        return fields

    def _fields(self, submission: Submission, kind: str, fields: dict[str, type | tuple[type, ...]]) -> None:
        """Check the body is a ``kind`` with exactly ``fields`` of the given types (bool is no int)."""
        body = submission.body
        if body.get("t") != kind:
            raise self._illegal(submission, FaultCode.ILLEGAL, f"sent {body.get('t')!r} where {kind!r} was due")
        if set(body) != {"t", *fields}:
            raise self._illegal(submission, FaultCode.MALFORMED, f"sent {with_article(kind)} with the wrong fields")
        for name, kinds in fields.items():
            value = body[name]
            if not isinstance(value, kinds) or (type(value) is bool and kinds is int):
                raise self._illegal(submission, FaultCode.MALFORMED, f"{kind} field {name!r} has the wrong type")

    def _decode_action(self, submission: Submission, data: Any) -> Any:
        try:
            return self.game.decode_action(data)
        except (MalformedAction, EngineError, TypeError, ValueError, KeyError, IndexError) as error:
            raise self._illegal(submission, FaultCode.MALFORMED, f"sent something that is not an action: {error}")

    def _check_act(self, submission: Submission) -> None:
        fields: dict[str, type | tuple[type, ...]] = {"action": object}
        riding = [name for name in ("public", "sealed") if name in submission.body]
        for name in riding:  # (keys riding with the act, §B5: checked below)
            fields[name] = (tuple, list)
        self._fields(submission, "act", self._with_shares_proof(fields))
        action = self._decode_action(submission, submission.body["action"])
        try:
            self.game.check_action(self.state, submission.seat, action)
        except IllegalAction as error:
            raise self._illegal(submission, FaultCode.ILLEGAL, f"made an illegal move: {error.reason}")
        if not riding:
            return
        public = self._published_keys(submission) if "public" in riding else {}
        sealed = self._sealed_pairs(submission) if "sealed" in riding else set()
        due = self.keys_riding_with_act(submission.seat, action)
        body = submission.body
        if "public" in riding and (not due.publish or set(public) != due.publish or len(public) != len(body["public"])):
            raise self._illegal(
                submission, FaultCode.ILLEGAL,
                f"published with its move keys for slots {sorted(public)}, but slots {sorted(due.publish)} ride with it",
            )
        if "sealed" in riding and (not due.seal or sealed != due.seal or len(sealed) != len(body["sealed"])):
            raise self._illegal(submission, FaultCode.ILLEGAL, "sealed with its move keys for other slots or seats than ride with it")

    def _check_commit_or_open(self, submission: Submission, phase: CommitPhase) -> None:
        seat = submission.seat
        if not phase.opening:
            self._fields(submission, "commit", {"commitment": bytes})
            if len(submission.body["commitment"]) != COMMITMENT_SIZE:
                raise self._illegal(submission, FaultCode.MALFORMED, "sent a commitment of the wrong size")
            return
        self._fields(submission, "open", {"salt": bytes, "value": object})
        value = submission.body["value"]
        try:
            check_opening(
                phase.commitments[seat], phase.purpose, self.game_id, seat,
                [phase.phase_id, value], submission.body["salt"],
            )
        except BadCommitment:
            raise self._fault(
                seat, FaultCode.BAD_OPENING,
                "opened a commitment with a different value than it committed to",
                (self._commitment_evidence(phase, seat), submission.envelope.raw),
            )
        if phase.purpose == RANDOM_DOMAIN:
            if not isinstance(value, bytes) or len(value) != 32:
                raise self._illegal(submission, FaultCode.MALFORMED, "opened a random contribution that is not 32 bytes")
        else:
            action = self._decode_action(submission, value)
            try:
                self.game.check_action(self.state, seat, action)
            except IllegalAction as error:
                raise self._illegal(submission, FaultCode.ILLEGAL, f"committed to an illegal choice: {error.reason}")

    def _commitment_evidence(self, phase: CommitPhase, seat: int) -> bytes:
        return self._commit_envelopes.get((phase.phase_id, seat), b"")

    def _pass_deal(self, submission: Submission, sub: DealSub, fields: dict[str, type | tuple[type, ...]]) -> Any:
        """A pass's fields checked (``public`` besides, where shares or keys ride with it) and
        the deal of the sub-step it names, which it returns; raises :class:`ProtocolFault`."""
        if "public" in submission.body:
            fields = self._with_shares_proof({**fields, "public": (tuple, list)})
        self._fields(submission, "pass", fields)
        deal = submission.body["deal"]
        if deal not in sub.deals or deal not in self.deals:
            # (One of the sub-step's that waits for a rebuild is not being dealt yet either.)
            raise self._illegal(submission, FaultCode.ILLEGAL, f"sent a pass for deal {deal}, which is not being dealt")
        return self.deals[deal]

    def _check_pass(self, submission: Submission, sub: DealSub) -> None:
        if self.elgamal:
            self._check_elgamal_pass(submission, sub)
            return
        crypto = self._pass_deal(submission, sub, {"deal": int, "stage": str, "values": (tuple, list), "verifiers": (tuple, list)})
        body = submission.body
        if not crypto.is_due(body["stage"], submission.seat):
            raise self._illegal(submission, FaultCode.ILLEGAL, f"sent a {body['stage']!r} pass that is not due")
        try:
            if not all(isinstance(v, bytes) and len(v) == 32 for v in (*body["values"], *body["verifiers"])):
                raise PassProblem("pass values must be 32 bytes each")
            crypto.check_pass(body["stage"], submission.seat, body["values"], body["verifiers"])
        except PassProblem as error:
            raise self._illegal(submission, FaultCode.BAD_PASS, f"sent a bad pass: {error}")
        if body["stage"] in LOCKING_STAGES and body["deal"] in dict(self.lock_escrows_due(submission.seat)):
            raise self._illegal(submission, FaultCode.ILLEGAL, f"locked deal {body['deal']} before escrowing its lock keys")
        if submission.seat in self.rebuilt:
            # A rebuilt seat's keys are everyone's: its caretaker's pass is checked whole, now.
            expected = self.rebuilt_pass(crypto, body["stage"], submission.seat)
            if (list(body["values"]), list(body["verifiers"])) != expected:
                raise self._illegal(submission, FaultCode.BAD_PASS, f"sent seat {submission.seat}'s pass, but not as its rebuilt keys make it")
        if "public" in body:
            self._check_riding_keys(submission, crypto)

    def _check_elgamal_pass(self, submission: Submission, sub: DealSub) -> None:
        """A pass of the ElGamal deck (§B6.3): ``{t: "pass", deal, cards}``, and ``public`` on
        the last holder's pass when shares ride with it."""
        crypto = self._pass_deal(submission, sub, {"deal": int, "cards": (tuple, list)})
        body = submission.body
        if crypto.next_pass() != submission.seat:
            raise self._illegal(submission, FaultCode.ILLEGAL, f"sent a pass of deal {crypto.deal} that is not due")
        try:
            cards = crypto.check_pass(submission.seat, body["cards"])
        except PassProblem as error:
            raise self._illegal(submission, FaultCode.BAD_PASS, f"sent a bad pass: {error}")
        if submission.seat in self.rebuilt and cards != self.rebuilt_elgamal_pass(crypto, submission.seat):
            # A rebuilt seat's pass seeds are everyone's: its caretaker's pass is checked whole.
            raise self._illegal(submission, FaultCode.BAD_PASS, f"sent seat {submission.seat}'s pass, but not as its rebuilt seed makes it")
        if submission.seat == crypto.last_holder and not all(
            elgamal.is_valid_point(card.nonce) and elgamal.is_valid_point(card.masked) for card in cards
        ):
            # The cards everyone opens must be points of the group (§B6.3): a share of a nonce
            # outside it proves nothing, and no secret multiplies one. A pass that adds to a
            # point keeps it outside, so the first pass that holds one made it.
            fault = self.elgamal_bad_pass_fault(crypto.deal)
            if fault is not None:
                raise ProtocolFault(fault)
            raise self._illegal(submission, FaultCode.BAD_PASS, "sent a pass holding a card that is no point of the group")
        if "public" in body:
            public = self._published_keys(submission, cards, crypto)
            due = self.keys_riding_with_lock(submission.seat, crypto.deal)
            if not due or sorted(public) != due or len(public) != len(body["public"]):
                raise self._illegal(
                    submission, FaultCode.ILLEGAL,
                    f"published with its pass shares of slots {sorted(public)}, but slots {due} ride with it",
                )

    def _published_shares(
        self, submission: Submission, cards: Sequence[elgamal.Ciphertext] | None = None, riding: Any = None,
    ) -> dict[int, bytes]:
        """The ``public`` shares of a submission at an ElGamal table, ``[[slot, share: b32] …]``
        under the one ``proof`` beside them, as slot → share, checked as they come (§B6.3):
        ``malformed`` for an item of another shape, or a ``proof`` that is not 64 bytes where
        shares are published (nil where none are); ``illegal`` for a slot no deal has, of a deal
        not locked yet, or, riding with a pass (``riding``: its deal, ``cards``: its cards), of
        another deal; ``bad-key`` for a share of a deal its author does not hold, or shares the
        proof fails (a wrong one among them, or a wrong proof: either is its author's)."""
        public: dict[int, bytes] = {}
        nonces: list[bytes] = []
        items = submission.body["public"]
        proof = submission.body["proof"]
        if (proof is None) != (not items) or (proof is not None and len(proof) != elgamal.PROOF_SIZE):
            raise self._illegal(submission, FaultCode.MALFORMED, "published shares without their one 64-byte proof")
        key = None
        for item in items:
            if not (isinstance(item, (tuple, list)) and len(item) == 2 and type(item[0]) is int
                    and isinstance(item[1], bytes) and len(item[1]) == elgamal.POINT_SIZE):
                raise self._illegal(submission, FaultCode.MALFORMED, "published a malformed share")
            slot = item[0]
            try:
                crypto, index = self.deal_of_slot(slot)
            except KeyError:
                raise self._illegal(submission, FaultCode.ILLEGAL, f"published a share of slot {slot}, which no deal has") from None
            if riding is not None and crypto is not riding:
                raise self._illegal(submission, FaultCode.ILLEGAL, f"published with its pass a share of slot {slot}, of another deal")
            if cards is None and crypto.next_pass() is not None:
                raise self._illegal(submission, FaultCode.ILLEGAL, f"published a share of slot {slot}, which is not dealt yet")
            if submission.seat not in crypto.holders:
                raise self._illegal(submission, FaultCode.BAD_KEY, f"published a share of slot {slot}, of a deal it holds no key in")
            key = crypto.keys[submission.seat]  # (its deck key: the same in every deal, §B6.3)
            nonces.append((cards or crypto.locked)[index].nonce)
            public[slot] = item[1]
        if items and not elgamal.check_decryption_shares(
            key, nonces, [item[1] for item in items], proof, shares_context(self.game_id, submission.seat, [item[0] for item in items]),
        ):
            raise self._illegal(submission, FaultCode.BAD_KEY, f"published shares of slots {[item[0] for item in items]} that fail their proof")
        return public

    def _published_keys(
        self, submission: Submission, cards: Sequence[elgamal.Ciphertext] | None = None, riding: Any = None,
    ) -> dict[int, Any]:
        if self.elgamal:
            return self._published_shares(submission, cards, riding)
        return self._published_p256_keys(submission)

    def _published_p256_keys(self, submission: Submission) -> dict[int, int]:
        """The ``public`` keys of a ``keys`` submission or a lock pass, ``[[slot, key] …]``, as slot
        → key; raises :class:`ProtocolFault` (``malformed``, or ``bad-key`` for a key outside
        [1, n−1]). Which slots they may be is each caller's to check."""
        public: dict[int, int] = {}
        for item in submission.body["public"]:
            if not (isinstance(item, (tuple, list)) and len(item) == 2 and type(item[0]) is int
                    and isinstance(item[1], bytes) and len(item[1]) == 32):
                raise self._illegal(submission, FaultCode.MALFORMED, "published a malformed key")
            try:
                public[item[0]] = scalar_from_bytes(item[1])
            except CryptoError:
                raise self._illegal(submission, FaultCode.BAD_KEY, f"published an invalid key for slot {item[0]}")
        return public

    def _check_riding_keys(self, submission: Submission, crypto: DealCrypto) -> None:
        """The keys a lock pass publishes (§B6.1): exactly those its author would publish of the
        deal in the keys sub-step that follows, none of them twice — or the pass carries none."""
        body = submission.body
        public = self._published_keys(submission)
        due = self.keys_riding_with_lock(submission.seat, crypto.deal) if body["stage"] in LOCKING_STAGES else []
        if not due or sorted(public) != due or len(public) != len(body["public"]):
            raise self._illegal(
                submission, FaultCode.ILLEGAL,
                f"published with its {body['stage']} pass keys for slots {sorted(public)}, but slots {due} ride with it",
            )

    def _sealed_pairs(self, submission: Submission) -> set[tuple[int, int]]:
        """The ``(slot, to)`` pairs of the ``sealed`` items of a ``keys`` submission or an act,
        ``[[slot, to, box, commitment] …]``; raises :class:`ProtocolFault` (``malformed``). Which
        pairs they may be is each caller's to check."""
        pairs: set[tuple[int, int]] = set()
        for item in submission.body["sealed"]:
            if not (isinstance(item, (tuple, list)) and len(item) == 4 and type(item[0]) is int
                    and type(item[1]) is int and isinstance(item[2], bytes) and len(item[2]) <= MAX_SEALED_BOX
                    and isinstance(item[3], bytes) and len(item[3]) == 32):
                raise self._illegal(submission, FaultCode.MALFORMED, "sealed a malformed key")
            pairs.add((item[0], item[1]))
        return pairs

    def _check_keys(self, submission: Submission, sub: KeysSub) -> None:
        self._fields(submission, "keys", self._with_shares_proof({"public": (tuple, list), "sealed": (tuple, list)}))
        assert sub.requirements is not None
        requirement = sub.requirements[submission.seat]
        if not requirement.owes_keys or submission.seat in sub.done:
            raise self._illegal(submission, FaultCode.ILLEGAL, "sent keys it does not owe")
        body = submission.body
        public = self._published_keys(submission)
        sealed = self._sealed_pairs(submission)
        if set(public) != requirement.publish or len(public) != len(body["public"]):
            raise self._illegal(
                submission, FaultCode.ILLEGAL,
                f"published keys for slots {sorted(public)}, but slots {sorted(requirement.publish)} were due",
            )
        if sealed != requirement.seal or len(sealed) != len(body["sealed"]):
            raise self._illegal(submission, FaultCode.ILLEGAL, "sealed keys for the wrong slots or players")
        # The keys themselves are checked against their verifiers only if a slot fails to
        # decrypt (see wrong_key_fault): a wrong one is caught then, and proved, by anyone.

    def _check_release(self, submission: Submission, sub: KeysSub) -> list[tuple[int, int, int, int | None, bytes | None]]:
        """Check a ``release`` (§B16): exactly the shares its author owes in this keys round; each
        published one proved by its path to the author's root, each sealed one's path of the
        right form (its receiver checks the rest). Returns ``(seat, slot, share or 0, to, box)``
        items."""
        self._fields(submission, RELEASE, {"public": (tuple, list), "sealed": (tuple, list)})
        assert sub.requirements is not None
        author = submission.seat
        owed = sub.requirements[author].shares
        if not owed or author in sub.released:
            raise self._illegal(submission, FaultCode.ILLEGAL, "released shares it does not owe")
        if self.elgamal:
            return self._check_released_parts(submission, owed)
        items: list[tuple[int, int, int, int | None, bytes | None]] = []
        paths = []
        for item in submission.body["public"]:
            if not (isinstance(item, (tuple, list)) and len(item) == 4 and type(item[0]) is int
                    and type(item[1]) is int and isinstance(item[2], bytes) and len(item[2]) == 32):
                raise self._illegal(submission, FaultCode.MALFORMED, "released a malformed share")
            try:
                items.append((item[0], item[1], scalar_from_bytes(item[2]), None, None))
            except CryptoError:
                raise self._illegal(submission, FaultCode.MALFORMED, "released a share that is no scalar")
            paths.append(item[3])
        for item in submission.body["sealed"]:
            if not (isinstance(item, (tuple, list)) and len(item) == 5 and all(type(v) is int for v in item[:3])
                    and isinstance(item[3], bytes) and len(item[3]) <= MAX_SEALED_BOX):
                raise self._illegal(submission, FaultCode.MALFORMED, "sealed a malformed share")
            items.append((item[0], item[1], 0, item[2], item[3]))
            paths.append(item[4])
        if {(seat, slot, to) for seat, slot, _, to, _ in items} != owed or len(items) != len(owed):
            raise self._illegal(submission, FaultCode.ILLEGAL, "released other shares than it owed")
        for (seat, slot, share, to, _), path in zip(items, paths):
            if to is None:
                self._check_escrowed_share(submission, seat, slot, share, path, "released")
            else:  # its path's form only: its receiver checks the share it opens with it (§B16 step 4)
                crypto, index = self.deal_of_slot(slot)
                if not merkle_path_fits(index, crypto.size, path):
                    raise self._illegal(submission, FaultCode.MALFORMED, f"sealed a share of seat {seat}'s lock key for slot {slot} with a malformed path")
        return items

    def _check_released_parts(
        self, submission: Submission, owed: set[tuple[int, int, int | None]],
    ) -> list[tuple[int, int, Any, int | None, bytes | None]]:
        """A ``release`` at an ElGamal table (§B16): for each ``(seat, slot, to)`` owed, its
        author's part of rebuilt ``seat``'s share of ``slot`` — published as ``[seat, slot, part,
        proof]``, checked as it comes (``bad-key``), or sealed to ``to`` as ``[seat, slot, to,
        box]`` (part ‖ proof), which ``to`` checks. Returns ``(seat, slot, part or None, to,
        box)`` items."""
        items: list[tuple[int, int, Any, int | None, bytes | None]] = []
        for item in submission.body["public"]:
            if not (isinstance(item, (tuple, list)) and len(item) == 4 and type(item[0]) is int and type(item[1]) is int
                    and isinstance(item[2], bytes) and len(item[2]) == elgamal.POINT_SIZE
                    and isinstance(item[3], bytes) and len(item[3]) == elgamal.PROOF_SIZE):
                raise self._illegal(submission, FaultCode.MALFORMED, "released a malformed part of a share")
            items.append((item[0], item[1], ProvenShare(item[2], item[3]), None, None))
        for item in submission.body["sealed"]:
            if not (isinstance(item, (tuple, list)) and len(item) == 4 and all(type(v) is int for v in item[:3])
                    and isinstance(item[3], bytes) and len(item[3]) <= MAX_SEALED_BOX):
                raise self._illegal(submission, FaultCode.MALFORMED, "sealed a malformed part of a share")
            items.append((item[0], item[1], None, item[2], item[3]))
        if {(seat, slot, to) for seat, slot, _, to, _ in items} != owed or len(items) != len(owed):
            raise self._illegal(submission, FaultCode.ILLEGAL, "released other shares than it owed")
        for seat, slot, part, to, _ in items:
            if to is None and not self.released_part_holds(seat, slot, submission.seat, part):
                raise self._illegal(submission, FaultCode.BAD_KEY, f"released a wrong part of seat {seat}'s share of slot {slot}")
        return items

    def _parse_audit_keys(
        self, submission: Submission, deals: Sequence[int], field_holder: Mapping[str, Any] | None = None
    ) -> dict[int, SeatAuditKeys]:
        """The keys a seat publishes to audit ``deals`` (an ``audit``'s, or, with
        ``field_holder``, a ``hand-over``'s ``keys``): exactly one entry per deal it holds."""
        if field_holder is None:
            self._fields(submission, "audit", {"keys": (tuple, list)})
        body = field_holder if field_holder is not None else submission.body
        deals = [deal for deal in deals if submission.seat in self.deals[deal].holders]
        if self.elgamal:
            return self._parse_audit_shares(submission, deals, body)  # type: ignore[return-value]
        parsed: dict[int, SeatAuditKeys] = {}
        try:
            for item in body["keys"]:
                deal, rekey, shuffle, locks = item
                if type(deal) is not int:
                    raise TypeError(f"deal {deal!r} is not a number")
                parsed[deal] = SeatAuditKeys(
                    None if rekey is None else scalar_from_bytes(rekey),
                    None if shuffle is None else scalar_from_bytes(shuffle),
                    tuple(scalar_from_bytes(lock) for lock in locks),
                )
        except (CryptoError, TypeError, ValueError):
            raise self._illegal(submission, FaultCode.MALFORMED, "published malformed audit keys")
        if sorted(parsed) != sorted(deals) or len(parsed) != len(body["keys"]):
            raise self._illegal(submission, FaultCode.BAD_KEY, f"published audit keys for deals {sorted(parsed)}, not {sorted(deals)}")
        for deal, keys in parsed.items():
            try:
                self.deals[deal].check_audit_keys(submission.seat, keys)
            except PassProblem as error:
                raise self._illegal(submission, FaultCode.BAD_KEY, f"published inconsistent audit keys: {error}")
        return parsed

    def _parse_audit_shares(
        self, submission: Submission, deals: Sequence[int], body: Mapping[str, Any],
    ) -> dict[int, AuditShares]:
        """What a holder publishes to audit ``deals`` at an ElGamal table (§B6.3): for each deal
        it holds, ``[deal, pass seed: b32, [share: b32 × size], proof: b64]``, as deal → its
        :class:`AuditShares`. Each share it published before must come again; the proof is
        checked with the deal's audit."""
        parsed: dict[int, AuditShares] = {}
        try:
            for item in body["keys"]:
                deal, seed, shares, proof = item
                if type(deal) is not int or not isinstance(shares, (tuple, list)) or type(proof) is not bytes:
                    raise TypeError(f"deal {deal!r} is not a number with a list of shares and a proof")
                parsed[deal] = AuditShares(seed, tuple(shares), proof)
        except (TypeError, ValueError):
            raise self._illegal(submission, FaultCode.MALFORMED, "published a malformed audit")
        if sorted(parsed) != sorted(deals) or len(parsed) != len(body["keys"]):
            raise self._illegal(submission, FaultCode.BAD_KEY, f"published an audit of deals {sorted(parsed)}, not {sorted(deals)}")
        for deal, audit in parsed.items():
            try:
                self.deals[deal].check_audit(submission.seat, audit)
            except PassProblem as error:
                raise self._illegal(submission, FaultCode.BAD_KEY, f"published an inconsistent audit: {error}")
        return parsed

    def _check_audit(self, submission: Submission, sub: AuditSub) -> None:
        self._parse_audit_keys(submission, sub.deals)

    def _check_dispute(self, submission: Submission) -> None:
        self._fields(submission, "dispute", {"slot": int, "reason": str})
        phase = self.phase
        slot = submission.body["slot"]
        try:
            crypto, _ = self.deal_of_slot(slot)
        except KeyError:
            raise self._illegal(submission, FaultCode.BAD_DISPUTE, f"disputed slot {slot}, which is in no open deal")
        if crypto.next_pass() is not None:
            raise self._illegal(submission, FaultCode.BAD_DISPUTE, f"disputed slot {slot} before its deal was locked")
        if isinstance(phase, CardPhase) and phase.dispute is not None:
            raise self._illegal(submission, FaultCode.BAD_DISPUTE, "disputed during a dispute")
        if isinstance(phase, OverPhase):
            raise self._illegal(submission, FaultCode.BAD_DISPUTE, "disputed after the game ended")

    def _check_open_seat(self, submission: Submission) -> None:
        self._fields(submission, OPEN_SEAT, {"seat": int})
        seat, consenting = submission.body["seat"], submission.seat
        if not 0 <= seat < self.players:
            raise self._illegal(submission, FaultCode.MALFORMED, f"asked to open seat {seat}, which doesn't exist")
        if consenting in self.open_seats:
            raise self._illegal(submission, FaultCode.ILLEGAL, "consented for a seat played by a bot")
        if seat == consenting:
            raise self._illegal(submission, FaultCode.ILLEGAL, "asked to hand its own seat to a bot without a word")
        if isinstance(self.phase, OverPhase):
            raise self._illegal(submission, FaultCode.ILLEGAL, "asked to open a seat after the game ended")
        if consenting in self.open_consents.get(seat, ()):
            raise self._illegal(submission, FaultCode.ILLEGAL, f"consented twice to opening seat {seat}")
        problem = self.open_seat_problem(seat)
        if problem is not None and self.rebuild_problem(seat) is not None:
            raise self._illegal(submission, FaultCode.ILLEGAL, f"asked to open seat {seat}, but {problem}")

    def _check_take_over(self, submission: Submission) -> None:
        """A take-over (§B15): one consent of every remaining seat, in seat order, each signed by
        its seat and naming this entry, the host and the author; the host's seat can open."""
        self._fields(submission, TAKE_OVER, {"consents": (tuple, list)})
        author, host = submission.seat, self.sequencer
        if author == host or author in self.open_seats:
            raise self._illegal(submission, FaultCode.ILLEGAL, "took the table over, but it is no remaining seat")
        remaining = [seat for seat in self.playing_seats if seat != host]
        consents = submission.body["consents"]
        if len(consents) != len(remaining):
            raise self._illegal(submission, FaultCode.ILLEGAL, f"took the table over with {len(consents)} consents, not {len(remaining)}")
        wanted = self.take_over_body(author)
        for seat, raw in zip(remaining, consents):
            try:
                consent = open_envelope(raw) if isinstance(raw, bytes) else None
            except MalformedMessage:
                consent = None
            if consent is None or consent.kind != "takeover":
                raise self._illegal(submission, FaultCode.MALFORMED, f"took the table over with a malformed consent of seat {seat}")
            try:
                if consent.sender != self.seats[seat].key.raw:
                    raise BadSignature("signed by another key")
                consent.verify(self.seats[seat].key)
            except (BadSignature, MalformedMessage):
                raise self._illegal(submission, FaultCode.BAD_SIGNATURE, f"took the table over with a consent not signed by seat {seat}") from None
            if consent.body != wanted:
                raise self._illegal(submission, FaultCode.ILLEGAL, f"took the table over with seat {seat}'s consent to another take-over")
        problem = self.take_over_problem()
        if problem is not None:
            raise self._illegal(submission, FaultCode.ILLEGAL, f"took the table over, but the host's seat can't be opened: {problem}")

    def _check_forfeit(self, submission: Submission) -> None:
        """A win by forfeit (§B17): at a two-player table that chose it, claimed by one of the
        two, the other still its own (not played by a bot), before the game is over. (Whether
        the other had gone for good is the claimant's word: nothing in the log can show it.)"""
        self._fields(submission, FORFEIT, {})
        if not self.ruleset.forfeit:
            raise self._illegal(submission, FaultCode.ILLEGAL, "claimed a win by forfeit at a table that plays none")
        if isinstance(self.phase, OverPhase):
            raise self._illegal(submission, FaultCode.ILLEGAL, "claimed a win by forfeit after the game ended")
        if self.open_seats:
            raise self._illegal(submission, FaultCode.ILLEGAL, "claimed a win by forfeit against a seat played by a bot")

    def _check_escrow(self, submission: Submission) -> None:
        fields: dict[str, type | tuple[type, ...]] = {"holders": (tuple, list), "commitments": (tuple, list), "boxes": (tuple, list)}
        if self.elgamal:  # (its deck key's split besides, §B16)
            fields.update(deck=(tuple, list), deck_boxes=(tuple, list))
        self._fields(submission, ESCROW, fields)
        body, seat = submission.body, submission.seat
        holders, commitments, boxes = body["holders"], body["commitments"], body["boxes"]
        if not (len(holders) == len(commitments) == len(boxes)
                and all(type(holder) is int for holder in holders)
                and all(isinstance(c, bytes) and len(c) == SHARE_COMMITMENT_SIZE and c[0] in (2, 3) for c in commitments)
                and all(isinstance(box, bytes) and len(box) <= MAX_SHARE_BOX for box in boxes)):
            raise self._illegal(submission, FaultCode.MALFORMED, "sent a malformed escrow")
        if self.elgamal and not (
            len(body["deck"]) == len(body["deck_boxes"]) == len(holders)
            and all(isinstance(c, bytes) and len(c) == elgamal.POINT_SIZE for c in body["deck"])
            and all(isinstance(box, bytes) and len(box) <= MAX_SHARE_BOX for box in body["deck_boxes"])
        ):
            raise self._illegal(submission, FaultCode.MALFORMED, "sent a malformed escrow of its deck key")
        if seat in self.open_seats:
            raise self._illegal(submission, FaultCode.ILLEGAL, "escrowed the secret of a seat played by a bot")
        due = self.escrow_holders_due(seat)
        if due is None or tuple(holders) != due:
            raise self._illegal(submission, FaultCode.ILLEGAL, f"escrowed its secret among seats {list(holders)}, which is not due")
        if self.elgamal and not self._deck_escrow(body).check_commitments(self.seats[seat].deck_key):  # type: ignore[arg-type]
            # Shares that don't add up to its key would open no card of its: found at once.
            raise self._illegal(submission, FaultCode.ILLEGAL, "escrowed shares of its deck key that don't add up to its key")

    @staticmethod
    def _deck_escrow(body: Mapping[str, Any]) -> KeyEscrow:
        return KeyEscrow(tuple(body["holders"]), tuple(body["deck"]), tuple(body["deck_boxes"]))

    def _check_lock_escrow(self, submission: Submission) -> None:
        self._fields(submission, LOCK_ESCROW, {
            "deal": int, "holders": (tuple, list), "roots": (tuple, list), "offsets": (tuple, list), "boxes": (tuple, list),
        })
        body, seat = submission.body, submission.seat
        deal, holders, roots, offsets, boxes = body["deal"], body["holders"], body["roots"], body["offsets"], body["boxes"]
        if not (len(holders) == len(roots) == len(boxes)
                and all(type(holder) is int for holder in holders)
                and all(isinstance(root, bytes) and len(root) == 32 for root in roots)
                and all(isinstance(offset, bytes) and len(offset) == 32 and int.from_bytes(offset, "big") < CURVE_ORDER
                        for offset in offsets)
                and all(isinstance(box, bytes) and len(box) <= MAX_SEED_BOX for box in boxes)):
            raise self._illegal(submission, FaultCode.MALFORMED, "sent a malformed escrow of lock keys")
        if dict(self.lock_escrows_due(seat)).get(deal) != tuple(holders):
            raise self._illegal(submission, FaultCode.ILLEGAL, f"escrowed its lock keys of deal {deal} among seats {list(holders)}, which is not due")
        if len(offsets) not in (0, self.deals[deal].size):  # (a deal it holds: due)
            raise self._illegal(submission, FaultCode.MALFORMED, f"escrowed its lock keys of deal {deal} with {len(offsets)} offsets")

    def _check_rebuild(self, submission: Submission) -> tuple[int, list[tuple[int, int]], list[tuple[int, int]]]:
        """Check a ``rebuild`` consent (§B16); returns its share, its ``sent`` keys and its lock-key shares."""
        self._fields(submission, REBUILD, {"seat": int, "share": bytes, "sent": (tuple, list), "locks": (tuple, list)})
        body, author = submission.body, submission.seat
        seat = body["seat"]
        if not 0 <= seat < self.players:
            raise self._illegal(submission, FaultCode.MALFORMED, f"gave shares of seat {seat}, which doesn't exist")
        if seat not in self.rebuilding:
            # Shares go public only once the seat is opened for good: every seat agreed (§B16).
            raise self._illegal(submission, FaultCode.ILLEGAL, f"gave its shares of seat {seat}, which is not being rebuilt")
        if author not in self.escrows[seat].holders or author in self.open_seats:
            raise self._illegal(submission, FaultCode.ILLEGAL, f"gave shares of seat {seat}'s escrow, which it does not hold")
        if author in self.rebuild_shares.get(seat, {}) and not self.rebuild_shares_stale(author, seat):
            raise self._illegal(submission, FaultCode.ILLEGAL, f"gave its share of seat {seat}'s escrow twice")
        try:
            share = scalar_from_bytes(body["share"])
        except CryptoError:
            raise self._illegal(submission, FaultCode.MALFORMED, "gave an escrow share that is no scalar")
        if not check_share(share, self.escrows[seat].commitment_of(author)):
            raise self._illegal(submission, FaultCode.ILLEGAL, f"gave a share that does not match its commitment in seat {seat}'s escrow")
        if self.elgamal:
            return (share, *self._check_elgamal_rebuild(submission, seat))  # type: ignore[return-value]
        sent = self._slot_scalars(submission, body["sent"], "sent a malformed key in a rebuild")
        if [slot for slot, _ in sent] != self.rebuild_sent_slots(author, seat):
            raise self._illegal(submission, FaultCode.ILLEGAL, f"did not send exactly its keys of the cards in seat {seat}'s keeping")
        for slot, key in sent:
            crypto, index = self.deal_of_slot(slot)
            if not crypto.check_published_key(index, author, key):
                raise self._illegal(submission, FaultCode.BAD_KEY, f"sent a wrong key for slot {slot}")
        locks = []
        for item in body["locks"]:  # [slot, share, path]
            if not (isinstance(item, (tuple, list)) and len(item) == 3):
                raise self._illegal(submission, FaultCode.MALFORMED, "gave a malformed lock-key share")
            locks.append((*self._slot_scalar(submission, item[:2], "gave a malformed lock-key share"), item[2]))
        if [slot for slot, _, _ in locks] != self.rebuild_lock_slots(seat):
            raise self._illegal(submission, FaultCode.ILLEGAL, f"did not give exactly its shares of seat {seat}'s lock keys due")
        for slot, lock_share, path in locks:
            self._check_escrowed_share(submission, seat, slot, lock_share, path, "gave")
        return share, sent, [(slot, lock_share) for slot, lock_share, _ in locks]

    def _proven_items(self, submission: Submission, items: Any, what: str) -> list[tuple[int, ProvenShare]]:
        """``[[slot, share: b32, proof: b64] …]`` read as ``(slot, share)`` pairs of slots that
        some deal has; anything else is ``malformed`` (``what`` says what it was)."""
        read = []
        for item in items:
            if not (isinstance(item, (tuple, list)) and len(item) == 3 and type(item[0]) is int
                    and isinstance(item[1], bytes) and len(item[1]) == elgamal.POINT_SIZE
                    and isinstance(item[2], bytes) and len(item[2]) == elgamal.PROOF_SIZE):
                raise self._illegal(submission, FaultCode.MALFORMED, f"gave a malformed {what}")
            try:
                self.deal_of_slot(item[0])
            except KeyError:
                raise self._illegal(submission, FaultCode.MALFORMED, f"gave a {what} of slot {item[0]}, which no deal has") from None
            read.append((item[0], ProvenShare(item[1], item[2])))
        return read

    def _check_elgamal_rebuild(
        self, submission: Submission, seat: int,
    ) -> tuple[list[tuple[int, ProvenShare]], list[tuple[int, ProvenShare]]]:
        """A ``rebuild`` consent's ``sent`` and ``locks`` at an ElGamal table (§B16): its author's
        own shares of the cards in ``seat``'s keeping that only ``seat`` could see, each with its
        share proof; and, for each slot the rebuild shows, its part of ``seat``'s share — its
        share of ``seat``'s deck key times the slot's nonce —, proven against its commitment in
        ``seat``'s escrow. A share or part whose proof fails is ``bad-key``, refused as it comes."""
        author, body = submission.seat, submission.body
        sent = self._proven_items(submission, body["sent"], "share in a rebuild")
        if [slot for slot, _ in sent] != self.rebuild_sent_slots(author, seat):
            raise self._illegal(submission, FaultCode.ILLEGAL, f"did not send exactly its shares of the cards in seat {seat}'s keeping")
        for slot, share in sent:
            crypto, index = self.deal_of_slot(slot)
            if not crypto.share_holds(self.game_id, index, author, share):
                raise self._illegal(submission, FaultCode.BAD_KEY, f"sent a wrong share of slot {slot}")
        parts = self._proven_items(submission, body["locks"], "part of a share in a rebuild")
        if [slot for slot, _ in parts] != self.rebuild_lock_slots(seat):
            raise self._illegal(submission, FaultCode.ILLEGAL, f"did not give exactly its parts of seat {seat}'s shares due")
        for slot, part in parts:
            if not self.released_part_holds(seat, slot, author, part):
                raise self._illegal(submission, FaultCode.BAD_KEY, f"gave a wrong part of seat {seat}'s share of slot {slot}")
        return sent, parts

    def released_part_holds(self, seat: int, slot: int, holder: int, part: ProvenShare) -> bool:
        """Whether ``part`` is ``holder``'s part of rebuilt ``seat``'s share of ``slot``: its share
        of ``seat``'s deck key times the slot's nonce, as its proof shows against its commitment
        in ``seat``'s escrow (§B16). Never raises."""
        record = self.escrows.get(seat)
        try:
            crypto, index = self.deal_of_slot(slot)
        except KeyError:
            return False
        if record is None or record.deck is None or crypto.next_pass() is not None:
            return False
        return released_share_holds(record.deck, part, crypto.locked[index].nonce, self.game_id, slot, seat, holder)

    def _check_escrowed_share(self, submission: Submission, seat: int, slot: int, share: int, path: Any, verb: str) -> None:
        """``share``, given (``verb``) by the author as its share of ``seat``'s lock key at
        ``slot``, comes with ``path``: 32-byte hashes, exactly as many as the slot's depth in the
        tree (else ``malformed``), that lead its digest to the author's root in ``seat``'s lock
        escrow of the slot's deal (else ``illegal``, §B16)."""
        crypto, index = self.deal_of_slot(slot)
        if not merkle_path_fits(index, crypto.size, path):
            raise self._illegal(submission, FaultCode.MALFORMED, f"{verb} a share of seat {seat}'s lock key for slot {slot} with a malformed path")
        if not self.lock_escrows[(seat, crypto.deal)].matches(self.game_id, seat, submission.seat, index, share, path):
            raise self._illegal(submission, FaultCode.ILLEGAL,
                                f"{verb} a share of seat {seat}'s lock key for slot {slot} whose path does not lead to its root")

    def _slot_scalars(self, submission: Submission, items: Any, malformed: str) -> list[tuple[int, int]]:
        """``[[slot, scalar as 32 bytes]…]`` read as ``(slot, scalar)`` pairs; anything else is
        ``malformed`` (the words say what)."""
        return [self._slot_scalar(submission, item, malformed) for item in items]

    def _slot_scalar(self, submission: Submission, item: Any, malformed: str) -> tuple[int, int]:
        """One ``[slot, scalar as 32 bytes]`` item (see :meth:`_slot_scalars`)."""
        if not (isinstance(item, (tuple, list)) and len(item) == 2 and type(item[0]) is int
                and isinstance(item[1], bytes) and len(item[1]) == 32):
            raise self._illegal(submission, FaultCode.MALFORMED, malformed)
        try:
            return item[0], scalar_from_bytes(item[1])
        except CryptoError:
            raise self._illegal(submission, FaultCode.MALFORMED, f"{malformed}: slot {item[0]}'s is no scalar")

    def _check_hand_over(self, submission: Submission) -> dict[int, SeatAuditKeys]:
        """Check a ``hand-over``: allowed now, every key of every deal it must cover, consistent
        with what it published and each lock key with its verifier, and the opening of its sealed
        choice if it has one; returns its keys by deal."""
        self._fields(submission, HAND_OVER, {
            "keys": (tuple, list), "received": (tuple, list), "opening": (tuple, list, type(None)),
            "successor": (int, type(None)),
        })
        seat = submission.seat
        problem = self.hand_over_problem(seat)
        if problem is not None:
            raise self._illegal(submission, FaultCode.ILLEGAL, f"handed its seat over, but {problem}")
        successor = submission.body["successor"]
        if seat == self.sequencer:
            # The host hands the log over too: to a seat that plays (§B15).
            if type(successor) is not int or successor not in self.successor_candidates():
                raise self._illegal(submission, FaultCode.ILLEGAL, f"handed the log to {successor!r}, which is no seat that could host it")
        elif successor is not None:
            raise self._illegal(submission, FaultCode.ILLEGAL, "named a successor, but it does not host the table")
        deals = [crypto.deal for crypto in self.unaudited_deals_of(seat)]
        keys = self._parse_audit_keys(submission, deals, field_holder=submission.body)
        if self.elgamal:
            self._check_handed_shares(submission, keys)  # type: ignore[arg-type]
        for deal, published in keys.items() if not self.elgamal else ():
            crypto = self.deals[deal]
            for index, lock in enumerate(published.locks):
                # Checked at once (its cards are shown from now on): a wrong key is proved here.
                if not crypto.check_published_key(index, seat, lock):
                    raise self._illegal(submission, FaultCode.BAD_KEY, f"handed over a wrong key for slot {crypto.first_slot + index}")
        for slot, sender, key in self._received_keys(submission):
            crypto, index = self.deal_of_slot(slot)
            if not (crypto.share_holds(self.game_id, index, sender, key) if self.elgamal
                    else crypto.check_published_key(index, sender, key)):
                raise self._illegal(submission, FaultCode.BAD_KEY, f"handed over a wrong key of seat {sender} for slot {slot}")
        opening = submission.body["opening"]
        sealed = self.sealed is not None and seat in self.sealed.seats
        if sealed != (opening is not None):
            raise self._illegal(
                submission, FaultCode.ILLEGAL,
                "handed over without opening its sealed choice" if sealed else "handed over an opening it has no use for",
            )
        if opening is not None:
            assert self.sealed is not None
            if not (len(opening) == 2 and isinstance(opening[0], bytes)):
                raise self._illegal(submission, FaultCode.MALFORMED, "handed over a malformed opening")
            salt, value = opening
            try:
                check_opening(self.sealed.commitments[seat], CHOICE_DOMAIN, self.game_id, seat,
                              [self.sealed.phase_id, value], salt)
            except BadCommitment:
                raise self._fault(
                    seat, FaultCode.BAD_OPENING, "handed over an opening that does not open its sealed choice",
                    (self._commit_envelopes.get((self.sealed.phase_id, seat), b""), submission.envelope.raw),
                )
        return keys

    def _check_handed_shares(self, submission: Submission, handed: dict[int, AuditShares]) -> None:
        """At an ElGamal table: every share a hand-over publishes is checked at once (its cards
        are shown from now on), so wrong ones are its author's ``bad-key``, proved by it (§B6.3)."""
        for deal, audit in handed.items():
            if not self.deals[deal].audit_shares_hold(self.game_id, submission.seat, audit):
                raise self._illegal(submission, FaultCode.BAD_KEY, f"handed over shares of deal {deal} that fail their proof")

    def _received_keys(self, submission: Submission) -> list[tuple[int, int, Any]]:
        """A hand-over's ``received``: ``(slot, sender, key)`` — another seat's key, sealed to the
        leaver, of a card in its keeping; each slot of a live deal the leaver knows, the sender
        one of its holders whose key is not published yet, once each. At an ElGamal table, a
        share with its proof: ``[slot, sender, share, proof]`` (§B6.3)."""
        found: list[tuple[int, int, Any]] = []
        pairs: set[tuple[int, int]] = set()
        for item in submission.body["received"]:
            if not (isinstance(item, (tuple, list)) and len(item) == (4 if self.elgamal else 3) and type(item[0]) is int
                    and type(item[1]) is int and isinstance(item[2], bytes) and len(item[2]) == 32):
                raise self._illegal(submission, FaultCode.MALFORMED, "handed over a malformed received key")
            slot, sender, raw = item[:3]
            try:
                crypto, index = self.deal_of_slot(slot)
                key = ProvenShare(raw, item[3]) if self.elgamal else scalar_from_bytes(raw)
            except (KeyError, CryptoError, ValueError):
                raise self._illegal(submission, FaultCode.MALFORMED, f"handed over a received key for slot {slot} that is none")
            if (sender == submission.seat or sender not in crypto.unreleased[index]
                    or submission.seat not in crypto.knows[index] or (slot, sender) in pairs):
                raise self._illegal(submission, FaultCode.ILLEGAL, f"handed over a key of seat {sender} for slot {slot} it may not")
            pairs.add((slot, sender))
            found.append((slot, sender, key))
        return found

    # -- applying ------------------------------------------------------------------------------

    def apply_entry(
        self, data: bytes | Envelope, verify_author: Callable[[int, bytes], bool] | None = None
    ) -> Applied:
        """Check and apply one sequenced entry from the host; raises :class:`ProtocolFault`.

        The entry's ``state`` (the host's hash after applying it) is *not* compared here: it is
        the host's acknowledgement, and the session weighs it with everyone else's.

        ``verify_author(seat, raw)`` says whether to check the signature of the submission inside
        now (default: always); a caller that defers some must check them later — the returned
        :class:`Applied` says whether it was checked.
        """
        host = self.sequencer
        try:
            envelope = data if isinstance(data, Envelope) else open_envelope(data)
        except MalformedMessage as error:
            raise self._fault(host, FaultCode.MALFORMED, f"sent a malformed log entry: {error}")
        if envelope.kind != "entry":
            raise self._fault(host, FaultCode.MALFORMED, f"sent {with_article(envelope.kind)} where a log entry belongs")
        if envelope.sender != self.seats[host].key.raw:
            # Not the host's: the one entry another seat signs is its own take-over or forfeit (§B15, §B17).
            host = self.self_sequenced_author(envelope.body["submission"])
            if host is None:
                host = self.sequencer
        if envelope.sender != self.seats[host].key.raw:
            raise self._fault(host, FaultCode.BAD_SIGNATURE, "a log entry is signed by someone other than the host")
        try:
            envelope.verify(self.seats[host].key)
        except (BadSignature, MalformedMessage) as error:
            raise self._fault(host, FaultCode.BAD_SIGNATURE, f"sent a log entry with a bad signature ({error})")
        body = envelope.body
        if body["game_id"] != self.game_id:
            raise self._fault(host, FaultCode.REPLAY, "sent a log entry of another game")
        if body["seq"] != self.seq or body["prev"] != self.head:
            raise self._fault(
                host, FaultCode.BAD_SEQUENCE,
                f"sent entry {body['seq']} out of order (expected {self.seq} after {self.head.hex()[:12]})",
                (envelope.raw,),
            )
        inner = body["submission"]
        eager = True
        checked: bytes | Envelope = inner
        if verify_author is not None:
            try:
                opened = open_envelope(inner)
                author = self.author_of(opened.body["seat"]) if opened.kind == "submit" else host
                checked = opened  # parsed once
            except MalformedMessage:
                author = host  # check_submission reports it properly below
            eager = verify_author(author, inner)
        try:
            try:
                submission = self.check_submission(checked, None, host_signed=True, verify_author=eager, sequenced_by=host)
            except ProtocolFault:
                if not eager:
                    # A fault in the author's name counts only if the author signed the submission:
                    # check the signature now (a forgery is the host's fault, raised here).
                    self.check_submission(inner, None, host_signed=True, sequenced_by=host)
                raise
        except ProtocolFault as problem:
            if problem.fault.code == FaultCode.BAD_SIGNATURE and problem.fault.culprit == host:
                # The host's signature on the entry proves it sequenced the forgery.
                fault = problem.fault
                raise ProtocolFault(Fault(fault.culprit, fault.code, fault.reason, fault.seq, None, (envelope.raw,)))
            raise
        author = self.author_of(submission.seat)  # before applying: it may open a seat
        applied = self._apply(submission)
        applied.author = author
        applied.author_verified = eager or author == host
        self.link(applied, envelope)
        return applied

    def self_sequenced_author(self, raw: Any) -> int | None:
        """The author of the take-over or forfeit in an entry's ``submission`` bytes ``raw`` —
        the seat that signs that entry instead of the host (§B15, §B17) —, or ``None`` if it
        holds none (or one by the host itself)."""
        try:
            inner = open_envelope(raw) if isinstance(raw, bytes) else None
        except MalformedMessage:
            return None
        kind = inner.body["body"].get("t") if inner is not None and inner.kind == "submit" else None
        if not isinstance(kind, str) or kind not in SELF_SEQUENCED:
            return None
        seat = inner.body["seat"]
        return seat if 0 <= seat < self.players and seat != self.sequencer else None

    def sequence(self, submission: Submission) -> Applied:
        """Host: apply a submission it checked itself; then sign the entry and :meth:`link` it."""
        return self._apply(submission)

    def link(self, applied: Applied, entry: Envelope) -> None:
        """Make ``entry`` (the sequenced form of ``applied``) the head of the chain."""
        self.head = applied.entry_digest = entry.digest
        self.chain.append(entry.digest)
        self.entry_states.append(entry.body["state"])

    def logged(self, seq: int) -> tuple[bytes, bytes] | None:
        """Entry ``seq``'s digest and its ``state`` field, if it is in the log (what an
        acknowledgement's item leaves out, see :mod:`p2pgames.session._acks`)."""
        if 0 <= seq < len(self.entry_states):
            return self.chain[seq + 1], self.entry_states[seq]
        return None

    def contradicts_chain(self, entry: Envelope) -> bool:
        """Whether ``entry`` (signed by the host) contradicts the log linked so far.

        An honest host signs one entry per number, entry ``s`` linked to ``chain[s]``. So the host
        broke its chain if ``entry`` is of this game and is a second, different entry ``s``
        already in the log, or its number ``s`` is at most the log's length but it does not link
        to ``chain[s]``; or if it links to ``chain[i]`` with another number than ``i``, or with
        another game's id. An entry that is in the log already (a repeated record), or that links
        to no entry of the log (a dropped or moved record, another game's entry), contradicts
        nothing.
        """
        chain, body = self.chain, entry.body
        seq, prev = body["seq"], body["prev"]
        logged = len(chain) - 1
        linked = chain.index(prev) if prev in chain else None
        if body["game_id"] != self.game_id:
            return linked is not None
        if seq < logged and entry.digest != chain[seq + 1]:
            return True
        if seq <= logged and prev != chain[seq]:
            return True
        return linked is not None and linked != seq

    def host_entry(self, raw: Any) -> Envelope | None:
        """The entry in ``raw`` if it is one the host signed — the seat that signs entries of its
        number (:meth:`sequencer_at`) —, else ``None``."""
        try:
            envelope = open_envelope(raw)
            if envelope.kind != "entry" or type(envelope.body.get("seq")) is not int:
                return None
            key = self.seats[self.sequencer_at(envelope.body["seq"])].key
            if envelope.sender != key.raw:
                return None
            envelope.verify(key)
        except (MalformedMessage, BadSignature):
            return None
        return envelope

    def _apply(self, submission: Submission) -> Applied:
        applied = Applied(self.seq, b"", submission)
        seat = submission.seat
        self.counters[seat] += 1
        self.seq += 1
        kind = submission.kind
        if kind == "dispute":
            self._apply_dispute(applied, submission)
        elif kind == OPEN_SEAT:
            self._apply_open_seat(applied, submission)
        elif kind == HAND_OVER:
            self._apply_hand_over(applied, submission)
        elif kind == TAKE_OVER:
            host = self.sequencer
            self.sequencers.append((applied.seq, seat))  # this entry is the author's already
            self.open_consents.pop(host, None)
            self._open_departed(applied, host)
        elif kind == FORFEIT:
            if seat != self.sequencer:
                self.sequencers.append((applied.seq, seat))  # the host gone: this entry is the author's
            gone = 1 - seat  # (two players)
            self.forfeit = (seat, gone, applied.seq)
            self.phase = OverPhase(GameOver((), (seat,), "a win by forfeit, the other player gone"))
        elif kind == ESCROW:
            body = submission.body
            self.escrows[seat] = EscrowRecord(
                tuple(body["holders"]), tuple(body["commitments"]), tuple(body["boxes"]), applied.seq,
                submission.envelope.raw, self._deck_escrow(body) if self.elgamal else None,
            )
        elif kind == LOCK_ESCROW:
            body = submission.body
            self.lock_escrows[(seat, body["deal"])] = LockEscrowRecord(
                body["deal"], self.deals[body["deal"]].size, tuple(body["holders"]), tuple(body["roots"]),
                tuple(int.from_bytes(offset, "big") for offset in body["offsets"]), tuple(body["boxes"]),
                applied.seq, submission.envelope.raw,
            )
        elif kind == REBUILD:
            share, sent, locks = self._check_rebuild(submission)  # checked already: only read here
            target = submission.body["seat"]
            self.rebuild_shares.setdefault(target, {})[seat] = (share, sent, locks, submission.envelope.raw)
            if set(self.rebuild_shares[target]) == set(self.escrows[target].holders) and self._rebuild(applied, target):
                del self.rebuild_shares[target]
        elif kind == "act":
            action = self.game.decode_action(submission.body["action"])
            for item in submission.body.get("public", ()):
                # Published now rather than in the keys sub-step the act begins (§B5): that
                # sub-step owes them no more, and shows the slot when it is done.
                self._publish_item(item, seat, submission.envelope.raw)
            self._engine(applied, Act(seat, action))
            if submission.body.get("sealed"):
                self._apply_sealed_riding(applied, submission)
        elif kind in ("commit", "open"):
            self._apply_commit_or_open(applied, submission)
        elif kind == "pass":
            self._apply_pass(applied, submission)
        elif kind == "keys":
            self._apply_keys(applied, submission)
        elif kind == RELEASE:
            self._apply_release(applied, submission)
        elif kind == "audit":
            self._apply_audit(applied, submission)
        return applied

    def _engine(self, applied: Applied | None, event: Event) -> None:
        """Feed one event to the game and move to the phase of its next step."""
        before = self.state
        try:
            self.state = self.game.apply(self.state, event)
        except RuleViolation as violation:
            raise self._fault(
                violation.player, FaultCode.RULE_VIOLATION,
                f"broke a rule that the revealed cards show: {violation.reason}",
            )
        except IllegalAction as error:
            evidence = (applied.submission.envelope.raw,) if applied is not None else ()
            raise self._fault(error.player, FaultCode.ILLEGAL, f"made an illegal move: {error.reason}", evidence)
        if applied is not None:
            applied.events.append((before, event, self.state))
        self.state_hash = self.game.state_hash(self.state)
        live = self.state.cards.deals
        for deal in [deal for deal in self.deals if deal not in live]:
            # The game retired it (a deal we know that the state no longer has): no slot of it is
            # referred to again, so its crypto goes.
            crypto = self.deals.pop(deal)
            for seat in range(self.players):
                self.lock_escrows.pop((seat, deal), None)
            self.rekey_stand_ins.pop(deal, None)
            slots = range(crypto.first_slot, crypto.first_slot + crypto.size)
            for key in [key for key in self.released_shares if key[1] in slots]:
                del self.released_shares[key]
            if applied is not None:
                applied.retired[deal] = range(crypto.first_slot, crypto.first_slot + crypto.size)
                # Keys this entry published there (a rebuild's, §B16, then the audit it let end)
                # show nothing any more: the deal is gone.
                applied.key_slots = [slot for slot in applied.key_slots if slot not in applied.retired[deal]]
        self.phase = self._phase_for(self.game.step(self.state), applied)

    def _apply_commit_or_open(self, applied: Applied, submission: Submission) -> None:
        phase = self.phase
        assert isinstance(phase, CommitPhase)
        seat = submission.seat
        if submission.kind == "commit":
            phase.commitments[seat] = submission.body["commitment"]
            self._commit_envelopes[(phase.phase_id, seat)] = submission.envelope.raw
            if phase.seals and phase.opening:
                # Kept (with the commit envelopes, as evidence) until the game's Unseal step.
                self.sealed = SealedSet(phase.phase_id, phase.seats, dict(phase.commitments), self.state)
                self._engine(applied, ChoicesSealed())
            return
        value = submission.body["value"]
        phase.openings[seat] = value if phase.purpose == RANDOM_DOMAIN else self.game.decode_action(value)
        self._finish_commit_phase(applied, phase)

    def _finish_commit_phase(self, applied: Applied, phase: CommitPhase) -> None:
        """Once every seat of ``phase`` has opened: the chance outcome or the choices, to the game."""
        if len(phase.openings) < len(phase.seats):
            return
        for key in [key for key in self._commit_envelopes if key[0] == phase.phase_id]:
            del self._commit_envelopes[key]
        if self.sealed is not None and self.sealed.phase_id == phase.phase_id:
            self.sealed = None  # opened: the game may seal again
        if phase.purpose == RANDOM_DOMAIN:
            seed = combine_contributions([phase.openings[s] for s in phase.seats])
            self._engine(applied, ChanceOutcome(seed))
        else:
            self._engine(applied, SimultaneousActs(tuple(sorted(phase.openings.items()))))

    def _apply_hand_over(self, applied: Applied, submission: Submission) -> None:
        seat = submission.seat
        # Checked whole before it was applied (check_submission): here it is only read.
        keys = self._parse_audit_keys(submission, [crypto.deal for crypto in self.unaudited_deals_of(seat)],
                                      field_holder=submission.body)
        for deal, published in keys.items():
            crypto = self.deals[deal]
            locks = published.shares if self.elgamal else published.locks  # (its shares, §B6.3)
            for index, lock in enumerate(locks):
                if seat in crypto.unreleased[index]:
                    crypto.publish(index, seat, lock, submission.envelope.raw)
                    applied.key_slots.append(crypto.first_slot + index)
        for slot, sender, key in self._received_keys(submission):
            crypto, index = self.deal_of_slot(slot)
            crypto.publish(index, sender, key.share if self.elgamal else key, submission.envelope.raw)
            applied.key_slots.append(slot)
        self.handed_over[seat] = keys
        if submission.body["opening"] is not None:
            salt, value = submission.body["opening"]
            self.handed_opening[seat] = (salt, value)
        self.open_consents.pop(seat, None)
        self._open(applied, seat)
        if submission.body["successor"] is not None:
            self.sequencers.append((applied.seq + 1, submission.body["successor"]))

    def _apply_open_seat(self, applied: Applied, submission: Submission) -> None:
        self._consent(applied, submission.body["seat"], submission.seat)

    def _consent(self, applied: Applied, seat: int, consenting: int) -> None:
        """Record ``consenting``'s consent to opening ``seat``; with every playing seat's, open it:
        as it is if nothing stops that (§B14), else to be rebuilt from its escrow — the holders
        give their shares from then on, when it can no longer come back (§B16)."""
        consents = self.open_consents.setdefault(seat, set())
        consents.add(consenting)
        if not all(other in consents for other in self.playing_seats if other != seat):
            return
        if self.open_seat_problem(seat) is not None and self.rebuild_problem(seat) is not None:
            return  # neither can be now: it waits
        del self.open_consents[seat]
        self._open_departed(applied, seat)

    def _open_departed(self, applied: Applied, seat: int) -> None:
        """Open ``seat``, departed, with every playing seat's consent (or by a take-over): as it
        is if nothing stops that (§B14), else to be rebuilt from its escrow — the holders give
        their shares from then on, when it can no longer come back (§B16)."""
        if self.open_seat_problem(seat) is not None:  # (its rebuild can: checked before)
            self.rebuilding.add(seat)
        phase = self.phase
        if isinstance(phase, CommitPhase) and phase.purpose == CHOICE_DOMAIN and not phase.opening:
            # Nobody has opened yet: its caretaker chooses again, like any open seat's.
            phase.commitments.pop(seat, None)
            self._commit_envelopes.pop((phase.phase_id, seat), None)
        self._open(applied, seat)

    def _rebuild(self, applied: Applied, seat: int) -> bool:
        """Rebuild ``seat``'s escrow secret and its lock keys from every share, check the keys
        against what the seat signed, publish them and the keys the consents sent (§B16 steps
        1–4; the seat is open already). ``False`` (nothing done) if the lock shares given no
        longer cover the slots to rebuild (the cards moved since some were given)."""
        record = self.escrows[seat]
        given = self.rebuild_shares[seat]
        slots = self.rebuild_lock_slots(seat)
        if any([slot for slot, _ in locks] != slots for _, _, locks, _ in given.values()):
            return False  # the cards moved since some consents: their shares don't cover these
        secret = sum(share for share, _, _, _ in given.values()) % CURVE_ORDER
        if not secret or escrow_commitments(secret, len(record.holders)) != record.commitments:
            raise self._fault(seat, FaultCode.BAD_ESCROW, "escrowed shares that are no split of one secret")
        if self.elgamal:
            self._rebuild_elgamal(applied, seat, secret, slots)
            return True
        for crypto in self.unaudited_deals_of(seat):
            if ("shuffle", seat) in crypto.passes:
                # The secret its shuffles came from? (An escrow of another one shows here.)
                derived = deal_keys(secret, crypto.deal, crypto.size, crypto.source_slots is not None, locks=False)
                try:
                    made = shuffle_pass(crypto.input_of("shuffle", seat), derived.shuffle, derived.permutation)
                except (BadCardValue, CryptoError):
                    continue  # an earlier pass gave no points: the audit names whose
                if made != crypto.passes[("shuffle", seat)]:
                    raise self._fault(seat, FaultCode.BAD_ESCROW,
                                      f"escrowed another secret than its shuffle of deal {crypto.deal} came from")
        for position, slot in enumerate(slots):
            crypto, index = self.deal_of_slot(slot)
            record = self.lock_escrows[(seat, crypto.deal)]
            key = record.rebuilt_key(crypto, index, seat, (locks[position][1] for _, _, locks, _ in given.values()))
            if isinstance(key, str):
                raise self._fault(seat, FaultCode.BAD_ESCROW, f"escrowed shares that {key}")
            crypto.publish(index, seat, key, record.message)
            applied.key_slots.append(slot)
        self._after_rebuild(applied, seat, secret)
        return True

    def _after_rebuild(self, applied: Applied, seat: int, secret: int) -> None:
        """What follows a rebuild of ``seat`` with either deck: it is rebuilt; the keys (shares)
        the consents sent are published; and the card step under way goes on without it."""
        self.rebuilt[seat] = secret
        self.rebuilding.discard(seat)
        for author, (_, sent, _, message) in sorted(self.rebuild_shares[seat].items()):
            for slot, key in sent:
                crypto, index = self.deal_of_slot(slot)
                if author in crypto.unreleased[index]:
                    crypto.publish(index, author, key.share if self.elgamal else key, message)
                    applied.key_slots.append(slot)
        phase = self.phase
        if isinstance(phase, CardPhase):
            sub = phase.current
            if isinstance(sub, DealSub):
                # A re-shuffle that waited for this rebuild, or one it voids (protocol 10), is set up now.
                if not self.elgamal:
                    self._restart_reshuffles(seat, sub)
                if any(deal not in self.deals for deal in sub.deals):
                    self._start_sub(phase, applied)
            elif isinstance(sub, KeysSub) and sub.requirements is not None and seat not in sub.done:
                # Its keys are public now but those still escrowed: its holders release those.
                self._to_releases(sub.requirements, seat)
                if not sub.owing():
                    self._finish_keys(phase, sub, applied)
            elif isinstance(sub, AuditSub) and not self._reveal_before_audit(phase, sub, applied):
                self._finish_audit_if_complete(applied, phase, sub)

    def _rebuild_elgamal(self, applied: Applied, seat: int, secret: int, slots: list[int]) -> None:
        """:meth:`_rebuild` at an ElGamal table (§B16): the seat's passes must be those its
        rebuilt escrow secret's pass seeds give; each slot the rebuild shows gets its share, the
        sum of its escrow's holders' parts (each proven); the shares the consents sent are
        published. Its deck key is never rebuilt: the cards it gave stay their receivers'."""
        given = self.rebuild_shares[seat]
        for crypto in self.unaudited_deals_of(seat):
            if seat in crypto.passes:
                # The secret its passes came from? (An escrow of another one shows here.)
                if crypto.passes[seat] != self.rebuilt_elgamal_pass(crypto, seat, secret):
                    raise self._fault(seat, FaultCode.BAD_ESCROW,
                                      f"escrowed another secret than its pass of deal {crypto.deal} came from")
        message = self.escrows[seat].message
        for position, slot in enumerate(slots):
            crypto, index = self.deal_of_slot(slot)
            parts = [locks[position][1].share for _, _, locks, _ in given.values()]
            crypto.publish(index, seat, elgamal.point_sum(parts), message)
            applied.key_slots.append(slot)
        self._after_rebuild(applied, seat, secret)

    def rebuilt_elgamal_pass(self, crypto: ElGamalDeal, seat: int, secret: int | None = None) -> list[elgamal.Ciphertext]:
        """Rebuilt ``seat``'s pass of ``crypto``, as every peer makes it from the pass seed its
        escrow secret gives (``secret``: that secret, if the rebuild is being checked). Raises
        :class:`ProtocolFault` (the previous holder's ``bad-pass``) if its input holds a card
        outside the group."""
        seed = pass_seed(self.rebuilt[seat] if secret is None else secret, crypto.deal)
        permutation, scalars = pass_randomness(seed, crypto.size)
        try:
            return elgamal.reencryption_pass(crypto.input_of(seat), crypto.joint_key, permutation, scalars)
        except CryptoError:
            fault = self.elgamal_bad_pass_fault(crypto.deal)
            raise ProtocolFault(fault or Fault(None, FaultCode.BAD_PASS, f"deal {crypto.deal}'s cards are no points", self.seq))

    def _restart_reshuffles(self, seat: int, sub: DealSub) -> None:
        """Void the re-shuffles of ``sub`` that rebuilt ``seat`` holds, its re-key pass not made,
        over a source whose key of ``seat`` stays escrowed (§B16): that pass would take the key
        off, so nobody but the card's knowers could make or check it. Each starts again as if
        begun with ``seat`` open — the others' re-key passes so far are void (no shuffle pass
        precedes the re-key stage's end), ``seat`` holds it no more, and the escrowed lock comes
        off in a stand-in's re-key pass (set up again by the caller's ``_start_sub``)."""
        for deal in sub.deals:
            crypto = self.deals.get(deal)
            if crypto is None or crypto.source_slots is None or seat not in crypto.holders or ("rekey", seat) in crypto.passes:
                continue
            if any(seat in source.unreleased[index] and self._stays_escrowed(source, index, seat)
                   for source, index in map(self.deal_of_slot, crypto.source_slots)):
                del self.deals[deal]
                self.rekey_stand_ins.pop(deal, None)

    def _derived_keys(self, secret: int, crypto: DealCrypto) -> SeatAuditKeys:
        return deal_keys(secret, crypto.deal, crypto.size, crypto.source_slots is not None).audit_keys()

    def _publish_all(self, applied: Applied, crypto: DealCrypto, seat: int, keys: SeatAuditKeys, message: bytes) -> None:
        for index, lock in enumerate(keys.locks):
            if seat in crypto.unreleased[index]:
                crypto.publish(index, seat, lock, message)
                applied.key_slots.append(crypto.first_slot + index)

    def rebuilt_pass(self, crypto: DealCrypto, stage: str, seat: int) -> tuple[list[bytes], list[bytes]]:
        """The pass rebuilt seat ``seat`` owes in ``crypto``, as its keys make it: values and
        verifiers (everyone computes it, so its caretaker's is checked at once)."""
        derived = deal_keys(self.rebuilt[seat], crypto.deal, crypto.size, crypto.source_slots is not None)
        inputs = crypto.input_of(stage, seat)
        if stage == "rekey":
            assert derived.rekey is not None
            olds = []
            for slot in crypto.source_slots or ():
                source, index = self.deal_of_slot(slot)
                olds.append(self._lock_key(source, seat, index))
            return rekey_pass(inputs, olds, derived.rekey), []
        if stage == "shuffle":
            return shuffle_pass(inputs, derived.shuffle, derived.permutation), []
        if stage == "shuffle-lock":
            return shuffle_lock_pass(inputs, derived.rekey or 1, derived.permutation, derived.locks)
        return lock_pass(inputs, combine_keys(derived.shuffle, derived.rekey or 1), derived.locks)

    def _open(self, applied: Applied, seat: int) -> None:
        """``seat`` is open from entry ``applied`` on (§B14)."""
        self.open_seats[seat] = applied.seq
        phase = self.phase
        if isinstance(phase, CommitPhase) and phase.purpose == RANDOM_DOMAIN and seat in phase.seats:
            # Its random contribution is not needed (the others' suffice) and can't be opened.
            phase.seats = tuple(other for other in phase.seats if other != seat)
            phase.commitments.pop(seat, None)
            phase.openings.pop(seat, None)
            self._commit_envelopes.pop((phase.phase_id, seat), None)
            if phase.opening:
                self._finish_commit_phase(applied, phase)

    def _apply_pass(self, applied: Applied, submission: Submission) -> None:
        phase = self.phase
        assert isinstance(phase, CardPhase)
        sub = phase.current
        assert isinstance(sub, DealSub)
        body = submission.body
        crypto = self.deals[body["deal"]]
        if self.elgamal:
            crypto.record_pass(submission.seat, elgamal.read_deck(body["cards"]), submission.envelope.raw)
        else:
            crypto.record_pass(body["stage"], submission.seat, body["values"], body["verifiers"], submission.envelope.raw)
        for item in body.get("public", ()):
            # Published now rather than in the keys sub-step after the deal (§B6.1, §B6.3); read
            # when that sub-step is done, as every slot it shows.
            self._publish_item(item, submission.seat, submission.envelope.raw)
        if not self.elgamal and body["stage"] in LOCKING_STAGES and submission.seat in self.rebuilt:
            # A rebuilt seat's lock keys are public the moment they lock (§B16 step 4).
            keys = self._derived_keys(self.rebuilt[submission.seat], crypto)
            self._publish_all(applied, crypto, submission.seat, keys, submission.envelope.raw)
        if all(deal in self.deals and self.deals[deal].next_pass() is None for deal in sub.deals):
            self._next_sub(applied, phase)

    def _publish_item(self, item: Sequence[Any], seat: int, message: bytes) -> None:
        """Record one checked ``public`` item of ``seat``'s: a key ``[slot, key]`` or, at an
        ElGamal table, a share ``[slot, share]``."""
        crypto, index = self.deal_of_slot(item[0])
        value = item[1] if self.elgamal else scalar_from_bytes(item[1])
        crypto.publish(index, seat, value, message)

    def _sealed_record(self, seat: int, to: int, commitment: bytes, seq: int) -> SealedKey | SealedShare:
        return (SealedShare if self.elgamal else SealedKey)(seat, to, commitment, seq)

    def _apply_sealed_riding(self, applied: Applied, submission: Submission) -> None:
        """The keys an act sealed (§B5), in the keys sub-step it began: recorded as that sub-step
        records a ``keys`` submission's, and owed no more."""
        phase = self.phase
        assert isinstance(phase, CardPhase) and isinstance(phase.current, KeysSub) and phase.current.requirements is not None
        sub = phase.current
        requirement = sub.requirements[submission.seat]  # type: ignore[index]
        for slot, to, _box, commitment in submission.body["sealed"]:
            crypto, index = self.deal_of_slot(slot)
            crypto.record_sealed(index, self._sealed_record(submission.seat, to, commitment, applied.seq))
            applied.key_slots.append(slot)
            requirement.seal.discard((slot, to))
        if not sub.owing():
            self._finish_keys(phase, sub, applied)

    def _apply_keys(self, applied: Applied, submission: Submission) -> None:
        phase = self.phase
        assert isinstance(phase, CardPhase)
        sub = phase.current
        assert isinstance(sub, KeysSub) and sub.requirements is not None
        seat = submission.seat
        for item in submission.body["public"]:
            self._publish_item(item, seat, submission.envelope.raw)
            applied.key_slots.append(item[0])
        for slot, to, _box, commitment in submission.body["sealed"]:
            crypto, index = self.deal_of_slot(slot)
            crypto.record_sealed(index, self._sealed_record(seat, to, commitment, applied.seq))
            applied.key_slots.append(slot)
        sub.done.add(seat)
        if not sub.owing():
            self._finish_keys(phase, sub, applied)

    def _apply_release(self, applied: Applied, submission: Submission) -> None:
        phase = self.phase
        assert isinstance(phase, CardPhase) and isinstance(phase.current, KeysSub)
        sub = phase.current
        for seat, slot, share, to, _box in self._check_release(submission, sub):  # checked: only read
            applied.key_slots.append(slot)
            if to is not None:
                continue  # its receiver opens it (SeatSecrets.absorb_release)
            crypto, index = self.deal_of_slot(slot)
            if self.elgamal:
                parts = self.released_shares.setdefault((seat, slot), {})
                parts[submission.seat] = share.share
                if len(parts) == len(self.escrows[seat].holders):
                    crypto.publish(index, seat, elgamal.point_sum(list(parts.values())), submission.envelope.raw)
                    del self.released_shares[(seat, slot)]
                continue
            record = self.lock_escrows[(seat, crypto.deal)]
            shares = self.released_shares.setdefault((seat, slot), {})
            shares[submission.seat] = share
            if len(shares) == len(record.holders):
                key = record.rebuilt_key(crypto, index, seat, shares.values())
                if isinstance(key, str):
                    raise self._fault(seat, FaultCode.BAD_ESCROW, f"escrowed shares that {key}")
                crypto.publish(index, seat, key, record.message)
                del self.released_shares[(seat, slot)]
        sub.released.add(submission.seat)
        if not sub.owing():
            self._finish_keys(phase, sub, applied)

    def _finish_keys(self, phase: CardPhase, sub: KeysSub, applied: Applied | None) -> None:
        # Everyone has released: who can now see each slot is as the round's start computed it
        # (§B6.2); then move on.
        for slot, knows in sorted(sub.knows_after.items()):
            crypto, index = self.deal_of_slot(slot)
            crypto.knows[index] = knows
        for operation in sub.operations:
            for slot in operation.slots:
                if applied is not None:
                    # Seen now — also where nobody had to release a key (the viewer holds the
                    # only one: a deal among the one seat still playing).
                    applied.key_slots.append(slot)
        if sub is phase.dispute_keys:
            phase.dispute_keys = None  # on to the dispute's audit
            self._start_sub(phase, applied)
        else:
            self._next_sub(applied, phase)

    def _apply_audit(self, applied: Applied, submission: Submission) -> None:
        phase = self.phase
        assert isinstance(phase, CardPhase)
        sub = phase.current
        assert isinstance(sub, AuditSub)
        sub.submitted[submission.seat] = self._parse_audit_keys(submission, sub.deals)
        self._finish_audit_if_complete(applied, phase, sub)

    def _finish_audit_if_complete(self, applied: Applied, phase: CardPhase, sub: AuditSub) -> None:
        if any(seat not in sub.submitted for seat in self._auditors(sub.deals)):
            return
        for deal in sub.deals:
            crypto = self.deals[deal]
            for seat in crypto.holders:
                if self.elgamal:
                    crypto.record_audit(seat, self._elgamal_audit_of(seat, crypto, sub))
                    continue
                departed = self._departed_keys(seat, crypto)
                crypto.audit_keys[seat] = departed if departed is not None else sub.submitted[seat][deal]
        verdict = self._run_audit(sub.deals)
        self.audits += 1
        if verdict is not None:
            raise self._fault(*verdict)
        if sub is phase.dispute:
            # A dispute ends the game whatever the audit finds: the accuser was wrong if nobody else was.
            if sub.accuser is not None:
                raise self._fault(
                    sub.accuser, FaultCode.BAD_DISPUTE,
                    f"claimed slot {sub.slot} did not decrypt, but the audit found every pass and key correct",
                )
            raise self._fault(None, FaultCode.BAD_PASS, f"slot {sub.slot} did not decrypt, yet the audit found no fault")
        self._next_sub(applied, phase)

    def _elgamal_audit_of(self, seat: int, crypto: ElGamalDeal, sub: AuditSub) -> AuditShares:
        """Holder ``seat``'s pass seed and shares of ``crypto`` for its audit: its ``audit``'s; a
        seat that handed over, its hand-over's; a rebuilt seat, the seed its escrow secret gives
        and its shares as published (a keys round revealed every one first, §B16)."""
        if seat in self.handed_over:
            return self.handed_over[seat][crypto.deal]  # type: ignore[return-value]
        if seat in self.rebuilt:
            return AuditShares(pass_seed(self.rebuilt[seat], crypto.deal),
                               tuple(crypto.published[index][seat] for index in range(crypto.size)), None)
        return sub.submitted[seat][crypto.deal]  # type: ignore[return-value]

    def _run_audit(self, deals: Sequence[int]) -> tuple[int, str, str] | None:
        """The first fault the audit of ``deals`` finds, as ``(seat, code, reason)``, or ``None``."""
        for deal in sorted(deals):
            crypto = self.deals[deal]
            if self.elgamal:
                verdict = crypto.audit(self.game_id)
                if verdict is not None:
                    return verdict
                continue
            old_lock_keys = None
            if crypto.source_slots is not None:
                old_lock_keys = {}
                extra = self.rekey_stand_ins.get(deal, {})
                for seat in crypto.holders:
                    keys = []
                    for position, slot in enumerate(crypto.source_slots):
                        source, index = self.deal_of_slot(slot)
                        key = source.audit_keys[seat].locks[index]
                        if extra.get(position, (None, None))[1] == seat:
                            # It took off the key of a rebuilt seat it stands in for too.
                            key = combine_keys(key, source.audit_keys[extra[position][0]].locks[index])
                        keys.append(key)
                    old_lock_keys[seat] = keys
            verdict = crypto.audit(old_lock_keys)
            if verdict is not None:
                return verdict
        return None

    def _apply_dispute(self, applied: Applied, submission: Submission) -> None:
        slot = submission.body["slot"]
        if not isinstance(self.phase, CardPhase):
            self.phase = CardPhase((), self.seq, [])
        self._begin_dispute(applied, self.phase, slot, submission.seat)

    def _begin_dispute(self, applied: Applied | None, phase: CardPhase, slot: int, accuser: int | None) -> None:
        """Interrupt ``phase`` with the audit of a dispute of ``slot`` (§B7; ``accuser`` ``None``:
        an automatic one) — after a keys round, if a rebuilt seat's key is still escrowed in the
        deals it covers (§B16)."""
        phase.dispute = AuditSub(self._deals_to_audit_for(slot), accuser=accuser, slot=slot)
        self.phase = phase
        self._start_sub(phase, applied)

    def _deals_to_audit_for(self, slot: int) -> tuple[int, ...]:
        """The deal of ``slot`` and every deal it was re-shuffled from, increasing: a re-shuffled
        deal can only be audited together with its sources (their lock keys undo its re-key)."""
        crypto, _ = self.deal_of_slot(slot)
        deals = {crypto.deal}
        pending = [crypto]
        while pending:
            current = pending.pop()
            for source_slot in current.source_slots or ():
                source, _ = self.deal_of_slot(source_slot)
                if source.deal not in deals:
                    deals.add(source.deal)
                    pending.append(source)
        return tuple(sorted(deals))

    def _next_sub(self, applied: Applied | None, phase: CardPhase) -> None:
        phase.index += 1
        if phase.index < len(phase.subs):
            self._start_sub(phase, applied)
            return
        # Every operation is done: tell the game the values that became public.
        values: dict[int, str] = {}
        audited: dict[int, dict[int, str]] = {}
        for slot in sorted(self.state.cards.expected_values()):
            crypto, index = self.deal_of_slot(slot)
            if crypto.audited:
                if crypto.deal not in audited:
                    audited[crypto.deal] = crypto.all_values()
                values[slot] = audited[crypto.deal][slot]
                continue
            try:
                values[slot] = crypto.value_if_public(index)
            except PassProblem:
                fault = self.wrong_key_fault(slot)
                if fault is not None:
                    raise ProtocolFault(fault)
                # Every key matches its verifier, so some lock pass was wrong; only an audit of
                # the deal can tell whose, so everyone must publish now.
                self._begin_dispute(applied, phase, slot, None)
                return
        try:
            self._engine(applied, CardsDone(tuple(sorted(values.items()))))
        except EventMismatch:
            # A card showed up twice: some shuffle pass swapped one. The audit will say whose.
            self._begin_dispute(applied, phase, min(values), None)

    def wrong_key_fault(self, slot: int) -> Fault | None:
        """The fault of whoever published a wrong key for ``slot`` (proved by its message)."""
        crypto, index = self.deal_of_slot(slot)
        if self.elgamal:
            return None  # (every published share was checked against its proof as it came, §B6.3)
        wrong = crypto.wrong_published_key(index)
        if wrong is None:
            return None
        seat, message = wrong
        return Fault(
            seat, FaultCode.BAD_KEY,
            f"published a wrong key for slot {slot} (it doesn't match its lock pass's verifier)",
            self.seq, None, (message,),
        )

    # -- evidence ------------------------------------------------------------------------------

    def confirm(self, fault: Fault) -> str | None:
        """``None`` if ``fault.evidence`` proves ``fault`` against this log, else why not.

        Used for faults another peer reports (and by ``p2pgames verify``): the verdict must follow
        from signed messages alone, never from the reporter's word.
        """
        evidence, culprit, code = fault.evidence, fault.culprit, fault.code
        if code in CHAIN_BREAKS and culprit in self.hosts():
            return self._confirm_chain_break(culprit, code, evidence)
        if code not in PROVABLE:
            # A replay, a bad frame, silence: signed messages can't show who did it.
            return f"{with_article(str(code))} fault can't be proved by evidence"
        if not evidence or culprit is None or not 0 <= culprit < self.players:
            return "there is no evidence to check"
        if code == FaultCode.EQUIVOCATION:
            return self._confirm_equivocation(culprit, evidence)
        try:
            message = open_envelope(evidence[0])
        except MalformedMessage:
            return "the evidence is not a message"
        if code == FaultCode.BAD_SIGNATURE and message.kind == "entry" and culprit in self.hosts():
            return None if self._forged_entry(culprit, message) else "the entry's submission is properly signed"
        try:
            message.verify(self.seats[culprit].key)
        except (BadSignature, MalformedMessage):
            return "the evidence is not signed by the accused"
        if code == FaultCode.BAD_ESCROW and message.kind == "submit" and message.body["body"].get("t") in (ESCROW, LOCK_ESCROW):
            return self._confirm_bad_share(culprit, message, evidence[1] if len(evidence) > 1 else None)
        if code == FaultCode.BAD_ESCROW and message.kind == "submit" and message.body["body"].get("t") == RELEASE:
            return self._confirm_bad_release(culprit, message, evidence[1] if len(evidence) > 1 else None)
        if (code == FaultCode.BAD_KEY and message.kind == "submit" and message.body["body"].get("t") in ("keys", "pass", "act")
                and not (self.elgamal and len(evidence) < 2)):  # (a share refused as it came: checked below)
            # (A lock pass publishes keys too, §B6.1, and an act, §B5.)
            return self._confirm_wrong_keys(culprit, message, evidence[1] if len(evidence) > 1 else None)
        if code == FaultCode.BAD_PASS and message.kind == "submit" and self.elgamal and message.body["body"].get("t") == "pass":
            cards = message.body["body"].get("cards")
            if isinstance(cards, (list, tuple)) and any(
                not (isinstance(card, (list, tuple)) and len(card) == 2 and all(map(elgamal.is_valid_point, card)))
                for card in cards
            ):
                return None  # (a card that is no point of the group, §B6.3: the pass shows it)
        if code == FaultCode.BAD_PASS and message.kind == "submit" and message.body["body"].get("t") == "pass":
            values = message.body["body"].get("values")
            if isinstance(values, (list, tuple)) and all(isinstance(v, bytes) for v in values):
                if bad_point(values) is not None:
                    return None
            # Not a value that is no point: maybe a pass of the wrong shape, which the check shows.
        try:
            self.check_submission(evidence[-1], culprit)
        except ProtocolFault as problem:
            if (problem.fault.culprit, problem.fault.code) == (culprit, code):
                return None
            if problem.fault.code in (FaultCode.REPLAY, FaultCode.BAD_SEQUENCE):
                return STALE_EVIDENCE
            return f"the evidence shows something else ({problem.fault.code})"
        return "the evidence shows a valid move"

    def hosts(self) -> tuple[int, ...]:
        """Every seat that has sequenced the log (the host, and each successor)."""
        return tuple(seat for _, seat in self.sequencers)

    def _confirm_chain_break(self, culprit: int, code: str, evidence: tuple[bytes, ...]) -> str | None:
        """A host's ``bad-sequence`` (``replay``) is proved by an entry of this game (another
        game) it signed, the first piece of evidence, that contradicts this log (§B11 case 3)."""
        entry = self.host_entry(evidence[0]) if evidence else None
        if entry is None or entry.sender != self.seats[culprit].key.raw:
            return "the evidence is not an entry the host signed"
        if not self.contradicts_chain(entry):
            return "the entry contradicts nothing in this log"
        if (entry.body["game_id"] != self.game_id) != (code == FaultCode.REPLAY):
            return "the entry shows something else"
        return None

    def _confirm_equivocation(self, culprit: int, evidence: tuple[bytes, ...]) -> str | None:
        """Two acknowledgements of one entry of this game, both signed by ``culprit``, that name
        the same entry digest with different states prove it signed two states for one entry."""
        if len(evidence) < 2:
            return "it takes two acknowledgements to show one"
        try:
            first, second = (open_envelope(raw) for raw in evidence[:2])
            for ack in (first, second):
                if ack.kind != "ack" or ack.body["game_id"] != self.game_id:
                    return "the evidence is not two acknowledgements of this game"
                ack.verify(self.seats[culprit].key)
        except (MalformedMessage, BadSignature):
            return "the evidence is not two acknowledgements signed by the accused"
        a, b = first.body, second.body
        if (a["seq"], a["entry"]) != (b["seq"], b["entry"]) or a["state"] == b["state"]:
            return "the two acknowledgements do not contradict each other"
        return None

    def _forged_entry(self, host: int, entry: Envelope) -> bool:
        """Whether ``entry``, signed by ``host``, holds a submission its author's key did not sign
        (one the host signed itself — its own, or an open seat's it plays — is no forgery)."""
        try:
            entry.verify(self.seats[host].key)
            inner = open_envelope(entry.body["submission"])
            author = inner.body["seat"]
            if not 0 <= author < self.players or author == host:
                return False
            if author in self.open_seats and inner.sender == self.seats[host].key.raw:
                return False  # an open seat's submission, signed by the host that plays it
        except (MalformedMessage, BadSignature, KeyError):
            return False
        try:
            inner.verify(self.seats[author].key)
        except BadSignature:
            return True
        return False

    def _confirm_wrong_keys(self, culprit: int, message: Envelope, opened: bytes | None) -> str | None:
        body = message.body["body"]
        if self.elgamal:
            return self._confirm_wrong_sealed_shares(culprit, body, opened)
        try:
            if opened is None:
                for slot, key in body["public"]:
                    crypto, index = self.deal_of_slot(slot)
                    try:
                        scalar = scalar_from_bytes(key)
                    except CryptoError:
                        return None  # no key at all (outside [1, n−1]): refused when it came, §B6.2
                    if not crypto.check_published_key(index, culprit, scalar):
                        return None
                return "every key it published matches its verifier"
            accuser = self._seat_of_seal_key(opened)
            if accuser is not None:
                # Keys sealed to the accuser, which shows its sealing key: open them as it did.
                seal_key = SealKey.from_private_bytes(opened)
                for slot, to, box, commitment in body["sealed"]:
                    if to != accuser:
                        continue
                    crypto, index = self.deal_of_slot(slot)
                    context = sealing_context(self.game_id, slot, culprit, to)
                    if isinstance(sealed_key_problem(crypto, index, culprit, seal_key, box, commitment, context), str):
                        return None
                return "every key it sealed to the accuser is right"
            # (Earlier versions showed the key they opened: the accused's signed commitment
            # to it proves that is what it sealed; a key it never committed to proves nothing.)
            for slot, _to, _box, commitment in body["sealed"]:
                if commitment == sealed_commitment(opened):
                    crypto, index = self.deal_of_slot(slot)
                    if not crypto.check_published_key(index, culprit, scalar_from_bytes(opened)):
                        return None
                    return "the sealed key is correct"
            return "the opened key is not one the accused sealed"
        except (KeyError, CryptoError, TypeError, ValueError):
            return "the evidence does not describe keys of this game"

    def _confirm_wrong_sealed_shares(self, culprit: int, body: Mapping[str, Any], opened: bytes | None) -> str | None:
        """At an ElGamal table: a share sealed to the accuser that is wrong (§B6.3). The accuser
        shows its sealing key, with which anyone opens every share of the submission sealed to
        it and checks it as the accuser did."""
        accuser = self._seat_of_seal_key(opened) if isinstance(opened, bytes) else None
        if accuser is None:
            return "the evidence holds no sealing key of a seat"
        seal_key = SealKey.from_private_bytes(opened)  # type: ignore[arg-type]
        try:
            for slot, to, box, commitment in body["sealed"]:
                if to != accuser:
                    continue
                crypto, index = self.deal_of_slot(slot)
                context = sealed_share_context(self.game_id, slot, culprit, to)
                if isinstance(sealed_share_problem(crypto, self.game_id, index, culprit, seal_key, box, commitment, context), str):
                    return None
        except (KeyError, TypeError, ValueError):
            return "the evidence does not describe shares of this game"
        return "every share it sealed to the accuser is right"

    def _confirm_bad_share(self, culprit: int, message: Envelope, opened: bytes | None) -> str | None:
        """An escrow share (or a lock escrow's seed) sealed to the accuser that is wrong: the
        accuser shows its sealing key, with which anyone opens the box as it did (§B16)."""
        body = message.body["body"]
        record: EscrowRecord | LockEscrowRecord | None
        if body["t"] == ESCROW:
            record = self.escrows.get(culprit)
        else:
            deal = body.get("deal")
            record = self.lock_escrows.get((culprit, deal)) if type(deal) is int else None
        if record is None or record.message != message.raw:
            return STALE_EVIDENCE  # not the accused's escrow in force in this log
        holder = self._seat_of_seal_key(opened) if isinstance(opened, bytes) else None
        if holder is None or holder not in record.holders:
            return "the evidence holds no sealing key of a holder of the escrow"
        seal_key = SealKey.from_private_bytes(opened)  # type: ignore[arg-type]
        if isinstance(record, EscrowRecord):
            problem = open_share(record, self.game_id, culprit, holder, seal_key)
            if not isinstance(problem, str) and record.deck is not None:  # (or its deck key's share)
                problem = open_key_share(record.deck, self.game_id, culprit, holder, seal_key)
        else:
            problem = open_lock_shares(record, self.game_id, culprit, holder, seal_key)
        return None if isinstance(problem, str) else "what is sealed to the accuser is right"

    def _confirm_bad_release(self, culprit: int, message: Envelope, opened: bytes | None) -> str | None:
        """A released share sealed to the accuser that is wrong — it does not open, or its path
        does not lead to the sender's root: the accuser shows its sealing key, with which anyone
        opens the share as it did (§B16 step 4)."""
        accuser = self._seat_of_seal_key(opened) if isinstance(opened, bytes) else None
        if accuser is None:
            return "the evidence holds no sealing key of a seat"
        seal_key = SealKey.from_private_bytes(opened)  # type: ignore[arg-type]
        if self.elgamal:  # (a part of a rebuilt seat's share, §B16)
            try:
                for seat, slot, to, box in message.body["body"]["sealed"]:
                    if to == accuser and isinstance(opened_part(self, seat, slot, culprit, to, seal_key, box), str):
                        return None
            except (KeyError, TypeError, ValueError):
                return "the evidence does not describe shares of this game"
            return "every part it sealed to the accuser is right"
        try:
            for seat, slot, to, box, path in message.body["body"]["sealed"]:
                if to != accuser:
                    continue
                crypto, index = self.deal_of_slot(slot)
                record = self.lock_escrows[(seat, crypto.deal)]
                if isinstance(open_released_share(record, self.game_id, seat, slot, index, culprit, to, seal_key, box, path), str):
                    return None
        except (KeyError, TypeError, ValueError):
            return "the evidence does not describe shares of this game"
        return "every share it sealed to the accuser is right"

    def _seat_of_seal_key(self, private: bytes) -> int | None:
        """The seat whose sealing key (as in the start) is the private key ``private``, if any."""
        try:
            public = SealKey.from_private_bytes(private).public_bytes()
        except (CryptoError, TypeError, ValueError):
            return None
        return next((seat for seat, info in enumerate(self.seats) if info.seal == public), None)

    def elgamal_bad_pass_fault(self, deal: int) -> Fault | None:
        """At an ElGamal table: the fault of the first pass of ``deal`` recorded so far that holds
        a card outside the group (§B6.3), proved by that signed pass; ``None`` if none does."""
        crypto = self.deals[deal]
        for seat in crypto.holders:
            position = crypto.bad_point(seat)
            if position is not None:
                return Fault(
                    seat, FaultCode.BAD_PASS,
                    f"its pass of deal {deal} holds a card at position {position} that is no point of the group",
                    self.seq, None, (crypto.pass_messages[seat],),
                )
        return None

    def bad_points_fault(self, deal: int, stage: str, seat: int) -> Fault | None:
        """If pass ``(stage, seat)``'s input holds a value that is no curve point, the fault of
        the pass that produced it (proved by that signed pass)."""
        crypto = self.deals[deal]
        previous = crypto.previous_pass(stage, seat)
        if previous is None or bad_point(crypto.passes[previous]) is None:
            return None
        return Fault(
            previous[1], FaultCode.BAD_PASS,
            f"its {previous[0]} pass of deal {deal} holds a value that is not a curve point",
            self.seq, None, (crypto.pass_messages[previous],),
        )
