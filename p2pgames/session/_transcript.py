"""Transcripts: every peer's signed record of a game, and their offline verification.

A transcript file is a sequence of records, each a 4-byte big-endian length followed by the
canonical msgpack of ``[kind, value]``:

==============  =================================================================================
kind            value
==============  =================================================================================
header          ``{"format": "p2pgames-transcript", "version": 1, "game": name, "seat": seat}``
start           the host's signed ``start`` envelope (raw bytes)
accept          a seat's signed ``accept`` envelope
entry           a signed log ``entry`` envelope, in sequence order
ack             a joiner's signed ``ack`` envelope (state-hash agreement; the host's is in its entries)
chat            a signed ``chat`` envelope
fault           why the game stopped here (culprit, code, reason, seq, reporter, evidence): this
                peer's verdict, or another seat's claim it could not check (the reporter the
                culprit of the stop, accused the seat it named)
fault-message   a signed ``fault`` envelope another peer sent
leave           a signed ``leave`` envelope
end             the result as this peer computed it (scores, winners, summary)
notes           this peer's own notes, never sent nor signed: ``{"clocks": [seconds by seat]}``,
                each seat's thinking time as this peer timed it (the last ``notes`` counts)
==============  =================================================================================

:func:`verify_transcript` replays a transcript with no network and no secrets: every signature,
chain link, rule, state hash and audit, and re-checks the evidence of a recorded fault.

Only a signed message can prove a fault. A message whose signature verifies but which breaks the
rules is its signer's fault (a host-signed entry around a submission its author did not sign is the
host's). Only the host signs entries, and an honest host signs one entry per number, each linked
to the one before: so a host-signed entry of this game that contradicts the log before it (its
number is in the log but the entry differs or links elsewhere, or it links to a logged entry under
another number or another game's id) is the host's proven fault, and so is a host-signed entry of
this game whose body is malformed. An acknowledgement of another entry than the log's proves
nothing against its signer (the host may have sent it that entry): it names nobody. A record that
is not a well-formed message, whose signature does not verify, that is signed by a key not at the
table, or that is out of its place without contradicting anything (another kind of message; an
entry of another game, or one missing, repeated or moved, linked to no entry in the log; another
game's acknowledgement) is damage to the file or an alteration of it: it is reported as such,
names nobody, and the transcript does not verify (protocol/SPEC.md §B11).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterator

from p2pgames import canonical
from p2pgames.crypto import BadSignature, CryptoError
from p2pgames.engine import EngineError, Game, GameOver
from p2pgames.session._acks import acks_of_record
from p2pgames.session._chat import ChatLimits, confirm_flood, line_size
from p2pgames.session._faults import Fault, FaultCode, ProtocolFault, odd_one_out, what_was_done
from p2pgames.words import duration, with_article
from p2pgames.session._messages import Envelope, MalformedMessage, clean_text, open_envelope
from p2pgames.session._replica import CHAIN_BREAKS, HOST_SEAT, TAKE_OVER, OverPhase, Replica, SeatInfo, seats_problem

__all__ = [
    "encode_record",
    "iter_records",
    "records_before_cut",
    "TranscriptError",
    "VerificationReport",
    "verify_transcript",
    "desync_report_text",
    "MAX_RECORD",
]

MAX_RECORD = 16 * 1024 * 1024
_LENGTH = struct.Struct(">I")


class TranscriptError(ValueError):
    """The file is not a readable transcript (truncated, not canonical, wrong format)."""


class CutShort(TranscriptError):
    """The file ends inside record ``number``: it was cut short while being written (a crash, a
    full disk). Everything before that record can still be read."""

    def __init__(self, number: int, text: str) -> None:
        super().__init__(text)
        self.number = number


def records_before_cut(data: bytes) -> list[tuple[str, Any]]:
    """Every record of ``data`` (as :func:`iter_records`), up to where it is cut short, if it is
    (a crash while it was written: that record was never acted on). Raises
    :class:`TranscriptError` on damage."""
    records = []
    try:
        for record in iter_records(data):
            records.append(record)
    except CutShort:
        pass
    return records


def encode_record(record: bytes) -> bytes:
    """Frame one record (already canonical msgpack) for appending to a transcript file."""
    return _LENGTH.pack(len(record)) + record


def iter_records(data: bytes) -> Iterator[tuple[str, Any]]:
    """Yield ``(kind, value)`` for each record; raises :class:`TranscriptError` on damage, and
    :class:`CutShort` (one) where the file ends inside a record."""
    offset = 0
    number = 0
    while offset < len(data):
        number += 1
        if offset + 4 > len(data):
            raise CutShort(number, f"record {number} is cut short (the file ends inside its length)")
        (length,) = _LENGTH.unpack_from(data, offset)
        offset += 4
        if length > MAX_RECORD:
            raise TranscriptError(f"record {number} is too long ({length} bytes)")
        if offset + length > len(data):
            raise CutShort(number, f"record {number} is cut short ({length} bytes, the file ends after {len(data) - offset})")
        try:
            record = canonical.decode(data[offset:offset + length])
        except canonical.CanonicalError as error:
            raise TranscriptError(f"record {number} is damaged: {error}") from None
        offset += length
        if not (isinstance(record, tuple) and len(record) == 2 and isinstance(record[0], str)):
            raise TranscriptError(f"record {number} is not a [kind, value] pair")
        yield record[0], record[1]


# What each kind of signed record holds, as the report names it.
_HOLDS = {
    "accept": "acceptance of the start",
    "ack": "state-hash acknowledgement",
    "chat": "chat line",
    "fault": "fault report",
    "leave": "leave message",
}
# The same with its article ("a chat line"), made once: a report names it only for a damaged record.
_HOLDS_WITH_ARTICLE = {kind: with_article(text) for kind, text in _HOLDS.items()}


@dataclass
class VerificationReport:
    """What :func:`verify_transcript` checked, and what it found.

    ``failure`` is a fault the signed log itself proves; ``damage`` the records that show the file
    was damaged or altered, as ``(entry, text)`` (``entry``: the log entry whose record it is, or
    ``None``), which prove nothing about any player; ``problems`` other inconsistencies of the
    file. ``unchecked`` counts the log entries after a damaged one, which can't be replayed.
    ``left`` maps each seat whose signed leave message is in the file to its reason and the number
    of entries the writer had checked when it was recorded. A recorded desync the acknowledgements
    in the file bear out is no failure (see :func:`desync_borne_out`).
    """

    game: str = ""
    title: str = ""
    names: list[str] = field(default_factory=list)
    seat: int | None = None
    entries: int = 0
    signatures: int = 0
    acks: int = 0
    audits: int = 0
    chats: int = 0
    result: Any = None
    clocks: list[int] | None = None  # each seat's thinking time, in the writer's notes (its word)
    stopped: Fault | None = None
    stop_confirmed: bool = False
    failure: Fault | None = None
    damage: list[tuple[int | None, str]] = field(default_factory=list)
    unchecked: int = 0
    problems: list[str] = field(default_factory=list)
    left: dict[int, tuple[str, int]] = field(default_factory=dict)
    cut: int | None = None  # the record the file ends inside, if it was cut short
    open_seats: dict[int, int] = field(default_factory=dict)  # seat -> the entry a bot took it from
    rebuilt: set[int] = field(default_factory=set)  # open seats whose keys the others rebuilt (§B16)
    # Who hosted the table: (first entry, seat) — seat 0 from the start, then each successor (§B15).
    hosts: list[tuple[int, int]] = field(default_factory=lambda: [(0, 0)])
    taken_over: set[int] = field(default_factory=set)  # entries where the others took the table over (§B15)
    forfeit: tuple[int, int, int] | None = None  # (the seat that won by forfeit, the seat gone, the entry), §B17
    # For a recorded desync the acknowledgements bear out: the seats whose acknowledgement of that
    # entry gives the state the replay reaches, and those that signed another.
    desync_right: list[int] = field(default_factory=list)
    desync_wrong: list[int] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True if nothing in the file is inconsistent (a recorded, confirmed fault is fine)."""
        return self.failure is None and not self.damage and not self.problems

    @property
    def complete(self) -> bool:
        return self.result is not None

    def who(self, seat: int | None) -> str:
        if seat is None:
            return "nobody could be named"
        if 0 <= seat < len(self.names):
            return f"{self.names[seat]} (seat {seat})"
        return f"seat {seat}"

    def blame(self, fault: Fault) -> str:
        """``fault``'s reason, after the name of its culprit unless the reason names them already."""
        reason = clean_text(fault.reason)
        culprit = self.who(fault.culprit)
        return reason if fault.culprit is not None and culprit in reason else f"{culprit} — {reason}"

    def describe(self) -> str:
        keeper = self.who(self.seat) if self.seat is not None else "an unnamed seat"
        game = self.title or self.game
        if self.names:
            lines = [f"Transcript of {game} kept by {keeper}; players: {', '.join(self.names)}."]
        else:
            lines = [f"Transcript of {game} kept by {keeper}; it ends before the game's start record."]
        lines.append(
            f"Checked {_count(self.entries, 'log entry', 'log entries')} "
            f"({_count(self.signatures, 'signature')}, every chain link, every rule), "
            f"{_count(self.acks, 'state-hash acknowledgement')}, {_count(self.audits, 'deal audit')} "
            f"and {_count(self.chats, 'chat line')}."
        )
        if self.failure is not None:
            lines.append(f"FAILED at entry {self.failure.seq}: {self.blame(self.failure)}.")
        for entry, text in self.damage:
            at = "FAILED" if entry is None else f"FAILED at entry {entry}"
            lines.append(f"{at}: the file is damaged or was altered: {text}; this proves nothing about any player.")
        if self.unchecked:
            after = "The log entry after it" if self.unchecked == 1 else f"The {self.unchecked} log entries after it"
            lines.append(f"{after} could not be checked.")
        for problem in self.problems:
            lines.append(f"PROBLEM: {problem}")
        if self.cut is not None:
            lines.append(
                f"The file ends inside record {self.cut}: it was cut short while being written (a crash or "
                "a full disk); everything before it was checked."
            )
        if self.stopped is not None and self.stopped.code == FaultCode.DESYNC and self.desync_wrong:
            seq = self.stopped.seq
            right = " and ".join(self.who(seat) for seat in self.desync_right)
            wrong = " and ".join(self.who(seat) for seat in self.desync_wrong)
            gives = f"the state {right} acknowledged" if right else "a state no seat acknowledged"
            lines.append(
                f"The game stopped at entry {seq}: desync, {self.blame(self.stopped)}; the signed acknowledgements of "
                f"entry {seq} bear this out: replaying the log gives {gives}, and {wrong} signed another."
            )
        elif self.stopped is not None and self.stopped.reporter is not None and not self.stop_confirmed:
            # Another seat's report this keeper could not check: its claim, in its own words.
            lines.append(f"The game stopped {_after(self.stopped.seq)}: {self.stopped.claim(self.who)}.")
        elif self.stopped is not None and self.stopped.reporter not in (None, self.stopped.culprit):
            # Another seat's report whose evidence proves it: the verdict is the evidence's.
            stopped = self.stopped
            lines.append(
                f"The game stopped {_after(stopped.seq)}: {self.who(stopped.culprit)} {what_was_done(stopped.code)}, "
                f"as {self.who(stopped.reporter)} reported{stopped.quote()}; confirmed from the signed evidence."
            )
        elif self.stopped is not None:
            # What the signed log proves, and what is only one peer's word, said apart: two
            # transcripts may report different culprits, but none passes a report off as proof.
            if self.stop_confirmed:
                how = (
                    "confirmed by their signed leave message" if self.stopped.code == FaultCode.LEFT
                    else "confirmed from the signed evidence"
                )
            else:
                how = (
                    f"as seen by {keeper}, who kept this transcript — their word, which the signed log "
                    "can neither prove nor disprove"
                )
            if self.stopped.code == FaultCode.ENDED:  # nobody's fault: say what happened
                lines.append(f"The game was ended {_after(self.stopped.seq)}: {clean_text(self.stopped.reason)}; {how}.")
            else:
                lines.append(f"The game stopped {_after(self.stopped.seq)}: {self.blame(self.stopped)}; {how}.")
        for seat, seq in sorted(self.open_seats.items()):
            rebuilt = " (its keys rebuilt by all the others from its escrow)" if seat in self.rebuilt else ""
            lines.append(f"From entry {seq} a bot played the seat of {self.who(seat)}{rebuilt}, its cards open to all.")
        for (_, before), (first, seat) in zip(self.hosts, self.hosts[1:]):
            if self.forfeit is not None and first == self.forfeit[2]:
                continue  # (the forfeit's own entry, signed by its claimant: said below)
            if first in self.taken_over:
                how = f"every seat still playing agreed to take it over from {self.who(before)}, gone"
            else:
                how = f"{self.who(before)} handed it over"
            lines.append(f"From entry {first} {self.who(seat)} hosted the table ({how}).")
        if self.forfeit is not None:
            winner, gone, seq = self.forfeit
            lines.append(f"At entry {seq} {self.who(winner)} claimed the game by forfeit, {self.who(gone)} gone "
                         "(the table plays a win by forfeit; that the other had gone is the claimant's word).")
        if self.result is not None:
            winners = " and ".join(self.who(seat) for seat in self.result["winners"]) or "nobody"
            scores = ", ".join(f"{name}: {score}" for name, score in zip(self.names, self.result["scores"]))
            scores = f"; scores {scores}" if scores else ""
            lines.append(f"Result: {winners} won — {clean_text(str(self.result['summary']))}{scores}.")
        elif self.stopped is None and self.failure is None and not self.damage:
            if self.seat in self.left:
                reason, seq = self.left[self.seat]
                lines.append(f"{keeper}, who kept this transcript, left the game ({reason}) {_after(seq)}.")
            else:
                lines.append("The transcript ends before the game did.")
        if self.clocks is not None and len(self.clocks) == len(self.names):
            times = ", ".join(f"{name} {duration(seconds)}" for name, seconds in zip(self.names, self.clocks))
            lines.append(f"Thinking time, as {keeper}'s program timed it (its word, not proof): {times}.")
        lines.append("Verified." if self.ok else "NOT verified.")
        return "\n".join(lines)


def _count(number: int, one: str, many: str | None = None) -> str:
    """"no deal audits", "1 deal audit", "3 deal audits"."""
    many = many or one + "s"
    return f"no {many}" if number == 0 else f"1 {one}" if number == 1 else f"{number} {many}"


def _after(entries: int) -> str:
    """When, by the number of log entries applied: "after 7 log entries"."""
    return "before the first log entry" if entries == 0 else f"after {_count(entries, 'log entry', 'log entries')}"


def read_header(records: Iterator[tuple[str, Any]]) -> dict:
    """The header record that opens a transcript (the first of ``records``, which it takes),
    checked; raises :class:`TranscriptError` if there is none or it is no transcript's."""
    try:
        kind, header = next(records)
    except StopIteration:
        raise TranscriptError("the file is empty") from None
    if kind != "header" or not isinstance(header, dict) or header.get("format") != "p2pgames-transcript":
        raise TranscriptError("this is not a p2pgames transcript")
    if header.get("version") != 1:
        raise TranscriptError(f"transcript version {header.get('version')} is not supported")
    return header


def verify_transcript(data: bytes, game_loader: Callable[[str], Game]) -> VerificationReport:
    """Replay a transcript offline and report what was verified, or the first failure and whose.

    Raises :class:`TranscriptError` only if the file can't be read at all. A file cut short (it
    ends inside a record) is checked up to the cut, and the report says where it ends.
    """
    report = VerificationReport()

    def until_the_cut() -> Iterator[tuple[str, Any]]:
        try:
            yield from iter_records(data)
        except CutShort as cut:
            if cut.number == 1:
                raise  # not even the header: nothing to check
            report.cut = cut.number

    records = iter(until_the_cut())
    header = read_header(records)
    report.game = str(header.get("game"))
    report.seat = header.get("seat")
    if report.seat is not None and type(report.seat) is not int:
        raise TranscriptError(f"the header names no seat ({report.seat!r})")
    try:
        game = game_loader(report.game)
    except KeyError as error:
        raise TranscriptError(str(error)) from None
    report.title = game.title

    replica: Replica | None = None
    seats: list[SeatInfo] = []
    start: Envelope | None = None
    accepted: set[int] = set()
    hashes: dict[int, tuple[bytes, bytes]] = {}
    pending_acks: list[tuple[int, int, tuple[bytes, bytes]]] = []
    replay_fault: Fault | None = None
    intact = True  # whether the replica is as it was before the entry that stopped the log
    # An entry record that proves nothing against anyone (see _entry_damage): the log can't be
    # replayed past it. It is damage to the file unless the writer's own fault record names the
    # fault it shows (an honest joiner records each entry envelope it opens before checking it):
    # then it is the writer's report, confirmed only if the record's evidence proves it.
    damaged: tuple[int, str, Fault | None] | None = None
    explained = False
    # Acknowledgements of another entry than the log's (see ack_fault): a fork nobody can be named
    # for, a problem unless the keeper recorded the desync it stopped on.
    forks: list[str] = []
    # Badly signed acknowledgements of other joiners in a joiner's transcript: damage, unless the
    # keeper stopped on the host's bad signature (the host relayed them so).
    relayed: list[tuple[int | None, str]] = []
    problems_before = 0  # problems found before the log stopped (the later ones follow from it)
    reports: set[tuple[int, int | None, str]] = set()  # (reporter, accused, code) of its signed fault messages
    # Acknowledgements (the host's: its entries' states) of another state than the replay's: each
    # its signer's proven fault. The first is the verdict — the report as it stood then — unless
    # the writer's own record is the desync they make by the rule of §B8 (see desync_borne_out).
    wrong_state: tuple[Fault, VerificationReport] | None = None
    acked: dict[int, dict[int, tuple[bytes, bytes]]] = {}  # entry -> seat -> (entry, state) acknowledged
    wrong: dict[int, list[int]] = {}  # entry -> the seats that acknowledged another state
    entries_after = 0  # entries that follow the one that stopped the game
    chat_limits = ChatLimits("in this game", own=None)  # the game's chat lines, counted as a peer does (§B10)

    def proves(fault: Fault) -> bool:
        """Whether a fault record's signed evidence proves it against the log checked so far."""
        if replica is None:
            return False
        if fault.code == FaultCode.FLOOD:  # proved by the chat lines taken so far, not the log
            return confirm_flood(fault, chat_limits, seats, replica.game_id) is None
        if fault.code in CHAIN_BREAKS and fault.culprit in replica.hosts():
            # A host-signed entry that contradicts the log: the chain is the log's, intact or not.
            return replica.confirm(fault) is None
        # Replica.confirm checks evidence against the replica's state, which must be the log's.
        return intact and replica.confirm(fault) is None

    def wrong_ack(fault: Fault) -> None:
        nonlocal wrong_state
        wrong.setdefault(fault.seq, []).append(fault.culprit)  # type: ignore[arg-type]
        if wrong_state is None:
            then = replace(report, damage=list(report.damage), problems=list(report.problems), left=dict(report.left))
            then.failure = fault
            wrong_state = (fault, then)

    def ack_fault(seq: int, seat: int, ack: tuple[bytes, bytes]) -> Fault | None:
        """The signer's proven fault if its acknowledgement of logged entry ``seq`` disagrees."""
        entry, state = hashes[seq]
        acked.setdefault(seq, {}).setdefault(seat, ack)
        if ack[0] != entry:
            # It acknowledged another entry ``seq``. Only the host signs entries: either it sent
            # that seat another one (a fork) or the seat misstates what it got.
            forks.append(
                f"{report.who(seat)} acknowledged another entry {seq} than the one in this log: the host sent "
                "it a different one, or it misstates what it received; no signature here says which"
            )
            return None
        if ack[1] != state:
            # The same log gives one state: the signer signed another.
            return Fault(seat, FaultCode.DESYNC, f"acknowledged entry {seq} with a different state", seq)
        report.acks += 1
        return None

    def seat_of(envelope: Envelope) -> int | None:
        for index, seat in enumerate(seats):
            if seat.key.raw == envelope.sender:
                return index
        return None

    def signed_by_seat(raw: bytes, kind: str, number: int) -> tuple[Envelope, int] | None:
        """The envelope in record ``number`` and its signer, or ``None`` if the record is damaged."""
        holds = _HOLDS_WITH_ARTICLE[kind]
        try:
            envelope = open_envelope(raw)
        except MalformedMessage as error:
            report.damage.append((None, f"record {number}, {holds}, is not a well-formed message ({error})"))
            return None
        seat = seat_of(envelope)
        if envelope.kind != kind:
            report.damage.append((None, f"record {number} holds {with_article(repr(envelope.kind))} message where {holds} belongs"))
            return None
        if start is None:
            report.damage.append((None, f"record {number}, {holds}, comes before the start record"))
            return None
        if seat is None:
            report.damage.append((None, f"record {number}, {holds}, is signed with a key that is not at the table"))
            return None
        try:
            envelope.verify(seats[seat].key)
        except BadSignature:
            text = f"record {number}, {holds} in the name of {report.who(seat)}, has a signature that does not verify"
            if kind == "ack" and HOST_SEAT != report.seat != seat != HOST_SEAT:
                # A joiner records the acknowledgements the host relays before checking them (§B8).
                text += " (unless the host relayed it so: a joiner records relayed acknowledgements unchecked)"
                relayed.append((None, text))
            report.damage.append((None, text))
            return None
        report.signatures += 1
        return envelope, seat

    def take_ack(raw: bytes, number: int) -> None:
        """An acknowledgement in record ``number``: checked against the log when it holds its entry."""
        checked = signed_by_seat(raw, "ack", number)
        if checked and start is not None and checked[0].body["game_id"] != start.body["game_id"]:
            # An honest peer records only this game's acknowledgements: another game's is out
            # of place, and what it acknowledged says nothing about this log.
            holds = f"{_HOLDS_WITH_ARTICLE['ack']} in the name of {report.who(checked[1])}"
            report.damage.append((None, f"record {number}, {holds}, is of another game"))
        elif checked:
            envelope, seat = checked
            body = envelope.body
            ack = (body["entry"], body["state"])
            if body["seq"] in hashes:
                if (fault := ack_fault(body["seq"], seat, ack)) is not None:
                    wrong_ack(fault)
            else:
                pending_acks.append((body["seq"], seat, ack))

    for number, (kind, value) in enumerate(records, 2):
        if kind == "start":
            try:
                start = open_envelope(value)
                seats = [SeatInfo.decode(item) for item in start.body["seats"]]
                start.verify(seats[HOST_SEAT].key)
                ruleset = game.decode_ruleset(start.body["ruleset"])
                problem = seats_problem(seats)
                if problem is not None:
                    raise MalformedMessage(problem)
            except (MalformedMessage, BadSignature, CryptoError, EngineError, KeyError, IndexError, TypeError) as error:
                raise TranscriptError(f"the start record is not valid: {error}") from None
            report.signatures += 1
            report.names = [clean_text(seat.name) for seat in seats]
            game = game.for_ruleset(ruleset)
            report.title = game.title
            replica = Replica(game, ruleset, start.body["game_id"], seats, start.digest)
        elif kind == "accept":
            checked = signed_by_seat(value, "accept", number)
            if checked and start is not None:
                envelope, seat = checked
                if envelope.body["start"] != start.digest:
                    report.problems.append(f"{report.who(seat)} accepted a different start")
                accepted.add(seat)
        elif kind == "entry":
            if replica is None:
                raise TranscriptError("an entry comes before the start record")
            if len(accepted) != len(seats):
                missing = sorted(set(range(len(seats))) - accepted)
                report.problems.append(f"the game began without the acceptance of seats {missing}")
                accepted = set(range(len(seats)))
            if damaged is not None:
                report.unchecked += 1
                continue
            if replay_fault is not None:
                entries_after += 1
                continue
            expected, head = replica.seq, replica.head  # applying an entry that fails may move them
            try:
                # Opened once, here: the host's state hash in it is read below. One that doesn't
                # open goes in as it is, for the replica to name what is wrong with it.
                opened = open_envelope(value)
            except MalformedMessage:
                opened = None
            try:
                applied = replica.apply_entry(value if opened is None else opened)
            except ProtocolFault as problem:
                damage = _entry_damage(value, replica, number)
                if damage is not None:
                    # It proves nothing against anyone. A joiner records only entry envelopes
                    # that open: nothing explains a record that doesn't hold one.
                    damaged = (expected, damage, problem.fault if _opens_as_entry(value) else None)
                    continue
                # The log itself shows a fault; it is confirmed if the transcript records it too.
                replay_fault = problem.fault
                intact = (replica.seq, replica.head) == (expected, head)
                report.audits = replica.audits  # (an audit this entry completed counts: a dispute's, §E)
                problems_before = len(report.problems)
                report.entries += 1
                continue
            report.entries += 1
            report.signatures += 2
            if len(replica.open_seats) != len(report.open_seats):
                report.open_seats = dict(replica.open_seats)
            if len(replica.rebuilt) != len(report.rebuilt):
                report.rebuilt = set(replica.rebuilt)
            report.forfeit = replica.forfeit
            if len(replica.sequencers) != len(report.hosts):
                report.hosts = list(replica.sequencers)
                if applied.submission.kind == TAKE_OVER:
                    report.taken_over.add(applied.seq)
            hashes[applied.seq] = (applied.entry_digest, replica.state_hash)
            # The host acknowledges each entry inside it: its state hash after applying it.
            claimed = opened.body["state"]  # type: ignore[union-attr]  # it applied, so it opened
            signer = replica.sequencer_at(applied.seq)
            acked.setdefault(applied.seq, {})[signer] = (applied.entry_digest, claimed)
            if claimed != replica.state_hash:
                wrong_ack(Fault(signer, FaultCode.DESYNC, f"claimed a different state after entry {applied.seq}", applied.seq))
            else:
                report.acks += 1
            report.audits = replica.audits
            still = []
            for seq, seat, ack in pending_acks:
                if seq in hashes:
                    if (fault := ack_fault(seq, seat, ack)) is not None:
                        wrong_ack(fault)
                else:
                    still.append((seq, seat, ack))
            pending_acks = still
        elif kind == "ack":
            take_ack(value, number)
        elif kind == "acks":
            # Acknowledgements as items (§B8), each rebuilt into the envelope its seat signed.
            if replica is None:
                report.damage.append((None, f"record {number}, of acknowledgements, comes before the start record"))
                continue
            try:
                acks = acks_of_record(value, replica.game_id, [seat.key.raw for seat in seats], replica.logged)
            except ValueError as error:
                report.damage.append((None, f"record {number} is damaged: {error}"))
                continue
            for _, envelope in acks:
                take_ack(envelope.raw, number)
        elif kind == "chat":
            if checked := signed_by_seat(value, "chat", number):
                report.chats += 1
                envelope, seat = checked
                if start is not None and envelope.body["game_id"] == start.body["game_id"]:
                    chat_limits.offer(seat, line_size(envelope.body["text"]), None, envelope.digest)
        elif kind == "fault":
            fault = _fault_record(value)
            if fault is None:
                report.problems.append(f"record {number}, the writer's record of why the game stopped, is damaged")
                continue
            report.stopped = fault
            # Another seat's claim the writer could not check: its accusation may prove itself here.
            accusation = replace(fault, culprit=fault.accused) if fault.reporter is not None else fault
            # Confirmed if the replay reaches the same verdict on the same entry, or if the
            # record's evidence proves it (checked against the log up to where it stopped).
            if damaged is not None:
                # The damaged entry proves nothing: the writer's evidence may.
                explained = explained or (damaged[2] is not None and _same(damaged[2], accusation))
                report.stop_confirmed = proves(accusation)
            elif replay_fault is not None:
                report.stop_confirmed = _same(replay_fault, accusation) or proves(accusation)
            else:
                report.stop_confirmed = proves(accusation)
            if report.stop_confirmed:
                report.stopped = accusation
        elif kind == "fault-message":
            checked = signed_by_seat(value, "fault", number)
            if checked and start is not None and checked[0].body["game_id"] == start.body["game_id"]:
                body = checked[0].body
                reports.add((checked[1], body["culprit"], body["code"]))
        elif kind == "leave":
            checked = signed_by_seat(value, "leave", number)
            if checked and start is not None and checked[0].body["game_id"] == start.body["game_id"]:
                report.left.setdefault(checked[1], (clean_text(checked[0].body["reason"]), report.entries))
        elif kind == "end":
            if replica is None:
                raise TranscriptError("an end record comes before the start record")
            # (The game's end, or a win by forfeit, which ends the log but not the game's state, §B17.)
            computed = replica.phase.result if isinstance(replica.phase, OverPhase) else replica.step
            if not (isinstance(value, dict) and isinstance(value.get("scores"), (list, tuple))
                    and isinstance(value.get("winners"), (list, tuple))):
                report.problems.append(f"record {number}, the writer's record of the result, is damaged")
            elif damaged is not None:
                pass  # the log that would give the result is damaged
            elif not isinstance(computed, GameOver):
                report.problems.append("the transcript claims the game ended, but the log does not end it")
            elif list(computed.scores) != list(value["scores"]) or list(computed.winners) != list(value["winners"]):
                report.problems.append("the recorded result differs from the one the log gives")
            else:
                report.result = {"scores": list(computed.scores), "winners": list(computed.winners), "summary": computed.summary}
        elif kind == "notes":
            clocks = value.get("clocks") if isinstance(value, dict) else None
            if not (isinstance(clocks, (list, tuple)) and len(clocks) == len(seats)
                    and all(type(seconds) is int and 0 <= seconds < 2**32 for seconds in clocks)):
                report.problems.append(f"record {number}, the writer's notes, is damaged")
            else:
                report.clocks = list(clocks)
        elif kind == "header":
            report.problems.append(f"record {number} is a second header")
        else:
            report.problems.append(f"record {number} is of an unknown kind, {clean_text(repr(kind))}")
    if wrong_state is not None:
        if report.stopped is not None and report.stopped.reporter is not None and not report.stop_confirmed:
            # Another seat's desync report: the acknowledgements may bear out the desync it names.
            report.stopped = replace(report.stopped, culprit=report.stopped.accused)
        right = desync_borne_out(report.stopped, acked, wrong, hashes, len(seats))
        if right is None:
            return wrong_state[1]
        report.desync_right, report.desync_wrong = right, sorted(wrong[report.stopped.seq])  # type: ignore[union-attr]
        # Every seat it names signed a state the log does not give: proved by its signature.
        report.stop_confirmed = report.stopped.culprit is None or report.stopped.culprit in wrong[report.stopped.seq]  # type: ignore[union-attr]
    if replay_fault is not None and not (report.stopped is not None and _same(replay_fault, report.stopped)):
        # The first failure is the verdict: what the records after it say follows from it (a
        # recorded fault its evidence proves is kept beside it).
        report.failure = replay_fault
        if not report.stop_confirmed:
            report.stopped = None
        del report.problems[problems_before:]
    elif damaged is not None and not explained:
        report.damage.insert(0, damaged[:2])
    else:
        entries_after += report.unchecked
        report.unchecked = 0
        if entries_after:
            report.problems.append(f"{_count(entries_after, 'entry follows', 'entries follow')} the one that stopped the game")
    if forks and not (report.stopped is not None and report.stopped.code == FaultCode.DESYNC):
        report.problems.extend(forks)
    if relayed and report.stopped is not None and report.stopped.code == FaultCode.BAD_SIGNATURE and (
        replica is not None and report.stopped.culprit in replica.hosts()
    ):
        report.damage = [item for item in report.damage if item not in relayed]
    if (
        report.stopped is not None and report.stopped.code == FaultCode.LEFT and not report.stop_confirmed
        and replay_fault is None and damaged is None and report.stopped.culprit in report.left
        and not isinstance(replica.step if replica is not None else None, GameOver)
    ):
        report.stop_confirmed = True  # the leaver's own signed goodbye, before the game was over
    stopped = report.stopped
    if stopped is not None and stopped.reporter is not None and (stopped.reporter, stopped.accused, stopped.code) not in reports:
        # The writer stopped on another seat's report: that seat's signed message must say so.
        report.problems.append(
            f"the writer's record says {report.who(stopped.reporter)} reported the fault that stopped the game, "
            "but no fault message of theirs in the file says so"
        )
    if pending_acks and replay_fault is None and damaged is None:
        report.problems.append(
            f"{_count(len(pending_acks), 'acknowledgement of an entry', 'acknowledgements of entries')} "
            "not in the transcript"
        )
    return report


def desync_borne_out(
    stopped: Fault | None,
    acked: dict[int, dict[int, tuple[bytes, bytes]]],
    wrong: dict[int, list[int]],
    hashes: dict[int, tuple[bytes, bytes]],
    players: int,
) -> list[int] | None:
    """Whether the writer's record ``stopped`` is the desync the recorded acknowledgements make:
    a ``desync`` at the first entry acknowledged with another state than the replay's, naming
    the seat the rule of §B8 names from every seat's acknowledgement of it (the odd one out, or
    nobody). Returns the seats whose acknowledgement gives the replayed state, or ``None``."""
    if stopped is None or stopped.code != FaultCode.DESYNC or stopped.seq != min(wrong):
        return None
    acks = acked.get(stopped.seq, {})
    if set(acks) != set(range(players)) or stopped.culprit != odd_one_out(acks):
        return None
    return sorted(seat for seat, ack in acks.items() if ack == hashes[stopped.seq])


def desync_report_text(data: bytes) -> str | None:
    """What the file ``data`` is, in a sentence, if it is a desync report — the canonical msgpack
    of ``{"seq", "hashes", "seat", "state"}`` a peer writes when the peers disagree (§B8) — else
    ``None``. A report is not a transcript: nothing in it is signed, and nothing to verify."""
    try:
        value = canonical.decode(data)
    except canonical.CanonicalError:
        return None
    if not (isinstance(value, dict) and set(value) == {"seq", "hashes", "seat", "state"}):
        return None
    seq, seat, hashes = value["seq"], value["seat"], value["hashes"]
    if not (type(seq) is int and type(seat) is int and isinstance(hashes, (list, tuple))):
        return None
    return (
        f"a desync report, not a transcript: seat {seat}'s own game state after entry {seq} and the state hash "
        f"{_count(len(hashes), 'seat')} acknowledged, written when the peers disagreed (for finding out why: "
        "nothing in it is signed, so there is nothing to verify; the transcripts say who stopped the game)"
    )


def _entry_damage(raw: Any, replica: Replica, number: int) -> str | None:
    """Why entry record ``number`` is damage to the file, proving nothing against anyone; or
    ``None`` if the host's signature on it proves that the host signed it as it stands, where it
    stands (so whatever is wrong with it, or inside it, is a signer's fault).
    """
    try:
        envelope = open_envelope(raw)
    except MalformedMessage as error:
        if _host_signed_malformed_entry(raw, replica):
            return None
        return f"record {number} is not a well-formed message ({error})"
    if envelope.kind != "entry":
        return f"record {number} holds {with_article(repr(envelope.kind))} message where a log entry belongs"
    host = replica.seats[replica.sequencer_at(envelope.body["seq"])]  # who signs entries of its number
    author = replica.self_sequenced_author(envelope.body["submission"])
    if envelope.sender != host.key.raw and author is not None:
        host = replica.seats[author]  # a take-over or forfeit its author signed itself (§B15, §B17)
    if envelope.sender != host.key.raw:
        return f"record {number} is signed with a key that is not the host's"
    try:
        envelope.verify(host.key)
    except (BadSignature, MalformedMessage):
        return f"record {number} has a signature that does not verify"
    body = envelope.body
    if (body["game_id"], body["seq"], body["prev"]) == (replica.game_id, len(replica.chain) - 1, replica.chain[-1]):
        return None  # in its place: what is wrong is inside it
    if replica.contradicts_chain(envelope):
        return None  # the host broke its own chain
    # Linked to no entry of the log: a record dropped, repeated or moved, or from another game.
    if body["game_id"] != replica.game_id:
        return f"record {number} is an entry of another game"
    return f"record {number} holds entry {body['seq']} (a record is missing, repeated or out of order)"


def _opens_as_entry(raw: Any) -> bool:
    try:
        return open_envelope(raw).kind == "entry"
    except MalformedMessage:
        return False


def _host_signed_malformed_entry(raw: Any, replica: Replica) -> bool:
    """Whether ``raw`` is an entry of this game whose body does not fit the schema but which the
    host signed anyway: no damage can make one, so it proves the host sent a malformed entry."""
    try:
        value = canonical.decode(raw)
        if not (isinstance(value, dict) and set(value) == {"kind", "sender", "body", "sig"}):
            return False
        kind, sender, body, signature = value["kind"], value["sender"], value["body"], value["sig"]
        host = replica.seats[replica.sequencer].key
        if kind != "entry" or sender != host.raw or not isinstance(body, dict):
            return False
        if body.get("game_id") != replica.game_id:
            return False
        Envelope(kind, sender, body, signature, bytes(raw)).verify(host)
    except (canonical.CanonicalError, BadSignature):
        return False
    return True


def _same(found: Fault, recorded: Fault) -> bool:
    """Whether a recorded fault is the verdict ``found``: the same culprit, for the same reason."""
    return (found.culprit, found.code) == (recorded.culprit, recorded.code)


def _fault_record(value: Any) -> Fault | None:
    """The fault a ``fault`` record holds, or ``None`` if the record is damaged."""
    if not isinstance(value, dict):
        return None
    culprit, reporter = value.get("culprit"), value.get("reporter")
    code, reason, seq = value.get("code", ""), value.get("reason", ""), value.get("seq", 0)
    evidence, accused = value.get("evidence", ()), value.get("accused")
    if not (
        all(seat is None or type(seat) is int for seat in (culprit, reporter, accused))
        and isinstance(code, str) and isinstance(reason, str) and type(seq) is int
        and isinstance(evidence, (list, tuple)) and all(isinstance(item, bytes) for item in evidence)
    ):
        return None
    if reporter is not None:
        # Another seat's report the writer could not prove: the reporter stopped the game on its
        # word (§B9), whatever the record's culprit. Older versions wrote no ``accused`` and put
        # the seat the report named in ``culprit`` (nil, the reporter itself or another seat);
        # versions before this rule wrote a nil culprit beside ``accused``.
        accused = value["accused"] if "accused" in value else culprit
        culprit = reporter
    return Fault(culprit, code, reason, seq, reporter, tuple(evidence), accused)
