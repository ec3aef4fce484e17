"""What a peer keeps of acknowledgements stays bounded whatever another peer sends (protocol/
SPEC.md §B8): one ack per seat and entry of the log, and none of an entry not in it — a joiner
repeating one ack, or acknowledging entries that don't exist, makes the host hold and relay
nothing; a host relaying such acks makes a joiner hold nothing either."""

from __future__ import annotations

from switchboard import Switchboard

from p2pgames.session import HOST_CONNECTION
from p2pgames.session._messages import make_envelope


def under_way() -> Switchboard:
    board = Switchboard("probe", 3, seed=b"ack-bounds")
    board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= 6)
    board.flush()
    board.queue.clear()  # what was in flight: delivered or not, it changes nothing here
    return board


def ack(board: Switchboard, seat: int, seq: int, entry: bytes = b"e" * 32, state: bytes = b"s" * 32):
    session = board.sessions[seat]
    return make_envelope(session.identity, "ack", {"game_id": session.game_id, "seq": seq, "entry": entry, "state": state})


def test_a_joiner_repeating_an_ack_or_acknowledging_entries_that_dont_exist_costs_the_host_nothing():
    board = under_way()
    host = board.host
    kept, relay = len(host._ack_of), len(host.role.relay)
    mine = host._ack_of[max(key for key in host._ack_of if key[1] == 1)][2]  # seat 1's latest, taken
    for n in range(1000):
        host.receive(board.links[1], ack(board, 1, 10**6 + n).raw)
        host.receive(board.links[1], mine)
    assert host.fault is None
    assert (len(host._ack_of), len(host.role.relay)) == (kept, relay)
    assert not [data for connection, data in host.take_outgoing()], "nothing relayed"


def test_a_host_relaying_acks_of_entries_that_dont_exist_makes_a_joiner_hold_nothing():
    board = under_way()
    joiner = board.sessions[2]
    kept = len(joiner._ack_of)
    for n in range(1000):
        joiner.receive(HOST_CONNECTION, ack(board, 1, 10**6 + n).raw)
    assert joiner.fault is None and len(joiner._ack_of) == kept
