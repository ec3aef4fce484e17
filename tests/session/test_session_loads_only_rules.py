"""A session plays a whole game with the rules alone: given no presentation, it loads nothing that
shows a game (no game's presentation, views or typed moves, not even the engine's Presentation
contract), no terminal, no network and no bot.

Each table runs in a new Python process that imports only ``p2pgames.session`` and the game's
rules, wires its sessions to one another in memory and plays to the end, each seat choosing as
random play does (:meth:`Game.playout_choice`, part of the rules); then it lists every module
loaded. (``p2pgames verify`` is held to the same in ``tests/cli/test_cli_imports.py``.)
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from test_import_graph import is_presentation

REPOSITORY = Path(__file__).resolve().parents[2]
NOT_FOR_A_SESSION = ("p2pgames.tui", "p2pgames.net", "p2pgames.bots", "p2pgames.engine._presentation", "prompt_toolkit",
                     "trio")

_PLAY_A_TABLE = """
import json, sys
from p2pgames.crypto import Identity, reproducible_bytes
from p2pgames.engine import DeterministicRandom
from p2pgames.games import get_game
from p2pgames.session import HOST_CONNECTION, Session

name, players = sys.argv[1], int(sys.argv[2])
ruleset = get_game(name).ruleset(players)
sessions = []
for seat in range(players):
    random_bytes = reproducible_bytes(b"rules alone/" + bytes([seat]))
    sessions.append(Session(Identity.generate(random_bytes(32)), f"p{seat}", get_game,
                            ruleset=ruleset if seat == 0 else None, random_bytes=random_bytes, bot=True))
for seat in range(1, players):
    sessions[0].connected(seat)
    sessions[seat].connected(HOST_CONNECTION)
chooser = DeterministicRandom(b"rules alone")
moved = True
while moved:
    moved = False
    for seat, session in enumerate(sessions):
        for connection, data in session.take_outgoing():
            for frame in getattr(data, "frames", (data,)):
                if seat == 0:
                    sessions[connection].receive(HOST_CONNECTION, frame)
                else:
                    sessions[0].receive(seat, frame)
            moved = True
        decision = session.decision()
        if decision is not None:
            game, state = session.game, session.replica.state
            session.act(game.playout_choice(state, seat, list(decision.actions), session.knowledge, chooser))
            moved = True
        session.take_events()
print(json.dumps({
    "results": [repr(session.result) for session in sessions],
    "faults": [str(session.fault) for session in sessions if session.fault is not None],
    "modules": sorted(sys.modules),
}))
"""


@pytest.mark.parametrize("name, players", [("beltpunk", 2), ("steamcourt", 3), ("steamcourt2015", 3), ("torpedo", 2),
                                           ("astonishing", 2), ("probe", 3)])
def test_a_session_without_a_presentation_plays_a_game_loading_only_its_rules(name, players):
    done = subprocess.run([sys.executable, "-c", _PLAY_A_TABLE, name, str(players)],
                          capture_output=True, text=True, cwd=REPOSITORY, timeout=600)
    assert done.returncode == 0, done.stderr
    played = json.loads(done.stdout.splitlines()[-1])
    assert played["faults"] == []
    assert len(set(played["results"])) == 1 and played["results"][0] != "None"  # everyone saw the same end
    modules = played["modules"]
    assert [module for module in modules if is_presentation(module) or module.endswith(".bots")] == []
    assert [module for module in modules if module.startswith(NOT_FOR_A_SESSION)] == []
    # (and it did load the game's rules)
    assert any(module.startswith(f"p2pgames.games.{'_' if name == 'probe' else ''}{name}") for module in modules)


def test_the_check_sees_a_presentation_when_a_session_is_given_one():
    script = _PLAY_A_TABLE.replace(
        "random_bytes=random_bytes, bot=True)",
        "random_bytes=random_bytes, bot=True, presentation=__import__('p2pgames.games').games.get_presentation)")
    done = subprocess.run([sys.executable, "-c", script, "probe", "2"], capture_output=True, text=True, cwd=REPOSITORY,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    assert "p2pgames.games._probe.presentation" in json.loads(done.stdout.splitlines()[-1])["modules"]
