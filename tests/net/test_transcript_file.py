"""The transcript file survives a full or failing disk: nothing is lost, nothing written twice, the
player is told once when it starts and once when it ends, and a disk that never recovers leaves
the whole transcript in the fallback directory, named. A disk full from the start leaves no empty
file behind, and a transcript deleted mid-game (its folder removed) is noticed and saved whole in
the fallback directory at once (issue 22, points 14 and 18)."""

from __future__ import annotations

import errno
import shutil
from pathlib import Path
from typing import Any, Callable

from cli_calls import call
from p2pgames.net import _seat_file, _transcript_file, play_table
from p2pgames.net._seat_file import SeatFile
from p2pgames.net._transcript_file import TranscriptFile
from p2pgames.session import encode_record


def disk_full() -> OSError:
    """What a write to a full disk raises."""
    return OSError(errno.ENOSPC, "No space left on device")


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
            raise disk_full()
        self.opened += 1
        return DiskFile(self, path)


class DiskFile:
    def __init__(self, disk: Disk, path: Path) -> None:
        self.disk = disk
        self.name = str(path)

    def write(self, data) -> int:
        if self.disk.full:
            raise disk_full()
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

    def flaky() -> None:
        writes["count"] += 1
        if 20 <= writes["count"] < 50:
            raise disk_full()

    monkeypatch.setattr(_transcript_file, "open_private", lambda path: WatchedFile(real_open(path), flaky))
    table = await play_table("probe", 3, seed=b"full-disk", transcripts=tmp_path)
    assert table.ok, [seat.fault for seat in table.seats]
    assert all(seat.verified for seat in table.seats), [seat.verification for seat in table.seats]
    notes = [seat.transcript_note for seat in table.seats]
    assert any(note is not None and note.endswith("again.") for note in notes), notes
    assert writes["count"] >= 50


class WatchedFile:
    """A real file (one ``open_private`` made) whose every write first calls ``on_write()``,
    which may raise, as a full disk's write does."""

    def __init__(self, file: Any, on_write: Callable[[], None]) -> None:
        self.file = file
        self.name = file.name
        self.on_write = on_write

    def fileno(self) -> int:
        return self.file.fileno()

    def write(self, data) -> int:
        self.on_write()
        return self.file.write(data)

    def close(self) -> None:
        self.file.close()


class FullDisk:
    """Real files that the disk takes nothing of: ``open_private`` creates them as usual, and
    every write fails as a full disk's does (from the start, or from write number ``after``).
    Given a ``folder``, only the files in it are on the full disk (the fallback directory is on
    another one)."""

    def __init__(self, after: int = 0, folder: Path | None = None) -> None:
        self.after = after
        self.folder = folder
        self.writes = 0
        self.real_open = _transcript_file.open_private

    def open(self, path: Path):
        file = self.real_open(path)
        if self.folder is not None and path.parent != self.folder:
            return file
        return WatchedFile(file, self._write)

    def _write(self) -> None:
        self.writes += 1
        if self.writes > self.after:
            raise disk_full()


def test_a_disk_full_from_the_start_leaves_no_empty_file(tmp_path):
    """Issue 22, point 18: the file is made, the disk takes nothing of it: it is removed again at
    once (and made again at the next try), so no 0-byte ``.p2pt`` is left for ``verify DIR`` to
    fail on, even if the process dies before the end; at the end the whole transcript is saved in
    the fallback directory, as for any disk that never recovers."""
    folder = tmp_path / "transcripts"
    disk = FullDisk()
    transcript = TranscriptFile(folder / "game.p2pt", opener=disk.open, fallback=lambda: tmp_path / "fallback")
    assert transcript.write(b"record-1;").startswith(f"Can't write your transcript to {folder / 'game.p2pt'}")
    assert list(folder.iterdir()) == []
    assert transcript.write(b"record-2;") is None
    assert list(folder.iterdir()) == [] and disk.writes == 2
    assert transcript.close() == (
        f"Can't write your transcript to {folder / 'game.p2pt'} (No space left on device); "
        f"it is saved whole in {tmp_path / 'fallback' / 'game.p2pt'} instead."
    )
    assert list(folder.iterdir()) == []
    assert (tmp_path / "fallback" / "game.p2pt").read_bytes() == b"record-1;record-2;"


def test_a_file_the_disk_took_part_of_is_kept(tmp_path):
    """A file holding records (the transcript up to the disk's filling) is a transcript cut short,
    which ``verify`` reads up to the cut: it stays."""
    folder = tmp_path / "transcripts"
    transcript = TranscriptFile(folder / "game.p2pt", opener=FullDisk(after=1).open, fallback=lambda: tmp_path / "fallback")
    transcript.write(b"record-1;")
    transcript.write(b"record-2;")
    transcript.close()
    assert (folder / "game.p2pt").read_bytes() == b"record-1;"
    assert (tmp_path / "fallback" / "game.p2pt").read_bytes() == b"record-1;record-2;"


def test_a_fallback_copy_the_disk_did_not_take_whole_is_removed(tmp_path, monkeypatch):
    disk = FullDisk()
    transcript = TranscriptFile(tmp_path / "game.p2pt", opener=disk.open, fallback=lambda: tmp_path / "fallback")
    transcript.write(b"record-1;")

    def full(file, pending) -> None:
        raise disk_full()

    monkeypatch.setattr(_transcript_file, "write_pending", full)
    told = transcript.close()
    assert told.startswith(f"Your transcript could not be saved: {tmp_path / 'game.p2pt'} (No space left on device)")
    assert list((tmp_path / "fallback").iterdir()) == [] and not (tmp_path / "game.p2pt").exists()


async def test_a_game_whose_disk_is_full_from_the_start_leaves_no_empty_transcript_and_verify_dir_passes(
    tmp_path, autojump_clock, monkeypatch
):
    """Issue 22, point 18, end to end: a folder holding an earlier game's transcripts, then a game
    whose every transcript write fails. The folder gets no empty file from it, so ``p2pgames
    verify FOLDER`` still passes; each seat's transcript is saved whole in the fallback directory,
    and verifies there."""
    folder = tmp_path / "transcripts"
    earlier = await play_table("probe", 2, seed=b"earlier", transcripts=folder)
    assert earlier.ok and all(seat.verified for seat in earlier.seats)
    monkeypatch.setattr(_transcript_file, "fallback_directory", lambda: tmp_path / "fallback")
    monkeypatch.setattr(_transcript_file, "open_private", FullDisk(folder=folder).open)
    table = await play_table("probe", 3, seed=b"disk-full", transcripts=folder)
    assert table.ok, [seat.fault for seat in table.seats]
    assert sorted(folder.iterdir()) == sorted(seat.transcript for seat in earlier.seats)
    for seat in table.seats:
        assert seat.transcript.parent == tmp_path / "fallback" and seat.verified, seat.transcript_note
        assert seat.transcript_note.endswith(f"it is saved whole in {seat.transcript} instead.")
    monkeypatch.undo()
    assert call("verify", str(folder))[0] == 0
    assert call("verify", str(tmp_path / "fallback"))[0] == 0


def test_a_transcript_whose_folder_is_deleted_is_saved_whole_in_the_fallback_directory_at_once(tmp_path):
    """Issue 22, point 14: writes to a deleted file succeed and go nowhere. The next write notices
    (the file has no name left), says so, and writes the whole transcript in the fallback
    directory, where it goes on; the deleted folder is not made again."""
    folder = tmp_path / "transcripts"
    saved = tmp_path / "fallback" / "game.p2pt"
    transcript = TranscriptFile(folder / "game.p2pt", fallback=lambda: tmp_path / "fallback")
    assert transcript.write(b"record-1;") is None
    shutil.rmtree(folder)
    assert transcript.write(b"record-2;") == (
        f"Your transcript {folder / 'game.p2pt'} was deleted (or its folder was); it is saved whole in {saved} instead."
    )
    assert transcript.path == saved and saved.read_bytes() == b"record-1;record-2;"
    assert transcript.write(b"record-3;") is None
    assert transcript.close() is None
    assert transcript.path == saved and saved.read_bytes() == b"record-1;record-2;record-3;"
    assert not folder.exists()


def test_a_transcript_deleted_after_its_last_write_is_saved_when_it_is_closed(tmp_path):
    transcript = TranscriptFile(tmp_path / "game.p2pt", fallback=lambda: tmp_path / "fallback")
    transcript.write(b"record-1;")
    (tmp_path / "game.p2pt").unlink()
    assert transcript.close() == (
        f"Your transcript {tmp_path / 'game.p2pt'} was deleted (or its folder was); it is saved whole in "
        f"{tmp_path / 'fallback' / 'game.p2pt'} instead."
    )
    assert (tmp_path / "fallback" / "game.p2pt").read_bytes() == b"record-1;"


async def test_a_game_whose_transcript_folder_is_deleted_mid_game_saves_every_transcript_whole(
    tmp_path, autojump_clock, monkeypatch
):
    """Issue 22, point 14, end to end: the folder is removed at the table's 20th transcript write;
    every seat notices at its next write, says where its transcript went, and that copy verifies
    whole."""
    folder = tmp_path / "transcripts"
    real_open = _transcript_file.open_private
    writes = {"count": 0}

    def twentieth_deletes_the_folder() -> None:
        writes["count"] += 1
        if writes["count"] == 20:
            shutil.rmtree(folder)

    monkeypatch.setattr(_transcript_file, "fallback_directory", lambda: tmp_path / "fallback")
    monkeypatch.setattr(_transcript_file, "open_private", lambda path: WatchedFile(real_open(path), twentieth_deletes_the_folder))
    table = await play_table("probe", 3, seed=b"folder-deleted", transcripts=folder)
    assert table.ok, [seat.fault for seat in table.seats]
    assert writes["count"] > 20 and not folder.exists()
    for seat in table.seats:
        assert seat.transcript == tmp_path / "fallback" / seat.transcript.name
        assert seat.transcript_note == (
            f"Your transcript {folder / seat.transcript.name} was deleted (or its folder was); "
            f"it is saved whole in {seat.transcript} instead."
        )
        assert seat.verified, seat.verification


def test_a_saved_seat_the_disk_took_nothing_of_leaves_no_empty_file(tmp_path, monkeypatch):
    """As for the transcript: a ``.p2pseat`` holding nothing (a disk full from the start) can't be
    read by ``resume``, so it is removed at once and made again at the next try."""
    disk = FullDisk()  # full from the start
    monkeypatch.setattr(_seat_file, "open_private", disk.open)
    seat = SeatFile(tmp_path / "game.p2pseat")
    assert seat.write([b"header"]).startswith(f"Can't save this seat to {tmp_path / 'game.p2pseat'}")
    assert list(tmp_path.iterdir()) == []
    disk.after = disk.writes + 1  # it takes the next write
    assert seat.write([b"choice"]) is None
    [path] = tmp_path.iterdir()
    assert path.read_bytes() == encode_record(b"header") + encode_record(b"choice")
    seat.close(remove=False)
