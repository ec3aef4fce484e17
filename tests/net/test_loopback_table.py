"""Whole tables of bot peers over real loopback TCP, each peer its own node and key."""

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
