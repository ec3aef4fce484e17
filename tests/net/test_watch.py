"""Watching over TCP (issue 26, point 4; SPEC §B19): ``watch_table`` follows a real table to its end
on loopback (what it is sent: tests/session/test_watchers.py), a host that takes no watchers turns
one away saying so, and a watcher never watches a host with another key than its code's."""

from __future__ import annotations

import functools

import trio

from p2pgames.bots import bot_for
from p2pgames.crypto import Identity
from p2pgames.games import get_game
from p2pgames.net import LOOPBACK, JoinCode, drive_bot, host_table, watch_table
from p2pgames.net import _watch as watching
from p2pgames.session import GameEnded, Rejected, Watcher, open_envelope
from p2pgames.tui._replay import replay_panels


async def hosted(nursery, game: str, players: int, **options):
    identity = Identity.generate()
    host = await host_table(
        nursery, identity=identity, name="hostess", ruleset=get_game(game).ruleset(players), bind=LOOPBACK,
        bots=players - 1, bot=True, announce_on_lan=False, **options,
    )
    return host, JoinCode(LOOPBACK, host.address[1], identity.public_key.fingerprint())


async def test_a_watcher_of_a_four_player_steam_court_game_from_its_start_is_sent_only_the_public_log(
    autojump_clock, monkeypatch,
):
    """What the watcher's socket brought it, frame by frame: the host's greeting, the lobby, the
    start and the game's log as every player holds it — no key sealed to it, no message of a seat's
    but those passed on to all (nothing is ever sealed to a watcher: it named no sealing key)."""
    seen: list = []
    frames: list[bytes] = []

    class Recording(Watcher):
        def receive(self, data: bytes) -> None:
            frames.append(data)
            super().receive(data)

    monkeypatch.setattr(watching, "Watcher", Recording)
    async with trio.open_nursery() as nursery:
        host, code = await hosted(nursery, "steamcourt", 4)
        watcher = await nursery.start(functools.partial(watch_table, code, lambda watcher, event: seen.append(event), name="wanda"))
        nursery.start_soon(drive_bot, host, bot_for(get_game("steamcourt"), b"host"))
        with trio.fail_after(3600):
            await host.finished.wait()
            while not watcher.finished:
                await trio.sleep(1)
        nursery.cancel_scope.cancel()
    assert host.session.fault is None and watcher.stage == "over"
    assert watcher.replica.state_hash == host.session.replica.state_hash
    assert isinstance(seen[-1], GameEnded) and seen[-1].result == host.session.result
    # Its screen: the table as a player holding no cards sees it, at any entry.
    replay = watcher.replay
    assert len(replay.steps) == host.session.replica.seq + 1
    assert replay_panels(replay, len(replay.steps) // 2, None, every_card=False)
    kinds = [open_envelope(frame).kind for frame in frames]
    assert set(kinds) <= {"host-hello", "watching", "lobby", "start", "entry", "chat", "leave", "ping"}
    logged = [raw for _, _, kind, raw in host.session.role.relay if kind == "entry"]
    assert [frame for frame, kind in zip(frames, kinds) if kind == "entry"] == logged


async def test_a_table_that_takes_no_watchers_turns_one_away_saying_so(autojump_clock):
    seen: list = []
    async with trio.open_nursery() as nursery:
        host, code = await hosted(nursery, "probe", 2, watchers=0)
        watcher = await watch_table(code, lambda watcher, event: seen.append(event), name="wanda")
        nursery.cancel_scope.cancel()
    assert watcher.stage == "stopped" and watcher.stopped_why == "the host turned us away: this table takes no watchers"
    assert [event.reason for event in seen if isinstance(event, Rejected)] == ["this table takes no watchers"]


async def test_a_watcher_with_another_host_key_than_the_codes_does_not_watch(autojump_clock):
    async with trio.open_nursery() as nursery:
        host, code = await hosted(nursery, "probe", 2)
        other = JoinCode(code.host, code.port, Identity.generate().public_key.fingerprint())
        watcher = await watch_table(other, lambda watcher, event: None, name="wanda")
        nursery.cancel_scope.cancel()
    assert watcher.stage == "stopped" and "not the one the join code names" in watcher.stopped_why
    assert not host.session.role.watchers


def test_a_table_is_announced_as_full_for_watchers_while_its_game_is_on_and_withdrawn_at_its_end():
    """§B13 with §B19: free seats are counted; full (or begun), the table stays announced as full
    while its host takes watchers; a host that takes none withdraws it, and every host at the end."""
    from session.switchboard import Switchboard

    from p2pgames.net._launch import table_announcement

    board = Switchboard("probe", 3, seed=b"announced")
    host = board.host
    found = table_announcement(host, 4000)  # (in its lobby: only the host seated yet)
    assert (found["seated"], found["seats"], found["port"]) == (1, 3, 4000)
    board.run(until=lambda: host.stage == "playing")
    assert table_announcement(host, 4000)["seated"] == 3
    host.max_watchers = 0
    assert table_announcement(host, 4000) is None
    host.max_watchers = 8
    board.run()
    assert host.stage == "over" and table_announcement(host, 4000) is None
