"""``p2pgames doctor``: can others reach a table hosted here? In plain words: where it listens,
this machine's addresses, whether the router forwards a port (tried, then undone), IPv6, and
how tables are found on the local network."""

from __future__ import annotations

import socket
from dataclasses import dataclass
from typing import Sequence

from p2pgames.invocation import command
from p2pgames.net._discovery import INTERFACE_VARIABLE, chosen_interfaces
from p2pgames.net._launch import _listen_problem, _outgoing_address, global_ipv6
from p2pgames.net._node import open_host_listeners
from p2pgames.net._portmap import MappingError, PortMapper, forward_by_hand, map_port, no_mapping_advice

__all__ = ["Finding", "diagnose"]


@dataclass(frozen=True)
class Finding:
    """One thing the doctor found: ``topic`` (a short label) and what it means, in a sentence."""

    topic: str
    text: str

    def __str__(self) -> str:
        return f"{self.topic + ':':<15}{self.text}"


async def diagnose(port: int, port_mappers: Sequence[PortMapper]) -> tuple[list[Finding], list[str]]:
    """Listen on ``port`` (0: any free one) as a host would, look at this machine's addresses,
    and ask the router through ``port_mappers`` (none: not asked) to forward the port, removing
    the mapping again at once. Returns the findings and the verdict (sentences, most important
    first). Raises :class:`~p2pgames.net.SetupError` if the port can't be listened on."""
    findings: list[Finding] = []
    try:
        listeners = await open_host_listeners(port)
    except OSError as error:
        raise _listen_problem(error, None, port) from None
    try:
        families = {listener.socket.family for listener in listeners}
        port = listeners[0].socket.getsockname()[1]
        over = "IPv4 and IPv6" if socket.AF_INET6 in families else "IPv4 only (this machine has no IPv6)"
        findings.append(Finding("Listening", f"a table could listen on port {port} of every address, over {over}."))

        ipv4 = _outgoing_address(socket.AF_INET)
        ipv6 = _outgoing_address(socket.AF_INET6)
        reachable_ipv6 = global_ipv6(ipv6)
        if ipv4 is None:
            findings.append(Finding("This machine", "no IPv4 network (only this machine can join over IPv4)."))
        else:
            findings.append(Finding("This machine", f"{ipv4} on your local network."))
        if reachable_ipv6 is not None:
            findings.append(Finding("IPv6", f"{reachable_ipv6} is a global address: friends with IPv6 reach you there, with no router to cross (unless a firewall blocks port {port})."))
        elif ipv6 is not None:
            findings.append(Finding("IPv6", f"only {ipv6}, which works inside your network, not from the internet."))
        else:
            findings.append(Finding("IPv6", "none on this machine."))

        mapping = None
        problem: MappingError | None = None
        if not port_mappers:
            findings.append(Finding("Router", "not asked (--no-upnp)."))
        elif ipv4 is None:
            findings.append(Finding("Router", "not asked: no IPv4 network."))
        else:
            try:
                mapper, mapping = await map_port(port_mappers, port, lease_seconds=60)
            except MappingError as error:
                problem = error
                findings.append(Finding("Router", f"{problem}."))
            else:
                try:
                    await mapper.remove(mapping)
                    undone = "removed again"
                except MappingError as error:
                    undone = f"not removed ({error}); it lapses by itself within a minute"
                findings.append(Finding(
                    "Router",
                    f"your router ({mapping.router}) forwarded port {mapping.external_port} to this machine when asked by "
                    f"{mapping.method}; its internet address is {mapping.external_address}. The test mapping is {undone}.",
                ))
        try:
            chosen = chosen_interfaces()
        except OSError as error:
            where = f"nowhere: {error.strerror}"
        else:
            where = f"on {', '.join(chosen)} only ({INTERFACE_VARIABLE})" if chosen else "on every network this machine is on"
        findings.append(Finding("LAN discovery", f"tables you host are announced by mDNS (_p2pgames._tcp) {where}."))

        verdict = []
        if ipv4 is not None:
            verdict.append("On your network, friends can join you (p2pgames join with no code finds your table).")
        if mapping is not None:
            verdict.append(
                f"Over the internet, friends can join you through your router at {mapping.external_address}: p2pgames asks "
                f"it by {mapping.method} to forward each table's port while the game runs. Nothing here can test that from "
                "outside: if a friend can't connect, your internet provider may block incoming connections; try IPv6."
            )
        elif problem is not None and problem.port_taken:
            verdict.append(
                f"Over the internet, friends can't join you over IPv4 on port {port}: your router keeps it for another "
                f"machine; check another with {command('doctor', '--port', 'P')}, and host with that --port."
            )
        elif problem is not None and ipv4 is not None:
            verdict.append(
                f"Over the internet, friends can't join you over IPv4 yet: {no_mapping_advice(port, ipv4)} "
                f"({_then_host(port, asks_router=True)})."
            )
        elif not port_mappers and ipv4 is not None:
            verdict.append(
                f"Over the internet over IPv4, friends can join you only if you {forward_by_hand(port, ipv4)}, "
                f"{_then_host(port, asks_router=False)} (not checked: --no-upnp)."
            )
        if reachable_ipv6 is not None:
            verdict.append(f"Friends with IPv6 can join you at [{reachable_ipv6}] with no router to cross.")
    finally:
        for listener in listeners:
            await listener.aclose()
    return findings, verdict


def _then_host(port: int, asks_router: bool) -> str:
    """The end of advice to forward ``port`` by hand: the command that hosts on that very port
    (the one checked may have been any free one, and a host picks another each time unless told),
    not asking the router when doctor didn't."""
    return "then host with " + command("host", "GAME", "--port", str(port), *(() if asks_router else ("--no-upnp",)))
