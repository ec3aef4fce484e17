"""A re-mask (CardState.remask): a hand's cards in new slots only their holder can tell apart."""

from p2pgames.engine import CardState, Disclose, Reshuffle, decode_operation


def dealt_hand():
    cards = CardState()
    slots = cards.new_deal(["a", "b", "c", "d"])
    cards.disclose(slots[:2], 0)
    cards.complete({})
    cards.reveal([slots[0]])  # "a" shown face up: everyone knows slot 0
    cards.complete({0: "a"})
    return cards


def test_a_remask_reshuffles_the_hand_then_shows_the_new_slots_to_its_holder_marked_as_such():
    cards = dealt_hand()
    fresh = cards.remask([0, 1], 0)
    assert list(fresh) == [4, 5]
    assert cards.pending == [Reshuffle(1, (0, 1), 4, ()), Disclose((4, 5), 0, remask=True)]
    # Nothing new to tell the holder, and no value of the new slots is public, not even "a"'s.
    assert cards.disclosed_to(0) == ()
    assert cards.expected_values() == set()
    cards.complete({})
    assert cards.value(4) is None and cards.value(5) is None and cards.value(0) == "a"


def test_a_remask_disclosure_encodes_with_a_fourth_item_and_a_plain_one_as_always():
    assert Disclose((4, 5), 0, remask=True).encode() == ["disclose", [4, 5], 0, True]
    assert Disclose((4, 5), 0).encode() == ["disclose", [4, 5], 0]
    for operation in (Disclose((4, 5), 0, remask=True), Disclose((4, 5), 0)):
        assert decode_operation(operation.encode()) == operation


def test_a_remask_deal_is_audited_with_its_source_and_its_cards_are_the_sources():
    cards = dealt_hand()
    cards.remask([0, 1], 0)
    cards.complete({})
    cards.audit([0, 1])
    cards.complete({1: "b", 2: "c", 3: "d", 4: "b", 5: "a"})
    assert cards.audited == {0, 1} and cards.value(5) == "a"


def test_a_whole_hand_is_remasked_in_place_and_an_empty_one_not_at_all():
    cards = dealt_hand()
    hand = [0, 1]
    assert cards.remask_hand(hand, 0) == 1  # the re-mask's deal
    assert hand == [4, 5] and cards.pending == [Reshuffle(1, (0, 1), 4, ()), Disclose((4, 5), 0, remask=True)]
    cards.complete({})
    empty: list[int] = []
    assert cards.remask_hand(empty, 1) is None
    assert empty == [] and cards.pending == [] and cards.next_deal == 2
