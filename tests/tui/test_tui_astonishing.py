"""Astonishing! at the terminal, 80×24: a whole real game on a loopback table, the human typing
into a pipe what the game's bot would play in its seat, two bot peers at the other seats. Each
kind of moment fits the screen with nothing cut: the choice of Inventors (every sheet, the
Inventors by name), a turn (the table, the inventors, the workshop with the hand, roster, Queen
and positions, beside the panel titles), a trade (the offer, the answers, a face-down one as a
blank), a grouped list narrowed by its number, completion, the exhibition (the fair's dice and
every position; after Intimidate, the reliability it gives and no stale total), and the game's
end. At 120×40 the log has the screen's width below the table, an Inventor another player took is
refused saying who, and the cards a Queen brings are named in the player's own log."""

from __future__ import annotations

import re

from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from p2pgames.games import get_game
from p2pgames.games.astonishing.bots import make_bot
from p2pgames.tui import run_terminal_game
from p2pgames.tui._completion import ChoiceCompleter
from tui_tables import SizedOutput, Table, unwrapped

GAME = get_game("astonishing")
COLUMNS, ROWS = 80, 24


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


async def start(table: Table, inventor: str, refused: str = "") -> str:
    """Once the screen asks for the human's Inventor: type ``refused`` first, if given, and wait
    for its refusal; then choose ``inventor`` (typed). Returns the screen as it asked (or, with
    ``refused``, as it refused)."""
    decision = await table.next_decision()
    await table.screen.wait_for("Your move — choose your Inventor")
    if refused:
        table.type(f"{refused}\r")
        await table.screen.wait_for(f"“{refused}” isn't possible now: ")
    asked = table.screen.text()
    await answer(table, decision, inventor)
    return asked


async def finish(table: Table, pick) -> str:
    """Play the rest of the game as ``pick`` says, and leave once the screen says how; returns
    the screen as the game ended."""
    await table.play_to_the_end(pick)
    await table.screen.wait_for("Press q or Enter to leave")
    ended = table.screen.text()
    table.type("x")
    return ended


def run(table: Table, script, columns: int = COLUMNS, rows: int = ROWS) -> int:
    """Play ``table`` at a terminal of ``columns`` × ``rows``, the human as ``script`` says."""
    return run_terminal_game(
        table.setup(script), title="Astonishing!", color=False, input=table.pipe,
        output=SizedOutput(columns, rows), on_screen=table.on_screen,
    )


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
        shown["inventors"] = fits(await start(table, "marisol"))  # a start of her name
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
        shown["end"] = await finish(table, pick)

    assert run(table, script) == 0
    inventors = shown["inventors"]
    for sheet in ("♣ Lady Calibrette Merchant", "♦ Abimbola Kayin", "♥ Marisol Chang", "♠ Albert Smithering"):
        assert f"│ {sheet}" in inventors, inventors
    assert "│   Queen: take 1 at random from a rival, draw 2, give 1 back" in inventors
    assert "│   Fair Queen: turn one die 1 or 2 up or down" in inventors
    assert "1 Lady Calibrette Merchant (clubs)   2 Abimbola Kayin (diamonds)" in inventors
    assert "3 Marisol Chang (hearts)   4 Albert Smithering (spades)" in inventors
    turn = shown["turn"]
    assert "Turn " in turn and "deck " in turn and "Inventors │" in turn
    assert all("Log" in row for row in turn.splitlines() if "── " in row)  # no panel heading: all beside their titles
    # The workshop's title wraps between words in the titles' column: never "(Hearts" / "♥)".
    rows = turn.splitlines()
    at = next(index for index, row in enumerate(rows) if row.startswith(" Your workshop — │"))
    assert rows[at + 1].startswith(" Marisol Chang ♥ │"), rows[at : at + 2]
    assert "Hand: " in turn and "roster J Q K" in turn
    assert "│ Queen: take 1 at random from a rival, draw 2, give 1 back" in turn
    assert "│ 1 form" in turn and "│ 2 workings" in turn and "│ 3 wonder" in turn
    assert shown["completions"] == ["choose jack", "choose queen", "choose king"]
    trade = shown["trade"]
    assert "Trade │ alice offers " in trade and "│ answers: " in trade, trade
    assert ("▒" in trade) == shown["face-down"]  # a face-down answer is a blank to us, and only it
    assert "build " in shown["narrowed"] and " at 1" in shown["narrowed"]
    assert "The Fair" in shown["describe"] and "described: " in shown["describe"]
    end = shown["end"]
    assert "Game over: " in end and "Acclaim" in end


def test_after_intimidate_the_fair_shows_its_reliability_and_the_workshop_no_stale_total(pipe, deadline):
    table = Table(pipe, game="astonishing", players=3, seed=b"tui-astonishing")
    shown: dict[str, object] = {}

    async def script(table: Table) -> None:
        screen = table.screen
        pick = as_the_bot(table)
        session = table.human.session
        await start(table, "lady")  # Lady Calibrette Merchant: Clubs, whose Queen intimidates
        decision, _ = await table.play_until(lambda decision: decision.step.prompt.startswith("choose Queen or King"), pick)
        await answer(table, decision, "queen")
        decision, _ = await table.play_until(lambda decision: "Queen at the exhibition" in decision.step.prompt, pick)
        text = next(text for text in decision.texts if text.startswith("intimidate position"))
        position = int(text.split()[-1]) - 1
        await answer(table, decision, text)
        await screen.wait_for(f"alice intimidates: position {position + 1} counts 2 more.")
        state = session.replica.state
        shown["screen"] = fits(screen.text())
        shown["reliability"] = state.reliability(0, position)
        shown["position"] = position
        await finish(table, pick)

    assert run(table, script) == 0
    screen = shown["screen"]
    (fair,) = [row for row in screen.splitlines() if "│ alice    " in row and ("✓" in row or "✗" in row)]
    parts = fair.split("│ alice    ")[1].split(" · ")
    assert f"= {shown['reliability']} " in parts[shown["position"]], fair
    assert "│ Queen: a position of yours counts 2 more (to 15)" in screen
    assert "│ 1 form" not in screen and "│ 2 workings" not in screen  # the fair alone shows the positions


def test_at_120x40_the_log_spans_the_screen_below_the_table_and_a_taken_inventor_is_refused_saying_who(
    pipe, deadline,
):
    # Here the bots choose first: bot-1 Lady Calibrette Merchant (Clubs), bot-2 Albert Smithering.
    table = Table(pipe, game="astonishing", players=3, seed=b"wide-2")
    shown: dict[str, str] = {}

    async def script(table: Table) -> None:
        screen = table.screen
        pick = as_the_bot(table)
        shown["taken"] = await start(table, "marisol", refused="inventor clubs")
        table.type("sheet\r")  # her Inventor sheet, descriptor lists in full, in the log
        await screen.wait_for("Marisol Chang's sheet (Hearts ♥):")
        shown["sheet"] = screen.text()
        decision = await table.next_decision()
        await answer(table, decision, "choose queen")
        decision, _ = await table.play_until(lambda decision: decision.step.prompt == "use your Queen", pick)
        await screen.wait_for("Your move — use your Queen")
        shown["turn"] = screen.text()
        await answer(table, decision, decision.texts[0])  # take from a rival, at random
        await screen.wait_for("The card you take from ")
        await screen.wait_for("Your move — choose the card to give back")
        shown["taken-card"] = screen.text()
        table.type("\x03")
        await screen.wait_for("Leave the game?")
        table.type("y")

    assert run(table, script, 120, 40) == 0
    assert unwrapped(shown["taken"]).count(
        "“inventor clubs” isn't possible now: bot-1 plays Lady Calibrette Merchant already: choose Abimbola Kayin (diamonds) "
        "or Marisol Chang (hearts)."
    ) == 1, shown["taken"]
    sheet = unwrapped(shown["sheet"])
    assert "Form: 1 a street singer's barrel organ; 2 a music box shaped like a Lima balcony;" in sheet
    assert "10 an impossible cathedral of light and music; 11 (your Ace) " in sheet
    for screen in (shown["turn"], shown["taken-card"]):
        rows = screen.splitlines()
        assert all(len(row) <= 120 for row in rows)
        rule = next(row for row in rows if "── Log " in row)
        assert rule.startswith("── Log "), screen  # below the table, the screen's whole width
        assert not any("│──" in row for row in rows)
    rows = shown["taken-card"].splitlines()
    taken = [row for row in rows if row.startswith("The card you take from ")]
    assert len(taken) == 1 and re.fullmatch(r"The card you take from bot-[12]'s hand is ((\d+|A)[♣♦♥♠]|a Joker)\.", taken[0])
    assert any(re.fullmatch(r"You draw .+\.", row) for row in rows), shown["taken-card"]
