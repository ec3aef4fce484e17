"""The transcript file a node writes as the game runs, surviving a full or failing disk.

Records are appended with unbuffered writes, and what the disk did not take stays in memory, in
order, to be written at the next chance: a write that fails half way never leaves a record cut in
two followed by more records (the file is always the transcript up to some byte, which ``verify``
checks up to the cut). The whole transcript is also kept in memory, so that if the file still can't
be written when the game ends it is saved whole to a fallback directory instead, and named.
"""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path
from typing import Any, Callable

__all__ = ["TranscriptFile", "fallback_directory", "open_private", "write_pending"]


def open_private(path: Path) -> Any:
    """A new, unbuffered file at ``path`` (or, if one is there already, at ``path`` with ``-2``,
    ``-3`` … before its suffix) readable only by its owner; the file's ``name`` is the path used. A
    game never writes into an older file: two games in one file would make neither a valid
    transcript. Raises :class:`OSError`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    candidate, number = path, 1
    while True:
        try:
            return open(candidate, "xb", buffering=0, opener=_owner_only)
        except FileExistsError:
            number += 1
            candidate = path.with_name(f"{path.stem}-{number}{path.suffix}")


def _owner_only(path: str, flags: int) -> int:
    return os.open(path, flags, 0o600)


def write_pending(file: Any, pending: bytearray) -> None:
    """Write ``pending`` to the unbuffered ``file``, removing from it what was written; raises
    :class:`OSError` (what is left of ``pending`` is what the disk did not take)."""
    while pending:
        written = file.write(pending)
        if not written:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        del pending[:written]


def fallback_directory() -> Path:
    """Where a transcript goes when its own directory can't take it: the system's temporary
    directory (usually another filesystem than the home directory)."""
    return Path(tempfile.gettempdir()) / "p2pgames-transcripts"


def _problem(error: OSError) -> str:
    return error.strerror or errno.errorcode.get(error.errno or 0, str(error))


class TranscriptFile:
    """Appends a game's transcript to ``path``; never raises on a disk problem.

    :meth:`write` and :meth:`close` return a sentence for the player when something changes (the
    disk stopped taking the transcript, it took it again, the transcript went to the fallback
    directory, or it could not be saved at all), else ``None``. :attr:`path` is where the
    transcript is (after :meth:`close`: where it ended up, or ``None`` if nowhere).
    """

    def __init__(
        self, path: Path, *, opener: Callable[[Path], Any] | None = None, fallback: Callable[[], Path] | None = None
    ) -> None:
        self.path: Path | None = path
        self._opener = opener  # default: open_private (looked up when used)
        self._fallback = fallback or fallback_directory
        self._file: Any = None
        self._pending = bytearray()  # what the disk has not taken yet, in order
        self._everything = bytearray()  # the whole transcript so far
        self.problem: str | None = None  # the disk problem now, if any

    def write(self, data: bytes) -> str | None:
        """Append ``data`` (whole records) and write all that is pending."""
        self._pending += data
        self._everything += data
        return self._drain()

    def _drain(self) -> str | None:
        had = self.problem
        try:
            if self._file is None:
                self._file = (self._opener or open_private)(self.path)  # type: ignore[arg-type]
                self.path = Path(self._file.name)
            write_pending(self._file, self._pending)
        except OSError as error:
            self.problem = _problem(error)
            if had is None:
                return (
                    f"Can't write your transcript to {self.path} ({self.problem}); the game goes on, and "
                    "it is kept in memory and written as soon as the disk takes it."
                )
            return None
        self.problem = None
        if had is not None:
            return f"Your transcript is being written to {self.path} again."
        return None

    def close(self) -> str | None:
        """Write what is pending, close the file; if the disk still refuses, save the whole
        transcript in the fallback directory instead."""
        # One last try if anything is unwritten (or the file never opened though there are records).
        unwritten = bool(self._pending) or (self._file is None and bool(self._everything))
        message = self._drain() if unwritten else None
        if self._file is not None:
            try:
                self._file.close()
            except OSError as error:
                self.problem = self.problem or _problem(error)
            self._file = None
        if self.problem is None:
            return message
        where = self._fallback() / (self.path.name if self.path is not None else "transcript.p2pt")
        try:
            with open_private(where) as file:
                write_pending(file, bytearray(self._everything))
        except OSError as error:
            lost = self.path
            self.path = None
            return (
                f"Your transcript could not be saved: {lost} ({self.problem}), and the fallback "
                f"{where.parent} ({_problem(error)})."
            )
        original, self.path = self.path, Path(file.name)
        return f"Can't write your transcript to {original} ({self.problem}); it is saved whole in {self.path} instead."
