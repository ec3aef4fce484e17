"""Astonishing! at the terminal, 80×24: a whole real game on a loopback table, the human typing
into a pipe what the game's bot would play in its seat, two bot peers at the other seats. Each
kind of moment fits the screen with nothing cut: a turn (the table, the inventors, the workshop
with the hand, roster and positions), a trade (the offer, the answers, a face-down one as a
blank), a grouped list narrowed by its number, completion, the exhibition (the fair's dice and
every position), and the game's end."""

from __future__ import annotations

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input

from p2pgames.games import get_game
from p2pgames.games.astonishing.bots import make_bot
from p2pgames.tui import run_terminal_game
from p2pgames.tui._completion import ChoiceCompleter
from tui_tables import SizedOutput, Table

GAME = get_game("astonishing")
COLUMNS, ROWS = 80, 24


@pytest.fixture
def pipe():
    with create_pipe_input() as pipe:
        yield pipe


def fits(screen: str) -> str:
    """``screen`` checked to fit 80×24 with nothing hidden: no panel cut short, no line wider
    than the terminal."""
    lines = screen.splitlines()
    assert len(lines) <= ROWS and all(len(line) <= COLUMNS for line in lines), screen
    assert "more · F2" not in screen and "more rows" not in screen, screen
    return screen


def as_the_bot(table: Table):
    """What the game's bot would play in the human's seat, as the text the human types."""
    bot = make_bot(b"the human's bot")

    def pick(decision) -> str:
        session = table.human.session
        action = bot.choose(GAME, session.replica.state, session.seat, session.knowledge, decision.step)
        return decision.texts[decision.actions.index(action)]

    return pick


async def answer(table: Table, decision, text: str) -> None:
    """Type ``text`` for ``decision`` and wait until the session has taken it."""
    table.type(text + "\r")
    await table.human.wait_until(lambda: table.human.session.decision() != decision)


def completions(decision, typed: str) -> list[str]:
    completer = ChoiceCompleter(lambda: decision)
    return [c.text for c in completer.get_completions(Document(typed), CompleteEvent(completion_requested=True))]


def test_a_whole_game_at_80x24_a_turn_a_trade_the_exhibition_and_the_end(pipe, deadline):
    table = Table(pipe, game="astonishing", players=3, seed=b"tui-astonishing")
    shown: dict[str, object] = {}

    async def script(table: Table) -> None:
        screen = table.screen
        pick = as_the_bot(table)
        session = table.human.session
        decision = await table.next_decision()
        await screen.wait_for("Your move — choose your Inventor")
        await answer(table, decision, "inventor hearts")
        decision, _ = await table.play_until(lambda decision: "choose an action card" in decision.step.prompt, pick)
        await screen.wait_for("Your move — choose an action card")
        shown["turn"] = fits(screen.text())
        shown["completions"] = completions(decision, "ch")
        await answer(table, decision, "choose jack")  # a trade of ours
        decision, _ = await table.play_until(lambda decision: decision.step.prompt.startswith("offer cards"), pick)
        await screen.wait_for("Your move — offer cards to trade")
        await answer(table, decision, decision.texts[0])
        decision, _ = await table.play_until(lambda decision: decision.step.prompt.startswith("accept an answer"), pick)
        await screen.wait_for("Your move — accept an answer")
        shown["trade"] = fits(screen.text())
        state = session.replica.state
        shown["face-down"] = any(not up for seat in range(3) for _, up in state.answer_of(seat))
        await answer(table, decision, "withdraw")
        # A build: the list is grouped a line per position; a line's number shows its parts.
        decision, _ = await table.play_until(lambda decision: decision.step.prompt.startswith("build"), pick)
        await screen.wait_for("Your move — build: install cards face down")
        table.type("1\r")
        await screen.wait_for("(empty line: all choices)")
        shown["narrowed"] = fits(screen.text())
        table.type("\r")
        await answer(table, decision, pick(decision))
        decision, _ = await table.play_until(lambda decision: decision.step.prompt.startswith("describe"), pick)
        await screen.wait_for("Your move — describe your contraption")
        shown["describe"] = fits(screen.text())
        await table.play_to_the_end(pick)
        await screen.wait_for("Press q or Enter to leave")
        shown["end"] = screen.text()
        table.type("x")

    assert run_terminal_game(
        table.setup(script), title="Astonishing!", color=False, input=table.pipe,
        output=SizedOutput(COLUMNS, ROWS), on_screen=table.on_screen,
    ) == 0
    turn = shown["turn"]
    assert "Turn " in turn and "deck " in turn and "Inventors" in turn
    assert "Your workshop —" in turn and "Marisol Chang" in turn and "(Hearts ♥)" in turn, turn
    assert "Hand: " in turn and "roster J Q K" in turn
    assert "1 form" in turn and "2 workings" in turn and "3 wonder" in turn
    assert shown["completions"] == ["choose jack", "choose queen", "choose king"]
    trade = shown["trade"]
    assert "Trade │ alice offers " in trade and "│ answers: " in trade, trade
    assert ("▒" in trade) == shown["face-down"]  # a face-down answer is a blank to us, and only it
    assert "build " in shown["narrowed"] and " at 1" in shown["narrowed"]
    assert "The Fair" in shown["describe"] and "described: " in shown["describe"]
    end = shown["end"]
    assert "Game over: " in end and "Acclaim" in end
