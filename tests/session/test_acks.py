"""Acknowledgements passed on several to a message (SPEC §B8, protocol 10): the host's ``acks``.

What the host sends, what a joiner makes of it — each item rebuilt into the envelope its seat
signed, and whatever a host could do wrong with one named as its fault —, and the ``acks``
records of a transcript (§B11).
"""

from __future__ import annotations

import pytest
from switchboard import Switchboard, check_sparse_acks
from test_session_robustness import HOST, JOINER, board_at, deliver, halted_by, settle, signed
from test_transcript_texts import file_of, flip

from p2pgames.games import get_game
from p2pgames.session import HOST_CONNECTION, iter_records, open_envelope, verify_transcript
from p2pgames.session._acks import ack_from_item, ack_item
from p2pgames.session._faults import FaultCode


def frames_by_kind(board: Switchboard, seat: int) -> dict[str, int]:
    counted: dict[str, int] = {}
    for data in board.received[seat]:
        kind = open_envelope(data).kind
        counted[kind] = counted.get(kind, 0) + 1
    return counted


@pytest.mark.parametrize("game, players", [("beltpunk", 4), ("steamcourt", 7)])
def test_every_ack_reaches_every_seat_in_about_one_acks_message_per_entry(game, players):
    """No ack of an honest game is relayed on its own; each joiner is sent at most one ``acks``
    per entry (often fewer: one may hold several entries' acks), and yet every seat agrees on every
    entry, and its transcript keeps every other seat's agreement with the whole log (§B11: each
    seat's latest at checkpoints). Frames per entry: 3(N − 1) + 2 at most."""
    board = Switchboard(game, players, seed=b"acks in batches")
    board.run()
    board.check_finished_and_verified(every_entry_agreed=True)
    entries = board.host.replica.seq
    up = len(board.received[HOST])
    for seat in range(1, players):
        kinds = frames_by_kind(board, seat)
        assert "ack" not in kinds, kinds
        assert kinds["entry"] == entries and kinds["acks"] <= entries
        check_sparse_acks(bytes(board.transcripts[seat]), entries, players)
    down = sum(len(board.received[seat]) for seat in range(1, players))
    assert (up + down) / entries <= 3 * (players - 1) + 2


def test_at_a_table_of_two_the_joiner_is_sent_no_acks_of_its_own():
    """Its acks would be all it got back: nothing is sent, and it agrees on every entry anyway
    (the host's acks are its entries)."""
    board = Switchboard("beltpunk", 2, seed=b"acks at two")
    board.run()
    board.check_finished_and_verified(every_entry_agreed=True)
    assert "acks" not in frames_by_kind(board, 1) and "ack" not in frames_by_kind(board, 1)


def test_an_agreeing_item_leaves_its_entry_and_state_to_the_log_and_rebuilds_its_envelope():
    board = Switchboard("probe", 3)
    board.run()
    joiner = board.sessions[1]
    for (seq, seat), (entry, state, raw) in sorted(joiner._ack_of.items()):
        envelope = open_envelope(raw)
        item = ack_item(seat, envelope, joiner.replica.logged(seq))
        assert item[2:4] == [None, None] and len(item) == 5
        assert ack_from_item(item, joiner.game_id, envelope.sender, joiner.replica.logged).raw == raw
    # Against another log it is written out, and still rebuilds.
    item = ack_item(seat, envelope, (bytes(32), bytes(32)))
    assert item[2:4] == [entry, state]
    assert ack_from_item(item, joiner.game_id, envelope.sender, {}.get).raw == raw


def host_acks(board: Switchboard, items: list) -> bytes:
    return signed(board.sessions[HOST].identity, "acks", {"game_id": board.sessions[JOINER].game_id, "acks": items})


def an_ack_of_seat_2(board: Switchboard) -> list:
    """A real item of seat 2's, of an entry the joiner holds (as the host would pass it on)."""
    joiner, seat_2 = board.sessions[JOINER], board.sessions[2]
    seq = max(seq for seq, seat in seat_2._ack_of if seat == 2 and seq < joiner.replica.seq)
    return ack_item(2, open_envelope(seat_2._ack_of[(seq, 2)][2]), joiner.replica.logged(seq))


def test_an_acks_item_of_a_seat_not_at_the_table_is_the_hosts_malformed():
    board = board_at("joiner-act")
    item = an_ack_of_seat_2(board)
    assert deliver(board, JOINER, HOST_CONNECTION, host_acks(board, [[9] + item[1:]])) == "halted"
    assert "not at the table" in halted_by(board, JOINER, HOST, FaultCode.MALFORMED).reason
    settle(board, attacker=HOST)


def test_an_acks_item_in_the_hosts_own_name_is_its_illegal():
    board = board_at("joiner-act")
    item = an_ack_of_seat_2(board)
    assert deliver(board, JOINER, HOST_CONNECTION, host_acks(board, [[HOST] + item[1:]])) == "halted"
    assert "its entries carry its state" in halted_by(board, JOINER, HOST, FaultCode.ILLEGAL).reason
    settle(board, attacker=HOST)


def test_an_acks_item_that_names_another_state_than_its_seat_signed_is_the_hosts_bad_signature():
    """A disagreeing ack is checked at once: the seat never signed it, so the host forged it.
    (Of the next entry to agree, the one every other seat's ack of is in: at protocol 11 the
    joiner holds seat 2's acks only some entries behind its log, and one of a later entry waits.)"""
    board = board_at("joiner-act")
    joiner, seat_2 = board.sessions[JOINER], board.sessions[2]
    seq = joiner.agreed_through + 1
    item = ack_item(2, open_envelope(seat_2._ack_of[(seq, 2)][2]), joiner.replica.logged(seq))
    assert deliver(board, JOINER, HOST_CONNECTION, host_acks(board, [item[:3] + [b"\x07" * 32, item[4]]])) == "halted"
    assert "did not sign" in halted_by(board, JOINER, HOST, FaultCode.BAD_SIGNATURE).reason
    settle(board, attacker=HOST)


def test_an_acks_item_in_the_joiners_own_name_it_did_not_sign_is_the_hosts_forgery_not_its_equivocation():
    """Its own ack passed back is a repeat; one in its name with another state is checked, not
    believed: the joiner does not call itself an equivocator on the host's word."""
    board = board_at("joiner-act")
    joiner = board.sessions[JOINER]
    seq = joiner.replica.seq - 1
    own = ack_item(JOINER, open_envelope(joiner._ack_of[(seq, JOINER)][2]), joiner.replica.logged(seq))
    assert deliver(board, JOINER, HOST_CONNECTION, host_acks(board, [own])) == "unchanged"
    forged = own[:3] + [b"\x07" * 32, own[4]]
    assert deliver(board, JOINER, HOST_CONNECTION, host_acks(board, [forged])) == "halted"
    halted_by(board, JOINER, HOST, FaultCode.BAD_SIGNATURE)
    settle(board, attacker=HOST)


def test_an_acks_item_of_an_entry_the_joiner_does_not_hold_is_kept_nowhere():
    board = board_at("joiner-act")
    item = an_ack_of_seat_2(board)
    ahead = [item[0], item[1] + 5, None, None, item[4]]
    assert deliver(board, JOINER, HOST_CONNECTION, host_acks(board, [ahead])) == "unchanged"


def test_an_acks_message_of_another_game_is_ignored():
    board = board_at("joiner-act")
    item = an_ack_of_seat_2(board)
    other = signed(board.sessions[HOST].identity, "acks", {"game_id": b"\x09" * 32, "acks": [item]})
    assert deliver(board, JOINER, HOST_CONNECTION, other) == "unchanged"


def test_an_acks_message_not_signed_by_the_host_is_its_bad_signature():
    board = board_at("joiner-act")
    item = an_ack_of_seat_2(board)
    forged = signed(board.sessions[2].identity, "acks", {"game_id": board.sessions[JOINER].game_id, "acks": [item]})
    assert deliver(board, JOINER, HOST_CONNECTION, forged) == "halted"
    halted_by(board, JOINER, HOST, FaultCode.BAD_SIGNATURE)


# -- transcripts (§B11) ------------------------------------------------------------------------------


def played() -> list[tuple[str, object]]:
    board = Switchboard("probe", 3, seed=b"acks records")
    board.run()
    return list(iter_records(bytes(board.transcripts[1])))


def test_a_transcript_of_acks_records_verifies_with_every_ack_counted():
    """Every ack a transcript keeps is counted, the host's in its entries besides (§B11)."""
    items = played()
    report = verify_transcript(file_of(items), get_game)
    assert report.ok and report.complete, report.describe()
    entries = sum(kind == "entry" for kind, _ in items)
    kept = [item for kind, value in items if kind == "acks" for item in value]
    assert report.acks == entries + len(kept) and not any(kind == "ack" for kind, _ in items)
    check_sparse_acks(file_of(items), entries, 3)


def test_a_flipped_bit_in_an_acks_items_signature_is_damage_naming_nobody_and_the_rest_is_checked():
    items = played()
    number = next(n for n, (kind, value) in enumerate(items) if kind == "acks" and value[0][1] >= 3)
    item = list(items[number][1][0])
    item[4] = flip(item[4], 10)
    items[number] = ("acks", [item])
    report = verify_transcript(file_of(items), get_game)
    assert not report.ok and report.failure is None and report.complete
    [(_, text)] = report.damage
    assert text.startswith(f"record {number + 1}, ") and "signature that does not verify" in text


@pytest.mark.parametrize("value, says", [
    ([], "list of 1 to 1024"),
    ([[1, 0, None, None]], "list of 1 to 1024"),
    ([[1, 0, None, None, b"s" * 63]], "list of 1 to 1024"),
    ([[9, 0, None, None, b"s" * 64]], "seat 9, which is not at the table"),
    ("acks", "list of 1 to 1024"),
])
def test_an_acks_record_of_another_shape_is_damage(value, says):
    items = played()
    number = next(n for n, (kind, _) in enumerate(items) if kind == "acks")
    items.insert(number, ("acks", value))
    report = verify_transcript(file_of(items), get_game)
    assert not report.ok and report.failure is None
    [(_, text)] = report.damage
    assert text.startswith(f"record {number + 1} is damaged") and says in text


def test_an_acks_record_before_the_start_is_damage():
    items = played()
    first = next(value for kind, value in items if kind == "acks")
    items.insert(1, ("acks", first))
    report = verify_transcript(file_of(items), get_game)
    assert not report.ok and any("comes before the start record" in text for _, text in report.damage)


# -- what a transcript keeps (§B11) ------------------------------------------------------------------


def test_a_desync_writes_every_seats_ack_of_its_entry_before_the_fault():
    """Seat 2 acknowledges entry 21 (no checkpoint) with a state it did not reach: the honest
    seats stop on a desync naming it, and each writes, before its fault record, every joiner's
    ack of entry 21 — the agreeing ones too, held back until then — so its transcript bears the
    desync out."""
    board = Switchboard("probe", 3, seed=b"acks of a desync")
    at = 21
    cheater = board.sessions[2]
    honest_acknowledge = cheater.role.acknowledge

    def acknowledge(seq: int, entry_digest: bytes, state_hash: bytes) -> None:
        honest_acknowledge(seq, entry_digest, bytes(32) if seq == at else state_hash)

    cheater.role.acknowledge = acknowledge
    board.run()
    for seat in (0, 1):
        fault = board.sessions[seat].fault
        assert (fault.culprit, fault.code, fault.seq) == (2, FaultCode.DESYNC, at), fault
        records = list(iter_records(bytes(board.transcripts[seat])))
        end = next(index for index, (kind, _) in enumerate(records) if kind == "fault")
        before = {(item[0], item[1]) for kind, value in records[:end] if kind == "acks" for item in value}
        assert {(1, at), (2, at)} <= before, sorted(before)
        report = verify_transcript(bytes(board.transcripts[seat]), get_game)
        assert report.ok and report.stop_confirmed, report.describe()
        assert (report.desync_right, report.desync_wrong) == ([0, 1], [2]), report.describe()


def test_a_host_resumed_from_a_transcript_of_sparse_acks_agrees_and_finishes_the_game():
    """The host's transcript holds only each seat's latest agreeing ack at checkpoints (none of
    most entries): resumed from it, the host agrees on every entry up to them — a later ack vouches
    for the ones before it — and the game goes on to its end."""
    from p2pgames.session._session import ACK_RECORD_INTERVAL

    board = Switchboard("probe", 3, seed=b"sparse resume")
    board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= 2 * ACK_RECORD_INTERVAL + 5)
    board.run(play=False)  # every frame delivered
    logged = board.host.replica.seq
    kept = [item for kind, value in iter_records(bytes(board.transcripts[0])) if kind == "acks" for item in value]
    assert len(kept) < logged // 2
    host = board.restart_host()
    assert host.replica.seq == logged and host.agreed_through >= 2 * ACK_RECORD_INTERVAL
    board.run()
    board.check_finished_and_verified(every_entry_agreed=True)
    assert not host.role.took_back  # (it held every entry: no joiner had to give one back)
