"""Port mapping by PCP (RFC 6887), falling back to its predecessor NAT-PMP (RFC 6886).

Both protocols are one fixed-layout UDP datagram to the router's port 5351 and one answer back::

    GatewayMapper.add ─► PCP MAP, version 2 ─► MAP answer ─► PortMapping(method="PCP")
                              │
                              └ a version-0 UNSUPP_VERSION answer (RFC 6887 §9): the router
                                speaks NAT-PMP only, and is asked by NAT-PMP from then on
                                    ─► opcode 0: its internet address
                                    ─► opcode 2: a TCP mapping ─► PortMapping(method="NAT-PMP")

One frozen dataclass per datagram, each with ``encode()`` and ``parse()`` (``parse`` raises
``ValueError`` for bytes that aren't one):

============================  =========  =================================================
datagram                      bytes      layout
============================  =========  =================================================
PcpMapRequest                 60         RFC 6887 §7.1 header, §11.1 MAP data
PcpMapAnswer                  60-1100    RFC 6887 §7.2 header, §11.1 MAP data, options
AnswerHeader                  4, 8, 24   what every answer of both starts with: version,
                                         opcode | 0x80, result code (NAT-PMP's 16-bit
                                         result is PCP's reserved byte and result byte)
NatpmpExternalAddressRequest  2          RFC 6886 §3.2
NatpmpExternalAddressAnswer   12         RFC 6886 §3.2
NatpmpMapRequest              12         RFC 6886 §3.3 (lifetime 0 deletes: §3.4)
NatpmpMapAnswer               16         RFC 6886 §3.3
============================  =========  =================================================

Every failure is a :class:`~p2pgames.net._mapping.MappingError` whose text is one line for the
player; the caller adds the by-hand advice (``no_mapping_advice``), so the lines here end with
what is particular to the router's answer.
"""

from __future__ import annotations

import ipaddress
import secrets
import socket
import struct
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, TypeVar

import trio

from p2pgames.net._mapping import MappingError, PortMapping, behind_another_nat, is_private_wan_address

__all__ = [
    "AnswerHeader", "GATEWAY_PORT", "GatewayMapper", "NatpmpExternalAddressAnswer", "NatpmpExternalAddressRequest",
    "NatpmpMapAnswer", "NatpmpMapRequest", "PcpMapAnswer", "PcpMapRequest", "find_default_gateway",
    "gateway_from_proc_net_route", "gateway_from_route_get",
]

GATEWAY_PORT = 5351  # both protocols' server port (RFC 6886 §3, RFC 6887 §19.1)
PCP_VERSION = 2
NATPMP_VERSION = 0
ANSWER_BIT = 0x80  # an answer's opcode is the request's with the top bit set
PCP_OPCODE_MAP = 1
NATPMP_OPCODE_EXTERNAL_ADDRESS = 0
NATPMP_OPCODE_MAP_UDP = 1
NATPMP_OPCODE_MAP_TCP = 2
PROTOCOL_TCP = 6  # PCP names the protocol by its IANA number (RFC 6887 §11.1)
PROTOCOL_UDP = 17
UNSUPPORTED_VERSION = 1  # the same result code in both protocols
PCP_MAX_LENGTH = 1100  # RFC 6887 §7: no PCP message is longer
NONCE_LENGTH = 12
MAX_LIFETIME = 0xFFFFFFFF

# RFC 6887 §7.4.
PCP_RESULT_NAMES = {
    0: "SUCCESS", 1: "UNSUPP_VERSION", 2: "NOT_AUTHORIZED", 3: "MALFORMED_REQUEST", 4: "UNSUPP_OPCODE",
    5: "UNSUPP_OPTION", 6: "MALFORMED_OPTION", 7: "NETWORK_FAILURE", 8: "NO_RESOURCES", 9: "UNSUPP_PROTOCOL",
    10: "USER_EX_QUOTA", 11: "CANNOT_PROVIDE_EXTERNAL", 12: "ADDRESS_MISMATCH", 13: "EXCESSIVE_REMOTE_PEERS",
}
# RFC 6886 §3.5.
NATPMP_RESULT_NAMES = {
    0: "success", 1: "unsupported version", 2: "not authorized", 3: "network failure", 4: "out of resources",
    5: "unsupported opcode",
}

# Retransmission: RFC 6886 §3.1 waits 250 ms for the first answer and doubles the wait each time,
# for nine tries (over two minutes). A player is waiting for a join code, and a router on the
# same network answers in milliseconds, so we send at 0, 0.25, 0.75 and 1.75 s and give up at 2 s.
# (PCP's own schedule, RFC 6887 §8.1.1, starts at 3 s: slower still.)
FIRST_WAIT = 0.25
ATTEMPTS = 4
GIVE_UP_AFTER = 2.0

_PCP_HEADER = struct.Struct("!BBHI16s")  # version, R|opcode, reserved, lifetime, client address
_PCP_ANSWER_HEADER = struct.Struct("!BBBBII12x")  # version, R|opcode, reserved, result, lifetime, epoch
_PCP_MAP = struct.Struct("!12sB3xHH16s")  # nonce, protocol, reserved, internal port, external port, external address
_ANSWER_START = struct.Struct("!BBH")  # version, opcode | 0x80, result code (PCP: reserved byte, result byte)
_NATPMP_ERROR = struct.Struct("!BBHI")  # version, opcode | 0x80, result, seconds since start of epoch
_NATPMP_ADDRESS_ANSWER = struct.Struct("!BBHI4s")
_NATPMP_MAP_REQUEST = struct.Struct("!BBHHHI")  # version, opcode, reserved, internal, suggested external, lifetime
_NATPMP_MAP_ANSWER = struct.Struct("!BBHIHHI")  # version, opcode, result, epoch, internal, external, lifetime


def _check_port(name: str, port: int, *, zero_allowed: bool) -> None:
    if not (0 if zero_allowed else 1) <= port <= 65535:
        raise ValueError(f"{name} {port} is out of range")


def _check_unsigned(name: str, value: int, maximum: int) -> None:
    if not 0 <= value <= maximum:
        raise ValueError(f"{name} {value} is out of range")


def _address_bytes(address: str) -> bytes:
    """The 16 bytes PCP carries an address in: IPv6 as it is, IPv4 as an IPv4-mapped IPv6 address
    (RFC 6887 §5). Raises ``ValueError`` for text that is no address."""
    parsed = ipaddress.ip_address(address)
    if parsed.version == 4:
        return ipaddress.IPv6Address(b"\0" * 10 + b"\xff\xff" + parsed.packed).packed
    return parsed.packed


def _address_text(packed: bytes) -> str:
    """The address in PCP's 16 bytes, an IPv4-mapped one as plain IPv4."""
    parsed = ipaddress.IPv6Address(packed)
    return str(parsed.ipv4_mapped or parsed)


def _unpack(layout: struct.Struct, data: bytes, what: str) -> tuple:
    if len(data) < layout.size:
        raise ValueError(f"{len(data)} bytes are too short for {what}")
    return layout.unpack_from(data)


@dataclass(frozen=True)
class PcpMapRequest:
    """A PCP MAP request (RFC 6887 §11.1): map ``protocol``'s ``internal_port`` of
    ``client_address`` for ``lifetime_seconds`` (0: delete it, §15), suggesting an external port
    and address (0 and "0.0.0.0": no preference, §11.1). ``nonce`` (12 bytes) names the client's
    mapping: renewals and the deletion repeat it (§11.2). Raises ``ValueError`` for a field out
    of range."""

    nonce: bytes
    protocol: int
    internal_port: int
    suggested_external_port: int
    suggested_external_address: str
    client_address: str
    lifetime_seconds: int

    def __post_init__(self) -> None:
        if len(self.nonce) != NONCE_LENGTH:
            raise ValueError(f"a mapping nonce is {NONCE_LENGTH} bytes, not {len(self.nonce)}")
        _check_unsigned("protocol", self.protocol, 255)
        _check_port("internal port", self.internal_port, zero_allowed=False)
        _check_port("suggested external port", self.suggested_external_port, zero_allowed=True)
        _check_unsigned("lifetime", self.lifetime_seconds, MAX_LIFETIME)
        _address_bytes(self.suggested_external_address)
        _address_bytes(self.client_address)

    def encode(self) -> bytes:
        return _PCP_HEADER.pack(
            PCP_VERSION, PCP_OPCODE_MAP, 0, self.lifetime_seconds, _address_bytes(self.client_address),
        ) + _PCP_MAP.pack(
            self.nonce, self.protocol, self.internal_port, self.suggested_external_port,
            _address_bytes(self.suggested_external_address),
        )

    @classmethod
    def parse(cls, data: bytes) -> PcpMapRequest:
        """The request in ``data``; options after the MAP data are ignored. Raises ``ValueError``
        for bytes that are no PCP MAP request."""
        if len(data) > PCP_MAX_LENGTH or len(data) % 4:
            raise ValueError(f"{len(data)} bytes are no PCP message (a multiple of 4, at most {PCP_MAX_LENGTH})")
        version, opcode, _, lifetime, client = _unpack(_PCP_HEADER, data, "a PCP request")
        if (version, opcode) != (PCP_VERSION, PCP_OPCODE_MAP):
            raise ValueError(f"version {version}, opcode {opcode:#04x} is no PCP MAP request")
        nonce, protocol, internal, external, address = _unpack(_PCP_MAP, data[_PCP_HEADER.size:], "PCP MAP data")
        return cls(nonce, protocol, internal, external, _address_text(address), _address_text(client), lifetime)


@dataclass(frozen=True)
class PcpMapAnswer:
    """A PCP MAP answer (RFC 6887 §7.2, §11.1): ``result_code`` (§7.4), the ``lifetime_seconds``
    granted (for an error: how long it will last), the server's ``epoch_seconds`` (§8.5), and the
    request's nonce, protocol and internal port with the external port and address assigned.
    Raises ``ValueError`` for a field out of range."""

    result_code: int
    lifetime_seconds: int
    epoch_seconds: int
    nonce: bytes
    protocol: int
    internal_port: int
    external_port: int
    external_address: str

    def __post_init__(self) -> None:
        _check_unsigned("result code", self.result_code, 255)
        _check_unsigned("lifetime", self.lifetime_seconds, MAX_LIFETIME)
        _check_unsigned("epoch", self.epoch_seconds, MAX_LIFETIME)
        if len(self.nonce) != NONCE_LENGTH:
            raise ValueError(f"a mapping nonce is {NONCE_LENGTH} bytes, not {len(self.nonce)}")
        _check_unsigned("protocol", self.protocol, 255)
        _check_port("internal port", self.internal_port, zero_allowed=True)
        _check_port("external port", self.external_port, zero_allowed=True)
        _address_bytes(self.external_address)

    def encode(self) -> bytes:
        return _PCP_ANSWER_HEADER.pack(
            PCP_VERSION, ANSWER_BIT | PCP_OPCODE_MAP, 0, self.result_code, self.lifetime_seconds, self.epoch_seconds,
        ) + _PCP_MAP.pack(
            self.nonce, self.protocol, self.internal_port, self.external_port, _address_bytes(self.external_address),
        )

    @classmethod
    def parse(cls, data: bytes) -> PcpMapAnswer:
        """The answer in ``data``; options after the MAP data are ignored. Raises ``ValueError``
        for bytes that are no PCP MAP answer, as RFC 6887 §8.3 counts them: a length that is no
        multiple of 4 or over 1100 bytes, another version, or another opcode."""
        if len(data) > PCP_MAX_LENGTH or len(data) % 4:
            raise ValueError(f"{len(data)} bytes are no PCP message (a multiple of 4, at most {PCP_MAX_LENGTH})")
        version, opcode, _, result, lifetime, epoch = _unpack(_PCP_ANSWER_HEADER, data, "a PCP answer")
        if (version, opcode) != (PCP_VERSION, ANSWER_BIT | PCP_OPCODE_MAP):
            raise ValueError(f"version {version}, opcode {opcode:#04x} is no PCP MAP answer")
        nonce, protocol, internal, external, address = _unpack(_PCP_MAP, data[_PCP_ANSWER_HEADER.size:], "PCP MAP data")
        return cls(result, lifetime, epoch, nonce, protocol, internal, external, _address_text(address))


@dataclass(frozen=True)
class AnswerHeader:
    """What every PCP and NAT-PMP answer starts with: ``version``, ``opcode`` (without the answer
    bit) and ``result_code``. Some answers are only this much: NAT-PMP's "unsupported version"
    (RFC 6886 §3.5, 8 bytes, which is how a NAT-PMP router answers PCP: RFC 6887 §9), and a PCP
    error the server couldn't parse the request for (RFC 6887 §8.2, the 24-byte header).
    ``encode`` writes those, as version 0 or PCP asks. Raises ``ValueError`` for a field out of
    range."""

    version: int
    opcode: int
    result_code: int
    epoch_seconds: int = 0
    lifetime_seconds: int = 0  # PCP only: how long the error lasts

    def __post_init__(self) -> None:
        _check_unsigned("version", self.version, 255)
        _check_unsigned("opcode", self.opcode, 127)
        _check_unsigned("result code", self.result_code, 0xFFFF if self.version == NATPMP_VERSION else 255)
        _check_unsigned("epoch", self.epoch_seconds, MAX_LIFETIME)
        _check_unsigned("lifetime", self.lifetime_seconds, MAX_LIFETIME)

    def encode(self) -> bytes:
        if self.version == NATPMP_VERSION:
            return _NATPMP_ERROR.pack(self.version, ANSWER_BIT | self.opcode, self.result_code, self.epoch_seconds)
        return _PCP_ANSWER_HEADER.pack(
            self.version, ANSWER_BIT | self.opcode, 0, self.result_code, self.lifetime_seconds, self.epoch_seconds,
        )

    @classmethod
    def parse(cls, data: bytes) -> AnswerHeader:
        """The start of the answer in ``data`` (the epoch and lifetime where there are bytes for
        them). Raises ``ValueError`` for fewer than 4 bytes, or a request (no answer bit)."""
        version, opcode, result = _unpack(_ANSWER_START, data, "an answer")
        if not opcode & ANSWER_BIT:
            raise ValueError(f"opcode {opcode:#04x} is a request's, not an answer's")
        epoch = lifetime = 0
        if version == NATPMP_VERSION and len(data) >= _NATPMP_ERROR.size:
            epoch = _NATPMP_ERROR.unpack_from(data)[3]
        elif version != NATPMP_VERSION and len(data) >= _PCP_ANSWER_HEADER.size:
            _, _, _, result, lifetime, epoch = _PCP_ANSWER_HEADER.unpack_from(data)
        return cls(version, opcode & ~ANSWER_BIT, result, epoch, lifetime)


@dataclass(frozen=True)
class NatpmpExternalAddressRequest:
    """NAT-PMP's request for the router's internet address (RFC 6886 §3.2): version 0, opcode 0."""

    def encode(self) -> bytes:
        return bytes((NATPMP_VERSION, NATPMP_OPCODE_EXTERNAL_ADDRESS))

    @classmethod
    def parse(cls, data: bytes) -> NatpmpExternalAddressRequest:
        """Raises ``ValueError`` for bytes that are no such request."""
        if data != bytes((NATPMP_VERSION, NATPMP_OPCODE_EXTERNAL_ADDRESS)):
            raise ValueError("no NAT-PMP external address request")
        return cls()


@dataclass(frozen=True)
class NatpmpExternalAddressAnswer:
    """The router's internet address (RFC 6886 §3.2), with ``result_code`` and its
    ``epoch_seconds``. Raises ``ValueError`` for a field out of range or an address that isn't
    IPv4."""

    result_code: int
    epoch_seconds: int
    external_address: str

    def __post_init__(self) -> None:
        _check_unsigned("result code", self.result_code, 0xFFFF)
        _check_unsigned("epoch", self.epoch_seconds, MAX_LIFETIME)
        ipaddress.IPv4Address(self.external_address)

    def encode(self) -> bytes:
        return _NATPMP_ADDRESS_ANSWER.pack(
            NATPMP_VERSION, ANSWER_BIT | NATPMP_OPCODE_EXTERNAL_ADDRESS, self.result_code, self.epoch_seconds,
            ipaddress.IPv4Address(self.external_address).packed,
        )

    @classmethod
    def parse(cls, data: bytes) -> NatpmpExternalAddressAnswer:
        """Raises ``ValueError`` for bytes that are no such answer (12 bytes, RFC 6886 §3.2)."""
        if len(data) != _NATPMP_ADDRESS_ANSWER.size:
            raise ValueError(f"{len(data)} bytes are no NAT-PMP external address answer")
        version, opcode, result, epoch, address = _NATPMP_ADDRESS_ANSWER.unpack(data)
        if (version, opcode) != (NATPMP_VERSION, ANSWER_BIT | NATPMP_OPCODE_EXTERNAL_ADDRESS):
            raise ValueError(f"version {version}, opcode {opcode:#04x} is no NAT-PMP external address answer")
        return cls(result, epoch, str(ipaddress.IPv4Address(address)))


@dataclass(frozen=True)
class NatpmpMapRequest:
    """A NAT-PMP mapping request (RFC 6886 §3.3): ``opcode`` 1 maps UDP, 2 TCP; lifetime 0 with
    suggested external port 0 deletes the mapping (§3.4). Raises ``ValueError`` for a field out of
    range."""

    opcode: int
    internal_port: int
    suggested_external_port: int
    lifetime_seconds: int

    def __post_init__(self) -> None:
        if self.opcode not in (NATPMP_OPCODE_MAP_UDP, NATPMP_OPCODE_MAP_TCP):
            raise ValueError(f"NAT-PMP opcode {self.opcode} maps no port")
        _check_port("internal port", self.internal_port, zero_allowed=False)
        _check_port("suggested external port", self.suggested_external_port, zero_allowed=True)
        _check_unsigned("lifetime", self.lifetime_seconds, MAX_LIFETIME)

    def encode(self) -> bytes:
        return _NATPMP_MAP_REQUEST.pack(
            NATPMP_VERSION, self.opcode, 0, self.internal_port, self.suggested_external_port, self.lifetime_seconds,
        )

    @classmethod
    def parse(cls, data: bytes) -> NatpmpMapRequest:
        """Raises ``ValueError`` for bytes that are no such request (12 bytes)."""
        if len(data) != _NATPMP_MAP_REQUEST.size:
            raise ValueError(f"{len(data)} bytes are no NAT-PMP mapping request")
        version, opcode, _, internal, external, lifetime = _NATPMP_MAP_REQUEST.unpack(data)
        if version != NATPMP_VERSION:
            raise ValueError(f"version {version} is not NAT-PMP's")
        return cls(opcode, internal, external, lifetime)


@dataclass(frozen=True)
class NatpmpMapAnswer:
    """A NAT-PMP mapping answer (RFC 6886 §3.3): the request's ``opcode`` and internal port, the
    external port and lifetime granted (0 and 0 for a deletion, §3.4). Raises ``ValueError`` for
    a field out of range."""

    opcode: int
    result_code: int
    epoch_seconds: int
    internal_port: int
    external_port: int
    lifetime_seconds: int

    def __post_init__(self) -> None:
        if self.opcode not in (NATPMP_OPCODE_MAP_UDP, NATPMP_OPCODE_MAP_TCP):
            raise ValueError(f"NAT-PMP opcode {self.opcode} maps no port")
        _check_unsigned("result code", self.result_code, 0xFFFF)
        _check_unsigned("epoch", self.epoch_seconds, MAX_LIFETIME)
        _check_port("internal port", self.internal_port, zero_allowed=True)
        _check_port("external port", self.external_port, zero_allowed=True)
        _check_unsigned("lifetime", self.lifetime_seconds, MAX_LIFETIME)

    def encode(self) -> bytes:
        return _NATPMP_MAP_ANSWER.pack(
            NATPMP_VERSION, ANSWER_BIT | self.opcode, self.result_code, self.epoch_seconds, self.internal_port,
            self.external_port, self.lifetime_seconds,
        )

    @classmethod
    def parse(cls, data: bytes) -> NatpmpMapAnswer:
        """Raises ``ValueError`` for bytes that are no such answer (16 bytes)."""
        if len(data) != _NATPMP_MAP_ANSWER.size:
            raise ValueError(f"{len(data)} bytes are no NAT-PMP mapping answer")
        version, opcode, result, epoch, internal, external, lifetime = _NATPMP_MAP_ANSWER.unpack(data)
        if version != NATPMP_VERSION or not opcode & ANSWER_BIT:
            raise ValueError(f"version {version}, opcode {opcode:#04x} is no NAT-PMP mapping answer")
        return cls(opcode & ~ANSWER_BIT, result, epoch, internal, external, lifetime)


# -- finding the router -----------------------------------------------------------------------

_ROUTE_UP = 0x1  # RTF_UP and RTF_GATEWAY of <linux/route.h>
_ROUTE_GATEWAY = 0x2


def gateway_from_proc_net_route(text: str) -> str | None:
    """The IPv4 default gateway in Linux's ``/proc/net/route`` ``text`` (the one of lowest
    metric), or ``None``. Never raises for odd text: such a line is skipped."""
    best: tuple[int, str] | None = None
    for line in text.splitlines()[1:]:
        fields = line.split()
        try:
            destination, gateway, flags, mask = (int(fields[index], 16) for index in (1, 2, 3, 7))
            metric = int(fields[6])  # the one column in decimal
            # The kernel prints each address as the 32-bit number in memory, so in this
            # machine's byte order: packing it natively gives back the address's bytes.
            address = socket.inet_ntoa(struct.pack("=I", gateway))
        except (IndexError, ValueError, struct.error):
            continue
        if destination or mask or flags & (_ROUTE_UP | _ROUTE_GATEWAY) != _ROUTE_UP | _ROUTE_GATEWAY:
            continue
        if best is None or metric < best[0]:
            best = (metric, address)
    return best[1] if best else None


def gateway_from_route_get(text: str) -> str | None:
    """The IPv4 gateway in the output of macOS's and the BSDs' ``route -n get default``
    (a line ``gateway: 192.168.1.1``), or ``None``."""
    for line in text.splitlines():
        name, _, value = line.strip().partition(":")
        if name == "gateway":
            try:
                return str(ipaddress.IPv4Address(value.strip()))
            except ValueError:
                return None
    return None


async def find_default_gateway() -> str | None:
    """This machine's default IPv4 gateway, or ``None`` where it can't tell (no default route,
    or a system other than Linux, macOS and the BSDs). Never raises."""
    try:
        found = gateway_from_proc_net_route(Path("/proc/net/route").read_text())
    except (OSError, UnicodeDecodeError):
        found = None
    if found is not None or not (sys.platform == "darwin" or "bsd" in sys.platform):
        return found
    with trio.move_on_after(2):
        try:
            finished = await trio.run_process(["route", "-n", "get", "default"], capture_stdout=True, capture_stderr=True, check=False)
        except OSError:
            return None
        return gateway_from_route_get(finished.stdout.decode(errors="replace"))
    return None


# -- asking it --------------------------------------------------------------------------------

Answer = TypeVar("Answer")


class _SpeaksNoPcp(Exception):
    """The router answered a PCP request with an older version's UNSUPP_VERSION (RFC 6887 §9)."""


def _pcp_refusal(router: str, result: int, doing: str, external_port: int) -> str:
    """One line for a PCP error ``result`` (RFC 6887 §7.4) to a request to ``doing``."""
    said = f"PCP {PCP_RESULT_NAMES.get(result, f'result {result}')}"
    if result == 2:  # NOT_AUTHORIZED; also the answer to a nonce not the mapping's (§11.3)
        return (f"the router at {router} refused to {doing} ({said}): port mapping is turned off in its settings, "
                f"or another program (or an earlier run of this one) holds that port there")
    if result == 7:
        return f"the router at {router} isn't connected to the internet right now ({said}): check its connection and try again"
    if result == 8:
        return f"the router at {router} has no room for another port mapping ({said}): remove mappings no longer used in its settings"
    if result == 10:
        return f"this machine has as many port mappings on the router at {router} as it may have ({said}): close programs that hold some"
    if result == 11:
        return (f"the router at {router} can't give port {external_port} on its internet side: it is taken ({said}); "
                f"choose another with --port")
    if result == 12:
        return (f"the router at {router} sees this machine's request come from another address ({said}): "
                f"another NAT or a VPN stands between them")
    return f"the router at {router} refused to {doing} ({said})"


def _natpmp_refusal(router: str, result: int, doing: str) -> str:
    """One line for a NAT-PMP error ``result`` (RFC 6886 §3.5) to a request to ``doing``."""
    said = f"NAT-PMP result {result}" + (f", {NATPMP_RESULT_NAMES[result]}" if result in NATPMP_RESULT_NAMES else "")
    if result == UNSUPPORTED_VERSION:
        return f"the router at {router} speaks neither PCP version 2 nor NAT-PMP version 0 ({said})"
    if result == 2:
        return f"the router at {router} refused to {doing} ({said}): port mapping is turned off in its settings"
    if result == 3:
        return f"the router at {router} isn't connected to the internet right now ({said}): check its connection and try again"
    if result == 4:
        return f"the router at {router} has no room for another port mapping ({said}): remove mappings no longer used in its settings"
    if result == 5:
        return f"the router at {router} speaks NAT-PMP but can't {doing} ({said})"
    return f"the router at {router} refused to {doing} ({said})"


class GatewayMapper:
    """A :class:`~p2pgames.net._mapping.PortMapper` speaking PCP to the router at ``gateway``
    (default: this machine's default IPv4 gateway) on ``port``, and NAT-PMP once the router has
    answered that it speaks no PCP; :attr:`method` says which ("PCP", then maybe "NAT-PMP").

    Each exchange sends at most :data:`ATTEMPTS` datagrams and waits at most
    :data:`GIVE_UP_AFTER` seconds; one exchange runs at a time, so that the router is never
    asked two things at once. Raises ``ValueError`` for a ``gateway`` that isn't an
    IPv4 address or a ``port`` out of range.
    """

    protocols = ("PCP", "NAT-PMP")  # what it may speak, for a message that none answered

    def __init__(self, *, gateway: str | None = None, port: int = GATEWAY_PORT) -> None:
        if gateway is not None:
            gateway = str(ipaddress.IPv4Address(gateway))
        _check_port("gateway port", port, zero_allowed=False)
        self.method = "PCP"
        self._gateway = gateway
        self._port = port
        # RFC 6887 §11.2: the nonce names our mapping; §11.3: renewing or deleting it under another is refused.
        self._nonces: dict[int, bytes] = {}
        # The external address last granted per internal port, suggested again on renewal (§11.2).
        self._granted_addresses: dict[int, str] = {}
        self._lock = trio.Lock()

    async def add(self, internal_port: int, lease_seconds: int, *, external_port: int | None = None) -> PortMapping:
        """Map ``external_port`` (default: ``internal_port``; only a suggestion: the router may
        grant another, which the mapping says) to TCP ``internal_port`` of this machine for
        ``lease_seconds``, or renew that mapping; the mapping says the lease the router granted.
        Raises :class:`MappingError` when the router can't be found, asked, or says no, and when
        it stands behind another NAT (the mapping it granted is removed first); ``ValueError``
        for a port out of range or a lease under 1 s (lease 0 would delete the mapping)."""
        _check_port("internal port", internal_port, zero_allowed=False)
        if external_port is not None:
            _check_port("external port", external_port, zero_allowed=False)
        if not 1 <= lease_seconds <= MAX_LIFETIME:
            raise ValueError(f"a lease of {lease_seconds} s can't be asked for")
        router = await self._router()
        async with self._lock:
            if self.method == "PCP":
                try:
                    return await self._add_by_pcp(router, internal_port, lease_seconds, external_port or internal_port)
                except _SpeaksNoPcp:
                    self.method = "NAT-PMP"
            return await self._add_by_natpmp(router, internal_port, lease_seconds, external_port or internal_port)

    async def remove(self, mapping: PortMapping) -> None:
        """Remove ``mapping`` from the router that granted it, by the protocol that got it
        (removing one the router no longer has is no error). Raises :class:`MappingError`;
        ``ValueError`` for a mapping made by UPnP."""
        if mapping.method not in ("PCP", "NAT-PMP"):
            raise ValueError(f"a mapping made by {mapping.method} can't be removed by PCP or NAT-PMP")
        async with self._lock:
            if mapping.method == "PCP":
                try:
                    await self._remove_by_pcp(mapping.router, mapping)
                    return
                except _SpeaksNoPcp:  # the router was replaced or downgraded since
                    self.method = "NAT-PMP"
            await self._remove_by_natpmp(mapping.router, mapping)

    async def _router(self) -> str:
        if self._gateway is None:
            self._gateway = await find_default_gateway()
        if self._gateway is None:
            raise MappingError(
                "can't tell this machine's router address (no default IPv4 route found); "
                "to ask a router by PCP or NAT-PMP, set P2PGAMES_GATEWAY to its address"
            )
        return self._gateway

    # -- PCP ------------------------------------------------------------------------------------

    async def _pcp_exchange(
        self, router: str, internal_port: int, lifetime: int, suggested_port: int, suggested_address: str,
    ) -> PcpMapAnswer | AnswerHeader:
        """One PCP MAP exchange for ``internal_port`` under its nonce. Raises :class:`MappingError`,
        and ``_SpeaksNoPcp`` when the router answers with an older version's UNSUPP_VERSION."""
        nonce = self._nonces.setdefault(internal_port, secrets.token_bytes(NONCE_LENGTH))

        def request(client_address: str) -> bytes:
            return PcpMapRequest(
                nonce, PROTOCOL_TCP, internal_port, suggested_port, suggested_address, client_address, lifetime,
            ).encode()

        def answer(data: bytes) -> PcpMapAnswer | AnswerHeader | None:
            try:
                header = AnswerHeader.parse(data)
            except ValueError:
                return None
            if header.opcode != PCP_OPCODE_MAP:
                return None
            if header.version != PCP_VERSION:
                # A NAT-PMP router answers PCP with its 8-byte "unsupported version" (RFC 6887 §9).
                if header.result_code == UNSUPPORTED_VERSION and header.version < PCP_VERSION:
                    raise _SpeaksNoPcp
                return None
            if header.result_code and len(data) < _PCP_ANSWER_HEADER.size + _PCP_MAP.size:
                # An error for a request the server couldn't read has no MAP data to match (§8.2).
                return header if len(data) >= _PCP_ANSWER_HEADER.size and not len(data) % 4 else None
            try:
                parsed = PcpMapAnswer.parse(data)
            except ValueError:
                return None
            # RFC 6887 §11.4: an answer is ours if nonce, protocol and internal port are.
            if (parsed.nonce, parsed.protocol, parsed.internal_port) != (nonce, PROTOCOL_TCP, internal_port):
                return None
            return parsed

        # Silence from a router never asked before means neither protocol: one speaking only
        # NAT-PMP would have answered "unsupported version".
        return await self._exchange(router, request, answer, "PCP or NAT-PMP" if self.method == "PCP" else "PCP")

    async def _add_by_pcp(self, router: str, internal_port: int, lease_seconds: int, suggested_port: int) -> PortMapping:
        suggested_address = self._granted_addresses.get(internal_port, "0.0.0.0")
        answer = await self._pcp_exchange(router, internal_port, lease_seconds, suggested_port, suggested_address)
        if answer.result_code:
            raise MappingError(
                _pcp_refusal(router, answer.result_code, f"map port {internal_port}", suggested_port), answered=True,
                port_taken=answer.result_code == 11,  # CANNOT_PROVIDE_EXTERNAL
            )
        assert isinstance(answer, PcpMapAnswer)  # a bare header only ever carries an error
        if not answer.external_port or not answer.lifetime_seconds:
            raise MappingError(f"the router at {router} answered PCP without granting a port", answered=True)
        mapping = PortMapping("PCP", router, answer.external_address, answer.external_port, internal_port, answer.lifetime_seconds)
        if is_private_wan_address(mapping.external_address):
            # Useless to friends outside, and holding a port on the router: give it back first.
            try:
                await self._remove_by_pcp(router, mapping)
            except (MappingError, _SpeaksNoPcp):
                pass  # it lapses with its lease
            raise MappingError(behind_another_nat(router, mapping.external_address, mapping.external_port), answered=True)
        self._granted_addresses[internal_port] = mapping.external_address
        return mapping

    async def _remove_by_pcp(self, router: str, mapping: PortMapping) -> None:
        answer = await self._pcp_exchange(router, mapping.internal_port, 0, mapping.external_port, mapping.external_address)
        if answer.result_code:
            raise MappingError(
                _pcp_refusal(router, answer.result_code, f"remove its mapping of port {mapping.external_port}", mapping.external_port),
                answered=True,
            )
        self._granted_addresses.pop(mapping.internal_port, None)

    # -- NAT-PMP --------------------------------------------------------------------------------

    async def _natpmp_external_address(self, router: str) -> str:
        def answer(data: bytes) -> NatpmpExternalAddressAnswer | AnswerHeader | None:
            try:
                header = AnswerHeader.parse(data)
            except ValueError:
                return None
            if (header.version, header.opcode) != (NATPMP_VERSION, NATPMP_OPCODE_EXTERNAL_ADDRESS):
                return None
            if header.result_code and len(data) >= _NATPMP_ERROR.size:
                return header  # RFC 6886 §3.5: an error may come without the address
            try:
                return NatpmpExternalAddressAnswer.parse(data)
            except ValueError:
                return None

        got = await self._exchange(router, lambda client_address: NatpmpExternalAddressRequest().encode(), answer, "NAT-PMP")
        if got.result_code:
            raise MappingError(_natpmp_refusal(router, got.result_code, "say its internet address"), answered=True)
        assert isinstance(got, NatpmpExternalAddressAnswer)
        return got.external_address

    async def _natpmp_map(self, router: str, internal_port: int, suggested_port: int, lifetime: int) -> NatpmpMapAnswer | AnswerHeader:
        def answer(data: bytes) -> NatpmpMapAnswer | AnswerHeader | None:
            try:
                header = AnswerHeader.parse(data)
            except ValueError:
                return None
            if (header.version, header.opcode) != (NATPMP_VERSION, NATPMP_OPCODE_MAP_TCP):
                return None
            if header.result_code and _NATPMP_ERROR.size <= len(data) < _NATPMP_MAP_ANSWER.size:
                return header  # an error without the mapping's fields can't be matched further
            try:
                parsed = NatpmpMapAnswer.parse(data)
            except ValueError:
                return None
            return parsed if parsed.internal_port == internal_port else None

        request = NatpmpMapRequest(NATPMP_OPCODE_MAP_TCP, internal_port, suggested_port, lifetime).encode()
        return await self._exchange(router, lambda client_address: request, answer, "NAT-PMP")

    async def _add_by_natpmp(self, router: str, internal_port: int, lease_seconds: int, suggested_port: int) -> PortMapping:
        # The address first: behind another NAT, nothing is mapped at all.
        external_address = await self._natpmp_external_address(router)
        if is_private_wan_address(external_address):
            raise MappingError(behind_another_nat(router, external_address, suggested_port), answered=True)
        answer = await self._natpmp_map(router, internal_port, suggested_port, lease_seconds)
        if answer.result_code:
            raise MappingError(_natpmp_refusal(router, answer.result_code, f"map port {internal_port}"), answered=True)
        assert isinstance(answer, NatpmpMapAnswer)
        if not answer.external_port or not answer.lifetime_seconds:
            raise MappingError(f"the router at {router} answered NAT-PMP without granting a port", answered=True)
        return PortMapping("NAT-PMP", router, external_address, answer.external_port, internal_port, answer.lifetime_seconds)

    async def _remove_by_natpmp(self, router: str, mapping: PortMapping) -> None:
        # RFC 6886 §3.4: lifetime 0 and suggested external port 0 delete the mapping.
        answer = await self._natpmp_map(router, mapping.internal_port, 0, 0)
        if answer.result_code:
            raise MappingError(
                _natpmp_refusal(router, answer.result_code, f"remove its mapping of port {mapping.external_port}"),
                answered=True,
            )

    # -- one exchange ---------------------------------------------------------------------------

    async def _exchange(
        self, router: str, request: Callable[[str], bytes], answer: Callable[[bytes], Answer | None], asked: str,
    ) -> Answer:
        """Send ``request(this machine's address towards the router)`` to ``router``, again as
        RFC 6886 §3.1 says while no answer comes, and return the first datagram from the router's
        port that ``answer`` reads (it returns ``None`` for one that isn't an answer to this
        request: that one is ignored). Raises :class:`MappingError` when none comes, and at once
        when the router says nothing listens on its port; whatever ``answer`` raises."""
        unreachable = f"the router at {router} doesn't answer {asked} (nothing listens on its port {self._port}): it doesn't speak them, or they are turned off in its settings"
        try:
            with trio.socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
                # Connected, so that the kernel passes only the router's datagrams, and an ICMP
                # "port unreachable" comes back as ConnectionRefusedError.
                await sock.connect((router, self._port))
                datagram = request(sock.getsockname()[0])
                deadline = trio.current_time() + GIVE_UP_AFTER
                wait = FIRST_WAIT
                for _ in range(ATTEMPTS):
                    await sock.send(datagram)
                    with trio.move_on_at(min(trio.current_time() + wait, deadline)):
                        while True:
                            # Room for more than PCP's longest message, so a longer one is seen and refused.
                            data, source = await sock.recvfrom(PCP_MAX_LENGTH + 4)
                            if tuple(source[:2]) != (router, self._port):
                                continue
                            got = answer(data)
                            if got is not None:
                                return got
                    wait *= 2
                    if trio.current_time() >= deadline:
                        break
        except ConnectionRefusedError:
            raise MappingError(unreachable) from None
        except OSError as error:
            raise MappingError(
                f"can't reach the router at {router} ({error.strerror or error}): check this machine's network connection"
            ) from None
        raise MappingError(
            f"no answer from the router at {router} to {asked} (asked {ATTEMPTS} times in {GIVE_UP_AFTER:g} s): "
            f"it doesn't speak them, or they are turned off in its settings"
        )
