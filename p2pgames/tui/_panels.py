"""Laying out a game's panels (and the lobby's) as styled lines for a given width.

Two layouts, the first that fits wins:

* *gutter*: each panel's title right-aligned in a narrow left column, its lines beside it::

         The Machine │ Steam       S13 · · · 1/4
                     │ Gears       G5 · · · 1/4
           Your hand │ S4 S5 S8 G4

  One row per line of content, so a whole Beltpunk table fits an 80×24 terminal with room for the
  log;
* *headers*: a rule with the title above each panel, lines cut to the width, for panels too wide
  to share their rows with a title.
"""

from __future__ import annotations

from typing import Sequence

from p2pgames.engine import PANEL_RULE, PANEL_TITLE_WIDTH, Panel
from p2pgames.tui._text import Line, line_width, plain, truncate, wrap
from p2pgames.tui._theme import Theme

__all__ = ["layout_panels", "natural_width", "content_width", "MAX_GUTTER", "SEE_ALL"]

MAX_GUTTER = PANEL_TITLE_WIDTH  # the games fit their lines to it (engine.PANEL_WIDTH)
GUTTER_RULE = PANEL_RULE
SEE_ALL = "F2 shows the whole table"  # what a cut panel's last row says, by default


def _styled(panels: Sequence[Panel], theme: Theme) -> list[tuple[str, list[Line]]]:
    return [(panel.title, [theme.game_line(line) for line in panel.lines]) for panel in panels]


def _gutter_width(panels: Sequence[tuple[str, list[Line]]]) -> int:
    return min(MAX_GUTTER, max((len(title) for title, _ in panels), default=0))


def natural_width(panels: Sequence[Panel], theme: Theme) -> int:
    """The width the gutter layout needs to show ``panels`` without cutting anything."""
    styled = _styled(panels, theme)
    return _gutter_width(styled) + len(GUTTER_RULE) + content_width(panels, theme)


def content_width(panels: Sequence[Panel], theme: Theme) -> int:
    """The width of the widest line of ``panels``: the headers layout needs no more."""
    return max((line_width(theme.game_line(line)) for panel in panels for line in panel.lines), default=0)


def layout_panels(
    panels: Sequence[Panel], width: int, theme: Theme, max_rows: int | None = None, see_all: str = SEE_ALL
) -> list[Line]:
    """``panels`` as lines of at most ``width`` cells (see the module docstring).

    With ``max_rows``, panels too tall to fit together give up rows, the tallest first (among
    equals the higher one), each cut panel ending in a row that says how many lines it hides and
    ``see_all``, how to see them: every panel keeps its title and its first lines in view (a cut
    at the bottom would hide whole panels, often the player's hand).
    """
    if not panels or width <= 0:
        return []
    styled = _styled(panels, theme)
    gutter = _gutter_width(styled)
    content = max((line_width(line) for _, lines in styled for line in lines), default=0)
    if gutter + len(GUTTER_RULE) + content <= width:
        blocks = [_Block(title, lines, len(_title_rows(title, gutter)), False, see_all) for title, lines in styled]
    else:
        blocks = [_Block(title, lines, 0, True, see_all) for title, lines in styled]
    if max_rows is not None:
        _shrink(blocks, max_rows)
    if blocks[0].header:
        return _header_layout(blocks, width)
    return _gutter_layout(blocks, gutter)


class _Block:
    """A panel being laid out: it shows its first ``shown`` lines (and says how many it hides)."""

    def __init__(self, title: str, lines: list[Line], title_rows: int, header: bool, see_all: str) -> None:
        self.title = title
        self.lines = lines
        self.title_rows = title_rows
        self.header = header
        self.see_all = see_all
        self.shown = len(lines)

    @property
    def cut(self) -> bool:
        return self.shown < len(self.lines)

    @property
    def rows(self) -> int:
        body = self.shown + (1 if self.cut else 0)
        return 1 + body if self.header else max(body, self.title_rows, 1)

    def cut_one(self) -> None:
        """Hide one more line; the first cut hides two, to make room for the row that says so."""
        self.shown -= 1 if self.cut else min(2, self.shown)

    def rows_if_cut(self) -> int:
        shown = self.shown
        self.cut_one()
        rows = self.rows
        self.shown = shown
        return rows

    def content(self) -> list[Line]:
        if not self.cut:
            return self.lines
        hidden = len(self.lines) - self.shown
        return self.lines[: self.shown] + [[("class:more", f"… {hidden} more · {self.see_all}")]]


def _shrink(blocks: list[_Block], max_rows: int) -> None:
    while sum(block.rows for block in blocks) > max_rows:
        # The tallest panel whose cut saves a row gives one up; among equals, the highest: games
        # put the player's own panels (a hand, a submarine) last, and those keep their rows longest.
        best: tuple[int, _Block] | None = None
        for block in blocks:
            if block.shown and block.rows_if_cut() < block.rows and (best is None or block.rows > best[0]):
                best = (block.rows, block)
        if best is None:
            return  # nothing left that a cut makes shorter: the caller cuts the bottom
        best[1].cut_one()


def _title_rows(title: str, width: int) -> list[str]:
    return [plain(row) for row in wrap([("", title)], width)] if title else [""]


def _gutter_layout(blocks: Sequence[_Block], gutter: int) -> list[Line]:
    out: list[Line] = []
    for block in blocks:
        titles = _title_rows(block.title, gutter)
        lines = block.content()
        for row in range(block.rows):
            label = titles[row] if row < len(titles) else ""
            line = lines[row] if row < len(lines) else []
            out.append([("class:panel-title", label.rjust(gutter)), ("class:rule", GUTTER_RULE), *line])
    return out


def _header_layout(blocks: Sequence[_Block], width: int) -> list[Line]:
    out: list[Line] = []
    for block in blocks:
        heading = truncate([("class:rule", "── "), ("class:panel-title", block.title), ("", " ")], width)
        out.append(heading + [("class:rule", "─" * max(0, width - line_width(heading)))])
        out.extend(truncate(line, width) for line in block.content())
    return out
