"""Styled lines of text: measuring, cutting, wrapping and padding them to a width in cells.

A *line* is what prompt_toolkit calls formatted text: a list of ``(style, text)`` fragments with no
newlines. Widths are terminal cells, so wide characters count twice.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from prompt_toolkit.utils import get_cwidth

from p2pgames.words import duration  # noqa: F401  (re-exported: the screen times seats away)

__all__ = ["Line", "line_width", "truncate", "wrap", "pad", "merge", "plain", "duration"]

Line = list[tuple[str, str]]

ELLIPSIS = "…"


def plain(line: Sequence[tuple[str, str]]) -> str:
    """The text of ``line`` without its styles."""
    return "".join(text for _, text in line)


def line_width(line: Sequence[tuple[str, str]]) -> int:
    """How many cells ``line`` takes."""
    return sum(get_cwidth(text) for _, text in line)


def merge(chars: Iterable[tuple[str, str]]) -> Line:
    """Join consecutive fragments that share a style (fewer, longer fragments render faster)."""
    out: Line = []
    for style, text in chars:
        if not text:
            continue
        if out and out[-1][0] == style:
            out[-1] = (style, out[-1][1] + text)
        else:
            out.append((style, text))
    return out


def truncate(line: Sequence[tuple[str, str]], width: int) -> Line:
    """``line`` cut to ``width`` cells, ending in an ellipsis if anything was cut."""
    if line_width(line) <= width:
        return list(line)
    if width <= 0:
        return []
    out: list[tuple[str, str]] = []
    used = 0
    for style, text in line:
        for char in text:
            cells = get_cwidth(char)
            if used + cells > width - 1:
                out.append((style, ELLIPSIS))
                return merge(out)
            out.append((style, char))
            used += cells
    return merge(out)  # pragma: no cover - the width check above returned early


def pad(line: Sequence[tuple[str, str]], width: int, style: str = "") -> Line:
    """``line`` cut or padded with spaces to exactly ``width`` cells."""
    cut = truncate(line, width)
    missing = width - line_width(cut)
    return cut + [(style, " " * missing)] if missing > 0 else cut


def wrap(line: Sequence[tuple[str, str]], width: int, indent: int = 0) -> list[Line]:
    """``line`` word-wrapped to rows of at most ``width`` cells.

    Rows after the first start with ``indent`` spaces (a hanging indent); words longer than a row
    are broken. Spaces where a row breaks are dropped. An empty line gives one empty row.
    """
    width = max(width, 1)
    indent = indent if indent < width // 2 else 0
    # Runs of spaces and runs of other characters, each a list of (style, char).
    runs: list[tuple[bool, list[tuple[str, str]]]] = []
    for style, text in line:
        for char in text:
            space = char == " "
            if runs and runs[-1][0] == space:
                runs[-1][1].append((style, char))
            else:
                runs.append((space, [(style, char)]))
    rows: list[Line] = []
    row: list[tuple[str, str]] = []
    used = 0

    def new_row() -> None:
        nonlocal row, used
        while row and row[-1][1] == " ":
            row.pop()
        rows.append(merge(row))
        row = [("", " " * indent)] if indent else []
        used = indent

    for space, chars in runs:
        cells = sum(get_cwidth(char) for _, char in chars)
        if space:
            if used + cells <= width:
                row.extend(chars)
                used += cells
            elif used > indent:
                new_row()
            continue
        if used + cells > width and used > indent and cells <= width - indent:
            new_row()
        for style, char in chars:
            char_cells = get_cwidth(char)
            if used + char_cells > width and used > indent:
                new_row()
            row.append((style, char))
            used += char_cells
    while row and row[-1][1] == " ":
        row.pop()
    rows.append(merge(row))
    return rows
