"""Choosing the kind of bot (``--bot KIND``; a host's ``--bots`` seats: ``--bots-kind KIND``) for games that
have several."""

from __future__ import annotations

import importlib
import importlib.util
import types

import pytest

from cli_calls import call
from p2pgames.bots import RandomBot, bot_for, bot_kinds
from p2pgames.games import PLAYABLE, game_package, get_game


@pytest.fixture
def probe_with_two_bots(monkeypatch) -> list[tuple[str, bytes]]:
    """The probe game offers bots "quick" (its default) and "careful"; returns who was made."""
    made: list[tuple[str, bytes]] = []

    def maker(kind):
        def make(seed=b""):
            made.append((kind, seed))
            return RandomBot(seed)
        return make

    module = types.SimpleNamespace(BOT_KINDS={"quick": maker("quick"), "careful": maker("careful")}, make_bot=maker("quick"))
    monkeypatch.setattr("p2pgames.bots._bots_module", lambda game: module if game.name == "probe" else None)
    return made


def test_a_game_lists_its_kinds_of_bot_and_makes_the_one_named(probe_with_two_bots):
    probe = get_game("probe")
    assert bot_kinds(probe) == ("quick", "careful")
    bot_for(probe, b"s", "careful")
    assert probe_with_two_bots == [("careful", b"s")]
    with pytest.raises(ValueError, match=r"Probe has no bot called 'clever' \(its bots: quick, careful\)"):
        bot_for(probe, b"s", "clever")


def test_selfplay_plays_the_kinds_named_one_per_seat(probe_with_two_bots):
    code, out, err = call("selfplay", "probe", "--players", "3", "--bot", "careful,quick", "--seed", "k")
    assert code == 0, out + err
    assert [kind for kind, _ in probe_with_two_bots] == ["careful", "quick", "quick"]  # the last for the rest


def test_an_unknown_kind_or_too_many_is_a_usage_error(probe_with_two_bots):
    assert call("selfplay", "probe", "--bot", "clever") == (
        2, "", "p2pgames: Probe has no bot called 'clever'; choose one of: quick, careful\n"
    )
    assert call("selfplay", "probe", "--players", "2", "--bot", "quick,quick,careful") == (
        2, "", "p2pgames: --bot names 3 kinds for 2 seats\n"
    )


def test_a_game_with_one_kind_of_bot_says_so():
    assert call("selfplay", "beltpunk", "--bot", "search") == (
        2, "", "p2pgames: Beltpunk Haberdasher has one kind of bot; leave out --bot\n"
    )


def test_a_host_played_by_a_bot_plays_its_kind_and_its_bots_seats_play_it_too(probe_with_two_bots):
    code, out, err = call("host", "probe", "--players", "3", "--bot", "careful", "--bots", "2", "--bind", "127.0.0.1", "--no-transcript")
    assert (code, err) == (0, ""), out
    assert "Join code" not in out and "Game over: " in out  # no seat for anyone else: the table filled at once
    assert [kind for kind, _ in probe_with_two_bots] == ["careful"] * 3


def test_bots_kind_chooses_the_kind_of_the_bots_seats(probe_with_two_bots):
    code, out, err = call(
        "host", "probe", "--players", "3", "--bot", "--bots", "2", "--bots-kind", "careful", "--bind", "127.0.0.1", "--no-transcript"
    )
    assert (code, err) == (0, ""), out
    assert sorted(kind for kind, _ in probe_with_two_bots) == ["careful", "careful", "quick"]  # the host's: the default


@pytest.mark.parametrize("name", list(PLAYABLE))
def test_every_playable_game_with_a_bots_module_gets_its_default_bot(name):
    # bot_for finds a game's bots by its package: a game registered without its bots would be
    # played by random bots, silently.
    package = game_package(name)
    if importlib.util.find_spec(f"{package}.bots") is None:
        pytest.skip(f"{name} has no bots module")
    module = importlib.import_module(f"{package}.bots")
    bot = bot_for(get_game(name), b"s")
    assert type(bot) is type(module.make_bot(b"s")) and not isinstance(bot, RandomBot)
