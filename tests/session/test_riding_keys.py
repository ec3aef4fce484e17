"""Lock keys riding with a lock pass (SPEC §B6.1, protocol 10): a holder's lock pass publishes the
keys of the deal it would publish in the keys sub-step right after the deal, so the deal's hands
are read once the last lock pass is in — a round trip sooner. What a peer sends otherwise is
refused, or proved wrong later, as for any published key.
Tests §C5's deck (lock keys riding with its lock passes), which version-10 transcripts use."""

from __future__ import annotations

import functools

import pytest
from switchboard import Switchboard as _Switchboard

from p2pgames import LOCK_DECK_PROTOCOL
from p2pgames.crypto import scalar_to_bytes
from p2pgames.session import make_envelope, open_envelope
from p2pgames.session._faults import FaultCode

Switchboard = functools.partial(_Switchboard, protocol=LOCK_DECK_PROTOCOL)  # §C5's deck, protocol 10

JOINER = 1


def body_of(data: bytes) -> dict:
    envelope = open_envelope(data)
    return envelope.body["body"] if envelope.kind == "submit" else {}


def played(tamper=None, game: str = "beltpunk", players: int = 3) -> Switchboard:
    board = Switchboard(game, players, seed=b"riding keys")
    board.tamper = tamper
    board.run()
    return board


def resigned(board: Switchboard, data: bytes, change) -> bytes:
    """Seat 1's submission ``data`` with its body changed by ``change`` and signed again by it."""
    envelope = open_envelope(data)
    inner = dict(envelope.body["body"])
    if "public" in inner:
        inner["public"] = [list(item) for item in inner["public"]]
    change(inner)
    return make_envelope(board.sessions[JOINER].identity, "submit", {**envelope.body, "body": inner}).raw


def test_every_lock_pass_carries_its_keys_and_the_deals_need_no_keys_round_of_their_own():
    board = played()
    board.check_finished_and_verified(every_entry_agreed=True)
    host = board.host
    bodies = [body_of(open_envelope(raw).body["submission"]) for raw in board.sessions[JOINER].role.entries]
    locking = ("shuffle-lock", "lock")  # (the last holder's pass locks as it shuffles, §B6.1)
    for stage in locking:
        assert any("public" in body for body in bodies if body["t"] == "pass" and body["stage"] == stage), stage
    assert all("public" not in body for body in bodies if body["t"] == "pass" and body["stage"] not in locking)
    # No keys submission follows the lock passes of the first deal before play goes on: the hands
    # are read at once.
    first = next(index for index, body in enumerate(bodies) if body["t"] == "pass")
    last_lock = max(index for index, body in enumerate(bodies) if body["t"] == "pass" and body.get("deal") == bodies[first]["deal"])
    after = [body["t"] for body in bodies[last_lock + 1:]]
    card_step = after[:next(index for index, kind in enumerate(after) if kind not in ("pass", "keys", "escrow", "lock-escrow"))]
    assert "keys" not in card_step, after[:10]
    assert host.result is not None


def riding_pass_of_seat_1(change):
    """The first lock pass of seat 1 that carries keys, changed and signed again."""
    done = []

    def tamper(seat: int, data: bytes) -> bytes:
        body = body_of(data)
        if seat == JOINER and not done and body.get("t") == "pass" and "public" in body:
            done.append(body)
            return resigned(board, data, change)
        return data

    board = Switchboard("beltpunk", 3, seed=b"riding keys")
    board.tamper = tamper
    board.run()
    assert done, "seat 1 made a lock pass with keys"
    return board


@pytest.mark.parametrize("what, change, code", [
    ("a key left out", lambda body: body["public"].pop(), FaultCode.ILLEGAL),
    ("a key twice", lambda body: body["public"].append(body["public"][0]), FaultCode.ILLEGAL),
    ("a slot it does not publish", lambda body: body["public"].append([body["public"][0][0] + 10_000, body["public"][0][1]]),
     FaultCode.ILLEGAL),
    ("no scalar", lambda body: body["public"].__setitem__(0, [body["public"][0][0], b"\xff" * 32]), FaultCode.BAD_KEY),
    ("an item of the wrong shape", lambda body: body["public"].__setitem__(0, [body["public"][0][0]]), FaultCode.MALFORMED),
    ("none at all", lambda body: body.__setitem__("public", []), FaultCode.ILLEGAL),
])
def test_a_lock_pass_with_other_keys_than_ride_with_it_is_its_authors_fault(what, change, code):
    board = riding_pass_of_seat_1(change)
    fault = board.host.fault
    assert board.host.stage == "halted" and (fault.culprit, fault.code) == (JOINER, code), (what, fault)
    assert board.sessions[2].fault is not None and board.sessions[2].fault.culprit == JOINER


def test_a_wrong_key_that_rode_is_proved_by_the_pass_it_rode_with():
    """The keys aren't checked when they come (§B6.2): the seat whose card it locks can't read it,
    finds the key unlike its verifier and names seat 1, its pass the evidence; the others confirm."""
    def wrong(body):
        body["public"][0] = [body["public"][0][0], scalar_to_bytes(12345)]

    board = riding_pass_of_seat_1(wrong)
    faults = [session.fault for seat, session in enumerate(board.sessions) if seat != JOINER]
    assert all(fault is not None and (fault.culprit, fault.code) == (JOINER, FaultCode.BAD_KEY) for fault in faults), faults
    assert any(fault.reporter is None and fault.evidence for fault in faults)


def test_a_peer_that_sends_no_keys_with_its_lock_pass_publishes_them_in_the_keys_round_as_before():
    """Riding is a MAY: a lock pass without ``public`` is a lock pass, and its author owes its keys
    in the keys sub-step after the deal."""
    def without(seat: int, data: bytes) -> bytes:
        body = body_of(data)
        if seat == JOINER and body.get("t") == "pass" and "public" in body:
            return resigned(board, data, lambda inner: inner.pop("public"))
        return data

    board = Switchboard("beltpunk", 3, seed=b"riding keys")
    board.tamper = without
    board.run()
    board.check_finished_and_verified(every_entry_agreed=True)
    submissions = [open_envelope(open_envelope(raw).body["submission"]) for raw in board.sessions[2].role.entries]
    assert any(sub.body["seat"] == JOINER and sub.body["body"]["t"] == "keys" for sub in submissions)
