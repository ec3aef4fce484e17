"""The joiner's role in a session: a seat other than 0, which talks to the table through its host.

:class:`JoinerRole` is the part of a joiner's :class:`~p2pgames.session.Session` that no host has;
the session holds it and hands it every message that arrives on its one connection
(:data:`HOST_CONNECTION`). Until the host has said hello on a connection, only its hello or a
refusal may come, and what we answer depends on how we came in — joining, or taking a seat we have
again (after a lost connection once the game began, or from a :class:`SavedSeat`)::

    way in    kind        handler           what it does
    join      host-hello  _hello            check the host's key and game; say hello
              reject      _refused          we are not seated: stop
    rejoin    host-hello  _rejoin_hello     check it is our host; ask to rejoin
              reject      _rejoin_refused   the host won't take us back: stop
    either    other       -                 fault: the host began with something else

After the hello (each message only the host may author checked first: see ``_SIGNED_BY_HOST``)::

    kind         handler          what it does
    lobby        _lobby           who is seated (in the lobby only)
    start        _start           check it seats us as we joined; accept it
    accept       _accept          a seat accepted (relayed)
    reach        _reach           where a seat can be reached, should it host (relayed)
    entry        _entry           apply the host's log entry
    ack          _ack             a seat's acknowledgement (relayed; its signature checked lazily)
    acks         _acks            several seats' acknowledgements, passed on together: each
                                  rebuilt into its seat's envelope and taken as an ``ack``
    chat         _chat            lobby or game chat (relayed; a game's within chat's
                                  totals: far past them, the host's fault)
    fault        _fault           a seat reported a fault (relayed): stop
    leave        _leave           a seat left (relayed): stop
    stale        _stale           our submission came too late: decide again
    away, back   _away_or_back    another seat lost its connection, or is back
    missing      _missing         a resumed host lacks entries (or our acks) we hold: give
                                  them back, each entry with our ack of it
    caught-up    _caught_up       a rejoin's catch-up is complete: carry on
    gone         _gone            our rejoin's answer: the host is not playing our game: stop
    reject       _reject          refused while catching up, or in the lobby; a fault later
    host-hello   -                fault: its hello a second time
    other        -                fault: only joiners send that

While it is away the host is ``away[host_seat]``; a submission made then waits in
:attr:`JoinerRole.in_flight` and goes once we have caught up again. Our host is seat 0 until an
entry hands the log to another seat (§B15): we then follow it (:meth:`JoinerRole.follow_host`),
or, if the log is handed to us, the session makes us its host from what we heard
(:attr:`JoinerRole.heard`). Should our host vanish and our player agree to play on without it,
we rejoin its successor, which claims the table, and stay with it (``with_claimant``), sending
our ``takeover`` consent to the log we hold, until its take-over entry makes it our host.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from p2pgames.crypto import BadSignature, CryptoError, PublicKey, fingerprint_matches
from p2pgames.engine import EngineError
from p2pgames.session._acks import ack_from_item
from p2pgames.session._chat import Offer
from p2pgames.session._events import WATCHER_SEAT, ChatReceived, LobbyChanged, Notice, Rejected, SeatAway, SeatBack
from p2pgames.session._faults import Fault, FaultCode, ProtocolFault
from p2pgames.session._messages import Envelope, MalformedMessage, clean_text, make_envelope
from p2pgames import LOCK_DECK_PROTOCOL, PROTOCOL_VERSION
from p2pgames.session._replica import HOST_SEAT, SeatInfo, Submission, seats_problem
from p2pgames.words import with_article

if TYPE_CHECKING:
    from p2pgames.session._session import Session

__all__ = ["HOST_CONNECTION", "JoinerRole"]

HOST_CONNECTION = 0  # a joiner's one connection, to its host


class JoinerRole:
    """A joiner's hello, start, entries, catch-up and in-flight submission, over its
    :class:`Session`'s shared core.

    The session passes each message to :meth:`receive`, and each connection event to
    :meth:`connected` / :meth:`disconnected`; everything sent goes out through the session.
    """

    def __init__(self, session: Session) -> None:
        self.session = session
        self.host_key: PublicKey | None = None  # once the host's hello proved it
        self.awaiting_hello = False  # connected again: the host's hello comes first
        self.catching_up = False  # rejoined: the host is sending what we missed
        self.given_back = False  # we answered this rejoin's `missing` (a host asks once a rejoin)
        self.in_flight: Submission | None = None  # our submission the host hasn't sequenced yet
        self.in_flight_decision = False  # ... and whether the player chose it
        self.rejoin_digest = b""  # the rejoin we sent on this connection: a gone must answer it
        # We rejoined a seat the log doesn't name our host (yet): one that may have been handed
        # the table while we were away (§B15). Its catch-up shows it, or we hang up on it.
        self.unconfirmed = False
        # ... and it is claiming the table from our host, gone (§B15, a take-over): we stay with
        # it, consenting (once our player agreed) to its taking over after the log we hold.
        self.with_claimant = False
        # Every entry of the log we hold, as the host signed it: a resumed host that lost the
        # last ones takes them back from us (_missing).
        self.entries: list[bytes] = []
        # Everything of the game we got or sent the table — the start, accepts, entries, acks,
        # chat — as a host keeps it (HostRole.relay), with its digests: should the host hand the
        # log to us (§B15), it is what we send a rejoining joiner.
        self.heard: list[tuple[int, int, str, bytes]] = []
        self._heard_digests: set[bytes] = set()

    @property
    def host_seat(self) -> int:
        """The seat of our host: seat 0, or the successor it handed the log to."""
        return self.session.host_seat

    def hear(self, envelope: Envelope, author: int, key: int | None = None) -> None:
        """Keep ``envelope`` (by ``author``; ``key``: the entries applied when it came, unless
        given) as a host keeps what it relays, once."""
        if envelope.digest in self._heard_digests:
            return
        self._heard_digests.add(envelope.digest)
        self.heard.append((self.session._seq() if key is None else key, author, envelope.kind, envelope.raw))

    # -- what the session asks of its role -----------------------------------------------------

    @property
    def replaying(self) -> bool:
        """Whether we are applying entries that are history: a catch-up's."""
        return self.catching_up

    def awaited(self) -> None:
        """(Only a resumed host waits for anything but the game's steps.)"""
        return None

    def replay_status(self) -> str:
        return "catching up on the game"

    @property
    def in_touch(self) -> bool:
        """Whether what we send now reaches the host, in its place in the log."""
        return self.host_seat not in self.session.away and not self.awaiting_hello and not self.catching_up

    @property
    def lobby_size(self) -> int:
        return len(self.session.seats)

    @property
    def host_fingerprint(self) -> str | None:
        return self.host_key.fingerprint() if self.host_key is not None else None

    @property
    def reconnecting(self) -> bool:
        session = self.session
        return (
            session.stage in ("starting", "playing")
            # in the lobby once the host has our hello: it may have seated us, even started
            or (session.stage == "lobby" and (session.resumed is not None or self.host_key is not None))
        )

    def seat_of_connection(self, connection: int) -> int | None:
        return self.host_seat

    def connection_of(self, seat: int) -> int | None:
        return HOST_CONNECTION

    def table_connections(self) -> list[int]:
        """The connections to the others at the table: ours, to the host."""
        return [HOST_CONNECTION]

    def tell_table(self, envelope: Envelope) -> None:
        """Send ``envelope`` to everyone at the table: the host relays it."""
        self.session._send(HOST_CONNECTION, envelope)
        if envelope.kind == "chat" and self.session.start_envelope is not None:
            self.hear(envelope, self.session.seat)  # type: ignore[arg-type]

    def tell_lobby(self, envelope: Envelope) -> None:
        """Send ``envelope`` to everyone in the lobby: the host relays it."""
        self.session._send(HOST_CONNECTION, envelope)

    def tell_reach(self, envelope: Envelope) -> None:
        """Tell the table where we can be reached: the host relays it."""
        if self.in_touch:  # else it goes once we are back (see _caught_up)
            self.session._send(HOST_CONNECTION, envelope)

    def follow_host(self, seat: int) -> None:
        """Our host handed the log to ``seat`` (§B15): it is our host from now on. We hang up on
        the old one and (the network layer) dial the new one, whose key alone we take; until we
        have rejoined it, it is away."""
        session = self.session
        key = session.seats[seat].key
        if self.host_key is not None and self.host_key.raw == key.raw:
            # A catch-up from the new host itself (we restarted, or were away when it was
            # handed the table), or its take-over, which we consented to: we are with it already.
            self.unconfirmed = False
            if self.with_claimant:
                self.with_claimant = False
                self._back_with_host(go_on=False)  # (the entry being applied goes on after)
            return
        self.host_key = key
        self.awaiting_hello = False
        self.catching_up = False
        session.away[seat] = f"{session.names[seat]} hosts the table now: reconnecting"
        session._closing.append(HOST_CONNECTION)

    def leave_before_start(self) -> None:
        """We leave before the game began: hang up."""
        self.session._closing.append(HOST_CONNECTION)

    def submit(self, submission: Submission, decision: bool) -> None:
        """Our submission goes to the host, which sequences it; until then it is in flight."""
        self.in_flight = submission
        self.in_flight_decision = decision
        if self.in_touch:  # else it goes once we are back (see _caught_up)
            self.session._send(HOST_CONNECTION, submission.envelope)

    def acknowledge(self, seq: int, entry_digest: bytes, state_hash: bytes) -> None:
        """Tell the table which state we reached after entry ``seq``."""
        session = self.session
        ack = make_envelope(session.identity, "ack", {
            "game_id": session.game_id, "seq": seq, "entry": entry_digest, "state": state_hash,
        })
        session._send(HOST_CONNECTION, ack)
        self.hear(ack, session.seat)  # type: ignore[arg-type]
        session._take_ack(session.seat, ack)  # type: ignore[arg-type]
        if self.with_claimant and not self.catching_up:
            self.consent_to_take_over()  # our log grew: our consent names its new head

    def consent_to_take_over(self) -> None:
        """Our player agreed to play on without our host (§B15, a take-over): if we are with the
        seat that claims the table, tell it we consent to its taking over after the log we hold
        (else we do once we have rejoined it)."""
        session = self.session
        if self.with_claimant and session.stage == "playing":
            session._send(HOST_CONNECTION, session.take_over_consent())

    # -- connections ---------------------------------------------------------------------------

    def connected(self, connection: int) -> None:
        # Again, after a lost connection: the host says hello first, then we rejoin.
        self.awaiting_hello = self.host_key is not None

    def disconnected(self, connection: int, reason: str) -> None:
        session = self.session
        if self.reconnecting:
            self.awaiting_hello = False
            self.catching_up = False
            if self.host_seat not in session.away:
                session.away[self.host_seat] = reason
                session._emit(SeatAway(self.host_seat, session._host_name(), reason, host=True))
        elif session.stage == "lobby":
            session.stage = "closed"

    # -- receiving -----------------------------------------------------------------------------

    def receive(self, connection: int, envelope: Envelope) -> None:
        """Handle one message from the host (its frame already parsed): see the module's tables."""
        session = self.session
        kind = envelope.kind
        if self.host_key is None or self.awaiting_hello:
            rejoining = session.resumed is not None or (self.awaiting_hello and session.start_envelope is not None)
            greeting = self._GREETING.get(("rejoin" if rejoining else "join", kind))
            if greeting is None:
                raise ProtocolFault(Fault(
                    self.host_seat, FaultCode.MALFORMED, f"the host began with {with_article(kind)} instead of a hello", session._seq(),
                ))
            greeting(self, envelope)
            return
        if not self.unconfirmed:
            self._after_hello(envelope)
            return
        try:
            self._after_hello(envelope)
        except ProtocolFault as problem:
            # Nothing a seat we rejoined unconfirmed sends is our host's doing: never a fault of
            # the host the log names (it would be blamed for another seat's word). Hang up.
            self._not_the_host_after_all(f"it sent something no host would: {problem.fault.reason}")

    def _after_hello(self, envelope: Envelope) -> None:
        """Handle a message after the host's hello: see the module's second table."""
        session = self.session
        kind = envelope.kind
        handler = self._AFTER_HELLO.get(kind)
        if handler is None:
            if kind == "host-hello":
                raise ProtocolFault(Fault(self.host_seat, FaultCode.ILLEGAL, "the host sent its hello a second time", session._seq()))
            raise ProtocolFault(Fault(
                self.host_seat, FaultCode.ILLEGAL, f"the host sent {with_article(kind)} message, which only joiners send", session._seq(),
            ))
        # Each kind checks its signature exactly once: the host's own here, a relayed message by
        # its handler (entries inside the replica).
        if self.unconfirmed and kind in ("gone", "reject"):
            self._not_the_host_after_all(f"it sent {with_article(kind)}")  # no host's word to us
            return
        if kind == "start" and self.catching_up and session.start_envelope is None:
            # From the start (we restarted) at a host the table was handed to (§B15): the start
            # is the first host's, which _start checks it is; its signature is checked here.
            self._check_start_signature(envelope)
        elif kind in self._SIGNED_BY_HOST:
            self._check_host_sender(envelope)
        handler(self, envelope)

    def _check_host_sender(self, envelope: Envelope) -> None:
        """A message only the host may send: check it is the host's and its signature verifies."""
        session = self.session
        if self.host_key is None or envelope.sender != self.host_key.raw:
            raise ProtocolFault(Fault(self.host_seat, FaultCode.BAD_SIGNATURE, f"{with_article(envelope.kind)} came signed by someone other than the host", session._seq()))
        try:
            envelope.verify(self.host_key)
        except BadSignature as error:
            raise ProtocolFault(Fault(self.host_seat, FaultCode.BAD_SIGNATURE, f"the host sent {with_article(envelope.kind)} with a bad signature ({error})", session._seq()))

    def _check_start_signature(self, envelope: Envelope) -> None:
        """A start in a catch-up from the start: signed by its sender (``_start`` checks that is
        the key it seats at seat 0); raises :class:`ProtocolFault` if not."""
        if not self._signed_by(envelope, envelope.sender):
            raise ProtocolFault(Fault(self.host_seat, FaultCode.BAD_SIGNATURE, "the host sent a start with a bad signature", 0))

    def _relayed_seat(self, envelope: Envelope) -> int:
        # Messages relayed by the host carry their author's signature: check it is a seat's.
        session = self.session
        seat = session._seat_of_sender(envelope)
        if seat is None:
            raise ProtocolFault(Fault(self.host_seat, FaultCode.BAD_SIGNATURE, f"the host relayed {with_article(envelope.kind)} from a key not at the table", session._seq()))
        session._verify_relayed(envelope, seat)
        return seat

    def _signed_by(self, envelope: Envelope, raw_key: bytes) -> bool:
        if envelope.sender != raw_key:
            return False
        try:
            envelope.verify(PublicKey(raw_key))
        except (CryptoError, BadSignature, MalformedMessage):
            return False
        return True

    # -- joining -------------------------------------------------------------------------------

    def _hello(self, envelope: Envelope) -> None:
        session = self.session
        body = envelope.body
        try:
            key = PublicKey(envelope.sender)
            envelope.verify(key)
        except (CryptoError, BadSignature, MalformedMessage):
            raise ProtocolFault(Fault(self.host_seat, FaultCode.BAD_SIGNATURE, "the host's hello has a bad signature", 0))
        if self.awaiting_hello and self.host_key is not None and key.raw != self.host_key.raw:
            self._not_our_host(key)
            return
        self.awaiting_hello = False
        session.away.pop(self.host_seat, None)
        if session.expected_host is not None and not fingerprint_matches(session.expected_host, key):
            session.other_host = key.fingerprint()
            self._halt_before_start(
                f"the host's key {key.fingerprint()} does not match the join code ({session.expected_host}); "
                "someone else may be answering at that address"
            )
            return
        if body["protocol"] != session.protocol:
            self._halt_before_start(f"the host speaks protocol {body['protocol']}, this p2pgames speaks {session.protocol}")
            return
        try:
            session.game = session.game_loader(body["game"])
            session.ruleset = session.game.decode_ruleset(body["ruleset"])
        except (KeyError, EngineError) as error:
            self._halt_before_start(f"the host offers a game this p2pgames can't play: {error}")
            return
        self.host_key = key
        session._send(HOST_CONNECTION, make_envelope(session.identity, "hello", {
            "protocol": session.protocol,
            "game": body["game"],
            "name": session.name,
            "seal": session.seal_key.public_bytes(),
            "host": key.raw,
            "nonce": body["nonce"],
            "bot": session.bot,
            **({"deck": session.deck_key_record()} if session.protocol != LOCK_DECK_PROTOCOL else {}),
        }))

    def _halt_before_start(self, reason: str) -> None:
        session = self.session
        session.rejection = reason
        session._emit(Rejected(reason))
        session.stage = "closed"
        session._closing.append(HOST_CONNECTION)

    def _refused(self, envelope: Envelope) -> None:
        """The host refused to seat us (or something at its address did: see ``rejection_unproven``)."""
        session = self.session
        if self.host_key is not None:
            self._check_host_sender(envelope)
            proven = True
        else:
            # A reject instead of a hello (a full table) proves who sent it only by its signature
            # and the join code's fingerprint: anyone can answer at an address.
            proven = self._signed_by_expected_host(envelope)
        session.rejection_unproven = not proven
        self._halt_before_start(clean_text(envelope.body["reason"]))

    def _signed_by_expected_host(self, envelope: Envelope) -> bool:
        expected = self.session.expected_host
        if expected is None or not self._signed_by(envelope, envelope.sender):
            return False
        return fingerprint_matches(expected, PublicKey(envelope.sender))

    # -- rejoining -----------------------------------------------------------------------------

    def _rejoin_hello(self, envelope: Envelope) -> None:
        """The host's hello on a new connection, when we have a seat to take again: rejoin."""
        session = self.session
        if session.seats:
            wanted = session.seats[self.host_seat].key.raw  # the host the log names
        else:
            wanted = self.host_key.raw if self.host_key is not None else session.resumed.host_key  # type: ignore[union-attr]
        try:
            key = PublicKey(envelope.sender)
            envelope.verify(key)
        except (CryptoError, BadSignature, MalformedMessage):
            key = None
        self.unconfirmed = key is not None and key.raw != wanted and self._may_host_now(envelope)
        if key is None or (key.raw != wanted and not self.unconfirmed):
            self._not_our_host(key)
            return
        if (session.resumed is not None and session.replica is None
                and envelope.body["protocol"] in (PROTOCOL_VERSION, LOCK_DECK_PROTOCOL)):
            # A seat saved before an upgrade: the game goes on in its own protocol, the one its
            # host resumed it in (its start's; a start of the other one is refused on arrival).
            session.protocol = envelope.body["protocol"]
        if envelope.body["protocol"] != session.protocol:
            self._halt_or_close(f"the host now speaks protocol {envelope.body['protocol']}, this p2pgames speaks {session.protocol}")
            return
        if session.game is None:
            try:
                session.game = session.game_loader(session.resumed.game)  # type: ignore[union-attr]
            except (KeyError, EngineError) as error:
                self._halt_or_close(f"the saved game can't be played by this p2pgames: {error}")
                return
        self.host_key = key
        self.awaiting_hello = False
        self.catching_up = True
        self.given_back = False
        game_id = session.game_id or session.resumed.game_id  # type: ignore[union-attr]
        rejoin = make_envelope(session.identity, "rejoin", {
            "protocol": session.protocol,
            "game_id": game_id,
            "host": key.raw,
            "nonce": envelope.body["nonce"],
            "have": session._seq(),
        })
        self.rejoin_digest = rejoin.digest
        session._send(HOST_CONNECTION, rejoin)
        # The host's catch-up holds every request and answer to adjourn of the game (a resumed
        # host's, none): we take them afresh, in its order, and hold what it holds (§B18).
        session.forget_adjourn_requests()

    def _may_host_now(self, envelope: Envelope) -> bool:
        """Whether the seat that signed ``envelope`` (a host's hello, not our host's) may have
        been handed the table while we were away (§B15): another seat still playing."""
        session = self.session
        seat = session._seat_of_sender(envelope) if session.seats else None
        replica = session.replica
        return seat is not None and seat != session.seat and replica is not None and seat not in replica.open_seats

    def _not_the_host_after_all(self, why: str) -> None:
        """The seat we rejoined unconfirmed is not our host, its catch-up shows (or it refused
        us): what it says is no host's word; hang up and dial on."""
        session = self.session
        self.unconfirmed = False
        self.with_claimant = False
        self.catching_up = False
        self.awaiting_hello = True
        self.host_key = session.seats[self.host_seat].key
        session._emit(Notice(f"the player we reached there is not hosting this table ({why}); trying again"))
        session._closing.append(HOST_CONNECTION)

    def _not_our_host(self, key: PublicKey | None) -> None:
        """Something else answers at the host's address (another program took the port?): not
        our host, so nothing it says counts; hang up and dial again."""
        session = self.session
        shown = key.fingerprint() if key is not None else "not a valid one"
        session._emit(Notice(f"something at the host's address answered with another key ({shown}); trying again"))
        self.awaiting_hello = True
        session._closing.append(HOST_CONNECTION)

    def _rejoin_refused(self, envelope: Envelope) -> None:
        """The host (or something at its address) refused to take us back."""
        session = self.session
        if not self._signed_by(envelope, self.host_key.raw if self.host_key is not None else session.resumed.host_key):  # type: ignore[union-attr]
            session._emit(Notice("something at the host's address refused us without the host's signature; trying again"))
            session._closing.append(HOST_CONNECTION)
            return
        self._halt_or_close(f"the host refused to take us back: {clean_text(envelope.body['reason'])}")

    def _gone(self, envelope: Envelope) -> None:
        """The host is not playing our game: over for us, if this answers the rejoin we sent on
        this connection (signed by our host, naming our game and that rejoin's digest: §B12).
        Anything else is no answer of our host's to us (a replay?): hang up and dial again."""
        session = self.session
        if not self.catching_up:
            self._check_host_sender(envelope)
            raise ProtocolFault(Fault(self.host_seat, FaultCode.ILLEGAL, "the host sent a gone, which only answers a rejoin", session._seq()))
        game_id = session.game_id or session.resumed.game_id  # type: ignore[union-attr]
        body = envelope.body
        if not self._signed_by(envelope, self.host_key.raw) or (body["game_id"], body["rejoin"]) != (game_id, self.rejoin_digest):  # type: ignore[union-attr]
            session._emit(Notice("something at the host's address said our game is not there, but not in answer to us; trying again"))
            session._closing.append(HOST_CONNECTION)
            return
        why = session.gone_reason = clean_text(body["reason"]) or "its host is not playing it any more"
        self._halt_or_close(why, over=True)  # "The game stopped: why." to a player still at the table
        session.rejection = f"the game has stopped: {why}"

    def _halt_or_close(self, reason: str, *, over: bool = False) -> None:
        """We can't get back to the game: stop (with a fault once it has begun here). The seat
        stays saved (``seat_kept``) unless the host said the game is ``over`` (a ``gone``, bound
        to our rejoin): nothing else proves it (a ``reject`` could be an old one, replayed)."""
        session = self.session
        session.rejection = reason
        session._emit(Rejected(reason))
        if session.start_envelope is None:
            self._halt_before_start(reason)
        else:
            session._halt(Fault(None, FaultCode.DISCONNECTED, reason, session._seq()), send=False)
            session._closing.append(HOST_CONNECTION)
        session.seat_kept = not over

    def _caught_up(self, envelope: Envelope) -> None:
        """The host has sent everything we missed: carry on from here."""
        session = self.session
        if envelope.body["game_id"] != session.game_id or not self.catching_up:
            return
        if self.unconfirmed:
            claimant = session._seat_of_sender(envelope)
            if (not session.taking_over or claimant is None or claimant != session.take_over_successor()
                    or envelope.body["seq"] != session._seq()):
                self._not_the_host_after_all("its log doesn't hand it the table")
                return
            # The seat that takes the table over should our host be gone for good: it claims it
            # (§B15, a take-over), as our player agreed: we stay, and consent. (Not before: a
            # seat posing as one would keep us from a host that is only slow.)
            self.catching_up = False
            self.with_claimant = True
            session._emit(Notice(f"{session.names[claimant]} is gathering the table to play on without the host"))
            self.consent_to_take_over()
            return
        if session.replica is None or envelope.body["seq"] != session.replica.seq:
            raise ProtocolFault(Fault(
                self.host_seat, FaultCode.BAD_SEQUENCE,
                f"the host said we were caught up at entry {envelope.body['seq']}, but it sent us {session._seq()}",
                session._seq(),
            ))
        self.catching_up = False
        self._back_with_host()

    def _back_with_host(self, go_on: bool = True) -> None:
        """We are at the head of the log with our host (caught up, or its take-over applied):
        carry on — our accept if the log is empty, where we listen, our submission in flight,
        then (if ``go_on``: not while an entry is being applied) what is due."""
        session = self.session
        assert session.replica is not None
        session.away.pop(self.host_seat, None)
        session._back()
        session._emit(SeatBack(self.host_seat, session._host_name(), host=True))
        if session.replica.seq == 0 and session.seat in session.accepts:
            # The host may never have had it; or it began the game with it and then restarted before
            # writing it down (its transcript then holds no entry): it is starting again, and a
            # submission of ours before our accept would be one "before the game began".
            session._send(HOST_CONNECTION, session.accepts[session.seat])
        session._tell_reach()  # where we listen now (we may have restarted elsewhere)
        flight = self.in_flight
        if flight is not None:
            if flight.counter == session.replica.counters[session.seat]:  # type: ignore[index]
                session._send(HOST_CONNECTION, flight.envelope)  # lost with the old connection: again
            else:  # pragma: no cover - an entry with our counter clears it when applied
                self.in_flight = None
        if go_on and not session._maybe_dispute():
            session._pump()

    def _missing(self, envelope: Envelope) -> None:
        """The host, resumed from a transcript that lacks what we hold, asks for it (SPEC §B12):
        send each entry from ``from`` on, as the host signed it, with our ack of it (our accept
        first, if it asks from the start: it may lack that too). Only while we rejoin, and once."""
        session = self.session
        body = envelope.body
        if body["game_id"] != session.game_id:
            return
        start = body["from"]
        if not self.catching_up or self.given_back or start > len(self.entries):
            why = ", and are not rejoining" if not self.catching_up else ", and gave them back already" if self.given_back else ""
            raise ProtocolFault(Fault(
                self.host_seat, FaultCode.BAD_SEQUENCE,
                f"the host asked for our log entries from {start} (we hold {len(self.entries)}{why})", session._seq(),
            ))
        self.given_back = True  # once a rejoin: each answer is our whole log, so a host can't make us repeat it
        if start == 0 and session.seat in session.accepts:
            session._send(HOST_CONNECTION, session.accepts[session.seat])
        given: list[bytes] = []  # the bytes we hold anyway, sent as the connection takes them
        for seq in range(start, len(self.entries)):
            given.append(self.entries[seq])
            ack = session._ack_of.get((seq, session.seat))  # type: ignore[arg-type]
            if ack is not None:
                given.append(ack[2])
        session._send_history(HOST_CONNECTION, given)

    # -- the lobby and the start ---------------------------------------------------------------

    def _reject(self, envelope: Envelope) -> None:
        session = self.session
        if self.catching_up:
            self._rejoin_refused(envelope)
            return
        if session.stage != "lobby":
            self._check_host_sender(envelope)
            raise ProtocolFault(Fault(self.host_seat, FaultCode.ILLEGAL, "the host sent a reject after the game started (a host that quits leaves)", session._seq()))
        self._refused(envelope)

    def _lobby(self, envelope: Envelope) -> None:
        session = self.session
        if session.stage != "lobby":
            return  # news of the lobby means nothing once the game is on
        try:
            lobby = [SeatInfo.decode(record) for record in envelope.body["players"]]
        except CryptoError as error:
            raise ProtocolFault(Fault(self.host_seat, FaultCode.MALFORMED, f"the host's lobby is not valid: {error}", 0))
        you = session._lobby_index(lobby)
        if you is not None:
            # The host may have told two players of one name apart ("root-2"): that is our name now.
            session.name = clean_text(lobby[you].name, 40) or session.name
        session.lobby = lobby
        session.table_id = envelope.body["table"]
        players = tuple((clean_text(info.name, 40), info.bot) for info in lobby)
        session._emit(LobbyChanged(players, envelope.body["seats"], you))

    def _chat(self, envelope: Envelope) -> None:
        session = self.session
        if session.stage != "lobby":
            seat = self._relayed_seat(envelope)
            if envelope.body["game_id"] != session.game_id:
                return  # a lobby line arriving late: it names no game
            # The host judged its rate; its totals we judge too, on the lines in the host's order
            # (the same everywhere): a line past them, signed by its seat, proves a flood.
            if session._take_chat(seat, envelope) is Offer.PAST_TOTAL:
                raise ProtocolFault(session._flood(seat, envelope))
            self.hear(envelope, seat)
            return
        if not session.table_id or envelope.body["game_id"] != session.table_id:
            return  # before our first lobby, or a line from another table: nothing to show
        index = next((i for i, info in enumerate(session.lobby) if info.key.raw == envelope.sender), None)
        if index is None:
            raise ProtocolFault(Fault(self.host_seat, FaultCode.BAD_SIGNATURE, "the host relayed a chat from a key not in the lobby", 0))
        try:
            envelope.verify(session.lobby[index].key)
        except (BadSignature, MalformedMessage) as error:
            raise ProtocolFault(Fault(self.host_seat, FaultCode.BAD_SIGNATURE, f"the host relayed a chat in {session.lobby[index].name}'s name that it did not sign ({error})", 0))
        session._emit(ChatReceived(index, clean_text(session.lobby[index].name, 40), clean_text(envelope.body["text"])))

    def _start(self, envelope: Envelope) -> None:
        session = self.session
        if session.start_envelope is not None and envelope.raw == session.start_envelope.raw and self.catching_up:
            return  # a catch-up from the beginning repeats it
        if session.stage != "lobby":
            raise ProtocolFault(Fault(self.host_seat, FaultCode.ILLEGAL, "the host started the game twice", session._seq()))
        try:
            seats = [SeatInfo.decode(record) for record in envelope.body["seats"]]
            assert session.game is not None
            ruleset = session.game.decode_ruleset(envelope.body["ruleset"])
        except (CryptoError, EngineError) as error:
            raise ProtocolFault(Fault(self.host_seat, FaultCode.MALFORMED, f"the host's start is not valid: {error}", 0))
        mine = [i for i, seat in enumerate(seats) if seat.key.raw == session.identity.public_key.raw]
        if len(mine) != 1 or seats[mine[0]].seal != session.seal_key.public_bytes():
            raise ProtocolFault(Fault(self.host_seat, FaultCode.ILLEGAL, "the host's start does not seat us as we joined", 0))
        if seats[HOST_SEAT].key.raw != envelope.sender or len(seats) != ruleset.players:
            raise ProtocolFault(Fault(self.host_seat, FaultCode.ILLEGAL, "the host's start is inconsistent", 0))
        if len({seat.key.raw for seat in seats}) != len(seats):
            raise ProtocolFault(Fault(self.host_seat, FaultCode.ILLEGAL, "the host's start seats one key twice", 0))
        problem = seats_problem(seats)
        ours = session.deck_key_record()[0] if session.protocol != LOCK_DECK_PROTOCOL else None
        if problem is None and seats[mine[0]].deck_key != ours:
            problem = "it does not give our deck key" if ours is not None else "it gives deck keys, which this protocol has none of"
        if problem is not None:
            raise ProtocolFault(Fault(self.host_seat, FaultCode.ILLEGAL, f"the host's start is not valid: {problem}", 0))
        resumed = session.resumed
        if resumed is not None and (mine[0] != resumed.seat or envelope.body["game_id"] != resumed.game_id):
            raise ProtocolFault(Fault(self.host_seat, FaultCode.ILLEGAL, "the host's start is not the one of the game we are resuming", 0))
        session.ruleset = ruleset
        session.seats = seats
        session.seat = mine[0]
        session.name = clean_text(seats[session.seat].name, 40) or session.name
        session._begin_starting(envelope)
        self.hear(envelope, HOST_SEAT)
        # Where we listen, before our accept: the host relays it before the game can begin, so
        # every seat knows every other's at the first entry (who would take the table over, §B15).
        session._tell_reach()
        accept = make_envelope(session.identity, "accept", {"game_id": session.game_id, "start": envelope.digest})
        session._take_accept(session.seat, accept)
        self.hear(accept, session.seat)
        session._send(HOST_CONNECTION, accept)
        session._maybe_begin()

    # -- the game ------------------------------------------------------------------------------

    def _accept(self, envelope: Envelope) -> None:
        session = self.session
        seat = self._relayed_seat(envelope)
        session._take_accept(seat, envelope, relayed=True)
        self.hear(envelope, seat)
        session._maybe_begin()

    def _reach(self, envelope: Envelope) -> None:
        """Where a seat says it can be reached, should it have to host (relayed)."""
        session = self.session
        session._take_reach(self._relayed_seat(envelope), envelope)

    def _entry(self, envelope: Envelope) -> None:
        session = self.session
        if session.stage != "playing":
            if session.stage in ("over", "halted"):
                return
            raise ProtocolFault(Fault(self.host_seat, FaultCode.ILLEGAL, "the host sent a log entry before everyone accepted", session._seq()))
        replica = session.replica
        assert replica is not None
        session._record("entry", envelope.raw)
        if self.catching_up:
            session._recall_own_choice(envelope)
        applied = replica.apply_entry(envelope, self._verify_now)  # checks the host's signature
        host = replica.sequencer_at(applied.seq)  # who signed it (a hand-over's old host, a take-over's new)
        self.entries.append(envelope.raw)
        self.hear(envelope, host, applied.seq)
        if not applied.author_verified:
            session._unverified_submissions.append((applied.author, envelope))
        if self.in_flight is not None and applied.submission.seat == session.seat:
            self.in_flight = None
            self.in_flight_decision = False
        # The host's state hash in the entry is its acknowledgement of it.
        session._note_hashes(host, applied.seq, applied.entry_digest, envelope.body["state"])
        session._after_apply(applied)

    def _verify_now(self, author: int, raw: bytes) -> bool:
        """Whether to check at once the signature of a submission the host sequenced.

        Our own: only if it isn't byte for byte what we sent (a forgery in our name must be caught
        before we act on it). The host's: its entry signature covers it. Another joiner's: at the
        next checkpoint (see :meth:`Session._take_ack`) — the host checked it before sequencing it,
        and a forgery by the host could only make us release keys to that joiner, never to the host.
        """
        if author == self.session.seat:
            return self.in_flight is None or raw != self.in_flight.envelope.raw
        return False

    def _ack(self, envelope: Envelope) -> None:
        session = self.session
        seat = session._seat_of_sender(envelope)
        if seat is None:
            raise ProtocolFault(Fault(self.host_seat, FaultCode.BAD_SIGNATURE, "the host relayed an acknowledgement from a key not at the table", session._seq()))
        self._take_relayed_ack(seat, envelope)

    def _acks(self, envelope: Envelope) -> None:
        """Acknowledgements the host passed on together (§B8): each item is rebuilt into the
        envelope its seat signed, then taken as that envelope would be. One of an entry we don't
        hold (that leaves out what only the log says) is kept nowhere, as such an ``ack`` is."""
        session = self.session
        replica = session.replica
        if replica is None or envelope.body["game_id"] != session.game_id:
            return  # of another game (one before a game played again): nothing of ours
        for item in envelope.body["acks"]:
            seat = item[0]
            if seat >= len(session.seats):
                raise ProtocolFault(Fault(
                    self.host_seat, FaultCode.MALFORMED, f"the host passed on an acknowledgement of seat {seat}, which is not at the table", session._seq(),
                ))
            ack = ack_from_item(item, session.game_id, session.seats[seat].key.raw, replica.logged)
            if ack is not None:
                self._take_relayed_ack(seat, ack)

    def _take_relayed_ack(self, seat: int, envelope: Envelope) -> None:
        session = self.session
        replica = session.replica
        if seat == (replica.sequencer_at(envelope.body["seq"]) if replica is not None else HOST_SEAT):
            raise ProtocolFault(Fault(seat, FaultCode.ILLEGAL, "the host sent an acknowledgement (its entries carry its state)", session._seq()))
        self.hear(envelope, seat)
        session._take_ack(seat, envelope, verified=False)  # checked lazily: see Session._take_ack

    def _fault(self, envelope: Envelope) -> None:
        self.session._take_fault_message(self._relayed_seat(envelope), envelope)

    def _leave(self, envelope: Envelope) -> None:
        self.session._take_leave(self._relayed_seat(envelope), envelope)

    def _watcher_chat(self, envelope: Envelope) -> None:
        """A watcher's line the host passed on (§B19), in its own name: shown, not recorded (no
        seat said it: the transcript is the seats')."""
        session = self.session
        if envelope.body["game_id"] == session.game_id:
            session._emit(ChatReceived(WATCHER_SEAT, f"{clean_text(envelope.body['name'], 40)} (watching)",
                                       clean_text(envelope.body["text"])))

    def _again(self, envelope: Envelope) -> None:
        session = self.session
        session._take_again(self._relayed_seat(envelope), envelope)
        session._again_settled()

    def _adjourn(self, envelope: Envelope) -> None:
        session = self.session
        session._take_adjourn(self._relayed_seat(envelope), envelope)
        session._adjourn_settled()

    def _stale(self, envelope: Envelope) -> None:
        session = self.session
        flight = self.in_flight
        if flight is None or envelope.body["counter"] != flight.counter:
            return
        self.in_flight = None
        was_decision, self.in_flight_decision = self.in_flight_decision, False
        if was_decision and session.keep_to_move(flight):
            return
        if was_decision:
            session._emit(Notice(f"your move came too late: {clean_text(envelope.body['reason'])}"))
            session._last_decision_key = None
        session._pump()

    def _away_or_back(self, envelope: Envelope) -> None:
        session = self.session
        body = envelope.body
        seat = body["seat"]
        if body["game_id"] != session.game_id or not 0 < seat < len(session.seats) or seat == session.seat:
            return  # news of another game, or of a seat that can't be away: nothing to show
        if envelope.kind == "away":
            if seat not in session.away:
                reason = clean_text(body["reason"])
                session.away[seat] = reason
                session._emit(SeatAway(seat, session.names[seat], reason))
        elif session.away.pop(seat, None) is not None:
            session._emit(SeatBack(seat, session.names[seat]))

    # The dispatch tables (see the module docstring).
    _GREETING: dict[tuple[str, str], Callable[[JoinerRole, Envelope], None]] = {
        ("join", "host-hello"): _hello,
        ("join", "reject"): _refused,
        ("rejoin", "host-hello"): _rejoin_hello,
        ("rejoin", "reject"): _rejoin_refused,
    }
    _AFTER_HELLO: dict[str, Callable[[JoinerRole, Envelope], None]] = {
        "lobby": _lobby,
        "start": _start,
        "accept": _accept,
        "reach": _reach,
        "entry": _entry,
        "ack": _ack,
        "acks": _acks,
        "chat": _chat,
        "fault": _fault,
        "leave": _leave,
        "adjourn": _adjourn,
        "again": _again,
        "watcher-chat": _watcher_chat,
        "stale": _stale,
        "away": _away_or_back,
        "back": _away_or_back,
        "caught-up": _caught_up,
        "missing": _missing,
        "reject": _reject,
        "gone": _gone,
    }
    # Messages only the host authors: their signature is checked before their handler runs.
    _SIGNED_BY_HOST = frozenset({"lobby", "start", "acks", "stale", "away", "back", "caught-up", "missing", "watcher-chat"})
