"""``RULES.md`` of the 2015 rules cites tests that exist, and every Interpretation it marks."""

from __future__ import annotations

import re
from pathlib import Path

import p2pgames.games.steamcourt2015 as package

HERE = Path(__file__).parent
PAGE = (Path(package.__file__).parent / "RULES.md").read_text(encoding="utf-8")


def test_every_cited_test_exists():
    cited = re.findall(r"`(\w+)::(test_\w+)`", PAGE)
    assert len(cited) > 40
    missing = []
    for short, name in cited:
        source = (HERE / f"test_sc2015_{short}.py").read_text(encoding="utf-8")
        if not re.search(rf"^def {name}\(", source, re.MULTILINE):
            missing.append(f"{short}::{name}")
    assert missing == []


def test_every_interpretation_marked_is_explained_once():
    marked = {int(n) for group in re.findall(r"\*\*\(I([\d, I]+)\)\*\*", PAGE) for n in re.findall(r"\d+", group)}
    explained = [int(n) for n in re.findall(r"^- \*\*I(\d+) —", PAGE, re.MULTILINE)]
    assert sorted(explained) == list(range(1, len(explained) + 1))
    assert marked <= set(explained)
