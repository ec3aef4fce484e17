"""Chat's limits (issue 23, point 1; protocol/SPEC.md §B10): a seat's rate, its total in a game
and in a lobby, judged by the host that relays, by every joiner on what it records, and by a
speaker on its own lines — a seat far past the rate hung up on, and a line past a seat's totals
a flood every peer can prove.

The machine alone first (:class:`ChatLimits`), then sessions in memory: frames are handed to a
session with the time they arrived (``now``), as the network layer does.
"""

from __future__ import annotations

import pytest

from p2pgames.games import get_game
from p2pgames.session import HOST_CONNECTION, ChatReceived, FaultCode, LobbyChanged, LocalError, Rejected, iter_records, verify_transcript
from p2pgames.session._chat import CHAT_POLICY, ChatLimits, ChatPolicy, Offer
from p2pgames.session._faults import Fault
from p2pgames.session._messages import make_envelope
from switchboard import Switchboard
from test_lobby import Lobby

POLICY = CHAT_POLICY


# -- the machine -----------------------------------------------------------------------------------


def test_a_speaker_has_a_burst_then_one_line_a_second():
    limits = ChatLimits("in this game", own=0)
    offers = [limits.offer(1, 5, 100.0) for _ in range(POLICY.burst + 2)]
    assert offers == [Offer.TAKEN] * POLICY.burst + [Offer.TOO_FAST] * 2
    assert limits.offer(1, 5, 100.5) is Offer.TOO_FAST, "half a line's time brings no line"
    assert limits.offer(1, 5, 101.0) is Offer.TAKEN
    assert limits.offer(1, 5, 101.0) is Offer.TOO_FAST
    assert limits.offer(1, 5, 1000.0) is Offer.TAKEN, "a long silence refills the bucket, no more"
    assert [limits.offer(1, 5, 1000.0) for _ in range(POLICY.burst)].count(Offer.TAKEN) == POLICY.burst - 1
    assert limits.dropped(1) == 5


def test_a_speakers_own_lines_keep_to_half_the_burst_and_it_is_told_why():
    limits = ChatLimits("in this game", own=2)
    for _ in range(POLICY.own_burst):
        assert limits.refusal(2, 5, 7.0) is None
        assert limits.offer(2, 5, 7.0) is Offer.TAKEN
    assert limits.refusal(2, 5, 7.0) == "chat limit: 10 lines in a row at most, then one a second (wait 1 s)"
    assert limits.refusal(2, 5, 8.0) is None
    assert limits.refusal(1, 5, 7.0) is None, "another speaker's bucket is its own"


def test_without_a_time_only_the_totals_are_judged():
    limits = ChatLimits("in this game", own=0, policy=ChatPolicy(lines=30))
    assert [limits.offer(1, 5, None) for _ in range(31)] == [Offer.TAKEN] * 30 + [Offer.PAST_TOTAL]


def test_a_speaker_may_say_so_many_lines_and_so_many_bytes_in_a_room():
    limits = ChatLimits("in this game", own=0, policy=ChatPolicy(lines=3, text_bytes=1000))
    for second in range(3):
        assert limits.offer(1, 10, float(second)) is Offer.TAKEN
    assert limits.refusal(1, 10, 10.0) == "chat limit: a seat may say 3 lines in this game, and you have said them all"
    assert limits.offer(1, 10, 10.0) is Offer.PAST_TOTAL and limits.dropped(1) == 1
    lobby = ChatLimits("at this table", own=b"me", policy=ChatPolicy(text_bytes=2048))
    assert lobby.offer(b"ann", 2000, 0.0) is Offer.TAKEN
    assert lobby.refusal(b"ann", 49, 1.0) == (
        "chat limit: a seat may say 2 KB of chat at this table, and this line would go past it (48 bytes left)"
    )
    assert lobby.offer(b"ann", 48, 1.0) is Offer.TAKEN


def test_a_line_taken_before_is_a_repeat_and_costs_nothing():
    limits = ChatLimits("in this game", own=0)
    assert limits.offer(1, 5, 0.0, b"d" * 32) is Offer.TAKEN
    assert limits.repeats(1, b"d" * 32) and not limits.repeats(2, b"d" * 32)
    assert [limits.offer(1, 5, 0.0, b"d" * 32) for _ in range(50)] == [Offer.REPEAT] * 50
    assert limits.dropped(1) == 0 and limits.refusal(1, 5, 0.0) is None


def test_a_speaker_is_far_past_its_limits_from_its_hundredth_line_dropped():
    limits = ChatLimits("in this game", own=0)
    far = [(limits.offer(1, 5, 0.0), limits.far_past(1))[1] for _ in range(POLICY.burst + POLICY.abuse + 10)]
    assert far.index(True) == POLICY.burst + POLICY.abuse - 1 and all(far[far.index(True):])
    assert not limits.far_past(2)


def test_a_lobby_forgets_the_speakers_who_left():
    lobby = ChatLimits("at this table", own=b"me")
    for _ in range(POLICY.burst):
        lobby.offer(b"ann", 5, 0.0)
    lobby.retain({b"me", b"bob"})
    assert lobby.offer(b"ann", 5, 0.0) is Offer.TAKEN, "a new account: ann left and came back"


@pytest.mark.parametrize("policy", [dict(burst=1), dict(seconds_per_line=0), dict(lines=0), dict(text_bytes=0), dict(abuse=0)])
def test_limits_must_be_positive(policy):
    with pytest.raises(ValueError, match="chat limits must be positive"):
        ChatPolicy(**policy)


# -- sessions in memory: the game ---------------------------------------------------------------------


def started_table(players: int = 3) -> Switchboard:
    """A probe table whose game has begun and waits for its first decisions."""
    board = Switchboard("probe", players, seed=b"chat-limits")
    board.run(play=False)
    assert board.host.stage == "playing"
    return board


def line(board: Switchboard, seat: int, text: str):
    session = board.sessions[seat]
    return make_envelope(session.identity, "chat", {"game_id": session.game_id, "text": text})


def chats_recorded(board: Switchboard, seat: int) -> list[bytes]:
    board.flush()
    return [value for kind, value in iter_records(bytes(board.transcripts[seat])) if kind == "chat"]


def shown(board: Switchboard, seat: int) -> list[str]:
    board.events[seat] += board.sessions[seat].take_events()
    return [event.text for event in board.events[seat] if isinstance(event, ChatReceived)]


def test_a_player_is_told_when_its_line_is_past_the_limit_and_nothing_is_sent():
    board = started_table()
    joiner = board.sessions[1]
    for n in range(POLICY.own_burst):
        joiner.chat(f"line {n}", now=50.0)
    board.flush()
    sent = len(board.queue)
    with pytest.raises(LocalError, match=r"^chat limit: 10 lines in a row at most, then one a second \(wait 1 s\)$"):
        joiner.chat("one too many", now=50.5)
    board.flush()
    assert len(board.queue) == sent and "one too many" not in shown(board, 1)
    joiner.chat("a second later", now=51.0)
    board.run(play=False)
    assert shown(board, 2)[-1] == "a second later" and len(chats_recorded(board, 2)) == POLICY.own_burst + 1


def test_the_host_relays_a_seats_lines_within_the_rate_and_drops_the_rest():
    board = started_table()
    host, connection = board.host, board.links[1]
    for n in range(POLICY.burst + 5):
        host.receive(connection, line(board, 1, f"quick {n}").raw, now=10.0)
    for n in range(3):
        host.receive(connection, line(board, 1, f"later {n}").raw, now=13.0)
    board.run(play=False)
    said = [f"quick {n}" for n in range(POLICY.burst)] + [f"later {n}" for n in range(3)]
    assert shown(board, 0) == shown(board, 2) == said
    assert len(chats_recorded(board, 0)) == len(chats_recorded(board, 2)) == len(said)
    assert host.fault is None and host.chat_limits.dropped(1) == 5


def test_a_seat_far_past_the_rate_is_hung_up_on_and_away_and_nobody_is_blamed():
    """Only the host saw the lines arrive too fast: stopping the game on its word would name the
    host, not the flooder (§B9), so a flood of the rate costs the seat its connection instead."""
    board = started_table()
    host, connection = board.host, board.links[1]
    for n in range(POLICY.burst + POLICY.abuse):
        host.receive(connection, line(board, 1, f"flood {n}").raw, now=10.0)
    reason = "sent chat far past its limits (100 lines dropped); the host hung up on it"
    assert host.fault is None and host.away == {1: reason} and connection in host.take_closing()
    board.run(play=False)
    assert board.sessions[2].away == {1: reason}
    assert shown(board, 2) == [f"flood {n}" for n in range(POLICY.burst)]
    host.receive(connection, line(board, 1, "after the hang-up").raw, now=10.0)
    assert len(chats_recorded(board, 0)) == POLICY.burst, "a connection hung up on is heard no more"
    for seat in (0, 2):
        report = verify_transcript(bytes(board.transcripts[seat]), get_game)
        assert report.ok and report.stopped is None, report.describe()
        assert report.chats == POLICY.burst


def say_every_line(board: Switchboard, seat: int) -> None:
    """``seat`` says all the lines a seat may in a game, one a second (within the rate)."""
    for n in range(POLICY.lines):
        board.sessions[seat].chat(f"line {n}", now=float(n))
    board.run(play=False)


def test_a_line_past_a_seats_total_is_a_flood_the_line_proves_to_everyone():
    """Its own peer never signs it (a speaker counts every line it sends), and every peer took
    the same lines: the line names its signer everywhere, and ``verify`` confirms it."""
    board = started_table()
    say_every_line(board, 1)
    past = line(board, 1, "past the total")
    board.host.receive(board.links[1], past.raw, now=5000.0)
    fault = board.host.fault
    assert (fault.culprit, fault.code, fault.reporter, fault.evidence) == (1, FaultCode.FLOOD, None, (past.raw,))
    assert fault.reason == "p1 (seat 1) sent chat past a seat's limits for a game (2000 lines, 256 KB of text)"
    board.run(play=False)
    other = board.sessions[2].fault
    assert (other.culprit, other.reporter, other.code) == (1, None, FaultCode.FLOOD), "proved, not a claim"
    for seat in (0, 2):
        report = verify_transcript(bytes(board.transcripts[seat]), get_game)
        assert report.ok and report.stopped.culprit == 1 and report.stop_confirmed, report.describe()
        assert report.chats == POLICY.lines


def test_a_flood_whose_line_is_within_the_total_here_is_the_reporters_claim():
    """Evidence of a flood that the lines this peer took don't bear out proves nothing: the
    reporter stopped the game on its word (a catching-up peer may lack lines, so not a false
    accusation either)."""
    board = started_table()
    host = board.host
    within = line(board, 1, "an ordinary line")
    host._halt(Fault(1, FaultCode.FLOOD, "p1 (seat 1) sent chat past its limits", host._seq(), None, (within.raw,)))
    board.run(play=False)
    other = board.sessions[2].fault
    assert (other.culprit, other.accused, other.reporter, other.code) == (0, 1, 0, FaultCode.FLOOD)


def test_a_player_saying_a_line_again_is_told_it_would_reach_nobody():
    """The same text is the same signed envelope, which every peer keeps once: a second "ok"
    would vanish without a word, so the player is told instead."""
    board = started_table()
    joiner = board.sessions[1]
    joiner.chat("ok", now=1.0)
    board.run(play=False)
    with pytest.raises(LocalError, match="^you have said exactly that already in this game, and a line is shown once"):
        joiner.chat("ok", now=60.0)
    joiner.chat("ok!", now=61.0)
    board.run(play=False)
    assert shown(board, 2) == ["ok", "ok!"]


def test_a_line_sent_again_is_neither_relayed_nor_kept_nor_counted():
    """The same envelope over and over (an identical line is one envelope: its signature is
    deterministic) took a host from 42 MB to 181 MB in 30 s: each was relayed and kept."""
    board = started_table()
    host, connection = board.host, board.links[1]
    same = line(board, 1, "spam").raw
    kept = len(host.role.relay)
    for _ in range(500):
        host.receive(connection, same, now=10.0)
    board.run(play=False)
    assert len(host.role.relay) == kept + 1 and shown(board, 2) == ["spam"]
    assert host.fault is None and host.chat_limits.dropped(1) == 0


def test_every_peer_records_the_same_lines_up_to_a_seats_total_a_rejoiner_too():
    board = started_table()
    say_every_line(board, 1)
    with pytest.raises(LocalError, match="^chat limit: a seat may say 2000 lines in this game, and you have said them all$"):
        board.sessions[1].chat("and one more", now=5000.0)
    recorded = chats_recorded(board, 0)
    assert len(recorded) == POLICY.lines and chats_recorded(board, 1) == chats_recorded(board, 2) == recorded
    board.restart(2)  # from its saved seat: the catch-up brings every line again, counted once
    board.run(play=False)
    assert chats_recorded(board, 2) == recorded and board.sessions[2].fault is None


def test_a_joiner_names_the_signer_of_a_line_its_host_relays_past_the_seats_total():
    board = started_table()
    joiner = board.sessions[1]
    lines = [line(board, 2, f"relayed {n}") for n in range(POLICY.lines + 1)]
    for envelope in lines:
        joiner.receive(HOST_CONNECTION, envelope.raw)
    assert len(chats_recorded(board, 1)) == POLICY.lines
    fault = joiner.fault
    assert (fault.culprit, fault.code, fault.evidence) == (2, FaultCode.FLOOD, (lines[-1].raw,))
    report = verify_transcript(bytes(board.transcripts[1]), get_game)
    assert report.ok and report.stopped.culprit == 2 and report.stop_confirmed, report.describe()


def test_a_host_resumed_from_its_transcript_counts_the_lines_it_took():
    board = started_table()
    host, connection = board.host, board.links[1]
    for n in range(POLICY.lines):
        host.receive(connection, line(board, 1, f"line {n}").raw, now=float(n))
    board.run(play=False)
    resumed = board.restart_host()
    board.run(play=False)  # every joiner rejoins
    resumed.receive(board.links[1], line(board, 1, "past the total").raw, now=1e6)
    assert (resumed.fault.culprit, resumed.fault.code) == (1, FaultCode.FLOOD)
    board.run(play=False)
    assert len(chats_recorded(board, 0)) == POLICY.lines


# -- sessions in memory: the lobby ------------------------------------------------------------------


def lobby_line(lobby: Lobby, joiner, text: str):
    return make_envelope(joiner.identity, "chat", {"game_id": lobby.host.table_id, "text": text})


def test_the_host_relays_lobby_lines_within_the_rate_and_turns_away_a_player_far_past_it():
    lobby = Lobby(seats=4)
    ann, bob = lobby.join("ann"), lobby.join("bob")
    for n in range(POLICY.burst + 5):
        lobby.host.receive(1, lobby_line(lobby, ann, f"hi {n}").raw, now=3.0)
    lobby.settle()
    assert [text for _, _, text in lobby.chats(2)] == [f"hi {n}" for n in range(POLICY.burst)]
    for n in range(POLICY.abuse - 5):
        lobby.host.receive(1, lobby_line(lobby, ann, f"flood {n}").raw, now=3.0)
    lobby.settle()
    assert [event.reason for event in lobby.events[1] if isinstance(event, Rejected)] == [
        "you sent chat far past its limits (100 lines dropped)"
    ]
    assert len(lobby.chats(2)) == POLICY.burst and 1 in lobby.host.take_closing()
    assert lobby.host.lobby_size == 2, "ann is out of the lobby at once"
    [*_, told] = [event for event in lobby.events[2] if isinstance(event, LobbyChanged)]
    assert [name for name, _ in told.players] == ["root", "bob"] and told.you == 1


def test_a_player_in_the_lobby_is_told_when_its_line_is_past_the_limit():
    lobby = Lobby(seats=4)
    ann = lobby.join("ann")
    for n in range(POLICY.own_burst):
        ann.chat(f"hi {n}", now=0.0)
    with pytest.raises(LocalError, match=r"^chat limit: 10 lines in a row at most"):
        ann.chat("hi again", now=0.0)
    lobby.settle()
    assert len(lobby.chats(0)) == POLICY.own_burst


def test_the_lobbys_lines_do_not_count_in_the_game():
    lobby = Lobby(seats=3)
    lobby.join("ann")
    for n in range(POLICY.own_burst):
        lobby.host.chat(f"welcome {n}", now=0.0)
    with pytest.raises(LocalError, match="^chat limit: "):
        lobby.host.chat("one too many", now=0.0)
    lobby.join("bob")  # the table is full: the game starts
    assert lobby.host.stage != "lobby"
    lobby.host.chat("good luck", now=0.0)
    lobby.settle()
    assert lobby.chats(1)[-1] == (0, "root", "good luck")
