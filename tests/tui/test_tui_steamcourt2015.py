"""Steam Court by its 2015 rules at two terminals (issue 12's acceptance): a game hosted at one
terminal and joined at another, the third seat a bot, over loopback TCP; both players type their
bids and moves through the Character Auction and the whole first quarter, to its audit; then they
leave, and both transcripts verify.

Two terminals in one process: trio runs once per thread (the terminal runs it as asyncio's guest),
so the joiner's terminal runs in a thread of its own, with its own event loop. The two scripts
meet only through :class:`threading.Event` s, waited on without sleeping. Each terminal runs in an
app session of its own: prompt_toolkit's default one is shared by every thread, and its current
application would be whichever terminal started last, for both."""

from __future__ import annotations

import signal
import threading

import pytest
import trio
from prompt_toolkit.application.current import create_app_session
from prompt_toolkit.input import create_pipe_input

from p2pgames.games import get_game
from p2pgames.games.steamcourt2015.rules import AUCTION
from p2pgames.session import Halted, verify_transcript
from p2pgames.tui import run_terminal_game
from tui_tables import SizedOutput, Table

OPTIONS = {"characters": "auction"}
# Typing a quarter at two terminals takes a few seconds; a hang still fails, well before the suite's.
SCRIPT_SECONDS = 40.0


@pytest.fixture
def two_terminals_deadline(deadline):
    """The ``deadline`` fixture's alarm, pushed back to fit a quarter at two terminals."""
    signal.setitimer(signal.ITIMER_REAL, SCRIPT_SECONDS + 10)
    yield


def quarter(table: Table) -> int:
    replica = table.human.session.replica
    return replica.state.quarter if replica is not None else 0


def in_auction(table: Table) -> bool:
    replica = table.human.session.replica
    return replica is not None and replica.state.phase == AUCTION


def typed_answer(decision) -> str:
    """In the auction ``bid -1`` while it is a bid on offer, else ``pass``; later the first choice
    offered (as the screen lists it)."""
    texts = decision.texts
    if any(text.startswith("bid ") for text in texts):
        return "bid -1" if "bid -1" in texts else "pass"
    return texts[0]


async def play_the_first_quarter(table: Table, seen: dict) -> None:
    """Type every decision of the auction and the first quarter, until its audit (the 2nd quarter
    dealt); keep the screen of the first decision, a bid, and what was typed."""
    await table.next_decision()
    assert in_auction(table), "this seat was not asked to bid"
    await table.screen.wait_for("bid -N / pass")  # the screen caught up with the session
    seen["auction"] = table.screen.text()
    seen["typed"] = []

    def pick(decision) -> str:
        seen["typed"].append(typed_answer(decision))
        return seen["typed"][-1]

    decision, _ = await table.play_until(lambda decision: not in_auction(table), pick)
    # The quarter's first decision: nobody is out yet, and each seat's row shows its start token
    # less the bid it won its character with (the field report's "1+1 = -1": the bid unshown).
    state = table.human.session.replica.state
    seen["bids"] = state.bids[:]
    for player, bid in enumerate(state.bids):
        if bid:
            await table.screen.wait_for(f"start {state.start[player]}-{bid} = {state.start[player] - bid}")
    seen["quarter 1"] = table.screen.text()
    decision, _ = await table.play_until(lambda decision: False, pick, reached=lambda: quarter(table) >= 2)
    assert decision is None and not table.human.session.finished, "the game ended before the first audit"
    seen["audited at"] = table.human.session.replica.seq  # the log entries up to the audit, at least


def run_terminal(table: Table, script, pipe) -> int:
    output = SizedOutput(80, 24)
    with create_app_session(input=pipe, output=output):
        return run_terminal_game(
            table.setup(script), title="Steam Court", color=False, input=pipe, output=output, on_screen=table.on_screen,
        )


def test_a_2015_game_hosted_and_joined_through_an_auction_and_a_quarter_both_transcripts_verify(
    tmp_path, two_terminals_deadline
):
    host_seen: dict = {}
    joiner_seen: dict = {}
    joiner_reached, host_reached = threading.Event(), threading.Event()
    joiner_ended: list = []  # the joiner terminal's exit code, or what it raised

    def run_the_joiner(joiner: Table, pipe) -> None:
        try:
            joiner_ended.append(run_terminal(joiner, joiner_script, pipe))
        except BaseException as error:  # noqa: BLE001 — reported by the test's thread
            joiner_ended.append(error)
        finally:
            joiner_reached.set()  # the host stops waiting even if the joiner failed

    async def wait_for(event: threading.Event) -> None:
        await trio.to_thread.run_sync(event.wait, abandon_on_cancel=True)

    async def joiner_script(joiner: Table) -> None:
        await play_the_first_quarter(joiner, joiner_seen)
        joiner_reached.set()
        await wait_for(host_reached)  # both saw the audit: leaving now stops nobody short of it
        joiner.type("quit\r")
        await joiner.screen.wait_for("y end it for all")
        joiner.type("y")

    async def host_script(host: Table) -> None:
        await host.screen.wait_for("Join code")
        fingerprint = host.human.session.identity.public_key.fingerprint()
        joiner = Table(
            joiner_pipe, game="steamcourt2015", players=3, bots=0, human_hosts=False, human_name="bob",
            join_port=host.port, join_fingerprint=fingerprint, seed=b"sc2015-two-terminals",
            transcripts=tmp_path / "joiner", options=OPTIONS, script_timeout=SCRIPT_SECONDS,
        )
        host_seen["joiner"] = joiner
        threading.Thread(target=run_the_joiner, args=(joiner, joiner_pipe), daemon=True).start()
        await play_the_first_quarter(host, host_seen)
        host_reached.set()
        await wait_for(joiner_reached)
        await host.screen.wait_for("Press q or Enter to leave")  # the joiner left: the game stopped here too
        host_seen["left"] = host.screen.text()
        host.type("q")

    (tmp_path / "host").mkdir()
    (tmp_path / "joiner").mkdir()
    with create_pipe_input() as host_pipe, create_pipe_input() as joiner_pipe:
        host = Table(
            host_pipe, game="steamcourt2015", players=3, bots=1, seed=b"sc2015-two-terminals",
            transcripts=tmp_path / "host", options=OPTIONS, script_timeout=SCRIPT_SECONDS,
        )
        host_code = run_terminal(host, host_script, host_pipe)
        joiner_reached.wait(SCRIPT_SECONDS)
    assert joiner_ended == [0], joiner_ended  # the joiner left by quitting
    assert host_code == 1  # the game stopped under the host: someone left it
    joiner: Table = host_seen["joiner"]

    # Both bid at the terminal: the auction's panel was on screen, with what to type.
    for seen in (host_seen, joiner_seen):
        assert "On offer │" in seen["auction"] and "bid -N / pass" in seen["auction"], seen["auction"]
        assert all(len(line) <= 80 for line in seen["auction"].splitlines())
    # The bids won are shown where they are taken off, on both screens.
    assert host_seen["bids"] == joiner_seen["bids"] and any(host_seen["bids"]), host_seen["bids"]
    for seen in (host_seen, joiner_seen):
        assert all(len(line) <= 80 for line in seen["quarter 1"].splitlines())
    typed = host_seen["typed"] + joiner_seen["typed"]
    assert "bid -1" in typed and "pass" in typed
    assert any(not answer.startswith(("bid", "pass")) for answer in host_seen["typed"])  # a quarter's moves
    assert any(not answer.startswith(("bid", "pass")) for answer in joiner_seen["typed"])
    # Both replicas agree: the auction gave every seat a character, and the 2nd quarter is dealt.
    states = [table.human.session.replica.state for table in (host, joiner)]
    assert all(state.quarter == 2 and all(state.holders) for state in states)
    assert states[0].holders == states[1].holders and states[0].bids == states[1].bids
    assert "bob" in host_seen["left"] and "left the game" in host_seen["left"]
    assert host.human.events_of(Halted)

    # Each transcript: written as the game ran; it verifies, holds the first quarter's deal audit
    # and the joiner's signed leave. (The bot plays on into the 2nd quarter until the leave reaches
    # it, so how many entries each holds depends on when the leave came.)
    reports = []
    for folder, table, seen in ((tmp_path / "host", host, host_seen), (tmp_path / "joiner", joiner, joiner_seen)):
        [path] = folder.glob("*.p2pt")
        report = verify_transcript(path.read_bytes(), get_game)
        assert report.ok and report.describe().endswith("\nVerified."), report.describe()
        assert (report.game, report.seat) == ("steamcourt2015", table.human.session.seat)
        assert report.audits >= 1 and report.entries >= seen["audited at"], report.describe()
        assert report.left[joiner.human.session.seat][0] == "quit", report.describe()
        reports.append(report)
    assert reports[0].stopped.code == "left" and reports[0].stop_confirmed, reports[0].describe()
