"""Chaos: seats gone for good at random moments, over real loopback TCP (issue 25; SPEC §B14–§B16).

Each table is real :class:`Node` peers, each playing its seat with a bot and listening where the
others can dial it should the table be handed to it (§B15); every peer answers the grace-period
question as a ``--bot`` peer does ("play on with a bot" where a bot can take the seat). At an entry
drawn from a seeded generator one seat — the host or a joiner, also drawn — is killed for good (its
peer's tasks cancelled: no goodbye, as with ``kill -9``). The others must finish the game: a
joiner's seat rebuilt from its escrow, the host's taken over by its successor, a bot playing it;
every remaining peer's transcript verifies, says from which entry a bot played the seat (and, for
the host, who hosted from when) and blames nobody. At these tables of three or four there is no
moment at which the SPEC lets no bot take a vanished seat: every table plays on.

All on trio's autojump clock: grace periods and redials cost virtual time only. Bounded: a fixed
number of tables, each a short game.
"""

from __future__ import annotations

import functools
import random

import trio

from faultproxy import LOOPBACK
from p2pgames.bots import bot_for
from p2pgames.crypto import Identity, reproducible_bytes
from p2pgames.games import get_game
from p2pgames.net import Node, drive_bot, open_host_listeners
from p2pgames.net._launch import successor_listeners
from p2pgames.net._node import NetSettings
from p2pgames.session import Session, verify_transcript

SETTINGS = NetSettings(away_grace=5.0)
TABLES = [("steamcourt", 4), ("beltpunk", 4), ("astonishing", 3)]


class ChaosTable:
    """A table of real peers; each peer runs in a cancel scope of its own, so one can be killed."""

    def __init__(self, tmp_path, game_name: str, players: int, seed: bytes) -> None:
        self.game = get_game(game_name)
        self.players = players
        self.seed = seed
        self.ruleset = self.game.ruleset(players, {})
        self.transcripts = tmp_path / "transcripts"
        self.nodes: list[Node] = []
        self.scopes = [trio.CancelScope() for _ in range(players)]

    def session(self, seat: int) -> Session:
        return Session(
            Identity.generate(reproducible_bytes(self.seed + bytes([seat]))(32)), f"p{seat}", get_game,
            ruleset=self.ruleset if seat == 0 else None, bot=True,
            random_bytes=reproducible_bytes(self.seed + b"/rng/" + bytes([seat])),
        )

    async def _run_peer(self, seat: int, node: Node, start, task_status=trio.TASK_STATUS_IGNORED) -> None:
        with self.scopes[seat]:
            async with trio.open_nursery() as nursery:
                await start(nursery)
                task_status.started()
                await drive_bot(node, bot_for(self.game, self.seed + bytes([seat])), if_away="bot")

    async def start(self, nursery: trio.Nursery) -> None:
        listeners = await open_host_listeners(0, LOOPBACK)
        port = listeners[0].socket.getsockname()[1]
        host = Node(self.session(0), settings=SETTINGS, transcript_dir=self.transcripts)
        self.nodes.append(host)
        await nursery.start(self._run_peer, 0, host, lambda inner: inner.start(host.serve, listeners))
        for seat in range(1, self.players):
            node = Node(self.session(seat), settings=SETTINGS, transcript_dir=self.transcripts)
            own = await successor_listeners(node.session, LOOPBACK)
            self.nodes.append(node)
            await nursery.start(self._run_peer, seat, node,
                                lambda inner, node=node, own=own: inner.start(
                                    functools.partial(node.connect, LOOPBACK, port, listeners=own)))
            await host.wait_until(lambda: host.session.lobby_size > seat)  # seated in dialling order

    def kill(self, seat: int) -> None:
        """Seat ``seat``'s peer stops at once, for good: no goodbye."""
        self.scopes[seat].cancel()


async def play_and_kill(tmp_path, game_name: str, players: int, seed: bytes, at: int, gone: int) -> ChaosTable:
    """Play a table; once its host has sequenced ``at`` entries, kill seat ``gone``; wait until every
    other peer has finished (or the game ended before ``at``)."""
    table = ChaosTable(tmp_path, game_name, players, seed)
    async with trio.open_nursery() as nursery:
        await table.start(nursery)
        host = table.nodes[0]
        with trio.fail_after(3600):
            await host.wait_until(lambda: host.session.result is not None
                                  or host.session.replica is not None and host.session.replica.seq >= at)
        if host.session.result is None:
            table.kill(gone)
        with trio.fail_after(36_000):
            for seat, node in enumerate(table.nodes):
                if seat != gone:
                    await node.finished.wait()
        nursery.cancel_scope.cancel()
    return table


async def test_seats_gone_for_good_at_random_moments_over_real_tcp(tmp_path, autojump_clock):
    rng = random.Random(b"departure-chaos")
    played_on = {"host": 0, "joiner": 0}
    for number, (game_name, players) in enumerate(TABLES * 2):
        at, gone = rng.randrange(5, 120), rng.randrange(players)
        table = await play_and_kill(tmp_path / f"table-{number}", game_name, players,
                                    b"departure-chaos" + bytes([number]), at, gone)
        remaining = [(seat, node) for seat, node in enumerate(table.nodes) if seat != gone]
        sessions = [node.session for _, node in remaining]
        assert all(session.fault is None for session in sessions), (
            game_name, at, gone, [(session.fault, session.play_on_problem(gone)) for session in sessions])
        results = {repr(session.result) for session in sessions}
        assert len(results) == 1 and None not in (session.result for session in sessions), (game_name, at, gone)
        for seat, node in remaining:
            report = verify_transcript(node.transcript_path.read_bytes(), get_game)
            assert report.ok and report.complete, (game_name, at, gone, seat, report.describe())
            assert gone in report.open_seats, (game_name, at, gone, seat, report.describe())
            assert report.stopped is None, report.describe()  # nobody blamed
            if gone == 0:
                assert report.hosts[-1][1] != 0, report.describe()
        played_on["host" if gone == 0 else "joiner"] += 1
    assert played_on["host"] >= 1 and played_on["joiner"] >= 2, played_on
