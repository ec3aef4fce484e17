"""An in-memory network for sessions: frames delivered in order, no sockets, no time."""

from __future__ import annotations

from collections import deque

from p2pgames.bots import bot_for
from p2pgames.crypto import Identity, reproducible_bytes
from p2pgames.games import get_game, get_presentation
from p2pgames.session import HOST_CONNECTION, SavedSeat, Session, encode_record, iter_records, verify_transcript


def canonical_records(saved: list[bytes]):
    """Saved-seat records (canonical bytes each) as ``(kind, value)`` pairs."""
    return list(iter_records(b"".join(encode_record(record) for record in saved)))


class Switchboard:
    """Host + joiners wired by in-memory queues. ``tamper(seat, data)`` may rewrite joiner frames.

    With ``presented``, every session is given the game's presentation (it narrates, describes
    decisions and keeps standing answers, as a player's does); without, the rules alone.
    With ``reach``, every seat tells the table where it "listens" (``("switchboard", 7000 + seat)``),
    so that a host may hand the table to another seat (§B15): the board then wires every joiner to
    the new host as the joiner's session follows it (:attr:`host_seat`).
    With ``idle_work`` (the default), every session still playing does a little of its background
    work (a lock pass made ahead, signatures left for a checkpoint) after every frame, as a node
    does whenever it has nothing to send; without, the switchboard delivers every frame first, so
    that no seat is ever idle in the middle of a deal and none is made ahead."""

    def __init__(
        self, game_name: str, players: int, *, seed: bytes = b"t", options=None, bots=None, presented=False,
        loader=get_game, reach: bool = False, open_seats: bool = True, forfeit: bool = False,
        idle_work: bool = True, protocol: int | None = None,
    ):
        game = loader(game_name)
        # (None: this version's protocol; 10: the lock deck's, where a test is about it.)
        self.protocol = {} if protocol is None else {"protocol": protocol}
        self.game = game
        self.loader = loader
        ruleset = game.ruleset(players, options or {}, open_seats=open_seats, forfeit=forfeit)
        self.sessions: list[Session] = []
        self.bots = []
        for seat in range(players):
            rng = reproducible_bytes(seed + bytes([seat]))
            identity = Identity.generate(rng(32))
            session = Session(
                identity, f"p{seat}", loader,
                ruleset=ruleset if seat == 0 else None,
                random_bytes=rng, presentation=get_presentation if presented else None, bot=True,
                **self.protocol,
            )
            if reach:
                session.set_reach([("switchboard", 7000 + seat)])
            self.sessions.append(session)
            self.bots.append(bot_for(game, seed + bytes([seat])) if bots is None else bots[seat])
        self.queue: deque[tuple[str, int, int, bytes]] = deque()  # (direction, joiner seat, conn, data)
        self.tamper = None
        # Joiner seats whose frames from the host are held back (not delivered) for now.
        self.behind: set[int] = set()
        self._held_back: list[tuple[str, int, int, bytes]] = []
        self.events: list[list] = [[] for _ in range(players)]
        # Watchers (§B19) of the host, by their connection to it (see watch), and every frame each got.
        self.watchers: dict = {}
        self.watched: dict[int, list[bytes]] = {}
        self.transcripts: list[bytearray] = [bytearray() for _ in range(players)]
        self.received: list[list[bytes]] = [[] for _ in range(players)]  # every frame each seat got
        self.saved: list[list[bytes]] = [[] for _ in range(players)]  # each seat's saved-seat records
        self.delivered = 0
        self.idle_work = idle_work
        self.gone: set[int] = set()  # seats whose process died for good (kill): nothing reaches them
        self.host_seat = 0  # the seat that hosts the table now
        # The host's connection to each joiner (a new number after each reconnect; None: cut).
        self.links: dict[int, int | None] = {seat: seat for seat in range(1, players)}
        self._next_connection = 100
        for seat in range(1, players):
            self.sessions[0].connected(seat)
            self.sessions[seat].connected(HOST_CONNECTION)
        self.flush()

    def check_finished_and_verified(self, *, every_entry_agreed: bool = False) -> None:
        """Assert every seat ended the game with the same result and no fault, with a complete
        transcript that verifies; with ``every_entry_agreed``, that every seat agreed on every
        entry too (none left unacknowledged)."""
        results = {repr(session.result) for session in self.sessions}
        assert len(results) == 1 and self.host.result is not None, [s.fault for s in self.sessions]
        for seat, session in enumerate(self.sessions):
            assert session.fault is None, (seat, session.fault)
            if every_entry_agreed:
                entries = session.replica.seq if session.replica is not None else 0
                assert session.agreed_through == entries - 1, (seat, session.agreed_through, entries)
            report = verify_transcript(bytes(self.transcripts[seat]), self.loader)
            assert report.ok and report.complete, (seat, report.describe())

    @property
    def host(self) -> Session:
        return self.sessions[self.host_seat]

    def flush(self) -> None:
        following: list[int] = []  # joiners that hung up on their old host to dial the new one
        for seat, session in enumerate(self.sessions):
            if seat in self.gone:
                continue
            if session.is_host and seat != self.host_seat and session.stage == "playing":
                following += self._take_over(seat)
            for connection, data in session.take_outgoing():
                if seat == self.host_seat and connection in self.watchers:
                    frames = data.frames if hasattr(data, "frames") else (data,)
                    self.queue.extend(("watch", connection, connection, frame) for frame in frames)
                    continue
                if seat == self.host_seat:
                    joiner = next((s for s, c in self.links.items() if c == connection), None)
                    if joiner is not None:  # else a connection that is gone: the frame is lost
                        self.queue.append(("down", joiner, connection, data))
                elif self.links[seat] is not None:
                    self.queue.append(("up", seat, self.links[seat], data))
            for record in session.take_transcript():
                self.transcripts[seat] += encode_record(record)
            self.saved[seat] += session.take_saved()
            closing = session.take_closing()
            if (HOST_CONNECTION in closing and seat != self.host_seat and session.stage == "playing"
                    and session.host_seat == self.host_seat and seat in self.links):
                # It hung up on its old host to follow the new one: it dials it (as a Node does).
                following.append(seat)
        for seat in following:
            self.sessions[seat].disconnected(HOST_CONNECTION, "followed the new host")
            self.reconnect(seat)

    def _take_over(self, seat: int) -> list[int]:
        """``seat`` hosts the table now: frames on their way to the old host are lost, and each
        joiner is wired to the new host once it follows it (those that do already: returned)."""
        old = self.host_seat
        self.host_seat = seat
        self.queue = type(self.queue)(item for item in self.queue if item[0] == "down" and item[1] != seat)
        self.sessions[seat].disconnected(HOST_CONNECTION, "the old host left")
        self.links = {other: None for other in range(len(self.sessions)) if other not in (seat, old)}
        return [other for other in self.links
                if self.sessions[other].stage == "playing" and self.sessions[other].host_seat == seat]

    # -- breaking the network ----------------------------------------------------------------

    def cut(self, seat: int) -> None:
        """Cut joiner ``seat``'s connection: frames on the way are lost, both ends notice."""
        self.flush()
        connection = self.links[seat]
        self.queue = type(self.queue)(item for item in self.queue if item[1] != seat)
        self._held_back = [item for item in self._held_back if item[1] != seat]
        self.links[seat] = None
        if connection is not None:
            self.host.disconnected(connection, "cut by the test")
        self.sessions[seat].disconnected(HOST_CONNECTION, "cut by the test")
        self.flush()

    def kill(self, seat: int) -> None:
        """``seat``'s process dies for good (kill -9, and nobody starts it again): its connections
        drop, what it sent that is still on the way is lost, and it never does anything again."""
        self.flush()
        if seat == self.host_seat:
            for joiner in list(self.links):
                self.cut(joiner)
            self.queue.clear()
            self.behind.clear()  # (what was held back on the way from it is lost with it)
        else:
            self.cut(seat)
        self.gone.add(seat)

    def depart(self, gone: int, after: int) -> None:
        """Seat ``gone`` vanishes for good once ``after`` entries are in; each other seat in turn
        agrees to play on: a joiner's seat is rebuilt from its escrow (§B16); the host's is taken
        over by its successor, which the others dial (§B15, a take-over). Run until then."""
        self.run(until=lambda: self.host.replica is not None and self.host.replica.seq >= after)
        if gone != self.host_seat:
            self.cut(gone)
            self.run(play=False)
            for seat in range(len(self.sessions)):
                if seat != gone:
                    self.sessions[seat].open_seat(gone)
                    self.run(play=False)
            return
        self.kill(gone)
        others = [seat for seat in range(len(self.sessions)) if seat != gone]
        for seat in others:
            self.sessions[seat].open_seat(gone)
        self.flush()  # the successor claims the table: the board wires the others to it
        for seat in others:
            if seat != self.host_seat:
                self.reconnect(seat)  # (a Node dials the successor's reach)
        self.run(play=False)

    def forfeit(self, gone: int, after: int) -> None:
        """Two players: seat ``gone`` vanishes for good once ``after`` entries are in, and the
        other claims the game by forfeit (§B17; the table must play it). Run until then."""
        self.run(until=lambda: self.host.replica is not None and self.host.replica.seq >= after)
        self.kill(gone)
        self.run(play=False)
        self.sessions[1 - gone].claim_forfeit(gone)
        self.run(play=False)

    def escrowed_slots(self, gone: int) -> list[int]:
        """The slots of finished deals still locked by rebuilt seat ``gone``'s escrowed key (cards it
        gave, or knew alone, §B16 step 5): what a keys round must release before they are read."""
        replica = self.host.replica
        return [crypto.first_slot + index for crypto in replica.deals.values() if crypto.next_pass() is None
                for index in range(crypto.size) if gone in crypto.unreleased[index]]

    def dispute(self, seat: int, slot: int) -> None:
        """Once everything queued is delivered, seat ``seat`` disputes ``slot`` (§B7) as a peer does
        whose card did not decrypt, whether or not it did."""
        self.run(play=False)
        self.sessions[seat]._submit({"t": "dispute", "slot": slot, "reason": "a card given to me does not decrypt"})

    def reconnect(self, seat: int) -> None:
        """Joiner ``seat`` dials the host again (a new connection)."""
        self.flush()
        self.links[seat] = self._next_connection
        self._next_connection += 1
        self.host.connected(self.links[seat])
        self.sessions[seat].connected(HOST_CONNECTION)
        self.flush()

    def watch(self, watcher, connection: int = 900) -> None:
        """``watcher`` (a :class:`~p2pgames.session.Watcher`) dials the host on ``connection``."""
        self.flush()
        self.watchers[connection] = watcher
        self.watched[connection] = []
        self.host.connected(connection)
        self.flush()

    def saved_seat(self, seat: int) -> SavedSeat:
        return SavedSeat.read(canonical_records(self.saved[seat]))

    def restart(self, seat: int, *, loader=get_game) -> Session:
        """Joiner ``seat``'s process dies and starts again from its saved seat (same identity):
        it rejoins from nothing but what it saved. Its transcript starts afresh."""
        self.cut(seat)
        old = self.sessions[seat]
        session = Session(old.identity, old.name, loader, saved=self.saved_seat(seat), bot=True,
                          presentation=old.presentation_loader, **self.protocol)
        self.sessions[seat] = session
        self.transcripts[seat] = bytearray()
        self.reconnect(seat)
        return session

    def restart_host(self, *, loader=get_game, transcript_kept: int | None = None) -> Session:
        """The host's process dies and starts again from its saved seat and transcript; every
        joiner notices, then dials it again. ``transcript_kept``: only that many bytes of the
        transcript reached the disk (the process died before writing the rest)."""
        self.flush()
        self.queue.clear()
        self._held_back.clear()
        self.behind.clear()
        for seat in list(self.links):
            self.links[seat] = None
            self.sessions[seat].disconnected(HOST_CONNECTION, "the host's process died")
        host = self.host_seat
        old = self.host
        if transcript_kept is not None:
            del self.transcripts[host][transcript_kept:]
        records = list(iter_records(bytes(self.transcripts[host])))
        session = Session.resume_host(old.identity, self.saved_seat(host), records, loader, presentation=old.presentation_loader, bot=True)
        self.sessions[host] = session
        self.transcripts[host] = bytearray()
        self.flush()
        for seat in list(self.links):
            if self.sessions[seat].stage != "closed":  # (a host that handed the table over has left)
                self.reconnect(seat)
        return session

    def run(self, max_frames: int = 2_000_000, play: bool = True, until=None) -> None:
        """Deliver frames (and let bots decide) until nothing moves, or until ``until()`` holds."""
        while True:
            if until is not None and until():
                return
            self.flush()
            if self.queue:
                direction, seat, connection, data = self.queue.popleft()
                if direction == "watch":
                    watcher = self.watchers[connection]
                    self.watched[connection].append(data)
                    watcher.receive(data)
                    for reply in watcher.take_outgoing():
                        self.host.receive(connection, reply)
                    continue
                if direction == "down" and seat in self.behind:
                    self._held_back.append((direction, seat, connection, data))
                    continue
                if direction == "up":
                    if self.tamper is not None:
                        data = self.tamper(seat, data)
                        if data is None:
                            continue
                    connection = self.links.get(seat)
                    if connection is None:
                        continue  # its connection was cut meanwhile: lost
                    self.received[self.host_seat].append(data)
                    self.host.receive(connection, data)
                else:
                    self.received[seat].append(data)
                    self.sessions[seat].receive(HOST_CONNECTION, data)
                self.delivered += 1
                if self.delivered > max_frames:
                    raise AssertionError("too many frames")
                if self.idle_work:
                    for other, session in enumerate(self.sessions):
                        if other not in self.gone:
                            session.background_work()
                continue
            if play and self.decide():
                continue
            return

    def decide(self) -> bool:
        moved = False
        for seat, session in enumerate(self.sessions):
            if seat in self.gone:
                continue
            for event in session.take_events():
                self.events[seat].append(event)
            decision = session.decision(texts=False)
            if decision is not None:
                replica = session.replica
                action = self.bots[seat].choose(session.game, replica.state, seat, session.knowledge, decision.step)
                session.act(action)
                moved = True
        return moved


def recorded_acks(transcript: bytes) -> list[list]:
    """Every acknowledgement item a transcript's ``acks`` records hold (§B11), in order."""
    from p2pgames.session import iter_records

    return [item for kind, value in iter_records(transcript) if kind == "acks" for item in value]


def check_sparse_acks(transcript: bytes, entries: int, players: int) -> list[list]:
    """The acknowledgements a finished game's transcript keeps (§B11): one item per (seat, entry)
    at most; each joiner's latest of the last entry (everyone agreed on the whole log; the host's
    are its entries); and, the chain vouching for the rest, far fewer than one per seat and entry:
    each seat's latest every ``ACK_RECORD_INTERVAL`` entries and audit, and those of entries not
    agreed on yet when written — under a quarter of them in these games. Returns the items."""
    items = recorded_acks(transcript)
    assert len({(item[0], item[1]) for item in items}) == len(items)
    latest: dict[int, int] = {}
    for seat, seq, *_ in items:
        latest[seat] = max(latest.get(seat, -1), seq)
    assert latest == {seat: entries - 1 for seat in range(1, players)}, latest
    assert 4 * len(items) <= (players - 1) * entries, (len(items), entries)
    return items
