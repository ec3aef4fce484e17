"""What ``p2pgames verify`` says about a transcript, word for word: for a finished game, a game a
player quit, a game halted on a fault, and a file damaged on disk.

A record nobody signed as it stands (a flipped bit, a dropped record) is damage to the file, not a
player's proven fault: only a correctly signed message that breaks the rules is.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from switchboard import Switchboard

from p2pgames import canonical
from p2pgames.games import get_game
from p2pgames.session import (
    TranscriptError,
    encode_record,
    iter_records,
    make_envelope,
    open_envelope,
    verify_transcript,
)
from p2pgames.session._transcript import MAX_RECORD

# The probe game's vector as protocol 9 wrote it, every acknowledgement an ``ack`` record (§B11:
# still valid): the damage below is done to one record at a time, and an ``ack`` record stands
# alone, where an ``acks`` item leaves to the log what the damage may have changed. The texts of
# ``acks`` records are pinned down in test_transcript_acks.py.
VECTOR = Path(__file__).parents[2] / "protocol" / "vectors" / "session-probe-3p-v9.p2pt"

HEADER = "Transcript of Probe kept by p1 (seat 1); players: p0, p1, p2."
ALL_CHECKED = (
    "Checked 68 log entries (276 signatures, every chain link, every rule), 204 state-hash acknowledgements, "
    "1 deal audit and no chat lines."
)
RESULT = "Result: p2 (seat 2) won — 2 points; scores p0: 1, p1: 1, p2: 2."
UNPROVEN = "their word, which the signed log can neither prove nor disprove."


def records() -> list[tuple[str, object]]:
    """The probe vector's records (seat 1's transcript of a 3-player game): 1 is the header."""
    return list(iter_records(VECTOR.read_bytes()))


def file_of(items: list[tuple[str, object]]) -> bytes:
    return b"".join(encode_record(canonical.encode([kind, value])) for kind, value in items)


def flip(raw: bytes, position: int, bit: int = 0) -> bytes:
    return raw[:position] + bytes([raw[position] ^ (1 << bit)]) + raw[position + 1:]


def with_record(number: int, change) -> bytes:
    """The vector with record ``number`` (counted from 1) changed by ``change(envelope bytes)``."""
    items = records()
    kind, value = items[number - 1]
    items[number - 1] = (kind, change(value))
    return file_of(items)


def described(data: bytes) -> str:
    return verify_transcript(data, get_game).describe()


def test_a_finished_game():
    assert described(VECTOR.read_bytes()) == "\n".join([HEADER, ALL_CHECKED, RESULT, "Verified."])


# -- a damaged file --------------------------------------------------------------------------------

ENTRY_5 = 19  # record 19 holds log entry 5


def test_the_records_used_below_are_what_they_seem():
    items = records()
    assert items[ENTRY_5 - 1][0] == "entry" and open_envelope(items[ENTRY_5 - 1][1]).body["seq"] == 5
    ack = open_envelope(items[ACK - 1][1])
    assert items[ACK - 1][0] == "ack" and ack.body["seq"] == 5
    assert ack.sender == open_envelope(items[1][1]).body["seats"][2][0]  # seat 2's


def damaged_entry_5(how: str) -> str:
    return "\n".join([
        HEADER,
        # The later acknowledgements' signatures are checked too; what they acknowledge can't be.
        "Checked 5 log entries (150 signatures, every chain link, every rule), 15 state-hash acknowledgements, "
        "no deal audits and no chat lines.",
        f"FAILED at entry 5: the file is damaged or was altered: record 19 {how}; this proves nothing about any player.",
        "The 62 log entries after it could not be checked.",
        "NOT verified.",
    ])


def test_a_flipped_bit_in_an_entrys_signature_is_damage_not_the_hosts_fault():
    data = with_record(ENTRY_5, lambda raw: flip(raw, len(raw) - 1))  # the signature is last
    report = verify_transcript(data, get_game)
    assert not report.ok and report.failure is None
    assert report.describe() == damaged_entry_5("has a signature that does not verify")


def test_a_flipped_bit_in_an_entrys_body_is_damage_not_the_hosts_fault():
    def in_the_state_hash(raw: bytes) -> bytes:
        return flip(raw, raw.index(b"\xa5state\xc4\x20") + 8 + 5, bit=3)

    data = with_record(ENTRY_5, in_the_state_hash)
    assert described(data) == damaged_entry_5("has a signature that does not verify")


def test_an_entry_that_no_longer_decodes_is_damage_not_the_hosts_fault():
    # "entry" becomes "dntry": not a message kind at all (the "sent a malformed log entry").
    data = with_record(ENTRY_5, lambda raw: flip(raw, raw.index(b"\xa5entry") + 1))
    assert described(data) == damaged_entry_5("is not a well-formed message (unknown message kind 'dntry')")


def test_a_flipped_bit_in_the_signers_key_is_damage():
    # The envelope's own sender comes after its body (sorted keys); the body holds the submission's.
    # The envelope's own sender comes after its body (sorted keys); the body holds the submission's.
    data = with_record(ENTRY_5, lambda raw: flip(raw, raw.rindex(b"\xa6sender\xc4\x20") + 9))
    assert described(data) == damaged_entry_5("is signed with a key that is not the host's")


def test_a_dropped_entry_is_damage_not_the_hosts_fault():
    items = records()
    del items[ENTRY_5 - 1]
    assert described(file_of(items)) == damaged_entry_5(
        "holds entry 6 (a record is missing, repeated or out of order)"
    ).replace("record 19", "record 20").replace("The 62 log entries", "The 61 log entries")


ACK = 25  # record 25: p2's acknowledgement of entry 5


def test_a_flipped_bit_in_an_acknowledgement_is_damage_and_the_rest_is_checked():
    data = with_record(ACK, lambda raw: flip(raw, len(raw) - 1))
    report = verify_transcript(data, get_game)
    assert not report.ok and report.failure is None and report.complete
    assert report.describe() == "\n".join([
        HEADER,
        "Checked 68 log entries (275 signatures, every chain link, every rule), 203 state-hash acknowledgements, "
        "1 deal audit and no chat lines.",
        "FAILED: the file is damaged or was altered: record 25, a state-hash acknowledgement in the name of "
        "p2 (seat 2), has a signature that does not verify (unless the host relayed it so: a joiner records "
        "relayed acknowledgements unchecked); this proves nothing about any player.",
        RESULT,
        "NOT verified.",
    ])


def test_no_flipped_bit_in_a_signed_record_is_blamed_on_a_player():
    items = records()
    for number in range(3, 31):  # accepts, entries and acknowledgements
        kind, raw = items[number - 1]
        for position in (len(raw) // 3, len(raw) // 2, len(raw) - 1):
            report = verify_transcript(with_record(number, lambda raw: flip(raw, position)), get_game)
            assert report.failure is None and report.stopped is None and not report.ok, (number, kind, position)
            text = report.describe()
            assert f"the file is damaged or was altered: record {number}" in text, text
            assert text.count("this proves nothing about any player.") == 1, text


def test_a_recorded_entry_with_a_bad_signature_is_the_writers_report_not_proof():
    """An honest joiner records each entry before checking it: a badly signed one is followed by the
    fault it halted on. The file is consistent, but the fault is only what its writer saw."""
    items = records()[:ENTRY_5]
    kind, raw = items[-1]
    items[-1] = (kind, flip(raw, len(raw) - 1))
    items.append(("fault", {
        "culprit": 0, "code": "bad-signature", "reason": "sent a log entry with a bad signature", "seq": 5,
        "reporter": None, "evidence": [],
    }))
    report = verify_transcript(file_of(items), get_game)
    assert report.ok and not report.stop_confirmed
    assert report.describe() == "\n".join([
        HEADER,
        "Checked 5 log entries (22 signatures, every chain link, every rule), 13 state-hash acknowledgements, "
        "no deal audits and no chat lines.",
        "The game stopped after 5 log entries: p0 (seat 0) — sent a log entry with a bad signature; "
        "as seen by p1 (seat 1), who kept this transcript — their word, which the signed log can neither prove nor disprove.",
        "Verified.",
    ])


def test_a_correctly_signed_acknowledgement_that_disagrees_is_its_signers_proven_fault():
    board = Switchboard("probe", 3)
    board.run()
    items = list(iter_records(bytes(board.transcripts[1])))
    entry = open_envelope(next(value for kind, value in items if kind == "entry"))
    wrong = make_envelope(board.sessions[2].identity, "ack", {
        "game_id": entry.body["game_id"], "seq": 0, "entry": entry.digest, "state": bytes(32),
    })
    items.insert(items.index(("entry", entry.raw)) + 1, ("ack", wrong.raw))
    report = verify_transcript(file_of(items), get_game)
    assert report.failure is not None and report.failure.culprit == 2
    assert report.describe() == "\n".join([
        "Transcript of Probe kept by p1 (seat 1); players: p0, p1, p2.",
        "Checked 1 log entry (7 signatures, every chain link, every rule), 1 state-hash acknowledgement, "
        "no deal audits and no chat lines.",
        "FAILED at entry 0: p2 (seat 2) — acknowledged entry 0 with a different state.",
        "NOT verified.",
    ])


# -- a game a player quit, a game halted on a fault ------------------------------------------------


def stopped_board() -> Switchboard:
    board = Switchboard("probe", 3)
    board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= 6)
    return board


def checked(entries: int, signatures: int, acks: int) -> str:
    return (
        f"Checked {entries} log entries ({signatures} signatures, every chain link, every rule), "
        f"{acks} state-hash acknowledgements, no deal audits and no chat lines."
    )


def test_a_game_a_player_quit_names_them_once():
    board = stopped_board()
    board.sessions[1].leave()
    board.run()
    texts = [described(bytes(board.transcripts[seat])) for seat in range(3)]
    stopped = "The game stopped after 7 log entries: p1 (seat 1) left the game (quit); confirmed by their signed leave message."
    # (each keeps the acks its leave record found held back: each seat's latest, and every one of
    # an entry not agreed on yet, §B11)
    for seat, signatures, acks in ((0, 23, 11), (2, 27, 15)):
        assert texts[seat] == "\n".join([
            f"Transcript of Probe kept by p{seat} (seat {seat}); players: p0, p1, p2.",
            checked(7, signatures, acks), stopped, "Verified.",
        ])
    assert texts[1] == "\n".join([
        "Transcript of Probe kept by p1 (seat 1); players: p0, p1, p2.",
        checked(5, 20, 10),  # (p2's acks of the last entries were still with the host, to pass on together)
        "p1 (seat 1), who kept this transcript, left the game (quit) after 5 log entries.",
        "Verified.",
    ])


def test_a_game_halted_on_an_unprovable_fault_says_whose_word_it_is():
    board = stopped_board()
    # A frame over the size limit: only the host saw it, so only its word says so.
    board.host.protocol_violation(1, "oversize", "sent a frame of 2000000 bytes (the limit is 1048576)")
    board.run()
    stopped = "The game stopped after 6 log entries: p1 (seat 1) sent a frame of 2000000 bytes (the limit is 1048576); "
    assert described(bytes(board.transcripts[0])) == "\n".join([
        "Transcript of Probe kept by p0 (seat 0); players: p0, p1, p2.",
        checked(6, 20, 10), stopped + "as seen by p0 (seat 0), who kept this transcript — " + UNPROVEN, "Verified.",
    ])
    # Seat 2 has only the host's word: it records the host's claim, its words quoted, blaming p1 on
    # nobody's word but naming the host as the one who stopped the game.
    assert described(bytes(board.transcripts[2])) == "\n".join([
        "Transcript of Probe kept by p2 (seat 2); players: p0, p1, p2.",
        checked(6, 24, 13),
        "The game stopped after 6 log entries: p0 (seat 0) stopped the game, claiming p1 (seat 1) sent an oversize "
        "frame, in its words: “p1 (seat 1) sent a frame of 2000000 bytes (the limit is 1048576)”; the claim is "
        "unproven.",
        "Verified.",
    ])


# -- a file cut short ------------------------------------------------------------------------------


def boundaries(data: bytes) -> set[int]:
    """The offsets at which a record of ``data`` ends."""
    ends, offset = set(), 0
    while offset < len(data):
        offset += 4 + int.from_bytes(data[offset:offset + 4], "big")
        ends.add(offset)
    return ends


def test_a_file_cut_inside_a_record_is_checked_up_to_the_cut_and_says_where_it_ends():
    data = VECTOR.read_bytes()
    cut = data[: len(data) * 2 // 3]
    assert described(cut) == "\n".join([
        HEADER,
        "Checked 46 log entries (185 signatures, every chain link, every rule), 135 state-hash "
        "acknowledgements, no deal audits and no chat lines.",
        "The file ends inside record 141: it was cut short while being written (a crash or a full disk); "
        "everything before it was checked.",
        "The transcript ends before the game did.",
        "Verified.",
    ])


def test_a_file_cut_anywhere_after_its_header_verifies_what_comes_before_the_cut():
    data = VECTOR.read_bytes()
    ends = boundaries(data)
    header_end = min(ends)
    # Each cut is verified from the start, so not every byte: at every 4th record's end, and
    # inside the record after it — in its length, just past it, and at a point of its body that
    # moves from record to record — and at every byte of the first records.
    starts = sorted(ends)[:-1]
    cuts = set(range(header_end, starts[3]))
    for number, start in enumerate(starts[::4]):
        size = int.from_bytes(data[start:start + 4], "big")
        cuts.update({start, start + 2, start + 4, start + 5 + (number * 7919) % max(size - 1, 1)})
    for length in sorted(cut for cut in cuts if cut < len(data)):
        report = verify_transcript(data[:length], get_game)
        assert report.ok, (length, report.describe())
        assert (report.cut is None) == (length in ends), length
    with pytest.raises(TranscriptError, match="record 1 is cut short"):
        verify_transcript(data[: header_end - 1], get_game)


def test_a_record_longer_than_any_record_may_be_is_damage_not_a_cut():
    data = VECTOR.read_bytes()
    end = min(boundaries(data))
    too_long = data[:end] + (MAX_RECORD + 1).to_bytes(4, "big") + data[end + 4:]
    with pytest.raises(TranscriptError, match="record 2 is too long"):
        verify_transcript(too_long, get_game)
