"""Tables for the network tests: a real host on 127.0.0.1 (:func:`serve`), the sessions of its
seats (:func:`table_session`), and the misbehaving joiner, a :class:`ScriptedPeer` (a session over
a socket the test holds: it stops reading, or sends what its session would refuse) — or a raw
connection that says no more than a stranger's hello (:func:`say_hello`, :func:`hello_to`).
"""

from __future__ import annotations

import functools
import socket

import trio

from p2pgames import LOCK_DECK_PROTOCOL
from p2pgames.crypto import Identity, reproducible_bytes
from p2pgames.games import get_game
from p2pgames.net import LOOPBACK, FrameReader, Node, frame, open_host_listeners
from p2pgames.net._scripted_peer import ScriptedPeer
from p2pgames.session import Envelope, Session, make_envelope, open_envelope
from p2pgames.session._elgamal_keys import deck_key_record

__all__ = ["ScriptedPeer", "hello_to", "say_hello", "serve", "table_session"]


def table_session(name: str, seed: bytes, ruleset=None) -> Session:
    """A bot's session called ``name`` (hosting ``ruleset`` if given), its key and secrets from ``seed``."""
    random_bytes = reproducible_bytes(seed + name.encode())
    return Session(Identity.generate(random_bytes(32)), name, get_game, ruleset=ruleset, bot=True,
                   random_bytes=random_bytes)


def hello_to(host_hello: Envelope, name: str, identity: Identity | None = None) -> bytes:
    """A valid ``hello`` answering ``host_hello`` (a host's, on one connection) as a player called
    ``name`` (``identity``: a new one unless given), for the host's game; enough for a seat in
    the lobby. At protocol 11 it carries a deck key and its proof (§A4), drawn from its identity."""
    identity = identity or Identity.generate()
    protocol = host_hello.body["protocol"]
    body = {"protocol": protocol, "game": host_hello.body["game"], "name": name,
            "seal": bytes(32), "host": host_hello.sender, "nonce": host_hello.body["nonce"], "bot": False}
    if protocol != LOCK_DECK_PROTOCOL:
        body["deck"] = deck_key_record(reproducible_bytes(b"deck key of " + identity.public_key.raw)(32), identity.public_key.raw)
    return make_envelope(identity, "hello", body).raw


async def say_hello(stream: trio.abc.Stream, reader: FrameReader, name: str, identity: Identity | None = None) -> Envelope:
    """Read the host's hello on ``stream`` and answer it (:func:`hello_to`); the host's hello."""
    host_hello = open_envelope(await reader.next_frame())
    assert host_hello.kind == "host-hello", host_hello.kind
    await stream.send_all(frame(hello_to(host_hello, name, identity)))
    return host_hello


async def serve(nursery: trio.Nursery, node: Node, send_buffer: int | None = None, *, after_the_game: bool = False) -> int:
    """Start ``node`` hosting on 127.0.0.1 (``after_the_game``: see :meth:`Node.serve`); its
    port. ``send_buffer`` (bytes) for every connection it accepts (Linux gives an accepted socket
    its listener's), so that what a peer leaves unread waits in the host's queue rather than in
    the kernel."""
    listeners = await open_host_listeners(0, LOOPBACK)
    if send_buffer is not None:
        for listener in listeners:
            listener.socket.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, send_buffer)
    await nursery.start(functools.partial(node.serve, after_the_game=after_the_game), listeners)
    return listeners[0].socket.getsockname()[1]
