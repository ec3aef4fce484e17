"""``p2pgames history``: the games played on this machine, newest first, read from their
transcripts.

Each transcript is summed up by :func:`p2pgames.session.summarize_transcript` (its header, start
and end decoded, its entries counted by their lengths; nothing checked), so listing hundreds of
them costs little more than reading their bytes (``scripts/bench`` measures it against that
floor). ``verify=True`` replays each one in full as ``p2pgames verify`` does. Pure: the caller
reads the files (the command line, as it does for ``verify``) and hands them in one at a time.

One line per game, fields separated by `` · `` so that it greps and cuts well::

    2026-12-04 21:40 · Steam Torpedo · 2 players (build=starter) · with bob · you won: … · 276 entries · torpedo-….p2pt
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Collection, Iterable

from p2pgames.engine import Game
from p2pgames.session import GameSummary, TranscriptError, summarize_transcript
from p2pgames.words import joined

__all__ = ["PlayedGame", "game_line", "opponent_lines", "players_text", "read_history", "result_text", "when_text"]

_REASON = 60  # the characters of a stop's reason a line shows


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A transcript in the history: where it is, when it was last written (the game's end, or
    where it stopped), what it says, and — when checked — ``verified``: ``""`` if it verifies,
    else the first thing wrong (``None``: not checked)."""

    path: Path
    when: float
    summary: GameSummary
    verified: str | None = None


def read_history(
    files: Iterable[tuple[Path, float, bytes | None]],
    games: Callable[[str], Game],
    keys: Collection[bytes] | None = None,
    with_name: str | None = None,
    verify: bool = False,
) -> tuple[list[PlayedGame], list[Path]]:
    """The games of ``files`` — ``(path, when it was last written, its bytes or None if it
    could not be read)``, taken one at a time so that only one file's bytes are held — newest
    first, and the files that could not be read as transcripts. ``keys``: only the transcripts
    of seats with one of these identity keys (the profiles on this machine); ``with_name``:
    only the games where another seat had that name (any case)."""
    played: list[PlayedGame] = []
    unreadable: list[Path] = []
    wanted = with_name.casefold() if with_name else None
    for path, when, data in files:
        try:
            if data is None:
                raise TranscriptError("unreadable")
            summary = summarize_transcript(data, games)
        except TranscriptError:
            unreadable.append(path)
            continue
        if keys is not None and summary.key not in keys:
            continue
        if wanted is not None and not any(
            name.casefold() == wanted for seat, name in enumerate(summary.names) if seat != summary.seat
        ):
            continue
        verified = _verified(data, games) if verify else None
        played.append(PlayedGame(path, when, summary, verified))
    played.sort(key=lambda game: (-game.when, game.path.name))
    return played, unreadable


def _verified(data: bytes, games: Callable[[str], Game]) -> str:
    from p2pgames.session import verify_transcript

    try:
        report = verify_transcript(data, games)
    except TranscriptError as error:
        return f"not a valid transcript: {error}"
    if report.ok:
        return ""
    return report.describe().splitlines()[0]


def game_line(game: PlayedGame) -> str:
    """The game's line in the listing (see the module's docstring)."""
    summary = game.summary
    fields = [
        when_text(game.when),
        summary.title,
        summary.rules,
        players_text(summary),
        result_text(summary),
        f"{summary.entries} entries",
    ]
    if game.verified is not None:
        fields.append("verified" if not game.verified else f"DOES NOT VERIFY: {game.verified}")
    fields.append(game.path.name)
    return " · ".join(fields)


def when_text(when: float) -> str:
    """A file's time as the listings show it: ``2026-12-04 21:40`` (local time)."""
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(when))


def players_text(summary: GameSummary) -> str:
    """Who else played, from the transcript's seat: ``with bob, bot-1 (bot)``, or ``alone``."""
    others = [
        f"{name} (bot)" if summary.bots[seat] else name for seat, name in enumerate(summary.names) if seat != summary.seat
    ]
    return "with " + ", ".join(others) if others else "alone"


def result_text(summary: GameSummary) -> str:
    """How the game ended, from the point of view of the seat whose transcript it is."""
    if summary.winners is None:
        if summary.stopped is not None:
            reason = summary.stopped if len(summary.stopped) <= _REASON else summary.stopped[:_REASON - 1] + "…"
            return f"stopped: {reason}"
        return "unfinished (the file is cut short)" if summary.cut_short else "unfinished"
    mine = summary.seat in summary.winners
    others = [summary.names[seat] for seat in summary.winners if seat != summary.seat]
    if mine and not others:
        text = "you won"
    elif mine:
        text = f"you and {joined(others)} won"
    elif others:
        text = f"{joined(others)} won"
    else:
        text = "nobody won"
    return f"{text}: {summary.summary}" if summary.summary else text


def opponent_lines(games: Iterable[PlayedGame]) -> list[str]:
    """A line per opponent (by identity key; the name they had last), most games first: how
    many games you played together and who won them. Bots are one line, whatever their keys."""
    tally: dict[bytes, list] = {}  # key -> [name, games, you won, they won]; newest first, so the first name is the last
    for game in games:
        summary = game.summary
        if summary.winners is None:
            continue
        opponents: dict[bytes, list[int]] = {}  # who -> their seats in this game
        for seat, key in enumerate(summary.keys):
            if seat != summary.seat:
                opponents.setdefault(b"bots" if summary.bots[seat] else key, []).append(seat)
        for who, seats in opponents.items():
            row = tally.setdefault(who, ["bots" if who == b"bots" else summary.names[seats[0]], 0, 0, 0])
            row[1] += 1
            row[2] += summary.seat in summary.winners
            row[3] += any(seat in summary.winners for seat in seats)
    rows = sorted(tally.values(), key=lambda row: (-row[1], row[0].casefold()))
    width = max((len(row[0]) for row in rows), default=0)
    lines = []
    for name, together, you_won, they_won in rows:
        games_text = f"{together} game{'s' if together != 1 else ''}"
        they = "they" if name == "bots" else name
        lines.append(f"{name.ljust(width)}  {games_text}, you won {you_won}, {they} won {they_won}")
    return lines


