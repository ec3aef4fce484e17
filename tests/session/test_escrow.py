"""Key escrow (issue 25; SPEC §B16): a seat that vanishes holding cards is played on by a bot once
every other seat still playing gives its shares of the seat's escrow — its own cards shown to all,
a card it gave away or knew alone still hidden, released share by share only where a card step
sends it. A dealer whose shares are wrong is named with its evidence.

Sessions only, on the in-memory switchboard.
Most tests here test §C5's deck (its lock escrows and lock keys), which version-10 transcripts use;
those that hold at both run at both (§B16.6's rebuild: tests/session/test_elgamal_tables.py)."""

from __future__ import annotations

import functools

import random
from collections import Counter

import pytest
from independent import transcript as independent
from switchboard import Switchboard as _Switchboard
from test_elgamal_tables import logged_submissions

from p2pgames import LOCK_DECK_PROTOCOL, PROTOCOL_VERSION
from p2pgames.crypto import CURVE_ORDER, check_lock_key, elgamal, scalar_to_bytes, seal, transform
from p2pgames.games import get_game
from p2pgames.session import OpenSeatAsked, SeatOpened, iter_records, open_envelope, verify_transcript
from p2pgames.session._deals import DealCrypto
from p2pgames.session._elgamal_deals import ElGamalDeal
from p2pgames.session._escrows import ESCROW, LOCK_ESCROW, share_context
from p2pgames.session._faults import FaultCode, ProtocolFault
from p2pgames.session._messages import make_envelope
from p2pgames.session._replica import REBUILD, RELEASE, AuditSub, CardPhase, DealSub, Replica
from p2pgames.session._secrets import SeatSecrets

# §C5's deck, protocol 10, unless a test names another (those that hold at both: @BOTH).
Switchboard = functools.partial(_Switchboard, protocol=LOCK_DECK_PROTOCOL)
BOTH = pytest.mark.parametrize("protocol", [LOCK_DECK_PROTOCOL, PROTOCOL_VERSION])


def vanished(game: str, players: int, seed: bytes, at: int, gone: int,
             protocol: int = LOCK_DECK_PROTOCOL) -> Switchboard:
    """A table whose seat ``gone`` vanished after entry ``at``, holding keys of a deal."""
    board = Switchboard(game, players, seed=seed, protocol=protocol)
    board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= at)
    assert any(True for _ in board.host.replica.unaudited_deals_of(gone)), "it holds keys: no escrow, no play on"
    board.cut(gone)
    board.run(play=False)
    return board


def playing(board: Switchboard, gone: int) -> list[int]:
    return [seat for seat in range(len(board.sessions)) if seat != gone]


def entry_kinds(board: Switchboard, seat: int) -> list[str]:
    """The submission kind of each entry of ``seat``'s transcript, in log order."""
    return [body["t"] for _author, body in logged_submissions(board, seat)]


def kinds_logged(board: Switchboard, seat: int) -> Counter:
    """How many entries of each submission kind ``seat``'s transcript holds."""
    return Counter(entry_kinds(board, seat))


def everyone_plays_on(board: Switchboard, gone: int) -> SeatOpened:
    """Every seat still playing agrees to play on; then, the seat opened for good, each gives its
    shares. Not one share is public before every seat has agreed (a seat that came back would
    have them out). The rebuild entry unlocks the seat's own cards and no other: every slot out of
    its keeping that some key still locked stays locked (a card it gave, or knew alone, among
    them). Returns the announcement."""
    *first, last = playing(board, gone)
    replica = board.host.replica
    for seat in first:
        assert board.sessions[seat].play_on_problem(gone) is None
        board.sessions[seat].open_seat(gone)
        board.run(play=False)
        assert gone not in replica.open_seats  # not before every seat has agreed
        assert not replica.rebuild_shares and REBUILD not in kinds_logged(board, 0)
    locked_before: dict[int, bool] = {}
    locked_after: dict[int, bool] = {}
    kept: set[int] = set()
    watched_rebuilds = []
    original = Replica._rebuild

    def watched(self, applied, seat):
        if self is replica:
            watched_rebuilds.append(seat)
            locked_before.update(still_locked(self))
            kept.update(self.game.kept_slots(self.state, gone))
            # (Its own cards also where a re-mask of its hand is under way: the old slots of its hand.)
            kept.update(slot for crypto in self.deals.values() if crypto.source_slots is not None
                        and set(range(crypto.first_slot, crypto.first_slot + crypto.size)) <= kept
                        for slot in crypto.source_slots)
        rebuilt = original(self, applied, seat)
        if self is replica:  # what the rebuild itself opened (entries after it may open more)
            locked_after.update(still_locked(self))
        return rebuilt

    Replica._rebuild = watched
    try:
        board.sessions[last].open_seat(gone)
        board.run(until=lambda: gone in replica.rebuilt, play=False)
    finally:
        Replica._rebuild = original
    assert gone in replica.rebuilt and watched_rebuilds == [gone]
    opened_now = {slot for slot, locked in locked_before.items() if locked and not locked_after.get(slot, True)}
    assert opened_now <= kept, sorted(opened_now - kept)
    board.run(play=False)
    events = board.events[last] + board.sessions[last].take_events()
    assert any(isinstance(event, OpenSeatAsked) and event.seat == gone for event in events)
    [opened] = [event for event in events if isinstance(event, SeatOpened)]
    assert opened.rebuilt and "the others rebuild its card keys from its escrow" in opened.text
    return opened


def still_locked(replica: Replica) -> dict[int, bool]:
    """Every live slot of a locked deal: whether some holder's key of it is still unpublished."""
    return {
        crypto.first_slot + index: bool(crypto.unreleased[index])
        for crypto in replica.deals.values() if crypto.next_pass() is None for index in range(crypto.size)
    }


def check_played_on(board: Switchboard, gone: int, entry: int) -> None:
    """The game ended; every remaining transcript verifies and says from which entry a bot played
    the seat, its keys rebuilt; nobody is blamed; and the independent verifier (slow: pure-Python
    curve arithmetic) accepts the host's."""
    other = independent.verify(bytes(board.transcripts[board.host_seat]))
    assert other.ok, other.problem
    for seat in playing(board, gone):
        session = board.sessions[seat]
        assert session.fault is None and session.result is not None, (seat, session.fault)
        report = verify_transcript(bytes(board.transcripts[seat]), get_game)
        assert report.ok and report.complete, report.describe()
        assert report.open_seats == {gone: entry} and report.rebuilt == {gone}
        assert (f"From entry {entry} a bot played the seat of p{gone} (seat {gone}) (its keys rebuilt by all "
                "the others from its escrow), its cards open to all.") in report.describe()


@pytest.mark.parametrize(("game", "players", "at", "gone"), [
    ("steamcourt", 4, 53, 2),
    ("beltpunk", 4, 118, 1),
    ("astonishing", 3, 53, 2),
    ("steamcourt2015", 4, 66, 3),
])
def test_a_seat_gone_for_good_is_rebuilt_by_all_the_others_and_the_game_is_played_to_its_end(game, players, at, gone):
    # (Protocol 11's: test_elgamal_tables.py, of the same name.)
    board = vanished(game, players, b"escrow" + bytes([at % 256]), at, gone)
    opened = everyone_plays_on(board, gone)
    board.run()
    check_played_on(board, gone, opened.seq)
    logged = kinds_logged(board, 0)
    assert logged[REBUILD] == players - 1 and logged[ESCROW] >= players and logged[LOCK_ESCROW] >= players


def test_a_card_the_departed_seat_gave_stays_hidden_until_a_card_step_needs_its_key():
    """Steam Court: the departed seat had given a card (locked by its key alone, known to its
    receiver): the rebuild leaves that key escrowed, and its holders release their shares later,
    where the game shows the card."""
    board = vanished("steamcourt", 4, b"escrow" + bytes([35]), 35, 2)
    replica = board.host.replica
    given = [crypto.first_slot + index for crypto in replica.unaudited_deals_of(2) for index in range(crypto.size)
             if crypto.unreleased[index] == {2} and crypto.knows[index] - {2}
             and crypto.first_slot + index not in replica.game.kept_slots(replica.state, 2)]
    assert given, "this seed's seat 2 has given a card"
    opened = everyone_plays_on(board, 2)
    for slot in given:
        crypto, index = replica.deal_of_slot(slot)
        assert 2 in crypto.unreleased[index]  # still escrowed: nobody but its receiver knows it
    # The others escrow again among the three left; but while those keys stay escrowed, a second
    # seat can't leave the table with its shares of them: neither rebuilt nor handed over.
    board.run(play=False)
    assert all(replica.escrows[seat].holders == tuple(other for other in (0, 1, 3) if other != seat) for seat in (0, 1, 3))
    problem = "holds shares of p2's keys of cards still hidden in deal"  # (protocol 11's: test_elgamal_tables.py)
    assert problem in replica.rebuild_problem(3) and problem in replica.hand_over_problem(3)
    board.run()
    check_played_on(board, 2, opened.seq)
    assert kinds_logged(board, 0)[RELEASE] > 0


def test_a_re_shuffle_over_a_card_only_the_departed_seat_knew_shows_it_to_one_holder_first():
    """Astonishing!: a pile re-shuffled with a card whose last lock is the departed seat's
    escrowed key: one holder of the new deal is shown it (sealed shares), then takes the lock off."""
    shows = []
    original = Replica._show_before_reshuffle

    def counted(self, phase, sub, applied):
        shown = original(self, phase, sub, applied)
        shows.append(shown)
        return shown

    board = vanished("astonishing", 3, b"escrow" + bytes([1]), 53, 2)
    Replica._show_before_reshuffle = counted
    try:
        opened = everyone_plays_on(board, 2)
        board.run()
    finally:
        Replica._show_before_reshuffle = original
    assert any(shows)
    check_played_on(board, 2, opened.seq)


@pytest.mark.parametrize(("seed", "at"), [(0, 49), (0, 128), (2, 78)])
def test_a_re_shuffle_over_a_card_the_seat_being_rebuilt_still_locks_waits_for_the_rebuild(seed, at):
    """Astonishing!: seat 2 vanishes and both others agree to play on, but seat 1's shares come
    late. Meanwhile the cards come to a re-shuffle over a card seat 2's key still locks: nobody
    can take that lock off before the rebuild (the key comes off with it, or a stand-in takes it
    off, §B16 step 5), so the re-shuffle waits, not set up, the table waiting for seat 2; the
    entry that rebuilds the seat sets it up, and the game is played to its end."""
    board = vanished("astonishing", 3, b"wait" + bytes([seed]), at, 2)
    replica = board.host.replica
    late = board.sessions[1]
    submit = late._submit
    late._submit = lambda body, **kwargs: None if body["t"] == REBUILD else submit(body, **kwargs)
    for seat in (0, 1):
        board.sessions[seat].open_seat(2)
        board.run(play=False)
    board.run()
    assert 2 in replica.rebuilding and replica.waiting_for() == (2,)
    sub = replica.phase.current
    assert isinstance(sub, DealSub) and any(deal not in replica.deals for deal in sub.deals)
    waited = replica.seq
    late._submit = submit
    submit(late.secrets.rebuild_body(late.replica, 2))
    board.run()
    assert replica.rebuilt and replica.open_seats[2] < waited
    check_played_on(board, 2, replica.open_seats[2])


def run_to_a_re_mask_over_a_given_card(board: Switchboard, at: int, gone: int, stand_in: int) -> tuple[int, DealCrypto, list[int]]:
    """Play Astonishing! from entry ``at`` on to the first moment a re-mask of ``stand_in``'s hand
    is under way whose re-key pass ``gone`` has still to make (and ``stand_in`` has made its own if
    it comes first) over a card only ``gone``'s key locks: one it gave. Returns the re-mask's deal
    number, its record, and the positions of its sources that ``gone`` gave."""

    def re_masks() -> list:
        replica = board.host.replica
        return [] if replica is None else [(deal, crypto) for deal, crypto in replica.deals.items()
                                           if crypto.source_slots is not None and crypto.next_pass() is not None]

    def given_by_gone(crypto) -> list[int]:
        replica = board.host.replica
        return [position for position, slot in enumerate(crypto.source_slots)
                if replica.deal_of_slot(slot)[0].unreleased[replica.deal_of_slot(slot)[1]] == {gone}]

    def the_moment() -> bool:
        replica = board.host.replica
        if replica is None or replica.seq < at or len(re_masks()) != 1:
            return False
        [(_, crypto)] = re_masks()
        hand = set(replica.game.kept_slots(replica.state, stand_in))
        return (("rekey", gone) not in crypto.passes and (("rekey", stand_in) in crypto.passes) == (stand_in < gone)
                and set(range(crypto.first_slot, crypto.first_slot + crypto.size)) <= hand
                and bool(given_by_gone(crypto)))

    board.run(until=the_moment)
    [(deal, crypto)] = re_masks()
    assert ("rekey", gone) not in crypto.passes and (("rekey", stand_in) in crypto.passes) == (stand_in < gone)
    given = given_by_gone(crypto)
    assert given, "a source only the departed seat's key locks"
    return deal, crypto, given


@pytest.mark.parametrize(("seed", "at", "gone", "stand_in", "prepared"),
                         [(1, 53, 2, 0, False), (1, 53, 2, 0, True), (2, 124, 1, 2, False)])
def test_a_re_mask_under_way_over_a_card_the_departed_seat_gave_starts_again_without_it(
        seed, at, gone, stand_in, prepared):
    """Astonishing!: a hand is re-masked right after a trade, and the seat that gave a card into it
    vanishes before its re-key pass — a pass that would take off its key, still escrowed, of the
    card it gave. Rebuilt, the seat holds that re-mask no more: it starts again among the others,
    and the card's receiver (who knows the key: it was sealed to it) takes that lock off in its own
    re-key pass, whether its first was made before (seat 0) or not (seat 2).

    ``prepared``: every seat had used its idle time to make its lock pass ahead before the seat
    vanished. The re-mask starts again among seats 0 and 1, so seat 1 becomes its last holder,
    whose lock pass strips no shuffle key (§B6.1): what it made ahead is made again, not sent."""
    board = Switchboard("astonishing", 3, seed=b"win" + bytes([seed]), idle_work=prepared)
    deal, crypto, given = run_to_a_re_mask_over_a_given_card(board, at, gone, stand_in)
    replica = board.host.replica
    board.cut(gone)
    board.run(play=False)
    if prepared:
        for seat in playing(board, gone):
            while board.sessions[seat].background_work():
                pass
        last = max(seat for seat in crypto.holders if seat != gone)
        assert board.sessions[last].secrets.deals[deal].lock_scalars is not None
    assert board.sessions[stand_in].play_on_problem(gone) is None
    opened = everyone_plays_on(board, gone)
    restarted = replica.deals[deal]
    assert restarted is not crypto and gone not in restarted.holders
    assert replica.rekey_stand_ins[deal] == {position: (gone, stand_in) for position in given}
    board.run()
    check_played_on(board, gone, opened.seq)
    passes = Counter((body["stage"], author) for author, body in logged_submissions(board, 0)
                     if body["t"] == "pass" and body["deal"] == deal)
    # The passes made before it started again are in the log, void; then every pass of the others.
    void = Counter(list(crypto.passes))
    assert void and set(void) <= {("rekey", seat) for seat in restarted.holders}
    first, last = restarted.holders  # (§B6.1: the last shuffles and locks in one pass)
    made = [("rekey", first), ("rekey", last), ("shuffle", first), ("shuffle-lock", last), ("lock", first)]
    assert passes == Counter(made) + void


@pytest.mark.parametrize("gone", [1, 2])
def test_a_re_mask_under_way_at_an_elgamal_table_waits_for_the_rebuild_and_the_caretaker_makes_the_seats_pass(gone):
    """Protocol 11 (§B16.6): an Astonishing! re-mask (a re-shuffle) has its first pass, and a seat
    still due in it vanishes. Nothing starts again: the re-shuffle keeps its holders, and once the
    seat is rebuilt its caretaker makes the seat's pass, the one its pass seed gives (everyone
    remakes it: another would be the caretaker's `bad-pass`); the game is played to its end."""
    board = Switchboard("astonishing", 3, seed=b"remask" + bytes([2]), protocol=PROTOCOL_VERSION)

    def under_way() -> tuple[int, ElGamalDeal] | None:
        replica = board.host.replica
        if replica is None or not isinstance(replica.phase, CardPhase) or not isinstance(replica.phase.current, DealSub):
            return None
        return next(((deal, replica.deals[deal]) for deal in replica.phase.current.deals if deal in replica.deals
                     and replica.deals[deal].source_slots and replica.deals[deal].passes
                     and gone in replica.deals[deal].holders and gone not in replica.deals[deal].passes), None)

    board.run(until=lambda: under_way() is not None)
    deal, crypto = under_way()
    board.cut(gone)
    board.run(play=False)
    opened = everyone_plays_on(board, gone)
    replica = board.host.replica
    assert replica.deals[deal] is crypto and crypto.holders == (0, 1, 2)  # not started again
    board.run()
    check_played_on(board, gone, opened.seq)
    assert gone in crypto.passes
    passes = [(author, index) for index, (author, body) in enumerate(logged_submissions(board, 0))
              if body["t"] == "pass" and body["deal"] == deal]
    assert [seat for seat, _ in passes] == [0, 1, 2] and passes[gone][1] >= opened.seq  # its pass after the rebuild


def test_a_wrong_pass_in_a_re_mask_started_again_after_a_rebuild_is_named_once_the_escrow_is_revealed(monkeypatch):
    """The re-mask of the test above (seat 2 gave seat 0 a card, then vanished), started again
    between seats 0 and 1 — where seat 1 cheats in its shuffle-lock pass. The cards then hold no
    card: the audit that follows covers the re-mask and its sources, where seat 2's key of the card
    it gave is still escrowed, so a keys round reveals that card first (§B7, §B16 step 5); the audit
    then names seat 1 (`bad-pass`), for every seat and for the transcript's verifier."""
    cheater, gone, stand_in = 1, 2, 0
    board = Switchboard("astonishing", 3, seed=b"win" + bytes([1]))
    deal, _, _ = run_to_a_re_mask_over_a_given_card(board, 53, gone, stand_in)
    honest_pass = SeatSecrets._compute_pass

    def a_wrong_shuffle_lock(self, replica, crypto, number, stage):
        body = honest_pass(self, replica, crypto, number, stage)
        if self.seat == cheater and number == deal and stage == "shuffle-lock":
            body = dict(body, values=transform(body["values"], 7))  # curve points, wrong ones
        return body

    monkeypatch.setattr(SeatSecrets, "_compute_pass", a_wrong_shuffle_lock)
    board.cut(gone)
    board.run(play=False)
    everyone_plays_on(board, gone)
    board.run()
    for seat in playing(board, gone):
        fault = board.sessions[seat].fault
        assert fault is not None and (fault.culprit, fault.code) == (cheater, FaultCode.BAD_PASS), (seat, fault)
    kinds = entry_kinds(board, 0)
    audits = kinds[kinds.index("audit"):]
    assert set(audits) == {"audit"}, audits  # the game stopped at the audit
    before = kinds[:kinds.index("audit")]
    assert RELEASE in before[len(before) - 1 - before[::-1].index("pass"):], before[-8:]  # revealed after the cheat
    report = verify_transcript(bytes(board.transcripts[0]), get_game)
    assert report.ok and report.stopped is not None, report.describe()
    assert (report.stopped.code, report.stopped.culprit) == (FaultCode.BAD_PASS, cheater), report.describe()
    other = independent.verify(bytes(board.transcripts[0]))  # (its signed log: it has no Astonishing! rules)
    assert other.ok and not other.followed, other


def test_a_dispute_after_a_rebuild_reveals_what_the_escrow_keeps_before_its_audit():
    """After the rebuild, a card the departed seat gave (or knew alone) is still locked by its
    escrowed key. A dispute of that card's deal — a wrong one here — is audited only after a keys
    round in which the escrow's holders release their shares (§B7, §B16 step 5), as an `Audit`'s
    is: the audit then finds every pass right and every seat names the disputer (`bad-dispute`),
    as the independent verifier does. Without that round, every peer crashed (``KeyError``) at the
    audit, for want of the key."""
    board = vanished("steamcourt", 4, b"escrow" + bytes([35]), 35, 2)  # (as the test above)
    everyone_plays_on(board, 2)
    board.run(play=False)
    escrowed = board.escrowed_slots(2)
    assert escrowed, "a key of the rebuilt seat that stays escrowed"
    disputer = 1
    board.dispute(disputer, escrowed[0])
    board.run()
    for seat in playing(board, 2):
        fault = board.sessions[seat].fault
        assert fault is not None and (fault.culprit, fault.code) == (disputer, FaultCode.BAD_DISPUTE), (seat, fault)
    kinds = entry_kinds(board, 0)
    after = kinds[kinds.index("dispute") + 1:]
    assert RELEASE in after and "audit" in after and after.index(RELEASE) < after.index("audit"), after
    assert set(after) <= {"keys", RELEASE, "audit"}, after
    report = verify_transcript(bytes(board.transcripts[0]), get_game)
    assert report.ok and report.stopped is not None, report.describe()
    assert (report.stopped.code, report.stopped.culprit) == (FaultCode.BAD_DISPUTE, disputer), report.describe()
    other = independent.verify(bytes(board.transcripts[0]))
    assert other.ok and other.stopped is not None and other.stopped[:2] == ("bad-dispute", disputer), other


@BOTH
@pytest.mark.parametrize(("game", "players", "seed", "gone"), [("astonishing", 3, b"b", 2), ("beltpunk", 3, b"a", 2)])
def test_a_seat_gone_during_an_audit_has_what_its_escrow_keeps_revealed_and_the_audits_in_stand(
    game, players, seed, gone, protocol,
):
    """A seat vanishes as an audit begins, its `audit` not sent; the others' are in. Rebuilt, it
    submits none (§B16 step 6), but some of its keys in the audited deals stay escrowed (cards it
    gave or knew alone): a keys round reveals them first (step 5), its escrow's holders releasing
    their shares, and the audit is then done with the audits already in — nobody sends one again."""
    board = Switchboard(game, players, seed=seed, protocol=protocol)

    def at_an_audit() -> bool:
        replica = board.host.replica
        return replica is not None and isinstance(replica.phase, CardPhase) and isinstance(replica.phase.current, AuditSub)

    board.run(until=at_an_audit)
    replica = board.host.replica
    audit = replica.phase.current
    board.cut(gone)
    board.run(play=False)
    assert set(audit.submitted) == set(playing(board, gone))
    opened = everyone_plays_on(board, gone)
    board.run()
    check_played_on(board, gone, opened.seq)
    kinds = entry_kinds(board, 0)
    rebuilt = len(kinds) - 1 - kinds[::-1].index(REBUILD)
    following = kinds[rebuilt + 1:]
    assert following[0] == RELEASE, following[:5]  # the round before the audit goes on
    assert "audit" not in following[:following.index("pass") if "pass" in following else None]


def test_no_group_short_of_every_other_seat_can_open_a_card_of_the_departed_seat():
    """Before the rebuild, the shares any group of the other seats holds add up to no lock key of
    the departed seat's cards (every one of them does; the host alone never does)."""
    board = vanished("beltpunk", 4, b"escrow-groups", 60, 3)
    replica = board.host.replica
    kept = replica.game.kept_slots(replica.state, 3)
    checked = 0
    for slot in kept:
        crypto, index = replica.deal_of_slot(slot)
        if crypto.unreleased[index] != {3}:
            continue
        verifier = crypto.verifiers[3][index]
        record = replica.lock_escrows[(3, crypto.deal)]  # (its offsets are public: any group adds them)
        shares = {seat: board.sessions[seat].secrets.lock_shares[(3, crypto.deal)].shares[index] for seat in (0, 1, 2)}
        for group in ((0,), (1,), (2,), (0, 1), (0, 2), (1, 2)):
            assert not check_lock_key(record.lock_key(index, (shares[seat] for seat in group)), verifier)
            assert not check_lock_key(sum(shares[seat] for seat in group) % CURVE_ORDER, verifier)
        assert check_lock_key(record.lock_key(index, shares.values()), verifier)
        # Nor does any seat know the card, the host included.
        assert all(slot not in board.sessions[seat].knowledge for seat in (0, 1, 2))
        checked += 1
    assert checked


@BOTH
def test_a_share_sealed_wrong_is_named_with_the_holders_sealing_key_as_evidence(protocol):
    board = Switchboard("beltpunk", 4, seed=b"escrow-wrong-share", protocol=protocol)
    cheat = board.sessions[2]
    honest_body = SeatSecrets.escrow_body

    def wrong_share(secrets, replica, holders):
        body = honest_body(secrets, replica, holders)
        if secrets.seat == 2:  # its box for the first holder holds 1 + the real share
            holder = holders[0]
            body["boxes"][0] = seal(replica.seats[holder].seal, scalar_to_bytes(12345),
                                    share_context(replica.game_id, 2, holder, len(holders)))
        return body

    SeatSecrets.escrow_body = wrong_share
    try:
        board.run()
    finally:
        SeatSecrets.escrow_body = honest_body
    assert cheat.secrets is not None
    for seat in (0, 1, 3):
        fault = board.sessions[seat].fault
        assert fault is not None and (fault.culprit, fault.code) == (2, FaultCode.BAD_ESCROW), (seat, fault)
    report = verify_transcript(bytes(board.transcripts[1]), get_game)
    assert "p2 (seat 2)" in report.describe() and "escrow" in report.describe()


@BOTH
def test_a_consent_with_a_share_that_does_not_match_its_commitment_is_refused_and_named(protocol):
    board = vanished("steamcourt", 4, b"escrow-false-share", 40, 3, protocol=protocol)
    joiner = board.sessions[1]
    replica = board.host.replica
    # Before every seat has agreed, no share may be given at all.
    early = make_envelope(joiner.identity, "submit", {
        "game_id": joiner.game_id, "seat": 1, "counter": replica.counters[1], "based_on": replica.seq,
        "body": joiner.secrets.rebuild_body(replica, 3),
    })
    with pytest.raises(ProtocolFault) as caught:
        replica.check_submission(early, 1)
    assert caught.value.fault.reason == "gave its shares of seat 3, which is not being rebuilt"
    for seat in (0, 1, 2):
        board.sessions[seat].open_seat(3)
    board.run(until=lambda: 3 in replica.rebuilding and 1 not in replica.rebuild_shares.get(3, {}), play=False)
    body = joiner.secrets.rebuild_body(replica, 3)
    body["share"] = scalar_to_bytes((int.from_bytes(body["share"], "big") + 1) % CURVE_ORDER)
    envelope = make_envelope(joiner.identity, "submit", {
        "game_id": joiner.game_id, "seat": 1, "counter": replica.counters[1], "based_on": replica.seq, "body": body,
    })
    with pytest.raises(ProtocolFault) as caught:
        replica.check_submission(envelope, 1)
    assert (caught.value.fault.culprit, caught.value.fault.code) == (1, FaultCode.ILLEGAL)
    assert "does not match its commitment" in caught.value.fault.reason


@BOTH
def test_two_players_have_no_escrow(protocol):
    board = Switchboard("beltpunk", 2, seed=b"escrow-two", protocol=protocol)
    board.run()
    logged = kinds_logged(board, 0)
    assert logged[ESCROW] == logged[LOCK_ESCROW] == 0


def test_no_group_short_of_every_other_seat_can_open_a_card_of_the_departed_seat_at_an_elgamal_table():
    """Protocol 11 (§B16.6): before the rebuild, for a card only the departed seat still locks,
    the shares of its deck key that any group of the other seats holds, with every other share of
    the card, open no card; all of them together do. Nor does any seat know the card."""
    board = vanished("beltpunk", 4, b"escrow-groups", 60, 3, PROTOCOL_VERSION)
    replica = board.host.replica
    held = {seat: board.sessions[seat].secrets.deck_shares[3] for seat in (0, 1, 2)}
    checked = 0
    for slot in replica.game.kept_slots(replica.state, 3):
        crypto, index = replica.deal_of_slot(slot)
        if crypto.unreleased[index] != {3}:
            continue
        card = crypto.locked[index]
        others = [crypto.published[index][seat] for seat in crypto.holders if seat != 3]

        def opened(group: tuple[int, ...]) -> str | None:
            part = elgamal.decryption_share(sum(held[seat] for seat in group) % elgamal.GROUP_ORDER, card.nonce)
            return crypto.table.name_of(elgamal.decrypt(card, [*others, part]))

        for group in ((0,), (1,), (2,), (0, 1), (0, 2), (1, 2)):
            assert opened(group) is None, group
        assert opened((0, 1, 2)) is not None
        assert all(slot not in board.sessions[seat].knowledge for seat in (0, 1, 2))
        checked += 1
    assert checked


@BOTH
def test_a_holder_restarted_before_the_departure_still_gives_its_shares(protocol):
    board = vanished("steamcourt", 4, b"escrow-restart", 70, 3, protocol)
    board.restart(1)
    board.run(play=False)
    opened = everyone_plays_on(board, 3)
    board.run()
    check_played_on(board, 3, opened.seq)


@BOTH
def test_seats_gone_at_random_moments_are_rebuilt_and_every_game_ends(protocol):
    """Chaos: 4-player Steam Court and Beltpunk, 3-player Astonishing!, a seat vanishing holding
    keys at a random entry; the others always play on, the rebuild unlocks none but its own cards,
    and every game ends verified, nobody blamed."""
    rng = random.Random(b"escrow-chaos")
    played = 0
    for game, players in [("steamcourt", 4), ("beltpunk", 4), ("astonishing", 3)] * 2:
        at, gone = rng.randrange(5, 160), rng.randrange(1, players)
        board = Switchboard(game, players, seed=b"chaos" + bytes([at]), protocol=protocol)
        board.run(until=lambda: board.host.replica is not None and (board.host.replica.seq >= at or board.host.result))
        if board.host.result is not None or not any(True for _ in board.host.replica.unaudited_deals_of(gone)):
            continue
        board.cut(gone)
        board.run(play=False)
        opened = everyone_plays_on(board, gone)
        board.run()
        check_played_on(board, gone, opened.seq)
        played += 1
    assert played >= 4


@BOTH
def test_a_seat_gone_with_its_choice_sealed_is_rebuilt_and_its_caretaker_opens_the_choice(protocol):
    """Astonishing! seals each round's action cards while the characters are played: a seat that
    vanishes then holds a sealed choice. Its keys rebuilt, its salt derives from its escrow secret
    and its value is one of its legal actions when it sealed it: its caretaker opens it at the
    reveal, and the game goes on to its end."""
    board = Switchboard("astonishing", 3, seed=b"escrow-sealed", protocol=protocol)
    board.run(until=lambda: board.host.replica is not None and board.host.replica.sealed is not None
              and 2 in board.host.replica.sealed.seats and any(True for _ in board.host.replica.unaudited_deals_of(2)))
    sealed = board.host.replica.sealed
    board.cut(2)
    board.run(play=False)
    assert board.host.replica.sealed is sealed  # still sealed: the reveal waits for seat 2's opening
    opened = everyone_plays_on(board, 2)
    board.run()
    check_played_on(board, 2, opened.seq)
