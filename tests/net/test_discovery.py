"""LAN discovery over mDNS/DNS-SD, on loopback: an announced table is found, follows its seat
count and goes when full or stopped; hostile records are cleaned or ignored.

Every test runs zeroconf on 127.0.0.1 only (``P2PGAMES_INTERFACE``, set for all tests in
``tests/conftest.py``). Parallel test workers share that multicast group, so each test makes up its
own fingerprint and looks only at tables with it. Nothing sleeps to wait: each test waits for the
sighting it expects, with :data:`TIMEOUT` only as a guard against hanging. A registration probes the
network for about 1.5 s, so the tests register few services.
"""

from __future__ import annotations

import functools
import ipaddress
import math
import re
import secrets
import shutil
import socket
import subprocess
import sys

import pytest
import trio

from p2pgames.crypto import Identity
from p2pgames.games import get_game
from p2pgames.net import (
    INTERFACE_VARIABLE, LOOPBACK, SERVICE_TYPE, Announcement, JoinCode, SetupError, announce, chosen_interfaces, discover,
    frame, host_table, join_table_at_one_of, one_per_key, watch,
)
from p2pgames.net._discovery import instance_name
from p2pgames.session._messages import make_envelope

TIMEOUT = 30.0  # seconds: a guard against hanging on a loaded 2-core machine, never a claim about speed
_BASE32 = "abcdefghijklmnopqrstuvwxyz234567"


def fresh_fingerprint() -> str:
    """A fingerprint no other test (or test worker) uses: tables are told apart by it."""
    letters = "".join(secrets.choice(_BASE32) for _ in range(16))
    return "-".join(letters[i:i + 4] for i in range(0, 16, 4))


def table(fingerprint: str, **changes) -> dict:
    return {
        "game": "beltpunk", "title": "Beltpunk Haberdasher", "host": "alice", "port": 40123,
        "fingerprint": fingerprint, "seated": 1, "seats": 4, **changes,
    }


TXT = {b"v": b"1", b"game": b"beltpunk", b"title": b"Beltpunk Haberdasher", b"host": b"alice",
       b"fp": b"k7x2-m7qa-r4tb-2hzd", b"seated": b"2", b"seats": b"4"}


class Sightings:
    """What :func:`watch` has seen so far, of the tables with one fingerprint, by service name."""

    def __init__(self, fingerprint: str, receive: trio.MemoryReceiveChannel) -> None:
        self.fingerprint = fingerprint
        self.receive = receive
        self.tables: dict[str, Announcement] = {}
        self.names: dict[str, list[Announcement | None]] = {}  # every sighting of every name

    async def until(self, done) -> dict[str, Announcement]:
        """Read sightings until ``done(tables)``; the tables then."""
        with trio.fail_after(TIMEOUT):
            while not done(self.tables):
                name, found = await self.receive.receive()
                if found is not None and found.fingerprint != self.fingerprint:
                    continue  # another test's table
                self.names.setdefault(name, []).append(found)
                if found is None:
                    self.tables.pop(name, None)
                else:
                    self.tables[name] = found
        return dict(self.tables)


async def start_watching(nursery: trio.Nursery, fingerprint: str) -> Sightings:
    send, receive = trio.open_memory_channel(math.inf)
    await nursery.start(watch, send)
    return Sightings(fingerprint, receive)


# -- over the network ------------------------------------------------------------------------------


async def test_a_table_is_found_follows_its_seats_and_goes_when_full():
    fingerprint = fresh_fingerprint()
    described = [table(fingerprint, port=40123)]

    def describe():
        return described[-1]

    async with trio.open_nursery() as nursery:
        sightings = await start_watching(nursery, fingerprint)
        name = await nursery.start(functools.partial(announce, describe, interval=0.05))
        assert name == f"alice's Beltpunk Haberdasher ({fingerprint[:4]}:40123).{SERVICE_TYPE}"
        found = await sightings.until(lambda tables: name in tables)
        assert found[name] == Announcement(
            "127.0.0.1", "beltpunk", "Beltpunk Haberdasher", "alice", 40123, fingerprint, 1, 4
        )
        assert str(found[name].join_code) == f"127.0.0.1:40123/{fingerprint}"

        described.append(table(fingerprint, port=40123, seated=3))  # two more seated: TXT updated
        found = await sightings.until(lambda tables: tables[name].seated == 3)
        assert (found[name].seats, found[name].port) == (4, 40123)

        described.append(None)  # full: withdrawn, and announce returns by itself
        await sightings.until(lambda tables: name not in tables)
        nursery.cancel_scope.cancel()
    assert sightings.names[name][-1] is None


async def test_two_tables_of_one_host_both_show_and_go_when_the_host_stops():
    """Same host, key and game: the port in the instance name tells them apart. Found together,
    they are one host (one key) at two places."""
    fingerprint = fresh_fingerprint()
    async with trio.open_nursery() as nursery:
        sightings = await start_watching(nursery, fingerprint)
        async with trio.open_nursery() as host:
            names = {}

            async def start(port):  # both at once: each probes for ~1.5 s
                names[port] = await host.start(functools.partial(announce, lambda: table(fingerprint, port=port)))

            async with trio.open_nursery() as starting:
                for port in (40123, 40124):
                    starting.start_soon(start, port)
            first, second = names[40123], names[40124]
            assert (first, second) == (
                f"alice's Beltpunk Haberdasher ({fingerprint[:4]}:40123).{SERVICE_TYPE}",
                f"alice's Beltpunk Haberdasher ({fingerprint[:4]}:40124).{SERVICE_TYPE}",
            )
            found = await sightings.until(lambda tables: {first, second} <= set(tables))
            assert sorted(t.port for t in found.values()) == [40123, 40124]

            # One key is one host: two records of it are one table with two places to try.
            tables = [t for t in await discover() if t.fingerprint == fingerprint]  # its usual 2.5 s
            assert [t.places for t in tables] == [(("127.0.0.1", 40123), ("127.0.0.1", 40124))]
            host.cancel_scope.cancel()  # the host stops: a goodbye for each
        await sightings.until(lambda tables: not tables)
        nursery.cancel_scope.cancel()


async def test_hostile_records_are_cleaned_or_ignored():
    """Anyone on the LAN can publish: a record is published here as any program could."""
    from zeroconf import ServiceInfo, Zeroconf

    fingerprint = fresh_fingerprint()
    evil = dict(
        {key.decode(): value for key, value in TXT.items()}, fp=fingerprint,
        host="evil\x1b[2J\x1b]0;pwn\x07" + "x" * 200, title="Beltpunk\r\nHaberdasher",
    )
    junk = dict(evil, fp="not-a-fingerprint")
    zeroconf = await trio.to_thread.run_sync(lambda: Zeroconf(interfaces=["127.0.0.1"]))
    try:
        async with trio.open_nursery() as nursery:
            sightings = await start_watching(nursery, fingerprint)
            for label, txt, port in (("junk", junk, 40125), ("evil", evil, 40126)):
                info = ServiceInfo(
                    SERVICE_TYPE, f"{label} {fingerprint}.{SERVICE_TYPE}", port=port, properties=txt,
                    parsed_addresses=["127.0.0.1"], server=f"{label}-{fingerprint}.local.",
                )
                # Cooperating responders: no probing (the names are this test's own).
                register = functools.partial(zeroconf.register_service, info, cooperating_responders=True)
                await trio.to_thread.run_sync(register)
            junk_name = f"junk {fingerprint}.{SERVICE_TYPE}"
            await sightings.until(lambda tables: len(tables) == 1 and junk_name in sightings.names)
            nursery.cancel_scope.cancel()
    finally:
        await trio.to_thread.run_sync(zeroconf.close)
    assert sightings.names[junk_name] == [None]  # resolved, and not a table
    (found,) = sightings.tables.values()
    assert found.host == ("evil [2J ]0;pwn " + "x" * 200)[:40] and found.title == "Beltpunk  Haberdasher"
    assert all(character.isprintable() for character in found.describe())


def test_join_with_no_code_skips_an_impostor_at_the_hosts_fingerprint_and_sits_at_the_real_table(peers, tmp_path):
    """Issue 23, point 6: a record with the real host's fingerprint but another port, where a
    program with another key listens. Before, it was listed as a second, identical table, and
    joining it was refused (rightly, on the key) and ended the joiner. Now the two records are one
    table with two places; ``join`` with no code, in a terminal, tries the impostor's place first
    (its record's name comes first), is told another key answers there, says so, and is seated at
    the real host."""
    from zeroconf import ServiceInfo, Zeroconf

    from peer_processes import TerminalPeer, join_code

    home = tmp_path / "home"
    host = peers("host", "probe", "--players", "2", "--bot", "--name", "hostess", "--no-upnp", "--profile", "host")
    real = JoinCode.parse(join_code(host))
    impostor = peers("host", "probe", "--players", "2", "--bot", "--name", "mallory", "--no-upnp", "--profile", "other")
    other = JoinCode.parse(join_code(impostor))
    assert other.fingerprint != real.fingerprint
    txt = {"v": "1", "game": "probe", "title": "Probe", "host": "hostess", "fp": real.fingerprint, "seated": "1", "seats": "2"}
    info = ServiceInfo(
        SERVICE_TYPE, f"0 impostor ({real.fingerprint[:4]}:{other.port}).{SERVICE_TYPE}", port=other.port,
        properties=txt, parsed_addresses=["127.0.0.1"], server=f"impostor-{real.fingerprint}.local.",
    )
    zeroconf = Zeroconf(interfaces=["127.0.0.1"])
    player = None
    try:
        zeroconf.register_service(info, cooperating_responders=True)  # as any program on the LAN could
        player = TerminalPeer(home, "join", "--profile", "p1", "--name", "p1")
        # Other tables (the impostor's own, other tests') are listed too: pick the one with the key.
        line = player.wait_for(rf"(\d+)\. Probe hosted by hostess \(1/2 seated\) at 127\.0\.0\.1:(\d+)/{real.fingerprint}"
                               r" \(or 1 other address\)")
        assert int(line.group(2)) == other.port  # the impostor's place first: the test shows it skipped
        player.wait_for("Table number")
        player.type(line.group(1).encode() + b"\r")
        player.wait_for(rf"Another key \({other.fingerprint}\) answers at 127\.0\.0\.1:{other.port}, not the "
                        r"table's: trying its next address")
        player.wait_for(rf"Connecting to 127\.0\.0\.1:{real.port} ")
        player.wait_for(rf"The host's key {real.fingerprint} matches the join code\.")
    finally:
        if player is not None:
            player.close()
        zeroconf.close()


def test_join_with_no_code_takes_a_saved_seat_again_at_the_tables_next_place(peers, tmp_path):
    """A joiner killed mid-game runs ``join`` with no code, and the table found has two places:
    first one where nothing listens (a stale record with the host's fingerprint), then the host's.
    Taking the seat again fails at the first, so the next is tried, and the seat is back at the
    table. Before, only the first place was tried, and the join ended there."""
    from zeroconf import ServiceInfo, Zeroconf

    from peer_processes import TerminalPeer, start_table

    home = tmp_path / "home"
    _, (_, second), code = start_table(peers, tmp_path / "transcripts")
    real = JoinCode.parse(code)
    second.line_starting("The game begins: ")
    second.process.kill()  # its saved seat is left behind
    second.process.wait()
    zeroconf = Zeroconf(interfaces=[LOOPBACK])
    player = None
    with socket.socket() as stale:
        stale.bind((LOOPBACK, 0))  # bound, never listening: nothing answers there
        txt = {"v": "1", "game": "probe", "title": "Probe", "host": "hostess", "fp": real.fingerprint, "seated": "1", "seats": "3"}
        for name, port in (("0 stale", stale.getsockname()[1]), ("1 hostess", real.port)):  # dialed in this order
            zeroconf.register_service(ServiceInfo(
                SERVICE_TYPE, f"{name} ({real.fingerprint[:4]}:{port}).{SERVICE_TYPE}", port=port, properties=txt,
                parsed_addresses=[LOOPBACK], server=f"{name.replace(' ', '-')}-{real.fingerprint}.local.",
            ), cooperating_responders=True)
        try:
            player = TerminalPeer(home, "join", "--profile", "p2", "--name", "p2")
            if player.wait_for(r"Table number|You have a seat").group() == "Table number":  # other tests' tables too
                line = player.wait_for(rf"(\d+)\. Probe hosted by hostess \(1/3 seated\) at 127\.0\.0\.1:\d+/{real.fingerprint}")
                player.type(line.group(1).encode() + b"\r")
            player.wait_for("You have a seat in an unfinished game at this table")
            player.wait_for(rf"Taking your seat again at 127\.0\.0\.1:{stale.getsockname()[1]} ")
            player.wait_for(rf"No answer from the table at 127\.0\.0\.1:{stale.getsockname()[1]}: trying its next address")
            player.wait_for(rf"Taking your seat again at 127\.0\.0\.1:{real.port} ")
            player.wait_for("Back at the table: caught up on")
        finally:
            if player is not None:
                player.close()
            zeroconf.close()


async def hosted(nursery: trio.Nursery, name: str):
    """A table of two hosted on loopback (not announced): its node and its port."""
    said: list[str] = []
    node = await host_table(
        nursery, identity=Identity.generate(), name=name, ruleset=get_game("probe").ruleset(2), bind=LOOPBACK,
        say=said.append, announce_on_lan=False,
    )
    return node, JoinCode.parse(said[0].removeprefix("Join code: ")).port


async def test_joining_a_found_table_tries_its_places_until_its_hosts_key_answers(autojump_clock):
    """Nothing listens at the first place, a host with another key at the second: both are skipped,
    saying so, and the joiner is seated by the host with the key, at the third."""
    said: list[str] = []
    with socket.socket() as closed:  # bound, never listening: nothing answers there
        closed.bind((LOOPBACK, 0))
        async with trio.open_nursery() as nursery:
            real, real_port = await hosted(nursery, "hostess")
            other, other_port = await hosted(nursery, "mallory")
            key = real.session.identity.public_key.fingerprint()
            places = [closed.getsockname()[1], other_port, real_port]
            codes = [JoinCode(LOOPBACK, port, key) for port in places]
            joiner = await join_table_at_one_of(nursery, codes=codes, identity=Identity.generate(), name="p1", say=said.append)
            assert joiner.session.seated and joiner.session.host_fingerprint == key
            assert real.session.lobby_size == 2 and other.session.lobby_size == 1
            nursery.cancel_scope.cancel()
    other_key = other.session.identity.public_key.fingerprint()
    assert [line for line in said if "next address" in line] == [
        f"No answer from the table at {LOOPBACK}:{places[0]}: trying its next address …",
        f"Another key ({other_key}) answers at {LOOPBACK}:{places[1]}, not the table's: trying its next address …",
    ]
    assert said[-1] == f"The host's key {key} matches the join code."


async def test_a_refusal_by_the_host_with_the_key_is_the_tables_answer(autojump_clock):
    """The host with the key refuses (its table is full): no other place is tried."""
    said: list[str] = []
    async with trio.open_nursery() as nursery:
        real, real_port = await hosted(nursery, "hostess")
        key = real.session.identity.public_key.fingerprint()
        codes = [JoinCode(LOOPBACK, real_port, key), JoinCode(LOOPBACK, 9, key)]
        await join_table_at_one_of(nursery, codes=codes[:1], identity=Identity.generate(), name="first")  # full now
        with pytest.raises(SetupError, match="could not join the table at .*: the game has already started"):
            await join_table_at_one_of(nursery, codes=codes, identity=Identity.generate(), name="p1", say=said.append)
        nursery.cancel_scope.cancel()
    assert not [line for line in said if "next address" in line or ":9 " in line], said


async def test_a_refusal_not_signed_by_the_key_is_no_answer_of_the_tables_and_the_next_place_is_tried(autojump_clock):
    """At the first place, something with another key refuses at once ("the table is full", before
    any hello): that proves nothing about the table with the fingerprint, so the joiner says so and
    is seated at the next place. Before, any refusal was final: an impostor's reject ended the join."""
    said: list[str] = []

    async def impostor(stream: trio.SocketStream) -> None:
        async with stream:
            await stream.send_all(frame(make_envelope(Identity.generate(), "reject", {"reason": "the table is full"}).raw))

    async with trio.open_nursery() as nursery:
        real, real_port = await hosted(nursery, "hostess")
        [listener] = await trio.open_tcp_listeners(0, host=LOOPBACK)
        nursery.start_soon(trio.serve_listeners, impostor, [listener])
        impostor_port = listener.socket.getsockname()[1]
        key = real.session.identity.public_key.fingerprint()
        codes = [JoinCode(LOOPBACK, impostor_port, key), JoinCode(LOOPBACK, real_port, key)]
        joiner = await join_table_at_one_of(nursery, codes=codes, identity=Identity.generate(), name="p1", say=said.append)
        assert joiner.session.seated and joiner.session.host_fingerprint == key
        nursery.cancel_scope.cancel()
    assert [line for line in said if "next address" in line] == [
        f"Something at {LOOPBACK}:{impostor_port} refused us without proving it has the table's key: trying its next address …",
    ]
    assert said[-1] == f"The host's key {key} matches the join code."


def avahi_running() -> bool:
    daemon = shutil.which("avahi-daemon") or "/usr/sbin/avahi-daemon"
    try:
        return subprocess.run([daemon, "--check"], capture_output=True).returncode == 0
    except OSError:
        return False


@pytest.mark.skipif(shutil.which("avahi-browse") is None, reason="avahi-browse is not installed")
@pytest.mark.skipif(not avahi_running(), reason="avahi-daemon is not running")
async def test_avahi_browse_sees_a_table_and_its_goodbye():
    """Another mDNS implementation (avahi, as on most Linux desktops) finds the table and its TXT,
    and drops it when the host stops. Needs avahi-daemon running (skipped if it isn't); it
    browses loopback too, where the tests announce."""
    fingerprint = fresh_fingerprint()
    async with trio.open_nursery() as nursery:
        browse = await trio.lowlevel.open_process(
            ["avahi-browse", "--resolve", "--parsable", "--no-db-lookup", "_p2pgames._tcp"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        try:
            lines = _Lines(browse.stdout)
            async with trio.open_nursery() as host:
                await host.start(functools.partial(announce, lambda: table(fingerprint, port=40127)))
                resolved = await _line_with(lines, lambda fields: fields[0] == "=" and f'"fp={fingerprint}"' in fields[-1], browse)
                host.cancel_scope.cancel()
            # +/=/-;interface;protocol;name;type;domain[;host name;address;port;TXT strings]
            assert resolved[7:9] == ["127.0.0.1", "40127"]
            assert {f'"{key}={value}"' for key, value in [
                ("v", "1"), ("game", "beltpunk"), ("title", "Beltpunk Haberdasher"), ("host", "alice"),
                ("fp", fingerprint), ("seated", "1"), ("seats", "4"),
            ]} == set(re.findall(r'"[^"]*"', resolved[9]))
            await _line_with(lines, lambda fields: fields[0] == "-" and fields[3] == resolved[3], browse)
        finally:
            browse.kill()
            await browse.wait()
        nursery.cancel_scope.cancel()


class _Lines:
    """A process's output, a line at a time."""

    def __init__(self, stream) -> None:
        self.stream = stream
        self.buffer = b""

    async def next(self) -> str | None:
        while b"\n" not in self.buffer:
            chunk = await self.stream.receive_some()
            if not chunk:
                return None
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode("utf-8", errors="replace")


async def _line_with(lines: _Lines, wanted, process) -> list[str]:
    """avahi-browse's next line whose fields are ``wanted``."""
    with trio.fail_after(TIMEOUT):
        while (line := await lines.next()) is not None:
            fields = line.split(";")
            if wanted(fields):
                return fields
        errors = (await process.stderr.receive_some()).decode(errors="replace")
    raise AssertionError(f"avahi-browse stopped: {errors}")


# -- records, names and settings -------------------------------------------------------------------


def test_a_record_is_read_into_an_announcement():
    found = Announcement.parse(["127.0.0.1"], 40123, TXT)
    assert found == Announcement("127.0.0.1", "beltpunk", "Beltpunk Haberdasher", "alice", 40123, "k7x2-m7qa-r4tb-2hzd", 2, 4)
    assert found.describe() == (
        "Beltpunk Haberdasher hosted by alice (2/4 seated) at 127.0.0.1:40123/k7x2-m7qa-r4tb-2hzd"
    )


@pytest.mark.parametrize("port", [None, 0, 65536])
def test_a_record_with_no_usable_port_is_ignored(port):
    assert Announcement.parse(["127.0.0.1"], port, TXT) is None


@pytest.mark.parametrize("changes", [
    {b"v": b"2"}, {b"v": None}, {b"fp": b"x"}, {b"fp": b"k7x2-m7qa-r4tb-2hz\xff"}, {b"fp": None},
    {b"seated": b"5"}, {b"seats": b"0"}, {b"seated": b"-1"}, {b"seats": b"1_0"}, {b"seats": b"\xd9\xa3"},
    {b"seats": b"1000"}, {b"seated": b" 1"},
])
def test_a_record_with_a_bad_value_is_ignored(changes):
    assert Announcement.parse(["127.0.0.1"], 40123, {**TXT, **changes}) is None


@pytest.mark.parametrize("key", [b"v", b"game", b"title", b"host", b"fp", b"seated", b"seats"])
def test_a_record_missing_a_key_is_ignored(key):
    assert Announcement.parse(["127.0.0.1"], 40123, {k: v for k, v in TXT.items() if k != key}) is None


def test_text_from_the_network_is_cleaned_and_cut():
    found = Announcement.parse(["127.0.0.1"], 40123, {
        **TXT, b"host": "evil\x1b[2J\x1b]0;pwn\x07".encode(), b"title": "Beltpunk\r\nHaberdasher\x9b".encode() + b"t" * 300,
        b"game": b"\xff\xfebeltpunk", b"fp": b"K7X2-M7QA-R4TB-2HZD",  # not UTF-8; upper case
    })
    assert found is not None
    assert found.host == "evil [2J ]0;pwn"
    assert found.title == ("Beltpunk  Haberdasher " + "t" * 60)[:60]
    assert found.game == "\ufffd\ufffdbeltpunk"  # replaced, not refused
    assert found.fingerprint == "k7x2-m7qa-r4tb-2hzd"
    assert all(character.isprintable() for character in found.describe())


def test_an_address_on_a_network_of_ours_is_dialed_first():
    addresses = ["172.17.0.1", "10.8.0.5", "192.168.1.7"]  # containers, a VPN, the LAN
    ours = [ipaddress.ip_network("127.0.0.0/8"), ipaddress.ip_network("192.168.1.0/24")]
    found = Announcement.parse(addresses, 40123, TXT, networks=ours)
    assert found.places == (("192.168.1.7", 40123), ("172.17.0.1", 40123), ("10.8.0.5", 40123))  # then the others
    assert Announcement.parse(addresses, 40123, TXT).address == "172.17.0.1"


def test_records_with_one_fingerprint_are_one_table_with_each_records_places():
    """A host is its key: another record with its fingerprint (anyone may publish one, at their own
    address) is another place to try, not another table; records of other keys stay apart."""
    ours = [ipaddress.ip_network("192.168.1.0/24")]
    impostor = Announcement.parse(["10.8.0.5"], 40999, {**TXT, b"host": b"not alice"}, networks=ours)
    real = Announcement.parse(["172.17.0.1", "192.168.1.7"], 40123, TXT, networks=ours)
    lookalike = Announcement.parse(["192.168.1.7"], 40123, {**TXT, b"fp": b"aaaa-bbbb-cccc-dddd"}, networks=ours)
    [table, other] = one_per_key([impostor, real, lookalike], ours)
    # On our network first; then the others in the order the records came (and each address once).
    assert table.places == (("192.168.1.7", 40123), ("10.8.0.5", 40999), ("172.17.0.1", 40123))
    assert table.host == "alice"  # the text of the record dialed first
    assert [str(code) for code in table.join_codes] == [
        "192.168.1.7:40123/k7x2-m7qa-r4tb-2hzd", "10.8.0.5:40999/k7x2-m7qa-r4tb-2hzd", "172.17.0.1:40123/k7x2-m7qa-r4tb-2hzd",
    ]
    assert table.describe() == (
        "Beltpunk Haberdasher hosted by alice (2/4 seated) at 192.168.1.7:40123/k7x2-m7qa-r4tb-2hzd (or 2 other addresses)"
    )
    assert other == lookalike and other.places == (("192.168.1.7", 40123),)
    assert one_per_key([real, real], ours) == [real]


def test_one_keys_places_are_the_first_8_in_dial_order():
    """Anyone may publish records with a host's fingerprint, and each place is tried in turn (a
    connect timeout each where nothing answers): a table keeps 8, those dialed first."""
    ours = [ipaddress.ip_network("192.168.1.0/24")]
    flood = [Announcement.parse([f"10.8.0.{number}"], 40000 + number, TXT, networks=ours) for number in range(1, 13)]
    real = Announcement.parse(["192.168.1.7"], 40123, TXT, networks=ours)
    [table] = one_per_key([*flood, real], ours)
    assert table.places == (("192.168.1.7", 40123), *((f"10.8.0.{number}", 40000 + number) for number in range(1, 8)))
    assert table.describe().endswith("(or 7 other addresses)")


@pytest.mark.parametrize(("addresses", "dialed"), [
    (["fe80::1", "2001:db8::7", "192.168.1.7"], ["192.168.1.7", "2001:db8::7"]),  # IPv4 first
    (["fe80::1", "2001:db8::7"], ["2001:db8::7"]),  # no scope id needed
    (["fe80::1"], []),  # link-local only: it would need the interface it was heard on
    (["0.0.0.0", "224.0.0.251", "junk"], []),
    (["192.168.1.7", "192.168.1.7"], ["192.168.1.7"]),
    ([], []),
])
def test_the_addresses_dialed(addresses, dialed):
    found = Announcement.parse(addresses, 40123, TXT)
    assert (found and [address for address, _port in found.places]) == (dialed or None)
    if dialed and ":" in dialed[0]:
        assert str(found.join_code) == f"[{dialed[0]}]:40123/k7x2-m7qa-r4tb-2hzd"


@pytest.mark.parametrize(("host", "title"), [
    ("alice", "Beltpunk Haberdasher"),
    ("Dr. A.\x1b[2J\\", "Steam.Court"),
    ("ü" * 40, "Astonishing! " * 10),
    ("", ""),
])
def test_instance_names_are_readable_dns_labels(host, title):
    from zeroconf import ServiceInfo

    name = instance_name(host, title, "k7x2-m7qa-r4tb-2hzd", 40123)
    assert name.endswith(" (k7x2:40123)") and len(name.encode()) <= 59  # room for zeroconf's "-2"
    assert "." not in name and all(character.isprintable() for character in name)
    ServiceInfo(SERVICE_TYPE, f"{name}-99.{SERVICE_TYPE}")  # zeroconf takes it, renamed too


def test_the_interfaces_come_from_the_environment(monkeypatch):
    monkeypatch.setenv(INTERFACE_VARIABLE, " 192.168.1.20, ::1 ")
    assert chosen_interfaces() == ["192.168.1.20", "::1"]
    monkeypatch.setenv(INTERFACE_VARIABLE, "")
    assert chosen_interfaces() is None
    monkeypatch.delenv(INTERFACE_VARIABLE)
    assert chosen_interfaces() is None
    monkeypatch.setenv(INTERFACE_VARIABLE, "192.168.1.20,eth0")
    with pytest.raises(OSError, match="'eth0' is not an IP address"):
        chosen_interfaces()


@pytest.mark.parametrize(("setting", "reason"), [
    ("eth0", "P2PGAMES_INTERFACE='eth0': 'eth0' is not an IP address"),
    ("192.0.2.77", r"multicast DNS can't listen on 192\.0\.2\.77 \(the addresses in P2PGAMES_INTERFACE\): "),
])
async def test_a_bad_interface_setting_stops_discovery_but_not_a_host(monkeypatch, setting, reason):
    monkeypatch.setenv(INTERFACE_VARIABLE, setting)  # not an address; not one of this machine's
    with pytest.raises(OSError, match=reason) as raised:
        await discover(0.1)
    assert re.match(reason, raised.value.strerror)  # what the command line shows
    async with trio.open_nursery() as nursery:
        with trio.fail_after(TIMEOUT):
            assert await nursery.start(announce, lambda: table(fresh_fingerprint())) is None  # nothing published


def test_importing_the_network_package_does_not_load_zeroconf():
    """zeroconf is imported when a table is announced or looked for, not at start-up."""
    script = "import sys, p2pgames.net; print(sorted(m for m in sys.modules if m.split('.')[0] in ('zeroconf', 'ifaddr', 'asyncio')))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
