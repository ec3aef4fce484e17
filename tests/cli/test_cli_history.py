"""``p2pgames history``: the games played here, newest first, read from their transcripts
(issue 26, point 2), and :func:`summarize_transcript`, which reads them."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
from pathlib import Path

import pytest
from cli_calls import call
from saved_files import VECTORS, write_profile

from p2pgames.games import get_game
from p2pgames.history import PlayedGame, opponent_lines, result_text
from p2pgames.session import GameSummary, TranscriptError, summarize_transcript, verify_transcript
from p2pgames.session._transcript import encode_record

SUMMARIES = sorted(path.name for path in VECTORS.glob("session-*.json") if path.with_suffix(".p2pt").exists())
# The games whose seat 1 (the seat of every transcript vector) is the same identity: seed "vector".
SAME_SEAT = ["session-torpedo-2p", "session-steamcourt-3p", "session-probe-3p", "session-beltpunk-2p", "session-astonishing-3p"]


def _vector(name: str) -> tuple[dict, bytes]:
    summary = json.loads((VECTORS / name).read_text())
    return summary, (VECTORS / summary["file"]).read_bytes()


@pytest.mark.parametrize("name", SUMMARIES)
def test_a_summary_tells_what_verifying_the_transcript_does(name):
    expected, data = _vector(name)
    summary = summarize_transcript(data, get_game)
    assert summary.game == expected["game"] and summary.seat == 1
    assert summary.entries == expected["entries"]
    if expected["result"] is None:  # stopped by a fault (the -dispute vector): no result; why it stopped
        assert summary.winners is None and summary.scores == () and summary.stopped
    else:
        assert list(summary.winners) == expected["result"]["winners"]
        assert list(summary.scores) == expected["result"]["scores"] and summary.summary == expected["result"]["summary"]
        assert summary.stopped is None
    assert summary.names == tuple(f"p{seat}" for seat in range(expected["players"]))
    assert summary.title == get_game(expected["game"]).title and not summary.cut_short


def test_a_transcript_of_a_game_or_rules_this_version_lacks_is_still_summed_up():
    from p2pgames.games import UnknownGame

    expected, data = _vector("session-probe-3p.json")

    def unknown(name: str):
        raise UnknownGame(name)

    summary = summarize_transcript(data, unknown)
    assert (summary.title, summary.rules, summary.entries) == ("probe", "a game this version of p2pgames doesn't have", 48)
    game = get_game("probe")
    later = type(game)()
    later.rules_edition = game.rules_edition + 1  # a later version's edition of the rules
    summary = summarize_transcript(data, lambda name: later)
    assert (summary.title, summary.rules) == ("Probe", "rules this version of p2pgames can't read")
    assert list(summary.winners) == expected["result"]["winners"]


def test_a_transcript_cut_short_is_summed_up_to_the_cut_and_unfinished():
    _, data = _vector("session-torpedo-2p.json")
    cut = data[: len(data) // 2]
    summary = summarize_transcript(cut, get_game)
    report = verify_transcript(cut, get_game)
    assert summary.cut_short and summary.winners is None and summary.entries == report.entries > 0
    assert result_text(summary) == "unfinished (the file is cut short)"


@pytest.mark.parametrize(
    "data, why",
    [
        (b"", "no transcript header"),
        (b"\x00\x00\x00\x03abc", "a transcript begins with its header"),
        (encode_record(b"\x92\xa6header\xc1"), "record 1 is damaged"),
        (encode_record(b"\x92\xa5entry\x80"), "a transcript begins with its header"),
        (b"\xff\xff\xff\xff", "record 1 is too long"),
    ],
)
def test_what_is_not_a_transcript_is_refused_with_the_reason(data, why):
    with pytest.raises(TranscriptError, match=why):
        summarize_transcript(data, get_game)


def test_a_second_start_record_is_refused():
    _, data = _vector("session-probe-3p.json")
    length = int.from_bytes(data[:4], "big")
    header = data[: 4 + length]
    start_length = int.from_bytes(data[4 + length: 8 + length], "big")
    start = data[4 + length: 8 + length + start_length]
    with pytest.raises(TranscriptError, match="record 3 is a second start record"):
        summarize_transcript(header + start + start, get_game)


def _summary(seat: int, keys: tuple[bytes, ...], names: tuple[str, ...], winners, bots=None) -> GameSummary:
    return GameSummary(
        game="probe", title="Probe", rules="", game_id=b"", seat=seat, names=names, keys=keys,
        bots=bots or (False,) * len(keys), entries=1, winners=winners, scores=(), summary="", stopped=None,
        cut_short=False,
    )


def test_opponents_are_counted_by_key_under_their_last_name_and_bots_together():
    games = [  # newest first
        _summary(0, (b"me", b"bob", b"b1"), ("me", "Bobby", "robot"), (0,), bots=(False, False, True)),
        _summary(1, (b"bob", b"me"), ("bob", "me"), (0,)),
        _summary(1, (b"bob", b"me", b"b2", b"b3"), ("bob", "me", "r1", "r2"), (3,), bots=(False, False, True, True)),
        _summary(1, (b"bob", b"me"), ("bob", "me"), None),  # unfinished: not counted
    ]
    lines = opponent_lines(PlayedGame(Path(f"{n}.p2pt"), 0.0, game) for n, game in enumerate(games))
    assert lines == [
        "Bobby  3 games, you won 1, Bobby won 1",
        "bots   2 games, you won 1, they won 1",
    ]


def test_results_are_told_from_the_transcripts_seat():
    keys, names = (b"a", b"b", b"c"), ("ann", "bob", "cat")
    assert result_text(_summary(0, keys, names, (0,))) == "you won"
    assert result_text(_summary(0, keys, names, (0, 2))) == "you and cat won"
    assert result_text(_summary(0, keys, names, (1, 2))) == "bob and cat won"
    assert result_text(_summary(0, keys, names, ())) == "nobody won"
    stopped = dataclasses.replace(_summary(0, keys, names, None), stopped="bob sent a move that breaks the rules " * 3)
    assert result_text(stopped).startswith("stopped: bob sent a move") and len(result_text(stopped)) == len("stopped: ") + 60


@pytest.fixture
def transcripts(home, tmp_path) -> Path:
    """A transcripts folder: the five vectors whose seat 1 is this machine's profile, oldest to
    newest in SAME_SEAT's order from the end; the 2015 vector, another identity's seat; junk."""
    write_profile(home, "default", b"vector\x01")
    folder = tmp_path / "transcripts"
    folder.mkdir()
    for age, stem in enumerate(SAME_SEAT + ["session-steamcourt2015-3p"]):
        path = folder / f"{stem}.p2pt"
        shutil.copyfile(VECTORS / f"{stem}.p2pt", path)
        os.utime(path, (1_800_000_000 - 3600 * age, 1_800_000_000 - 3600 * age))
    (folder / "notes.p2pt").write_bytes(b"not a transcript")
    return folder


def test_history_lists_this_profiles_games_newest_first_and_the_opponents(transcripts):
    code, out, err = call("history", "--transcripts", str(transcripts))
    assert code == 0
    lines = out.splitlines()
    games = lines[: len(SAME_SEAT)]
    assert [line.rsplit(" · ", 1)[1] for line in games] == [f"{stem}.p2pt" for stem in SAME_SEAT]
    assert games[0].split(" · ")[1:] == [
        "Steam Torpedo", "2 players (build=random)", "with p0 (bot)",
        "you won: the other submarine has no oxygen left, after 25 turns", "276 entries", "session-torpedo-2p.p2pt",
    ]
    assert games[1].split(" · ")[3:5] == ["with p0 (bot), p2 (bot)", "p2 won: 12 points, tied; first out in the 4th quarter breaks the tie"]
    assert "steamcourt2015" not in out  # another identity's seat
    assert lines[len(SAME_SEAT):] == ["", "Together (finished games):", "  bots  5 games, you won 1, they won 4"]
    assert "1 file in" in err and "notes.p2pt says why" in err


def test_history_with_a_name_lists_only_the_games_they_played(transcripts):
    code, out, _ = call("history", "--transcripts", str(transcripts), "--with", "P2")
    assert code == 0
    assert [line.rsplit(" · ", 1)[1] for line in out.splitlines() if " · " in line] == [
        "session-steamcourt-3p.p2pt", "session-probe-3p.p2pt", "session-astonishing-3p.p2pt",
    ]
    code, out, _ = call("history", "--transcripts", str(transcripts), "--with", "nobody")
    assert (code, out) == (0, f"No games with nobody in {transcripts}.\n")


def test_history_verify_checks_every_transcript_and_fails_on_one_that_does_not_verify(transcripts):
    damaged = bytearray((transcripts / "session-probe-3p.p2pt").read_bytes())
    damaged[-40] ^= 1  # inside the last record's signature or body
    (transcripts / "session-probe-3p.p2pt").write_bytes(bytes(damaged))
    code, out, _ = call("history", "--transcripts", str(transcripts), "--verify")
    assert code == 1
    verdicts = {line.rsplit(" · ", 1)[1]: line.split(" · ")[6] for line in out.splitlines() if " · " in line}
    assert verdicts.pop("session-probe-3p.p2pt").startswith("DOES NOT VERIFY")
    assert set(verdicts.values()) == {"verified"}


def test_history_of_another_profile_and_of_none(transcripts, home):
    write_profile(home, "alice", b"vector4\x01")  # seat 1 of the 2015 vector
    code, out, _ = call("history", "--transcripts", str(transcripts), "--profile", "alice")
    assert code == 0 and [line for line in out.splitlines() if " · " in line][0].endswith("session-steamcourt2015-3p.p2pt")
    assert out.count(" · ") // 6 == 1
    code, _, err = call("history", "--transcripts", str(transcripts), "--profile", "bob")
    assert code == 2
    assert "there is no profile 'bob'" in err


def test_history_before_any_game_says_so(home):
    code, out, err = call("history")
    assert (code, err) == (0, "")
    assert out == f"No games yet: there are no transcripts in {home / 'transcripts'}.\n"
    code, _, err = call("history", "--transcripts", str(home / "missing"))
    assert code == 1 and "is not a directory of transcripts" in err

