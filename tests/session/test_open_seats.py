"""Open seats (issue 25; SPEC §B14): a seat that is gone and holds nothing secret is played by a
bot once every other seat still playing agrees. The host submits its decisions as its caretaker;
its cards are dealt face up; the log, the transcripts and the result say from which entry.

Sessions only, on the in-memory switchboard."""

from __future__ import annotations

import dataclasses

import pytest
from independent import transcript as independent
from switchboard import Switchboard

from p2pgames.bots import bot_for
from p2pgames.engine import IllegalAction, RulesetError
from p2pgames.games import get_game
from p2pgames.session import LocalError, OpenSeatAsked, SeatOpened, verify_transcript
from p2pgames.session._faults import FaultCode, ProtocolFault
from p2pgames.session._session import ACK_RECORD_INTERVAL
from p2pgames.session._messages import make_envelope
from p2pgames.session._replica import CHOICE_DOMAIN, OPEN_SEAT, CommitPhase


def torpedo_board(seed: bytes, *, reach: bool = False) -> Switchboard:
    """Two Torpedo captains played by the quick heuristic bot, which also plays an open seat
    (whichever of them hosts)."""
    game = get_game("torpedo")
    board = Switchboard("torpedo", 2, seed=seed, reach=reach,
                        bots=[bot_for(game, seed + bytes([seat]), "heuristic") for seat in (0, 1)])
    for session in board.sessions:
        session.open_seat_bot = "heuristic"
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


def check_transcripts(
    board: Switchboard, seats, seat_opened: int, entry: int, *, finished: bool = True, independently: bool = True,
) -> None:
    """Every one of ``seats`` kept a transcript that verifies (the game over, unless not
    ``finished``) and says from which entry a bot played ``seat_opened``; and, ``independently``,
    the independent verifier accepts it (it follows no open seat at protocol 11 yet)."""
    for seat in seats:
        session = board.sessions[seat]
        assert session.fault is None and (session.result is not None or not finished), (seat, session.fault)
        # The seats still playing agreed on every entry; the open seat acknowledges nothing.
        assert session.agreed_through == session.replica.seq - 1
        report = verify_transcript(bytes(board.transcripts[seat]), get_game)
        assert report.ok and (report.complete or not finished), report.describe()
        assert report.open_seats == {seat_opened: entry}
        assert f"From entry {entry} a bot played the seat of p{seat_opened} (seat {seat_opened})" in report.describe()
        if not independently:
            continue
        # A verifier written from the SPEC alone (§B14) accepts it too, every entry agreed — or,
        # the game still on, every entry up to the last checkpoint whose acks the file keeps (§B11).
        other = independent.verify(bytes(board.transcripts[seat]))
        assert other.ok, other.problem
        assert other.entries == session.replica.seq
        checkpoint = (session.agreed_through // ACK_RECORD_INTERVAL) * ACK_RECORD_INTERVAL
        assert other.agreed == other.entries if session.result is not None else other.entries >= other.agreed > checkpoint


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


def commit_alone(board: Switchboard, seat: int) -> None:
    """Play until a choice phase begins (the builds, then the swaps), and have only ``seat``'s
    bot commit to its choice, the entry delivered to every seat."""
    def choosing() -> bool:
        replica = board.sessions[seat].replica
        return (replica is not None and isinstance(replica.phase, CommitPhase) and replica.phase.purpose == CHOICE_DOMAIN
                and not replica.phase.commitments and board.sessions[seat].decision(texts=False) is not None)

    board.run(until=choosing)
    session = board.sessions[seat]
    step = session.decision(texts=False).step
    session.act(board.bots[seat].choose(session.game, session.replica.state, seat, session.knowledge, step))
    board.run(play=False)


@pytest.mark.parametrize("gone", [0, 1])
def test_a_captain_gone_with_a_choice_nobody_has_seen_opened_is_played_by_a_bot_that_chooses_again(gone):
    """Two players have no escrow (§B16): a build the departed captain committed to would stay
    locked. While the other has not committed yet nobody has seen an opening, so the commitment
    is dropped and the bot chooses again (§B14) — the host's seat too, taken over by the other."""
    board = torpedo_board(b"open-committed" + bytes([gone]), reach=True)
    commit_alone(board, gone)
    left = 1 - gone
    session = board.sessions[left]
    replica = session.replica
    assert gone in replica.phase.commitments and left not in replica.phase.commitments
    committed = replica.phase.commitments[gone]
    if gone == board.host_seat:
        board.kill(gone)
    else:
        board.cut(gone)
    board.run(play=False)
    assert replica.departure_problem(gone, host_gone=gone == 0) is None
    session.open_seat(gone)  # (the host's: the one other seat takes the table over, §B15)
    board.flush()
    board.run(play=False)
    replica = session.replica
    entry = replica.open_seats[gone]
    # Dropped: its caretaker chose again (a commitment of its own, with its own salt).
    assert replica.phase.commitments.get(gone) not in (None, committed)
    board.run()
    assert session.result is not None and session.fault is None
    report = verify_transcript(bytes(board.transcripts[left]), get_game)
    assert report.ok and report.complete, report.describe()
    assert report.open_seats == {gone: entry}
    other = independent.verify(bytes(board.transcripts[left]))
    assert other.ok, other.problem


def test_a_choice_committed_in_a_phase_that_is_opening_keeps_a_seat_without_escrow_from_a_bot():
    """Once every captain has committed, an opening may have been seen: the departed seat's
    choice can't be chosen again, and it can't be opened without its secret (§B14)."""
    board = torpedo_board(b"open-opening")
    board.run(until=lambda: board.host.replica is not None and isinstance(board.host.replica.phase, CommitPhase)
              and board.host.replica.phase.opening and 1 not in board.host.replica.phase.openings)
    replica = board.host.replica
    board.cut(1)
    board.run(play=False)
    assert replica.open_seat_problem(1) == "it has committed to a choice it has not opened"
    with pytest.raises(LocalError, match="it has committed to a choice it has not opened"):
        board.host.open_seat(1)


# (Beltpunk and the published Steam Court: their open seats are dealt to in test_hand_over.py.)
@pytest.mark.parametrize("game", ["astonishing", "steamcourt2015"])
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
    # Two players: no escrow (§B16), so a seat holding keys can't be opened.
    board = Switchboard("beltpunk", 2, seed=b"open-refused")
    board.run(until=lambda: board.host.replica is not None and board.host.replica.deals
              and board.host.replica.waiting_on_decision())
    host = board.host
    with pytest.raises(LocalError, match="that is your own seat"):
        host.open_seat(0)
    with pytest.raises(LocalError, match="p1 is at the table"):
        host.open_seat(1)
    with pytest.raises(LocalError, match="there is no seat 7"):
        host.open_seat(7)
    board.cut(1)
    with pytest.raises(LocalError, match=r"p1's seat can't be played by a bot now: it holds keys of deal \d+, not yet audited"):
        host.open_seat(1)
    # The host's seat goes to a bot only by a take-over (§B15): with nobody else to host, never.
    with pytest.raises(LocalError, match="the table can't play on without its host now: nobody else at the table can host it"):
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
    # A consent for a seat that holds keys (two players: no escrow to rebuild them from): an
    # illegal submission, named.
    cards = Switchboard("probe", 2, seed=b"open-illegal")
    cards.run(until=lambda: cards.host.replica is not None and cards.host.replica.deals
              and cards.host.replica.waiting_on_decision())
    cards.run(play=False)
    host = cards.host
    replica = host.replica
    envelope = make_envelope(host.identity, "submit", {
        "game_id": host.game_id, "seat": 0, "counter": replica.counters[0], "based_on": replica.seq,
        "body": {"t": OPEN_SEAT, "seat": 1},
    })
    with pytest.raises(ProtocolFault) as caught:
        replica.check_submission(envelope, 0)
    assert caught.value.fault.culprit == 0 and caught.value.fault.code == FaultCode.ILLEGAL
    assert "asked to open seat 1, but it holds keys of deal" in caught.value.fault.reason


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


def test_a_table_that_plays_no_bot_in_a_leavers_seat_refuses_every_way_to_one():
    """``host --no-bot-seats`` (the ruleset's ``open_seats`` false, §D1): no consent and no
    hand-over opens a seat — every peer refuses them, as the independent verifier does — and the
    ruleset says so where it is shown; the start carries it, so every peer enforces the same."""
    game = get_game("torpedo")
    ruleset = dataclasses.replace(game.ruleset(2), open_seats=False)
    assert ruleset.encode() == {**game.ruleset(2).encode(), "open_seats": False}
    assert game.decode_ruleset(ruleset.encode()) == ruleset
    assert game.describe_table(ruleset) == "torpedo, 2 players (build=custom); no bot takes a leaver's seat"
    assert game.describe_table(game.ruleset(2)) == "torpedo, 2 players (build=custom)"
    with pytest.raises(RulesetError, match="only false is written"):
        game.decode_ruleset({**game.ruleset(2).encode(), "open_seats": True})
    board = Switchboard("torpedo", 2, seed=b"no-bot-seats", open_seats=False,
                        bots=[bot_for(game, bytes([seat]), "heuristic") for seat in (0, 1)])
    board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= 40)  # builds open
    assert board.sessions[1].replica.ruleset == board.host.replica.ruleset == ruleset  # from the start
    board.cut(1)
    with pytest.raises(LocalError, match="this table plays no bot in the seat of a player who leaves"):
        board.host.open_seat(1)
    for session in board.sessions:
        assert "this table plays no bot" in session.replica.hand_over_problem(1)
        assert "this table plays no bot" in session.replica.open_seat_problem(1)


def test_a_caretaker_bot_that_chooses_a_move_not_allowed_plays_the_first_allowed_one_instead():
    """A bot's mistake must not stop the game in the caretaker's name: its move is checked first,
    and one that is not allowed is replaced by the first allowed one (the player is told)."""
    from p2pgames.session import Notice

    board = joiner_opened_by_the_host(b"open-wrong-bot")
    host = board.host
    real = bot_for(get_game("torpedo"), b"wrong", "heuristic")

    class WrongFirst:
        """Chooses, once, a move that was allowed at an earlier decision and is not now."""

        wrong = True
        earlier: list = []

        def choose(self, game, state, seat, knowledge, step):
            if self.wrong:
                for action in self.earlier:
                    try:
                        game.check_action(state, seat, action)
                    except IllegalAction:
                        self.wrong = False
                        return action
                self.earlier = list(game.legal_actions(state, seat, knowledge))
            return real.choose(game, state, seat, knowledge, step)

    wrong = WrongFirst()
    host._caretaking = {seat: (secrets, wrong) for seat, (secrets, _) in host._caretaking.items()}
    if 1 not in host._caretaking:
        from p2pgames.session._secrets import caretaker_secrets

        host._caretaking[1] = (caretaker_secrets(host.secret_seed, 1), wrong)
    board.run()
    assert not wrong.wrong, "the bot never got to choose a wrong move"
    assert host.fault is None and host.result is not None, host.fault
    assert any(isinstance(event, Notice) and "chose a move that is not allowed" in event.text for event in board.events[0])
