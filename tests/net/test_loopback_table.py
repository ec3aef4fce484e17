"""Whole tables of bot peers over real loopback TCP, each peer its own node and key."""

import gc
import warnings

import trio

from p2pgames.net import play_table


async def test_probe_table_over_tcp_agrees_and_verifies(tmp_path, autojump_clock):
    table = await play_table("probe", 3, seed=b"tcp", transcripts=tmp_path)
    assert table.ok, [seat.fault for seat in table.seats]
    assert table.entries > 0
    for seat in table.seats:
        assert seat.verified, seat.verification
        assert seat.bytes_sent > 0


async def test_a_table_for_one_starts_at_once_and_plays_to_the_end(tmp_path, autojump_clock):
    """A solo game: the host is the whole table, so it starts without waiting for anyone."""
    table = await play_table("dealbench", 1, seed=b"solo", transcripts=tmp_path)
    assert table.ok, [seat.fault for seat in table.seats]
    assert table.seats[0].verified, table.seats[0].verification


async def test_a_table_cancelled_mid_game_closes_every_transcript(tmp_path, autojump_clock):
    """Cancelling the nodes from outside (a test, a Ctrl-C) still closes the transcript files."""
    with trio.move_on_after(3):  # virtual seconds: the bots think 1 s a move, so mid-game
        await play_table("probe", 3, seed=b"cancelled", transcripts=tmp_path, think=1.0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        gc.collect()
    assert not [warning for warning in caught if issubclass(warning.category, ResourceWarning)]
    assert sorted(path.name for path in tmp_path.iterdir()), "the game had started and written transcripts"


async def test_a_solo_game_lost_to_the_court_hand_says_nobody_wins(tmp_path, autojump_clock):
    """Steam Court's solo variant can end with no winner: every report must say so in words."""
    table = await play_table("steamcourt", 1, seed=b"solo-loss", transcripts=tmp_path)
    assert table.ok, [seat.fault for seat in table.seats]
    assert table.result is not None and table.result.winners == ()
    assert table.seats[0].verified, table.seats[0].verification
    assert "Result: nobody won" in table.seats[0].verification
