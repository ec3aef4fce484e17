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

from p2pgames.engine import Panel
from p2pgames.tui._text import Line, line_width, plain, truncate, wrap
from p2pgames.tui._theme import Theme

__all__ = ["layout_panels", "natural_width", "MAX_GUTTER"]

MAX_GUTTER = 16
GUTTER_RULE = " │ "


def _styled(panels: Sequence[Panel], theme: Theme) -> list[tuple[str, list[Line]]]:
    return [(panel.title, [theme.game_line(line) for line in panel.lines]) for panel in panels]


def _gutter_width(panels: Sequence[tuple[str, list[Line]]]) -> int:
    return min(MAX_GUTTER, max((len(title) for title, _ in panels), default=0))


def natural_width(panels: Sequence[Panel], theme: Theme) -> int:
    """The width the gutter layout needs to show ``panels`` without cutting anything."""
    styled = _styled(panels, theme)
    content = max((line_width(line) for _, lines in styled for line in lines), default=0)
    return _gutter_width(styled) + len(GUTTER_RULE) + content


def layout_panels(panels: Sequence[Panel], width: int, theme: Theme) -> list[Line]:
    """``panels`` as lines of at most ``width`` cells (see the module docstring)."""
    if not panels or width <= 0:
        return []
    styled = _styled(panels, theme)
    gutter = _gutter_width(styled)
    content = max((line_width(line) for _, lines in styled for line in lines), default=0)
    if gutter + len(GUTTER_RULE) + content <= width:
        return _gutter_layout(styled, gutter)
    return _header_layout(styled, width)


def _title_rows(title: str, width: int) -> list[str]:
    return [plain(row) for row in wrap([("", title)], width)] if title else [""]


def _gutter_layout(panels: Sequence[tuple[str, list[Line]]], gutter: int) -> list[Line]:
    out: list[Line] = []
    for title, lines in panels:
        titles = _title_rows(title, gutter)
        for row in range(max(len(lines), len(titles), 1)):
            label = titles[row] if row < len(titles) else ""
            line = lines[row] if row < len(lines) else []
            out.append([("class:panel-title", label.rjust(gutter)), ("class:rule", GUTTER_RULE), *line])
    return out


def _header_layout(panels: Sequence[tuple[str, list[Line]]], width: int) -> list[Line]:
    out: list[Line] = []
    for title, lines in panels:
        heading = truncate([("class:rule", "── "), ("class:panel-title", title), ("", " ")], width)
        out.append(heading + [("class:rule", "─" * max(0, width - line_width(heading)))])
        out.extend(truncate(line, width) for line in lines)
    return out

