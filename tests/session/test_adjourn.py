"""Adjourning (issue 26, point 6; SPEC §B18): a seat asks to stop here and go on later; once every
seat still playing agrees, every peer keeps its seat and stops, and ``resume`` (the host first)
plays the game on to its end. A decline drops the request; a seat can't flood the table with it.

Sessions only, on the in-memory switchboard (whose sessions are bots: they agree at once, unless
a test makes one a person)."""

from __future__ import annotations

import pytest
from switchboard import Switchboard

from p2pgames.session import AdjournAsked, AdjournDeclined, Adjourned, LocalError, make_envelope
from p2pgames.session._session import MAX_ADJOURN_MESSAGES


def under_way(game: str = "beltpunk", players: int = 3, at: int = 40) -> Switchboard:
    board = Switchboard(game, players, seed=b"adjourn-" + game.encode())
    board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= at)
    return board


def events(board: Switchboard, seat: int) -> list:
    return board.events[seat] + board.sessions[seat].take_events()


def test_everyone_agrees_every_seat_is_kept_and_resume_plays_the_game_to_its_end():
    board = under_way()
    board.sessions[1].adjourn()
    board.run(play=False)
    for seat, session in enumerate(board.sessions):
        assert session.adjourned and session.stage == "closed" and session.seat_kept, seat
        [adjourned] = [event for event in events(board, seat) if isinstance(event, Adjourned)]
        assert adjourned.you_host == (seat == 0) and adjourned.host == "p0"
        assert adjourned.seq == session.replica.seq  # (entries on their way may reach some seats only)
        first = "you host the table: run p2pgames resume first" if seat == 0 else "the host, p0, runs p2pgames resume first"
        assert first in adjourned.text and adjourned.text.startswith(f"Adjourned after {adjourned.seq} log entries")
    # Later: the host takes the game up again, then each joiner.
    board.restart_host()
    for seat in (1, 2):
        board.restart(seat)
    board.run()
    board.check_finished_and_verified()


def test_the_others_are_asked_and_a_decline_drops_the_request_and_the_game_goes_on():
    board = under_way()
    person = board.sessions[2]
    person.bot = False  # a person: asked, not agreeing by itself
    board.sessions[1].adjourn()
    board.run(play=False)
    asked = [event for event in events(board, 2) if isinstance(event, AdjournAsked)]
    assert [(event.seat, event.name) for event in asked] == [(1, "p1")]
    assert "p1 asks to adjourn" in asked[0].text
    assert board.host.adjourn_votes == {0, 1} and not board.host.adjourned
    person.adjourn(False)
    board.run(play=False)
    for seat, session in enumerate(board.sessions):
        assert session.adjourn_proposal == 1 and not session.adjourn_votes and session.stage == "playing", seat
        declined = [event for event in events(board, seat) if isinstance(event, AdjournDeclined)]
        assert [event.text for event in declined] == (
            ["You would rather play on: the game goes on."] if seat == 2 else ["p2 would rather play on: the game goes on."])
    with pytest.raises(LocalError, match="nobody has asked to adjourn"):
        person.adjourn(False)
    board.run()
    board.check_finished_and_verified()


def test_an_answer_to_a_request_dropped_since_counts_for_nothing():
    board = under_way()
    board.sessions[2].bot = False
    board.sessions[1].adjourn()
    board.run(play=False)
    stale = make_envelope(board.sessions[2].identity, "adjourn", {
        "game_id": board.host.game_id, "proposal": 0, "agree": True,
    })
    board.sessions[2].adjourn(False)
    board.run(play=False)
    assert board.host._take_adjourn(2, stale) is False and not board.host.adjourn_votes


def test_a_seat_asking_and_declining_on_and_on_is_heard_a_bounded_number_of_times():
    board = under_way()
    for session in board.sessions:
        session.bot = False
    flooder = board.sessions[1]
    for _ in range(MAX_ADJOURN_MESSAGES // 2):
        flooder.adjourn(True)
        board.run(play=False)
        flooder.adjourn(False)
        board.run(play=False)
    with pytest.raises(LocalError, match=f"you have asked and answered {MAX_ADJOURN_MESSAGES} times"):
        flooder.adjourn(True)
    # Its peer's own count stops it; a peer that doesn't is not heard past it either.
    proposal = board.host.adjourn_proposal
    extra = make_envelope(flooder.identity, "adjourn", {"game_id": board.host.game_id, "proposal": proposal, "agree": True})
    assert board.host._take_adjourn(1, extra) is False and board.host.adjourn_proposal == proposal
    board.run()
    board.check_finished_and_verified()


def test_nothing_to_adjourn_before_the_game_or_after_it():
    board = Switchboard("probe", 2, seed=b"adjourn-probe")
    with pytest.raises(LocalError, match="there is no game going on to adjourn"):
        board.sessions[1].adjourn()
    board.run()
    with pytest.raises(LocalError, match="there is no game going on to adjourn"):
        board.sessions[1].adjourn()


def test_a_seat_away_when_asked_learns_the_request_as_it_comes_back_and_can_agree():
    board = under_way()
    person = board.sessions[2]
    person.bot = False
    board.cut(2)
    board.run(play=False)
    board.sessions[1].adjourn()
    board.run(play=False)
    assert board.host.adjourn_votes == {0, 1} and not board.host.adjourned  # (it waits for seat 2)
    board.reconnect(2)
    board.run(play=False)
    assert person.adjourn_votes == {0, 1} and person.adjourn_proposal == board.host.adjourn_proposal
    assert any(isinstance(event, AdjournAsked) for event in events(board, 2))
    person.adjourn(True)
    board.run(play=False)
    assert all(session.adjourned for session in board.sessions)


def test_after_the_host_is_restarted_everyone_holds_no_request_and_a_new_one_adjourns():
    board = under_way()
    person = board.sessions[2]
    person.bot = False
    board.sessions[1].adjourn()
    board.run(play=False)
    assert person.adjourn_votes == {0, 1}
    board.restart_host()  # (its new session holds no request: it was never in the log)
    board.run(play=False)
    assert all(not session.adjourn_votes and session.adjourn_proposal == 0 for session in board.sessions)
    board.sessions[1].adjourn()
    board.run(play=False)
    person.adjourn(True)
    board.run(play=False)
    assert all(session.adjourned for session in board.sessions)
