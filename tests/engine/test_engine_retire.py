"""Retiring a deal (CardState.retire): an audited deal the game no longer refers to leaves the card
state entirely, so a long game's state — hashed after every event — stays as small as its deals in
play (SPEC §D1)."""

from p2pgames import canonical
from p2pgames.bots import PlayoutBot
from p2pgames.engine import CardState, LocalTable, NewDeal, Reshuffle
from p2pgames.games import get_game


def audited_hand() -> CardState:
    """Deal 0 of four cards, a hand of two re-masked (deal 1), both deals audited."""
    cards = CardState()
    slots = cards.new_deal(["a", "b", "c", "d"])
    cards.disclose(slots[:2], 0)
    cards.complete({})
    cards.remask([0, 1], 0)
    cards.complete({})
    cards.audit([0, 1])
    cards.complete({0: "a", 1: "b", 2: "c", 3: "d", 4: "b", 5: "a"})
    return cards


def test_a_retired_deal_leaves_no_trace_in_the_encoded_state_but_the_numbers_it_used_up():
    cards = audited_hand()
    cards.retire(0)
    cards.retire(1)
    assert cards.encode() == {
        "deals": [], "next_deal": 2, "next_slot": 6, "revealed": [], "pending": [], "claims": [], "audited": [],
    }
    # A new deal takes the next number and slots, never a retired one's.
    assert list(cards.new_deal(["x", "y"])) == [6, 7]
    cards.remask([6, 7], 1)
    assert cards.pending[0] == NewDeal(2, ("x", "y"), 6) and cards.pending[1] == Reshuffle(3, (6, 7), 8)
    again = CardState.decode(cards.encode())
    assert again.encode() == cards.encode() and again.next_deal == 4


def test_retiring_one_deal_keeps_the_others_and_the_counter():
    cards = audited_hand()
    cards.retire(0)
    encoded = cards.encode()
    assert [record[0] for record in encoded["deals"]] == [1] and encoded["audited"] == [1]
    assert encoded["revealed"] == [[4, "b"], [5, "a"]] and encoded["next_deal"] == 2
    assert cards.value(4) == "b" and cards.value(0) is None


class _RoundStarts:
    """The size of the encoded card state at each round's first decision (its deal done)."""

    def __init__(self) -> None:
        self.sizes: dict[int, int] = {}
        self.left_over: dict[int, list[int]] = {}  # deals of earlier rounds still in the state

    def __call__(self, table: LocalTable) -> bool:
        state = table.state
        if state.round not in self.sizes:
            self.sizes[state.round] = len(canonical.encode(state.cards.encode()))
            cards = state.cards
            self.left_over[state.round] = [deal for deal in cards.deals if deal < state.deal] + sorted(cards.audited)
        return False


def test_a_long_beltpunk_games_card_state_is_no_larger_in_a_late_round_than_in_the_first():
    game = get_game("beltpunk")
    ruleset = game.ruleset(2, {"target": 35})
    table = LocalTable(game, ruleset, b"retire-long", check=False)
    starts = _RoundStarts()
    table.play_with([PlayoutBot(b"retire-long")] * 2, until=starts)
    assert table.over and len(starts.sizes) >= 5, starts.sizes  # a long game: choose another seed
    first = starts.sizes[1]
    # Only the numbers grow (slots past 255 take more bytes): a few bytes, not a record per deal.
    assert all(size <= first + 100 for size in starts.sizes.values()), starts.sizes
    # Nothing of a finished round is left: only this round's deal (its re-masks come later).
    assert all(not deals for deals in starts.left_over.values()), starts.left_over
    assert table.state.cards.next_deal > 5 * len(table.state.cards.deals) > 0
