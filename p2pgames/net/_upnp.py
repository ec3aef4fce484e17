"""Port mapping by UPnP IGD (Internet Gateway Device), through miniupnpc.

miniupnpc is the miniupnp project's C client (the one Bitcoin Core and Transmission use); its
Python binding blocks, so every call runs in a worker thread, one at a time.

What :class:`UPnPMapper` does, and what a player reads when it can't:

============================  ===================================================================
step                          failure (a :class:`MappingError`, one line)
============================  ===================================================================
SSDP search (once, kept)      no router answered → forward the port by hand, or play over IPv6
router's description          unreadable → same advice
GetExternalIPAddress          empty / 0.0.0.0 → the router is not connected to the internet;
                              private or shared (10.x, 100.64.x, …) → another NAT is in front
GetSpecificPortMappingEntry   the port maps to another machine → name it, choose another --port
AddPortMapping                725 → added again with lease 0 (permanent); 718/729 → another
                              machine or the router holds the port; 606 → not allowed in the
                              router's settings; 401 → no port mapping here; others → named
DeletePortMapping             714 (already gone) is success; the port now someone else's → left
============================  ===================================================================

A router that stops answering at the address it gave (miniupnpd moves to a new HTTP port each
time it starts) is searched for again once, on the next ``add``: renewing after a router restart
maps the port again.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import re
import signal
import sys
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

import miniupnpc
import trio

from p2pgames.net._mapping import MappingError, PortMapping, behind_another_nat, is_private_wan_address

__all__ = ["UPnPMapper"]

DESCRIPTION = "p2pgames"
PROTOCOL = "TCP"

# miniupnpc's binding raises a bare Exception whose text is miniupnpc's strupnperror() of the
# code (it keeps no number): these are the texts of the codes we act on.
_CODE_OF_TEXT = {
    "Invalid Action": 401,
    "Action not authorized": 606,
    "NoSuchEntryInArray": 714,
    "ConflictInMappingEntry": 718,
    "SamePortValuesRequired": 724,
    "OnlyPermanentLeasesSupported": 725,
    "NoPortMapsAvailable": 728,
    "ConflictWithOtherMechanisms": 729,
}
# The router holds the port for another machine, or for itself: only another port helps.
_TAKEN_CODES = frozenset({718, 729})
# miniupnpc's own failures to talk to the router (no connection, no or a garbled HTTP answer), as
# opposed to an answer from the router that says no.
_UNREACHABLE_TEXTS = frozenset({"Miniupnpc HTTP error", "Miniupnpc Invalid response", "Miniupnpc Socket error"})
# What discover() raises when the search went out and nobody answered: strupnperror(0).
_NOTHING_FOUND_TEXT = "Success"

_Result = TypeVar("_Result")


@dataclass(frozen=True)
class _Refusal:
    """What the router (or miniupnpc) said instead of doing it: ``code`` if we know its number."""

    text: str
    code: int | None

    @property
    def unreachable(self) -> bool:
        return self.text in _UNREACHABLE_TEXTS

    def describe(self) -> str:
        return f"UPnP error {self.code}, {self.text}" if self.code is not None else self.text


class _RouterError(Exception):
    """A call into miniupnpc failed; turned into a :class:`MappingError` by the caller, who knows
    what was being asked."""

    def __init__(self, refusal: _Refusal) -> None:
        super().__init__(refusal.text)
        self.refusal = refusal


def _in_worker(function: Callable[..., _Result], *arguments: Any) -> _Result:
    """``function(*arguments)`` in a worker thread, as miniupnpc needs it:

    - taking no Ctrl-C or SIGTERM: the kernel may hand a signal to any thread that doesn't block
      it, and in this one it would cut miniupnpc's socket calls short (EINTR), as if the router
      had not answered when it had (Python handles signals in the main thread anyway);
    - with miniupnpc's complaints about failed system calls kept off the terminal (see
      :func:`_library_complaints_caught`).
    """
    with _signals_blocked(signal.SIGINT, signal.SIGTERM), _library_complaints_caught():
        return function(*arguments)


@contextlib.contextmanager
def _signals_blocked(*signals: signal.Signals) -> Iterator[None]:
    """While the block runs, this thread takes none of ``signals``; afterwards its mask is what it
    was. Restored, not left: trio's worker threads are reused for other calls, and a call made
    from the main thread would otherwise keep Ctrl-C from it for the rest of the process."""
    if not hasattr(signal, "pthread_sigmask"):  # not on Windows, which has no such signals to block
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, set(signals))
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


# What miniupnpc writes to file descriptor 2 when a system call fails: perror()'s "connect:
# Connection refused", or its own "getaddrinfo() failure: …".
_LIBRARY_COMPLAINT = re.compile(
    r"(socket|connect|select|poll|recv|recvfrom|send|sendto|setsockopt|getsockopt|bind|getaddrinfo|"
    r"getaddrinfo\(\) failure|inet_pton|ioctl|fcntl|getifaddrs): .*"
)


@contextlib.contextmanager
def _library_complaints_caught() -> Iterator[None]:
    """While the block runs, what reaches file descriptor 2 goes to a pipe instead; afterwards
    miniupnpc's complaints (:data:`_LIBRARY_COMPLAINT`) are dropped, and anything else is
    written to where it was going, late but whole. miniupnpc reports a router gone away by
    printing to the terminal, over a game's screen; the MappingError says it in words.

    File descriptor 2 is the process's: only one block at a time (UPnPMapper's lock), and the
    pipe is read once the block ends, so what others write meanwhile (a warning) waits for it."""
    try:
        reading, writing = os.pipe()
    except OSError:  # no descriptors to spare: let it print
        yield
        return
    saved = os.dup(2)
    sys.stderr.flush()
    os.dup2(writing, 2)
    os.close(writing)
    try:
        yield
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)  # the pipe's last writer closed: it reads to its end
        os.close(saved)
        with os.fdopen(reading, "rb") as pipe:
            said = pipe.read()
        kept = [line for line in said.decode("utf-8", "replace").splitlines(keepends=True)
                if not _LIBRARY_COMPLAINT.fullmatch(line.rstrip("\n"))]
        if kept:
            os.write(2, "".join(kept).encode("utf-8", "replace"))


def _call(function: Callable[..., _Result], *arguments: Any) -> _Result:
    try:
        return function(*arguments)
    except Exception as error:
        if type(error) is not Exception:
            raise  # the binding raises bare Exceptions only: anything else is a mistake of ours
        text = str(error).strip() or type(error).__name__
        raise _RouterError(_Refusal(text, _CODE_OF_TEXT.get(text))) from error


class _Gateway:
    """The router miniupnpc selected: its binding object (not thread-safe: used by one call at a
    time), the router's address, and ours on the network that reaches it."""

    def __init__(self, upnp: Any, control_url: str) -> None:
        self.upnp = upnp
        self.router = urllib.parse.urlsplit(control_url).hostname or control_url
        self.lan_address: str = upnp.lanaddr


class UPnPMapper:
    """A :class:`~p2pgames.net._mapping.PortMapper` that asks the router by UPnP IGD.

    ``interface``: the IPv4 address of the network interface the SSDP search goes out on (None:
    the system's choice). ``discover_milliseconds``: how long miniupnpc waits for answers to
    each of its searches; it waits at least 1000, and when no router answers it searches four
    times (four device and service types), so finding no router takes four times that.

    The router is searched for once, on the first call, and kept. Calls run one at a time in a
    worker thread, each call whole (search, checks, mapping) in one go. Cancelling a call that
    has started waits for it to end (miniupnpc's own timeouts bound it), because a call abandoned
    in its thread would go on using the binding object while the next one starts; a cancelled
    ``add`` that got its mapping still returns it, so that the caller can remove it, and the
    cancellation lands at the caller's next checkpoint.
    """

    method = "UPnP"

    def __init__(self, *, interface: str | None = None, discover_milliseconds: int = 1000) -> None:
        if discover_milliseconds <= 0:
            raise ValueError(f"discover_milliseconds must be positive, not {discover_milliseconds}")
        self.interface = interface
        self.discover_milliseconds = discover_milliseconds
        self._lock = trio.Lock()
        self._gateway: _Gateway | None = None

    async def add(self, internal_port: int, lease_seconds: int, *, external_port: int | None = None) -> PortMapping:
        """Map TCP ``external_port`` (default: ``internal_port``) of the router's internet address
        to ``internal_port`` of this machine for ``lease_seconds`` (0: until removed), or renew
        that mapping (UPnP adding it again for the same machine refreshes the lease).

        A router that grants only permanent mappings (UPnP error 725) is asked again with lease 0,
        and the mapping returned says ``lease_seconds=0``: it stays until :meth:`remove` (a crash
        leaves it on the router, until the router restarts or someone deletes it in its settings).

        Nothing is mapped when the router's own internet address is private or shared (another
        NAT is in front of it, so the mapping could not be reached). Raises :class:`MappingError`
        (one line: what happened and what to do), ``ValueError`` for a port or lease out of range.
        """
        external_port = internal_port if external_port is None else external_port
        for port in (internal_port, external_port):
            if not 0 < port < 65536:
                raise ValueError(f"port {port} is out of range")
        if not 0 <= lease_seconds < 2**32:
            raise ValueError(f"lease of {lease_seconds} s")
        return await self._run(self._add, internal_port, external_port, lease_seconds)

    async def remove(self, mapping: PortMapping) -> None:
        """Remove ``mapping`` from the router. A mapping already gone (lease run out, router
        restarted) is no error; a port the router now maps to another machine is left to it.
        Raises :class:`MappingError`."""
        await self._run(self._remove, mapping)

    async def _run(self, function: Callable[..., _Result], *arguments: Any) -> _Result:
        async with self._lock:
            # Not abandon_on_cancel: an abandoned call would go on using the binding object (and
            # the lock would be free for the next call) while trio went on without it.
            return await trio.to_thread.run_sync(_in_worker, function, *arguments, abandon_on_cancel=False)

    # -- in the worker thread ------------------------------------------------------------------

    def _search(self, port: int) -> _Gateway | None:
        """Searches for a router; None if none answered. Raises MappingError for the rest."""
        # A new binding object for each search: selectigd() on one already used leaks its URLs,
        # and a failed search leaves nothing worth keeping.
        upnp = miniupnpc.UPnP(multicastif=self.interface, discoverdelay=self.discover_milliseconds)
        try:
            _call(upnp.discover)
        except _RouterError as error:
            if error.refusal.text == _NOTHING_FOUND_TEXT:
                return None
            where = f" on the interface {self.interface}" if self.interface else ""
            raise MappingError(
                f"could not search for a UPnP router{where} ({error.refusal.describe()})"
            ) from None
        try:
            # selectigd() prefers a router that says it is connected and has a public address,
            # but returns any it found (miniupnpc's binding hides which kind): _map checks.
            control_url = _call(upnp.selectigd)
        except _RouterError:
            raise MappingError(
                "a UPnP device answered but its description could not be read, so no router was found"
            ) from None
        return _Gateway(upnp, control_url)

    def _add(self, internal_port: int, external_port: int, lease_seconds: int) -> PortMapping:
        gateway = self._gateway
        if gateway is not None:
            try:
                return self._map(gateway, internal_port, external_port, lease_seconds)
            except _RouterError as error:
                if not error.refusal.unreachable:
                    raise MappingError(
                        self._refused(gateway, external_port, error.refusal), answered=True,
                        port_taken=error.refusal.code in _TAKEN_CODES,
                    ) from None
            # The router we knew no longer answers where it did: it may have restarted (miniupnpd
            # takes a new HTTP port each time), so search once more.
            self._gateway = None
            known, gateway = gateway, self._search(external_port)
            if gateway is None:
                raise MappingError(
                    f"the router at {known.router} stopped answering UPnP and no router answered a new search"
                )
        else:
            gateway = self._search(external_port)
            if gateway is None:
                raise MappingError(
                    "no router answered UPnP on this network (it may be turned off in the router's settings)"
                )
        self._gateway = gateway
        try:
            return self._map(gateway, internal_port, external_port, lease_seconds)
        except _RouterError as error:
            if error.refusal.unreachable:
                self._gateway = None
            raise MappingError(
                self._refused(gateway, external_port, error.refusal), answered=not error.refusal.unreachable,
                port_taken=error.refusal.code in _TAKEN_CODES,
            ) from None

    def _map(self, gateway: _Gateway, internal_port: int, external_port: int, lease_seconds: int) -> PortMapping:
        """Raises _RouterError for a call that failed, MappingError for an answer we refuse."""
        upnp = gateway.upnp
        external_address = self._usable_external_address(gateway, _call(upnp.externalipaddress), external_port)
        self._check_not_taken(gateway, external_port)
        granted = lease_seconds
        try:
            _call(upnp.addportmapping, external_port, PROTOCOL, gateway.lan_address, internal_port, DESCRIPTION, "", granted)
        except _RouterError as error:
            if error.refusal.code == 725 and granted != 0:
                granted = 0
                _call(upnp.addportmapping, external_port, PROTOCOL, gateway.lan_address, internal_port, DESCRIPTION, "", granted)
            elif error.refusal.code == 718:
                # Taken between our look and our add: look again to name the machine.
                self._check_not_taken(gateway, external_port)
                raise
            else:
                raise
        return PortMapping(
            method=self.method,
            router=gateway.router,
            external_address=external_address,
            external_port=external_port,
            internal_port=internal_port,
            lease_seconds=granted,
        )

    def _usable_external_address(self, gateway: _Gateway, answer: str, port: int) -> str:
        answer = answer.strip()
        if answer in ("", "0.0.0.0"):
            raise MappingError(
                f"the router at {gateway.router} says it has no internet address: check its internet connection",
                answered=True,
            )
        try:
            ipaddress.ip_address(answer)
        except ValueError:
            raise MappingError(
                f"the router at {gateway.router} gave {answer[:40]!r} as its internet address, which is no address",
                answered=True,
            ) from None
        if is_private_wan_address(answer):
            raise MappingError(behind_another_nat(gateway.router, answer, port), answered=True)
        return answer

    def _check_not_taken(self, gateway: _Gateway, external_port: int) -> None:
        # The binding answers None both for "no such mapping" and for a failed call; a failed
        # call shows up again at the add that follows.
        entry = gateway.upnp.getspecificportmapping(external_port, PROTOCOL)
        if entry is not None and entry[0] != gateway.lan_address:
            raise MappingError(
                f"TCP port {external_port} on the router at {gateway.router} is already forwarded to another machine "
                f"({entry[0]}): choose another --port, or free it in the router's settings",
                answered=True, port_taken=True,
            )

    @staticmethod
    def _refused(gateway: _Gateway, port: int, refusal: _Refusal) -> str:
        router = gateway.router
        if refusal.unreachable:
            return (
                f"the router at {router} does not answer UPnP requests ({refusal.text})"
            )
        if refusal.code == 606:
            return (
                f"the router at {router} refused to forward TCP port {port} ({refusal.describe()}): allow UPnP "
                "port forwarding in the router's settings"
            )
        if refusal.code == 401:
            return (
                f"the router at {router} does not forward ports over UPnP ({refusal.describe()})"
            )
        if refusal.code in _TAKEN_CODES:
            return (
                f"TCP port {port} on the router at {router} is already in use ({refusal.describe()}): "
                "choose another --port"
            )
        if refusal.code == 724:
            return (
                f"the router at {router} forwards a port only to the same port number ({refusal.describe()}): "
                f"listen on port {port} (--port {port})"
            )
        if refusal.code == 728:
            return (
                f"the router at {router} has no room for another port forwarding ({refusal.describe()}): "
                "remove unused ones in the router's settings"
            )
        return (
            f"the router at {router} refused to forward TCP port {port} ({refusal.describe()})"
        )

    def _remove(self, mapping: PortMapping) -> None:
        port = mapping.external_port
        gateway = self._gateway
        if gateway is None:
            gateway = self._search(port)
            if gateway is None:
                raise MappingError(
                    f"could not remove the forwarding of TCP port {port}: no router answered UPnP; "
                    + _what_remains(mapping)
                )
            self._gateway = gateway
        entry = gateway.upnp.getspecificportmapping(port, PROTOCOL)
        if entry is not None and entry[0] != gateway.lan_address:
            return  # ours ran out and another machine has the port now: not ours to remove
        try:
            _call(gateway.upnp.deleteportmapping, port, PROTOCOL, "")
        except _RouterError as error:
            if error.refusal.code == 714:
                return  # already gone: the lease ran out, or the router restarted
            if error.refusal.unreachable:
                self._gateway = None
                raise MappingError(
                    f"could not remove the forwarding of TCP port {port}: the router at {gateway.router} "
                    f"stopped answering UPnP ({error.refusal.text}); " + _what_remains(mapping)
                ) from None
            raise MappingError(
                f"the router at {gateway.router} refused to remove the forwarding of TCP port {port} "
                f"({error.refusal.describe()}); " + _what_remains(mapping)
            ) from None


def _what_remains(mapping: PortMapping) -> str:
    if mapping.lease_seconds:
        return f"it ends by itself within {mapping.lease_seconds} s"
    return "remove it in the router's settings"
