"""Lock keys escrowed as seeds (issue 28; SPEC §B16, §C8): each holder gets one 32-byte seed whose
stream gives its share of every key, a key is the sum of the shares and a public offset, and each
holder's shares are signed as one Merkle root. What a dealer or a holder could get wrong, and who
is named for it.

Sessions only, on the in-memory switchboard.
Tests §C5's deck (its lock escrows), which version-10 transcripts use."""

from __future__ import annotations

import functools

import pytest
from switchboard import Switchboard as _Switchboard
from test_escrow import check_played_on, everyone_plays_on, kinds_logged, vanished

from p2pgames import LOCK_DECK_PROTOCOL
from p2pgames.crypto import CURVE_ORDER, ESCROW_SEED_SIZE, check_lock_key, merkle_root, scalar_to_bytes, seal
from p2pgames.games import get_game
from p2pgames.session import verify_transcript
from p2pgames.session._escrows import (
    LOCK_ESCROW,
    LockEscrowRecord,
    lock_escrow_seeds,
    lock_keys_of,
    lock_seed_context,
    lock_share_leaves,
)
from p2pgames.session._faults import FaultCode, ProtocolFault
from p2pgames.session._messages import make_envelope
from p2pgames.session._replica import RELEASE, Replica
from p2pgames.session._secrets import SeatSecrets

Switchboard = functools.partial(_Switchboard, protocol=LOCK_DECK_PROTOCOL)  # §C5's deck, protocol 10


def escrowed_keys(board: Switchboard, dealer: int, deal: int) -> list[int]:
    """What ``dealer``'s current lock escrow of ``deal`` makes its keys: every holder's shares
    (from the seed sealed to it) added up, with the offsets."""
    replica = board.host.replica
    record = replica.lock_escrows[(dealer, deal)]
    held = [board.sessions[holder].secrets.lock_shares[(dealer, deal)] for holder in record.holders]
    assert all(shares.seq == record.seq for shares in held)
    return [record.lock_key(index, (shares.shares[index] for shares in held)) for index in range(record.size)]


def test_a_first_lock_escrow_is_a_sealed_seed_and_a_root_per_holder_whose_shares_add_up_to_the_keys():
    board = Switchboard("beltpunk", 4, seed=b"seeds-first")
    board.run(until=lambda: board.host.replica is not None and any(
        dealer in crypto.verifiers for (dealer, deal), _ in board.host.replica.lock_escrows.items()
        for crypto in [board.host.replica.deals[deal]]))
    replica = board.host.replica
    checked = 0
    for (dealer, deal), record in replica.lock_escrows.items():
        crypto = replica.deals[deal]
        assert record.offsets == () and all(len(box) == 80 for box in record.boxes)  # a 32-byte seed, sealed
        assert len(record.roots) == len(record.holders) == 3 and all(len(root) == 32 for root in record.roots)
        keys = escrowed_keys(board, dealer, deal)
        assert keys == board.sessions[dealer].secrets.deals[deal].locks  # the sums are its keys
        if dealer in crypto.verifiers:  # and it locked with them
            assert all(check_lock_key(key, verifier) for key, verifier in zip(keys, crypto.verifiers[dealer]))
            # No holder's shares alone are the keys: the others' are one-time pads on them.
            for holder in record.holders:
                alone = board.sessions[holder].secrets.lock_shares[(dealer, deal)].shares
                assert not any(check_lock_key(share, verifier) for share, verifier in zip(alone, crypto.verifiers[dealer]))
            checked += 1
    assert checked


def test_a_lock_escrow_again_to_other_holders_keeps_the_keys_with_fresh_seeds_and_public_offsets():
    board = vanished("beltpunk", 4, b"escrow" + bytes([118]), 118, 1)
    replica = board.host.replica
    before = {key: {holder: board.sessions[holder].secrets.lock_shares[key].shares for holder in record.holders}
              for key, record in replica.lock_escrows.items() if key[0] != 1}
    opened = everyone_plays_on(board, 1)
    board.run(until=lambda: any(record.offsets for record in replica.lock_escrows.values()), play=False)
    again = 0
    for (dealer, deal), record in replica.lock_escrows.items():
        if not record.offsets:
            continue
        again += 1
        crypto = replica.deals[deal]
        assert record.holders == tuple(seat for seat in (0, 2, 3) if seat != dealer)
        assert len(record.offsets) == crypto.size
        keys = escrowed_keys(board, dealer, deal)
        assert keys == board.sessions[dealer].secrets.deals[deal].locks
        assert all(check_lock_key(key, verifier) for key, verifier in zip(keys, crypto.verifiers[dealer]))
        for holder in record.holders:  # fresh seeds: no share of the first escrow again
            fresh = board.sessions[holder].secrets.lock_shares[(dealer, deal)].shares
            assert not set(fresh) & set(before[(dealer, deal)][holder])
    assert again
    board.run()
    check_played_on(board, 1, opened.seq)


def test_a_reference_seat_draws_its_first_seeds_again_while_a_key_would_be_zero(monkeypatch):
    """Should a first escrow's sums hold a 0 (odds about size/n), every seed is drawn again, on
    from where the stream stopped; a re-escrow's offsets take any value."""
    seed, holders = bytes(range(32)), (0, 2, 3)
    import p2pgames.session._escrows as escrows

    # A 0 made to happen: the first draw's sums hold one, so the seeds are the stream's next three.
    sums = escrows.lock_keys_of
    calls: list[int] = []

    def first_with_a_zero(seeds, size, offsets=()):
        calls.append(1)
        keys = sums(seeds, size, offsets)
        return [0, *keys[1:]] if len(calls) == 1 else keys

    monkeypatch.setattr(escrows, "lock_keys_of", first_with_a_zero)
    draw = escrows.secret_source(seed, "lock-seeds", 5, list(holders))
    stream = [draw(ESCROW_SEED_SIZE) for _ in range(2 * len(holders))]
    assert lock_escrow_seeds(seed, 5, 4, holders, None) == (stream[len(holders):], [])
    monkeypatch.undo()
    assert lock_escrow_seeds(seed, 5, 4, holders, None) == (stream[:len(holders)], [])
    seeds, offsets = lock_escrow_seeds(seed, 5, 4, holders, None)
    assert offsets == [] and all(lock_keys_of(seeds, 4)) and len(set(seeds)) == 3
    assert lock_escrow_seeds(seed, 5, 4, holders, None) == (seeds, [])  # drawn, not random
    assert lock_escrow_seeds(seed, 5, 4, (0, 3), None)[0][0] != seeds[0]  # other holders: other seeds
    keys = lock_keys_of(seeds, 4)
    again, offsets = lock_escrow_seeds(seed, 5, 4, (0, 3), keys)
    assert lock_keys_of(again, 4, offsets) == keys and not set(again) & set(seeds)


def test_shares_and_offsets_that_add_up_to_zero_are_no_key_and_the_dealers_fault():
    shares = [12345, CURVE_ORDER - 12345]
    record = LockEscrowRecord(0, 2, (1, 2), (bytes(32),) * 2, (), (b"",) * 2, 7, b"")

    class Crypto:
        first_slot = 40

        @staticmethod
        def check_published_key(index, seat, key):
            return True

    assert record.rebuilt_key(Crypto, 1, 0, shares) == "add up to 0, no lock key, for slot 41"  # offsets empty
    offset = LockEscrowRecord(0, 2, (1, 2), (bytes(32),) * 2, (0, 5), (b"",) * 2, 7, b"")
    assert offset.rebuilt_key(Crypto, 1, 0, [1, CURVE_ORDER - 6]) == "add up to 0, no lock key, for slot 41"
    assert offset.rebuilt_key(Crypto, 1, 0, shares) == 5


def test_a_lock_escrow_whose_keys_add_up_to_zero_names_its_dealer_when_rebuilt():
    """Seat 2 escrows its lock keys of the first deal with offsets that make every key 0 (it
    locks with other keys): nobody can see it while the shares are secret; the rebuild adds them
    up and names it."""
    honest = SeatSecrets.lock_escrow_body

    def zero_keys(secrets, replica, deal, holders):
        body = honest(secrets, replica, deal, holders)
        if secrets.seat == 2 and not body["offsets"]:
            size = replica.deals[deal].size
            seeds, _ = lock_escrow_seeds(secrets.seed, deal, size, holders, None)
            body["offsets"] = [((CURVE_ORDER - total) % CURVE_ORDER).to_bytes(32, "big") for total in lock_keys_of(seeds, size)]
        return body

    SeatSecrets.lock_escrow_body = zero_keys
    try:
        board = vanished("steamcourt", 4, b"escrow" + bytes([53]), 53, 2)
        for seat in (0, 1, 3):
            board.sessions[seat].open_seat(2)
            board.run(play=False)
        board.run()
    finally:
        SeatSecrets.lock_escrow_body = honest
    for seat in (0, 1, 3):
        fault = board.sessions[seat].fault
        assert fault is not None and (fault.culprit, fault.code) == (2, FaultCode.BAD_ESCROW), (seat, fault)
        assert "escrowed shares that add up to 0, no lock key, for slot" in fault.reason
    report = verify_transcript(bytes(board.transcripts[1]), get_game)
    assert report.stopped is not None and (report.stopped.culprit, report.stopped.code) == (2, FaultCode.BAD_ESCROW)


def tampered_box(secrets, replica, body, deal, how):
    """``body`` (seat 2's lock escrow of ``deal``) with what its first holder gets made wrong."""
    holders, size = body["holders"], replica.deals[deal].size
    context = lock_seed_context(replica.game_id, secrets.seat, deal, holders[0], len(holders))
    seal_key = replica.seats[holders[0]].seal
    if how == "another seed":
        body["boxes"][0] = seal(seal_key, bytes(32), context)
    elif how in ("31 bytes", "33 bytes"):
        body["boxes"][0] = seal(seal_key, bytes(int(how[:2])), context)
    elif how == "another root":
        body["roots"][0] = merkle_root(lock_share_leaves(replica.game_id, 2, deal, holders[0], [1] * size))
    elif how == "sealed to another holder":
        body["boxes"][0] = body["boxes"][1]
    return body


def played_with_seat_2s_box(how: str) -> Switchboard:
    """A 4-player Beltpunk game whose seat 2 gets its first holder's box of a lock escrow wrong."""
    board = Switchboard("beltpunk", 4, seed=b"seeds-bad-box")
    honest = SeatSecrets.lock_escrow_body

    def wrong(secrets, replica, deal, holders):
        body = honest(secrets, replica, deal, holders)
        return tampered_box(secrets, replica, body, deal, how) if secrets.seat == 2 else body

    SeatSecrets.lock_escrow_body = wrong
    try:
        board.run()
    finally:
        SeatSecrets.lock_escrow_body = honest
    return board


def test_a_box_longer_than_a_sealed_seed_is_malformed():
    board = played_with_seat_2s_box("33 bytes")  # 81 bytes: more than 80
    for seat in (0, 1, 3):
        fault = board.sessions[seat].fault
        assert fault is not None and (fault.culprit, fault.code) == (2, FaultCode.MALFORMED), fault
        assert fault.reason == "sent a malformed escrow of lock keys"


@pytest.mark.parametrize("how", ["another seed", "31 bytes", "another root", "sealed to another holder"])
def test_a_seed_that_does_not_give_its_holders_root_is_named_with_the_holders_sealing_key(how):
    board = played_with_seat_2s_box(how)
    holder = 0  # the first holder of seat 2's escrow
    fault = board.sessions[holder].fault
    assert fault is not None and (fault.culprit, fault.code) == (2, FaultCode.BAD_ESCROW), fault
    expected = {"another seed": "gives shares whose root is not the one signed", "31 bytes": "is not 32 bytes",
                "another root": "gives shares whose root is not the one signed",
                "sealed to another holder": "does not open"}[how]
    assert fault.reason.endswith(f"that {expected}"), fault.reason
    report = verify_transcript(bytes(board.transcripts[1]), get_game)
    assert report.stopped is not None and (report.stopped.culprit, report.stopped.code) == (2, FaultCode.BAD_ESCROW)
    assert report.stop_confirmed, report.describe()  # the sealing key opens the box as the holder did
    assert kinds_logged(board, 0)[LOCK_ESCROW] >= 1


def submitted(session, replica: Replica, body: dict):
    return make_envelope(session.identity, "submit", {
        "game_id": session.game_id, "seat": session.seat, "counter": replica.counters[session.seat],
        "based_on": replica.seq, "body": body,
    })


def refused(session, replica: Replica, body: dict) -> tuple[int, str, str]:
    with pytest.raises(ProtocolFault) as caught:
        replica.check_submission(submitted(session, replica, body), session.seat)
    fault = caught.value.fault
    return fault.culprit, fault.code, fault.reason


def test_a_rebuild_share_is_proved_by_its_path_to_the_holders_root():
    board = vanished("steamcourt", 4, b"seeds-rebuild", 40, 3)
    joiner, replica = board.sessions[1], board.host.replica
    for seat in (0, 1, 2):
        board.sessions[seat].open_seat(3)
    board.run(until=lambda: 3 in replica.rebuilding and 1 not in replica.rebuild_shares.get(3, {}), play=False)
    good = joiner.secrets.rebuild_body(replica, 3)
    (slot, share, path), second, *rest = good["locks"]
    assert len(path) in (4, 5, 6, 7) and all(len(item) == 32 for item in path)

    def with_first(item):
        return {**good, "locks": [item, second, *rest]}

    another = board.sessions[2].secrets.rebuild_body(replica, 3)["locks"][0]
    flipped = [bytes([path[0][0] ^ 1]) + path[0][1:], *path[1:]]
    for item in ([slot, second[1], path], [slot, share, second[2]], [slot, share, flipped],
                 [slot, another[1], another[2]], [slot, scalar_to_bytes(int.from_bytes(share, "big") + 1), path]):
        culprit, code, reason = refused(joiner, replica, with_first(item))
        assert (culprit, code) == (1, FaultCode.ILLEGAL)
        assert reason == f"gave a share of seat 3's lock key for slot {slot} whose path does not lead to its root"
    for item in ([slot, share, path[:-1]], [slot, share, path + path[:1]], [slot, share, [*path[:-1], b"x"]],
                 [slot, share], [slot, share, None]):
        culprit, code, _ = refused(joiner, replica, with_first(item))
        assert (culprit, code) == (1, FaultCode.MALFORMED)
    replica.check_submission(submitted(joiner, replica, good), 1)  # (the honest one goes through)


def test_a_published_released_share_is_proved_by_its_path_to_the_holders_root():
    """Beltpunk: seat 1 gone and rebuilt, its holders publish their shares of the keys that stayed
    escrowed when a card step needs them, each with its path: one that does not lead to its root
    is the holder's `illegal`, one of another depth `malformed`."""
    board = vanished("beltpunk", 4, b"escrow" + bytes([118]), 118, 1)
    everyone_plays_on(board, 1)
    replica = board.host.replica
    board.run(until=lambda: any(replica.release_requirement(seat) for seat in (0, 2, 3)))
    seat = next(seat for seat in (0, 2, 3) if replica.release_requirement(seat))
    good = board.sessions[seat].secrets._release(replica)
    (gone, slot, share, path), *rest = good["public"]
    for bad_path in (path[::-1], [bytes(32)] * len(path), good["public"][1][3] if rest else path[::-1]):
        if bad_path == path:
            continue
        culprit, code, reason = refused(board.sessions[seat], replica, {**good, "public": [[gone, slot, share, bad_path], *rest]})
        assert (culprit, code) == (seat, FaultCode.ILLEGAL)
        assert reason == f"released a share of seat 1's lock key for slot {slot} whose path does not lead to its root"
    for item in ([gone, slot, share, path[1:]], [gone, slot, share, path + path[:1]], [gone, slot, share]):
        assert refused(board.sessions[seat], replica, {**good, "public": [item, *rest]})[:2] == (seat, FaultCode.MALFORMED)
    replica.check_submission(submitted(board.sessions[seat], replica, good), seat)  # (the honest one goes through)


def test_a_sealed_released_share_whose_path_leads_nowhere_is_named_by_its_receiver():
    """Astonishing!: seat 2 gone and rebuilt, a holder seals its share of a key that stayed
    escrowed to the one seat a card is shown to, the path beside the box — a path to nowhere:
    the receiver opens the share, finds it does not lead to the sender's root, and proves the
    sender's `bad-escrow` with its sealing key."""
    honest = SeatSecrets._release

    def wrong_paths(secrets, replica):
        body = honest(secrets, replica)
        if body is not None:
            body["sealed"] = [[*item[:4], [bytes(32)] * len(item[4])] for item in body["sealed"]]
        return body

    board = vanished("astonishing", 3, b"escrow" + bytes([53]), 53, 2)
    SeatSecrets._release = wrong_paths
    try:
        everyone_plays_on(board, 2)
        board.run()
    finally:
        SeatSecrets._release = honest
    assert kinds_logged(board, 0)[RELEASE] > 0
    faults = [session.fault for session in board.sessions[:2] if session.fault is not None]
    assert faults, "a share was sealed"
    sealer = faults[0].culprit
    assert all((fault.culprit, fault.code) == (sealer, FaultCode.BAD_ESCROW) for fault in faults)
    assert any(fault.reason.endswith("that its path does not lead to its root") for fault in faults)
    report = verify_transcript(bytes(board.transcripts[1 - sealer]), get_game)
    assert report.stopped is not None and (report.stopped.culprit, report.stopped.code) == (sealer, FaultCode.BAD_ESCROW)
    assert report.stop_confirmed, report.describe()
