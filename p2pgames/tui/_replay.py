"""``p2pgames replay``: a finished (or stopped) game's screen, stepped through from its transcript.

The table is drawn as the game's screen draws it (the game's panels, :func:`layout_panels`), from
the state after the entry shown and what the seat knew then (:class:`~p2pgames.session.Replay`),
or — the ``a`` key, ``--every-card`` — with every card the deals' audits showed, each seat's own
cards in a panel of their own. Below it, the log up to that entry, as that seat's log read.

Keys: → or n the next move, ← or p the one before; ↓ or ] the next round (or quarter, or turn),
↑ or [ the round's start (again: the round before); Home and End the start and the end; digits
then Enter jump to that entry; a toggles every card; q, Esc or Ctrl-C quits.
"""

from __future__ import annotations

from typing import Callable

from prompt_toolkit.application import Application
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import HSplit, Layout, Window
from prompt_toolkit.output import ColorDepth, Output

from p2pgames.engine import Panel
from p2pgames.session import Replay
from p2pgames.tui._controls import FittedLines
from p2pgames.tui._panels import layout_panels
from p2pgames.tui._text import Line, pad, plain, wrap
from p2pgames.tui._theme import Theme

__all__ = ["ReplayScreen", "replay_panels", "replay_text"]

KEYS_HELP = "→ ← move · ↓ ↑ round · Home End · 12⏎ entry 12 · a every card · q quit"


def replay_panels(replay: Replay, index: int, seat: int | None, every_card: bool) -> list[Panel]:
    """The table after step ``index``: as ``seat`` saw it, or with every card the log shows."""
    state = replay.steps[index].state
    knowledge = replay.knowledge(index, None if every_card else seat)
    panels = list(replay.shown.panels(state, seat, knowledge, replay.names))
    if every_card and replay.values:  # (a game with cards)
        lines = []
        for other, name in enumerate(replay.names):
            cards = [replay.shown.card_text(state, knowledge[slot]) if slot in knowledge else "?"
                     for slot in replay.game.kept_slots(state, other)]
            lines.append((("bold", name), ("", " " + " ".join(cards) if cards else " (none)")))
        panels.append(Panel("Every card", tuple(lines)))
    return panels


def heading(replay: Replay, index: int, seat: int | None, every_card: bool) -> str:
    """One line: the game, the entry shown, the round, and whose view."""
    entry = replay.steps[index].entry
    where = "the start" if entry < 0 else f"entry {entry} of {replay.entries - 1}"
    parts = [replay.game.title, where]
    round_label = replay.round_of(index)
    if round_label:
        parts.append(round_label)
    if every_card:
        parts.append("every card")
    elif seat is not None:
        parts.append(f"as {replay.names[seat]} (seat {seat}) saw it")
    return " · ".join(parts)


def log_lines(replay: Replay, index: int, seat: int | None) -> list[str]:
    """The log up to step ``index`` as ``seat``'s read: each entry's public lines, then its own."""
    lines = []
    for step in range(1, index + 1):
        lines += replay.lines(step)
        if seat is not None:
            lines += replay.private_lines(step, seat)
    return lines


def replay_text(replay: Replay, index: int, seat: int | None, every_card: bool, width: int = 80) -> str:
    """The heading, the table (``width`` columns, no colour) and what the entry narrated: what
    ``replay --at`` prints."""
    theme = Theme(False)
    out = [plain(line) for line in wrap([("", heading(replay, index, seat, every_card))], width, indent=2)] + [""]
    out += [plain(line).rstrip() for line in layout_panels(replay_panels(replay, index, seat, every_card), width, theme)]
    if seat is not None and not every_card and replay.unseen(index, seat):
        out.append(f"({replay.unseen(index, seat)} of the cards this seat knew are in no audit: shown face down)")
    said = replay.lines(index) + (replay.private_lines(index, seat) if seat is not None and index else [])
    if said:
        out.append("")
        out += [plain(line) for text in said for line in wrap([("", text)], width, indent=2)]
    if replay.stopped is not None and index == len(replay.steps) - 1:
        out += ["", *(plain(line) for line in wrap([("", f"The replay stops here: {replay.stopped}.")], width, indent=2))]
    return "\n".join(out) + "\n"


class ReplayScreen:
    """The full-screen stepper (see the module docstring); :meth:`run` until the player quits."""

    def __init__(self, replay: Replay, seat: int | None, *, color: bool, every_card: bool = False,
                 input: Input | None = None, output: Output | None = None) -> None:
        self.replay = replay
        self.seat = seat
        self.every_card = every_card
        self.index = 0
        self.typed = ""  # digits of an entry to jump to
        self.problem: str | None = None
        self.theme = Theme(color)
        self.app: Application = Application(
            layout=Layout(HSplit([
                Window(FittedLines(self._title), height=1),
                Window(FittedLines(self._table), dont_extend_height=True),
                Window(char="─", height=1, style="class:rule"),
                Window(FittedLines(self._log)),
                Window(FittedLines(self._keys), height=1),
            ])),
            key_bindings=self._bindings(),
            style=self.theme.style,
            include_default_pygments_style=False,
            color_depth=None if color else ColorDepth.DEPTH_1_BIT,
            full_screen=True,
            input=input,
            output=output,
        )

    def run(self) -> None:
        self.app.run()

    def go(self, index: int) -> None:
        self.index = index
        self.typed, self.problem = "", None
        self.app.invalidate()

    def _title(self, width: int, height: int | None) -> list[Line]:
        return [pad([("class:title", " " + heading(self.replay, self.index, self.seat, self.every_card))], width, "class:title")]

    def _table(self, width: int, height: int | None) -> list[Line]:
        panels = replay_panels(self.replay, self.index, self.seat, self.every_card)
        return layout_panels(panels, width, self.theme, max_rows=height, see_all="a taller terminal shows it all")

    def _log(self, width: int, height: int | None) -> list[Line]:
        lines = [row for text in log_lines(self.replay, self.index, self.seat)
                 for row in wrap([("class:log.say", text)], width, indent=2)]
        if self.replay.stopped is not None and self.index == len(self.replay.steps) - 1:
            lines += wrap([("class:log.problem", f"The replay stops here: {self.replay.stopped}.")], width, indent=2)
        return lines if height is None else lines[-height:] if height > 0 else []

    def _keys(self, width: int, height: int | None) -> list[Line]:
        if self.problem is not None:
            return [[("class:log.problem", self.problem)]]
        if self.typed:
            return [[("class:status", f" entry {self.typed}▏ (Enter jumps, Esc cancels)")]]
        return [[("class:status", " " + KEYS_HELP)]]

    def _bindings(self) -> KeyBindings:
        bindings = KeyBindings()

        def bind(*keys: str):
            def register(action):
                for key in keys:
                    bindings.add(key)(lambda event, action=action: action())
                return action
            return register

        def step(to: Callable[[Replay, int], int]) -> Callable[[], None]:
            # (A live screen has no replay until the game starts: nothing to step through yet.)
            return lambda: None if self.replay is None else self.go(to(self.replay, self.index))

        bind("right", "n", " ")(step(Replay.next_move))
        bind("left", "p")(step(Replay.previous_move))
        bind("down", "]")(step(Replay.next_round))
        bind("up", "[")(step(Replay.previous_round))
        bind("home")(step(lambda replay, index: 0))
        bind("end")(step(lambda replay, index: len(replay.steps) - 1))

        @bind("a")
        def _toggle() -> None:
            self.every_card = not self.every_card
            self.app.invalidate()

        for digit in "0123456789":
            @bindings.add(digit)
            def _digit(event: KeyPressEvent) -> None:
                self.typed = (self.typed + event.data)[-9:]
                self.problem = None
                self.app.invalidate()

        @bindings.add("backspace")
        def _erase(event: KeyPressEvent) -> None:
            self.typed = self.typed[:-1]
            self.app.invalidate()

        @bindings.add("enter")
        def _jump(event: KeyPressEvent) -> None:
            if not self.typed or self.replay is None:
                return
            try:
                self.go(self.replay.step_of_entry(int(self.typed)))
            except ValueError as error:
                self.typed, self.problem = "", str(error)
                self.app.invalidate()

        @bindings.add("escape", eager=True)
        def _cancel(event: KeyPressEvent) -> None:
            if self.typed or self.problem:
                self.typed, self.problem = "", None
                self.app.invalidate()
            else:
                event.app.exit()

        @bindings.add("q")
        @bindings.add("c-c")
        def _quit(event: KeyPressEvent) -> None:
            event.app.exit()

        return bindings
