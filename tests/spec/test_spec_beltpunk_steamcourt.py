"""SPEC.md §D2 (Beltpunk), §D3 with §D3.1 (Steam Court, its Party, Duo and Solo variants) and §D7
(Steam Court by its 2015 draft rules, whose tables add to §D3's) held to the code: the keys of every
state the games encode in random legal playthroughs are the rows of the SPEC's state tables (each
value of the form its row names), the action kinds (and their field counts) of each codec are the
rows of its wire table, and the phases the SPEC lists are the ones the code has (every phase a
playthrough reaches among them). The chance steps, the first deals and the characters at each table
are computed as the SPEC's prose and tables say and compared with the games'; so are §D7's
Character Auction and the card operations of the 2015 Queen's gift, Plague Doctor's draw and
Submariner's dive."""

from __future__ import annotations

import re
from typing import Callable

import pytest

from p2pgames.engine import (
    Act,
    CardOperations,
    ChanceOutcome,
    DeterministicRandom,
    Disclose,
    GameOver,
    LocalTable,
    NewDeal,
    Reshuffle,
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


# -- §D7: Steam Court by its 2015 draft rules ---------------------------------------------------
# §D7 gives what differs from §D3: its tables add to (and override) §D3's, and its table phases
# that "never" occur are §D3's phases this game doesn't reach.

SC2015 = section("## D7.", SPEC)
# §D7: the characters by number.
CHARACTERS_2015 = ["queen", "general", "duke", "alchemist", "teaboy", "submariner", "inspector", "plaguedoctor", "pirate", "vagabond"]
SC2015_CASES = [
    (3, {"characters": "auction"}),
    (3, {"three": "queen+submariner+plaguedoctor", "characters": "auction"}),
    (4, {"table": "renegade", "removed_renegade": "pirate"}),
    (5, {"characters": "random"}),
    (6, {"characters": "crazy"}),
    (7, {}),
    (5, {"variation": "party"}),
    (8, {"removed": "duke", "characters": "auction"}),
    (9, {"variation": "party"}),
    (10, {}),
]


def _sc2015_table_phases() -> tuple[set[str], set[str]]:
    """The table phases §D7 adds, and the §D3 ones it says never occur."""
    rows = table_rows(SC2015, "table phase")
    never = {_code(row[0]) for row in rows if row[1].startswith("never")}
    return {_code(row[0]) for row in rows} - never, never


def _always(encodings: dict[str, str]) -> dict[str, str]:
    """The keys whose §D7 encoding is one string always (``str: always `"gears"```)."""
    fixed = {}
    for key, encoding in encodings.items():
        match = re.match(r'str: always `"([^"`]*)"`', encoding)
        if match:
            fixed[key] = match.group(1)
    return fixed


@pytest.mark.parametrize("players, options", SC2015_CASES)
def test_every_2015_steam_court_state_and_table_map_has_the_keys_and_forms_of_the_spec_tables(players, options):
    changed = _encodings(SC2015, "state key")
    encodings = {**_encodings(COURT, "state key"), **changed}
    table_encodings = {**_encodings(COURT, "table key"), **_encodings(SC2015, "table key")}
    added, never = _sc2015_table_phases()
    phases = _first_column(COURT, "phase") | _first_column(SC2015, "phase")
    table_phases = (_first_column(COURT, "table phase") - never) | added
    fixed = _always(changed)
    tables = 2 if players >= 8 else 1
    reached: set[str] = set()

    def visit(encoded: dict) -> None:
        _check_map(encoded, encodings, players)
        assert encoded["phase"] in phases
        assert {key: encoded[key] for key in fixed} == fixed
        assert encoded["powers"] == [[]] * players and encoded["clock"] == [0] * players
        assert len(encoded["tables"]) == tables
        for table in encoded["tables"]:
            _check_map(table, table_encodings, players)
            assert table["phase"] in table_phases
            reached.add(table["phase"])

    assert _play("steamcourt2015", players, options, f"steamcourt2015/{players}/{options}".encode(), visit) > 100
    assert not reached & never


def test_the_2015_wire_table_lists_every_action_kind_of_its_codec_with_its_fields():
    from p2pgames.games.steamcourt2015.rules import CODEC_2015

    forms = _wire_forms(SC2015)
    assert forms == {kind: len(cls.__slots__) for kind, cls in CODEC_2015.classes.items()}
    published = _wire_forms(COURT)
    # The kinds both games have travel alike; §D7 names the published ones it doesn't decode.
    assert {kind: forms[kind] for kind in forms if kind in published} == {
        kind: published[kind] for kind in forms if kind in published
    }
    refused = re.search(r"kinds only; (.*) do not decode here", SC2015.replace("\n", " ")).group(1)
    assert set(re.findall(r"`(\w+)`", refused)) == set(published) - set(forms)


def test_the_2015_phases_the_spec_adds_are_the_codes_and_the_ones_it_leaves_out_are_published():
    from p2pgames.games.steamcourt2015 import rules as rules_2015

    added, never = _sc2015_table_phases()
    assert _first_column(SC2015, "phase") | added == {rules_2015.AUCTION, rules_2015.PLAGUE}
    assert never <= _first_column(COURT, "table phase")
    assert not (set(rules_2015._PHASE_KINDS_2015) & never)


def _spec_2015_characters(row: list[str], options: dict) -> list[list[str]]:
    """The characters of each table as a row of §D7's table says, for ``options``."""
    tables = []
    for cell in row[2:]:
        if cell == "—":
            continue
        if cell.startswith("the `three` option's"):
            tables.append(options["three"].split("+"))
            continue
        names = _code(re.match(r"`[^`]*`", cell).group(0)).split()
        less = re.search(r"less `(\w+)`", cell)
        tables.append([name for name in names if not less or name != options[less.group(1)]])
    return tables


@pytest.mark.parametrize("removed, removed_renegade, three", [
    ("general", "plaguedoctor", "queen+duke+teaboy"),
    ("teaboy", "vagabond", "general+inspector+vagabond"),
    ("duke", "inspector", "queen+submariner+plaguedoctor"),
])
def test_the_2015_characters_at_each_table_are_the_spec_table(removed, removed_renegade, three):
    game = get_game("steamcourt2015")
    rows = table_rows(SC2015, "players")
    assert sorted({int(row[0]) for row in rows}) == list(range(3, 11))
    for row in rows:
        players = int(row[0])
        table = _code(row[1]) if row[1] != "any" else "royal"
        options = {"table": table, "removed": removed, "removed_renegade": removed_renegade, "three": three}
        # Each option only where the checks allow it (the other values are the defaults).
        if not (players in (8, 9) or (players == 4 and table == "royal")):
            options["removed"] = "general"
        if not (players == 8 or (players == 4 and table == "renegade")):
            options["removed_renegade"] = "plaguedoctor"
        if players != 3:
            options["three"] = "queen+duke+teaboy"
        state = game.setup(game.ruleset(players, options))
        assert [table.characters for table in state.tables] == _spec_2015_characters(row, options), (players, options)


def _spec_2015_deck(players: int) -> tuple[str, ...]:
    # §D7's table of decks: 68 (a..e of each number, then the specials' a and b), 84 (§D3's), 96.
    if players == 3:
        return tuple(f"{n}{c}" for n in range(1, 13) for c in "abcde") + (
            "MSa", "MSb", "MXa", "MXb", "3/9a", "3/9b", "6/12a", "6/12b")
    if players == 7:
        return COURT_DECK + tuple(f"{n}g" for n in range(1, 13))
    return COURT_DECK


def test_the_2015_deck_sizes_are_the_spec_tables():
    # The first table headed "players" is the characters'; the decks' follows **Cards.**
    decks = table_rows(SC2015[SC2015.index("**Cards.**"):], "players")
    sizes = {row[0]: int(row[1].split(":")[0]) for row in decks}
    assert sizes == {"3": 68, "4–6, 8–10": 84, "7": 96}
    assert {players: len(_spec_2015_deck(players)) for players in (3, 4, 7)} == {3: 68, 4: 84, 7: 96}


def _spec_2015_chance(players: int, mode: str) -> tuple[list[int], list[str] | None]:
    """§D7's chance step: the seating order, then (Random Characters) the ten names shuffled by
    the same stream, of which the first ``players`` are the table's."""
    random = DeterministicRandom(SEED)
    order = list(range(players))
    for i in range(players - 1, 0, -1):
        j = random.below(i + 1)
        order[i], order[j] = order[j], order[i]
    if mode not in ("random", "crazy"):
        return order, None
    names = CHARACTERS_2015[:]
    for i in range(9, 0, -1):
        j = random.below(i + 1)
        names[i], names[j] = names[j], names[i]
    drawn = names[:players]
    return order, drawn if mode == "crazy" else [name for name in CHARACTERS_2015 if name in drawn]


@pytest.mark.parametrize("players, options", [
    (3, {}), (5, {"characters": "random"}), (6, {"characters": "crazy"}), (7, {}),
    (9, {}), (9, {"variation": "party"}), (4, {"characters": "auction"}),
])
def test_2015_seating_tokens_and_first_deals_are_as_the_spec_says(players, options):
    game = get_game("steamcourt2015")
    ruleset = game.ruleset(players, options)
    state = game.apply(game.setup(ruleset), ChanceOutcome(SEED))
    mode = ruleset["characters"]
    order, characters = _spec_2015_chance(players, mode)
    if characters is not None:
        assert state.tables[0].characters == characters
    if mode == "auction":
        assert (state.phase, state.offered, state.bidder, state.opener) == ("auction", 0, order[0], order[0])
        assert not isinstance(game.step(state), CardOperations)
        return
    sizes = [len(table.characters) for table in state.tables]
    assert [table.seats for table in state.tables] == [order[:sizes[0]], order[sizes[0]:]][:len(sizes)]
    party = ruleset["variation"] == "party"
    assert state.start == ([0] * players if party else [order.index(seat) + 1 for seat in range(players)])
    numbers = {name: index + 1 for index, name in enumerate(CHARACTERS_2015)}
    for table in state.tables:  # §D7, Tokens
        if party:
            expected = sorted((numbers[name] for name in table.characters), reverse=True)
        elif len(state.tables) == 1:
            expected = list(range(1, players + 1))
        elif table is state.tables[0]:
            expected = list(range(players - sizes[0] + 1, players + 1))
        else:
            expected = list(range(1, players - sizes[0] + 1))
        assert table.stacks == [expected] * 4
    deck = _spec_2015_deck(players)
    operations, first = [], 0
    for table in state.tables:
        holders = tuple(sorted(table.seats)) if len(state.tables) == 2 else ()
        operations.append(NewDeal(len(operations), deck, first, holders))
        first += len(deck)
    first = 0
    for table in state.tables:
        size = len(deck) // (len(table.seats) + 1)
        operations += [Disclose(tuple(range(first + k * size, first + (k + 1) * size)), seat) for k, seat in enumerate(table.seats)]
        first += len(deck)
    assert game.step(state) == CardOperations(tuple(operations))


def test_the_spec_example_of_party_tokens_at_nine_players():
    game = get_game("steamcourt2015")
    assert "Royal [5, 4, 3, 1], Renegade\n[10, 9, 8, 7, 6]" in SC2015
    state = game.setup(game.ruleset(9, {"variation": "party"}))
    assert [table.stacks[0] for table in state.tables] == [[5, 4, 3, 1], [10, 9, 8, 7, 6]]


class _SpecAuction:
    """The Character Auction as §D7's prose says, kept beside the game's state."""

    def __init__(self, players: int, auctioned: list[str], first: int) -> None:
        self.players, self.auctioned = players, auctioned
        self.holders, self.bids = [""] * players, [0] * players
        self.offered, self.bidder, self.opener, self.standing, self.out = 0, first, first, [], []
        self.order: list[int] | None = None  # the seating, once everyone holds a character

    def _after(self, seat: int, among: list[int]) -> int:
        return next(p for p in ((seat + k) % self.players for k in range(1, self.players + 1)) if p in among)

    def move(self, seat: int, points: int | None) -> None:
        if points is None:
            self.out.append(seat)
        else:
            self.standing = [seat, points]
        left = [p for p in range(self.players) if not self.holders[p] and p not in self.out]
        if len(left) == 1:
            self._win(left[0], self.standing[1] if self.standing else 0)
        else:
            self.bidder = self._after(seat, [p for p in left if not self.standing or p != self.standing[0]])

    def _win(self, seat: int, points: int) -> None:
        self.holders[seat], self.bids[seat] = self.auctioned[self.offered], points
        self.offered += 1
        self.standing, self.out = [], []
        without = [p for p in range(self.players) if not self.holders[p]]
        if not without:
            self.bidder = self.opener = self.offered = -1
            self.order = [self.holders.index(name) for name in self.auctioned]
        elif len(without) == 1:
            self._win(without[0], 0)
        else:
            self.opener = self.bidder = self._after(self.opener, without)


@pytest.mark.parametrize("players", [3, 6, 9])
def test_the_2015_character_auction_runs_as_the_spec_says(players):
    from p2pgames.games.steamcourt2015.rules import Bid

    game = get_game("steamcourt2015")
    table = LocalTable(game, game.ruleset(players, {"characters": "auction"}), b"spec-auction-%d" % players, check=True)
    state = table.state
    spec = _SpecAuction(players, [name for t in state.tables for name in t.characters], state.bidder)
    chooser = DeterministicRandom(b"spec-auction")
    moves = 0
    while state.phase == "auction":
        assert game.step(state) == Turn((spec.bidder,), game.step(state).prompt)
        options = game.legal_actions(state, spec.bidder, table.view(spec.bidder))
        # Pass a third of the time, else bid one of the three least bids allowed.
        action = options[-1] if chooser.below(3) == 0 else options[chooser.below(min(3, len(options) - 1))]
        spec.move(spec.bidder, action.points if type(action) is Bid else None)
        table.act(state.bidder, action)
        state = table.state
        moves += 1
        assert (state.holders, state.bids, state.offered, state.bidder, state.standing, state.out, state.opener) == (
            spec.holders, spec.bids, spec.offered, spec.bidder, spec.standing, spec.out, spec.opener)
    assert moves >= players - 1 and spec.order is not None
    sizes = [len(t.characters) for t in state.tables]
    assert [t.seats for t in state.tables] == [spec.order[:sizes[0]], spec.order[sizes[0]:]][:len(sizes)]
    assert state.start == [spec.order.index(seat) + 1 for seat in range(players)]
    assert game.encode_state(state)["phase"] == "playing"


def _play_until(table: LocalTable, wanted: Callable, seed: bytes):
    """Play ``table`` by the game's random policy until a seat to move has a legal action that
    ``wanted(state, seat, action)`` accepts; returns (seat, action), or None if the game ends."""
    game, chooser = table.game, DeterministicRandom(seed)
    while not isinstance(step := game.step(table.state), GameOver):
        state = table.state
        actors = step.actors if isinstance(step, Turn) else step.players
        for seat in actors:
            for action in game.legal_actions(state, seat, table.view(seat)):
                if wanted(state, seat, action):
                    return seat, action
        movers = [seat for seat in actors if game.legal_actions(state, seat, table.view(seat))]
        seat = movers[chooser.below(len(movers))]
        table.act(seat, game.playout_choice(state, seat, game.legal_actions(state, seat, table.view(seat)), table.view(seat), chooser))
    return None


def _three_with_every_card_power(seed: bytes) -> LocalTable:
    game = get_game("steamcourt2015")
    return LocalTable(game, game.ruleset(3, {"three": "queen+submariner+plaguedoctor"}), seed, check=True)


def test_the_2015_queens_gift_is_disclosed_to_the_lowest_player():
    from p2pgames.games.steamcourt.actions import Bestow

    table = _three_with_every_card_power(b"spec-bestow")
    seat, action = _play_until(table, lambda state, seat, action: type(action) is Bestow, b"bestow")
    game, state = table.game, table.state
    assert action.to == state.tables[0].seats[-1]
    after = game.apply(state, Act(seat, action))
    assert game.step(after) == CardOperations((Disclose(action.slots, action.to),))
    assert after.hands[action.to][-2:] == list(action.slots) and after.tables[0].received[-2:] == list(action.slots)


def test_the_2015_plague_reshuffles_the_court_hand_and_discloses_four_of_which_two_go_back():
    from p2pgames.games.steamcourt.actions import Plague

    table = _three_with_every_card_power(b"spec-plague")
    seat, action = _play_until(table, lambda state, seat, action: type(action) is Plague, b"plague")
    game, state = table.game, table.state
    court, deal, first = state.tables[0].court[:], state.cards.next_deal, state.cards.next_slot
    after = game.apply(state, Act(seat, action))
    drawn = tuple(range(first, first + min(4, len(court))))
    assert game.step(after) == CardOperations((Reshuffle(deal, tuple(court), first, ()), Disclose(drawn, seat)))
    played = after.tables[0]
    assert (played.phase, played.pile, played.drawn, played.returns, played.owed) == (
        "return", "court", list(drawn), len(drawn) - 2, len(drawn) - 2)
    assert played.deals[-1] == deal and "plague" in after.used[seat]


def test_the_2015_dive_reshuffles_the_discard_pile_and_keeps_at_most_half():
    from p2pgames.games.steamcourt.actions import Dive

    table = _three_with_every_card_power(b"spec-dive")
    found = _play_until(table, lambda state, seat, action: type(action) is Dive, b"dive")
    assert found is not None, "no dive in the game: choose another seed"
    seat, action = found
    game, state = table.game, table.state
    assert action.pile == "discard"
    discard, deal, first = state.tables[0].discard[:], state.cards.next_deal, state.cards.next_slot
    after = game.apply(state, Act(seat, action))
    assert game.step(after) == CardOperations((Reveal((action.slot,)), Reshuffle(deal, tuple(discard), first, ())))
    table.act(seat, action)  # the reveal, then the drawn cards disclosed to him
    played = table.state.tables[0]
    number = int(table.state.cards.revealed[action.slot].rstrip("abcdefg"))
    drawn = list(range(first, first + min(number, len(discard))))
    assert (played.phase, played.drawn, played.returns, played.owed) == (
        ("return", drawn, len(drawn), len(drawn) - len(drawn) // 2) if drawn else ("turn", [], 0, 0))
