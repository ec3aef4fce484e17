"""The delay proxy ``scripts/bench`` measures round trips with: every byte held the same time each
way, nothing changed or reordered, and the frames it passed counted in each direction."""

from pathlib import Path

import pytest
import trio

from p2pgames.net._delay_proxy import DelayProxy
from p2pgames.net._framing import frame
from p2pgames.session import iter_records, open_envelope

LOOPBACK = "127.0.0.1"


async def _echo_server(task_status=trio.TASK_STATUS_IGNORED):
    """Sends back whatever it reads, at once, until the other end closes."""

    async def echo(stream):
        async with stream:
            while chunk := await stream.receive_some(65536):
                await stream.send_all(chunk)

    listeners = await trio.open_tcp_listeners(0, host=LOOPBACK)
    async with trio.open_nursery() as nursery:
        task_status.started(listeners[0].socket.getsockname()[1])
        await trio.serve_listeners(echo, listeners, handler_nursery=nursery)


async def _read_exactly(stream, size):
    data = b""
    while len(data) < size:
        chunk = await stream.receive_some(size - len(data))
        assert chunk, "the stream ended early"
        data += chunk
    return data


async def test_a_frame_comes_back_through_the_proxy_two_delays_later_intact_and_counted(autojump_clock):
    frames = [frame(b"x" * 3), frame(bytes(range(256)) * 40), frame(b"last")]
    sent = b"".join(frames)
    async with trio.open_nursery() as nursery:
        echo_port = await nursery.start(_echo_server)
        proxy = DelayProxy(echo_port, 0.025, LOOPBACK)
        port = await nursery.start(proxy.run)
        stream = await trio.open_tcp_stream(LOOPBACK, port)
        began = trio.current_time()
        # Sent in pieces that cut through lengths and payloads: counted the same.
        for start in range(0, len(sent), 7):
            await stream.send_all(sent[start:start + 7])
        back = await _read_exactly(stream, len(sent))
        elapsed = trio.current_time() - began
        assert back == sent
        assert elapsed == pytest.approx(0.05, abs=0.005)  # one delay each way
        assert (proxy.up.frames, proxy.up.bytes) == (3, len(sent))
        assert (proxy.down.frames, proxy.down.bytes) == (3, len(sent))
        await stream.aclose()
        nursery.cancel_scope.cancel()


async def test_a_connection_closed_on_one_side_is_closed_on_the_other_after_the_delay(autojump_clock):
    async with trio.open_nursery() as nursery:
        echo_port = await nursery.start(_echo_server)
        proxy = DelayProxy(echo_port, 1.0, LOOPBACK)
        port = await nursery.start(proxy.run)
        stream = await trio.open_tcp_stream(LOOPBACK, port)
        await stream.send_all(frame(b"bye"))
        await stream.send_eof()
        began = trio.current_time()
        assert await _read_exactly(stream, 7) == frame(b"bye")
        assert await stream.receive_some(10) == b""  # the echo server's close, passed on
        assert trio.current_time() - began == pytest.approx(2.0, abs=0.01)
        await stream.aclose()
        nursery.cancel_scope.cancel()


def test_a_delay_must_be_a_finite_number_of_seconds_not_below_zero():
    for delay in (-0.001, float("inf"), float("nan")):
        with pytest.raises(ValueError):
            DelayProxy(1, delay)


def moves(transcript: Path) -> list[tuple[int, object]]:
    """``(seat, action)`` of every ``act`` in a transcript's log, in order."""
    bodies = [open_envelope(open_envelope(raw).body["submission"]).body
              for kind, raw in iter_records(transcript.read_bytes()) if kind == "entry"]
    return [(body["seat"], body["body"]["action"]) for body in bodies if body["body"]["t"] == "act"]


async def test_a_table_played_through_the_proxy_ends_the_same_and_says_what_it_relayed(tmp_path):
    from p2pgames.net import play_table

    # Two players: with three, whether a seat's shares ride with its move depends on whether the
    # log waits for it alone (§B5), which can depend on which frame arrives first; the log then
    # differs by a keys entry, and the bots may play another game from it (seen: another pass).
    direct = await play_table("probe", 2, seed=b"through the proxy", verify=False, transcripts=tmp_path / "direct")
    relayed = await play_table("probe", 2, seed=b"through the proxy", verify=False, delay=0.001,
                               transcripts=tmp_path / "relayed")
    assert direct.ok and relayed.ok
    # The same game, entry for entry and move for move.
    assert (relayed.entries, repr(relayed.result)) == (direct.entries, repr(direct.result))
    assert moves(relayed.seats[0].transcript) == moves(direct.seats[0].transcript) != []
    assert direct.relayed is None
    up, down = relayed.relayed
    # The joiner's frames went up through it and the host's came down: at least an
    # acknowledgement of every entry each way.
    assert up.frames >= relayed.entries and down.frames >= relayed.entries
    assert up.bytes > up.frames * 4 and down.bytes > down.frames * 4
