"""A transcript folder deleted while the game runs (issue 22, point 14): the screen says so and
where the transcript went, and the farewell names that file, whole (it verifies)."""

from __future__ import annotations

import shutil

import pytest
import trio

from p2pgames.games import get_game
from p2pgames.net import _transcript_file
from p2pgames.session import verify_transcript
from p2pgames.tui import run_terminal_game
from tui_tables import SizedOutput, Table, unwrapped


@pytest.mark.parametrize("columns, rows", [(80, 24), (120, 40)])
def test_a_deleted_transcript_folder_is_noticed_and_the_farewell_names_the_saved_copy(
    pipe, deadline, capsys, tmp_path, monkeypatch, columns, rows
):
    folder = tmp_path / "transcripts"
    fallback = tmp_path / "fallback"
    monkeypatch.setattr(_transcript_file, "fallback_directory", lambda: fallback)
    table = Table(pipe, transcripts=folder)
    written = []

    noticed = trio.Event()

    async def script(table: Table) -> None:
        await table.next_decision()
        written.extend(folder.glob("*.p2pt"))
        shutil.rmtree(folder)

        async def notice() -> None:
            # Said once, in the log, as the next entry is written: watched from then on, since
            # later lines scroll it away, and joined where it wraps (the path's length varies).
            await table.screen.wait_until(lambda: "was deleted (or its folder was)" in unwrapped(table.screen.text()))
            noticed.set()

        async with trio.open_nursery() as nursery:
            nursery.start_soon(notice)
            await table.play_to_the_end()
            await table.screen.wait_for("Press q or Enter to leave")
            with trio.fail_after(5):
                await noticed.wait()
        table.type("x")

    code = run_terminal_game(
        table.setup(script), title="Probe", input=table.pipe, output=SizedOutput(columns, rows),
        on_screen=table.on_screen,
    )
    assert code == 0
    [saved] = fallback.glob("*.p2pt")
    assert [path.name for path in written] == [saved.name]
    session = table.human.session
    assert capsys.readouterr().out == (
        f"Game over: {session._result_text(session.result)}\n"
        f"Your transcript of the game: {saved}\n"
        f"Check it at any time: p2pgames verify {saved}\n"
    )
    assert not folder.exists()
    report = verify_transcript(saved.read_bytes(), get_game)
    assert report.ok and report.complete, report.describe()
