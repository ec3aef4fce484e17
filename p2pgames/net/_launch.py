"""Starting tables: hosting (with bot peers and a LAN announcement), joining."""

from __future__ import annotations

import os
import socket
from pathlib import Path
from typing import Callable

import trio

from p2pgames.bots import bot_for
from p2pgames.crypto import Identity
from p2pgames.engine import Ruleset
from p2pgames.games import get_game
from p2pgames.net._discovery import announce
from p2pgames.net._joincode import JoinCode
from p2pgames.net._node import NetSettings, Node, open_host_listeners
from p2pgames.net._players import LOOPBACK, drive_bot
from p2pgames.session import Session

__all__ = ["host_table", "join_table", "lan_address"]

def lan_address() -> str:
    """This machine's address on its local network, for join codes (127.0.0.1 if none)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        # No packet is sent: connecting a UDP socket only picks the outgoing interface.
        probe.connect(("192.0.2.1", 9))
        address = probe.getsockname()[0]
    except OSError:
        address = LOOPBACK
    finally:
        probe.close()
    return address


async def _bot_peer(ruleset: Ruleset, host: str, port: int, name: str, settings: NetSettings) -> None:
    """A bot at the table: its own key, its own TCP connection, playing until the game ends."""
    game = get_game(ruleset.game)
    session = Session(Identity.generate(), name, get_game, bot=True, narrate=False)
    node = Node(session, settings=settings)
    async with trio.open_nursery() as nursery:
        await nursery.start(node.connect, host, port)
        await drive_bot(node, bot_for(game, os.urandom(16)))


async def host_table(
    nursery: trio.Nursery,
    *,
    identity: Identity,
    name: str,
    ruleset: Ruleset,
    port: int = 0,
    bind: str | None = None,
    bots: int = 0,
    transcripts: Path | None = None,
    settings: NetSettings = NetSettings(),
    say: Callable[[str], None] = lambda text: None,
    announce_on_lan: bool = True,
) -> Node:
    """Host a table: listen, print the join code, start ``bots`` bot peers; return our node.

    Unless it listens on loopback only, the table is announced on the LAN (UDP broadcast) while
    seats are free, so ``p2pgames join`` with no code finds it.
    """
    if not 0 <= bots < ruleset.players:
        raise ValueError(f"{bots} bots don't fit a table of {ruleset.players} with you at it")
    listeners = await open_host_listeners(port, bind)
    actual_port = listeners[0].socket.getsockname()[1]
    session = Session(identity, name, get_game, ruleset=ruleset)
    node = Node(session, settings=settings, transcript_dir=transcripts)
    await nursery.start(node.serve, listeners)
    fingerprint = identity.public_key.fingerprint()
    local_only = bind in ("127.0.0.1", "localhost", "::1")
    code = JoinCode(LOOPBACK if local_only else lan_address(), actual_port, fingerprint)
    humans = ruleset.players - 1 - bots
    if humans:
        say(f"Join code: {code}")
        say(f"Others join with:  p2pgames join {code}")
        if not local_only:
            say(f"(on this machine:  p2pgames join {JoinCode(LOOPBACK, actual_port, fingerprint)})")
    for number in range(bots):
        nursery.start_soon(_bot_peer, ruleset, LOOPBACK, actual_port, f"bot-{number + 1}", settings)
    if humans and not local_only and announce_on_lan:
        game = get_game(ruleset.game)

        def describe() -> dict | None:
            if session.stage != "lobby" or session.lobby_size >= ruleset.players:
                return None  # the table is full: stop announcing
            return {
                "game": game.name, "title": game.title, "host": session.name, "port": actual_port,
                "fingerprint": fingerprint, "seated": session.lobby_size, "seats": ruleset.players,
            }

        nursery.start_soon(announce, describe)
    return node


async def join_table(
    nursery: trio.Nursery,
    *,
    identity: Identity,
    name: str,
    code: JoinCode,
    transcripts: Path | None = None,
    settings: NetSettings = NetSettings(),
    say: Callable[[str], None] = lambda text: None,
) -> Node:
    """Join the table at ``code``; return our node once connected (raises ``OSError``)."""
    session = Session(identity, name, get_game, expected_host=code.fingerprint)
    node = Node(session, settings=settings, transcript_dir=transcripts)
    say(f"Connecting to {code.host}:{code.port} …")
    await nursery.start(node.connect, code.host, code.port)
    if code.fingerprint is None:
        say("No key fingerprint in the join code: the host's identity can't be checked.")
    return node
