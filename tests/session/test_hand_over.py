"""Leaving with a hand-over (issue 25; SPEC §B14): a player who has to go publishes its keys in one
signed hand-over — its hand is then everyone's to see — and a bot plays its seat to the end. What
the hand-over shows is the leaver's own keeping, never a card another player holds.

Sessions only, on the in-memory switchboard."""

from __future__ import annotations

import copy

import pytest
from switchboard import Switchboard
from test_open_seats import check_transcripts

from p2pgames import LOCK_DECK_PROTOCOL, PROTOCOL_VERSION
from p2pgames.session import LocalError, SeatOpened
from p2pgames.session._faults import FaultCode, ProtocolFault
from p2pgames.session._messages import make_envelope


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


@pytest.mark.parametrize("game, at, protocol", [
    ("beltpunk", 60, LOCK_DECK_PROTOCOL), ("astonishing", 40, LOCK_DECK_PROTOCOL), ("steamcourt", 80, LOCK_DECK_PROTOCOL),
    ("steamcourt2015", 80, LOCK_DECK_PROTOCOL),
    # At an ElGamal table (§B16.6) the hand-over publishes the leaver's pass seeds and its share of
    # every slot of the deals not yet audited, and the shares others sealed to it of its cards.
    ("beltpunk", 60, PROTOCOL_VERSION), ("astonishing", 40, PROTOCOL_VERSION), ("steamcourt", 80, PROTOCOL_VERSION),
])
def test_a_player_leaving_mid_deal_hands_the_seat_over_shows_only_their_own_hand_and_play_goes_on(game, at, protocol):
    board = Switchboard(game, 3, seed=b"hand-" + game.encode(), protocol=protocol)
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
    played_to_the_end = game == "astonishing"  # (a quick game; the others until the next audit,
    play_on(board, played_to_the_end)          # which takes the leaver's keys from its hand-over)
    check_transcripts(board, [0, 1], 2, opened, finished=played_to_the_end)


def play_on(board: Switchboard, to_the_end: bool) -> None:
    """Play to the end, or until the next audit is done."""
    audits = board.host.replica.audits
    board.run(until=None if to_the_end else (lambda: board.host.replica.audits > audits))
    board.run(play=False)


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
            "t": "hand-over", "keys": board.sessions[2].secrets.audit_body(
                replica(), tuple(c.deal for c in replica().unaudited_deals_of(2)))["keys"], "received": [],
            "opening": None, "successor": None,
        }), 2)
    assert caught.value.fault.culprit == 2 and "locked by your key alone" in caught.value.fault.reason
    assert board.sessions[2].hand_over_waits_for() is None  # (not handing over yet)
    board.sessions[2].hand_over()  # so the leaver waits, doing its duties, until it can
    board.run(play=False)
    assert 2 not in replica().open_seats
    assert "locked by your key alone" in board.sessions[2].hand_over_waits_for()  # what its player is told
    board.run(until=lambda: 2 in replica().open_seats)
    play_on(board, to_the_end=False)
    check_transcripts(board, [0, 1], 2, replica().open_seats[2], finished=False)


@pytest.mark.parametrize("protocol", [LOCK_DECK_PROTOCOL, PROTOCOL_VERSION])
def test_a_hand_over_is_refused_for_a_host_nobody_can_succeed_and_a_wrong_key_in_it_is_proved(protocol):
    """Two of the leaver's keys (protocol 10) or shares (11, §B16.6) it never published, swapped:
    its hand-over is refused as it comes, its ``bad-key``."""
    board = Switchboard("beltpunk", 3, seed=b"hand-refused", protocol=protocol)
    board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= 60
              and board.host.replica.hand_over_problem(2) is None)
    # Nobody told the table where it listens (no reach): nobody can take the log over (§B15).
    with pytest.raises(LocalError, match="nobody else at the table can host it"):
        board.host.hand_over()
    board.run(play=False)
    leaver = board.sessions[2]
    replica = board.host.replica
    body = leaver._hand_over_body()
    assert body is not None
    deal, *keys = body["keys"][0]
    crypto = replica.deals[deal]
    first, second = [index for index in range(crypto.size) if 2 in crypto.unreleased[index]][:2]
    swapped = list(keys[-1] if protocol == LOCK_DECK_PROTOCOL else keys[1])  # its lock keys; its shares
    swapped[first], swapped[second] = swapped[second], swapped[first]
    keys[-1 if protocol == LOCK_DECK_PROTOCOL else 1] = swapped
    envelope = make_envelope(leaver.identity, "submit", {
        "game_id": leaver.game_id, "seat": 2, "counter": replica.counters[2], "based_on": replica.seq,
        "body": {**body, "keys": [[deal, *keys], *body["keys"][1:]]},
    })
    with pytest.raises(ProtocolFault) as caught:
        replica.check_submission(envelope, 2)
    assert caught.value.fault.culprit == 2 and caught.value.fault.code == FaultCode.BAD_KEY
    assert caught.value.fault.reason.startswith(
        "handed over a wrong key for slot" if protocol == LOCK_DECK_PROTOCOL else f"handed over shares of deal {deal} that fail"
    )


def test_the_last_seat_playing_sees_the_cards_dealt_to_it_alone():
    """Two of three leave: later deals are among the one seat still playing, which holds every
    lock, so no key is ever released to it — it must still learn its cards (they were lost once:
    its bot met a hand it could not read)."""
    board = Switchboard("beltpunk", 3, seed=b"last-one")
    for seat in (1, 2):
        board.run(until=lambda: board.host.replica is not None and board.host.replica.hand_over_problem(seat) is None
                  and board.host.replica.seq >= 20)
        board.sessions[seat].hand_over()
        board.run(until=lambda: seat in board.host.replica.open_seats)
    board.run()
    host = board.host
    assert host.result is not None and host.fault is None
    later = [crypto for crypto in host.replica.deals.values() if crypto.holders == (0,)]
    assert later, "a deal among the one seat left"
