"""Adjourning from the terminal (issue 26, point 6): ``adjourn`` asks everyone; a player asked
answers with one key; once all agree, the screen closes with the line that says how to go on.
Against bots of one's own (``play``), quitting offers to adjourn."""

from __future__ import annotations

from p2pgames.session import AdjournAsked, Adjourned
from p2pgames.tui import run_terminal_game
from tui_tables import SizedOutput, Table


def run(table: Table, script) -> int:
    return run_terminal_game(
        table.setup(script), title="Probe", color=False, input=table.pipe, output=SizedOutput(80, 24),
        on_screen=table.on_screen,
    )


def test_quitting_at_a_table_of_our_own_bots_offers_to_adjourn_and_a_does(pipe, deadline, capsys):
    table = Table(pipe, launched=2)

    async def script(table: Table) -> None:
        await table.next_decision()
        table.type("quit\r")
        await table.screen.wait_for("Leave the game?  a adjourn: resume later  y end it  n stay")
        table.type("a")

    assert run(table, script) == 0
    human = table.human.session
    assert human.adjourned and human.seat_kept and human.fault is None
    for bot in table.bots:
        assert bot.session.adjourned and bot.session.fault is None
    out = capsys.readouterr().out
    assert out.startswith("Adjourned after ") and "as everyone agreed; your seat is saved." in out
    assert "To go on, you host the table: run p2pgames resume first, then the others run it too." in " ".join(out.split())


def test_adjourn_asks_everyone_and_the_bots_agree(pipe, deadline, capsys):
    table = Table(pipe, human_hosts=False)  # bots, not ours: asked all the same, and they agree

    async def script(table: Table) -> None:
        await table.next_decision()
        table.type("adjourn\r")

    assert run(table, script) == 0
    assert all(bot.session.adjourned for bot in table.bots)
    assert all(bot.events_of(AdjournAsked) for bot in table.bots[1:])
    out = " ".join(capsys.readouterr().out.split())
    assert "To go on, the host, bot-host, runs p2pgames resume first, then you run p2pgames resume." in out


def test_a_player_asked_to_adjourn_answers_n_and_the_game_goes_on(pipe, deadline):
    table = Table(pipe, human_hosts=False)
    shown = {}

    async def script(table: Table) -> None:
        await table.next_decision()
        host = table.bots[0]
        host.session.bot = False  # a person at the host: asks, and does not agree by itself
        host.node.adjourn()
        await table.screen.wait_for("Adjourn: stop here, go on later with p2pgames resume?")
        shown["asked"] = table.screen.text()
        table.type("n")
        await table.screen.wait_for("You would rather play on: the game goes on.")
        await table.play_to_the_end()
        await table.screen.wait_for("Press q or Enter to leave")
        table.type("q")

    assert run(table, script) == 0
    assert "bot-host asks to adjourn" in shown["asked"]
    assert table.human.session.result is not None and not table.human.events_of(Adjourned)
