"""Reading ``protocol/SPEC.md`` from tests, so the SPEC's tables can be checked against the code.

A section is found by the start of its heading (``"## D2."``) and runs to the next heading of the
same or a higher level. A table is found by its header's first cell and read as a list of rows,
each a list of cells with the Markdown code marks (backticks) kept.
"""

from __future__ import annotations

import pathlib

SPEC_PATH = pathlib.Path(__file__).resolve().parents[2] / "protocol" / "SPEC.md"


def spec_text() -> str:
    return SPEC_PATH.read_text(encoding="utf-8")


def section(heading_start: str, text: str | None = None) -> str:
    """The text of the section whose heading line starts with ``heading_start`` (e.g. ``"## D2."``).

    Raises ``LookupError`` if no heading starts so.
    """
    lines = (text if text is not None else spec_text()).splitlines()
    level = len(heading_start) - len(heading_start.lstrip("#"))
    for index, line in enumerate(lines):
        if line.startswith(heading_start):
            body = [line]
            for following in lines[index + 1:]:
                hashes = len(following) - len(following.lstrip("#"))
                if hashes and hashes <= level and following[hashes:hashes + 1] == " ":
                    break
                body.append(following)
            return "\n".join(body)
    raise LookupError(f"SPEC.md has no heading starting with {heading_start!r}")


def table_rows(text: str, first_header: str) -> list[list[str]]:
    """The rows (without header and rule) of the first table in ``text`` whose header's first cell
    is ``first_header``. Raises ``LookupError`` if there is none."""
    lines = text.splitlines()
    for index, line in enumerate(lines):
        cells = _cells(line)
        if cells and cells[0] == first_header:
            rows = []
            for row in lines[index + 2:]:
                if not row.lstrip().startswith("|"):
                    break
                rows.append(_cells(row))
            return rows
    raise LookupError(f"no table headed {first_header!r}")


def _cells(line: str) -> list[str]:
    stripped = line.strip()
    if not stripped.startswith("|"):
        return []
    # A cell may hold a code span with a "|" in it (`a|b`); split only outside backticks.
    cells, current, in_code = [], [], False
    for char in stripped.strip("|"):
        if char == "`":
            in_code = not in_code
        if char == "|" and not in_code:
            cells.append("".join(current).strip())
            current = []
        else:
            current.append(char)
    cells.append("".join(current).strip())
    return cells
