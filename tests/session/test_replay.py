"""``p2pgames replay`` (issue 26): a transcript's game, entry by entry, shows each seat the table
its own screen showed then — the same state and the same knowledge, from the log alone — and the
stepping a player uses.

The live screens are recorded in a game played on the switchboard: after every entry a seat took
in, the game's panels as its screen drew them (the session's state and knowledge, 80 columns)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from switchboard import Switchboard

from p2pgames.bots import bot_for
from p2pgames.games import get_game, get_presentation
from p2pgames import canonical
from p2pgames.session import TranscriptError, encode_record, replay_transcript
from p2pgames.tui._panels import layout_panels
from p2pgames.tui._replay import replay_panels, replay_text
from p2pgames.tui._text import plain
from p2pgames.tui._theme import Theme

VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors"
GAMES = [("beltpunk", 2), ("steamcourt", 3), ("steamcourt2015", 3), ("astonishing", 3), ("torpedo", 2)]


def table_text(panels) -> list[str]:
    return [plain(line).rstrip() for line in layout_panels(panels, 80, Theme(False))]


def played_with_screens(game: str, players: int, seed: bytes) -> tuple[Switchboard, list[dict[int, list]]]:
    """A whole game; by seat, the panels its screen showed after each entry it took in."""
    # (Steam Torpedo's quick bot: its default one searches, seconds a move.)
    bots = [bot_for(get_game(game), seed + bytes([seat]), "heuristic") for seat in range(players)] if game == "torpedo" else None
    board = Switchboard(game, players, seed=seed, bots=bots)
    screens: list[dict[int, list]] = [{} for _ in range(players)]
    for seat, session in enumerate(board.sessions):
        # A session acknowledges an entry once it has taken it in: its keys, what it learnt.
        acknowledge = session._acknowledge

        def recorded(seq, *rest, seat=seat, session=session, acknowledge=acknowledge):
            shown = get_presentation(game).for_ruleset(session.ruleset)
            screens[seat][seq] = list(shown.panels(session.replica.state, seat, session.knowledge, session.names))
            return acknowledge(seq, *rest)

        session._acknowledge = recorded
    board.run()
    board.check_finished_and_verified()
    return board, screens


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_each_seat_replays_the_table_its_screen_showed_after_every_entry(game, players):
    board, screens = played_with_screens(game, players, b"replay-" + game.encode())
    for seat in range(players):
        replay = replay_transcript(bytes(board.transcripts[seat]), get_presentation)
        assert replay.stopped is None and replay.seat == seat
        assert replay.entries == board.sessions[seat].replica.seq
        assert sorted(screens[seat]) == list(range(replay.entries))
        for entry, shown in screens[seat].items():
            index = replay.step_of_entry(entry)
            assert replay_panels(replay, index, seat, every_card=False) == shown, (seat, entry)
        entry = max(screens[seat])
        text = replay_text(replay, replay.step_of_entry(entry), seat, every_card=False)
        assert "\n".join(table_text(screens[seat][entry])) in text


@pytest.mark.parametrize("path", sorted(VECTORS.glob("session-*.p2pt")), ids=lambda path: path.stem)
def test_a_transcript_written_before_replay_existed_replays_to_its_end(path):
    """The transcript vectors were written by earlier versions (and stay as they are). One stops
    at a fault (``-dispute``): its replay ends with the entry before, and says why."""
    stopped = json.loads(path.with_suffix(".json").read_text()).get("stopped")
    replay = replay_transcript(path.read_bytes(), get_presentation)
    if stopped is None:
        assert replay.stopped is None
    else:
        assert replay.stopped is not None and replay.stopped.startswith(f"entry {stopped['entry']} can't be replayed")
        assert replay.entries == stopped["entry"]
    assert replay.entries > 0
    last = len(replay.steps) - 1
    for seat in (replay.seat, None):
        text = replay_text(replay, last, seat, every_card=seat is None)
        assert replay.game.title in text and f"entry {replay.entries - 1} of {replay.entries - 1}" in text
        assert all(len(line) <= 80 for line in text.splitlines()), text


def test_every_card_shows_each_seats_cards_and_a_seat_sees_only_its_own():
    path = VECTORS / "session-astonishing-3p.p2pt"
    replay = replay_transcript(path.read_bytes(), get_presentation)
    index = replay.step_of_entry(150)
    own = replay.knowledge(index, 1)
    every = replay.knowledge(index, None)
    state = replay.steps[index].state
    hands = {seat: set(replay.game.kept_slots(state, seat)) for seat in range(3)}
    assert hands[0] and hands[0].isdisjoint(own) and hands[0] <= set(every)
    assert hands[1] <= set(own)
    text = replay_text(replay, index, 1, every_card=True)
    assert "Every card" in text and " · every card" in text


def test_stepping_by_move_and_by_round():
    replay = replay_transcript((VECTORS / "session-beltpunk-2p.p2pt").read_bytes(), get_presentation)
    last = len(replay.steps) - 1
    moves = [0]
    while moves[-1] != last:
        moves.append(replay.next_move(moves[-1]))
    assert all(replay.lines(index) for index in moves[1:-1]) and len(moves) > 20
    # Back again, move by move, to the start: the same stops.
    back = [last]
    while back[-1] != 0:
        back.append(replay.previous_move(back[-1]))
    assert sorted(back) == sorted(set(moves) | {0})
    rounds = [0]
    while rounds[-1] != last:
        rounds.append(replay.next_round(rounds[-1]))
    labels = [replay.round_of(index) for index in rounds[:-1]]
    assert labels[:3] == [None, "round 1", "round 2"] and len(set(labels)) == len(labels)
    # The round's start, then the round before's.
    middle = rounds[2] + 3
    assert replay.previous_round(middle) == rounds[2] and replay.previous_round(rounds[2]) == rounds[1]


def test_an_entry_not_in_the_log_is_named_with_the_entries_there_are():
    replay = replay_transcript((VECTORS / "session-probe-3p.p2pt").read_bytes(), get_presentation)
    with pytest.raises(ValueError, match=rf"there is no entry {replay.entries}: the log's entries are 0 to {replay.entries - 1}"):
        replay.step_of_entry(replay.entries)
    with pytest.raises(ValueError, match="there is no entry -1"):
        replay.step_of_entry(-1)


def test_a_transcript_cut_short_replays_up_to_the_cut_and_a_file_of_another_kind_is_refused():
    data = (VECTORS / "session-probe-3p.p2pt").read_bytes()
    whole = replay_transcript(data, get_presentation)
    cut = replay_transcript(data[: len(data) * 2 // 3], get_presentation)
    assert cut.cut_short and 0 < cut.entries < whole.entries
    with pytest.raises(TranscriptError, match="not a p2pgames transcript"):
        replay_transcript(encode_record(canonical.encode(["hello", {}])) + data, get_presentation)
    with pytest.raises(TranscriptError, match="the file is empty"):
        replay_transcript(b"", get_presentation)
