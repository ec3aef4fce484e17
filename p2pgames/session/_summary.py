"""What a transcript says about its game at a glance, read fast: for ``p2pgames history``.

:func:`summarize_transcript` decodes only the records that say what the game was and how it
ended (the header, the start, the end, a fault) and counts the log entries by walking the
records' lengths, so summing up hundreds of transcripts costs little more than reading their
bytes. It checks no signature, rule or hash: :func:`~p2pgames.session.verify_transcript` does
that (``history --verify``), and a summary says only what the file claims.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from p2pgames import canonical
from p2pgames.engine import EngineError, Game
from p2pgames.session._messages import MalformedMessage, clean_text, open_envelope
from p2pgames.session._transcript import _LENGTH, MAX_RECORD, TranscriptError

__all__ = ["GameSummary", "summarize_transcript"]

# The records decoded; every other kind is only counted (entries) or skipped. A record is the
# canonical msgpack of ``[kind, value]``: 0x92 (an array of two), then the kind as a short string.
_DECODED = frozenset((b"header", b"start", b"end", b"fault"))
# How the two commonest records begin: an array of two (0x92), then the kind as a short string.
_ENTRY_HEAD = b"\x92\xa5entry"
_ACK_HEAD = b"\x92\xa3ack"


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One transcript's game as its file tells it (unchecked).

    ``seat`` is the seat whose transcript it is; ``names``, ``keys`` (raw Ed25519 public keys)
    and ``bots`` are by seat. ``winners`` and ``scores`` are the recorded result, ``None`` and
    ``()`` when the file records none (unfinished, or stopped: ``stopped`` then says why, as
    the writer recorded it). ``entries`` counts the log entries the file holds; ``cut_short``
    says the file ends inside a record (a crash while it was written)."""

    game: str
    title: str
    rules: str
    game_id: bytes
    seat: int
    names: tuple[str, ...]
    keys: tuple[bytes, ...]
    bots: tuple[bool, ...]
    entries: int
    winners: tuple[int, ...] | None
    scores: tuple[Any, ...]
    summary: str
    stopped: str | None
    cut_short: bool

    @property
    def key(self) -> bytes:
        """The key of the seat whose transcript this is."""
        return self.keys[self.seat]


def summarize_transcript(data: bytes, games: Callable[[str], Game]) -> GameSummary:
    """The :class:`GameSummary` of transcript ``data`` (bytes); ``games`` maps a game's name to the
    :class:`Game` (an unknown name, or a ruleset of another edition, still summarizes: the
    game's name stands for its title and rules).

    Raises :class:`TranscriptError` if ``data`` is not a transcript: no header and start at its
    head, a record that can't be decoded, or a length past :data:`MAX_RECORD`."""
    view = memoryview(data)
    size = len(data)
    offset = 0
    number = 0
    entries = 0
    cut_short = False
    decoded: dict[bytes, Any] = {}
    while offset < size:
        number += 1
        if offset + 4 > size:
            cut_short = True
            break
        (length,) = _LENGTH.unpack_from(data, offset)
        offset += 4
        if length > MAX_RECORD:
            raise TranscriptError(f"record {number} is too long ({length} bytes)")
        end = offset + length
        if end > size:
            cut_short = True
            break
        if number > 2 and data.startswith(_ENTRY_HEAD, offset, end):  # most records: the fast way
            entries += 1
            offset = end
            continue
        if number > 2 and data.startswith(_ACK_HEAD, offset, end):
            offset = end
            continue
        kind = _kind_of(view, offset, end)
        if number <= 2 and kind != (b"header", b"start")[number - 1]:
            raise TranscriptError("a transcript begins with its header and the game's start")
        if kind in _DECODED:
            try:
                record = canonical.decode(view[offset:end])
            except canonical.CanonicalError as error:
                raise TranscriptError(f"record {number} is damaged: {error}") from None
            if number > 2 and kind in (b"header", b"start"):
                raise TranscriptError(f"record {number} is a second {kind.decode()} record")
            decoded[kind] = record[1]  # the last end or fault is the one that counts
        offset = end
    return _summary(decoded, entries, cut_short, games)


def _kind_of(view: memoryview, offset: int, end: int) -> bytes:
    """The kind of the record at ``view[offset:end]`` (``b""`` if it is not ``[kind, value]``
    with a short kind: such a record is counted as nothing)."""
    if end - offset < 2 or view[offset] != 0x92 or view[offset + 1] & 0xE0 != 0xA0:
        return b""
    length = view[offset + 1] & 0x1F
    return bytes(view[offset + 2:offset + 2 + length])


def _summary(decoded: dict[bytes, Any], entries: int, cut_short: bool, games: Callable[[str], Game]) -> GameSummary:
    header, start_bytes = decoded.get(b"header"), decoded.get(b"start")
    if not (isinstance(header, dict) and header.get("format") == "p2pgames-transcript"):
        raise TranscriptError("no transcript header")
    if not isinstance(start_bytes, bytes):
        raise TranscriptError("no start record")
    try:
        start = open_envelope(start_bytes)
    except MalformedMessage as error:
        raise TranscriptError(f"the start record is damaged: {error}") from None
    if start.kind != "start":
        raise TranscriptError(f"the start record holds a {start.kind!r} message")
    body = start.body
    seats = body["seats"]
    seat = header.get("seat")
    if not (isinstance(seats, (list, tuple)) and seats and all(isinstance(item, (list, tuple)) and len(item) in (4, 6) for item in seats)):
        raise TranscriptError("the start record's seats are damaged")
    if type(seat) is not int or not 0 <= seat < len(seats):
        raise TranscriptError(f"the header names seat {seat!r}, not one of the {len(seats)} at the table")
    name = str(body["ruleset"].get("game", header.get("game", "?"))) if isinstance(body["ruleset"], dict) else "?"
    try:
        game = games(name)
    except KeyError:  # UnknownGame: a game of another version of p2pgames
        title, rules = name, "a game this version of p2pgames doesn't have"
    else:
        title = game.title
        try:
            ruleset = game.decode_ruleset(body["ruleset"])
            rules = game.for_ruleset(ruleset).describe_ruleset(ruleset)
        except EngineError:  # another edition of the rules (or a ruleset damaged): verify says which
            rules = "rules this version of p2pgames can't read"
    end = decoded.get(b"end")
    winners: tuple[int, ...] | None = None
    scores: tuple[Any, ...] = ()
    summary = ""
    if isinstance(end, dict) and isinstance(end.get("winners"), (list, tuple)):
        winners = tuple(seat for seat in end["winners"] if type(seat) is int and 0 <= seat < len(seats))
        scores = tuple(end.get("scores") or ())
        summary = clean_text(str(end.get("summary") or ""))
    fault = decoded.get(b"fault")
    stopped = None
    if winners is None and isinstance(fault, dict):
        stopped = clean_text(str(fault.get("reason") or "stopped"))
    return GameSummary(
        game=name,
        title=title,
        rules=_without_title(rules, name, title),
        game_id=bytes(body["game_id"]),
        seat=seat,
        names=tuple(clean_text(str(item[2])) for item in seats),
        keys=tuple(bytes(item[0]) for item in seats),
        bots=tuple(bool(item[3]) for item in seats),
        entries=entries,
        winners=winners,
        scores=scores,
        summary=summary,
        stopped=stopped,
        cut_short=cut_short,
    )


def _without_title(rules: str, name: str, title: str) -> str:
    """``describe_ruleset``'s line without the game's name or title in front (the listing
    shows the title already)."""
    for prefix in (title + ", ", name + ", "):
        if rules.startswith(prefix):
            return rules[len(prefix):]
    return rules
