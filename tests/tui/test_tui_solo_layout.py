"""Steam Court Solo laid out as the terminal lays it out at 80×24: one layout in every round.

The screen shows a game's panels with their titles in a column on the left and their lines beside
them, unless a line is too wide or a title too long for that (then every panel gets a full-width
heading instead). Solo used to switch between the two from round to round (issue 7): its panels
must keep to titles of at most 16 characters and lines that fit beside them.
"""

from __future__ import annotations

import pytest

from p2pgames.bots import PlayoutBot
from p2pgames.engine import LocalTable
from p2pgames.games import get_game, get_presentation
from p2pgames.games.steamcourt.solo import Beat, Strike, StopTrick
from p2pgames.games.steamcourt.solo_game import SteamCourtSolo
from p2pgames.tui._panels import MAX_GUTTER, layout_panels
from p2pgames.tui._screen import MIN_LOG_ROWS
from p2pgames.tui._text import line_width, plain
from p2pgames.tui._theme import Theme

GAME = get_game("steamcourt")
RULESET = GAME.ruleset(1)
SHOWN = get_presentation("steamcourt").for_ruleset(RULESET)  # (the Solo variant's)
THEME = Theme(False)
# An 80×24 screen less the title and status bars, the input line, the log's rule and its fewest
# rows, and three rows for the prompt and the numbered choices.
TABLE_ROWS = 24 - (2 + 1 + 1 + MIN_LOG_ROWS) - 3


class Eager(SteamCourtSolo):
    """Beats a trick whenever it can: it climbs the ladder, so later rounds and characters show."""

    def playout_choice(self, state, player, actions, knowledge, random):
        beats = [a for a in actions if isinstance(a, (Beat, Strike, StopTrick))]
        return (beats or actions)[random.below(len(beats or actions))]


def screens(game, seed):
    """(round, the panels, the rows laid out at 80 columns) at every decision of a whole game."""
    table = LocalTable(game, RULESET, seed)
    bot = PlayoutBot(seed)
    while True:
        step = table.settle()
        panels = SHOWN.panels(table.state, 0, table.view(0), ["you"])
        yield table.state.round, panels, [plain(row) for row in layout_panels(panels, 80, THEME)]
        if table.over:
            return
        table.act(0, bot.choose(game, table.state, 0, table.view(0), step))


@pytest.mark.parametrize("game, seed", [(GAME.for_ruleset(RULESET), b"layout-1"), (Eager(), b"eager-5"),
                                        (Eager(), b"eager-7")])
def test_solo_keeps_one_layout_at_80x24_in_every_round(game, seed):
    rules: set[int] = set()
    rounds: set[int] = set()
    for round_, panels, rows in screens(game, seed):
        rounds.add(round_)
        assert all(line_width([("", row)]) <= 80 for row in rows)
        # Titles in the left column and lines beside them, never a full-width heading row …
        assert all(" │ " in row and not row.startswith("──") for row in rows), "\n".join(rows)
        rules.update(row.index(" │ ") for row in rows)
        # … each title whole on its own row (no title wraps), one panel after the other …
        titles = [row.split(" │ ")[0].strip() for row in rows]
        assert [title for title in titles if title] == [panel.title for panel in panels]
        assert all(len(panel.title) <= MAX_GUTTER for panel in panels)
        # … and the whole table fits the screen beside the prompt and the log.
        assert len(rows) <= TABLE_ROWS, "\n".join(rows)
    # The same column in every round of the game: the layout doesn't move.
    assert len(rules) == 1
    assert len(rounds) >= 3
