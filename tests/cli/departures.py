"""What the command-line departure tests share (test_cli_departures.py, test_cli_host_departures.py)."""

from __future__ import annotations

import re

from peer_processes import join_code

from p2pgames.games import get_game
from p2pgames.session import verify_transcript

# Moments at which a seat that vanished can't be played by a bot, so the table can only end (the
# SPEC's §B14 refusal; issue 25's note): at a two-player Steam Torpedo (no escrow), the moment
# between the last captain's commitment and the vanished captain's own opening (an automatic step:
# milliseconds). A kill is a moment chosen by timing, not by the test: one that lands there is
# tried again, a few times at most, at another moment (and any other reason fails the test).
# The tables of three or more have none: a seat is rebuilt from its escrow (§B16).
CANT_PLAY_ON = {
    "torpedo": ("it has committed to a choice it has not opened",),
}
TRIES = 3


def ended_where_no_bot_can_play(out: list[str], who: str, game: str) -> bool:
    """Whether ``out`` says the game was ended because ``who`` vanished at one of the moments
    :data:`CANT_PLAY_ON` names for ``game`` (a reason other than those fails the test)."""
    ended = [line for line in out if re.match(rf"{re.escape(who)} has been away for .*: ending the game", line)]
    if not ended:
        return False
    reasons = CANT_PLAY_ON.get(game, ())
    assert any(f"(a bot can't take their seat: {reason})." in ended[0] for reason in reasons), ended
    return True


def handed_over_at(out: list[str], name: str) -> int:
    """The entry from which a bot played ``name``'s seat, as its own output says."""
    [handed] = [line for line in out if line.startswith(f"{name}'s seat is played by a bot from entry ")]
    return int(re.search(r"entry (\d+)", handed).group(1))


def finished_beside_the_bot(peer, name: str, entry: int) -> list[str]:
    """``peer`` exits 0, silent on stderr, its result saying a bot played ``name``'s seat from
    ``entry``; its output."""
    code, out, err = peer.finish()
    assert (code, err) == (0, ""), (out, err)
    [over] = [line for line in out if line.startswith("Game over: ")]
    assert over.endswith(f"({name}'s seat was played by a bot from entry {entry}.)"), over
    return out


def verified(transcripts, players: int) -> list:
    """The reports of the ``players`` transcripts in ``transcripts``, each verified."""
    files = sorted(transcripts.glob("*.p2pt"))
    assert len(files) == players, files
    reports = [verify_transcript(path.read_bytes(), get_game) for path in files]
    for report in reports:
        assert report.ok, report.describe()
    return reports


def torpedo_captain_killed_after_the_builds(peers, tmp_path, killed: str) -> tuple[int, list[str], str, object]:
    """A 2-player Steam Torpedo of heuristic bots, ann hosting and bea joining, the other with
    ``--grace 1s``: once both builds are open (both narrated) and a move made, ``killed`` ("ann" or
    "bea") is ``kill -9``ed for good. Another moment is tried where the kill lands on one at which
    no bot can take the seat (:data:`CANT_PLAY_ON`). Returns the survivor's exit status, output,
    error output, and the transcripts' folder."""
    for attempt in range(TRIES):
        transcripts = tmp_path / f"transcripts-{attempt}"
        grace = {name: ("--grace", "1s") if name != killed else () for name in ("ann", "bea")}
        host = peers("host", "torpedo", "--bot", "heuristic", *grace["ann"], "--port", "0", "--bind", "127.0.0.1",
                     "--name", "ann", "--profile", f"ann{attempt}", "--transcripts", str(transcripts))
        joiner = peers("join", join_code(host), "--bot", "heuristic", *grace["bea"], "--profile", f"bea{attempt}",
                       "--name", "bea", "--transcripts", str(transcripts))
        joiner.line_starting("ann built")
        joiner.line_starting("bea built")
        joiner.line_starting("ann")
        gone, survivor = (host, joiner) if killed == "ann" else (joiner, host)
        gone.process.kill()
        gone.process.wait()
        code, out, err = survivor.finish()
        if not ended_where_no_bot_can_play(out, "The host, ann," if killed == "ann" else killed, "torpedo"):
            break
    return code, out, err, transcripts
