"""The Beltpunk bot: legal, reproducible, and clearly better than random play."""

from p2pgames.bots import RandomBot, bot_for
from p2pgames.engine import LocalTable, Simultaneous
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
    bots = [make_bot(seed + bytes([seat])) if kind == "bot" else RandomBot(seed + bytes([seat]))
            for seat, kind in enumerate(kinds)]
    table = CountingTable(GAME, GAME.ruleset(players), seed, check=check)
    while not table.over:
        step = table.step()
        if isinstance(step, Simultaneous):
            table.act_simultaneous([(p, bots[p].choose(GAME, table.state, p, table.view(p), step))
                                    for p in step.players])
        else:
            seat = step.actors[0]
            table.act(seat, bots[seat].choose(GAME, table.state, seat, table.view(seat), step))
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
        kinds = ["bot", "random", "bot", "random"] if game % 2 else ["random", "bot", "random", "bot"]
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
