"""Whole tables of bot peers over real loopback TCP, each peer its own node and key."""

import trio

from p2pgames.net import _transcript_file, play_table


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


async def test_a_table_cancelled_mid_game_closes_every_transcript(tmp_path, autojump_clock, monkeypatch):
    """Cancelling the nodes from outside (a test, a Ctrl-C) still closes the transcript files.

    Every file the nodes open is kept here, so none is closed by being garbage-collected: only
    the nodes' own clean-up can have closed them.
    """
    opened = []
    real_open_private = _transcript_file.open_private

    def recording_open_private(path):
        file = real_open_private(path)
        opened.append(file)
        return file

    monkeypatch.setattr(_transcript_file, "open_private", recording_open_private)
    with trio.move_on_after(3) as scope:  # virtual seconds: the bots think 1 s a move, so mid-game
        await play_table("probe", 3, seed=b"cancelled", transcripts=tmp_path, think=1.0)
    assert scope.cancelled_caught, "the game must still have been running when it was cancelled"
    assert len(opened) == 3, "every seat had started writing its transcript"
    assert [file.closed for file in opened] == [True, True, True]


async def test_a_solo_game_lost_to_the_court_hand_says_nobody_wins(tmp_path, autojump_clock):
    """Steam Court's solo variant can end with no winner: every report must say so in words."""
    table = await play_table("steamcourt", 1, seed=b"solo-loss", transcripts=tmp_path)
    assert table.ok, [seat.fault for seat in table.seats]
    assert table.result is not None and table.result.winners == ()
    assert table.seats[0].verified, table.seats[0].verification
    assert "Result: nobody won" in table.seats[0].verification


async def test_a_game_never_writes_into_an_older_transcript(tmp_path, autojump_clock):
    """Two games with the same seed and directory: the second gets new files, both verify."""
    first = await play_table("probe", 2, seed=b"same", transcripts=tmp_path)
    second = await play_table("probe", 2, seed=b"same", transcripts=tmp_path)
    paths = [seat.transcript for table in (first, second) for seat in table.seats]
    assert len(set(paths)) == 4 and all(path.exists() for path in paths)
    assert all(seat.verified for table in (first, second) for seat in table.seats)
    assert [seat.transcript.name for seat in second.seats] == [
        seat.transcript.name.replace(".p2pt", "-2.p2pt") for seat in first.seats
    ]
