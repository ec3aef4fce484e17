"""The rules agree with themselves: every action of every kind is legal exactly when
``check_action`` accepts it; the fast path (``apply_unchecked``) reaches the same states as the
checked one; copies are independent; states round-trip their encoding."""

from itertools import combinations

import pytest

from p2pgames import canonical
from p2pgames.engine import Act, DeterministicRandom, GameOver, IllegalAction, LocalTable, Simultaneous, Turn
from p2pgames.games.torpedo import GAME
from p2pgames.games.torpedo import actions as A
from p2pgames.games.torpedo.rules import Phase

POSITIONS = range(10)
CREW = range(10)


def _universe():
    """Every in-game action with every field value that could make sense."""
    yield from (A.Move(c, p) for c in CREW for p in POSITIONS)
    yield from (A.CaptainMove(p) for p in POSITIONS)
    for p in POSITIONS:
        for e in (0, 1):
            yield from (A.Trigger(p, e, (c,)) for c in CREW)
            yield from (A.Trigger(p, e, pair) for pair in combinations(CREW, 2))
            yield A.React(p, e)
    yield from (A.Maneuver(o, e, u) for o in range(-4, 5) for e in range(-4, 5) for u in (None, 0, 1))
    yield from (A.Step(c, p) for c in CREW for p in POSITIONS)
    yield from (A.TargetTile(p) for p in POSITIONS)
    yield from (A.TargetCrew(c) for c in CREW)
    yield from (A.Relocate(c, p) for c in CREW for p in POSITIONS)
    yield from (A.Drive(s, b, u) for s in (0, 1) for b in range(-4, 5) if b for u in (None, 0, 1))
    yield from (A.Assign(p) for p in POSITIONS)
    yield from (A.Breathe(p) for p in POSITIONS)
    yield from (A.Swap(a, b) for a, b in combinations(POSITIONS, 2))
    yield from (A.Absorb(), A.Pass(), A.EndTurn(), A.Keep())


UNIVERSE = list(_universe())


def _states(build, seed, every):
    table = LocalTable(GAME, GAME.ruleset(2, {"build": build}), seed)
    chooser = DeterministicRandom(b"consistency" + seed)
    n = 0
    while True:
        state = table.state
        step = GAME.step(state)
        if isinstance(step, GameOver):
            return
        if n % every == 0 or state.phase in (Phase.COUNTER, Phase.DEFEND, Phase.DRAIN, Phase.SCAVENGE, Phase.AIM):
            yield state
        n += 1
        if isinstance(step, Simultaneous):
            table.act_simultaneous(
                [(p, GAME.legal_actions(state, p, {})[chooser.below(len(GAME.legal_actions(state, p, {})))]) for p in step.players]
            )
        else:
            actors = step.actors if isinstance(step, Turn) else step.players
            options = GAME.legal_actions(state, actors[0], {})
            table.act(actors[0], options[chooser.below(len(options))])


@pytest.mark.parametrize("build, seed", [("starter", b"1"), ("custom", b"2"), ("random", b"3")])
def test_an_action_is_legal_exactly_when_check_action_accepts_it(build, seed):
    checked = 0
    for state in _states(build, seed, every=7):
        for player in (0, 1):
            legal = set(GAME.legal_actions(state, player, {}))
            for action in UNIVERSE:
                try:
                    GAME.check_action(state, player, action)
                    accepted = True
                except IllegalAction as error:
                    accepted = False
                    assert error.player == player and error.reason
                assert accepted == (action in legal), (state.phase, player, action)
                checked += 1
    assert checked > 100_000


def test_the_fast_path_reaches_the_same_states_as_the_checked_one():
    for build in ("starter", "draft"):
        table = LocalTable(GAME, GAME.ruleset(2, {"build": build}), b"fast", record_hashes=True)
        chooser = DeterministicRandom(b"fast")
        while not isinstance(GAME.step(table.state), GameOver):
            step = GAME.step(table.state)
            if isinstance(step, Simultaneous):
                table.act_simultaneous([(p, GAME.legal_actions(table.state, p, {})[0]) for p in step.players])
                continue
            actors = step.actors if isinstance(step, Turn) else step.players
            options = GAME.legal_actions(table.state, actors[0], {})
            table.act(actors[0], options[chooser.below(len(options))])
        fast = LocalTable(GAME, GAME.ruleset(2, {"build": build}), b"fast", check=False)
        state = GAME.setup(GAME.ruleset(2, {"build": build}))
        hashes = [GAME.state_hash(state)]
        for event in table.log:
            state = GAME.apply_unchecked(state, event)
            hashes.append(GAME.state_hash(state))
        assert hashes == table.hashes
        assert fast is not None


def test_a_copy_is_independent_of_its_original():
    state = LocalTable(GAME, GAME.ruleset(2, {"build": "starter"}), b"copy").state
    copy = state.copy()
    before = canonical.encode(GAME.encode_state(state))
    copy.damage[0][3] = 2
    copy.oxygen[1][4] = 0
    copy.crew[3] = (0, 1, False, True)
    copy.sectors[0] = 1
    copy.used.append((0, 1, 0))
    copy.turns_taken[0] = 9
    assert canonical.encode(GAME.encode_state(state)) == before


def test_the_hashed_state_holds_no_floats_or_sets_and_round_trips():
    state = LocalTable(GAME, GAME.ruleset(2, {"build": "random"}), b"enc").state
    encoded = canonical.encode(GAME.encode_state(state))
    again = GAME.decode_state(canonical.decode(encoded))
    assert canonical.encode(GAME.encode_state(again)) == encoded
    assert again.kit == state.kit
