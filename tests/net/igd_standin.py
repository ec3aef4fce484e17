"""A UPnP Internet Gateway Device stand-in on loopback, for testing :mod:`p2pgames.net._upnp`.

It speaks the real protocols, so miniupnpc talks to it as to a home router:

- SSDP: a thread answers ``M-SEARCH`` on 239.255.255.250:1900 (membership joined on 127.0.0.1)
  for the IGD device type, its WANIPConnection service, ``upnp:rootdevice`` and ``ssdp:all``,
  with an ``HTTP/1.1 200 OK`` that gives ``LOCATION``/``ST``/``USN``;
- HTTP on 127.0.0.1:<ephemeral>: the root device description, and the SOAP control endpoint of
  WANIPConnection:1 (GetStatusInfo, GetConnectionTypeInfo, GetExternalIPAddress, AddPortMapping,
  DeletePortMapping, GetSpecificPortMappingEntry, GetGenericPortMappingEntry), answering errors
  as UPnP faults (HTTP 500 with ``<UPnPError><errorCode>…``).

Everything runs in threads, so synchronous code and trio tests can both use it.

Port 1900 is shared by every process on the machine: every stand-in running hears every search
and answers it, and a test that expects no router would hear one. So a stand-in runs only while
its process holds :func:`ssdp_to_ourselves` (a lock file, machine-wide), which the tests that
expect silence hold too. (pytest-xdist's ``xdist_group`` mark with ``--dist loadgroup`` would
queue them in one worker, but pytest 9.2 with pytest-xdist 3.8 ignores it: pytest-dev/pytest-xdist#1386.)
"""

from __future__ import annotations

import contextlib
import fcntl
import http.server
import os
import selectors
import socket
import struct
import tempfile
import threading
import uuid
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from dataclasses import dataclass
from xml.sax.saxutils import escape

SSDP_GROUP = "239.255.255.250"
SSDP_PORT = 1900
INTERFACE = "127.0.0.1"

DEVICE_TYPE = "urn:schemas-upnp-org:device:InternetGatewayDevice:1"
WAN_DEVICE_TYPE = "urn:schemas-upnp-org:device:WANDevice:1"
WAN_CONNECTION_DEVICE_TYPE = "urn:schemas-upnp-org:device:WANConnectionDevice:1"
IP_CONNECTION = "urn:schemas-upnp-org:service:WANIPConnection:1"
COMMON_INTERFACE = "urn:schemas-upnp-org:service:WANCommonInterfaceConfig:1"
SOAP_ENVELOPE = "http://schemas.xmlsoap.org/soap/envelope/"

CONTROL_PATH = "/ctl/IPConn"
COMMON_CONTROL_PATH = "/ctl/CmnIfCfg"
DESCRIPTION_PATH = "/rootDesc.xml"

# What the UPnP IGD specification calls each error the stand-in returns.
ERROR_NAMES = {
    401: "Invalid Action",
    402: "Invalid Args",
    501: "Action Failed",
    606: "Action not authorized",
    713: "SpecifiedArrayIndexInvalid",
    714: "NoSuchEntryInArray",
    718: "ConflictInMappingEntry",
    725: "OnlyPermanentLeasesSupported",
}


@dataclass(frozen=True)
class Mapping:
    """One port mapping the stand-in holds, as a router's table shows it."""

    internal_client: str
    internal_port: int
    lease_seconds: int
    description: str


class UPnPFault(Exception):
    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class IGDStandIn:
    """The running stand-in. Knobs may be changed while it runs (under no lock: set them between
    calls of the code under test).

    ``external_address``: what GetExternalIPAddress answers. ``refuse_with``: a UPnP error code
    AddPortMapping answers with (606, 501, …). ``permanent_only``: AddPortMapping with a nonzero
    lease answers 725. ``taken``: {external port: another machine's address}, ports already mapped
    to someone else (AddPortMapping answers 718, GetSpecificPortMappingEntry shows that machine).
    ``connected``: False makes GetStatusInfo say "Disconnected" and the external address empty.
    ``hold``: a SOAP action the stand-in receives but answers only after :meth:`release`
    (``arrived`` is set when it has come in).
    """

    def __init__(
        self,
        *,
        external_address: str = "203.0.113.7",
        refuse_with: int | None = None,
        permanent_only: bool = False,
        taken: dict[int, str] | None = None,
        connected: bool = True,
        hold: str | None = None,
    ) -> None:
        self.external_address = external_address
        self.refuse_with = refuse_with
        self.permanent_only = permanent_only
        self.taken = dict(taken or {})
        self.connected = connected
        self.hold = hold
        self.arrived = threading.Event()
        self._released = threading.Event()
        self.udn = f"uuid:{uuid.uuid4()}"
        self._lock = threading.Lock()
        self._mappings: dict[int, Mapping] = {}
        self._actions: list[str] = []
        self._searches: list[str] = []
        self._http: http.server.ThreadingHTTPServer | None = None
        self._http_thread: threading.Thread | None = None
        self._ssdp: _SSDPResponder | None = None

    # -- what tests read ---------------------------------------------------------------------

    @property
    def mappings(self) -> dict[int, Mapping]:
        """A copy of the mapping table: external port -> :class:`Mapping`."""
        with self._lock:
            return dict(self._mappings)

    @property
    def actions(self) -> list[str]:
        """The SOAP actions called so far, in order (e.g. "AddPortMapping")."""
        with self._lock:
            return list(self._actions)

    @property
    def searches(self) -> list[str]:
        """The ST of every M-SEARCH heard so far."""
        with self._lock:
            return list(self._searches)

    @property
    def discoveries(self) -> int:
        """How many searches for a router clients began. miniupnpc's ``discover()`` asks for the
        IGD device type first and goes on down its list of types only when no answer came within
        its wait (a second), as it may when this machine is loaded: so one call may send several
        M-SEARCHes, but only its first asks for the device type."""
        return self.searches.count(DEVICE_TYPE)

    @property
    def address(self) -> str:
        return INTERFACE

    @property
    def http_port(self) -> int:
        assert self._http is not None, "the stand-in is not serving HTTP"
        return self._http.server_address[1]

    @property
    def location(self) -> str:
        return f"http://{INTERFACE}:{self.http_port}{DESCRIPTION_PATH}"

    # -- what tests do -----------------------------------------------------------------------

    def forget(self) -> None:
        """Drop every mapping, as a router restart or an expired lease does."""
        with self._lock:
            self._mappings.clear()

    def release(self) -> None:
        """Lets the action held by the ``hold`` knob be answered."""
        self._released.set()

    def vanish(self) -> None:
        """Stop answering altogether (the router was switched off): searches go unanswered and
        connections to the control URL are refused."""
        if self._ssdp is not None:
            self._ssdp.stop()
            self._ssdp = None
        self._stop_http()

    def reboot(self) -> None:
        """Restart as miniupnpd does: the mappings are gone and HTTP moves to a new port (so the
        control URL a client cached no longer answers); searches are answered with the new one."""
        self._stop_http()
        self.forget()
        self._start_http()

    # -- running -----------------------------------------------------------------------------

    def start(self) -> None:
        self._start_http()
        self._ssdp = _SSDPResponder(self)
        self._ssdp.start()

    def stop(self) -> None:
        self.release()
        self.vanish()

    def _start_http(self) -> None:
        standin = self

        class Handler(_Handler):
            owner = standin

        self._http = http.server.ThreadingHTTPServer((INTERFACE, 0), Handler)
        self._http.daemon_threads = True
        self._http_thread = threading.Thread(
            target=self._http.serve_forever, kwargs={"poll_interval": 0.05}, name="igd-standin-http", daemon=True
        )
        self._http_thread.start()

    def _stop_http(self) -> None:
        if self._http is not None:
            self._http.shutdown()
            self._http.server_close()
            assert self._http_thread is not None
            self._http_thread.join()
            self._http = None
            self._http_thread = None

    def _heard_search(self, search_target: str) -> None:
        with self._lock:
            self._searches.append(search_target)

    # -- the device description and the SOAP actions ----------------------------------------

    def description(self) -> str:
        return f"""<?xml version="1.0"?>
<root xmlns="urn:schemas-upnp-org:device-1-0">
  <specVersion><major>1</major><minor>0</minor></specVersion>
  <device>
    <deviceType>{DEVICE_TYPE}</deviceType>
    <friendlyName>p2pgames IGD stand-in</friendlyName>
    <manufacturer>p2pgames tests</manufacturer>
    <modelName>stand-in</modelName>
    <UDN>{self.udn}</UDN>
    <serviceList>
      <service>
        <serviceType>urn:schemas-upnp-org:service:Layer3Forwarding:1</serviceType>
        <serviceId>urn:upnp-org:serviceId:L3Forwarding1</serviceId>
        <SCPDURL>/L3F.xml</SCPDURL>
        <controlURL>/ctl/L3F</controlURL>
        <eventSubURL>/evt/L3F</eventSubURL>
      </service>
    </serviceList>
    <deviceList>
      <device>
        <deviceType>{WAN_DEVICE_TYPE}</deviceType>
        <friendlyName>WAN device</friendlyName>
        <UDN>{self.udn}-wan</UDN>
        <serviceList>
          <service>
            <serviceType>{COMMON_INTERFACE}</serviceType>
            <serviceId>urn:upnp-org:serviceId:WANCommonIFC1</serviceId>
            <SCPDURL>/WANCfg.xml</SCPDURL>
            <controlURL>{COMMON_CONTROL_PATH}</controlURL>
            <eventSubURL>/evt/CmnIfCfg</eventSubURL>
          </service>
        </serviceList>
        <deviceList>
          <device>
            <deviceType>{WAN_CONNECTION_DEVICE_TYPE}</deviceType>
            <friendlyName>WAN connection device</friendlyName>
            <UDN>{self.udn}-wanconn</UDN>
            <serviceList>
              <service>
                <serviceType>{IP_CONNECTION}</serviceType>
                <serviceId>urn:upnp-org:serviceId:WANIPConn1</serviceId>
                <SCPDURL>/WANIPCn.xml</SCPDURL>
                <controlURL>{CONTROL_PATH}</controlURL>
                <eventSubURL>/evt/IPConn</eventSubURL>
              </service>
            </serviceList>
          </device>
        </deviceList>
      </device>
    </deviceList>
  </device>
</root>
"""

    def perform(self, action: str, arguments: dict[str, str]) -> dict[str, str]:
        """Carries out one SOAP action; returns its out-arguments or raises :class:`UPnPFault`."""
        if action == self.hold:
            self.arrived.set()
            # Bounded, so that a test that forgets to release fails instead of hanging.
            assert self._released.wait(timeout=30), f"{action} was held and never released"
        with self._lock:
            self._actions.append(action)
            if action == "GetStatusInfo":
                status = "Connected" if self.connected else "Disconnected"
                return {"NewConnectionStatus": status, "NewLastConnectionError": "ERROR_NONE", "NewUptime": "4242"}
            if action == "GetConnectionTypeInfo":
                return {"NewConnectionType": "IP_Routed", "NewPossibleConnectionTypes": "IP_Routed"}
            if action == "GetExternalIPAddress":
                return {"NewExternalIPAddress": self.external_address if self.connected else ""}
            if action == "AddPortMapping":
                return self._add(arguments)
            if action == "DeletePortMapping":
                port = _port(arguments, "NewExternalPort")
                if port not in self._mappings:
                    raise UPnPFault(714)
                del self._mappings[port]
                return {}
            if action == "GetSpecificPortMappingEntry":
                port = _port(arguments, "NewExternalPort")
                if port in self.taken:
                    return _entry(Mapping(self.taken[port], port, 0, "someone else's"))
                if port not in self._mappings:
                    raise UPnPFault(714)
                return _entry(self._mappings[port])
            if action == "GetGenericPortMappingEntry":
                index = _port(arguments, "NewPortMappingIndex", lowest=0)
                entries = sorted(self._mappings.items())
                if index >= len(entries):
                    raise UPnPFault(713)
                port, mapping = entries[index]
                return {"NewRemoteHost": "", "NewExternalPort": str(port), "NewProtocol": "TCP", **_entry(mapping)}
            raise UPnPFault(401)

    def _add(self, arguments: dict[str, str]) -> dict[str, str]:
        external_port = _port(arguments, "NewExternalPort")
        internal_port = _port(arguments, "NewInternalPort")
        client = arguments.get("NewInternalClient", "")
        lease = int(arguments.get("NewLeaseDuration") or "0")
        if arguments.get("NewProtocol") != "TCP" or not client:
            raise UPnPFault(402)
        if self.refuse_with is not None:
            raise UPnPFault(self.refuse_with)
        if self.permanent_only and lease != 0:
            raise UPnPFault(725)
        if external_port in self.taken and self.taken[external_port] != client:
            raise UPnPFault(718)
        existing = self._mappings.get(external_port)
        if existing is not None and existing.internal_client != client:
            raise UPnPFault(718)
        # Adding it again for the same client replaces it: that is how a client renews a lease.
        self._mappings[external_port] = Mapping(client, internal_port, lease, arguments.get("NewPortMappingDescription", ""))
        return {}


def _port(arguments: dict[str, str], name: str, *, lowest: int = 1) -> int:
    try:
        port = int(arguments[name])
    except (KeyError, ValueError):
        raise UPnPFault(402) from None
    if not lowest <= port < 65536:
        raise UPnPFault(402)
    return port


def _entry(mapping: Mapping) -> dict[str, str]:
    return {
        "NewInternalPort": str(mapping.internal_port),
        "NewInternalClient": mapping.internal_client,
        "NewEnabled": "1",
        "NewPortMappingDescription": mapping.description,
        "NewLeaseDuration": str(mapping.lease_seconds),
    }


class _Handler(http.server.BaseHTTPRequestHandler):
    owner: IGDStandIn
    server_version = "Linux/6 UPnP/1.1 p2pgames-igd-standin/1.0"

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
        pass  # quiet: pytest shows nothing of a passing test, and a failing test reads the action log

    def do_GET(self) -> None:
        if self.path != DESCRIPTION_PATH:
            self._send(404, "text/plain", b"not found\n")
            return
        self._send(200, 'text/xml; charset="utf-8"', self.owner.description().encode())

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or "0")
        body = self.rfile.read(length)
        service, _, action = (self.headers.get("SOAPAction") or "").strip('"').partition("#")
        expected = {CONTROL_PATH: IP_CONNECTION, COMMON_CONTROL_PATH: COMMON_INTERFACE}.get(self.path)
        if expected is None:
            self._send(404, "text/plain", b"not found\n")
            return
        try:
            arguments = _soap_arguments(body, action)
            if service != expected:
                raise UPnPFault(401)
            if expected == COMMON_INTERFACE:
                self.owner.perform(f"{COMMON_INTERFACE}#{action}", arguments)
                raise UPnPFault(401)
            result = self.owner.perform(action, arguments)
        except UPnPFault as fault:
            self._send(500, 'text/xml; charset="utf-8"', _fault(fault.code).encode())
            return
        self._send(200, 'text/xml; charset="utf-8"', _response(service, action, result).encode())

    def _send(self, status: int, content_type: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)


def _soap_arguments(body: bytes, action: str) -> dict[str, str]:
    try:
        envelope = ElementTree.fromstring(body)
    except ElementTree.ParseError:
        raise UPnPFault(402) from None
    soap_body = envelope.find(f"{{{SOAP_ENVELOPE}}}Body")
    if soap_body is None or len(soap_body) != 1 or soap_body[0].tag.rpartition("}")[2] != action:
        raise UPnPFault(401)
    return {argument.tag.rpartition("}")[2]: (argument.text or "") for argument in soap_body[0]}


def _response(service: str, action: str, result: dict[str, str]) -> str:
    arguments = "".join(f"<{name}>{escape(value)}</{name}>" for name, value in result.items())
    return (
        '<?xml version="1.0"?>\r\n'
        f'<s:Envelope xmlns:s="{SOAP_ENVELOPE}" s:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">'
        f'<s:Body><u:{action}Response xmlns:u="{service}">{arguments}</u:{action}Response></s:Body></s:Envelope>\r\n'
    )


def _fault(code: int) -> str:
    return (
        '<?xml version="1.0"?>\r\n'
        f'<s:Envelope xmlns:s="{SOAP_ENVELOPE}" s:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">'
        "<s:Body><s:Fault><faultcode>s:Client</faultcode><faultstring>UPnPError</faultstring><detail>"
        '<UPnPError xmlns="urn:schemas-upnp-org:control-1-0">'
        f"<errorCode>{code}</errorCode><errorDescription>{escape(ERROR_NAMES.get(code, 'Error'))}</errorDescription>"
        "</UPnPError></detail></s:Fault></s:Body></s:Envelope>\r\n"
    )


class _SSDPResponder:
    """Answers M-SEARCH on the SSDP group, joined on loopback only."""

    def __init__(self, owner: IGDStandIn) -> None:
        self.owner = owner
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if hasattr(socket, "SO_REUSEPORT"):
            self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        # Bound to the group address, not 0.0.0.0: only datagrams sent to the group arrive.
        self._listener.bind((SSDP_GROUP, SSDP_PORT))
        membership = struct.pack("4s4s", socket.inet_aton(SSDP_GROUP), socket.inet_aton(INTERFACE))
        self._listener.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, membership)
        # Answers go out from a unicast address, as a router's do.
        self._sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self._sender.bind((INTERFACE, 0))
        self._wake_reader, self._wake_writer = socket.socketpair()
        self._thread = threading.Thread(target=self._run, name="igd-standin-ssdp", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._wake_writer.send(b"x")
        self._thread.join()
        for sock in (self._listener, self._sender, self._wake_reader, self._wake_writer):
            sock.close()

    def _run(self) -> None:
        with selectors.DefaultSelector() as selector:
            selector.register(self._listener, selectors.EVENT_READ)
            selector.register(self._wake_reader, selectors.EVENT_READ)
            while True:
                ready = {key.fileobj for key, _ in selector.select()}
                if self._wake_reader in ready:
                    return
                datagram, sender = self._listener.recvfrom(2048)
                self._answer(datagram, sender)

    def _answer(self, datagram: bytes, sender: tuple[str, int]) -> None:
        lines = datagram.decode("latin-1").split("\r\n")
        if not lines or not lines[0].upper().startswith("M-SEARCH * HTTP/1.1"):
            return
        headers = {}
        for line in lines[1:]:
            name, colon, value = line.partition(":")
            if colon:
                headers[name.strip().upper()] = value.strip()
        if headers.get("MAN", "").strip('"') != "ssdp:discover":
            return
        search_target = headers.get("ST", "")
        self.owner._heard_search(search_target)
        if self.owner._http is None:
            return  # between the two halves of a reboot: nothing to point at yet
        udn = self.owner.udn
        answers = {
            DEVICE_TYPE: f"{udn}::{DEVICE_TYPE}",
            IP_CONNECTION: f"{udn}-wanconn::{IP_CONNECTION}",
            "upnp:rootdevice": f"{udn}::upnp:rootdevice",
        }
        if search_target == "ssdp:all":
            chosen = list(answers.items())
        elif search_target in answers:
            chosen = [(search_target, answers[search_target])]
        else:
            return
        for target, unique_service_name in chosen:
            reply = (
                "HTTP/1.1 200 OK\r\n"
                "CACHE-CONTROL: max-age=120\r\n"
                "EXT:\r\n"
                f"LOCATION: {self.owner.location}\r\n"
                f"SERVER: {_Handler.server_version}\r\n"
                f"ST: {target}\r\n"
                f"USN: {unique_service_name}\r\n"
                "\r\n"
            )
            self._sender.sendto(reply.encode("latin-1"), sender)


@contextlib.contextmanager
def ssdp_to_ourselves() -> Iterator[None]:
    """Waits until no other process (xdist worker, another checkout's test run) is searching or
    answering on the SSDP port in a test, and keeps it so for the ``with`` block. Not reentrant."""
    with open(os.path.join(tempfile.gettempdir(), "p2pgames-tests-ssdp.lock"), "a") as lock_file:
        fcntl.flock(lock_file, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock_file, fcntl.LOCK_UN)


@contextlib.contextmanager
def igd_standin(**knobs: object) -> Iterator[IGDStandIn]:
    """Runs an :class:`IGDStandIn` (keyword arguments: its knobs) for the ``with`` block, holding
    :func:`ssdp_to_ourselves` meanwhile."""
    with ssdp_to_ourselves():
        standin = IGDStandIn(**knobs)  # type: ignore[arg-type]
        standin.start()
        try:
            yield standin
        finally:
            standin.stop()
