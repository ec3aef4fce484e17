"""A router stand-in speaking PCP (RFC 6887, the MAP opcode) and NAT-PMP (RFC 6886, opcodes 0, 1
and 2) on a UDP port of 127.0.0.1, for testing :class:`p2pgames.net._natpmp.GatewayMapper`.

::

    with GatewayStandIn(speaks=("natpmp",), external_address="203.0.113.7") as router:
        mapper = GatewayMapper(gateway="127.0.0.1", port=router.port)
        ...                                # or P2PGAMES_GATEWAY=127.0.0.1:{router.port} for a subprocess
        assert router.mappings == {("TCP", 40123): Held(...)}

It answers from a thread of its own, so a trio test, a plain test and a subprocess can all ask
it; the knobs (plain attributes) may be changed between requests. ``speaks`` says which
protocols it answers: both, ``("natpmp",)`` (a PCP request gets NAT-PMP's 8-byte "unsupported
version", as RFC 6887 §9 describes an older router), ``("pcp",)``, or ``()`` (silent: it reads
and logs requests but never answers).
"""

from __future__ import annotations

import ipaddress
import select
import socket
import threading
import time
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from p2pgames.net._natpmp import (
    NATPMP_OPCODE_EXTERNAL_ADDRESS, NATPMP_OPCODE_MAP_TCP, NATPMP_OPCODE_MAP_UDP, NATPMP_VERSION, PCP_OPCODE_MAP,
    PCP_VERSION, PROTOCOL_TCP, PROTOCOL_UDP, AnswerHeader, NatpmpExternalAddressAnswer, NatpmpExternalAddressRequest,
    NatpmpMapAnswer, NatpmpMapRequest, PcpMapAnswer, PcpMapRequest,
)

__all__ = ["GatewayStandIn", "Held"]

LOOPBACK = "127.0.0.1"
# PCP result codes (RFC 6887 §7.4) the stand-in gives of itself.
SUCCESS, UNSUPP_VERSION, NOT_AUTHORIZED, MALFORMED_REQUEST, UNSUPP_OPCODE = 0, 1, 2, 3, 4
UNSUPP_PROTOCOL, ADDRESS_MISMATCH = 9, 12
NATPMP_UNSUPPORTED_OPCODE = 5
ERROR_LIFETIME = 30  # RFC 6887 §7.2: an error answer's lifetime says how long it will last
FIRST_SPARE_PORT = 50000  # where it looks for another external port when the suggested one is taken

Noise = bytes | Callable[[bytes], bytes]


@dataclass(frozen=True)
class Held:
    """A mapping the stand-in holds: ``external_port`` for ``lifetime_seconds`` (as granted),
    made by ``method`` ("PCP" or "NAT-PMP"), and the PCP nonce (``None`` for NAT-PMP)."""

    external_port: int
    lifetime_seconds: int
    method: str
    nonce: bytes | None


class GatewayStandIn:
    """A router on 127.0.0.1:``port`` (an ephemeral port). Knobs:

    - ``speaks``: ``("pcp", "natpmp")``, ``("natpmp",)``, ``("pcp",)`` or ``()`` (silent);
    - ``external_address``: its internet address, in PCP answers and NAT-PMP opcode 0;
    - ``result_code``: nonzero makes every request to map, and NAT-PMP's opcode 0, fail with it
      (a PCP code for PCP, a NAT-PMP one for NAT-PMP);
    - ``granted_lifetime``: the longest lease it grants (``None``: what was asked);
    - ``taken``: external ports someone else holds; it grants another instead, as RFC 6886 §3.3
      and RFC 6887 §11.3 say a router does;
    - ``noise``: datagrams it sends before each answer; a callable gets the answer's bytes and
      returns a datagram (e.g. the answer with another nonce);
    - ``ignore_first``: that many requests go unanswered (lost, as far as the client can tell).

    ``mappings`` (``(protocol, internal port) → Held``) and ``requests`` (every datagram received,
    in order) are snapshots taken under a lock; :meth:`forget` drops every mapping and starts a
    new epoch, as a restart does. Use it as a context manager, or call :meth:`close`.
    """

    def __init__(
        self,
        *,
        speaks: Iterable[str] = ("pcp", "natpmp"),
        external_address: str = "203.0.113.7",
        result_code: int = 0,
        granted_lifetime: int | None = None,
        taken: Iterable[int] = (),
        noise: Sequence[Noise] = (),
        ignore_first: int = 0,
    ) -> None:
        self.speaks = tuple(speaks)
        self.external_address = external_address
        self.result_code = result_code
        self.granted_lifetime = granted_lifetime
        self.taken = set(taken)
        self.noise = list(noise)
        self.ignore_first = ignore_first
        self._lock = threading.Lock()
        self._mappings: dict[tuple[str, int], Held] = {}
        self._requests: list[bytes] = []
        self._started = time.monotonic()
        self._socket = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self._socket.bind((LOOPBACK, 0))
        self.port: int = self._socket.getsockname()[1]
        self._stop_reader, self._stop_writer = socket.socketpair()
        self._thread = threading.Thread(target=self._serve, name=f"router stand-in :{self.port}", daemon=True)
        self._thread.start()

    def __enter__(self) -> GatewayStandIn:
        return self

    def __exit__(self, *exception: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop answering and close the socket (the port then refuses: ICMP unreachable)."""
        if self._thread.is_alive():
            self._stop_writer.send(b"x")
            self._thread.join(timeout=5)
        for closing in (self._socket, self._stop_reader, self._stop_writer):
            closing.close()

    @property
    def mappings(self) -> dict[tuple[str, int], Held]:
        with self._lock:
            return dict(self._mappings)

    @property
    def requests(self) -> list[bytes]:
        with self._lock:
            return list(self._requests)

    def forget(self) -> None:
        """Drop every mapping and restart the epoch, as a router's restart (or the leases
        running out) does."""
        with self._lock:
            self._mappings.clear()
            self._started = time.monotonic()

    # -- the thread -----------------------------------------------------------------------------

    def _serve(self) -> None:
        while True:
            readable, _, _ = select.select([self._socket, self._stop_reader], [], [])
            if self._stop_reader in readable:
                return
            try:
                data, source = self._socket.recvfrom(2048)
            except OSError:
                continue
            with self._lock:
                self._requests.append(data)
                if self.ignore_first > 0:
                    self.ignore_first -= 1
                    continue
                answer = self._answer(data, source[0])
            if answer is None:
                continue
            for item in self.noise:
                self._socket.sendto(item(answer) if callable(item) else item, source)
            self._socket.sendto(answer, source)

    def _epoch(self) -> int:
        return int(time.monotonic() - self._started)

    def _answer(self, data: bytes, source: str) -> bytes | None:
        """The answer to ``data`` from ``source``, or ``None`` for none (called under the lock)."""
        if len(data) < 2 or data[1] & 0x80 or not self.speaks:
            return None  # answers are never answered (RFC 6886 §3.5, RFC 6887 §8.3)
        version, opcode = data[0], data[1]
        if version == NATPMP_VERSION and "natpmp" in self.speaks:
            return self._natpmp(data, opcode)
        if version == PCP_VERSION and "pcp" in self.speaks:
            return self._pcp(data, source)
        if "natpmp" in self.speaks:  # a NAT-PMP router's answer to a version it lacks (RFC 6886 §3.5)
            return AnswerHeader(NATPMP_VERSION, opcode, UNSUPP_VERSION, self._epoch()).encode()
        # A PCP server's: UNSUPP_VERSION with the version it speaks (RFC 6887 §9).
        return AnswerHeader(PCP_VERSION, opcode & 0x7F, UNSUPP_VERSION, self._epoch(), ERROR_LIFETIME).encode()

    def _free_port(self, suggested: int, key: tuple[str, int]) -> int:
        used = self.taken | {held.external_port for other, held in self._mappings.items() if other[0] == key[0] and other != key}
        if suggested and suggested not in used:
            return suggested
        return next(port for port in range(FIRST_SPARE_PORT, 65536) if port not in used)

    def _granted(self, asked: int) -> int:
        return asked if self.granted_lifetime is None else min(asked, self.granted_lifetime)

    def _natpmp(self, data: bytes, opcode: int) -> bytes:
        if opcode == NATPMP_OPCODE_EXTERNAL_ADDRESS:
            try:
                NatpmpExternalAddressRequest.parse(data)
            except ValueError:
                return AnswerHeader(NATPMP_VERSION, opcode, 1, self._epoch()).encode()
            return NatpmpExternalAddressAnswer(self.result_code, self._epoch(), self.external_address).encode()
        if opcode not in (NATPMP_OPCODE_MAP_UDP, NATPMP_OPCODE_MAP_TCP):
            return AnswerHeader(NATPMP_VERSION, opcode, NATPMP_UNSUPPORTED_OPCODE, self._epoch()).encode()
        try:
            request = NatpmpMapRequest.parse(data)
        except ValueError:
            return AnswerHeader(NATPMP_VERSION, opcode, NATPMP_UNSUPPORTED_OPCODE, self._epoch()).encode()
        key = ("TCP" if opcode == NATPMP_OPCODE_MAP_TCP else "UDP", request.internal_port)

        def answer(result: int, external: int, lifetime: int) -> bytes:
            return NatpmpMapAnswer(opcode, result, self._epoch(), request.internal_port, external, lifetime).encode()

        if request.lifetime_seconds == 0:
            # RFC 6886 §3.4: deleting a mapping that isn't there succeeds too.
            self._mappings.pop(key, None)
            return answer(0, 0, 0)
        if self.result_code:
            return answer(self.result_code, 0, 0)
        held = self._mappings.get(key)
        external = held.external_port if held else self._free_port(request.suggested_external_port, key)
        lifetime = self._granted(request.lifetime_seconds)
        self._mappings[key] = Held(external, lifetime, "NAT-PMP", None)
        return answer(0, external, lifetime)

    def _pcp(self, data: bytes, source: str) -> bytes:
        def error(result: int) -> bytes:
            return AnswerHeader(PCP_VERSION, data[1] & 0x7F, result, self._epoch(), ERROR_LIFETIME).encode()

        if len(data) < 24 or len(data) > 1100 or len(data) % 4:
            return error(MALFORMED_REQUEST)
        if data[1] != PCP_OPCODE_MAP:
            return error(UNSUPP_OPCODE)
        try:
            request = PcpMapRequest.parse(data)
        except ValueError:
            return error(MALFORMED_REQUEST)

        def answer(result: int, lifetime: int, external: int) -> bytes:
            return PcpMapAnswer(
                result, lifetime, self._epoch(), request.nonce, request.protocol, request.internal_port, external,
                self.external_address,
            ).encode()

        # RFC 6887 §8.3 (server): the client's address in the request must be the source's.
        if ipaddress.ip_address(request.client_address) != ipaddress.ip_address(source):
            return answer(ADDRESS_MISMATCH, ERROR_LIFETIME, request.suggested_external_port)
        if request.protocol not in (PROTOCOL_TCP, PROTOCOL_UDP):
            return answer(UNSUPP_PROTOCOL, ERROR_LIFETIME, request.suggested_external_port)
        key = ("TCP" if request.protocol == PROTOCOL_TCP else "UDP", request.internal_port)
        held = self._mappings.get(key)
        # RFC 6887 §11.3: only the nonce that made a mapping renews or deletes it.
        if held is not None and held.nonce is not None and held.nonce != request.nonce:
            return answer(NOT_AUTHORIZED, held.lifetime_seconds, request.suggested_external_port)
        if request.lifetime_seconds == 0:
            self._mappings.pop(key, None)
            return answer(SUCCESS, 0, held.external_port if held else request.suggested_external_port)
        if self.result_code:
            return answer(self.result_code, ERROR_LIFETIME, request.suggested_external_port)
        external = held.external_port if held else self._free_port(request.suggested_external_port, key)
        lifetime = self._granted(request.lifetime_seconds)
        self._mappings[key] = Held(external, lifetime, "PCP", request.nonce)
        return answer(SUCCESS, lifetime, external)
