"""A node: one :class:`~p2pgames.session.Session` driven over TCP by trio.

The node owns the sockets; the session owns every decision. Each connection has a reader task
(frames → ``session.receive``) and a writer task (a queue of frames → the socket); after every call
into the session the node *flushes*: queued frames go to their connections, transcript records to
the transcript file, events to :attr:`Node.events` for whoever drives the player (a terminal UI or
a bot), and what the seat must save to come back after a crash to its saved-seat file.

A lost connection ends nothing: a joiner dials its host again (with backoff, for as long as the
game is on) and rejoins; the host keeps listening and the seat is away meanwhile. A watchdog pings
quiet connections and drops one that stays silent or doesn't do its part (the seat is then away,
not blamed); after the grace period it tells the player (:class:`AwayTooLong`), who may end the
game. A node that was frozen (a suspended laptop, ``kill -STOP``) reads what waits for it before
it judges anyone.
"""

from __future__ import annotations

import collections
import errno
import ipaddress
import math
import os
import re
import resource
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

import trio

from p2pgames import canonical
from p2pgames.crypto import Identity, PublicKey
from p2pgames.invocation import command
from p2pgames.session import (
    Agreed,
    AwayTooLong,
    DesyncReport,
    History,
    LocalError,
    Notice,
    SavedSeat,
    SeatAway,
    SeatBack,
    SeatOpened,
    HostChanged,
    TakeOverAgreed,
    Session,
    SessionEvent,
    clean_text,
    encode_record,
)
from p2pgames.session._messages import NAME_LIMIT
from p2pgames.net._framing import DEFAULT_MAX_FRAME, FrameError, FrameReader, frame
from p2pgames.net._seat_file import SEAT_SUFFIX, SeatFile
from p2pgames.net._transcript_file import TranscriptFile, save_whole

if TYPE_CHECKING:  # only named in annotations
    from p2pgames.net._joincode import JoinCode

__all__ = ["Node", "NetSettings", "open_host_listeners", "kept_seat_note", "BOT_LAUNCHED_HERE", "BOT_CLAIMED"]

# A joiner whose host hasn't answered this many dials in a row dials the other seats too: one may
# have been handed the table while it was away (§B15).
LOOK_ELSEWHERE_AFTER = 3
# The most one write to a socket takes from its connection's queue (a batch of frames, or part of
# a history): more would only copy the queue again to send it.
WRITE_BATCH = 256 * 1024
_NOTHING: Any = object()  # the writer has no item in hand

# What a seat's bot flag means to the player who sees it: nobody can check a hello's ``bot``, so
# a seat is shown as a bot for sure only when this process started the bot itself.
BOT_LAUNCHED_HERE = "a bot launched here"
BOT_CLAIMED = "says it is a bot"


@dataclass(frozen=True)
class NetSettings:
    """Limits and timers (seconds). Tests shrink nothing: they run on trio's autojump clock."""

    max_frame: int = DEFAULT_MAX_FRAME
    ping_interval: float = 5.0
    silence_timeout: float = 30.0
    duty_timeout: float = 30.0
    # A joiner gives the host this long on top before it dials again for the host's own step.
    joiner_grace: float = 15.0
    linger: float = 10.0
    # What may wait to be sent on one connection: a peer that reads nothing while this much is
    # queued for it has stopped reading, and its connection is closed (its seat is away: it may
    # rejoin). The most an honest peer ever falls behind is a few seconds of a busy table's
    # traffic: a joiner of a 12-seat Steam Court party receives 3.6 MB in a whole game, its
    # seats' chat at most 25 KB a second (§B10). A catch-up's history doesn't count: it is sent
    # as the connection takes it (see Session.take_outgoing), never queued whole.
    max_queued_frames: int = 100_000
    max_queued_bytes: int = 8 * 1024 * 1024
    # Joining: how long to wait for the host to accept the connection, then to seat us.
    connect_timeout: float = 15.0
    # How long a seat may be away before the players are asked whether to end the game.
    away_grace: float = 180.0
    # Dialling a lost host again: the first wait, doubled after each failure up to the last.
    redial_first: float = 0.5
    redial_longest: float = 5.0
    # A watchdog tick this much later than due means this process was frozen (suspended).
    frozen_after: float = 3.0
    # Host: a connection with no place at the table yet (no valid hello or rejoin: *unproven*)
    # costs a socket and little else, so it is held briefly and in small numbers: closed this
    # long after it opened; and at most this many at once (fewer if the process may open few
    # files: see unseated_room). Every connection is accepted and read, so a joiner proves its
    # seat however many strangers wait: when one more comes, the one to go is closed to make
    # room — the oldest of the address (or IPv6 /64) holding the most (see Node._make_room).
    # A hello takes one round trip, so an honest joiner is unproven for a moment only.
    hello_timeout: float = 10.0
    max_unseated: int = 32
    # The largest frame a connection may send before its hello: a hello or rejoin is a few
    # hundred bytes, so a long length prefix from a stranger is refused at once, not waited for.
    max_hello_frame: int = 16384


class _Connection:
    def __init__(self, number: int, stream: trio.abc.Stream, queue_size: int, peer: str | None) -> None:
        self.number = number
        self.stream = stream
        self.peer = peer  # host: the address it came from; a joiner's own dial: None
        self.crowd = None if peer is None else _crowd_of(peer)  # host: whom it counts with when room is short
        self.opened = trio.current_time()
        self.send_frames, self.receive_frames = trio.open_memory_channel[bytes | History | None](queue_size)
        self.last_heard = trio.current_time()
        self.last_sent = trio.current_time()
        self.closing = False
        self.queued = 0  # frames (or histories) handed to the writer task and not yet written
        self.queued_bytes = 0  # ... and their bytes (a history's not counted: see NetSettings)
        # A socket we may write to straight from the session's turn (see Node._send_frame).
        self.direct = os.name == "posix" and isinstance(stream, trio.SocketStream)
        self.reader_done = trio.Event()
        self.scope = trio.CancelScope()


class Node:
    """Runs ``session`` over TCP. Use :meth:`serve` (host) or :meth:`connect` (joiner).

    ``transcript_path`` receives the transcript as the game runs (created with mode 0600); or
    give ``transcript_dir`` and the file is named ``GAME-GAMEID-seatN-NAME.p2pt`` there.
    Read :attr:`events` for what the player must see or decide; call :meth:`act`, :meth:`chat` and
    :meth:`leave` from trio tasks. :attr:`finished` is set once the node has stopped.
    """

    def __init__(
        self,
        session: Session,
        *,
        settings: NetSettings = NetSettings(),
        transcript_path: Path | None = None,
        transcript_dir: Path | None = None,
        desync_dir: Path | None = None,
        seat_dir: Path | None = None,
        seat_path: Path | None = None,
        replaces_transcript: Path | None = None,
        seat_identity: Identity | None = None,
    ) -> None:
        self.session = session
        session.send_now = self._send_now
        self._flushing = False  # (see _send_now)
        self.settings = settings
        self.transcript_path = transcript_path
        self.transcript_dir = transcript_dir
        self.desync_dir = desync_dir
        self.connections: dict[int, _Connection] = {}
        self._next_connection = 1
        self._events_send, self.events = trio.open_memory_channel[SessionEvent](math.inf)
        self._transcript: TranscriptFile | None = None
        self.transcript_note: str | None = None  # what became of the transcript, if not the usual
        self.bytes_sent = 0
        self.bytes_received = 0
        self.finished = trio.Event()
        # Host: set once serve has returned (nothing listens for the table any more): with
        # after_the_game, maybe long after the node has finished.
        self.stopped_serving = trio.Event()
        self.final_agreement = trio.Event()
        self._agreement_moved = trio.Event()
        self._changed = trio.Event()
        self.desync_report: Path | None = None
        self._nursery: trio.Nursery | None = None
        self._watching_for_take_over = False  # host: _look_for_a_take_over runs
        self._stopping = False
        self._wait_key: Any = None
        self._wait_since = 0.0
        self._last_tick: float | None = None  # the watchdog's last tick, or the last frame read
        self._stop_settles: float | None = None  # when an absence found after a freeze is no longer ours
        # Saving the seat (see the class docstring): a new file in seat_dir, or the one resumed.
        self.seat_dir = seat_dir
        self.seat_path = seat_path
        self._seat_file: SeatFile | None = SeatFile(seat_path, existing=True) if seat_path is not None else None
        # A bot this process launched for its host: its key is saved with its seat (see SavedSeat.identity).
        self._seat_identity = seat_identity
        self._where_saved: Any = None
        # The transcript of this seat before it was resumed: removed once the new one holds it all.
        self.replaces_transcript = replaces_transcript
        self.address: tuple[str, int] | None = None  # the host's (a joiner's dial, a host's listener)
        # Joiner: the host's other addresses, tried in turn when one doesn't answer (a successor's
        # reach, §B15), and where we listen in case the table is handed to us.
        self.addresses: list[tuple[str, int]] = []
        self.listeners: list[trio.SocketListener] = []
        self._redialled = trio.Event()
        self._backoff = settings.redial_first
        self._failed_dials = 0  # in a row, since the host last answered
        self._was_in_touch = False  # the current connection got us back to the table
        self.away_since: dict[int, float] = {}  # seat -> when it went away (trio's clock)
        self._away_told: set[int] = set()
        # Host: the listeners' scope, closed once a finished game needs nobody to come back.
        self._listening = trio.CancelScope()
        self._game_over = False
        # Host: whether a seat coming back after the game is answered (serve's after_the_game),
        # and whether the game stopped and that is all we do.
        self._answers_after_the_game = False
        self._after_the_game = False
        # Host: how many unproven connections it holds at once (see serve and _make_room).
        self._unseated_room = settings.max_unseated
        # The signing keys of the seats this process plays with bots (see bot_note).
        self.launched_bots: set[bytes] = {session.identity.public_key.raw} if session.bot else set()

    # -- what the player does --------------------------------------------------------------------

    def act(self, action: Any) -> None:
        """Make the local decision (raises :class:`~p2pgames.session.LocalError`)."""
        try:
            self.session.act(action)
        finally:
            self._flush()

    def stand_by(self, standing: Any) -> None:
        """Give the decision's standing answer (see ``Session.stand_by``; raises
        :class:`~p2pgames.session.LocalError`)."""
        try:
            self.session.stand_by(standing)
        finally:
            self._flush()

    def note_clocks(self, seconds: Sequence[int]) -> None:
        """Write each seat's thinking time in our transcript's notes (``Session.note_clocks``)."""
        try:
            self.session.note_clocks(seconds)
        finally:
            self._flush()

    def chat(self, text: str) -> None:
        """Send a chat line (raises :class:`~p2pgames.session.LocalError`)."""
        try:
            self.session.chat(text, trio.current_time())
        finally:
            self._flush()

    def leave(self, reason: str = "quit") -> None:
        """Tell the others we are going, then stop once our last frames are out. With the host
        away nobody can be told: the seat is kept (``session.seat_kept``), and the player is told
        how to take it again (:func:`kept_seat_note`)."""
        kept = self.session.seat_kept
        self.session.leave(reason)
        if self.session.seat_kept and not kept and not self.finished.is_set():
            self._events_send.send_nowait(Notice(kept_seat_note()))
        self._flush()
        self._stop_soon()

    async def wait_agreed(self, seq: int) -> None:
        """Wait until every peer has agreed on entry ``seq`` (or the node has stopped)."""
        while self.session.agreed_through < seq and not self.finished.is_set():
            await self._agreement_moved.wait()

    async def wait_until(self, predicate: Callable[[], bool]) -> None:
        """Wait until ``predicate()`` (about the session) holds, or the node has stopped; it is
        checked after everything the session does."""
        while not predicate() and not self.finished.is_set():
            await self._changed.wait()

    async def wait_until_alone(self, timeout: float) -> None:
        """Host: wait (at most ``timeout``) until every joiner has disconnected."""
        with trio.move_on_after(timeout):
            while self.connections:
                await trio.sleep(0.05)

    def bot_note(self, seat: int, says_bot: bool, name: str | None = None) -> str | None:
        """What the player may be told about whether ``seat`` (its place at the table, or in the
        lobby before the start) is a bot: :data:`BOT_LAUNCHED_HERE` for a bot this process
        started (our own seat played by a bot, a host's ``--bots``), :data:`BOT_CLAIMED` for any
        other seat whose hello said ``bot`` (``says_bot``: anyone can say it), else ``None``.

        ``name``: the name shown for that seat (a lobby event's, which may be older than the
        lobby now): a seat whose name differs now is not taken for the one launched here."""
        session = self.session
        seats = session.seats or session.lobby
        if seat < len(seats) and seats[seat].key.raw in self.launched_bots:
            if name is None or clean_text(seats[seat].name, NAME_LIMIT) == name:
                return BOT_LAUNCHED_HERE
        return BOT_CLAIMED if says_bot else None

    # -- flushing ------------------------------------------------------------------------------

    def _flush(self) -> None:
        """Move everything the session produced to sockets, the transcript and the event channel."""
        session = self.session
        outgoing = session.take_outgoing(paced=True)
        # Written down before anything leaves (frames may go straight to the socket): a host
        # killed just after sending an entry must find it in its files when it resumes, or the
        # joiners that got it would hold an entry the resumed host doesn't, and the game ends.
        self._write_down()
        self._flushing = True
        try:
            for number, payload in outgoing:
                connection = self.connections.get(number)
                if connection is None or connection.closing:
                    continue
                try:
                    if isinstance(payload, History):
                        connection.send_frames.send_nowait(payload)
                        connection.queued += 1
                    else:
                        self._send_frame(connection, frame(payload))
                    connection.last_sent = trio.current_time()
                except trio.WouldBlock:
                    # A peer that reads nothing while we queue this much has stopped reading (its
                    # seat is away: it may come back and catch up). Closing: nothing more goes to it.
                    self._hang_up(connection, "it stopped reading")
        finally:
            self._flushing = False
        self._write_down()  # what a lost connection recorded (it is away)
        for number in session.take_closing():
            connection = self.connections.get(number)
            if connection is not None:
                self._close(connection)
        events = session.take_events()
        if self._after_the_game:  # the game's events ended with it (the channel is closed)
            events = []
        for event in events:
            if isinstance(event, DesyncReport):
                self._write_desync(event)
            if isinstance(event, SeatAway):
                self.away_since.setdefault(event.seat, trio.current_time())
            elif isinstance(event, SeatOpened):
                self.away_since.pop(event.seat, None)  # a bot plays it: nobody waits for it now
                if event.seat == session.seat:
                    self._stop_soon()  # our hand-over is in the log: we have left
            elif isinstance(event, HostChanged):
                self._follow(event)
            elif isinstance(event, TakeOverAgreed):
                self._follow_take_over(event)
            elif isinstance(event, SeatBack):
                if event.host:
                    self._was_in_touch = True
                    self._failed_dials = 0
                self.away_since.pop(event.seat, None)
                self._away_told.discard(event.seat)
                self._drop_replaced_transcript()
            if isinstance(event, Agreed):
                self._agreement_moved.set()
                self._agreement_moved = trio.Event()
                if session.stage == "over" and session.replica is not None and event.seq == session.replica.seq - 1:
                    self.final_agreement.set()
            self._events_send.send_nowait(event)
        if session.stage in ("halted", "closed"):
            self._stop_soon()
        elif session.stage == "over" and not self._game_over:
            self._game_over = True
            if session.replica is not None and session.replica.forfeit is not None:
                # A win by forfeit (§B17): its entry is never agreed — the one other seat is gone —
                # so there is nobody to wait for.
                self.final_agreement.set()
            if session.is_host and self._nursery is not None:
                self._nursery.start_soon(self._close_after_game)
        self._changed.set()
        self._changed = trio.Event()

    def _write_down(self) -> None:
        """Append what the session recorded to the transcript, and what it saved to the seat file."""
        session = self.session
        records = session.take_transcript()
        if self._after_the_game:  # the transcript and the seat are closed: nothing is a game's now
            session.take_saved()
            return
        if records and self.transcript_path is None and self.transcript_dir is not None:
            self.transcript_path = self._transcript_name()
        if records and self.transcript_path is not None:
            if self._transcript is None:
                self._transcript = TranscriptFile(self.transcript_path)
            # A full or failing disk never stops the game: the file catches up when it can.
            note = self._transcript.write(b"".join(encode_record(record) for record in records))
            self.transcript_path = self._transcript.path
            if note is not None:
                self.transcript_note = note
                self._events_send.send_nowait(Notice(note))
        self._save_seat(session.take_saved())

    def _send_now(self) -> None:
        """The session's ``send_now``: its queued frames go out now, as :meth:`_flush` sends them
        (written down first), from inside its work — but only those a socket takes at once with
        nothing queued before them (or, written in part, whose rest waits alone in the queue): a
        connection's first frame that can't go, and every later one of that connection, is given
        back to the session for the next flush, which knows what to do with a full queue (hang
        up, telling the session — not something to do in the middle of its work)."""
        if self._flushing:
            # Called back from inside a flush (were a hang-up that tells the session ever to make
            # it sequence an entry): frames that flush took may not have left yet, and ours must
            # not pass them. They wait for the next flush.
            return
        session = self.session
        outgoing = session.take_outgoing(paced=True)
        if not outgoing:
            return
        self._write_down()
        left: list[tuple[int, Any]] = []
        waiting: set[int] = set()  # connections with a frame given back: the rest follows it
        for number, payload in outgoing:
            connection = self.connections.get(number)
            if connection is None or connection.closing:
                continue  # (as _flush: nothing goes to it)
            data = None if isinstance(payload, History) or number in waiting else frame(payload)
            if (data is None or not connection.direct or connection.queued
                    or len(data) > self.settings.max_queued_bytes):
                waiting.add(number)
                left.append((number, payload))
                continue
            self._send_frame(connection, data)  # (can't raise: nothing is queued, and it fits)
            connection.last_sent = trio.current_time()
        session.give_back_outgoing(left)

    def _send_frame(self, connection: _Connection, data: bytes) -> None:
        """Write ``data`` now if the socket takes it and nothing is queued before it, else queue
        (what the socket did not take) for the writer task; raises ``trio.WouldBlock`` if the
        queue is full (``max_queued_frames`` or ``max_queued_bytes``). Written now, a frame is on
        its way before the next scheduling round, and the writer task is not woken for it: on a
        busy table each frame cost two extra task switches, a good part of an event's latency."""
        if connection.direct and connection.queued == 0:
            fd = connection.stream.socket.fileno()  # type: ignore[attr-defined]
            sent = 0
            if fd >= 0:
                try:
                    sent = os.write(fd, data)
                except OSError:
                    pass  # full (BlockingIOError) or failed: the writer task sends it, or meets the error
            self.bytes_sent += sent
            if sent == len(data):
                return
            data = data[sent:]
        if connection.queued_bytes + len(data) > self.settings.max_queued_bytes:
            raise trio.WouldBlock
        connection.send_frames.send_nowait(data)
        connection.queued += 1
        connection.queued_bytes += len(data)

    def _save_seat(self, records: list[bytes]) -> None:
        """Append what the session saved to the seat file, and where the table and transcript
        are whenever that changes (a resumed seat knows where to dial and what to replace)."""
        session = self.session
        if self._seat_file is None:
            if not records or self.seat_dir is None or session.game is None:
                return
            name = f"{session.game.name}-{session.game_id.hex()[:16]}-seat{session.seat}{SEAT_SUFFIX}"
            self._seat_file = SeatFile(self.seat_dir / name)
            if self._seat_identity is not None:
                records = records[:1] + [SavedSeat.bot_identity(self._seat_identity.private_bytes())] + records[1:]
        where = (
            self.address[0] if self.address else None,
            self.address[1] if self.address else None,
            str(self.transcript_path) if self.transcript_path is not None else None,
        )
        if where != self._where_saved:
            self._where_saved = where
            records = records + [SavedSeat.where(*where)]
        if records:
            note = self._seat_file.write(records)
            self.seat_path = self._seat_file.path
            if note is not None:
                self._events_send.send_nowait(Notice(note))

    def _drop_replaced_transcript(self) -> None:
        """A resumed seat's new transcript holds all the old one did once it has caught up (a
        joiner) or replayed it (a host): remove the old one, if the new one is safely written."""
        old = self.replaces_transcript
        if old is None or self._transcript is None or self._transcript.problem is not None:
            return
        if self.transcript_path is None or old.resolve() == self.transcript_path.resolve():
            return
        self.replaces_transcript = None
        try:
            old.unlink()
        except OSError:
            pass

    def _transcript_name(self) -> Path:
        session = self.session
        assert self.transcript_dir is not None and session.game is not None
        safe = re.sub(r"[^A-Za-z0-9_-]", "_", session.name)[:24]
        stem = f"{session.game.name}-{session.game_id.hex()[:8]}-seat{session.seat}-{safe}"
        path = self.transcript_dir / f"{stem}.p2pt"
        number = 2
        while path.exists():
            path = self.transcript_dir / f"{stem}-{number}.p2pt"
            number += 1
        return path

    def _write_desync(self, event: DesyncReport) -> None:
        # Beside the transcripts, not among them: a report is not a transcript (verify says so).
        directory = self.desync_dir
        if directory is None:
            transcripts = self.transcript_dir or (self.transcript_path.parent if self.transcript_path else None)
            if transcripts is None:
                return
            directory = transcripts / "reports"
        path = directory / f"desync-{self.session.game_id.hex()[:12]}-seat{self.session.seat}-entry{event.seq}.msgpack"
        try:
            # Whole or not at all: a report cut short by a full disk would read as neither.
            self.desync_report = save_whole(path, canonical.encode(event.report))
        except OSError as error:
            self._events_send.send_nowait(Notice(f"Can't write the desync report to {path} ({error.strerror})."))

    def _close(self, connection: _Connection) -> None:
        """Send what is queued on ``connection``, then close it."""
        if not connection.closing:
            connection.closing = True
            try:
                connection.send_frames.send_nowait(None)
            except trio.WouldBlock:
                connection.scope.cancel()

    def _stop_soon(self) -> None:
        """Close every connection after its queued frames, then stop the node."""
        if self._stopping:
            return
        self._stopping = True
        for connection in list(self.connections.values()):
            self._close(connection)
        if self._nursery is not None:
            self._nursery.start_soon(self._linger_then_stop)

    async def _linger_then_stop(self) -> None:
        with trio.move_on_after(self.settings.linger):
            while self.connections:
                await trio.sleep(0.05)
        self._stop()

    def _close_transcript(self) -> None:
        if self._transcript is not None:
            note = self._transcript.close()
            self.transcript_path = self._transcript.path
            self._transcript = None
            if note is not None:
                self.transcript_note = note
                self._events_send.send_nowait(Notice(note))

    def _close_files(self) -> None:
        self._close_transcript()
        if self._seat_file is not None:
            # Kept while the game could still be taken up again; gone once it is over.
            self._seat_file.close(remove=self.session.finished and not self.session.seat_kept)
            self._seat_file = None

    def _stop(self) -> None:
        self._close_files()
        if not self.finished.is_set():
            self.finished.set()
            self._agreement_moved.set()
            self._changed.set()
            self._events_send.close()
        if self._nursery is not None:
            self._nursery.cancel_scope.cancel()

    # -- connections ---------------------------------------------------------------------------

    def _greeted(self, connection: _Connection) -> bool:
        """Whether ``connection`` has a place at the table: a joiner's own dial always; at a host,
        one whose valid hello put it in the lobby or whose rejoin (or start) seated it."""
        if connection.peer is None:
            return True
        session = self.session
        if session.seat_of_connection(connection.number) is not None or session.is_watcher(connection.number):
            return True
        return any(number == connection.number for _, number in session.role.lobby)  # type: ignore[union-attr]

    def _make_room(self) -> None:
        """Host, as a new connection is accepted: if as many connections without a place at the
        table (unproven) are held as there is room for (:attr:`_unseated_room`), close one.

        The new connection is always taken and read: a joiner proves its seat by its hello or
        rejoin, whoever else is waiting, and once proven it is never closed for room. The one to
        go is one we are closing anyway (refused, its last words still going out), else the
        oldest of the *crowd* (an address, or an IPv6 /64) holding the most: a stranger holding
        many connections makes room out of its own, and within one address — a table behind
        one NAT, or bots on one machine — the oldest unproven has had the longest to answer."""
        unproven = [
            connection for connection in self.connections.values()
            if not self._greeted(connection) and not connection.scope.cancel_called
        ]
        if len(unproven) < self._unseated_room:
            return
        crowds = collections.Counter(connection.crowd for connection in unproven)
        def to_go_first(connection: _Connection) -> tuple:
            return (connection.closing, crowds[connection.crowd], -connection.opened, -connection.number)

        self._hang_up(max(unproven, key=to_go_first), "closed to make room for a newer connection (too many had not said hello)")

    def _hang_up(self, connection: _Connection, reason: str) -> None:
        """Close ``connection`` at once, for ``reason``, telling the session (once): nothing it
        may still send is wanted, and nothing more is sent on it. A host's connection with no
        seat at a game (none yet, or one in the lobby, which it leaves) has nothing at stake on
        it; a seat's is away, and may come back."""
        if not connection.closing:
            connection.closing = True
            self.session.disconnected(connection.number, reason)
        connection.scope.cancel()

    async def _close_after_game(self) -> None:
        """Host, once the game is over: when every seat holds the final agreement (or after
        ``linger`` seconds, for a joiner that lost the end to come back for it), stop listening
        — unless we answer after the game (:meth:`serve`): a seat coming back is caught up to
        the end — and close every connection without a place at the table. Seated joiners keep
        theirs until they leave (a goodbye, a last chat line)."""
        with trio.move_on_after(self.settings.linger):
            await self.final_agreement.wait()
        if not self._answers_after_the_game:
            self._listening.cancel()
        for connection in list(self.connections.values()):
            if not self._greeted(connection) or self.session.is_watcher(connection.number):
                self._hang_up(connection, "the game is over")
        self._flush()

    async def _run_connection(self, stream: trio.abc.Stream, number: int, peer: str | None = None) -> None:
        connection = _Connection(number, stream, self.settings.max_queued_frames, peer)
        self.connections[number] = connection
        try:
            with connection.scope:
                self.session.connected(number)
                self._flush()
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(self._write_loop, connection)
                    await self._read_loop(connection)
                    connection.reader_done.set()
                    self._close(connection)
        finally:
            self.connections.pop(number, None)
            with trio.CancelScope(shield=True):
                await trio.aclose_forcefully(stream)

    async def _read_loop(self, connection: _Connection) -> None:
        reader = FrameReader(connection.stream, self.settings.max_frame)
        reason = "the connection closed"
        try:
            while True:
                # (A watcher sends nothing after its hello: it gets no more room than one.)
                greeted = self._greeted(connection) and not self.session.is_watcher(connection.number)
                reader.max_frame = self.settings.max_frame if greeted else self.settings.max_hello_frame
                payload = await reader.next_frame()
                self._notice_freeze(trio.current_time())
                if payload is None:
                    break
                self.bytes_received += len(payload) + 4
                connection.last_heard = trio.current_time()
                if connection.closing:
                    continue  # we are closing: read to the end, act on nothing more
                self.session.receive(connection.number, payload, connection.last_heard)
                self._flush()
                await self._background_work()
        except FrameError as error:
            if not connection.closing:
                self._notice_freeze(trio.current_time())
                self.session.protocol_violation(connection.number, error.code, str(error))
                self._flush()
            return
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as error:
            reason = f"the connection failed ({error})" if str(error) else "the connection failed"
        if not connection.closing:
            self._notice_freeze(trio.current_time())  # a line we find closed on waking: closed on us
            self.session.disconnected(connection.number, reason)
            self._flush()

    async def _background_work(self) -> None:
        """Let the session get ahead on a deal (``Session.background_work``), a little at a
        time, once every frame it queued has left for its socket: work that could be done
        before our turn never delays what the others wait for."""
        while self.session.background_due:
            await trio.sleep(0)  # what is ready to run goes first (other peers' work in this process)
            for _ in range(3):  # a few turns for the writers (one that can't write won't hold us)
                if not any(c.send_frames.statistics().current_buffer_used for c in self.connections.values()):
                    break
                await trio.sleep(0)
            if not self.session.background_work():
                return
            self._flush()

    async def _write_loop(self, connection: _Connection) -> None:
        frames = connection.receive_frames
        try:
            item = await frames.receive()
            while item is not None:
                if isinstance(item, History):
                    await self._write_history(connection, item)
                    connection.queued -= 1
                    item = await frames.receive()
                    continue
                # Every frame queued by now leaves in one write (up to WRITE_BATCH bytes): one
                # wake-up of the reader, not one per frame (a host relays each acknowledgement to
                # every other joiner).
                batch, size, item = [item], len(item), _NOTHING
                while size < WRITE_BATCH:
                    try:
                        item = frames.receive_nowait()
                    except trio.WouldBlock:
                        item = _NOTHING
                        break
                    if item is None or isinstance(item, History):
                        break
                    batch.append(item)
                    size += len(item)
                    item = _NOTHING
                await connection.stream.send_all(batch[0] if len(batch) == 1 else b"".join(batch))
                self.bytes_sent += size
                connection.queued -= len(batch)
                connection.queued_bytes -= size
                if item is _NOTHING:
                    item = await frames.receive()
            if isinstance(connection.stream, trio.SocketStream):
                await connection.stream.send_eof()
        except (trio.BrokenResourceError, trio.ClosedResourceError, trio.EndOfChannel, OSError):
            pass
        # Closing with unread data could reset the line and lose our last frames at the peer:
        # wait (briefly) for the peer to close its side first.
        with trio.move_on_after(self.settings.linger):
            await connection.reader_done.wait()
        connection.scope.cancel()

    async def _write_history(self, connection: _Connection, history: History) -> None:
        """Send ``history``'s frames, WRITE_BATCH bytes at a time, as the connection takes them:
        its payloads are the session's own, and only the batch being written is framed again."""
        batch: list[bytes] = []
        size = 0
        for payload in history.frames:
            batch.append(frame(payload))
            size += len(batch[-1])
            if size >= WRITE_BATCH:
                await connection.stream.send_all(b"".join(batch))
                self.bytes_sent += size
                batch, size = [], 0
        if batch:
            await connection.stream.send_all(b"".join(batch))
            self.bytes_sent += size

    # -- running -------------------------------------------------------------------------------

    async def serve(
        self, listeners: list[trio.SocketListener], *, after_the_game: bool = False,
        task_status=trio.TASK_STATUS_IGNORED,
    ) -> None:
        """Host: accept joiners on ``listeners`` until the node stops. With ``after_the_game``
        (a host whose player still looks at the table), a game that stopped before its end —
        ended for an absence, or for a fault — goes on being answered until this is cancelled:
        a seat coming back for it is told, by ``gone``, that it stopped and why, so it forgets
        its saved seat (see :meth:`_answer_after_the_game`)."""
        addresses = [listener.socket.getsockname()[:2] for listener in listeners]
        self._answers_after_the_game = after_the_game
        ruleset = self.session.ruleset
        self._unseated_room = unseated_room(
            self.settings.max_unseated, ruleset.players if ruleset is not None else 1, _descriptor_limit()
        )
        try:
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                nursery.start_soon(self._watchdog)
                nursery.start_soon(self._accept_loop, listeners)
                self._watch_for_a_take_over()
                self._flush()
                if self.session.resumed is not None:
                    self._drop_replaced_transcript()  # our replay is written: it holds the old one's all
                task_status.started()
                await trio.sleep_forever()
            if after_the_game and self.session.stage == "halted":  # (its files closed as the node stopped)
                await self._answer_after_the_game(addresses)
        finally:
            self._close_files()  # also when cancelled from outside
            self.stopped_serving.set()

    async def _answer_after_the_game(self, addresses: list[tuple[str, int]]) -> None:
        """Host, its game stopped (the node has stopped, and closed its listeners): listen at
        ``addresses`` again, each connection answered by the stopped session — a rejoin with
        ``gone``, a hello with a refusal — and closed; one that says nothing is closed by the
        watchdog after ``hello_timeout`` as ever (the session told, so it keeps nothing of it), and
        as few are held at once as ever (:meth:`_make_room`). Nothing of it is a game's any more:
        no events, nothing written. Runs until cancelled."""
        self._after_the_game = True
        self._listening = trio.CancelScope()
        listeners: list[trio.SocketListener] = []
        try:
            for host, port in addresses:
                try:
                    listeners += await trio.open_tcp_listeners(port, host=host)
                except OSError:
                    pass  # taken meanwhile by another program: nobody can be answered there
        except BaseException:  # cancelled before serve_listeners owns them
            _close_listeners(listeners)
            raise
        if not listeners:
            return
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            nursery.start_soon(self._watchdog)  # the game is over: it only closes the late hellos
            await self._accept_loop(listeners)

    async def _accept_loop(self, listeners: list[trio.SocketListener]) -> None:
        """Accept connections on ``listeners``."""
        async def handle(stream: trio.SocketStream) -> None:
            if not self.session.is_host:
                # A joiner's listener, the table not handed to us: whoever dials us looks for
                # the host elsewhere (§B15). Hung up on at once, so it tries the next place.
                await trio.aclose_forcefully(stream)
                return
            peer = _peer_address(stream)
            self._make_room()
            number = self._next_connection
            self._next_connection += 1
            await self._run_connection(stream, number, peer)

        # Connections run in the node's nursery: closing the listeners leaves them be.
        with self._listening:
            await trio.serve_listeners(handle, listeners, handler_nursery=self._nursery)

    async def connect(
        self, host: str, port: int, *, keep_dialling: Callable[[BaseException], None] | None = None,
        listeners: list[trio.SocketListener] | None = None, task_status=trio.TASK_STATUS_IGNORED,
    ) -> None:
        """Joiner: dial the host and play until the game is over or stopped. Raises
        :class:`OSError` if the first dial fails — unless ``keep_dialling`` is given (a seat taken
        again, whose host may not be back yet): it is then called with that failure, and the host
        is dialled again as after a lost connection, until it answers; whoever started us bounds
        that wait (``task_status.started()`` comes once connected). Once the game has begun, a lost
        connection is dialled again (:meth:`redirect` changes where) until the game ends or we leave.

        ``listeners`` (closed when we stop) are where the others may dial us should the host hand
        us the table (§B15): nobody is answered there until it does (the session tells the table
        where they are: :meth:`Session.set_reach`). Should it hand the table to another seat, we
        dial that one instead."""
        self.address = (host, port)
        self.addresses = [self.address]
        self.listeners = list(listeners or [])
        try:
            if keep_dialling is None:
                stream = await trio.open_tcp_stream(host, port)
            else:
                stream = await self._dial_until_answered(keep_dialling)
            await self._play_as_joiner(stream, task_status)
        finally:
            _close_listeners(self.listeners)

    async def _play_as_joiner(self, stream: trio.SocketStream, task_status) -> None:
        try:
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                task_status.started()
                nursery.start_soon(self._watchdog)
                if self.listeners:
                    # Hung up on at once until the table is handed to us (then answered as its host).
                    nursery.start_soon(self._accept_loop, self.listeners)
                while True:
                    self._was_in_touch = False
                    await self._run_connection(stream, 0)
                    self._flush()
                    if self._stopping:
                        break
                    if self.session.is_host:
                        # The table was handed to us (§B15): the others dial us now, until the
                        # node stops (its nursery is cancelled).
                        await trio.sleep_forever()
                    if not self.session.reconnecting:
                        break
                    # A connection that closed before we were back at the table (something
                    # accepts and hangs up, or refuses us for now) is a failed dial too: wait.
                    if not self._was_in_touch:
                        self._dial_failed()
                    redialled = await self._redial(immediately=self._was_in_touch)
                    if redialled is None:
                        # We claim the table, our host gone (§B15, a take-over): the others dial
                        # us now, until the node stops (its nursery is cancelled).
                        await trio.sleep_forever()
                    stream = redialled
                self._stop()
        finally:
            self._close_files()  # also when cancelled from outside

    def _follow(self, event: HostChanged) -> None:
        """The host handed the table to another seat (§B15): if to us, answer where we listen;
        else dial the new host where it said it can be reached, at once."""
        if event.you:
            self._answer_as_host()
            return
        if event.reach:
            self.addresses = list(event.reach)
            self.address = self.addresses[0]
            self._redialled.set()

    def _follow_take_over(self, event: TakeOverAgreed) -> None:
        """We agreed to play on without our host, gone (§B15, a take-over): if we are its
        successor, answer where we listen (and dial no more); else dial the successor first —
        its own place, then the host's, should it come back before everyone agreed."""
        if event.you:
            self._answer_as_host()
        else:
            self.addresses = list(event.reach) + [address for address in self.addresses if address not in event.reach]
            self.address = self.addresses[0]
        self._redialled.set()

    def _watch_for_a_take_over(self) -> None:
        """Host: look out, from now on, for a take-over made while we were cut off (see
        :meth:`_look_for_a_take_over`); once per node."""
        if not self._watching_for_take_over and self._nursery is not None:
            self._watching_for_take_over = True
            self._nursery.start_soon(self._look_for_a_take_over)

    async def _look_for_a_take_over(self) -> None:
        """Host: once every other seat still playing has been away longer than a joiner waits
        for its host (``joiner_grace``: they may have taken the table over, §B15), dial them
        where they said they listen, in the order a take-over picks its successor, every
        ``redial_longest`` seconds: one that took the table over answers our rejoin with
        ``gone``, and our game stops, saying so (:meth:`Session.probe_answer`)."""
        session = self.session
        while not session.finished:
            await trio.sleep(self.settings.redial_longest)
            probes = session.take_over_probes()
            if not probes or any((self.away_for(seat) or 0.0) < self.settings.joiner_grace for seat, _ in probes):
                continue
            for seat, address in probes:
                if await self._probe(seat, address):
                    self._flush()
                    return

    async def _probe(self, seat: int, address: tuple[str, int]) -> bool:
        """Dial ``seat`` at ``address`` and ask for our seat back as a joiner would: whether it
        answered that it took the table over (the session stops the game then)."""
        host, port = address
        try:
            with trio.fail_after(self.settings.connect_timeout):
                stream = await trio.open_tcp_stream(host, port)
                async with stream:
                    reader = FrameReader(stream, self.settings.max_hello_frame)
                    hello = await reader.next_frame()
                    rejoin = None if hello is None else self.session.probe_hello(seat, hello)
                    if rejoin is None:
                        return False
                    await stream.send_all(frame(rejoin))
                    answer = await reader.next_frame()
                    return answer is not None and self.session.probe_answer(seat, answer)
        except (OSError, trio.TooSlowError, trio.BrokenResourceError, trio.ClosedResourceError, FrameError):
            return False

    def _answer_as_host(self) -> None:
        """We host the table now: the accept loop answers as its host from now on."""
        self._watch_for_a_take_over()
        if self.listeners:  # where we are the host now: a restarted seat listens there again
            self.address = tuple(self.listeners[0].socket.getsockname()[:2])  # type: ignore[assignment]
        ruleset = self.session.ruleset
        self._unseated_room = unseated_room(
            self.settings.max_unseated, ruleset.players if ruleset is not None else 1, _descriptor_limit()
        )

    def redirect(self, code: JoinCode) -> None:
        """Joiner: the host is now where ``code`` says (restarted on another port or machine, it
        gave a new join code): dial there from now on, at once if the host is away. Whatever
        answers there must have the game's host key: the session refuses any other.

        Raises :class:`~p2pgames.session.LocalError`, changing nothing, when this node is the
        host, the game is over or hasn't begun (join with the code instead), or ``code``'s
        fingerprint is another key's."""
        session = self.session
        if session.is_host:
            raise LocalError("you are the host: the others need your join code, not you")
        if session.finished:
            raise LocalError("the game is over: there is no host to go back to")
        if session.seats:
            key = session.seats[session.host_seat].key
        elif session.resumed is not None:
            key = PublicKey(session.resumed.host_key)
        else:
            raise LocalError("the game hasn't begun: quit and join with the new code")
        problem = code.other_host_than(key)
        if problem is not None:
            raise LocalError(problem)
        self.address = (code.host, code.port)
        self.addresses = [self.address]
        self._redialled.set()

    async def _dial_until_answered(self, told: Callable[[BaseException], None]) -> trio.SocketStream:
        """Dial the host; if that fails, ``told(why)``, then dial again with backoff until it answers."""
        host, port = self.address  # type: ignore[misc]
        try:
            with trio.fail_after(self.settings.connect_timeout):
                return await trio.open_tcp_stream(host, port)
        except (OSError, trio.TooSlowError) as error:
            told(error)
        stream = await self._redial(immediately=False)
        assert stream is not None  # (no game yet: nothing to take over)
        return stream

    async def _redial(self, *, immediately: bool) -> trio.SocketStream | None:
        """Dial the host again until it answers, waiting longer after each failure (and before
        the first try unless ``immediately``: the last connection was a good one). ``None`` once
        we host the table ourselves (we claimed it: §B15, a take-over)."""
        if immediately:
            self._backoff = self.settings.redial_first
        else:
            await self._wait_to_redial()
        while True:
            if self.session.is_host:
                return None
            host, port = self.address  # type: ignore[misc]
            try:
                with trio.fail_after(self.settings.connect_timeout):
                    return await trio.open_tcp_stream(host, port)
            except (OSError, trio.TooSlowError):
                pass
            self._dial_failed()
            await self._wait_to_redial()

    def _dial_failed(self) -> None:
        """A dial found nobody, or nobody who took us back: try the next place next (the host's
        next address — a successor's reach names several —, or, after a few, the other seats')."""
        self._failed_dials += 1
        if self._failed_dials == LOOK_ELSEWHERE_AFTER:
            self._look_elsewhere()
        if self.address in self.addresses and len(self.addresses) > 1:
            self.address = self.addresses[(self.addresses.index(self.address) + 1) % len(self.addresses)]

    def _look_elsewhere(self) -> None:
        """The host doesn't answer: it may have handed the table to another seat while we were
        away (§B15). Dial the others too, where they said they listen, lowest seat first: a seat
        that hosts now shows it with the log (the session takes its hello unconfirmed)."""
        session = self.session
        replica = session.replica
        if replica is None:
            return
        for seat in replica.playing_seats:
            if seat not in (session.seat, session.host_seat):
                for address in session.reach_of(seat):
                    if address not in self.addresses:
                        self.addresses.append(address)

    async def _wait_to_redial(self) -> None:
        with trio.move_on_after(self._backoff):
            await self._redialled.wait()  # a new address: try it now
        if self._redialled.is_set():
            self._redialled = trio.Event()
            self._backoff = self.settings.redial_first
        else:
            self._backoff = min(self._backoff * 2, self.settings.redial_longest)

    async def _watchdog(self) -> None:
        settings = self.settings
        session = self.session
        self._last_tick = trio.current_time()
        while True:
            await trio.sleep(1.0)
            now = trio.current_time()
            self._notice_freeze(now)
            if self._stop_settles is not None and now >= self._stop_settles:
                self._stop_settles = None
                session.stop_settled()
            for connection in list(self.connections.values()):
                if connection.closing:
                    continue
                if not self._greeted(connection):
                    # Never pinged (nothing keeps it open), and closed once its hello is late.
                    if now - connection.opened >= settings.hello_timeout:
                        self._hang_up(connection, f"no hello within {settings.hello_timeout:.0f} s")
                    continue
                if now - connection.last_sent >= settings.ping_interval and not session.finished:
                    # A finished game needs nothing kept alive: nobody is judged on silence now.
                    session.ping(connection.number, int(now))
                if now - connection.last_heard > settings.silence_timeout and not session.finished:
                    seat = session.seat_of_connection(connection.number)
                    silence = f"nothing heard from it for {settings.silence_timeout:.0f} s"
                    if seat is not None:
                        session.peer_unresponsive(seat, silence)
                    else:  # a host's lobby seat: it leaves the lobby
                        self._hang_up(connection, silence)
            self._check_duties(now)
            self._check_away(now)
            self._flush()

    def _notice_freeze(self, now: float) -> None:
        """Whether this process was frozen (suspended) since the watchdog's last tick or the last
        frame read, checked by both before they act on anything: what the others sent waits
        unread in our sockets, so nobody is judged on the time we lost — and an absence we find
        when we wake is ours (see ``Session.was_stopped``), whichever of the two sees it first."""
        last, self._last_tick = self._last_tick, now
        if last is None or now - last <= self.settings.frozen_after:
            return
        # Start counting again from now, for everyone.
        for connection in self.connections.values():
            connection.last_heard = max(connection.last_heard, now)
            connection.opened = max(connection.opened, now)
        self._wait_since = now
        lost = now - last - 1.0
        for seat in self.away_since:
            self.away_since[seat] += lost  # nor count it against whoever was away already
        if lost >= self.settings.silence_timeout:
            # Long enough for the others to have dropped our connections as silent: whoever we
            # find away now (a closed line at once, a dead one within our own silence timeout)
            # went because we were.
            self.session.was_stopped(lost)
            self._stop_settles = now + 2 * self.settings.silence_timeout
            self._flush()

    def _check_away(self, now: float) -> None:
        """Tell the player, once, about each seat away for longer than the grace period."""
        session = self.session
        if session.finished:
            return
        for seat, since in sorted(self.away_since.items()):
            waited = now - since
            if seat not in self._away_told and waited >= self.settings.away_grace and seat in session.away:
                self._away_told.add(seat)
                name = session.names[seat] if seat < len(session.seats) else f"seat {seat}"
                problem = session.play_on_problem(seat)
                self._events_send.send_nowait(AwayTooLong(
                    seat, name, waited, host=seat == session.host_seat and not session.is_host,
                    can_open=problem is None, why_not=problem or "",
                    can_forfeit=session.forfeit_problem(seat) is None,
                ))

    def away_for(self, seat: int) -> float | None:
        """How long ``seat`` has been away (seconds), or ``None`` if it isn't."""
        since = self.away_since.get(seat)
        return None if since is None else trio.current_time() - since

    def end_game(self) -> None:
        """End the game because a seat is away (see ``Session.end_game``; raises
        :class:`~p2pgames.session.LocalError`)."""
        try:
            self.session.end_game()
        finally:
            self._flush()

    def reach_first(self, address: tuple[str, int]) -> None:
        """Where we can be reached, best first from now on (the router's address forwarded to
        where we listen, §B15); told the table at once (``Session.reach_first``)."""
        try:
            self.session.reach_first(address)
        finally:
            self._flush()

    def claim_forfeit(self, seat: int) -> None:
        """Win by forfeit against ``seat``, away past the grace period (see
        ``Session.claim_forfeit``; raises :class:`~p2pgames.session.LocalError`)."""
        try:
            self.session.claim_forfeit(seat)
        finally:
            self._flush()

    def hand_over(self) -> None:
        """Leave, handing our seat to a bot (see ``Session.hand_over``: it goes as soon as it can;
        the node stops once it is in the log). Raises :class:`~p2pgames.session.LocalError`."""
        try:
            self.session.hand_over()
        finally:
            self._flush()

    def again(self, game: str | None = None) -> None:
        """Ask (or agree) to play again (``Session.again``; raises its :class:`LocalError`)."""
        try:
            self.session.again(game)
        finally:
            self._flush()

    def decline_again(self) -> None:
        """Say we won't play again (``Session.decline_again``)."""
        self.session.decline_again()
        self._flush()

    def adjourn(self, agree: bool = True) -> None:
        """Ask to adjourn, agree, or decline (``Session.adjourn``; raises its :class:`LocalError`)."""
        try:
            self.session.adjourn(agree)
        finally:
            self._flush()

    def open_seat(self, seat: int) -> None:
        """Agree to play on with a bot in ``seat``, away past the grace period (see
        ``Session.open_seat``; raises :class:`~p2pgames.session.LocalError`)."""
        try:
            self.session.open_seat(seat)
        finally:
            self._flush()

    def _check_duties(self, now: float) -> None:
        """Name a peer whose automatic protocol step (not a person's decision) is long overdue."""
        session = self.session
        if session.stage != "playing" or session.replica is None:
            self._wait_key = None
            return
        replica = session.replica
        waiting = session.waiting_for()
        deciding = session.waiting_on_decision()
        key = (replica.seq, waiting, deciding, tuple(session.away))
        if key != self._wait_key:
            self._wait_key = key
            self._wait_since = now
            return
        if not waiting or deciding:
            return  # people may think as long as they like
        # Away seats are waited for (the grace period is theirs); a joiner judges only its host,
        # whose connection it can drop and dial again — the host judges the joiners. Not while
        # another seat is away: the host may be waiting for it (a resumed host goes on only once
        # every seat is back, SPEC §B12).
        late = [seat for seat in waiting if seat != session.seat and seat not in session.away]
        if not session.is_host:
            late = [seat for seat in late if seat == 0 and not session.away]
        if not late:
            return
        limit = self.settings.duty_timeout
        if not session.is_host:
            limit += self.settings.joiner_grace
        if now - self._wait_since > limit:
            self._wait_since = now
            session.peer_unresponsive(late[0], f"its automatic protocol step has been due for {limit:.0f} s")


def kept_seat_note() -> str:
    """What a player who left while the host was away is told: the seat is kept, and how to take it again."""
    return f"You left while the host was away: your seat is kept; {command('resume')} takes it again."


def _crowd_of(address: str) -> str:
    """Whom a connection from ``address`` counts with when a host is short of room: that IPv4
    address, or that IPv6 address's /64 (a network hands its machines as many of those as
    they like)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


# Descriptors a host keeps for itself, whatever strangers do: its standard streams, listeners,
# transcript and seat files, the terminal's and trio's own, LAN discovery and port mapping.
OWN_DESCRIPTORS = 64


def unseated_room(max_unseated: int, players: int, descriptors: int | None) -> int:
    """How many unproven connections (``NetSettings.max_unseated``) a host of a table of
    ``players`` holds at once in a process that may open ``descriptors`` files (``ulimit -n``;
    ``None``: no limit): ``max_unseated``, fewer when the limit would leave too few for the
    table — its own (:data:`OWN_DESCRIPTORS`), and three per seat (a joiner's connection, one it
    left behind still closing, and the other end of a bot's this process launched). At least
    one: a joiner can always get in."""
    if descriptors is None:
        return max_unseated
    return max(1, min(max_unseated, descriptors - OWN_DESCRIPTORS - 3 * players))


def _descriptor_limit() -> int | None:
    """How many files this process may open (its soft ``RLIMIT_NOFILE``), or ``None``: no limit."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else soft


def _peer_address(stream: trio.SocketStream) -> str:
    """The address ``stream`` came from (its port left out: every connection has its own)."""
    try:
        return str(stream.socket.getpeername()[0])
    except (OSError, AttributeError, IndexError):
        return "an unknown address"


async def open_host_listeners(port: int, host: str | None = None) -> list[trio.SocketListener]:
    """Listening sockets for a host on ``host`` (``None``: every interface, IPv4 and IPv6) and
    ``port`` (0 picks a free one). On every interface both families listen on the same port, so
    one join code's port works with either kind of address (``[::1]:PORT`` as well as
    ``127.0.0.1:PORT``); where the machine has no IPv6, IPv4 alone. Raises :class:`OSError`
    when nothing can listen."""
    if host is not None or port != 0:
        return await trio.open_tcp_listeners(port, host=host)
    # trio gives each family its own free port for port 0: take IPv4's and ask IPv6 for it too.
    for _ in range(_PORT_ATTEMPTS):
        listeners = await trio.open_tcp_listeners(0, host="0.0.0.0")
        chosen = listeners[0].socket.getsockname()[1]
        try:
            return listeners + await trio.open_tcp_listeners(chosen, host="::")
        except OSError as error:
            if error.errno != errno.EADDRINUSE:
                return listeners  # no IPv6 here (not configured, or turned off)
            _close_listeners(listeners)
        except BaseException:  # cancelled meanwhile
            _close_listeners(listeners)
            raise
    raise OSError(errno.EADDRINUSE, f"no port free for both IPv4 and IPv6 after {_PORT_ATTEMPTS} tries")


def _close_listeners(listeners: list[trio.SocketListener]) -> None:
    """Close ``listeners`` now (no checkpoint: also while being cancelled)."""
    for listener in listeners:
        listener.socket.close()


_PORT_ATTEMPTS = 8  # a port free for IPv4 but taken for IPv6 is rare: a few tries find one
