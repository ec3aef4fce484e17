"""Cheating at Steam Court, each cheat by a real misbehaving peer in a loopback game over TCP.

The cheater sits at seat 1 (a joiner) among honest bot peers; seeds are chosen so that the
situation arises (the cheater draws the character the cheat needs, holds the cards it needs) and
each test checks that it did. Every test checks: the cheat is detected, at the point the rules
say; every honest peer names the cheater and stops cleanly with a message saying why; and what
they hold is intact — they agree with each other on the state they stopped in and on how far
they agreed, the cheat never entered their logs unless revealing it is how it was caught, and
their transcripts verify, the replay confirming the fault.

Where a cheat is caught (RULES.md I17, I18; SPEC §B3, §B9):

* a hidden choice shown false by cards revealed later (the Tea Boy's "two highest", a coup, a
  lay's declaration) is a ``rule-violation`` found by every peer on the entry that revealed it;
* a move the public state refuses (a card the player doesn't hold, a stop with no stop window
  open) is ``illegal``: the host refuses it at once and its signed submission proves it to the
  others — unless it was based on an entry older than the host's latest, then it is a stale race.
"""

from __future__ import annotations

from functools import partial

import steamcourt_checks
import trio
from cheaters import Honest
from steamcourt_cheaters import (
    CardNotHeld,
    CoupWithoutMasterstrokes,
    FakeMasterstroke,
    FalseValue,
    GeneralStopsTooLate,
    TeaBoyKeepsHisBest,
    UnlikeMultiplier,
)
from steamcourt_checks import CHEATER, ILLEGAL, SHOWN

from p2pgames.games import get_game
from p2pgames.games.steamcourt.cards import a_face
from p2pgames.games.steamcourt.rules import Phase
from p2pgames.net import play_table
from p2pgames.session import FaultCode, Halted, Notice, verify_transcript
from p2pgames.session._messages import open_envelope

GAME = "steamcourt"
OUT_OF_TURN = "sent an act submission out of turn"
# The checks every Steam Court cheating test makes (steamcourt_checks.py), for this game.
check_caught = partial(steamcourt_checks.check_caught, GAME)
check_tea_boy_caught = partial(steamcourt_checks.check_tea_boy_caught, GAME)
check_refused_by_host = partial(steamcourt_checks.check_refused_by_host, GAME)


async def play(tmp_path, cheater, *, players: int, seed: bytes, think: float = 0.0):
    """One seeded Steam Court game with ``cheater`` at seat 1 and honest peers elsewhere."""
    ruleset = get_game(GAME).ruleset(players)
    sessions = [Honest(seat, ruleset, seed) for seat in range(players)]
    sessions[CHEATER] = cheater
    table = await play_table(GAME, players, sessions=sessions, transcripts=tmp_path, seed=seed, think=think)
    return table, sessions


# -- 1. the Tea Boy's two highest numbered cards -----------------------------------------------


async def tea_boy_caught(tmp_path, seed):
    cheater = TeaBoyKeepsHisBest(seed=seed + b"/cheater")
    _, sessions = await play(tmp_path, cheater, players=3, seed=seed)
    return check_tea_boy_caught(tmp_path, seed, sessions, cheater, entries_after=50)


async def test_tea_boy_who_serves_his_lowest_cards_is_named_at_the_quarters_audit(tmp_path, autojump_clock):
    state, hidden = await tea_boy_caught(tmp_path, b"sc-3")
    # He was the last with cards: only the quarter's audit showed the ones he never played.
    assert state.quarter == 1 and state.phase == Phase.AUDITING
    assert state.tables[0].phase == Phase.DONE and state.tables[0].out[-1] == CHEATER
    assert hidden == set(state.hands[CHEATER])


async def test_tea_boy_who_serves_his_lowest_cards_is_named_as_soon_as_his_cards_are_public(tmp_path, autojump_clock):
    state, hidden = await tea_boy_caught(tmp_path, b"sc-6")
    # He kept his hand and played it out: the reveal of his last card shows the claim false,
    # before the quarter ends (his last lay never stood: he took no gear token).
    table = state.tables[0]
    assert state.quarter == 1 and state.phase == Phase.PLAYING and table.phase == Phase.REVEALING
    assert table.actor == CHEATER and not state.hands[CHEATER] and CHEATER not in table.out
    assert hidden <= set(table.lays[-1][1])


# -- 2. the coup -------------------------------------------------------------------------------


async def test_coup_claimed_without_three_masterstrokes_is_named_when_its_cards_are_revealed(tmp_path, autojump_clock):
    seed = b"sc-0"
    cheater = CoupWithoutMasterstrokes(seed=seed + b"/cheater")
    _, sessions = await play(tmp_path, cheater, players=3, seed=seed)
    revealed = " ".join(str(number) for number in cheater.coup_numbers)
    replica = check_caught(
        tmp_path, seed, sessions, FaultCode.RULE_VIOLATION,
        f"{SHOWN}claimed a coup without three Masterstrokes (revealed {revealed})",
    )
    # Caught on the entry that revealed the three cards, before anyone moved seat.
    table = replica.state.tables[0]
    assert replica.state.quarter == 1 and table.phase == Phase.COUP_REVEAL
    assert table.focus == list(cheater.cheat_action.slots) and table.actor == CHEATER
    assert cheater.seats_before[0] != CHEATER and table.seats == cheater.seats_before  # nobody moved


# -- 3. the Multiplier -------------------------------------------------------------------------


async def test_multiplier_declared_with_unlike_cards_is_named_when_the_lay_is_revealed(tmp_path, autojump_clock):
    seed = b"sc-0"
    cheater = UnlikeMultiplier(seed=seed + b"/cheater")
    _, sessions = await play(tmp_path, cheater, players=3, seed=seed)
    lay = cheater.cheat_action
    # Two unlike numbered cards and a Multiplier, declared as ``quantity`` cards of ``value``.
    value, quantity = cheater.declared
    laid = " ".join(str(number) for number in cheater.laid)
    replica = check_caught(
        tmp_path, seed, sessions, FaultCode.RULE_VIOLATION,
        f"{SHOWN}declared {value}s but laid {laid}: {a_face(str(cheater.unlike))} can't count as {value}",
    )
    # Caught on the entry that revealed the lay; it never stood (nobody got to answer it).
    table = replica.state.tables[0]
    assert table.phase == Phase.REVEALING and table.actor == CHEATER
    assert table.lays[-1] == [CHEATER, list(lay.slots), value, quantity, lay.multiplier]


# -- 4. cards the player doesn't hold, or that aren't what he says ----------------------------


async def test_card_from_another_players_hand_is_refused_at_once_and_named(tmp_path, autojump_clock):
    seed = b"sc-0"
    cheater = CardNotHeld(seed=seed + b"/cheater")
    _, sessions = await play(tmp_path, cheater, players=3, seed=seed)
    # He laid cards from the hand of ``cheater.victim``, another player.
    replica = check_caught(
        tmp_path, seed, sessions, FaultCode.ILLEGAL, f"{ILLEGAL}that card is not in your hand",
    )
    check_refused_by_host(sessions, cheater)
    # Refused before anything was revealed: the cards are still the victim's, still hidden.
    for session in sessions:
        if session is not cheater:
            state = session.replica.state
            assert set(cheater.stolen) <= set(state.hands[cheater.victim])
            assert not set(cheater.stolen) & set(state.cards.revealed)
    assert replica.state.tables[0].turn == CHEATER


async def test_card_laid_as_a_value_it_does_not_have_is_named_when_revealed(tmp_path, autojump_clock):
    seed = b"sc-1"
    cheater = FalseValue(seed=seed + b"/cheater")
    _, sessions = await play(tmp_path, cheater, players=3, seed=seed)
    lay = cheater.cheat_action
    # One numbered card below 12, declared as a 12.
    replica = check_caught(
        tmp_path, seed, sessions, FaultCode.RULE_VIOLATION,
        f"{SHOWN}declared 12s but laid {cheater.laid}: {a_face(str(cheater.laid))} can't count as 12",
    )
    table = replica.state.tables[0]
    assert table.phase == Phase.REVEALING and table.actor == CHEATER
    assert table.lays[-1] == [CHEATER, list(lay.slots), 12, 1, -1]
    # The state is the one before the entry whose keys revealed the card (that entry stopped
    # the game): the card was being revealed.
    assert replica.state.cards.expected_values() == set(lay.slots)


async def test_numbered_card_laid_as_a_masterstroke_is_named_when_revealed(tmp_path, autojump_clock):
    seed = b"sc-1"
    cheater = FakeMasterstroke(seed=seed + b"/cheater")
    _, sessions = await play(tmp_path, cheater, players=3, seed=seed)
    # His lowest numbered card, laid as a Masterstroke.
    replica = check_caught(
        tmp_path, seed, sessions, FaultCode.RULE_VIOLATION,
        f"{SHOWN}laid {a_face(str(cheater.laid))} as a Masterstroke",
    )
    # The trick did not end in his favour: caught before the lay stood.
    table = replica.state.tables[0]
    assert table.phase == Phase.REVEALING and table.actor == CHEATER
    assert table.lays[-1][:2] == [CHEATER, [cheater.cheat_action.slot]]
    assert replica.state.cards.expected_values() == {cheater.cheat_action.slot}


# -- 5. the General's stop ---------------------------------------------------------------------


async def test_general_who_stops_after_the_next_player_laid_is_named(tmp_path, autojump_clock):
    """He declined to stop a lay, saw the next player lay, and sent a stop based on the newest
    entry, while another player was to move: no stop window was open, so it is illegal.

    Honest bots think for a second of (virtual) time before each move, so his stop reaches the
    host before the player to move answers: it is based on the host's latest entry.
    """
    seed = b"sc-0"
    cheater = GeneralStopsTooLate(seed=seed + b"/cheater")
    _, sessions = await play(tmp_path, cheater, players=6, seed=seed, think=1.0)
    assert cheater.cheat_character == "general"  # the stop window he declined was his as the General
    # The next lay is another player's, and his stop is based on the newest entry, after it.
    declined, (_, next_player, next_slots) = cheater.declined, cheater.next_lay
    replica = check_caught(
        tmp_path, seed, sessions, FaultCode.ILLEGAL, OUT_OF_TURN,
    )
    check_refused_by_host(sessions, cheater)
    # Nothing was stopped: the lay he declined and the next one both still stand, and it is
    # another player's turn.
    table = replica.state.tables[0]
    lays = [(lay[0], tuple(lay[1])) for lay in table.lays]
    assert declined in lays and (next_player, next_slots) in lays
    assert table.phase == Phase.TURN and table.turn not in (CHEATER,)
    assert "stop" not in replica.state.used[CHEATER]


async def test_general_whose_stop_crossed_the_next_lay_is_told_it_came_too_late(tmp_path, autojump_clock):
    """The same stop at the same moment, but based on the entries before the next lay — what a
    stop sent before that lay reached him and delivered late looks like. The host can't tell it
    from an honest race: it answers "stale" to him alone, names nobody, and the game goes on; the
    other peers never hear of it."""
    seed = b"sc-0"
    cheater = GeneralStopsTooLate(late=True, seed=seed + b"/cheater", name="general")
    ruleset = get_game(GAME).ruleset(6)
    sessions = [Honest(seat, ruleset, seed) for seat in range(6)]
    sessions[CHEATER] = cheater
    host = sessions[0]
    settled_at: list[int] = []

    def settled() -> bool:
        # Once the stale answer is in, wait until the lay he wanted to stop is settled (its
        # trick over, or stopped by a later, legal stop) and every peer agreed on that — and until
        # his next submission is sequenced (protocol 11's card steps ask fewer of him: it may
        # come after that), to see which counter it carries.
        if not any(isinstance(event, Notice) for event in cheater.seen):
            return False
        if not settled_at:
            lays = [(lay[0], tuple(lay[1])) for lay in host.replica.state.tables[0].lays]
            if cheater.next_lay[1:] in lays:
                return False
            settled_at.append(host.replica.seq)
        if host.replica.counters[CHEATER] <= open_envelope(cheater.cheat_raw).body["counter"]:
            return False
        return all(session.agreed_through >= host.replica.seq - 1 for session in sessions)

    # Woken by every entry applied and every event (an agreement among them) at any peer.
    changed = [trio.Event()]

    def poke() -> None:
        changed[0].set()
        changed[0] = trio.Event()

    for session in sessions:
        session.on_change = poke

    # A whole six-player game takes long: stop the table (cancel it) once that is settled. The
    # transcripts are kept in memory (a cancelled node would leave its file open).
    with trio.CancelScope() as scope:
        async with trio.open_nursery() as nursery:

            async def stop_when_settled() -> None:
                while not settled():
                    await changed[0].wait()
                scope.cancel()

            nursery.start_soon(stop_when_settled)
            await play_table(GAME, 6, sessions=sessions, seed=seed, think=1.0)
            scope.cancel()
    assert settled_at, "the game ended before the stop was settled"
    assert cheater.cheat_character == "general"  # the stop window he declined was his as the General
    # His stop was sent after the next lay, based on the entries before it (the cheater does so).
    # The host told the General alone, naming the counter of his stop.
    stale = [(connection, envelope) for connection, envelope in host.sent if envelope.kind == "stale"]
    assert len(stale) == 1, stale
    connection, envelope = stale[0]
    assert host.seat_of_connection(connection) == CHEATER
    stop = open_envelope(cheater.cheat_raw).body
    assert envelope.body["counter"] == stop["counter"] and envelope.body["reason"] == OUT_OF_TURN
    notices = [event.text for event in cheater.seen if isinstance(event, Notice)]
    assert notices == ["your move came too late: " + OUT_OF_TURN]
    # The stop never entered the log; nobody was named, nobody stopped; the game went on and
    # every peer agreed on it; every transcript verifies.
    entries = [envelope for _, envelope in host.sent if envelope.kind == "entry"]  # to each joiner
    assert {entry.body["seq"] for entry in entries} == set(range(host.replica.seq))
    assert not [entry for entry in entries if entry.body["submission"] == cheater.cheat_raw]
    # His counter was not used up: his next submission, sequenced, carries it.
    mine = [open_envelope(entry.body["submission"]).body for entry in entries]
    assert [body for body in mine if body["seat"] == CHEATER and body["counter"] == stop["counter"]]
    for seat, session in enumerate(sessions):
        assert session.fault is None and session.stage == "playing", (seat, session.stage, session.fault)
        assert session.agreed_through >= settled_at[0] - 1
        assert not any(isinstance(event, Halted) for event in session.seen), seat
        if seat != CHEATER:
            assert not any(isinstance(event, Notice) for event in session.seen), seat
        report = verify_transcript(session.transcript(), get_game)
        assert report.ok and report.stopped is None, report.describe()
        assert report.entries >= settled_at[0]
