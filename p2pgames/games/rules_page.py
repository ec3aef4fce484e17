"""What ``p2pgames rules GAME`` prints: a game's ``RULES.md`` as players read it at a terminal.

``RULES.md`` is one page for two readers. Developers read it whole: each rule with the tests that
prove it, and the parts about the code (the engine contract, measurements). Players get the rules
as played, derived from the same page by three format rules, so the two can't drift apart:

1. **A citation** ends a paragraph or a list item: an em dash, then test references in backticks
   (``file.py::test_name``, ``short::test_name``, ``short::*``) separated by commas, each maybe
   followed by a note in parentheses, to the item's end (a final full stop allowed)::

       Two players exactly. — `test_torpedo_setup.py::test_game_identity_two_players_exactly`

   A parenthesis holding nothing but test references, ``(`powers::test_…`)``, is one too.
   Players don't see citations.
2. **Developer text** lies between ``<!-- developers -->`` and ``<!-- /developers -->`` (a
   sentence, paragraphs, whole sections); players don't see it.
3. **The rest is plain Markdown**, printed for a terminal: paragraphs and list items flowed to its
   width, ``**bold**``, ``*italic*`` and ``[links](#anchor)`` as their words, tables as columns
   (wrapped in their cells to fit); headings, rules (``---``) and indented blocks (the tiles'
   texts) as written, a line wider than the terminal wrapped under its own indent.

Pure: text in, text out (``cli.cmd_rules`` reads the page and prints).
"""

from __future__ import annotations

import re
import textwrap

__all__ = ["player_rules", "TEST_REFERENCE"]

# One test cited: `file.py::test_name`, `short::test_name` or `short::*`.
TEST_REFERENCE = r"`[\w./-]+::(?:test_\w*|\*)`"
# A note after a reference: "(all tests)", "(at 7 and 12)" — no nested parentheses.
_NOTE = r"(?:\s*\([^()]*\))?"
_REFERENCES = rf"{TEST_REFERENCE}{_NOTE}(?:\s*,\s*{TEST_REFERENCE}{_NOTE})*"
# Rule 1: an em dash and references to the end of the item (the item's lines joined by spaces).
_CITATION = re.compile(rf"\s*—\s*{_REFERENCES}\s*\.?\s*$")
_CITATION_IN_PARENTHESES = re.compile(rf"\s*\(\s*{_REFERENCES}\s*\)")
# Rule 2.
_DEVELOPERS = re.compile(r"<!-- developers -->.*?<!-- /developers -->", re.DOTALL)
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)

_LIST_ITEM = re.compile(r"^(\s*)([-*]|\d+\.)\s+")
_LINK = re.compile(r"\[([^\]]+)\]\([^)\s]*\)")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ITALIC = re.compile(r"\*(?=\S)([^*]+?)(?<=\S)\*")
# Spaces between a table's columns.
_GAP = 2


def player_rules(markdown: str, width: int = 80) -> str:
    """``markdown`` (a ``RULES.md``) without its citations and developer text, for a terminal
    ``width`` columns wide (see the module). Every line fits ``width`` but a table's row whose
    leading columns leave no room, or a word longer than the line. Raises :class:`ValueError`
    for a width under 20."""
    if width < 20:
        raise ValueError(f"a terminal of {width} columns is too narrow for the rules")
    text = _COMMENT.sub("", _DEVELOPERS.sub("", markdown))
    out: list[str] = []
    for kind, lines in _blocks(text.split("\n")):
        out.extend(_RENDER[kind](lines, width))
    return "\n".join(_single_blank_lines(out)).strip("\n") + "\n"


def _blocks(lines: list[str]) -> list[tuple[str, list[str]]]:
    """The page's blocks, in order, each ``(kind, lines)``: a ``blank`` line, a ``heading`` (or a
    ``---`` rule), a ``table``, an ``indented`` block, a ``paragraph``, or one list ``item`` with
    its continuation lines. An indented line after a blank line is an indented block, unless a
    list item comes before the blank: then it is that item's next paragraph."""
    blocks: list[tuple[str, list[str]]] = []
    kind, current = "", []  # type: tuple[str, list[str]]

    def close() -> None:
        nonlocal kind, current
        if current:
            blocks.append((kind, current))
        kind, current = "", []

    def after_an_item() -> bool:
        """Whether the last block before the blank lines is a list item or one's next paragraph."""
        last = next((block for block in reversed(blocks) if block[0] != "blank"), None)
        return last is not None and (last[0] == "item" or (last[0] == "paragraph" and last[1][0].startswith(" ")))

    for line in lines:
        if not line.strip():
            close()
            blocks.append(("blank", [""]))
        elif line.startswith("#") or line.strip() == "---":
            close()
            blocks.append(("heading", [line]))
        elif line.startswith("|"):
            if kind != "table":
                close()
                kind = "table"
            current.append(line)
        elif _LIST_ITEM.match(line) and kind != "indented":
            close()
            kind = "item"
            current.append(line)
        elif not current:
            kind = "indented" if line.startswith("    ") and not after_an_item() else "paragraph"
            current.append(line)
        else:
            current.append(line)
    close()
    return blocks


def _as_written(lines: list[str], width: int) -> list[str]:
    return [_plain(line) for line in lines]


def _flowed(lines: list[str], width: int) -> list[str]:
    """A paragraph or list item without its citations, flowed to ``width`` under its indent."""
    marker = _LIST_ITEM.match(lines[0])
    prefix = marker.group(0) if marker else re.match(r"\s*", lines[0]).group(0)  # type: ignore[union-attr]
    indent = " " * len(prefix)
    body = " ".join([lines[0][len(prefix):].strip(), *(line.strip() for line in lines[1:])])
    body = _plain(" ".join(_CITATION_IN_PARENTHESES.sub("", _CITATION.sub("", body)).split()))
    return textwrap.wrap(body, width, initial_indent=prefix, subsequent_indent=indent, **_WORDS_WHOLE)


def _indented(lines: list[str], width: int) -> list[str]:
    """Lines laid out by hand (the tiles' texts, the starter layouts) as written; one wider than
    ``width`` broken at spaces under its indent plus two."""
    out = []
    for line in lines:
        if len(line) <= width:
            out.append(line)
            continue
        indent = re.match(r"\s*", line).group(0)  # type: ignore[union-attr]
        out.extend(textwrap.wrap(line.strip(), width, initial_indent=indent, subsequent_indent=indent + "  ", **_WORDS_WHOLE))
    return out


def _table(lines: list[str], width: int) -> list[str]:
    """A Markdown table as columns two spaces apart, the header underlined. Too wide for
    ``width``, the widest columns narrow (never below their longest word) and their cells wrap."""
    rows = [
        [_plain(cell.strip()) for cell in line.strip().strip("|").split("|")]
        for line in lines
        if not re.fullmatch(r"[\s:|-]+", line)  # the |---|---| line
    ]
    columns = max(len(row) for row in rows)
    rows = [row + [""] * (columns - len(row)) for row in rows]
    widths = [max(len(row[column]) for row in rows) for column in range(columns)]
    least = [max((len(word) for row in rows for word in row[column].split()), default=0) for column in range(columns)]
    while sum(widths) + _GAP * (columns - 1) > width:
        column = max(range(columns), key=lambda c: (widths[c] > least[c], widths[c]))
        if widths[column] <= least[column]:
            break  # every column down to its longest word: the rows stay wider than the line
        widths[column] -= 1
    out: list[str] = []
    for number, row in enumerate(rows):
        cells = [textwrap.wrap(cell, widths[column], **_WORDS_WHOLE) or [""] for column, cell in enumerate(row)]
        for depth in range(max(len(cell) for cell in cells)):
            parts = [(cell[depth] if depth < len(cell) else "").ljust(widths[column]) for column, cell in enumerate(cells)]
            out.append((" " * _GAP).join(parts).rstrip())
        if number == 0:
            out.append("─" * min(width, sum(widths) + _GAP * (columns - 1)))
    return out


_WORDS_WHOLE = {"break_long_words": False, "break_on_hyphens": False}
_RENDER = {
    "blank": _as_written,
    "heading": _as_written,
    "paragraph": _flowed,
    "item": _flowed,
    "indented": _indented,
    "table": _table,
}


def _plain(text: str) -> str:
    """Markdown's emphasis and links as their words; code spans (`…`) as written."""
    return "".join(
        part if part.startswith("`") else _ITALIC.sub(r"\1", _BOLD.sub(r"\1", _LINK.sub(r"\1", part)))
        for part in re.split(r"(`[^`]*`)", text)
    )


def _single_blank_lines(lines: list[str]) -> list[str]:
    """``lines`` with runs of blank lines (where dropped text was) down to one."""
    out: list[str] = []
    for line in lines:
        if line or (out and out[-1]):
            out.append(line)
    return out
