"""The engine's own rules: step/event matching, card completion, claims, rulesets, the stream."""

import pytest

from p2pgames.engine import (
    Act,
    CardsDone,
    ChanceOutcome,
    DeterministicRandom,
    EventMismatch,
    IllegalAction,
    LocalTable,
    RuleViolation,
    RulesetError,
    Simultaneous,
    SimultaneousActs,
    Turn,
)
from p2pgames.games import UnknownGame, get_game
from p2pgames.games._probe import Cheer, PassCard, PlayCard, card_value

PROBE = get_game("probe")


def table_at_pass(seed=b"s"):
    """A 3-player probe table stopped where the round's winner must pass a card."""
    table = LocalTable(PROBE, PROBE.ruleset(3), seed)
    step = table.step()
    assert isinstance(step, Simultaneous)
    table.act_simultaneous([(p, PlayCard(table.state.hands[p][0])) for p in range(3)])
    step = table.step()
    assert isinstance(step, Turn) and step.prompt.startswith("pass")
    return table


def finish(table):
    while not table.over:
        step = table.step()
        if isinstance(step, Simultaneous):
            table.act_simultaneous([(p, PlayCard(table.state.hands[p][0])) for p in step.players])
        elif isinstance(step, Turn):
            player = step.actors[0]
            table.act(player, PROBE.legal_actions(table.state, player, table.view(player))[0])
        else:
            table.act(step.players[0], Cheer(False))


def test_passing_a_lower_card_is_caught_at_the_audit():
    table = table_at_pass()
    winner = table.state.winner
    hand = table.state.hands[winner]
    lowest = min(hand, key=lambda slot: card_value(table.view(winner)[slot]))
    table.act(winner, PassCard(lowest))
    with pytest.raises(RuleViolation) as caught:
        finish(table)
    assert caught.value.player == winner
    assert "highest card must be passed" in caught.value.reason


def test_honest_pass_survives_the_audit():
    table = table_at_pass()
    finish(table)
    assert table.over


def test_move_out_of_turn_is_refused_and_changes_nothing():
    table = table_at_pass()
    other = (table.state.winner + 1) % 3
    before = PROBE.state_hash(table.state)
    with pytest.raises(IllegalAction, match="not your turn"):
        PROBE.apply(table.state, Act(other, PassCard(table.state.hands[other][0])))
    assert PROBE.state_hash(table.state) == before


def test_card_from_someone_elses_hand_is_refused():
    table = LocalTable(PROBE, PROBE.ruleset(2), b"x")
    other_slot = table.state.hands[1][0]
    with pytest.raises(IllegalAction, match="not in your hand"):
        PROBE.apply(table.state, SimultaneousActs(((0, PlayCard(other_slot)), (1, PlayCard(other_slot)))))


def test_events_that_do_not_answer_the_step_are_mismatches():
    table = LocalTable(PROBE, PROBE.ruleset(2), b"x")
    with pytest.raises(EventMismatch):
        PROBE.apply(table.state, ChanceOutcome(bytes(32)))
    with pytest.raises(EventMismatch):
        PROBE.apply(table.state, CardsDone(((0, "c1"),)))
    with pytest.raises(EventMismatch, match="expected"):
        PROBE.apply(table.state, SimultaneousActs(((0, PlayCard(table.state.hands[0][0])),)))


def test_card_values_must_be_exactly_those_asked_for_and_cards_of_the_deal():
    state = PROBE.setup(PROBE.ruleset(2))
    state = PROBE.apply(state, ChanceOutcome(bytes(32)))
    # The deal and the disclosures are pending: no value is asked for.
    with pytest.raises(EventMismatch, match="extra"):
        PROBE.apply(state, CardsDone(((0, "c1"),)))
    state = PROBE.apply(state, CardsDone())
    state = PROBE.apply(
        state, SimultaneousActs(((0, PlayCard(state.hands[0][0])), (1, PlayCard(state.hands[1][0]))))
    )
    played = [slot for _, slot in state.played]
    with pytest.raises(EventMismatch, match="missing"):
        PROBE.apply(state, CardsDone(((played[0], "c1"),)))
    with pytest.raises(EventMismatch, match="not a card"):
        PROBE.apply(state, CardsDone(((played[0], "c1"), (played[1], "c99"))))
    with pytest.raises(EventMismatch, match="twice"):
        PROBE.apply(state, CardsDone(((played[0], "c1"), (played[1], "c1"))))


def test_rulesets_validate_players_and_options():
    with pytest.raises(RulesetError, match="2–4 players"):
        PROBE.ruleset(5)
    with pytest.raises(RulesetError, match="no option"):
        PROBE.ruleset(2, {"speed": 3})
    ruleset = PROBE.ruleset(3)
    assert PROBE.decode_ruleset(ruleset.encode()) == ruleset


def test_unknown_game_names_the_choices():
    with pytest.raises(UnknownGame) as caught:
        get_game("chess")
    assert "beltpunk" in str(caught.value)


def test_deterministic_random_is_stable_and_in_range():
    stream = DeterministicRandom(b"seed")
    draws = [stream.below(6) for _ in range(600)]
    assert set(draws) == set(range(6))
    again = DeterministicRandom(b"seed")
    assert [again.below(6) for _ in range(600)] == draws
    items = list(range(10))
    DeterministicRandom(b"seed").shuffle(items)
    assert sorted(items) == list(range(10)) and items != list(range(10))
    with pytest.raises(ValueError):
        stream.below(0)
