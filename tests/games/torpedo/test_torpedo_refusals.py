"""Refusals the loopback cheaters (``tests/adversarial/test_torpedo_cheaters.py``) rely on, checked
where they are decided: the rules, and the host's refusal of an opened build.
"""

from __future__ import annotations

import pytest

from p2pgames.crypto import Identity, reproducible_bytes
from p2pgames.engine import IllegalAction
from p2pgames.games import get_game
from p2pgames.games.torpedo import GAME
from p2pgames.games.torpedo.actions import Build, CaptainMove, Move
from p2pgames.games.torpedo.build import sample_builds
from p2pgames.games.torpedo.geometry import parse_position
from p2pgames.games.torpedo.rules import Phase
from p2pgames.games.torpedo.tiles import TILESET
from p2pgames.session import HOST_CONNECTION, FaultCode, Session
from p2pgames.session._messages import open_envelope

from tests.games.torpedo.torpedo_scenarios import act, hurt, put, table


def at(where: str) -> int:
    return parse_position(where)


# -- moving into a destroyed compartment ----------------------------------------------------------


def test_no_crew_member_moves_into_a_destroyed_compartment():
    state = table(active=0)
    put(state, 1, "D1")
    hurt(state, 0, "D2", state.kit[0][at("D2")].structure)  # next to D1 and to the control room
    with pytest.raises(IllegalAction, match=r"\(D2\) is destroyed: crew can't move into it"):
        GAME.check_action(state, 0, Move(1, at("D2")))
    # Nor by the captain's free move, from the control room (C2) next to it.
    with pytest.raises(IllegalAction, match=r"\(D2\) is destroyed: crew can't move into it"):
        GAME.check_action(state, 0, CaptainMove(at("D2")))
    # A compartment next to it that still floats is fine.
    act(state, 0, Move(1, at("E1")))


# -- an illegal build opened late is no race -------------------------------------------------------


def _session(seat: int, ruleset) -> Session:
    random_bytes = reproducible_bytes(b"refusals/" + bytes([seat]))
    return Session(
        Identity.generate(random_bytes(32)), f"p{seat}", get_game,
        ruleset=ruleset if seat == 0 else None, bot=True, random_bytes=random_bytes,
    )


def test_an_illegal_build_opened_after_the_other_opening_is_named_not_stale():
    """The host opens its build the moment both are committed, so the joiner's opening arrives
    based on an older entry. An illegal move based on an old entry is forgiven as a race
    ("stale"), but an opening can't be one: the build was fixed when committed. The host names
    the builder, with the reason."""
    ruleset = GAME.ruleset(2)
    host, joiner = sessions = [_session(0, ruleset), _session(1, ruleset)]
    host.connected(1)
    joiner.connected(HOST_CONNECTION)
    no_control = Build(tuple(sorted(n for n in TILESET.names if not TILESET.tiles[n].is_control)[:10]))
    openings = []  # (based_on, the host's entries) as each opening reached the host
    for _ in range(10_000):
        moved = False
        for seat, session in enumerate(sessions):
            for connection, data in session.take_outgoing():
                moved = True
                if seat == 0:
                    joiner.receive(HOST_CONNECTION, data)
                    continue
                body = open_envelope(data).body
                if isinstance(body, dict) and isinstance(body.get("body"), dict) and body["body"].get("t") == "open":
                    openings.append((body["based_on"], host.replica.seq))
                host.receive(1, data)
        for seat, session in enumerate(sessions):
            session.take_events()
            if session.decision(texts=False) is None:
                continue
            moved = True
            assert session.replica.state.phase == Phase.BUILD
            if seat == 0:
                session.act(Build(sample_builds()[0]))
            else:  # a build act() refuses, committed to all the same
                session._submit(session.secrets.choose(session.replica, GAME.encode_action(no_control)), decision=True)
        if not moved:
            break
    [(based_on, entries)] = openings
    assert based_on < entries  # the host's opening came first
    fault = host.fault
    assert host.stage == "halted" and fault.culprit == 1 and fault.code == FaultCode.ILLEGAL, fault
    assert fault.reason == "committed to an illegal choice: a submarine needs a control room"
    assert joiner.stage == "halted" and joiner.fault.culprit == 1
