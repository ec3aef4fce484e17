"""Setting a game of Steam Court up and each quarter's deal (rulebook, "Game Setup" and
"Starting a New Quarter"; the Party variant's tables and "Promotion and Demotion").

* the tables (:func:`new_tables`): the characters set out in seat order and the gear tokens, one stack
  a quarter, highest on top (the Party variant: the start tokens);
* the start tokens, drawn at random, seat the players (:func:`draw_start_tokens`);
* a quarter (:func:`start_quarter`): one deal of the deck into equal hands and the Court Hand,
  which takes the extras (:func:`deal`); a coup (three Masterstrokes, rulebook "Explanation of
  Cards") seats its player as the Queen and deals the quarter again (:func:`coup_revealed`);
* between quarters, once the quarter's cards are audited (:func:`after_audit`): reseat by the
  going-out order (the clock's: by the spaces; the Party variant: promotion and demotion between
  the tables) and deal again; after the 4th quarter the final table stays as it was played.
"""

from __future__ import annotations

from typing import Mapping

from p2pgames.engine import DeterministicRandom, Ruleset, RulesetError, RuleViolation
from p2pgames.games.steamcourt import duo
from p2pgames.games.steamcourt.cards import FACE, FACE_ORDER, RECOMMENDED, party_characters
from p2pgames.games.steamcourt.phases import Phase
from p2pgames.games.steamcourt.rulebook import Rulebook
from p2pgames.games.steamcourt.state import SteamCourtState, Table, new_table

__all__ = ["QUARTERS", "after_audit", "coup_revealed", "deal", "draw_start_tokens", "new_tables", "start_quarter"]

QUARTERS = 4  # a game's quarters, each with its stack of gear tokens


def new_tables(ruleset: Ruleset, book: Rulebook, seating: Mapping[int, tuple[str, ...]]) -> list[Table]:
    """The tables a game of ``ruleset`` sets out before the start tokens are drawn: each table's
    characters in seat order (``seating``'s for its number of players, else the recommended ones;
    the Party variant's two tables; the Duo variant's first rungs), and its gear token stacks, one
    a quarter."""
    players = ruleset.players
    if ruleset["variant"] == "party":
        # Two tables; only the start tokens are used, stacked lowest on top (RULES.md, I22).
        royal, renegades = party_characters(players, ruleset["removed"])
        tables = []
        first = 0
        for characters in (royal, renegades):
            tokens = sorted((book[c].number for c in characters), reverse=True)  # bottom first
            seats = list(range(first, first + len(characters)))
            tables.append(new_table(characters, seats, [tokens[:] for _ in range(QUARTERS)], players))
            first += len(characters)
    else:
        if ruleset["variant"] == "duo":
            characters = duo.characters(1)
        else:
            characters = seating.get(players, RECOMMENDED.get(players, ()))
        if len(characters) != players:
            raise RulesetError(f"{players} players need {players} characters, not {characters}")
        gears_up = list(range(1, players + 1))  # bottom 1 … top n
        stacks = [gears_up[:] for _ in range(QUARTERS)] if ruleset["scoring"] == "gears" else []
        tables = [new_table(characters, list(range(players)), stacks, players)]
    return tables


def draw_start_tokens(state: SteamCourtState, seed: bytes) -> None:
    """Start tokens, drawn at random: each seats its player by the character card of its number
    (RULES.md, I2); the k-th drawn sits in position k. Then the first quarter is dealt."""
    state.notes = []
    order = list(range(state.players))
    DeterministicRandom(seed).shuffle(order)
    if len(state.tables) > 1:
        # Party: each player sits by the character card of his start token's number.
        first = 0
        for table in state.tables:
            table.seats = order[first:first + len(table.characters)]
            first += len(table.characters)
            for player, character in zip(table.seats, table.characters):
                state.start[player] = state.book[character].number
        state.notes.append(("party-seating", tuple(tuple(table.seats) for table in state.tables)))
        state.phase = Phase.PLAYING
        start_quarter(state)
        return
    table = state.tables[0]
    table.seats = order
    by_seat = state.start_tokens == "seat"
    for position, (player, character) in enumerate(zip(order, table.characters)):
        state.start[player] = position + 1 if by_seat else state.book[character].number
        # "From lowest number to highest": the numbers rise with the seats at every clock table.
        state.clock[player] = position
    state.notes.append(("seating", tuple(order)))
    state.phase = Phase.PLAYING
    start_quarter(state)


# -- the quarter's deal ------------------------------------------------------------------------


def start_quarter(state: SteamCourtState) -> None:
    state.quarter += 1
    if state.variant == "duo":
        # The quarter's two characters; the reseating put the first out in the new one.
        state.tables[0].characters = list(duo.characters(state.quarter))
    state.tricks = [0] * state.players
    state.used = [[] for _ in range(state.players)]
    deal(state, *state.tables)


def deal(state: SteamCourtState, *tables: Table) -> None:
    """Deal the deck into equal hands and the Court Hand (which takes the extras).

    Several tables' decks are dealt at the same time, each among its own players (its holders;
    one table alone: every seat); the hands are disclosed after all the deals.
    """
    apart = len(state.tables) > 1
    dealt = []
    for table in tables:
        deal = state.cards.next_deal
        slots = list(state.cards.new_deal(state.deck(), holders=table.seats if apart else ()))
        dealt.append((table, deal, slots))
    for table, deal, slots in dealt:
        _hand_out(state, table, deal, slots)


def _hand_out(state: SteamCourtState, table: Table, deal: int, slots: list[int]) -> None:
    seats = table.seats
    size = len(slots) // (len(seats) + 1)
    for position, player in enumerate(seats):
        hand = slots[position * size:(position + 1) * size]
        state.hands[player] = hand
        state.cards.disclose(hand, player)
    table.court = slots[len(seats) * size:]
    table.discard = []
    table.deals = [deal]
    table.lays = []
    table.turn = -1
    table.passed = []
    table.heard = [0] * state.players
    table.moves = 0
    table.received = []
    table.seen = []
    table.out = []
    table.drawn = []
    table.returns = 0
    table.focus = []
    table.actor = -1
    table.privilege = -1
    table.phase = Phase.COUP
    table.asking = list(seats[1:])
    if len(state.tables) > 1:
        state.notes.append(("table-quarter", state.tables.index(table), state.quarter, size, len(table.court)))
    else:
        state.notes.append(("quarter", state.quarter, size, len(table.court)))


def coup_revealed(state: SteamCourtState, table: Table) -> None:
    player = table.actor
    faces = sorted((FACE[state.cards.revealed[slot]] for slot in table.focus), key=FACE_ORDER.__getitem__)
    if faces != ["MS", "MS", "MS"]:
        raise RuleViolation(
            player, f"claimed a coup without three {state.book.masterstroke.plural} (revealed {' '.join(faces)})"
        )
    position = table.seats.index(player)
    table.seats = [player] + table.seats[:position] + table.seats[position + 1:]
    state.notes.append(("coup", player, tuple(table.seats)))
    # The quarter restarts: the abandoned deal is audited, forgotten, and the deck dealt again.
    state.cards.audit(table.deals)
    table.phase = Phase.COUP_AUDIT
    table.asking = []


# -- between quarters --------------------------------------------------------------------------


def after_audit(state: SteamCourtState) -> None:
    """The quarter's cards are public now. Between quarters: forget them, reseat, deal again.
    After the 4th quarter the final table stays as it was played — seats, the cards left in
    hands (now face up), the machine and the piles — for the game-over screen (RULES.md, I27);
    only the Party variant reseats, its final standing being the seats (I24)."""
    final = state.quarter == QUARTERS
    for index, table in enumerate(state.tables):
        for player in table.seats:
            if state.hands[player]:  # the last player (the clock: every one not out)
                faces = [FACE[state.cards.revealed[slot]] for slot in state.hands[player]]
                # The table's index: the Party variant reseats (and may move him) in this event.
                state.notes.append(("held", player, tuple(sorted(faces, key=FACE_ORDER.__getitem__)), index))
    if not final:
        _clear_quarter(state)
    if len(state.tables) > 1:
        _promote_and_demote(state)
        return
    table = state.tables[0]
    # The court's order after the quarter: going-out order, or the clock (farthest ahead first).
    if state.scoring == "gears":
        order = table.out[:]
    else:
        order = sorted(table.seats, key=lambda p: -state.clock[p])
    state.notes.append(("quarter-end", state.quarter, tuple(order)))
    if final:
        state.phase = Phase.OVER
    else:
        table.seats = order
        state.phase = Phase.PLAYING
        start_quarter(state)


def _clear_quarter(state: SteamCourtState) -> None:
    """Between quarters, after the audit: forget the quarter's deals and clear every hand, pile
    and machine."""
    for table in state.tables:
        for deal in table.deals:
            state.cards.retire(deal)
        for player in table.seats:
            state.hands[player] = []
        table.deals = []
        table.court = []
        table.discard = []
        table.lays = []
        table.drawn = []


def _promote_and_demote(state: SteamCourtState) -> None:
    """Party: reseat by the tokens collected (going-out order),
    the Royal table's last two out banished to the Renegade table's two preeminent seats and
    the Renegade table's first two out promoted to the Royal table's two lowliest seats
    (RULES.md, I24)."""
    royal, renegades = state.tables
    demoted = royal.out[-2:]
    promoted = renegades.out[:2]
    royal.seats = royal.out[:-2] + promoted
    renegades.seats = demoted + renegades.out[2:]
    state.notes.append(
        ("party-quarter-end", state.quarter, tuple(royal.seats), tuple(renegades.seats), tuple(promoted), tuple(demoted))
    )
    if state.quarter == QUARTERS:
        state.phase = Phase.OVER
    else:
        state.phase = Phase.PLAYING
        start_quarter(state)
