"""Watchers (issue 26, point 4; SPEC §B19): a watcher follows the table's log live, as a player
holding no cards sees it, from the start or joining late; it is sent nothing but the log, chat and
goodbyes (nothing is ever sealed to it); it takes no seat, is never waited for, is bounded in
number, and a watcher that floods or leaves changes nothing of the players' game.

Sessions only, on the in-memory switchboard (over real TCP: tests/net/test_watch.py)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from switchboard import Switchboard
from test_session_robustness import like

from p2pgames.crypto import Identity
from p2pgames.games import get_presentation
from p2pgames.session import (
    WATCHER_SEAT, ChatReceived, GameEnded, GameStarted, LocalError, Logged, Notice, Rejected, Watcher, open_envelope,
)
from p2pgames.session._messages import make_envelope

SENT_TO_WATCHERS = {"host-hello", "watching", "lobby", "start", "entry", "chat", "watcher-chat", "leave", "fault", "ping"}


def watcher(name: str = "wanda") -> Watcher:
    return Watcher(Identity.generate(name.encode().ljust(32, b".")), name, get_presentation)


def host_log(board: Switchboard) -> list[bytes]:
    return [raw for _, _, kind, raw in board.host.role.relay if kind == "entry"]


def test_a_watcher_from_the_start_follows_every_entry_and_is_sent_nothing_else():
    board = Switchboard("steamcourt", 4, seed=b"watched")
    wanda = watcher()
    board.watch(wanda)
    board.run()
    board.check_finished_and_verified()
    frames = [open_envelope(frame) for frame in board.watched[900]]
    assert {envelope.kind for envelope in frames} <= SENT_TO_WATCHERS
    assert [envelope.raw for envelope in frames if envelope.kind == "entry"] == host_log(board)
    # It followed the game to the same end, checking every entry as a player does.
    assert wanda.stage == "over" and wanda.replica.state_hash == board.host.replica.state_hash
    events = wanda.take_events()
    assert any(isinstance(event, GameStarted) for event in events) and isinstance(events[-1], GameEnded)
    assert events[-1].result == board.host.result
    # The cards it shows are those every share of which the log published (or an audit did, §B6.3).
    shown = set(wanda.replay.values)
    public = {crypto.first_slot + index for crypto in board.host.replica.deals.values() for index in range(crypto.size)
              if len(crypto.published[index]) == len(crypto.holders) or crypto.audited}
    assert {slot for slot in shown if any(crypto.first_slot <= slot < crypto.first_slot + crypto.size
                                          for crypto in board.host.replica.deals.values())} <= public


def test_a_watcher_who_comes_late_catches_up_from_the_log_and_sees_the_end():
    board = Switchboard("beltpunk", 3, seed=b"watched-late")
    board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= 100)
    late = watcher("lena")
    board.watch(late)
    board.run()
    board.check_finished_and_verified()
    assert late.stage == "over" and late.replica.state_hash == board.host.replica.state_hash
    logged = [event for event in late.take_events() if isinstance(event, Logged)]
    assert logged and logged[0].seq < 100  # the log from its start, narrated as it catches up


def test_a_watcher_who_floods_or_leaves_changes_nothing_of_the_game():
    plain = Switchboard("beltpunk", 3, seed=b"watched-flood")
    plain.run()
    board = Switchboard("beltpunk", 3, seed=b"watched-flood")
    # (From the start on: the boards' peers draw their randomness from seeds, and a host greets
    # each connection with a nonce it draws — before the start, the game's id would follow.)
    board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= 1)
    noisy, quiet = watcher("noisy"), watcher("quiet")
    board.watch(noisy, 900)
    board.watch(quiet, 901)
    board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= 60)
    # The noisy one chats and acknowledges as if it played; the host hangs up on it.
    junk = make_envelope(noisy.identity, "chat", {"game_id": board.host.game_id, "text": "hello " * 50})
    for _ in range(100):
        board.host.receive(900, junk.raw)
    board.host.receive(901, b"\x00" * 40)  # and the quiet one sends a frame that is no message
    board.run()
    assert 900 not in board.host.role.watchers and 901 not in board.host.role.watchers
    board.check_finished_and_verified()
    assert [bytes(t) for t in board.transcripts] == [bytes(t) for t in plain.transcripts]


@pytest.mark.parametrize(("allowed", "reason"), [(0, "this table takes no watchers"),
                                                  (1, "this table takes 1 watchers, and has them")])
def test_watchers_are_bounded_by_the_hosts_number(allowed, reason):
    board = Switchboard("probe", 2, seed=b"watched-bounded")
    board.host.role.max_watchers = allowed
    first, second = watcher("one"), watcher("two")
    board.watch(first, 900)
    board.watch(second, 901)
    board.run()
    refused = second if allowed else first
    assert refused.stage == "stopped" and any(isinstance(event, Rejected) and event.reason == reason
                                               for event in refused.take_events())
    if allowed:
        assert first.stage == "over"


def test_a_host_that_sends_a_watcher_a_message_that_does_not_check_is_named():
    board = Switchboard("probe", 2, seed=b"watched-forged")
    wanda = watcher()
    board.watch(wanda)
    board.run(until=lambda: wanda.stage == "playing")
    forged = make_envelope(Identity.generate(b"x" * 32), "entry", {
        "game_id": wanda.replica.game_id, "seq": wanda.replica.seq, "prev": wanda.replica.head,
        "submission": b"", "state": bytes(32),
    })
    wanda.receive(forged.raw)
    assert wanda.stage == "stopped" and "the host" in wanda.stopped_why
    wanda.receive(b"anything")  # once stopped, nothing more is read
    assert not [event for event in wanda.take_events() if isinstance(event, Notice)][1:]


def test_where_the_host_allows_it_a_watchers_line_reaches_everyone_and_no_transcript():
    board = Switchboard("probe", 3, seed=b"watcher-chat")
    board.host.watcher_chat = True
    wanda = watcher()
    board.watch(wanda)
    board.run(until=lambda: wanda.replica is not None and wanda.replica.seq >= 5)
    assert wanda.may_chat
    wanda.chat("good luck, all")
    for raw in wanda.take_outgoing():
        board.host.receive(900, raw)
    board.run()
    board.check_finished_and_verified()
    heard = [(event.seat, event.name, event.text) for event in board.sessions[1].take_events() + board.events[1]
             if isinstance(event, ChatReceived)]
    assert heard == [(WATCHER_SEAT, "wanda (watching)", "good luck, all")]
    assert any(isinstance(event, ChatReceived) and event.text == "good luck, all" for event in wanda.take_events())
    assert all(b"good luck" not in bytes(transcript) for transcript in board.transcripts)


def test_where_the_host_does_not_a_watcher_can_not_chat_and_one_that_does_is_hung_up_on():
    board = Switchboard("probe", 3, seed=b"watcher-no-chat")
    wanda = watcher()
    board.watch(wanda)
    board.run(until=lambda: wanda.replica is not None and wanda.replica.seq >= 5)
    with pytest.raises(LocalError, match="this table's host does not let watchers chat"):
        wanda.chat("hello?")
    rogue = make_envelope(wanda.identity, "chat", {"game_id": board.host.game_id, "text": "hello?"})
    board.host.receive(900, rogue.raw)
    board.run()
    board.check_finished_and_verified()
    assert 900 not in board.host.role.watchers
    assert not any(isinstance(event, ChatReceived) for event in board.sessions[1].take_events() + board.events[1])


def test_a_lobby_with_a_seat_that_is_no_key_stops_the_watching_and_names_the_host():
    board = Switchboard("probe", 3, seed=b"watched-lobby")
    wanda = watcher()
    board.watch(wanda)
    board.run(play=False, until=lambda: wanda.stage == "lobby")
    lobby = make_envelope(board.host.identity, "lobby", {"players": [[b"\xff" * 32, b"s" * 32, "x", False]], "seats": 3,
                                                         "table": b"t" * 32})
    wanda.receive(lobby.raw)
    assert wanda.stage == "stopped" and wanda.stopped_why.startswith("the host sent a lobby that does not read")


@pytest.fixture(scope="module")
def watched_frames():
    """What a watcher of a short probe game was sent, and the host's identity."""
    board = Switchboard("probe", 2, seed=b"watched-frames")
    board.watch(watcher())
    board.run()
    return board.watched[900], board.host.identity


@given(data=st.data())
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_a_watcher_never_raises_whatever_the_host_sends(watched_frames, data):
    """Any prefix of what a host really sent, then one message of a kind a host sends, well formed
    but with one field like its real one (or anything), signed by the host: taken, or the host
    named, never an exception."""
    frames, host = watched_frames
    prefix = data.draw(st.integers(1, min(len(frames), 12)), label="prefix")
    original = open_envelope(data.draw(st.sampled_from(frames[:prefix + 1]), label="model"))
    body = data.draw(like(dict(original.body)), label="body")
    wanda = watcher()
    for frame in frames[:prefix]:
        wanda.receive(frame)
    try:
        forged = make_envelope(host, original.kind, body)
    except Exception:  # (a body the envelope schema refuses: send its raw bytes anyway)
        forged = None
    wanda.receive(forged.raw if forged is not None else b"\x92" + bytes(8))
    wanda.take_events()


def test_watchers_chat_within_one_seats_allowance_together_and_only_with_their_own_key():
    """A watcher's key costs nothing: a new one is no new allowance, and a line signed by
    another key than the one it greeted with ends its watching."""
    board = Switchboard("probe", 3, seed=b"watcher-allowance")
    board.host.watcher_chat = True
    first, second, third = watcher("one"), watcher("two"), watcher("three")
    for connection, each in ((900, first), (901, second), (902, third)):
        board.watch(each, connection)
    board.run(until=lambda: first.replica is not None and first.replica.seq >= 3)
    burst = board.host.role.watcher_chat_limits.policy.burst
    for number in range(burst):
        board.host.receive(900, make_envelope(first.identity, "chat", {"game_id": board.host.game_id, "text": f"line {number}"}).raw, 0.0)
    board.host.receive(901, make_envelope(second.identity, "chat", {"game_id": board.host.game_id, "text": "mine"}).raw, 0.0)
    heard = [event.text for event in board.host.take_events() if isinstance(event, ChatReceived)]
    assert heard == [f"line {number}" for number in range(burst)], "the second watcher's line is past the shared burst"
    board.host.receive(902, make_envelope(first.identity, "chat", {"game_id": board.host.game_id, "text": "as one"}).raw, 5.0)
    assert 902 not in board.host.role.watchers and 901 in board.host.role.watchers
