"""Port mapping on the home router, so that friends on the internet reach a host behind NAT.

Two ways of asking the router are tried: UPnP IGD (:mod:`p2pgames.net._upnp`) and PCP with its
predecessor NAT-PMP (:mod:`p2pgames.net._natpmp`). Each is a :class:`PortMapper`: it adds a
mapping with a lease, adds it again to renew it, and removes it. :func:`hold_port_mapping` keeps
one for as long as a table runs.
"""

from __future__ import annotations

import ipaddress
import os
from typing import Callable, Sequence

import trio

from p2pgames.net._mapping import MappingError, PortMapper, PortMapping, behind_another_nat, is_private_wan_address

__all__ = [
    "LEASE_SECONDS", "MappingError", "PortMapper", "PortMapping", "behind_another_nat", "default_port_mappers",
    "forward_by_hand", "hold_port_mapping", "is_private_wan_address", "map_port", "no_mapping_advice", "no_mapping_line",
]

# A lease the router keeps for 20 minutes: renewed at half of it while the table runs, and gone
# by itself 20 minutes after a crash that couldn't remove it.
LEASE_SECONDS = 1200
# The shortest wait between renewals, and after a renewal the router refused.
RETRY_SECONDS = 60
# How long removing a mapping may hold up a closing table (or Ctrl-C).
REMOVE_SECONDS = 3.0


def default_port_mappers(*, environ: "os._Environ[str] | dict[str, str]" = os.environ) -> list[PortMapper]:
    """The ways of asking this machine's router, most common first: UPnP IGD, then PCP/NAT-PMP.

    Two environment variables choose where to ask, for a machine with several networks (a VPN, a
    virtual machine's bridge) and for tests: ``P2PGAMES_INTERFACE``, the IPv4 address of the
    interface UPnP searches on (the first IPv4 one listed; default: the system's choice), and
    ``P2PGAMES_GATEWAY``, the router's address for PCP and NAT-PMP, ``ADDRESS`` or ``ADDRESS:PORT`` (default: this machine's
    default gateway, port 5351). Raises ``ValueError`` for a ``P2PGAMES_GATEWAY`` that is no
    IPv4 address with an optional port.
    """
    from p2pgames.net._natpmp import GatewayMapper
    from p2pgames.net._upnp import UPnPMapper

    # UPnP's search goes out on IPv4: the first IPv4 address listed (an IPv6 one is for discovery).
    interface = next(iter(_ipv4_entries(environ.get("P2PGAMES_INTERFACE") or "")), None)
    gateway_text = (environ.get("P2PGAMES_GATEWAY") or "").strip()
    gateway_options: dict = {}
    if gateway_text:
        address, _, port = gateway_text.partition(":")
        try:
            ipaddress.IPv4Address(address)
            if port:
                gateway_options["port"] = int(port)
                if not 0 < gateway_options["port"] < 65536:
                    raise ValueError
        except ValueError:
            raise ValueError(f"P2PGAMES_GATEWAY={gateway_text!r} is not an IPv4 address with an optional :PORT") from None
        gateway_options["gateway"] = address
    return [UPnPMapper(interface=interface), GatewayMapper(**gateway_options)]


def _ipv4_entries(text: str) -> list[str]:
    """The IPv4 addresses in a comma-separated list, in order."""
    found = []
    for entry in text.split(","):
        try:
            found.append(str(ipaddress.IPv4Address(entry.strip())))
        except ValueError:
            continue
    return found


def forward_by_hand(port: int, lan_address: str) -> str:
    """What a person does on the router when nothing can ask it for them."""
    return f"forward TCP port {port} to {lan_address} on your router by hand"


def no_mapping_advice(port: int, lan_address: str) -> str:
    """What a host with no mapping does instead, ending the one-line message."""
    return f"for friends on the internet, {forward_by_hand(port, lan_address)}, or play over IPv6"


def no_mapping_line(error: MappingError, port: int, lan_address: str) -> str:
    """The one line a host shows for ``error``: why there is no mapping, and what to do instead."""
    advice = "" if error.port_taken else f"; {no_mapping_advice(port, lan_address)}"
    return f"Not reachable from the internet over IPv4: {error}{advice}."


async def map_port(
    mappers: Sequence[PortMapper], internal_port: int, lease_seconds: int = LEASE_SECONDS,
) -> tuple[PortMapper, PortMapping]:
    """Ask every way in ``mappers`` at once for ``internal_port`` (the same port outside), and
    keep the grant of the first in ``mappers``' order that got one; another's grant is removed
    (a router may speak both UPnP and PCP), as is every grant when we are cancelled meanwhile.
    Raises :class:`MappingError` when none got one: the first refusal of a router that
    answered, else one line saying none did."""
    results: list[PortMapping | MappingError | None] = [None] * len(mappers)

    async def ask(index: int, mapper: PortMapper) -> None:
        try:
            results[index] = await mapper.add(internal_port, lease_seconds)
        except MappingError as error:
            results[index] = error

    try:
        async with trio.open_nursery() as nursery:
            for index, mapper in enumerate(mappers):
                nursery.start_soon(ask, index, mapper)
    except BaseException:
        # Cancelled (Ctrl-C) while asking: what a router granted meanwhile is given back.
        for mapper, result in zip(mappers, results):
            if isinstance(result, PortMapping):
                await _remove_quietly(mapper, result)
        raise
    granted = [(mapper, result) for mapper, result in zip(mappers, results) if isinstance(result, PortMapping)]
    if granted:
        kept, *others = granted
        for mapper, mapping in others:
            await _remove_quietly(mapper, mapping)
        return kept
    errors = [result for result in results if isinstance(result, MappingError)]
    for error in errors:
        if error.answered:
            raise error
    # A mapper may speak more than one protocol (PCP, falling back to NAT-PMP): all are named.
    spoken = list(dict.fromkeys(name for mapper in mappers for name in getattr(mapper, "protocols", (mapper.method,))))
    methods = ", ".join(spoken[:-1]) + " or " + spoken[-1] if len(spoken) > 1 else "".join(spoken)
    raise MappingError(f"no router on this network answered when asked by {methods} to open port {internal_port}")


async def _remove_quietly(mapper: PortMapper, mapping: PortMapping) -> str | None:
    """Remove ``mapping``, whatever is being cancelled around us, within :data:`REMOVE_SECONDS`;
    the problem in words, or ``None`` once it is gone."""
    with trio.CancelScope(shield=True):
        with trio.move_on_after(REMOVE_SECONDS):
            try:
                await mapper.remove(mapping)
            except MappingError as error:
                return str(error)
            return None
    return f"the router at {mapping.router} did not answer within {REMOVE_SECONDS:.0f} s"


async def hold_port_mapping(
    mappers: Sequence[PortMapper],
    internal_port: int,
    until: trio.Event,
    *,
    say: Callable[[str], None],
    on_moved: Callable[[PortMapping], None] = lambda mapping: None,
    lease_seconds: int = LEASE_SECONDS,
    task_status=trio.TASK_STATUS_IGNORED,
) -> None:
    """Get a port mapping for ``internal_port`` (:func:`map_port`) and hold it until ``until`` is
    set or we are cancelled (Ctrl-C), then remove it. Started with ``nursery.start``, which
    returns the :class:`PortMapping`, or the :class:`MappingError` saying why there is none
    (then this task has already ended).

    While held, it is renewed at half its lease (a permanent one, lease 0, is not). A renewal
    the router refuses is said in one line and tried again a minute later, and the lease running
    out meanwhile in another; one that moves the
    mapping to another external address or port (the router restarted, or the provider gave it
    a new address) is passed to ``on_moved``.
    """
    try:
        mapper, mapping = await map_port(mappers, internal_port, lease_seconds)
    except MappingError as error:
        task_status.started(error)
        return
    task_status.started(mapping)
    try:
        failing = lapsed = False
        lapses_at = trio.current_time() + mapping.lease_seconds
        while mapping.lease_seconds:
            wait = RETRY_SECONDS if failing else max(mapping.lease_seconds // 2, RETRY_SECONDS)
            with trio.move_on_after(wait):
                await until.wait()
            if until.is_set():
                break
            try:
                renewed = await mapper.add(internal_port, lease_seconds, external_port=mapping.external_port)
            except MappingError as error:
                if not failing:
                    say(f"Could not renew the port mapping on your router: {error}; trying again every minute.")
                failing = True
                if not lapsed and trio.current_time() >= lapses_at:
                    lapsed = True
                    say("The port mapping on your router has run out (its lease ended before it could be renewed): "
                        "friends on the internet can't join until it is renewed; those at the table usually stay connected.")
                continue
            if failing:
                say("The port mapping on your router is renewed.")
            failing = lapsed = False
            lapses_at = trio.current_time() + renewed.lease_seconds
            moved = (renewed.external_address, renewed.external_port) != (mapping.external_address, mapping.external_port)
            mapping = renewed
            if moved:
                on_moved(mapping)
        await until.wait()
    finally:
        problem = await _remove_quietly(mapper, mapping)
        if problem is not None:
            lapses = f"it lapses by itself within {mapping.lease_seconds // 60} minutes" if mapping.lease_seconds else (
                f"remove the mapping of port {mapping.external_port} in your router's settings")
            say(f"Could not remove the port mapping from your router ({problem}); {lapses}.")
