"""A seat taken again before its host is back waits for it (issue 22, point 15): the host and a
joiner crashed together, the joiner's ``resume`` came first and said "nothing is listening there"
at once; the host, resumed, then waited for it in vain and the game was ended. Now the resumed
joiner dials again as a running joiner does, for the grace period, saying that it waits; past it,
it gives up and keeps the seat. On trio's autojump clock: the waits cost virtual time only."""

from __future__ import annotations

import functools
import socket
from pathlib import Path
from typing import NamedTuple

import pytest
import trio

from faultproxy import LOOPBACK, kind_is
from p2pgames import PROTOCOL_VERSION
from p2pgames.net import FrameReader, JoinCode, NetSettings, SetupError, frame
from p2pgames.net._resume import find_saved_seats, resume_seat
from p2pgames.session import SavedSeat
from p2pgames.session._messages import make_envelope
from test_network_faults import Table, play


async def crash_host_and_joiner(table: Table) -> None:
    """Kill the host and seat 2 at the same moment, mid-game."""
    watched = await table.proxy.wait_for_link(0)
    await watched.wait_frame("down", kind_is("entry", t="keys"))
    table.kill(0)
    table.kill(2)


async def test_a_joiner_resumed_before_its_host_waits_for_it_and_the_game_finishes(tmp_path, autojump_clock):
    said: list[str] = []
    back = trio.Event()

    async def both_crash_the_joiner_comes_back_first(table: Table, nursery: trio.Nursery) -> None:
        await crash_host_and_joiner(table)
        [(path, _)] = find_saved_seats(table.seats, table.identities[2])

        async def resume_joiner(inner: trio.Nursery):
            node = await resume_seat(
                inner, identity=table.identities[2], seat_path=path, name="bot-2", bot=True, say=said.append,
                code=JoinCode(LOOPBACK, table.host_port, None), wait_for_host=True,  # straight to the host: nothing there
            )
            table.nodes[2] = node
            back.set()
            return node

        nursery.start_soon(table._run_peer, 2, None, resume_joiner)
        await trio.sleep(60)  # the host's machine takes a minute to come back
        assert said == [
            f"Taking your seat again at 127.0.0.1:{table.host_port} …",
            f"The host is not answering at 127.0.0.1:{table.host_port}: nothing is listening there (connection refused). "
            "Waiting for it to come back, for up to 3:00 (--grace sets how long; Ctrl-C stops) …",
        ]
        await table.restart(nursery, 0)
        await back.wait()

    table = await play(tmp_path, b"both-crash", during=both_crash_the_joiner_comes_back_first)
    assert said[-1].startswith("Back at the table: caught up on ")
    assert table.nodes[2].session.resumed is not None and table.nodes[0].session.resumed is not None
    table.check_finished_and_verified()


class Refused(NamedTuple):
    """How taking seat 2 again failed: what ``resume_seat`` raised, after how long, and its seat."""

    error: SetupError
    waited: float
    path: Path
    saved: SavedSeat


async def take_seat_2_again_at(
    tmp_path, seed: bytes, stand_in=None, settings: NetSettings = NetSettings(), port: int | None = None,
) -> tuple[Table, Refused]:
    """Play a table, crash its host and seat 2 together, then take seat 2 again where
    ``stand_in`` (a stream handler of the test's) answers in the host's place — or, without one,
    at ``port`` or the host's port, where nothing listens now; it must fail. Returns once its node
    stopped."""
    table = Table(tmp_path, seed)
    async with trio.open_nursery() as nursery:
        await table.start(nursery)
        await crash_host_and_joiner(table)
        port = port or table.host_port
        if stand_in is not None:
            listeners = await trio.open_tcp_listeners(0, host=LOOPBACK)
            nursery.start_soon(trio.serve_listeners, functools.partial(stand_in, table), listeners)
            port = listeners[0].socket.getsockname()[1]
        [(path, saved)] = find_saved_seats(table.seats, table.identities[2])
        began = trio.current_time()
        with pytest.raises(SetupError) as caught:
            await resume_seat(
                nursery, identity=table.identities[2], seat_path=path, name="bot-2", bot=True,
                code=JoinCode(LOOPBACK, port, None), settings=settings, wait_for_host=True,
            )
        waited = trio.current_time() - began
        await trio.sleep(settings.linger + 1)  # its node has stopped, and closed its files
        nursery.cancel_scope.cancel()  # the rest of the table: nothing more to see
    return table, Refused(caught.value, waited, path, saved)


def given_up(refused: Refused, port: int, grace: int, shown: str, why: str) -> None:
    """``refused`` gave up on the host at ``port`` after the grace period (``grace`` seconds,
    ``shown`` so), for ``why``, and kept the seat, saying how to wait again or drop it."""
    assert grace <= refused.waited < grace + 1
    assert str(refused.error) == (
        f"the host at 127.0.0.1:{port} did not come back within {shown}: {why}. Your seat is kept: p2pgames resume "
        "waits for it again (add --code CODE if it gives you a new join code); if the game is over, p2pgames resume "
        f"--forget {refused.saved.game_id.hex()[:8]} deletes the seat"
    )
    assert refused.error.network and refused.path.exists()


async def test_a_host_that_never_comes_back_is_given_up_after_the_grace_period_and_the_seat_kept(tmp_path, autojump_clock):
    table, refused = await take_seat_2_again_at(tmp_path, b"never-back", settings=NetSettings(away_grace=90))
    given_up(refused, table.host_port, 90, "1:30", "nothing is listening there (connection refused)")


async def test_a_grace_period_over_before_the_first_dial_fails_gives_up_and_keeps_the_seat(tmp_path, autojump_clock, monkeypatch):
    """Nothing ever answers the first dial (a firewall dropping it), and the grace period is
    shorter than the time a dial is given: it ends first, and the seat gives up, saying so, and
    keeps its saved seat. Before, giving up raised an IndexError (no failure to name)."""
    with socket.socket() as nowhere:
        nowhere.bind((LOOPBACK, 0))  # a port of ours, never listening: no table uses it
        unanswered = nowhere.getsockname()[1]
        dial = trio.open_tcp_stream

        async def dropped_there(host: str, port: int, **options):
            if port == unanswered:
                await trio.sleep_forever()
            return await dial(host, port, **options)

        monkeypatch.setattr(trio, "open_tcp_stream", dropped_there)
        settings = NetSettings(away_grace=5)
        assert settings.away_grace < settings.connect_timeout
        _, refused = await take_seat_2_again_at(tmp_path, b"unanswered", settings=settings, port=unanswered)
    given_up(refused, unanswered, 5, "0:05", "no answer")


async def test_a_seat_that_no_host_takes_back_within_the_time_is_kept(tmp_path, autojump_clock):
    """Something at the host's address accepts the connection and says nothing: after the time
    allowed, the seat gives up, and keeps its saved seat (only the host's word forgets it)."""

    async def silent(table: Table, stream) -> None:
        await trio.sleep_forever()

    _, refused = await take_seat_2_again_at(tmp_path, b"silent-host", silent)
    assert str(refused.error) == "could not take your seat again: the host did not take us back"
    assert refused.path.exists()


async def test_a_seat_its_host_refuses_without_saying_the_game_is_over_is_kept(tmp_path, autojump_clock):
    """The host's reject answers no particular rejoin (it could be an old one, replayed): the seat
    stops, and stays saved for the player to decide; the message says how to drop it."""

    async def refusing_host(table: Table, stream) -> None:
        """Says hello as the game's host, and refuses whatever comes."""
        host = table.identities[0]
        hello = make_envelope(host, "host-hello", {
            "protocol": PROTOCOL_VERSION, "game": "probe", "ruleset": table.ruleset.encode(), "name": "hostess",
            "seal": bytes(32), "nonce": bytes(range(32)),
        })
        await stream.send_all(frame(hello.raw))
        await FrameReader(stream).next_frame()  # its rejoin
        await stream.send_all(frame(make_envelope(host, "reject", {"reason": "not now"}).raw))
        await trio.sleep_forever()

    _, refused = await take_seat_2_again_at(tmp_path, b"refused", refusing_host)
    assert str(refused.error) == (
        "could not take your seat again: the host refused to take us back: not now; your saved seat is kept "
        f"(if the game is over, p2pgames resume --forget {refused.saved.game_id.hex()[:8]} deletes it)"
    )
    assert refused.path.exists()


async def test_a_catch_up_slower_than_the_connect_timeout_is_waited_for_while_it_goes_on(tmp_path, autojump_clock):
    """A seat taken again is caught up from the log's start (it keeps no entries): over a slow
    link that takes longer than ``connect_timeout``. It waits while entries keep coming; it gave
    up after ``connect_timeout`` and sent ``leave``, which ended the game for everyone."""
    slow: list[bool] = []

    def on_link(link) -> None:
        if slow:
            link.throttle("down", 2000)  # bytes a second: some 40 kB of log take 20 s

    table = Table(tmp_path, b"slow-catch-up", on_link)
    async with trio.open_nursery() as nursery:
        await table.start(nursery)
        watched = await table.proxy.wait_for_link(1)  # seat 2's
        await watched.wait_frame("down", kind_is("entry"), count=40)
        table.kill(2)
        slow.append(True)
        began = trio.current_time()
        await table.restart(nursery, 2)
        assert trio.current_time() - began > NetSettings().connect_timeout
        await table.finish()
        nursery.cancel_scope.cancel()
    table.check_finished_and_verified()
