"""The independent peer plays the probe game against a real host (SPEC §B2–§B8): the host and the
other joiner are the product's bot peers, over loopback TCP; everyone agrees on every entry, and
every transcript — the independent peer's own included — verifies with both verifiers."""

import functools
import subprocess
import sys

import pytest
import trio

from p2pgames.bots import bot_for
from p2pgames.crypto import Identity, reproducible_bytes
from p2pgames.games import get_game
from p2pgames.net import LOOPBACK, Node, drive_bot, open_host_listeners
from p2pgames.session import Session

from . import transcript
from .peer import Peer


def product_peer(seat, seed, ruleset, path):
    random_bytes = reproducible_bytes(seed + b"/seat/" + bytes([seat]))
    session = Session(Identity.generate(random_bytes(32)), f"bot-{seat}", get_game,
                      ruleset=ruleset if seat == 0 else None, bot=True, random_bytes=random_bytes)
    return Node(session, transcript_path=path)


@pytest.mark.parametrize("players", [2, 3])
async def test_the_independent_peer_plays_the_probe_game_against_a_real_host(tmp_path, autojump_clock, players):
    my_seat = 1  # the first joiner; a product joiner connects only once the independent peer is seated
    seed = b"independent-peer-%d" % players
    game = get_game("probe")
    ruleset = game.ruleset(players, {})
    peer = Peer(seed=seed)
    others = {seat: product_peer(seat, seed, ruleset, tmp_path / f"seat{seat}.p2pt")
              for seat in range(players) if seat != my_seat}
    listeners = await open_host_listeners(0, LOOPBACK)
    port = listeners[0].socket.getsockname()[1]
    with trio.fail_after(600):  # virtual seconds on the autojump clock: a guard against a hang
        async with trio.open_nursery() as nursery:
            await nursery.start(others[0].serve, listeners)
            nursery.start_soon(functools.partial(drive_bot, others[0], bot_for(game, seed + b"0"),
                                                 end_when_away_too_long=True))
            for seat in range(1, players):
                if seat == my_seat:
                    nursery.start_soon(peer.run, LOOPBACK, port)
                    await peer.seated.wait()
                else:
                    await nursery.start(others[seat].connect, LOOPBACK, port)
                    nursery.start_soon(functools.partial(drive_bot, others[seat], bot_for(game, seed + bytes([seat])),
                                                         end_when_away_too_long=True))
    assert peer.seat == my_seat
    host = others[0].session
    assert host.fault is None and peer.result is not None
    assert peer.result == {"scores": list(host.result.scores), "winners": list(host.result.winners),
                           "summary": host.result.summary}
    assert all(node.session.fault is None for node in others.values())
    assert len(peer.own_states) == host.replica.seq
    mine = tmp_path / f"seat{my_seat}.p2pt"
    mine.write_bytes(peer.transcript())
    report = transcript.verify(mine.read_bytes())
    assert report.ok and report.followed and report.agreed == report.entries, report.problem
    for seat in others:
        assert transcript.verify((tmp_path / f"seat{seat}.p2pt").read_bytes()).ok
    run = subprocess.run([sys.executable, "-m", "p2pgames", "verify", str(mine)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Verified." in run.stdout
    # It took every part: the lobby, the random phase, the deal's and the re-shuffles' passes, keys
    # (published and, passing or passed a card, sealed), a choice, a move, the audit.
    assert {"host-hello", "lobby", "start", "accept", "entry"} <= set(peer.reached)
    made = [body["t"] for seat, body in report.bodies if seat == my_seat]
    assert {"commit", "open", "pass", "keys", "act", "audit"} == set(made)
    assert any(body["t"] == "keys" and body["sealed"] for _seat, body in report.bodies)
