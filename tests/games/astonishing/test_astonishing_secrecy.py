"""The host's process can't tell another player's hand, installed cards or face-down trade cards.

A real 3-player table over loopback TCP, every seat its own node and session, bots keen on
trading playing (so face-down cards change hands often). After
every entry its session applies, each peer's knowledge (the cards it can decrypt) is checked
against the public state: it holds the cards of its own hand and contraption, and of no other
player's hand, contraption or face-down answer — the host no more than anyone. Cards pass only as
the rules say: the buyer of a face-down card sees it once the trade is accepted, the taker of a
random card once it is taken; both are checked to happen, so the test can't pass by a table
where nothing secret moved.
"""

from __future__ import annotations

import pytest

from p2pgames.crypto import Identity, reproducible_bytes
from p2pgames.games import get_game
from p2pgames.games.astonishing.actions import Accept, Answer, ChooseAction, Offer
from p2pgames.games.astonishing.bots import make_bot
from p2pgames.net import play_table
from p2pgames.session import Session

GAME = "astonishing"
PLAYERS = 3


class Watchful(Session):
    """A session that checks, after every entry, that it knows exactly what its seat may."""

    def __init__(self, seat: int, ruleset, seed: bytes) -> None:
        random_bytes = reproducible_bytes(seed + b"/seat/" + bytes([seat]))
        super().__init__(
            Identity.generate(random_bytes(32)), f"bot-{seat}", get_game,
            ruleset=ruleset if seat == 0 else None, bot=True, random_bytes=random_bytes, narrate=False,
        )
        self.checked = 0
        self.ours_once: set[int] = set()  # every slot we ever held: seen then, legitimately
        self.face_down_trades = 0  # trades accepted with a face-down card in the answer
        self.takes = 0  # cards taken at random from a hand
        self.others_hidden_seen: list[tuple[int, int]] = []  # (seat, slot): must stay empty

    def _after_apply(self, applied) -> None:
        super()._after_apply(applied)
        state = self.replica.state  # type: ignore[union-attr]
        for note in state.notes:
            if note[0] == "trade" and any(not up for _, up in note[4]):
                self.face_down_trades += 1
            elif note[0] == "take-from":
                self.takes += 1
        if state.phase in ("auditing", "over") or self.seat is None:
            return  # the audit makes every card public
        self.ours_once |= set(state.hands[self.seat]) | {slot for slots in state.installed[self.seat] for slot in slots}
        # Being revealed to everyone (its keys are being published) counts as public already.
        revealed = set(state.cards.revealed) | state.cards.expected_values()
        known = self.knowledge
        for seat in range(state.players):
            mine = [slot for slot in state.hands[seat] if slot not in revealed]
            mine += [slot for slots in state.installed[seat] for slot in slots if slot not in revealed]
            if seat == self.seat:
                if not state.cards.pending:  # (a card just moved to us is disclosed by the next entries)
                    assert all(slot in known for slot in mine), f"seat {seat} can't read its own cards"
                continue
            hidden = mine + [slot for slot, up in state.answer_of(seat) if not up and slot not in revealed]
            self.others_hidden_seen += [
                (seat, slot) for slot in hidden if slot in known and slot not in self.ours_once
            ]
        self.checked += 1


class Trader:
    """The game's bot, but keen on trading: it plays its Jack whenever it may and offers a card,
    answers every offer with one card face down, and accepts an answer holding a face-down card."""

    def __init__(self, seed: bytes) -> None:
        self.bot = make_bot(seed)

    def choose(self, game, state, player, knowledge, step):
        options = game.legal_actions(state, player, knowledge)
        for wanted in (
            lambda a: isinstance(a, ChooseAction) and a.card == "jack",
            lambda a: isinstance(a, Offer) and len(a.slots) == 1 and state.phase == "offer",  # not a revision
            lambda a: isinstance(a, Answer) and a.face_up == (False,),
            lambda a: isinstance(a, Accept) and any(not up for _, up in state.answer_of(a.seat)),
        ):
            chosen = [action for action in options if wanted(action)]
            if chosen:
                return chosen[0]
        return self.bot.choose(game, state, player, knowledge, step)


@pytest.mark.parametrize("seed", [b"secrecy-1", b"secrecy-2"])
async def test_no_peer_the_host_included_can_read_another_players_hidden_cards(tmp_path, autojump_clock, seed):
    game = get_game(GAME)
    ruleset = game.ruleset(PLAYERS)
    sessions = [Watchful(seat, ruleset, seed) for seat in range(PLAYERS)]
    bots = [Trader(seed + bytes([seat])) for seat in range(PLAYERS)]
    table = await play_table(GAME, PLAYERS, sessions=sessions, bots=bots, transcripts=tmp_path, seed=seed)
    assert table.result is not None, [session.fault for session in sessions]
    for session in sessions:
        assert session.checked > 50, "the check ran after every entry of a whole game"
        assert session.others_hidden_seen == [], (session.seat, session.others_hidden_seen)
    host = sessions[0]
    assert host.seat == 0 and host.others_hidden_seen == []
    # Secret cards did move between players, so the check had something to catch.
    assert host.face_down_trades > 0 and host.takes > 0, (host.face_down_trades, host.takes)
