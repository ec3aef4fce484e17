"""Editions of a game's rules (SPEC §D1): a ruleset records the edition it plays, from 2 on, and a
ruleset of another edition is refused as another version's — never replayed into other states."""

import pytest

from p2pgames.engine import RulesetError
from p2pgames.games import get_game


def test_a_first_edition_ruleset_keeps_the_form_it_had_and_a_later_one_names_its_edition():
    beltpunk, steamcourt = get_game("beltpunk"), get_game("steamcourt")
    assert set(steamcourt.ruleset(1).encode()) == {"game", "players", "options"}  # Solo: edition 1
    assert steamcourt.ruleset(3).encode()["edition"] == steamcourt.rules_edition == 3
    assert beltpunk.ruleset(2).encode()["edition"] == beltpunk.rules_edition == 2  # re-masked hands
    for game, players in ((beltpunk, 2), (steamcourt, 3), (steamcourt, 1)):
        ruleset = game.ruleset(players)
        assert game.decode_ruleset(ruleset.encode()) == ruleset


@pytest.mark.parametrize("name, players, edition, which", [
    ("beltpunk", 2, None, "an earlier"),  # before hands were re-masked (no edition: edition 1)
    ("beltpunk", 2, 3, "a later"),      # made by a version whose Beltpunk rules changed again
    ("steamcourt", 3, None, "an earlier"),  # before start tokens (no edition: edition 1)
    ("steamcourt", 3, 2, "an earlier"),  # before hands were re-masked (issue 24)
    ("steamcourt", 3, 4, "a later"),
    ("steamcourt", 1, 2, "a later"),    # Solo is still edition 1
])
def test_a_ruleset_of_another_edition_is_refused_as_another_versions(name, players, edition, which):
    game = get_game(name)
    data = game.ruleset(players).encode()
    data.pop("edition", None)
    if edition is not None:
        data["edition"] = edition
    with pytest.raises(RulesetError, match=f"made by {which} version of p2pgames"):
        game.decode_ruleset(data)


@pytest.mark.parametrize("edition", [0, True, "2", 1.0])
def test_an_edition_that_is_no_positive_integer_is_a_malformed_ruleset(edition):
    data = dict(get_game("beltpunk").ruleset(2).encode(), edition=edition)
    with pytest.raises(RulesetError, match="malformed ruleset"):
        get_game("beltpunk").decode_ruleset(data)
