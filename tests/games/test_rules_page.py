"""The rules page players read (``p2pgames.games.rules_page``): ``RULES.md`` by its three format
rules — citations and developer text left out, the rest flowed to the terminal — on a page that
has every shape, and on every game's page at narrow and wide terminals."""

from __future__ import annotations

from collections import Counter
from importlib import resources

import pytest

from p2pgames.games import PLAYABLE, game_package
from p2pgames.games.rules_page import player_rules

PAGE = """\
# A game — the rules as implemented

Source: *A Game*. This page follows the rulebook's order.<!-- developers --> Each rule names its
test.<!-- /developers --> Readings are marked **(I*n*)**, see [Interpretations](#interpretations).

## Players

Two players exactly. — `test_setup.py::test_two_players`

Ties are broken by the first out **(I2)**. —
`test_setup.py::test_ties_one`,
`setup::test_ties_two` (the rulebook's example), `setup::*`.

1. **Deal** eight cards each. — `setup::test_eight_each`
   - `deal: fast` deals them at once (`setup::test_fast`).

| typed | move |
|---|---|
| `lay 5 5` | two 5s, one after the other, laid on the table at once |

    Bow Cannon (BowCannon): Panzer, standard; 4 structure, 2 oxygen, a long line to wrap.
      Duty: attack 2.

<!-- developers -->
## The engine contract

Random games conform. — `conformance::test_random_games_conform`
<!-- /developers -->

## Interpretations

**I2 — Ties.** The first out wins.
"""

SHOWN = """\
# A game — the rules as implemented

Source: A Game. This page follows the rulebook's
order. Readings are marked (In), see
Interpretations.

## Players

Two players exactly.

Ties are broken by the first out (I2).

1. Deal eight cards each.
   - `deal: fast` deals them at once.

typed      move
──────────────────────────────────────────────────
`lay 5 5`  two 5s, one after the other, laid on
           the table at once

    Bow Cannon (BowCannon): Panzer, standard; 4
      structure, 2 oxygen, a long line to wrap.
      Duty: attack 2.

## Interpretations

I2 — Ties. The first out wins.
"""


def test_citations_and_developer_text_are_left_out_and_the_rest_flowed_to_the_width():
    assert player_rules(PAGE, 50) == SHOWN


def test_a_terminal_too_narrow_for_the_rules_is_refused():
    with pytest.raises(ValueError, match="a terminal of 19 columns is too narrow for the rules"):
        player_rules(PAGE, 19)


@pytest.mark.parametrize("width", [60, 80, 120])
@pytest.mark.parametrize("name", list(PLAYABLE))
def test_every_games_rules_fit_the_terminal_and_keep_their_words(name, width):
    page = resources.files(game_package(name)).joinpath("RULES.md").read_text(encoding="utf-8")
    shown = player_rules(page, width)
    assert [line for line in shown.splitlines() if len(line) > width] == []
    # Flowing moves words, never loses them: the same words at any width (a table's cells wrap
    # side by side, so their words interleave; its underline is as wide as the table).
    assert words(shown) == words(player_rules(page, 80))


def words(text: str) -> Counter:
    return Counter(word for word in text.split() if set(word) != {"─"})
