"""Private narration: a player's own log names the hidden card passed to it, once its keys have
arrived, on its screen alone — nothing of it is sent, recorded or seen by the other peers. On the
probe game, whose round winner passes a card to the player on the left (``Game.narrate_private``)."""

from __future__ import annotations

from p2pgames.games._probe import PassCard
from p2pgames.session import Logged, open_envelope
from switchboard import Switchboard

PLAYERS = 3


class RecordsPasses:
    """Plays the first legal move, and notes every card it passes: (to, card)."""

    def __init__(self, passes: list[tuple[int, str]]) -> None:
        self.passes = passes

    def choose(self, game, state, player, knowledge, step):
        action = game.legal_actions(state, player, knowledge)[0]
        if isinstance(action, PassCard):
            self.passes.append(((player + 1) % PLAYERS, knowledge[action.slot]))
        return action


def logged(board: Switchboard, seat: int) -> list[Logged]:
    return [event for event in board.events[seat] if isinstance(event, Logged)]


def test_the_card_passed_to_a_player_is_named_in_its_own_log_only_once_its_keys_arrive():
    passes: list[tuple[int, str]] = []
    board = Switchboard("probe", PLAYERS, seed=b"private lines", presented=True,
                        bots=[RecordsPasses(passes) for _ in range(PLAYERS)])
    board.run()
    assert all(session.stage == "over" for session in board.sessions)
    assert passes, "no card was passed: the test shows nothing"
    names = board.host.names
    bodies = [open_envelope(open_envelope(raw).body["submission"]).body["body"] for raw in board.sessions[1].role.entries]
    for seat in range(PLAYERS):
        # What the player is told: one line for each card passed to it, naming it and the giver.
        told = [line for event in logged(board, seat) for line in event.private]
        assert told == [f"{names[(to - 1) % PLAYERS]} passed you {card}" for to, card in passes if to == seat]
        # With the entry that brought it the key sealed to it — the pass itself, whose key rides
        # with it (§B5) — and with no other.
        for event in logged(board, seat):
            sealed_to_it = any(item[1] == seat for item in bodies[event.seq].get("sealed", ()))
            assert bool(event.private) == sealed_to_it, (seat, event)
    # Everyone's public lines are the same; no private line is in any transcript.
    public = [[line for event in logged(board, seat) for line in event.lines] for seat in range(PLAYERS)]
    assert public[1] == public[0] and public[2] == public[0]
    for transcript in board.transcripts:
        assert b"passed you" not in transcript
        for _, card in passes:
            assert f"passed you {card}".encode() not in transcript

