"""The generic engine conformance check, played through whole games of Steam Torpedo with every
build option.

Uniformly random play ends every game (measured: about 31 turns and 240 events a game with the
starters, always by oxygen: each recovery costs a token), so the game keeps the default
``playout_choice``. The first seed of each build option is exhaustive: every action offered at
every step is applied to a copy and checked.
"""

import pytest

from p2pgames.engine.conformance import play_random_game
from p2pgames.games.torpedo import GAME
from p2pgames.games.torpedo.presentation import PRESENTATION
from p2pgames.games.torpedo.rules import BUILD_OPTIONS
from p2pgames.games.torpedo.tiles import TILESET, load_tiles

SEEDS = (b"a", b"b", b"c", b"d")


@pytest.mark.parametrize("build", BUILD_OPTIONS)
def test_random_games_conform(build):
    ruleset = GAME.ruleset(2, {"build": build})
    for number, seed in enumerate(SEEDS):
        report = play_random_game(PRESENTATION, ruleset, seed + build.encode(), exhaustive=number == 0)
        result = report.result
        assert result is not None
        assert len(result.winners) in (1, 2)
        if len(result.winners) == 1:
            assert result.scores[result.winners[0]] == 1 and sum(result.scores) == 1


def test_the_build_option_defaults_to_custom_and_refuses_unknown_values():
    from p2pgames.engine import RulesetError

    assert dict(GAME.ruleset(2).options) == {"build": "custom", "tiles": TILESET.edition}
    with pytest.raises(RulesetError):
        GAME.ruleset(2, {"build": "lego"})
    with pytest.raises(RulesetError):
        GAME.ruleset(3)


def test_a_table_or_transcript_of_another_tile_set_is_refused_saying_so():
    """The ruleset names the tile set (its edition): peers with other tiles would play another
    game, so a joiner or ``verify`` refuses it with the reason (I28)."""
    from p2pgames.engine import RulesetError

    ours = GAME.ruleset(2, {"build": "starter"}).encode()
    assert GAME.decode_ruleset(ours) == GAME.ruleset(2, {"build": "starter"})
    other = dict(ours, options=dict(ours["options"], tiles="0123456789ab"))
    with pytest.raises(RulesetError, match="tile set '0123456789ab' and this program has .*same p2pgames version"):
        GAME.decode_ruleset(other)
    # Transcripts from before the edition was recorded play this program's tiles.
    older = dict(ours, options={"build": "starter"})
    assert GAME.decode_ruleset(older) == GAME.ruleset(2, {"build": "starter"})
    # People see the build, not the digest.
    assert GAME.describe_ruleset(GAME.ruleset(2)) == "torpedo, 2 players (build=custom)"


def test_the_tile_sets_edition_changes_with_any_number_and_not_with_flavour_or_layout_of_the_file():
    from importlib import resources

    text = resources.files("p2pgames.games.torpedo").joinpath("tiles.toml").read_text(encoding="utf-8")
    assert load_tiles(text).edition == TILESET.edition
    assert load_tiles(text.replace("\n", "\r\n").replace("flavor = \"", "flavor = \"Still ")).edition == TILESET.edition
    assert load_tiles("# a comment\n" + text).edition == TILESET.edition
    changed = text.replace("structure = 9", "structure = 8", 1)
    assert changed != text and load_tiles(changed).edition != TILESET.edition
