"""Each kind of cheating, by a real misbehaving peer in a loopback game over TCP.

Every test checks the same four things: the cheat is detected; every honest peer names the
culprit; honest peers stop cleanly with a clear message; and what they hold is intact — their
transcripts verify (recording the fault, confirmed from the evidence where it can be proved) and
they agree with each other on the state.
"""

from cheaters import (
    BadSignature,
    ChangedOpening,
    FalseClaim,
    MalformedFrame,
    OutOfTurn,
    OversizeFrame,
    Replayer,
    Silent,
    SwappedCard,
    WrongKey,
)

from p2pgames import LOCK_DECK_PROTOCOL
from p2pgames.crypto import Identity, reproducible_bytes
from p2pgames.games import get_game
from p2pgames.net import play_table
from p2pgames.session import FaultCode, Session, iter_records, verify_transcript

CHEATER_SEAT = 1


def honest(seat: int, ruleset, seed: bytes, protocol: int | None = None) -> Session:
    random_bytes = reproducible_bytes(seed + b"/honest/" + bytes([seat]))
    return Session(
        Identity.generate(random_bytes(32)), f"honest-{seat}", get_game,
        ruleset=ruleset if seat == 0 else None, bot=True, random_bytes=random_bytes,
        **({} if protocol is None else {"protocol": protocol}),
    )


async def play_with_cheater(tmp_path, cheater_class, *, game="probe", players=3, think=0.0, seed=b"cheat",
                            open_seats=True, protocol=None):
    """Play one seeded game with ``cheater_class`` at seat 1 and honest peers elsewhere, all speaking
    ``protocol`` (None: this version's)."""
    ruleset = get_game(game).ruleset(players, open_seats=open_seats)
    sessions = [honest(seat, ruleset, seed, protocol) for seat in range(players)]
    kwargs = {} if protocol is None else {"protocol": protocol}
    sessions[CHEATER_SEAT] = cheater_class(seed=seed + b"/cheater", **kwargs)
    table = await play_table(game, players, sessions=sessions, transcripts=tmp_path, seed=seed, think=think)
    return table, sessions


def check_caught(table, sessions, code, *, provable, reported=False, seen_by_one=False):
    """``seen_by_one``: only one honest seat could see the cheat (a key sealed to it), so the others
    stop when its report comes, maybe an entry or two later, not on the same entry."""
    assert sessions[CHEATER_SEAT].cheated, "the cheater never got to cheat"
    honest_seats = [s for s in range(len(sessions)) if s != CHEATER_SEAT]
    hashes = set()
    for seat in honest_seats:
        session = sessions[seat]
        fault = session.fault
        assert session.stage == "halted", (seat, session.stage, fault)
        assert fault.code == code, (seat, fault)
        assert "cheater" in fault.describe(session.names)
        report = verify_transcript(table.seats[seat].transcript.read_bytes(), get_game)
        assert report.ok, report.describe()
        if reported and seat != 0:
            # Only the host saw it: the joiners record the host's claim against the cheater, which
            # they can't check: they blame nobody on the host's word, and name the host as the one
            # who stopped the game (§B9).
            assert (fault.culprit, fault.accused, fault.reporter) == (0, CHEATER_SEAT, 0), (seat, fault)
            assert (report.stopped.culprit, report.stopped.accused, report.stopped.reporter) == (0, CHEATER_SEAT, 0)
            assert "the claim is unproven" in report.describe(), report.describe()
        else:
            assert fault.culprit == CHEATER_SEAT, (seat, fault)
            assert report.stopped is not None and report.stopped.culprit == CHEATER_SEAT, report.describe()
        if provable:
            assert report.stop_confirmed, report.describe()
        hashes.add((session.replica.seq, session.replica.state_hash))
    if seen_by_one:
        # Not the same entry, but the same log: each honest transcript's entries begin the others'.
        logs = sorted(
            ([value for kind, value in iter_records(table.seats[seat].transcript.read_bytes()) if kind == "entry"]
             for seat in honest_seats),
            key=len,
        )
        assert all(longer[:len(logs[0])] == logs[0] for longer in logs[1:]), "honest peers applied different logs"
        return
    assert len(hashes) == 1, "honest peers disagree about the state they stopped in"


async def test_bad_signature(tmp_path, autojump_clock):
    table, sessions = await play_with_cheater(tmp_path, BadSignature)
    check_caught(table, sessions, FaultCode.BAD_SIGNATURE, provable=False, reported=True)


async def test_replayed_message(tmp_path, autojump_clock):
    table, sessions = await play_with_cheater(tmp_path, Replayer)
    check_caught(table, sessions, FaultCode.REPLAY, provable=False, reported=True)


async def test_malformed_frame(tmp_path, autojump_clock):
    table, sessions = await play_with_cheater(tmp_path, MalformedFrame)
    check_caught(table, sessions, FaultCode.MALFORMED, provable=False, reported=True)


async def test_oversize_frame(tmp_path, autojump_clock):
    table, sessions = await play_with_cheater(tmp_path, OversizeFrame)
    check_caught(table, sessions, FaultCode.OVERSIZE, provable=False, reported=True)


async def test_move_out_of_turn(tmp_path, autojump_clock):
    table, sessions = await play_with_cheater(tmp_path, OutOfTurn, think=1.0)
    check_caught(table, sessions, FaultCode.ILLEGAL, provable=True)


async def test_commitment_opened_with_a_different_value(tmp_path, autojump_clock):
    table, sessions = await play_with_cheater(tmp_path, ChangedOpening)
    check_caught(table, sessions, FaultCode.BAD_OPENING, provable=True)


async def test_wrong_card_key(tmp_path, autojump_clock):
    table, sessions = await play_with_cheater(tmp_path, WrongKey)
    check_caught(table, sessions, FaultCode.BAD_KEY, provable=True)


async def test_shuffle_pass_that_swaps_a_card(tmp_path, autojump_clock):
    """Tests §C5's deck (its shuffle passes), which version-10 transcripts use."""
    table, sessions = await play_with_cheater(tmp_path, SwappedCard, protocol=LOCK_DECK_PROTOCOL)
    check_caught(table, sessions, FaultCode.BAD_PASS, provable=True)


async def test_a_shuffle_lock_pass_that_puts_a_card_in_twice_is_named_by_the_audit(tmp_path, autojump_clock):
    """The last holder's pass locks each slot with its own key as it shuffles (§B6.1), so a card put
    in twice shows as no repeated value; the audit takes each lock off and finds it (§C5.5). Tests §C5's deck, which version-10 transcripts use."""
    from cheaters import RepeatedCardUnderItsOwnKey

    table, sessions = await play_with_cheater(tmp_path, RepeatedCardUnderItsOwnKey, players=2,
                                               protocol=LOCK_DECK_PROTOCOL)
    check_caught(table, sessions, FaultCode.BAD_PASS, provable=True)


async def test_a_sealed_key_unlike_its_commitment_is_proved_by_the_receivers_sealing_key(tmp_path, autojump_clock):
    """The receiver alone can open the box; it shows its sealing key (only what was sealed to it in
    this game, which is over) and every peer opens the box and sees the wrong key. Shown the key
    it opened instead, the others could not tell it from one made up, and blamed the receiver."""
    from cheaters import WrongSealedKey

    # The round's winner seals the card it passes; with this seed the cheater wins a round.
    table, sessions = await play_with_cheater(tmp_path, WrongSealedKey, seed=b"claim-1")
    check_caught(table, sessions, FaultCode.BAD_KEY, provable=True, seen_by_one=True)


async def test_a_key_riding_with_a_move_sealed_to_the_wrong_seat(tmp_path, autojump_clock):
    """§B5: what rides with a move is recomputed by every peer; a key sealed to another seat than
    the card goes to is refused, the move its author's provable fault."""
    from cheaters import SealedToAnotherSeat

    table, sessions = await play_with_cheater(tmp_path, SealedToAnotherSeat, seed=b"claim-1")
    check_caught(table, sessions, FaultCode.ILLEGAL, provable=True)


async def test_shuffle_pass_with_a_value_that_is_no_card(tmp_path, autojump_clock):
    """Tests §C5's deck (its shuffle passes), which version-10 transcripts use."""
    from cheaters import NotAPoint

    table, sessions = await play_with_cheater(tmp_path, NotAPoint, protocol=LOCK_DECK_PROTOCOL)
    # Only the next peer in the pass order trips over the value (nobody else decompresses the
    # pass's points); the host stops on its report, and may have sequenced another seat's escrow
    # in between, as the deal's escrow entries run alongside the shuffle.
    check_caught(table, sessions, FaultCode.BAD_PASS, provable=True, seen_by_one=True)


async def test_a_share_that_is_not_its_own_fails_its_proof_as_it_comes(tmp_path, autojump_clock):
    """Protocol 11's wrong card key (§B6.3): the one proof of a submission's shares fails for a
    point that is not the publisher's share, and the host refuses it before sequencing it."""
    from cheaters import WrongShare

    table, sessions = await play_with_cheater(tmp_path, WrongShare)
    check_caught(table, sessions, FaultCode.BAD_KEY, provable=True)


async def test_a_pass_with_a_card_that_is_no_point_is_refused_as_it_comes(tmp_path, autojump_clock):
    """Protocol 11's pass (§B6.3): every card is two encodings that decode, checked by the host
    before it sequences the pass."""
    from cheaters import UndecodableCard

    table, sessions = await play_with_cheater(tmp_path, UndecodableCard)
    check_caught(table, sessions, FaultCode.BAD_PASS, provable=True)


async def test_a_pass_that_adds_a_foreign_card_is_named_by_the_audit_it_brings_on(tmp_path, autojump_clock):
    """Protocol 11's swapped card (§B6.3): the pass looks well formed; the slot opens to no card
    of the deal, and the audit remakes every pass from its seed and names the one that differs."""
    from cheaters import ForeignElGamalCard

    table, sessions = await play_with_cheater(tmp_path, ForeignElGamalCard)
    check_caught(table, sessions, FaultCode.BAD_PASS, provable=True)


async def test_false_claim_about_a_hidden_card(tmp_path, autojump_clock):
    # A seed with which the cheater wins a round (and so has a card to pass); the test checks it.
    table, sessions = await play_with_cheater(tmp_path, FalseClaim, seed=b"claim-1")
    check_caught(table, sessions, FaultCode.RULE_VIOLATION, provable=True)


async def test_a_peer_that_stops_answering_is_away_not_blamed_and_the_table_ends_the_game(tmp_path, autojump_clock):
    """Silence proves nothing (a crash, a cable, a sleeping laptop look the same): the silent seat
    is away, the game waits for it, and after the grace period the others end the game; every
    transcript verifies and says why it ended, blaming the silent seat nowhere. The host ended it:
    its own record blames nobody; seat 2 has only the host's word for the absence, so it names the
    host as the one who stopped the game (§B9), as a leave names the leaver. (A table with no bot
    seats: where a bot may take a seat, the others rebuild the silent one from its escrow and play
    on instead — test_escrow.py.)"""
    table, sessions = await play_with_cheater(tmp_path, Silent, open_seats=False)
    assert sessions[CHEATER_SEAT].cheated, "the peer never went silent"
    for seat, ender in ((0, None), (2, 0)):
        fault = sessions[seat].fault
        assert fault is not None and fault.code == FaultCode.ENDED and fault.culprit == ender, (seat, fault)
        assert "cheater (seat 1) was away (connection lost)" in fault.reason, fault
        report = verify_transcript(table.seats[seat].transcript.read_bytes(), get_game)
        assert report.ok, report.describe()
        assert "cheater (seat 1) was away" in report.describe() and report.stopped.culprit == ender


async def test_host_forging_a_move_in_a_joiners_name(tmp_path, autojump_clock):
    """The sequencer can't sign for others: the victim catches it at once, with proof."""
    from cheaters import ForgingHost

    seed = b"forge"
    ruleset = get_game("probe").ruleset(3)
    sessions = [ForgingHost(ruleset, seed=seed + b"/host")] + [honest(seat, ruleset, seed) for seat in (1, 2)]
    table = await play_table("probe", 3, sessions=sessions, transcripts=tmp_path, seed=seed, think=1.0)
    assert sessions[0].cheated
    for seat in (1, 2):
        fault = sessions[seat].fault
        assert sessions[seat].stage == "halted"
        assert fault.culprit == 0 and fault.code == FaultCode.BAD_SIGNATURE, (seat, fault)
        report = verify_transcript(table.seats[seat].transcript.read_bytes(), get_game)
        assert report.ok and report.stop_confirmed, report.describe()
        assert report.stopped.culprit == 0, report.describe()
