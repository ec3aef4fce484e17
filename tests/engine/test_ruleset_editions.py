"""Editions of a game's rules (SPEC §D1): a ruleset records the edition it plays, from 2 on, and a
ruleset of another edition is refused as another version's — never replayed into other states."""

from dataclasses import replace

import pytest

from p2pgames.engine import RulesetError
from p2pgames.games import get_game


def test_a_first_edition_ruleset_keeps_the_form_it_had_and_a_later_one_names_its_edition():
    beltpunk, steamcourt = get_game("beltpunk"), get_game("steamcourt")
    assert set(replace(beltpunk.ruleset(2), edition=1).encode()) == {"game", "players", "options"}
    # Every variant, Solo's too, since retired deals leave the card state.
    assert steamcourt.ruleset(3).encode()["edition"] == steamcourt.ruleset(1).encode()["edition"] == 4
    assert steamcourt.rules_edition == 4
    assert beltpunk.ruleset(2).encode()["edition"] == beltpunk.rules_edition == 3
    for game, players in ((beltpunk, 2), (steamcourt, 3), (steamcourt, 1)):
        ruleset = game.ruleset(players)
        assert game.decode_ruleset(ruleset.encode()) == ruleset


@pytest.mark.parametrize("name, players, edition, which", [
    ("beltpunk", 2, None, "an earlier"),  # before hands were re-masked (no edition: edition 1)
    ("beltpunk", 2, 2, "an earlier"),   # before retired deals left the card state
    ("beltpunk", 2, 4, "a later"),      # made by a version whose Beltpunk rules changed again
    ("steamcourt", 3, None, "an earlier"),  # before start tokens (no edition: edition 1)
    ("steamcourt", 3, 2, "an earlier"),  # before hands were re-masked (issue 24)
    ("steamcourt", 3, 3, "an earlier"),  # before retired deals left the card state
    ("steamcourt", 3, 5, "a later"),
    ("steamcourt", 1, None, "an earlier"),  # Solo played edition 1 until retired deals left the state
    ("steamcourt", 1, 5, "a later"),
    ("steamcourt2015", 3, 2, "an earlier"),
    ("astonishing", 3, 2, "an earlier"),
    ("torpedo", 2, None, "an earlier"),  # its card state, never dealt from, has a next_deal key
    ("probe", 3, None, "an earlier"),
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
