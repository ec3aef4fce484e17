"""A host asks its router to forward the table's port (issue 13, point 1): what the join code
names then, the line said when it can't, when it isn't asked at all, and the mapping's end with
the table's. The routers here are scripted mappers; test_port_mapping_cli.py runs the real
protocols against stand-in routers."""

from __future__ import annotations

import socket

import trio
import trio.testing

from p2pgames.crypto import Identity
from p2pgames.games import get_game
from p2pgames.net import LOOPBACK, JoinCode, MappingError, host_table, join_table
from p2pgames.net._launch import _outgoing_address
from p2pgames.net._doctor import diagnose

from scripted_mapper import ScriptedMapper


async def _host(mapper: ScriptedMapper, bind: str | None = None, bots: int = 0) -> tuple[list[str], int, set[int]]:
    """Host a table of three for the probe game with ``mapper``; what it said, its port, and the
    ports the router mapped while the table was open. The table is closed (its node left) before
    this returns."""
    said: list[str] = []
    async with trio.open_nursery() as nursery:
        identity = Identity.generate()
        node = await host_table(
            nursery, identity=identity, name="hostess", ruleset=get_game("probe").ruleset(3), bind=bind, bots=bots,
            say=said.append, announce_on_lan=False, port_mappers=[mapper],
        )
        port = node.address[1]
        await node.wait_until(lambda: node.session.lobby_size == 1 + bots)  # the bots are seated before we leave
        mapped_while_open = set(mapper.mapped)
        node.leave("the test is over")
        await node.finished.wait()
    return said, port, mapped_while_open


async def test_the_join_code_names_the_routers_internet_address_and_the_lan_code_is_next_to_it() -> None:
    mapper = ScriptedMapper("UPnP", "203.0.113.7")
    said, port, mapped_while_open = await _host(mapper)
    assert mapped_while_open == {port}
    fingerprint = said[1].rpartition("/")[2]
    lan = _outgoing_address(socket.AF_INET)
    assert said[0] == f"Asking your router to forward port {port} to this machine …"
    assert said[1] == f"Join code: 203.0.113.7:{port}/{fingerprint}"
    assert said[2] == f"Others join with:  p2pgames join 203.0.113.7:{port}/{fingerprint}"
    assert said[3] == f"(your router forwards port {port} of 203.0.113.7 to this machine by UPnP while the game runs)"
    assert f"(on your network:  p2pgames join {lan}:{port}/{fingerprint})" in said
    assert f"(on this machine:  p2pgames join {LOOPBACK}:{port}/{fingerprint})" in said
    # Gone with the table.
    assert [kind for kind, _, _ in mapper.calls] == ["add", "remove"] and mapper.mapped == set()


async def test_without_a_mapping_the_host_says_why_in_one_line_and_what_to_do() -> None:
    mapper = ScriptedMapper("UPnP", MappingError("no router answered UPnP"))
    said, port, mapped_while_open = await _host(mapper)
    assert mapped_while_open == set()
    lan = _outgoing_address(socket.AF_INET)
    assert said[1].startswith(f"Join code: {lan}:{port}/")
    [line] = [line for line in said if line.startswith("Not reachable")]
    assert line == (
        f"Not reachable from the internet over IPv4: no router on this network answered when asked by UPnP to open port "
        f"{port}; for friends on the internet, forward TCP port {port} to {lan} on your router by hand, or play over IPv6."
    )
    assert [kind for kind, _, _ in mapper.calls] == ["add"]


async def test_the_router_is_not_asked_for_a_table_on_loopback_or_with_no_seats_for_people() -> None:
    for bind, bots in ((LOOPBACK, 0), (None, 2)):
        mapper = ScriptedMapper("UPnP", "203.0.113.7")
        said, _, _ = await _host(mapper, bind=bind, bots=bots)
        assert mapper.calls == [], (bind, bots)
        assert not any("router" in line for line in said)


async def test_the_doctor_reports_the_routers_answer_and_undoes_its_test_mapping() -> None:
    mapper = ScriptedMapper("PCP", "203.0.113.7")
    findings, verdict = await diagnose(0, [mapper])
    port = mapper.calls[0][2]
    topics = [finding.topic for finding in findings]
    assert topics == ["Listening", "This machine", "IPv6", "Router", "LAN discovery"]
    [router] = [finding.text for finding in findings if finding.topic == "Router"]
    assert router == (
        f"your router (192.168.1.1) forwarded port {port} to this machine when asked by PCP; its internet address is "
        "203.0.113.7. The test mapping is removed again."
    )
    assert mapper.mapped == set()
    assert any(sentence.startswith("Over the internet, friends can join you through your router at 203.0.113.7") for sentence in verdict)


async def test_the_doctor_says_what_to_do_when_no_router_answers() -> None:
    mapper = ScriptedMapper("UPnP", MappingError("no router answered UPnP"))
    findings, verdict = await diagnose(0, [mapper])
    port = mapper.calls[0][2]
    lan = _outgoing_address(socket.AF_INET)
    assert f"Router:        no router on this network answered when asked by UPnP to open port {port}." in map(str, findings)
    assert (
        f"Over the internet, friends can't join you over IPv4 yet: for friends on the internet, forward TCP port {port} to "
        f"{lan} on your router by hand, or play over IPv6 (then host with p2pgames host GAME --port {port})."
    ) in verdict


async def test_a_host_answering_after_its_game_stopped_holds_the_mapping_until_the_table_is_closed(autojump_clock) -> None:
    """A joiner leaves mid-game: the game stops, and the host's node with it, but the host still
    answers a seat coming back for that game (``serve``'s ``after_the_game``), from the internet
    too: the router keeps forwarding until the table is closed. Before, the mapping went with the
    node, while the host went on listening."""
    mapper = ScriptedMapper("UPnP", "203.0.113.7")
    async with trio.open_nursery() as nursery:
        host = await host_table(
            nursery, identity=Identity.generate(), name="hostess", ruleset=get_game("probe").ruleset(2),
            announce_on_lan=False, port_mappers=[mapper],
        )
        port = host.address[1]
        key = host.session.identity.public_key.fingerprint()
        joiner = await join_table(nursery, identity=Identity.generate(), name="p1", code=JoinCode(LOOPBACK, port, key))
        await joiner.wait_until(lambda: joiner.session.stage == "playing")
        joiner.leave("quit")
        await host.finished.wait()
        assert host.session.stage == "halted"
        await trio.testing.wait_all_tasks_blocked()
        async with await trio.open_tcp_stream(LOOPBACK, port):  # still answering after the game …
            pass
        assert mapper.mapped == {port} and [kind for kind, _, _ in mapper.calls] == ["add"]  # … from the internet too
        nursery.cancel_scope.cancel()  # the host's player closes the table
    assert [kind for kind, _, _ in mapper.calls] == ["add", "remove"] and mapper.mapped == set()
