"""The flood benchmark (issue 23): a real host in a process of its own, flooded over loopback by
a misbehaving peer, reports its peak memory. Run by ``p2pgames.benchmarks`` (``scripts/bench
--only floods``); not for people.

``python -m p2pgames.net._bench_flood --players N --transcript-dir DIR`` hosts a Beltpunk table
of ``N`` seats on 127.0.0.1, prints ``PORT <n>``, and serves until its standard input closes; then
it prints ``REPORT <json>``: its peak resident memory, its transcript's size, what it showed.
Its own player never moves (a person thinking: nobody is ever timed out waiting for it).

The attacks (:func:`attack`), each for a number of seconds, as fast as one process can:

* ``seated-chat``: a seated joiner sends distinct chat lines (reading what it is sent); hung up
  on, it rejoins and does it again;
* ``lobby-chat``: a player in the lobby does; turned away, it comes back with a new key;
* ``never-reads``: a seated joiner reads nothing and sends pings, each of which asks for a pong;
  its connection closed, it rejoins (reading nothing of the catch-up) and does it again.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Awaitable, Callable

import trio

from p2pgames.crypto import Identity
from p2pgames.games import get_game
from p2pgames.net._node import Node, open_host_listeners
from p2pgames.net._players import LOOPBACK, peak_memory_bytes
from p2pgames.net._scripted_peer import ScriptedPeer
from p2pgames.session import HOST_CONNECTION, ChatReceived, SeatAway, Session, make_envelope

__all__ = ["ATTACKS", "SEATS", "attack", "main"]

GAME = "beltpunk"
Stats = dict[str, int]


# -- the host --------------------------------------------------------------------------------------


async def _host(players: int, transcript_dir: Path) -> dict:
    node = Node(
        Session(Identity.generate(), "host", get_game, ruleset=get_game(GAME).ruleset(players)),
        transcript_dir=transcript_dir,
    )
    shown = {"chat_lines": 0, "stopped_reading": 0}

    async def watch() -> None:  # what a player's screen would take in
        async for event in node.events:
            if isinstance(event, ChatReceived):
                shown["chat_lines"] += 1
            elif isinstance(event, SeatAway) and event.reason == "it stopped reading":
                shown["stopped_reading"] += 1

    async with trio.open_nursery() as nursery:
        listeners = await open_host_listeners(0, LOOPBACK)
        print(f"PORT {listeners[0].socket.getsockname()[1]}", flush=True)
        await nursery.start(node.serve, listeners)
        nursery.start_soon(watch)
        await trio.to_thread.run_sync(sys.stdin.read)  # until the benchmark closes it
        nursery.cancel_scope.cancel()
    session = node.session
    transcript = node.transcript_path
    return {
        **shown,
        "peak_memory": peak_memory_bytes(),
        "transcript_bytes": transcript.stat().st_size if transcript is not None and transcript.exists() else 0,
        "fault": None if session.fault is None else session.fault.describe(session.names),
    }


# -- the attacks -----------------------------------------------------------------------------------


def _joiner() -> ScriptedPeer:
    return ScriptedPeer(Session(Identity.generate(), "flood", get_game, bot=True))


def _idle(session: Session) -> bool:
    """Seated, the game on, and only a person's decision awaited: nobody owes a step."""
    return session.stage == "playing" and session.waiting_on_decision() and session.role.in_flight is None


def _chat_lines(peer: ScriptedPeer, room: bytes, first: int, count: int) -> list[bytes]:
    identity = peer.session.identity
    return [
        make_envelope(identity, "chat", {"game_id": room, "text": f"flood {n}: " + "brass " * 12}).raw
        for n in range(first, first + count)
    ]


async def _flood_while_read(peer: ScriptedPeer, room: bytes, stats: Stats) -> None:
    """Send chat lines until the host closes the connection, reading what it sends meanwhile."""
    async with trio.open_nursery() as nursery:
        async def read_then_stop() -> None:
            await peer.drain()
            nursery.cancel_scope.cancel()

        nursery.start_soon(read_then_stop)
        try:
            while True:
                await peer.send(_chat_lines(peer, room, stats["lines"], 50))
                stats["lines"] += 50
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            nursery.cancel_scope.cancel()


async def _seated_chat(port: int, stats: Stats) -> None:
    peer = _joiner()
    await peer.dial(port)
    await peer.play_until(lambda: _idle(peer.session))
    while True:
        try:
            await _flood_while_read(peer, peer.session.game_id, stats)
            stats["closed"] += 1
        finally:
            await peer.aclose()
        await _rejoin(peer, port)


async def _rejoin(peer: ScriptedPeer, port: int) -> None:
    """Back on a new connection: its hello read, its rejoin sent, nothing more read."""
    peer.session.disconnected(HOST_CONNECTION, "closed by the host")
    await peer.dial(port)
    await peer.read_one()
    await peer.flush()


async def _lobby_chat(port: int, stats: Stats) -> None:
    while True:
        peer = _joiner()
        await peer.dial(port)
        try:
            await peer.play_until(lambda: peer.session.seated)
            await _flood_while_read(peer, peer.session.table_id, stats)
            stats["closed"] += 1
        finally:
            await peer.aclose()


async def _never_reads(port: int, stats: Stats) -> None:
    peer = ScriptedPeer(Session(Identity.generate(), "silent", get_game, bot=True))
    ping = make_envelope(peer.session.identity, "ping", {"nonce": 1}).raw
    await peer.dial(port)
    try:
        await peer.play_until(lambda: _idle(peer.session))
        while True:
            try:
                while True:
                    await peer.send([ping] * 1000)
                    stats["pings"] += 1000
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                stats["closed"] += 1
            await peer.aclose()
            await _rejoin(peer, port)
    finally:
        await peer.aclose()


ATTACKS: dict[str, Callable[[int, Stats], Awaitable[None]]] = {
    "seated-chat": _seated_chat,
    "lobby-chat": _lobby_chat,
    "never-reads": _never_reads,
}
# The seats of the attacked table: two (the host and the attacker), but a lobby never full.
SEATS = {"seated-chat": 2, "lobby-chat": 3, "never-reads": 2}


def attack(kind: str, port: int, seconds: float) -> Stats:
    """Run attack ``kind`` on the host at ``port`` for ``seconds``; what it sent, and how often
    the host closed its connection."""
    stats: Stats = {"lines": 0, "pings": 0, "closed": 0}

    async def run() -> None:
        with trio.move_on_after(seconds):
            await ATTACKS[kind](port, stats)

    trio.run(run)
    return stats


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="p2pgames.net._bench_flood")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--transcript-dir", required=True)
    args = parser.parse_args(argv)
    report = trio.run(_host, args.players, Path(args.transcript_dir))
    print("REPORT " + json.dumps(report), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

