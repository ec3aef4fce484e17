"""Holding a port mapping for a table's duration (``hold_port_mapping``) and choosing among the
ways of asking the router (``map_port``), with stand-in mappers whose answers a test scripts.
The protocols themselves are tested against stand-in routers in test_upnp.py and
test_natpmp.py."""

from __future__ import annotations

import functools

import pytest
import trio

from p2pgames.net._launch import _forwardable
from scripted_mapper import ScriptedMapper
from p2pgames.net._portmap import (
    LEASE_SECONDS, RETRY_SECONDS, MappingError, PortMapping, default_port_mappers, hold_port_mapping, is_private_wan_address,
    map_port,
)


def test_a_mapping_validates_itself() -> None:
    PortMapping("PCP", "192.168.1.1", "203.0.113.7", 40123, 40123, 0)
    for bad in (
        dict(method="SOCKS"), dict(external_address="router"), dict(external_port=0), dict(internal_port=70000),
        dict(lease_seconds=-1),
    ):
        fields = dict(method="UPnP", router="192.168.1.1", external_address="203.0.113.7", external_port=1, internal_port=1, lease_seconds=60)
        with pytest.raises(ValueError):
            PortMapping(**{**fields, **bad})


def test_private_and_shared_wan_addresses_mean_another_nat() -> None:
    for address in ("10.1.2.3", "100.64.0.1", "100.127.255.254", "172.16.0.1", "192.168.0.1", "169.254.1.1"):
        assert is_private_wan_address(address), address
    for address in ("203.0.113.7", "198.51.100.1", "8.8.8.8", "100.128.0.1", "172.32.0.1"):
        assert not is_private_wan_address(address), address
    with pytest.raises(ValueError):
        is_private_wan_address("router")


def test_a_router_can_forward_to_every_interface_or_a_private_ipv4_address() -> None:
    for bind in (None, "", "0.0.0.0", "::", "192.168.1.20", "10.0.0.5"):
        assert _forwardable(bind), bind
    for bind in ("127.0.0.1", "localhost", "::1", "2001:db8::1", "fd00::2", "203.0.113.7"):
        assert not _forwardable(bind), bind


async def test_the_first_way_that_got_a_mapping_is_kept_and_another_grant_removed() -> None:
    upnp = ScriptedMapper("UPnP", "203.0.113.7")
    pcp = ScriptedMapper("PCP", "203.0.113.7")
    mapper, mapping = await map_port([upnp, pcp], 40123)
    assert mapper is upnp and mapping.method == "UPnP" and mapping.external_port == 40123
    assert upnp.mapped == {40123} and pcp.mapped == set()
    assert [call[0] for call in pcp.calls] == ["add", "remove"]


async def test_a_refusal_says_more_than_silence() -> None:
    silent = ScriptedMapper("UPnP", MappingError("no router answered UPnP"))
    refusing = ScriptedMapper("PCP", MappingError("the router at 192.168.1.1 refuses port mappings", answered=True))
    with pytest.raises(MappingError, match="^the router at 192.168.1.1 refuses port mappings$"):
        await map_port([silent, refusing], 40123)


async def test_when_no_router_answers_one_line_names_every_way_asked() -> None:
    upnp = ScriptedMapper("UPnP", MappingError("no router answered UPnP"))
    pcp = ScriptedMapper("PCP", MappingError("no answer to PCP"))
    with pytest.raises(MappingError) as caught:
        await map_port([upnp, pcp], 40123)
    assert str(caught.value) == "no router on this network answered when asked by UPnP or PCP to open port 40123"


async def _hold(mapper: ScriptedMapper, until: trio.Event, said: list[str], moved: list[PortMapping], nursery: trio.Nursery):
    return await nursery.start(functools.partial(
        hold_port_mapping, [mapper], 40123, until, say=said.append, on_moved=moved.append,
    ))


async def test_a_held_mapping_is_renewed_at_half_its_lease_and_removed_when_the_game_ends(autojump_clock) -> None:
    mapper = ScriptedMapper("UPnP", "203.0.113.7")
    until, said, moved = trio.Event(), [], []
    async with trio.open_nursery() as nursery:
        mapping = await _hold(mapper, until, said, moved, nursery)
        assert isinstance(mapping, PortMapping) and mapping.external_address == "203.0.113.7"
        await trio.sleep(LEASE_SECONDS * 2 + 1)
        assert mapper.mapped == {40123}
        until.set()
    kinds = [kind for kind, _, _ in mapper.calls]
    assert kinds == ["add", "add", "add", "add", "add", "remove"]
    renewals = [time for kind, time, _ in mapper.calls if kind == "add"]
    assert [round(later - earlier) for earlier, later in zip(renewals, renewals[1:])] == [LEASE_SECONDS // 2] * 4
    assert mapper.mapped == set() and said == [] and moved == []


async def test_a_held_mapping_is_removed_when_the_table_is_cancelled(autojump_clock) -> None:
    mapper = ScriptedMapper("PCP", "203.0.113.7")
    async with trio.open_nursery() as nursery:
        await _hold(mapper, trio.Event(), [], [], nursery)
        await trio.sleep(5)
        nursery.cancel_scope.cancel()  # Ctrl-C: the shielded removal still happens
    assert [kind for kind, _, _ in mapper.calls] == ["add", "remove"] and mapper.mapped == set()


async def test_a_permanent_mapping_is_not_renewed_but_still_removed(autojump_clock) -> None:
    mapper = ScriptedMapper("UPnP", "203.0.113.7", lease=0)
    until = trio.Event()
    async with trio.open_nursery() as nursery:
        await _hold(mapper, until, [], [], nursery)
        await trio.sleep(LEASE_SECONDS * 3)
        until.set()
    assert [kind for kind, _, _ in mapper.calls] == ["add", "remove"]


async def test_a_refused_renewal_is_said_once_and_tried_again_every_minute(autojump_clock) -> None:
    refused = MappingError("the router at 192.168.1.1 refuses port mappings", answered=True)
    mapper = ScriptedMapper("UPnP", "203.0.113.7", refused, refused, "203.0.113.7")
    until, said = trio.Event(), []
    async with trio.open_nursery() as nursery:
        await _hold(mapper, until, said, [], nursery)
        await trio.sleep(LEASE_SECONDS // 2 + 2 * RETRY_SECONDS + 1)
        until.set()
    adds = [time for kind, time, _ in mapper.calls if kind == "add"]
    assert [round(later - earlier) for earlier, later in zip(adds, adds[1:])] == [LEASE_SECONDS // 2, RETRY_SECONDS, RETRY_SECONDS]
    assert said == [
        "Could not renew the port mapping on your router: the router at 192.168.1.1 refuses port mappings; trying again every minute.",
        "The port mapping on your router is renewed.",
    ]


async def test_a_renewal_at_a_new_address_is_passed_on(autojump_clock) -> None:
    mapper = ScriptedMapper("PCP", "203.0.113.7", "198.51.100.9")
    until, moved = trio.Event(), []
    async with trio.open_nursery() as nursery:
        await _hold(mapper, until, [], moved, nursery)
        await trio.sleep(LEASE_SECONDS // 2 + 1)
        until.set()
    assert [mapping.external_address for mapping in moved] == ["198.51.100.9"]


async def test_no_mapping_is_the_reason_and_nothing_is_held(autojump_clock) -> None:
    mapper = ScriptedMapper("UPnP", MappingError("your router's own internet address 10.0.0.2 is private", answered=True))
    async with trio.open_nursery() as nursery:
        outcome = await _hold(mapper, trio.Event(), [], [], nursery)
    assert isinstance(outcome, MappingError) and "10.0.0.2" in str(outcome)
    assert [kind for kind, _, _ in mapper.calls] == ["add"]


async def test_a_mapping_that_cant_be_removed_is_said_with_when_it_lapses(autojump_clock) -> None:
    mapper = ScriptedMapper("UPnP", "203.0.113.7", remove_error=MappingError("the router at 192.168.1.1 did not answer"))
    until, said = trio.Event(), []
    async with trio.open_nursery() as nursery:
        await _hold(mapper, until, said, [], nursery)
        until.set()
    assert said == [
        "Could not remove the port mapping from your router (the router at 192.168.1.1 did not answer); "
        f"it lapses by itself within {LEASE_SECONDS // 60} minutes."
    ]


class FinishingMapper(ScriptedMapper):
    """Like a call into a C library in a thread: once asked, it finishes (and the router has
    granted) even if we are cancelled meanwhile."""

    async def add(self, internal_port: int, lease_seconds: int, *, external_port: int | None = None) -> PortMapping:
        with trio.CancelScope(shield=True):
            await trio.sleep(1)
            return await super().add(internal_port, lease_seconds, external_port=external_port)


async def test_a_grant_that_comes_in_as_the_host_is_cancelled_is_given_back(autojump_clock) -> None:
    mapper = FinishingMapper("UPnP", "203.0.113.7")
    async with trio.open_nursery() as nursery:
        nursery.cancel_scope.deadline = trio.current_time() + 0.5  # Ctrl-C while the router is being asked
        await nursery.start(functools.partial(hold_port_mapping, [mapper], 40123, trio.Event(), say=print))
    assert [kind for kind, _, _ in mapper.calls] == ["add", "remove"] and mapper.mapped == set()


async def test_a_grant_is_given_back_when_map_port_is_cancelled_waiting_for_another_way(autojump_clock) -> None:
    quick = ScriptedMapper("PCP", "203.0.113.7")
    never = ScriptedMapper("UPnP", "203.0.113.7")
    never.add = lambda *arguments, **options: trio.sleep_forever()  # a router that never answers
    with trio.move_on_after(0.5):  # Ctrl-C while UPnP is still being asked
        await map_port([never, quick], 40123)
    assert [kind for kind, _, _ in quick.calls] == ["add", "remove"] and quick.mapped == set()


async def test_a_lease_that_runs_out_before_a_renewal_is_said_once(autojump_clock) -> None:
    refused = MappingError("the router at 192.168.1.1 did not answer")
    # Granted, then refused at half the lease and every minute after, until well past its end.
    retries = (LEASE_SECONDS // 2) // RETRY_SECONDS + 2
    mapper = ScriptedMapper("PCP", "203.0.113.7", *[refused] * (1 + retries), "203.0.113.7")
    until, said = trio.Event(), []
    async with trio.open_nursery() as nursery:
        await _hold(mapper, until, said, [], nursery)
        await trio.sleep(LEASE_SECONDS // 2 + (retries + 1) * RETRY_SECONDS + 1)
        until.set()
    assert said == [
        "Could not renew the port mapping on your router: the router at 192.168.1.1 did not answer; trying again every minute.",
        "The port mapping on your router has run out (its lease ended before it could be renewed): friends on the "
        "internet can't join until it is renewed; those at the table usually stay connected.",
        "The port mapping on your router is renewed.",
    ]


def test_the_settings_choose_where_the_router_is_asked() -> None:
    upnp, gateway = default_port_mappers(environ={})
    assert (upnp.method, upnp.interface) == ("UPnP", None)
    assert gateway.protocols == ("PCP", "NAT-PMP") and (gateway._gateway, gateway._port) == (None, 5351)
    upnp, gateway = default_port_mappers(environ={"P2PGAMES_INTERFACE": "fd00::2, 192.168.1.20", "P2PGAMES_GATEWAY": "192.168.1.1:5400"})
    assert upnp.interface == "192.168.1.20"  # UPnP searches over IPv4
    assert (gateway._gateway, gateway._port) == ("192.168.1.1", 5400)
    for bad in ("router", "192.168.1.1:0", "192.168.1.1:port", "::1"):
        with pytest.raises(ValueError, match="P2PGAMES_GATEWAY"):
            default_port_mappers(environ={"P2PGAMES_GATEWAY": bad})
