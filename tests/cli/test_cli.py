"""The command line, through ``p2pgames.cli.main``: what each command prints and how it exits.

Exit codes: 0 success, 1 a failed game or transcript, 2 bad usage (one line on stderr, no
traceback), 3 a network problem. ``host``, ``join`` and ``play`` need a terminal, so only their
argument errors (and what they say without a terminal) are tested here; ``selfplay`` plays real
loopback games. ``P2PGAMES_HOME`` points at a temporary directory; stdin is never a terminal.
"""

from __future__ import annotations

import re
import stat
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli_calls import call
from p2pgames import __version__, canonical
from p2pgames import cli
from p2pgames.games import PLAYABLE, game_package
from p2pgames.games.rules_page import TEST_REFERENCE
from p2pgames.session import encode_record, iter_records

FINGERPRINT = re.compile(r"\b[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}\b")






@pytest.fixture(scope="module")
def played(tmp_path_factory) -> tuple[int, str, str, list[Path]]:
    """``selfplay probe --players 3 --games 2 --transcripts DIR --seed x``, once for the module."""
    directory = tmp_path_factory.mktemp("transcripts")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("P2PGAMES_HOME", str(tmp_path_factory.mktemp("home")))
        code, out, err = call(
            "selfplay", "probe", "--players", "3", "--games", "2", "--transcripts", str(directory), "--seed", "x"
        )
    return code, out, err, sorted(directory.glob("*.p2pt"))


# -- selfplay and verify ---------------------------------------------------------------------------


def test_selfplay_plays_every_game_and_verifies_every_transcript(played):
    code, out, err, files = played
    assert code == 0, out + err
    lines = out.splitlines()
    assert len(lines) == 3
    for number, line in enumerate(lines[:2], 1):
        assert line.startswith(f"game {number}/2: ")
        assert " won — " in line and "3/3 transcripts verified" in line and "NOT" not in line
    assert lines[2].startswith("All 2 games finished; every transcript verified")
    assert len(files) == 6  # two games, three seats each
    assert all(stat.S_IMODE(path.stat().st_mode) == 0o600 for path in files)


def test_selfplay_without_transcripts_checks_the_state_hashes():
    code, out, _ = call("selfplay", "probe", "--players", "2", "--seed", "y")
    assert code == 0
    assert "all peers agreed on every state hash" in out
    assert out.splitlines()[-1].startswith("The game finished; every state hash agreed")


def test_verify_accepts_every_transcript(played):
    files = played[3]
    code, out, err = call("verify", *map(str, files))
    assert code == 0, out
    assert out.count("Verified.") == len(files) and "NOT" not in out
    for path in files:
        assert f"{path}:" in out
    assert "Checked " in out and "Result: " in out and not err


def reasons(out: str) -> list[str]:
    """The lines of ``verify``'s output that say what is wrong."""
    markers = ("FAILED", "PROBLEM", "not a valid transcript", "can't read it")
    return [line.strip() for line in out.splitlines() if any(marker in line for marker in markers)]


def flip_middle(data: bytes) -> bytes:
    middle = len(data) // 2
    return data[:middle] + bytes([data[middle] ^ 0x01]) + data[middle + 1:]


DAMAGES = {
    "a byte flipped in the middle": flip_middle,
    "cut inside the first length": lambda data: data[:2],
    "empty": lambda data: b"",
    "text": lambda data: b"This is not a transcript.\n",
    "a canonical value that is no record": lambda data: canonical.encode({"not": "a transcript"}),
    "records that are no transcript": lambda data: encode_record(canonical.encode(["hello", 1])),
    "a length far past the end": lambda data: b"\xff\xff\xff\xff" + data[4:],
}


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_verify_refuses_a_damaged_transcript_in_one_line(played, tmp_path, damage):
    path = tmp_path / "damaged.p2pt"
    path.write_bytes(DAMAGES[damage](played[3][0].read_bytes()))
    code, out, err = call("verify", str(path))
    assert code == 1, out
    found = reasons(out)
    assert len(found) == 1, out
    assert len(found[0]) > 30 and not err
    assert "Verified." not in out


def test_verify_checks_a_transcript_cut_in_the_middle_up_to_the_cut_and_says_so(played, tmp_path):
    path = tmp_path / "cut.p2pt"
    data = played[3][0].read_bytes()
    path.write_bytes(data[: len(data) // 2 + 1])
    code, out, err = call("verify", str(path))
    assert code == 0 and not err, out
    assert "it was cut short while being written (a crash or a full disk); everything before it was checked." in out
    assert "The transcript ends before the game did." in out and out.rstrip().endswith("Verified.")


def test_a_flipped_byte_is_named_with_its_entry(played, tmp_path):
    path = tmp_path / "flipped.p2pt"
    path.write_bytes(flip_middle(played[3][1].read_bytes()))
    code, out, _ = call("verify", str(path))
    assert code == 1 and ("NOT verified." in out or "not a valid transcript" in out), out
    # Named where it is: the entry, or the record (an acknowledgement whose signature no longer
    # verifies, or whose signer's key the byte changed, where the flipped byte lands in one: the
    # selfplay's peers are seeded, but who reaches the host first is not, so where the middle
    # byte falls differs from run to run).
    assert re.search(r"(FAILED at entry \d+|record \d+ is damaged|bad signature"
                     r"|record \d+, a state-hash acknowledgement .* has a signature that does not verify"
                     r"|record \d+, a state-hash acknowledgement, is signed with a key that is not at the table)", out), out


def test_verify_of_a_missing_file_or_a_directory(tmp_path):
    for path in (tmp_path / "missing.p2pt", tmp_path):
        code, out, err = call("verify", str(path))
        assert code == 1 and len(reasons(out)) == 1 and "can't read it" in out, out


def test_verify_goes_on_after_a_bad_file_and_fails_overall(played, tmp_path):
    bad = tmp_path / "empty.p2pt"
    bad.write_bytes(b"")
    good = played[3][0]
    code, out, _ = call("verify", str(bad), str(good))
    assert code == 1
    assert "the file is empty" in out and out.count("Verified.") == 1


def records_of(data: bytes) -> list[bytes]:
    return [canonical.encode([kind, value]) for kind, value in iter_records(data)]


CRAFTED = {
    "a fault record that is no map": ("fault", b"x"),
    "a fault record naming a seat by text": ("fault", {"culprit": "x", "code": "illegal", "reason": "r", "seq": 0}),
    "a fault record with evidence that is no list": ("fault", {"culprit": 1, "code": "illegal", "evidence": 5}),
    "an end record that is no map": ("end", b"x"),
    "an end record with scores that are no list": ("end", {"scores": 5, "winners": 1, "summary": ""}),
    "an end record with nothing in it": ("end", {}),
    "a header naming a seat by text": ("header", {"format": "p2pgames-transcript", "version": 1, "game": "probe",
                                                   "seat": "x"}),
}


@pytest.mark.parametrize("name", sorted(CRAFTED))
def test_verify_of_a_crafted_record(played, tmp_path, name):
    """Records that decode but hold the wrong things: a reason, not a traceback."""
    kind, value = CRAFTED[name]
    records = records_of(played[3][0].read_bytes())
    record = canonical.encode([kind, value])
    if kind == "header":
        records[0] = record
    else:
        records.append(record)
    path = tmp_path / "crafted.p2pt"
    path.write_bytes(b"".join(encode_record(item) for item in records))
    code, out, err = call("verify", str(path))
    assert code == 1 and not err
    assert len(reasons(out)) == 1, out
    assert "NOT verified." in out or "not a valid transcript" in out, out


RECORD_KINDS = ["header", "start", "accept", "entry", "ack", "chat", "fault", "fault-message", "leave", "end", "other"]


@st.composite
def damaged_transcripts(draw, original: bytes) -> bytes:
    """A transcript damaged at the byte level, or made of real records shuffled and rewritten."""
    if draw(st.booleans()):
        data = bytearray(original)
        for _ in range(draw(st.integers(1, 4))):
            position = draw(st.integers(0, len(data) - 1))
            data[position] = draw(st.integers(0, 255))
        return bytes(data[: draw(st.integers(0, len(data)))]) if draw(st.booleans()) else bytes(data)
    records = records_of(original)
    for _ in range(draw(st.integers(1, 3))):
        index = draw(st.integers(0, len(records) - 1))
        kind, value = canonical.decode(records[index])
        how = draw(st.sampled_from(["kind", "value", "value-field", "drop", "repeat", "swap"]))
        if how == "kind":
            records[index] = canonical.encode([draw(st.sampled_from(RECORD_KINDS)), value])
        elif how == "value":
            records[index] = canonical.encode([kind, draw(VALUES)])
        elif how == "value-field" and isinstance(value, dict) and value:
            field = draw(st.sampled_from(sorted(value)))
            records[index] = canonical.encode([kind, {**value, field: draw(VALUES)}])
        elif how == "drop" and len(records) > 1:
            del records[index]
        elif how == "repeat":
            records.insert(index, records[index])
        elif how == "swap":
            other = draw(st.integers(0, len(records) - 1))
            records[index], records[other] = records[other], records[index]
    return b"".join(encode_record(record) for record in records)


VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.integers(-3, 3) | st.text(max_size=8)
    | st.binary(max_size=40),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=10,
)


@settings(max_examples=40, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                 HealthCheck.data_too_large])
@given(data=st.data())
def test_verify_reports_any_damage_without_a_traceback(played, tmp_path, data):
    """Whatever the file holds, ``verify`` answers with exit 0 or 1, never a traceback."""
    original = played[3][data.draw(st.integers(0, len(played[3]) - 1))].read_bytes()
    path = tmp_path / "fuzzed.p2pt"
    path.write_bytes(data.draw(damaged_transcripts(original)))
    code, out, err = call("verify", str(path))
    assert code in (0, 1) and not err, out + err
    if code == 1:
        assert reasons(out) or "NOT verified." in out, out
    else:
        assert out.rstrip().endswith("Verified."), out


# -- identities ------------------------------------------------------------------------------------


def test_id_creates_a_private_key_and_prints_its_fingerprint(home):
    code, out, err = call("id")
    assert code == 0
    fingerprint = FINGERPRINT.search(out).group()
    assert f"fingerprint: {fingerprint}" in out
    assert f"Created identity 'default': {fingerprint}" in err
    key_file = Path(re.search(r"key file:\s+(\S+)", out).group(1))
    assert key_file.is_file() and home in key_file.parents
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert stat.S_IMODE(key_file.parent.stat().st_mode) & 0o077 == 0
    # The next time: the same identity, nothing created.
    code, again, err = call("id")
    assert code == 0 and FINGERPRINT.search(again).group() == fingerprint and not err


def test_id_of_another_profile_is_another_identity():
    _, default, _ = call("id")
    code, alice, _ = call("id", "--profile", "alice")
    assert code == 0 and "profile:     alice" in alice
    assert FINGERPRINT.search(alice).group() != FINGERPRINT.search(default).group()


def test_id_refuses_a_key_file_others_can_read(home):
    call("id")
    key_file = home / "identities" / "default.key"
    key_file.chmod(0o644)
    code, out, err = call("id")
    assert code == 1 and len(err.splitlines()) == 1 and "other users" in err  # a file that can't be used


# -- usage errors ----------------------------------------------------------------------------------

USAGE_ERRORS = {
    "no command": ([], "required"),
    "unknown command": (["dance"], "invalid choice"),
    "unknown game": (["selfplay", "chess"], "unknown game 'chess'"),
    "rules of an unknown game": (["rules", "chess"], "unknown game"),
    "too many players": (["selfplay", "probe", "--players", "9"], "2–4 players, not 9"),
    "too few players": (["selfplay", "probe", "--players", "1"], "not 1"),
    "players not a number": (["selfplay", "probe", "--players", "x"], "--players"),
    "option without a value": (["selfplay", "probe", "--option", "nonsense"], "NAME=VALUE"),
    "unknown option": (["selfplay", "beltpunk", "--option", "colour=red"], "no option 'colour'"),
    "option value not allowed": (["selfplay", "beltpunk", "--option", "target=7"], "25, 35"),
    "option value of the wrong type": (["selfplay", "beltpunk", "--option", "target=many"], "25, 35"),
    "no games": (["selfplay", "probe", "--games", "0"], "--games"),
    "games not a number": (["selfplay", "probe", "--games", "two"], "--games"),
    "verify nothing": (["verify"], "FILE"),
    "bad profile name": (["id", "--profile", "../../etc"], "invalid profile name"),
    "join code that is no code": (["join", "not-a-code"], "not a join code"),
    "join code with a bad port": (["join", "example.org:99999"], "not a join code"),
    "join code with a bad fingerprint": (["join", "example.org:4000/nope"], "fingerprint"),
    "host an unknown game": (["host", "chess"], "unknown game"),
    "host with too many players": (["host", "probe", "--players", "5"], "not 5"),
    "host with more bots than seats": (["host", "probe", "--players", "3", "--bots", "3"], "--bots"),
    "host with negative bots": (["host", "probe", "--bots", "-1"], "--bots"),
    "host with a bad option": (["host", "beltpunk", "--option", "target=1"], "25, 35"),
    "host on a port that does not exist": (["host", "probe", "--port", "70000"], "--port"),
    "host on a negative port": (["host", "probe", "--port", "-1"], "--port"),
    "host on a port that is no number": (["host", "probe", "--port", "http"], "--port"),
    "play an unknown game": (["play", "chess"], "unknown game"),
    "play with too many players": (["play", "beltpunk", "--players", "7"], "not 7"),
}


@pytest.mark.parametrize("name", sorted(USAGE_ERRORS))
def test_usage_error_is_one_line_on_stderr(name, home):
    args, expected = USAGE_ERRORS[name]
    code, out, err = call(*args)
    assert code == 2, (out, err)
    assert not out
    assert len(err.splitlines()) == 1 and err.startswith("p2pgames"), err
    assert expected in err, err
    assert not (home / "identities").exists() or name == "bad profile name"  # nothing created


@pytest.mark.parametrize("args", [["host", "probe"], ["join", "127.0.0.1:4000"], ["join"], ["play", "probe"]])
def test_commands_that_need_a_terminal_say_so(args, home):
    code, out, err = call(*args)
    assert code == 2 and not out
    assert len(err.splitlines()) == 1 and "terminal" in err, err
    assert not (home / "identities").exists()  # no identity created for a game that can't start


def test_version_and_help():
    code, out, _ = call("--version")
    assert code == 0 and out.strip() == f"p2pgames {__version__}"
    code, out, _ = call("--help")
    assert code == 0 and all(command in out for command in ("host", "join", "play", "selfplay", "verify", "id", "rules"))


# -- rules -----------------------------------------------------------------------------------------


# What players are never shown: a test's name, a path into the code, the page's markers.
DEVELOPER_TEXT = re.compile(r"test_\w+|\w::|tests/|scripts/|\w\.py\b|<!--")


def test_rules_prints_the_rules_as_played_without_the_tests_that_prove_them():
    # Issue 22: `rules torpedo` carried a test's name on 136 of its 663 lines.
    code, out, err = call("rules", "torpedo")
    assert code == 0 and not err
    assert out.startswith("# Steam Torpedo — the rules as implemented\n")
    assert "## Players\n\nTwo players exactly.\n\n## Object\n" in out  # the rule, not its test
    page = resources.files("p2pgames.games.torpedo").joinpath("RULES.md").read_text(encoding="utf-8")
    assert "Two players exactly. — `test_torpedo_setup.py::test_game_identity_two_players_exactly`" in page


@pytest.mark.parametrize("name", list(PLAYABLE))
def test_every_playable_games_rules_hold_no_test_name_or_path_fit_80_columns_and_keep_every_rule_heading(name):
    # The menu and --help offer every registered game, and point at `p2pgames rules NAME`.
    code, out, err = call("rules", name)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert [line for line in lines if DEVELOPER_TEXT.search(line)] == []
    assert [line for line in lines if len(line) > 80] == []  # not a terminal: 80 columns
    page = resources.files(game_package(name)).joinpath("RULES.md").read_text(encoding="utf-8")
    assert re.search(TEST_REFERENCE, page)  # developers keep the map from rules to tests
    # Every heading outside the developers' text, in the page's order (then the variants').
    for_players = re.sub(r"<!-- developers -->.*?<!-- /developers -->", "", page, flags=re.DOTALL)
    headings = [line for line in for_players.splitlines() if line.startswith("#")]
    assert [line for line in lines if line.startswith("#")][: len(headings)] == headings


def test_the_rules_carry_torpedos_tile_texts_and_astonishings_inventor_sheets():
    from p2pgames.games.astonishing.cards import descriptors
    from p2pgames.games.torpedo.tiles import TILESET

    torpedo = call("rules", "torpedo")[1]
    for tile in TILESET.tiles.values():
        assert f"\n    {tile.name} ({tile.short}): " in torpedo, tile.name
    astonishing = call("rules", "astonishing")[1]
    for sheet in descriptors():
        assert f"\n    {sheet.inventor} (" in astonishing
        assert f"\n        10  {sheet.entry(2, 10)}" in astonishing


@pytest.mark.parametrize("name", ["probe", "dealbench"])
def test_rules_of_a_test_game_says_what_it_is_and_prints_its_rules(name):
    code, out, err = call("rules", name)
    assert (code, err) == (0, "")
    assert "one of the platform's test games, not offered to players" in out.splitlines()[0]
    assert len(out.splitlines()) > 5


@pytest.mark.parametrize("command", ["host", "play", "selfplay", "rules"])
def test_every_game_a_command_accepts_is_listed_in_its_help(command):
    """What is accepted and what is listed are one: the test games are accepted by their exact
    names (tests and benchmarks host and play them), so the help names them, as test games."""
    from p2pgames.games import PLAYABLE, TEST_GAMES

    code, out, _ = call(command, "--help")
    listed = " ".join(out.split())  # argparse wraps the help
    assert code == 0
    assert all(name in listed for name in PLAYABLE)
    assert f"for tests, the platform's test games: {', '.join(TEST_GAMES)}" in listed
    for name in TEST_GAMES:
        assert call("rules", name)[0] == 0


def _announcement(host, port):
    from p2pgames.net import Announcement

    return Announcement("192.168.1.7", "beltpunk", "Beltpunk Haberdasher", host, port, "k7x2-m7qa-r4tb-2hzd", 1, 3)


def test_join_without_a_code_takes_the_one_table_on_the_lan(monkeypatch, capsys):
    monkeypatch.setattr("p2pgames.net.find_tables", lambda: [_announcement("alice", 40123)])
    table = cli._find_table()
    assert str(table.join_code) == "192.168.1.7:40123/k7x2-m7qa-r4tb-2hzd"
    assert capsys.readouterr().out == "Looking for tables on this network …\n"  # the game says which (it's in its log)


def test_join_without_a_code_asks_which_of_several_tables(monkeypatch, capsys):
    answers = iter(["7", "2"])
    monkeypatch.setattr("p2pgames.net.find_tables", lambda: [_announcement("alice", 40123), _announcement("bob", 40124)])
    monkeypatch.setattr("builtins.input", lambda prompt: next(answers))
    assert cli._find_table().port == 40124
    out = capsys.readouterr().out
    assert "1. Beltpunk Haberdasher hosted by alice" in out and "Type a number from 1 to 2" in out


def test_join_without_a_code_and_no_table_on_the_lan_says_what_to_do(monkeypatch):
    monkeypatch.setattr("p2pgames.net.find_tables", lambda: [])
    with pytest.raises(cli.NetworkProblem, match="ask the host for the join code"):
        cli._find_table()


async def test_verify_accepts_the_honest_transcripts_of_a_game_stopped_by_a_wrong_ack_and_knows_a_desync_report(
    tmp_path, autojump_clock
):
    """After a peer acknowledges an entry with a wrong state, ``verify DIR/*`` verifies every
    honest transcript (the recorded desync is borne out by the recorded acknowledgements) and says
    what the desync reports in ``DIR/reports`` are, without failing on them."""
    import sys

    sys.path.insert(0, str(Path(__file__).parents[1] / "adversarial"))
    from cheaters import WrongAck
    from test_cheaters import play_with_cheater

    directory = tmp_path / "transcripts"
    table, _ = await play_with_cheater(directory, WrongAck)
    honest = [str(table.seats[seat].transcript) for seat in (0, 2)]
    reports = sorted((directory / "reports").iterdir())
    assert reports and all(path.name.startswith("desync-") for path in reports)
    code, out, err = call("verify", *honest, str(directory / "reports"))
    assert code == 0 and not err, out
    assert out.count("Verified.") == 2 and "NOT" not in out and "not a valid transcript" not in out, out
    assert out.count(f"The game stopped at entry {WrongAck.at}: desync, cheater (seat 1)") == 2, out
    for path in reports:
        assert f"{path}: a desync report, not a transcript: seat " in out, out
