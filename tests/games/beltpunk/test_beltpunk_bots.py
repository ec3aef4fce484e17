"""The Beltpunk bot: legal, reproducible, and clearly better than random play."""

from p2pgames.bots import RandomBot, bot_for
from p2pgames.engine import LocalTable
from p2pgames.games.beltpunk import GAME
from p2pgames.games.beltpunk.bots import HaberdasherBot, make_bot


class CountingTable(LocalTable):
    """A table that counts, for each seat, the overflows it took and the turns played."""

    def __init__(self, *args, **kwargs):
        self.overflows = None
        super().__init__(*args, **kwargs)
        self.overflows = [0] * self.ruleset.players

    def feed(self, event):
        super().feed(event)
        if self.overflows is not None:
            for note in self.state.notes:
                if note[0] == "overflow":
                    self.overflows[note[2]] += 1


def play(players, seed, kinds, *, check=False):
    """One game; ``kinds[seat]`` is "bot" or "random". Returns the table at the end."""
    bots = [
        make_bot(seed + bytes([seat])) if kind == "bot" else RandomBot(seed + bytes([seat]))
        for seat, kind in enumerate(kinds)
    ]
    table = CountingTable(GAME, GAME.ruleset(players), seed, check=check)
    table.play_with(bots)
    return table


def test_bot_for_finds_the_beltpunk_bot():
    assert isinstance(bot_for(GAME, b"x"), HaberdasherBot)


def test_bots_play_legal_moves_and_are_reproducible():
    first = play(3, b"same", ["bot"] * 3, check=True)
    second = play(3, b"same", ["bot"] * 3)
    assert first.log == second.log


def test_the_bot_beats_random_play_clearly():
    bot_scores, random_scores = [], []
    bot_overflows = random_overflows = 0
    for game in range(30):
        # Two bots and two random players, in seats that change from game to game.
        kinds = (
            ["bot", "random", "bot", "random"] if game % 2 else ["random", "bot", "random", "bot"]
        )
        table = play(4, b"versus" + bytes([game]), kinds)
        for seat, kind in enumerate(kinds):
            if kind == "bot":
                bot_scores.append(table.state.totals[seat])
                bot_overflows += table.overflows[seat]
            else:
                random_scores.append(table.state.totals[seat])
                random_overflows += table.overflows[seat]
    bot_average = sum(bot_scores) / len(bot_scores)
    random_average = sum(random_scores) / len(random_scores)
    assert bot_average > random_average + 15, (bot_average, random_average)
    # The bot rarely lets a conveyor overflow onto itself; random play does it often.
    assert bot_overflows * 4 < random_overflows, (bot_overflows, random_overflows)


def test_the_bot_draws_out_of_a_conveyor_about_to_overflow_onto_it():
    from beltpunk_scenarios import StackedTable, stacked_deck

    from p2pgames.games.beltpunk.actions import Skip

    table = StackedTable(3, [stacked_deck(3, [["P1"], ["G2"], ["E3"]], ["P9", "P10", "P11"])])
    table.discard({0: "P1", 1: "G2", 2: "E3"})
    table.act(1, Skip())
    bot = make_bot(b"rescue")
    # Four Parts cards with three players: whatever the bot does must leave at most three.
    while table.state.actor == 0:
        table.act(0, bot.choose(GAME, table.state, 0, table.view(0), table.step()))
    assert table.state.scrap[0] == [] and len(table.conveyor(2)) <= 3


def test_the_bot_keeps_its_discard_out_of_a_full_conveyor():
    from beltpunk_scenarios import StackedTable, stacked_deck

    # S1 and E13 are equally lonely in this hand, but Steam is full and Steam can't rescue itself.
    table = StackedTable(
        3, [stacked_deck(3, [["S1", "E13", "G5", "P5", "G8", "P8"], [], []], ["S9", "S10", "S11"])]
    )
    choice = make_bot(b"discard").choose(GAME, table.state, 0, table.view(0), table.step())
    assert table.name(choice.slot) != "S1"


def test_the_bot_scores_its_best_set():
    from beltpunk_scenarios import StackedTable, skip_all, stacked_deck

    table = StackedTable(
        2, [stacked_deck(2, [["S4", "S5", "S6", "G9", "P9", "E1", "G12"], []], ["G1", "E13"])]
    )
    table.discard({0: "E1", 1: table.hand(1)[0]})
    skip_all(table)
    bot = make_bot(b"score")
    while table.state.phase == "declare":
        seat = table.state.declarer
        table.act(seat, bot.choose(GAME, table.state, seat, table.view(seat), table.step()))
    choice = bot.choose(GAME, table.state, 0, table.view(0), table.step())
    assert sorted(table.names(choice.slots)) == [
        "S4",
        "S5",
        "S6",
    ]  # a Perfect Belt (5) over Goggles (3)
