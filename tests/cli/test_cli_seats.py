"""``p2pgames seats`` and ``seats forget ID`` (issue 26, point 6): the unfinished games this
machine can take up again, and dropping one for good after asking."""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

from cli_calls import call
from saved_files import VECTORS, write_profile

from p2pgames.games import get_game
from p2pgames.session import SavedSeat, encode_record, summarize_transcript


def _save_seat(home: Path, tmp_path: Path, stem: str, age: int, transcript: bool = True) -> tuple[Path, str]:
    """A saved seat of seat 1 of the vector game ``stem`` (its transcript copied beside it), as a
    joiner of a host at 192.0.2.7:4500; returns its path and the start of its game id."""
    data = (VECTORS / f"{stem}.p2pt").read_bytes()
    summary = summarize_transcript(data, get_game)
    copy = tmp_path / f"{stem}.p2pt"
    copy.write_bytes(data)
    seats = home / "seats"
    seats.mkdir(parents=True, exist_ok=True)
    path = seats / f"{stem}-seat1.p2pseat"
    records = [
        SavedSeat.header(summary.game, summary.game_id, 1, summary.keys[1], b"s" * 32, summary.keys[0]),
        SavedSeat.where("192.0.2.7", 4500, str(copy) if transcript else None),
    ]
    path.write_bytes(b"".join(encode_record(record) for record in records))
    path.chmod(0o600)
    os.utime(path, (1_800_000_000 - 60 * age, 1_800_000_000 - 60 * age))
    return path, summary.game_id.hex()[:8]


def test_seats_lists_the_unfinished_games_newest_first(home, tmp_path):
    write_profile(home, "default", b"vector\x01")
    _, torpedo = _save_seat(home, tmp_path, "session-torpedo-2p", age=1)
    _, court = _save_seat(home, tmp_path, "session-steamcourt-3p", age=0)
    _, probe = _save_seat(home, tmp_path, "session-probe-3p", age=2, transcript=False)
    code, out, err = call("seats")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert [line.split(" · ")[0] for line in lines[:3]] == [court, torpedo, probe]
    assert lines[0].split(" · ")[2:] == ["Steam Court", "seat 1, host at 192.0.2.7:4500", "with p0 (bot), p2 (bot)", "310 entries"]
    assert lines[2].split(" · ")[2:] == ["probe", "seat 1, host at 192.0.2.7:4500"]  # no transcript to read
    assert len(lines) == 5 and lines[3] == ""
    assert lines[4].startswith("Take one up again with ") and lines[4].endswith(" seats forget ID.")
    assert " resume ID; drop one for good with " in lines[4]


def test_seats_with_none_saved_says_so(home):
    code, out, _ = call("seats")
    assert code == 0 and out.startswith("No unfinished games: none is saved in ")


def test_seats_forget_asks_and_keeps_the_seat_unless_told_yes(home, tmp_path, monkeypatch):
    write_profile(home, "default", b"vector\x01")
    path, game_id = _save_seat(home, tmp_path, "session-torpedo-2p", age=0)
    for answer in ("", "n\n", "whatever\n"):
        monkeypatch.setattr(sys, "stdin", io.StringIO(answer))
        code, out, _ = call("seats", "forget", game_id)
        assert code == 0 and "You can't take it up again. [y/N]" in out and out.endswith("Kept it.\n")
        assert path.exists()
    monkeypatch.setattr(sys, "stdin", io.StringIO("y\n"))
    code, out, _ = call("seats", "forget", game_id)
    assert code == 0 and out.endswith(f"Forgot your seat in torpedo {game_id}, seat 1: this program can't take it up again.\n")
    assert not path.exists()


def test_seats_forget_yes_does_not_ask_and_a_wrong_or_ambiguous_id_deletes_nothing(home, tmp_path):
    write_profile(home, "default", b"vector\x01")
    torpedo_path, torpedo = _save_seat(home, tmp_path, "session-torpedo-2p", age=0)
    court_path, court = _save_seat(home, tmp_path, "session-steamcourt-3p", age=1)
    code, _, err = call("seats", "forget", "zz")
    assert code == 1 and "no unfinished game matching 'zz'" in err
    code, _, err = call("seats", "forget", "", "--yes")  # the start of every id: it names neither
    assert code == 2 and "is the start of the ids of 2 saved games" in err and "give more of it" in err
    assert torpedo_path.exists() and court_path.exists()
    code, out, _ = call("seats", "forget", court, "--yes")
    assert code == 0 and "[y/N]" not in out and not court_path.exists() and torpedo_path.exists()


def test_seats_of_a_profile_named_before_forget_keeps_the_profile(home, tmp_path):
    write_profile(home, "p2", b"vector\x01")
    path, game_id = _save_seat(home, tmp_path, "session-torpedo-2p", age=0)
    assert call("seats")[1].startswith("No unfinished games")  # not a default profile's
    assert call("seats", "--profile", "p2")[1].startswith(game_id)
    code, _, _ = call("seats", "--profile", "p2", "forget", game_id, "--yes")
    assert code == 0 and not path.exists()


def test_forgetting_a_hosted_game_forgets_the_seats_of_the_bots_its_host_launched(home, tmp_path):
    """``host --bots`` saves its bots' seats (with their keys) in seats/bots, for a resumed host
    to launch them again: without their host they can't be taken up, so they go with it."""
    write_profile(home, "default", b"vector\x00")
    data = (VECTORS / "session-probe-3p.p2pt").read_bytes()
    summary = summarize_transcript(data, get_game)
    (home / "seats" / "bots").mkdir(parents=True)

    def save(path: Path, game_id: bytes, seat: int, key: bytes, *extra: bytes) -> Path:
        records = [SavedSeat.header("probe", game_id, seat, key, b"s" * 32, summary.keys[0]), *extra]
        path.write_bytes(b"".join(encode_record(record) for record in records))
        return path

    hosted = save(home / "seats" / "probe-host.p2pseat", summary.game_id, 0, summary.keys[0],
                  SavedSeat.where("127.0.0.1", 4500, None))
    ours = [save(home / "seats" / "bots" / f"bot{seat}.p2pseat", summary.game_id, seat, summary.keys[seat],
                 SavedSeat.bot_identity(bytes([seat]) * 32)) for seat in (1, 2)]
    other = save(home / "seats" / "bots" / "other.p2pseat", b"o" * 32, 1, summary.keys[1], SavedSeat.bot_identity(b"o" * 32))
    code, out, _ = call("seats")
    assert code == 0 and len([line for line in out.splitlines() if " · " in line]) == 1, "bots' seats are no games of yours"
    code, out, _ = call("seats", "forget", summary.game_id.hex()[:8], "--yes")
    assert code == 0 and "Forgot your seat in probe" in out
    assert not hosted.exists() and not any(path.exists() for path in ours) and other.exists()
