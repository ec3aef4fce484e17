"""Issue 13's acceptance, through the real command against stand-in routers on loopback:
``p2pgames host beltpunk`` prints a join code with the router's internet address, the mapping
exists during the game and is gone after it, also after Ctrl-C (at a terminal and headless) and
SIGTERM; each way of failing says one line; ``--no-upnp`` asks nothing; ``doctor`` reports.

The hosts listen on every interface (as a player's does); their UPnP searches go out on
127.0.0.1 and their PCP/NAT-PMP requests to 127.0.0.1 (``P2PGAMES_INTERFACE`` and
``P2PGAMES_GATEWAY``, set for every test in tests/conftest.py, or here to a stand-in), so
nothing leaves this machine. A test holds the SSDP lock (``igd_standin`` does) while its host
searches: every stand-in on the machine answers every search.
"""

from __future__ import annotations

import signal
import socket

import pytest

from igd_standin import Mapping, igd_standin, ssdp_to_ourselves
from natpmp_standin import GatewayStandIn
from p2pgames.net import LOOPBACK, JoinCode
from p2pgames.net._launch import _outgoing_address
from p2pgames.net._portmap import LEASE_SECONDS
from peer_processes import TIMEOUT, TerminalPeer, join_code

EXTERNAL = "203.0.113.7"  # the stand-ins' internet address (TEST-NET-3)


def _ours(mappings: dict, port: int) -> Mapping:
    """The stand-in IGD's mapping of ``port``, checked to point at this machine's table."""
    mapping = mappings[port]
    assert (mapping.internal_client, mapping.internal_port, mapping.description) == (LOOPBACK, port, "p2pgames")
    return mapping


def test_host_beltpunk_names_the_routers_address_and_holds_the_mapping_for_the_game_only(peers) -> None:
    with igd_standin(external_address=EXTERNAL) as router:
        host = peers("host", "beltpunk", "--players", "2", "--bot", "--name", "hostess", "--no-transcript")
        code = JoinCode.parse(join_code(host))
        assert code.host == EXTERNAL
        assert _ours(router.mappings, code.port).lease_seconds == LEASE_SECONDS
        host.line_starting(f"(your router forwards port {code.port} of {EXTERNAL} to this machine by UPnP while the game runs)")
        # Friends elsewhere would dial the router; here the joiner takes the code for this machine.
        here = JoinCode(LOOPBACK, code.port, code.fingerprint)
        assert host.line_starting("(on this machine:") == f"(on this machine:  p2pgames join {here})"
        joiner = peers("join", str(here), "--bot", "--profile", "guest", "--name", "guest", "--no-transcript")
        host.line_starting("seated: hostess, guest (2 of 2)")
        assert code.port in router.mappings  # during the game
        for exit_code, out, err in (host.finish(), joiner.finish()):
            assert (exit_code, err) == (0, ""), (out, err)
            assert any(line.startswith("Game over: ") for line in out)
        assert router.mappings == {}
        assert router.actions.count("AddPortMapping") == 1 and router.actions[-1] == "DeletePortMapping"


@pytest.mark.parametrize("signal_number, exit_code, said", [
    (signal.SIGINT, 130, "p2pgames: interrupted; leaving the table\n"),
    (signal.SIGTERM, 143, "p2pgames: terminated; leaving the table\n"),
])
def test_a_headless_host_stopped_by_a_signal_removes_its_mapping(peers, signal_number, exit_code, said) -> None:
    with igd_standin(external_address=EXTERNAL) as router:
        host = peers("host", "beltpunk", "--players", "2", "--bot", "--name", "hostess", "--no-transcript")
        code = JoinCode.parse(join_code(host))
        _ours(router.mappings, code.port)
        host.line_starting("(on this machine:")  # the last line before the host waits for players
        host.process.send_signal(signal_number)
        assert host.finish()[::2] == (exit_code, said)
        assert router.mappings == {} and router.actions[-1] == "DeletePortMapping"


def test_host_beltpunk_at_a_terminal_shows_the_routers_address_and_ctrl_c_removes_the_mapping(tmp_path) -> None:
    with igd_standin(external_address=EXTERNAL) as router:
        host = TerminalPeer(tmp_path / "home", "host", "beltpunk", "--players", "2", "--name", "hostess", "--no-transcript")
        try:
            port = int(host.wait_for(rf"Join code: {EXTERNAL}:(\d+)/").group(1))
            host.wait_for("Ctrl-C: quit")  # the game's screen, waiting for players
            _ours(router.mappings, port)
            host.type(b"\x03")  # Ctrl-C
            host.wait_for("You left the table before the game began.")
            assert host.finish() == 0
        finally:
            host.close()
        assert router.mappings == {} and router.actions[-1] == "DeletePortMapping"


def test_ctrl_c_while_the_router_is_being_asked_leaves_nothing_mapped(tmp_path) -> None:
    with igd_standin(external_address=EXTERNAL, hold="AddPortMapping") as router:
        host = TerminalPeer(tmp_path / "home", "host", "beltpunk", "--players", "2", "--name", "hostess", "--no-transcript")
        try:
            host.wait_for("Asking your router to forward port")
            assert router.arrived.wait(TIMEOUT)
            host.type(b"\x03")  # Ctrl-C before the screen opens: a SIGINT
            router.release()  # the router grants the mapping after all …
            host.wait_for("p2pgames: interrupted")
            assert host.finish() == 130
        finally:
            host.close()
        actions = router.actions
        assert actions.index("AddPortMapping") < actions.index("DeletePortMapping")  # … and it is given back
        assert router.mappings == {}


def test_a_router_speaking_nat_pmp_is_asked_when_none_answers_upnp(peers) -> None:
    with ssdp_to_ourselves(), GatewayStandIn(speaks=("natpmp",), external_address=EXTERNAL) as router:
        host = peers(
            "host", "beltpunk", "--players", "2", "--bot", "--name", "hostess", "--no-transcript",
            environment={"P2PGAMES_GATEWAY": f"127.0.0.1:{router.port}"},
        )
        code = JoinCode.parse(join_code(host))
        assert code.host == EXTERNAL
        assert set(router.mappings) == {("TCP", code.port)} and router.mappings["TCP", code.port].method == "NAT-PMP"
        host.line_starting(f"(your router forwards port {code.port} of {EXTERNAL} to this machine by NAT-PMP while the game runs)")
        host.line_starting("(on this machine:")  # the last line before the host waits for players
        host.process.send_signal(signal.SIGINT)
        assert host.finish()[0] == 130
        assert router.mappings == {}


def test_with_no_router_the_host_says_so_in_one_line_and_gives_the_code_for_its_network(peers) -> None:
    with ssdp_to_ourselves():
        host = peers("host", "beltpunk", "--players", "2", "--bot", "--name", "hostess", "--no-transcript")
        code = JoinCode.parse(join_code(host))
        lan = _outgoing_address(socket.AF_INET)
        assert code.host == lan  # the code that works: on the host's own network
        assert host.line_starting("Not reachable") == (
            f"Not reachable from the internet over IPv4: no router on this network answered when asked by UPnP, PCP or "
            f"NAT-PMP to open port {code.port}; for friends on the internet, forward TCP port {code.port} to {lan} on your "
            "router by hand, or play over IPv6."
        )
        host.process.send_signal(signal.SIGTERM)
        assert host.finish()[0] == 143


def test_a_port_forwarded_to_another_machine_is_named_without_advice_to_forward_it(peers) -> None:
    with socket.socket() as probe:  # a port that is free here, and taken on the router
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with igd_standin(external_address=EXTERNAL, taken={port: "192.168.1.77"}) as router:
        host = peers("host", "beltpunk", "--players", "2", "--bot", "--port", str(port), "--name", "hostess", "--no-transcript")
        assert host.line_starting("Not reachable") == (
            f"Not reachable from the internet over IPv4: TCP port {port} on the router at 127.0.0.1 is already forwarded "
            "to another machine (192.168.1.77): choose another --port, or free it in the router's settings."
        )
        host.process.send_signal(signal.SIGTERM)
        assert host.finish()[0] == 143
        assert router.mappings == {}


def test_no_upnp_asks_the_router_nothing(peers) -> None:
    with igd_standin(external_address=EXTERNAL) as router:
        host = peers("host", "beltpunk", "--players", "2", "--bot", "--name", "hostess", "--no-transcript", "--no-upnp")
        code = JoinCode.parse(join_code(host))
        assert code.host == _outgoing_address(socket.AF_INET)
        host.line_starting("(on this machine:")  # the last line before the host waits for players
        host.process.send_signal(signal.SIGTERM)
        code_, out, _ = host.finish()
        assert code_ == 143 and not any("router" in line for line in out)
        assert router.searches == [] and router.actions == []


def test_doctor_reports_the_mapping_it_got_and_leaves_none(peers) -> None:
    with igd_standin(external_address=EXTERNAL) as router:
        doctor = peers("doctor", "--port", "0")
        exit_code, out, err = doctor.finish()
        assert (exit_code, err) == (0, "")
        [line] = [line for line in out if line.startswith("Router:")]
        assert "forwarded port " in line and f"when asked by UPnP; its internet address is {EXTERNAL}" in line
        assert line.endswith("The test mapping is removed again.")
        assert f"- Over the internet, friends can join you through your router at {EXTERNAL}: p2pgames asks it by UPnP" in "\n".join(out)
        assert router.mappings == {} and router.actions.count("DeletePortMapping") == 1


@pytest.mark.parametrize("address_after", [EXTERNAL, "198.51.100.9"])
def test_a_crashed_host_leaves_its_mapping_to_its_lease_and_resume_takes_it_up_again(peers, tmp_path, address_after) -> None:
    transcripts = tmp_path / "transcripts"
    with igd_standin(external_address=EXTERNAL) as router:
        host = peers("host", "probe", "--players", "2", "--bot", "--name", "hostess", "--profile", "hostess",
                     "--transcripts", str(transcripts))
        code = JoinCode.parse(join_code(host))
        here = JoinCode(LOOPBACK, code.port, code.fingerprint)
        joiner = peers("join", str(here), "--bot", "--profile", "p1", "--name", "p1", "--transcripts", str(transcripts))
        joiner.line_starting("The game begins: ")
        joiner.line_starting("")  # and its first move's line: the game is under way (as in test_cli_resume.py)
        host.process.kill()  # kill -9: nothing removes the mapping; its lease bounds how long it stays
        host.process.wait()
        assert _ours(router.mappings, code.port).lease_seconds == LEASE_SECONDS
        router.external_address = address_after  # the provider may give the router a new address meanwhile
        again = peers("resume", "--bot", "--profile", "hostess")
        assert again.line_starting("Resumed the game after ").endswith(f"listening on port {code.port}.")
        assert again.line_starting("Your router forwards") == (
            f"Your router forwards port {code.port} of {address_after} to this machine by UPnP again."
        )
        exit_code, out, err = again.finish()
        assert (exit_code, err) == (0, ""), (out, err)
        changed = [line for line in out if line.startswith("The table's address changed")]
        if address_after == EXTERNAL:
            assert changed == []  # the same router address and port: joiners dial it as before
        else:
            new_code = JoinCode(address_after, code.port, code.fingerprint)
            assert changed == [
                f"The table's address changed: give the others the new code. A player still at the table types  code "
                f"{new_code} ; one who quit runs  p2pgames resume --code {new_code}"
            ]
        assert joiner.finish()[::2] == (0, "")
        assert router.mappings == {} and router.actions[-1] == "DeletePortMapping"
