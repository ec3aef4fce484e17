"""The Party variant: 7–12 players at a Royal and a Renegade table playing at the same time.

Positions are set up with :class:`Party`, a local table whose start tokens seat the players as a
test says and whose decks can be stacked per table; longer stories are played out at random
(uniformly, as the conformance check does) until the position a test looks at.
"""

from __future__ import annotations

from typing import Callable, Sequence

import pytest

from p2pgames.engine import (
    Audit,
    CardOperations,
    Chance,
    ChanceOutcome,
    DeterministicRandom,
    Disclose,
    GameOver,
    LocalTable,
    NewDeal,
    ReactionWindow,
    RulesetError,
    Turn,
)
from p2pgames.engine.conformance import play_random_game
from p2pgames.games.steamcourt import GAME
from p2pgames.games.steamcourt.actions import Coup, Pass
from p2pgames.games.steamcourt.cards import CHARACTER_NUMBER, CHARACTERS, PARTY
from p2pgames.games.steamcourt.presentation import PRESENTATION
from steamcourt_scenarios import stacked_deck

NAMES = tuple(f"p{seat}" for seat in range(12))


class Party(LocalTable):
    """A Party table (start tokens drawn at random: tests read the seats from the state);
    ``stacks`` maps a table's index to the faces of its first deal's hands, by position."""

    def __init__(
        self,
        players: int,
        *,
        stacks: dict[int, Sequence[Sequence[str]]] | None = None,
        options: dict | None = None,
        seed: bytes = b"party",
    ) -> None:
        self.stacked = dict(stacks or {})
        self.random_moves = DeterministicRandom(b"party-moves\x00" + seed)
        self.notes: list[tuple] = []
        self.lines: list[str] = []
        self.outs: list[list[list[int]]] = []  # each finished quarter's going-out order, by table
        super().__init__(GAME, GAME.ruleset(players, {"variant": "party", **(options or {})}), seed)

    def feed(self, event) -> None:
        before = self.state
        super().feed(event)
        self.notes.extend(self.state.notes)
        self.lines.extend(PRESENTATION.narrate(before, event, self.state, NAMES[: self.ruleset.players]))
        if any(note[0] == "party-quarter-end" for note in self.state.notes):
            # Read before the next quarter's deal empties the tables' going-out orders.
            self.outs.append([table.out[:] for table in before.tables])

    def _stacked_order(self, operation: NewDeal):
        index = next(
            (i for i, table in enumerate(self.state.tables) if tuple(sorted(table.seats)) == operation.holders), None,
        )
        if index is None or index not in self.stacked:
            return None
        order, _ = stacked_deck(len(self.state.tables[index].seats), self.stacked.pop(index))
        return order

    @property
    def royal(self):
        return self.state.tables[0]

    @property
    def renegades(self):
        return self.state.tables[1]

    def legal(self, seat: int) -> list:
        return self.game.legal_actions(self.state, seat, self.view(seat))

    def actors(self) -> tuple[int, ...]:
        step = self.step()
        return step.actors if isinstance(step, Turn) else step.players

    def random_move(self) -> None:
        """One uniformly random legal move by one of the seats that may act."""
        movers = [seat for seat in self.actors() if self.legal(seat)]
        seat = movers[self.random_moves.below(len(movers))]
        options = self.legal(seat)
        self.act(seat, options[self.random_moves.below(len(options))])

    def play_until(self, done: Callable[["Party"], bool], limit: int = 20_000) -> None:
        for _ in range(limit):
            if done(self):
                return
            assert not isinstance(self.step(), GameOver), "the game ended first"
            self.random_move()
        raise AssertionError("the position never came")  # pragma: no cover

    def pass_coups(self) -> None:
        while any(table.phase == "coup" for table in self.state.tables):
            seat = next(p for p in self.actors() if self.state.table_of(p).phase == "coup")
            self.act(seat, Pass())


SEED = bytes(range(32))


def drawn(players: int, seed: bytes = SEED) -> list[int]:
    """The start-token order a chance seed draws (the Royal table's seats first)."""
    order = list(range(players))
    DeterministicRandom(seed).shuffle(order)
    return order


def after_seating(players: int, **options) -> object:
    state = GAME.setup(GAME.ruleset(players, {"variant": "party", **options}))
    return GAME.apply(state, ChanceOutcome(SEED))


# -- setup ---------------------------------------------------------------------------------------


def test_the_party_variant_is_for_7_to_12_players_and_8_to_12_play_it_by_default():
    assert GAME.max_players == 12
    for players in range(8, 13):
        assert GAME.ruleset(players)["variant"] == "party"
    assert GAME.ruleset(7)["variant"] == "court"
    assert GAME.ruleset(7, {"variant": "party"})["variant"] == "party"
    with pytest.raises(RulesetError, match="7–12"):
        GAME.ruleset(6, {"variant": "party"})
    with pytest.raises(RulesetError, match="Clock Climbing"):
        GAME.ruleset(8, {"scoring": "clock"})


@pytest.mark.parametrize("players", range(7, 13))
def test_the_royal_and_renegade_tables_by_player_count(players):
    state = GAME.setup(GAME.ruleset(players, {"variant": "party"}))
    royal, renegades = (table.characters for table in state.tables)
    expected = {
        7: (["queen", "duke", "timetraveler", "teaboy"], ["submariner", "alchemist", "vagabond"]),
        8: (["queen", "duke", "timetraveler", "teaboy"], ["submariner", "alchemist", "pirate", "vagabond"]),
        9: (["queen", "duke", "timetraveler", "teaboy"], ["submariner", "alchemist", "pirate", "plaguedoctor", "vagabond"]),
        10: (["queen", "general", "duke", "timetraveler", "teaboy"], ["submariner", "alchemist", "pirate", "plaguedoctor", "vagabond"]),
        11: (["queen", "general", "duke", "timetraveler", "teaboy"], list(CHARACTERS[6:])),
        12: (list(CHARACTERS[:6]), list(CHARACTERS[6:])),
    }[players]
    assert (royal, renegades) == expected
    assert len(royal) + len(renegades) == players


def test_eleven_players_remove_the_jester_unless_they_choose_another_card():
    assert GAME.ruleset(11)["removed"] == "jester"
    state = GAME.setup(GAME.ruleset(11, {"removed": "pirate"}))
    assert state.tables[0].characters == list(CHARACTERS[:6])
    assert state.tables[1].characters == ["submariner", "inspector", "alchemist", "plaguedoctor", "vagabond"]
    with pytest.raises(RulesetError):
        GAME.ruleset(11, {"removed": "queen"})
    with pytest.raises(RulesetError, match="11 players"):
        GAME.ruleset(10, {"removed": "pirate"})


def test_start_tokens_seat_each_player_by_the_character_card_of_its_number():
    state = GAME.setup(GAME.ruleset(8))
    assert GAME.step(state) == Chance("draw start tokens for seats")
    order = drawn(8)
    state = GAME.apply(state, ChanceOutcome(SEED))
    assert state.tables[0].seats == order[:4]
    assert state.tables[1].seats == order[4:]
    # Tokens carry the character numbers: Queen 1, Duke 3, Time Traveler 4, Tea Boy 6; Submariner
    # 7, Alchemist 9, Pirate 10, Vagabond 12.
    assert [state.start[p] for p in order] == [1, 3, 4, 6, 7, 9, 10, 12]


@pytest.mark.parametrize("players", range(7, 13))
def test_both_decks_are_dealt_at_once_each_among_its_own_table(players):
    state = after_seating(players)
    step = GAME.step(state)
    assert isinstance(step, CardOperations)
    deals = [op for op in step.operations if isinstance(op, NewDeal)]
    # Both deals first (dealt concurrently), then the disclosures of every hand.
    assert step.operations[:2] == tuple(deals) and len(deals) == 2
    for table, deal in zip(state.tables, deals):
        assert deal.holders == tuple(sorted(table.seats))
        assert len(deal.cards) == 84
        size = 84 // (len(table.seats) + 1)
        for player in table.seats:
            assert len(state.hands[player]) == size
            assert Disclose(tuple(state.hands[player]), player) in step.operations
        assert len(table.court) == 84 - size * len(table.seats)
        # A table's cards come from its own deck.
        first = deal.first_slot
        assert all(first <= slot < first + 84 for p in table.seats for slot in state.hands[p])


def test_the_token_stacks_are_the_tables_start_tokens_lowest_on_top():
    state = GAME.setup(GAME.ruleset(8))
    royal, renegades = state.tables
    # Bottom first: the top (last) is the lowest number.
    assert royal.stacks == [[6, 4, 3, 1]] * 4
    assert renegades.stacks == [[12, 10, 9, 7]] * 4


# -- two tables at once --------------------------------------------------------------------------


def test_coup_windows_of_both_tables_are_one_window():
    party = Party(8)
    step = party.step()
    assert isinstance(step, ReactionWindow)
    assert step.players == tuple(party.royal.seats[1:] + party.renegades.seats[1:])
    assert step.prompt.startswith("Royal table: pull a coup") and "Renegade table: pull a coup" in step.prompt


def test_both_tables_play_at_the_same_time_in_one_turn():
    party = Party(8)
    party.pass_coups()
    queen, vagabond = party.royal.seats[0], party.renegades.seats[3]
    # The Queen may give a card while the Vagabond serves his two highest cards.
    step = party.step()
    assert isinstance(step, Turn)
    assert step.actors == (queen, vagabond)
    assert step.prompt == (
        "Royal table: give one card to another player, or pass · "
        "Renegade table: give your two highest numbered cards"
    )
    # The Renegade table moves first: the Royal table's position is untouched.
    queen_hand = list(party.state.hands[queen])
    party.act(vagabond, party.legal(vagabond)[0])
    assert party.state.hands[queen] == queen_hand
    assert party.royal.phase == "give" and party.renegades.phase == "hoard"
    assert party.step().actors == (queen, vagabond)
    # Nobody gives across the tables.
    assert all(action.to in party.royal.seats for action in party.legal(queen) if hasattr(action, "to"))


def test_legal_actions_and_moves_are_routed_by_the_players_table():
    party = Party(8)
    party.pass_coups()
    for seat in party.royal.seats[1:] + party.renegades.seats[:3]:
        assert party.legal(seat) == []
    party.play_until(lambda p: p.royal.phase == "turn" and p.renegades.phase == "turn")
    step = party.step()
    assert isinstance(step, Turn)
    assert step.actors == (party.royal.turn, party.renegades.turn)
    assert party.legal(party.royal.turn) and party.legal(party.renegades.turn)


def test_a_window_at_one_table_does_not_stop_the_other_table():
    party = Party(12, seed=b"window")
    party.pass_coups()
    # The General (Royal table) is asked whether to stop a lay while the Renegades play on.
    party.play_until(lambda p: p.royal.phase == "stop" and p.renegades.phase == "turn")
    step = party.step()
    assert isinstance(step, ReactionWindow)
    assert step.players == (party.royal.actor, party.renegades.turn)
    general = party.royal.actor
    assert party.royal.character_of(general) == "general"
    renegade = party.renegades.turn
    options = party.legal(renegade)
    party.act(renegade, options[0])
    assert party.royal.phase == "stop" and party.royal.actor == general


def test_a_table_whose_quarter_is_over_waits_for_the_other():
    party = Party(9, seed=b"waits")
    party.play_until(lambda p: sum(table.phase == "done" for table in p.state.tables) == 1)
    done = 0 if party.royal.phase == "done" else 1
    other = party.state.tables[1 - done]
    assert party.state.phase == "playing"
    assert set(party.actors()) <= set(other.seats)
    assert not any(isinstance(op, Audit) for op in party.state.cards.pending)
    assert party.step().prompt.startswith(("Royal table: ", "Renegade table: "))


# -- tokens, promotion and demotion --------------------------------------------------------------


def test_going_out_takes_the_top_token_of_the_tables_stack():
    party = Party(8, seed=b"tokens")
    party.play_until(lambda p: p.state.quarter == 2)
    # The first quarter's going-out order at each table.
    for table, out in zip(party.state.tables, party.outs[0]):
        taken = [party.state.gears[player][0] for player in out]
        # The first out takes the lowest number, and so on: the stack's tokens in order.
        assert taken == sorted(CHARACTER_NUMBER[c] for c in table.characters)
        assert table.stacks[0] == []
    # No 1-point token powers in the Party variant.
    assert all(powers == [] for powers in party.state.powers)


@pytest.mark.parametrize("players", [8, 12])
def test_promotion_and_demotion_at_the_end_of_each_quarter(players):
    party = Party(players, seed=b"promotion-%d" % players)
    party.play_until(lambda p: p.state.quarter == 2)
    royal, renegades = party.royal, party.renegades
    royal_out, renegade_out = party.outs[0]
    # Royal: the first out reseat by their tokens; the Renegades' first two take the lowliest seats.
    assert royal.seats == royal_out[:-2] + renegade_out[:2]
    # Renegades: the Royal table's second-to-last and last take the preeminent seats.
    assert renegades.seats == royal_out[-2:] + renegade_out[2:]
    if players == 12:
        # As the rulebook says: the first two Renegades become the Jester and the Tea Boy, the
        # banished the Submariner and the Inspector.
        assert [royal.character_of(p) for p in renegade_out[:2]] == ["jester", "teaboy"]
        assert [renegades.character_of(p) for p in royal_out[-2:]] == ["submariner", "inspector"]
    # The tokens are re-stacked and the new quarter's decks are dealt among the new tables.
    assert royal.stacks[1] == sorted((CHARACTER_NUMBER[c] for c in royal.characters), reverse=True)
    assert any("promoted to the Royal table" in line for line in party.lines)


def test_the_royal_tables_first_out_in_the_fourth_quarter_wins():
    party = Party(10, seed=b"victory")
    party.play_until(lambda p: p.state.quarter == 4 and p.royal.phase == "done")
    first = party.royal.out[0]
    party.play_until(lambda p: isinstance(p.step(), GameOver))
    over = party.step()
    assert over.winners == (first,)
    # Scores are the final standing: 10 for the Queen's seat, down to 1.
    assert over.scores[first] == 10
    assert sorted(over.scores) == list(range(1, 11))
    assert over.summary.startswith("first out at the Royal table")


# -- the coup ------------------------------------------------------------------------------------


def test_a_coup_at_the_renegade_table_seizes_its_top_seat_and_redeals_that_table_only():
    # The Vagabond (Renegade table, last seat) is dealt all three Masterstrokes.
    party = Party(8, stacks={1: [(), (), (), ("MS", "MS", "MS")]})
    royal_seats, renegade_seats = party.royal.seats[:], party.renegades.seats[:]
    vagabond = renegade_seats[3]
    royal_deal = party.royal.deals[:]
    masterstrokes = tuple(sorted(s for s in party.state.hands[vagabond] if party.truth[s].startswith("MS")))
    assert len(masterstrokes) == 3
    assert Coup(masterstrokes) in party.legal(vagabond)
    party.act(vagabond, Coup(masterstrokes))
    assert party.renegades.seats == [vagabond] + renegade_seats[:3]
    assert party.renegades.characters[0] == "submariner"
    assert party.royal.seats == royal_seats and party.royal.deals == royal_deal
    assert party.renegades.phase == "coup"
    assert f"Renegades: p{vagabond} seizes the Submariner's seat; the Renegade table's cards are dealt again" in party.lines


# -- presentation --------------------------------------------------------------------------------


def test_panels_log_and_help_show_both_tables():
    party = Party(8)
    party.pass_coups()
    party.play_until(lambda p: p.royal.lays and p.renegades.lays)
    queen = party.royal.seats[0]
    panels = PRESENTATION.panels(party.state, queen, party.view(queen), NAMES[:8])
    titles = [panel.title for panel in panels]
    # A player sees his own table in full and the other at a glance.
    assert titles[:4] == ["Steam Court", "Royal table", "Royal machine", "Renegade table"]
    royal_text = ["".join(text for _, text in line) for line in panels[1].lines]
    assert royal_text[0].startswith(" 1 Queen") and f"p{queen} " in royal_text[0]
    assert " 6 Tea Boy" in royal_text[3]
    glance = ["".join(text for _, text in line) for line in panels[3].lines]
    assert all(f"p{seat} " in glance[0] for seat in party.renegades.seats)
    royal, renegades = party.royal, party.renegades
    saved = royal.phase
    royal.phase = "done"
    renegade_seat = renegades.seats[0]
    glance = next(panel for panel in PRESENTATION.panels(party.state, renegade_seat, party.view(renegade_seat), NAMES[:8])
                  if panel.title == "Royal table")
    assert ["".join(text for _, text in line) for line in glance.lines] == ["quarter over: waiting for the Renegade table"]
    royal.phase = saved
    # Someone watching sees both tables in full.
    watched = [panel.title for panel in PRESENTATION.panels(party.state, None, party.view(queen), NAMES[:8])]
    assert watched == ["Steam Court", "Royal table", "Royal machine", "Renegade table", "Renegade machine"]
    for panel in panels:
        for line in panel.lines:
            assert len("".join(text for _, text in line)) <= 61
    assert any(line.startswith("Royal: ") for line in party.lines)
    assert any(line.startswith("Renegades: ") for line in party.lines)
    submariner = party.renegades.seats[0]
    assert any(
        line.startswith(f"start tokens, Renegade table: 7 p{submariner} (Submariner)") for line in party.lines
    )
    assert "Party variant" in PRESENTATION.help_text()


def test_every_log_line_about_a_player_names_his_table():
    # A whole game: a line about one player starts with his table's name — the table he played
    # at, also for "was left holding" after the audit that promotes or banishes him (I23, I27).
    party = Party(8, seed=b"tags")
    party.play_until(lambda p: isinstance(p.step(), GameOver))
    about_both = ("start tokens, ", "— quarter ", "quarter ", "new seats, ")
    untagged = [
        line for line in party.lines
        if not line.startswith(("Royal: ", "Renegades: ") + about_both)
        and not line.endswith("went out first at the Royal table")
    ]
    assert untagged == []
    held = [line for line in party.lines if "was left holding" in line]
    assert len(held) == 8  # each table's last player, each quarter
    for quarter, ((royal, renegades), line_pair) in enumerate(zip(party.outs, zip(held[::2], held[1::2])), 1):
        assert line_pair[0].startswith(f"Royal: p{royal[-1]} was left holding"), (quarter, line_pair)
        assert line_pair[1].startswith(f"Renegades: p{renegades[-1]} was left holding"), (quarter, line_pair)


# -- whole games ---------------------------------------------------------------------------------


# 8–12 players play the Party variant by default, so the generic conformance test plays a random
# Party game at each of those sizes already; here: 7 (the one size that must ask for it) and 12.
@pytest.mark.parametrize("players", [7, 12])
def test_random_party_games_conform(players):
    report = play_random_game(PRESENTATION, GAME.ruleset(players, {"variant": "party"}), b"party-%d" % players, exhaustive=False)
    assert report.result is not None
    assert len(report.result.winners) == 1
    assert sorted(report.result.scores) == list(range(1, players + 1))


def test_a_random_party_game_conforms_exhaustively():
    report = play_random_game(PRESENTATION, GAME.ruleset(8), b"party-exhaustive")
    assert report.result is not None


def test_eleven_players_without_the_pirate_conform():
    report = play_random_game(PRESENTATION, GAME.ruleset(11, {"removed": "pirate"}), b"party-11-pirate", exhaustive=False)
    assert report.result is not None


def test_the_recommendations_table_matches_the_rulebook():
    assert set(PARTY) == {7, 8, 9, 10, 12}


def test_a_party_state_round_trips_through_its_encoding():
    from p2pgames.games.steamcourt.rules import Table

    state = after_seating(12)
    encoded = GAME.encode_state(state)
    assert len(encoded["tables"]) == 2
    assert set(encoded["tables"][0]) == set(Table.__slots__)
    assert GAME.encode_state(GAME.decode_state(encoded)) == encoded
