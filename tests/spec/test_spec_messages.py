"""SPEC.md §A4's table of message kinds, held to the schemas the session checks every body against
(``p2pgames.session._messages.KINDS``): every kind the code knows has its row, with its fields by
name, and the table lists no other (a new kind, such as ``gone``, moves the SPEC with it)."""

from __future__ import annotations

import re

from p2pgames.session._messages import KINDS
from tests.spec.spec_text import section, table_rows


def fields(body: str) -> set[str]:
    """The field names of a body cell: ``protocol: int, game: text(40), …`` (in code marks)."""
    [code] = re.findall(r"`([^`]*)`", body)[:1]
    return {part.split(":")[0].strip() for part in code.split(", ") if ":" in part}


def test_every_kind_and_its_fields_are_in_the_message_table():
    rows = table_rows(section("## A4."), "kind")
    listed = {row[0].strip("`"): fields(row[-1]) for row in rows}
    assert listed == {kind: set(schema) for kind, schema in KINDS.items()}
