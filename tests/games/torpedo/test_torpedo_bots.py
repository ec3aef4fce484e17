"""The Steam Torpedo bots: both kinds reachable, legal in every build option, reproducible from
their seed, sensible when defending, and the search bot playing a whole game at a tiny budget.

Their strength and speed are measured, not tested (no clock here): ``scripts/measure_torpedo.py``.
"""

import pytest

from p2pgames.bots import bot_for, bot_kinds
from p2pgames.engine import DeterministicRandom, LocalTable
from p2pgames.games.torpedo import GAME
from p2pgames.games.torpedo import build as builds
from p2pgames.games.torpedo.actions import Absorb, Assign, Build
from p2pgames.games.torpedo.bots import DEFAULT, SEARCH, HeuristicBot, SearchBot, _effect_value, _Side, custom_build, evaluate
from p2pgames.games.torpedo.geometry import CONTROL
from p2pgames.games.torpedo.rules import BUILD_OPTIONS, Phase
from p2pgames.games.torpedo.tiles import TILESET

from tests.games.torpedo.torpedo_scenarios import at, crew, fire, hurt, put, table


def play(build, seed, bots, check=True, until=None):
    t = LocalTable(GAME, GAME.ruleset(2, {"build": build}), seed, check=check)
    t.play_with(bots, until=until)
    return t


def decide(bot, state, seat):
    return bot.choose(GAME, state, seat, {}, GAME.step(state))


def test_both_kinds_are_reachable_by_name_and_the_search_bot_is_the_default():
    assert bot_kinds(GAME) == ("search", "heuristic")
    assert type(bot_for(GAME, b"s", "heuristic")) is HeuristicBot
    assert type(bot_for(GAME, b"s", "search")) is SearchBot
    assert type(bot_for(GAME, b"s")) is SearchBot
    with pytest.raises(ValueError, match="no bot called 'minimax'"):
        bot_for(GAME, b"s", "minimax")


@pytest.mark.parametrize("build", BUILD_OPTIONS)
def test_the_heuristic_bot_plays_only_legal_actions_to_the_end_in_every_build_option(build):
    seed = b"legal-" + build.encode()
    t = play(build, seed, [HeuristicBot(seed + bytes([seat])) for seat in range(2)])  # checked table
    assert t.over and t.state.phase == Phase.OVER
    assert t.state.turn >= 3  # both first turns (no triggers) and then a real fight


def test_the_bots_are_reproducible_from_their_seed():
    def log(seed):
        return play("custom", seed, [HeuristicBot(seed + bytes([seat])) for seat in range(2)], check=False).log

    assert log(b"same") == log(b"same")
    # The custom builds come from the seed: different seeds build different submarines somewhere.
    builds_of = {custom_build(DeterministicRandom(bytes([n]) * 32)) for n in range(6)}
    assert len(builds_of) > 1


def test_the_bots_custom_build_is_legal():
    for n in range(4):
        tiles = custom_build(DeterministicRandom(bytes([n]) * 32))
        assert builds.build_problem(tiles) is None
    state = GAME.setup(GAME.ruleset(2, {"build": "custom"}))
    assert state.phase == Phase.BUILD
    for bot in (HeuristicBot(b"b"), SearchBot(b"b")):
        action = decide(bot, state, 0)
        assert type(action) is Build and builds.build_problem(action.tiles) is None


def test_the_bots_custom_build_carries_a_crew_attack():
    """Built on control-room damage alone, bot games were lost by the control room nine times in
    ten (RULES.md, "Balance and bots"): the builder counts a way to take the enemy's crew."""
    for n in range(4):
        tiles = custom_build(DeterministicRandom(bytes([n]) * 32))
        assert any(effect.kind == "crew-attack" for name in tiles for effect in TILESET.tiles[name].effects)


def test_the_bots_custom_builds_come_around_every_control_room():
    """Always the sturdiest control room made every custom game the same long mirror match, won by
    the second player (RULES.md, "Balance and bots"): the builder draws its control room."""
    rooms = set()
    for n in range(16):
        tiles = custom_build(DeterministicRandom(bytes([n]) * 32))
        rooms |= {name for name in tiles if TILESET.tiles[name].is_control}
    assert rooms == set(TILESET.control_rooms)


def test_some_of_the_bots_custom_builds_carry_an_oxygen_attack_and_most_do_not():
    """Without one, three custom games in four ended at a control room; with one in every build,
    oxygen races won by whoever gasses first (RULES.md, "Balance and bots")."""
    carrying = 0
    for n in range(16):
        tiles = custom_build(DeterministicRandom(bytes([n]) * 32))
        carrying += any(effect.kind == "oxygen-attack" for name in tiles for effect in TILESET.tiles[name].effects)
    assert 2 <= carrying <= 8


def test_a_repair_is_worth_what_the_damage_it_mends_would_cost():
    """For the heuristic; at half that it repaired so seldom that the Riveted Hold was in no
    setting's ten busiest tiles (RULES.md, "Balance and bots"). The search bot keeps half."""
    state = table(active=0)
    repair = TILESET.tiles["Riveted Hold"].effects[0]
    panzer, talion = _Side(state, 0, DEFAULT), _Side(state, 1, DEFAULT)
    assert _effect_value(panzer, talion, repair, "fore") == 0.0  # nothing to mend
    hurt(state, 0, "A1", 1)
    panzer = _Side(state, 0, DEFAULT)
    assert _effect_value(panzer, talion, repair, "fore") == 1 * DEFAULT.damage == 1.0
    hurt(state, 0, "A1", 2)
    panzer = _Side(state, 0, DEFAULT)
    assert _effect_value(panzer, talion, repair, "fore") == 2 * DEFAULT.damage
    searching = _Side(state, 0, SEARCH)
    assert _effect_value(searching, talion, repair, "fore") == 1.0  # the search bot's: half a point a gear


def _bow_cannon_on_talions_aft():
    """Panzer (player 0, sector 2) fires its Bow Cannon (attack 3, close, enemy in front) at
    Talion's aft (A1 GasLaunch, B1 BoardTube, A2 ElecTurb, B2 Ballast)."""
    state = table(active=0, sectors=(2, 3))
    put(state, crew(0, 1), "E1")
    return state


def test_the_heuristic_absorbs_into_the_control_room_when_assigning_would_cost_more():
    state = _bow_cannon_on_talions_aft()
    # The aft's one compartment left has 1 structure left and two sailors in it: assigning the 2
    # damage would flood it (both sailors and its oxygen lost) and pass 1 to the control room anyway.
    for where in ("A1", "B1", "A2"):
        hurt(state, 1, where, state.kit[1][at(where)].structure)
    hurt(state, 1, "B2", state.kit[1][at("B2")].structure - 1)
    put(state, crew(1, 1), "B2")
    put(state, crew(1, 2), "B2")
    state = fire(state, 0, "E1", crew(0, 1))
    assert state.phase == Phase.DEFEND and set(GAME.legal_actions(state, 1, {})) == {Absorb(), Assign(at("B2"))}
    assert decide(HeuristicBot(b"d"), state, 1) == Absorb()


def test_the_heuristic_assigns_the_damage_when_absorbing_would_cost_more():
    state = _bow_cannon_on_talions_aft()
    # One more token on the control room would destroy it: the game. The aft is whole and empty.
    hurt(state, 1, CONTROL, state.kit[1][CONTROL].structure - 1)
    state = fire(state, 0, "E1", crew(0, 1))
    assert state.phase == Phase.DEFEND and Absorb() in GAME.legal_actions(state, 1, {})
    choice = decide(HeuristicBot(b"d"), state, 1)
    assert type(choice) is Assign and choice.position in (at("A1"), at("B1"), at("A2"), at("B2"))


def test_the_heuristic_assigns_cheap_damage_where_it_costs_no_oxygen_and_destroys_nothing():
    state = _bow_cannon_on_talions_aft()
    # The control room has two tokens left: absorbing gets close to losing. 3 damage would destroy
    # the aft's Gas Launcher, Boarding Tube or Electric Turbine (3 structure each); the Ballast
    # Tanks (4 structure, 2 oxygen gears, both breathed empty here) take it, losing no oxygen (I10:
    # damage covers the gears without oxygen first, then empty oxygen gears) and nothing else.
    hurt(state, 1, CONTROL, state.kit[1][CONTROL].structure - 2)
    state.oxygen[1][at("B2")] = 0
    state = fire(state, 0, "E1", crew(0, 1))
    assert state.amount == 3 and state.kit[1][at("B2")].short == "Ballast"
    for seed in (b"d", b"e", b"f"):
        assert decide(HeuristicBot(seed), state, 1) == Assign(at("B2"))


def test_the_search_bot_sees_the_crew_member_a_move_crew_trigger_can_put_on_a_weapon():
    """Talion (player 1, sector 4) is in front of Panzer at distant range, where its Harpoon
    Battery (E1: a crew attack, distant, enemy anywhere, hitting the facing location) reaches
    Panzer's fore. Nobody stands at the Harpoon, but a sailor at the Ballast Tanks (B2, move-crew)
    can put any Talion crew member there in Talion's next turn, and that one can then fire it. The
    search bot's evaluation counts that threat to Panzer's sailor in its fore; the heuristic's
    doesn't (a crew member fires where it stands)."""
    state = table(active=0, sectors=(1, 4))
    put(state, crew(0, 1), "D1")  # Panzer's Riveted Hold: its fore
    assert state.kit[1][at("E1")].short == "Harpoon" and state.kit[1][at("B2")].short == "Ballast"
    unmanned = evaluate(state, 0, w=SEARCH)
    assert unmanned == evaluate(state, 0, w=DEFAULT)  # nobody at the Ballast Tanks: nothing more
    put(state, crew(1, 1), "B2")
    threatened = evaluate(state, 0, w=SEARCH)
    assert evaluate(state, 0, w=DEFAULT) == pytest.approx(unmanned, abs=0.5)  # the heuristic: no threat seen
    assert threatened < unmanned - SEARCH.next * SEARCH.sailor * 0.9  # the search bot: a sailor at stake


def test_the_search_bot_at_a_tiny_budget_plays_a_whole_game_legally():
    seed = b"tiny"
    t = play("starter", seed, [SearchBot(seed, width=2, horizon=1), HeuristicBot(seed)])  # checked table
    assert t.over and t.state.phase == Phase.OVER


class CountingSearchBot(SearchBot):
    """A search bot that remembers how many positions its lines scored, decision by decision."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.lines: list[int] = []

    def play(self, policy, state, player, options):
        self.lines.append(0)
        return super().play(policy, state, player, options)

    def future(self, policy, state, player, action, share):
        before = policy.evaluations
        value = super().future(policy, state, player, action, share)
        self.lines[-1] += policy.evaluations - before
        return value


def test_the_search_bots_budget_cuts_its_lines_short():
    """Playing the candidates forward shares what ranking left of the budget; a line is scored
    where it stands once it has used its share (checked between steps, so a step in progress
    finishes). The two bots' first 20 decisions are compared; the ample budget's game stops
    there (its whole game took 4 s)."""
    seed = b"budget"
    small = CountingSearchBot(seed, width=3, budget=150)
    t = play("starter", seed, [small, HeuristicBot(seed)])  # checked table: still only legal moves
    assert t.over
    ample = CountingSearchBot(seed, width=3)
    play("starter", seed, [ample, HeuristicBot(seed)], check=False, until=lambda _: len(ample.lines) == 20)
    cut, ample_lines = small.lines[:20], ample.lines
    assert len(cut) == len(ample_lines) == 20
    assert max(ample_lines) > 600  # the default budget lets lines run to their end
    assert max(cut) < max(ample_lines) / 2
    assert sum(cut) / 20 < sum(ample_lines) / 20 / 2


def captain_owing_states(count: int):
    """The first ``count`` positions, in seeded games of random legal play, where the seat to act
    may not end its turn: its captain made his free move just before his activation, which must
    come next (RULES.md I15)."""
    from p2pgames.bots import RandomBot
    from p2pgames.engine import GameOver, Simultaneous, Turn
    from p2pgames.games.torpedo.rules import CAPTAIN_OWES

    found = []
    for number in range(40):
        t = LocalTable(GAME, GAME.ruleset(2), b"owes-%d" % number)
        bots = [RandomBot(b"owes-%d-%d" % (number, seat)) for seat in range(2)]
        while not isinstance(step := t.settle(), GameOver):
            if isinstance(step, Simultaneous):
                t.act_simultaneous([(seat, bots[seat].choose(GAME, t.state, seat, {}, step)) for seat in step.players])
                continue
            seat = step.actors[0] if isinstance(step, Turn) else step.players[0]
            if t.state.phase == Phase.ACTION and t.state.captain == CAPTAIN_OWES:
                found.append((t.state, seat))
                if len(found) == count:
                    return found
            t.act(seat, bots[seat].choose(GAME, t.state, seat, {}, step))
    raise AssertionError(f"only {len(found)} positions where the captain owes his activation")


def test_the_search_bot_never_ends_a_turn_its_captain_owes_an_activation_in(monkeypatch):
    """Caretaking a taken-over host's seat, the search bot once chose to end the turn right after
    its captain's free move — which the rules forbid there — and the game would have stopped in
    its caretaker's name. It weighs ending the turn only where that is allowed: here, with every
    line scored as if ending the turn were best, it still picks an allowed move."""
    from p2pgames.games.torpedo.actions import EndTurn

    monkeypatch.setattr(SearchBot, "future", lambda self, policy, state, player, action, share:
                        1e9 if type(action) is EndTurn else 0.0)
    for state, seat in captain_owing_states(3):
        options = list(GAME.legal_actions(state, seat, {}))
        assert not any(type(option) is EndTurn for option in options)
        assert decide(SearchBot(b"owes"), state, seat) in options
