"""Beltpunk's (SPEC §D2) and Steam Court's (§D3, §D3.1) states, followed independently: every
state hash of the session vectors computed from their entries alone, and seeded random games of
every player count and variant whose every state, after every event, is the product's."""

import json
from pathlib import Path

import pytest

from p2pgames import canonical
from p2pgames.engine import Act, CardsDone, ChanceOutcome, DeterministicRandom, GameOver, LocalTable, \
    Simultaneous, SimultaneousActs, Turn
from p2pgames.games import get_game

from . import beltpunk, replica, steamcourt, steamcourt_solo, transcript

VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors"


def replay_vector(name, make_game, deck_domain):
    meta = json.loads((VECTORS / f"{name}.json").read_text())
    data = (VECTORS / meta["file"]).read_bytes()
    log = transcript.verify(data, follow_games=False)  # the entries' submissions, unchecked by the game
    start = next(value for _i, kind, value in transcript.records(data) if kind == "start")
    body = transcript.wire.open_envelope(start).body
    game = make_game(body["ruleset"])
    rep = replica.Replica(game, body["game_id"], body["seats"], deck_domain)
    hashes = [rep.apply(seat, submitted).hex() for seat, submitted in log.bodies]
    assert len(hashes) == meta["entries"]
    assert hashes == meta["state_hashes"]
    result = rep.result()
    assert (result["scores"], result["winners"]) == (meta["result"]["scores"], meta["result"]["winners"])


def test_every_state_hash_of_the_beltpunk_vector_is_computed_from_its_entries():
    replay_vector("session-beltpunk-2p",
                  lambda ruleset: beltpunk.Beltpunk(ruleset["players"], ruleset["options"]["target"]),
                  beltpunk.DECK_DOMAIN)


def test_every_state_hash_of_the_steamcourt_vector_is_computed_from_its_entries():
    replay_vector("session-steamcourt-3p",
                  lambda ruleset: steamcourt.SteamCourt(ruleset["players"], ruleset["options"]),
                  steamcourt.DECK_DOMAIN)


class FollowedTable(LocalTable):
    """The product's table; every event it feeds is fed to the independent state machine too, and
    both states' canonical encodings must be equal after each."""

    def __init__(self, game, ruleset, seed, independent):
        self.independent = independent
        self.events = 0
        super().__init__(game, ruleset, seed, check=False)
        self.compare("the state before any event")

    def compare(self, after):
        # The product's encoder on both sides: the independent one (canon.py, checked by the vectors
        # and by the replays above) is five times slower, and this runs after every event.
        theirs, ours = self.game.encode_state(self.state), self.independent.encode()
        if canonical.encode(theirs) != canonical.encode(ours):
            keys = [k for k in theirs if canonical.encode(theirs[k]) != canonical.encode(ours.get(k))]
            raise AssertionError(f"after event {self.events} ({after}) the states differ in {keys}")

    def feed(self, event):
        super().feed(event)
        self.events += 1
        game, mine = self.game, self.independent
        if isinstance(event, ChanceOutcome):
            mine.chance(event.seed)
        elif isinstance(event, CardsDone):
            mine.cards_done(list(event.values))
        elif isinstance(event, Act):
            mine.act(event.player, game.encode_action(event.action))
        elif isinstance(event, SimultaneousActs):
            mine.simultaneous([(seat, game.encode_action(action)) for seat, action in event.actions])
        self.compare(type(event).__name__)


def play_followed(game_name, players, options, seed, independent):
    """A seeded random game through the product's LocalTable, followed event by event."""
    game = get_game(game_name)
    ruleset = game.ruleset(players, options)
    table = FollowedTable(game, ruleset, seed, independent(ruleset.encode()))
    game, chooser = table.game, DeterministicRandom(b"choices " + seed)

    def choose(seat):
        state = table.state
        return game.playout_choice(state, seat, game.legal_actions(state, seat, table.view(seat)), table.view(seat),
                                   chooser)

    table.settle()
    while not isinstance(step := game.step(table.state), GameOver):
        if isinstance(step, Simultaneous):
            table.act_simultaneous([(seat, choose(seat)) for seat in step.players])
            continue
        actors = step.actors if isinstance(step, Turn) else step.players
        movers = [seat for seat in actors if game.legal_actions(table.state, seat, table.view(seat))]
        table.act(seat := movers[chooser.below(len(movers))], choose(seat))
    return table.events


@pytest.mark.parametrize("players,target", [(2, 25), (3, 35), (4, 25)])
def test_random_beltpunk_games_follow_the_products_every_state(players, target):
    assert play_followed("beltpunk", players, {"target": target}, b"beltpunk %d" % players,
                         lambda ruleset: beltpunk.Beltpunk(ruleset["players"], ruleset["options"]["target"])) > 0


STEAM_COURT_GAMES = ([(n, {"variant": "court"}) for n in range(2, 8)]
                     + [(n, {"variant": "court", "scoring": "clock"}) for n in range(2, 7)]
                     + [(4, {"variant": "court", "start_tokens": "seat"})]
                     + [(2, {"variant": "duo"}), (2, {"variant": "duo", "duo_win": "queen"})]
                     + [(2, {"variant": "duo", "start_tokens": "seat"})]
                     + [(n, {"variant": "party"}) for n in range(7, 13)]
                     + [(11, {"variant": "party", "removed": "pirate"})])


@pytest.mark.parametrize("players,options", STEAM_COURT_GAMES,
                         ids=[f"{n}-" + "-".join(o.values()) for n, o in STEAM_COURT_GAMES])
def test_random_steamcourt_games_follow_the_products_every_state(players, options):
    seed = b"steamcourt %d %s" % (players, repr(sorted(options.items())).encode())
    assert play_followed("steamcourt", players, options, seed,
                         lambda ruleset: steamcourt.SteamCourt(ruleset["players"], ruleset["options"])) > 0


# Seeds whose games reach, between them, every Solo action and rung and a won game (most random
# games are lost in the first rungs); none of 600 seeds re-shuffles the discard pile.
@pytest.mark.parametrize("game", [1, 4, 44, 226])
def test_random_solo_games_follow_the_products_every_state(game):
    assert play_followed("steamcourt", 1, {}, b"solo %d" % game, lambda _ruleset: steamcourt_solo.Solo()) > 0
