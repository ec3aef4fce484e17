from p2pgames.engine.conformance import play_random_game
from p2pgames.games import get_game, get_presentation


def test_probe_random_games_conform():
    game = get_game("probe")
    for players in (2, 3, 4):
        ruleset = game.ruleset(players)
        for n in range(5):
            report = play_random_game(get_presentation("probe"), ruleset, bytes([players, n]))
            assert report.result is not None
