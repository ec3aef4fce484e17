"""The sans-I/O peer: bytes in, events and bytes out. No sockets, no clock, no threads.

A :class:`Session` is one player's end of a game — the *host* (seat 0, which also sequences the log)
or a *joiner*. The network layer feeds it each frame it receives with :meth:`Session.receive`, tells
it about connections with :meth:`connected` / :meth:`disconnected`, and sends what
:meth:`take_outgoing` returns; the application reads :meth:`take_events`, answers decisions with
:meth:`act`, and appends :meth:`take_transcript` records to the game's transcript file.

Connections are small integers chosen by the network layer. A joiner has one, to the host
(:data:`HOST_CONNECTION`); the host has one per joiner. Everything is relayed through the host:
the topology is a star, and no secret depends on the host being honest.

Life of a session: ``lobby`` → ``starting`` (start received, waiting for every seat's accept) →
``playing`` → ``over`` (the game ended) or ``halted`` (a fault stopped it) or ``closed``.

The session itself is what both ends share: the replica of the log and applying its entries,
acknowledgements and agreement (and desync), submitting and the player's decisions, chat, leaving,
ending and halting, and the transcript's records. What only one end does is its *role*, a small
sans-I/O machine of its own that the session holds (:attr:`Session.role`) and hands every message
and connection event to, each with its dispatch table drawn in its module's docstring:

* :class:`~p2pgames.session._host.HostRole` (``_host.py``): the lobby, greeting and seating
  joiners (hello, rejoin), the relay kept for a rejoining joiner's catch-up, sequencing the
  submissions, and resuming from its own transcript.
* :class:`~p2pgames.session._joiner.JoinerRole` (``_joiner.py``): the hello (or rejoin), the
  start, the host's entries, catch-up, away/back news, and its submission in flight.

A lost connection stops nothing once the game has started: the seat is *away* (the host tells the
others), the game waits where it needs that seat, and the joiner comes back — over a new connection
from the same session, or from a new process with its :class:`SavedSeat` — with a ``rejoin``; the
host sends it what it missed, then ``caught-up``. A host restarted from its saved seat and
transcript (:meth:`Session.resume_host`) finds every joiner away until each rejoins. What a seat
must save to come back is produced by :meth:`take_saved` (see :mod:`p2pgames.session._saved`).

A host that leaves with a hand-over names a successor in it (protocol/SPEC.md §B15): from the next
entry on that seat sequences the log. Its session swaps its joiner role for a host role
(:meth:`HostRole.succeeding`) and :attr:`is_host` turns true; every other joiner follows it
(:meth:`JoinerRole.follow_host`), told by :class:`HostChanged` where to dial.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping, Sequence

from p2pgames import LOCK_DECK_PROTOCOL, PROTOCOL_VERSION, canonical
from p2pgames.crypto import BadSignature, CryptoError, Identity, PublicKey, scalar_to_bytes
from p2pgames.engine import (
    EngineError,
    Game,
    GameOver,
    IllegalAction,
    MalformedAction,
    ReactionWindow,
    Ruleset,
    Sealed,
    Simultaneous,
)
from p2pgames.session._acks import MAX_ACKS, ack_item
from p2pgames.session._chat import ChatLimits, Offer, confirm_flood, line_size
from p2pgames.session._deals import LOCKING_STAGES
from p2pgames.session._elgamal_keys import deck_key_record
from p2pgames.session._events import (
    AgainAgreed,
    AgainAsked,
    AgainDeclined,
    AdjournAsked,
    AdjournDeclined,
    Adjourned,
    Agreed,
    ChatReceived,
    Decision,
    DecisionNeeded,
    DesyncReport,
    GameEnded,
    GameStarted,
    Halted,
    Logged,
    Notice,
    OpenSeatAsked,
    SeatOpened,
    SessionEvent,
    TakeOverAgreed,
    HostChanged,
    result_text,
)
from p2pgames.session._faults import Fault, FaultCode, LocalError, NotAMove, ProtocolFault, ended_reason, odd_one_out
from p2pgames.session._host import STALE_CODES, HostRole, ResumeError
from p2pgames.session._joiner import HOST_CONNECTION, JoinerRole
from p2pgames.session._messages import MAX_ADDRESSES, Envelope, MalformedMessage, clean_text, make_envelope, open_envelope
from p2pgames.session._replica import (
    ESCROW,
    HAND_OVER,
    HOST_SEAT,
    LOCK_ESCROW,
    OPEN_SEAT,
    PROVABLE,
    RANDOM_DOMAIN,
    RELEASE,
    STALE_EVIDENCE,
    TAKE_OVER,
    FORFEIT,
    AuditSub,
    CardPhase,
    CommitPhase,
    DealSub,
    KeysSub,
    DecisionPhase,
    OverPhase,
    Replica,
    SeatInfo,
    Submission,
    display_names,
)
from p2pgames.session._saved import SavedSeat
from p2pgames.session._secrets import SeatSecrets, caretaker_secrets, seal_key_from_seed
from p2pgames.words import duration

if TYPE_CHECKING:  # (how a game is shown: a session is given it, never loads it)
    from p2pgames.engine import Presentation, StandingAnswer

__all__ = ["Session", "History", "HOST_CONNECTION", "STALE_CODES", "ResumeError", "clean_text"]

# A joiner verifies the latest relayed acknowledgement of every seat at least this often (entries).
ACK_CHECKPOINT = 64
# A transcript is written each seat's latest agreeing acknowledgement at least this often
# (entries), and before any record but an entry (§B11): the chain vouches for the ones between.
ACK_RECORD_INTERVAL = 16
# How many requests and answers to adjourn a seat may send in one game (§B18): more can only be a
# flood (each decline starts a new request everyone is asked about).
MAX_ADJOURN_MESSAGES = 20
# How many watchers a host lets follow its table at once, unless told otherwise (§B19).
DEFAULT_WATCHERS = 8


@dataclass(frozen=True)
class History:
    """Frames of the game a session holds anyway — the messages a rejoining joiner missed, the
    entries a joiner gives back to a resumed host — to go out on one connection, in order, after
    what was queued for it before and before what is queued after. The network layer sends them
    as fast as the connection takes them: a whole game's log (megabytes for a long one) never
    waits in a send queue at once, so a queue's bound need not make room for it (§B12)."""

    frames: tuple[bytes, ...]


@dataclass
class _Stop:
    """This process was stopped for ``seconds`` (:meth:`Session.was_stopped`): the seats away
    then (``before``), and once it settled (:meth:`Session.stop_settled`) the seats that went away
    because of it (``gone``)."""

    seconds: float
    before: frozenset[int]
    gone: frozenset[int] | None = None

    def ours(self, away: Iterable[int]) -> list[int]:
        """Of the seats ``away``, those away because this process was stopped, in order."""
        if self.gone is None:
            return sorted(seat for seat in away if seat not in self.before)
        return sorted(seat for seat in away if seat in self.gone)


def _keys_ride_with(body: Mapping[str, Any]) -> bool:
    """Whether a submission body is an act that carries its author's keys (§B5)."""
    return body.get("t") == "act" and ("public" in body or "sealed" in body)


class Session:
    """One peer of a game. See the module docstring for the life cycle and the I/O contract.

    ``game_loader(name)`` returns the :class:`Game` called ``name`` (a joiner learns the game from
    the host). The host passes ``ruleset``. ``expected_host`` is the host key fingerprint from a join
    code: a host whose key doesn't match is refused. ``random_bytes`` supplies every secret.
    ``presentation(name)`` returns the :class:`Presentation` of the game called ``name``: a
    session given it narrates every entry for a person (:class:`Logged`), describes decisions
    (:meth:`decision`), reads typed moves (:meth:`parse_move`) and keeps standing answers; one
    without it (bots, tests of the protocol) loads and does none of that, only the rules.

    ``saved`` takes a joiner's seat again after a restart: the session asks the host to rejoin
    instead of joining (a host resumes with :meth:`resume_host`).
    """

    def __init__(
        self,
        identity: Identity,
        name: str,
        game_loader: Callable[[str], Game],
        *,
        ruleset: Ruleset | None = None,
        bot: bool = False,
        expected_host: str | None = None,
        random_bytes: Callable[[int], bytes] = os.urandom,
        presentation: Callable[[str], Presentation] | None = None,
        saved: SavedSeat | None = None,
        open_seat_bot: str | None = None,
        watchers: int = DEFAULT_WATCHERS,
        watcher_chat: bool = False,
        protocol: int = PROTOCOL_VERSION,
    ) -> None:
        self.identity = identity
        # The protocol this peer speaks (§A4): this version's, or the lock deck's where asked
        # (its tests, the bench, a game saved at it).
        if protocol not in (PROTOCOL_VERSION, LOCK_DECK_PROTOCOL):
            raise ValueError(f"this p2pgames speaks protocol {PROTOCOL_VERSION}, not {protocol}")
        self.protocol = protocol
        self._deck_key_record: list[bytes] | None = None
        # A host: how many watchers may follow the table at once (§B19; 0: none), and whether
        # they may chat (their lines passed on to everyone).
        self.max_watchers = watchers
        self.watcher_chat = watcher_chat
        self.name = clean_text(name, 40) or "player"
        self.game_loader = game_loader
        self.is_host = ruleset is not None
        self.ruleset = ruleset
        self.game: Game | None = game_loader(ruleset.game) if ruleset is not None else None
        self.bot = bot
        self.expected_host = expected_host
        self.random_bytes = random_bytes
        self.presentation_loader = presentation
        self._presentation: tuple[Any, Presentation] | None = None  # (for which game and ruleset)
        # Every secret of this seat derives from this seed (see SeatSecrets), so a saved seed
        # brings them all back; the sealing key too, which the start names.
        self.secret_seed = saved.seed if saved is not None else random_bytes(32)
        self.seal_key = seal_key_from_seed(self.secret_seed)
        self.resumed = saved  # the saved seat this session takes again, if any
        if saved is not None and expected_host is None:
            self.expected_host = PublicKey(saved.host_key).fingerprint()
        self.stage = "lobby"
        self.seat: int | None = HOST_SEAT if self.is_host else None
        self.seats: list[SeatInfo] = []
        self.replica: Replica | None = None
        self.secrets: SeatSecrets | None = None
        self.game_id = b""
        self.start_envelope: Envelope | None = None
        self.accepts: dict[int, Envelope] = {}
        self.fault: Fault | None = None
        self.result: GameOver | None = None
        self.rejection: str | None = None  # why we couldn't join (the host refused, or wasn't ours)
        self.rejection_unproven = False  # the refusal came before the host proved its key
        # The fingerprint of a key that answered at the join code's address instead of its host's.
        self.other_host: str | None = None
        # Our rejoin's answer, if the host is not playing our game (gone, §B12): why, in its words.
        self.gone_reason: str | None = None
        self.agreed_through = -1
        self._outgoing: list[tuple[int, bytes]] = []
        # Set by what carries our frames (a node): sends what is queued at once, from inside our
        # own work, or hands back what can't go (see give_back_outgoing). A host calls it once an
        # entry is broadcast, before it makes what the entry made due from itself — a pass, its
        # shares, milliseconds of CPU —, so that the others work on the entry meanwhile rather
        # than after. The same frames in the same order: only sooner.
        self.send_now: Callable[[], None] | None = None
        self._events: list[SessionEvent] = []
        self._transcript: list[bytes] = []
        self._saved: list[bytes] = []
        self._closing: list[int] = []
        self._acks: dict[int, dict[int, tuple[bytes, bytes]]] = {}
        self._unverified_acks: dict[int, Envelope] = {}  # seat -> its latest relayed ack, unchecked
        # Agreeing acknowledgements not in our transcript yet, in the order they came (§B11), and
        # for each seat the last entry its latest agreeing one vouches for (the chain is cumulative).
        self._unwritten_acks: list[tuple[int, Envelope]] = []
        self._vouched: dict[int, int] = {}
        # (seq, seat) -> its first ack of that entry: (entry, state, the ack's bytes). Bytes rather
        # than the parsed envelope, as every ack of the game is kept (§B8).
        self._ack_of: dict[tuple[int, int], tuple[bytes, bytes, bytes]] = {}
        self._unverified_submissions: list[tuple[int, Envelope]] = []  # (author, entry) to check
        self._audits_checked = 0
        self._audits_written = 0  # the audits when acknowledgements were last written (§B11)
        self._own_hashes: dict[int, tuple[bytes, bytes]] = {}
        self._disputed = False
        self._last_decision_key: tuple | None = None
        # Whether another seat has made a move (an act or a commitment) since our last decision
        # was announced: the next one then comes "after others have played" (turn alerts).
        self._others_moved = True
        self._standing_keys: set[Any] = set()  # keys of the standing answers the player gave (stand_by)
        self._consents_due: list[int] = []  # seats the player agreed to open, not yet submitted
        # The player agreed to play on without our host, gone past the grace period: the table
        # is taken over by its successor (§B15, a take-over), us or another seat.
        self.taking_over = False
        self.claiming_forfeit = False  # the player claimed a win by forfeit (§B17), not yet logged
        # Host: the seat our probe for a take-over dialled, and the digest of the rejoin we sent it.
        self._probe: tuple[int, bytes] | None = None
        self._handing_over = False  # the player leaves with a hand-over, sent once it can be
        self._leaving_bot: Any = None  # what decides for us meanwhile
        # The open seats we are caretaker of: each one's secrets (salts) and bot.
        self._caretaking: dict[int, tuple[SeatSecrets, Any]] = {}
        # The kind of bot that plays the open seats we are caretaker of (None: the game's default).
        self.open_seat_bot = open_seat_bot
        # Where we listen, should we have to host the table (set_reach), and where each seat
        # said it can be reached: its latest ``reach`` (§B15).
        self.reach: tuple[tuple[str, int], ...] = ()
        self.reaches: dict[int, Envelope] = {}
        # Seats whose connection is lost (seat -> why); for a joiner, seat 0 when the host is.
        self.away: dict[int, str] = {}
        self.seat_kept = False  # we stopped without the game ending for the others: resumable
        # Adjourning (§B18): the request under way (its number: one more after each decline), the
        # seats that agreed to it, how many requests and answers each seat sent, and whether the
        # game was adjourned (we stopped, our seat kept, to be resumed).
        self.adjourn_proposal = 0
        self.adjourn_votes: set[int] = set()
        self._adjourn_messages: dict[int, int] = {}
        self.adjourned = False
        self._agree_as_bot = False  # a request came that our bot agrees to, once it is passed on
        # Playing again (§B20), once the game is over: the game the request plays next (None: no
        # request), the seats that said yes and those that said no, the seats whose goodbye came
        # after the end, and whether everyone still at the table agreed.
        self.again_game: str | None = None
        self.again_asker: int | None = None
        self.again_votes: set[int] = set()
        self.again_declined: set[int] = set()
        self.left_seats: set[int] = set()
        self.again_agreed: AgainAgreed | None = None
        # This process was stopped long enough to be dropped (was_stopped), until every seat that
        # went away because of it is back.
        self._stopped: _Stop | None = None
        # Chat's limits (§B10): the lobby's, by speaker key, until the game's, by seat (see
        # _begin_starting); and when the frame being handled arrived, which the rate is judged on.
        self.chat_limits = ChatLimits("at this table", own=identity.public_key.raw)
        self._now: float | None = None
        # The lobby as last announced (host) or heard (joiner): who can chat before the start, and
        # the table's random id, which lobby chat carries (so no line is valid at another table).
        self.lobby: list[SeatInfo] = []
        self.table_id = b""  # a host's comes from its fresh sealing key (HostRole.open_table)
        # What only a host does, or only a joiner, is its role's (see the module docstring).
        self.role: HostRole | JoinerRole
        if ruleset is not None:
            self.role = HostRole(self)
            if saved is None:  # a new table (a resumed host replays its transcript instead)
                self.role.open_table()
        else:
            self.role = JoinerRole(self)

    @property
    def presentation(self) -> Presentation | None:
        """How the game at this table is shown (its variant's, once it starts), if this session
        was given a way to load it; else, or while no game is known yet, ``None``."""
        if self.presentation_loader is None or self.game is None or self.ruleset is None:
            return None
        key = (self.game, self.ruleset)
        if self._presentation is None or self._presentation[0] != key:
            shown = self.presentation_loader(self.ruleset.game).for_ruleset(self.ruleset)
            self._presentation = (key, shown)
        return self._presentation[1]

    @classmethod
    def resume_host(
        cls,
        identity: Identity,
        saved: SavedSeat,
        records: Iterable[tuple[str, Any]],
        game_loader: Callable[[str], Game],
        *,
        random_bytes: Callable[[int], bytes] = os.urandom,
        presentation: Callable[[str], Presentation] | None = None,
        bot: bool = False,
    ) -> Session:
        """The host of a game whose process stopped, from its saved seat and its transcript's
        ``records`` (``(kind, value)`` pairs): the game is where the transcript ends, every joiner
        away until it rejoins. Its transcript is produced again from the start
        (:meth:`take_transcript`), to be written in place of the old one.

        Raises :class:`ResumeError` when they can't be resumed: the seat is not this identity's
        host seat, the transcript is another game's or doesn't verify as ours, or the game ended.
        """
        if not saved.is_host:
            raise ResumeError("this saved seat is a joiner's: take it again with p2pgames join")
        if saved.key != identity.public_key.raw:
            raise ResumeError("this game was hosted with another identity (use the --profile you hosted it with)")
        records = list(records)
        starts = [value for kind, value in records if kind == "start"]
        if not starts:
            raise ResumeError("the transcript has no start: the game never began")
        try:
            start = open_envelope(starts[0])
            game = game_loader(saved.game)
            ruleset = game.decode_ruleset(start.body["ruleset"])
        except (MalformedMessage, KeyError, EngineError) as error:
            raise ResumeError(f"the transcript's start can't be read: {error}") from None
        if start.kind != "start" or start.body["game_id"] != saved.game_id:
            raise ResumeError("the transcript is another game's than the saved seat")
        seated = start.body["seats"]
        if not (0 <= saved.seat < len(seated) and seated[saved.seat][0] == identity.public_key.raw):
            raise ResumeError("the transcript's game seats another key than the saved seat's")
        # The game's protocol is its start's: seat records with deck keys are protocol 11's (§A4).
        protocol = PROTOCOL_VERSION if seated and len(seated[0]) == 6 else LOCK_DECK_PROTOCOL
        session = cls(identity, "host", game_loader, ruleset=ruleset, random_bytes=random_bytes,
                      presentation=presentation, bot=bot, saved=saved, protocol=protocol)
        assert isinstance(session.role, HostRole)
        try:
            session.role.restore(start, records)
        except ProtocolFault as problem:
            raise ResumeError(f"the transcript does not replay: {problem.fault.describe(session.names)}") from None
        except (MalformedMessage, CryptoError) as error:
            raise ResumeError(f"the transcript holds a damaged record: {error}") from None
        return session

    def keep_seats_of(self, game_ids: Iterable[bytes]) -> None:
        """Host: ``game_ids`` are games we have a saved seat of, which we may resume. A joiner
        dialling back for one while we host another table is refused (its seat kept), never told
        the game is gone (§B12). Raises :class:`LocalError` for a joiner."""
        if not isinstance(self.role, HostRole):
            raise LocalError("only a host keeps its players' seats")
        self.role.resumable = frozenset(game_ids)

    # -- I/O contract --------------------------------------------------------------------------

    def take_outgoing(self, paced: bool = False) -> list[tuple[int, Any]]:
        """Frames to send, as ``(connection, payload)``, in order. With ``paced``, the frames of
        a run of history come as one :class:`History` in place of its payloads (to be sent as the
        connection takes them)."""
        out, self._outgoing = self._outgoing, []
        if paced:
            return out
        return [
            (connection, payload)
            for connection, item in out
            for payload in (item.frames if isinstance(item, History) else (item,))
        ]

    def give_back_outgoing(self, frames: list[tuple[int, Any]]) -> None:
        """Put ``frames`` (from :meth:`take_outgoing`, in their order) back before whatever was
        queued since: what :attr:`send_now` could not send at once goes with the next frames."""
        self._outgoing[:0] = frames

    def take_events(self) -> list[SessionEvent]:
        out, self._events = self._events, []
        return out

    def take_transcript(self) -> list[bytes]:
        """Transcript records (canonical msgpack each) to append to the file, in order."""
        out, self._transcript = self._transcript, []
        return out

    def take_saved(self) -> list[bytes]:
        """Records to append to this seat's saved file (see :mod:`p2pgames.session._saved`), in
        order; they hold secrets, so the file must be as private as the identity key."""
        out, self._saved = self._saved, []
        return out

    def take_closing(self) -> list[int]:
        """Connections to close once their queued frames are sent."""
        out, self._closing = self._closing, []
        return out

    @property
    def names(self) -> list[str]:
        """The seats' display names, safe to print (a host's start could carry anything)."""
        return display_names(self.seats)

    @property
    def lobby_size(self) -> int:
        """Host: how many seats are taken, its own included (joiners: the seats once started)."""
        return self.role.lobby_size

    @property
    def seated(self) -> bool:
        """Whether we have a seat: at the table, or in the lobby the host last announced."""
        return self.seat is not None or self._lobby_index(self.lobby) is not None

    def _lobby_index(self, lobby: list[SeatInfo]) -> int | None:
        """Our place in ``lobby`` (found by our key), if we are in it."""
        own = self.identity.public_key.raw
        return next((index for index, info in enumerate(lobby) if info.key.raw == own), None)

    @property
    def host_fingerprint(self) -> str | None:
        """The fingerprint of the host's key (ours when hosting; a joiner's once the host said hello)."""
        return self.role.host_fingerprint

    @property
    def finished(self) -> bool:
        return self.stage in ("over", "halted", "closed")

    @property
    def knowledge(self) -> dict[int, str]:
        if self.secrets is None:
            return {}
        return {slot: name for slot, name in self.secrets.knowledge.items() if name}

    def status(self) -> str:
        """One line for a person: what the table is doing or waiting for right now."""
        if self.stage == "lobby":
            if self.seated and self.ruleset is not None:
                return f"waiting for players ({len(self.lobby)} of {self.ruleset.players} seated)"
            return "joining the table"
        if self.stage == "starting":
            return "waiting for everyone to accept the table"
        if self.stage == "over" and self.result is not None:
            return "game over: " + self._result_text(self.result)
        if self.stage == "halted" and self.fault is not None:
            return "stopped: " + self.fault.describe(self.names)
        if self.stage == "closed":
            return "left the table"
        replica = self.replica
        assert replica is not None
        waiting = replica.waiting_for()
        if self._replaying:
            return self.role.replay_status()
        missing = self.awaited_away()
        if missing == (self.host_seat,) and not self.is_host:  # (only a joiner's host is ever away to it)
            return f"waiting for the host, {self._host_name()}, to come back"
        if missing:
            return f"waiting for {' and '.join(self.names[seat] for seat in missing)} to reconnect"
        people = sorted(waiting, key=lambda seat: seat != self.seat)  # "you" first
        named = ["you" if seat == self.seat else self.names[seat] for seat in people]
        who = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
        phase = replica.phase
        if isinstance(phase, DecisionPhase):
            return f"{who} to move: {phase.step.prompt}"
        if isinstance(phase, CommitPhase):
            if phase.purpose == "random":
                return "drawing lots"
            if not phase.opening:
                return f"waiting for {who} to choose ({replica.step.prompt})"  # type: ignore[union-attr]
            return "revealing everyone's choices"
        if isinstance(phase, CardPhase):
            current = phase.current
            if isinstance(current, DealSub):
                return f"shuffling and locking the cards ({who})"
            if isinstance(current, KeysSub):
                return f"dealing and revealing cards ({who})"
            if isinstance(current, AuditSub):
                return f"auditing the deal: everyone publishes their keys ({who})"
        return "working"

    def waiting_for(self) -> tuple[int, ...]:
        """Seats the game waits for now (empty outside play)."""
        if self.stage != "playing" or self.replica is None:
            return ()
        gathering = self.role.awaited()  # a resumed host waits for its joiners first
        return self.replica.waiting_for() if gathering is None else gathering

    def waiting_on_decision(self) -> bool:
        """Whether what the table waits for now is a person's decision (people may think as long
        as they like): never while a resumed host gathers its joiners."""
        return self.replica is not None and self.role.awaited() is None and self.replica.waiting_on_decision()

    def awaited_away(self) -> tuple[int, ...]:
        """The seats that are away and that the table waits for now: a joiner's host while it is
        away (nothing goes on without it), else the away seats the game waits for; empty outside
        play. What :meth:`status` names, and a user interface times."""
        if self.stage != "playing":
            return ()
        if not self.is_host and self.host_seat in self.away:  # a joiner's host
            return (self.host_seat,)
        return tuple(seat for seat in self.waiting_for() if seat in self.away)

    def _send(self, connection: int, envelope: Envelope | bytes) -> None:
        self._outgoing.append((connection, envelope.raw if isinstance(envelope, Envelope) else envelope))

    def _send_history(self, connection: int, frames: Iterable[bytes]) -> None:
        """Send ``frames``, which this session keeps anyway, as a :class:`History`."""
        self._outgoing.append((connection, History(tuple(frames))))

    def note_clocks(self, seconds: Sequence[int]) -> None:
        """Write each seat's thinking time (whole seconds, by seat, as this peer's user interface
        timed it) in our transcript's notes: never sent nor signed, the writer's word (SPEC
        §B11). Nothing before the game's start is written. Raises :class:`ValueError` for
        anything but one non-negative whole number per seat."""
        if self.replica is None or self.seat is None:  # (the transcript begins with the start)
            return
        clocks = list(seconds)
        if len(clocks) != len(self.seats) or not all(type(value) is int and 0 <= value < 2**32 for value in clocks):
            raise ValueError(f"clocks are {len(self.seats)} whole numbers of seconds, not {clocks!r}")
        self._record("notes", {"clocks": clocks})

    def _record(self, kind: str, value: Any) -> None:
        if kind not in ("entry", "acks"):
            self._write_acks()  # (a record that stops, ends or interrupts the game: every ack before it)
        self._transcript.append(canonical.encode([kind, value]))

    def _write_acks(self) -> None:
        """Write the agreeing acknowledgements held back (§B11): each seat's latest, and every one
        of an entry not everyone has agreed on yet (it may be a desync's evidence). The others are
        vouched for by these: an acknowledgement of entry *n* accepts the chain up to it."""
        held, self._unwritten_acks = self._unwritten_acks, []
        latest = {seat: envelope.body["seq"] for seat, envelope in held}
        items = [
            ack_item(seat, envelope, self.replica.logged(envelope.body["seq"]))  # type: ignore[union-attr]
            for seat, envelope in held
            if envelope.body["seq"] == latest[seat] or envelope.body["seq"] > self.agreed_through
        ]
        for start in range(0, len(items), MAX_ACKS):
            self._transcript.append(canonical.encode(["acks", items[start:start + MAX_ACKS]]))

    def _emit(self, event: SessionEvent) -> None:
        self._events.append(event)

    # -- connections ---------------------------------------------------------------------------

    def connected(self, connection: int) -> None:
        """A connection opened (host: a joiner dialled in; joiner: we reached the host)."""
        self.role.connected(connection)

    def disconnected(self, connection: int, reason: str = "connection closed") -> None:
        """A connection closed or failed."""
        self.role.disconnected(connection, reason)

    @property
    def reconnecting(self) -> bool:
        """Joiner: whether a lost connection to the host should be dialled again (the game has
        begun, or we are taking a saved seat again, and it hasn't ended)."""
        return self.role.reconnecting

    def _host_name(self) -> str:
        return self.names[self.host_seat] if self.seats else "the host"

    @property
    def host_seat(self) -> int:
        """The seat that hosts the table now (sequences the log): seat 0, or the successor a
        host that left handed the log to (§B15)."""
        return self.replica.sequencer if self.replica is not None else HOST_SEAT

    def protocol_violation(self, connection: int, code: str, reason: str) -> None:
        """The network layer saw a framing error (``code`` oversize/malformed) on ``connection``."""
        seat = self.seat_of_connection(connection)
        if seat is None:  # a host's caller not yet seated (only a host has those): nothing is at stake
            self.role.hang_up(connection)  # type: ignore[union-attr]
            return
        self._halt(Fault(seat, code, f"{self._who(seat)} {reason}", self._seq()))

    def peer_unresponsive(self, seat: int, waited: str) -> None:
        """The network layer gave up waiting for ``seat`` (it sends nothing, or not what is due).

        Not a verdict: its connection is dropped and the seat is away — a joiner may rejoin; a
        joiner whose host went quiet dials it again. Only the players, after a grace period, end
        a game for a seat that doesn't come back (:meth:`end_game`).
        """
        if self.finished:
            return
        connection = self.connection_of(seat)
        if connection is None:
            return
        self._closing.append(connection)
        self.disconnected(connection, f"stopped answering: {waited}")

    def ping(self, connection: int, nonce: int) -> None:
        """Queue a ping on ``connection`` (the peer answers with a pong; both keep the line alive)."""
        self._send(connection, make_envelope(self.identity, "ping", {"nonce": nonce}))

    def is_watcher(self, connection: int) -> bool:
        """Host: whether ``connection`` is a watcher's (§B19): greeted, seated nowhere."""
        return isinstance(self.role, HostRole) and connection in self.role.watchers

    def seat_of_connection(self, connection: int) -> int | None:
        """The seat at the other end of ``connection`` (the host's is seat 0 for a joiner)."""
        return self.role.seat_of_connection(connection)

    def connection_of(self, seat: int) -> int | None:
        return self.role.connection_of(seat)

    # -- receiving -----------------------------------------------------------------------------

    def receive(self, connection: int, data: bytes, now: float | None = None) -> None:
        """Handle one frame from ``connection``. Never raises for anything a peer can send.

        ``now`` is when it arrived, in seconds on a clock that never goes back (the network
        layer's): a host judges the rate of the chat it relays on it (§B10). Without it (a test
        with no time) the rate is not judged, only chat's totals."""
        self._now = now
        if self.stage == "closed" or (self.stage == "halted" and self.start_envelope is None):
            return  # stopped before a game began: nothing left to do, nor a transcript to keep
        try:
            envelope = open_envelope(data)
        except MalformedMessage as error:
            self._bad_frame(connection, f"sent a malformed message: {error}")
            return
        kind = envelope.kind
        if kind == "ping":
            self._send(connection, make_envelope(self.identity, "pong", {"nonce": envelope.body["nonce"]}))
            return
        if kind == "pong":
            return
        try:
            self.role.receive(connection, envelope)
        except ProtocolFault as fault:
            self._halt(fault.fault)

    def _bad_frame(self, connection: int, reason: str, code: str = FaultCode.MALFORMED) -> None:
        seat = self.seat_of_connection(connection)
        if seat is None:  # a host's caller not yet seated (only a host has those): refuse it
            self.role.reject(connection, reason)  # type: ignore[union-attr]
            return
        if self.finished:
            return
        self._halt(Fault(seat, code, f"{self._who(seat)} {reason}", self._seq()))

    def _verify_from_seat(self, envelope: Envelope, seat: int) -> None:
        if envelope.sender != self.seats[seat].key.raw:
            raise ProtocolFault(Fault(seat, FaultCode.BAD_SIGNATURE, f"{self._who(seat)} sent a message with another key", self._seq()))
        try:
            envelope.verify(self.seats[seat].key)
        except (BadSignature, MalformedMessage) as error:
            raise ProtocolFault(Fault(seat, FaultCode.BAD_SIGNATURE, f"{self._who(seat)} sent a message with a bad signature ({error})", self._seq()))

    def _verify_relayed(self, envelope: Envelope, seat: int) -> None:
        """Check the signature of a message the host relayed in ``seat``'s name. The host verifies
        every message before relaying it, so one that does not verify is the host's doing."""
        try:
            envelope.verify(self.seats[seat].key)
        except (BadSignature, MalformedMessage) as error:
            raise ProtocolFault(Fault(
                self.host_seat, FaultCode.BAD_SIGNATURE,
                f"the host relayed a message in {self._who(seat)}'s name that it did not sign ({envelope.kind}: {error})",
                self._seq(),
            ))

    def _seat_of_sender(self, envelope: Envelope) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.key.raw == envelope.sender:
                return index
        return None

    # -- starting ------------------------------------------------------------------------------

    def deck_key_record(self) -> list[bytes]:
        """``[deck key, key proof]`` of ours (§A4), at protocol 11; ``[]`` before it."""
        if self.protocol == LOCK_DECK_PROTOCOL:
            return []
        if self._deck_key_record is None:
            self._deck_key_record = deck_key_record(self.secret_seed, self.identity.public_key.raw)
        return self._deck_key_record

    def _begin_starting(self, start: Envelope) -> None:
        assert self.game is not None and self.ruleset is not None and self.seat is not None
        self.start_envelope = start
        self.game_id = start.body["game_id"]
        self.stage = "starting"
        self.game = self.game.for_ruleset(self.ruleset)  # a variant may be a game of its own
        self.replica = Replica(self.game, self.ruleset, self.game_id, self.seats, start.digest)
        self.secrets = SeatSecrets(self.seat, self.seal_key, self.secret_seed)
        self.chat_limits = ChatLimits("in this game", own=self.seat)  # the lobby's lines count for nothing here
        if self.resumed is None:
            self._saved.append(SavedSeat.header(
                self.game.name, self.game_id, self.seat, self.identity.public_key.raw, self.secret_seed, start.sender,
            ))
        else:
            for phase_id, value in self.resumed.choices.items():
                self.secrets.restore_choice(phase_id, value)
            for raw in self.resumed.reaches:
                self._take_saved_reach(raw)
        self._record("header", {
            "format": "p2pgames-transcript",
            "version": 1,
            "game": self.game.name,
            "seat": self.seat,
        })
        self._record("start", start.raw)
        self._emit(GameStarted(self.seat, tuple(self.names), self.ruleset))

    def _take_accept(self, seat: int, envelope: Envelope, relayed: bool = False) -> None:
        body = envelope.body
        if self.start_envelope is None or body["start"] != self.start_envelope.digest or body["game_id"] != self.game_id:
            if relayed:  # the host checks an accept before relaying it: this one it should have refused
                raise ProtocolFault(Fault(self.host_seat, FaultCode.ILLEGAL, f"the host relayed an accept by {self._who(seat)} of a different start", self._seq()))
            raise ProtocolFault(Fault(seat, FaultCode.ILLEGAL, f"{self._who(seat)} accepted a different start", self._seq()))
        if seat in self.accepts:
            return
        self.accepts[seat] = envelope
        self._record("accept", envelope.raw)

    def _maybe_begin(self) -> None:
        if self.stage == "starting" and len(self.accepts) == len(self.seats):
            self.stage = "playing"
            if not self._replaying and self.is_host:
                self._tell_reach()  # (a joiner told it before its accept)
            self._pump()

    # -- applying entries ----------------------------------------------------------------------

    def _seq(self) -> int:
        return self.replica.seq if self.replica is not None else 0

    def _after_apply(self, applied: Any) -> None:
        replica = self.replica
        secrets = self.secrets
        assert replica is not None and secrets is not None
        submission = applied.submission
        if submission.seat != self.seat and submission.kind in ("act", "commit"):
            self._others_moved = True
        if submission.kind == "keys" or _keys_ride_with(submission.body):
            problem = secrets.absorb_keys(replica, submission, applied.seq)
            if problem is not None:
                self._halt(problem)
                return
        elif submission.kind in (ESCROW, LOCK_ESCROW, RELEASE):
            if submission.kind == ESCROW:
                problem = secrets.absorb_escrow(replica, submission.seat, applied.seq)
            elif submission.kind == RELEASE:
                problem = secrets.absorb_release(replica, submission, applied.seq)
            else:
                problem = secrets.absorb_lock_escrow(replica, submission.seat, submission.body["deal"], applied.seq)
            if problem is not None:
                self._halt(problem)
                return
        if applied.key_slots:
            # A hand-over's keys (the leaver's hand is everyone's to see now; they were checked as
            # they came), or slots a card step showed us — also those that needed no key released
            # (the viewer holds the only one: a deal among the one seat still playing).
            problem = secrets.learn(replica, applied.key_slots)
            if problem is not None:
                self._halt(problem)
                return
        if self.presentation is not None:
            shown, names, seat = self.presentation, self.names, self.seat
            knowledge = self.knowledge  # with what this entry's keys just showed us
            lines: list[str] = []
            private: list[str] = []
            for before, event, after in applied.events:
                lines.extend(shown.narrate(before, event, after, names))
                if seat is not None:
                    private.extend(shown.narrate_private(before, event, after, seat, knowledge, names))
            if lines or private:
                self._emit(Logged(applied.seq, tuple(lines), tuple(private)))
        if submission.kind in (OPEN_SEAT, HAND_OVER, TAKE_OVER):
            self._seat_opening(applied)
        for deal, slots in applied.retired.items():
            secrets.forget_deal(deal, slots)
        self._acknowledge(applied.seq, applied.entry_digest, replica.state_hash)
        if submission.kind == HAND_OVER and submission.body["successor"] is not None:
            # After our acknowledgement of it, which the table needs from us as a joiner.
            self._host_changed(submission.seat, submission.body["successor"], applied.seq)
        elif submission.kind == TAKE_OVER:
            self._host_changed(replica.sequencers[-2][1], submission.seat, applied.seq, taken=True)  # (the one before it)
        if isinstance(replica.phase, OverPhase) and self.stage == "playing":
            self.stage = "over"
            self.result = replica.phase.result
            self._record("end", {
                "scores": list(self.result.scores),
                "winners": list(self.result.winners),
                "summary": self.result.summary,
            })
            self._emit(GameEnded(self.result, self._result_text(self.result)))
            return
        if not self._maybe_dispute():
            self._pump()

    def _recall_own_choice(self, entry: Envelope) -> None:
        """Before we replay ``entry`` (our transcript's, a catch-up's, one given back): if it holds
        our commitment to a choice, check that the value we saved opens it — or, lost with the
        log (a full disk keeps neither), find it again among the step's legal actions, and save it
        again: we will have to open it. Raises :class:`ProtocolFault` naming us when no action
        we can list commits to it (a step with too many to list)."""
        replica, secrets, game = self.replica, self.secrets, self.game
        assert replica is not None and secrets is not None and game is not None
        phase = replica.phase
        if not isinstance(phase, CommitPhase) or phase.opening or phase.purpose == RANDOM_DOMAIN:
            return
        try:
            inner = open_envelope(entry.body["submission"])
            body = inner.body.get("body")
            if inner.kind != "submit" or inner.body["seat"] != self.seat or not isinstance(body, dict) or body.get("t") != "commit":
                return
            inner.verify(self.identity.public_key)  # ours indeed (else the replay says whose fault)
        except (MalformedMessage, BadSignature):
            return
        saved = secrets.choices.get(phase.phase_id)

        def listed() -> Iterator[Any]:
            for action in game.legal_actions(replica.state, self.seat, self.knowledge):  # type: ignore[arg-type]
                yield game.encode_action(action)

        value = secrets.recall_choice(replica, body.get("commitment"), listed)
        if value is None:
            raise ProtocolFault(Fault(
                self.seat, FaultCode.DISCONNECTED,
                f"{self._who(self.seat)} lost the choice it committed to in entry {replica.seq} (its saved seat does "
                "not hold it) and can't find it again, so it can't open it",
                replica.seq,
            ))
        if value != saved:
            self._saved.append(SavedSeat.choice(phase.phase_id, value))

    def _maybe_dispute(self) -> bool:
        """Dispute a card given to us that does not decrypt (once); whether we did."""
        replica, secrets = self.replica, self.secrets
        assert replica is not None and secrets is not None
        if self._replaying:
            return False  # the entries still to come may hold the dispute already
        bad = secrets.undecryptable()
        if bad and self.stage == "playing" and not self._disputed and self.role.in_flight is None:
            phase = replica.phase
            if not (isinstance(phase, CardPhase) and phase.dispute is not None):
                # Every key matched its verifier, yet the card is no card: some lock or shuffle
                # pass was wrong. Ask for the audit that will say whose (once).
                self._disputed = True
                self._submit({"t": "dispute", "slot": bad[0], "reason": "a card given to me does not decrypt"})
                return True
        return False

    def _result_text(self, result: GameOver) -> str:
        return result_text(result, self.names, self.replica.open_seats if self.replica is not None else {})

    def _acknowledge(self, seq: int, entry_digest: bytes, state_hash: bytes) -> None:
        """Say which state we reached after entry ``seq`` (the host's entries say it for it)."""
        assert self.seat is not None
        self._own_hashes[seq] = (entry_digest, state_hash)
        self.role.acknowledge(seq, entry_digest, state_hash)

    def _ack_is_news(self, seat: int, envelope: Envelope) -> bool:
        """Whether the host relays ``seat``'s acknowledgement (§B8): not if it repeats the seat's
        earlier one of that entry, nor if the entry is not in our log (nobody honest acknowledges
        one before it was sent to everyone); one of another game, or one that contradicts the
        earlier, is — the others must see it to reach the same verdict."""
        body = envelope.body
        if body["game_id"] != self.game_id:
            return True
        earlier = self._ack_of.get((body["seq"], seat))
        return body["seq"] < self._seq() and (earlier is None or earlier[:2] != (body["entry"], body["state"]))

    def _take_ack(self, seat: int, envelope: Envelope, verified: bool = True) -> None:
        """Record seat's acknowledgement of an entry and check agreement. One of an entry not in
        our log is kept nowhere (§B8): so no peer can make us hold acks of entries that don't exist.

        A joiner does not verify the signature of every relayed acknowledgement at once: one that
        agrees with our own hash is kept as that seat's latest, and the latest of each seat is
        verified at checkpoints (every :data:`ACK_CHECKPOINT` entries, after each audit, at the
        end). The chain of entry hashes is cumulative, so a valid acknowledgement of entry *n*
        vouches for everything before it; a forgery (which only the host could relay) is caught
        at the next checkpoint. One that disagrees is verified before it is believed.
        """
        body = envelope.body
        if body["game_id"] != self.game_id:
            if not verified:
                self._verify_relayed(envelope, seat)
            raise ProtocolFault(Fault(seat, FaultCode.REPLAY, f"{self._who(seat)} acknowledged an entry of another game", self._seq()))
        seq = body["seq"]
        if seq >= self._seq():
            return  # an entry we never applied (not sent yet, or we stopped): kept nowhere
        earlier = self._ack_of.get((seq, seat))
        if earlier is not None:
            if earlier[:2] != (body["entry"], body["state"]):
                self._contradicting_ack(seat, open_envelope(earlier[2]), envelope)
            return  # the same acknowledgement again (a joiner back from a restart makes them again)
        self._ack_of[(seq, seat)] = (body["entry"], body["state"], envelope.raw)
        if seq <= self.agreed_through:
            return
        if self._own_hashes.get(seq) == (body["entry"], body["state"]):
            self._unwritten_acks.append((seat, envelope))  # (written with the next checkpoint, §B11)
            self._vouched[seat] = max(self._vouched.get(seat, -1), seq)
            if len(self._unwritten_acks) >= ACK_RECORD_INTERVAL * len(self.seats):
                self._write_acks()  # (agreement stalls, a seat away: what is held stays bounded)
        else:  # one that disagrees, or of an entry we have not checked yet: written at once
            self._record("acks", [ack_item(seat, envelope, self.replica.logged(seq))])  # type: ignore[union-attr]
        if not verified:
            self._unverified_acks[seat] = envelope
        self._note_hashes(seat, seq, body["entry"], body["state"])

    def _contradicting_ack(self, seat: int, earlier: Envelope, later: Envelope) -> None:
        """``seat`` acknowledged entry ``seq`` a second time, differently (§B8). An honest seat
        acknowledges an entry again only after a restart, and then as before: one log gives one
        state. Two states for the same entry digest are its signed equivocation; two different
        entry digests may be the host's doing (it sent two entries ``seq``): that names nobody.
        Raises :class:`ProtocolFault`."""
        if self.finished:
            return
        for ack in (earlier, later):  # a joiner checks relayed acknowledgements lazily: not these
            self._verify_relayed(ack, seat)  # (one "of ours" the host passed on may be forged)
        seq = later.body["seq"]
        if later.body["entry"] == earlier.body["entry"]:
            raise ProtocolFault(Fault(
                seat, FaultCode.EQUIVOCATION, f"{self._who(seat)} acknowledged entry {seq} twice, with two different states",
                self._seq(), None, (earlier.raw, later.raw),
            ))
        raise ProtocolFault(Fault(
            None, FaultCode.DESYNC,
            f"{self._who(seat)} acknowledged two different entries {seq}: the host sent it two, or it misstates "
            "what it got; no signature says which",
            seq,
        ))

    def _note_hashes(self, seat: int, seq: int, entry_digest: bytes, state_hash: bytes) -> None:
        if seq > self.agreed_through:
            self._acks.setdefault(seq, {})[seat] = (entry_digest, state_hash)
            self._check_agreement()

    def _verify_latest_acks(self) -> None:
        """Checkpoint: verify each seat's latest unverified acknowledgement (see :meth:`_take_ack`)
        and every submission whose signature was left for later (see :meth:`_verify_now`)."""
        submissions, self._unverified_submissions = self._unverified_submissions, []
        for seat, entry in submissions:
            self._verify_submission(seat, entry)
        pending, self._unverified_acks = self._unverified_acks, {}
        for seat, envelope in pending.items():
            self._verify_relayed(envelope, seat)

    def _verify_submission(self, seat: int, entry: Envelope) -> None:
        """Check the signature of ``seat``'s submission inside the host's ``entry``, left for
        later (see :meth:`JoinerRole._verify_now`); raises :class:`ProtocolFault`."""
        try:
            open_envelope(entry.body["submission"]).verify(self.seats[seat].key)
        except (BadSignature, MalformedMessage):
            raise ProtocolFault(Fault(
                self.replica.sequencer_at(entry.body["seq"]), FaultCode.BAD_SIGNATURE,  # type: ignore[union-attr]
                f"the host sequenced a submission in {self._who(seat)}'s name that it did not sign",
                self._seq(), None, (entry.raw,),
            ))

    def _check_agreement(self) -> None:
        while True:
            seq = self.agreed_through + 1
            acks = self._acks.get(seq)
            mine = self._own_hashes.get(seq)
            # An open seat acknowledges nothing (its peer is gone): the seats still playing agree.
            open_seats = self.replica.open_seats if self.replica is not None else {}
            # A seat's agreeing acknowledgement of a later entry vouches for this one (a resumed
            # host's transcript keeps only some of them, §B11).
            acks = {**{seat: mine for seat, last in self._vouched.items() if last >= seq}, **(acks or {})}
            if not acks or mine is None or any(
                seat not in acks for seat in range(len(self.seats)) if seat not in open_seats
            ):
                return
            if all(value == mine for seat, value in acks.items() if seat not in open_seats):
                self._acks.pop(seq, None)
                del self._own_hashes[seq]
                self.agreed_through = seq
                if seq % ACK_RECORD_INTERVAL == 0 or self.replica.audits != self._audits_written or (
                    isinstance(self.replica.phase, OverPhase)
                ):
                    self._audits_written = self.replica.audits
                    self._write_acks()
                if (self._unverified_acks or self._unverified_submissions) and (
                    seq % ACK_CHECKPOINT == 0 or self._checkpoint_due(seq)
                ):
                    try:
                        self._verify_latest_acks()
                    except ProtocolFault as fault:
                        self._halt(fault.fault)
                        return
                self._emit(Agreed(seq))
                continue
            # Believe a disagreement only from signatures that verify.
            try:
                self._verify_latest_acks()
            except ProtocolFault as fault:
                self._halt(fault.fault)
                return
            self._desync(seq, acks)
            return

    def _checkpoint_due(self, seq: int) -> bool:
        replica = self.replica
        assert replica is not None
        due = replica.audits != self._audits_checked or (
            seq == replica.seq - 1 and isinstance(replica.phase, OverPhase)
        )
        self._audits_checked = replica.audits
        return due

    def _desync(self, seq: int, acks: dict[int, tuple[bytes, bytes]]) -> None:
        groups: dict[tuple[bytes, bytes], list[int]] = {}
        for seat, value in sorted(acks.items()):
            groups.setdefault(value, []).append(seat)
        culprit = odd_one_out(acks)
        described = "; ".join(
            f"{', '.join(self.names[s] for s in seats)}: {value[1].hex()[:16]}" for value, seats in groups.items()
        )
        assert self.replica is not None and self.game is not None
        self._emit(DesyncReport(seq, {
            "seq": seq,
            "hashes": [[seat, value[0], value[1]] for seat, value in sorted(acks.items())],
            "seat": self.seat,
            "state": self.game.encode_state(self.replica.state),
        }))
        self._halt(Fault(culprit, FaultCode.DESYNC, f"peers disagree about the state after entry {seq} ({described})", seq))

    # -- submitting ----------------------------------------------------------------------------

    def _submit(self, body: dict, decision: bool = False, seat: int | None = None) -> None:
        """Send ``body`` as our seat's submission, or (caretaker) as open seat ``seat``'s."""
        replica = self.replica
        assert replica is not None and self.seat is not None
        seat = self.seat if seat is None else seat
        envelope = make_envelope(self.identity, "submit", {
            "game_id": self.game_id,
            "seat": seat,
            "counter": replica.counters[seat],
            "based_on": replica.seq,
            "body": body,
        })
        submission = Submission(envelope, seat, replica.counters[seat], body)
        if body["t"] == "commit" and decision:
            # Saved before it leaves: after a restart we must still be able to open it.
            phase_id = replica.phase.phase_id  # type: ignore[union-attr]
            self._saved.append(SavedSeat.choice(phase_id, self.secrets.choices[phase_id]))  # type: ignore[union-attr]
        self.role.submit(submission, decision)

    def keep_to_move(self, flight: Submission) -> bool:
        """Our move ``flight`` was called stale: if our keys of the cards it shows rode with it
        (§B5), the host has seen them, so we keep to it — sent again while it is still legal, as
        the same action with the keys that ride with it now. A host that calls a move stale to see
        a card, and have another played, sees the card played. Whether it went again."""
        replica, secrets = self.replica, self.secrets
        if (not _keys_ride_with(flight.body) or replica is None or secrets is None or self.stage != "playing"
                or self.seat not in replica.waiting_for()):
            return False
        try:
            replica.game.check_action(replica.state, self.seat, replica.game.decode_action(flight.body["action"]))
        except (IllegalAction, MalformedAction, EngineError):
            return False
        self._emit(Notice("the host called your move too late, but has seen the cards it shows: it is sent again"))
        self._submit(secrets.choose(replica, flight.body["action"]), decision=True)
        return True

    def _move_keys_in_flight(self) -> bool:
        """Whether our move in flight carries our keys of the cards it shows (§B5): until it is
        in the log, we agree to adjourn nothing (the host could stop with them seen, §B18)."""
        flight = self.role.in_flight
        return flight is not None and _keys_ride_with(flight.body)

    @property
    def _replaying(self) -> bool:
        """Applying entries that are history (a catch-up, or a host's own transcript): we owe
        nothing and decide nothing until we are at the head of the log."""
        return self.role.replaying

    @property
    def in_touch(self) -> bool:
        """Whether the game is on here and we are with the table: a host, or a joiner connected
        to its host and caught up on the log."""
        return self.replica is not None and self.role.in_touch

    def _pump(self) -> None:
        """Send whatever automatic submission is due; announce a decision if one is ours."""
        if self._agree_as_bot and not self._move_keys_in_flight():
            self._adjourn_settled()  # (held back while our move's keys were on their way)
        if self.stage != "playing" or self.role.in_flight is not None or self._replaying:
            return
        replica, secrets = self.replica, self.secrets
        assert replica is not None and secrets is not None
        try:
            body = secrets.duty(replica)
        except ProtocolFault as problem:  # the previous pass gave us values that are no points
            self._halt(problem.fault)
            return
        if self.claiming_forfeit and self._sequencing:
            self._submit({"t": FORFEIT})  # (before our duties: it ends the game)
            return
        if body is not None:
            self._submit(body)
            return
        if self._handing_over:
            body = self._hand_over_body()
            if body is not None:
                self._submit(body)
            elif self._care_for_open_seats():
                pass  # (an open seat we play may owe what the hand-over waits for: an opening)
            elif self._decision_due(by_bot=True):
                # The player has gone; until the hand-over can go, a bot decides for our seat.
                if self._leaving_bot is None:
                    self._leaving_bot = self._new_bot(self.secret_seed + b"leaving")
                replica = self.replica
                action = self._leaving_bot.choose(self.game, replica.state, self.seat, self.knowledge, replica.step)
                self._submit(self.secrets.choose(replica, self.game.encode_action(action)), decision=True)  # type: ignore[union-attr]
            return  # the player decides nothing more
        if self._consents_due:
            body = self._consent_body(self._consents_due.pop(0))
            if body is not None:
                self._submit(body)
                return
        for seat in sorted(replica.rebuilding):
            # A seat opened to be rebuilt (every seat agreed): our shares of its escrow — again
            # if the cards moved since we gave them.
            if self.seat in replica.escrows[seat].holders and (
                self.seat not in replica.rebuild_shares.get(seat, {}) or replica.rebuild_shares_stale(self.seat, seat)
            ):
                self._submit(secrets.rebuild_body(replica, seat))
                return
        holders = replica.escrow_holders_due(self.seat)
        if holders is not None:
            # Our escrow (§B16): at the start, and again when a seat it names has opened.
            self._submit(secrets.escrow_body(replica, holders))
            return
        for deal, holders in replica.lock_escrows_due(self.seat):
            # Our lock keys' escrow: as soon as the deal begins, ahead of our locking pass — but
            # not while our shuffle or re-key pass is next but for the host's own (sequenced at
            # once): in flight, the escrow would hold that pass back a round trip (§B3: one
            # submission at a time), and the table waits for it. It goes right after the pass.
            if self._first_pass_imminent(deal):
                continue
            self._submit(secrets.lock_escrow_body(replica, deal, holders))
            return
        if self._care_for_open_seats():
            return
        if not self._decision_due():
            return  # nothing due from us: background_work gets ahead on a deal
        step = replica.step
        if isinstance(step, ReactionWindow):
            actions = self.game.legal_actions(replica.state, self.seat, self.knowledge)  # type: ignore[union-attr, arg-type]
            if len(actions) == 1:
                # Nothing to decide (no power, or already used): answer for the player.
                self._submit(secrets.choose(replica, self.game.encode_action(actions[0])), decision=True)  # type: ignore[union-attr]
                return
        if self._standing_keys and self.presentation is not None:
            standing = self.presentation.standing_answer(replica.state, self.seat, self.knowledge)  # type: ignore[union-attr, arg-type]
            if standing is not None and standing.key in self._standing_keys:
                # The player answered this run of decisions already ("not this quarter").
                self._submit(secrets.choose(replica, self.game.encode_action(standing.action)), decision=True)  # type: ignore[union-attr]
                return
        key = self.decision_key()
        if key != self._last_decision_key:
            # Cheap on purpose: this runs before our acknowledgement leaves. Whoever handles the
            # event asks decision() for the actions.
            self._last_decision_key = key
            self._emit(DecisionNeeded(step, after_others=self._others_moved))
            self._others_moved = False

    def _new_bot(self, seed: bytes) -> Any:
        """A bot of the table's kind (:attr:`open_seat_bot`) for a seat no person plays now: ours
        once the player has gone, or an open seat we take care of. Loaded only then, so a session
        that never needs one loads no bot."""
        from p2pgames.bots import bot_for

        return bot_for(self.game, seed, self.open_seat_bot)  # type: ignore[arg-type]

    def _care_for_open_seats(self) -> bool:
        """Caretaker: submit what an open seat owes now — its bot's decision, or the opening of
        a choice it committed to. Whether we submitted one."""
        replica = self.replica
        assert replica is not None and self.game is not None
        if self.seat != replica.caretaker:
            return False
        waiting = replica.waiting_for()
        for seat in sorted(replica.open_seats):
            if seat not in waiting:
                continue
            if seat not in self._caretaking:
                bot = self._new_bot(self.secret_seed + b"caretaker" + bytes([seat]))
                self._caretaking[seat] = (caretaker_secrets(self.secret_seed, seat), bot)
            secrets, bot = self._caretaking[seat]
            phase = replica.phase
            if seat in replica.rebuilding:
                continue  # its moves and card steps wait for its keys: the others' shares
            body = self._rebuilt_seat_duty(seat)
            if body is not None:
                self._submit(body, seat=seat)
                return True
            if (isinstance(phase, CommitPhase) and phase.opening and phase.purpose != RANDOM_DOMAIN
                    and phase.phase_id not in secrets.choices):
                # Committed before we restarted: find the choice again (the salt is derived).
                state, game = replica.state, self.game
                secrets.recall_choice(replica, phase.commitments[seat], lambda: (
                    game.encode_action(action) for action in game.legal_actions(state, seat, self.open_knowledge())
                ))
            body = secrets.duty(replica)
            if (seat in replica.handed_opening and isinstance(phase, CommitPhase) and phase.opening
                    and replica.sealed is not None and phase.phase_id == replica.sealed.phase_id):
                salt, value = replica.handed_opening[seat]  # what the leaver handed over opens it
                body = {"t": "open", "salt": salt, "value": value}
            if body is None and (isinstance(phase, DecisionPhase) or (
                isinstance(phase, CommitPhase) and phase.purpose != RANDOM_DOMAIN and not phase.opening
            )):
                knowledge = self.open_knowledge()
                action = self._caretaker_action(bot, seat, knowledge)
                body = secrets.choose(replica, self.game.encode_action(action))
            if body is not None:
                self._submit(body, seat=seat)
                return True
        return False

    def _caretaker_action(self, bot: Any, seat: int, knowledge: dict[int, str]) -> Any:
        """Open seat ``seat``'s move, its bot's choice — unless that is no legal move (a bot's
        mistake would stop the game in our name, as the caretaker): then the first legal one."""
        replica, game = self.replica, self.game
        assert replica is not None and game is not None
        action = bot.choose(game, replica.state, seat, knowledge, replica.step)
        if isinstance(replica.phase, DecisionPhase):
            try:
                game.check_action(replica.state, seat, action)
            except (IllegalAction, MalformedAction) as error:
                self._emit(Notice(f"the bot playing {self.names[seat]}'s seat chose a move that is not allowed "
                                  f"({error}); it plays the first allowed one instead"))
                action = next(iter(game.legal_actions(replica.state, seat, knowledge)))
        return action

    def _first_pass_imminent(self, deal: int) -> bool:
        """Whether our next pass of ``deal`` is a shuffle or re-key pass that only the host's
        passes precede (so it is due as soon as they are sequenced)."""
        crypto = self.replica.deals.get(deal)  # type: ignore[union-attr]
        if crypto is None:
            return False
        for stage, seat in crypto.pass_order():
            if (stage, seat) in crypto.passes:
                continue
            if seat == self.seat:
                return stage not in LOCKING_STAGES
            if seat != self.host_seat:
                return False
        return False

    def _rebuilt_seat_duty(self, seat: int) -> dict | None:
        """What open seat ``seat``, if its keys were rebuilt (§B16), owes that only its rebuilt
        secret makes: a pass of a deal it holds, or the opening of a choice it committed to
        before it opened (the salt derives from the secret; the value is one of its legal
        actions at this step)."""
        replica, game = self.replica, self.game
        assert replica is not None and game is not None
        escrow = replica.rebuilt.get(seat)
        if escrow is None:
            return None
        phase = replica.phase
        if isinstance(phase, CardPhase) and isinstance(phase.current, DealSub):
            for crypto in replica.deals_under_way(phase.current):
                if replica.elgamal:
                    if crypto.next_pass() == seat:  # (from the pass seed its escrow secret gives, §B16)
                        cards = replica.rebuilt_elgamal_pass(crypto, seat)
                        return {"t": "pass", "deal": crypto.deal, "cards": [[card.nonce, card.masked] for card in cards]}
                    continue
                due = crypto.next_pass()
                if due is not None and due[1] == seat:
                    # Its keys are everyone's: the pass is the one every peer computes for it.
                    values, verifiers = replica.rebuilt_pass(crypto, due[0], seat)
                    return {"t": "pass", "deal": crypto.deal, "stage": due[0], "values": values, "verifiers": verifiers}
            return None
        rebuilt = SeatSecrets(seat, self.seal_key, self.secret_seed, escrow=escrow)  # type: ignore[arg-type]
        if (isinstance(phase, CommitPhase) and phase.opening and phase.purpose != RANDOM_DOMAIN
                and seat in phase.commitments):
            sealed = replica.sealed
            # A sealed choice was one of its legal actions when it was sealed, not now.
            state = sealed.state if sealed is not None and sealed.phase_id == phase.phase_id else replica.state
            found = rebuilt.recall_choice(replica, phase.commitments[seat], lambda: (
                game.encode_action(action) for action in game.legal_actions(state, seat, self.open_knowledge())
            ))
            if found is not None:
                return rebuilt.duty(replica)
        return None

    def open_knowledge(self) -> dict[int, str]:
        """The hidden cards every seat can see: those whose every key is published (an open
        seat's, dealt face up). What an open seat's bot knows — never our own hand."""
        replica, secrets = self.replica, self.secrets
        if replica is None or secrets is None:
            return {}
        known = {}
        for slot, name in secrets.knowledge.items():
            if not name:
                continue
            try:
                crypto, index = replica.deal_of_slot(slot)
            except KeyError:
                continue
            if all(seat in crypto.published[index] for seat in crypto.holders):
                known[slot] = name
        return known

    def open_seat(self, seat: int) -> None:
        """Agree that ``seat`` (away, and holding nothing secret) be played by a bot from now on;
        it is once every other seat still playing agrees (§B14). Raises :class:`LocalError`
        saying why not."""
        replica = self.replica
        if self.stage != "playing" or replica is None or self.seat is None:
            raise LocalError("there is no game going on")
        if not isinstance(seat, int) or not 0 <= seat < len(self.seats):
            raise LocalError(f"there is no seat {seat!r}")
        name = self.names[seat]
        if seat == self.seat:
            raise LocalError("that is your own seat (to leave it to a bot, quit)")
        if seat == self.host_seat and not self.is_host:
            self._agree_to_take_over()
            return
        if seat in replica.open_seats:
            raise LocalError(f"{name}'s seat is played by a bot already")
        if seat not in self.away:
            raise LocalError(f"{name} is at the table: only a player who is away can be replaced by a bot")
        if seat in self._consents_due or self.seat in replica.open_consents.get(seat, ()):
            raise LocalError(f"you have agreed already; waiting for the others to agree about {name}")
        problem = self.play_on_problem(seat)
        if problem is not None:
            raise LocalError(f"{name}'s seat can't be played by a bot now: {problem}")
        self._consents_due.append(seat)
        self._pump()

    def _agree_to_take_over(self) -> None:
        """The player agreed to play on without our host (away past the grace period): the table
        is taken over by its successor (§B15, a take-over) — by us, who claim it and gather the
        others (:meth:`HostRole.claim_table`), or by the seat we consent to once we have rejoined it.
        Raises :class:`LocalError` saying why not."""
        name = self.names[self.host_seat]
        if self.host_seat not in self.away:
            raise LocalError(f"the host, {name}, is at the table: the game goes on with it")
        if self.taking_over:
            raise LocalError("you have agreed already; waiting for the others to agree")
        problem = self.play_on_problem(self.host_seat)
        if problem is not None:
            raise LocalError(f"the table can't play on without its host now: {problem}")
        successor = self.take_over_successor()
        assert successor is not None  # (play_on_problem says so)
        self.taking_over = True
        you = successor == self.seat
        self._emit(TakeOverAgreed(self.host_seat, name, successor, self.names[successor], self.reach_of(successor), you=you))
        if you:
            self.is_host = True  # (before the role: it may go on at once, with nobody to gather)
            self.role = HostRole.claim_table(self, self.role)  # type: ignore[arg-type]
            self.role._go_on_if_gathered()
        else:
            self.role.consent_to_take_over()  # type: ignore[union-attr]

    def claim_forfeit(self, seat: int) -> None:
        """Win by forfeit (§B17): ``seat``, the other player at a two-player table that chose it
        (``Ruleset.forfeit``), has been away past the grace period (the network layer says when).
        The host logs the claim; a joiner whose host is the one gone takes the table to log it,
        as a successor would (it has nobody to gather). The game is over once it is logged.
        Raises :class:`LocalError` saying why not."""
        problem = self.forfeit_problem(seat)
        if problem is not None:
            raise LocalError(problem)
        self.claiming_forfeit = True
        if self._sequencing:
            self._pump()
            return
        if not self.is_host:
            self.is_host = True  # (before the role: it goes on at once, with nobody to gather)
            self.role = HostRole.claim_table(self, self.role)  # type: ignore[arg-type]
        # (Else we claim the table already, our take-over not made: the claim goes instead.)
        self.role._go_on_if_gathered()  # type: ignore[union-attr]

    @property
    def _sequencing(self) -> bool:
        """Whether we sign the log's entries now: the host, not a claimant waiting for its take-over."""
        return self.is_host and getattr(self.role, "claiming", None) is None

    def forfeit_problem(self, seat: int) -> str | None:
        """Why we can't claim a win by forfeit against ``seat`` now, in words, or ``None``."""
        replica = self.replica
        if self.stage != "playing" or replica is None or self.seat is None:
            return "there is no game going on"
        if not replica.ruleset.forfeit:
            return "this table plays no win by forfeit (the host chooses it before the game: --forfeit)"
        if not isinstance(seat, int) or seat == self.seat or not 0 <= seat < len(self.seats):
            return "only the other player's absence can win the game by forfeit"
        if self.claiming_forfeit:
            return "you have claimed it already"
        if seat in replica.open_seats:
            return f"{self.names[seat]}'s seat is played by a bot: the game goes on"
        if seat not in self.away:
            return f"{self.names[seat]} is at the table"
        return None

    # -- an old host that comes back after a take-over (§B15) -------------------------------------

    def take_over_probes(self) -> list[tuple[int, tuple[str, int]]]:
        """Host: where to look whether the others took the table over while we were cut off —
        ``(seat, address)`` for each seat still playing that said where it listens, in the order
        a take-over chooses its successor — once every other seat still playing is away (the
        network layer says when it has been long enough); else nothing."""
        replica = self.replica
        if not self.is_host or self.stage != "playing" or replica is None:
            return []
        others = replica.successor_candidates()
        if not others or any(seat not in self.away for seat in others):
            return []
        return [(seat, address) for seat in others for address in self.reach_of(seat)]

    def probe_hello(self, seat: int, data: bytes) -> bytes | None:
        """The first frame of a connection we dialled at ``seat``'s address (:meth:`take_over_probes`):
        if it is ``seat``'s host hello, in our protocol, the ``rejoin`` to send it (we ask for our
        seat as a joiner would: a seat that took the table over answers ``gone``); else ``None``
        (hang up: nobody there hosts our table)."""
        replica = self.replica
        try:
            envelope = open_envelope(data)
        except MalformedMessage:
            return None
        if (replica is None or envelope.kind != "host-hello" or envelope.body["protocol"] != self.protocol
                or not 0 <= seat < len(self.seats) or envelope.sender != self.seats[seat].key.raw):
            return None
        try:
            envelope.verify(self.seats[seat].key)
        except (BadSignature, MalformedMessage):
            return None
        rejoin = make_envelope(self.identity, "rejoin", {
            "protocol": self.protocol, "game_id": self.game_id, "host": envelope.sender,
            "nonce": envelope.body["nonce"], "have": self._seq(),
        })
        self._probe = (seat, rejoin.digest)
        return rejoin.raw

    def probe_answer(self, seat: int, data: bytes) -> bool:
        """``seat``'s answer to our probe's ``rejoin``: a ``gone`` signed by it and bound to that
        rejoin means the others took the table over while we were away and our seat is a bot's
        (§B15): the game stops here, saying so (nobody's fault), and we return ``True``. Anything
        else proves nothing: ``False`` (hang up; the game waits as before)."""
        probe, self._probe = self._probe, None
        try:
            envelope = open_envelope(data)
        except MalformedMessage:
            return False
        if (probe is None or probe[0] != seat or envelope.kind != "gone" or self.stage != "playing"
                or envelope.sender != self.seats[seat].key.raw
                or (envelope.body["game_id"], envelope.body["rejoin"]) != (self.game_id, probe[1])):
            return False
        try:
            envelope.verify(self.seats[seat].key)
        except (BadSignature, MalformedMessage):
            return False
        why = clean_text(envelope.body["reason"]) or "the others played on without you"
        self._halt(Fault(None, FaultCode.ENDED, (
            f"the others took the table over while this host was away: {self.names[seat]} hosts it now ({why})"
        ), self._seq()), send=False)
        return True

    def take_over_successor(self) -> int | None:
        """The seat that takes the table over should the host be gone for good (§B15): the
        lowest seat playing, not the host, that said where it can be reached; ``None`` if none."""
        replica = self.replica
        if replica is None:
            return None
        return next((seat for seat in replica.successor_candidates() if self.reach_of(seat)), None)

    def take_over_consent(self) -> Envelope:
        """Our signed ``takeover``: that our successor take the table after the log we hold."""
        assert self.replica is not None
        successor = self.take_over_successor()
        assert successor is not None
        return make_envelope(self.identity, "takeover", self.replica.take_over_body(successor))

    def play_on_problem(self, seat: int) -> str | None:
        """Why the table can't play on with a bot in ``seat`` now, in words, or ``None`` if it can:
        as it is, if it holds nothing secret (§B14), or with its keys rebuilt from its escrow (§B16);
        for our host's seat (a joiner's), taken over by its successor (§B15)."""
        replica = self.replica
        if replica is None:
            return "the game has not started"
        if seat == self.host_seat and not self.is_host and seat != self.seat:
            if self.take_over_successor() is None:
                return "nobody else at the table can host it (no other player's address is known)"
            return replica.take_over_problem()
        return replica.departure_problem(seat)

    def _consent_body(self, seat: int) -> dict | None:
        """Our consent to opening ``seat`` (as it is, or to be rebuilt from its escrow: our shares
        follow once everyone agreed), or ``None`` if it no longer fits (the log moved on)."""
        replica = self.replica
        assert replica is not None and self.seat is not None
        if (seat not in self.away or self.seat in replica.open_consents.get(seat, ())
                or self.play_on_problem(seat) is not None):
            return None  # back meanwhile (a consent for a seat at the table would be no one's wish), or moot
        return {"t": OPEN_SEAT, "seat": seat}

    def hand_over(self) -> None:
        """Leave the game, handing our seat to a bot: once nothing stops it (see
        :meth:`Replica.hand_over_problem`; our automatic duties go on meanwhile), we publish every
        key we hold of a deal not yet audited — our hand is shown to everyone — and the opening of
        our sealed choice, if any, in one ``hand-over``; then we leave. Raises :class:`LocalError`
        if it can't be done at all (the game is over, we are the host)."""
        replica = self.replica
        if self.stage != "playing" or replica is None or self.seat is None:
            raise LocalError("there is no game going on")
        if self.is_host and self.successor() is None:
            raise LocalError(
                "nobody else at the table can host it (no other player's address is known): end the game instead"
            )
        self._handing_over = True
        self._pump()

    def hand_over_waits_for(self) -> str | None:
        """While we hand our seat over: what it still waits for, in words (``None``: nothing)."""
        replica = self.replica
        if not self._handing_over or replica is None or self.seat is None or self.stage != "playing":
            return None
        problem = replica.hand_over_problem(self.seat)
        if problem is None and self.is_host and self.successor() is None:
            problem = "a player who can host the table to be back at it"
        return problem

    def successor(self) -> int | None:
        """Host: the seat to hand the log to if we leave now — the first seat still playing, at
        the table now, that told us where it can be reached (§B15) — or ``None``."""
        replica = self.replica
        if replica is None:
            return None
        return next((seat for seat in replica.successor_candidates() if seat not in self.away and self.reach_of(seat)), None)

    def reach_of(self, seat: int) -> tuple[tuple[str, int], ...]:
        """Where ``seat`` said it can be reached (its latest ``reach``), best first."""
        envelope = self.reaches.get(seat)
        return tuple((host, port) for host, port in envelope.body["addresses"]) if envelope is not None else ()

    def set_reach(self, addresses: Iterable[tuple[str, int]]) -> None:
        """Where this seat listens, best first, should it have to host the table (the network
        layer says, before the start); told the table once the game begins, and again when we
        rejoin (§B15)."""
        self.reach = tuple((str(host), int(port)) for host, port in addresses)[:MAX_ADDRESSES]

    def reach_first(self, address: tuple[str, int]) -> None:
        """``address`` is the best place to reach us from now on (the router's, forwarded to
        where we listen, §B15): first in our ``reach``, told the table at once if the game has
        begun (else with the rest, as it begins)."""
        first = (str(address[0]), int(address[1]))
        self.reach = ((first,) + tuple(other for other in self.reach if other != first))[:MAX_ADDRESSES]
        if self.stage == "playing":
            self._tell_reach()

    def _tell_reach(self) -> None:
        """Tell the table where we can be reached (if we listen anywhere)."""
        if not self.reach or self.seat is None or not self.game_id:
            return
        envelope = make_envelope(self.identity, "reach", {
            "game_id": self.game_id, "addresses": [list(address) for address in self.reach],
        })
        self.reaches[self.seat] = envelope
        self.role.tell_reach(envelope)

    def _take_reach(self, seat: int, envelope: Envelope, *, save: bool = True) -> bool:
        """A seat's ``reach`` (signature checked): kept, the latest one per seat, and saved with
        the seat (a restarted host dials them, §B15). Whether it is news (not a repeat of what
        we hold), to pass on."""
        if envelope.body["game_id"] != self.game_id or seat == self.seat:
            return False
        held = self.reaches.get(seat)
        if held is not None and held.body["addresses"] == envelope.body["addresses"]:
            return False
        self.reaches[seat] = envelope
        if save:
            self._saved.append(SavedSeat.reach(envelope.raw))
        return True

    def _take_saved_reach(self, raw: bytes) -> None:
        """A ``reach`` our saved seat kept, taken back if it still reads as one of this game's,
        signed by its seat (a saved seat is a local file: anything else in it is ignored)."""
        try:
            envelope = open_envelope(raw)
            seat = self._seat_of_sender(envelope)
            if envelope.kind != "reach" or seat is None:
                return
            envelope.verify(self.seats[seat].key)
        except (MalformedMessage, BadSignature):
            return
        self._take_reach(seat, envelope, save=False)

    def _host_changed(self, old: int, new: int, seq: int, *, taken: bool = False) -> None:
        """Entry ``seq``: host ``old`` handed the log to ``new``, or ``new`` took it over with
        every remaining seat's consent (``taken``, §B15). The successor becomes the host (a
        :class:`HostRole` that gathers the others, or the claimant that did); the others dial it,
        or are with it already (a take-over's)."""
        if self.seat == old:
            return  # we left the table with it (see _seat_opening)
        claimed = taken and self.seat == new and getattr(self.role, "claiming", None) is not None
        if self.seat == new and self.is_host and not claimed:
            return  # a successor resumed from its transcript replays the entry that made it host
        self._saved.append(SavedSeat.new_host(self.seats[new].key.raw))  # whom to rejoin after a restart
        self.away.pop(old, None)
        self._emit(HostChanged(old, self.names[old], new, self.names[new], self.reach_of(new), you=self.seat == new, taken=taken))
        if claimed:
            return  # our role goes on from the claim (HostRole._take_over_if_agreed)
        if self.seat == new:
            self.is_host = True  # (before the role: it may go on at once, with nobody to gather)
            self.role = HostRole.succeeding(self, self.role)  # type: ignore[arg-type]
        else:
            self.role.follow_host(new)  # type: ignore[union-attr]

    def _hand_over_body(self) -> dict | None:
        """Our ``hand-over``, if we are handing over and nothing stops it now."""
        replica, secrets = self.replica, self.secrets
        assert replica is not None and secrets is not None and self.seat is not None
        if replica.hand_over_problem(self.seat) is not None:
            return None
        deals = [crypto.deal for crypto in replica.unaudited_deals_of(self.seat)]
        body = secrets.audit_body(replica, tuple(deals))
        opening = None
        sealed = replica.sealed
        if sealed is not None and self.seat in sealed.seats:
            ours = secrets._commitment(replica, sealed.phase_id, "choice")
            assert ours is not None  # we sealed it: we saved its value
            opening = [ours.salt, ours.value]
        # The keys others sealed to us of the cards in our keeping (gifts): shown with our hand.
        received = []
        for slot in sorted(self.game.kept_slots(replica.state, self.seat)):  # type: ignore[union-attr]
            crypto, index = replica.deal_of_slot(slot)
            for sender, key in sorted(secrets.received.get(slot, {}).items()):
                if sender in crypto.unreleased[index]:  # (a share with its proof, §B6.3, or a key)
                    received.append([slot, sender, key.share, key.proof] if replica.elgamal else [slot, sender, scalar_to_bytes(key)])
        successor = None
        if self.seat == replica.sequencer:
            successor = self.successor()
            if successor is None:
                return None  # wait for a seat that can host the table to be back
        return {"t": HAND_OVER, "keys": body["keys"], "received": received, "opening": opening, "successor": successor}

    def _seat_opening(self, applied: Any) -> None:
        """After an ``open-seat``, ``hand-over`` or ``take-over`` entry: tell the player who agreed,
        or that the seat is open."""
        replica = self.replica
        assert replica is not None
        submission = applied.submission
        if submission.kind == TAKE_OVER:
            seat = replica.sequencers[-2][1]  # the host it was taken from
        else:
            seat = submission.seat if submission.kind == HAND_OVER else submission.body["seat"]
        name = self.names[seat]
        if seat == self.seat and submission.kind == HAND_OVER:
            # Our own hand-over is in the log: a bot plays our seat now; we leave the table.
            self._emit(SeatOpened(seat, name, applied.seq))
            self.stage = "closed"
            self._closing.extend(self.role.table_connections())
            return
        if replica.open_seats.get(seat) == applied.seq:
            self.away.pop(seat, None)
            self._emit(SeatOpened(seat, name, applied.seq, rebuilt=seat in replica.rebuilding))
            return
        agreed = replica.open_consents.get(seat, set())
        waiting = tuple(self.names[other] for other in replica.playing_seats if other != seat and other not in agreed)
        self._emit(OpenSeatAsked(seat, name, self.names[applied.submission.seat], waiting))

    @property
    def background_due(self) -> bool:
        """Whether :meth:`background_work` may find something to do (cheap; it may still find
        nothing): the node then lets its writers run first, else it need not yield at all."""
        replica = self.replica
        if self.stage != "playing" or replica is None or self.secrets is None or self._replaying:
            return False
        if self.role.in_flight is None and isinstance(replica.phase, CardPhase) and replica.deals:
            return True
        return bool(self._unverified_submissions) and self.agreed_through >= replica.seq - 1

    def background_work(self) -> bool:
        """Do a little of what gets this seat ahead on a deal (its verifiers and lock pass,
        :meth:`SeatSecrets.prepare`), or else, once every entry is agreed, check one submission
        signature left for the next checkpoint (see :meth:`_take_ack`); whether it did any (call again while it does). The
        node calls it once what it had to send is sent, so this never delays a message, and a
        checkpoint then finds little left to check: it no longer stalls the entry that reaches it."""
        replica, secrets = self.replica, self.secrets
        if self.stage != "playing" or replica is None or secrets is None or self._replaying:
            return False
        if self.role.in_flight is None and isinstance(replica.phase, CardPhase) and secrets.prepare(replica):
            return True
        if not self._unverified_submissions or self.agreed_through < replica.seq - 1:
            return False  # not while an entry is on its way round: that would delay it
        seat, entry = self._unverified_submissions.pop(0)
        try:
            self._verify_submission(seat, entry)
        except ProtocolFault as fault:
            self._halt(fault.fault)
        return True

    def _decision_due(self, *, by_bot: bool = False) -> bool:
        """Whether our seat must decide now — the player (or, ``by_bot``, the bot that decides
        for a player handing over while the hand-over must wait)."""
        if (self.stage != "playing" or self.role.in_flight is not None or self.seat is None or self._replaying
                or self._handing_over != by_bot):
            return False
        replica = self.replica
        assert replica is not None
        if self.seat not in replica.waiting_for():
            return False
        phase = replica.phase
        if isinstance(phase, CommitPhase):
            return not phase.opening and phase.purpose == "choice"
        return isinstance(phase, DecisionPhase)

    def decision_key(self) -> tuple[int, int] | None:
        """What names the decision this seat faces now, whatever it is: the log's length and how
        many submissions this seat has made. A new decision has a new key (a move made, or an
        entry taken in, changes it); ``None`` before the game starts or with no seat."""
        replica = self.replica
        if replica is None or self.seat is None:
            return None
        return (replica.seq, replica.counters[self.seat])

    def decision(self, *, texts: bool = True) -> Decision | None:
        """What the local seat must decide now, or ``None``.

        With ``texts=False``, or without a presentation (bots), the actions' descriptions are not
        computed.
        """
        if not self._decision_due():
            return None
        replica = self.replica
        assert replica is not None and self.game is not None
        knowledge = self.knowledge
        actions = tuple(self.game.legal_actions(replica.state, self.seat, knowledge))  # type: ignore[arg-type]
        if not actions:
            return None
        # A sealed choice is committed like a simultaneous one (and opened later, automatically).
        simultaneous = isinstance(replica.step, (Simultaneous, Sealed))
        shown = self.presentation
        if not texts or shown is None:
            return Decision(replica.step, actions, (), simultaneous)
        state, seat, names = replica.state, self.seat, self.names
        described = tuple(shown.describe_action(state, seat, action, knowledge, names) for action in actions)  # type: ignore[arg-type]
        groups = tuple(shown.group_choices(state, seat, actions, described))  # type: ignore[arg-type]
        if all(len(group.members) == 1 for group in groups):
            groups = ()  # nothing grouped: the choices are listed as they are
        warnings = tuple(shown.warnings(state, seat, knowledge, names))  # type: ignore[arg-type]
        standing = shown.standing_answer(state, seat, knowledge)  # type: ignore[arg-type]
        composer = shown.composer(state, seat, knowledge)  # type: ignore[arg-type]
        return Decision(replica.step, actions, described, simultaneous, groups, warnings, standing, composer)

    def stand_by(self, standing: StandingAnswer) -> None:
        """Give ``standing`` (the current decision's standing answer) now, and from now on answer
        every decision whose standing answer has its key with that answer's action, without
        asking. Only this peer knows: the others see ordinary moves. Raises :class:`LocalError`
        if it is not the current decision's."""
        decision = self.decision(texts=False)
        shown = self.presentation
        current = (shown.standing_answer(self.replica.state, self.seat, self.knowledge)  # type: ignore[union-attr, arg-type]
                   if decision and shown is not None else None)
        if current != standing:
            raise LocalError("that answer is not on offer now")
        self._standing_keys.add(standing.key)
        self.act(standing.action)

    def parse_move(self, text: str) -> Any:
        """The action ``text`` names for the local seat's decision now, read by the game's
        :meth:`~p2pgames.engine.Presentation.parse_action`; ``None`` when there is no decision
        now, or when this session has no presentation to read moves with.

        Raises :class:`NotAMove` with the game's reason when ``text`` names no move, and
        :class:`LocalError` with the game's reason when it names a move the rules don't allow
        now. The action returned is checked again by :meth:`act`.
        """
        if not self._decision_due() or self.presentation is None:
            return None
        replica = self.replica
        assert replica is not None
        try:
            return self.presentation.parse_action(replica.state, self.seat, text, self.knowledge, self.names)  # type: ignore[arg-type]
        except IllegalAction as error:
            raise LocalError(error.reason) from None
        except MalformedAction as error:
            raise NotAMove(str(error)) from None

    def act(self, action: Any) -> None:
        """Make the local seat's decision. Raises :class:`LocalError` with a reason to show."""
        decision = self.decision(texts=False)
        if decision is None:
            if self.finished:
                raise LocalError("the game is over")
            raise LocalError("it is not your move")
        replica = self.replica
        assert replica is not None and self.game is not None and self.secrets is not None
        if action not in decision.actions:
            try:
                self.game.check_action(replica.state, self.seat, action)  # type: ignore[arg-type]
            except IllegalAction as error:
                raise LocalError(error.reason) from None
            # Legal though not listed (a step with too many actions to list), or not legal for a
            # reason the player can't see.
            if not self.game.allows(replica.state, self.seat, action, self.knowledge):  # type: ignore[arg-type]
                raise LocalError("that move is not allowed now")
        self._submit(self.secrets.choose(replica, self.game.encode_action(action)), decision=True)

    # -- chat, faults, leaving -----------------------------------------------------------------

    def chat(self, text: str, now: float | None = None) -> None:
        """Send a chat line to everyone at the table, in the lobby too once the host has seated
        us; ``now`` as for :meth:`receive` (our own lines keep to chat's rate, §B10). Raises
        :class:`LocalError` when there is nobody to send it to, nothing to send, the line is past
        chat's limits ("chat limit: …"), or it was said already in this game."""
        if self.stage == "closed":
            raise LocalError("you have left the table")
        text = clean_text(text)
        if not text:
            raise LocalError("nothing to send")
        if self.stage == "lobby":
            self._lobby_chat(text, now)
            return
        if self.seat is None:  # pragma: no cover - every stage after the lobby has our seat
            raise LocalError("you have no seat at the table")
        if not self.role.in_touch:
            raise LocalError("the host is away: chat is back once we have reconnected")
        self._within_chat_limits(self.seat, text, now)
        envelope = make_envelope(self.identity, "chat", {"game_id": self.game_id, "text": text})
        if self.chat_limits.repeats(self.seat, envelope.digest):
            # A line said twice is one envelope (its signature is deterministic): every peer
            # keeps it once (§B10), so the second would reach nobody.
            raise LocalError(
                "you have said exactly that already in this game, and a line is shown once: say it another way"
            )
        if self._take_chat(self.seat, envelope, now) is Offer.TAKEN:
            self.role.tell_table(envelope)

    def _lobby_chat(self, text: str, now: float | None) -> None:
        you = self._lobby_index(self.lobby)
        if you is None:
            raise LocalError("you can chat once the host has given you a seat")
        own = self.identity.public_key.raw
        self._within_chat_limits(own, text, now)
        self.chat_limits.offer(own, line_size(text), now)
        envelope = make_envelope(self.identity, "chat", {"game_id": self.table_id, "text": text})
        self.role.tell_lobby(envelope)
        # Not recorded: the transcript is the game's, and the game hasn't begun.
        self._emit(ChatReceived(you, self.name, text))

    def _within_chat_limits(self, speaker: Any, text: str, now: float | None) -> None:
        """Raise :class:`LocalError` ("chat limit: …") if our line ``text`` is past chat's limits."""
        refusal = self.chat_limits.refusal(speaker, line_size(text), now)
        if refusal is not None:
            raise LocalError(refusal)

    def _take_chat(self, seat: int, envelope: Envelope, now: float | None = None) -> Offer:
        """Offer ``seat``'s chat line of this game to its limits, judging its rate at ``now``
        (``None``: not judged; see :class:`~p2pgames.session._chat.ChatLimits`): one taken is
        recorded and shown; one already taken or past the limits, neither. What became of it."""
        offer = self.chat_limits.offer(seat, line_size(envelope.body["text"]), now, envelope.digest)
        if offer is Offer.TAKEN:
            self._record("chat", envelope.raw)
            self._emit(ChatReceived(seat, self.names[seat], clean_text(envelope.body["text"])))
        return offer

    def _flood(self, seat: int, envelope: Envelope) -> Fault:
        """``seat``'s fault for its chat line ``envelope``, past its totals in this game (§B10):
        a line its own peer would never have signed, so the line itself is the evidence."""
        policy = self.chat_limits.policy
        return Fault(
            seat, FaultCode.FLOOD,
            f"{self._who(seat)} sent chat past a seat's limits for a game "
            f"({policy.lines} lines, {policy.text_bytes // 1024} KB of text)",
            self._seq(), None, (envelope.raw,),
        )

    def adjourn_problem(self) -> str | None:
        """Why the game can't be adjourned now (``None``: it can): only a game under way, with
        the host in touch, and not more than :data:`MAX_ADJOURN_MESSAGES` of our requests."""
        if self.stage != "playing" or self.replica is None or self.seat is None:
            return "there is no game going on to adjourn"
        if not self.role.in_touch:
            return "the host is away: the table can adjourn once we have reconnected"
        if self._adjourn_messages.get(self.seat, 0) >= MAX_ADJOURN_MESSAGES:
            return f"you have asked and answered {MAX_ADJOURN_MESSAGES} times in this game: no more"
        if self._move_keys_in_flight():
            return "your move is on its way to the host: try again once it is in"
        return None

    def adjourn(self, agree: bool = True) -> None:
        """Ask everyone to stop the game here and go on later (``agree``), agree to the request
        under way, or decline it (not ``agree``: it is dropped, and the game goes on). Once every
        seat still playing has agreed, every peer keeps its seat and stops (:class:`Adjourned`);
        each takes it again with ``p2pgames resume``, the host first (§B18). Raises
        :class:`LocalError` with :meth:`adjourn_problem`'s reason, or when there is no request
        to decline."""
        problem = self.adjourn_problem()
        if problem is not None:
            raise LocalError(problem)
        if not agree and not self.adjourn_votes:
            raise LocalError("nobody has asked to adjourn")
        if agree and self.seat in self.adjourn_votes:
            return  # agreed already: nothing new to say
        envelope = make_envelope(self.identity, "adjourn", {
            "game_id": self.game_id, "proposal": self.adjourn_proposal, "agree": agree,
        })
        self._take_adjourn(self.seat, envelope)  # type: ignore[arg-type]
        self.role.tell_table(envelope)  # (a host's keeps it for catch-ups too)
        self._adjourn_settled()

    def forget_adjourn_requests(self) -> None:
        """Start the game's requests to adjourn afresh (a joiner rejoining: its host's catch-up
        gives them all again, §B18)."""
        self.adjourn_proposal = 0
        self.adjourn_votes = set()
        self._adjourn_messages = {}

    def _adjourn_settled(self) -> None:
        """After a request or answer to adjourn was taken and passed on: stop once it is out if
        the game is adjourned (the seat kept, to be resumed); a bot agrees to a new request."""
        if self.adjourned:
            if self.stage == "playing":
                self.stage = "closed"
                self.seat_kept = True
                self._closing.extend(self.role.table_connections())
        elif self._agree_as_bot and not self._move_keys_in_flight():
            self._agree_as_bot = False
            if self.adjourn_problem() is None:
                self.adjourn(True)

    def _take_adjourn(self, seat: int, envelope: Envelope) -> bool:
        """``seat``'s request or answer to adjourn (its signature checked): whether it is news,
        to pass on — one of the request under way, the seat's first, and within its count. A
        decline drops the request; the last seat playing to agree adjourns the game (emitted
        :class:`Adjourned`; the caller stops once it has passed it on). A bot agrees at once."""
        body = envelope.body
        replica = self.replica
        if body["game_id"] != self.game_id or self.stage != "playing" or replica is None:
            return False
        if body["proposal"] != self.adjourn_proposal or (body["agree"] and seat in self.adjourn_votes) or seat in replica.open_seats:
            return False  # an answer to a request dropped since, or said already (one who agreed may still withdraw)
        sent = self._adjourn_messages.get(seat, 0)
        if sent >= MAX_ADJOURN_MESSAGES:
            return False  # past its count: a seat that asks and declines on and on is not heard
        self._adjourn_messages[seat] = sent + 1
        if not body["agree"]:
            self.adjourn_votes = set()
            self.adjourn_proposal += 1
            self._emit(AdjournDeclined(seat, self.names[seat], you=seat == self.seat))
            return True
        first = not self.adjourn_votes
        self.adjourn_votes.add(seat)
        if all(other in self.adjourn_votes for other in replica.playing_seats):
            self.adjourned = True
            self._emit(Adjourned(replica.seq, self.names[self.host_seat], self.is_host))
        elif first and seat != self.seat:
            self._emit(AdjournAsked(seat, self.names[seat]))
            if self.bot:
                self._agree_as_bot = True
        return True

    # -- playing again (§B20) ------------------------------------------------------------------

    def again_voters(self) -> list[int]:
        """The seats still at the table after the end, whose answer a request to play again
        waits for: every seat but those that left or said no (and open seats: nobody's peer)."""
        replica = self.replica
        open_seats = replica.open_seats if replica is not None else {}
        return [seat for seat in range(len(self.seats))
                if seat not in self.left_seats and seat not in self.again_declined and seat not in open_seats]

    def again_problem(self, game: str | None = None) -> str | None:
        """Why we can't ask (or agree) to play again now, with ``game`` next (``None``: the one
        just played, or the one asked for); ``None`` if we can."""
        if self.stage != "over" or self.ruleset is None or self.seat is None:
            return "you can play again once the game is over"
        if HOST_SEAT in self.left_seats or (not self.is_host and self.host_seat in self.away):
            return "the host has left: there is no table to play again at"
        if self.seat in self.again_declined:
            return "you said you won't play again"
        if game is not None and self.again_game is not None and game != self.again_game:
            title = self.game_loader(self.again_game).title
            return f"{self.names[self.again_asker or 0]} asked for {title} already: answer that (y or n), or leave"
        name = game or self.again_game or self.ruleset.game
        try:
            wanted = self.game_loader(name)
        except KeyError:
            return f"there is no game called {name!r}"
        players = len(self.seats)
        if not wanted.min_players <= players <= wanted.max_players:
            return f"{wanted.title} is for {wanted.min_players}–{wanted.max_players} players, and this table has {players}"
        return None

    def again(self, game: str | None = None) -> None:
        """Ask everyone to play ``game`` next at this table (``None``: the game just played), or
        agree to the request under way; once every seat still at the table agreed, the game
        after it is set up (:class:`AgainAgreed`: each peer stops, and the host hosts the next
        game where it listened, to which the others dial again). Raises :class:`LocalError` with
        :meth:`again_problem`'s reason."""
        problem = self.again_problem(game)
        if problem is not None:
            raise LocalError(problem)
        if self.seat in self.again_votes:
            return
        name = game or self.again_game or self.ruleset.game  # type: ignore[union-attr]
        self._tell_again(make_envelope(self.identity, "again", {"game_id": self.game_id, "game": name, "agree": True}))

    def decline_again(self) -> None:
        """Say we won't play again (the others may); then leave (the caller does)."""
        if self.stage != "over" or self.seat in self.again_declined:
            return
        self._tell_again(make_envelope(self.identity, "again", {"game_id": self.game_id, "game": "", "agree": False}))

    def _tell_again(self, envelope: Envelope) -> None:
        self._take_again(self.seat, envelope)  # type: ignore[arg-type]
        self.role.tell_table(envelope)
        self._again_settled()

    def _take_again(self, seat: int, envelope: Envelope) -> bool:
        """``seat``'s request, yes or no to play again (its signature checked): whether it is
        news, to pass on — its first yes (to the game asked for) or its no, after the end."""
        body = envelope.body
        if body["game_id"] != self.game_id or self.stage != "over" or self.again_agreed is not None:
            return False
        if seat in self.again_declined or seat in self.left_seats or (body["agree"] and seat in self.again_votes):
            return False
        if not body["agree"]:
            self.again_declined.add(seat)
            self.again_votes.discard(seat)
            self._emit(AgainDeclined(seat, self.names[seat], you=seat == self.seat))
        else:
            try:
                title = self.game_loader(body["game"]).title
            except KeyError:
                return False  # a game we don't have: we can't play it (its asker is told by nobody)
            if self.again_game is None:
                self.again_game, self.again_asker = body["game"], seat
                if seat != self.seat:
                    self._emit(AgainAsked(seat, self.names[seat], title))
            elif body["game"] != self.again_game:
                return False  # another game than the one asked for: not an answer to it
            self.again_votes.add(seat)
        self._again_check()
        return True

    def _again_check(self) -> None:
        """Whether every seat still at the table agreed (the host among them): then it is agreed —
        for us, if we are among them (one that said no leaves, and plays nothing next)."""
        voters = self.again_voters()
        if (self.again_agreed is None and self.again_game is not None and HOST_SEAT in voters and self.seat in voters
                and all(seat in self.again_votes for seat in voters)):
            self.again_agreed = AgainAgreed(
                self.again_game, len(self.seats), tuple(voters), self.names[HOST_SEAT], self.is_host,
            )
            self._emit(self.again_agreed)

    def _again_settled(self) -> None:
        """Once it is agreed and passed on: this game's table closes (the next one is set up)."""
        if self.again_agreed is not None and self.stage == "over":
            self.stage = "closed"
            self._closing.extend(self.role.table_connections())

    def leave(self, reason: str = "quit") -> None:
        """Tell the others this player is leaving, and stop."""
        if self.stage == "closed":
            return
        if self.stage in ("lobby",) or self.seat is None or not self.game_id:
            self.stage = "closed"
            # A seat taken again that never got back (nobody refused it): still to be taken later.
            self.seat_kept = self.resumed is not None
            self.role.leave_before_start()
            return
        if not self.is_host and self.host_seat in self.away and not self.finished:  # (only a joiner's host is ever away to it)
            # Nobody can hear it: the game goes on without us, and our seat is kept to be taken
            # again (p2pgames resume: the network layer, which keeps the seat, says so) — the
            # others may end the game meanwhile.
            self.stage = "closed"
            self.seat_kept = True
            return
        envelope = make_envelope(self.identity, "leave", {"game_id": self.game_id, "reason": clean_text(reason)})
        self.role.tell_table(envelope)
        self._record("leave", envelope.raw)
        if not self.finished:
            self.fault = Fault(self.seat, FaultCode.LEFT, "you left the game", self._seq())
        self.stage = "closed"
        self._closing.extend(self.role.table_connections())

    def was_stopped(self, seconds: float) -> None:
        """The network layer found this process was stopped (suspended, frozen) for ``seconds``,
        long enough for the others to drop its connections as silent. The seats it finds away
        from now until :meth:`stop_settled` went because it did: until they are back, their
        absence is its own, and a game ended for them says so (:meth:`end_game`)."""
        if self.stage in ("starting", "playing"):
            self._stopped = _Stop(seconds, frozenset(self.away))

    def stop_settled(self) -> None:
        """Long enough after :meth:`was_stopped` for every connection the others dropped to have
        been found dropped: a seat that goes away from now on goes of its own accord."""
        if self._stopped is not None:
            gone = self._stopped.ours(self.away)
            self._stopped = replace(self._stopped, gone=frozenset(gone)) if gone else None

    def _back(self) -> None:
        """A seat is back: an absence of ours (:meth:`was_stopped`) is over once every seat that
        went away because of it is."""
        if self._stopped is not None and not self._stopped.ours(self.away):
            self._stopped = None

    def end_game(self) -> None:
        """End the game because a seat is away (the players waited long enough: the network
        layer says when, with :class:`~p2pgames.session.AwayTooLong`). Not a fault of anyone's:
        every transcript records why it ended. Raises :class:`LocalError` when nobody is away."""
        if self.finished:
            raise LocalError("the game is over")
        if not self.away or self.seat is None or not self.game_id:
            raise LocalError("nobody is away: there is no reason to end the game")
        who = "the host" if self.is_host else self._who(self.seat)
        stopped = self._stopped
        # Seats that went away while this process was stopped went because it was (was_stopped).
        gone = stopped.ours(self.away) if stopped is not None else []
        away = [self._who(seat) for seat in sorted(self.away) if seat not in gone]
        if stopped is not None and gone:
            reason = ended_reason(
                who, away, stopped_for=duration(stopped.seconds),
                gone=[self._who(seat) for seat in gone], host_gone=not self.is_host,
            )
        else:
            reason = ended_reason(who, away)
        # A joiner's host is the only one it could tell: if it is the one away, say it to ourselves only.
        send = self.is_host or self.host_seat not in self.away
        self._halt(Fault(None, FaultCode.ENDED, reason, self._seq()), send=send)
        self._closing.extend(self.role.table_connections())

    def _take_leave(self, seat: int, envelope: Envelope) -> None:
        if envelope.body["game_id"] != self.game_id:
            return  # an old goodbye from another game, replayed: it says nothing about this one
        self._record("leave", envelope.raw)
        if self.stage == "over":
            # Gone after the end: it won't play again (§B20); the others may be all that is left.
            self.left_seats.add(seat)
            self._again_check()
            self._again_settled()
        if self.finished:
            return
        reason = clean_text(envelope.body["reason"])
        self._halt(Fault(seat, FaultCode.LEFT, f"{self._who(seat)} left the game ({reason})", self._seq()), send=False)

    def _take_fault_message(self, reporter: int, envelope: Envelope) -> None:
        """Stop for a fault another seat reports (§B9). Its verdict counts only where its signed
        evidence proves it here (a provable accusation it disproves is the reporter's false
        accusation); anything else is recorded as the reporter's claim: the reporter stopped the
        game on its own word, so it is the culprit of the stop (as a leaver is), and the seat it
        named is only ``accused``. Its words are kept as its words, never as our verdict."""
        body = envelope.body
        if body["game_id"] != self.game_id:
            return  # a report about another game, replayed: it says nothing about this one
        self._record("fault-message", envelope.raw)
        if self.finished:
            return
        accused, code, words = body["culprit"], body["code"], clean_text(body["reason"])
        evidence = tuple(body["evidence"])
        if accused is not None and not 0 <= accused < len(self.seats):
            self._halt(Fault(
                reporter, FaultCode.MALFORMED, f"{self._who(reporter)} accused seat {accused}, which does not exist", self._seq(),
            ), send=False)
            return
        if evidence and accused is not None and self.replica is not None:
            # Provable faults are believed only if the signed evidence proves them.
            doubt = self._confirm(Fault(accused, code, words, body["seq"], reporter, evidence))
            if doubt is None:  # the evidence's verdict (its reason as the reporter gave it)
                self._halt(Fault(accused, code, words, self._seq(), None, evidence), send=False)
                return
            if code in PROVABLE and code != FaultCode.BAD_SIGNATURE and doubt != STALE_EVIDENCE:
                self._halt(Fault(
                    reporter, FaultCode.ILLEGAL,
                    f"accused {self._who(accused)} falsely ({doubt})", self._seq(), None, evidence,
                ))
                return
        # Its word against another's, nobody's or its own, which nothing here can check: a claim.
        # Whoever stops the game on a word nobody can check is the one who stopped it.
        self._halt(Fault(reporter, code, words, body["seq"], reporter, evidence, accused), send=False)

    def _confirm(self, fault: Fault) -> str | None:
        """``None`` if ``fault.evidence`` proves ``fault`` here, else why not: a flood against
        the chat lines this peer took (§B10), any other fault against the log (Replica.confirm)."""
        assert self.replica is not None
        if fault.code == FaultCode.FLOOD:
            return confirm_flood(fault, self.chat_limits, self.seats, self.game_id)
        return self.replica.confirm(fault)

    def _halt(self, fault: Fault, send: bool = True) -> None:
        """Stop the game for ``fault``: tell the others (unless it came from them), record it."""
        if self.finished:
            return
        self.fault = fault
        self.stage = "halted"
        if self.start_envelope is not None:  # a transcript begins with the start (nothing before it)
            record = {
                "culprit": fault.culprit, "code": fault.code, "reason": fault.reason, "seq": fault.seq,
                "reporter": fault.reporter, "evidence": list(fault.evidence),
            }
            if fault.reporter is not None:  # a claim (§B11): only then, so other records keep their form
                record["accused"] = fault.accused
            self._record("fault", record)
        if send and self.game_id and fault.code != FaultCode.LEFT:
            envelope = make_envelope(self.identity, "fault", {
                "game_id": self.game_id,
                "culprit": fault.culprit,
                "code": fault.code,
                "reason": fault.reason[:500],
                "seq": fault.seq,
                "evidence": list(fault.evidence[:16]),
            })
            self.role.tell_table(envelope)
        message = f"The game stopped: {fault.describe(self.names or None)}."
        if fault.culprit is not None and fault.culprit == self.seat and fault.code not in (FaultCode.LEFT,):
            message += " (That is this peer; check the transcript.)"
        self._emit(Halted(fault, message))

    def _who(self, seat: int | None) -> str:
        if seat is None:
            return "someone"
        if 0 <= seat < len(self.seats):
            return f"{self.seats[seat].name} (seat {seat})"
        return f"seat {seat}"
