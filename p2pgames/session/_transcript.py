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
fault           this peer's verdict that stopped the game (culprit, code, reason, seq, evidence)
fault-message   a signed ``fault`` envelope another peer sent
leave           a signed ``leave`` envelope
end             the result as this peer computed it (scores, winners, summary)
==============  =================================================================================

:func:`verify_transcript` replays a transcript with no network and no secrets: every signature,
chain link, rule, state hash and audit, and re-checks the evidence of a recorded fault.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from p2pgames import canonical
from p2pgames.crypto import BadSignature, CryptoError
from p2pgames.engine import EngineError, Game, GameOver
from p2pgames.session._faults import Fault, FaultCode, ProtocolFault
from p2pgames.session._messages import Envelope, MalformedMessage, open_envelope
from p2pgames.session._replica import HOST_SEAT, Replica, SeatInfo

__all__ = [
    "encode_record",
    "iter_records",
    "TranscriptError",
    "VerificationReport",
    "verify_transcript",
    "MAX_RECORD",
]

MAX_RECORD = 16 * 1024 * 1024
_LENGTH = struct.Struct(">I")


class TranscriptError(ValueError):
    """The file is not a readable transcript (truncated, not canonical, wrong format)."""


def encode_record(record: bytes) -> bytes:
    """Frame one record (already canonical msgpack) for appending to a transcript file."""
    return _LENGTH.pack(len(record)) + record


def iter_records(data: bytes) -> Iterator[tuple[str, Any]]:
    """Yield ``(kind, value)`` for each record; raises :class:`TranscriptError` on damage."""
    offset = 0
    number = 0
    while offset < len(data):
        number += 1
        if offset + 4 > len(data):
            raise TranscriptError(f"record {number} is cut short (the file ends inside its length)")
        (length,) = _LENGTH.unpack_from(data, offset)
        offset += 4
        if length > MAX_RECORD or offset + length > len(data):
            raise TranscriptError(f"record {number} is cut short or too long ({length} bytes)")
        try:
            record = canonical.decode(data[offset:offset + length])
        except canonical.CanonicalError as error:
            raise TranscriptError(f"record {number} is damaged: {error}") from None
        offset += length
        if not (isinstance(record, tuple) and len(record) == 2 and isinstance(record[0], str)):
            raise TranscriptError(f"record {number} is not a [kind, value] pair")
        yield record[0], record[1]


@dataclass
class VerificationReport:
    """What :func:`verify_transcript` checked, and what it found."""

    game: str = ""
    names: list[str] = field(default_factory=list)
    seat: int | None = None
    entries: int = 0
    signatures: int = 0
    acks: int = 0
    audits: int = 0
    chats: int = 0
    result: Any = None
    stopped: Fault | None = None
    stop_confirmed: bool = False
    failure: Fault | None = None
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True if nothing in the file is inconsistent (a recorded, confirmed fault is fine)."""
        return self.failure is None and not self.problems

    @property
    def complete(self) -> bool:
        return self.result is not None

    def who(self, seat: int | None) -> str:
        if seat is None:
            return "nobody could be named"
        if 0 <= seat < len(self.names):
            return f"{self.names[seat]} (seat {seat})"
        return f"seat {seat}"

    def describe(self) -> str:
        lines = []
        players = ", ".join(self.names)
        lines.append(f"Transcript of {self.game} by {self.who(self.seat)}; players: {players}.")
        lines.append(
            f"Checked {self.entries} log entries ({self.signatures} signatures, every chain link, every rule), "
            f"{self.acks} state-hash acknowledgements, {self.audits} deal audit(s), {self.chats} chat line(s)."
        )
        if self.failure is not None:
            lines.append(
                f"FAILED at entry {self.failure.seq}: {self.who(self.failure.culprit)} — {self.failure.reason}."
            )
        for problem in self.problems:
            lines.append(f"PROBLEM: {problem}")
        if self.stopped is not None:
            how = "confirmed from the signed evidence" if self.stop_confirmed else (
                "as reported" + (f" by {self.who(self.stopped.reporter)}" if self.stopped.reporter is not None else "")
            )
            lines.append(
                f"The game stopped at entry {self.stopped.seq}: {self.who(self.stopped.culprit)} — "
                f"{self.stopped.reason} ({how})."
            )
        if self.result is not None:
            winners = " and ".join(self.who(seat) for seat in self.result["winners"]) or "nobody"
            lines.append(f"Result: {winners} won — {self.result['summary']}; scores {self.result['scores']}.")
        elif self.stopped is None and self.failure is None:
            lines.append("The transcript ends before the game did.")
        lines.append("Verified." if self.ok else "NOT verified.")
        return "\n".join(lines)


def verify_transcript(data: bytes, game_loader: Callable[[str], Game]) -> VerificationReport:
    """Replay a transcript offline and report what was verified, or the first failure and whose.

    Raises :class:`TranscriptError` only if the file can't be read at all.
    """
    report = VerificationReport()
    records = iter(iter_records(data))
    try:
        kind, header = next(records)
    except StopIteration:
        raise TranscriptError("the file is empty") from None
    if kind != "header" or not isinstance(header, dict) or header.get("format") != "p2pgames-transcript":
        raise TranscriptError("this is not a p2pgames transcript")
    if header.get("version") != 1:
        raise TranscriptError(f"transcript version {header.get('version')} is not supported")
    report.game = str(header.get("game"))
    report.seat = header.get("seat")
    if report.seat is not None and type(report.seat) is not int:
        raise TranscriptError(f"the header names no seat ({report.seat!r})")
    try:
        game = game_loader(report.game)
    except KeyError as error:
        raise TranscriptError(str(error)) from None

    replica: Replica | None = None
    seats: list[SeatInfo] = []
    start: Envelope | None = None
    accepted: set[int] = set()
    hashes: dict[int, tuple[bytes, bytes]] = {}
    pending_acks: list[tuple[int, int, tuple[bytes, bytes]]] = []
    replay_fault: Fault | None = None
    problems_before = 0  # problems found before the log stopped (the later ones follow from it)
    entries_after = 0  # entries that follow the one that stopped the game

    def fail(fault: Fault) -> VerificationReport:
        report.failure = fault
        return report

    def seat_of(envelope: Envelope) -> int | None:
        for index, seat in enumerate(seats):
            if seat.key.raw == envelope.sender:
                return index
        return None

    def signed_by_seat(raw: bytes, kind: str) -> tuple[Envelope, int] | None:
        try:
            envelope = open_envelope(raw)
        except MalformedMessage as error:
            report.problems.append(f"a {kind} record is malformed: {error}")
            return None
        seat = seat_of(envelope)
        if envelope.kind != kind or seat is None:
            report.problems.append(f"a {kind} record is not a {kind} from a seat at the table")
            return None
        try:
            envelope.verify(seats[seat].key)
        except BadSignature:
            report.problems.append(f"a {kind} record from {report.who(seat)} has a bad signature")
            return None
        report.signatures += 1
        return envelope, seat

    for kind, value in records:
        if kind == "start":
            try:
                start = open_envelope(value)
                seats = [SeatInfo.decode(item) for item in start.body["seats"]]
                start.verify(seats[HOST_SEAT].key)
                ruleset = game.decode_ruleset(start.body["ruleset"])
            except (MalformedMessage, BadSignature, CryptoError, EngineError, KeyError, IndexError, TypeError) as error:
                raise TranscriptError(f"the start record is not valid: {error}") from None
            report.signatures += 1
            report.names = [seat.name for seat in seats]
            game = game.for_ruleset(ruleset)
            replica = Replica(game, ruleset, start.body["game_id"], seats, start.digest)
        elif kind == "accept":
            checked = signed_by_seat(value, "accept")
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
            if replay_fault is not None:
                entries_after += 1
                continue
            try:
                applied = replica.apply_entry(value)
            except ProtocolFault as problem:
                # The log itself shows a fault; it is confirmed if the transcript records it too.
                replay_fault = problem.fault
                problems_before = len(report.problems)
                report.entries += 1
                continue
            report.entries += 1
            report.signatures += 2
            hashes[applied.seq] = (applied.entry_digest, replica.state_hash)
            # The host acknowledges each entry inside it: its state hash after applying it.
            claimed = open_envelope(value).body["state"]
            if claimed != replica.state_hash:
                return fail(Fault(HOST_SEAT, FaultCode.DESYNC, f"claimed a different state after entry {applied.seq}", applied.seq))
            report.acks += 1
            report.audits = replica.audits
            still = []
            for seq, seat, ack in pending_acks:
                if seq in hashes:
                    if ack != hashes[seq]:
                        return fail(Fault(seat, FaultCode.DESYNC, f"acknowledged entry {seq} with a different state", seq))
                    report.acks += 1
                else:
                    still.append((seq, seat, ack))
            pending_acks = still
        elif kind == "ack":
            checked = signed_by_seat(value, "ack")
            if checked:
                envelope, seat = checked
                body = envelope.body
                ack = (body["entry"], body["state"])
                if body["seq"] in hashes:
                    if ack != hashes[body["seq"]]:
                        return fail(Fault(seat, FaultCode.DESYNC, f"acknowledged entry {body['seq']} with a different state", body["seq"]))
                    report.acks += 1
                else:
                    pending_acks.append((body["seq"], seat, ack))
        elif kind == "chat":
            if signed_by_seat(value, "chat"):
                report.chats += 1
        elif kind == "fault":
            fault = _fault_record(value)
            if fault is None:
                report.problems.append("a fault record is damaged")
                continue
            report.stopped = fault
            if replay_fault is not None:
                report.stop_confirmed = (replay_fault.culprit, replay_fault.code) == (fault.culprit, fault.code)
            else:
                report.stop_confirmed = _confirm(replica, fault)
        elif kind == "fault-message":
            signed_by_seat(value, "fault")
        elif kind == "leave":
            signed_by_seat(value, "leave")
        elif kind == "end":
            if replica is None:
                raise TranscriptError("an end record comes before the start record")
            computed = replica.step
            if not (isinstance(value, dict) and isinstance(value.get("scores"), (list, tuple))
                    and isinstance(value.get("winners"), (list, tuple))):
                report.problems.append("an end record is damaged")
            elif not isinstance(computed, GameOver):
                report.problems.append("the transcript claims the game ended, but the log does not end it")
            elif list(computed.scores) != list(value["scores"]) or list(computed.winners) != list(value["winners"]):
                report.problems.append("the recorded result differs from the one the log gives")
            else:
                report.result = {"scores": list(computed.scores), "winners": list(computed.winners), "summary": computed.summary}
        elif kind == "header":
            report.problems.append("a second header record")
        else:
            report.problems.append(f"unknown record kind {kind!r}")
    if replay_fault is not None and not report.stop_confirmed:
        # The first failure is the verdict: what the records after it say follows from it.
        report.failure = replay_fault
        report.stopped = None
        del report.problems[problems_before:]
    elif entries_after:
        report.problems.append(f"{entries_after} entries follow the one that stopped the game")
    if pending_acks and replay_fault is None:
        report.problems.append(f"{len(pending_acks)} acknowledgement(s) of entries not in the transcript")
    return report


def _fault_record(value: Any) -> Fault | None:
    """The fault a ``fault`` record holds, or ``None`` if the record is damaged."""
    if not isinstance(value, dict):
        return None
    culprit, reporter = value.get("culprit"), value.get("reporter")
    code, reason, seq = value.get("code", ""), value.get("reason", ""), value.get("seq", 0)
    evidence = value.get("evidence", ())
    if not (
        all(seat is None or type(seat) is int for seat in (culprit, reporter))
        and isinstance(code, str) and isinstance(reason, str) and type(seq) is int
        and isinstance(evidence, (list, tuple)) and all(isinstance(item, bytes) for item in evidence)
    ):
        return None
    return Fault(culprit, code, reason, seq, reporter, tuple(evidence))


def _confirm(replica: Replica | None, fault: Fault) -> bool:
    """Whether a fault recorded after the last entry follows from the log and its evidence alone."""
    return replica is not None and replica.confirm(fault) is None
