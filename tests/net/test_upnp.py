"""UPnP port mapping through miniupnpc, against a router stand-in that speaks SSDP and SOAP on
loopback (tests/net/igd_standin.py): what is mapped, renewed and removed, and the one line a
player reads for each way it fails.

Every test here searches by SSDP on port 1900, which the whole machine shares: each holds the
port to itself while it runs (igd_standin does; the tests that expect no router say so), so no
stand-in answers another test's search.
"""

import os
import signal

import pytest
import trio
import trio.testing

from p2pgames.net._portmap import MappingError, PortMapping
from p2pgames.net._upnp import UPnPMapper, _in_worker
from igd_standin import Mapping, igd_standin, ssdp_to_ourselves

PORT = 40123
# miniupnpc waits at least 1000 ms for answers whatever it is told; less here documents intent.
QUICK = 300


def mapper() -> UPnPMapper:
    return UPnPMapper(interface="127.0.0.1", discover_milliseconds=QUICK)


async def failure(call, *, answered: bool) -> str:
    """The text of the MappingError ``call()`` raises, checked to be one line and to say whether
    a router ``answered`` (a refusal outweighs another protocol's silence)."""
    with pytest.raises(MappingError) as raised:
        await call()
    assert raised.value.answered == answered
    text = str(raised.value)
    assert "\n" not in text and text.strip() == text
    return text


async def test_a_mapping_points_the_routers_port_at_this_machine():
    with igd_standin() as router:
        mapping = await mapper().add(PORT, 3600)
        assert mapping == PortMapping(
            method="UPnP", router="127.0.0.1", external_address="203.0.113.7",
            external_port=PORT, internal_port=PORT, lease_seconds=3600,
        )
        assert router.mappings == {PORT: Mapping("127.0.0.1", PORT, 3600, "p2pgames")}


async def test_another_external_port_can_be_asked_for():
    with igd_standin(external_address="198.51.100.20") as router:
        mapping = await mapper().add(PORT, 600, external_port=50000)
        assert (mapping.external_address, mapping.external_port, mapping.internal_port) == ("198.51.100.20", 50000, PORT)
        assert router.mappings == {50000: Mapping("127.0.0.1", PORT, 600, "p2pgames")}


async def test_renewal_adds_the_mapping_again_without_searching_again():
    with igd_standin() as router:
        upnp = mapper()
        first = await upnp.add(PORT, 3600)
        router.forget()  # as if the lease had run out just before the renewal
        again = await upnp.add(PORT, 3600)
        assert again == first
        assert router.mappings == {PORT: Mapping("127.0.0.1", PORT, 3600, "p2pgames")}
        assert router.actions.count("AddPortMapping") == 2
        # One search: the router found first is kept (miniupnpc sends one M-SEARCH when answered).
        assert router.discoveries == 1


async def test_remove_deletes_the_mapping_and_a_mapping_already_gone_is_no_error():
    with igd_standin() as router:
        upnp = mapper()
        mapping = await upnp.add(PORT, 3600)
        await upnp.remove(mapping)
        assert router.mappings == {}
        assert router.actions.count("DeletePortMapping") == 1
        await upnp.remove(mapping)  # the router answers 714 NoSuchEntryInArray: nothing to do
        assert router.actions.count("DeletePortMapping") == 2


async def test_remove_leaves_a_port_that_another_machine_has_taken_since():
    with igd_standin() as router:
        upnp = mapper()
        mapping = await upnp.add(PORT, 60)
        router.forget()
        router.taken[PORT] = "192.168.1.77"
        await upnp.remove(mapping)
        assert "DeletePortMapping" not in router.actions


async def test_no_router_on_the_network():
    # No stand-in: nothing answers the search (miniupnpc tries four search targets, a second each).
    with ssdp_to_ourselves():
        text = await failure(lambda: UPnPMapper(interface="127.0.0.1", discover_milliseconds=1).add(PORT, 3600), answered=False)
    assert text == (
        "no router answered UPnP on this network (it may be turned off in the router's settings)"
    )


async def test_an_interface_this_machine_does_not_have():
    with ssdp_to_ourselves():
        text = await failure(lambda: UPnPMapper(interface="192.0.2.1", discover_milliseconds=QUICK).add(PORT, 3600), answered=False)
    assert text == (
        "could not search for a UPnP router on the interface 192.0.2.1 (Miniupnpc Socket error)"
    )


@pytest.mark.parametrize("code, says", [
    (606, "(UPnP error 606, Action not authorized): allow UPnP port forwarding in the router's settings"),
    (401, "does not forward ports over UPnP (UPnP error 401, Invalid Action)"),
    (501, f"refused to forward TCP port {PORT} (Action Failed)"),
    (728, "has no room for another port forwarding (UPnP error 728, NoPortMapsAvailable)"),
])
async def test_a_refusal_is_named(code, says):
    with igd_standin(refuse_with=code) as router:
        text = await failure(lambda: mapper().add(PORT, 3600), answered=True)
        assert text.startswith("the router at 127.0.0.1 ") and says in text
        assert router.mappings == {}


async def test_a_port_forwarded_to_another_machine_names_it():
    with igd_standin(taken={PORT: "192.168.1.77"}) as router:
        upnp = mapper()
        text = await failure(lambda: upnp.add(PORT, 3600), answered=True)
        assert text == (
            f"TCP port {PORT} on the router at 127.0.0.1 is already forwarded to another machine (192.168.1.77): "
            "choose another --port, or free it in the router's settings"
        )
        assert "AddPortMapping" not in router.actions
        with pytest.raises(MappingError) as raised:
            await upnp.add(PORT, 3600)
        assert raised.value.port_taken  # forwarding it by hand is no remedy: the host says only this
        assert (await upnp.add(PORT + 1, 3600)).external_port == PORT + 1  # another port is free


@pytest.mark.parametrize("code, taken", [(718, True), (729, True), (606, False), (501, False)])
async def test_only_a_port_held_for_another_says_the_port_is_taken(code, taken):
    with igd_standin(refuse_with=code):
        with pytest.raises(MappingError) as raised:
            await mapper().add(PORT, 3600)
    assert raised.value.port_taken == taken


async def test_a_router_that_grants_only_permanent_mappings_gets_lease_zero():
    with igd_standin(permanent_only=True) as router:
        upnp = mapper()
        mapping = await upnp.add(PORT, 3600)
        assert mapping.lease_seconds == 0
        assert router.mappings == {PORT: Mapping("127.0.0.1", PORT, 0, "p2pgames")}
        assert router.actions.count("AddPortMapping") == 2  # 3600 refused with 725, then 0
        await upnp.remove(mapping)
        assert router.mappings == {}


@pytest.mark.parametrize("external", ["10.20.30.40", "100.64.7.1", "192.168.0.254"])
async def test_a_router_behind_another_nat_maps_nothing(external):
    with igd_standin(external_address=external) as router:
        text = await failure(lambda: mapper().add(PORT, 3600), answered=True)
        assert text == (
            f"your router's own internet address {external} is private: another router, or your provider's shared NAT, "
            f"stands in front of the router at 127.0.0.1; forward port {PORT} on that router too if it is yours"
        )
        assert router.mappings == {}
        assert "AddPortMapping" not in router.actions


async def test_a_router_without_internet_connection_maps_nothing():
    with igd_standin(connected=False) as router:
        text = await failure(lambda: mapper().add(PORT, 3600), answered=True)
        assert text == "the router at 127.0.0.1 says it has no internet address: check its internet connection"
        assert "AddPortMapping" not in router.actions


async def test_the_router_vanishing_between_add_and_remove(capfd):
    with igd_standin() as router:
        upnp = mapper()
        mapping = await upnp.add(PORT, 3600)
        router.vanish()
        text = await failure(lambda: upnp.remove(mapping), answered=False)
        assert text == (
            f"could not remove the forwarding of TCP port {PORT}: the router at 127.0.0.1 stopped answering UPnP "
            "(Miniupnpc HTTP error); it ends by itself within 3600 s"
        )
    # miniupnpc's own "connect: Connection refused" stays off the terminal (a game's screen).
    assert capfd.readouterr().err == ""


def test_only_the_librarys_complaints_are_kept_off_the_terminal(capfd):
    def complain() -> None:
        os.write(2, b"connect: Connection refused\ngetaddrinfo() failure: Name or service not known\n")
        os.write(2, b"p2pgames: something else, from elsewhere\n")

    _in_worker(complain)
    assert capfd.readouterr().err == "p2pgames: something else, from elsewhere\n"


def test_a_call_blocks_ctrl_c_only_while_it_runs():
    # The thread's mask is restored afterwards: trio reuses its worker threads, and a call made
    # from the main thread once kept Ctrl-C from the rest of the test run (issue 22).
    before = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    during = _in_worker(lambda: signal.pthread_sigmask(signal.SIG_BLOCK, []))
    assert {signal.SIGINT, signal.SIGTERM} <= during
    assert signal.pthread_sigmask(signal.SIG_BLOCK, []) == before


async def test_a_permanent_mapping_left_behind_says_where_to_remove_it():
    with igd_standin(permanent_only=True) as router:
        upnp = mapper()
        mapping = await upnp.add(PORT, 3600)
        router.vanish()
        text = await failure(lambda: upnp.remove(mapping), answered=False)
        assert text.endswith("; remove it in the router's settings")


async def test_renewal_after_a_router_restart_finds_it_again():
    with igd_standin() as router:
        upnp = mapper()
        await upnp.add(PORT, 3600)
        router.reboot()  # mappings gone, and the control URL moved to another port
        mapping = await upnp.add(PORT, 3600)
        assert mapping.external_port == PORT
        assert router.mappings == {PORT: Mapping("127.0.0.1", PORT, 3600, "p2pgames")}
        assert router.discoveries == 2


async def test_renewal_after_the_router_vanished_says_so():
    with igd_standin() as router:
        upnp = UPnPMapper(interface="127.0.0.1", discover_milliseconds=1)
        await upnp.add(PORT, 3600)
        router.vanish()
        text = await failure(lambda: upnp.add(PORT, 3600), answered=False)
        assert text == (
            "the router at 127.0.0.1 stopped answering UPnP and no router answered a new search"
        )


async def test_calls_from_several_tasks_take_turns():
    with igd_standin() as router:
        upnp = mapper()
        mappings = {}

        async def add(port):
            mappings[port] = await upnp.add(port, 3600)

        async with trio.open_nursery() as nursery:
            for port in (PORT, PORT + 1, PORT + 2):
                nursery.start_soon(add, port)
        assert sorted(router.mappings) == [PORT, PORT + 1, PORT + 2]
        assert router.discoveries == 1  # the first call searched; the others waited and used its router


async def test_cancelling_an_add_waits_for_the_router_and_returns_what_it_granted():
    with igd_standin(hold="AddPortMapping") as router:
        upnp = mapper()
        events, granted = [], []

        async def adding(task_status=trio.TASK_STATUS_IGNORED):
            with trio.CancelScope() as scope:
                task_status.started(scope)
                granted.append(await upnp.add(PORT, 3600))
                await trio.lowlevel.checkpoint()  # where the cancellation lands
                events.append("not cancelled")
            events.append("add over")

        async with trio.open_nursery() as nursery:
            scope = await nursery.start(adding)
            await trio.to_thread.run_sync(router.arrived.wait)  # the router has the request
            scope.cancel()
            # A call abandoned to its thread would end here, with miniupnpc still at work in it.
            await trio.testing.wait_all_tasks_blocked()
            events.append("router answers")
            router.release()
        assert events == ["router answers", "add over"]
        assert scope.cancelled_caught
        # The caller has the mapping the router made, to remove it; and the mapper goes on
        # working with the router it found.
        assert [mapping.external_port for mapping in granted] == [PORT]
        assert PORT in router.mappings
        router.hold = None
        await upnp.remove(granted[0])
        assert router.mappings == {}
        assert router.discoveries == 1


async def test_ports_and_leases_out_of_range_are_refused_before_asking():
    upnp = mapper()
    for call in (lambda: upnp.add(0, 60), lambda: upnp.add(PORT, 60, external_port=70000), lambda: upnp.add(PORT, -1)):
        with pytest.raises(ValueError):
            await call()
