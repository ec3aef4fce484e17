"""The transcript file a node writes as the game runs, surviving a full or failing disk.

Records are appended with unbuffered writes, and what the disk did not take stays in memory, in
order, to be written at the next chance: a write that fails half way never leaves a record cut in
two followed by more records (the file is always the transcript up to some byte, which ``verify``
checks up to the cut). The whole transcript is also kept in memory, so that if the file still can't
be written when the game ends it is saved whole to a fallback directory instead, and named; and
so that a file deleted while it is written (its folder removed mid-game: writes to a deleted file
succeed, and would go nowhere) is noticed at the next write and saved whole there at once.

No write leaves an empty or partial file of its own behind: a new file the disk took nothing of
is removed again (a disk full before the start leaves no empty ``.p2pt`` for ``verify`` to trip
on), and so is a fallback copy the disk did not take whole.
"""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path
from typing import Any, Callable

__all__ = [
    "TranscriptFile", "fallback_directory", "open_private", "remove_if_empty", "remove_if_ours", "save_whole", "write_pending",
]


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


def save_whole(path: Path, data: bytes) -> Path:
    """Write ``data`` to a new private file at ``path`` (see :func:`open_private`) and return the
    path used; raises :class:`OSError`, leaving no file behind."""
    file = open_private(path)
    try:
        write_pending(file, bytearray(data))
    except OSError:
        remove_if_ours(file)
        raise
    file.close()
    return Path(file.name)


def remove_if_ours(file: Any) -> None:
    """Remove the file we created and opened as ``file`` (closed first), if its path is still
    that file; never raises."""
    try:
        ours = os.fstat(file.fileno())
    except (AttributeError, OSError, ValueError):  # closed already, or not a real file
        ours = None
    try:
        file.close()
    except OSError:
        pass
    if ours is None:
        return
    try:
        there = os.stat(file.name)
        if (there.st_dev, there.st_ino) == (ours.st_dev, ours.st_ino):
            os.unlink(file.name)
    except OSError:
        pass


def remove_if_empty(file: Any) -> bool:
    """After a write to ``file`` (a new file of ours: :func:`open_private`) failed: remove it
    (:func:`remove_if_ours`) if the disk took nothing of it — an empty transcript or saved seat
    would not read, and it is made again at the next try — and say whether it was; never raises."""
    try:
        empty = os.fstat(file.fileno()).st_size == 0
    except (AttributeError, OSError, ValueError):  # closed already, or not a real file
        return False
    if empty:
        remove_if_ours(file)
    return empty


def _deleted(file: Any) -> bool:
    """Whether the open ``file`` has been deleted (no name left on the disk: its folder was
    removed, say). One ``fstat``, about a microsecond and a half: checked at every write."""
    try:
        return os.fstat(file.fileno()).st_nlink == 0
    except (AttributeError, OSError, ValueError):  # not a real file (a test's), or already closed
        return False


def fallback_directory() -> Path:
    """Where a transcript goes when its own directory can't take it: the system's temporary
    directory (usually another filesystem than the home directory)."""
    return Path(tempfile.gettempdir()) / "p2pgames-transcripts"


def _problem(error: OSError) -> str:
    return error.strerror or errno.errorcode.get(error.errno or 0, str(error))


class TranscriptFile:
    """Appends a game's transcript to ``path``; never raises on a disk problem.

    :meth:`write` and :meth:`close` return a sentence for the player when something changes (the
    disk stopped taking the transcript, it took it again, the file was deleted and the transcript
    went to the fallback directory, or it could not be saved at all), else ``None``. :attr:`path`
    is where the transcript is (after :meth:`close`: where it ended up, or ``None`` if nowhere).
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
        if self._file is not None and _deleted(self._file):
            return self._saved_elsewhere()
        had = self.problem
        try:
            if self._file is None:
                self._file = (self._opener or open_private)(self.path)  # type: ignore[arg-type]
                self.path = Path(self._file.name)
            write_pending(self._file, self._pending)
        except OSError as error:
            if self._file is not None and remove_if_empty(self._file):
                self._file = None
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

    def _saved_elsewhere(self) -> str | None:
        """The open file was deleted: write the whole transcript in the fallback directory, and
        go on there (or, if that disk refuses too, as for any disk problem)."""
        deleted = self.path
        try:
            self._file.close()
        except OSError:
            pass
        self._file = None
        self.path = self._fallback() / (deleted.name if deleted is not None else "transcript.p2pt")
        self._pending = bytearray(self._everything)
        self.problem = None
        told = self._drain()
        if self.problem is not None:
            return (
                f"Your transcript {deleted} was deleted (or its folder was), and it can't be written to "
                f"{self.path.parent} either ({self.problem}); the game goes on, and it is kept in memory and "
                "written as soon as the disk takes it."
            )
        assert told is None
        return f"Your transcript {deleted} was deleted (or its folder was); it is saved whole in {self.path} instead."

    def close(self) -> str | None:
        """Write what is pending, close the file; if the disk still refuses, save the whole
        transcript in the fallback directory instead."""
        # One last try (and look) if anything was ever written, or the file never opened.
        message = self._drain() if self._everything else None
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
            saved = save_whole(where, bytes(self._everything))
        except OSError as error:
            lost = self.path
            self.path = None
            return (
                f"Your transcript could not be saved: {lost} ({self.problem}), and the fallback "
                f"{where.parent} ({_problem(error)})."
            )
        original, self.path = self.path, saved
        return f"Can't write your transcript to {original} ({self.problem}); it is saved whole in {self.path} instead."
