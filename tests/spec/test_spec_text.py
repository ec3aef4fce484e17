"""The SPEC reader used by the tests that hold SPEC.md's tables to the code."""

import pytest

from tests.spec.spec_text import section, spec_text, table_rows

SAMPLE = """# Part D
## D1. One
text one
| action | wire |
|---|---|
| draw | `["draw"]` |
| a|b | `["x", "a|b"]` |

after
### D1.1 Sub
sub text
## D2. Two
two
"""


def test_a_section_runs_to_the_next_heading_of_its_level_and_keeps_its_subsections():
    one = section("## D1.", SAMPLE)
    assert "sub text" in one and "two" not in one
    assert section("### D1.1", SAMPLE).splitlines() == ["### D1.1 Sub", "sub text"]


def test_table_rows_split_cells_outside_code_spans_only():
    assert table_rows(section("## D1.", SAMPLE), "action") == [
        ["draw", '`["draw"]`'], ["a", "b", '`["x", "a|b"]`'],
    ]


def test_missing_sections_and_tables_are_named():
    with pytest.raises(LookupError, match="D9"):
        section("## D9.", SAMPLE)
    with pytest.raises(LookupError, match="state key"):
        table_rows(SAMPLE, "state key")


def test_the_real_spec_has_its_game_sections():
    assert "Beltpunk" in section("## D2.", spec_text())
