"""The host's role in a session: seat 0, which seats the others, relays and sequences the log.

:class:`HostRole` is the part of a host's :class:`~p2pgames.session.Session` that no joiner has;
the session holds it and hands it every message that arrives. What the host does with a message
depends on who sent it — a connection that hasn't greeted us yet, a player in the lobby, or a
seated joiner — and on its kind::

    from                    kind      handler            what it does
    a new connection        hello     _hello             seat it in the lobby (or, once started,
                                                         in the seat it joined: lost before the
                                                         start reached it)
                            rejoin    _rejoin            seat it again, send what it missed; for a
                                                         game not played here (now): gone
                            other     -                  refused: "expected a hello"
    a lobby player (lobby)  chat      _lobby_chat        relay to the lobby, within chat's
                                                         limits (far past them: reject)
    a seated joiner         accept    _accept            relay; begin once every seat accepted
                            reach     _reach             keep its latest; relay it if news
                            submit    _submission        check, queue, sequence as an entry
                                                         (held while gathering, see below)
                            ack       _ack               pass on (in an ``acks`` message, with
                                                         others); check agreement
                            chat      _chat              relay; record (within chat's
                                                         limits; far past them: fault)
                            fault     _fault             relay; stop
                            leave     _leave             relay; stop
                            entry     _returned_entry    gathering: one of our own entries it
                                                         gives back (asked with ``missing``):
                                                         check, compare or take it back
                            takeover  _take_over_consent claiming the table: keep its consent;
                                                         take it over once all consented
                            other     -                  fault: only the host sends that

Everything the host sends every joiner from the start on is kept (:attr:`HostRole.relay`), so a
joiner that rejoins is sent what it missed. A host resumed from its transcript replays it
(:meth:`HostRole.restore`) before any joiner is back, then *gathers* (protocol/SPEC.md §B12): its
transcript may lack the last entries it signed (a full disk) and joiners' acknowledgements of
them, which the joiners hold. Until every joiner has rejoined once it sequences nothing (its own
submissions wait, and the joiners' are held); a rejoin that holds nothing it lacks is caught up at
once; any other is a *claim*, and once everyone is back the claims are taken longest first: the
joiner is sent ``missing`` and gives back each entry from there with its acknowledgement, each
checked as a joiner checks an entry (signed by us, in its place, every signature and rule) and
either compared with ours or taken back into the log. Then the held submissions, and our own.

A joiner whose host handed it the log (protocol/SPEC.md §B15) becomes a host the same way
(:meth:`HostRole.succeeding`): its relay is everything it heard as a joiner, and it gathers the
others, who dial it, before it sequences anything. A joiner whose host vanished *claims* the table
(:meth:`HostRole.claim_table`, protocol/SPEC.md §B15, a take-over) the same way, though the log
doesn't name it host: gathered, it waits for every other remaining seat's ``takeover`` consent to
the log it holds, then signs the take-over entry and goes on as the host.
"""

from __future__ import annotations

import hashlib
import itertools
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from p2pgames.crypto import BadSignature, CryptoError, PublicKey
from p2pgames.engine import normalize_typed
from p2pgames.session._acks import AckItem, ack_item, acks_of_record
from p2pgames.session._chat import ChatLimits, Offer, line_size
from p2pgames.session._events import WATCHER_SEAT, ChatReceived, LobbyChanged, Notice, SeatAway, SeatBack
from p2pgames.session._faults import Fault, FaultCode, ProtocolFault
from p2pgames.session._joiner import HOST_CONNECTION
from p2pgames.session._messages import MAX_ACKS, NAME_LIMIT, Envelope, MalformedMessage, clean_text, make_envelope, open_envelope
from p2pgames import LOCK_DECK_PROTOCOL
from p2pgames.session._replica import FORFEIT, HOST_SEAT, TAKE_OVER, SeatInfo, Submission
from p2pgames.session._watcher import WATCHED_KINDS
from p2pgames.words import with_article

if TYPE_CHECKING:
    from p2pgames.session._joiner import JoinerRole
    from p2pgames.session._session import Session

__all__ = ["HostRole", "ResumeError", "STALE_CODES"]

# The state an entry carries when applying it stopped the game (there is no state after it).
HALTING_STATE = bytes(32)
# The most ``reach`` messages a host passes on for one seat in a game: one each time it comes back
# from a restart on a new port, at most; past that they are dropped (§B15).
REACH_LIMIT = 64
# Faults that an honest peer can cause by racing another seat: rejected as stale, not punished,
# when the submission was made before the entry that made it invalid.
STALE_CODES = frozenset({FaultCode.ILLEGAL})


class ResumeError(ValueError):
    """A saved seat and its transcript can't be resumed: the message says why, for a person."""


@dataclass
class Claim:
    """A joiner back at a gathering host with entries or acknowledgements the host lacks: it
    holds ``have`` entries, and is to give back every one from ``start`` (on ``connection``);
    ``next`` is the entry it gives back next."""

    connection: int
    seat: int
    have: int
    start: int
    next: int = field(init=False)

    def __post_init__(self) -> None:
        self.next = self.start


WATCHERS = "watchers"  # the one speaker all watchers' chat is counted as (§B19)


class HostRole:
    """The host's lobby, seating, relay and sequencing, over its :class:`Session`'s shared core.

    The session passes each message to :meth:`receive`, and each connection event to
    :meth:`connected` / :meth:`disconnected`; everything sent goes out through the session.
    """

    def __init__(self, session: Session) -> None:
        self.session = session
        self.pending: dict[int, bytes] = {}  # connection -> the nonce of our hello, until it answers
        self.connection_seat: dict[int, int] = {}  # connection -> the seated joiner on it
        self.lobby: list[tuple[SeatInfo, int | None]] = []  # (seat info, connection), ours first
        # Everything sent every joiner since the start, to send a rejoining one what it missed:
        # (entries applied when it was sent — an entry's own number —, author seat, kind, raw).
        self.relay: list[tuple[int, int, str, bytes]] = []
        # A successor's own acknowledgements, made as a joiner: they went to the old host only,
        # which may have left before passing them on — every catch-up sends them (§B15).
        self.acks_as_joiner: list[bytes] = []
        # Joiners' acknowledgements to pass on in the next ``acks`` message (§B8), as its items.
        self.acks_to_pass_on: list[AckItem] = []
        self.queue: deque[Submission] = deque()  # checked submissions to sequence
        self.draining = False
        self.restoring = False  # replaying our own transcript (Session.resume_host)
        # Resumed: the joiners yet to rejoin since (None: not gathering; see the module docstring).
        self.gathering: set[int] | None = None
        self.claims: dict[int, Claim] = {}  # connection -> a claim not yet taken
        self.returning: Claim | None = None  # the claim being taken (it was sent `missing`)
        self.refused: dict[int, str] = {}  # seat -> why what it gave back was refused
        self.held: dict[int, Envelope] = {}  # seat -> its submission made while gathering
        self.took_back = False  # the log holds entries given back by a joiner
        # Games this host has a saved seat of, which it may resume (set by the network layer): a
        # rejoin for one while it plays another is refused, never told gone, so its seat is kept.
        self.resumable: frozenset[bytes] = frozenset()
        self.reaches_told: dict[int, int] = {}  # seat -> its reaches passed on (at most REACH_LIMIT)
        # Claiming the table from this host seat, gone (§B15, a take-over): we gather, then take
        # it over once every remaining seat's consent names our log (None: not claiming).
        self.claiming: int | None = None
        self.take_over_consents: dict[int, Envelope] = {}  # seat -> its latest ``takeover``
        self.take_over_refused: str | None = None  # why our take-over can't be made (told once)
        # Watchers (§B19): connection -> the name it gave and the key it greeted with; at most
        # max_watchers at once.
        self.watchers: dict[int, tuple[str, bytes]] = {}
        self.max_watchers = session.max_watchers
        # Watchers chat within one seat's allowance, all of them together: a watcher's key costs
        # nothing to make, so no account is kept per key (a new key would be a new allowance).
        self.watcher_chat_limits = ChatLimits("while watching", own=None)
        self.watcher_lines_dropped: dict[int, int] = {}  # connection -> its lines past the limits

    def open_table(self) -> None:
        """A new table: seat ourselves in the lobby (a table for one starts at once)."""
        session = self.session
        # Fresh for every table (the sealing key is), without drawing more from random_bytes.
        session.table_id = hashlib.sha256(b"p2pgames/table\x00" + session.seal_key.public_bytes()).digest()
        info = SeatInfo(session.identity.public_key, session.seal_key.public_bytes(), session.name, session.bot,
                        *session.deck_key_record())
        self.lobby.append((info, None))
        session.lobby = [info for info, _ in self.lobby]
        self._start_if_full()

    # -- what the session asks of its role -----------------------------------------------------

    in_flight: Submission | None = None  # ours are sequenced as we make them: never in flight
    in_touch = True  # the host is where the table meets
    reconnecting = False  # the joiners dial us

    @property
    def replaying(self) -> bool:
        """Whether we are applying entries that are history: our own transcript's, or those our
        joiners give back while we gather (we owe nothing and decide nothing meanwhile)."""
        return self.restoring or self.gathering is not None

    def awaited(self) -> tuple[int, ...] | None:
        """While gathering, the seats the log waits for: the one giving back entries, else the
        joiners yet to rejoin; ``None`` when not gathering (the game's steps say)."""
        if self.gathering is None:
            return None
        if self.returning is not None:
            return (self.returning.seat,)
        if self.claiming is not None and not self.gathering:
            return self._take_over_waits_for()
        return tuple(sorted(self.gathering))

    def _take_over_waits_for(self) -> tuple[int, ...]:
        """While we claim the table, gathered: the seats whose consent to our log is missing."""
        replica = self.session.replica
        assert replica is not None
        wanted = replica.take_over_body(self.session.seat)  # type: ignore[arg-type]
        return tuple(
            seat for seat in replica.playing_seats
            if seat not in (self.claiming, self.session.seat)
            and (seat not in self.take_over_consents or self.take_over_consents[seat].body != wanted)
        )

    def replay_status(self) -> str:
        """What the table is doing while we replay or gather, for a person."""
        session = self.session
        if self.returning is not None:
            return f"taking back from {session.names[self.returning.seat]} the log entries this host lost"
        if self.gathering:
            names = " and ".join(session.names[seat] for seat in sorted(self.gathering))
            return f"waiting for {names} to reconnect (the game goes on once everyone is back)"
        if self.claiming is not None:
            names = " and ".join(session.names[seat] for seat in self._take_over_waits_for())
            return f"waiting for {names} to agree to play on without {session.names[self.claiming]}"
        return "catching up on the game"

    @property
    def lobby_size(self) -> int:
        return len(self.lobby)

    @property
    def host_fingerprint(self) -> str | None:
        return self.session.identity.public_key.fingerprint()

    def seat_of_connection(self, connection: int) -> int | None:
        claim = self.claims.get(connection)
        return claim.seat if claim is not None else self.connection_seat.get(connection)

    def connection_of(self, seat: int) -> int | None:
        for connection, seated in self.connection_seat.items():
            if seated == seat:
                return connection
        return next((claim.connection for claim in self.claims.values() if claim.seat == seat), None)

    def table_connections(self) -> list[int]:
        """The connections to the others at the table: every seated joiner's (a claim's too)."""
        return list(self.connection_seat) + list(self.claims)

    def tell_table(self, envelope: Envelope) -> None:
        """Send our ``envelope`` to everyone at the table, a claim's joiner too (a fault, a
        goodbye, a chat line: nothing it could hold already), and keep it for catch-ups."""
        self.broadcast(envelope)
        for connection in self.claims:
            self.session._send(connection, envelope)

    def tell_lobby(self, envelope: Envelope) -> None:
        """Send our ``envelope`` to everyone in the lobby."""
        for _, connection in self.lobby:
            if connection is not None:
                self.session._send(connection, envelope)

    def leave_before_start(self) -> None:
        """We leave before the game began: turn away everyone who has come."""
        lobby = [connection for _, connection in self.lobby if connection is not None]
        for connection in list(self.pending) + lobby + list(self.connection_seat):
            self.reject(connection, "the host closed the table")

    def acknowledge(self, seq: int, entry_digest: bytes, state_hash: bytes) -> None:
        """Our state after entry ``seq``: the entry itself carries it to the others — one we
        signed. Another host's entry (one we take back while we claim the table, §B15) we
        acknowledge as a joiner does, to every joiner, and keep for catch-ups."""
        session = self.session
        if session.replica is not None and session.replica.sequencer_at(seq) != session.seat:
            ack = make_envelope(session.identity, "ack", {
                "game_id": session.game_id, "seq": seq, "entry": entry_digest, "state": state_hash,
            })
            self.pass_on_ack(session.seat, ack)  # type: ignore[arg-type]
            session._take_ack(session.seat, ack)  # type: ignore[arg-type]
            self.pass_on_acks_if_due()
            return
        session._note_hashes(session.seat, seq, entry_digest, state_hash)  # type: ignore[arg-type]

    def submit(self, submission: Submission, decision: bool) -> None:
        """Our own submission: checked and sequenced at once, like any joiner's."""
        session = self.session
        try:
            checked = session.replica.check_submission(submission.envelope, session.seat)  # type: ignore[union-attr, arg-type]
        except ProtocolFault as fault:  # pragma: no cover - our own code made it
            session._halt(fault.fault)
            return
        self.queue.append(checked)
        self._drain()

    def broadcast(
        self, data: Envelope, *, except_seat: int | None = None, key: int | None = None, keep: bool = True
    ) -> None:
        """Send to every seated joiner (but ``except_seat``, its author), and keep it (unless not
        ``keep``) for a joiner that rejoins (``key``: the entries applied when it was sent, unless
        given). The acknowledgements waiting to be passed on go first: so those of entry *k* that
        have come reach everyone before entry *k + 1* (a disagreement is caught by then), and
        before whatever else follows them (a fault it causes, a leave)."""
        session = self.session
        if self.acks_to_pass_on and data.kind != "acks":
            self.pass_on_acks()
        if keep and session.start_envelope is not None:
            self.keep(data, session.seat if except_seat is None else except_seat, key)  # type: ignore[arg-type]
        for connection, seat in self.connection_seat.items():
            if seat != except_seat:
                session._send(connection, data)
        if data.kind in WATCHED_KINDS or data.kind in ("start", "watcher-chat"):
            for connection in self.watchers:
                session._send(connection, data)

    def pass_on_ack(self, seat: int, envelope: Envelope) -> None:
        """Pass on ``seat``'s acknowledgement, news to the others (§B8): an ordinary one — of this
        game, the seat's first of its entry — in the next ``acks`` message; any other at once, on
        its own, after those before it (the others must see it to reach our verdict)."""
        session = self.session
        body = envelope.body
        if body["game_id"] != session.game_id or (body["seq"], seat) in session._ack_of:
            self.broadcast(envelope, except_seat=seat)
            return
        self.keep(envelope, seat)
        self.acks_to_pass_on.append(ack_item(seat, envelope, session.replica.logged(body["seq"])))  # type: ignore[union-attr]

    def pass_on_acks_if_due(self) -> None:
        """Send the acknowledgements waiting to be passed on once every seated joiner still
        playing has acknowledged our latest entry: so an ``acks`` message holds every joiner's
        of an entry, or of several. (Whatever we send next takes them along before it, see
        :meth:`broadcast`: when a next entry comes first, they go just before it.)"""
        waiting = self.acks_to_pass_on
        if not waiting:
            return
        session = self.session
        latest = session._seq() - 1
        open_seats = session.replica.open_seats if session.replica is not None else {}
        seated = [seat for seat in self.connection_seat.values() if seat not in open_seats]
        if len(waiting) >= MAX_ACKS or all(
            (latest, seat) in session._ack_of for seat in seated
        ):
            self.pass_on_acks()

    def pass_on_acks(self) -> None:
        """Send the acknowledgements waiting, in ``acks`` messages (§B8): one message, signed
        once, to every seated joiner that is not the author of all it holds (a joiner gets its
        own acks back only beside others'; at two seats, never). Each ack was kept on its own when
        it came, for catch-ups."""
        session = self.session
        items, self.acks_to_pass_on = self.acks_to_pass_on, []
        for first in range(0, len(items), MAX_ACKS):
            chunk = items[first:first + MAX_ACKS]
            authors = {item[0] for item in chunk}
            message = make_envelope(session.identity, "acks", {"game_id": session.game_id, "acks": chunk})
            for connection, seat in self.connection_seat.items():
                if authors != {seat}:
                    session._send(connection, message)

    def keep(self, envelope: Envelope, author: int, key: int | None = None) -> None:
        """Keep ``envelope`` (by ``author``) for a joiner that rejoins; ``key``: the entries
        applied when it was sent (an entry's own number), unless given."""
        self.relay.append((self.session._seq() if key is None else key, author, envelope.kind, envelope.raw))

    def reject(self, connection: int, reason: str) -> None:
        """Refuse ``connection`` (saying why) and hang up."""
        session = self.session
        session._send(connection, make_envelope(session.identity, "reject", {"reason": reason[:500]}))
        self.hang_up(connection)

    def hang_up(self, connection: int, reason: str = "the host hung up") -> None:
        """Close ``connection`` once what is queued for it is sent: it is over (see
        :meth:`disconnected`; a seat on it is away for ``reason``)."""
        self.session._closing.append(connection)
        self.disconnected(connection, reason)

    def _ended(self, connection: int) -> None:
        """``connection`` is over — closed by its peer, failed, dropped for silence or closed by
        us: the one place that says so for a connection with no seat at a game. It is no longer
        greeted, and a lobby seat on it leaves the lobby at once, which everyone left there is
        told (SPEC §B2): a seat is in the lobby only while its connection is, so the game starts
        with every seat connected."""
        self.pending.pop(connection, None)
        self.watchers.pop(connection, None)
        self.watcher_lines_dropped.pop(connection, None)
        if self.session.stage != "lobby":
            return  # before the start every seat is in the lobby; after it, the lobby is history
        before = len(self.lobby)
        self.lobby = [(info, conn) for info, conn in self.lobby if conn != connection]
        if len(self.lobby) != before:
            self._announce_lobby()

    # -- connections ---------------------------------------------------------------------------

    def connected(self, connection: int) -> None:
        """A joiner dialled in: say hello (with a nonce its hello must answer)."""
        session = self.session
        assert session.ruleset is not None
        if session.stage == "closed":
            self.reject(connection, "the host closed the table")
            return
        if session.stage == "lobby" and len(self.lobby) >= session.ruleset.players:
            self.reject(connection, "the table is full")
            return
        nonce = session.random_bytes(32)
        self.pending[connection] = nonce
        session._send(connection, make_envelope(session.identity, "host-hello", {
            "protocol": session.protocol,
            "game": session.ruleset.game,
            "ruleset": session.ruleset.encode(),
            "name": session.name,
            "seal": session.seal_key.public_bytes(),
            "nonce": nonce,
        }))

    def disconnected(self, connection: int, reason: str) -> None:
        """``connection`` closed or failed: its seated joiner is away; one in the lobby leaves it."""
        session = self.session
        claim = self.claims.pop(connection, None)
        if claim is not None:
            # Gone before it gave back what it holds: we wait for it to come back with it.
            if self.returning is claim:
                self.returning = None
            self.gathering.add(claim.seat)  # type: ignore[union-attr]
            self._seat_away(claim.seat, reason)
            return
        seat = self.connection_seat.pop(connection, None)
        if seat is not None and self.claiming is not None:
            # Until the take-over, a seat we caught up is gathered again when it comes back.
            self.gathering.add(seat)  # type: ignore[union-attr]
            self.take_over_consents.pop(seat, None)
        if seat is None:
            self._ended(connection)
            return
        if not session.finished and not (session.replica is not None and seat in session.replica.open_seats):
            # Not a fault: the seat may come back (rejoin); the game waits where it needs it.
            # (An open seat's player is gone for good: a bot plays it, nobody waits.)
            self._seat_away(seat, reason)

    def _away_message(self, seat: int) -> Envelope:
        session = self.session
        return make_envelope(session.identity, "away", {
            "game_id": session.game_id, "seat": seat, "reason": session.away[seat][:500],
        })

    def _seat_away(self, seat: int, reason: str) -> None:
        """``seat``'s connection is gone; tell the others, who wait for it."""
        session = self.session
        if seat in session.away:
            return
        session.away[seat] = reason
        self.broadcast(self._away_message(seat), keep=False)
        session._emit(SeatAway(seat, session.names[seat], reason))

    # -- receiving -----------------------------------------------------------------------------

    def receive(self, connection: int, envelope: Envelope) -> None:
        """Handle one message (its frame already parsed), by sender and kind: see the module's table."""
        session = self.session
        kind = envelope.kind
        if connection in self.pending:
            greeting = self._GREETINGS.get(kind)
            if greeting is None:
                self.reject(connection, f"expected a hello, got {kind}")
                return
            greeting(self, connection, envelope)
            return
        if session.stage == "lobby" and kind == "chat":
            self._lobby_chat(connection, envelope)
            return
        seat = self.seat_of_connection(connection)
        if seat is None:
            if connection in self.watchers:
                self._from_watcher(connection, envelope)
            return  # a connection we are closing
        handler = self._FROM_SEAT.get(kind)
        if handler is None:
            raise ProtocolFault(Fault(
                seat, FaultCode.ILLEGAL,
                f"{session._who(seat)} sent {with_article(kind)} message, which only the host sends", session._seq(),
            ))
        handler(self, seat, envelope)

    def _lobby_chat(self, connection: int, envelope: Envelope) -> None:
        """A chat from a player seated in the lobby: relayed to everyone else there, within
        chat's limits (§B10); a player far past them is turned away."""
        session = self.session
        index = next((i for i, (_, conn) in enumerate(self.lobby) if conn == connection), None)
        if index is None or envelope.body["game_id"] != session.table_id:
            return  # a connection we are closing, or a chat for another table: nothing to pass on
        info = self.lobby[index][0]
        try:
            if envelope.sender != info.key.raw:
                raise BadSignature("signed with another key")
            envelope.verify(info.key)
        except (BadSignature, MalformedMessage):
            return  # nobody else ever sees it; the game hasn't started, so nothing is at stake
        limits = session.chat_limits
        limits.retain({seated.key.raw for seated, _ in self.lobby})  # those who left count no more
        offer = limits.offer(info.key.raw, line_size(envelope.body["text"]), session._now)
        if offer is not Offer.TAKEN:  # past a limit: dropped; far past them, turned away
            if limits.far_past(info.key.raw):
                dropped = limits.dropped(info.key.raw)
                self.reject(connection, f"you sent chat far past its limits ({dropped} lines dropped)")
            return
        for _, other in self.lobby:
            if other is not None and other != connection:
                session._send(other, envelope)
        session._emit(ChatReceived(index, info.name, clean_text(envelope.body["text"])))

    # -- from a seated joiner ------------------------------------------------------------------

    def _accept(self, seat: int, envelope: Envelope) -> None:
        session = self.session
        session._verify_from_seat(envelope, seat)
        again = seat in session.accepts  # a rejoining joiner sends its accept again
        session._take_accept(seat, envelope)  # checks it is for this start
        if not again:
            self.broadcast(envelope, except_seat=seat)
            session._maybe_begin()

    def _submission(self, seat: int, envelope: Envelope, *, held: bool = False) -> None:
        """Check a seated joiner's submission and sequence it (``held``: one made while we were
        gathering, checked now)."""
        session = self.session
        if self.gathering is not None:
            # Checked once we go on: the log may yet grow by entries a joiner gives back. One
            # in flight per seat (SPEC §B3): a later one is the seat's current one.
            self.held[seat] = envelope
            return
        if session.stage != "playing":
            if session.stage in ("over", "halted"):
                return
            raise ProtocolFault(Fault(seat, FaultCode.ILLEGAL, f"{session._who(seat)} submitted before the game began", session._seq()))
        replica = session.replica
        assert replica is not None
        try:
            submission = replica.check_submission(envelope, seat)
        except ProtocolFault as problem:
            fault = problem.fault
            based_on = envelope.body.get("based_on", replica.seq)
            inner = envelope.body.get("body")
            opening = isinstance(inner, dict) and inner.get("t") == "open"
            # Held over entries given back meanwhile, which its author had not seen: whatever no
            # longer fits it is stale.
            overtaken = held and self.took_back
            if held and seat == session.seat:
                return  # ours, made for the host before us and no longer fitting: we decide again
            if (fault.code in STALE_CODES or overtaken) and not opening and type(based_on) is int and based_on < replica.seq:
                # Made before the entry that made it invalid: a race, not cheating. Never an
                # opening: the choice it opens was fixed at its commitment, before any race.
                session._send(self.connection_of(seat), make_envelope(session.identity, "stale", {  # type: ignore[arg-type]
                    "game_id": session.game_id, "counter": envelope.body["counter"], "reason": fault.reason[:500],
                }))
                return
            raise
        self.queue.append(submission)
        self._drain()

    def _relay(self, seat: int, envelope: Envelope) -> None:
        """Check that a seated joiner's message is signed by it, and pass it on to the others."""
        self.session._verify_from_seat(envelope, seat)
        self.broadcast(envelope, except_seat=seat)

    def _ack(self, seat: int, envelope: Envelope) -> None:
        """Check a joiner's acknowledgement, pass it on if it is news (§B8: not one the seat sent
        before, nor of an entry not sequenced yet, which go no further), then take it."""
        session = self.session
        session._verify_from_seat(envelope, seat)
        if session._ack_is_news(seat, envelope):
            self.pass_on_ack(seat, envelope)
        session._take_ack(seat, envelope)
        self.pass_on_acks_if_due()

    def _chat(self, seat: int, envelope: Envelope) -> None:
        """A seated joiner's chat line: recorded and relayed within chat's limits (§B10), its
        rate judged on when it arrived, else dropped. A seat far past the rate is hung up on (it
        is away, and may rejoin); a line past its totals is a flood the line itself proves."""
        session = self.session
        if envelope.body["game_id"] != session.game_id or session.chat_limits.repeats(seat, envelope.digest):
            return  # a lobby line arriving late goes no further; one we have needs nothing (not even a check)
        session._verify_from_seat(envelope, seat)
        offer = session._take_chat(seat, envelope, session._now)
        if offer is Offer.TAKEN:
            self.broadcast(envelope, except_seat=seat)
        elif offer is Offer.PAST_TOTAL:
            raise ProtocolFault(session._flood(seat, envelope))
        elif offer is Offer.TOO_FAST and session.chat_limits.far_past(seat):
            # Not a fault: nobody else saw the lines arrive, and stopping the game on our word
            # would name us (§B9). It costs the seat its connection, which is what it flooded.
            connection = self.connection_of(seat)
            if connection is not None:
                self.hang_up(connection, (
                    f"sent chat far past its limits ({session.chat_limits.dropped(seat)} lines dropped); "
                    "the host hung up on it"
                ))

    def tell_reach(self, envelope: Envelope) -> None:
        """Tell every joiner where we can be reached (the latest one goes in a catch-up)."""
        self.broadcast(envelope, keep=False)

    def _reach(self, seat: int, envelope: Envelope) -> None:
        """Where a seated joiner can be reached: kept (its latest) and passed on if it is news,
        up to :data:`REACH_LIMIT` a seat a game — more could only be a flood."""
        session = self.session
        session._verify_from_seat(envelope, seat)
        told = self.reaches_told.get(seat, 0)
        if told < REACH_LIMIT and session._take_reach(seat, envelope):
            self.reaches_told[seat] = told + 1
            self.broadcast(envelope, except_seat=seat)

    def _fault(self, seat: int, envelope: Envelope) -> None:
        self._relay(seat, envelope)
        self.session._take_fault_message(seat, envelope)

    def _leave(self, seat: int, envelope: Envelope) -> None:
        self._relay(seat, envelope)
        self.session._take_leave(seat, envelope)

    def _adjourn(self, seat: int, envelope: Envelope) -> None:
        """A seated joiner's request or answer to adjourn (§B18)."""
        session = self.session
        self._agreement(seat, envelope, session._take_adjourn, session._adjourn_settled)

    def _again(self, seat: int, envelope: Envelope) -> None:
        """A seated joiner's request, yes or no to play again (§B20)."""
        session = self.session
        self._agreement(seat, envelope, session._take_again, session._again_settled)

    def _agreement(self, seat: int, envelope: Envelope, take: Callable[[int, Envelope], bool],
                   settled: Callable[[], None]) -> None:
        """A seat's part in a table's agreement (adjourning, playing again): its signature checked,
        taken, passed on if it is news — and kept: a seat that rejoins learns where it stands —
        then whatever the agreement now means for us."""
        self.session._verify_from_seat(envelope, seat)
        if take(seat, envelope):
            self.broadcast(envelope, except_seat=seat)
        settled()

    def _hello(self, connection: int, envelope: Envelope) -> None:
        session = self.session
        body = envelope.body
        assert session.ruleset is not None
        if not self._checked_greeting(connection, envelope, None, body["game"] == session.ruleset.game):
            return
        key = PublicKey(envelope.sender)
        if session.stage != "lobby":
            seat = session._seat_of_sender(envelope)
            if seat is not None and seat != session.seat and session.seats[seat].seal == body["seal"]:
                # A joiner that lost its connection before the start reached it: it is seated
                # as it joined (same key, same sealing key), so it takes its seat from here.
                self._welcome_back(connection, seat, 0)
                return
            if seat is not None:
                self.reject(connection, (
                    "the game has already started, and you have a seat at it: take it back with the "
                    "profile you joined with (p2pgames resume)"
                ))
            elif session.stage == "halted":  # we answer only those coming back (Node.serve's after_the_game)
                self.reject(connection, f"this table's game has stopped: {self._why_stopped()}")
            else:
                self.reject(connection, "the game has already started")
            return
        if any(info.key.raw == envelope.sender for info, _ in self.lobby):
            self.reject(connection, "a player with your key is already at this table (use another --profile)")
            return
        if len(self.lobby) >= session.ruleset.players:
            self.reject(connection, "the table is full")
            return
        name = self._unique_name(clean_text(body["name"], NAME_LIMIT) or "player")
        info = SeatInfo(key, body["seal"], name, body["bot"], *(body.get("deck") or ()))
        if session.protocol != LOCK_DECK_PROTOCOL and not info.deck_key_holds():
            # (§A4: a key whose proof fails could be another seat's, or cancel the others' keys.)
            self.reject(connection, "your hello's deck key is missing or not proven")
            return
        del self.pending[connection]
        self.lobby.append((info if session.protocol != LOCK_DECK_PROTOCOL else SeatInfo(key, body["seal"], name, body["bot"]), connection))
        self._announce_lobby()
        self._start_if_full()

    def _watch(self, connection: int, envelope: Envelope) -> None:
        """A watcher's greeting (§B19): within the table's number of watchers, it is sent the
        lobby, or the start and every entry so far, and from then on what the players are sent
        of the game; it takes no seat and is never waited for."""
        session = self.session
        if not self._checked_greeting(connection, envelope, None, True):
            return
        if self.max_watchers == 0:
            self.reject(connection, "this table takes no watchers")
            return
        if len(self.watchers) >= self.max_watchers:
            self.reject(connection, f"this table takes {self.max_watchers} watchers, and has them")
            return
        del self.pending[connection]
        self.watchers[connection] = (clean_text(envelope.body["name"], NAME_LIMIT) or "watcher", envelope.sender)
        session._send(connection, make_envelope(session.identity, "watching", {"chat": session.watcher_chat}))
        if session.start_envelope is None:
            if self.lobby:
                players = [info.encode() for info, _ in self.lobby]
                session._send(connection, make_envelope(session.identity, "lobby", {
                    "players": players, "seats": session.ruleset.players, "table": session.table_id,  # type: ignore[union-attr]
                }))
            return
        # The log so far, as a rejoining joiner gets it (the relay's own bytes): the start, then
        # every entry, chat line and goodbye — nothing sealed to anyone but what the log holds.
        session._send_history(connection, itertools.chain(
            (session.start_envelope.raw,),
            (raw for _, _, kind, raw in self.relay if kind in WATCHED_KINDS),
        ))

    def _from_watcher(self, connection: int, envelope: Envelope) -> None:
        """A watcher only listens (§B19) — but for chat, where the host allows it: its line, within
        chat's limits, goes to everyone as the host's ``watcher-chat``; anything else ends its
        watching, and so does chat far past the limits."""
        session = self.session
        if envelope.kind != "chat" or not session.watcher_chat:
            self.hang_up(connection, f"the watcher sent {with_article(envelope.kind)} message, which a watcher may not")
            return
        if session.replica is None or envelope.body["game_id"] != session.game_id:
            return  # before the start (or of another game): nobody to say it to
        try:
            if envelope.sender != self.watchers[connection][1]:
                raise BadSignature("signed by another key than the watcher greeted with")
            envelope.verify(PublicKey(envelope.sender))
        except (CryptoError, BadSignature, MalformedMessage):
            self.hang_up(connection, "the watcher's chat is not signed by its key")
            return
        text = clean_text(envelope.body["text"])
        offer = self.watcher_chat_limits.offer(WATCHERS, line_size(text), session._now)
        if offer is not Offer.TAKEN:
            dropped = self.watcher_lines_dropped[connection] = self.watcher_lines_dropped.get(connection, 0) + 1
            if dropped >= self.watcher_chat_limits.policy.abuse:
                self.hang_up(connection, "the watcher chatted far past chat's limits")
            return
        name = self.watchers[connection][0]
        line = make_envelope(session.identity, "watcher-chat", {"game_id": session.game_id, "name": name, "text": text})
        self.broadcast(line, keep=False)
        session._emit(ChatReceived(WATCHER_SEAT, f"{name} (watching)", text))

    def _checked_greeting(self, connection: int, envelope: Envelope, key: PublicKey | None, our_game: bool) -> bool:
        """Whether a ``hello`` or ``rejoin`` is one to answer: signed by ``key`` (``None``: the
        key in its ``sender`` field) and with no :meth:`_greeting_problem`; if not, it is refused,
        saying why."""
        try:
            envelope.verify(key if key is not None else PublicKey(envelope.sender))
        except (CryptoError, BadSignature, MalformedMessage):
            self.reject(connection, f"your {envelope.kind}'s signature does not verify")
            return False
        problem = self._greeting_problem(connection, envelope, our_game)
        if problem is not None:
            self.reject(connection, problem)
            return False
        return True

    def _greeting_problem(self, connection: int, envelope: Envelope, our_game: bool) -> str | None:
        """What is wrong with a ``hello`` or ``rejoin`` (its signature already checked): another
        protocol, another game (``our_game`` false) or host, or a nonce of another connection."""
        body, what = envelope.body, envelope.kind
        if body["protocol"] != self.session.protocol:
            return f"this host speaks protocol {self.session.protocol}, you speak {body['protocol']}; use the same p2pgames version"
        if not our_game or body["host"] != self.session.identity.public_key.raw:
            return f"your {what} is for another game or host"
        if body["nonce"] != self.pending[connection]:
            return f"your {what} answers another connection (replayed?)"
        return None

    def _rejoin(self, connection: int, envelope: Envelope) -> None:
        """A seated joiner comes back: seat it on this connection and send what it missed."""
        session = self.session
        body = envelope.body
        if session.start_envelope is None or body["game_id"] != session.game_id:
            if not self._checked_greeting(connection, envelope, None, True):  # a real one for us
                return
            if body["game_id"] in self.resumable:
                self.reject(connection, (
                    "this host has your game saved but is running another table now; your seat is kept "
                    "for when it takes the game up again (p2pgames resume)"
                ))
            else:
                self._gone(connection, envelope, "its host is not playing it any more (it ended while you were away)")
            return
        seat = session._seat_of_sender(envelope)
        if seat is None or seat == session.seat:
            self.reject(connection, "you have no seat at this table's game (join with the profile you played with)")
            return
        if not self._checked_greeting(connection, envelope, session.seats[seat].key, True):
            return
        if session.stage in ("halted", "closed"):
            self._gone(connection, envelope, self._why_stopped())  # over for it too (§B9)
            return
        if self.claiming is not None and seat == self.claiming:
            # The host we are taking the table from, back (its probe, §B15): not before the
            # take-over is logged or given up; it is told gone once it is.
            self.reject(connection, "the others are taking the table over from you; nothing is decided yet")
            return
        opened = session.replica.open_seats.get(seat) if session.replica is not None else None
        if opened is not None:
            # The table played on without it: its seat is the bot's to the end (§B14).
            self._gone(connection, envelope, f"your seat is played by a bot since entry {opened}: the others played on without you")
            return
        self._welcome_back(connection, seat, body["have"])

    def _welcome_back(self, connection: int, seat: int, have: int) -> None:
        """``seat`` is back on ``connection`` holding ``have`` entries: caught up, or (while we
        gather) its claim kept, or refused."""
        session = self.session
        if seat in self.refused:  # what it gave back was refused: it can't follow this log
            self.reject(connection, self.refused[seat])
            return
        if self.gathering is not None:
            self._gather(connection, seat, have)
            return
        if have > session._seq():
            self.reject(connection, (
                f"you hold {have} log entries, this host {session._seq()}: your log is not this game's as this "
                "host has it"
            ))
            return
        self._seat_again(connection, seat, have)

    def _why_stopped(self) -> str:
        session = self.session
        return session.fault.describe(session.names) if session.fault is not None else "the host left"

    def _gone(self, connection: int, envelope: Envelope, reason: str) -> None:
        """Answer a rejoin for a game this host is not playing (it stopped here, or was never
        here) — one checked to be a real one for us (:meth:`_checked_greeting`) — with ``gone``,
        ``reason`` and bound to that rejoin by its digest (§B12), and hang up."""
        session = self.session
        session._send(connection, make_envelope(session.identity, "gone", {
            "game_id": envelope.body["game_id"], "rejoin": envelope.digest, "reason": reason[:500],
        }))
        self.hang_up(connection)

    def _seat_again(self, connection: int, seat: int, have: int) -> None:
        """Seat a returning joiner on ``connection``: send it every message since entry ``have``
        (all of them from 0), the seats still away, then ``caught-up``."""
        session = self.session
        if session.stage in ("halted", "closed"):  # a hello again (a rejoin is told gone)
            self.reject(connection, f"the game has stopped: {self._why_stopped()}")
            return
        del self.pending[connection]
        self._replace_connection(seat)
        self._catch_up(connection, seat, have)

    def _replace_connection(self, seat: int) -> None:
        """Drop any connection ``seat`` left behind (maybe not yet noticed as dead)."""
        session = self.session
        for old, seated in list(self.connection_seat.items()):
            if seated == seat:
                del self.connection_seat[old]
                session._closing.append(old)
        for old, claim in list(self.claims.items()):
            if claim.seat == seat:
                del self.claims[old]
                if self.returning is claim:
                    self.returning = None
                session._closing.append(old)

    def _catch_up(self, connection: int, seat: int, have: int, acks_after: int | None = None) -> None:
        """Seat ``seat`` on ``connection``: send it every message since entry ``have`` (and every
        acknowledgement kept after entry ``acks_after``: a claim's joiner, which may lack those
        other joiners gave back before it), the seats still away, then ``caught-up``; it is back."""
        session = self.session
        # What it missed, as it would have had it (its own acknowledgements it makes again): the
        # relay's own bytes, sent as the connection takes them (a whole game's are megabytes).
        session._send_history(connection, itertools.chain((
            raw for key, author, kind, raw in self.relay
            if (key >= have or kind == "adjourn" or (acks_after is not None and kind == "ack" and key > acks_after))
            and not (author == seat and kind in ("ack", "accept"))
        ), self.acks_as_joiner))  # (after every entry: an ack of an entry it lacks is kept nowhere)
        for other, reach in sorted(session.reaches.items()):
            if other != seat:
                session._send(connection, reach)  # where each seat can be reached, lately (§B15)
        for other in sorted(session.away):
            if other != seat:
                session._send(connection, self._away_message(other))
        session._send(connection, make_envelope(session.identity, "caught-up", {"game_id": session.game_id, "seq": session._seq()}))
        self.connection_seat[connection] = seat
        self._back(seat)

    # -- gathering: a resumed host takes back what its joiners hold (see the module docstring) --

    def _gather(self, connection: int, seat: int, have: int) -> None:
        """``seat`` rejoins while we gather: caught up at once if it holds nothing we lack, else
        its claim waits for everyone to be back."""
        session = self.session
        assert self.gathering is not None
        if session.stage in ("halted", "closed"):
            self._seat_again(connection, seat, have)  # refused: the game has stopped
            return
        start = self._first_owed(seat, have)
        self.gathering.discard(seat)
        if start is None:
            self._seat_again(connection, seat, have)
        else:
            del self.pending[connection]
            self._replace_connection(seat)
            self.claims[connection] = Claim(connection, seat, have, start)
            self._back(seat)  # here, though not caught up until it has given back what it holds
        self._go_on_if_gathered()

    def _first_owed(self, seat: int, have: int) -> int | None:
        """The first entry a joiner holding ``have`` entries is to give back: the first we lack;
        ``None`` if it holds nothing we lack. Its acknowledgements we lack it is not asked for:
        a transcript keeps only each seat's latest agreeing one (§B11), and the seat's next
        acknowledgement vouches for every entry before it, as its earlier ones did (§B8)."""
        held = self.session._seq()
        return held if have > held else None

    def _go_on_if_gathered(self) -> None:
        """Once every joiner is back: ask the next claim's joiner for what it holds (the one that
        holds most first: if two joiners' logs part, the longer is kept), or go on."""
        session = self.session
        if self.gathering is None or self.gathering or self.returning is not None:
            return
        if self.claims:
            claim = max(self.claims.values(), key=lambda claim: (claim.have, -claim.seat))
            self.returning = claim
            session._send(claim.connection, make_envelope(session.identity, "missing", {
                "game_id": session.game_id, "from": claim.start,
            }))
            return
        if self.claiming is not None:
            self._take_over_if_agreed()
            return
        self.gathering = None
        for seat, envelope in sorted(self.held.items()):
            if session.stage != "playing":
                break
            self._submission(seat, envelope, held=True)
        self.held = {}
        if session.stage == "playing" and not session._maybe_dispute():
            session._pump()

    def _returned_entry(self, seat: int, envelope: Envelope) -> None:
        """One of our own entries, given back by the joiner we asked (``missing``): checked as a
        joiner checks an entry; one we hold must be ours byte for byte, one we lack must follow
        our log, and is taken back into it. Anything else refuses that joiner (it stays away),
        and nothing of it is kept."""
        session = self.session
        claim = self.returning
        if claim is None or claim.seat != seat:
            raise ProtocolFault(Fault(
                seat, FaultCode.ILLEGAL,
                f"{session._who(seat)} sent {with_article(envelope.kind)} message, which only the host sends", session._seq(),
            ))
        replica = session.replica
        assert replica is not None
        body = envelope.body
        problem = None
        # Signed by the host of its number: ours, or (a successor's) the host's before us (§B15).
        signer = session.seats[replica.sequencer_at(body["seq"])].key
        try:
            envelope.verify(signer)
            signed = envelope.sender == signer.raw
        except (BadSignature, MalformedMessage):
            signed = False
        if not signed:
            problem = f"entry {claim.next} it gave back is not signed by this host"
        elif body["game_id"] != session.game_id:
            problem = "an entry it gave back is of another game"
        elif body["seq"] != claim.next:
            problem = f"it gave back entry {body['seq']} where entry {claim.next} belongs"
        elif body["seq"] < replica.seq and envelope.digest != replica.chain[body["seq"] + 1]:
            problem = self._fork(body["seq"])
        elif body["seq"] == replica.seq and body["prev"] != replica.head:
            problem = self._fork(body["seq"])
        if problem is not None:
            self._refuse_claim(claim, problem)
            return
        if body["seq"] == replica.seq:
            self._take_back(envelope)
        claim.next += 1
        if claim.next >= claim.have and session.stage not in ("halted", "closed"):
            del self.claims[claim.connection]
            self.returning = None
            self.connection_seat[claim.connection] = seat
            self._catch_up(claim.connection, seat, claim.have, acks_after=claim.start)
            self._go_on_if_gathered()

    def _fork(self, seq: int) -> str:
        return (
            f"your log and this host's part at entry {seq}: this host signed two different entries {seq} before "
            "it restarted, and it goes on with the other one"
        )

    def _take_back(self, entry: Envelope) -> None:
        """Take back into the log an entry of ours (checked: ours, in its place) that a joiner
        gave back: apply it as a joiner would, record it, send it on to the joiners already
        caught up. Raises :class:`ProtocolFault` if applying it stops the game (the log the
        others hold stopped there too)."""
        session = self.session
        replica = session.replica
        assert replica is not None
        session._record("entry", entry.raw)
        session._recall_own_choice(entry)
        applied = replica.apply_entry(entry)
        self.took_back = True
        self.broadcast(entry, key=applied.seq)
        session._after_apply(applied)

    def _refuse_claim(self, claim: Claim, reason: str) -> None:
        """Refuse what ``claim``'s joiner gave back (keeping what was taken back before): it is
        away, and what it holds beyond our log is not asked for again."""
        session = self.session
        self.claims.pop(claim.connection, None)
        if self.returning is claim:
            self.returning = None
        self.refused[claim.seat] = reason
        session._send(claim.connection, make_envelope(session.identity, "reject", {"reason": reason[:500]}))
        session._closing.append(claim.connection)
        self._seat_away(claim.seat, "what it gave back was refused")
        self._go_on_if_gathered()

    def _back(self, seat: int) -> None:
        """``seat`` is back: tell the others."""
        session = self.session
        if session.away.pop(seat, None) is not None:
            session._back()
            self.broadcast(make_envelope(session.identity, "back", {"game_id": session.game_id, "seat": seat}), except_seat=seat, keep=False)
            session._emit(SeatBack(seat, session.names[seat]))

    # -- the lobby and the start ---------------------------------------------------------------

    def _start_if_full(self) -> None:
        assert self.session.ruleset is not None
        if len(self.lobby) == self.session.ruleset.players:
            self._start()

    def _unique_name(self, name: str) -> str:
        # Unique as typed (any case, any spacing): players type each other's names in moves
        # ("give 2 to carol"). A suffix is cut to the name limit before it is checked.
        taken = {normalize_typed(info.name) for info, _ in self.lobby}
        candidate, number = name, 1
        while normalize_typed(candidate) in taken:
            number += 1
            candidate = f"{name[:NAME_LIMIT - len(str(number)) - 1]}-{number}"
        return candidate

    def _announce_lobby(self) -> None:
        session = self.session
        assert session.ruleset is not None
        players = [info.encode() for info, _ in self.lobby]
        envelope = make_envelope(
            session.identity, "lobby", {"players": players, "seats": session.ruleset.players, "table": session.table_id}
        )
        for _, connection in self.lobby:
            if connection is not None:
                session._send(connection, envelope)
        for connection in self.watchers:
            session._send(connection, envelope)
        session.lobby = [info for info, _ in self.lobby]
        session._emit(LobbyChanged(tuple((info.name, info.bot) for info in session.lobby), session.ruleset.players, HOST_SEAT))

    def _start(self) -> None:
        session = self.session
        assert session.ruleset is not None
        session.seats = [info for info, _ in self.lobby]
        for seat, (_, connection) in enumerate(self.lobby):
            if connection is not None:
                self.connection_seat[connection] = seat
        start = make_envelope(session.identity, "start", {
            "game_id": session.random_bytes(32),
            "ruleset": session.ruleset.encode(),
            "seats": [info.encode() for info in session.seats],
        })
        session._begin_starting(start)
        self.broadcast(start)
        accept = make_envelope(session.identity, "accept", {"game_id": session.game_id, "start": start.digest})
        session._take_accept(HOST_SEAT, accept)
        self.broadcast(accept)
        session._maybe_begin()  # a table for one needs nobody else's accept

    # -- sequencing ----------------------------------------------------------------------------

    def _drain(self) -> None:
        """Sequence queued submissions (ours included) one by one."""
        if self.draining:
            return
        session = self.session
        self.draining = True
        try:
            while self.queue and session.stage == "playing":
                submission = self.queue.popleft()
                replica = session.replica
                assert replica is not None
                seq, prev = replica.seq, replica.head
                # Apply first: the entry carries our state hash after it, as our acknowledgement.
                try:
                    applied = replica.sequence(submission)
                    state, fault = replica.state_hash, None
                except ProtocolFault as problem:
                    applied, state, fault = None, HALTING_STATE, problem.fault
                entry = make_envelope(session.identity, "entry", {
                    "game_id": session.game_id,
                    "seq": seq,
                    "prev": prev,
                    "submission": submission.envelope.raw,
                    "state": state,
                })
                self.broadcast(entry, key=seq)
                session._record("entry", entry.raw)
                if fault is not None:
                    session._halt(fault)
                    return
                assert applied is not None
                replica.link(applied, entry)
                if session.send_now is not None:
                    session.send_now()  # the entry leaves before our own work on it (see Session.send_now)
                session._after_apply(applied)
        finally:
            self.draining = False

    # -- resuming ------------------------------------------------------------------------------

    def restore(self, start: Envelope, records: list[tuple[str, Any]]) -> None:
        """Replay our own transcript (see :meth:`Session.resume_host`)."""
        session = self.session
        self.restoring = True
        session.seats = [SeatInfo.decode(record) for record in start.body["seats"]]
        # Seat 0, or the seat the table was handed to (§B15): its transcript's entries say so.
        ours = session.seat = session.resumed.seat if session.resumed is not None else HOST_SEAT
        if session.seats[ours].seal != session.seal_key.public_bytes():
            raise ResumeError("the saved seat's secrets are not the ones this game started with")
        session.name = session.names[ours]
        session.lobby = list(session.seats)
        self.lobby = [(info, None) for info in session.seats]
        session._begin_starting(start)
        self.keep(start, HOST_SEAT)
        for kind, value in records:
            if kind in ("header", "start", "notes"):  # (notes: our own clocks, nothing to replay)
                continue
            if kind in ("fault", "end", "leave", "fault-message"):
                raise ResumeError("the game in this transcript has ended; there is nothing to resume")
            if kind == "acks":
                try:
                    acks = acks_of_record(value, session.game_id, [seat.key.raw for seat in session.seats], session.replica.logged)  # type: ignore[union-attr, arg-type]
                except ValueError as error:
                    raise ResumeError(f"the transcript is damaged: {error}") from None
                for seat, envelope in acks:
                    self._restore_ack(seat, envelope)
                continue
            envelope = open_envelope(value)
            seat = session._seat_of_sender(envelope)
            if seat is None:
                raise ResumeError(f"the transcript holds {with_article(kind)} from a key not at the table")
            if kind == "accept":
                session._verify_from_seat(envelope, seat)
                session._take_accept(seat, envelope)
                self.keep(envelope, seat)
                session._maybe_begin()
            elif kind == "entry":
                session._recall_own_choice(envelope)
                applied = session.replica.apply_entry(envelope)  # type: ignore[union-attr]
                session._record("entry", envelope.raw)
                self.keep(envelope, HOST_SEAT, applied.seq)
                session._after_apply(applied)
            elif kind == "ack":
                self._restore_ack(seat, envelope)
            elif kind == "chat":
                session._verify_from_seat(envelope, seat)
                if session._take_chat(seat, envelope) is Offer.TAKEN:  # (ours kept its limits)
                    self.keep(envelope, seat)
        if session.stage == "over":
            raise ResumeError("the game in this transcript has ended; there is nothing to resume")
        if session.replica.sequencer != ours:  # type: ignore[union-attr]
            raise ResumeError("this seat was not handed the table: its transcript's log names another host")
        # Our transcript may end before the log did (a full disk): the joiners hold the rest.
        # We gather until every one of them is back (see the module docstring).
        self.gathering = {other for other in session.replica.playing_seats if other != ours}  # type: ignore[union-attr]
        self.restoring = False
        session.away = {}
        for other in sorted(self.gathering):
            session.away[other] = "the host restarted"
            session._emit(SeatAway(other, session.names[other], "the host restarted", restarted=True))
        self._go_on_if_gathered()

    def _restore_ack(self, seat: int, envelope: Envelope) -> None:
        """An acknowledgement from our own transcript, taken as when it came (and kept)."""
        session = self.session
        session._verify_from_seat(envelope, seat)
        self.keep(envelope, seat)
        session._take_ack(seat, envelope)

    # -- succeeding: a joiner the host handed the log to ----------------------------------------

    @classmethod
    def succeeding(cls, session: Session, joiner: JoinerRole, *, claiming: int | None = None) -> HostRole:
        """The role of a joiner whose host handed it the log (§B15), from its joiner role: it
        holds the log up to the hand-over and everything the old host passed on (``joiner.heard``:
        a rejoining joiner is sent what it missed from it). Every other seat still playing is
        away until it rejoins us; as a resumed host does, we *gather* before we sequence
        anything, since a joiner may hold acknowledgements the old host never passed on to us.
        Our submission the old host never sequenced waits with the joiners' held ones.
        ``claiming``: the host seat we take the table from (see :meth:`claim_table`)."""
        role = cls(session)
        role.relay = list(joiner.heard)
        role.acks_as_joiner = [raw for _, author, kind, raw in joiner.heard if author == session.seat and kind == "ack"]
        role.lobby = [(info, None) for info in session.seats]
        replica = session.replica
        assert replica is not None and session.seat is not None
        role.claiming = claiming
        role.gathering = {seat for seat in replica.playing_seats if seat not in (session.seat, claiming)}
        if joiner.in_flight is not None:
            role.held[session.seat] = joiner.in_flight.envelope
        session._closing.append(HOST_CONNECTION)  # the old host's: it has left
        for seat in sorted(role.gathering):
            reason = "reconnecting to this table's new host"
            session.away[seat] = reason
            session._emit(SeatAway(seat, session.names[seat], reason, restarted=True))
        if claiming is None:
            role._go_on_if_gathered()  # (a claim goes on once the session holds its role)
        return role

    # -- claiming: taking the table over from a host gone for good (§B15) ------------------------

    @classmethod
    def claim_table(cls, session: Session, joiner: JoinerRole) -> HostRole:
        """The role of a joiner that takes the table over from its host, gone past the grace
        period (§B15, a take-over), from its joiner role: it answers the others as a host and
        gathers them as a successor does (:meth:`succeeding`), though the log doesn't name it
        host; once every one of them is back and consents to the log it holds then, it signs the
        take-over entry and goes on as the host."""
        return cls.succeeding(session, joiner, claiming=session.host_seat)

    def _take_over_consent(self, seat: int, envelope: Envelope) -> None:
        """A remaining seat's ``takeover``: kept (its latest) while we claim the table; counted
        once it names our log as it is then (:meth:`_take_over_if_agreed`)."""
        if self.claiming is None:
            return  # late (the table is taken over already), or to a host that claims nothing
        self.session._verify_from_seat(envelope, seat)
        self.take_over_consents[seat] = envelope
        self._go_on_if_gathered()

    def _take_over_if_agreed(self) -> None:
        """Gathered: once every remaining seat's ``takeover`` names our log as it is, sign ours and
        sequence the take-over (§B15); then go on as the host. Until then we wait (and gather)."""
        session = self.session
        replica = session.replica
        assert replica is not None and session.seat is not None and self.claiming is not None
        if session.stage != "playing" or replica.sequencer != self.claiming:
            return
        if session.claiming_forfeit:
            body: dict = {"t": FORFEIT}  # (two players: nobody else to consent, §B17)
        else:
            wanted = replica.take_over_body(session.seat)
            remaining = [seat for seat in replica.playing_seats if seat != self.claiming]
            consents = []
            for seat in remaining:
                envelope = session.take_over_consent() if seat == session.seat else self.take_over_consents.get(seat)
                if envelope is None or envelope.body != wanted:
                    return
                consents.append(envelope.raw)
            body = {"t": TAKE_OVER, "consents": consents}
        envelope = make_envelope(session.identity, "submit", {
            "game_id": session.game_id, "seat": session.seat, "counter": replica.counters[session.seat],
            "based_on": replica.seq, "body": body,
        })
        try:
            submission = replica.check_submission(envelope, None, sequenced_by=session.seat)
        except ProtocolFault as problem:
            # The host's seat can't be opened at the log the others gave back (every peer would
            # refuse the entry): the table can only wait, or be ended; the player is told why.
            if self.take_over_refused != problem.fault.reason:
                self.take_over_refused = problem.fault.reason
                session._emit(Notice(f"the table can't be taken over at this point of the game: {problem.fault.reason}"))
            return
        self.queue.append(submission)
        self._drain()  # (the session sees a take-over we claimed: see Session._host_changed)
        self.claiming = None
        self.take_over_consents = {}
        self._go_on_if_gathered()  # gathered already: the held submissions, then ours

    # The dispatch tables (see the module docstring): a connection's first message, and what a
    # seated joiner may send.
    _GREETINGS: dict[str, Callable[[HostRole, int, Envelope], None]] = {"hello": _hello, "rejoin": _rejoin, "watch": _watch}
    _FROM_SEAT: dict[str, Callable[[HostRole, int, Envelope], None]] = {
        "accept": _accept,
        "reach": _reach,
        "submit": _submission,
        "ack": _ack,
        "chat": _chat,
        "fault": _fault,
        "leave": _leave,
        "adjourn": _adjourn,
        "again": _again,
        "entry": _returned_entry,
        "takeover": _take_over_consent,
    }
