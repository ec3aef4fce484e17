"""What the 2015 game shows people: panels that fit 80×24, the Putsch by its name (and typed by
either face), two tables with gear tokens (both stacks, points), the Party variation's standing,
the 2015 characters' numbers, and the 2015 privileges' questions."""

from __future__ import annotations

import re

import pytest
from sc2015_scenarios import NAMES, Court2015
from steamcourt_scenarios import Court

from p2pgames.bots import PlayoutBot
from p2pgames.engine import IllegalAction, LocalTable, MalformedAction
from p2pgames.games.steamcourt.actions import Bestow, Masterstroke
from p2pgames.games.steamcourt.presentation import PRESENTATION as PUBLISHED_PRESENTATION
from p2pgames.games.steamcourt.views import WIDTH
from p2pgames.games.steamcourt2015 import GAME
from p2pgames.games.steamcourt2015.book import DRAFT_2015
from p2pgames.games.steamcourt2015.presentation import PRESENTATION

ALICE, BOB, CAROL, DAVE, ERIN = range(5)

# The terminal shows panel titles in a gutter of at most 16 columns beside the lines (tui/_panels.py).
TITLE_WIDTH = 16
ROWS = 24


def text(panel) -> list[str]:
    return ["".join(part for _, part in line) for line in panel.lines]


def shown(game, state, viewer, knowledge, names) -> dict[str, list[str]]:
    return {panel.title: text(panel) for panel in game.panels(state, viewer, knowledge, names)}


def story(table: LocalTable, names) -> list[str]:
    """Every log line of ``table``'s game so far (the table's own steps too: seating, deals, audits)."""
    lines: list[str] = []
    state = table.game.setup(table.ruleset)
    for event in table.log:
        after = table.game.apply(state, event)
        lines += PRESENTATION.narrate(state, event, after, names)
        state = after
    return lines


def random_table(players: int, seed: bytes, until, **options: str) -> LocalTable:
    table = LocalTable(GAME, GAME.ruleset(players, options), seed)
    table.play_with([PlayoutBot(seed)] * players, until=until)
    return table


# -- 80×24 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 7, 10])
@pytest.mark.parametrize("options", [{"variation": "gears"}, {"variation": "party"}, {"characters": "auction"}], ids=["gears", "party", "auction"])
def test_every_panel_fits_80_by_24_for_players_and_spectators_through_a_whole_game(players, options):
    # Long names: every name the panels print is cut to fit.
    names = [f"player-{'x' * 12}{n}" for n in range(players)]
    table = LocalTable(GAME, GAME.ruleset(players, options), b"fit")
    bot = PlayoutBot(b"fit")
    looked = 0
    while True:
        for viewer in (None, *range(players)):
            panels = PRESENTATION.panels(table.state, viewer, {} if viewer is None else table.view(viewer), names)
            assert sum(len(panel.lines) for panel in panels) <= ROWS, [(p.title, text(p)) for p in panels]
            for panel in panels:
                assert len(panel.title) <= TITLE_WIDTH, panel.title
                for line in text(panel):
                    assert len(line) <= WIDTH, (panel.title, line)
        looked += 1
        if table.over:
            break
        table.play_with([bot] * players, until=lambda t, at=len(table.log): len(t.log) >= at + 9)
    assert looked > 20  # through the quarters, not one glance


# Three 2015 power texts run past WIDTH after "Title: " and wrap to a second row of the powers
# panel (General 69 columns, Submariner 64, Plague Doctor 67). They live in book.py, which is being
# rewritten elsewhere: reported there; shorten them and empty this set.
def test_every_2015_power_text_fits_a_row_after_the_title():
    too_long = {
        character.title
        for character in DRAFT_2015.characters.values()
        if len(f"{character.title}: {character.power_text[1]}") > WIDTH
    }
    assert too_long == set()


# -- the Putsch -----------------------------------------------------------------------------------


def test_the_putsch_is_laid_logged_and_shown_by_its_name():
    # "The Queen lays a Putsch and wins the trick." (the draft's Sample Game Play)
    court = Court2015(5, [["4", "1"], ["5"], ["MS", "6"], ["7"], ["8"]], play=True)
    hand = shown(PRESENTATION, court.state, CAROL, court.view(CAROL), NAMES[:5])["Your hand (2)"]
    assert hand == ["6 Putsch  (Putsch beats all)"]
    court.do(ALICE, "lay 4")
    court.passes(BOB)
    assert court.texts(CAROL) == ["lay 6", "lay Putsch", "pass"]
    court.do(CAROL, "lay Putsch")
    assert court.lines[-1] == "carol lays a Putsch"
    # The General may stop it: the trick is still in the machine.
    machine = shown(PRESENTATION, court.state, DAVE, court.view(DAVE), NAMES[:5])["The machine"]
    assert machine[-1].split() == ["carol", "Putsch", "beats", "all"]
    asked = shown(PRESENTATION, court.state, BOB, court.view(BOB), NAMES[:5])["You are asked"]
    assert asked[0].startswith("carol laid a Putsch — stop it?")


def test_a_putsch_is_typed_either_way_in_the_2015_game_only():
    court = Court2015(5, [["MS", "4"], ["5"], ["6"], ["7"], ["8"]], play=True)
    putsch = Masterstroke(court.slot(ALICE, "MS"))
    for typed in ("lay putsch", "lay Putsch", "LAY PUTSCH", "lay MS"):
        assert PRESENTATION.parse_action(court.state, ALICE, typed, court.view(ALICE), NAMES[:5]) == putsch
    with pytest.raises(IllegalAction, match="a Putsch is laid alone: lay Putsch"):
        PRESENTATION.parse_action(court.state, ALICE, "lay putsch 4", court.view(ALICE), NAMES[:5])
    with pytest.raises(MalformedAction, match=r"and Putsch \(or MS\)"):
        PRESENTATION.parse_action(court.state, ALICE, "lay masterstroke", court.view(ALICE), NAMES[:5])
    without = Court2015(5, [["4"], ["5"], ["6"], ["7"], ["8"]], play=True)
    with pytest.raises(IllegalAction, match="you hold no Putsch"):
        PRESENTATION.parse_action(without.state, ALICE, "lay putsch", without.view(ALICE), NAMES[:5])
    # The published game keeps its typing: "putsch" is no card there.
    published = Court(5, [["MS", "4"], ["5"], ["6"], ["7"], ["8"]], play=True)
    with pytest.raises(MalformedAction, match="'putsch' is not a card"):
        PUBLISHED_PRESENTATION.parse_action(published.state, ALICE, "lay putsch", published.view(ALICE), NAMES[:5])


def test_a_putsch_given_away_reads_back_as_typed():
    court = Court2015(5, [["MS", "2", "12"], ["5"], ["6"], ["7"], ["8"]])
    names = NAMES[:5]
    gift = Bestow(court.slots(ALICE, ["2", "MS"]), ERIN)
    assert PRESENTATION.describe_action(court.state, ALICE, gift, court.view(ALICE), names) == "give 2 Putsch to erin"
    for typed in ("give 2 putsch to erin", "give putsch 2 to erin", "give ms 2 to erin"):
        assert PRESENTATION.parse_action(court.state, ALICE, typed, court.view(ALICE), names) == gift


def test_the_coup_asks_about_three_putsch_cards():
    # (The Queen has no coup to pull: the General holds them.)
    court = Court2015(5, [["4"], ["MS", "MS", "MS", "4"], ["6"], ["7"], ["8"]], coup=True)
    assert court.step().prompt == "pull a coup with three Putsch cards?"
    asked = shown(PRESENTATION, court.state, BOB, court.view(BOB), NAMES[:5])["You are asked"]
    assert asked[0] == "You hold three Putsch cards. Pull a coup? (coup / pass)"


def test_nothing_the_2015_game_shows_calls_the_card_a_masterstroke():
    table = LocalTable(GAME, GAME.ruleset(10), b"names")
    names = NAMES[:10]
    seen: list[str] = [PRESENTATION.help_text()]
    bot = PlayoutBot(b"names")
    putsch_laid = False
    while not table.over:
        step = table.step()
        seen.append(step.prompt)
        for viewer in (None, *range(10)):
            knowledge = {} if viewer is None else table.view(viewer)
            seen.extend(line for panel in PRESENTATION.panels(table.state, viewer, knowledge, names) for line in text(panel))
        for seat in range(10):
            view = table.view(seat)
            seen.extend(PRESENTATION.describe_action(table.state, seat, a, view, names) for a in GAME.legal_actions(table.state, seat, view))
        before = table.state
        seat = step.actors[0] if hasattr(step, "actors") else next(
            p for p in step.players if GAME.legal_actions(table.state, p, table.view(p))
        )
        table.act(seat, bot.choose(GAME, table.state, seat, table.view(seat), step))
        lines = PRESENTATION.narrate(before, table.log[-1], table.state, names)
        putsch_laid |= any(line.endswith("lays a Putsch") for line in lines)
        seen.extend(lines)
    assert putsch_laid
    everything = "\n".join(seen)
    assert "Masterstroke" not in everything
    assert " MS" not in everything.replace("lay MS is read as well", "")


# -- two tables with gear tokens --------------------------------------------------------------------


def score_text(state, player: int) -> str:
    """A seat's points as its row ends: ``start 4`` before any gear token, then ``4+6+5 = 15``;
    a bid won in the Character Auction taken off: ``start 1-3 = -2``, ``1+1-3 = -1``."""
    gears, bid = state.gears[player], state.bids[player]
    if not gears and not bid:
        return f"start {state.start[player]}"
    less = f"-{bid}" if bid else ""
    tokens = "+".join(str(n) for n in (state.start[player], *gears))
    return ("" if gears else "start ") + tokens + less + f" = {state.totals()[player]}"


def adds_up(score: str) -> bool:
    """Whether a shown sum is right: ``1+1-3 = -1`` (or ``start 1-3=-2``, spaces dropped); a
    lone start token (``start 3``) has nothing to add."""
    if "=" not in score:
        return re.fullmatch(r"start \d+", score) is not None
    terms, total = score.removeprefix("start ").replace(" ", "").split("=")
    left = re.fullmatch(r"(\d+(?:\+\d+)*)(?:-(\d+))?", terms)
    assert left is not None, score
    return sum(map(int, left[1].split("+"))) - int(left[2] or 0) == int(total)


def test_two_tables_with_gear_tokens_show_both_stacks_and_everyones_points():
    names = NAMES[:10]
    table = random_table(10, b"two", lambda t: t.state.quarter == 2 and any(tb.out for tb in t.state.tables))
    state = table.state
    royal, renegades = state.tables
    totals = state.totals()
    assert any(state.gears)  # points beyond the start tokens
    viewer = royal.seats[0]
    panels = shown(PRESENTATION, state, viewer, table.view(viewer), names)
    header = panels["Steam Court"]
    assert header[0].startswith("quarter 2 of 4 · gear tokens")

    def next_token(tb) -> str:
        if tb.phase == "done":
            return "quarter over"
        stack = tb.stacks[1]
        return f"next token {stack[-1]}" if stack else "no tokens left"

    assert header[1] == f"Royal table: {next_token(royal)} · Renegade table: {next_token(renegades)}"
    # Each seat of his table: start + gear tokens = points.
    for row, player in zip(panels["Royal table"], royal.seats, strict=True):
        assert row.endswith(score_text(state, player)), row
    # The other table at a glance, with points.
    glance = " ".join(panels["Renegade table"])
    for player in renegades.seats:
        assert f"{names[player][:8]} {len(state.hands[player])} ({totals[player]} pts)" in glance
    # Someone watching sees each table's stack on its own line.
    watching = " ".join(shown(PRESENTATION, state, None, {}, names)["Steam Court"])
    assert "Royal table" in watching and "Renegade table" in watching


def test_the_longest_score_drops_its_spaces_to_fit_the_row():
    # Start token 10 and four 10 gear tokens: "10+10+10+10+10 = 50" would run one column past WIDTH.
    names = [f"player-{'x' * 12}{n}" for n in range(10)]
    table = random_table(10, b"widest", lambda t: t.state.quarter == 1 and t.state.tables[1].lays)
    state = table.state.copy()
    player = state.tables[1].seats[-1]
    state.start[player], state.gears[player] = 10, [10, 10, 10, 10]
    rows = shown(PRESENTATION, state, None, {}, names)["Renegade table"]
    row = rows[-1]
    assert row.endswith("10+10+10+10+10=50") and len(row) <= WIDTH, row
    for other, seat in zip(rows[:-1], state.tables[1].seats[:-1], strict=True):  # the others keep their spaces
        assert other.endswith(score_text(state, seat)), other


def test_the_longest_score_with_a_bid_sums_its_tokens_to_fit_the_row():
    # Five two-digit tokens less a two-digit bid: "10+10+10+10+10-12=38" runs past WIDTH even
    # without spaces; the row sums the tokens then, and the sum still adds up.
    names = [f"player-{'x' * 12}{n}" for n in range(10)]
    table = random_table(10, b"widest-bid", lambda t: t.state.quarter == 1 and t.state.tables[1].lays, characters="auction")
    state = table.state.copy()
    renegades = state.tables[1].seats
    widest, spaceless, spaced = renegades[-1], renegades[-2], renegades[-3]
    state.start[widest], state.gears[widest], state.bids[widest] = 10, [10, 10, 10, 10], 12
    state.start[spaceless], state.gears[spaceless], state.bids[spaceless] = 10, [10, 10, 10, 10], 0
    state.start[spaced], state.gears[spaced], state.bids[spaced] = 9, [5], 3
    rows = dict(zip(renegades, shown(PRESENTATION, state, None, {}, names)["Renegade table"], strict=True))
    assert rows[widest].endswith(" 50-12=38") and len(rows[widest]) <= WIDTH, rows[widest]
    assert rows[spaceless].endswith(" 10+10+10+10+10=50") and len(rows[spaceless]) <= WIDTH, rows[spaceless]
    assert rows[spaced].endswith(" 9+5-3 = 11"), rows[spaced]


def test_an_auction_games_scores_take_the_bid_off_and_add_up_on_every_row_and_in_the_standings():
    # The field report: "1+1 = -1", "3+4 = 6" — the bid was taken off but not shown.
    names = NAMES[:5]
    table = LocalTable(GAME, GAME.ruleset(5, {"characters": "auction"}), b"auction-score")
    bot = PlayoutBot(b"score")
    table.play_with([bot] * 5, until=lambda t: t.state.phase != "auction")
    state = table.state
    paid = [player for player in range(5) if state.bids[player]]
    assert paid, state.bids  # someone won a character with a bid
    # As the first quarter starts: the start token less the bid.
    rows = shown(PRESENTATION, state, None, {}, names)["The table"]
    for row, player in zip(rows, state.tables[0].seats, strict=True):
        assert row.endswith(score_text(state, player)), row
    for player in paid:
        row = next(row for row in rows if f" {names[player]} " in row)
        bid, start = state.bids[player], state.start[player]
        assert row.endswith(f"start {start}-{bid} = {start - bid}"), row
    # Through the game: every row's sum adds up to the player's points.
    looked = 0
    while not table.over:
        table.play_with([bot] * 5, until=lambda t, at=len(table.log): len(t.log) >= at + 11)
        state = table.state
        seats = state.tables[0].seats
        rows = shown(PRESENTATION, state, None, {}, names)["The table"][: len(seats)]  # (then: left holding)
        for row, player in zip(rows, seats, strict=True):
            score = score_text(state, player)
            assert row.endswith(score) and adds_up(score), row
            looked += player in paid and bool(state.gears[player])
    assert looked > 5  # rows with a bid and gear tokens, not only the start
    # The final standings: each score with a bid says what it is made of.
    result = table.step()
    standings = " ".join(shown(PRESENTATION, table.state, None, {}, names)["Final standings"])
    for player in range(5):
        points, bid = result.scores[player], state.bids[player]
        said = rf" \(tokens {points + bid}, bid -{bid}\)" if bid else ""
        assert re.search(rf"{names[player]} (wins with )?{points} points{said}( ·|$)", standings), standings


def test_the_help_says_the_auctions_bid_is_taken_off_the_points():
    help_text = PRESENTATION.help_text()
    assert "four gear tokens, less\nyour bid in the Character Auction) wins" in help_text
    assert "start + gear tokens less your bid, and the table adds them up: 1+1-3 = -1" in help_text.replace("\n", " ")
    assert "bid" not in PUBLISHED_PRESENTATION.help_text().replace("\n", " ").replace("forbidden", "")


def test_two_tables_with_gear_tokens_end_with_the_points():
    names = NAMES[:9]
    table = random_table(9, b"two-end", None)
    result = table.step()
    screen = shown(PRESENTATION, table.state, 0, table.view(0), names)
    assert list(screen) == ["Steam Court", "Final standings", "Quarter 4"]
    assert screen["Steam Court"] == ["game over · 4 quarters played · gear tokens"]
    winner = result.winners[0]
    assert screen["Final standings"][0].startswith(f"{names[winner]} wins with {result.scores[winner]} points")


def test_the_log_of_two_tables_with_gear_tokens_tells_the_points_as_a_quarter_ends():
    names = NAMES[:8]
    table = random_table(8, b"log", lambda t: t.state.quarter == 2)
    lines = story(table, names)
    assert any(" and takes the " in line and line.endswith(" gear token") for line in lines)
    points = next(line for line in lines if line.startswith("points: "))
    totals = table.state.totals()
    assert all(f"{names[p]} {totals[p]}" in points for p in range(8))


# -- the Party variation ----------------------------------------------------------------------------


def test_the_party_variation_at_one_table_shows_a_standing_not_points():
    names = NAMES[:5]
    table = random_table(5, b"party", lambda t: t.state.quarter == 2 and t.state.tables[0].out, variation="party")
    state = table.state
    screen = shown(PRESENTATION, state, 0, table.view(0), names)
    assert "Party variant" in screen["Steam Court"][0] and "gear tokens" not in screen["Steam Court"][0]
    first = state.tables[0].out[0]
    row = next(row for row in screen["The table"] if f" {names[first]} " in row)
    assert row.endswith(f"token {state.gears[first][-1]}") and "=" not in row
    table.play_with([PlayoutBot(b"party")] * 5)
    result = table.step()
    final = shown(PRESENTATION, table.state, 0, table.view(0), names)["Final standings"]
    assert final[0].startswith(f"{names[result.winners[0]]} wins: first out in quarter 4")
    assert "points" not in " ".join(final)


# -- the 2015 numbers and privileges ----------------------------------------------------------------


def test_seats_show_the_2015_characters_numbers():
    # The 2015 ranks, Queen 1 … Vagabond 10 (the published Alchemist is 9, its Tea Boy 6).
    names = NAMES[:10]
    table = random_table(10, b"numbers", lambda t: t.state.quarter == 1 and t.state.tables[0].lays)
    screen = shown(PRESENTATION, table.state, None, {}, names)
    numbers = [int(row.split()[0]) for title in ("Royal table", "Renegade table") for row in screen[title]]
    assert numbers == list(range(1, 11))
    assert [row.split()[1] for row in screen["Royal table"]][3:] == ["Alchemist", "Tea"]


def test_the_plague_doctor_is_asked_to_draw_and_then_what_must_go_back():
    court = Court2015(5, [["1"], ["2"], ["3"], ["4"], ["5"]], options={"table": "renegade"})
    court.pass_privileges_until(CAROL)
    asked = shown(PRESENTATION, court.state, CAROL, court.view(CAROL), NAMES[:5])["You are asked"]
    assert asked[0].startswith("Draw four from the Court Hand") and "(plague / pass)" in " ".join(asked)
    court.do(CAROL, "plague")
    asked = shown(PRESENTATION, court.state, CAROL, court.view(CAROL), NAMES[:5])["You are asked"]
    assert asked[0] == "Put back 2 more of the cards you drew: put back N"
    court.do(CAROL, court.texts(CAROL)[0])
    asked = shown(PRESENTATION, court.state, CAROL, court.view(CAROL), NAMES[:5])["You are asked"]
    assert asked[0] == "Put back 1 more of the cards you drew: put back N"


def test_the_queen_and_the_general_are_asked_to_give_to_their_one_receiver():
    court = Court2015(5, [["1", "2", "3"], ["4", "5"], ["6"], ["7"], ["8"]])
    assert court.step().prompt == "give two cards to the lowest player, or pass"
    asked = shown(PRESENTATION, court.state, ALICE, court.view(ALICE), NAMES[:5])["You are asked"]
    assert asked[0] == "Give two cards to erin? (give N M to erin / pass)"
    court.do(ALICE, "pass")
    assert court.step().prompt == "give one card to the second-lowest player, or pass"
    asked = shown(PRESENTATION, court.state, BOB, court.view(BOB), NAMES[:5])["You are asked"]
    assert asked[0] == "Give one card to dave? (give N to dave / pass)"


def test_the_vagabond_serves_the_renegade_tables_highest_player():
    court = Court2015(5, [["1"], ["2"], ["3"], ["4"], ["5", "11", "12"]], options={"table": "renegade"})
    court.pass_privileges_until(ERIN)
    asked = shown(PRESENTATION, court.state, ERIN, court.view(ERIN), NAMES[:5])["You are asked"]
    assert " ".join(asked) == "Give your two highest numbered cards to the Submariner: give 11 12 to alice"


def test_the_help_names_the_putsch_and_the_moves_and_fits_78_columns():
    help_text = PRESENTATION.help_text()
    assert max(len(line) for line in help_text.splitlines()) <= 78
    for command in ("lay Putsch", "lay MS", "give 2 5 to erin", "give 11 12 to alice", "plague", "dive discard 7", "retrieve", "Party variation"):
        assert command in help_text
    assert "Masterstroke" not in help_text
