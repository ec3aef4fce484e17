"""The transcript file survives a full or failing disk: nothing is lost, nothing written twice, the
player is told once when it starts and once when it ends, and a disk that never recovers leaves
the whole transcript in the fallback directory, named."""

from __future__ import annotations

import errno
from pathlib import Path

from p2pgames.net import _transcript_file, play_table
from p2pgames.net._transcript_file import TranscriptFile


class Disk:
    """A pretend disk: each write takes at most ``room`` bytes (``None``: all), and when
    ``full`` it takes none and says so."""

    def __init__(self, room: int | None = None) -> None:
        self.room = room
        self.full = False
        self.data = bytearray()
        self.opened = 0

    def open(self, path: Path) -> "DiskFile":
        if self.full:
            raise OSError(errno.ENOSPC, "No space left on device")
        self.opened += 1
        return DiskFile(self, path)


class DiskFile:
    def __init__(self, disk: Disk, path: Path) -> None:
        self.disk = disk
        self.name = str(path)

    def write(self, data) -> int:
        if self.disk.full:
            raise OSError(errno.ENOSPC, "No space left on device")
        taken = bytes(data[: self.disk.room]) if self.disk.room is not None else bytes(data)
        self.disk.data += taken
        return len(taken)

    def close(self) -> None:
        pass


def test_a_disk_that_fills_and_frees_loses_nothing_and_writes_nothing_twice(tmp_path):
    disk = Disk(room=5)  # short writes too
    transcript = TranscriptFile(tmp_path / "game.p2pt", opener=disk.open, fallback=lambda: tmp_path / "fallback")
    assert transcript.write(b"record-1;") is None
    disk.full = True
    told = transcript.write(b"record-2;")
    assert told == (
        f"Can't write your transcript to {tmp_path / 'game.p2pt'} (No space left on device); the game goes on, "
        "and it is kept in memory and written as soon as the disk takes it."
    )
    assert transcript.write(b"record-3;") is None  # told once
    disk.full = False
    assert transcript.write(b"record-4;") == f"Your transcript is being written to {tmp_path / 'game.p2pt'} again."
    assert transcript.close() is None
    assert bytes(disk.data) == b"record-1;record-2;record-3;record-4;"
    assert transcript.path == tmp_path / "game.p2pt" and not (tmp_path / "fallback").exists()


def test_a_disk_that_never_recovers_leaves_the_whole_transcript_in_the_fallback_directory(tmp_path):
    disk = Disk()
    transcript = TranscriptFile(tmp_path / "game.p2pt", opener=disk.open, fallback=lambda: tmp_path / "fallback")
    transcript.write(b"record-1;")
    disk.full = True
    transcript.write(b"record-2;")
    told = transcript.close()
    saved = tmp_path / "fallback" / "game.p2pt"
    assert told == (
        f"Can't write your transcript to {tmp_path / 'game.p2pt'} (No space left on device); "
        f"it is saved whole in {saved} instead."
    )
    assert transcript.path == saved and saved.read_bytes() == b"record-1;record-2;"
    assert saved.stat().st_mode & 0o777 == 0o600


def test_a_transcript_that_can_be_saved_nowhere_says_so(tmp_path):
    blocker = tmp_path / "not-a-directory"
    blocker.write_bytes(b"")
    disk = Disk()
    disk.full = True  # it can't even be opened
    transcript = TranscriptFile(tmp_path / "game.p2pt", opener=disk.open, fallback=lambda: blocker)
    assert transcript.write(b"record-1;").startswith("Can't write your transcript to")
    told = transcript.close()
    assert told is not None and told.startswith(
        f"Your transcript could not be saved: {tmp_path / 'game.p2pt'} (No space left on device), and the fallback {blocker} ("
    )
    assert transcript.path is None


async def test_a_game_whose_disk_fills_mid_game_finishes_and_its_transcripts_verify(tmp_path, autojump_clock, monkeypatch):
    """The disk fills at the table's 20th transcript write (whichever peer makes it) and frees 30
    writes later: the game goes on, a peer that met the full disk is told when it is written again,
    and every transcript verifies whole."""
    writes = {"count": 0}
    real_open = _transcript_file.open_private

    class Flaky:
        def __init__(self, file) -> None:
            self.file = file
            self.name = file.name

        def write(self, data) -> int:
            writes["count"] += 1
            if 20 <= writes["count"] < 50:
                raise OSError(errno.ENOSPC, "No space left on device")
            return self.file.write(data)

        def close(self) -> None:
            self.file.close()

    monkeypatch.setattr(_transcript_file, "open_private", lambda path: Flaky(real_open(path)))
    table = await play_table("probe", 3, seed=b"full-disk", transcripts=tmp_path)
    assert table.ok, [seat.fault for seat in table.seats]
    assert all(seat.verified for seat in table.seats), [seat.verification for seat in table.seats]
    notes = [seat.transcript_note for seat in table.seats]
    assert any(note is not None and note.endswith("again.") for note in notes), notes
    assert writes["count"] >= 50
