"""Steam Torpedo cheaters: real sessions behind real nodes that cheat at Steam Torpedo in one way.

Each is an honest :class:`Session` (see :mod:`cheaters`) playing with the heuristic bot until the
first moment its cheat makes sense; then, instead of the move its bot chose, it sends a validly
signed submission with the cheat (with the right counter), once. Until then it may steer its own
play (a legal move instead of its bot's) toward the moment its cheat needs.

A joiner sends the cheat to the host like any submission. A host can't send its cheat through its
own session (which checks its own moves before sequencing them), so a cheating host signs the
submission, wraps it in an entry of its own and broadcasts that, as a host running its own code
would: the joiners check every entry's submission before applying it.

The cheats (the acceptance list of issue 8):

=============================  ===============================================================
:class:`BadBuild`              a build with a duplicate tile, or without a control room,
                               committed to and opened
:class:`OtherBuild`            commits to one build and opens another (legal) one
:class:`FirstTurnTrigger`      triggers an effect during its first turn
:class:`TooFastManeuver`       a maneuver one sector longer than its manned engines allow
:class:`UnmannedCounter`       reacts with a counter compartment no crew member of its mans
:class:`DamageOutsideHit`      as defender, puts the damage on a compartment outside the
                               location hit
:class:`MoveIntoDestroyed`     moves a ready crew member (or the captain, by his free move) into
                               a destroyed compartment next to it
=============================  ===============================================================
"""

from __future__ import annotations

from typing import Any

from cheaters import GameCheater

from p2pgames.games.torpedo import turn
from p2pgames.games.torpedo.actions import Assign, Build, CaptainMove, Maneuver, Move, React, Trigger
from p2pgames.games.torpedo.build import BUILD_SIZE, sample_builds, starter_build
from p2pgames.games.torpedo.effects import CREW_PER_SEAT, destroyed, is_blocked, is_manned, seat_crew, speed
from p2pgames.games.torpedo.geometry import ADJACENT, CONTROL, POSITIONS, column, location_positions, row
from p2pgames.games.torpedo.rules import Phase, TorpedoState
from p2pgames.games.torpedo.tiles import TILESET

TILES = TILESET.tiles


class TorpedoCheater(GameCheater):
    """A Steam Torpedo player who replaces one of its submissions by a cheat, once: an ``act`` by
    :meth:`instead`'s (see :class:`cheaters.GameCheater`), or its build by :meth:`open_build`'s.

    ``build``, if given, is the (legal) build it chooses in a custom build: an honest choice, made
    so that the situation its cheat needs can arise (counter compartments to react with).
    """

    build: tuple[str, ...] | None = None

    @property
    def state(self) -> TorpedoState:
        return self.replica.state

    def _submit(self, body: dict, decision: bool = False) -> None:
        if self.cheated or self.stage != "playing":
            super()._submit(body, decision)
            return
        kind = body.get("t")
        if kind == "commit" and self.state.phase == Phase.BUILD:
            body = self.commit_build(body)
        elif kind == "open" and self.state.phase == Phase.BUILD:
            changed = self.open_build(body)
            if changed is not None:
                self.cheat_action = self.game.decode_action(changed["value"])
                self.send_cheat(changed, decision)
                return
        elif kind == "act":
            body = self.act_or_cheat(body, decision)
            if body is None:
                return
        super()._submit(body, decision)

    # -- the build: what to commit to, what to open ------------------------------------------

    def commit_build(self, body: dict) -> dict:
        """The commitment to send for the build (``body``: the bot's)."""
        if self.build is None:
            return body
        return self.secrets.choose(self.replica, self.game.encode_action(Build(self.build)))

    def open_build(self, body: dict) -> dict | None:
        """The opening to send instead of ``body`` (the honest one) as the cheat, or ``None``."""
        return None

    # -- what the cheater sees -----------------------------------------------------------------

    def my_action_phase(self) -> bool:
        state = self.state
        return state.phase == Phase.ACTION and state.active == self.seat

    def walk_toward(self, goals: list[int]) -> Any:
        """A legal move (the captain's free move first) of a crew member of ours that brings it
        nearer one of ``goals`` (positions in our submarine), or ``None``."""
        if not goals or not self.my_action_phase():
            return None
        state, seat = self.state, self.seat

        def distance(position: int) -> int:
            return min(max(abs(row(position) - row(goal)), abs(column(position) - column(goal))) for goal in goals)

        best = None
        for option in self.game.legal_actions(state, seat, {}):
            if type(option) is CaptainMove:
                crew = seat * CREW_PER_SEAT
            elif type(option) is Move:
                crew = option.crew
            else:
                continue
            sub, at, _, _ = state.crew[crew]
            if sub != seat or distance(option.to) >= distance(at):
                continue
            key = (type(option) is not CaptainMove, distance(option.to))
            if best is None or key < best[0]:
                best = (key, option)
        return None if best is None else best[1]


# -- the build -----------------------------------------------------------------------------------


class BadBuild(TorpedoCheater):
    """Commits to an illegal build (and so opens it): ``problem`` is ``"duplicate"`` (one tile of
    the bot's build replaced by a second copy of another) or ``"no-control"`` (its control room
    replaced by a tile it lacks)."""

    def __init__(self, problem: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        assert problem in ("duplicate", "no-control")
        self.problem = problem
        self.bad_build: Build | None = None

    def commit_build(self, body: dict) -> dict:
        # The bot's build is the choice this commitment is made to.
        chosen = self.secrets.choices[self.replica.phase.phase_id]
        tiles = list(self.game.decode_action(chosen).tiles)
        others = [name for name in tiles if not TILES[name].is_control]
        if self.problem == "duplicate":
            tiles[tiles.index(others[1])] = others[0]
        else:
            control = next(name for name in tiles if TILES[name].is_control)
            spare = next(name for name in TILESET.names if name not in tiles and not TILES[name].is_control)
            tiles[tiles.index(control)] = spare
        self.bad_build = Build(tuple(sorted(tiles)))
        assert len(self.bad_build.tiles) == BUILD_SIZE
        return self.secrets.choose(self.replica, self.game.encode_action(self.bad_build))

    def open_build(self, body: dict) -> dict | None:
        # The opening is true to the commitment: the build itself is the cheat.
        assert self.game.decode_action(body["value"]) == self.bad_build
        return body


class OtherBuild(TorpedoCheater):
    """Commits to its bot's build, then (having seen nothing: both are hidden) opens another
    legal build: the first of the sample builds that differs."""

    def open_build(self, body: dict) -> dict | None:
        committed = self.game.decode_action(body["value"])
        self.committed = committed
        other = next(tiles for tiles in sample_builds() if tiles != committed.tiles)
        return dict(body, value=self.game.encode_action(Build(other)))


# -- the turn ------------------------------------------------------------------------------------


class FirstTurnTrigger(TorpedoCheater):
    """In its first turn, triggers the first effect it could trigger on a later turn (or, if none
    has a target yet, an effect where a ready crew member of its is)."""

    def instead(self, action: Any) -> Any:
        state, seat = self.state, self.seat
        if not self.my_action_phase() or not state.first_turns:
            return None
        triggers = turn.triggers(state, seat)  # every rule but the first-turn one
        if not triggers:
            # Nothing has a target yet: any triggered effect a ready crew member of its is at.
            for index in seat_crew(seat):
                sub, position, ready, alive = state.crew[index]
                if alive and ready and sub == seat:
                    for number, effect in enumerate(state.kit[seat][position].effects):
                        if effect.triggered:
                            triggers.append(Trigger(position, number, (index,)))
        return triggers[0] if triggers else None


class TooFastManeuver(TorpedoCheater):
    """Maneuvers one sector further than its speed allows (staying in the battle area)."""

    def instead(self, action: Any) -> Any:
        state = self.state
        if not self.my_action_phase() or state.maneuvered:
            return None
        top = speed(state, self.seat)
        mine, theirs = state.sectors[self.seat], state.sectors[1 - self.seat]
        for own in range(-(top + 1), top + 2):
            enemy = top + 1 - abs(own)
            for enemy in (enemy, -enemy):
                if 1 <= mine + own <= 5 and 1 <= theirs + enemy <= 5:
                    together = mine + own == theirs + enemy
                    self.speed = top
                    return Maneuver(own, enemy, self.seat if together else None)
        return None


class UnmannedCounter(TorpedoCheater):
    """Reacts, when its counter window opens, with a counter compartment nobody of its crew is in.

    It builds the Talion starter (three counter compartments) and, in its own turns, walks a crew
    member into the one whose counter always has a target (the chain that moves a submarine), so
    that a window opens in the enemy's turn while another counter compartment is unmanned.
    """

    build = starter_build("talion")

    def steer(self, action: Any) -> Any:
        # Man a counter compartment whose effect always has a target (moving a submarine or a
        # crew member), so that a counter window opens in the enemy's turn.
        state, seat = self.state, self.seat
        goals = [
            position for position in POSITIONS
            if not destroyed(state, seat, position)
            and any(e.button == "counter" and e.kind in ("move-sub", "move-crew") for e in state.kit[seat][position].effects)
        ]
        if any(is_manned(state, seat, position) for position in goals):
            return None
        return self.walk_toward(goals)

    def instead(self, action: Any) -> Any:
        state, seat = self.state, self.seat
        if state.phase != Phase.COUNTER or state.active == seat:
            return None
        for position in POSITIONS:
            if destroyed(state, seat, position) or is_blocked(state, seat, position):
                continue
            if is_manned(state, seat, position) or position in state.reacted:
                continue
            for number, effect in enumerate(state.kit[seat][position].effects):
                if effect.button == "counter" and (seat, position, number) not in state.used:
                    return React(position, number)
        return None


class DamageOutsideHit(TorpedoCheater):
    """As defender, assigns the damage to a compartment of its own outside the location hit."""

    def instead(self, action: Any) -> Any:
        state, seat = self.state, self.seat
        if state.phase != Phase.DEFEND or state.resolver != 1 - seat:
            return None
        inside = location_positions(seat, state.hit)
        for position in POSITIONS:
            if position != CONTROL and position not in inside and not destroyed(state, seat, position):
                self.hit = state.hit
                return Assign(position)
        return None


class MoveIntoDestroyed(TorpedoCheater):
    """Moves a ready crew member of its, aboard its own submarine, into a destroyed compartment
    next to it (or, if none is ready there, the captain by his free move).

    As defender it puts the damage where it destroys a compartment soonest, never absorbing it,
    so that it has a destroyed compartment early; then it walks a crew member next to it.
    """

    def instead(self, action: Any) -> Any:
        state, seat = self.state, self.seat
        if not self.my_action_phase():
            return None
        wrecks = self.wrecks()
        for index in seat_crew(seat):
            sub, position, ready, alive = state.crew[index]
            if alive and ready and sub == seat:
                for to in ADJACENT[position]:
                    if to in wrecks:
                        return Move(index, to)
        sub, position, _, alive = state.crew[seat * CREW_PER_SEAT]
        if alive and sub == seat and not state.captain_moved:
            for to in ADJACENT[position]:
                if to in wrecks:
                    return CaptainMove(to)
        return None

    def wrecks(self) -> list[int]:
        return [position for position in POSITIONS if destroyed(self.state, self.seat, position)]

    def steer(self, action: Any) -> Any:
        state, seat = self.state, self.seat
        if state.phase == Phase.DEFEND and state.resolver == 1 - seat:
            options = [option for option in self.game.legal_actions(state, seat, {}) if type(option) is Assign]
            if options:
                damage, kit = state.damage[seat], state.kit[seat]
                return min(options, key=lambda option: (kit[option.position].structure - damage[option.position], option.position))
            return None
        return self.walk_toward(self.wrecks())

