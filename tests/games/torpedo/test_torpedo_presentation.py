"""What people see: panels that fit 80 columns, log lines, tile cards, the help, the build
composer and the ``tile NAME`` command (views.py, composer.py)."""

import pytest

from p2pgames.engine import DeterministicRandom, GameOver, IllegalAction, LocalTable, MalformedAction, Simultaneous, Turn
from p2pgames.games.torpedo import GAME
from p2pgames.games.torpedo.actions import Build
from p2pgames.games.torpedo.build import starter_build
from p2pgames.games.torpedo.composer import BuildComposer
from p2pgames.games.torpedo.rules import Phase
from p2pgames.games.torpedo.tiles import TILESET
from p2pgames.games.torpedo.views import card_lines, tile_list

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
                assert all(GAME.narrate(before, table.log[-1], table.state, NAMES))
            yield table.state


def _text(line):
    return "".join(text for _, text in line)


def test_every_panel_line_fits_78_columns_and_the_table_14_rows_for_every_viewer_throughout_a_game():
    kinds = set()
    for state in _games():
        for viewer in (None, 0, 1):
            panels = GAME.panels(state, viewer, {}, NAMES)
            kinds.add(tuple(panel.title.split(" ")[0] for panel in panels))
            for panel in panels:
                assert len(panel.title) <= 76, panel.title
                for line in panel.lines:
                    assert len(_text(line)) <= 78, _text(line)
            # With one header row each, the table and the turn take at most 14 rows: what an
            # 80×24 screen has left beside the choices and the log.
            assert sum(1 + len(panel.lines) for panel in panels) <= 14
    assert ("build",) in kinds and ("ludovic", "turn") in kinds and ("bruno", "turn") in kinds
    assert ("ludovic", "game") in kinds or ("bruno", "game") in kinds


def test_the_grid_shows_tiles_structure_oxygen_and_crew_with_exhausted_crew_in_brackets():
    from tests.games.torpedo.torpedo_scenarios import crew, hurt, put, table

    state = table(active=0)
    put(state, crew(0, 1), "B1", ready=False)
    put(state, crew(1, 2), "B1", sub=0)  # a boarder
    hurt(state, 0, "E1", 4)
    board, turn = GAME.panels(state, 0, {}, NAMES)
    rows = [_text(line) for line in board.lines]
    assert board.title.startswith("ludovic · sectors 1–5")
    assert rows[0].startswith("2 ElecTurb  3/3 │")  # the enemy's outer row is farthest from you
    assert " ".join(rows[4].split()) == "ludovic ► oxygen 16 · crew 5 · speed 1"  # up: your port side
    assert " ".join(rows[5].split()) == "you ► oxygen 15 · crew 5 · speed 1"
    mine = rows[6:]
    assert mine[0].startswith("1 Mortar    3/3 │Bulkhead  5/5 │")
    assert "A o1 (1)!2" in mine[1]
    assert "BowCannon sunk" in mine[0] and "flooded" in mine[1]
    assert "C o2 C234" in mine[3]
    assert turn.title == "turn 3: your turn, action phase"
    assert _text(turn.lines[0]) == "ludovic is on your port side, at close range"
    assert _text(turn.lines[1]) == "maneuver left · captain's move left"
    put(state, crew(1, 1), "E2", ready=False)  # the Gatling Gun manned
    assert _text(GAME.panels(state, 0, {}, NAMES)[1].lines[1]).endswith("ludovic may react with Gatling")


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
        "  Counter: attack 1 at close range, enemy anywhere; hits the location facing you.",
    ]
    assert card_lines(TILESET.tiles["Stern Mortar"])[1] == (
        "  Duty (single-use): attack 2 at distant range, enemy behind; hits its fore."
    )


def test_the_help_fits_80_columns_and_names_every_verb():
    help_text = GAME.help_text()
    assert all(len(line) <= 80 for line in help_text.splitlines())
    for verb in ("maneuver", "move", "captain to", "trigger", "step", "target", "relocate", "drive",
                 "absorb", "assign", "react", "pass", "breathe", "end", "tile"):
        assert verb in help_text


def test_tile_name_explains_a_tile_and_other_text_is_not_an_information_command():
    state = GAME.setup(GAME.ruleset(2))
    assert GAME.explain(state, 0, "tile gatling", NAMES) == card_lines(TILESET.tiles["Gatling Gun"])
    assert GAME.explain(state, None, "TILE  Gatling Gun", NAMES) == card_lines(TILESET.tiles["Gatling Gun"])
    assert GAME.explain(state, 0, "tile kraken", NAMES)[0].startswith("No tile is called 'kraken'")
    assert GAME.explain(state, 0, "tile", NAMES)[0].startswith("Type tile and a tile's name")
    assert GAME.explain(state, 0, "trigger Gatling", NAMES) is None
    assert GAME.info_commands == (("tile NAME", "a compartment tile's full text"),)


def test_the_build_composer_adds_removes_and_finishes_a_legal_build():
    state = GAME.setup(GAME.ruleset(2))
    composer = GAME.composer(state, 1, {})
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
        assert all(len(_text(line)) <= 78 for line in panel.lines)
    assert GAME.composer(GAME.setup(GAME.ruleset(2, {"build": "starter"})), 0, {}) is None


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
