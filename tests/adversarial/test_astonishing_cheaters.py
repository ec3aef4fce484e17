"""Cheating at Astonishing!, each cheat by a real misbehaving peer in a loopback game over TCP.

Three or four peers, each its own node on 127.0.0.1, play with the Astonishing! bot; one is a
cheater from :mod:`astonishing_cheaters`, at seat 1 (a joiner: the host refuses the cheat, or every
peer catches it when the cards are revealed) or at seat 0 (the host: it sequences its cheat in an
entry of its own, and the joiners refuse the entry). Where the cheat needs a situation (the Hearts
Inventor, a position holding two cards, a Joker in hand, someone else's trade offer to answer, the
exhibition) the cheater steers its own honest play toward it; each test tries its seeds in order
until the cheater got to cheat (the first one does: the others keep a change to the bots from
turning a test into a game that never reaches the moment), and checks that it did.

Every test checks: every honest peer stops naming the cheater (seat, code and the whole reason)
and says so to its player, once, without the game ending otherwise; the honest peers agree on
where they stopped; the cheat never entered their logs (the state they stopped in is the one the
cheat was sent in, and shows nothing of it) — except the Joker installed face down, which nobody
could see until it was revealed; a refused cheat's signed submission is the evidence; and every
honest transcript verifies, the replay confirming the fault.

Where each cheat is caught (RULES.md; SPEC §B3, §B9):

* an action card opened differently from its commitment is a ``bad-opening``, proved by the
  commitment and the opening together;
* a choice made in secret (the action card, a King's build, the exhibition vote) is checked at its
  opening: last turn's action card, a build into a full position and a vote for oneself are
  ``illegal`` ("committed to an illegal choice"), however late the opening arrives;
* a move in turn (a trade answer, the Hearts Queen's card given back, the Sway the Crowd) is
  ``illegal`` on arrival;
* a Joker installed face down is a ``rule-violation`` every peer finds on the entry that reveals
  the installed cards (the claim the build made).
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest
from astonishing_cheaters import (
    AnswerNotHeld,
    AstonishingCheater,
    BuildsIntoFullPosition,
    HeartsKeepsThird,
    InstallsJoker,
    OtherActionCard,
    RepeatedActionCard,
    SwaysByThree,
    VotesForItself,
)
from cheaters import Honest

from p2pgames.games import get_game
from p2pgames.games.astonishing.actions import Answer, Build, ChooseAction, GiveBack, SwayCrowd, Vote
from p2pgames.games.astonishing.cards import POSITION_CAPACITY, exhibition_queen_help, is_joker
from p2pgames.games.astonishing.rules import HEARTS, Phase
from p2pgames.net import play_table
from p2pgames.session import FaultCode, GameEnded, Halted, verify_transcript
from p2pgames.session._messages import open_envelope

GAME = "astonishing"
ILLEGAL = "made an illegal move: "  # an illegal move's reason begins so
CHOSEN = "committed to an illegal choice: "  # and an illegal secret choice's, at its opening
SHOWN = "broke a rule that the revealed cards show: "  # and a rule-violation's
JOINER, HOST = 1, 0
SEATS = pytest.mark.parametrize("culprit", [JOINER, HOST], ids=["joiner", "host"])
# Tried in order until the cheater gets to cheat. The first seed of each list is the one that
# reaches the moment (found by playing them); the others keep a test from failing only because a
# change to the bots made that game go another way.
SEEDS = (b"as-0", b"as-2", b"as-3", b"as-5", b"as-7")


def transcript_path(directory: Path, seed: bytes, seat: int) -> Path:
    # The name play_table gives each seat's transcript.
    return directory / f"{GAME}-{seed.hex()[:8]}-seat{seat}.p2pt"


async def play(
    tmp_path: Path, make: Callable[..., AstonishingCheater], culprit: int, *, players: int = 3,
    seeds: tuple[bytes, ...] = SEEDS,
):
    """Seeded games with the cheater ``make(seed=…)`` at seat ``culprit`` among honest bot peers,
    until it cheats; returns the cheater, the sessions and the honest peers' transcripts."""
    ruleset = get_game(GAME).ruleset(players)
    for seed in seeds:
        sessions = [Honest(seat, ruleset, seed) for seat in range(players)]
        cheater = make(seed=seed + b"/cheater", **({"ruleset": ruleset} if culprit == HOST else {}))
        sessions[culprit] = cheater
        directory = tmp_path / seed.decode()
        directory.mkdir()
        await play_table(GAME, players, sessions=sessions, transcripts=directory, seed=seed)
        if cheater.cheated:
            transcripts = {seat: transcript_path(directory, seed, seat) for seat in range(players) if seat != culprit}
            return cheater, sessions, transcripts
        # Its moment never came: its steering was honest play, and the game ended as any game.
        assert all(session.fault is None and session.result is not None for session in sessions), seed
    raise AssertionError(f"the cheater never got to cheat with seeds {seeds}")


def check_caught(cheater, sessions, transcripts, code: str, reason: str, *, raced: bool = False, refused: bool = True):
    """Every honest peer stopped naming the cheater for ``reason`` (the whole text); they agree on
    where; with ``refused``, the cheat (its signed submission the evidence) never entered their
    logs; every honest transcript verifies. Returns the state they stopped in.

    ``raced``: the cheat was an opening, and the other players' openings may have been sequenced
    before it (or, the host cheating, after its forged entry was sent)."""
    assert cheater.cheated, "the cheater never got to cheat"
    culprit = cheater.seat
    players = len(sessions)
    honest = [seat for seat in range(players) if seat != culprit]
    stopped_in = set()
    for seat in honest:
        session = sessions[seat]
        fault = session.fault
        assert session.stage == "halted", (seat, session.stage, fault)
        assert fault is not None and fault.culprit == culprit and fault.code == code, (seat, fault)
        assert fault.reason == reason, (seat, fault)
        assert fault.reporter is None, (seat, fault)  # proved by the evidence, not taken on trust
        replica = session.replica
        if refused:
            # The cheater's signed submission is the evidence, and it never entered the log: the
            # cheater's counter is still the one it carried.
            assert open_envelope(fault.evidence[-1]).raw == cheater.cheat_raw, (seat, fault)
            evidence = open_envelope(cheater.cheat_raw)
            assert evidence.sender == cheater.identity.public_key.raw and evidence.body["seat"] == culprit
            assert replica.counters[culprit] == evidence.body["counter"], (seat, "the cheat was sequenced")
            if raced:
                assert cheater.cheat_seq <= replica.seq < cheater.cheat_seq + players, (seat, replica.seq, cheater.cheat_seq)
            else:
                assert replica.seq == cheater.cheat_seq, (seat, replica.seq, cheater.cheat_seq)
        # The player is told once, clearly, who did what; the game did not end otherwise.
        halts = [event for event in session.seen if isinstance(event, Halted)]
        assert len(halts) == 1 and halts[0].fault == fault, (seat, halts)
        assert halts[0].message == f"The game stopped: cheater (seat {culprit}): {reason}.", halts[0].message
        assert not any(isinstance(event, GameEnded) for event in session.seen), seat
        # The transcript verifies, and replaying it confirms the fault from the evidence.
        report = verify_transcript(transcripts[seat].read_bytes(), get_game)
        assert report.ok, (seat, report.describe())
        assert report.stopped is not None and report.stopped.culprit == culprit, (seat, report.describe())
        assert report.stopped.code == code, (seat, report.describe())
        assert report.stop_confirmed, (seat, report.describe())
        stopped_in.add((replica.seq, replica.state_hash))
        # Nobody saw every peer agree on the entry that stopped the game.
        assert session.agreed_through < replica.seq, seat
    assert len(stopped_in) == 1, f"honest peers disagree about where they stopped: {stopped_in}"
    return sessions[honest[0]].replica.state


def cheat_value(cheater):
    """The action the cheater's signed submission carries (an act, or an opening's value)."""
    body = open_envelope(cheater.cheat_raw).body["body"]
    return get_game(GAME).decode_action(body["action"] if body["t"] == "act" else body["value"])


# -- 1. an action card opened differently from its commitment --------------------------------------


@SEATS
async def test_action_card_opened_differently_from_its_commitment_is_a_bad_opening(tmp_path, autojump_clock, culprit):
    cheater, sessions, transcripts = await play(tmp_path, OtherActionCard, culprit, players=4)
    state = check_caught(
        cheater, sessions, transcripts, FaultCode.BAD_OPENING,
        "opened a commitment with a different value than it committed to", raced=True,
    )
    # A legal action card (any is, on the first turn), but not the one committed to.
    assert type(cheater.committed) is ChooseAction and type(cheater.cheat_action) is ChooseAction
    assert cheater.cheat_action != cheater.committed and cheat_value(cheater) == cheater.cheat_action
    # The evidence is the commitment and the opening, both signed by the cheater.
    for session in sessions:
        if session is not cheater:
            commitment = open_envelope(session.fault.evidence[0])
            assert commitment.sender == cheater.identity.public_key.raw
            assert commitment.body["body"]["t"] == "commit" and commitment.body["seat"] == cheater.seat
    # Still choosing the first turn's action cards: nothing was revealed.
    assert state.phase == Phase.CHOOSE and state.turn == 1 and state.action == [""] * 4


# -- 2. last turn's action card --------------------------------------------------------------------


@SEATS
async def test_playing_last_turns_action_card_again_is_refused_at_its_opening(tmp_path, autojump_clock, culprit):
    cheater, sessions, transcripts = await play(tmp_path, RepeatedActionCard, culprit, players=4)
    state = check_caught(
        cheater, sessions, transcripts, FaultCode.ILLEGAL,
        CHOSEN + "you played your King last turn: choose another action card", raced=True,
    )
    assert cheat_value(cheater) == ChooseAction("king")
    # The second turn (neither the first nor the final one), its King played on the first.
    assert state.phase == Phase.CHOOSE and state.turn == 2 and not state.final
    assert state.last_action[cheater.seat] == "king" and state.action == [""] * 4


# -- 3. a trade answered with a card not in the answerer's hand --------------------------------------


@SEATS
async def test_trade_answer_with_a_face_down_card_the_answerer_does_not_hold_is_refused(tmp_path, autojump_clock, culprit):
    # Only another player's offer can be answered: a game where an honest bot trades (to pass on
    # a Joker) before the deck runs out.
    seeds = (b"as-4", b"as-6", b"as-7", b"as-8") if culprit == JOINER else (b"as-0", b"as-9", b"as-7", b"as-5")
    cheater, sessions, transcripts = await play(tmp_path, AnswerNotHeld, culprit, seeds=seeds)
    state = check_caught(cheater, sessions, transcripts, FaultCode.ILLEGAL, ILLEGAL + "you can only use cards from your hand")
    slot = cheater.slot
    assert cheat_value(cheater) == Answer((slot,), (False,))
    # Another player's offer, the cheater the last to answer; its answer never stood, and the
    # card it named is still the deck's top card, unseen by anyone.
    assert state.phase == Phase.RESPOND and state.trader != cheater.seat and state.offer
    assert state.owing == [cheater.seat] and state.answers[cheater.seat] == []
    assert state.deck[0] == slot and slot not in state.hands[cheater.seat]
    assert slot not in state.cards.revealed


# -- 4. a Joker installed face down ----------------------------------------------------------------


@SEATS
async def test_installing_a_joker_is_caught_naming_the_builder_when_the_installed_cards_are_revealed(tmp_path, autojump_clock, culprit):
    cheater, sessions, transcripts = await play(
        tmp_path, InstallsJoker, culprit, seeds=(b"as-5", b"as-2", b"as-3", b"as-4"),
    )
    build = cheater.cheat_action
    joker = cheater.joker
    assert type(build) is Build and joker in build.slots and is_joker(cheater.knowledge[joker])
    # Nobody could see the Joker when it was built: the build was sequenced (the rules accept a
    # face-down card), and the claim it made was checked when the installed cards were revealed.
    state = check_caught(
        cheater, sessions, transcripts, FaultCode.RULE_VIOLATION,
        SHOWN + "installed a Joker: Jokers can never be used to build a contraption", refused=False,
    )
    assert joker in state.installed[cheater.seat][build.position]
    assert joker not in state.cards.revealed  # the entry whose keys revealed it stopped the game
    assert joker in state.cards.expected_values()
    assert any(claim.player == cheater.seat and claim.kind == "install" and joker in claim.slots for claim in state.cards.claims)
    # Caught at the exhibition: after the dice, on the entry revealing the installed cards,
    # before anyone used the dice.
    assert state.phase == Phase.REVEALING and len(state.dice) == 3 and all(state.descriptions)
    for session in sessions:
        if session is not cheater:
            assert session.replica.seq > cheater.cheat_seq


# -- 5. building into a full position --------------------------------------------------------------


@SEATS
async def test_building_into_a_full_position_without_scrapping_is_refused_at_its_opening(tmp_path, autojump_clock, culprit):
    cheater, sessions, transcripts = await play(tmp_path, BuildsIntoFullPosition, culprit, players=4)
    state = check_caught(
        cheater, sessions, transcripts, FaultCode.ILLEGAL,
        CHOSEN + f"a position holds at most {POSITION_CAPACITY} cards: discard installed ones to make room", raced=True,
    )
    build = cheat_value(cheater)
    assert build == cheater.cheat_action and build.scrap == () and build.position == cheater.filled
    # The position still holds the two cards its first King installed; the card is still in hand.
    seat = cheater.seat
    assert state.phase == Phase.BUILD and state.action[seat] == "king"
    assert state.installed[seat][build.position] == cheater.before and len(cheater.before) == POSITION_CAPACITY
    assert set(build.slots) <= set(state.hands[seat])


# -- 6. the Hearts Queen keeps the third card -------------------------------------------------------


@SEATS
async def test_hearts_queen_giving_back_a_card_not_among_the_three_taken_is_refused(tmp_path, autojump_clock, culprit):
    cheater, sessions, transcripts = await play(
        tmp_path, HeartsKeepsThird, culprit, players=4, seeds=(b"as-0", b"as-1", b"as-3"),
    )
    state = check_caught(
        cheater, sessions, transcripts, FaultCode.ILLEGAL, ILLEGAL + "give back one of the three cards you just took",
    )
    seat = cheater.seat
    given = cheat_value(cheater)
    assert type(given) is GiveBack
    assert state.inventor[seat] == HEARTS and state.action[seat] == "queen"
    # She took three (one at random from the rival, two from the deck) and kept them all: the
    # card she named is an older one of her hand.
    assert state.phase == Phase.GIVE_BACK and state.taker == seat and state.source == cheater.rival
    assert state.taken == cheater.taken and len(state.taken) == 3
    assert given.slot not in state.taken and given.slot in state.hands[seat]
    assert set(state.taken) <= set(state.hands[seat])


# -- 7. a vote for oneself -------------------------------------------------------------------------


@SEATS
async def test_vote_for_ones_own_contraption_is_refused_at_its_opening(tmp_path, autojump_clock, culprit):
    seeds = (b"as-7", b"as-5", b"as-0") if culprit == JOINER else (b"as-2", b"as-1", b"as-0")
    cheater, sessions, transcripts = await play(tmp_path, VotesForItself, culprit, seeds=seeds)
    state = check_caught(
        cheater, sessions, transcripts, FaultCode.ILLEGAL, CHOSEN + "vote for a competitor: never for yourself", raced=True,
    )
    assert cheat_value(cheater) == Vote(cheater.seat)
    # At the exhibition, every contraption described, the votes not yet opened: none was counted.
    assert state.phase == Phase.VOTE and all(state.descriptions)
    assert state.votes == [-1] * len(sessions) and state.jacks == [0] * len(sessions)


# -- 8. a die turned by 3 --------------------------------------------------------------------------


@SEATS
async def test_hearts_exhibition_queen_turning_a_die_by_three_is_refused(tmp_path, autojump_clock, culprit):
    seeds = (b"as-0", b"as-7", b"as-2") if culprit == JOINER else (b"as-2", b"as-3", b"as-5")
    cheater, sessions, transcripts = await play(tmp_path, SwaysByThree, culprit, seeds=seeds)
    state = check_caught(
        cheater, sessions, transcripts, FaultCode.ILLEGAL,
        ILLEGAL + "your Queen can't do that: " + exhibition_queen_help(HEARTS),
    )
    sway = cheat_value(cheater)
    assert type(sway) is SwayCrowd and sway.die == 0 and abs(sway.value - cheater.shown) == 3
    # Her Queen's turn at the exhibition; the die still shows what it showed.
    seat = cheater.seat
    assert state.inventor[seat] == HEARTS and state.exhibit[seat] == "queen"
    assert state.phase == Phase.EXHIBIT_QUEEN and state.queue[0] == seat
    assert state.dice[0] == cheater.shown
