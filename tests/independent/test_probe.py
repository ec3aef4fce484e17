"""The probe game's states (SPEC §D6, §D1) and the log's phases (§B4–§B7), followed independently:
every state hash of real probe games, computed here from the entries alone."""

import json
from pathlib import Path

import pytest

from p2pgames.net import play_table

from . import canon, deck, probe, replica, transcript

VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors"
META = json.loads((VECTORS / "session-probe-3p.json").read_text())


def test_the_state_before_any_entry_is_the_one_the_spec_spells_out():
    state = probe.Probe(3).encode()
    assert state == {"answered": [], "cards": {"audited": [], "claims": [], "deals": [], "next_deal": 0,
                                               "next_slot": 0, "pending": [], "revealed": []},
                     "first": -1, "hands": [[], [], []], "phase": "seat", "played": [], "players": 3,
                     "points": [0, 0, 0], "round": 0, "stock": [], "winner": -1}
    assert deck.H(canon.encode(state)).hex() == "14b2d1a871e7f13f8e48e0efaf986b58e05c8d02b823d6309adcfefe50dbf0d6"


def test_every_state_hash_of_the_probe_vector_is_computed_from_its_entries():
    data = (VECTORS / META["file"]).read_bytes()
    log = transcript.verify(data, follow_games=False)  # the entries' submissions, unchecked by the game
    start = next(value for _i, kind, value in transcript.records(data) if kind == "start")
    body = transcript.wire.open_envelope(start).body
    game = probe.Probe(META["players"])
    rep = replica.Replica(game, body["game_id"], body["seats"], probe.DECK_DOMAIN, body["ruleset"])
    hashes = [rep.apply(seat, submitted).hex() for seat, submitted in log.bodies]
    assert hashes == META["state_hashes"]
    assert rep.result() == META["result"]


def test_the_probe_vectors_final_state_is_the_one_section_d6_spells_out():
    data = (VECTORS / META["file"]).read_bytes()
    log = transcript.verify(data, follow_games=False)
    start = next(value for _i, kind, value in transcript.records(data) if kind == "start")
    body = transcript.wire.open_envelope(start).body
    game = probe.Probe(META["players"])
    rep = replica.Replica(game, body["game_id"], body["seats"], probe.DECK_DOMAIN, body["ruleset"])
    for seat, submitted in log.bodies:
        rep.apply(seat, submitted)
    final = game.encode()
    assert final["hands"] == [[1, 13, 3, 15], [4, 16], [7, 12, 17]]
    assert (final["answered"], final["winner"], final["round"], final["phase"]) == ([0, 1], 2, 2, "over")
    assert final["cards"]["deals"][1:] == [[1, 12, 3, None, [2, 5, 6], []], [2, 15, 3, None, [0, 14, 8], []]]
    assert len(final["cards"]["revealed"]) == 18 and final["cards"]["audited"] == [0, 1, 2]
    assert final["cards"]["next_deal"] == 3


@pytest.mark.parametrize("players", [2, 4])  # 3: the vector
async def test_fresh_probe_games_replay_to_the_hosts_every_state(tmp_path, autojump_clock, players):
    table = await play_table("probe", players, seed=b"independent-%d" % players, transcripts=tmp_path,
                             verify=False)
    assert table.ok, [seat.fault for seat in table.seats]
    for seat in table.seats:
        report = transcript.verify(seat.transcript.read_bytes())
        assert report.ok and report.followed, (seat.seat, report.problem)
        assert report.entries == table.entries and report.audits == 1
        assert report.result["winners"] == list(table.result.winners)


def test_a_wrong_opening_and_an_illegal_move_are_named():
    data = (VECTORS / META["file"]).read_bytes()
    log = transcript.verify(data, follow_games=False)
    start = next(value for _i, kind, value in transcript.records(data) if kind == "start")
    body = transcript.wire.open_envelope(start).body

    def replay_until(n):
        rep = replica.Replica(probe.Probe(3), body["game_id"], body["seats"], probe.DECK_DOMAIN, body["ruleset"])
        for seat, submitted in log.bodies[:n]:
            rep.apply(seat, submitted)
        return rep

    n = next(i for i, (_seat, b) in enumerate(log.bodies) if b["t"] == "open" and b["value"][0] == "play")
    seat, opening = log.bodies[n]
    other = [s for s in replay_until(n).game.hands[seat] if s != opening["value"][1]][0]
    with pytest.raises(replica.Fault) as caught:
        replay_until(n).apply(seat, dict(opening, value=["play", other]))
    assert (caught.value.code, caught.value.culprit) == ("bad-opening", seat)
    with pytest.raises(replica.Fault) as caught:
        replay_until(n).apply((seat + 1) % 3, {"t": "act", "action": ["pass", 0]})
    assert caught.value.code == "illegal"
