"""PCP and NAT-PMP port mapping (``p2pgames/net/_natpmp.py``): the datagrams byte for byte
against the RFC layouts, then :class:`GatewayMapper` against a router stand-in on 127.0.0.1
(``natpmp_standin.py``) that speaks both, NAT-PMP only, or nothing."""

from __future__ import annotations

import functools
import socket
import struct

import pytest
import trio
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pgames.net import _natpmp
from p2pgames.net._natpmp import (
    AnswerHeader, GatewayMapper, NatpmpExternalAddressAnswer, NatpmpExternalAddressRequest, NatpmpMapAnswer,
    NatpmpMapRequest, PcpMapAnswer, PcpMapRequest, gateway_from_proc_net_route, gateway_from_route_get,
)
from p2pgames.net._portmap import LEASE_SECONDS, MappingError, PortMapping, hold_port_mapping
from natpmp_standin import GatewayStandIn, Held

NONCE = bytes(range(1, 13))
PORT = 40123  # 0x9CBB


# -- the datagrams ----------------------------------------------------------------------------


def test_a_pcp_map_request_is_laid_out_as_rfc_6887_says() -> None:
    request = PcpMapRequest(NONCE, 6, PORT, PORT, "0.0.0.0", "192.168.1.20", 1200)
    expected = bytes.fromhex(
        "02"  # version 2 (RFC 6887 §7.1)
        "01"  # R = 0 (a request), opcode 1: MAP
        "0000"  # reserved
        "000004b0"  # requested lifetime: 1200 s
        "00000000000000000000ffffc0a80114"  # client address 192.168.1.20, IPv4-mapped (§5)
        "0102030405060708090a0b0c"  # mapping nonce (§11.1)
        "06"  # protocol: TCP
        "000000"  # reserved
        "9cbb"  # internal port 40123
        "9cbb"  # suggested external port 40123
        "00000000000000000000ffff00000000"  # suggested external address: none (::ffff:0.0.0.0)
    )
    assert request.encode() == expected
    assert len(expected) == 60
    assert PcpMapRequest.parse(expected) == request


def test_natpmp_requests_are_laid_out_as_rfc_6886_says() -> None:
    assert NatpmpExternalAddressRequest().encode() == bytes.fromhex("0000")  # version 0, opcode 0 (§3.2)
    request = NatpmpMapRequest(2, PORT, PORT, 7200)
    expected = bytes.fromhex(
        "00"  # version 0 (RFC 6886 §3.3)
        "02"  # opcode 2: map TCP
        "0000"  # reserved
        "9cbb"  # internal port 40123
        "9cbb"  # suggested external port 40123
        "00001c20"  # requested lifetime: 7200 s
    )
    assert request.encode() == expected
    assert NatpmpMapRequest.parse(expected) == request
    # Deleting (§3.4): lifetime 0, suggested external port 0.
    assert NatpmpMapRequest(2, PORT, 0, 0).encode() == bytes.fromhex("000200009cbb000000000000")


def test_answers_read_from_the_rfc_layouts() -> None:
    pcp = bytes.fromhex(
        "02" "81" "00" "00"  # version 2, R = 1 | MAP, reserved, result SUCCESS
        "00000258"  # lifetime granted: 600 s
        "00000e10"  # epoch: 3600 s
        "000000000000000000000000"  # reserved
        "0102030405060708090a0b0c" "06" "000000" "9cbb" "c350"  # nonce, TCP, internal 40123, external 50000
        "00000000000000000000ffffcb007107"  # assigned external address 203.0.113.7
    )
    assert PcpMapAnswer.parse(pcp) == PcpMapAnswer(0, 600, 3600, NONCE, 6, PORT, 50000, "203.0.113.7")
    assert PcpMapAnswer.parse(pcp + bytes(8)) == PcpMapAnswer.parse(pcp)  # options are skipped
    natpmp_map = bytes.fromhex("00" "82" "0000" "00000e10" "9cbb" "c350" "00000258")
    assert NatpmpMapAnswer.parse(natpmp_map) == NatpmpMapAnswer(2, 0, 3600, PORT, 50000, 600)
    natpmp_address = bytes.fromhex("00" "80" "0000" "00000e10" "cb007107")
    assert NatpmpExternalAddressAnswer.parse(natpmp_address) == NatpmpExternalAddressAnswer(0, 3600, "203.0.113.7")
    # A NAT-PMP router's answer to a PCP request (RFC 6886 §3.5, RFC 6887 §9).
    assert AnswerHeader.parse(bytes.fromhex("0081000100000e10")) == AnswerHeader(0, 1, 1, 3600)
    for answer in (PcpMapAnswer.parse(pcp), NatpmpMapAnswer.parse(natpmp_map), NatpmpExternalAddressAnswer.parse(natpmp_address)):
        assert type(answer).parse(answer.encode()) == answer


def test_an_answer_of_another_kind_or_length_is_refused() -> None:
    pcp = PcpMapAnswer(0, 600, 3600, NONCE, 6, PORT, 50000, "203.0.113.7").encode()
    natpmp_map = NatpmpMapAnswer(2, 0, 3600, PORT, 50000, 600).encode()
    natpmp_address = NatpmpExternalAddressAnswer(0, 3600, "203.0.113.7").encode()
    for kind, answer in ((PcpMapAnswer, pcp), (NatpmpMapAnswer, natpmp_map), (NatpmpExternalAddressAnswer, natpmp_address)):
        for wrong in (
            bytes((answer[0] ^ 1,)) + answer[1:],  # another version
            answer[:1] + bytes((answer[1] & 0x7F,)) + answer[2:],  # a request's opcode
            answer[:-4], answer + b"\x00",
        ):
            with pytest.raises(ValueError):
                kind.parse(wrong)
    with pytest.raises(ValueError):
        PcpMapAnswer.parse(pcp + bytes(1044))  # longer than 1100 bytes (RFC 6887 §7)
    with pytest.raises(ValueError):
        PcpMapAnswer.parse(pcp[:1] + b"\x82" + pcp[2:])  # not MAP
    with pytest.raises(ValueError):
        AnswerHeader.parse(bytes.fromhex("0001000100000e10"))  # a request


@pytest.mark.parametrize("make", [
    lambda: PcpMapRequest(bytes(11), 6, PORT, PORT, "0.0.0.0", "192.168.1.20", 60),
    lambda: PcpMapRequest(NONCE, 6, 0, PORT, "0.0.0.0", "192.168.1.20", 60),
    lambda: PcpMapRequest(NONCE, 6, PORT, 70000, "0.0.0.0", "192.168.1.20", 60),
    lambda: PcpMapRequest(NONCE, 6, PORT, PORT, "router", "192.168.1.20", 60),
    lambda: PcpMapRequest(NONCE, 6, PORT, PORT, "0.0.0.0", "192.168.1.20", 2**32),
    lambda: NatpmpMapRequest(3, PORT, PORT, 60),
    lambda: NatpmpMapRequest(2, PORT, PORT, -1),
    lambda: NatpmpExternalAddressAnswer(0, 0, "2001:db8::1"),
    lambda: PcpMapAnswer(256, 0, 0, NONCE, 6, PORT, PORT, "203.0.113.7"),
])
def test_a_datagram_validates_itself(make) -> None:
    with pytest.raises(ValueError):
        make()


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=1200))
def test_garbage_is_refused_with_value_error_only(data: bytes) -> None:
    for kind in (PcpMapRequest, PcpMapAnswer, AnswerHeader, NatpmpExternalAddressRequest, NatpmpExternalAddressAnswer,
                 NatpmpMapRequest, NatpmpMapAnswer):
        try:
            kind.parse(data)
        except ValueError:
            pass


# -- finding the router ------------------------------------------------------------------------


def _route_hex(address: str) -> str:
    """An address as /proc/net/route prints it: the 32-bit number in this machine's byte order."""
    return "%08X" % struct.unpack("=I", socket.inet_aton(address))[0]


def test_the_default_gateway_is_read_from_proc_net_route() -> None:
    header = "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
    lines = [
        f"wlan0\t00000000\t{_route_hex('192.168.1.1')}\t0003\t0\t0\t600\t00000000\t0\t0\t0",
        f"eth0\t00000000\t{_route_hex('10.0.0.1')}\t0003\t0\t0\t100\t00000000\t0\t0\t0",  # lowest metric: wins
        f"tun0\t00000000\t{_route_hex('10.8.0.1')}\t0003\t0\t0\t700\t00000000\t0\t0\t0",
        # A route to one network through a gateway: not the default route.
        f"eth0\t{_route_hex('10.1.0.0')}\t{_route_hex('10.0.0.254')}\t0003\t0\t0\t50\t{_route_hex('255.255.0.0')}\t0\t0\t0",
        f"eth0\t{_route_hex('10.0.0.0')}\t00000000\t0001\t0\t0\t0\t{_route_hex('255.255.255.0')}\t0\t0\t0",
        "garbage",
        "eth1\tZZZZ\t0101A8C0\t0003\t0\t0\t0\t00000000\t0\t0\t0",  # odd text is skipped
    ]
    assert gateway_from_proc_net_route(header + "\n".join(lines)) == "10.0.0.1"
    assert gateway_from_proc_net_route(header + lines[3] + "\n" + lines[4]) is None  # no default route
    assert gateway_from_proc_net_route("") is None


def test_the_default_gateway_is_read_from_route_get() -> None:
    output = "   route to: default\ndestination: default\n       mask: default\n    gateway: 192.168.1.254\n  interface: en0\n"
    assert gateway_from_route_get(output) == "192.168.1.254"
    assert gateway_from_route_get(output.replace("192.168.1.254", "link#4")) is None
    assert gateway_from_route_get("route: writing to routing socket: not in table\n") is None


async def test_no_router_address_is_one_line(monkeypatch) -> None:
    async def nowhere() -> None:
        return None

    monkeypatch.setattr(_natpmp, "find_default_gateway", nowhere)
    with pytest.raises(MappingError) as caught:
        await GatewayMapper().add(PORT, 1200)
    assert str(caught.value).startswith("can't tell this machine's router address")
    assert not caught.value.answered


# -- PCP ---------------------------------------------------------------------------------------


def _parsed(requests: list[bytes]) -> list:
    """The requests a stand-in received, read, without retransmissions (a request repeated at
    once: a slow machine may resend before the answer comes)."""
    result = []
    for index, data in enumerate(requests):
        if index and data == requests[index - 1]:
            continue
        if data[0] == 2:
            result.append(PcpMapRequest.parse(data))
        elif data == b"\0\0":
            result.append(NatpmpExternalAddressRequest())
        else:
            result.append(NatpmpMapRequest.parse(data))
    return result


async def test_pcp_maps_renews_with_the_same_nonce_and_deletes() -> None:
    with GatewayStandIn() as router:
        mapper = GatewayMapper(gateway="127.0.0.1", port=router.port)
        mapping = await mapper.add(PORT, 1200)
        assert mapping == PortMapping("PCP", "127.0.0.1", "203.0.113.7", PORT, PORT, 1200)
        assert mapper.method == "PCP"
        held = router.mappings[("TCP", PORT)]
        assert (held.external_port, held.lifetime_seconds, held.method) == (PORT, 1200, "PCP")

        assert await mapper.add(PORT, 1200, external_port=PORT) == mapping
        await mapper.remove(mapping)
        assert router.mappings == {}

        asked = _parsed(router.requests)
        assert [request.lifetime_seconds for request in asked] == [1200, 1200, 0]
        assert {request.nonce for request in asked} == {held.nonce}  # RFC 6887 §11.2
        assert {(request.protocol, request.internal_port, request.client_address) for request in asked} == {(6, PORT, "127.0.0.1")}
        # The renewal and the deletion suggest what was granted.
        assert asked[1].suggested_external_address == asked[2].suggested_external_address == "203.0.113.7"


async def test_each_internal_port_has_its_own_nonce() -> None:
    with GatewayStandIn() as router:
        mapper = GatewayMapper(gateway="127.0.0.1", port=router.port)
        await mapper.add(PORT, 1200)
        await mapper.add(PORT + 1, 1200)
        first, second = router.mappings[("TCP", PORT)], router.mappings[("TCP", PORT + 1)]
        assert first.nonce != second.nonce


async def test_another_nonce_for_a_held_port_is_refused_in_one_line() -> None:
    # A second run (a new mapper, a new nonce) while the first run's mapping still holds the port.
    with GatewayStandIn() as router:
        await GatewayMapper(gateway="127.0.0.1", port=router.port).add(PORT, 1200)
        with pytest.raises(MappingError) as caught:
            await GatewayMapper(gateway="127.0.0.1", port=router.port).add(PORT, 1200)
    assert str(caught.value) == (
        f"the router at 127.0.0.1 refused to map port {PORT} (PCP NOT_AUTHORIZED): port mapping is turned off in its "
        "settings, or another program (or an earlier run of this one) holds that port there"
    )
    assert caught.value.answered


async def test_a_renewal_after_the_router_forgot_maps_the_port_again() -> None:
    with GatewayStandIn() as router:
        mapper = GatewayMapper(gateway="127.0.0.1", port=router.port)
        mapping = await mapper.add(PORT, 1200)
        router.forget()
        assert router.mappings == {}
        assert await mapper.add(PORT, 1200, external_port=mapping.external_port) == mapping
        assert router.mappings[("TCP", PORT)].external_port == PORT


@pytest.mark.parametrize("speaks", [("pcp", "natpmp"), ("natpmp",)])
async def test_a_shorter_lease_than_asked_is_reported(speaks) -> None:
    with GatewayStandIn(speaks=speaks, granted_lifetime=600) as router:
        mapping = await GatewayMapper(gateway="127.0.0.1", port=router.port).add(PORT, 3600)
    assert mapping.lease_seconds == 600


@pytest.mark.parametrize("speaks", [("pcp", "natpmp"), ("natpmp",)])
async def test_a_taken_port_is_mapped_from_another_and_reported(speaks) -> None:
    with GatewayStandIn(speaks=speaks, taken={PORT}) as router:
        mapping = await GatewayMapper(gateway="127.0.0.1", port=router.port).add(PORT, 1200)
    assert (mapping.external_port, mapping.internal_port) == (50000, PORT)


async def test_a_lost_request_is_sent_again() -> None:
    with GatewayStandIn(ignore_first=1) as router:
        mapping = await GatewayMapper(gateway="127.0.0.1", port=router.port).add(PORT, 1200)
        requests = router.requests
    assert mapping.external_port == PORT
    assert len(requests) >= 2 and len(set(requests)) == 1


# -- NAT-PMP -----------------------------------------------------------------------------------


async def test_a_natpmp_router_is_asked_by_natpmp_from_then_on() -> None:
    with GatewayStandIn(speaks=("natpmp",), external_address="198.51.100.9") as router:
        mapper = GatewayMapper(gateway="127.0.0.1", port=router.port)
        mapping = await mapper.add(PORT, 1200)
        assert mapping == PortMapping("NAT-PMP", "127.0.0.1", "198.51.100.9", PORT, PORT, 1200)
        assert mapper.method == "NAT-PMP"
        assert router.mappings == {("TCP", PORT): Held(PORT, 1200, "NAT-PMP", None)}
        assert await mapper.add(PORT, 1200, external_port=PORT) == mapping
        await mapper.remove(mapping)
        assert router.mappings == {}
        asked = _parsed(router.requests)
    assert isinstance(asked[0], PcpMapRequest)  # PCP first, once
    assert asked[1:] == [
        NatpmpExternalAddressRequest(), NatpmpMapRequest(2, PORT, PORT, 1200),
        NatpmpExternalAddressRequest(), NatpmpMapRequest(2, PORT, PORT, 1200),
        NatpmpMapRequest(2, PORT, 0, 0),  # RFC 6886 §3.4
    ]


# -- failures, each one line -------------------------------------------------------------------


async def test_a_silent_router_is_given_up_on_after_four_tries_in_two_seconds(autojump_clock) -> None:
    with GatewayStandIn(speaks=()) as router:
        mapper = GatewayMapper(gateway="127.0.0.1", port=router.port)
        start = trio.current_time()
        with pytest.raises(MappingError) as caught:
            await mapper.add(PORT, 1200)
        assert trio.current_time() - start == pytest.approx(2.0)
    assert str(caught.value) == (
        "no answer from the router at 127.0.0.1 to PCP or NAT-PMP (asked 4 times in 2 s): it doesn't speak them, "
        "or they are turned off in its settings"
    )
    assert not caught.value.answered


async def test_nothing_listening_on_the_router_port_fails_at_once() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind(("127.0.0.1", 0))
        closed_port = probe.getsockname()[1]
    with trio.fail_after(1.5):  # less than the 2 s a silent router takes
        with pytest.raises(MappingError) as caught:
            await GatewayMapper(gateway="127.0.0.1", port=closed_port).add(PORT, 1200)
    assert str(caught.value) == (
        f"the router at 127.0.0.1 doesn't answer PCP or NAT-PMP (nothing listens on its port {closed_port}): "
        "it doesn't speak them, or they are turned off in its settings"
    )
    assert not caught.value.answered


REFUSALS = [
    (("pcp",), 2, f"the router at 127.0.0.1 refused to map port {PORT} (PCP NOT_AUTHORIZED): port mapping is turned off in its settings"),
    (("pcp",), 7, "the router at 127.0.0.1 isn't connected to the internet right now (PCP NETWORK_FAILURE): check its connection"),
    (("pcp",), 8, "the router at 127.0.0.1 has no room for another port mapping (PCP NO_RESOURCES)"),
    (("pcp",), 11, f"the router at 127.0.0.1 can't give port {PORT} on its internet side: it is taken (PCP CANNOT_PROVIDE_EXTERNAL); choose another with --port"),
    (("pcp",), 12, "the router at 127.0.0.1 sees this machine's request come from another address (PCP ADDRESS_MISMATCH)"),
    (("pcp",), 99, f"the router at 127.0.0.1 refused to map port {PORT} (PCP result 99)"),
    (("natpmp",), 2, "the router at 127.0.0.1 refused to say its internet address (NAT-PMP result 2, not authorized): port mapping is turned off"),
    (("natpmp",), 3, "the router at 127.0.0.1 isn't connected to the internet right now (NAT-PMP result 3, network failure)"),
    (("natpmp",), 4, "the router at 127.0.0.1 has no room for another port mapping (NAT-PMP result 4, out of resources)"),
]


@pytest.mark.parametrize("speaks, result_code, start", REFUSALS)
async def test_a_refusal_is_one_line_and_leaves_nothing_mapped(speaks, result_code, start) -> None:
    with GatewayStandIn(speaks=speaks, result_code=result_code) as router:
        with pytest.raises(MappingError) as caught:
            await GatewayMapper(gateway="127.0.0.1", port=router.port).add(PORT, 1200)
        assert router.mappings == {}
    assert str(caught.value).startswith(start)
    assert "\n" not in str(caught.value)
    assert caught.value.answered
    # Only a port that is taken makes "forward it by hand" no remedy (the host leaves it out then).
    assert caught.value.port_taken == (speaks == ("pcp",) and result_code == 11)


async def test_a_natpmp_mapping_refusal_after_the_address_is_one_line() -> None:
    # The router says its address, then refuses the mapping (unsupported opcode: it maps nothing).
    with GatewayStandIn(speaks=("natpmp",)) as router:
        mapper = GatewayMapper(gateway="127.0.0.1", port=router.port)
        real_natpmp = router._natpmp

        def refuse_mapping(data: bytes, opcode: int) -> bytes:
            if opcode == 0:
                return real_natpmp(data, opcode)
            return NatpmpMapAnswer(opcode, 5, 0, PORT, 0, 0).encode()

        router._natpmp = refuse_mapping  # type: ignore[method-assign]
        with pytest.raises(MappingError) as caught:
            await mapper.add(PORT, 1200)
    assert str(caught.value) == f"the router at 127.0.0.1 speaks NAT-PMP but can't map port {PORT} (NAT-PMP result 5, unsupported opcode)"


@pytest.mark.parametrize("speaks", [("pcp", "natpmp"), ("natpmp",)])
async def test_a_router_behind_another_nat_leaves_nothing_mapped(speaks) -> None:
    with GatewayStandIn(speaks=speaks, external_address="100.64.0.5") as router:
        with pytest.raises(MappingError) as caught:
            await GatewayMapper(gateway="127.0.0.1", port=router.port).add(PORT, 1200)
        assert router.mappings == {}
        asked = _parsed(router.requests)
    assert str(caught.value) == (
        "your router's own internet address 100.64.0.5 is private: another router, or your provider's shared NAT, "
        f"stands in front of the router at 127.0.0.1; forward port {PORT} on that router too if it is yours"
    )
    assert caught.value.answered
    if "pcp" in speaks:  # granted, then given back with the same nonce
        assert [request.lifetime_seconds for request in asked] == [1200, 0]
        assert asked[0].nonce == asked[1].nonce
    else:  # asked for the address only
        assert asked[1:] == [NatpmpExternalAddressRequest()]


# -- garbage -----------------------------------------------------------------------------------


def _other_external_port(answer: bytes) -> bytes:
    """The answer granting port 1234 instead: each variant below is built on it, so that one
    taken for an answer shows in the mapping."""
    if len(answer) == 60:  # PCP MAP: the assigned external port is bytes 42-43
        return answer[:42] + struct.pack("!H", 1234) + answer[44:]
    if len(answer) == 16:  # NAT-PMP mapping: bytes 10-11
        return answer[:10] + struct.pack("!H", 1234) + answer[12:]
    return answer


def _other_nonce(answer: bytes) -> bytes:
    """The answer for another client's mapping (RFC 6887 §11.4)."""
    return answer[:24] + bytes(12) + answer[36:] if len(answer) == 60 else b"\xff"


def _other_internal_port(answer: bytes) -> bytes:
    if len(answer) == 60:
        return answer[:40] + struct.pack("!H", PORT + 1) + answer[42:]
    if len(answer) == 16:
        return answer[:8] + struct.pack("!H", PORT + 1) + answer[10:]
    return b"\x00"


def _other_opcode(answer: bytes) -> bytes:
    return answer[:1] + bytes((answer[1] ^ 0x03,)) + answer[2:]


def _as_request(answer: bytes) -> bytes:
    return answer[:1] + bytes((answer[1] & 0x7F,)) + answer[2:]


def _other_version(answer: bytes) -> bytes:
    return bytes((answer[0] ^ 0x01,)) + answer[1:]


def _garbled(*changes):
    def garble(answer: bytes) -> bytes:
        answer = _other_external_port(answer)
        for change in changes:
            answer = change(answer)
        return answer

    return garble


GARBAGE = [
    b"", b"\x02", b"\x00\x80", bytes(range(7)), b"\x02\x81\x00\x00" + bytes(55), b"\xff" * 1104,
    _garbled(lambda answer: answer[:-1]),  # one byte short
    _garbled(lambda answer: answer + b"\x00"),  # no multiple of 4 (PCP), too long (NAT-PMP)
    _garbled(lambda answer: answer + bytes(1044)),  # longer than PCP's 1100 bytes
    _garbled(_other_nonce), _garbled(_other_internal_port), _garbled(_other_opcode), _garbled(_as_request),
    _garbled(_other_version),
]


@pytest.mark.parametrize("speaks", [("pcp", "natpmp"), ("natpmp",)])
async def test_garbage_and_mismatched_datagrams_are_ignored(speaks) -> None:
    with GatewayStandIn(speaks=speaks, noise=GARBAGE) as router:
        mapper = GatewayMapper(gateway="127.0.0.1", port=router.port)
        mapping = await mapper.add(PORT, 1200)
        await mapper.remove(mapping)
        assert router.mappings == {}
    assert (mapping.external_address, mapping.external_port, mapping.method) == (
        "203.0.113.7", PORT, "PCP" if "pcp" in speaks else "NAT-PMP",
    )


def test_the_stand_in_answers_a_plain_socket() -> None:
    # For tests without trio (a subprocess given P2PGAMES_GATEWAY=127.0.0.1:PORT).
    with GatewayStandIn(speaks=("natpmp",), external_address="198.51.100.9") as router:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as client:
            client.settimeout(5)
            client.sendto(NatpmpExternalAddressRequest().encode(), ("127.0.0.1", router.port))
            data, _ = client.recvfrom(64)
    assert NatpmpExternalAddressAnswer.parse(data).external_address == "198.51.100.9"


async def test_a_table_holds_the_mapping_and_removes_it_at_its_end() -> None:
    said: list[str] = []
    with GatewayStandIn() as router:
        until = trio.Event()
        async with trio.open_nursery() as nursery:
            mapping = await nursery.start(
                functools.partial(hold_port_mapping, [GatewayMapper(gateway="127.0.0.1", port=router.port)], PORT, until, say=said.append)
            )
            assert mapping == PortMapping("PCP", "127.0.0.1", "203.0.113.7", PORT, PORT, LEASE_SECONDS)
            assert list(router.mappings) == [("TCP", PORT)]
            until.set()
        assert router.mappings == {}
    assert said == []
