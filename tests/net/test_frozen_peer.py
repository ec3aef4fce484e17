"""A peer whose own process was stopped (``kill -STOP``, a suspended laptop) past the others'
patience wakes to find itself dropped and the game ended, or its table gone: the absence it then
records is its own, not the seat it can't reach (issue 22, point 19).

Two probe nodes over loopback on trio's autojump clock, the joiner dialling through the
fault-injecting proxy. Only one of them perceives the jump of the clock as its own freeze: the
other is given ``frozen_after`` beyond any jump, so that to it the time simply passed, as it does
for a process that kept running while another was stopped.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
import trio

from faultproxy import FaultProxy, Link, kind_is
from p2pgames.bots import bot_for
from p2pgames.games import get_game
from p2pgames.net import LOOPBACK, NetSettings, Node, drive_bot, open_host_listeners
from p2pgames.session import FaultCode, verify_transcript
from scripted_peer import table_session

RUNNING = NetSettings(away_grace=2.0, frozen_after=10.0**9)  # never takes time passing for a freeze
STOPPABLE = NetSettings(away_grace=2.0)


def node(seat: int, seed: bytes, settings: NetSettings, transcripts: Path) -> Node:
    ruleset = get_game("probe").ruleset(2, {}) if seat == 0 else None
    return Node(table_session(f"bot-{seat}", seed, ruleset), settings=settings, transcript_dir=transcripts)


async def table_with_a_stop(tmp_path: Path, seed: bytes, stopped: int, clock) -> list[Node]:
    """Host and joiner play, the joiner through a proxy; mid-game the process of seat ``stopped``
    stops for 45 s: nothing crosses the link (nor a new one: the kernel takes a connection for a
    stopped process, which never answers it) and the clock jumps. The other seat gives up on it
    after the 2 s grace period and ends the game; then the stopped one runs again, finds itself
    dropped, and ends the game for itself in turn (its bot ends it for a seat away too long)."""
    nodes = [node(seat, seed, STOPPABLE if seat == stopped else RUNNING, tmp_path) for seat in (0, 1)]
    game = get_game("probe")
    listeners = await open_host_listeners(0, LOOPBACK)
    stopping = False

    def on_link(link: Link) -> None:
        if stopping:
            link.stall("both")

    proxy = FaultProxy(listeners[0].socket.getsockname()[1], on_link=on_link)
    with trio.fail_after(600):
        async with trio.open_nursery() as nursery:
            await nursery.start(proxy.run)
            await nursery.start(nodes[0].serve, listeners)
            await nursery.start(nodes[1].connect, LOOPBACK, proxy.port)
            for seat in (0, 1):
                bot = bot_for(game, seed + bytes([seat]))
                nursery.start_soon(functools.partial(drive_bot, nodes[seat], bot, if_away="end"))
            link = await proxy.wait_for_link(0)
            await link.wait_frame("down", kind_is("entry", t="keys"))
            stopping = True
            link.stall("both")
            clock.jump(45)
            await nodes[1 - stopped].finished.wait()
            stopping = False
            for link in proxy.links:
                link.resume("both")
            await nodes[stopped].finished.wait()
            nursery.cancel_scope.cancel()
    return nodes


def ended(node: Node) -> str:
    fault = node.session.fault
    assert fault is not None and fault.code == FaultCode.ENDED and fault.culprit is None, fault
    report = verify_transcript(node.transcript_path.read_bytes(), get_game)
    assert report.ok, report.describe()
    assert fault.reason in report.describe()
    return fault.reason


@pytest.mark.parametrize("stopped, host_says, joiner_says", [
    (1,  # the host drops the silent joiner and ends the game; the joiner wakes to a host gone
     "bot-1 (seat 1) was away (connection lost) and the host ended the game rather than wait",
     "bot-1 (seat 1) was away (its process was stopped for 0:44) and could not get back to the host after; "
     "it ended the game rather than wait"),
    (0,  # the joiner drops the silent host and ends the game; the host wakes to a joiner gone
     "the host was away (its process was stopped for 0:44) and bot-1 (seat 1) did not come back after; "
     "it ended the game rather than wait",
     "bot-0 (seat 0) was away (connection lost) and bot-1 (seat 1) ended the game rather than wait"),
])
async def test_a_peer_stopped_past_the_grace_period_records_its_own_absence(
    tmp_path, autojump_clock, stopped, host_says, joiner_says
):
    host, joiner = await table_with_a_stop(tmp_path, b"stopped-%d" % stopped, stopped, autojump_clock)
    assert (ended(host), ended(joiner)) == (host_says, joiner_says)


async def test_after_the_whole_table_slept_a_host_that_goes_away_later_is_the_one_away(tmp_path, autojump_clock):
    """Both processes stopped together (the machine slept): nobody dropped anybody, the game goes
    on. A minute later the host's process dies: the joiner's absence long settled, the host is
    the one away."""
    seed = b"slept-then-host-died"
    nodes = [node(seat, seed, STOPPABLE, tmp_path) for seat in (0, 1)]
    game = get_game("probe")
    listeners = await open_host_listeners(0, LOOPBACK)
    host_life = trio.CancelScope()

    async def run_host(task_status=trio.TASK_STATUS_IGNORED) -> None:
        with host_life:
            async with trio.open_nursery() as inner:
                await inner.start(nodes[0].serve, listeners)
                task_status.started()
                await drive_bot(nodes[0], bot_for(game, seed), think=20.0)

    with trio.fail_after(600):
        async with trio.open_nursery() as nursery:
            await nursery.start(run_host)
            await nursery.start(nodes[1].connect, LOOPBACK, listeners[0].socket.getsockname()[1])
            nursery.start_soon(functools.partial(
                drive_bot, nodes[1], bot_for(game, seed + b"1"), think=20.0, if_away="end",
            ))
            await nodes[1].wait_until(lambda: nodes[1].session.replica is not None and nodes[1].session.replica.seq >= 4)
            autojump_clock.jump(45)
            await trio.sleep(65)  # the game goes on; the stop settles (60 s)
            assert nodes[1].session.stage == "playing" and not nodes[1].session.away
            host_life.cancel()  # kill -9
            await nodes[1].finished.wait()
    assert ended(nodes[1]) == "bot-0 (seat 0) was away (connection lost) and bot-1 (seat 1) ended the game rather than wait"
