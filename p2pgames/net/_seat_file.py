"""The saved seat: what a peer needs to take its seat again if its process dies mid-game.

The records (see :mod:`p2pgames.session._saved`) hold the seat's secret seed, so the file is
created readable by its owner only, like the identity key; it is never sent anywhere and is
deleted when the game ends (it is kept only while the game could still be resumed).
"""

from __future__ import annotations

from pathlib import Path

from p2pgames.net._transcript_file import open_private, remove_if_empty, write_pending
from p2pgames.session import SavedSeat, SavedSeatError, TranscriptError, encode_record, records_before_cut

__all__ = ["SeatFile", "read_saved_seat", "saved_seats", "SEAT_SUFFIX"]

SEAT_SUFFIX = ".p2pseat"


class SeatFile:
    """Appends saved-seat records to ``path`` (a new file, or with ``existing`` the file of a
    seat taken again); never raises on a disk problem: :meth:`write` returns a sentence for the
    player the first time the disk refuses (what it did not take stays in memory and is written
    at the next chance)."""

    def __init__(self, path: Path, *, existing: bool = False) -> None:
        self.path = path
        self._existing = existing
        self._file = None
        self._pending = bytearray()
        self._told = False

    def write(self, records: list[bytes]) -> str | None:
        self._pending += b"".join(encode_record(record) for record in records)
        try:
            if self._file is None:
                if self._existing:
                    self._file = open(self.path, "ab", buffering=0)
                else:
                    self._file = open_private(self.path)
                    self.path = Path(self._file.name)
            write_pending(self._file, self._pending)
        except OSError as error:
            # An existing file is never ours to remove (a seat taken again).
            if self._file is not None and not self._existing and remove_if_empty(self._file):
                self._file = None
            if self._told:
                return None
            self._told = True
            return (
                f"Can't save this seat to {self.path} ({error.strerror or error}): if this program "
                "stops, it can't take the seat again (the game goes on)."
            )
        return None

    def close(self, *, remove: bool) -> None:
        """Close the file; ``remove`` it too (the game ended: nothing to resume)."""
        if self._file is not None:
            try:
                self._file.close()
            except OSError:
                pass
            self._file = None
        if remove:
            try:
                self.path.unlink()
            except OSError:
                pass


def read_saved_seat(path: Path) -> SavedSeat:
    """The seat saved in ``path``; raises :class:`OSError`, or :class:`SavedSeatError` naming
    what is wrong with its contents. A file cut inside its last record (a crash while it was
    written) gives the records before the cut: that record was never acted on."""
    try:
        records = records_before_cut(path.read_bytes())
    except TranscriptError as error:
        raise SavedSeatError(str(error)) from None
    return SavedSeat.read(records)


def saved_seats(directory: Path) -> list[tuple[Path, SavedSeat | str]]:
    """Every saved seat in ``directory``, newest first: the seat, or why it can't be read."""
    found: list[tuple[Path, SavedSeat | str]] = []
    try:
        paths = sorted(directory.glob("*" + SEAT_SUFFIX), key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return []
    for path in paths:
        try:
            found.append((path, read_saved_seat(path)))
        except (OSError, SavedSeatError) as error:
            found.append((path, str(error)))
    return found


def hosted_games(directory: Path, key: bytes) -> frozenset[bytes]:
    """The games whose host seat (seat 0, signing key ``key``) is saved in ``directory``: games
    this host may still resume (a game's seat is forgotten when it ends)."""
    return frozenset(
        seat.game_id for _, seat in saved_seats(directory)
        if isinstance(seat, SavedSeat) and seat.seat == 0 and seat.key == key
    )
