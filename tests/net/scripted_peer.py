"""Tables for the flood tests: a real host on 127.0.0.1 (:func:`serve`), the sessions of its
seats (:func:`table_session`), and the misbehaving joiner, a :class:`ScriptedPeer` (a session over
a socket the test holds: it stops reading, or sends what its session would refuse).
"""

from __future__ import annotations

import socket

import trio

from p2pgames.crypto import Identity, reproducible_bytes
from p2pgames.games import get_game
from p2pgames.net import LOOPBACK, Node, open_host_listeners
from p2pgames.net._scripted_peer import ScriptedPeer
from p2pgames.session import Session

__all__ = ["ScriptedPeer", "serve", "table_session"]


def table_session(name: str, seed: bytes, ruleset=None) -> Session:
    """A bot's session called ``name`` (hosting ``ruleset`` if given), its key and secrets from ``seed``."""
    random_bytes = reproducible_bytes(seed + name.encode())
    return Session(Identity.generate(random_bytes(32)), name, get_game, ruleset=ruleset, bot=True,
                   narrate=False, random_bytes=random_bytes)


async def serve(nursery: trio.Nursery, node: Node, send_buffer: int | None = None) -> int:
    """Start ``node`` hosting on 127.0.0.1; its port. ``send_buffer`` (bytes) for every
    connection it accepts (Linux gives an accepted socket its listener's), so that what a peer
    leaves unread waits in the host's queue rather than in the kernel."""
    listeners = await open_host_listeners(0, LOOPBACK)
    if send_buffer is not None:
        for listener in listeners:
            listener.socket.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, send_buffer)
    await nursery.start(node.serve, listeners)
    return listeners[0].socket.getsockname()[1]
