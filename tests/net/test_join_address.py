"""Which address a host's join code names (issue 13: prefer a global IPv6 address, which no
router stands in front of, to the LAN's IPv4 one)."""

from __future__ import annotations

import pytest

from p2pgames.net import join_address


@pytest.mark.parametrize("ipv6, ipv4, named", [
    ("2001:4860:4860::8888", "192.168.1.5", "2001:4860:4860::8888"),  # global: preferred
    ("2a01:4f8::1", None, "2a01:4f8::1"),
    ("fd00::2", "192.168.1.5", "192.168.1.5"),  # unique-local: only this network's
    ("fe80::1%eth0", "10.0.0.7", "10.0.0.7"),  # link-local
    ("::1", "10.0.0.7", "10.0.0.7"),
    ("2001:db8::5", "10.0.0.7", "10.0.0.7"),  # documentation prefix: nobody's
    ("not an address", "10.0.0.7", "10.0.0.7"),
    (None, "192.168.1.5", "192.168.1.5"),
    (None, None, "127.0.0.1"),
])
def test_a_global_ipv6_address_first_else_the_lan_ipv4_address(ipv6, ipv4, named):
    assert join_address(ipv6, ipv4) == named
