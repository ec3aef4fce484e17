"""The lobby, between sessions in memory: the names the host gives, and chat before the game."""

from __future__ import annotations

import pytest

from p2pgames.crypto import Identity, reproducible_bytes
from p2pgames.games import get_game
from p2pgames.session import HOST_CONNECTION, ChatReceived, LobbyChanged, LocalError, Session
from p2pgames.session._messages import make_envelope


class Lobby:
    """A host with ``seats`` seats and joiners connected one by one (never filling the table)."""

    def __init__(self, host_name: str = "root", seats: int = 4, seed: bytes = b"lobby", game: str = "probe") -> None:
        self.seed = seed
        self.host = self._session(host_name, 0, ruleset=get_game(game).ruleset(seats))
        self.joiners: list[Session] = []
        self.events: dict[int, list] = {0: []}

    def _session(self, name: str, number: int, **options) -> Session:
        random_bytes = reproducible_bytes(self.seed + b"/%d" % number)
        return Session(Identity.generate(random_bytes(32)), name, get_game, random_bytes=random_bytes, **options)

    def join(self, name: str) -> Session:
        number = len(self.joiners) + 1
        joiner = self._session(name, number)
        self.joiners.append(joiner)
        self.events[number] = []
        self.host.connected(number)
        joiner.connected(HOST_CONNECTION)
        self.settle()
        return joiner

    def settle(self) -> None:
        """Deliver frames both ways until nothing moves; collect every session's events."""
        moved = True
        while moved:
            moved = False
            for connection, data in self.host.take_outgoing():
                self.joiners[connection - 1].receive(HOST_CONNECTION, data)
                moved = True
            for number, joiner in enumerate(self.joiners, 1):
                for _, data in joiner.take_outgoing():
                    self.host.receive(number, data)
                    moved = True
            for number, session in enumerate([self.host, *self.joiners]):
                self.events[number] += session.take_events()

    def chats(self, number: int) -> list[tuple[int, str, str]]:
        return [(event.seat, event.name, event.text) for event in self.events[number] if isinstance(event, ChatReceived)]


def test_a_joiner_with_a_taken_name_is_told_its_new_name_and_which_seat_is_its():
    lobby = Lobby()
    joiner = lobby.join("Root")  # names are told apart ignoring case: moves name players
    assert joiner.name == "Root-2" and joiner.seated and joiner.seat is None
    [*_, last] = [event for event in lobby.events[1] if isinstance(event, LobbyChanged)]
    assert last == LobbyChanged((("root", False), ("Root-2", False)), 4, 1)
    host_view = [event for event in lobby.events[0] if isinstance(event, LobbyChanged)][-1]
    assert host_view.you == 0
    assert joiner.status() == "waiting for players (2 of 4 seated)"


def test_chat_in_the_lobby_reaches_everyone_seated_and_is_not_recorded():
    lobby = Lobby()
    ann, bob = lobby.join("ann"), lobby.join("bob")
    ann.chat("hello\x1b[2J all")  # control characters never reach a screen
    lobby.settle()
    lobby.host.chat("welcome")
    lobby.settle()
    expected = [(1, "ann", "hello [2J all"), (0, "root", "welcome")]
    assert lobby.chats(0) == lobby.chats(1) == lobby.chats(2) == expected
    assert all(not session.take_transcript() for session in (lobby.host, ann, bob))
    assert all(session.stage == "lobby" and session.fault is None for session in (lobby.host, ann, bob))


def test_a_lobby_chat_not_signed_by_the_seated_player_is_dropped_by_the_host():
    lobby = Lobby()
    ann, bob = lobby.join("ann"), lobby.join("bob")
    table = lobby.host.table_id
    forged = make_envelope(Identity.generate(), "chat", {"game_id": table, "text": "I am ann"})
    lobby.host.receive(1, forged.raw)  # on ann's connection, signed by someone else
    good = make_envelope(ann.identity, "chat", {"game_id": table, "text": "I am ann"})
    tampered = good.raw.replace(b"I am ann", b"I am Ann")  # ann's key, a signature that fails
    lobby.host.receive(1, tampered)
    lobby.settle()
    assert lobby.chats(0) == lobby.chats(2) == []
    assert lobby.host.stage == "lobby" and bob.stage == "lobby"


def test_a_lobby_chat_is_for_one_table_only():
    lobby, other = Lobby(), Lobby("other host", seed=b"another table")
    ann = lobby.join("ann")
    said = make_envelope(ann.identity, "chat", {"game_id": other.host.table_id, "text": "hi"})
    lobby.host.receive(1, said.raw)  # a line meant for (or taken from) another table
    lobby.settle()
    assert lobby.chats(0) == [] and lobby.host.table_id != other.host.table_id
    assert ann.table_id == lobby.host.table_id  # the joiner learnt it from the lobby message


def test_a_host_relaying_a_lobby_chat_from_someone_not_in_the_lobby_is_named():
    lobby = Lobby()
    ann = lobby.join("ann")
    stranger = make_envelope(Identity.generate(), "chat", {"game_id": lobby.host.table_id, "text": "boo"})
    ann.receive(HOST_CONNECTION, stranger.raw)
    assert ann.fault is not None and ann.fault.culprit == 0 and ann.fault.code == "bad-signature"
    assert ann.fault.reason == "the host relayed a chat from a key not in the lobby"


def test_names_are_unique_as_they_are_typed_and_within_the_limit():
    lobby = Lobby(host_name="a" * 40, seats=6, game="steamcourt")
    assert lobby.join("a" * 38 + "-2").name == "a" * 38 + "-2"
    assert lobby.join("A" * 40).name == "A" * 38 + "-3"  # "-2" is taken, ignoring case; cut to 40
    assert lobby.join("Bob  Smith").name == "Bob  Smith"
    assert lobby.join("bob smith").name == "bob smith-2"


def test_chat_before_the_host_has_seated_you_says_so():
    joiner = Session(Identity.generate(), "ann", get_game)
    with pytest.raises(LocalError, match="you can chat once the host has given you a seat"):
        joiner.chat("hi")
    with pytest.raises(LocalError, match="nothing to send"):
        joiner.chat("   ")


def test_a_host_leaving_the_lobby_tells_the_joiners_why():
    lobby = Lobby()
    ann = lobby.join("ann")
    lobby.host.leave("quit")
    lobby.settle()
    assert ann.stage == "closed" and ann.rejection == "the host closed the table"


def test_a_lobby_line_arriving_after_the_start_goes_no_further():
    lobby = Lobby(seats=3)
    ann, bob = lobby.join("ann"), lobby.join("bob")  # the table is full: the game starts
    assert lobby.host.stage != "lobby"
    late = make_envelope(ann.identity, "chat", {"game_id": lobby.host.table_id, "text": "hello?"})
    lobby.host.receive(1, late.raw)
    assert lobby.host.take_outgoing() == [] and lobby.host.fault is None
    lobby.settle()
    assert lobby.chats(0) == lobby.chats(2) == []


def test_a_refusal_before_the_hosts_hello_counts_only_if_signed_by_the_key_in_the_join_code():
    host = Identity.generate(reproducible_bytes(b"the real host")(32))
    for signer, unproven in ((host, False), (Identity.generate(), True)):
        joiner = Session(Identity.generate(), "ann", get_game, expected_host=host.public_key.fingerprint())
        joiner.connected(HOST_CONNECTION)
        joiner.receive(HOST_CONNECTION, make_envelope(signer, "reject", {"reason": "the table is full"}).raw)
        assert (joiner.stage, joiner.rejection, joiner.rejection_unproven) == ("closed", "the table is full", unproven)
