"""Bots as real peers, and whole tables of them over loopback.

:func:`drive_bot` answers a node's decisions with a :class:`~p2pgames.bots.Bot` and leaves cleanly
once the game is over and every peer agreed on the final state. :func:`play_table` runs a complete
table — a host and its joiners, each a :class:`Node` with its own key and its own TCP connection to
127.0.0.1 — which is what ``p2pgames selfplay``, the benchmarks and the multi-peer tests use.
"""

from __future__ import annotations

import functools
import os
import resource
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Awaitable, Callable, Sequence

import trio

from p2pgames.bots import Bot, bot_for
from p2pgames.crypto import Identity, reproducible_bytes
from p2pgames.engine import GameOver
from p2pgames.games import get_game, get_presentation
from p2pgames.net._delay_proxy import DelayProxy, RelayedFrames
from p2pgames.net._node import NetSettings, Node, open_host_listeners
from p2pgames.session import (
    AwayTooLong,
    DecisionNeeded,
    Fault,
    GameEnded,
    Halted,
    LocalError,
    Rejected,
    Session,
    verify_transcript,
)

__all__ = ["drive_bot", "play_table", "TableResult", "SeatResult", "LOOPBACK"]

LOOPBACK = "127.0.0.1"


async def drive_bot(
    node: Node,
    bot: Bot,
    *,
    think: float = 0.0,
    linger: float = 10.0,
    before_move: Callable[[], Awaitable[None]] | None = None,
    if_away: str | None = None,
) -> None:
    """Play ``node``'s seat with ``bot`` until the game ends or stops, then leave cleanly.

    ``think`` seconds pass before each decision (so people can follow bots at a table);
    ``before_move`` (if given) is awaited instead, e.g. to wait until the table is idle. What the
    bot answers when a seat has been away past the grace period: with ``if_away="bot"``, play on
    with a bot in that seat where it can be (it holds nothing secret), else claim the win by
    forfeit where the table plays one, else end the game; with
    ``"end"``, end it; with ``None`` (at a table with people, who choose) nothing.
    """
    session = node.session
    async for event in node.events:
        if isinstance(event, DecisionNeeded):
            if before_move is not None:
                await before_move()
            elif think:
                await trio.sleep(think)
            decision = session.decision(texts=False)
            if decision is None:
                continue  # answered already, or the moment passed
            assert session.game is not None and session.replica is not None and session.seat is not None
            action = bot.choose(session.game, session.replica.state, session.seat, session.knowledge, decision.step)
            node.act(action)
        elif isinstance(event, GameEnded):
            with trio.move_on_after(linger):
                await node.final_agreement.wait()
            if session.is_host:
                await node.wait_until_alone(linger)
            node.leave("game over")
            return
        elif isinstance(event, AwayTooLong) and if_away is not None:
            try:
                if if_away == "bot" and event.can_open:
                    node.open_seat(event.seat)
                elif if_away == "bot" and event.can_forfeit:
                    node.claim_forfeit(event.seat)
                else:
                    node.end_game()
            except LocalError:
                pass  # back meanwhile (or agreed already): play on
        elif isinstance(event, (Halted, Rejected)):
            return


@dataclass
class SeatResult:
    seat: int
    name: str
    bytes_sent: int
    transcript: Path | None
    fault: Fault | None
    verified: bool | None = None
    verification: str = ""
    transcript_note: str | None = None  # the disk would not take the transcript: what became of it


@dataclass
class TableResult:
    """How a table of peers ended: the result every seat computed, faults, and traffic."""

    game: str
    result: GameOver | None
    seats: list[SeatResult] = field(default_factory=list)
    entries: int = 0
    agreed: bool = False
    # Through a delay proxy (play_table's ``delay``): the frames joiners sent their host, and back.
    relayed: tuple[RelayedFrames, RelayedFrames] | None = None

    @property
    def ok(self) -> bool:
        return (
            self.result is not None
            and self.agreed
            and all(seat.fault is None for seat in self.seats)
            and all(seat.verified is not False for seat in self.seats)
        )


def table_session(
    ruleset: Any, seat: int, seed: bytes | None, *, narrate: bool = False, kind: type[Session] = Session,
    protocol: int | None = None,
) -> Session:
    """The bot session :func:`play_table` seats at ``seat`` (named ``bot-SEAT``): its keys and
    randomness from ``seed`` (``None``: fresh), so the same seed plays the same game. ``kind``: a
    subclass of :class:`Session` to make instead (the benchmarks' instrumented one); ``protocol``:
    the one it speaks, if not this version's (:class:`Session`)."""
    random_bytes = os.urandom if seed is None else reproducible_bytes(seed + b"/seat/" + bytes([seat]))
    return kind(
        Identity.generate(random_bytes(32)),
        f"bot-{seat}",
        get_game,
        ruleset=ruleset if seat == 0 else None,
        bot=True,
        random_bytes=random_bytes,
        presentation=get_presentation if narrate else None,
        **({} if protocol is None else {"protocol": protocol}),
    )


async def play_table(
    game_name: str,
    players: int,
    *,
    options: dict[str, Any] | None = None,
    bots: Sequence[Bot] | None = None,
    seed: bytes | None = None,
    transcripts: Path | None = None,
    settings: NetSettings = NetSettings(),
    verify: bool = True,
    sessions: Sequence[Session] | None = None,
    narrate: bool = False,
    think: float = 0.0,
    bot_kinds: Sequence[str | None] = (None,),
    delay: float | None = None,
) -> TableResult:
    """Play one game among ``players`` bot peers over loopback TCP; every seat its own node.

    Joiners connect one after another, so seat *n* is the *n*-th bot. ``sessions`` may replace the
    default sessions (tests use it for misbehaving peers). With ``transcripts`` each seat writes
    its transcript there and, with ``verify``, each is verified afterwards. Unless ``bots`` are
    given, seat *n* plays the kind of bot ``bot_kinds[n]`` names (the last one for the seats
    after; ``None``: the game's default). With ``delay``, every joiner reaches the host through a
    :class:`DelayProxy` that holds each byte ``delay`` seconds each way, and the result says what
    it relayed (:attr:`TableResult.relayed`).
    """
    game = get_game(game_name)
    ruleset = game.ruleset(players, options or {})
    if sessions is None:
        sessions = [table_session(ruleset, seat, seed, narrate=narrate) for seat in range(players)]
    if bots is None:
        kinds = [bot_kinds[min(seat, len(bot_kinds) - 1)] for seat in range(players)]
        bots = [bot_for(game, (seed or os.urandom(16)) + bytes([seat]), kinds[seat]) for seat in range(players)]
    nodes = []
    for seat, session in enumerate(sessions):
        path = None
        if transcripts is not None:
            path = transcripts / f"{game_name}-{(seed or b'').hex()[:8] or os.urandom(4).hex()}-seat{seat}.p2pt"
        nodes.append(Node(session, settings=settings, transcript_path=path))
    for node in nodes:  # every seat's bot runs in this process
        node.launched_bots |= {session.identity.public_key.raw for session in sessions if session.bot}
    listeners = await open_host_listeners(0, LOOPBACK)
    port = listeners[0].socket.getsockname()[1]
    proxy = None if delay is None else DelayProxy(port, delay, LOOPBACK)
    async with trio.open_nursery() as relaying:
        if proxy is not None:
            port = await relaying.start(proxy.run)  # the joiners dial the proxy
        async with trio.open_nursery() as nursery:
            await nursery.start(nodes[0].serve, listeners)
            # A table of bots alone: a seat away past the grace period ends the game (nobody else would).
            nursery.start_soon(functools.partial(drive_bot, nodes[0], bots[0], think=think, if_away="bot"))
            for seat in range(1, players):
                seated = trio.Event()

                async def watch_lobby(expected: int = seat + 1, seated: trio.Event = seated) -> None:
                    while sessions[0].lobby_size < expected and not sessions[0].finished:
                        await trio.sleep(0.01)
                    seated.set()

                nursery.start_soon(watch_lobby)
                await nursery.start(nodes[seat].connect, LOOPBACK, port)
                nursery.start_soon(functools.partial(drive_bot, nodes[seat], bots[seat], think=think, if_away="bot"))
                await seated.wait()
        relaying.cancel_scope.cancel()  # every seat has left: the proxy has nothing more to pass
    result = _table_result(game_name, nodes, transcripts is not None and verify)
    if proxy is not None:
        result.relayed = (proxy.up, proxy.down)
    return result


def play_table_now(game_name: str, players: int, **options: Any) -> TableResult:
    """:func:`play_table`, for callers outside trio (the command line): runs its own trio loop."""
    return trio.run(functools.partial(play_table, game_name, players, **options))


def _table_result(game_name: str, nodes: list[Node], verify: bool) -> TableResult:
    host = nodes[0].session
    result = host.result
    table = TableResult(game_name, result)
    table.entries = host.replica.seq if host.replica is not None else 0
    table.agreed = all(node.session.agreed_through == table.entries - 1 for node in nodes) and table.entries > 0
    for seat, node in enumerate(nodes):
        session = node.session
        seat_result = SeatResult(seat, session.name, node.bytes_sent, node.transcript_path, session.fault)
        seat_result.transcript_note = node.transcript_note
        if session.result != result:
            seat_result.fault = seat_result.fault or Fault(None, "desync", "computed a different result", table.entries)
        if verify and node.transcript_path is not None and node.transcript_path.exists():
            report = verify_transcript(node.transcript_path.read_bytes(), get_game)
            seat_result.verified = report.ok and report.complete
            seat_result.verification = report.describe()
        table.seats.append(seat_result)
    return table


def peak_memory_bytes() -> int:
    """This process's peak resident memory (Linux reports kilobytes)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
