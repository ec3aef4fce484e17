"""``p2pgames watch`` (issue 26, point 4) over real processes on 127.0.0.1: ``--print`` follows a
headless table's game line by line to its end; what can't be done is said in one line."""

from __future__ import annotations

from cli_calls import call
from peer_processes import all_finished_and_verified, start_table

from p2pgames.cli import EXIT_NETWORK, EXIT_USAGE


def test_watch_print_follows_the_game_to_its_end_and_the_players_game_is_unchanged(peers, tmp_path):
    transcripts = tmp_path / "transcripts"
    host, joiners, code = start_table(peers, transcripts)
    watcher = peers("watch", code, "--print", "--name", "wanda")
    begins = watcher.line_starting("The game begins: ")
    assert "hostess (seat 0)" in begins and ", you" not in begins, "a watcher has no seat"
    code_, out, err = watcher.finish()
    assert (code_, err) == (0, "") and out[-1].startswith("Game over: "), (out, err)
    all_finished_and_verified([host, *joiners], transcripts)


def test_watch_without_a_terminal_or_a_table_says_so(home):
    code, _, err = call("watch")
    assert code == EXIT_USAGE and "'watch' needs a terminal (without one, --print prints the game's log)" in err
    code, _, err = call("watch", "--print")
    assert code == EXIT_USAGE and "watch --print needs the table's join code" in err
    code, _, err = call("watch", "nonsense", "--print")
    assert code == EXIT_USAGE and err
    code, _, err = call("watch", "127.0.0.1:1/" + "a" * 16, "--print")  # (nothing listens on port 1)
    assert code == EXIT_NETWORK and "p2pgames: " in err


def test_host_watchers_is_bounded(home):
    code, _, err = call("host", "probe", "--watchers", "65", "--bot")
    assert code == EXIT_USAGE and "--watchers must be between 0 and 64, not 65" in err
