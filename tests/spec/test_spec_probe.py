"""SPEC.md §D6 (the probe game) and §D1's CardState table, held to the code.

An independent peer computes the probe game's state hash from these tables alone, so every key of
``encode_state`` (and of the CardState map) must have its row, every row a key, and the actions and
phases listed must be the ones the game uses.
"""

from __future__ import annotations

import hashlib
import json
import re

import pytest

from p2pgames import canonical
from p2pgames.engine import (
    DeterministicRandom,
    GameOver,
    LocalTable,
    ReactionWindow,
    Sealed,
    Simultaneous,
)
from p2pgames.games import get_game
from tests.spec.spec_text import SPEC_PATH, section, table_rows

PROBE = get_game("probe")
SPEC_DIR = SPEC_PATH.parent
SEEDS = [b"spec-probe-1", b"spec-probe-2", b"spec-probe-3"]


def _names(rows: list[list[str]]) -> list[str]:
    """The first column of a table, without its code marks."""
    return [row[0].strip("`") for row in rows]


def _played_games():
    """Every state of seeded random probe games for 2, 3 and 4 players, and every action taken."""
    states, actions = [], []
    for players in (2, 3, 4):
        for seed in SEEDS:
            table = LocalTable(PROBE, PROBE.ruleset(players), seed)
            chooser = DeterministicRandom(b"spec-probe-choices\x00" + seed)
            while not isinstance(step := table.step(), GameOver):
                if isinstance(step, (Simultaneous, Sealed)):
                    chosen = []
                    for seat in step.players:
                        legal = PROBE.legal_actions(table.state, seat, table.view(seat))
                        chosen.append((seat, legal[chooser.below(len(legal))]))
                    actions.extend(action for _, action in chosen)
                    table.act_simultaneous(chosen)
                else:
                    actors = step.actors if not isinstance(step, ReactionWindow) else step.players
                    seat = actors[chooser.below(len(actors))]
                    legal = PROBE.legal_actions(table.state, seat, table.view(seat))
                    action = legal[chooser.below(len(legal))]
                    actions.append(action)
                    table.act(seat, action)
            # Every state along the way, chance and card steps included (the table settles them).
            state = PROBE.setup(table.ruleset)
            states.append(state)
            for event in table.log:
                state = PROBE.apply(state, event)
                states.append(state)
    return states, actions


STATES, ACTIONS = _played_games()


def test_the_state_table_has_a_row_for_every_key_of_every_state():
    listed = _names(table_rows(section("## D6."), "state key"))
    assert len(listed) == len(set(listed))
    for state in STATES:
        assert set(PROBE.encode_state(state)) == set(listed)


def test_the_cardstate_table_has_a_row_for_every_key_of_the_cards_map():
    listed = _names(table_rows(section("## D1."), "cards key"))
    assert len(listed) == len(set(listed))
    for state in STATES:
        assert set(PROBE.encode_state(state)["cards"]) == set(listed)


def test_the_action_table_lists_exactly_the_wire_kinds_the_codec_uses():
    rows = table_rows(section("## D6."), "action")
    listed = {re.match(r'`\["([a-z]+)"', row[-1]).group(1) for row in rows}
    used = {PROBE.encode_action(action)[0] for action in ACTIONS}
    assert used == listed
    for action in ACTIONS:  # and each wire form is what the codec reads back
        assert PROBE.decode_action(PROBE.encode_action(action)) == action


def test_the_phases_listed_are_the_phases_a_game_goes_through():
    listed = set(_names(table_rows(section("## D6."), "`phase`")))
    assert {PROBE.encode_state(state)["phase"] for state in STATES} == listed


@pytest.mark.parametrize("players", [3])
def test_the_initial_state_given_in_the_text_hashes_as_stated(players):
    text = " ".join(section("## D6.").split())
    hashed = hashlib.sha256(canonical.encode(PROBE.encode_state(PROBE.setup(PROBE.ruleset(players)))))
    assert f"hash is `{hashed.hexdigest()}`" in text


def test_the_session_vectors_counts_are_what_section_e_says():
    # §E: acks = entries + the acks items kept (§B11), every joiner's last one among them;
    # signatures = 1 + players + 2·entries + items.
    from p2pgames.session import iter_records

    text = " ".join(section("# E.").split())
    assert "`1 + players + 2·entries + items`" in text
    vectors = sorted(SPEC_DIR.glob("vectors/session-*p.json"))
    assert vectors
    for path in vectors:
        summary = json.loads(path.read_text(encoding="utf-8"))
        entries, players = summary["entries"], summary["players"]
        data = (SPEC_DIR / "vectors" / summary["file"]).read_bytes()
        items = [item for kind, value in iter_records(data) if kind == "acks" for item in value]
        assert summary["acks"] == entries + len(items), path.name
        assert {seat for seat, seq, *_ in items if seq == entries - 1} == set(range(1, players)), path.name
        assert summary["signatures"] == 1 + players + 2 * entries + len(items), path.name
