"""Watching a table (SPEC §B19): the table's log as it grows, as a player who holds no cards sees
it — sans-I/O, like :class:`~p2pgames.session.Session`: frames in, frames and events out.

A watcher greets the host with ``watch`` (signed by a key of its own, which seats nothing), then
only listens: the host sends it the lobby while there is one, then the start and every entry so
far, and from then on every entry, chat line and goodbye as it sends them to the players. It
replays the entries as a player does (every signature and every rule checked, §B3) but holds no
secret: nothing is ever sealed to it, so all it can read of a card is what the log made public.
It sends nothing after its greeting and acknowledges nothing, so the table never waits for it.

Whatever the host sends that does not check stops the watching and names the host; the watcher's
memory is the log's, as a player's is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from p2pgames import PROTOCOL_VERSION
from p2pgames.crypto import BadSignature, CryptoError, Identity, PublicKey, fingerprint_matches
from p2pgames.engine import EngineError, Game
from p2pgames.session._events import (
    WATCHER_SEAT,
    ChatReceived,
    GameEnded,
    GameStarted,
    Halted,
    LobbyChanged,
    Logged,
    Notice,
    Rejected,
    SessionEvent,
    result_text,
)
from p2pgames.session._faults import Fault, FaultCode, LocalError, ProtocolFault
from p2pgames.session._messages import Envelope, MalformedMessage, clean_text, make_envelope, open_envelope
from p2pgames.session._replay import Replay, ReplayStep, public_values
from p2pgames.session._replica import HOST_SEAT, OverPhase, Replica, SeatInfo, display_names

if TYPE_CHECKING:
    from p2pgames.engine import Presentation

__all__ = ["Watcher", "WATCHED_KINDS"]

# What a host sends its watchers besides its greeting, the lobby and the start: each as it goes to
# the players (chat lines, goodbyes and fault reports are their authors', signed by them).
WATCHED_KINDS = frozenset({"entry", "chat", "leave", "fault"})


class Watcher:
    """One watcher of one table (see the module docstring).

    ``host_fingerprint``: the host key the join code names (``None``: take the host that answers,
    as a LAN table found without a code is). Feed each frame's payload to :meth:`receive`; send
    what :meth:`take_outgoing` gives; show what :meth:`take_events` gives. :attr:`stage` is
    ``"greeting"``, ``"lobby"``, ``"playing"``, ``"over"`` or ``"stopped"`` (refused, the host
    sent something that does not check, the game stopped, or the connection closed).
    """

    def __init__(self, identity: Identity, name: str, presentation_loader: Callable[[str], Presentation],
                 host_fingerprint: str | None = None) -> None:
        self.identity = identity
        self.name = clean_text(name, 40) or "watcher"
        self.presentation_loader = presentation_loader
        self.host_fingerprint = host_fingerprint
        self.host_key: PublicKey | None = None
        self.stage = "greeting"
        self.game: Game | None = None
        self.shown: Presentation | None = None  # how the game is shown (a watcher is for a person)
        self.replica: Replica | None = None
        self.seats: list[SeatInfo] = []
        self.names: list[str] = []
        self.stopped_why: str | None = None
        # The game so far, step by step, for a screen to show and step back through (seen by no
        # seat: its values are the cards the log made public, as it did).
        self.replay: Replay | None = None
        self.may_chat = False  # the host passes our chat lines on (its ``watching`` says so)
        self._outgoing: list[bytes] = []
        self._events: list[SessionEvent] = []

    def take_outgoing(self) -> list[bytes]:
        out, self._outgoing = self._outgoing, []
        return out

    def take_events(self) -> list[SessionEvent]:
        out, self._events = self._events, []
        return out

    @property
    def finished(self) -> bool:
        return self.stage in ("over", "stopped")

    def disconnected(self, reason: str = "the connection closed") -> None:
        """The connection to the host is gone (nothing comes back: a watcher does not rejoin)."""
        if not self.finished:
            self._stop(f"the connection to the table closed ({reason})")

    def chat(self, text: str) -> None:
        """Say ``text`` to the table, where its host lets watchers chat (the host passes it on to
        everyone, within chat's limits; we see it when it comes back). Raises :class:`LocalError`
        when we can't."""
        text = clean_text(text)
        if not text:
            raise LocalError("nothing to send")
        if not self.may_chat:
            raise LocalError("this table's host does not let watchers chat")
        if self.replica is None or self.finished:
            raise LocalError("watchers can chat while the game is on")
        self._outgoing.append(make_envelope(self.identity, "chat", {"game_id": self.replica.game_id, "text": text}).raw)

    def receive(self, data: bytes) -> None:
        """One frame's payload from the host. Never raises: anything that does not check stops
        the watching, naming the host."""
        if self.finished:
            return
        try:
            envelope = open_envelope(data)
            self._handle(envelope)
        except MalformedMessage as error:
            self._host_fault(FaultCode.MALFORMED, f"sent a malformed message ({error})")
        except ProtocolFault as problem:
            self._halt(problem.fault)

    # -- by kind -----------------------------------------------------------------------------

    def _handle(self, envelope: Envelope) -> None:
        kind = envelope.kind
        if self.stage == "greeting":
            if kind == "reject":
                self._events.append(Rejected(clean_text(envelope.body["reason"])))
                self._stop(f"the host turned us away: {clean_text(envelope.body['reason'])}")
            elif kind == "host-hello":
                self._hello(envelope)
            else:
                self._host_fault(FaultCode.ILLEGAL, f"sent {kind} before its hello")
            return
        if kind in ("lobby", "start", "reject", "gone", "watching", "watcher-chat"):
            self._check_host_signature(envelope)
        if kind == "watching":
            self.may_chat = bool(envelope.body["chat"])
            return
        if kind == "watcher-chat":
            if self.replica is not None and envelope.body["game_id"] == self.replica.game_id:
                name = clean_text(envelope.body["name"], 40)
                self._events.append(ChatReceived(WATCHER_SEAT, f"{name} (watching)", clean_text(envelope.body["text"])))
            return  # (one of another game, replayed: nothing to show)
        if kind == "lobby" and self.stage == "lobby":
            try:
                players = tuple((clean_text(SeatInfo.decode(item).name, 40), bool(item[3])) for item in envelope.body["players"])
            except (CryptoError, IndexError, TypeError, ValueError) as error:
                self._host_fault(FaultCode.MALFORMED, f"sent a lobby that does not read ({error})")
                return
            self._events.append(LobbyChanged(players, envelope.body["seats"], None))
        elif kind == "start" and self.stage == "lobby":
            self._start(envelope)
        elif kind == "entry" and self.stage == "playing":
            self._entry(envelope)
        elif kind == "chat" and self.stage in ("playing", "over"):
            seat = self._seat_signed(envelope)
            if envelope.body["game_id"] == self.replica.game_id:  # type: ignore[union-attr]
                self._events.append(ChatReceived(seat, self.names[seat], clean_text(envelope.body["text"])))
        elif kind in ("leave", "fault") and self.stage == "playing":
            seat = self._seat_signed(envelope)
            what = "left the game" if kind == "leave" else "stopped the game, reporting a fault"
            self._stop(f"{self.names[seat]} {what}: {clean_text(envelope.body['reason'])}")
        elif kind == "reject":
            self._events.append(Rejected(clean_text(envelope.body["reason"])))
            self._stop(f"the host turned us away: {clean_text(envelope.body['reason'])}")
        elif kind in ("ping",):
            self._outgoing.append(make_envelope(self.identity, "pong", {"nonce": envelope.body["nonce"]}).raw)
        elif kind not in ("pong", "lobby", "chat", "accept", "ack", "acks", "away", "back", "reach"):
            self._host_fault(FaultCode.ILLEGAL, f"sent a watcher {kind!r}, which a host never sends one")

    def _hello(self, envelope: Envelope) -> None:
        body = envelope.body
        if body["protocol"] != PROTOCOL_VERSION:
            self._stop(f"the host speaks protocol {body['protocol']}, this p2pgames speaks {PROTOCOL_VERSION}")
            return
        try:
            key = PublicKey(envelope.sender)
            envelope.verify(key)
        except (CryptoError, BadSignature) as error:
            self._stop(f"the host's hello does not verify ({error})")
            return
        if self.host_fingerprint is not None and not fingerprint_matches(self.host_fingerprint, key):
            self._stop("the host's key is not the one the join code names: not the table you meant to watch")
            return
        try:
            self.shown = self.presentation_loader(body["game"])
            self.game = self.shown.rules
        except KeyError as error:
            self._stop(f"the table plays a game this p2pgames does not have ({error})")
            return
        self.host_key = key
        self.stage = "lobby"
        self._outgoing.append(make_envelope(self.identity, "watch", {
            "protocol": PROTOCOL_VERSION, "host": envelope.sender, "nonce": body["nonce"], "name": self.name,
        }).raw)

    def _start(self, envelope: Envelope) -> None:
        assert self.game is not None and self.shown is not None
        try:
            seats = [SeatInfo.decode(item) for item in envelope.body["seats"]]
            ruleset = self.game.decode_ruleset(envelope.body["ruleset"])
        except (CryptoError, EngineError, IndexError, TypeError, ValueError) as error:
            self._host_fault(FaultCode.MALFORMED, f"sent a start that does not read ({error})")
            return
        self.game = self.game.for_ruleset(ruleset)
        self.shown = self.shown.for_ruleset(ruleset)
        self.seats, self.names = seats, display_names(seats)
        self.replica = Replica(self.game, ruleset, envelope.body["game_id"], seats, envelope.digest)
        self.stage = "playing"
        self.replay = Replay(self.game, self.shown, self.names, None, [ReplayStep(-1, self.replica.state, (), ())])
        self._events.append(GameStarted(-1, tuple(self.names), ruleset))

    def _entry(self, envelope: Envelope) -> None:
        replica = self.replica
        assert replica is not None and self.shown is not None
        applied = replica.apply_entry(envelope)  # (a ProtocolFault names whoever it shows)
        assert self.replay is not None
        self.replay.steps.append(ReplayStep(applied.seq, replica.state, tuple(applied.events), ()))
        self.replay.values.update(public_values(replica.deals.values()))
        lines = tuple(line for before, event, after in applied.events
                      for line in self.shown.narrate(before, event, after, self.names))
        if lines:
            self._events.append(Logged(applied.seq, lines))
        if isinstance(replica.phase, OverPhase):
            self.stage = "over"
            result = replica.phase.result
            self._events.append(GameEnded(result, result_text(result, self.names, replica.open_seats)))

    # -- checks --------------------------------------------------------------------------------

    def _check_host_signature(self, envelope: Envelope) -> None:
        if self.host_key is None or envelope.sender != self.host_key.raw:
            raise ProtocolFault(self._fault(FaultCode.BAD_SIGNATURE, f"sent {envelope.kind} signed by another key"))
        try:
            envelope.verify(self.host_key)
        except (BadSignature, MalformedMessage) as error:
            raise ProtocolFault(self._fault(FaultCode.BAD_SIGNATURE, f"sent {envelope.kind} with a bad signature ({error})"))

    def _seat_signed(self, envelope: Envelope) -> int:
        """The seat that signed a message the host passed on (checked), else the host's fault."""
        for seat, info in enumerate(self.seats):
            if info.key.raw == envelope.sender:
                try:
                    envelope.verify(info.key)
                except (BadSignature, MalformedMessage):
                    break
                return seat
        raise ProtocolFault(self._fault(FaultCode.BAD_SIGNATURE, f"passed on {envelope.kind} that no seat signed"))

    def _fault(self, code: FaultCode, reason: str) -> Fault:
        seq = self.replica.seq if self.replica is not None else 0
        return Fault(HOST_SEAT, code, f"the host {reason}", seq)

    def _host_fault(self, code: FaultCode, reason: str) -> None:
        self._halt(self._fault(code, reason))

    def _halt(self, fault: Fault) -> None:
        message = f"stopped watching: {fault.reason}"
        self._events.append(Halted(fault, message))
        self.stage, self.stopped_why = "stopped", fault.reason

    def _stop(self, why: str) -> None:
        self._events.append(Notice(f"Stopped watching: {why}."))
        self.stage, self.stopped_why = "stopped", why
