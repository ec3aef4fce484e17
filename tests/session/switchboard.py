"""An in-memory network for sessions: frames delivered in order, no sockets, no time."""

from __future__ import annotations

from collections import deque

from p2pgames.bots import RandomBot, bot_for
from p2pgames.crypto import Identity, reproducible_bytes
from p2pgames.games import get_game
from p2pgames.session import HOST_CONNECTION, DecisionNeeded, Session, encode_record


class Switchboard:
    """Host + joiners wired by in-memory queues. ``tamper(seat, data)`` may rewrite joiner frames."""

    def __init__(
        self, game_name: str, players: int, *, seed: bytes = b"t", options=None, bots=None, narrate=False,
        loader=get_game,
    ):
        game = loader(game_name)
        self.game = game
        ruleset = game.ruleset(players, options or {})
        self.sessions: list[Session] = []
        self.bots = []
        for seat in range(players):
            rng = reproducible_bytes(seed + bytes([seat]))
            identity = Identity.generate(rng(32))
            session = Session(
                identity, f"p{seat}", loader,
                ruleset=ruleset if seat == 0 else None,
                random_bytes=rng, narrate=narrate, bot=True,
            )
            self.sessions.append(session)
            self.bots.append(bot_for(game, seed + bytes([seat])) if bots is None else bots[seat])
        self.queue: deque[tuple[str, int, int, bytes]] = deque()  # (direction, joiner seat, conn, data)
        self.tamper = None
        self.events: list[list] = [[] for _ in range(players)]
        self.transcripts: list[bytearray] = [bytearray() for _ in range(players)]
        self.received: list[list[bytes]] = [[] for _ in range(players)]  # every frame each seat got
        self.delivered = 0
        for seat in range(1, players):
            self.sessions[0].connected(seat)
            self.sessions[seat].connected(HOST_CONNECTION)
        self.flush()

    @property
    def host(self) -> Session:
        return self.sessions[0]

    def flush(self) -> None:
        for seat, session in enumerate(self.sessions):
            for connection, data in session.take_outgoing():
                if seat == 0:
                    self.queue.append(("down", connection, connection, data))
                else:
                    self.queue.append(("up", seat, connection, data))
            for record in session.take_transcript():
                self.transcripts[seat] += encode_record(record)

    def run(self, max_frames: int = 2_000_000, play: bool = True, until=None) -> None:
        """Deliver frames (and let bots decide) until nothing moves, or until ``until()`` holds."""
        while True:
            if until is not None and until():
                return
            self.flush()
            if self.queue:
                direction, seat, connection, data = self.queue.popleft()
                if direction == "up":
                    if self.tamper is not None:
                        data = self.tamper(seat, data)
                        if data is None:
                            continue
                    self.received[0].append(data)
                    self.sessions[0].receive(seat, data)
                else:
                    self.received[seat].append(data)
                    self.sessions[seat].receive(HOST_CONNECTION, data)
                self.delivered += 1
                if self.delivered > max_frames:
                    raise AssertionError("too many frames")
                continue
            if play and self.decide():
                continue
            return

    def decide(self) -> bool:
        moved = False
        for seat, session in enumerate(self.sessions):
            for event in session.take_events():
                self.events[seat].append(event)
            decision = session.decision(texts=False)
            if decision is not None:
                replica = session.replica
                action = self.bots[seat].choose(session.game, replica.state, seat, session.knowledge, decision.step)
                session.act(action)
                moved = True
        return moved
