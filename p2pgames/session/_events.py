"""What a session tells the application (user interface, bot driver, network pump)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from p2pgames.engine import GameOver, Step
from p2pgames.session._faults import Fault
from p2pgames.words import duration

if TYPE_CHECKING:  # (a decision's presented parts: the engine loads them only where they are made)
    from p2pgames.engine import ChoiceGroup, Composer, StandingAnswer

__all__ = [
    "SessionEvent",
    "WATCHER_SEAT",
    "LobbyChanged",
    "GameStarted",
    "Logged",
    "DecisionNeeded",
    "ChatReceived",
    "Agreed",
    "Halted",
    "GameEnded",
    "Notice",
    "Rejected",
    "DesyncReport",
    "Decision",
    "SeatAway",
    "SeatBack",
    "AwayTooLong",
    "OpenSeatAsked",
    "SeatOpened",
    "HostChanged",
    "TakeOverAgreed",
    "AgainAsked",
    "AgainDeclined",
    "AgainAgreed",
    "AdjournAsked",
    "AdjournDeclined",
    "Adjourned",
]


@dataclass(frozen=True, slots=True)
class Decision:
    """The local seat must choose one of ``actions`` (``texts`` are how a person types them).

    ``groups`` say how to list the choices (every action in one group; empty: each on its own, or
    the texts weren't asked for), ``warnings`` what the player should know before choosing, and
    ``standing`` an answer the player may give for the rest of a run of such decisions
    (:meth:`Session.stand_by`), and ``composer`` a way to build the action part by part when the
    actions are too many to list (``actions`` then holds only some of them). ``simultaneous``: the
    choice is committed in secret — a :class:`~p2pgames.engine.Simultaneous` step's (opened once
    everyone has chosen) or a :class:`~p2pgames.engine.Sealed` step's (opened later, when the game
    says: ``step`` tells which).
    """

    step: Step
    actions: tuple[Any, ...]
    texts: tuple[str, ...]
    simultaneous: bool
    groups: tuple[ChoiceGroup, ...] = ()
    warnings: tuple[str, ...] = ()
    standing: StandingAnswer | None = None
    composer: Composer | None = None

    @property
    def menu(self) -> tuple[ChoiceGroup, ...]:
        """The choices as a numbered list shows them: the groups, or else each on its own."""
        from p2pgames.engine import ChoiceGroup

        return self.groups or tuple(ChoiceGroup(text, (index,)) for index, text in enumerate(self.texts))


@dataclass(frozen=True, slots=True)
class LobbyChanged:
    """Who sits at the table before the start: ``players`` as ``(name, bot)`` in seat order (the
    names the host gave them, unique at the table), ``you`` the local player's index among them
    (``None`` until the host has seated us), and ``seats`` in all."""

    players: tuple[tuple[str, bool], ...]
    seats: int
    you: int | None = None


@dataclass(frozen=True, slots=True)
class GameStarted:
    seat: int
    names: tuple[str, ...]
    ruleset: Any

    def text(self, game: Any) -> str:
        """The line that tells the game began, in ``game``'s words (``None``: the ruleset's)."""
        seats = ", ".join(
            f"{name} (seat {seat}{', you' if seat == self.seat else ''})" for seat, name in enumerate(self.names)
        )
        described = game.describe_table(self.ruleset) if game is not None else self.ruleset.describe()
        return f"The game begins: {described}. {seats}."


@dataclass(frozen=True, slots=True)
class Logged:
    """Lines describing what entry ``seq`` did in the game (public information only), and
    ``private`` ones for the local player alone, to show after them: which hidden card it
    received or lost (:meth:`~p2pgames.engine.Presentation.narrate_private`). Never sent or recorded."""

    seq: int
    lines: tuple[str, ...]
    private: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class DecisionNeeded:
    """The local seat must decide at ``step``; ``Session.decision()`` lists the actions.
    ``after_others``: another seat has moved since the last decision asked of this one (or it is
    the first), so the player may be waiting for it — a turn alert's moment."""

    step: Step
    after_others: bool = False


# The seat a watcher's chat line comes from (it has none, §B19): ``ChatReceived.seat``.
WATCHER_SEAT = -1


@dataclass(frozen=True, slots=True)
class ChatReceived:
    seat: int
    name: str
    text: str


@dataclass(frozen=True, slots=True)
class Agreed:
    """Every seat has acknowledged entry ``seq`` with the same state hash."""

    seq: int


@dataclass(frozen=True, slots=True)
class Halted:
    """The game stopped because of ``fault``; the session sends and accepts nothing more."""

    fault: Fault
    message: str


@dataclass(frozen=True, slots=True)
class GameEnded:
    result: GameOver
    message: str


def result_text(result: GameOver, names: Sequence[str], open_seats: Mapping[int, int]) -> str:
    """How a game ended, in a sentence (what follows "Game over: "): who won, why, the scores,
    and from when a bot played each open seat (``open_seats``: seat -> its first entry)."""
    scores = ", ".join(f"{names[seat]} {score}" for seat, score in enumerate(result.scores))
    scores = f" Scores: {scores}." if scores else ""  # (none: a win by forfeit, §B17)
    opened = "".join(f" ({names[seat]}'s seat was played by a bot from entry {seq}.)" for seat, seq in sorted(open_seats.items()))
    if not result.winners:  # a game lost by everyone (Steam Court's solo variant)
        return f"Nobody wins — {result.summary}.{scores}{opened}"
    winners = " and ".join(names[seat] for seat in result.winners)
    verb = "win" if len(result.winners) > 1 else "wins"
    return f"{winners} {verb} — {result.summary}.{scores}{opened}"


@dataclass(frozen=True, slots=True)
class Notice:
    """Something the player should read that changes nothing (a late move, a peer's note)."""

    text: str


@dataclass(frozen=True, slots=True)
class Rejected:
    """The host refused to seat us."""

    reason: str


@dataclass(frozen=True, slots=True)
class DesyncReport:
    """Peers disagree about the state after ``seq``; ``report`` is a canonical value to save."""

    seq: int
    report: Any


@dataclass(frozen=True, slots=True)
class SeatAway:
    """``seat``'s connection was lost (``host``: a joiner's own connection to its host, seat 0):
    the game waits where it needs that seat, and goes on when it is back (:class:`SeatBack`)."""

    seat: int
    name: str
    reason: str
    host: bool = False
    restarted: bool = False  # we are a host taken up again: every joiner is away until it is back

    @property
    def text(self) -> str:
        if self.host:
            return f"The connection to the host, {self.name}, was lost ({self.reason}); reconnecting …"
        if self.restarted:
            return (
                f"Waiting for {self.name} to reconnect: their program dials this table again by itself"
                " (if it stopped too: p2pgames resume)."
            )
        return (
            f"{self.name}'s connection was lost ({self.reason}); the game waits for them where it"
            " needs them (they can come back: p2pgames join or resume)."
        )


@dataclass(frozen=True, slots=True)
class SeatBack:
    """``seat`` reconnected and caught up (``host``: we, a joiner, are back with our host)."""

    seat: int
    name: str
    host: bool = False

    @property
    def text(self) -> str:
        return "Reconnected to the host; caught up." if self.host else f"{self.name} is back."


@dataclass(frozen=True, slots=True)
class AwayTooLong:
    """(From the network layer.) ``seat`` has been away for ``waited`` seconds, longer than the
    grace period: the players may end the game (``Session.end_game``), play on with a bot in that
    seat where ``can_open`` (``Session.open_seat``), claim the win by forfeit where
    ``can_forfeit`` (``Session.claim_forfeit``), or keep waiting."""

    seat: int
    name: str
    waited: float
    host: bool = False  # a joiner's own host
    # Whether the table may play on with a bot in that seat (Session.open_seat), and if not why.
    can_open: bool = False
    why_not: str = ""
    # Whether we may claim the game by forfeit instead (Session.claim_forfeit; a two-player table
    # that chose it, §B17).
    can_forfeit: bool = False

    @property
    def text(self) -> str:
        """Who has been away how long (what may be done about it is for the interface to say)."""
        who = f"The host, {self.name}," if self.host else self.name
        return f"{who} has been away for {duration(self.waited)}"


@dataclass(frozen=True, slots=True)
class OpenSeatAsked:
    """``by`` consented to ``seat`` (gone) being played by a bot; ``waiting`` are the players whose
    consent is still missing (the seat opens once nobody is: :class:`SeatOpened`)."""

    seat: int
    name: str
    by: str
    waiting: tuple[str, ...]

    @property
    def text(self) -> str:
        return (
            f"{self.by} agrees to play on with a bot for {self.name}; still to agree: {', '.join(self.waiting)}"
            " (p2pgames asks each player: the bot takes the seat once all agree)."
        )


@dataclass(frozen=True, slots=True)
class SeatOpened:
    """From entry ``seq`` on, ``seat`` is played by a bot, its cards dealt face up (an open seat);
    ``rebuilt``: its keys are rebuilt from its escrow by all the others, their shares following (§B16)."""

    seat: int
    name: str
    seq: int
    rebuilt: bool = False

    @property
    def text(self) -> str:
        how = "; the others rebuild its card keys from its escrow" if self.rebuilt else ""
        return f"{self.name}'s seat is played by a bot from entry {self.seq}{how}; its cards are shown to everyone."


@dataclass(frozen=True, slots=True)
class AdjournAsked:
    """``name`` (seat ``seat``) asks everyone to stop the game here and go on later; each player
    agrees or declines (``Session.adjourn``)."""

    seat: int
    name: str

    @property
    def text(self) -> str:
        return f"{self.name} asks to adjourn: stop here, everyone's seat saved, and go on later with p2pgames resume."


@dataclass(frozen=True, slots=True)
class AdjournDeclined:
    """``name`` (seat ``seat``) would rather play on: the request to adjourn is dropped."""

    seat: int
    name: str
    you: bool = False

    @property
    def text(self) -> str:
        return f"{'You' if self.you else self.name} would rather play on: the game goes on."


@dataclass(frozen=True, slots=True)
class Adjourned:
    """Everyone agreed to adjourn at entry ``seq``: our seat is saved and we stop. ``host`` is
    the name of the seat that hosts the table (``you_host``: ours), which resumes first."""

    seq: int
    host: str
    you_host: bool

    @property
    def text(self) -> str:
        first = ("you host the table: run p2pgames resume first, then the others run it too" if self.you_host
                 else f"the host, {self.host}, runs p2pgames resume first, then you run p2pgames resume")
        return f"Adjourned after {self.seq} log entries, as everyone agreed; your seat is saved. To go on, {first}."


@dataclass(frozen=True, slots=True)
class AgainAsked:
    """``name`` (seat ``seat``) asks everyone to play ``title`` next at this table (§B20)."""

    seat: int
    name: str
    title: str

    @property
    def text(self) -> str:
        return f"{self.name} asks to play again: {self.title}, at this table."


@dataclass(frozen=True, slots=True)
class AgainDeclined:
    """``name`` (seat ``seat``) won't play again: it leaves the table."""

    seat: int
    name: str
    you: bool = False

    @property
    def text(self) -> str:
        return "You won't play again." if self.you else f"{self.name} won't play again."


@dataclass(frozen=True, slots=True)
class AgainAgreed:
    """Everyone still at the table agreed to play ``game`` next: the seats ``seats`` play it,
    the others (``players`` in all) are free for bots or new players; the host (``host``;
    ``you_host``: us) hosts it where it listened, and the others dial it again (§B20)."""

    game: str
    players: int
    seats: tuple[int, ...]
    host: str
    you_host: bool

    @property
    def text(self) -> str:
        return "Everyone agreed: the next game starts at this table."


@dataclass(frozen=True, slots=True)
class HostChanged:
    """The host, ``old_name`` (seat ``old``), left and handed the table to ``new_name`` (seat
    ``new``), who sequences the log from the next entry on (§B15); ``reach``: where it said it can
    be reached, best first. ``you``: we are the new host (the others reconnect to us)."""

    old: int
    old_name: str
    new: int
    new_name: str
    reach: tuple[tuple[str, int], ...]
    you: bool = False
    taken: bool = False  # taken over with every remaining seat's consent, the host gone (§B15)

    @property
    def text(self) -> str:
        if self.taken:
            if self.you:
                return f"{self.old_name} is gone; you host the table now (everyone agreed), and a bot plays {self.old_name}'s seat."
            return f"{self.old_name} is gone; {self.new_name} hosts the table now (everyone agreed), and a bot plays {self.old_name}'s seat."
        if self.you:
            return f"{self.old_name} left; you host the table now (the others reconnect to you)."
        return f"{self.old_name} left; {self.new_name} hosts the table now (reconnecting …)."


@dataclass(frozen=True, slots=True)
class TakeOverAgreed:
    """We agreed to play on without our host, ``host_name`` (seat ``host``), gone past the grace
    period: ``successor_name`` (seat ``successor``) takes the table over once every remaining seat
    agrees (§B15); ``reach``: where it said it can be reached. ``you``: we are the successor (the
    others reconnect to us)."""

    host: int
    host_name: str
    successor: int
    successor_name: str
    reach: tuple[tuple[str, int], ...]
    you: bool = False

    @property
    def text(self) -> str:
        if self.you:
            return (f"Playing on without the host, {self.host_name}: you take the table over once the others "
                    "have reconnected to you and agreed.")
        return (f"Playing on without the host, {self.host_name}: {self.successor_name} takes the table over "
                "once everyone agrees (reconnecting to them …).")


SessionEvent = (
    HostChanged
    | TakeOverAgreed
    | LobbyChanged
    | GameStarted
    | Logged
    | DecisionNeeded
    | ChatReceived
    | Agreed
    | Halted
    | GameEnded
    | Notice
    | Rejected
    | DesyncReport
    | SeatAway
    | SeatBack
    | AwayTooLong
    | OpenSeatAsked
    | SeatOpened
    | AdjournAsked
    | AdjournDeclined
    | Adjourned
    | AgainAsked
    | AgainDeclined
    | AgainAgreed
)
