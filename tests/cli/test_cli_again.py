"""Playing again at the same table (issue 26, point 1; SPEC §B20), through pseudo-terminals of
80×24 and real processes on 127.0.0.1: two people and a bot play, then again (the same game), then
the host asks for another game, the other player says no and leaves, and a bot takes the free
seat. Each game gets its own id and transcript, and each verifies.

Each player makes every move by typing 1 (its first choice) as "Your move" is drawn; the test
types for both at once, each from a thread of its own, until its screen says the game is over."""

from __future__ import annotations

import re
import threading

from peer_processes import TerminalPeer

from p2pgames.games import PLAYABLE, get_game
from p2pgames.session import summarize_transcript, verify_transcript

GAME_OVER = "plays again, g another game"


def play_to_the_end(*players: TerminalPeer) -> None:
    """Each player types 1 at every "Your move" it draws, until its screen says the game is over."""
    move_or_over = re.compile(rf"Your move — |{GAME_OVER}")
    failures: list[BaseException] = []

    def play(player: TerminalPeer) -> None:
        try:
            position = len(player.screen)
            while True:
                found = player.wait_for_after(move_or_over, position)
                if found.group(0) == GAME_OVER:
                    return
                position = found.end()
                player.type(b"1\r")
        except BaseException as error:  # noqa: BLE001 - raised again in the test's thread
            failures.append(error)

    threads = [threading.Thread(target=play, args=(player,)) for player in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise failures[0]


def test_two_rounds_of_again_one_switching_game_with_a_player_who_says_no_and_a_bot_in_his_seat(tmp_path):
    home, transcripts = tmp_path / "home", tmp_path / "transcripts"
    alice = TerminalPeer(home, "host", "probe", "--players", "3", "--bots", "1", "--port", "0",
                         "--bind", "127.0.0.1", "--name", "alice", "--profile", "alice", "--transcripts", str(transcripts))
    bob = None
    try:
        code = alice.wait_for(r"Join code: (\S+)").group(1)
        bob = TerminalPeer(home, "join", code, "--name", "bob", "--profile", "bob", "--transcripts", str(transcripts))
        # Game 1, played to its end; then alice asks to play it again.
        play_to_the_end(alice, bob)
        alice.type(b"a")
        bob.wait_for("alice asks to play again: Probe")  # (and the bottom row asks: y plays it)
        bob.type(b"y")
        alice.wait_for("The next game at this table: Probe")
        bob.wait_for("Joining the next game at ")
        # Game 2: the same game, a new id; at its end alice asks for Beltpunk, and bob says no.
        play_to_the_end(alice, bob)
        alice.type(b"g" + str(list(PLAYABLE).index("beltpunk") + 1).encode())  # g lists the games: one's number
        bob.wait_for("alice asks to play again: Beltpunk Haberdasher")
        bob.type(b"n")
        assert bob.finish() == 0, bob.screen[-1500:]
        alice.wait_for("The next game at this table: Beltpunk Haberdasher, 2 of its seats played by bots")
        alice.wait_for("The game begins: ")
        alice.type(b"\x03")  # Ctrl-C: quit (asking first)
        alice.wait_for("Leave the game")
        alice.type(b"y")
        assert alice.finish() == 0
    finally:
        alice.close()
        if bob is not None:
            bob.close()
    files = sorted(transcripts.glob("*.p2pt"))
    summaries = [summarize_transcript(path.read_bytes(), get_game) for path in files]
    games = sorted({(summary.game, summary.game_id) for summary in summaries})
    assert [game for game, _ in games].count("probe") == 2 and [game for game, _ in games].count("beltpunk") == 1
    assert len(files) == 5  # two probe games, two seats each, then alice's Beltpunk
    for path in files:
        report = verify_transcript(path.read_bytes(), get_game)
        assert report.ok, report.describe()

