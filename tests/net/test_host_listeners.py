"""A host listening on every interface takes one port for IPv4 and IPv6 alike, so one join code's
port reaches it by either kind of address (issue 13, IPv6)."""

from __future__ import annotations

import socket

import trio

from p2pgames.net._node import open_host_listeners


async def test_every_interface_listens_on_one_port_for_both_families(ipv6_loopback):
    listeners = await open_host_listeners(0)
    try:
        families = {listener.socket.family: listener.socket.getsockname()[1] for listener in listeners}
        assert set(families) == {socket.AF_INET, socket.AF_INET6}
        assert len(set(families.values())) == 1  # trio alone would give each family its own port
        port = families[socket.AF_INET]
        for address in ("127.0.0.1", "::1"):
            stream = await trio.open_tcp_stream(address, port)
            await stream.aclose()
    finally:
        for listener in listeners:
            await listener.aclose()


async def test_a_given_address_listens_there_only():
    listeners = await open_host_listeners(0, "127.0.0.1")
    try:
        assert [listener.socket.getsockname()[0] for listener in listeners] == ["127.0.0.1"]
    finally:
        for listener in listeners:
            await listener.aclose()
