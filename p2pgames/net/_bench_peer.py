"""One benchmark peer in its own process: plays a seat and reports timings as JSON on stdout.

Run by ``p2pgames.benchmarks`` as ``python -m p2pgames.net._bench_peer ROLE ...``; not for people.
The host prints ``PORT <n>`` on stdout first so the parent can start the joiners. Times are
``time.monotonic()`` (system-wide on Linux), so the parent can compare them across processes.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import trio

from p2pgames import PROTOCOL_VERSION
from p2pgames.bots import bot_for
from p2pgames.crypto import Identity, reproducible_bytes
from p2pgames.engine import Disclose
from p2pgames.games import get_game
from p2pgames.net._node import Node, open_host_listeners
from p2pgames.net._players import LOOPBACK, drive_bot, peak_memory_bytes
from p2pgames.session import Session


class InstrumentedSession(Session):
    """A session that notes when it submits, what each entry was, when agreement came, and when
    the game's first deals began and could be read (the first-deal round trips)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.submitted: dict[int, float] = {}  # our counter -> time
        self.entries: list[tuple[int, int, int, str]] = []  # seq, author, counter, kind
        self.act_kinds: dict[int, str] = {}  # seq -> the wire kind of the action an act entry holds
        self.decision_ready: list[int] = []  # seqs after which the log waits for a person again
        self.agreed_at: dict[int, float] = {}
        self.applied_at: dict[int, float] = {}  # seq -> when this peer applied it
        self.hand_known_at: float | None = None
        self.hand_size = 0  # how many cards our hand held when we could first read it
        self.deal_started_at: float | None = None
        self.act_submitted_at: float | None = None  # our first move (the deal bench: "audit now")
        self.audit_done_at: float | None = None
        # The game's first deals (several when several tables deal at once, begun together), from
        # the moment their card step began here: deal -> (the entry after which it began, when we
        # applied that entry).
        self.deals_began: dict[int, tuple[int, float]] = {}
        self.deal_holders: dict[int, tuple[int, ...]] = {}
        self._to_read: dict[int, set[int]] = {}  # deal -> its slots shown to us, not yet readable
        # deal -> (the entry after which we could read every slot of it shown to us, when): only
        # for deals that show us some card (our hand, when the deal deals hands).
        self.deals_read: dict[int, tuple[int, float]] = {}

    def _submit(self, body: dict, decision: bool = False) -> None:
        now = time.monotonic()
        if body["t"] == "pass" and self.deal_started_at is None:
            self.deal_started_at = now
        if body["t"] == "act" and self.act_submitted_at is None:
            self.act_submitted_at = now
        self.submitted[self.replica.counters[self.seat]] = now  # type: ignore[index, union-attr]
        super()._submit(body, decision)

    def _after_apply(self, applied: Any) -> None:
        self.applied_at[applied.seq] = time.monotonic()
        submission = applied.submission
        self.entries.append((applied.seq, submission.seat, submission.counter, submission.kind))
        if submission.kind == "act":
            action = submission.body.get("action")
            if isinstance(action, (list, tuple)) and action and isinstance(action[0], str):
                self.act_kinds[applied.seq] = action[0]
        super()._after_apply(applied)
        if self.replica is not None and self.replica.waiting_on_decision():
            self.decision_ready.append(applied.seq)
        if self.audit_done_at is None and self.replica is not None and self.replica.audits:
            self.audit_done_at = time.monotonic()
        if self.replica is not None:
            self._note_deals(applied.seq)
        if self.hand_known_at is None and self.replica is not None:
            hands = getattr(self.replica.state, "hands", None)
            if hands and hands[self.seat] and all(slot in self.knowledge for slot in hands[self.seat]):
                self.hand_known_at = time.monotonic()
                self.hand_size = len(hands[self.seat])

    @property
    def first_deals_read(self) -> bool:
        """Whether the game's first deals began here and we can read every card they show us."""
        return bool(self.deals_began) and not self._to_read

    def _note_deals(self, seq: int) -> None:
        """Note the game's first deals (those of its first card step) if they began with entry
        ``seq``, with the slots their card step shows us, and those we can read since it."""
        replica = self.replica
        assert replica is not None
        for deal in replica.deals.keys() if not self.deals_began else ():
            crypto = replica.deals[deal]
            self.deals_began[deal] = (seq, self.applied_at[seq])
            self.deal_holders[deal] = crypto.holders
            dealt = range(crypto.first_slot, crypto.first_slot + crypto.size)
            operations = getattr(replica.phase, "operations", ())
            shown = {
                slot for operation in operations if isinstance(operation, Disclose) and operation.to == self.seat
                for slot in operation.slots if slot in dealt
            }
            if shown:
                self._to_read[deal] = shown
        for deal, unread in list(self._to_read.items()):
            unread.difference_update(self.knowledge)
            if not unread:
                self.deals_read[deal] = (seq, time.monotonic())
                del self._to_read[deal]

    def _check_agreement(self) -> None:
        before = self.agreed_through
        super()._check_agreement()
        now = time.monotonic()
        for seq in range(before + 1, self.agreed_through + 1):
            self.agreed_at[seq] = now


async def _paced_bot(node: Node, bot: Any) -> None:
    """``drive_bot``, but each move waits until the table is idle and everything agreed.

    So a move's latency is measured alone, not queued behind other peers' work: the figure
    ``scripts/bench`` reports as "one event".
    """
    session = node.session

    async def until_idle() -> None:
        if session.replica is not None:
            await node.wait_agreed(session.replica.seq - 1)
        await trio.sleep(0.02)  # let every peer finish what the last entry asked of it

    await drive_bot(node, bot, before_move=until_idle)


def paced_table_in_one_process(seed: str, players: int = 4, game: str = "beltpunk") -> list[dict]:
    """Play one paced game with every peer in this process (real TCP over loopback); reports.

    Each move waits until the table is idle (see :func:`_paced_bot`), so a move's latency is the
    protocol's own: every peer's work for it, the frames and the loopback hops, with no other
    process competing for the cores.
    """

    async def main() -> list[dict]:
        rules = get_game(game)
        ruleset = rules.ruleset(players)
        sessions = []
        for seat in range(players):
            random_bytes = reproducible_bytes(f"{seed}/{seat}".encode())
            sessions.append(InstrumentedSession(
                Identity.generate(random_bytes(32)), f"bench-{seat}", get_game,
                ruleset=ruleset if seat == 0 else None, bot=True, random_bytes=random_bytes,
            ))
        nodes = [Node(session) for session in sessions]
        listeners = await open_host_listeners(0, LOOPBACK)
        port = listeners[0].socket.getsockname()[1]
        async with trio.open_nursery() as nursery:
            await nursery.start(nodes[0].serve, listeners)
            nursery.start_soon(_paced_bot, nodes[0], bot_for(rules, f"{seed}/0".encode()))
            for seat in range(1, players):
                await nursery.start(nodes[seat].connect, LOOPBACK, port)
                nursery.start_soon(_paced_bot, nodes[seat], bot_for(rules, f"{seed}/{seat}".encode()))
                while sessions[0].lobby_size < seat + 1:
                    await trio.sleep(0.001)
            while not all(session.finished for session in sessions):
                await trio.sleep(0.01)
            nursery.cancel_scope.cancel()
        for session in sessions:
            if session.stage != "closed" and session.fault is not None:
                raise RuntimeError(f"benchmark table stopped: {session.fault.describe(session.names)}")
        return [
            {
                "seat": s.seat, "submitted": s.submitted, "entries": s.entries, "agreed_at": s.agreed_at,
                "act_kinds": s.act_kinds, "decision_ready": s.decision_ready,
            }
            for s in sessions
        ]

    return trio.run(main)


async def _run(args: argparse.Namespace) -> dict:
    game = get_game(args.game)
    seed = args.seed.encode()
    options = json.loads(args.options)
    ruleset = game.ruleset(args.players, options, open_seats=not args.no_bot_seats) if args.role == "host" else None

    def new_node() -> Node:
        random_bytes = reproducible_bytes(seed + f"/{args.seat}".encode())
        return Node(InstrumentedSession(
            Identity.generate(random_bytes(32)), f"bench-{args.seat}", get_game,
            ruleset=ruleset, bot=True, random_bytes=random_bytes, protocol=args.protocol,
        ), transcript_dir=Path(args.transcript_dir) if args.transcript_dir else None)

    node = new_node()
    bot = bot_for(game, seed + bytes([args.seat]))
    started = time.monotonic()
    fault_when_done = None
    async with trio.open_nursery() as nursery:
        if args.role == "host":
            listeners = await open_host_listeners(0, LOOPBACK)
            print(f"PORT {listeners[0].socket.getsockname()[1]}", flush=True)
            await nursery.start(node.serve, listeners)
        else:
            while True:
                await nursery.start(node.connect, LOOPBACK, args.port)
                await node.wait_until(lambda: node.session.seated or node.session.stage != "lobby")
                if node.session.stage != "closed" or node.session.rejection is not None:
                    break  # seated (or refused, which the report shows)
                # Hung up on before a seat: every joiner dials at once from loopback, and a host
                # holds only a few connections from one address before their hellos. Again.
                await node.finished.wait()
                await trio.sleep(0.05)
                node = new_node()
        session = node.session
        if args.stop_after == "deal":
            # No bot: the deal needs none (its passes and keys are the session's own duties), and
            # a bot's first move could leave us waiting for entries from a host that has gone.
            # Done when we hold our hand and the deal is over for everyone (the table waits for
            # the first decision); what happens after, others leaving first, is not measured.
            # Woken by each agreement (not by polling, which would take CPU from the deal).
            while not session.finished and not (
                session.hand_known_at is not None and session.replica.waiting_on_decision()
            ):
                await node.wait_agreed(session.agreed_through + 1)
            fault_when_done = session.fault
            with trio.move_on_after(2):
                await node.wait_agreed(session.replica.seq - 1 if session.replica else 0)
            nursery.cancel_scope.cancel()
        elif args.stop_after == "paced":
            await _paced_bot(node, bot)
            fault_when_done = session.fault
            nursery.cancel_scope.cancel()
        else:
            await drive_bot(node, bot)
            fault_when_done = session.fault
            nursery.cancel_scope.cancel()
    return {
        "seat": session.seat,
        "started": started,
        "wall": time.monotonic() - started,
        "submitted": session.submitted,
        "entries": session.entries,
        "agreed_at": session.agreed_at,
        "applied_at": session.applied_at,
        "deal_started_at": session.deal_started_at,
        "hand_known_at": session.hand_known_at,
        "hand_size": session.hand_size,
        "act_submitted_at": session.act_submitted_at,
        "audit_done_at": session.audit_done_at,
        "bytes_sent": node.bytes_sent,
        "peak_memory": peak_memory_bytes(),
        "fault": None if fault_when_done is None else fault_when_done.describe(session.names),
        "stage": session.stage,
        "result": None if session.result is None else list(session.result.scores),
        "transcript": None if node.transcript_path is None else str(node.transcript_path),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="p2pgames.net._bench_peer")
    parser.add_argument("role", choices=("host", "join"))
    parser.add_argument("--game", default="beltpunk")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seat", type=int, default=0)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--options", default="{}", help="ruleset options as JSON")
    parser.add_argument("--transcript-dir", help="write this peer's transcript into this folder")
    parser.add_argument("--stop-after", choices=("deal", "game", "paced"), default="game")
    parser.add_argument("--no-bot-seats", action="store_true", help="host a table with no open seats (so no escrow)")
    parser.add_argument("--protocol", type=int, default=PROTOCOL_VERSION, help="the protocol the peer speaks")
    args = parser.parse_args(argv)
    profile_to = os.environ.get("P2PGAMES_BENCH_PROFILE")
    if profile_to:
        # For finding where a peer spends its time: one profile file per seat label.
        import cProfile

        profiler = cProfile.Profile()
        report = profiler.runcall(trio.run, _run, args)
        profiler.dump_stats(f"{profile_to}.{args.seat}")
    else:
        report = trio.run(_run, args)
    print("REPORT " + json.dumps(report), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
