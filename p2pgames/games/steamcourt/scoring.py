"""How a quarter and the game end and score (rulebook, "End of Quarter", "Tokens", "End of 4th
Quarter"; the Party variant's "Victory Condition"; Clock Climbing): going out and the gear tokens,
the 1-point token's power, the clock's moves, the game's result and the line it says.
"""

from __future__ import annotations

from p2pgames.engine import GameOver
from p2pgames.games.steamcourt import duo
from p2pgames.games.steamcourt.phases import Phase
from p2pgames.games.steamcourt.setup import QUARTERS
from p2pgames.games.steamcourt.state import Hooks, SteamCourtState, Table

__all__ = [
    "CLOCK_BONUS",
    "ONE_POINT_POWERS",
    "end_quarter",
    "go_out",
    "one_point_power",
    "party_result_summary",
    "quarter_over",
    "result",
    "result_summary",
    "space_name",
]

# The power on the back of each quarter's 1-point gear token (RULES.md, I8).
ONE_POINT_POWERS = ("unpass", "discard", "unpass", "discard")
# Clock Climbing: extra spaces for the first and second player to go out.
CLOCK_BONUS = (2, 1)


def go_out(state: SteamCourtState, table: Table, player: int) -> None:
    """``player`` takes his place in the going-out order and the top token; he may still hold
    cards (the last player when the quarter ends): they stay in his hand, seen by him alone,
    until the quarter's audit reveals them (the log then says what he held). Between quarters
    the same event clears every hand and deals the next quarter; after the 4th they stay on
    the final table, face up (RULES.md, I27)."""
    table.out.append(player)
    token = 0
    if state.scoring == "gears":
        token = table.stacks[state.quarter - 1].pop()
        state.gears[player].append(token)
    state.notes.append(("out", player, token, len(table.out), len(state.hands[player])))


def quarter_over(state: SteamCourtState, table: Table) -> bool:
    """Whether the quarter is over at ``table``: one player (or none) holds cards; Clock Climbing:
    the second player (the third at six) is out."""
    holding = sum(1 for player in table.seats if state.hands[player])
    if holding <= 1:
        return True
    if state.scoring == "clock":
        # Clock Climbing: the quarter ends once the second player is out (the third at six).
        return len(table.out) >= (3 if len(table.seats) == 6 else 2)
    return False


def end_quarter(game: Hooks, state: SteamCourtState, table: Table) -> None:
    """The quarter is over at ``table``: the last player out takes the last token (and its power:
    ``game.one_point_power``), or the clock moves; once every table is done, the quarter's deals
    are audited."""
    if state.variant == "party" or state.scoring == "gears":
        for player in table.seats:
            if state.hands[player]:
                # The last player with cards goes out last: the 1-point token and its power;
                # in the Party variant the last start token, with no power (I22).
                go_out(state, table, player)
                power = game.one_point_power(state)
                if power is not None:
                    state.powers[player].append([power, False])
                    # After the 4th quarter there is no later: the token is just its point.
                    state.notes.append(("one-point", player, power, state.quarter < QUARTERS))
    else:
        _climb(state, table)
    table.phase = Phase.DONE
    table.turn = -1
    if all(other.phase == Phase.DONE for other in state.tables):
        state.cards.audit(deal for other in state.tables for deal in other.deals)
        state.phase = Phase.AUDITING


def one_point_power(state: SteamCourtState) -> str | None:
    """The power on the back of this quarter's 1-point gear token, which the last player out
    takes (RULES.md, I8); none in the Party variant, which takes start tokens (I22)."""
    return None if state.variant == "party" else ONE_POINT_POWERS[state.quarter - 1]


def _climb(state: SteamCourtState, table: Table) -> None:
    """Clock Climbing: from the lowliest seat up, each token moves a space per trick won,
    plus 2 for the first player out and 1 for the second, to the next open space."""
    bonus = {player: extra for player, extra in zip(table.out, CLOCK_BONUS)}
    clock = state.clock
    moves = []
    for player in reversed(table.seats):
        steps = state.tricks[player] + bonus.get(player, 0)
        space = clock[player] + steps
        occupied = {clock[other] for other in table.seats if other != player}
        while space in occupied:
            space += 1
        moves.append((player, state.tricks[player], bonus.get(player, 0), clock[player], space))
        clock[player] = space
    state.notes.append(("climb", tuple(moves)))


def result(state: SteamCourtState) -> GameOver:
    """The game's result after the 4th quarter: the Duo ladder's, the Party variant's (the Royal
    table's first out), else the highest score, ties to the first out of the 4th quarter."""
    if state.variant == "duo" and (ladder := duo.result(state)) is not None:
        return ladder
    scores = state.totals()
    if state.variant == "party":
        # The Royal table's first player out in the 4th quarter wins (RULES.md, I25).
        winner = state.tables[0].seats[0]
        return GameOver(tuple(scores), (winner,), party_result_summary(state, winner))
    best = max(scores)
    tied = [p for p in range(state.players) if scores[p] == best]
    # Ties: the tied player who went out first in the fourth quarter wins (RULES.md, I10).
    order = state.going_out_order()
    winner = min(tied, key=lambda p: order.index(p) if p in order else len(order))
    return GameOver(tuple(scores), (winner,), result_summary(state, winner, len(tied)))


# -- what a result says ------------------------------------------------------------------------


def space_name(space: int) -> str:
    """A Clock Climbing space: 12 outer circles, then the inner circles (round again after)."""
    hour = space % 12 + 1
    if space < 12:
        return f"outer {hour}"
    lap = space // 12
    return f"inner {hour}" + (f" (lap {lap})" if lap > 1 else "")


def result_summary(state: "SteamCourtState", winner: int, tied: int) -> str:
    """One line for :class:`GameOver`, naming nobody (the session puts the names in front)."""
    totals = state.totals()
    if state.scoring == "clock":
        return f"farthest on the clock: space {totals[winner]} ({space_name(totals[winner])})"
    if tied > 1:
        return f"{totals[winner]} points, tied; first out in the 4th quarter breaks the tie"
    return f"{totals[winner]} points after four quarters"


def party_result_summary(state: "SteamCourtState", winner: int) -> str:
    """One line for the Party variant's :class:`GameOver` (the session puts the winner's name in front)."""
    return "first out at the Royal table in the 4th quarter: Engineer to Her Royal Majesty the Queen"
