"""Beltpunk's (SPEC §D2), Steam Court's (§D3, §D3.1) and Steam Torpedo's (§D4) states, followed
independently: every state hash of the session vectors and of real Steam Torpedo bot games computed
from their entries alone, and seeded random games of every player count, variant and build whose
every state, after every event, is the product's (and for Steam Torpedo, whose every list of legal
actions is the product's)."""

import json
from pathlib import Path

import pytest

from p2pgames import canonical
from p2pgames.engine import Act, CardsDone, ChanceOutcome, DeterministicRandom, GameOver, LocalTable, \
    Simultaneous, SimultaneousActs, Turn
from p2pgames.games import get_game

from p2pgames.net import play_table

from . import beltpunk, replica, steamcourt, steamcourt_solo, torpedo, transcript

VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors"


def replay(data, make_game, deck_domain):
    """The transcript's entries replayed by the independent game: (every state hash it computes, in
    hex, the host's signed hashes, the replayed result)."""
    log = transcript.verify(data, follow_games=False)  # the entries' submissions, unchecked by the game
    assert log.ok, log.problem
    start = next(value for _i, kind, value in transcript.records(data) if kind == "start")
    body = transcript.wire.open_envelope(start).body
    game = make_game(body["ruleset"])
    rep = replica.Replica(game, body["game_id"], body["seats"], deck_domain, body["ruleset"])
    hashes = [rep.apply(seat, submitted).hex() for seat, submitted in log.bodies]
    return hashes, [state.hex() for state in log.states], rep.result()


def replay_vector(name, make_game, deck_domain):
    meta = json.loads((VECTORS / f"{name}.json").read_text())
    hashes, _signed, result = replay((VECTORS / meta["file"]).read_bytes(), make_game, deck_domain)
    assert len(hashes) == meta["entries"]
    assert hashes == meta["state_hashes"]
    assert (result["scores"], result["winners"]) == (meta["result"]["scores"], meta["result"]["winners"])


def test_every_state_hash_of_the_beltpunk_vector_is_computed_from_its_entries():
    replay_vector("session-beltpunk-2p",
                  lambda ruleset: beltpunk.Beltpunk(ruleset["players"], ruleset["options"]["target"]),
                  beltpunk.DECK_DOMAIN)


def test_every_state_hash_of_the_beltpunk_vector_with_a_seat_rebuilt_is_computed_from_its_entries():
    replay_vector("session-beltpunk-4p-gone",
                  lambda ruleset: beltpunk.Beltpunk(ruleset["players"], ruleset["options"]["target"]),
                  beltpunk.DECK_DOMAIN)


def test_every_state_hash_of_the_steamcourt_vector_is_computed_from_its_entries():
    replay_vector("session-steamcourt-3p",
                  lambda ruleset: steamcourt.SteamCourt(ruleset["players"], ruleset["options"]),
                  steamcourt.DECK_DOMAIN)


def test_every_state_hash_of_the_torpedo_vector_is_computed_from_its_entries():
    # The tiles too come from the SPEC's text (§D4.2): the edition computed from its tables is the
    # product's, which the vector's ruleset names.
    assert torpedo.EDITION == get_game("torpedo").ruleset(2, {})["tiles"]
    replay_vector("session-torpedo-2p", lambda ruleset: torpedo.Torpedo(ruleset["options"]), torpedo.DECK_DOMAIN)


# Real games: one per build, the product's heuristic bots over loopback TCP. (The search bot made
# the starter game cost 40 s once the reworked tiles made games longer; which bot chose the moves
# doesn't matter to the hashes, and tests/games/torpedo plays the search bot.)
TORPEDO_BOT_GAMES = [("custom", ("heuristic",)), ("random", ("heuristic",)), ("draft", ("heuristic",)),
                     ("starter", ("heuristic",))]


@pytest.mark.parametrize("build, kinds", TORPEDO_BOT_GAMES, ids=[build for build, _ in TORPEDO_BOT_GAMES])
async def test_every_state_hash_of_real_torpedo_bot_games_is_computed_from_their_transcripts(
        tmp_path, autojump_clock, build, kinds):
    table = await play_table("torpedo", 2, options={"build": build}, seed=b"independent torpedo " + build.encode(),
                             transcripts=tmp_path, bot_kinds=kinds, verify=False)
    assert table.ok, [seat.fault for seat in table.seats]
    for seat in table.seats:
        hashes, signed, result = replay(seat.transcript.read_bytes(), lambda ruleset: torpedo.Torpedo(ruleset["options"]),
                                        torpedo.DECK_DOMAIN)
        assert len(hashes) == table.entries
        assert hashes == signed, next(i for i, (a, b) in enumerate(zip(hashes, signed)) if a != b)
        assert (result["scores"], result["winners"]) == (list(table.result.scores), list(table.result.winners))


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


def play_followed(game_name, players, options, seed, independent, table_class=FollowedTable):
    """A seeded random game through the product's LocalTable, followed event by event."""
    game = get_game(game_name)
    ruleset = game.ruleset(players, options)
    table = table_class(game, ruleset, seed, independent(ruleset.encode()))
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


class FollowedTorpedoTable(FollowedTable):
    """Also compares, after every event, each seat's legal actions (a custom build's aside: the
    product lists a few of millions) with those the SPEC's rules allow (§D4.3–§D4.5)."""

    def compare(self, after):
        super().compare(after)
        mine = self.independent
        for seat in mine.actors():
            if mine.phase == "build":
                continue
            theirs = {canonical.encode(self.game.encode_action(action))
                      for action in self.game.legal_actions(self.state, seat, self.view(seat))}
            ours = {canonical.encode(action) for action in mine.legal_actions(seat)}
            assert theirs == ours, (f"after event {self.events} ({after}), phase {mine.phase}: seat {seat}'s legal "
                                    f"actions differ in {sorted(theirs ^ ours)}")


class NotingTorpedo(torpedo.Torpedo):
    """The independent game, noting in `noted` what a game reached: each effect resolved, as
    (kind, a reaction, doubled); each answer of the defence and the drain made at once, by name;
    each phase a state is encoded in; and how the game ended."""

    def __init__(self, options, noted):
        super().__init__(options)
        self.noted = noted

    def encode(self):
        self.noted.add(("phase", self.phase))
        return super().encode()

    def _resolve(self):
        self.noted.add((self.effect()["kind"], self.source[4], self.source[3]))
        super()._resolve()

    def _defence(self):
        hittable = self.hittable(1 - self.source[0], self.hit)
        if not hittable:
            self.noted.add("absorbed at once")
        elif self.assigned and len(hittable) == 1:
            self.noted.add("assigned at once")
        super()._defence()

    def _drain_on(self):
        if self.amount and len(self.drainable()) == 1:
            self.noted.add("drained at once")
        elif self.amount and not self.drainable() and len(self.fallback()) == 1:
            self.noted.add("fallback token at once")
        super()._drain_on()

    def _end_checked(self):
        over = super()._end_checked()
        if over:
            self.noted.add("control room destroyed" if self.destroyed(self.losers[0], torpedo.CONTROL) else "other end")
        return over


# Seeds whose random games (uniformly random legal play) reach, between them, every effect kind of
# the tiles, each counter kind as a reaction and each two-keys kind doubled, the defence's and the
# drain's automatic answers, and an end by the control room (most random games run out of oxygen).
TORPEDO_GAMES = [("draft", 5014), ("draft", 5226), ("custom", 25), ("custom", 5005), ("draft", 5010), ("random", 5016),
                 ("custom", 5029), ("draft", 9088)]


def test_random_torpedo_games_follow_the_products_every_state_and_legal_actions():
    noted = set()
    for build, number in TORPEDO_GAMES:
        assert play_followed("torpedo", 2, {"build": build}, b"torpedo %s %d" % (build.encode(), number),
                             lambda ruleset: NotingTorpedo(ruleset["options"], noted), FollowedTorpedoTable) > 0
    effects = [effect for tile in torpedo.TILE_DATA for effect in tile.get("effect", [])]
    resolved = {note for note in noted if isinstance(note, tuple) and note[0] != "phase"}
    assert {kind for kind, _, _ in resolved} == {e["kind"] for e in effects if e["button"] != "standby"}
    assert {kind for kind, reaction, _ in resolved if reaction} == {e["kind"] for e in effects if e["button"] == "counter"}
    assert {kind for kind, _, doubled in resolved if doubled} == {e["kind"] for e in effects if e.get("alert") == "two-keys"}
    assert {"absorbed at once", "assigned at once", "drained at once", "fallback token at once"} <= noted
    assert {"control room destroyed", "other end"} <= noted
    # The phases of the states after events: every phase but `deal` and `draft-order`, only ever the first.
    assert {note[1] for note in noted if note[0] == "phase"} == set(torpedo.PHASES) - {"deal", "draft-order"}
