"""A seat whose game its host no longer plays (issue 22, point 2; SPEC §B12 ``gone``): the game
ended while the seat was away, and the host has moved on to another table with the same key. The
host answers the seat's rejoin with ``gone``, bound to that rejoin; the seat stops, told so in
plain words, and knows its game is over (the network layer then forgets the saved seat). A
``gone`` that answers another rejoin, or isn't the host's, changes nothing but the connection.

Sessions only, on the in-memory switchboard."""

from __future__ import annotations

import pytest
from switchboard import Switchboard

from p2pgames.crypto import Identity
from p2pgames.games import get_game
from p2pgames.session import HOST_CONNECTION, Halted, Notice, Rejected, Session
from p2pgames.session._messages import make_envelope, open_envelope

GONE = "its host is not playing it any more (it ended while you were away)"


def at_a_new_table(board: Switchboard) -> Session:
    """Play a while, lose both joiners, then the host's process is replaced by a new table with
    the same key (the old game ended, or was given up); returns the new host."""
    board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= 10)
    for seat in (1, 2):
        board.cut(seat)
    old = board.host
    board.sessions[0] = Session(old.identity, "p0", get_game, ruleset=old.ruleset, bot=True)
    return board.sessions[0]


def rejoin_on_a_new_connection(board: Switchboard, seat: int) -> tuple[Session, int, bytes]:
    """Restart ``seat`` from its saved seat and hand it the host's hello only: returns the new
    session, its connection at the host and the rejoin it answered with (not delivered)."""
    joiner = board.restart(seat)
    [hello] = [item for item in board.queue if item[:2] == ("down", seat)]
    board.queue.clear()
    joiner.receive(HOST_CONNECTION, hello[3])
    board.flush()
    [(_, _, connection, data)] = [item for item in board.queue if item[0] == "up"]
    board.queue.clear()
    return joiner, connection, data


def frames(board: Switchboard, seat: int, kind: str) -> list[bytes]:
    return [data for data in board.received[seat] if open_envelope(data).kind == kind]


def test_a_joiner_still_running_is_told_its_game_is_gone_and_stops():
    board = Switchboard("probe", 3, seed=b"gone-running")
    at_a_new_table(board)
    joiner = board.sessions[1]
    board.reconnect(1)
    board.run(play=False)
    assert joiner.gone_reason == GONE and joiner.stage == "halted" and not joiner.seat_kept
    assert joiner.fault is not None and joiner.fault.culprit is None and joiner.fault.reason == GONE
    [halted] = [event for event in joiner.take_events() if isinstance(event, Halted)]
    assert halted.message == f"The game stopped: {GONE}."
    [gone] = [open_envelope(data) for data in frames(board, 1, "gone")]
    [rejoin] = [open_envelope(data) for data in board.received[0] if open_envelope(data).kind == "rejoin"]
    assert gone.body == {"game_id": joiner.game_id, "rejoin": rejoin.digest, "reason": GONE}
    assert board.links[1] not in board.host.role.connection_seat, "the host hung up"


def test_a_seat_taken_again_from_what_it_saved_is_told_its_game_is_gone():
    board = Switchboard("probe", 3, seed=b"gone-saved")
    at_a_new_table(board)
    joiner = board.restart(1)
    board.run(play=False)
    assert joiner.gone_reason == GONE and joiner.stage == "closed" and joiner.rejection == f"the game has stopped: {GONE}"
    assert any(isinstance(event, Rejected) and event.reason == GONE for event in joiner.take_events())


def test_a_gone_that_answers_another_rejoin_is_no_answer_and_the_seat_dials_again():
    """Recorded on one connection, a host's ``gone`` is replayed on the next (an attacker at the
    host's address while the host has resumed the game, say): it names another rejoin's digest."""
    board = Switchboard("probe", 3, seed=b"gone-replayed")
    host = at_a_new_table(board)
    board.restart(1)
    board.run(play=False)
    [recorded] = frames(board, 1, "gone")
    # Its seat, taken again: a new connection, the host's new nonce; its rejoin never reaches the
    # host, and the old answer comes instead.
    again, _, _ = rejoin_on_a_new_connection(board, 1)
    again.receive(HOST_CONNECTION, recorded)
    assert again.gone_reason is None and not again.finished
    assert again.take_closing() == [HOST_CONNECTION]
    assert any(isinstance(event, Notice) and "not in answer to us" in event.text for event in again.take_events())
    assert host.stage == "lobby"


def test_a_gone_signed_by_another_key_is_no_answer():
    board = Switchboard("probe", 3, seed=b"gone-forged")
    at_a_new_table(board)
    joiner, _, _ = rejoin_on_a_new_connection(board, 1)
    forged = make_envelope(Identity.generate(), "gone", {
        "game_id": joiner.resumed.game_id, "rejoin": joiner.role.rejoin_digest, "reason": "forged",
    })
    joiner.receive(HOST_CONNECTION, forged.raw)
    assert joiner.gone_reason is None and joiner.take_closing() == [HOST_CONNECTION]


@pytest.mark.parametrize("spoil, refusal", [
    ("nonce", "your rejoin answers another connection (replayed?)"),
    ("host", "your rejoin is for another game or host"),
    ("signature", "your rejoin's signature does not verify"),
])
def test_the_host_says_gone_only_to_a_real_rejoin_for_it_else_it_refuses(spoil, refusal):
    board = Switchboard("probe", 3, seed=b"gone-" + spoil.encode())
    host = at_a_new_table(board)
    joiner, connection, data = rejoin_on_a_new_connection(board, 1)
    rejoin = open_envelope(data)
    body = dict(rejoin.body)
    if spoil == "nonce":
        body["nonce"] = bytes(32)
    elif spoil == "host":
        body["host"] = Identity.generate().public_key.raw
    if spoil == "signature":
        sent = _resigned_as(rejoin, joiner.identity, Identity.generate())
    else:
        sent = make_envelope(joiner.identity, "rejoin", body).raw
    host.receive(connection, sent)
    [answer] = [open_envelope(data) for number, data in host.take_outgoing() if number == connection]
    assert (answer.kind, answer.body) == ("reject", {"reason": refusal})


def _resigned_as(rejoin, claimed: Identity, signer: Identity) -> bytes:
    """``rejoin`` naming ``claimed`` as its sender but signed by ``signer``."""
    from p2pgames import canonical

    forged = make_envelope(signer, "rejoin", dict(rejoin.body))
    return canonical.encode({"kind": "rejoin", "sender": claimed.public_key.raw, "body": dict(rejoin.body), "sig": forged.signature})


def test_a_reject_of_a_rejoin_stops_the_seat_but_keeps_it_saved():
    """A reject answers no particular rejoin (an old one may be replayed): it proves nothing about
    the game, so the seat stays saved for the player to decide (resume again, or --forget)."""
    board = Switchboard("probe", 3, seed=b"gone-reject")
    host = at_a_new_table(board)
    joiner, _, _ = rejoin_on_a_new_connection(board, 1)
    reject = make_envelope(host.identity, "reject", {"reason": "the table is full"})
    joiner.receive(HOST_CONNECTION, reject.raw)
    assert joiner.finished and joiner.seat_kept and joiner.gone_reason is None
    assert joiner.rejection == "the host refused to take us back: the table is full"


def test_a_host_that_may_still_resume_the_game_refuses_the_rejoin_and_the_seat_is_kept():
    """A host that crashed and hosts a new table instead of resuming (its seat of the old game
    still saved): its players dialling back must not be told the game is gone, which would make
    them forget their seats of a game it can still take up again."""
    board = Switchboard("probe", 3, seed=b"gone-resumable")
    host = at_a_new_table(board)
    joiner = board.sessions[1]
    host.keep_seats_of({joiner.game_id})
    board.reconnect(1)
    board.run(play=False)
    assert joiner.gone_reason is None and joiner.seat_kept and joiner.stage == "halted"
    assert joiner.rejection == (
        "the host refused to take us back: this host has your game saved but is running another table now; your "
        "seat is kept for when it takes the game up again (p2pgames resume)"
    )
    assert not frames(board, 1, "gone")
