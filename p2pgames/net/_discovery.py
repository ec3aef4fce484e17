"""Finding tables on the local network: hosts publish a DNS-SD service over multicast DNS
(mDNS, RFC 6762/6763) while they have free seats; joiners browse for it.

================  ===========================================================================
service type      ``_p2pgames._tcp.local.`` (:data:`SERVICE_TYPE`)
instance name     ``<host>'s <title> (<fingerprint's first 4 letters>:<port>)``, at most 59
                  bytes of UTF-8 (63, the DNS label limit, less room for the ``-2`` zeroconf
                  appends when the name is taken); control characters become spaces, dots ``·``.
                  Only for people and other browsers (``avahi-browse``): joiners read the TXT.
SRV / A / AAAA    the table's TCP port; this machine's addresses (see :func:`_own_addresses`)
TXT               ``v=1``, ``game``, ``title``, ``host``, ``fp`` (``xxxx-xxxx-xxxx-xxxx``),
                  ``seated``, ``seats``; text is UTF-8, cut to 40/60/40 characters
================  ===========================================================================

The host updates the TXT when ``seated`` changes and withdraws the service (mDNS goodbye) when
the table is full or the host stops. It is only a hint for finding the table: a joiner connects to
the announced address and port and checks the announced key fingerprint like any join code's, and
a person choosing among tables sees each host's name and fingerprint. Records with one fingerprint
are one table, whatever addresses and ports they give: a host is known by its key, and anyone can
publish a record with a real host's fingerprint and their own address. The joiner tries a table's
places (each address with its record's port; 8 at most) in turn until the host with that key
answers. Anyone on the LAN can publish anything, so text is cleaned of control characters and cut
to length, and a record that doesn't parse (wrong ``v``, a bad port or fingerprint, counts that
aren't small numbers) is ignored.

**Interfaces.** mDNS runs on every interface, or only on the addresses listed (comma-separated
IPv4/IPv6 addresses of this machine) in the environment variable ``P2PGAMES_INTERFACE``: how a
player on a machine with several networks or a VPN picks one (``P2PGAMES_INTERFACE=192.168.1.20``),
and how the tests keep to loopback (``127.0.0.1``).

zeroconf runs its own asyncio loop in a thread: its blocking calls are made from trio worker
threads, its callbacks come back to trio through the trio token. It is imported only when used
(it takes a while to import, and most commands never discover anything).
"""

from __future__ import annotations

import errno
import functools
import ipaddress
import math
import os
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Callable, Mapping, Sequence

import trio

from p2pgames.net._joincode import JoinCode
from p2pgames.session import clean_text

if TYPE_CHECKING:
    from zeroconf import ServiceInfo, Zeroconf

__all__ = [
    "INTERFACE_VARIABLE", "SERVICE_TYPE", "Announcement", "announce", "chosen_interfaces", "discover", "find_tables",
    "one_per_key", "watch",
]

SERVICE_TYPE = "_p2pgames._tcp.local."
INTERFACE_VARIABLE = "P2PGAMES_INTERFACE"
_VERSION = b"1"
_LIMITS = {"game": 40, "title": 60, "host": 40}  # characters, as shown
_INSTANCE_BYTES = 59  # a DNS label is at most 63 bytes; zeroconf appends "-2", "-3", … on a clash
_MAX_SEATS = 100  # no game seats more: bigger counts are junk
_RESOLVE_MS = 3000  # how long to wait for a found table's records (usually already cached)
_CLOSE_SECONDS = 2.0  # goodbyes take ~0.4 s; a wedged zeroconf thread is left behind after this
# The places kept for one key (the first, in dial order): an honest host's records give a handful
# (an address on each of its networks, IPv4 and IPv6), while anyone on the LAN may publish records
# with a real host's fingerprint, and a joiner tries the places in turn, each one nobody answers
# costing it the connect timeout (15 s): at most 8 keep that to two minutes, not hours.
_MAX_PLACES = 8


@dataclass(frozen=True)
class Announcement:
    """A table found on the network: its host is dialed at ``address``:``port`` first, then at
    each of ``more_places`` (``(address, port)``, best first) — the other addresses its records
    give, each with its record's port."""

    address: str
    game: str
    title: str
    host: str
    port: int
    fingerprint: str
    seated: int
    seats: int
    more_places: tuple[tuple[str, int], ...] = ()

    @property
    def places(self) -> tuple[tuple[str, int], ...]:
        """Every ``(address, port)`` the host may be dialed at, in the order to try them."""
        return ((self.address, self.port), *self.more_places)

    @property
    def join_code(self) -> JoinCode:
        return JoinCode(self.address, self.port, self.fingerprint)

    @property
    def join_codes(self) -> tuple[JoinCode, ...]:
        """A join code for each of :attr:`places`, in order."""
        return tuple(JoinCode(address, port, self.fingerprint) for address, port in self.places)

    def describe(self) -> str:
        others = len(self.more_places)
        more = f" (or {others} other address{'es' if others > 1 else ''})" if others else ""
        return f"{self.title} hosted by {self.host} ({self.seated}/{self.seats} seated) at {self.join_code}{more}"

    @classmethod
    def parse(
        cls, addresses: Sequence[str], port: int | None, txt: Mapping[bytes, bytes | None],
        *, networks: Sequence[ipaddress.IPv4Network | ipaddress.IPv6Network] = (),
    ) -> "Announcement | None":
        """The table a resolved service describes (its ``addresses`` as text, SRV ``port`` and TXT
        keys and values), or ``None`` if it isn't one: never raises. Its addresses are tried in
        :func:`_dial_order` (on the ``networks`` this machine is on first)."""
        dialable = _dial_order(addresses, networks)
        if not dialable or port is None or txt.get(b"v") != _VERSION:
            return None
        try:
            text = {key: _text(txt[key.encode()]) for key in ("game", "title", "host", "fp", "seated", "seats")}
            seated, seats = _count(text["seated"]), _count(text["seats"])
            if not 0 <= seated <= seats or seats == 0:
                return None
            announcement = cls(
                # What will be printed is cleaned of control characters (a terminal escape could
                # rewrite the screen) and cut to length.
                dialable[0], clean_text(text["game"], _LIMITS["game"]), clean_text(text["title"], _LIMITS["title"]),
                clean_text(text["host"], _LIMITS["host"]), int(port), text["fp"][:19].lower(), seated, seats,
                tuple((address, int(port)) for address in dialable[1:]),
            )
            JoinCode.parse(str(announcement.join_code))  # a valid port and fingerprint
        except (KeyError, TypeError, ValueError):
            return None
        return announcement


def one_per_key(
    tables: Sequence[Announcement], networks: Sequence[ipaddress.IPv4Network | ipaddress.IPv6Network] = (),
) -> list[Announcement]:
    """``tables`` (records, in the order found) with those of one fingerprint made one table: a
    host is its key, so records giving other places for it are more places to try, not more tables
    (one of them may be anybody's: the key, checked on connecting, tells). Its places are every
    record's, in :func:`_dial_order` (ties: the order of ``tables``), the first
    :data:`_MAX_PLACES` of them; its text is that of the record of the place tried first."""
    by_key: dict[str, list[Announcement]] = {}
    for table in tables:
        by_key.setdefault(table.fingerprint, []).append(table)
    merged = []
    for records in by_key.values():
        places = [place for record in records for place in record.places]
        rank = {address: index for index, address in enumerate(_dial_order([a for a, _ in places], networks))}
        ordered = list(dict.fromkeys(sorted(places, key=lambda place: rank[place[0]])))[:_MAX_PLACES]
        first = next(record for record in records if ordered[0] in record.places)
        merged.append(replace(first, address=ordered[0][0], port=ordered[0][1], more_places=tuple(ordered[1:])))
    return merged


def chosen_interfaces() -> list[str] | None:
    """The addresses ``P2PGAMES_INTERFACE`` names (comma-separated IPv4/IPv6 addresses of this
    machine), or ``None`` when it is unset or empty: every interface. Raises ``OSError`` (EINVAL)
    saying which entry is not an IP address."""
    value = os.environ.get(INTERFACE_VARIABLE, "").strip()
    if not value:
        return None
    addresses = []
    for entry in (part.strip() for part in value.split(",")):
        try:
            addresses.append(str(ipaddress.ip_address(entry)))
        except ValueError:
            raise OSError(errno.EINVAL, f"{INTERFACE_VARIABLE}={value!r}: {entry!r} is not an IP address") from None
    return addresses


async def announce(
    describe: Callable[[], dict | None],
    *,
    interval: float = 1.0,
    interfaces: Sequence[str] | None = None,
    task_status: trio.TaskStatus[str | None] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Publish the table ``describe()`` returns (``game``, ``title``, ``host``, ``port``,
    ``fingerprint``, ``seated``, ``seats``), asking it again every ``interval`` seconds: a change
    updates the TXT record; ``None`` (the table is full) withdraws the service and returns. The
    service is withdrawn however this ends (cancellation too), within :data:`_CLOSE_SECONDS`.

    ``interfaces``: the addresses to use (default :func:`chosen_interfaces`). Reports the
    registered service name (zeroconf may have renamed it) to ``task_status``, or ``None`` when
    nothing was published. Never raises for the network (no multicast route, a firewall, a bad
    ``P2PGAMES_INTERFACE``): discovery is a convenience, and the join code still works.
    """
    from zeroconf import Error as ZeroconfError

    value = describe()
    if value is None:
        task_status.started(None)
        return
    try:
        if interfaces is None:
            interfaces = chosen_interfaces()
        zeroconf = await trio.to_thread.run_sync(_open, interfaces)
    except (OSError, RuntimeError, ZeroconfError):
        task_status.started(None)
        return
    registered = False
    try:
        addresses = _own_addresses(interfaces)
        info = _service_info(value, addresses)
        register = functools.partial(zeroconf.register_service, info, allow_name_change=True)
        # Registration probes for ~1.5 s: a host stopped meanwhile doesn't wait for it.
        await trio.to_thread.run_sync(register, abandon_on_cancel=True)
        registered = True
        task_status.started(info.name)
        while (new := describe()) is not None:
            if new != value:
                value = new
                update = _service_info(value, addresses, name=info.name)
                await trio.to_thread.run_sync(zeroconf.update_service, update, abandon_on_cancel=True)
            await trio.sleep(interval)
    except (OSError, RuntimeError, ZeroconfError):
        # The table goes on without being found; its join code still works.
        if not registered:
            task_status.started(None)
    finally:
        await _close(zeroconf)  # close() says goodbye for the service (RFC 6762 §10.1)


async def watch(
    sightings: trio.MemorySendChannel[tuple[str, Announcement | None]],
    *,
    interfaces: Sequence[str] | None = None,
    task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Browse for tables until cancelled, sending ``(service name, table)`` into ``sightings`` as
    each is found or changes, and ``(service name, None)`` when one goes or stops parsing. Started
    (``nursery.start``) once listening. ``interfaces``: as for :func:`announce`. Raises ``OSError``
    when it can't listen (nothing to listen on, a bad ``P2PGAMES_INTERFACE``)."""
    zeroconf = await _open_for_browsing(interfaces)
    await _browse(zeroconf, sightings, task_status=task_status)


async def _open_for_browsing(interfaces: Sequence[str] | None) -> "Zeroconf":
    from zeroconf import Error as ZeroconfError

    named = f" (the addresses in {INTERFACE_VARIABLE})" if interfaces is None else ""
    if interfaces is None:
        interfaces = chosen_interfaces()
    where = "any interface" if interfaces is None else ", ".join(interfaces) + named
    # The reason is the OSError's strerror: what the command line shows.
    try:
        return await trio.to_thread.run_sync(_open, interfaces)
    except OSError as error:
        raise OSError(error.errno, f"multicast DNS can't listen on {where}: {error.strerror or error}") from None
    except (RuntimeError, ZeroconfError) as error:
        raise OSError(errno.ENODEV, f"multicast DNS can't listen on {where}: {error}") from None


async def _browse(
    zeroconf: "Zeroconf",
    sightings: trio.MemorySendChannel[tuple[str, Announcement | None]],
    *,
    task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED,
) -> None:
    """:func:`watch` with ``zeroconf`` open; closes it."""
    from zeroconf import Error as ZeroconfError
    from zeroconf import DNSQuestionType, ServiceBrowser, ServiceStateChange

    token = trio.lowlevel.current_trio_token()
    changes_in, changes = trio.open_memory_channel[tuple[str, bool]](math.inf)
    generation: dict[str, int] = {}  # per name: a resolve that finishes after a newer change is stale
    networks = _local_networks()

    def changed(zeroconf: object, service_type: str, name: str, state_change: ServiceStateChange) -> None:
        # On zeroconf's thread: hand the change to trio without waiting for it.
        present = state_change is not ServiceStateChange.Removed
        try:
            token.run_sync_soon(_send_quietly, changes_in, (name, present))
        except trio.RunFinishedError:
            pass

    async def resolve(name: str, number: int) -> None:
        from zeroconf import ServiceInfo

        info = ServiceInfo(SERVICE_TYPE, name)
        try:
            request = functools.partial(info.request, zeroconf, _RESOLVE_MS, DNSQuestionType.QM)
            found = await trio.to_thread.run_sync(request, abandon_on_cancel=True)
        except (OSError, RuntimeError, ZeroconfError):
            found = False
        table = Announcement.parse(info.parsed_addresses(), info.port, info.properties, networks=networks) if found else None
        if generation.get(name) == number:
            await sightings.send((name, table))

    browser = None
    try:
        async with trio.open_nursery() as nursery:
            # Multicast questions (QM), not zeroconf's default unicast-response (QU) first one:
            # where several mDNS programs share port 5353 on a machine (two p2pgames, avahi), a
            # unicast answer reaches only one of them, maybe not us.
            browser = ServiceBrowser(zeroconf, SERVICE_TYPE, handlers=[changed], question_type=DNSQuestionType.QM)
            task_status.started()
            async for name, present in changes:
                generation[name] = number = generation.get(name, 0) + 1
                if present:
                    nursery.start_soon(resolve, name, number)
                else:
                    await sightings.send((name, None))
    finally:
        await _close(zeroconf, browser)


async def discover(seconds: float = 2.5, *, interfaces: Sequence[str] | None = None) -> list[Announcement]:
    """Browse for ``seconds``; the tables present at the end, each once (per key fingerprint,
    with the places of all its records: :func:`one_per_key`), in order of title, host, address and
    port. ``interfaces``: as for :func:`announce`. Raises ``OSError`` when it can't listen."""
    zeroconf = await _open_for_browsing(interfaces)  # outside the nursery: a plain OSError
    sightings_in, sightings = trio.open_memory_channel[tuple[str, Announcement | None]](math.inf)
    found: dict[str, Announcement] = {}
    async with trio.open_nursery() as nursery:
        await nursery.start(_browse, zeroconf, sightings_in)
        with trio.move_on_after(seconds):
            async for name, table in sightings:
                if table is None:
                    found.pop(name, None)
                else:
                    found[name] = table
        nursery.cancel_scope.cancel()
    # By service name: records of one key are taken in a stable order, whatever order they came in.
    tables = one_per_key([found[name] for name in sorted(found)], _local_networks())
    return sorted(tables, key=lambda a: (a.title, a.host, a.address, a.port))


def find_tables(seconds: float = 2.5) -> list[Announcement]:
    """:func:`discover`, for callers outside trio (the command line). Raises ``OSError``."""
    return trio.run(discover, seconds)


# -- zeroconf --------------------------------------------------------------------------------------


def _open(interfaces: Sequence[str] | None) -> "Zeroconf":
    """A started zeroconf on ``interfaces`` (``None``: all, IPv4); blocking."""
    from zeroconf import InterfaceChoice, Zeroconf

    if interfaces is not None:
        # Checked first: zeroconf fails on an address that isn't ours, but leaves a socket open.
        ours = {address.split("%")[0] for address in _machine_addresses()}
        for address in interfaces:
            if address not in ours:
                raise OSError(errno.EADDRNOTAVAIL, f"{address} is not an address of this machine")
    # Every interface over IPv4 only: IPv6 multicast sockets fail on machines with IPv6 half set up.
    # A listed IPv6 address turns IPv6 on (zeroconf sees it in the list).
    return Zeroconf(interfaces=InterfaceChoice.All if interfaces is None else list(interfaces))


async def _close(zeroconf: "Zeroconf", browser: object = None) -> None:
    """Stop ``browser`` and close ``zeroconf`` (saying goodbye for what it published), shielded
    from cancellation but for at most :data:`_CLOSE_SECONDS`."""

    def close() -> None:
        if browser is not None:
            browser.cancel()  # type: ignore[attr-defined]
        zeroconf.close()

    with trio.CancelScope(shield=True), trio.move_on_after(_CLOSE_SECONDS):
        try:
            await trio.to_thread.run_sync(close, abandon_on_cancel=True)
        except Exception:  # noqa: BLE001 - closing is best effort: whatever zeroconf raises here
            pass


def _send_quietly(channel: trio.MemorySendChannel, value: object) -> None:
    # Run by trio itself (run_sync_soon): an exception here would crash the run.
    try:
        channel.send_nowait(value)
    except (trio.ClosedResourceError, trio.BrokenResourceError):
        pass


def _service_info(value: dict, addresses: list[str], *, name: str | None = None) -> "ServiceInfo":
    """The service for ``describe()``'s ``value``, under ``name`` (an update) or a new one."""
    from zeroconf import ServiceInfo

    fingerprint = str(value["fingerprint"])
    txt = {
        "v": _VERSION.decode(), "game": value["game"], "title": value["title"], "host": value["host"],
        "fp": fingerprint, "seated": str(int(value["seated"])), "seats": str(int(value["seats"])),
    }
    txt = {key: clean_text(str(text), _LIMITS.get(key, 40)) for key, text in txt.items()}
    if name is None:
        instance = instance_name(str(value["host"]), str(value["title"]), fingerprint, int(value["port"]))
        name = f"{instance}.{SERVICE_TYPE}"
    return ServiceInfo(
        SERVICE_TYPE, name, port=int(value["port"]), properties=txt, parsed_addresses=addresses,
        # The addresses' host name: one per key, so that two identities' tables on a machine
        # don't withdraw each other's addresses.
        server=f"p2pgames-{fingerprint.replace('-', '')[:16].lower()}.local.",
    )


def instance_name(host: str, title: str, fingerprint: str, port: int) -> str:
    """The DNS-SD instance name of ``host``'s table of ``title``: readable, within the DNS label
    limit with room for zeroconf's ``-2`` on a clash, and with no character DNS-SD software trips
    on (control characters become spaces, dots ``·``).

    The key's and the port's part keep two tables apart by name: zeroconf's own renaming on a
    clash can't be relied on between two programs on one machine (the defending answer to a probe
    goes by unicast to port 5353, which only one of the sockets sharing it receives)."""
    suffix = f" ({fingerprint[:4]}:{port})"
    host = _cut(_label_text(host), 24)
    return _cut(f"{host}'s {_label_text(title)}", _INSTANCE_BYTES - len(suffix.encode())) + suffix


def _label_text(text: str) -> str:
    # zeroconf writes a name label by label, split at dots: a dot inside a label would split it.
    return clean_text(text, 63).replace(".", "\N{MIDDLE DOT}").replace("\\", "/") or "?"


def _cut(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` bytes of UTF-8, between characters."""
    while len(text.encode()) > limit:
        text = text[:-1]
    return text.rstrip()


def _own_addresses(interfaces: Sequence[str] | None) -> list[str]:
    """The addresses to publish: the chosen ``interfaces``, or else every IPv4 address of this
    machine and every IPv6 one a joiner can dial without a scope (not link-local), loopback only
    if there is nothing else (then the table is only found from this machine)."""
    if interfaces is not None:
        return list(interfaces)
    everything = [ipaddress.ip_address(address.split("%")[0]) for address in _machine_addresses()]
    usable = [address for address in everything if address.version == 4 or not address.is_link_local]
    outside = [address for address in usable if not address.is_loopback]
    return [str(address) for address in (outside or usable)]


def _machine_addresses() -> list[str]:
    """Every address of this machine's interfaces, as text."""
    import ifaddr  # zeroconf's dependency

    return [ip.ip if isinstance(ip.ip, str) else ip.ip[0] for adapter in ifaddr.get_adapters() for ip in adapter.ips]


def _dial_order(
    addresses: Sequence[str], networks: Sequence[ipaddress.IPv4Network | ipaddress.IPv6Network],
) -> list[str]:
    """The addresses a joiner may dial of ``addresses``, in the order to try them: IPv4 ones on
    one of our ``networks`` first (a host on several networks, a VPN or containers lists addresses
    we can't reach), then the other IPv4 ones, then the IPv6 ones that need no scope id (a
    link-local one would need the interface it was heard on); each once, in the order given
    within each group."""
    ipv4_near, ipv4, ipv6 = [], [], []
    for text in addresses:
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            continue
        if address.is_unspecified or address.is_multicast:
            continue
        if address.version == 4:
            (ipv4_near if any(address in network for network in networks) else ipv4).append(str(address))
        elif not address.is_link_local:
            ipv6.append(str(address))
    return list(dict.fromkeys(ipv4_near + ipv4 + ipv6))


def _local_networks() -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """The networks this machine's interfaces are on."""
    import ifaddr  # zeroconf's dependency

    networks = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            address = ip.ip if isinstance(ip.ip, str) else ip.ip[0]
            try:
                networks.append(ipaddress.ip_network(f"{address}/{ip.network_prefix}", strict=False))
            except ValueError:
                continue
    return networks


def _text(value: bytes | None) -> str:
    if value is None:
        raise ValueError("a TXT key without a value")
    return value.decode("utf-8", errors="replace")


def _count(text: str) -> int:
    """A seat count: one to three ASCII digits (``int`` would take ``" 1_0"`` and ``"٣"``)."""
    if not (text.isascii() and text.isdigit() and len(text) <= 3) or int(text) > _MAX_SEATS:
        raise ValueError(f"{text!r} is not a seat count")
    return int(text)
