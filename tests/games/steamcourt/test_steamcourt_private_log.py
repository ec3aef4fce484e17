"""A player's own log names the hidden cards that come to it — a card given by the Queen or the
General, the Tea Boy's two highest, the Court Hand taken in trade or hoarded, what the Inspector
sees — once it can see them; nobody else's log does (``SteamCourt.narrate_private``)."""

from collections import defaultdict

from p2pgames.games.steamcourt import SteamCourt

from steamcourt_scenarios import NAMES, Court

ALICE, BOB, CAROL, DAVE = 0, 1, 2, 3


class PrivateCourt(Court):
    """A :class:`Court` that keeps each seat's private log lines in :attr:`private`."""

    def __init__(self, *args, **options) -> None:
        self.private: dict[int, list[str]] = defaultdict(list)
        super().__init__(*args, **options)

    def feed(self, event) -> None:
        before = self.state
        super().feed(event)
        for seat in range(self.players):
            self.private[seat] += self.game.narrate_private(
                before, event, self.state, seat, self.view(seat), NAMES[: self.players]
            )


def test_the_receiver_of_a_gift_alone_is_told_which_card_it_got():
    table = PrivateCourt(3, [["1", "1", "1", "9"], ["5"], ["12", "11"]])
    table.do(ALICE, "give 9 to carol")
    assert "alice (Queen) gives carol a card" in table.lines
    assert table.private[CAROL] == ["alice (Queen) gives you 9"]
    assert table.private[ALICE] == [] and table.private[BOB] == []
    assert not any("9" in line for line in table.lines)


def test_the_tea_boys_two_highest_are_named_to_the_player_served_alone():
    table = PrivateCourt(4, [["1"], ["2"], ["3"], ["12", "9", "11", "4"]])
    table.do(ALICE, "pass")
    table.do(DAVE, "give 11 12 to alice")
    assert table.private[ALICE] == ["dave (Tea Boy) gives you 11 12"]
    assert not any(table.private[seat] for seat in (BOB, CAROL, DAVE))


def test_the_tea_boy_is_told_the_court_hand_he_takes_in_trade():
    table = PrivateCourt(3, [["1", "2"], ["5"], ["12", "11", "3", "4"]], ["9", "9"], trim=False)
    table.trim()
    table.table.court[:] = [slot for slot in table.table.court if table.name(slot) in ("9a", "9b")]
    table.do(ALICE, "give 2 to carol")
    table.do(CAROL, "give 11 12 to alice")
    table.do(CAROL, "trade")
    assert table.private[CAROL] == ["alice (Queen) gives you 2", "From the Court Hand you take 9 9"]
    assert table.private[ALICE] == ["carol (Tea Boy) gives you 11 12"] and table.private[BOB] == []


def test_the_inspector_is_told_what_he_sees():
    table = PrivateCourt(7, [["1"], ["2"], ["3"], ["4"], ["5", "6"], ["7"], ["8", "9"]])
    table.do(ALICE, "pass")
    table.do(BOB, "pass")
    table.do(DAVE, "inspect erin")
    (seen,) = table.private[DAVE]
    assert seen.startswith("The Court Hand holds ") and seen.endswith("; erin holds 5 6")
    assert not any(table.private[seat] for seat in range(7) if seat != DAVE)


def test_the_vagabond_is_told_the_court_hand_he_hoards():
    game = SteamCourt({3: ("submariner", "alchemist", "vagabond")})
    table = PrivateCourt(3, [["1"], ["2"], ["10", "12", "X", "4"]], ["9"], game=game)
    table.do(CAROL, "give 10 12 to bob")
    assert table.private[BOB] == ["carol (Vagabond) gives you 10 12"]
    table.do(CAROL, "hoard")
    (hoarded,) = table.private[CAROL]
    assert hoarded.startswith("From the Court Hand you take ") and "9" in hoarded
