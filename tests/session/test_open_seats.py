"""Open seats (issue 25; SPEC §B14): a seat that is gone and holds nothing secret is played by a
bot once every other seat still playing agrees. The host submits its decisions as its caretaker;
its cards are dealt face up; the log, the transcripts and the result say from which entry.

Sessions only, on the in-memory switchboard."""

from __future__ import annotations

import copy

import pytest
from independent import transcript as independent
from switchboard import Switchboard

from p2pgames.bots import bot_for
from p2pgames.games import get_game
from p2pgames.session import LocalError, OpenSeatAsked, SeatOpened, verify_transcript
from p2pgames.session._faults import FaultCode, ProtocolFault
from p2pgames.session._messages import make_envelope
from p2pgames.session._replica import OPEN_SEAT


def torpedo_board(seed: bytes) -> Switchboard:
    """Two Torpedo captains played by the quick heuristic bot, which also plays an open seat."""
    game = get_game("torpedo")
    board = Switchboard("torpedo", 2, seed=seed, bots=[bot_for(game, seed + bytes([seat]), "heuristic") for seat in (0, 1)])
    board.host.open_seat_bot = "heuristic"
    return board


def after_the_builds(board: Switchboard, entries: int = 40) -> None:
    """Play Torpedo until both builds are open and ``entries`` entries are in the log."""
    board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= entries
              and board.host.replica.open_seat_problem(1) is None)


def joiner_opened_by_the_host(seed: bytes) -> Switchboard:
    """A Torpedo table whose joiner is gone after the builds, its seat opened by the host."""
    board = torpedo_board(seed)
    after_the_builds(board)
    board.cut(1)
    board.host.open_seat(1)
    board.run(play=False)
    return board


def events(board: Switchboard, seat: int, kind: type) -> list:
    board.run(play=False)
    found = [event for event in board.sessions[seat].take_events() if isinstance(event, kind)]
    board.events[seat].extend(found)
    return found


def check_transcripts(board: Switchboard, seats, seat_opened: int, entry: int) -> None:
    for seat in seats:
        session = board.sessions[seat]
        assert session.fault is None and session.result is not None, (seat, session.fault)
        # The seats still playing agreed on every entry; the open seat acknowledges nothing.
        assert session.agreed_through == session.replica.seq - 1
        report = verify_transcript(bytes(board.transcripts[seat]), get_game)
        assert report.ok and report.complete, report.describe()
        assert report.open_seats == {seat_opened: entry}
        assert f"From entry {entry} a bot played the seat of p{seat_opened} (seat {seat_opened})" in report.describe()
        # A verifier written from the SPEC alone (§B14) accepts it too, every entry agreed.
        other = independent.verify(bytes(board.transcripts[seat]))
        assert other.ok, other.problem
        assert other.entries == other.agreed == session.replica.seq


def test_a_gone_torpedo_captain_is_played_by_a_bot_to_the_end_and_every_record_says_so():
    board = torpedo_board(b"open-torpedo")
    after_the_builds(board)
    board.cut(1)
    host = board.host
    host.open_seat(1)  # the one other seat: its consent is the table's
    [opened] = events(board, 0, SeatOpened)
    assert opened.seat == 1 and opened.seq == host.replica.open_seats[1]
    assert opened.text == f"p1's seat is played by a bot from entry {opened.seq}; its cards are shown to everyone."
    assert 1 not in host.away and host.awaited_away() == ()
    board.run()
    assert host.result is not None
    # The caretaker signed seat 1's moves from then on; every one of them is in the log.
    assert host.replica.counters[1] > 0
    check_transcripts(board, [0], 1, opened.seq)
    [ended] = [event for event in board.events[0] if type(event).__name__ == "GameEnded"]
    assert ended.message.endswith(f"(p1's seat was played by a bot from entry {opened.seq}.)")


@pytest.mark.parametrize("game", ["beltpunk", "astonishing", "steamcourt", "steamcourt2015"])
def test_at_a_card_table_every_seat_still_playing_must_agree_and_the_open_seats_cards_are_dealt_face_up(game):
    board = Switchboard(game, 3, seed=b"open-cards")
    # Before the first deal nobody holds a key yet: seat 2 holds nothing secret.
    board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= 2
              and board.host.replica.open_seat_problem(2) is None)
    board.cut(2)
    board.run(play=False)
    board.host.open_seat(2)
    [asked] = events(board, 1, OpenSeatAsked)
    assert (asked.seat, asked.by, asked.waiting) == (2, "p0", ("p1",))
    assert 2 not in board.host.replica.open_seats  # one consent is not the table's
    board.sessions[1].open_seat(2)
    [opened] = events(board, 0, SeatOpened)
    [seen] = events(board, 1, SeatOpened)
    assert opened == seen
    # Play on until the seat has cards: both players see the same ones, every key published.
    board.run(until=lambda: len(board.host.open_knowledge()) >= 3)
    board.run(play=False)
    shown = board.host.open_knowledge()
    assert shown and shown == board.sessions[1].open_knowledge()
    for slot in shown:
        crypto, _ = board.host.replica.deal_of_slot(slot)
        assert 2 not in crypto.holders  # dealt among the seats still playing
    board.run()
    check_transcripts(board, [0, 1], 2, opened.seq)


def test_only_a_seat_that_is_away_and_holds_nothing_secret_can_be_given_to_a_bot():
    board = Switchboard("beltpunk", 3, seed=b"open-refused")
    board.run(until=lambda: board.host.replica is not None and board.host.replica.deals
              and board.host.replica.waiting_on_decision())
    host = board.host
    with pytest.raises(LocalError, match="that is your own seat"):
        host.open_seat(0)
    with pytest.raises(LocalError, match="p2 is at the table"):
        host.open_seat(2)
    with pytest.raises(LocalError, match="there is no seat 7"):
        host.open_seat(7)
    board.cut(2)
    with pytest.raises(LocalError, match=r"p2's seat can't be played by a bot now: it holds keys of deal \d+, not yet audited"):
        host.open_seat(2)
    with pytest.raises(LocalError, match="the host's seat can't be played by a bot"):
        board.sessions[1].away[0] = "pretend"
        try:
            board.sessions[1].open_seat(0)
        finally:
            del board.sessions[1].away[0]
    assert host.replica.open_consents == {} and host.replica.open_seats == {}


def test_agreeing_twice_is_refused_and_a_consent_the_log_refuses_names_its_sender():
    board = torpedo_board(b"open-twice")
    after_the_builds(board)
    board.cut(1)
    board.host.open_seat(1)
    with pytest.raises(LocalError, match="p1's seat is played by a bot already"):
        board.host.open_seat(1)
    # A joiner's consent for a seat that holds keys: an illegal submission, named.
    cards = Switchboard("probe", 3, seed=b"open-illegal")
    cards.run(until=lambda: cards.host.replica is not None and cards.host.replica.deals
              and cards.host.replica.waiting_on_decision())
    cards.run(play=False)
    joiner = cards.sessions[1]
    replica = cards.host.replica
    envelope = make_envelope(joiner.identity, "submit", {
        "game_id": joiner.game_id, "seat": 1, "counter": replica.counters[1], "based_on": replica.seq,
        "body": {"t": OPEN_SEAT, "seat": 2},
    })
    with pytest.raises(ProtocolFault) as caught:
        cards.host.replica.check_submission(envelope, 1)
    assert caught.value.fault.culprit == 1 and caught.value.fault.code == FaultCode.ILLEGAL
    assert "asked to open seat 2, but it holds keys of deal" in caught.value.fault.reason


def test_only_the_caretaker_may_sign_for_an_open_seat():
    board = joiner_opened_by_the_host(b"open-forged")
    replica = board.host.replica
    gone = board.sessions[1]  # the departed seat's own key no longer speaks for it
    envelope = make_envelope(gone.identity, "submit", {
        "game_id": gone.game_id, "seat": 1, "counter": replica.counters[1], "based_on": replica.seq,
        "body": {"t": "act", "action": None},
    })
    with pytest.raises(ProtocolFault) as caught:
        replica.check_submission(envelope, None)
    assert caught.value.fault.code == FaultCode.BAD_SIGNATURE


def test_a_departed_seat_that_comes_back_is_told_the_bot_has_its_seat():
    board = joiner_opened_by_the_host(b"open-back")
    opened = board.host.replica.open_seats[1]
    board.reconnect(1)
    board.run(play=False)
    joiner = board.sessions[1]
    assert joiner.gone_reason == f"your seat is played by a bot since entry {opened}: the others played on without you"
    assert joiner.stage == "halted" and not joiner.seat_kept
    board.run()
    assert board.host.result is not None and board.host.fault is None


# -- leaving with a hand-over -------------------------------------------------------------------------


def knowledge(board: Switchboard, seat: int) -> set[int]:
    return set(board.sessions[seat].knowledge)


def hand_over_envelope(board: Switchboard, seat: int, body: dict):
    session, replica = board.sessions[seat], board.host.replica
    return make_envelope(session.identity, "submit", {
        "game_id": session.game_id, "seat": seat, "counter": replica.counters[seat], "based_on": replica.seq,
        "body": body,
    })


def shown_by_hand_over(board: Switchboard, seat: int) -> dict[int, set[int]]:
    """Apply ``seat``'s hand-over to a copy of the host's log: each slot it makes public (every
    key published), with the seats that knew the slot before."""
    trial = copy.deepcopy(board.host.replica)
    submission = trial.check_submission(hand_over_envelope(board, seat, board.sessions[seat]._hand_over_body()), seat)
    before = {
        crypto.first_slot + index: set(crypto.knows[index])
        for crypto in trial.deals.values() for index in range(crypto.size) if crypto.unreleased[index]
    }
    trial.sequence(submission)
    return {
        slot: knew for slot, knew in before.items()
        if not (lambda found: found[0].unreleased[found[1]])(trial.deal_of_slot(slot))
    }


@pytest.mark.parametrize("game, at", [("beltpunk", 60), ("astonishing", 40), ("steamcourt", 80), ("steamcourt2015", 80)])
def test_a_player_leaving_mid_deal_hands_the_seat_over_shows_only_their_own_hand_and_the_game_finishes(game, at):
    board = Switchboard(game, 3, seed=b"hand-" + game.encode())
    board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= at
              and board.host.replica.hand_over_problem(2) is None)
    board.run(play=False)
    leaver = board.sessions[2]
    # What the hand-over shows: the leaver's own cards, no card another seat knew.
    shown = shown_by_hand_over(board, 2)
    kept = set(board.host.game.kept_slots(board.host.replica.state, 2))
    # Its hand (cards given to it included), or cards nobody but it knew: never a card another
    # player holds that the leaver knew (one it gave them).
    assert shown and all(slot in kept or knew <= {2} for slot, knew in shown.items()), (shown, kept)
    assert kept <= set(shown) | set(board.host.replica.state.cards.revealed)
    assert all(board.sessions[2].secrets.knowledge.get(slot) for slot in shown)  # its hand, as it knew it
    leaver.hand_over()
    board.run(until=lambda: 2 in board.host.replica.open_seats, play=False)
    board.run(play=False)
    opened = board.host.replica.open_seats[2]
    assert leaver.stage == "closed" and not leaver.seat_kept
    [seen] = [event for event in leaver.take_events() if isinstance(event, SeatOpened)]
    assert seen.seq == opened
    for slot in shown:  # every player sees the leaver's hand now
        assert board.sessions[0].knowledge[slot] == board.sessions[1].knowledge[slot] == leaver.knowledge[slot]
    board.run()
    check_transcripts(board, [0, 1], 2, opened)


def test_a_hand_over_waits_while_a_card_the_leaver_gave_is_locked_by_its_key_alone():
    board = Switchboard("steamcourt", 3, seed=b"hand-wait")  # a gift early in the first quarter
    replica = lambda: board.host.replica  # noqa: E731
    board.run(until=lambda: replica() is not None and "locked by your key alone" in (replica().hand_over_problem(2) or ""))
    board.run(play=False)
    problem = replica().hand_over_problem(2)
    assert problem is not None and "locked by your key alone" in problem
    # Sent now, the hand-over would be refused (illegal), naming the leaver.
    with pytest.raises(ProtocolFault) as caught:
        replica().check_submission(hand_over_envelope(board, 2, {
            "t": "hand-over", "keys": board.sessions[2].secrets._audit(
                replica(), tuple(c.deal for c in replica()._unaudited_deals_of(2)))["keys"], "received": [],
            "opening": None,
        }), 2)
    assert caught.value.fault.culprit == 2 and "locked by your key alone" in caught.value.fault.reason
    board.sessions[2].hand_over()  # so the leaver waits, doing its duties, until it can
    board.run(play=False)
    assert 2 not in replica().open_seats
    board.run(until=lambda: 2 in replica().open_seats)
    board.run()
    check_transcripts(board, [0, 1], 2, replica().open_seats[2])


def test_a_hand_over_is_refused_for_the_host_and_a_wrong_key_in_it_is_proved():
    board = Switchboard("beltpunk", 3, seed=b"hand-refused")
    board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= 60)
    with pytest.raises(LocalError, match="the host's seat can't be handed to a bot yet"):
        board.host.hand_over()
    board.run(play=False)
    leaver = board.sessions[2]
    replica = board.host.replica
    body = leaver._hand_over_body()
    assert body is not None
    deal, rekey, shuffle, locks = body["keys"][0]
    crypto = replica.deals[deal]
    first, second = [index for index in range(crypto.size) if 2 in crypto.unreleased[index]][:2]
    locks = list(locks)
    locks[first], locks[second] = locks[second], locks[first]  # two keys it never published, swapped
    envelope = make_envelope(leaver.identity, "submit", {
        "game_id": leaver.game_id, "seat": 2, "counter": replica.counters[2], "based_on": replica.seq,
        "body": {**body, "keys": [[deal, rekey, shuffle, locks], *body["keys"][1:]]},
    })
    with pytest.raises(ProtocolFault) as caught:
        replica.check_submission(envelope, 2)
    assert caught.value.fault.culprit == 2 and caught.value.fault.code == FaultCode.BAD_KEY
    assert caught.value.fault.reason.startswith("handed over a wrong key for slot")
