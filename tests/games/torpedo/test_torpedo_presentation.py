"""What people see: panels that fit 80 columns, log lines, tile cards, the help, the build
composer and the ``tile NAME`` command (views.py, composer.py)."""

import pytest

from p2pgames.engine import DeterministicRandom, GameOver, IllegalAction, LocalTable, MalformedAction, Simultaneous, Turn
from p2pgames.games.torpedo import GAME
from p2pgames.games.torpedo.actions import Build
from p2pgames.games.torpedo.build import starter_build
from p2pgames.games.torpedo.composer import BuildComposer
from p2pgames.games.torpedo.effects import reactions
from p2pgames.games.torpedo.presentation import PRESENTATION
from p2pgames.games.torpedo.rules import Phase
from p2pgames.games.torpedo.tiles import TILESET
from p2pgames.games.torpedo.views import GUTTER, POOL_WIDTH, WIDTH, card_lines, tile_list

NAMES = ("bruno", "ludovic")


def _games():
    for build in ("custom", "draft"):
        table = LocalTable(GAME, GAME.ruleset(2, {"build": build}), b"screen" + build.encode())
        chooser = DeterministicRandom(b"screen")
        yield table.state
        while not isinstance(GAME.step(table.state), GameOver):
            step = GAME.step(table.state)
            if isinstance(step, Simultaneous):
                table.act_simultaneous([(p, GAME.legal_actions(table.state, p, {})[0]) for p in step.players])
            else:
                actors = step.actors if isinstance(step, Turn) else step.players
                options = GAME.legal_actions(table.state, actors[0], {})
                before = table.state
                table.act(actors[0], options[chooser.below(len(options))])
                assert all(PRESENTATION.narrate(before, table.log[-1], table.state, NAMES))
            yield table.state


def _text(line):
    return "".join(text for _, text in line)


def test_every_panel_fits_beside_an_80_column_gutter_and_the_table_14_rows_for_every_viewer_throughout_a_game():
    kinds = set()
    for state in _games():
        for viewer in (None, 0, 1):
            panels = PRESENTATION.panels(state, viewer, {}, NAMES)
            kinds.add(tuple(panel.title.split(" ")[0] for panel in panels))
            if state.phase in (Phase.BUILD, Phase.DEAL, Phase.DRAFT_ORDER, Phase.DRAFT):
                # One panel the screen's width, under its heading.
                (panel,) = panels
                assert len(panel.title) <= 76, panel.title
                assert all(len(_text(line)) <= POOL_WIDTH for line in panel.lines)
                assert 1 + len(panel.lines) <= 14, len(panel.lines)
                continue
            # Titled in a gutter of 5 with " │ ": no row spent on headings, lines of 72.
            for panel in panels:
                assert len(panel.title) <= GUTTER, panel.title
                for line in panel.lines:
                    assert len(_text(line)) <= WIDTH, _text(line)
            assert sum(len(panel.lines) for panel in panels) <= 14
    assert ("pool",) in kinds and ("enemy", "sea", "you", "turn") in kinds and ("enemy", "you", "key") in kinds
    assert ("ludov", "sea", "bruno", "turn") in kinds


def test_the_grid_shows_tiles_structure_oxygen_and_crew_with_exhausted_crew_in_brackets():
    from tests.games.torpedo.torpedo_scenarios import crew, hurt, put, table

    state = table(active=0)
    put(state, crew(0, 1), "B1", ready=False)
    put(state, crew(1, 2), "B1", sub=0)  # a boarder
    hurt(state, 0, "E1", 4)
    enemy, sea, mine, turn = PRESENTATION.panels(state, 0, {}, NAMES)
    assert [enemy.title, sea.title, mine.title, turn.title] == ["enemy", "sea", "you", "turn"]
    rows = [_text(line) for line in enemy.lines]
    assert rows[0].startswith("2 ElecTurb  3/3│")  # the enemy's outer row is farthest from you
    sea_rows = [_text(line) for line in sea.lines]
    assert sea_rows[0].split() == [word for column in "ABCDE" for word in (column, "·", "sector", str("ABCDE".index(column) + 1))]
    assert " ".join(sea_rows[1].split()) == "sector 3 ludovic ► oxygen 13 · crew 5 · speed 1"
    assert " ".join(sea_rows[2].split()) == "sector 3 you ► oxygen 13 · crew 5 · speed 1"  # around it: no room
    assert sea_rows[1].index("ludovic") >= 2 + 2 * 14  # in sector 3's column (C)
    mine = [_text(line) for line in mine.lines]
    bulkhead = TILESET.tiles["Armoured Bulkhead"].structure
    assert mine[0].startswith(f"1 Mortar    3/3│Bulkhead  {bulkhead}/{bulkhead}│")
    assert "A o1 (1)!2" in mine[1]
    assert "BowCannon 0/4" in mine[0] and "destroyed" in mine[1]
    assert "C o2 C234" in mine[3]
    turn_rows = [_text(line) for line in turn.lines]
    assert turn_rows[0] == "turn 3: your turn, action phase · left: maneuver, captain's move"
    assert turn_rows[1] == "ludovic is on your port side, at close range"
    put(state, crew(1, 1), "E2", ready=False)  # the Gatling Gun manned
    assert _text(PRESENTATION.panels(state, 0, {}, NAMES)[3].lines[-1]).endswith("ludovic may react with Gatling")


def test_the_turn_panel_says_what_may_react_exactly_as_a_counter_window_offers_it():
    """The field report's "you may react with Barracks, Gatling" while only Gatling was offered:
    a manned counter without a target now is named apart, as such."""
    from p2pgames.games.torpedo.actions import Maneuver, Pass, React
    from tests.games.torpedo.torpedo_scenarios import act, at, crew, put, table

    state = table(active=0)
    put(state, crew(1, 1), "E2", ready=False)  # the Gatling Gun: attacks anywhere at close range
    put(state, crew(1, 2), "C1", ready=False)  # the Marine Barracks: repels boarders, and none is aboard
    assert reactions(state) == [(at("E2"), 0)]

    def turn_text(state, viewer):  # the turn panel's lines, as the flow would join them on one
        return " · ".join(_text(line) for line in PRESENTATION.panels(state, viewer, {}, NAMES)[3].lines)

    assert turn_text(state, 0).endswith("ludovic may react with Gatling · Barracks: no target now")
    window = act(state, 0, Maneuver(1, 0, None))
    assert window.phase == Phase.COUNTER
    assert GAME.legal_actions(window, 1, {}) == [React(at("E2"), 0), Pass()]
    assert turn_text(window, 1).endswith("you may react with Gatling · Barracks: no target now")
    # A boarder aboard gives the Barracks a target: then both may react.
    put(state, crew(0, 3), "A1", sub=1)
    assert turn_text(state, 0).endswith("ludovic may react with Barracks, Gatling")


def test_the_sea_lists_the_enemy_then_you_each_with_its_sector_and_a_spectator_by_the_sides():
    from tests.games.torpedo.torpedo_scenarios import table

    def sea(state, viewer, names=NAMES):
        return [" ".join(_text(line).split()) for line in PRESENTATION.panels(state, viewer, {}, names)[1].lines[1:]]

    # In one sector with Bruno up (on Ludovic's port side): each player still sees the enemy first.
    state = table(active=0, sectors=(3, 3), upper=0)
    bruno, ludovic = (f"oxygen {state.total_oxygen(seat)} · crew 5 · speed 1" for seat in (0, 1))
    assert sea(state, 0) == [f"sector 3 ludovic ► {ludovic}", f"sector 3 you ► {bruno}"]
    assert sea(state, 1) == [f"sector 3 bruno ► {bruno}", f"sector 3 you ► {ludovic}"]
    assert sea(state, None) == [f"sector 3 bruno ► {bruno}", f"sector 3 ludovic ► {ludovic}"]  # the upper first
    state.sectors = [1, 5]
    assert sea(state, 0) == [f"sector 5 · {ludovic} ludovic ►", f"you ► sector 1 · {bruno}"]
    # Each marker in its sector's column, its sector beside it, in every sector and with long names.
    for mine in range(1, 6):
        for theirs in range(1, 6):
            state = table(active=0, sectors=(mine, theirs))
            for viewer in (0, 1, None):
                rows = PRESENTATION.panels(state, viewer, {}, ("b" * 16, "l" * 16))[1].lines[1:]
                for line in rows:
                    text = _text(line)
                    sector = int(text.split("sector ")[1][0])
                    column = 2 + (sector - 1) * 14  # the sector's column of the grids
                    assert len(text) <= WIDTH and "speed" in text and column <= text.index("►") < column + 13


def test_a_maneuver_says_whose_submarine_went_to_which_sector_as_the_chains_move_does():
    from p2pgames.games.torpedo.actions import Drive, Maneuver
    from tests.games.torpedo.torpedo_scenarios import act, crew, fire, lines, put, table

    def said(state, action):
        return lines(state, action, act(state, 0, action), 0)

    state = table(active=0, sectors=(3, 1))
    put(state, crew(0, 1), "A2")  # a second engine manned: speed 2
    # The field report's "bot-1 maneuvered root's +1; now in sectors 1 and 2.":
    assert said(state, Maneuver(0, 1, None)) == ["bruno maneuvered ludovic's submarine +1 to sector 2; bruno's stays in sector 3."]
    assert said(state, Maneuver(-1, 0, None)) == ["bruno maneuvered their own submarine -1 to sector 2; ludovic's stays in sector 1."]
    state.sectors = [2, 4]
    assert said(state, Maneuver(1, -1, 1)) == [
        "bruno maneuvered their own submarine +1 to sector 3 and ludovic's -1 to sector 3; ludovic is on bruno's port side."
    ]
    state.sectors, state.upper = [3, 3], 1
    assert said(state, Maneuver(0, 0, 0)) == ["bruno maneuvered round ludovic's submarine in sector 3; bruno is on ludovic's port side."]
    # The Anti-propeller Chain's move-sub effect reads the same way.
    chain = table(active=1, sectors=(3, 4))
    put(chain, crew(1, 1), "D2")
    chain = fire(chain, 1, "D2", crew(1, 1))
    assert chain.phase == Phase.AIM
    after = act(chain, 1, Drive(0, -1, None))
    assert lines(chain, Drive(0, -1, None), after, 1) == ["ludovic moved bruno's submarine -1 to sector 2; ludovic's stays in sector 4."]


def test_a_location_with_nothing_left_warns_at_every_decision_how_many_hits_the_control_room_takes():
    """The field report: with the aft destroyed every hit there landed on the control room, and
    three shots took it from 3 tokens short of destroyed to destroyed in one enemy turn, without a word."""
    from p2pgames.games.torpedo.actions import Breathe, EndTurn
    from tests.games.torpedo.torpedo_scenarios import CONTROL, act, crew, destroy, fire, hurt, put, table

    state = table(active=0)
    assert PRESENTATION.warnings(state, 0, {}, NAMES) == []
    for where in ("A1", "B1", "A2", "B2"):
        destroy(state, 0, where)
    structure = state.kit[0][CONTROL].structure
    hurt(state, 0, "C2", structure - 3)  # the control room 3 tokens from destroyed
    warned = ["Aft destroyed: hits there land on your control room; 3 more sink you."]
    assert PRESENTATION.warnings(state, 0, {}, NAMES) == warned  # bruno's action phase
    assert PRESENTATION.warnings(state, 1, {}, NAMES) == []  # ludovic's submarine is whole
    state = act(state, 0, EndTurn())
    state = act(state, 1, Breathe(state.oxygen[1].index(max(state.oxygen[1]))))
    assert state.phase == Phase.ACTION and state.active == 1
    # Every hit on the aft lands there: ludovic's Gatling Gun (close range, the location facing
    # it) from in front of bruno hits its fore; from behind, its aft.
    state.sectors = [3, 2]
    put(state, crew(1, 1), "E2")
    hit = fire(state, 1, "E2", crew(1, 1))
    assert hit.damage[0][CONTROL] == structure - 2
    assert PRESENTATION.warnings(hit, 0, {}, NAMES) == ["Aft destroyed: hits there land on your control room; 2 more sink you."]
    hurt(hit, 0, "C2", structure - 1)
    assert PRESENTATION.warnings(hit, 0, {}, NAMES) == ["Aft destroyed: hits there land on your control room; 1 more sinks you."]
    for where in ("D2", "E2"):  # the outer row (bruno's starboard) then holds only the control room
        destroy(hit, 0, where)
    assert PRESENTATION.warnings(hit, 0, {}, NAMES) == [
        "Aft and starboard destroyed: hits there land on your control room; 1 more sinks you."
    ]


def test_defending_against_more_than_the_location_holds_warns_that_the_rest_lands_on_the_control_room():
    from tests.games.torpedo.test_torpedo_attacks import example_of_play

    state = example_of_play()  # 2 damage at bruno's fore, whose Riveted Hold has 1 structure left
    assert PRESENTATION.warnings(state, 0, {}, NAMES) == [
        "Your fore holds 1 of the 2: the rest lands on your control room anyway."
    ]
    state.amount = 1
    assert PRESENTATION.warnings(state, 0, {}, NAMES) == []


def test_a_crowded_compartment_counts_its_crew_instead_of_cutting_them():
    from tests.games.torpedo.torpedo_scenarios import crew, put, table

    state = table(active=0)
    put(state, crew(0, 1), "C2", ready=False)
    put(state, crew(0, 2), "C2", ready=False)
    put(state, crew(1, 2), "C2", sub=0)
    mine = [_text(line) for line in PRESENTATION.panels(state, 0, {}, NAMES)[2].lines]
    assert "C o2 5 crew!1" in mine[3]


def test_before_the_first_turn_a_key_explains_the_grid_and_oxygen_shows_the_gears():
    table = LocalTable(GAME, GAME.ruleset(2, {"build": "random"}), b"key")  # dealt and placed
    assert table.state.phase == Phase.SWAP
    enemy, mine, key = PRESENTATION.panels(table.state, 0, {}, NAMES)
    assert key.title == "key" and "C control room" in _text(key.lines[1])
    assert all(len(_text(line)) <= WIDTH for line in key.lines)
    gears = [tile.oxygen for tile in table.state.kit[0]]
    assert f"o{gears[0]}" in _text(mine.lines[1]).split("│")[0]


def test_every_tile_has_card_text_and_the_rules_page_lists_them_all():
    from importlib import resources

    rules = resources.files("p2pgames.games.torpedo").joinpath("RULES.md").read_text()
    for tile in TILESET.tiles.values():
        lines = card_lines(tile)
        assert lines[0].startswith(f"{tile.name} ({tile.short}): ")
        assert len(lines) >= 2
    # RULES.md carries the tile list exactly as the views render it from the data.
    assert "\n".join(tile_list()).strip() in rules


def test_card_text_reads_the_data():
    assert card_lines(TILESET.tiles["Gatling Gun"])[:2] == [
        "Gatling Gun (Gatling): Talion, experimental; 2 structure, no oxygen.",
        "  Counter (single-use): attack 3 at close range, enemy anywhere; hits the location facing you.",
    ]
    assert card_lines(TILESET.tiles["Stern Mortar"])[1] == "  Duty: attack 3 at distant range, enemy behind; hits its fore."
    assert card_lines(TILESET.tiles["Signal Room"])[1:3] == [
        "  Counter: move one of your crew members to any compartment.",
        "  Standby: +1 to your attack totals.",
    ]


def test_the_help_fits_80_columns_and_names_every_verb():
    help_text = PRESENTATION.help_text()
    assert all(len(line) <= 80 for line in help_text.splitlines())
    for verb in ("maneuver", "move", "captain to", "trigger", "step", "target", "relocate", "drive",
                 "absorb", "assign", "react", "pass", "breathe", "end", "tile"):
        assert verb in help_text
    # The build's commands too, the starters recommended for a first game.
    for command in ("starter panzer", "starter talion", "custom", "add Gatling", "remove Gatling", "clear | done",
                    "swap Gatling Chain", "keep", "pick Gatling"):
        assert command in help_text, command
    assert "a starter\nsubmarine, which the rulebook recommends for a first game" in help_text


def test_tile_name_explains_a_tile_and_other_text_is_not_an_information_command():
    state = GAME.setup(GAME.ruleset(2))
    # The card without its indent, flavour and the type's reminder: it reads whole in the log.
    assert PRESENTATION.explain(state, 0, "tile gatling", NAMES) == [
        "Gatling Gun (Gatling): Talion, experimental; 2 structure, no oxygen.",
        "Counter (single-use): attack 3 at close range, enemy anywhere; hits the location facing you.",
    ]
    assert PRESENTATION.explain(state, None, "TILE  Gatling Gun", NAMES) == PRESENTATION.explain(state, 0, "tile gatling", NAMES)
    bridge = TILESET.tiles["Talion Control Room"]
    assert PRESENTATION.explain(state, 0, "tile TaBridge", NAMES)[0] == (
        f"Talion Control Room (TaBridge): Talion, control room (can't be targeted); {bridge.structure} structure, "
        f"{bridge.oxygen} oxygen."
    )
    assert PRESENTATION.explain(state, 0, "tile kraken", NAMES)[0].startswith("No tile is called 'kraken'")
    assert PRESENTATION.explain(state, 0, "tile", NAMES)[0].startswith("Type tile and a tile's name")
    assert PRESENTATION.explain(state, 0, "trigger Gatling", NAMES) is None
    assert PRESENTATION.info_commands == (("tile NAME", "a compartment tile's full text"),)


def test_the_build_offers_the_starters_first_for_a_first_game_with_custom_one_command_away():
    """The field report: the default build opened on a 35-tile pool, while the rulebook says "For
    your first game, you should choose a faction … This gives you a fair fight"."""
    composer = PRESENTATION.composer(GAME.setup(GAME.ruleset(2)), 0, {})
    assert composer.commands() == ("starter panzer", "starter talion", "custom")
    (panel,) = composer.panels()
    text = [_text(line) for line in panel.lines]
    assert all(len(line) <= POOL_WIDTH for line in text) and 1 + len(text) <= 14
    assert text[0].startswith("A first game? Take a starter submarine, as the rulebook recommends")
    assert any(line.startswith("  starter panzer  Panzer la Rochelle: ") for line in text)
    assert any(line.startswith("  starter talion  Talion: ") for line in text)
    assert any(line.startswith("  custom          build your own: 10 of the ") for line in text)
    # A starter, then done: two commands to a legal build.
    assert composer.apply("starter panzer").apply("done").action() == Build(starter_build("panzer"))
    # The pool is one command away: custom, or adding a tile at once.
    pool = composer.apply("custom")
    assert "add Gatling" in pool.commands() and pool.panels()[0].title.startswith("pool")
    assert composer.apply("add Gatling").chosen == ("Gatling Gun",)
    assert "add Gatling" in composer.apply("add Gatling").apply("clear").commands()


def test_the_build_composer_adds_removes_and_finishes_a_legal_build():
    state = GAME.setup(GAME.ruleset(2))
    composer = PRESENTATION.composer(state, 1, {}).apply("custom")
    assert isinstance(composer, BuildComposer) and composer.action() is None
    assert "add Gatling" in composer.commands() and "done" not in composer.commands()
    composer = composer.apply("starter talion")
    assert "done" in composer.commands() and not any(c.startswith("add") for c in composer.commands())
    with pytest.raises(IllegalAction, match="10 compartments already"):
        composer.apply("add Hull")
    composer = composer.apply("remove Gatling").apply("add reinforced hull")
    with pytest.raises(IllegalAction, match="control room already"):
        composer.apply("remove Chain").apply("add ProtoBrdg")
    with pytest.raises(MalformedAction, match="not a tile"):
        composer.apply("add kraken")
    with pytest.raises(MalformedAction, match="not a build command"):
        composer.apply("launch")
    done = composer.apply("done")
    action = done.action()
    assert action == Build(tuple(sorted((*[n for n in starter_build("talion") if n != "Gatling Gun"], "Reinforced Hull"))))
    assert GAME.allows(state, 1, action, {})
    assert done.commands() == ()
    empty = BuildComposer(0)
    with pytest.raises(IllegalAction, match="10 compartments, not 0"):
        empty.apply("done")
    for panel in composer.panels():
        assert all(len(_text(line)) <= POOL_WIDTH for line in panel.lines)
    assert PRESENTATION.composer(GAME.setup(GAME.ruleset(2, {"build": "starter"})), 0, {}) is None


def test_the_phase_places_are_named_in_the_state():
    assert GAME.setup(GAME.ruleset(2, {"build": "random"})).phase == Phase.DEAL


def test_every_test_rules_md_cites_exists():
    import re
    from importlib import resources
    from pathlib import Path

    rules = resources.files("p2pgames.games.torpedo").joinpath("RULES.md").read_text()
    cited = set(re.findall(r"`(test_torpedo_\w+\.py)::(test_\w+)`", rules))
    assert len(cited) > 100
    here = Path(__file__).parent
    for module, test in sorted(cited):
        assert re.search(rf"^def {test}\(", (here / module).read_text(), re.M), f"{module}::{test}"


def test_every_interpretation_rules_md_refers_to_is_written_down():
    import re
    from importlib import resources

    rules = resources.files("p2pgames.games.torpedo").joinpath("RULES.md").read_text()
    body, _, interpretations = rules.partition("## Interpretations")
    defined = set(re.findall(r"^\*\*(I\d+) —", interpretations, re.M))
    referred = {f"I{n}" for group in re.findall(r"\(I(\d+(?:, I\d+)*)\)", body) for n in re.findall(r"\d+", group)}
    assert referred <= defined
    assert defined == {f"I{n}" for n in range(1, len(defined) + 1)}


def test_a_counter_window_offers_no_reactions_this_turn_as_a_standing_answer():
    from p2pgames.engine import StandingAnswer
    from p2pgames.games.torpedo.actions import Pass
    from p2pgames.games.torpedo.presentation import NO_REACTIONS

    windows = 0
    for state in _games():
        for player in (0, 1):
            standing = PRESENTATION.standing_answer(state, player, {})
            if state.phase != Phase.COUNTER or player == state.active:
                assert standing is None
                continue
            # A window opens only when a reaction is legal (I6): never one with nothing but pass.
            assert len(GAME.legal_actions(state, player, {})) >= 2
            assert standing == StandingAnswer(NO_REACTIONS, Pass(), ("no reactions", state.turn))
            windows += 1
    assert windows


def test_a_long_action_phase_list_is_one_line_per_verb_with_parts_per_crew_member():
    from tests.games.torpedo.torpedo_scenarios import table

    state = table(active=0)
    actions = GAME.legal_actions(state, 0, {})
    texts = [PRESENTATION.describe_action(state, 0, action, {}, NAMES) for action in actions]
    groups = PRESENTATION.group_choices(state, 0, actions, texts)
    assert [group.label for group in groups] == ["trigger …", "maneuver …", "move …", "captain to …", "end"]
    assert sorted(index for group in groups for index in group.members) == list(range(len(actions)))
    move = groups[2]
    assert [part.label for part in move.parts] == ["move captain …"] + [f"move sailor {k} …" for k in range(1, 5)]
    assert all(texts[index].startswith("move sailor 1 ") for index in move.parts[1].members)
    # A short list stays as it is; one verb groups by its parts when that is shorter.
    few = texts[-3:]
    assert [group.label for group in PRESENTATION.group_choices(state, 0, actions[-3:], few)] == few
    swaps = [f"swap {a} {b}" for a in ("Chain", "Sights", "Hull") for b in ("Hold", "Turret", "Sonar")]
    assert [group.label for group in PRESENTATION.group_choices(state, 0, swaps, swaps)] == ["swap Chain …", "swap Sights …", "swap Hull …"]
