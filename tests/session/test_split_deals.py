"""Deals held by some seats only, made at the same time: what two tables playing at once need.

A small test game: seats 0–1 hold deck A and seats 2–3 deck B, both dealt in one step. Each seat
gets two cards of its own deck; seat 2 is also shown a card of deck A (it holds no key of it, so
deck A's holders seal theirs to it); one card of each deck is revealed; then both decks are
audited, each by its own holders.
"""

from dataclasses import dataclass
from typing import Any

import pytest

from switchboard import Switchboard

from p2pgames import LOCK_DECK_PROTOCOL, PROTOCOL_VERSION
from p2pgames.bots import RandomBot
from p2pgames.engine import (
    CardOperations,
    CardState,
    Game,
    GameOver,
    GameState,
    IllegalAction,
    MalformedAction,
    Turn,
)
from p2pgames.games import get_game
from p2pgames.session import verify_transcript

DECK_A = [f"a{n}" for n in range(6)]
DECK_B = [f"b{n}" for n in range(6)]


@dataclass(frozen=True, slots=True)
class Done:
    done: bool = True


class SplitState(GameState):
    def copy(self) -> "SplitState":
        other = SplitState()
        other.cards = self.cards.copy()
        other.phase = self.phase
        other.decks = [list(deck) for deck in self.decks]
        other.shown = self.shown
        return other


class TwoDecks(Game[SplitState]):
    name = "twodecks"
    title = "Two decks"
    min_players = max_players = 4

    def setup(self, ruleset):
        state = SplitState()
        state.cards = CardState()
        state.decks = [list(state.cards.new_deal(DECK_A, holders=(0, 1))), list(state.cards.new_deal(DECK_B, holders=(3, 2)))]
        for seat in range(4):
            deck = state.decks[seat // 2]
            state.cards.disclose(deck[2 * (seat % 2):2 * (seat % 2) + 2], seat)
        state.shown = state.decks[0][4]
        state.cards.disclose([state.shown], 2)  # a card of deck A shown to a seat of the other table
        state.cards.reveal([state.decks[0][5], state.decks[1][5]])
        state.phase = "play"
        return state

    def step(self, state):
        if state.cards.pending:
            return CardOperations(tuple(state.cards.pending))
        if state.phase == "play":
            return Turn((0,), "finish")
        return GameOver((0, 0, 0, 0), (0, 1, 2, 3), "done")

    def legal_actions(self, state, player, knowledge):
        return [Done()] if state.phase == "play" and player == 0 and not state.cards.pending else []

    def check_action(self, state, player, action):
        if not isinstance(action, Done):
            raise IllegalAction(player, "finish")

    def apply_action(self, state, player, action):
        state.cards.audit([0, 1])
        state.phase = "over"

    def encode_action(self, action):
        return ["done"]

    def decode_action(self, data):
        if list(data) != ["done"]:
            raise MalformedAction("not done")
        return Done()

    def encode_state(self, state):
        return {"cards": state.cards.encode(), "phase": state.phase, "decks": state.decks, "shown": state.shown}

    def decode_state(self, data):
        state = SplitState()
        state.cards = CardState.decode(data["cards"])
        state.phase = data["phase"]
        state.decks = [list(deck) for deck in data["decks"]]
        state.shown = data["shown"]
        return state

    def describe_action(self, state, player, action, knowledge, names):
        return "done"

    def narrate(self, before, event, after, names):
        return []


GAME = TwoDecks()


def loader(name: str) -> Any:
    return GAME if name == "twodecks" else get_game(name)


@pytest.mark.parametrize("protocol", [LOCK_DECK_PROTOCOL, PROTOCOL_VERSION])
def test_two_decks_dealt_at_once_each_by_its_own_holders(protocol):
    board = Switchboard("twodecks", 4, seed=b"split", loader=loader, bots=[RandomBot(b"")] * 4, protocol=protocol)
    passes = []
    board.run(play=False)
    for session in board.sessions:
        assert session.stage == "playing", session.fault
    replica = board.host.replica
    # Both deals exist and each was shuffled by exactly its holders: at protocol 10 the first
    # shuffles, the last shuffles and locks in one pass, then the first locks (§B6.1); at 11 each
    # holder makes one re-encryption pass (§B6.3).
    assert replica.deals[0].holders == (0, 1) and replica.deals[1].holders == (2, 3)
    for deal, (first, last) in ((0, (0, 1)), (1, (2, 3))):
        passes = sorted(replica.deals[deal].passes)
        if protocol == LOCK_DECK_PROTOCOL:
            assert passes == sorted([("shuffle", first), ("shuffle-lock", last), ("lock", first)])
        else:
            assert passes == [first, last]
    state = replica.state
    # Every seat sees its own two cards, and seat 2 also the card of deck A it was shown.
    for seat, session in enumerate(board.sessions):
        deck = state.decks[seat // 2]
        own = deck[2 * (seat % 2):2 * (seat % 2) + 2]
        assert set(own) <= set(session.knowledge)
        names = DECK_A if seat < 2 else DECK_B
        assert all(session.knowledge[slot] in names for slot in own)
    assert state.shown in board.sessions[2].knowledge
    assert state.shown not in board.sessions[3].knowledge
    # Seats outside a deal never publish or hold a key of it.
    assert set(replica.deals[0].published[5]) == {0, 1}
    assert state.cards.revealed[state.decks[0][5]] in DECK_A
    assert state.cards.revealed[state.decks[1][5]] in DECK_B
    board.run()
    for session in board.sessions:
        assert session.stage == "over", session.fault
    assert replica.audits == 1
    report = verify_transcript(bytes(board.transcripts[3]), loader)
    assert report.ok and report.complete, report.describe()


def test_the_two_deals_go_in_parallel():
    """The first shuffle of each deck is due at once: seat 0's for deck A, seat 2's for deck B."""
    board = Switchboard("twodecks", 4, seed=b"split", loader=loader, bots=[RandomBot(b"")] * 4)
    seen = []

    def before_first_pass():
        replica = board.host.replica
        if replica is not None and replica.deals and not any(c.passes for c in replica.deals.values()):
            seen.append(replica.waiting_for())
        return False

    board.run(until=before_first_pass, play=False)
    assert (0, 2) in seen


class ShownTwice(TwoDecks):
    """TwoDecks, with the card of deck A shown to both seats of the other table in one step."""

    name = "shown-twice"

    def setup(self, ruleset):
        state = super().setup(ruleset)
        state.cards.disclose([state.shown], 3)
        return state


SHOWN_TWICE = ShownTwice()


def test_a_card_shown_to_two_seats_that_hold_no_key_of_it_is_sealed_to_both():
    """§B6.2: a slot disclosed in one step to two seats outside U gets each holder's key sealed to
    each of them (not to the later one only, which left the first unable to read it)."""
    board = Switchboard(
        "shown-twice", 4, seed=b"split", loader=lambda name: SHOWN_TWICE if name == "shown-twice" else get_game(name),
        bots=[RandomBot(b"")] * 4,
    )
    board.run()
    for session in board.sessions:
        assert session.stage == "over", session.fault
    shown = board.host.replica.state.shown
    names = {board.sessions[seat].knowledge.get(shown) for seat in (2, 3)}
    assert len(names) == 1 and names <= set(DECK_A), names
    sealed = [item for item in board.host.replica.deals[0].sealed[shown - board.host.replica.deals[0].first_slot]]
    assert sorted((key.sender, key.to) for key in sealed) == [(0, 2), (0, 3), (1, 2), (1, 3)]
