"""The Inventor sheets on the rules page: ``RULES.md`` lists each Inventor's descriptor lists as
the game reads them from ``descriptors.toml``, so what ``p2pgames rules astonishing`` prints is
what a description names."""

from __future__ import annotations

from importlib import resources

from p2pgames.games.astonishing.cards import ACE_WORTH, descriptors
from p2pgames.games.astonishing.views import inventor_sheets
from p2pgames.games.rules_page import player_rules

RULES = resources.files("p2pgames.games.astonishing").joinpath("RULES.md").read_text(encoding="utf-8")


def test_the_rules_page_lists_every_inventors_descriptors_as_the_game_reads_them():
    sheets = inventor_sheets()
    assert "\n".join(sheets) in RULES
    # Every entry a description can name: 4 Inventors, 3 lists, 1–10 and the own-suit Ace's 11.
    for sheet in descriptors():
        for position in range(3):
            for number in (*range(1, 11), ACE_WORTH):
                assert f"      {number:>4}  {sheet.entry(position, number)}" in sheets
    # Players get them as written, under each Inventor's name.
    shown = player_rules(RULES)
    assert "\n".join(line for line in sheets if len(line) <= 80) in "\n".join(
        line for line in shown.splitlines() if len(line) <= 80
    )
    assert "    Albert Smithering (Spades ♠)\n      form\n         1  " in shown
