"""Where a joiner can be reached, should the host hand it the table (issue 25; SPEC §B15): a
joiner of a table on loopback listens on loopback, on a port of its own, and tells the table
where; with ``listen=False`` (``join --no-reach``) it listens nowhere and tells nobody.

Over loopback, with trio's autojump clock."""

from __future__ import annotations

import pytest
import trio

from p2pgames.crypto import Identity
from p2pgames.games import get_game
from p2pgames.net import LOOPBACK, JoinCode, host_table, join_table


@pytest.mark.parametrize("listen", [True, False])
async def test_a_joiner_tells_the_table_where_it_listens_unless_told_not_to(autojump_clock, listen):
    game = get_game("probe")
    async with trio.open_nursery() as nursery:
        host = await host_table(
            nursery, identity=Identity.generate(), name="hostess", ruleset=game.ruleset(2), bind=LOOPBACK,
            announce_on_lan=False,
        )
        _, port = host.address
        joiner = await join_table(
            nursery, identity=Identity.generate(), name="bea", code=JoinCode(LOOPBACK, port, None), listen=listen,
        )
        await joiner.wait_until(lambda: joiner.session.stage == "playing")
        with trio.fail_after(60):
            await host.wait_until(lambda: 1 in host.session.reaches or not listen)
        if listen:
            [(address, listening)] = joiner.session.reach
            assert address == LOOPBACK and listening not in (0, port)
            assert host.session.reach_of(1) == ((LOOPBACK, listening),)
            # It listens there: something dialling it is held until the table is handed to it.
            stream = await trio.open_tcp_stream(LOOPBACK, listening)
            await stream.aclose()
            assert host.session.successor() == 1
        else:
            assert joiner.session.reach == () and joiner.listeners == []
            assert 1 not in host.session.reaches and host.session.successor() is None
        joiner.leave("done")
        with trio.fail_after(60):
            await joiner.finished.wait()
        nursery.cancel_scope.cancel()
    if listen:  # closed when the node stopped
        assert all(listener.socket.fileno() == -1 for listener in joiner.listeners)
