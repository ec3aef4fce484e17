"""What a port mapping is, whichever protocol obtained it: the mapping a router granted, the
error a router's refusal or silence raises, the one interface every way of asking implements, and
how to tell a router that stands behind another NAT. The protocols (:mod:`p2pgames.net._upnp`,
:mod:`p2pgames.net._natpmp`) and the table's use of them (:mod:`p2pgames.net._portmap`) build on it.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from typing import Protocol

__all__ = ["MappingError", "PortMapper", "PortMapping", "behind_another_nat", "is_private_wan_address"]


@dataclass(frozen=True)
class PortMapping:
    """A TCP port mapping the router granted: ``external_address``:``external_port`` on the
    internet reaches ``internal_port`` of this machine until ``lease_seconds`` after it was
    granted (0: until removed; some UPnP routers grant nothing else). ``method`` names the
    protocol that obtained it ("UPnP", "NAT-PMP" or "PCP"); ``router`` the address of the router
    that granted it."""

    method: str
    router: str
    external_address: str
    external_port: int
    internal_port: int
    lease_seconds: int

    def __post_init__(self) -> None:
        if self.method not in ("UPnP", "NAT-PMP", "PCP"):
            raise ValueError(f"unknown port mapping method {self.method!r}")
        ipaddress.ip_address(self.external_address)  # raises ValueError
        for port in (self.external_port, self.internal_port):
            if not 0 < port < 65536:
                raise ValueError(f"port {port} is out of range")
        if self.lease_seconds < 0:
            raise ValueError(f"lease of {self.lease_seconds} s")


class MappingError(Exception):
    """The router could not be asked, or said no. The text is one line: what happened, with a
    remedy only where one is particular to it ("choose another --port"); whoever shows it adds the
    general one (:func:`~p2pgames.net._portmap.no_mapping_advice`: forward the port by hand, or play over IPv6). ``answered``:
    a router did answer (it refused, or stands behind another NAT), which says more than
    another protocol's silence. ``port_taken``: the port is another machine's on the router, so
    forwarding it by hand is no remedy either (choosing another port is).
    """

    def __init__(self, message: str, *, answered: bool = False, port_taken: bool = False) -> None:
        super().__init__(message)
        self.answered = answered
        self.port_taken = port_taken


class PortMapper(Protocol):
    """One way of asking a router for a port mapping. Each call blocks no longer than a few
    seconds, and raises :class:`MappingError` (never anything else for a network problem or an
    answer it doesn't like)."""

    method: str  # the protocol of the mappings it grants; a mapper speaking several may say which in ``protocols``

    async def add(self, internal_port: int, lease_seconds: int, *, external_port: int | None = None) -> PortMapping:
        """Map ``external_port`` (default: ``internal_port``) to ``internal_port`` of this machine,
        or renew that mapping. Raises :class:`MappingError`."""
        ...

    async def remove(self, mapping: PortMapping) -> None:
        """Remove ``mapping``. Raises :class:`MappingError`."""
        ...


# A router's own internet address in one of these ranges means another NAT stands between it and
# the internet (a second router, or the provider's carrier-grade NAT): a mapping on this router
# alone can't be reached from outside.
_PRIVATE_WAN_NETWORKS = tuple(
    ipaddress.ip_network(network)
    for network in ("0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12", "192.168.0.0/16")
)


def is_private_wan_address(address: str) -> bool:
    """Whether a router's external IPv4 ``address`` is private or shared (RFC 1918, RFC 6598):
    there is another NAT in front of it. Raises ``ValueError`` for text that is no address."""
    parsed = ipaddress.ip_address(address)
    return any(parsed in network for network in _PRIVATE_WAN_NETWORKS if network.version == parsed.version)


def behind_another_nat(router: str, external_address: str, port: int) -> str:
    """The line for a router whose own internet address ``external_address`` is private."""
    return (f"your router's own internet address {external_address} is private: another router, or your provider's "
            f"shared NAT, stands in front of the router at {router}; forward port {port} on that router too if it is yours")
