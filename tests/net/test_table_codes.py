"""The join codes of a table, made once for ``host`` and ``resume`` (issue 22, point 3: ``resume
--bind 127.0.0.1`` printed a code naming the LAN address, where it did not listen)."""

from __future__ import annotations

import pytest

from p2pgames.net import JoinCode, MappingError, PortMapping, table_codes

FP = "k7x2-m7qa-r4tb-2hzd"
MAPPED = PortMapping("UPnP", "192.168.1.1", "203.0.113.9", 40123, 40123, 3600)


def code(text: str) -> JoinCode:
    return JoinCode.parse(f"{text}/{FP}")


@pytest.mark.parametrize("bind", ["127.0.0.1", "192.168.1.20", "::1"])
def test_bound_to_one_address_the_code_names_it_and_no_other(bind):
    codes = table_codes(bind, 40123, FP, None, lan="192.168.1.20", ipv4="192.168.1.20")
    assert codes.main == JoinCode(bind, 40123, FP) and codes.others == ()


def test_localhost_is_named_by_its_address():
    assert table_codes("localhost", 40123, FP, None, lan="192.168.1.20", ipv4="192.168.1.20").main == code("127.0.0.1:40123")


@pytest.mark.parametrize("bind", [None, "", "0.0.0.0", "::"])
def test_on_every_interface_the_lan_address_then_this_machines(bind):
    codes = table_codes(bind, 40123, FP, MappingError("no router answered"), lan="192.168.1.20", ipv4="192.168.1.20")
    assert codes.main == code("192.168.1.20:40123")
    assert codes.others == (("on this machine", code("127.0.0.1:40123")),)


def test_a_router_that_forwards_the_port_comes_first_then_the_lan():
    codes = table_codes(None, 40123, FP, MAPPED, lan="192.168.1.20", ipv4="192.168.1.20")
    assert codes.main == code("203.0.113.9:40123")
    assert codes.others == (("on your network", code("192.168.1.20:40123")), ("on this machine", code("127.0.0.1:40123")))


def test_a_global_ipv6_address_goes_before_the_routers():
    codes = table_codes(None, 40123, FP, MAPPED, lan="2a01:4f8::1", ipv4="192.168.1.20")
    assert codes.main == code("[2a01:4f8::1]:40123")
    assert codes.others == (
        ("over IPv4, through your router", code("203.0.113.9:40123")),
        ("over IPv4 on your network", code("192.168.1.20:40123")),
        ("on this machine", code("127.0.0.1:40123")),
    )


def test_a_joiner_dialling_any_of_the_codes_still_reaches_the_table():
    codes = table_codes(None, 40123, FP, MAPPED, lan="192.168.1.20", ipv4="192.168.1.20")
    assert codes.dials("203.0.113.9", 40123) and codes.dials("192.168.1.20", 40123) and codes.dials("127.0.0.1", 40123)
    assert not codes.dials("192.168.1.20", 40124) and not codes.dials("198.51.100.7", 40123) and not codes.dials(None, None)
