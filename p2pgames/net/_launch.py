"""Starting tables: join codes, hosting (with bot peers), joining.

A *join code* tells a joiner where the host listens and which key it must have:
``HOST:PORT/xxxx-xxxx-xxxx-xxxx`` (IPv6 hosts in brackets). The fingerprint part is what makes it
safe to join over a network someone else controls: a different key at that address is refused.
``HOST:PORT`` alone also works, without that protection.
"""

from __future__ import annotations

import os
import re
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import trio

from p2pgames.bots import bot_for
from p2pgames.crypto import Identity
from p2pgames.engine import Ruleset
from p2pgames.games import get_game
from p2pgames.net._node import NetSettings, Node, open_host_listeners
from p2pgames.net._players import LOOPBACK, drive_bot
from p2pgames.session import Session

__all__ = ["JoinCode", "host_table", "join_table", "lan_address"]

_FINGERPRINT = re.compile(r"^[a-z2-7]{4}(-?[a-z2-7]{4}){3}$", re.IGNORECASE)


@dataclass(frozen=True)
class JoinCode:
    """Where to join and, optionally, the host key's fingerprint."""

    host: str
    port: int
    fingerprint: str | None = None

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        text = f"{host}:{self.port}"
        return f"{text}/{self.fingerprint}" if self.fingerprint else text

    @classmethod
    def parse(cls, text: str) -> "JoinCode":
        """Parse ``HOST:PORT[/FINGERPRINT]``; raises ``ValueError`` saying what is wrong."""
        text = text.strip()
        address, _, fingerprint = text.partition("/")
        if address.startswith("["):
            host, _, rest = address[1:].partition("]")
            if not rest.startswith(":"):
                raise ValueError(f"{text!r}: an IPv6 join code looks like [ADDRESS]:PORT/FINGERPRINT")
            port_text = rest[1:]
        else:
            host, _, port_text = address.rpartition(":")
        if not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
            raise ValueError(f"{text!r} is not a join code: expected HOST:PORT or HOST:PORT/FINGERPRINT")
        if fingerprint and not _FINGERPRINT.match(fingerprint):
            raise ValueError(f"{fingerprint!r} is not a key fingerprint (16 letters a–z and digits 2–7)")
        return cls(host, int(port_text), fingerprint.lower() or None)


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
) -> Node:
    """Host a table: listen, print the join code, start ``bots`` bot peers; return our node."""
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
