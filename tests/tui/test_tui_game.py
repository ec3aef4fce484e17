"""Whole games through the terminal UI: real peers over loopback, the human typing into a pipe."""

from __future__ import annotations

import signal

import pytest
import trio
from prompt_toolkit.output import ColorDepth

from p2pgames.crypto import Identity
from p2pgames.games import get_game, get_presentation
from p2pgames.net import Node
from p2pgames.session import ChatReceived, FaultCode, Halted, Session, make_envelope
from p2pgames.tui import run_terminal_game
from tui_tables import SizedOutput, Table


def run(table: Table, script, *, columns: int = 80, rows: int = 24, color: bool = True) -> int:
    return run_terminal_game(
        table.setup(script), title="Probe", color=color, input=table.pipe, output=SizedOutput(columns, rows),
        on_screen=table.on_screen,
    )


def test_a_whole_game_played_by_typing_the_first_choice(pipe, deadline, capsys):
    table = Table(pipe)
    shown = {}

    async def script(table: Table) -> None:
        decision = await table.next_decision()
        await table.screen.wait_for("Your move — ")
        shown["first"] = table.screen.text()
        assert decision.texts[0] in shown["first"]
        shown["typed"] = await table.play_to_the_end()
        await table.screen.wait_for("Press q or Enter to leave")
        shown["end"] = table.screen.text()
        table.type("x")

    assert run(table, script) == 0
    session = table.human.session
    assert session.result is not None and session.fault is None
    assert shown["typed"] >= 3  # two rounds of cards, at least
    assert "Game over" in shown["end"] and "Scores:" in shown["end"]
    for bot in table.bots:
        assert bot.session.result == session.result
    # What the full screen showed last stays in the terminal.
    assert capsys.readouterr().out.startswith("Game over: ")


def test_choices_can_be_picked_by_number(pipe, deadline):
    table = Table(pipe)

    async def script(table: Table) -> None:
        decision = await table.next_decision()
        choice = len(decision.texts)
        table.type(f"{choice}\r")
        await table.screen.wait_for(f"› {decision.texts[choice - 1]}")
        await table.play_to_the_end()
        await table.screen.wait_for("Press q or Enter to leave")
        table.type("\r")

    assert run(table, script) == 0


def test_unknown_input_and_bad_numbers_change_nothing(pipe, deadline):
    table = Table(pipe)

    async def script(table: Table) -> None:
        decision = await table.next_decision()
        session = table.human.session
        counter = session.replica.counters[session.seat]
        table.type("fly to the moon\r")
        await table.screen.wait_for("“fly to the moon” is not one of your choices")
        table.type("/me waves\r")
        await table.screen.wait_for("To chat, type say and your message")
        table.type("99\r")
        await table.screen.wait_for(f"There is no choice 99: pick a number from 1 to {len(decision.texts)}")
        # The decision is still open and nothing was submitted for this seat.
        assert session.replica.counters[session.seat] == counter
        assert session.decision() is not None and session.decision().texts == decision.texts
        table.type(decision.texts[0] + "x\r")  # almost a choice: suggested, not played
        await table.screen.wait_for("Did you mean")
        assert session.replica.counters[session.seat] == counter
        table.type("quit\r")
        await table.screen.wait_for("Leave the game?")
        table.type("y")

    assert run(table, script) == 0


def test_chat_reaches_the_other_peers(pipe, deadline):
    table = Table(pipe)

    async def script(table: Table) -> None:
        await table.next_decision()
        table.type("say good luck, brass hats\r")
        for bot in table.bots:
            await bot.wait_until(lambda: bot.events_of(ChatReceived))
        await table.screen.wait_for("alice: good luck, brass hats")
        table.type("\x03")  # Ctrl-C asks first,
        await table.screen.wait_for("Leave the game?")
        table.type("\x03")  # and a second Ctrl-C leaves.

    assert run(table, script) == 0
    for bot in table.bots:
        [chat] = bot.events_of(ChatReceived)
        assert (chat.name, chat.text, chat.seat) == ("alice", "good luck, brass hats", 0)


def test_quit_tells_the_others_who_left(pipe, deadline):
    table = Table(pipe, human_hosts=False)  # a joiner's leave goes through the host to the rest

    async def script(table: Table) -> None:
        await table.next_decision()
        table.type("quit\r")
        await table.screen.wait_for("Leave the game?  b a bot plays on, cards shown  y end it for all  n stay")
        table.type("y")

    assert run(table, script) == 0
    for bot in table.bots:
        fault = bot.session.fault
        assert fault is not None and fault.code == FaultCode.LEFT
        assert "alice" in fault.reason and "left the game (quit)" in fault.reason
        assert any("alice" in event.message for event in bot.events_of(Halted))


def test_quit_may_hand_the_seat_to_a_bot_and_the_others_play_on(pipe, deadline, capsys):
    table = Table(pipe, human_hosts=False)
    shown: dict[str, str] = {}

    async def script(table: Table) -> None:
        await table.next_decision()
        table.type("quit\r")
        await table.screen.wait_for("b a bot plays on, cards shown")
        table.type("b")
        await table.screen.wait_for("Handing your seat to a bot as soon as it can be")

    run(table, script)
    host = table.bots[0].session
    assert set(host.replica.open_seats) == {1} and host.fault is None
    assert all(bot.session.fault is None for bot in table.bots)
    printed = capsys.readouterr()
    assert "You left the game; a bot plays your seat, your cards shown to everyone, and the others play on." in (
        printed.out + printed.err
    )


def test_a_peer_leaving_stops_the_game_and_says_who(pipe, deadline, capsys):
    table = Table(pipe)

    async def script(table: Table) -> None:
        await table.next_decision()
        leaver = table.bots[0]
        leaver.node.leave("quit")
        await table.screen.wait_for("Press q or Enter to leave")
        text = table.screen.text()
        assert f"{leaver.session.name} (seat {leaver.session.seat}) left the game" in text
        table.type("q")

    assert run(table, script) == 1
    assert "left the game" in capsys.readouterr().err


@pytest.mark.parametrize("columns, rows", [(80, 24), (120, 40)])
def test_a_peer_that_stops_the_game_on_a_claim_nobody_can_check_is_named_for_it(pipe, deadline, columns, rows):
    """Issue 23, point 5: a bot sends a fault naming nobody, with no evidence. Before, the screen
    said it stopped the game and that nobody is blamed; now it says that bot stopped the game, as a
    leave names the leaver."""
    table = Table(pipe)
    shown = {}

    async def script(table: Table) -> None:
        await table.next_decision()
        walker = table.bots[0]
        session = walker.session
        session.role.tell_table(make_envelope(session.identity, "fault", {
            "game_id": session.game_id, "culprit": None, "code": FaultCode.OVERSIZE,
            "reason": "something was too big", "seq": session.replica.seq, "evidence": [],
        }))
        walker.node._flush()
        await table.screen.wait_for("Press q or Enter to leave")
        shown["end"] = " ".join(line.strip() for line in table.screen.lines())
        table.type("q")

    assert run(table, script, columns=columns, rows=rows) == 1
    assert (
        "The game stopped: bot-1 (seat 1) stopped the game, claiming someone sent an oversize frame, in its "
        "words: “something was too big”; the claim is unproven."
    ) in shown["end"], shown["end"]
    assert "nobody is blamed" not in shown["end"]


def test_a_joiner_turned_away_is_told_why_in_one_line_and_no_screen_opens(pipe, deadline, capsys):
    table = Table(pipe, players=2, bots=2, human_hosts=False, late=True)  # the bots fill the table

    async def script(table: Table) -> None:
        raise AssertionError("the screen opened")

    assert run(table, script) == 1
    assert table.screen is None
    assert capsys.readouterr().err == (
        f"Connecting to 127.0.0.1:{table.port} …\n"
        "Connected; waiting for the host to seat you …\n"
        f"p2pgames: could not join the table at 127.0.0.1:{table.port}: the game has already started\n"
    )


def test_a_host_with_another_key_than_the_join_code_is_refused_before_any_screen(pipe, deadline, capsys):
    wrong = "aaaa-bbbb-cccc-dddd"
    table = Table(pipe, players=2, bots=1, human_hosts=False, join_fingerprint=wrong)

    async def script(table: Table) -> None:
        raise AssertionError("the screen opened")

    assert run(table, script) == 1
    assert table.screen is None
    real = table.bots[0].session.identity.public_key.fingerprint()
    assert capsys.readouterr().err == (
        f"Connecting to 127.0.0.1:{table.port} …\n"
        "Connected; waiting for the host to seat you …\n"
        f"p2pgames: could not join the table at 127.0.0.1:{table.port}: the host's key {real} does not match "
        f"the join code ({wrong}); someone else may be answering at that address\n"
    )


def test_answering_no_keeps_playing(pipe, deadline):
    table = Table(pipe)

    async def script(table: Table) -> None:
        await table.next_decision()
        table.type("\x04")  # Ctrl-D on an empty line is quit too
        await table.screen.wait_for("Leave the game?")
        table.type("n")
        await table.screen.wait_for("Your move — ")
        assert not table.human.node.finished.is_set()
        await table.play_to_the_end()
        await table.screen.wait_for("Press q or Enter to leave")
        table.type("q")

    assert run(table, script) == 0


def test_help_shows_the_game_rules_and_the_commands(pipe, deadline):
    table = Table(pipe)

    async def script(table: Table) -> None:
        await table.next_decision()
        table.type("help\r")
        await table.screen.wait_for("Commands")
        text = table.screen.text()
        assert "Probe: how to play" in text
        for command in ("say TEXT", "help", "log", "table", "quit", "Ctrl-C"):
            assert command in text
        table.type("\x1b")  # Esc: back to the table
        await table.screen.wait_until(lambda: "Commands" not in table.screen.text())
        assert "Your move — " in table.screen.text()
        table.type("quit\r")
        await table.screen.wait_for("Leave the game?")
        table.type("y")

    assert run(table, script) == 0


def test_the_lobby_shows_seats_and_join_code_and_quits_without_asking(pipe, deadline):
    table = Table(pipe, players=3, bots=1)  # one seat stays empty: the game never starts

    async def script(table: Table) -> None:
        await table.human.wait_until(lambda: table.human.session.lobby_size == 2)
        await table.screen.wait_for("Seats 2/3")
        text = table.screen.text()
        assert f"Join code: 127.0.0.1:{table.port}" in text
        assert "waiting for a player…" in text
        table.type("say anyone there?\r")  # chat works in the lobby: people say hello
        [bot] = table.bots
        await bot.wait_until(lambda: bot.events_of(ChatReceived))
        await table.screen.wait_for("alice: anyone there?")
        [chat] = bot.events_of(ChatReceived)
        assert (chat.seat, chat.name, chat.text) == (0, "alice", "anyone there?")
        table.type("play c1\r")
        await table.screen.wait_for("the game hasn't started yet")
        table.type("quit\r")

    assert run(table, script) == 0


def test_the_lobby_shows_a_bot_launched_here_apart_from_a_seat_that_says_it_is_one(pipe, deadline):
    """bot-1 was launched by alice's process; bot-2 is a peer whose hello says it is a bot,
    which anyone can say."""
    table = Table(pipe, players=4, bots=2, launched=1)  # one seat stays empty: the game never starts

    async def script(table: Table) -> None:
        await table.human.wait_until(lambda: table.human.session.lobby_size == 3)
        await table.screen.wait_for("bot-2 took seat 2")
        text = table.screen.text()
        assert "bot-1 took seat 1 (a bot launched here)." in text
        assert "bot-2 took seat 2 (says it is a bot)." in text
        lines = table.screen.lines()
        assert any(line.strip().endswith("1 bot-1 bot") for line in lines), text
        assert any(line.strip().endswith("2 bot-2 (says it is a bot)") for line in lines), text
        table.type("quit\r")

    assert run(table, script) == 0


@pytest.mark.parametrize("columns, rows", [(80, 24), (132, 40)])
def test_the_screen_fits_the_terminal(pipe, deadline, columns, rows):
    table = Table(pipe, players=4)

    async def script(table: Table) -> None:
        decision = await table.next_decision()
        await table.screen.wait_for("Your move — ")
        lines = table.screen.lines()
        assert len(lines) == rows
        assert all(len(line) <= columns for line in lines)
        assert lines[0].startswith(" Probe") and "alice · seat" in lines[0]
        assert lines[-1].startswith("›")
        assert "1 " + decision.texts[0] in "\n".join(lines[-4:])
        for name in ("alice", "bot-1", "bot-2", "bot-3"):
            assert name in "\n".join(lines)
        table.type("quit\r")
        await table.screen.wait_for("Leave the game?")
        table.type("y")

    assert run(table, script, columns=columns, rows=rows) == 0


def test_a_beltpunk_table_fits_80_by_24(pipe, deadline):
    table = Table(pipe, game="beltpunk", players=4)

    async def script(table: Table) -> None:
        decision = await table.next_decision()
        await table.screen.wait_for("Your move — ")
        lines = table.screen.lines()
        assert all(len(line) <= 80 for line in lines)
        text = "\n".join(lines)
        for title in ("The Machine", "Players", "Your hand", "Log"):
            assert title in text
        assert "▼" not in text  # nothing of the table cut off
        assert decision.texts[0] in text
        table.type("quit\r")
        await table.screen.wait_for("Leave the game?")
        table.type("y")

    assert run(table, script) == 0


@pytest.mark.parametrize("how", ["argument", "environment"])
def test_monochrome_has_no_colours(pipe, deadline, monkeypatch, how):
    if how == "environment":
        monkeypatch.setenv("NO_COLOR", "1")
    table = Table(pipe)
    colours = []

    async def script(table: Table) -> None:
        await table.next_decision()
        await table.screen.wait_for("Your move — ")
        app = table.screen.app
        assert app.color_depth == ColorDepth.DEPTH_1_BIT
        screen, columns, rows = table.screen.cells()
        for y in range(rows):
            for x in range(columns):
                attrs = app.style.get_attrs_for_style_str(screen.data_buffer[y][x].style)
                if attrs.color or attrs.bgcolor:
                    colours.append((x, y, attrs))
        table.type("\x03\x03")

    assert run(table, script, color=how != "argument") == 0
    assert colours == []


def test_colour_is_used_when_allowed(pipe, deadline, monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    table = Table(pipe)
    coloured = []

    async def script(table: Table) -> None:
        await table.next_decision()
        await table.screen.wait_for("Your move — ")
        app = table.screen.app
        screen, columns, rows = table.screen.cells()
        coloured.extend(
            (x, y)
            for y in range(rows)
            for x in range(columns)
            if app.style.get_attrs_for_style_str(screen.data_buffer[y][x].style).color
        )
        table.type("\x03\x03")

    assert run(table, script) == 0
    assert coloured


def test_setup_that_cannot_connect_returns_3_and_says_why(pipe, deadline, capsys):
    async def setup(nursery, say):
        say("Connecting…")
        await trio.open_tcp_stream("127.0.0.1", 1)  # nothing listens on port 1

    code = run_terminal_game(setup, title="Probe", input=pipe, output=SizedOutput())
    assert code == 3
    err = capsys.readouterr().err
    assert err.count("could not start the game") == 1
    assert "127.0.0.1:1" in err and "Connection refused" in err


def test_other_setup_errors_are_raised_after_the_screen_closes(pipe, deadline):
    async def setup(nursery, say):
        raise ValueError("no such ruleset")

    with pytest.raises(ValueError, match="no such ruleset"):
        run_terminal_game(setup, title="Probe", input=pipe, output=SizedOutput())


def test_ctrl_c_while_setup_is_still_connecting_stops_everything(pipe, deadline, capsys):
    stopped = trio.Event()

    async def setup(nursery, say):
        say("Waiting forever…")
        try:
            # No screen is open yet, so the terminal turns Ctrl-C into a signal.
            signal.raise_signal(signal.SIGINT)
            await trio.sleep_forever()
        finally:
            stopped.set()

    # As in a terminal, whatever started this test (a job started with & ignores SIGINT).
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            run_terminal_game(setup, title="Probe", input=pipe, output=SizedOutput())
    finally:
        signal.signal(signal.SIGINT, previous)
    assert stopped.is_set()
    assert capsys.readouterr().err == "Waiting forever…\n"  # said while setup ran: no screen hid it


def test_a_task_that_crashes_after_setup_is_raised_after_the_screen_closes(pipe, deadline):
    async def setup(nursery, say):
        async def crash():
            await trio.lowlevel.checkpoint()
            raise RuntimeError("a bug in a peer task")

        nursery.start_soon(crash)
        game = get_game("probe")
        return Node(Session(Identity.generate(), "alice", get_game, ruleset=game.ruleset(2), presentation=get_presentation))

    with pytest.raises(RuntimeError, match="a bug in a peer task"):
        run_terminal_game(setup, title="Probe", input=pipe, output=SizedOutput())


# -- what a newcomer tripped over (issue 7) ---------------------------------------------------------


def test_a_move_the_game_refuses_gets_the_games_reason(pipe, deadline):
    table = Table(pipe)

    async def script(table: Table) -> None:
        decision = await table.next_decision()
        session = table.human.session
        held = {session.knowledge[slot] for slot in session.replica.state.hands[session.seat]}
        elsewhere = next(f"c{n}" for n in range(1, 13) if f"c{n}" not in held)
        counter = session.replica.counters[session.seat]
        table.type(f"play {elsewhere}\r")
        await table.screen.wait_for(f"“play {elsewhere}” isn't possible now: {elsewhere} is not in your hand.")
        assert session.replica.counters[session.seat] == counter  # nothing was sent
        table.type("PLAY  " + decision.texts[0].split()[1].upper() + "\r")  # a move typed another way is made
        await table.screen.wait_for(f"› {decision.texts[0]}")
        assert session.replica.counters[session.seat] > counter
        table.type("quit\r")
        await table.screen.wait_for("Leave the game?")
        table.type("y")

    assert run(table, script) == 0


def test_a_warning_from_the_game_shows_above_the_choices(pipe, deadline):
    table = Table(pipe, seed=b"tui-warn-1")  # a seed with which alice, playing high, wins a round
    warning = "⚠ The card you pass goes to bot-1, who will know you held it."

    async def script(table: Table) -> None:
        def highest(decision) -> str:  # alice plays to win a round, so that she passes a card
            return max(decision.texts, key=lambda text: int(text.rpartition("c")[2]) if " c" in text else 0)

        decision, _ = await table.play_until(lambda decision: decision.texts[0].startswith("pass c"), highest)
        assert decision is not None, "the game ended before alice won a round"
        await table.screen.wait_for(warning)
        assert decision.warnings == (warning[2:],)
        table.type("quit\r")
        await table.screen.wait_for("Leave the game?")
        table.type("y")

    assert run(table, script) == 0


def test_the_end_of_a_game_says_where_the_transcript_is_and_how_to_check_it(pipe, deadline, capsys, tmp_path):
    table = Table(pipe, transcripts=tmp_path)

    async def script(table: Table) -> None:
        await table.play_to_the_end()
        await table.screen.wait_for("Press q or Enter to leave")
        table.type("x")

    assert run(table, script) == 0
    [path] = tmp_path.glob("*.p2pt")
    session = table.human.session
    out = capsys.readouterr().out
    assert out == (
        f"Game over: {session._result_text(session.result)}\n"
        f"Your transcript of the game: {path}\n"
        f"Check it at any time: p2pgames verify {path}\n"
    )


def test_the_player_who_quits_is_told_too(pipe, deadline, capsys, tmp_path):
    table = Table(pipe, transcripts=tmp_path)

    async def script(table: Table) -> None:
        await table.next_decision()
        table.type("quit\r")
        await table.screen.wait_for("Leave the game?")
        table.type("y")

    assert run(table, script) == 0
    [path] = tmp_path.glob("*.p2pt")
    assert capsys.readouterr().out == (
        "You left the game. The other players were told; the game has stopped for them too.\n"
        f"Your transcript of the game: {path}\n"
        f"Check it at any time: p2pgames verify {path}\n"
    )


def test_a_joiner_with_the_hosts_name_has_one_name_everywhere(pipe, deadline, tmp_path):
    table = Table(pipe, players=3, bots=1, human_hosts=False, host_name="alice", human_name="alice", transcripts=tmp_path)
    shown = {}

    async def script(table: Table) -> None:
        await table.screen.wait_for("Seats 2/3")
        shown["lobby"] = table.screen.lines()
        table.type("quit\r")

    assert run(table, script) == 0
    lobby = shown["lobby"]
    assert lobby[0].endswith("alice-2 · seat 1 of 3")
    assert lobby[1] == " Waiting for players (2 of 3 seated)"
    start = next(number for number, line in enumerate(lobby) if line.startswith("Seats 2/3 │"))
    seats = [line.partition("│")[2].strip() for line in lobby[start:start + 3]]
    assert seats == ["0 alice host (says it is a bot)", "1 alice-2 (you)", "2 waiting for a player…"]  # a claim: not launched here
    host_key = table.bots[0].session.identity.public_key.fingerprint()
    assert f"Host │ host key {host_key}" in "\n".join(lobby)
    assert f"The host's key {host_key} matches the join code." in "\n".join(lobby)
    assert table.human.session.name == "alice-2"


def test_the_number_of_a_group_lists_its_choices_to_pick_by_number(pipe, deadline, monkeypatch):
    from p2pgames.engine import ChoiceGroup
    from p2pgames.games._probe.presentation import ProbePresentation

    def one_line_for_all_plays(self, state, player, actions, texts):
        plays = tuple(index for index, text in enumerate(texts) if text.startswith("play "))
        rest = [ChoiceGroup(text, (index,)) for index, text in enumerate(texts) if index not in plays]
        return ([ChoiceGroup("play …", plays)] if plays else []) + rest

    monkeypatch.setattr(ProbePresentation, "group_choices", one_line_for_all_plays)
    table = Table(pipe)

    async def script(table: Table) -> None:
        decision = await table.next_decision()
        assert [group.label for group in decision.menu] == ["play …"]
        await table.screen.wait_for(" 1 play …")
        table.type("1\r")
        # The list now shows that line's choices, numbered in turn.
        await table.screen.wait_for(f" 1 {decision.texts[0]}   2 {decision.texts[1]}")
        counter = table.human.session.replica.counters[table.human.session.seat]
        table.type("2\r")
        await table.screen.wait_for(f"› {decision.texts[1]}")
        assert table.human.session.replica.counters[table.human.session.seat] > counter
        table.type("quit\r")
        await table.screen.wait_for("Leave the game?")
        table.type("y")

    assert run(table, script) == 0


class CardPicker:
    """A composer for the probe's "play a card": ``pick cN`` then ``done`` (a stand-in for a game
    whose actions are too many to list, built part by part)."""

    prompt = "pick your card"

    def __init__(self, hand: dict, picked: str | None = None, finished: bool = False) -> None:
        self.hand, self.picked, self.finished = hand, picked, finished

    def commands(self):
        return ["done"] if self.picked else [f"pick {card}" for card in sorted(self.hand)]

    def apply(self, text):
        from p2pgames.engine import IllegalAction, MalformedAction

        words = text.split()
        if words == ["done"]:
            if self.picked is None:
                raise IllegalAction(0, "pick a card first")
            return CardPicker(self.hand, self.picked, True)
        if len(words) == 2 and words[0] == "pick":
            if words[1] not in self.hand:
                raise IllegalAction(0, f"{words[1]} is not in your hand")
            return CardPicker(self.hand, words[1])
        raise MalformedAction(f"{text!r} is not a picker command")

    def panels(self):
        from p2pgames.engine import Panel

        return [Panel("Picking", ((("", f"picked: {self.picked or 'nothing yet'}"),),))]

    def action(self):
        from p2pgames.games._probe import PlayCard

        return PlayCard(self.hand[self.picked]) if self.finished else None


def test_a_composer_builds_the_action_on_this_peer_then_it_is_made(pipe, deadline, monkeypatch):
    from p2pgames.games._probe.presentation import ProbePresentation

    def composer(self, state, player, knowledge):
        if state.phase != "play":
            return None
        return CardPicker({knowledge[slot]: slot for slot in state.hands[player]})

    def explain(self, state, viewer, text, names):
        return [f"{text.split()[1]}: a card worth {text.split()[1][1:]}"] if text.startswith("card ") else None

    monkeypatch.setattr(ProbePresentation, "composer", composer)
    monkeypatch.setattr(ProbePresentation, "explain", explain)
    monkeypatch.setattr(ProbePresentation, "info_commands", (("card NAME", "what a card is worth"),))
    table = Table(pipe)

    async def script(table: Table) -> None:
        decision = await table.next_decision()
        hand = sorted(decision.texts)
        await table.screen.wait_for("Picking │ picked: nothing yet")
        table.type("card c7\r")  # the game's information commands work while composing too
        await table.screen.wait_for("c7: a card worth 7")
        table.type("fetch c7\r")
        await table.screen.wait_for("“fetch c7” is not one of your choices: 'fetch c7' is not a picker command.")
        table.type("done\r")
        await table.screen.wait_for("“done” isn't possible now: pick a card first.")
        counter = table.human.session.replica.counters[table.human.session.seat]
        table.type("1\r")  # the composer's first command, by its number
        await table.screen.wait_for("Picking │ picked: " + hand[0].split()[1])
        assert table.human.session.replica.counters[table.human.session.seat] == counter  # nothing sent yet
        table.type("done\r")
        await table.screen.wait_for(f"› {hand[0]}")
        assert table.human.session.replica.counters[table.human.session.seat] > counter
        await table.human.wait_until(lambda: table.human.session.decision() is None or table.human.session.decision() != decision)
        table.type("help\r")
        await table.screen.wait_for("what a card is worth")
        table.type("\x1b")
        table.type("quit\r")
        await table.screen.wait_for("Leave the game?")
        table.type("y")

    assert run(table, script) == 0
