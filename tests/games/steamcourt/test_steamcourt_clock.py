"""Clock Climbing scoring (rulebook: "Clock Climbing"): tricks won move start tokens round the
clock, bonus spaces for the first two out, no shared spaces, the early end of a quarter, reseating
by the clock and the winner farthest ahead."""

from p2pgames.bots import PlayoutBot
from p2pgames.engine import GameOver, Turn
from p2pgames.games.steamcourt.views import space_name

from steamcourt_scenarios import Court

ALICE, BOB, CAROL, DAVE, ERIN, FRANK = range(6)


def test_start_tokens_stand_on_the_clock_from_lowest_to_highest():
    table = Court(4, scoring="clock", seats=(2, 0, 3, 1))
    # The tokens carry the character numbers (Queen 1, Duke 3, Time Traveler 4, Tea Boy 6), which
    # rise with the seats: lowest to highest is the seat order, space k for the k-th seat (I2, I9).
    # alice, the Duke, holds 3 on space 1.
    assert table.state.start == [3, 6, 1, 4]
    assert table.state.clock == [1, 3, 0, 2]
    assert table.table.stacks == [] and table.state.gears == [[], [], [], []]


def test_the_quarter_ends_when_the_second_player_is_out_and_tokens_climb_from_the_lowliest():
    # Queen alice (space 0), Duke bob (1), Tea Boy carol (2).
    table = Court(3, [["5", "1", "3"], ["2"], ["6"]], scoring="clock", play=True)
    table.do(ALICE, "lay 5")
    table.do(BOB, "pass")
    table.do(CAROL, "lay 6")  # carol is out first
    table.do(ALICE, "pass")  # carol wins the trick: one trick
    assert table.step() == Turn((ALICE,), "lead a trick")
    table.do(ALICE, "lay 1")
    table.do(BOB, "lay 2")  # bob is out second: the quarter ends at once
    # From the lowliest seat up: carol 2 + 1 trick + 2 (first out) = 5, which frees space 2;
    # bob 1 + 0 tricks + 1 (second out) = 2; alice stays on 0.
    assert table.state.clock == [0, 2, 5]
    assert table.lines[table.lines.index("the clock:") + 1:][:3] == [
        "  carol: 1 trick + 2 for going out: space 2 -> 5 (outer 6)",
        "  bob: 0 tricks + 1 for going out: space 1 -> 2 (outer 3)",
        "  alice: 0 tricks: space 0 -> 0 (outer 1)",
    ]
    # The player farthest ahead takes the highest character.
    assert table.state.quarter == 2 and table.table.seats == [CAROL, BOB, ALICE]
    # No gear tokens, so no 1-point tokens either.
    assert table.state.powers == [[], [], []] and table.state.gears == [[], [], []]


def test_a_token_never_shares_a_space_it_moves_on_to_the_next_open_one():
    table = Court(3, [["5", "9"], ["3", "4"], ["6", "2"]], scoring="clock", play=True)
    table.do(ALICE, "lay 5")
    table.do(BOB, "pass")
    table.do(CAROL, "lay 6")
    table.do(ALICE, "lay 9")  # alice is out first
    table.do(CAROL, "pass")  # alice wins the trick; bob leads, on her left
    table.do(BOB, "lay 3")
    table.do(CAROL, "pass")
    table.do(BOB, "lay 4")  # out second: the trick in play counts for nobody
    climb = next(note for note in table.notes if note[0] == "climb")
    assert [(player, tricks, bonus) for player, tricks, bonus, _, _ in climb[1]] == [
        (CAROL, 0, 0), (BOB, 0, 1), (ALICE, 1, 2)
    ]
    # carol stays on 2; bob 1 + 1 = 2 is taken: 3; alice 0 + 1 + 2 = 3 is taken: 4.
    assert table.state.clock == [4, 3, 2]


def test_with_six_players_the_quarter_ends_when_the_third_player_is_out():
    hands = [["1", "12"], ["2"], ["3"], ["4"], ["5", "1"], ["6", "1"]]
    table = Court(6, hands, scoring="clock", play=True)
    table.do(ALICE, "lay 1")
    table.do(BOB, "lay 2")  # out first (the General's own lay: nothing to stop)
    table.do(CAROL, "lay 3")  # out second; the General is out of cards: no window
    assert table.state.quarter == 1
    table.do(DAVE, "lay 4")  # out third: the quarter ends
    assert table.state.quarter == 2
    # frank 5, erin 4, dave 3 stay; carol 2 + 1 -> 3, 4, 5 taken: 6; bob 1 + 2 -> 3 … 7.
    assert table.state.clock == [0, 7, 6, 3, 4, 5]
    assert table.table.seats == [BOB, CAROL, FRANK, ERIN, DAVE, ALICE]


def test_after_four_quarters_the_token_farthest_ahead_wins():
    table = Court(5, trim=False, scoring="clock", seed=b"clock")
    table.play_with([PlayoutBot(b"clock")] * 5)
    result = table.step()
    assert isinstance(result, GameOver)
    assert result.scores == tuple(table.state.clock)
    assert len(set(table.state.clock)) == 5  # never two tokens on one space
    assert result.winners == (max(range(5), key=lambda p: table.state.clock[p]),)
    assert result.summary.startswith("farthest on the clock: space ")


def test_spaces_go_round_the_outer_circles_then_the_inner_ones():
    assert [space_name(space) for space in (0, 11, 12, 23, 24, 37)] == [
        "outer 1", "outer 12", "inner 1", "inner 12", "inner 1 (lap 2)", "inner 2 (lap 3)"
    ]
