"""Thinking time, chess-clock style: how long the table has waited on each seat's decisions.

Each peer times it on its own monotonic clock, from the moments the table's state told it whose
decision was awaited: the figures are this peer's view (a joiner's include the network's delay),
shown on its screen, never sent nor hashed. Only decisions count — a person may think as long as
they like — not the card cryptography's passes, which no player controls; when several seats
decide at once (a simultaneous choice), each one's clock runs.
"""

from __future__ import annotations

from typing import Sequence

from p2pgames.tui._text import duration

__all__ = ["ThinkingClocks", "clocks_text"]


class ThinkingClocks:
    """The seats' thinking totals. :meth:`update` says, at each change of the table, whose
    clocks run from then on; :meth:`total` reads one at any moment."""

    def __init__(self) -> None:
        self._totals: dict[int, float] = {}
        self._running: tuple[int, ...] = ()
        self._since = 0.0

    @property
    def running(self) -> tuple[int, ...]:
        """The seats whose clocks run now."""
        return self._running

    def update(self, now: float, running: Sequence[int]) -> None:
        """At ``now`` (seconds, monotonic) the clocks of ``running`` run, every other one stands."""
        for seat in self._running:
            self._totals[seat] = self._totals.get(seat, 0.0) + max(0.0, now - self._since)
        self._running, self._since = tuple(running), now

    def total(self, seat: int, now: float) -> float:
        """``seat``'s thinking time so far, at ``now``."""
        ticking = max(0.0, now - self._since) if seat in self._running else 0.0
        return self._totals.get(seat, 0.0) + ticking


def clocks_text(clocks: ThinkingClocks, names: Sequence[str], you: int | None, now: float, width: int) -> str:
    """The clocks as one line of at most ``width`` characters: every seat's (``you 1:05 ·
    ▸bob 0:42``, ``▸`` marking a clock that runs); if that is too wide, the running ones and
    yours; if that still is, nothing."""

    def entry(seat: int) -> str:
        mark = "▸" if seat in clocks.running else ""
        return f"{mark}{'you' if seat == you else names[seat]} {duration(int(clocks.total(seat, now)))}"

    every = " · ".join(entry(seat) for seat in range(len(names)))
    if len(every) <= width:
        return every
    some = " · ".join(entry(seat) for seat in range(len(names)) if seat == you or seat in clocks.running)
    return some if len(some) <= width else ""
