"""LAN discovery, on loopback: a host's announcements are heard; junk on the port is ignored."""

import socket

import trio

from p2pgames import canonical
from p2pgames.net import Announcement, announce, discover


def free_udp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


DESCRIPTION = {
    "game": "beltpunk", "title": "Beltpunk Haberdasher", "host": "alice", "port": 40123,
    "fingerprint": "k7x2-m7qa-r4tb-2hzd", "seated": 2, "seats": 4,
}


async def test_a_host_announcement_is_heard(autojump_clock):
    port = free_udp_port()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(lambda: announce(lambda: DESCRIPTION, address="127.0.0.1", port=port))
        found = await discover(3.0, port=port)
        nursery.cancel_scope.cancel()
    assert [str(a.join_code) for a in found] == ["127.0.0.1:40123/k7x2-m7qa-r4tb-2hzd"]
    assert found[0].describe() == (
        "Beltpunk Haberdasher hosted by alice (2/4 seated) at 127.0.0.1:40123/k7x2-m7qa-r4tb-2hzd"
    )


async def test_announcing_stops_when_the_table_is_full(autojump_clock):
    calls = []

    def describe():
        calls.append(1)
        return None if len(calls) > 2 else DESCRIPTION

    with trio.fail_after(10):
        await announce(describe, address="127.0.0.1", port=free_udp_port())
    assert len(calls) == 3


def test_junk_is_not_an_announcement():
    assert Announcement.parse("10.0.0.2", b"hello") is None
    assert Announcement.parse("10.0.0.2", canonical.encode({"p2pgames": 2, **DESCRIPTION})) is None
    assert Announcement.parse("10.0.0.2", canonical.encode({"p2pgames": 1, **DESCRIPTION, "port": 0})) is None
    assert Announcement.parse("10.0.0.2", canonical.encode({"p2pgames": 1, **DESCRIPTION, "fingerprint": "x"})) is None
    assert Announcement.parse("10.0.0.2", canonical.encode({"p2pgames": 1})) is None
    good = Announcement.parse("10.0.0.2", canonical.encode({"p2pgames": 1, **DESCRIPTION}))
    assert good is not None and good.address == "10.0.0.2"


def test_an_announcement_can_not_put_control_characters_on_the_screen():
    """Anyone on the LAN can broadcast; escapes in a name must not reach the terminal."""
    hostile = {**DESCRIPTION, "host": "evil\x1b[2J\x1b]0;pwn\x07", "title": "Beltpunk\r\nHaberdasher"}
    announcement = Announcement.parse("10.0.0.2", canonical.encode({"p2pgames": 1, **hostile}))
    assert announcement is not None
    assert announcement.host == "evil [2J ]0;pwn"
    assert announcement.title == "Beltpunk  Haberdasher"
    assert all(character.isprintable() for character in announcement.describe())
