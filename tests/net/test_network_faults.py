"""Real peers over loopback TCP with the network broken on purpose (issue 9).

Each table is a host and two joiners, every peer a :class:`Node` with its own key, the joiners
dialling through the fault-injecting proxy. A joiner is cut at each kind of step, frozen past the
silence timeout, or killed and started again from its saved seat; the host is frozen past the
timeout, or killed and resumed from its saved seat and transcript (on its port, or on another
that its joiners are told); the whole table's process sleeps. Every game must finish, with every
transcript verified and nobody blamed. All on trio's autojump clock: timeouts and backoff cost virtual time only.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import trio

from faultproxy import LOOPBACK, FaultProxy, Link, kind_is
from p2pgames.bots import bot_for
from p2pgames.crypto import Identity, reproducible_bytes
from p2pgames.games import get_game
from p2pgames.net import JoinCode, Node, drive_bot, open_host_listeners
from p2pgames.net._resume import find_saved_seats, resume_seat
from p2pgames.session import LocalError, Session, open_envelope, verify_transcript

GAME = "probe"
PLAYERS = 3


class Table:
    """A probe table whose joiners dial through a proxy; each peer runs in its own cancel scope,
    so a test can kill one (no goodbye, like ``kill -9``) and start it again."""

    def __init__(self, tmp_path: Path, seed: bytes, on_link=None) -> None:
        self.tmp = tmp_path
        self.seed = seed
        self.game = get_game(GAME)
        self.ruleset = self.game.ruleset(PLAYERS, {})
        self.identities = [Identity.generate(reproducible_bytes(seed + bytes([seat]))(32)) for seat in range(PLAYERS)]
        self.nodes: list[Node] = []
        self.scopes: list[trio.CancelScope] = []
        self.on_link = on_link
        self.proxy: FaultProxy | None = None
        self.host_port = 0
        self.transcripts = tmp_path / "transcripts"
        self.seats = tmp_path / "seats"

    def session(self, seat: int) -> Session:
        random_bytes = reproducible_bytes(self.seed + b"/rng/" + bytes([seat]))
        return Session(
            self.identities[seat], f"bot-{seat}", get_game, ruleset=self.ruleset if seat == 0 else None,
            bot=True, random_bytes=random_bytes,
        )

    async def _run_peer(self, seat: int, node: Node | None, start, task_status=trio.TASK_STATUS_IGNORED) -> None:
        """Run ``seat``'s peer in a scope of its own: ``start(nursery)`` starts its node (and
        returns it, when ``node`` is not known beforehand), then a bot plays it."""
        scope = trio.CancelScope()
        self.scopes[seat] = scope
        with scope:
            async with trio.open_nursery() as nursery:
                node = await start(nursery) or node
                task_status.started()
                await drive_bot(node, bot_for(self.game, self.seed + bytes([seat])), if_away="end")

    async def start(self, nursery: trio.Nursery) -> None:
        listeners = await open_host_listeners(0, LOOPBACK)
        self.host_port = listeners[0].socket.getsockname()[1]
        self.proxy = FaultProxy(self.host_port, on_link=self.on_link)
        await nursery.start(self.proxy.run)
        self.nodes = [None] * PLAYERS  # type: ignore[list-item]
        self.scopes = [trio.CancelScope() for _ in range(PLAYERS)]
        host = Node(self.session(0), transcript_dir=self.transcripts, seat_dir=self.seats)
        host.address = (LOOPBACK, self.host_port)
        self.nodes[0] = host
        await nursery.start(self._run_peer, 0, host, lambda inner: inner.start(host.serve, listeners))
        for seat in (1, 2):
            node = Node(self.session(seat), transcript_dir=self.transcripts, seat_dir=self.seats)
            self.nodes[seat] = node
            port = self.proxy.port
            await nursery.start(self._run_peer, seat, node, lambda inner, node=node, port=port: inner.start(node.connect, LOOPBACK, port))
            await host.wait_until(lambda: host.session.lobby_size > seat)  # seats in dialling order

    def kill(self, seat: int) -> None:
        """Stop ``seat``'s peer at once: no goodbye, its files closed as a dying process leaves them."""
        self.scopes[seat].cancel()

    async def restart(self, nursery: trio.Nursery, seat: int, *, port: int | None = None) -> Node:
        """Start ``seat`` again from its saved seat (a new node, the same identity): the host on
        its port (or ``port``; 0: any free one), a joiner through the proxy."""
        found = find_saved_seats(self.seats, self.identities[seat])
        assert found, f"seat {seat} saved nothing"
        path, saved = found[0]  # the newest
        assert saved.seat == seat
        where = dict(port=self.host_port if port is None else port, bind=LOOPBACK) if seat == 0 else dict(code=JoinCode(LOOPBACK, self.proxy.port, None))

        async def start(inner: trio.Nursery) -> Node:
            node = await resume_seat(inner, identity=self.identities[seat], seat_path=path, name=f"bot-{seat}", bot=True, **where)
            self.nodes[seat] = node
            return node

        await nursery.start(self._run_peer, seat, None, start)
        return self.nodes[seat]

    async def finish(self) -> None:
        with trio.fail_after(600):
            for seat in range(PLAYERS):
                await self.nodes[seat].finished.wait()

    def check_finished_and_verified(self) -> None:
        results = [node.session.result for node in self.nodes]
        assert results[0] is not None and results == [results[0]] * PLAYERS, [n.session.fault for n in self.nodes]
        for seat, node in enumerate(self.nodes):
            assert node.session.fault is None, (seat, node.session.fault)
            report = verify_transcript(node.transcript_path.read_bytes(), get_game)
            assert report.ok and report.complete, (seat, report.describe())
        transcripts = sorted(self.transcripts.iterdir())
        assert len(transcripts) == PLAYERS, f"a resumed seat leaves one transcript, not two: {transcripts}"
        assert not list(self.seats.glob("*")), "saved seats are deleted once the game is over"


async def play(tmp_path: Path, seed: bytes, on_link=None, during=None) -> Table:
    table = Table(tmp_path, seed, on_link)
    async with trio.open_nursery() as nursery:
        await table.start(nursery)
        if during is not None:
            await during(table, nursery)
        await table.finish()
        nursery.cancel_scope.cancel()
    return table


# -- a joiner cut at each kind of step -----------------------------------------------------------


@pytest.mark.parametrize("kind, t", [
    ("submit", "commit"), ("submit", "open"), ("submit", "pass"), ("submit", "keys"), ("submit", "act"),
    ("submit", "audit"), ("ack", None),
])
async def test_a_joiner_cut_just_before_a_step_rejoins_and_the_game_finishes(tmp_path, autojump_clock, kind, t):
    def cut_seat_1(link: Link) -> None:
        if link.number == 0:  # seat 1's first connection
            link.cut_before("up", kind_is(kind, t=t) if t else kind_is(kind))

    table = await play(tmp_path, b"cut-" + kind.encode() + (t or "").encode(), cut_seat_1)
    first = table.proxy.links[0]
    assert first.closed.is_set() and not any((kind_is(kind, t=t) if t else kind_is(kind))(p) for p in first.frames("up"))
    assert len(table.proxy.links) >= 3, "seat 1 dialled again"
    table.check_finished_and_verified()


def _an_answer_in_a_reaction_window(payload: bytes) -> bool:
    """A seat's answer to the probe's reaction window (cheer for the round's winner, or not)."""
    if not kind_is("submit", t="act")(payload):
        return False
    action = open_envelope(payload).body["body"]["action"]
    return isinstance(action, tuple) and action[:1] == ("cheer",)  # canonical msgpack: arrays are tuples


async def test_a_joiner_cut_just_before_its_answer_in_a_reaction_window_rejoins(tmp_path, autojump_clock):
    def cut_seat_1(link: Link) -> None:
        if link.number == 0:
            link.cut_before("up", _an_answer_in_a_reaction_window)

    table = await play(tmp_path, b"cut-reaction-2", cut_seat_1)  # (a seed with which seat 1 answers one)
    first = table.proxy.links[0]
    assert first.closed.is_set() and not any(map(_an_answer_in_a_reaction_window, first.frames("up")))
    assert len(table.proxy.links) > 2, "seat 1 was never cut: it answered in no reaction window with this seed"
    assert any(map(_an_answer_in_a_reaction_window, table.proxy.links[2].frames("up"))), "answered once back"
    table.check_finished_and_verified()


async def test_a_joiner_cut_while_the_host_is_sending_it_entries_rejoins(tmp_path, autojump_clock):
    def cut_seat_2_down(link: Link) -> None:
        if link.number == 1:
            link.cut_before("down", kind_is("entry", t="keys"))

    table = await play(tmp_path, b"cut-down", cut_seat_2_down)
    table.check_finished_and_verified()


async def test_a_link_that_goes_silent_past_the_timeout_is_dropped_and_the_joiner_comes_back(tmp_path, autojump_clock):
    """Nothing crosses the link for 45 s (a frozen laptop, a dead route): the host drops the
    connection after 30 s and calls the seat away; the joiner hears nothing from the host either,
    dials again, and rejoins. Nobody is blamed."""
    async def freeze(table: Table, nursery: trio.Nursery) -> None:
        link = await table.proxy.wait_for_link(0)
        await link.wait_frame("up", kind_is("submit", t="keys"))
        link.stall("both")
        await trio.sleep(45)
        link.resume("both")

    table = await play(tmp_path, b"frozen", during=freeze)
    table.check_finished_and_verified()


async def test_a_host_frozen_past_the_timeout_is_dialled_again_and_nobody_is_blamed(tmp_path, autojump_clock):
    """What the joiners see of a host frozen for 45 s (``kill -STOP``, a laptop lid): nothing
    from it on any connection, and a new connection is taken but never answered (the kernel
    accepts for a stopped process). They drop it after 30 s and dial again until it answers; it
    wakes to their closed connections and their rejoins. Nobody is blamed; the game finishes."""
    frozen: list[Link] = []
    freezing = False

    def freeze_new_links(link: Link) -> None:
        if freezing:
            link.stall("both")
            frozen.append(link)

    async def freeze_the_host(table: Table, nursery: trio.Nursery) -> None:
        nonlocal freezing
        link = await table.proxy.wait_for_link(0)
        await link.wait_frame("down", kind_is("entry", t="keys"))
        freezing = True
        for link in table.proxy.links:
            freeze_new_links(link)
        await trio.sleep(45)
        freezing = False
        for link in frozen:
            link.resume("both")

    table = await play(tmp_path, b"host-frozen", freeze_new_links, during=freeze_the_host)
    dialled_while_frozen = {link.number for link in frozen} - {0, 1}
    assert len(dialled_while_frozen) >= 2, "both joiners dialled again while the host was frozen"
    table.check_finished_and_verified()


async def test_peers_that_were_frozen_themselves_judge_nobody_on_the_time_they_lost(tmp_path, autojump_clock):
    """Every peer's process stops for 45 s at once (this machine slept): on waking, each one's
    last news of the others is 45 s old, but the time was its own, not theirs. Nobody is dropped
    (no connection is made again), nobody blamed, and the game finishes."""
    async def sleep_the_machine(table: Table, nursery: trio.Nursery) -> None:
        link = await table.proxy.wait_for_link(1)
        await link.wait_frame("up", kind_is("submit", t="keys"))
        autojump_clock.jump(45)

    table = await play(tmp_path, b"all-frozen", during=sleep_the_machine)
    assert len(table.proxy.links) == 2, "no joiner was dropped and dialled again"
    table.check_finished_and_verified()


# -- processes killed and started again ------------------------------------------------------------


@pytest.mark.parametrize("seat, link, direction", [
    (2, 1, "up"),  # seat 2, killed as it sends its first keys; started again from its saved seat
    (0, 0, "down"),  # the host, killed as it sends its first keys entry; resumed on its port
])
async def test_a_peer_killed_mid_game_and_started_again_5_s_later_finishes_the_game(tmp_path, autojump_clock, seat, link, direction):
    async def kill_and_restart(table: Table, nursery: trio.Nursery) -> None:
        watched = await table.proxy.wait_for_link(link)
        await watched.wait_frame(direction, kind_is("submit" if direction == "up" else "entry", t="keys"))
        table.kill(seat)
        await trio.sleep(5)  # the others wait (the joiners dial a host that is gone, and are refused)
        await table.restart(nursery, seat)

    table = await play(tmp_path, b"kill-" + bytes([seat]), during=kill_and_restart)
    assert table.nodes[seat].session.resumed is not None, "the seat that finished is the restarted one"
    table.check_finished_and_verified()


async def test_a_host_resumed_on_another_port_is_followed_by_joiners_given_its_new_code(tmp_path, autojump_clock):
    """The host comes back on another port (its old one taken, another machine): the joiners,
    still running, are given its new join code (``code NEWCODE`` at the prompt) and follow it;
    a code with another key is refused and changes nothing. Nothing answers at the old port, so
    the game can only finish if they followed."""
    async def kill_and_move(table: Table, nursery: trio.Nursery) -> None:
        watched = await table.proxy.wait_for_link(0)
        await watched.wait_frame("down", kind_is("entry", t="keys"))
        table.kill(0)
        await trio.sleep(5)
        host = await table.restart(nursery, 0, port=0)
        new_port = host.address[1]
        assert new_port != table.host_port
        stranger = Identity.generate(reproducible_bytes(b"stranger")(32)).public_key.fingerprint()
        for seat in (1, 2):
            joiner = table.nodes[seat]
            with pytest.raises(LocalError, match=f"^the join code's key {stranger} is not the key of your game's host"):
                joiner.redirect(JoinCode(LOOPBACK, new_port, stranger))
            assert joiner.address == (LOOPBACK, table.proxy.port), "a refused code changes nothing"
            joiner.redirect(JoinCode(LOOPBACK, new_port, table.identities[0].public_key.fingerprint()))
            assert joiner.address == (LOOPBACK, new_port)
        with pytest.raises(LocalError, match="^you are the host"):
            host.redirect(JoinCode(LOOPBACK, new_port, None))

    table = await play(tmp_path, b"moved", during=kill_and_move)
    assert table.nodes[0].session.resumed is not None
    table.check_finished_and_verified()
    with pytest.raises(LocalError, match="^the game is over"):
        table.nodes[1].redirect(JoinCode(LOOPBACK, table.nodes[0].address[1], None))
