"""prompt_toolkit controls that lay out their own lines for the width they are given.

prompt_toolkit's :class:`FormattedTextControl` doesn't know its width when it builds its text; these
do, so tables, prompts and logs can be fitted, wrapped and cut by this package's own rules.
"""

from __future__ import annotations

from typing import Callable

from prompt_toolkit.layout.controls import GetLinePrefixCallable, UIContent, UIControl

from p2pgames.tui._text import Line, truncate, wrap

__all__ = ["FittedLines", "ScrollingLog", "ScrollingPage"]


def _content(lines: list[Line]) -> UIContent:
    return UIContent(get_line=lambda number: lines[number], line_count=len(lines), show_cursor=False)


class FittedLines(UIControl):
    """Shows ``get_lines(width, height)`` from the top.

    ``get_lines`` may use ``height`` to fit its lines in (it is ``None`` when the layout asks how
    many rows they want). When they don't fit, the last row shown is ``overflow(hidden, width)``
    instead, where ``hidden`` counts the rows not shown.
    """

    def __init__(
        self,
        get_lines: Callable[[int, int | None], list[Line]],
        overflow: Callable[[int, int], Line] | None = None,
    ) -> None:
        self.get_lines = get_lines
        self.overflow = overflow

    def preferred_height(
        self,
        width: int,
        max_available_height: int,
        wrap_lines: bool,
        get_line_prefix: GetLinePrefixCallable | None,
    ) -> int:
        return len(self.get_lines(width, None))

    def create_content(self, width: int, height: int) -> UIContent:
        lines = [truncate(line, width) for line in self.get_lines(width, height)]
        if len(lines) > height > 0 and self.overflow is not None:
            hidden = len(lines) - height + 1
            lines = lines[: height - 1] + [truncate(self.overflow(hidden, width), width)]
        return _content(lines[: max(height, 0)])


class ScrollingLog(UIControl):
    """The end of a growing list of lines, wrapped, which the player can page back through.

    ``offset`` counts rows scrolled back from the end; 0 follows new lines as they come. While
    scrolled back, :meth:`appended` keeps the rows on screen still as lines arrive.
    """

    INDENT = 2

    def __init__(self, lines: list[Line], more_below: Callable[[int], Line]) -> None:
        self.lines = lines
        self.more_below = more_below
        self.offset = 0
        self.width = 80
        self.height = 10

    def appended(self, line: Line) -> None:
        """Call after appending ``line`` to the list shown."""
        if self.offset:
            self.offset += len(wrap(line, self.width, self.INDENT))

    def page_up(self) -> None:
        self.offset += max(1, self.height - 1)

    def page_down(self) -> None:
        self.offset = max(0, self.offset - max(1, self.height - 1))

    def follow(self) -> None:
        self.offset = 0

    def create_content(self, width: int, height: int) -> UIContent:
        self.width, self.height = width, max(height, 1)
        wanted = self.offset + height
        rows: list[Line] = []
        # Wrap from the end back only as far as needed: the log may be long.
        for line in reversed(self.lines):
            rows[:0] = wrap(line, width, self.INDENT)
            if len(rows) >= wanted:
                break
        self.offset = max(0, min(self.offset, len(rows) - height))
        end = len(rows) - self.offset
        shown = rows[max(0, end - height):end]
        if self.offset and shown:
            shown[-1] = truncate(self.more_below(self.offset), width)
        return _content(shown)


class ScrollingPage(UIControl):
    """A document shown from the top, paged with :meth:`page_up` and :meth:`page_down`.

    ``get_lines(width)`` gives its rows for a width; ``more_below(hidden)`` is shown in the last
    row while rows remain below it.
    """

    def __init__(self, get_lines: Callable[[int], list[Line]], more_below: Callable[[int], Line]) -> None:
        self.get_lines = get_lines
        self.more_below = more_below
        self.offset = 0
        self.height = 10

    def page_up(self) -> None:
        self.offset = max(0, self.offset - max(1, self.height - 2))

    def page_down(self) -> None:
        self.offset += max(1, self.height - 2)

    def top(self) -> None:
        self.offset = 0

    def create_content(self, width: int, height: int) -> UIContent:
        self.height = max(height, 1)
        rows = [truncate(line, width) for line in self.get_lines(width)]
        self.offset = max(0, min(self.offset, len(rows) - height))
        shown = rows[self.offset:self.offset + height]
        hidden = len(rows) - self.offset - height + 1
        if len(rows) > self.offset + height and shown:
            shown[-1] = truncate(self.more_below(hidden), width)
        return _content(shown)
