"""The games a host may still resume, read from its saved seats (``hosted_games``): what
``host_table`` hands its session, so that a player dialling back for one is told its seat is kept
rather than that the game is gone."""

from __future__ import annotations

from p2pgames.net._seat_file import SeatFile, hosted_games
from p2pgames.session import SavedSeat


def saved(directory, name: str, game_id: bytes, seat: int, key: bytes) -> None:
    seat_file = SeatFile(directory / f"{name}.p2pseat")
    assert seat_file.write([SavedSeat.header("probe", game_id, seat, key, b"s" * 32, b"h" * 32)]) is None
    seat_file.close(remove=False)


def test_the_games_a_key_hosts_with_a_seat_saved_are_the_ones_it_may_resume(tmp_path):
    saved(tmp_path, "hosted", b"A" * 32, 0, b"k" * 32)
    saved(tmp_path, "joined", b"B" * 32, 2, b"k" * 32)  # a seat we took at another's table
    saved(tmp_path, "another-profile", b"C" * 32, 0, b"o" * 32)
    (tmp_path / "damaged.p2pseat").write_bytes(b"\x00\x00\x00\x09not a seat")
    assert hosted_games(tmp_path, b"k" * 32) == {b"A" * 32}
    assert hosted_games(tmp_path / "nowhere", b"k" * 32) == frozenset()
