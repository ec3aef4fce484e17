"""Keys riding with an act (SPEC §B5): a move that shows cards only its author knows and only it
still locks carries its author's keys of them, so the keys sub-step it begins owes nothing more
and the cards are read in the act's own entry — a lay in Steam Court is one round trip, not two.
What a peer sends otherwise is refused, or proved wrong later, as for any published key; the
reference keeps to a move whose keys the host has seen. Each test runs with §C5's lock keys
(protocol 10, whose transcripts still verify) and, but one, with protocol 11's decryption shares
under their one proof (§B6.3), which are checked as they come."""

from __future__ import annotations

import functools

import pytest
from switchboard import Switchboard as _Switchboard
from test_riding_keys import JOINER, body_of, resigned

from p2pgames import LOCK_DECK_PROTOCOL, PROTOCOL_VERSION
from p2pgames.crypto import scalar_to_bytes
from p2pgames.session import HOST_CONNECTION, Adjourned, Notice, make_envelope, open_envelope
from p2pgames.session._faults import FaultCode

Switchboard = functools.partial(_Switchboard, protocol=LOCK_DECK_PROTOCOL)  # §C5's deck, protocol 10

SEED = b"riding act keys"


def logged(board: Switchboard, seat: int = 2) -> list[dict]:
    """The signed fields of every submission in ``seat``'s log, in order."""
    return [open_envelope(open_envelope(raw).body["submission"]).body for raw in board.sessions[seat].role.entries]


@functools.cache
def played_at_four(protocol: int = LOCK_DECK_PROTOCOL) -> Switchboard:
    """One honest game of four, played and checked once (per protocol) for the tests that only
    read it."""
    board = Switchboard("steamcourt", 4, seed=SEED, protocol=protocol)
    board.run()
    board.check_finished_and_verified(every_entry_agreed=True)
    return board


BOTH = pytest.mark.parametrize("protocol", [LOCK_DECK_PROTOCOL, PROTOCOL_VERSION])


@BOTH
def test_a_lay_carries_its_keys_and_no_keys_submission_of_its_author_follows(protocol):
    submissions = logged(played_at_four(protocol))
    riding = [index for index, sub in enumerate(submissions) if sub["body"]["t"] == "act" and "public" in sub["body"]]
    assert len(riding) > 20 and {submissions[index]["seat"] for index in riding} == {0, 1, 2, 3}
    for index in riding:
        following = submissions[index + 1] if index + 1 < len(submissions) else None
        published = {slot for slot, _ in submissions[index]["body"]["public"]}
        # Its keys of those cards went with it: the keys round after it owes none of them again.
        assert not (following is not None and following["body"]["t"] == "keys" and following["seat"] == submissions[index]["seat"]
                    and published & {slot for slot, _ in following["body"]["public"]}), index
    # Fewer entries than a game whose lays each needed a keys submission after them.
    assert sum(sub["body"]["t"] == "keys" for sub in submissions) < len(riding)


@BOTH
def test_a_card_given_goes_with_its_key_sealed_to_its_receiver(protocol):
    """A give in Steam Court seals the giver's key (its share, at protocol 11) to the receiver with
    the act (§B5): the receiver reads the card at that entry, and the giver owes no ``keys`` for it
    after."""
    submissions = logged(played_at_four(protocol))
    sealing = [index for index, sub in enumerate(submissions) if sub["body"]["t"] == "act" and "sealed" in sub["body"]]
    assert sealing and any(submissions[index]["body"]["action"][0] == "give" for index in sealing)
    for index in sealing:
        author, pairs = submissions[index]["seat"], {(slot, to) for slot, to, _, _ in submissions[index]["body"]["sealed"]}
        assert all(to != author for _, to in pairs)
        for later in submissions[index + 1:]:
            if later["body"]["t"] == "keys" and later["seat"] == author:
                assert not pairs & {(slot, to) for slot, to, _, _ in later["body"]["sealed"]}, index


def riding_act_of_seat_1(change, field: str = "public", protocol: int = LOCK_DECK_PROTOCOL) -> tuple[Switchboard, list[dict]]:
    """The first act of seat 1 that carries keys (``field``: published or sealed; at protocol 11,
    shares), changed and signed again."""
    done: list[dict] = []

    def tamper(seat: int, data: bytes) -> bytes:
        body = body_of(data)
        if seat == JOINER and not done and body.get("t") == "act" and field in body:
            done.append(body)
            return resigned(board, data, change)
        return data

    board = Switchboard("steamcourt", 3, seed=SEED, protocol=protocol)
    board.tamper = tamper
    board.run()
    assert done, "seat 1 made an act with keys"
    return board, done


def _flipped(proof: bytes) -> bytes:
    return proof[:40] + bytes([proof[40] ^ 1]) + proof[41:]


# (what, change, the fault at protocol 10, at 11; None: no such change there). At protocol 11 the
# shares' one proof is checked as they come, before the slots are compared with what rides
# (§B6.3): a share left out or repeated fails the proof of them all.
RIDING_KEYS_CHANGED = [
    ("a key left out", lambda body: body["public"].pop(), FaultCode.ILLEGAL, FaultCode.BAD_KEY),
    ("a key twice", lambda body: body["public"].append(body["public"][0]), FaultCode.ILLEGAL, FaultCode.BAD_KEY),
    ("a slot that does not ride", lambda body: body["public"].append([body["public"][0][0] + 10_000, body["public"][0][1]]),
     FaultCode.ILLEGAL, FaultCode.ILLEGAL),
    ("no scalar (no point)", lambda body: body["public"].__setitem__(0, [body["public"][0][0], b"\xff" * 32]),
     FaultCode.BAD_KEY, FaultCode.BAD_KEY),
    ("an item of the wrong shape", lambda body: body["public"].__setitem__(0, [body["public"][0][0]]),
     FaultCode.MALFORMED, FaultCode.MALFORMED),
    ("none at all (its proof kept)", lambda body: body.__setitem__("public", []), FaultCode.ILLEGAL, FaultCode.MALFORMED),
    ("none at all, no proof", lambda body: body.update(public=[], proof=None), None, FaultCode.ILLEGAL),
    ("not a list", lambda body: body.__setitem__("public", b"keys"), FaultCode.MALFORMED, FaultCode.MALFORMED),
    ("a proof changed", lambda body: body.__setitem__("proof", _flipped(body["proof"])), None, FaultCode.BAD_KEY),
    # (At protocol 10 a wrong key is found when the card is read: the test after next.)
    ("another slot's share", lambda body: body["public"].__setitem__(0, [body["public"][0][0], body["public"][1][1]]),
     None, FaultCode.BAD_KEY),
    ("no proof", lambda body: body.__setitem__("proof", None), None, FaultCode.MALFORMED),
    ("a proof too short", lambda body: body.__setitem__("proof", bytes(63)), None, FaultCode.MALFORMED),
]


@pytest.mark.parametrize("what, change, code, protocol", [
    (what, change, code, protocol) for what, change, *codes in RIDING_KEYS_CHANGED
    for protocol, code in zip((LOCK_DECK_PROTOCOL, PROTOCOL_VERSION), codes) if code is not None])
def test_an_act_with_other_keys_than_ride_with_it_is_its_authors_fault(what, change, code, protocol):
    """(At protocol 11 the keys are shares under one proof, §B6.3; the independent replica's
    verdicts on the same changes: tests/independent/test_protocol_11.py.)"""
    board, _ = riding_act_of_seat_1(change, protocol=protocol)
    fault = board.host.fault
    assert board.host.stage == "halted" and (fault.culprit, fault.code) == (JOINER, code), (what, fault)
    assert board.sessions[2].fault is not None and board.sessions[2].fault.culprit == JOINER


@pytest.mark.parametrize("what, change, code", [
    ("a seal left out", lambda body: body["sealed"].pop(), FaultCode.ILLEGAL),
    ("a seal twice", lambda body: body["sealed"].append(body["sealed"][0]), FaultCode.ILLEGAL),
    ("sealed to itself", lambda body: body["sealed"].__setitem__(0, [body["sealed"][0][0], JOINER, *body["sealed"][0][2:]]),
     FaultCode.ILLEGAL),
    ("an item of the wrong shape", lambda body: body["sealed"].__setitem__(0, body["sealed"][0][:3]), FaultCode.MALFORMED),
    ("a box too big", lambda body: body["sealed"].__setitem__(0, [*body["sealed"][0][:2], bytes(145), body["sealed"][0][3]]),
     FaultCode.MALFORMED),
])
@BOTH
def test_an_act_that_seals_other_keys_than_ride_with_it_is_its_authors_fault(what, change, code, protocol):
    def resealed(body):
        body["sealed"] = [list(item) for item in body["sealed"]]
        change(body)

    board, _ = riding_act_of_seat_1(resealed, "sealed", protocol)
    fault = board.host.fault
    assert board.host.stage == "halted" and (fault.culprit, fault.code) == (JOINER, code), (what, fault)


@BOTH
def test_keys_on_an_act_that_shows_no_card_are_its_authors_fault(protocol):
    """An act whose move begins no keys round (a pass in Steam Court's bidding, say) has nothing
    that rides: keys on it are ``illegal``. (At protocol 11, shares its author published before,
    under their proof, so that only what rides is wrong.)"""
    done: list[dict] = []
    published: list[dict] = []

    def tamper(seat: int, data: bytes) -> bytes:
        body = body_of(data)
        if seat == JOINER and body.get("t") == "keys" and body["public"]:
            published.append(body)
        if seat == JOINER and not done and body.get("t") == "act" and "public" not in body and (
                published or protocol == LOCK_DECK_PROTOCOL):
            done.append(body)
            if protocol == LOCK_DECK_PROTOCOL:
                return resigned(board, data, lambda inner: inner.__setitem__("public", [[0, scalar_to_bytes(7)]]))
            return resigned(board, data, lambda inner: inner.update(public=published[-1]["public"],
                                                                    proof=published[-1]["proof"]))
        return data

    board = Switchboard("steamcourt", 3, seed=SEED, protocol=protocol)
    board.tamper = tamper
    board.run()
    assert done
    fault = board.host.fault
    assert (fault.culprit, fault.code) == (JOINER, FaultCode.ILLEGAL), fault


def test_a_wrong_key_that_rode_is_proved_by_the_act_it_rode_with():
    """The keys aren't checked when they come (§B6.2): the card doesn't decrypt, every seat finds
    seat 1's key unlike its verifier and names it, the act the evidence; the others confirm."""
    def wrong(body):
        body["public"][0] = [body["public"][0][0], scalar_to_bytes(12345)]

    board, _ = riding_act_of_seat_1(wrong)
    faults = [session.fault for seat, session in enumerate(board.sessions) if seat != JOINER]
    assert all(fault is not None and (fault.culprit, fault.code) == (JOINER, FaultCode.BAD_KEY) for fault in faults), faults
    evidence = next(fault.evidence for fault in faults if fault.evidence)
    assert body_of(evidence[0])["t"] == "act"
    assert board.sessions[2].replica.confirm(faults[0]) is None


@BOTH
def test_a_peer_that_sends_no_keys_with_its_act_publishes_them_in_the_keys_round_as_before(protocol):
    """Riding is a MAY: an act without ``public`` is an act, and its author owes its keys in the
    keys sub-step the act begins."""
    def without(seat: int, data: bytes) -> bytes:
        body = body_of(data)
        if seat == JOINER and body.get("t") == "act" and "public" in body:
            return resigned(board, data, lambda inner: (inner.pop("public"), inner.pop("proof", None)))
        return data

    board = Switchboard("steamcourt", 3, seed=SEED, protocol=protocol)
    board.tamper = without
    board.run()
    board.check_finished_and_verified(every_entry_agreed=True)
    submissions = logged(board)
    assert not any(sub["seat"] == JOINER and "public" in sub["body"] for sub in submissions if sub["body"]["t"] == "act")
    assert any(sub["seat"] == JOINER and sub["body"]["t"] == "keys" for sub in submissions)


@BOTH
def test_a_move_whose_keys_the_host_has_seen_is_sent_again_when_called_stale(protocol):
    """A host that calls a legal act stale, having seen the keys that rode with it, gets the same
    move again (§B5): it can't see a card and have another played."""
    seen: list[dict] = []

    def tamper(seat: int, data: bytes) -> bytes | None:
        body = body_of(data)
        if seat == JOINER and body.get("t") == "act" and "public" in body:
            seen.append(body)
            if len(seen) == 1:  # the host "drops" it as stale
                joiner = board.sessions[JOINER]
                stale = make_envelope(board.host.identity, "stale", {
                    "game_id": joiner.game_id, "counter": open_envelope(data).body["counter"], "reason": "too late",
                })
                joiner.receive(HOST_CONNECTION, stale.raw)
                return None
        return data

    board = Switchboard("steamcourt", 3, seed=SEED, protocol=protocol)
    board.tamper = tamper
    board.run()
    board.check_finished_and_verified()
    assert len(seen) > 2 and seen[1] == seen[0]
    assert any(isinstance(event, Notice) and "sent again" in event.text for event in board.events[JOINER])


@BOTH
def test_a_seat_agrees_to_adjourn_only_once_its_move_whose_keys_rode_is_in_the_log(protocol):
    """The host asks to adjourn while seat 1's act, with its keys, is on its way: seat 1's bot
    agrees only once the act is sequenced, so the game can't stop with the keys seen and the act
    not in the log (§B5, §B18)."""
    held: list[bytes] = []

    def tamper(seat: int, data: bytes) -> bytes | None:
        body = body_of(data)
        if seat == JOINER and not held and body.get("t") == "act" and "public" in body:
            held.append(data)
            return None
        return data

    board = Switchboard("steamcourt", 3, seed=SEED, protocol=protocol)
    board.tamper = tamper
    board.run(until=lambda: bool(held))
    board.run()  # the table waits for seat 1's move
    joiner = board.sessions[JOINER]
    assert joiner.adjourn_problem() is not None and "on its way" in joiner.adjourn_problem()
    board.host.adjourn()
    board.run()
    assert not board.host.adjourned and JOINER not in board.host.adjourn_votes
    board.host.receive(board.links[JOINER], held[0])
    board.run()
    assert all(session.adjourned for session in board.sessions)
    assert any(sub["seat"] == JOINER and sub["body"] == body_of(held[0]) for sub in logged(board))
    assert any(isinstance(event, Adjourned) for event in board.events[JOINER] + joiner.take_events())
