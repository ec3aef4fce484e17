"""A joiner away when its host handed the table over finds the new host by itself (issue 25;
SPEC §B15), over real loopback TCP on trio's autojump clock.

A probe table: the host, a joiner dialling it directly (seat 1, the successor) and one dialling
through the fault-injecting proxy (seat 2); both joiners listen and say where. Seat 2's link is
stalled, the host hands the table to seat 1 and leaves, then seat 2's link is cut: seat 2 dials
its host's old address in vain (the proxy finds nobody there), then the other seats where they
said they listen, takes seat 1's hello though its log doesn't name seat 1 host yet, and is caught
up — the hand-over entry first — by seat 1. Both finish; both transcripts verify.
"""

from __future__ import annotations

import functools

import trio

from faultproxy import LOOPBACK, FaultProxy, Link
from p2pgames.bots import bot_for
from p2pgames.crypto import Identity, reproducible_bytes
from p2pgames.games import get_game
from p2pgames.net import JoinCode, NetSettings, Node, drive_bot, open_host_listeners
from p2pgames.net._launch import map_port_as_successor, successor_listeners
from scripted_mapper import ScriptedMapper
from p2pgames.net._resume import find_saved_seats, resume_seat
from p2pgames.session import Session, verify_transcript


def seeded_session(game, seed: bytes, seat: int, players: int = 3) -> Session:
    """Seat ``seat``'s session of a table of seeded bots (the host's holds the ruleset)."""
    return Session(
        Identity.generate(reproducible_bytes(seed + bytes([seat]))(32)), f"p{seat}", get_game,
        ruleset=game.ruleset(players) if seat == 0 else None, bot=True,
        random_bytes=reproducible_bytes(seed + b"/rng/" + bytes([seat])),
    )


async def test_a_joiner_away_at_the_hand_over_dials_the_others_and_finds_the_new_host(tmp_path, autojump_clock):
    game = get_game("probe")
    seed = b"succession-network"
    session = functools.partial(seeded_session, game, seed)
    links: list[Link] = []

    async with trio.open_nursery() as nursery:
        listeners = await open_host_listeners(0, LOOPBACK)
        port = listeners[0].socket.getsockname()[1]
        proxy = FaultProxy(port, on_link=links.append)
        await nursery.start(proxy.run)
        host = Node(session(0), transcript_dir=tmp_path / "host")
        await nursery.start(host.serve, listeners)
        nodes = [host]
        for seat, where in ((1, port), (2, proxy.port)):
            node = Node(session(seat), transcript_dir=tmp_path / f"seat{seat}")
            own = await successor_listeners(node.session, LOOPBACK)
            await nursery.start(functools.partial(node.connect, LOOPBACK, where, listeners=own))
            await host.wait_until(lambda: host.session.lobby_size > seat)  # seated in dialling order
            nodes.append(node)
        for seat, node in enumerate(nodes):
            nursery.start_soon(drive_bot, node, bot_for(game, seed + bytes([seat])))
        old = host.session
        with trio.fail_after(600):
            await host.wait_until(lambda: old.replica is not None and old.replica.seq >= 10
                                  and old.replica.hand_over_problem(0) is None and old.successor() == 1)
        [link] = links
        link.stall()  # seat 2 hears nothing more from the old host
        host.hand_over()
        with trio.fail_after(600):
            await host.finished.wait()
        link.cut()
        for node in nodes[1:]:
            with trio.fail_after(3600):
                await node.finished.wait()
        nursery.cancel_scope.cancel()
    successor, away = nodes[1].session, nodes[2].session
    assert successor.is_host and away.host_seat == 1
    assert successor.result is not None and away.result == successor.result
    for node in nodes[1:]:
        assert node.session.fault is None, node.session.fault
        report = verify_transcript(node.transcript_path.read_bytes(), get_game)
        assert report.ok and report.complete, report.describe()
        assert report.hosts[-1][1] == 1


async def test_a_host_cut_off_while_the_others_took_the_table_over_finds_out_and_stops(tmp_path, autojump_clock):
    """The host's network goes down (its process runs on): its two joiners, dialling it through the
    proxy, find nobody, wait out their grace period, agree to play on and take the table over
    (seat 1 hosts, a bot plays the host's seat). The old host, its players away longer than a
    joiner waits for its host, dials them where they said they listen: seat 1 answers its rejoin
    with gone, and its game stops, saying so, nobody blamed — instead of waiting for them for
    ever. Everyone's transcript verifies."""
    game = get_game("beltpunk")
    seed = b"old-host-network"
    session = functools.partial(seeded_session, game, seed)
    settings = NetSettings(away_grace=5.0)

    async with trio.open_nursery() as nursery:
        listeners = await open_host_listeners(0, LOOPBACK)
        port = listeners[0].socket.getsockname()[1]
        proxy = FaultProxy(port)
        await nursery.start(proxy.run)
        host = Node(session(0), settings=settings, transcript_dir=tmp_path / "host")
        await nursery.start(host.serve, listeners)
        nodes = [host]
        for seat in (1, 2):
            node = Node(session(seat), settings=settings, transcript_dir=tmp_path / f"seat{seat}")
            own = await successor_listeners(node.session, LOOPBACK)
            await nursery.start(functools.partial(node.connect, LOOPBACK, proxy.port, listeners=own))
            await host.wait_until(lambda: host.session.lobby_size > seat)
            nodes.append(node)
        for seat, node in enumerate(nodes):
            # (Bots that think a second a move: the game outlasts the old host's first look.)
            nursery.start_soon(functools.partial(drive_bot, node, bot_for(game, seed + bytes([seat])), if_away="bot", think=1.0))
        old = host.session
        with trio.fail_after(600):
            await host.wait_until(lambda: old.replica is not None and old.replica.seq >= 40)
        proxy.refuse_new()
        proxy.cut_all()  # the host's network is down: nobody reaches it, it reaches nobody through here
        with trio.fail_after(3600):
            await host.finished.wait()
            for node in nodes[1:]:
                await node.finished.wait()
        nursery.cancel_scope.cancel()
    assert old.fault is not None and old.fault.code == "ended" and old.fault.culprit is None, old.fault
    assert old.fault.reason.startswith("the others took the table over while this host was away: p1 hosts it now"), old.fault
    successor = nodes[1].session
    assert successor.result is not None and nodes[2].session.result == successor.result
    for node in nodes:
        report = verify_transcript(node.transcript_path.read_bytes(), get_game)
        assert report.ok, report.describe()
    assert 0 in successor.replica.open_seats


async def test_a_host_killed_and_restarted_after_the_take_over_is_told_by_the_new_host_and_stops(tmp_path, autojump_clock):
    """The host's process dies; its two joiners take the table over (seat 1 hosts). Restarted from
    its saved seat — which kept where the others listen — the old host waits for its players as a
    resumed host does; none comes, so it dials them where they listen: seat 1 answers gone, and
    its game stops, saying so. (Without the saved ``reach``es it could not know where to look.)"""
    game = get_game("beltpunk")
    seed = b"old-host-restarted"
    session = functools.partial(seeded_session, game, seed)
    settings = NetSettings(away_grace=5.0)
    seats_dir = tmp_path / "seats"
    host_scope = trio.CancelScope()

    async with trio.open_nursery() as nursery:
        listeners = await open_host_listeners(0, LOOPBACK)
        port = listeners[0].socket.getsockname()[1]
        host = Node(session(0), settings=settings, transcript_dir=tmp_path / "host", seat_dir=seats_dir)
        bots = {seat: bot_for(game, seed + bytes([seat])) for seat in range(3)}

        async def run_host(task_status=trio.TASK_STATUS_IGNORED) -> None:
            with host_scope:
                async with trio.open_nursery() as inner:
                    await inner.start(host.serve, listeners)
                    task_status.started()
                    await drive_bot(host, bots[0], if_away="bot", think=1.0)

        await nursery.start(run_host)
        nodes = [host]
        for seat in (1, 2):
            node = Node(session(seat), settings=settings, transcript_dir=tmp_path / f"seat{seat}")
            own = await successor_listeners(node.session, LOOPBACK)
            await nursery.start(functools.partial(node.connect, LOOPBACK, port, listeners=own))
            await host.wait_until(lambda: host.session.lobby_size > seat)
            nodes.append(node)
            nursery.start_soon(functools.partial(drive_bot, node, bots[seat], if_away="bot", think=1.0))
        with trio.fail_after(600):
            await host.wait_until(lambda: host.session.replica is not None and host.session.replica.seq >= 40)
        host_scope.cancel()  # the crash: no goodbye
        successor = nodes[1]
        with trio.fail_after(600):
            await successor.wait_until(lambda: successor.session.replica.sequencer == 1)
        [(path, saved)] = find_saved_seats(seats_dir, host.session.identity)
        assert len(saved.reaches) == 2  # where seats 1 and 2 listen
        restarted = await resume_seat(nursery, identity=host.session.identity, seat_path=path, name="p0", bot=True,
                                      port=0, bind=LOOPBACK, settings=settings)
        with trio.fail_after(600):
            await restarted.finished.wait()
        with trio.fail_after(3600):
            for node in nodes[1:]:
                await node.finished.wait()
        nursery.cancel_scope.cancel()
    old = restarted.session
    assert old.fault is not None and old.fault.code == "ended" and old.fault.culprit is None, old.fault
    assert old.fault.reason.startswith("the others took the table over while this host was away: p1 hosts it now")
    assert successor.session.result is not None
    assert not list(seats_dir.glob("*")), "the old host's game is over for it: its saved seat is forgotten"


async def test_only_the_seat_the_table_would_go_to_asks_its_router_and_everyone_learns_its_address(tmp_path, autojump_clock):
    """Over the internet a successor behind a router needs what a host needs (issue 25, point
    2): the joiner that is the successor by the rule (seat 1: the lowest seat that listens) asks
    its router to forward where it listens, and tells the table the router's address first; the
    other joiner asks nothing. The host and seat 2 hold seat 1's reach with that address first,
    so they would dial it there should the host leave; the mapping goes with the node."""
    game = get_game("probe")
    seed = b"successor-mapping"
    session = functools.partial(seeded_session, game, seed)
    mappers = {seat: ScriptedMapper("UPnP", "203.0.113.7") for seat in (1, 2)}
    said: list[str] = []
    async with trio.open_nursery() as nursery:
        listeners = await open_host_listeners(0, LOOPBACK)
        port = listeners[0].socket.getsockname()[1]
        host = Node(session(0), transcript_dir=tmp_path / "host")
        await nursery.start(host.serve, listeners)
        nodes = [host]
        ports = {}
        for seat in (1, 2):
            node = Node(session(seat), transcript_dir=tmp_path / f"seat{seat}")
            own = await successor_listeners(node.session, LOOPBACK)
            ports[seat] = own[0].socket.getsockname()[1]
            await nursery.start(functools.partial(node.connect, LOOPBACK, port, listeners=own))
            await host.wait_until(lambda: host.session.lobby_size > seat)
            nursery.start_soon(map_port_as_successor, node, [mappers[seat]], ports[seat], said.append)
            nodes.append(node)
        for seat, node in enumerate(nodes):
            # (Bots that think a second a move: the game outlasts the router's answer.)
            nursery.start_soon(functools.partial(drive_bot, node, bot_for(game, seed + bytes([seat])), think=1.0))
        wanted = ("203.0.113.7", ports[1])
        with trio.fail_after(600):
            await host.wait_until(lambda: host.session.reach_of(1)[:1] == (wanted,))
            assert host.session.reach_of(1) == (wanted, (LOOPBACK, ports[1]))  # where it listens, still next
            await nodes[2].wait_until(lambda: nodes[2].session.reach_of(1)[:1] == (wanted,))
            assert nodes[2].session.reach_of(1)[:1] == (wanted,)
        assert [(kind, mapped) for kind, _, mapped in mappers[1].calls][:1] == [("add", ports[1])]
        assert mappers[2].calls == []
        assert said == [f"(your router forwards port {ports[1]} of 203.0.113.7 to this machine by UPnP: should the "
                        "host leave, players on the internet can reach you there)"]
        with trio.fail_after(3600):
            for node in nodes:
                await node.finished.wait()
        nursery.cancel_scope.cancel()
    assert [kind for kind, _, _ in mappers[1].calls] == ["add", "remove"] and mappers[1].mapped == set(), (
        "the mapping goes with the node")
    assert all(node.session.result is not None for node in nodes)


async def test_a_joiner_taking_its_seat_again_asks_its_router_as_the_seat_the_table_would_go_to(
        tmp_path, autojump_clock, monkeypatch):
    """``resume`` of a joiner's seat asks its router as ``join`` does (issue 25, point 2): seat 1,
    crashed and taken again, is the seat the table would go to, so once caught up it asks its
    router to forward where it now listens, and the host learns the router's address first. (The
    table is on loopback, where no router is asked: the test says it is not.)"""
    from p2pgames.net import _resume
    from test_network_faults import play

    monkeypatch.setattr(_resume, "_is_loopback", lambda host: False)
    mapper = ScriptedMapper("UPnP", "203.0.113.7")
    said: list[str] = []

    async def crash_and_take_seat_1_again(table, nursery: trio.Nursery) -> None:
        host = table.nodes[0]
        await host.wait_until(lambda: host.session.replica is not None and host.session.replica.seq >= 5)
        table.kill(1)
        [(path, _)] = find_saved_seats(table.seats, table.identities[1])

        async def take_again(inner: trio.Nursery):
            node = await resume_seat(inner, identity=table.identities[1], seat_path=path, name="bot-1", bot=True,
                                     say=said.append, code=JoinCode(LOOPBACK, table.host_port, None),
                                     port_mappers=[mapper])
            table.nodes[1] = node
            return node

        await nursery.start(table._run_peer, 1, None, take_again)
        with trio.fail_after(600):
            await host.wait_until(lambda: bool(mapper.calls) and host.session.reach_of(1)[:1] == (("203.0.113.7", mapper.calls[0][2]),))

    table = await play(tmp_path, b"resume-maps", during=crash_and_take_seat_1_again)
    assert mapper.calls and mapper.calls[0][0] == "add", "the seat taken again asked its router nothing"
    assert any(line.startswith("(your router forwards port ") for line in said), said
    table.check_finished_and_verified()
