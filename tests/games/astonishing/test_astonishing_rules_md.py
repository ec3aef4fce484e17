"""RULES.md and the tests stay in step: every test it cites exists, and every test is cited."""

from __future__ import annotations

import re
from pathlib import Path

RULES = Path(__file__).parents[3] / "p2pgames" / "games" / "astonishing" / "RULES.md"
HERE = Path(__file__).parent
CITATION = re.compile(r"`(test_astonishing_[a-z_]+\.py)::(test_[a-z0-9_]+)`")
DEFINITION = re.compile(r"^(?:async )?def (test_[a-z0-9_]+)\(", re.MULTILINE)
NOT_RULES = {"test_astonishing_rules_md.py"}  # about the page, not a rule


def test_every_test_rules_md_cites_exists_and_every_rule_test_is_cited():
    cited = set(CITATION.findall(RULES.read_text(encoding="utf-8")))
    defined = {
        (path.name, name)
        for path in HERE.glob("test_astonishing_*.py") if path.name not in NOT_RULES
        for name in DEFINITION.findall(path.read_text(encoding="utf-8"))
    }
    assert sorted(cited - defined) == [], "RULES.md cites tests that don't exist"
    assert sorted(defined - cited) == [], "tests that RULES.md doesn't cite"
