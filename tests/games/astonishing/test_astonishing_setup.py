"""Setup (rulebook, "Prepare for play"): 2–4 players, the first player by chance (the rulebook's
youngest), the Inventors chosen in turn from the first player, a starting hand of 4 cards each."""

import pytest

from p2pgames.engine import (
    Act,
    CardOperations,
    Chance,
    ChanceOutcome,
    DeterministicRandom,
    Disclose,
    IllegalAction,
    NewDeal,
    RulesetError,
    Turn,
)
from p2pgames.games.astonishing.actions import ChooseAction, ChooseInventor
from p2pgames.games.astonishing.cards import DECK

from tests.games.astonishing.astonishing_scenarios import (
    CLUBS,
    DIAMONDS,
    GAME,
    HEARTS,
    SPADES,
    Phase,
    ScenarioTable,
    act,
    dealt,
    legal,
)


def test_game_identity_two_to_four_players_the_early_end_option_on_and_the_other_readings_off_by_default():
    assert (GAME.name, GAME.title, GAME.min_players, GAME.max_players) == ("astonishing", "Astonishing!", 2, 4)
    defaults = {"early_end": True, "free_discard": False, "optional_replacement": False}
    assert dict(GAME.ruleset(3).options) == defaults
    assert dict(GAME.ruleset(2, {"early_end": False}).options) == dict(defaults, early_end=False)
    assert GAME.ruleset(3).edition == 3  # 3: retired deals leave the card state (SPEC §D1)
    first_edition = {"game": "astonishing", "players": 3, "options": {"early_end": True}}  # before the readings
    with pytest.raises(RulesetError, match="made by an earlier version of p2pgames"):
        GAME.decode_ruleset(first_edition)
    for players in (1, 5):
        with pytest.raises(RulesetError, match="Astonishing! is for 2–4 players"):
            GAME.ruleset(players)
    with pytest.raises(RulesetError):
        GAME.ruleset(3, {"early_end": "yes"})


def test_the_first_player_is_drawn_by_joint_randomness_before_anything_else():
    state = GAME.setup(GAME.ruleset(4))
    assert GAME.step(state) == Chance("who goes first (the rulebook's youngest player)")
    firsts = set()
    for n in range(40):
        seed = n.to_bytes(32, "big")
        after = GAME.apply(state, ChanceOutcome(seed))
        assert after.first == DeterministicRandom(seed).below(4)
        firsts.add(after.first)
    assert firsts == {0, 1, 2, 3}  # any seat may go first: no seat chooses it
    assert state.first == -1  # apply changed a copy


def test_the_first_player_is_announced_as_the_youngest_and_play_goes_up_the_seats():
    table = ScenarioTable(3, first=1)
    assert table.state.first == 1 and table.state.in_turn() == [1, 2, 0]
    assert table.lines == ["bob goes first (drawn at random: the rulebook's youngest player) and play goes up the seats."]


def test_inventors_are_chosen_in_turn_from_the_first_player_each_a_different_one():
    table = ScenarioTable(3, first=2)
    assert table.state.phase == Phase.INVENTORS and table.step() == Turn((2,), "choose your Inventor")
    with pytest.raises(IllegalAction, match="it is not your turn"):
        act(table, 0, ChooseInventor(CLUBS))
    assert legal(table, 2) == [ChooseInventor(s) for s in (CLUBS, DIAMONDS, HEARTS, SPADES)]
    act(table, 2, ChooseInventor(HEARTS))
    assert table.step() == Turn((0,), "choose your Inventor")
    assert legal(table, 0) == [ChooseInventor(CLUBS), ChooseInventor(DIAMONDS), ChooseInventor(SPADES)]
    with pytest.raises(IllegalAction, match="another player plays Marisol Chang already$"):
        act(table, 0, ChooseInventor(HEARTS))
    act(table, 0, ChooseInventor(SPADES))
    assert table.step() == Turn((1,), "choose your Inventor")
    act(table, 1, ChooseInventor(CLUBS))
    assert table.state.inventor == [SPADES, CLUBS, HEARTS]
    assert "carol plays Marisol Chang (Hearts ♥)." in table.lines
    assert table.state.phase == Phase.CHOOSE


def test_the_deal_shuffles_the_42_cards_in_secret_and_discloses_each_hand_to_its_owner():
    table = ScenarioTable(3, first=1)
    for seat, suit in ((1, CLUBS), (2, DIAMONDS)):
        act(table, seat, ChooseInventor(suit))
    state = GAME.apply(table.state, Act(0, ChooseInventor(HEARTS)))
    step = GAME.step(state)
    assert isinstance(step, CardOperations)
    deal, *disclosures = step.operations
    assert deal == NewDeal(0, DECK, 0)
    # Dealt in turn from the first player: bob the top four, then carol, then alice.
    assert disclosures == [Disclose((0, 1, 2, 3), 1), Disclose((4, 5, 6, 7), 2), Disclose((8, 9, 10, 11), 0)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_player_starts_with_four_cards_it_alone_sees_and_the_deck_holds_42_minus_4_per_player(players):
    table = dealt(players, first=0)
    state = table.state
    assert [len(hand) for hand in state.hands] == [4] * players
    assert len(state.deck) == 42 - 4 * players
    assert state.discard == [] and state.cards.revealed == {}
    every = sorted(state.deck + [s for hand in state.hands for s in hand])
    assert every == list(range(42))
    for seat in range(players):
        assert set(table.knowledge[seat]) == set(state.hands[seat])
    assert state.installed == [[[], [], []] for _ in range(players)]


def test_after_the_deal_the_first_invention_turn_begins_with_every_action_card_open():
    table = dealt(3, first=0)
    assert table.state.turn == 1 and not table.state.final
    for seat in range(3):
        assert legal(table, seat) == [ChooseAction("jack"), ChooseAction("queen"), ChooseAction("king")]
    assert table.step().players == (0, 1, 2)


def test_the_inventor_choices_are_announced_in_turn_from_the_first_player():
    table = dealt(4, inventors=(SPADES, HEARTS, DIAMONDS, CLUBS), first=3)
    assert table.state.inventor == [SPADES, HEARTS, DIAMONDS, CLUBS]
    assert table.lines[1:5] == [
        "dave plays Lady Calibrette Merchant (Clubs ♣).",
        "alice plays Albert Smithering (Spades ♠).",
        "bob plays Marisol Chang (Hearts ♥).",
        "carol plays Abimbola Kayin (Diamonds ♦).",
    ]
