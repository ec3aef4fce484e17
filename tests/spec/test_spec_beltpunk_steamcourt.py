"""SPEC.md §D2 (Beltpunk) and §D3 with §D3.1 (Steam Court, its Party, Duo and Solo variants) held to
the code: the keys of every state the games encode in random legal playthroughs are the rows of the
SPEC's state tables (each value of the form its row names), the action kinds (and their field
counts) of each codec are the rows of its wire table, and the phases the SPEC lists are the ones the
code has (every phase a playthrough reaches among them). The chance steps, the first deals and the characters at each table are
computed as the SPEC's prose and tables say and compared with the games'."""

from __future__ import annotations

import re
from typing import Callable

import pytest

from p2pgames.engine import (
    CardOperations,
    ChanceOutcome,
    DeterministicRandom,
    Disclose,
    GameOver,
    LocalTable,
    NewDeal,
    Reveal,
    Simultaneous,
    Turn,
)
from p2pgames.games import get_game
from p2pgames.games.beltpunk import actions as beltpunk_actions
from p2pgames.games.beltpunk.rules import Phase as BeltpunkPhase
from p2pgames.games.steamcourt import solo, solo_game
from p2pgames.games.steamcourt.actions import CODEC as COURT_CODEC
from p2pgames.games.steamcourt.cards import CHARACTERS, DECK as COURT_DECK
from p2pgames.games.steamcourt.phases import Phase as CourtPhase
from tests.spec.spec_text import section, spec_text, table_rows

SPEC = spec_text()
BELTPUNK = section("## D2.", SPEC)
# §D3's own tables come before §D3.1's, so the first table of a kind in §D3 is the court's.
COURT = section("## D3.", SPEC)
SOLO = section("### D3.1", SPEC)

# One random game each: every player count, variant and option.
BELTPUNK_CASES = [(players, {}) for players in (2, 3, 4)] + [(3, {"target": 35})]
COURT_CASES = (
    [(players, {"variant": "court"}) for players in range(2, 8)]
    + [(players, {"variant": "court", "scoring": "clock"}) for players in (2, 3, 6)]
    + [(2, {"variant": "duo"}), (2, {"variant": "duo", "duo_win": "queen"})]
    + [(players, {"variant": "party"}) for players in range(7, 13)]
    + [(11, {"variant": "party", "removed": "general"})]
)
SOLO_SEEDS = [b"solo-1", b"solo-2", b"solo-3"]


def _code(cell: str) -> str:
    return cell.strip().strip("`")


def _first_column(text: str, header: str) -> set[str]:
    return {_code(row[0]) for row in table_rows(text, header)}


def _encodings(text: str, header: str) -> dict[str, str]:
    return {_code(row[0]): row[1] for row in table_rows(text, header)}


def _check_value(key: str, encoding: str, value, players: int) -> None:
    """``value`` has the form the SPEC's encoding cell starts with (``int``, ``str``, ``nil or``, a
    slot or seat, the CardState map, a list), and a list "by seat" has one item per seat."""
    if encoding.startswith("int") or encoding.startswith(("slot", "seat")):
        assert type(value) is int, (key, value)
    elif encoding.startswith("str"):
        assert type(value) is str, (key, value)
    elif encoding.startswith("nil or"):
        assert value is None or type(value) is int, (key, value)
    elif encoding.startswith("the `CardState` map"):
        assert isinstance(value, dict), (key, value)
    elif encoding.startswith("["):
        assert isinstance(value, list), (key, value)
    else:
        raise AssertionError(f"the SPEC's encoding of {key!r} starts with no known form: {encoding!r}")
    if "by seat" in encoding and not (encoding.startswith("[] before") and not value):
        assert len(value) == players, (key, value)


def _check_map(encoded: dict, encodings: dict[str, str], players: int) -> None:
    assert set(encoded) == set(encodings)
    for key, value in encoded.items():
        _check_value(key, encodings[key], value, players)


class _VisitingTable(LocalTable):
    """A local table that shows every state it reaches, the setup's included, encoded, to ``visit``
    (at once: with ``check=False`` the state then changes in place)."""

    def __init__(self, *args, visit: Callable[[dict], None], **kwargs) -> None:
        self.visit = visit
        self.visited = 0
        super().__init__(*args, **kwargs)

    def feed(self, event) -> None:
        if not self.visited:
            self._visit()
        super().feed(event)
        self._visit()

    def _visit(self) -> None:
        self.visited += 1
        self.visit(self.game.encode_state(self.state))


def _play(name: str, players: int, options: dict, seed: bytes, visit: Callable[[dict], None]) -> int:
    """Play one random legal game (random as the game's playout, so it ends), showing every encoded
    state to ``visit``; returns how many there were."""
    game = get_game(name)
    # Unchecked: the moves are the game's own legal ones (the conformance tests check apply).
    table = _VisitingTable(game, game.ruleset(players, options), seed, check=False, visit=visit)
    game = table.game
    chooser = DeterministicRandom(b"spec-tables\x00" + seed)
    while not isinstance(step := game.step(table.state), GameOver):
        state = table.state
        if isinstance(step, Simultaneous):  # neither game has sealed choices
            table.act_simultaneous([
                (seat, game.playout_choice(state, seat, game.legal_actions(state, seat, table.view(seat)), table.view(seat), chooser))
                for seat in step.players
            ])
            continue
        actors = step.actors if isinstance(step, Turn) else step.players
        movers = [seat for seat in actors if game.legal_actions(state, seat, table.view(seat))]
        seat = movers[chooser.below(len(movers))]
        options_now = game.legal_actions(state, seat, table.view(seat))
        table.act(seat, game.playout_choice(state, seat, options_now, table.view(seat), chooser))
    return table.visited


def _phase_constants(phase_class: type) -> set[str]:
    return {value for key, value in vars(phase_class).items() if not key.startswith("_") and isinstance(value, str)}


# -- (a) state keys -------------------------------------------------------------------------------


@pytest.mark.parametrize("players, options", BELTPUNK_CASES)
def test_every_beltpunk_state_has_exactly_the_keys_and_forms_of_the_spec_table(players, options):
    encodings = _encodings(BELTPUNK, "state key")
    phases = _first_column(BELTPUNK, "phase")

    def visit(encoded: dict) -> None:
        _check_map(encoded, encodings, players)
        assert encoded["phase"] in phases

    assert _play("beltpunk", players, options, f"beltpunk/{players}/{options}".encode(), visit) > 100


@pytest.mark.parametrize("players, options", COURT_CASES)
def test_every_steam_court_state_and_table_map_has_exactly_the_keys_and_forms_of_the_spec_tables(players, options):
    encodings = _encodings(COURT, "state key")
    table_encodings = _encodings(COURT, "table key")
    phases = _first_column(COURT, "phase")
    table_phases = _first_column(COURT, "table phase")
    tables = 2 if options["variant"] == "party" else 1

    def visit(encoded: dict) -> None:
        _check_map(encoded, encodings, players)
        assert encoded["phase"] in phases
        assert len(encoded["tables"]) == tables
        for table in encoded["tables"]:
            _check_map(table, table_encodings, players)
            assert table["phase"] in table_phases

    assert _play("steamcourt", players, options, f"steamcourt/{players}/{options}".encode(), visit) > 100


@pytest.mark.parametrize("seed", SOLO_SEEDS)
def test_every_solo_state_has_exactly_the_keys_and_forms_of_the_spec_table(seed):
    encodings = _encodings(SOLO, "state key")
    phases = _first_column(SOLO, "phase")

    def visit(encoded: dict) -> None:
        _check_map(encoded, encodings, 1)
        assert encoded["phase"] in phases

    assert _play("steamcourt", 1, {"variant": "solo"}, seed, visit) > 10


# -- (b) actions on the wire ----------------------------------------------------------------------


def _top_level_items(wire: str) -> list[str]:
    """The items of a wire form as the SPEC writes it (``["lay", [slots], value, …]``)."""
    assert wire.startswith("[") and wire.endswith("]"), wire
    items, depth, current = [], 0, []
    for char in wire[1:-1]:
        if char == "," and depth == 0:
            items.append("".join(current).strip())
            current = []
            continue
        depth += char == "["
        depth -= char == "]"
        current.append(char)
    items.append("".join(current).strip())
    return items


def _wire_forms(text: str) -> dict[str, int]:
    """Each action kind of the section's wire table with its number of fields."""
    forms: dict[str, int] = {}
    for row in table_rows(text, "action"):
        for wire in re.findall(r"`(\[[^`]*\])`", row[-1]):
            kind, *fields = _top_level_items(wire)
            name = kind.strip('"')
            assert name not in forms, f"{name} is listed twice"
            forms[name] = len(fields)
    return forms


@pytest.mark.parametrize(
    "text, codec",
    [
        (BELTPUNK, beltpunk_actions.decode_action.__self__),
        (COURT, COURT_CODEC),
        (SOLO, solo_game._CODEC),
    ],
    ids=["beltpunk", "steamcourt", "solo"],
)
def test_the_wire_table_lists_every_action_kind_of_the_codec_with_its_fields(text, codec):
    expected = {kind: len(cls.__slots__) for kind, cls in codec.classes.items()}
    assert _wire_forms(text) == expected


# -- (c) phases -----------------------------------------------------------------------------------


def test_the_beltpunk_phases_are_the_codes():
    assert _first_column(BELTPUNK, "phase") == _phase_constants(BeltpunkPhase)


def test_the_steam_court_state_and_table_phases_are_the_codes():
    state = _first_column(COURT, "phase")
    table = _first_column(COURT, "table phase")
    assert not state & table
    assert state | table == _phase_constants(CourtPhase)


def test_the_solo_phases_are_the_codes():
    assert _first_column(SOLO, "phase") == _phase_constants(solo.Phase)


# -- the chance steps and the first deals, computed as the SPEC's prose says ----------------------

SEED = bytes(range(32))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_beltpunk_chance_step_and_first_deal_are_as_the_spec_says(players):
    game = get_game("beltpunk")
    state = game.apply(game.setup(game.ruleset(players)), ChanceOutcome(SEED))
    foreman = DeterministicRandom(SEED).below(players)  # §D2: one draw
    hand = {2: 8, 3: 7, 4: 6}[players]
    draws = [
        Disclose((players * hand + players + k,), (foreman + k) % players) for k in range(players)
    ]
    assert game.step(state) == CardOperations((
        NewDeal(0, tuple(f"{suit}{rank}" for suit in "SGPE" for rank in range(1, 14)), 0, ()),
        *(Disclose(tuple(range(seat * hand, (seat + 1) * hand)), seat) for seat in range(players)),
        Reveal(tuple(range(players * hand, players * hand + players))),
        *draws,
    ))
    assert state.foreman == foreman


def _spec_seating(players: int) -> list[int]:
    # §D3: Fisher–Yates from the last index down, j = below(i + 1).
    random = DeterministicRandom(SEED)
    order = list(range(players))
    for i in range(players - 1, 0, -1):
        j = random.below(i + 1)
        order[i], order[j] = order[j], order[i]
    return order


# §D3: the start token of each position, preeminent first: the character numbers, or with
# `start_tokens` "seat" (the default for `court` with 2 players) the position + 1.
@pytest.mark.parametrize("players, options, tokens", [
    (3, {}, [1, 3, 6]),
    (7, {"variant": "court"}, [1, 2, 3, 8, 4, 5, 6]),
    (2, {"variant": "duo"}, [11, 6]),
    (4, {"start_tokens": "seat"}, [1, 2, 3, 4]),
    (2, {}, [1, 2]),
])
def test_steam_court_seating_and_first_deal_are_as_the_spec_says(players, options, tokens):
    game = get_game("steamcourt")
    state = game.apply(game.setup(game.ruleset(players, options)), ChanceOutcome(SEED))
    order = _spec_seating(players)
    assert state.tables[0].seats == order
    assert state.start == [tokens[order.index(seat)] for seat in range(players)]
    assert state.clock == [order.index(seat) for seat in range(players)]
    deck = [name for name in COURT_DECK if options.get("variant") != "duo" or name[:-1] not in ("1", "2")]
    size = len(deck) // (players + 1)
    assert game.step(state) == CardOperations((
        NewDeal(0, tuple(deck), 0, ()),
        *(Disclose(tuple(range(k * size, (k + 1) * size)), seat) for k, seat in enumerate(order)),
    ))


def test_party_seating_and_first_deals_are_as_the_spec_says():
    game = get_game("steamcourt")
    state = game.apply(game.setup(game.ruleset(9)), ChanceOutcome(SEED))
    order = _spec_seating(9)
    royal, renegades = order[:4], order[4:]  # 9 players: 4 at the Royal table, 5 at the Renegade
    assert [table.seats for table in state.tables] == [royal, renegades]
    characters = ["queen", "duke", "timetraveler", "teaboy", "submariner", "alchemist", "pirate", "plaguedoctor", "vagabond"]
    numbers = {name: index + 1 for index, name in enumerate(CHARACTERS)}
    assert [state.start[seat] for seat in order] == [numbers[name] for name in characters]
    operations = [NewDeal(0, COURT_DECK, 0, tuple(sorted(royal))), NewDeal(1, COURT_DECK, 84, tuple(sorted(renegades)))]
    for first, seats in ((0, royal), (84, renegades)):
        size = 84 // (len(seats) + 1)
        operations += [Disclose(tuple(range(first + k * size, first + (k + 1) * size)), seat) for k, seat in enumerate(seats)]
    assert game.step(state) == CardOperations(tuple(operations))


def test_the_characters_at_each_table_are_the_spec_tables():
    game = get_game("steamcourt")
    court = {int(row[0]): _code(row[1]).split() for row in table_rows(COURT, "players")}
    assert sorted(court) == list(range(2, 8))
    for players, characters in court.items():
        assert game.setup(game.ruleset(players, {"variant": "court"})).tables[0].characters == characters
    party = table_rows(COURT[COURT.index("**Party variant**"):], "players")
    tables = {int(row[0]): [_code(row[1]).split(), _code(row[2]).split()] for row in party if row[0] != "11"}
    assert sorted(tables) == [7, 8, 9, 10, 12]
    for players, characters in tables.items():
        assert [table.characters for table in game.setup(game.ruleset(players, {"variant": "party"})).tables] == characters
    for removed in ("jester", "pirate"):
        eleven = game.setup(game.ruleset(11, {"removed": removed})).tables
        assert [table.characters for table in eleven] == [
            [name for name in names if name != removed] for names in tables[12]
        ]
