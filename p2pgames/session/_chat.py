"""Chat's limits (protocol/SPEC.md §B10): how much each speaker may say, so that what a peer
relays, keeps and writes down for chat stays bounded whatever another peer sends.

A :class:`ChatLimits` is one room's — a table's lobby, or one game — with an account per
speaker, and a verdict for each line offered to it::

    offer(speaker, size, now, digest) ──► TAKEN       relay it, record it, show it
                                      ├─► REPEAT      a line already taken (a catch-up repeats it)
                                      ├─► TOO_FAST    past the rate: not relayed, recorded or shown
                                      └─► PAST_TOTAL  past the room's total: the same; in a game
                                                      the line itself proves a flood (see below)

A speaker with ``abuse`` lines dropped in a room is *far past* its limits
(:meth:`ChatLimits.far_past`).

The limits of each speaker (:class:`ChatPolicy`):

* **rate**: a token bucket of ``burst`` lines, one more every ``seconds_per_line``; judged only
  where the times lines arrive are known (the host, which relays them: ``now``), never on a
  replay or on lines the host relayed (``now`` is ``None`` there);
* **total** per room: ``lines`` lines and ``text_bytes`` bytes of text (UTF-8), judged by every
  peer on the same lines in the same order (the host's), so that every peer takes the same ones;
* **size**: a line is at most 500 characters already (§A4: a longer one is malformed).

A speaker's own lines are judged before they are sent (:meth:`ChatLimits.refusal`), with half
the burst: lines sent in time may arrive bunched together by delays on the way, and the relay's
bucket, twice as deep, takes them all unless those delays differ by more than ``burst / 2``
lines' worth of seconds (10 s).

So an honest speaker never signs a line past its total: it counts every line it sends, and the
others count only the lines the host took, never more. Every peer of a game takes the same lines
in the same order, so a line of a seat's, signed for the game, that its account there can't take
proves to any of them that the seat broke the limits on purpose (:func:`confirm_flood`) —
unlike a line too fast, which only the host saw arrive.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Hashable, Sequence

from p2pgames.crypto import BadSignature
from p2pgames.session._messages import MalformedMessage, open_envelope

if TYPE_CHECKING:
    from p2pgames.session._faults import Fault
    from p2pgames.session._replica import SeatInfo

__all__ = ["ChatLimits", "ChatPolicy", "CHAT_POLICY", "Offer", "confirm_flood", "line_size"]


class Offer(enum.Enum):
    """What became of a line offered to :meth:`ChatLimits.offer`."""

    TAKEN = "taken"
    REPEAT = "repeat"
    TOO_FAST = "too fast"
    PAST_TOTAL = "past the total"


@dataclass(frozen=True)
class ChatPolicy:
    """The numbers of chat's limits, per speaker (see the module docstring). The defaults are
    the protocol's (§B10): an honest table never meets them — a person types a line every few
    seconds, not one a second for minutes, and says a few hundred lines in a long game, not
    2000 — while they hold what a flood can make a peer keep to about 1 MB a seat a game."""

    burst: int = 20
    seconds_per_line: float = 1.0
    lines: int = 2000
    text_bytes: int = 256 * 1024
    abuse: int = 100  # lines dropped before a speaker is far past its limits

    def __post_init__(self) -> None:
        if self.burst < 2 or not self.seconds_per_line > 0 or self.lines < 1 or self.text_bytes < 1 or self.abuse < 1:
            raise ValueError(f"chat limits must be positive, with a burst of 2 lines or more: {self}")

    @property
    def own_burst(self) -> int:
        """The burst a speaker keeps to on its own lines (see the module docstring)."""
        return self.burst // 2


CHAT_POLICY = ChatPolicy()


def line_size(text: str) -> int:
    """A chat line's size as the limits count it: the bytes of its text in UTF-8."""
    return len(text.encode("utf-8", "surrogatepass"))


@dataclass
class _Speaker:
    tokens: float  # lines the bucket holds (judged on time only)
    counted_at: float | None = None  # when ``tokens`` was last brought up to date
    lines: int = 0
    text_bytes: int = 0
    dropped: int = 0
    said: set[bytes] = field(default_factory=set)  # digests of the lines taken (a room that has them)


class ChatLimits:
    """One room's chat limits. ``where`` ends the refusals' sentences ("in this game", "at this
    table"); ``own`` is the speaker this peer is, which keeps to :attr:`ChatPolicy.own_burst`.

    Nothing here knows a clock: each call is given ``now`` (seconds on a clock that never goes
    back), or ``None`` where time is not judged.
    """

    def __init__(self, where: str, own: Hashable, policy: ChatPolicy = CHAT_POLICY) -> None:
        self.where = where
        self.own = own
        self.policy = policy
        self._speakers: dict[Hashable, _Speaker] = {}

    def repeats(self, speaker: Hashable, digest: bytes) -> bool:
        """Whether ``speaker``'s line with envelope digest ``digest`` was taken already (cheap:
        checked before a signature is)."""
        account = self._speakers.get(speaker)
        return account is not None and digest in account.said

    def refusal(self, speaker: Hashable, size: int, now: float | None) -> str | None:
        """Why a line of ``size`` bytes from ``speaker`` can't be taken at ``now``, in words for
        the speaker ("chat limit: …"); ``None`` if it can. Changes nothing. Raises
        :class:`ValueError` for a negative size."""
        return self.past_total(speaker, size) or self._too_fast(speaker, now)

    def past_total(self, speaker: Hashable, size: int) -> str | None:
        """Why a line of ``size`` bytes from ``speaker`` would go past its totals here (as
        :meth:`refusal` says it), or ``None``. Changes nothing."""
        if size < 0:
            raise ValueError(f"a line's size is a number of bytes, not {size}")
        policy = self.policy
        account = self._speakers.get(speaker)
        if account is None:
            return None  # nothing said yet: the size is capped by the schema (§A4)
        if account.lines >= policy.lines:
            return f"chat limit: a seat may say {policy.lines} lines {self.where}, and you have said them all"
        if account.text_bytes + size > policy.text_bytes:
            left = policy.text_bytes - account.text_bytes
            return (
                f"chat limit: a seat may say {policy.text_bytes // 1024} KB of chat {self.where}, and this line "
                f"would go past it ({left} bytes left)"
            )
        return None

    def _too_fast(self, speaker: Hashable, now: float | None) -> str | None:
        account = self._speakers.get(speaker)
        if account is None:
            return None  # a full bucket
        tokens = self._tokens(speaker, account, now)
        if tokens < 1:
            policy = self.policy
            wait = math.ceil((1 - tokens) * policy.seconds_per_line)
            every = "one a second" if policy.seconds_per_line == 1 else f"one every {policy.seconds_per_line:g} s"
            return f"chat limit: {self._burst(speaker)} lines in a row at most, then {every} (wait {wait} s)"
        return None

    def offer(self, speaker: Hashable, size: int, now: float | None, digest: bytes | None = None) -> Offer:
        """Judge ``speaker``'s line of ``size`` bytes of text arriving at ``now`` (``None``: the
        rate is not judged), and take it if the limits allow. ``digest`` (its envelope's) makes a
        line taken before a :attr:`Offer.REPEAT` (a room without it takes each line as new)."""
        account = self._speakers.get(speaker)
        if account is None:
            account = self._speakers[speaker] = _Speaker(float(self._burst(speaker)))
        if digest is not None and digest in account.said:
            return Offer.REPEAT
        if self.past_total(speaker, size) is not None:
            account.dropped += 1
            return Offer.PAST_TOTAL
        if self._too_fast(speaker, now) is not None:
            account.dropped += 1
            return Offer.TOO_FAST
        if now is not None:
            account.tokens = self._tokens(speaker, account, now) - 1
            account.counted_at = now
        account.lines += 1
        account.text_bytes += size
        if digest is not None:
            account.said.add(digest)
        return Offer.TAKEN

    def dropped(self, speaker: Hashable) -> int:
        """How many of ``speaker``'s lines were dropped (past a limit)."""
        account = self._speakers.get(speaker)
        return 0 if account is None else account.dropped

    def far_past(self, speaker: Hashable) -> bool:
        """Whether ``speaker`` is far past its limits here: ``abuse`` of its lines dropped or more."""
        return self.dropped(speaker) >= self.policy.abuse

    def retain(self, speakers: set[Hashable]) -> None:
        """Forget every speaker not in ``speakers`` (a lobby's players who left: a lobby keeps
        accounts only for those in it)."""
        for speaker in [speaker for speaker in self._speakers if speaker not in speakers]:
            del self._speakers[speaker]

    def _burst(self, speaker: Hashable) -> int:
        return self.policy.own_burst if speaker == self.own else self.policy.burst

    def _tokens(self, speaker: Hashable, account: _Speaker, now: float | None) -> float:
        """The lines ``speaker``'s bucket holds at ``now`` (as it stands, if ``now`` is None)."""
        if now is None or account.counted_at is None:
            return account.tokens
        refilled = account.tokens + max(0.0, now - account.counted_at) / self.policy.seconds_per_line
        return min(float(self._burst(speaker)), refilled)


def confirm_flood(fault: Fault, limits: ChatLimits, seats: Sequence[SeatInfo], game_id: bytes) -> str | None:
    """``None`` if ``fault`` (a ``flood``) is proved by its evidence, else why not, in words:
    its first piece must be a chat line of the game ``game_id`` signed by the culprit's key, not
    taken already, that the culprit's account in ``limits`` (the lines of that game this peer
    took) can't take — past its totals (see the module docstring). Changes nothing."""
    culprit, evidence = fault.culprit, fault.evidence
    if not evidence or culprit is None or not 0 <= culprit < len(seats):
        return "there is no evidence to check"
    try:
        line = open_envelope(evidence[0])
        if line.kind != "chat" or line.body["game_id"] != game_id:
            return "the evidence is not a chat line of this game"
        line.verify(seats[culprit].key)
    except (MalformedMessage, BadSignature):
        return "the evidence is not a chat line signed by the accused"
    if limits.repeats(culprit, line.digest):
        return "the evidence is a line taken within the limits"
    if limits.past_total(culprit, line_size(line.body["text"])) is None:
        return "the evidence is a line within the seat's totals here"
    return None
