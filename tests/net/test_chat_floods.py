"""Chat floods against a real host over loopback (issue 23, point 1): a seated peer and a lobby
player sending chat as fast as they can.

The host is a real :class:`Node` on 127.0.0.1; the honest peer is a node too; the flooder is a
:class:`~scripted_peer.ScriptedPeer`, a joiner's session over a socket the test holds, which sends
what its session would refuse. All on trio's autojump clock.
"""

from __future__ import annotations

import trio
import trio.testing

from p2pgames.games import get_game
from p2pgames.net import LOOPBACK, Node
from p2pgames.session import ChatReceived, iter_records, open_envelope, verify_transcript
from p2pgames.session._chat import CHAT_POLICY
from p2pgames.session._messages import make_envelope
from scripted_peer import ScriptedPeer, serve, table_session as session

# Lines enough to pass a seat's total and its abuse margin whatever the clock does meanwhile.
FLOOD = CHAT_POLICY.lines + CHAT_POLICY.abuse


def flood_lines(peer: ScriptedPeer, room: bytes, count: int = FLOOD) -> list[bytes]:
    identity = peer.session.identity
    return [make_envelope(identity, "chat", {"game_id": room, "text": f"flood {n} " + "x" * 80}).raw for n in range(count)]


def chats_in(transcript: bytes) -> list[bytes]:
    return [value for kind, value in iter_records(transcript) if kind == "chat"]


def events_of(node: Node, kind: type) -> list:
    events = []
    while True:
        try:
            events.append(node.events.receive_nowait())
        except (trio.WouldBlock, trio.EndOfChannel):
            return [event for event in events if isinstance(event, kind)]


async def hostess_honest_and_mallory(nursery: trio.Nursery, seed: bytes, players: int, transcripts=None):
    """A host of a probe table of ``players`` seats, an honest joiner seated there, and mallory,
    the flooder, dialled in after it: ``(host, honest, mallory)``."""
    host = Node(session("hostess", seed, get_game("probe").ruleset(players)), transcript_dir=transcripts)
    honest = Node(session("honest", seed), transcript_dir=transcripts)
    mallory = ScriptedPeer(session("mallory", seed))
    port = await serve(nursery, host)
    await nursery.start(honest.connect, LOOPBACK, port)
    await host.wait_until(lambda: host.session.lobby_size == 2)
    await mallory.dial(port)
    return host, honest, mallory


async def test_a_seat_flooding_chat_is_hung_up_on_and_every_transcript_stays_within_its_limits(autojump_clock, tmp_path):
    """The attack of issue 23: a seated peer sent chat as fast as it could (the host went from 42
    to 292 MB in 25 s, every transcript to 75 MB). Now the host relays a burst, drops the rest,
    and hangs up on the seat far past the rate: it is away (everyone is told why), nobody is
    blamed, and every transcript holds the same few lines."""
    async with trio.open_nursery() as nursery:
        host, honest, attacker = await hostess_honest_and_mallory(nursery, b"seated-flood", 3, tmp_path)
        await attacker.play_until(lambda: attacker.session.stage == "playing")
        with trio.fail_after(60):
            async with trio.open_nursery() as inner:
                inner.start_soon(attacker.drain)  # it reads (a peer that doesn't is point 2's)
                try:
                    await attacker.send(flood_lines(attacker, attacker.session.game_id))
                except trio.BrokenResourceError:
                    pass  # hung up on mid-flood
            await honest.wait_until(lambda: 2 in honest.session.away)
        await attacker.aclose()
        reason = "sent chat far past its limits (100 lines dropped); the host hung up on it"
        assert host.session.away == {2: reason} and honest.session.away == {2: reason}
        assert host.session.fault is None and honest.session.fault is None
        await trio.testing.wait_all_tasks_blocked()
        kept = chats_in(host.transcript_path.read_bytes())
        assert len(kept) == CHAT_POLICY.burst and chats_in(honest.transcript_path.read_bytes()) == kept
        for node in (host, honest):
            report = verify_transcript(node.transcript_path.read_bytes(), get_game)
            assert report.ok and report.stopped is None, report.describe()
        nursery.cancel_scope.cancel()


async def test_a_lobby_player_flooding_chat_is_turned_away_and_the_others_see_its_lines_within_limits(autojump_clock):
    async with trio.open_nursery() as nursery:
        host, honest, attacker = await hostess_honest_and_mallory(nursery, b"lobby-flood", 4)
        await attacker.play_until(lambda: attacker.session.seated)
        table = attacker.session.table_id
        with trio.fail_after(60):
            async with trio.open_nursery() as inner:
                inner.start_soon(attacker.send, flood_lines(attacker, table))
                heard = await attacker.drain()
            await host.wait_until(lambda: host.session.lobby_size == 2)
        await trio.testing.wait_all_tasks_blocked()
        said = [event for event in events_of(honest, ChatReceived) if event.name == "mallory"]
        await attacker.aclose()
        nursery.cancel_scope.cancel()
    last = open_envelope(heard[-1])
    assert last.kind == "reject" and last.body["reason"] == "you sent chat far past its limits (100 lines dropped)"
    assert 0 < len(said) < CHAT_POLICY.lines
