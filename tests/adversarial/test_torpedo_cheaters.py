"""Cheating at Steam Torpedo, each cheat by a real misbehaving peer in a loopback game over TCP.

Two peers, each its own node on 127.0.0.1, play with the heuristic bot; one is a cheater from
:mod:`torpedo_cheaters`, at seat 1 (a joiner: the host refuses the cheat) or at seat 0 (the host:
it sequences its cheat in an entry of its own, and the joiner refuses the entry). Where the cheat
needs a situation (a counter window with an unmanned counter compartment beside a manned one, an
attack to defend, a destroyed compartment next to a ready crew member) the cheater steers its own
honest play toward it; each test tries a few seeds in order until the cheater got to cheat.

Every test checks: the honest peer stops at once naming the cheater (seat, code and the whole
reason) and says so to its player, once; the cheat never entered its log (the state it stopped
in is the one the cheat was sent in, and shows nothing of it); its signed submission is the
evidence; and the honest peer's transcript verifies, the replay confirming the fault from the
evidence.

Where each cheat is caught (RULES.md, SPEC §B3, §B9):

* a build with a duplicate tile or no control room is committed to in secret, so nobody can see it
  until it is opened: it is ``illegal`` ("committed to an illegal choice") at its opening, however
  late the opening arrives (an opening is never a stale race);
* a build opened with another build than the one committed is a ``bad-opening``, proved by the
  commitment and the opening together;
* every move in the turn is public: a trigger in the first turn, a maneuver beyond the manned
  engines' speed, a counter from an unmanned compartment, damage outside the location hit and a
  move into a destroyed compartment are ``illegal`` on arrival.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest
from cheaters import Honest
from torpedo_cheaters import (
    BadBuild,
    DamageOutsideHit,
    FirstTurnTrigger,
    MoveIntoDestroyed,
    OtherBuild,
    TooFastManeuver,
    TorpedoCheater,
    UnmannedCounter,
)

from p2pgames.games import get_game
from p2pgames.games.torpedo.actions import Move
from p2pgames.games.torpedo.effects import CREW_PER_SEAT, destroyed, is_manned, reactions, speed
from p2pgames.games.torpedo.geometry import ADJACENT, location_positions, position_name
from p2pgames.games.torpedo.rules import Phase
from p2pgames.net import play_table
from p2pgames.session import FaultCode, GameEnded, Halted, verify_transcript
from p2pgames.session._messages import open_envelope

GAME = "torpedo"
ILLEGAL = "made an illegal move: "  # an illegal move's reason begins so
BAD_BUILD = "committed to an illegal choice: "  # and an illegal build's, at its opening
JOINER, HOST = 1, 0
SEATS = pytest.mark.parametrize("culprit", [JOINER, HOST], ids=["joiner", "host"])
# Tried in order until the cheater gets to cheat (the cheaters steer honest play toward their
# moment, so the first one almost always does; the others keep the tests from hanging on one
# game the bots play differently after a change to them).
SEEDS = (b"tp-0", b"tp-1", b"tp-2", b"tp-3")


def transcript_path(directory: Path, seed: bytes, seat: int) -> Path:
    # The name play_table gives each seat's transcript.
    return directory / f"{GAME}-{seed.hex()[:8]}-seat{seat}.p2pt"


async def play(tmp_path: Path, make: Callable[..., TorpedoCheater], culprit: int, seeds: tuple[bytes, ...]):
    """Seeded games with the cheater ``make(seed=…)`` at seat ``culprit``, until it cheats; returns
    the cheater, the sessions and where the transcripts are."""
    ruleset = get_game(GAME).ruleset(2)
    for seed in seeds:
        sessions = [Honest(seat, ruleset, seed) for seat in (0, 1)]
        cheater = make(seed=seed + b"/cheater", **({"ruleset": ruleset} if culprit == HOST else {}))
        sessions[culprit] = cheater
        directory = tmp_path / seed.decode()
        directory.mkdir()
        await play_table(GAME, 2, sessions=sessions, transcripts=directory, seed=seed, bot_kinds=("heuristic",))
        if cheater.cheated:
            return cheater, sessions, transcript_path(directory, seed, 1 - culprit)
    raise AssertionError(f"the cheater never got to cheat with seeds {seeds}")


def check_caught(cheater, sessions, transcript: Path, code: str, reason: str, *, raced: bool = False):
    """The honest peer stopped naming the cheater for ``reason`` (the whole text), before anything
    of the cheat entered its log, with its signed submission as evidence; its transcript
    verifies. Returns the state it stopped in."""
    culprit = cheater.seat
    session = sessions[1 - culprit]
    fault = session.fault
    assert session.stage == "halted", (session.stage, fault)
    assert fault.culprit == culprit and fault.code == code, fault
    assert fault.reason == reason, fault
    assert fault.reporter is None, fault  # proved by the evidence, not taken on trust
    assert open_envelope(fault.evidence[-1]).raw == cheater.cheat_raw
    assert open_envelope(cheater.cheat_raw).sender == cheater.identity.public_key.raw
    # Refused: it never entered the log (its counter is still the next one due), and nothing else
    # did since it was sent, unless it was an opening and the other opening raced it.
    replica = session.replica
    assert replica.counters[culprit] == open_envelope(cheater.cheat_raw).body["counter"], "the cheat was sequenced"
    if raced:
        assert replica.seq in (cheater.cheat_seq, cheater.cheat_seq + 1)
    else:
        assert replica.seq == cheater.cheat_seq
    # The player is told once, clearly, who did what; the game did not end otherwise.
    halts = [event for event in session.seen if isinstance(event, Halted)]
    assert len(halts) == 1 and halts[0].fault == fault, halts
    assert halts[0].message == f"The game stopped: cheater (seat {culprit}): {reason}.", halts[0].message
    assert not any(isinstance(event, GameEnded) for event in session.seen)
    # The transcript verifies, and replaying it confirms the fault from the evidence.
    report = verify_transcript(transcript.read_bytes(), get_game)
    assert report.ok, report.describe()
    assert report.stopped is not None and report.stopped.culprit == culprit, report.describe()
    assert report.stopped.code == code, report.describe()
    assert report.stop_confirmed, report.describe()
    return session.replica.state


def words(state, seat: int, position: int) -> str:
    """How a reason names a compartment: its short name and position."""
    return f"{state.kit[seat][position].short} ({position_name(position)})"


# -- 1. the build -------------------------------------------------------------------------------


@SEATS
@pytest.mark.parametrize(
    "problem, why",
    [("duplicate", "{tile} is in the build twice: a submarine holds one copy of each compartment"),
     ("no-control", "a submarine needs a control room")],
)
async def test_illegal_build_is_refused_at_its_opening_and_named(tmp_path, autojump_clock, culprit, problem, why):
    cheater, sessions, transcript = await play(
        tmp_path, lambda **kw: BadBuild(problem, **kw), culprit, SEEDS,
    )
    build = cheater.cheat_action
    assert build == cheater.bad_build
    tiles = build.tiles
    if problem == "duplicate":
        [twice] = {name for name in tiles if tiles.count(name) == 2}
        why = why.format(tile=twice)
    state = check_caught(cheater, sessions, transcript, FaultCode.ILLEGAL, BAD_BUILD + why, raced=True)
    # Still building: neither submarine was revealed into the state.
    assert state.phase == Phase.BUILD and state.tiles == [(), ()]


@SEATS
async def test_build_commitment_opened_with_another_build_is_named(tmp_path, autojump_clock, culprit):
    cheater, sessions, transcript = await play(tmp_path, OtherBuild, culprit, SEEDS)
    assert cheater.cheat_action != cheater.committed  # a legal build, not the one committed
    state = check_caught(
        cheater, sessions, transcript, FaultCode.BAD_OPENING,
        "opened a commitment with a different value than it committed to", raced=True,
    )
    # The evidence is the commitment and the opening, both signed by the cheater.
    fault = sessions[1 - culprit].fault
    commitment = open_envelope(fault.evidence[0])
    assert commitment.sender == cheater.identity.public_key.raw and commitment.body["body"]["t"] == "commit"
    assert state.phase == Phase.BUILD and state.tiles == [(), ()]


# -- 2. the turn --------------------------------------------------------------------------------


@SEATS
async def test_trigger_in_the_first_turn_is_refused_and_named(tmp_path, autojump_clock, culprit):
    cheater, sessions, transcript = await play(tmp_path, FirstTurnTrigger, culprit, SEEDS)
    state = check_caught(
        cheater, sessions, transcript, FaultCode.ILLEGAL,
        ILLEGAL + "no effects are triggered during a player's first turn",
    )
    trigger = cheater.cheat_action
    assert state.phase == Phase.ACTION and state.active == culprit and state.turns_taken[culprit] == 1
    # Legal on any later turn; refused now. Nothing resolved: its crew are still ready.
    assert all(state.crew[index][2] for index in trigger.crews)
    assert state.source is None


@SEATS
async def test_maneuver_faster_than_the_manned_engines_is_refused_and_named(tmp_path, autojump_clock, culprit):
    cheater, sessions, transcript = await play(tmp_path, TooFastManeuver, culprit, SEEDS)
    maneuver = cheater.cheat_action
    top = cheater.speed
    assert abs(maneuver.own) + abs(maneuver.enemy) == top + 1
    state = check_caught(
        cheater, sessions, transcript, FaultCode.ILLEGAL,
        ILLEGAL + f"your speed is {top} (one per manned engine compartment): that maneuver needs {top + 1}",
    )
    assert speed(state, culprit) == top and not state.maneuvered and state.active == culprit


@SEATS
async def test_counter_from_an_unmanned_compartment_is_refused_and_named(tmp_path, autojump_clock, culprit):
    cheater, sessions, transcript = await play(tmp_path, UnmannedCounter, culprit, SEEDS)
    position = cheater.cheat_action.position
    state = sessions[1 - culprit].replica.state
    check_caught(
        cheater, sessions, transcript, FaultCode.ILLEGAL,
        ILLEGAL + f"{words(state, culprit, position)} is not manned: a counter needs a crew member in it",
    )
    # Its counter window was open (it had a manned counter compartment to react with) and is
    # still: the counter it chose has no crew member in its compartment.
    assert state.phase == Phase.COUNTER and state.active == 1 - culprit
    assert reactions(state)
    assert not is_manned(state, culprit, position)


@SEATS
async def test_damage_placed_outside_the_location_hit_is_refused_and_named(tmp_path, autojump_clock, culprit):
    cheater, sessions, transcript = await play(tmp_path, DamageOutsideHit, culprit, SEEDS)
    state = check_caught(
        cheater, sessions, transcript, FaultCode.ILLEGAL,
        ILLEGAL + f"the attack hit your {cheater.hit}: assign the damage to a compartment there "
        "(not the control room, not destroyed)",
    )
    # The defender was deciding where the enemy's attack lands; nothing was placed.
    assert state.phase == Phase.DEFEND and state.resolver == 1 - culprit and state.amount > 0
    assert cheater.cheat_action.position not in location_positions(culprit, state.hit)


@SEATS
async def test_move_into_a_destroyed_compartment_is_refused_and_named(tmp_path, autojump_clock, culprit):
    cheater, sessions, transcript = await play(tmp_path, MoveIntoDestroyed, culprit, SEEDS)
    move = cheater.cheat_action
    state = sessions[1 - culprit].replica.state
    check_caught(
        cheater, sessions, transcript, FaultCode.ILLEGAL,
        ILLEGAL + f"{words(state, culprit, move.to)} is destroyed: crew can't move into it",
    )
    # The crew member is where he was (aboard, next to the flooded compartment), ready to move —
    # or, for the captain's free move, the captain has not made it.
    if type(move) is Move:
        crew, ready = move.crew, state.crew[move.crew][2]
    else:
        crew, ready = culprit * CREW_PER_SEAT, not state.captain_moved
    sub, at, _, alive = state.crew[crew]
    assert (sub, ready, alive) == (culprit, True, True) and move.to in ADJACENT[at]
    assert destroyed(state, culprit, move.to)
    assert state.phase == Phase.ACTION and state.active == culprit
