"""Variants on the command line: ``--variant NAME`` (host, play, selfplay) and ``play --solo``.

A game declares its variants (``CLI_VARIANTS`` in its views module, or a ``cli_variants``
attribute); the command line maps the name onto ruleset options. These tests check the mapping —
the options and player count handed to ``Game.ruleset``, and the one-line refusals — not the
variants' play, which their games' own tests cover.
"""

from __future__ import annotations

import io
import sys

import pytest

from cli_calls import call
from p2pgames import cli
from p2pgames.engine import RulesetError
from p2pgames.games import get_game
from p2pgames.games.steamcourt.rules import SteamCourt






@pytest.fixture
def asked(monkeypatch) -> list[tuple[int, dict]]:
    """Every (players, options) the command line asks Steam Court for; this stand-in ruleset then
    refuses every table, so no command gets further than asking."""
    calls: list[tuple[int, dict]] = []

    def ruleset(self, players, options=None):
        calls.append((players, dict(options or {})))
        raise RulesetError(f"the {dict(options or {}).get('variant', 'court')} variant is not built yet")

    monkeypatch.setattr(SteamCourt, "ruleset", ruleset)
    return calls


@pytest.mark.parametrize(
    "args, players, options",
    [
        (["selfplay", "steamcourt", "--variant", "party"], 8, {"variant": "party"}),
        (["host", "steamcourt", "--variant", "party", "--players", "10", "--bots", "4"], 10, {"variant": "party"}),
        (["play", "steamcourt", "--variant", "duo"], 2, {"variant": "duo"}),
        (
            ["play", "steamcourt", "--variant", "duo", "--option", "duo_win=queen"],
            2, {"variant": "duo", "duo_win": "queen"},
        ),
        (["host", "steamcourt", "--variant", "duo", "--players", "2"], 2, {"variant": "duo"}),
        (["selfplay", "steamcourt", "--variant", "clock", "--players", "5"], 5, {"scoring": "clock"}),
        (["play", "steamcourt", "--variant", "clock"], 4, {"scoring": "clock"}),
        (["play", "steamcourt", "--solo"], 1, {"variant": "solo"}),
        (["play", "steamcourt", "--solo", "--players", "1"], 1, {"variant": "solo"}),
        (["play", "steamcourt", "--variant", "solo"], 1, {"variant": "solo"}),
        (["play", "steamcourt", "--players", "5"], 5, {}),  # no variant: the game chooses
    ],
)
def test_a_variant_maps_onto_ruleset_options(asked, args, players, options):
    code, out, err = call(*args)
    assert asked == [(players, options)]
    assert code == cli.EXIT_USAGE
    variant = options.get("variant", "court")
    assert (err, out) == (f"p2pgames: Steam Court: the {variant} variant is not built yet\n", "")


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["selfplay", "beltpunk", "--variant", "clock"],
            "Beltpunk Haberdasher has no variants (--variant clock); it is played one way (see p2pgames rules beltpunk)",
        ),
        (
            ["play", "beltpunk", "--solo"],
            "Beltpunk Haberdasher has no variants (--solo); it is played one way (see p2pgames rules beltpunk)",
        ),
        (
            ["host", "beltpunk", "--variant", "party"],
            "Beltpunk Haberdasher has no variants (--variant party); it is played one way (see p2pgames rules beltpunk)",
        ),
        (
            ["selfplay", "steamcourt", "--variant", "royal"],
            "Steam Court has no variant 'royal'; choose one of: party, duo, clock, solo",
        ),
        # A variant named as an option's value is that option (the auction, the starters).
        (
            ["host", "steamcourt2015", "--variant", "auction"],
            "Steam Court (2015 draft) has no variant 'auction'; choose one of: party"
            " (did you mean --option characters=auction?)",
        ),
        (
            ["play", "torpedo", "--variant", "Starter"],
            "Steam Torpedo has no variants (--variant Starter); it is played one way (see p2pgames rules torpedo)"
            " (did you mean --option build=starter?)",
        ),
        (
            ["selfplay", "steamcourt", "--variant", "clock", "--option", "scoring=gears"],
            "--variant clock sets scoring=clock, but --option scoring=gears says otherwise",
        ),
        # --solo is --variant solo, so a wrong player count is the Solo ruleset's own refusal:
        # the same line as for ["play", "steamcourt", "--variant", "solo", "--players", "3"].
        (["play", "steamcourt", "--solo", "--players", "3"], "Steam Court: the Solo variant is for exactly 1 player"),
        (["play", "steamcourt", "--variant", "solo", "--players", "3"], "Steam Court: the Solo variant is for exactly 1 player"),
        (["play", "steamcourt", "--solo", "--variant", "duo"], "--solo and --variant duo don't go together; choose one"),
        (
            ["selfplay", "steamcourt", "--variant", "clock", "--players", "7"],
            "Steam Court: Clock Climbing is for 2–6 players at one table",
        ),
    ],
)
def test_a_wrong_variant_is_one_line_on_stderr(args, message):
    code, out, err = call(*args)
    assert code == cli.EXIT_USAGE and not out
    assert err == f"p2pgames: {message}\n"


def test_selfplay_plays_the_clock_variant():
    code, out, err = call("selfplay", "steamcourt", "--variant", "clock", "--players", "2", "--seed", "v")
    assert code == 0, out + err
    assert "farthest on the clock" in out and "every state hash agreed" in out


def test_variants_are_declared_by_the_game():
    assert list(cli.variants_of(get_game("steamcourt"))) == ["party", "duo", "clock", "solo"]
    assert cli.variants_of(get_game("beltpunk")) == {}
    assert cli.variants_of(get_game("probe")) == {}

    class Declared:
        name = "beltpunk"
        cli_variants = {"long": {"options": {"target": 35}, "about": "to 35 points"}}

    assert cli.variants_of(Declared()) == Declared.cli_variants  # an attribute wins


def test_help_rules_and_menu_name_the_variants(monkeypatch):
    code, out, _ = call("play", "--help")
    assert code == 0 and "--variant NAME" in out and "--solo" in out
    assert "party, duo, clock, solo" in " ".join(out.split())
    code, out, err = call("rules", "steamcourt")
    assert code == 0 and not err
    assert "## Variants on the command line" in out
    assert "- `clock`: Clock Climbing scoring, 2–6 players (scoring=clock)" in out
    assert "- `solo`: one player against the Court Hand (variant=solo)" in out
    assert "Variants on the command line" not in call("rules", "beltpunk")[1]
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    code, out, _ = call("play")
    assert code == 0
    assert "  2. Steam Court  (1–12 players)   [steamcourt]" in out.splitlines()
    assert "variants: party, duo, clock, solo (p2pgames play steamcourt --variant NAME)" in out


def test_the_2015_steam_court_declares_the_party_variation_and_plays_it():
    assert cli.variants_of(get_game("steamcourt2015")) == {
        "party": {"options": {"variation": "party"}, "about": "character tokens instead of gear tokens"},
    }
    code, out, err = call("rules", "steamcourt2015")
    assert code == 0 and not err
    assert "- `party`: character tokens instead of gear tokens (variation=party)" in out
    code, out, err = call("selfplay", "steamcourt2015", "--variant", "party", "--players", "4", "--seed", "v")
    assert code == 0, out + err
    assert "Engineer to Her Royal Majesty the Queen" in out and "every state hash agreed" in out
