"""SPEC.md §D4 (Steam Torpedo) and §D5 (Astonishing!) held to the code.

Seeded random games of every build option and player count are played to the end and replayed
event by event; every state they pass through must encode as a map with exactly the keys of the
section's ``| state key | encoding |`` table, with a phase the table lists. The ``| action | wire |``
table must name every action kind the codec knows, each with its number of fields, and no other;
and the chance steps must draw as the section says.
"""

from __future__ import annotations

import json
import re

import pytest

from p2pgames.engine import Act, ChanceOutcome, DeterministicRandom, LocalTable
from p2pgames.engine._steps import GameOver, ReactionWindow, Sealed, Simultaneous, Turn
from p2pgames.games import get_game
from p2pgames.games.astonishing import actions as astonishing_actions
from p2pgames.games.astonishing.rules import Phase as AstonishingPhase
from p2pgames.games.torpedo import actions as torpedo_actions
from p2pgames.games.torpedo.rules import Phase as TorpedoPhase
from p2pgames.games.torpedo.tiles import TILESET
from tests.spec.spec_text import section, table_rows

SECTIONS = {"torpedo": "## D4.", "astonishing": "## D5."}
CODECS = {"torpedo": torpedo_actions._CODEC, "astonishing": astonishing_actions._CODEC}
PHASES = {"torpedo": TorpedoPhase, "astonishing": AstonishingPhase}
RULESETS = {
    "torpedo": [(2, (("build", build),)) for build in ("custom", "starter", "random", "draft")],
    "astonishing": [(players, (("early_end", early),)) for players in (2, 3, 4) for early in (True, False)],
}
SEEDS = (b"spec-1", b"spec-2")


def _code(cell: str) -> str:
    """The text of the first code span of a table cell."""
    match = re.search(r"`([^`]*)`", cell)
    assert match, f"no code span in {cell!r}"
    return match.group(1)


def _state_keys(name: str) -> set[str]:
    return {_code(row[0]) for row in table_rows(section(SECTIONS[name]), "state key")}


def _listed_phases(name: str) -> set[str]:
    (row,) = [row for row in table_rows(section(SECTIONS[name]), "state key") if _code(row[0]) == "phase"]
    listed = row[1].split("one of", 1)[1]
    return {phase.strip() for phase in _code(listed).split(",")}


def _card_state_keys() -> set[str]:
    """The keys of the CardState encoding as §D1 gives them: its ``| cards key |`` table if it has
    one, else the keys written out in its paragraph about the card bookkeeping."""
    text = section("## D1.")
    try:
        return {_code(row[0]) for row in table_rows(text, "cards key")}
    except LookupError:
        pass
    (paragraph,) = [block for block in text.split("\n\n") if '"next_slot"' in block]
    return set(re.findall(r'"(\w+)": ', paragraph.split(" with operations")[0]))


def _play(name: str, players: int, options: tuple, seed: bytes) -> tuple[list, list[dict]]:
    """A random legal game played to the end (with the game's playout bias), then replayed through
    the checked ``apply``: its log, and the encoding of every state from setup on."""
    game = get_game(name)
    ruleset = game.ruleset(players, dict(options))
    table = LocalTable(game, ruleset, seed, check=False)
    chooser = DeterministicRandom(b"spec-playout\x00" + seed)

    def choose(state, player):
        knowledge = table.view(player)
        options_now = game.legal_actions(state, player, knowledge)
        return game.playout_choice(state, player, options_now, knowledge, chooser)

    while not isinstance(step := game.step(table.state), GameOver):
        state = table.state
        if isinstance(step, (Simultaneous, Sealed)):
            choices = [(player, choose(state, player)) for player in step.players]
            (table.seal if isinstance(step, Sealed) else table.act_simultaneous)(choices)
        else:
            actors = step.actors if isinstance(step, Turn) else step.players
            assert isinstance(step, (Turn, ReactionWindow)), step
            movers = [p for p in actors if game.legal_actions(state, p, table.view(p))]
            player = movers[chooser.below(len(movers))]
            table.act(player, choose(state, player))
    state = game.setup(ruleset)
    encoded = [game.encode_state(state)]
    for event in table.log:
        state = game.apply(state, event)
        encoded.append(game.encode_state(state))
    return table.log, encoded


GAMES = [
    (name, players, options, seed)
    for name, cases in RULESETS.items()
    for players, options in cases
    for seed in SEEDS
]


@pytest.fixture(scope="module")
def playthroughs():
    return {case: _play(*case) for case in GAMES}


@pytest.mark.parametrize("name", sorted(SECTIONS))
def test_every_encoded_state_has_exactly_the_keys_of_the_state_table(name, playthroughs):
    keys = _state_keys(name)
    card_keys = _card_state_keys()
    assert card_keys == {"deals", "next_deal", "next_slot", "revealed", "pending", "claims", "audited"}
    for case, (_, states) in playthroughs.items():
        if case[0] != name:
            continue
        for number, state in enumerate(states):
            assert set(state) == keys, f"{case}, state {number}: keys {sorted(set(state) ^ keys)} differ from the table"
            assert set(state["cards"]) == card_keys, f"{case}, state {number}: cards keys"


@pytest.mark.parametrize("name", sorted(SECTIONS))
def test_the_phases_listed_are_the_codes_and_every_phase_played_is_listed(name, playthroughs):
    listed = _listed_phases(name)
    declared = {value for key, value in vars(PHASES[name]).items() if key.isupper()}
    assert listed == declared
    played = {state["phase"] for case, (_, states) in playthroughs.items() if case[0] == name for state in states}
    assert played <= listed
    # The seeded games get around: most of the phases are seen, so the check above has teeth.
    assert len(played) >= len(listed) - 2, sorted(listed - played)


@pytest.mark.parametrize("name", sorted(SECTIONS))
def test_the_wire_table_names_every_action_kind_with_its_fields(name):
    codec = CODECS[name]
    rows = table_rows(section(SECTIONS[name]), "action")
    fields: dict[str, int] = {}
    for row in rows:
        wire = _code(row[1])
        kind = re.match(r'\["([a-z-]+)"', wire)
        assert kind, f"wire form {wire!r} doesn't start with its kind"
        assert kind.group(1) not in fields, f"{kind.group(1)} is in the wire table twice"
        fields[kind.group(1)] = len(_top_level_items(wire)) - 1
    assert set(fields) == set(codec.classes)
    for kind, cls in codec.classes.items():
        assert fields[kind] == len(cls.__slots__), f"{kind}: the table gives {fields[kind]} field(s)"


def _top_level_items(wire: str) -> list[str]:
    """The items of a wire form ``[a, [b, c], d]``: a, [b, c], d."""
    inner = wire.strip()[1:-1]
    items, depth, current = [], 0, ""
    for char in inner:
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
        if char == "," and depth == 0:
            items.append(current.strip())
            current = ""
        else:
            current += char
    items.append(current.strip())
    return items


def test_torpedo_cards_are_the_empty_card_state_the_section_gives(playthroughs):
    text = section("## D4.")
    empty = json.loads(re.search(r'`(\{"deals".*?\})`', text.replace("\n", " ")).group(1))
    for case, (_, states) in playthroughs.items():
        if case[0] == "torpedo":
            assert all(state["cards"] == empty for state in states), case


def _seeds(log: list) -> list[bytes]:
    return [event.seed for event in log if isinstance(event, ChanceOutcome)]


def test_torpedo_chance_steps_draw_as_the_section_says(playthroughs):
    controls = [name for name in TILESET.names if TILESET.tiles[name].is_control]
    others = [name for name in TILESET.names if not TILESET.tiles[name].is_control]
    for seed in SEEDS:
        # random: the deal, then the placement, then the first player.
        log, states = playthroughs[("torpedo", 2, (("build", "random"),), seed)]
        deal, placement, first = _seeds(log)
        r = DeterministicRandom(deal)
        dealt = []
        for _ in range(2):
            control = controls[r.below(3)]
            shuffled = list(others)
            r.shuffle(shuffled)
            dealt.append(sorted([control, *shuffled[:9]]))
        placed = next(state for state in states if state["phase"] == "swap")
        r = DeterministicRandom(placement)
        for seat in range(2):
            order = list(dealt[seat])
            r.shuffle(order)
            i = next(index for index, name in enumerate(order) if name in controls)
            order[i], order[7] = order[7], order[i]
            assert placed["tiles"][seat] == order
        assert states[-1]["first"] == DeterministicRandom(first).below(2)
        # draft: who picks first.
        log, states = playthroughs[("torpedo", 2, (("build", "draft"),), seed)]
        assert states[-1]["drafter"] == DeterministicRandom(_seeds(log)[0]).below(2)


def test_astonishing_first_player_and_dice_draw_as_the_section_says(playthroughs):
    for (name, players, _, _), (log, states) in playthroughs.items():
        if name != "astonishing":
            continue
        seeds = _seeds(log)
        assert states[-1]["first"] == DeterministicRandom(seeds[0]).below(players)
        rolled = next(state for state in states if state["phase"] == "unseal")
        r = DeterministicRandom(next(seed for seed, after in _chance_states(log, states) if after["phase"] == "unseal"))
        assert rolled["dice"] == [1 + r.below(6) for _ in range(3)]


def _chance_states(log: list, states: list[dict]):
    """(seed, state after it) for every chance event."""
    for index, event in enumerate(log):
        if isinstance(event, ChanceOutcome):
            yield event.seed, states[index + 1]


def test_astonishing_random_cards_and_rerolls_draw_as_the_section_says(playthroughs):
    picks = {"hand": 0, "discard": 0, "reroll": 0}
    for (name, _, _, _), (log, states) in playthroughs.items():
        if name != "astonishing":
            continue
        for index, event in enumerate(log):
            if not isinstance(event, ChanceOutcome):
                continue
            before, after = states[index], states[index + 1]
            r = DeterministicRandom(event.seed)
            if before["phase"] == "pick":
                taker, source = before["taker"], before["source"]
                if source == -2:
                    top = before["discard"][-5:]
                    slot = top[r.below(len(top))]
                    assert slot not in after["discard"]
                    picks["discard"] += 1
                else:
                    hand = sorted(before["hands"][source])
                    slot = hand[r.below(len(hand))]
                    assert slot not in after["hands"][source]
                    picks["hand"] += 1
                # The taker's hand holds it, or, re-masked (§D5), its re-mask's source slots do.
                remasked = {seat: source for seat, source, _ in _remasks(before, after)}
                assert slot in (after["hands"][taker] if after["phase"] == "give-back" else remasked[taker])
            elif before["phase"] == "reroll":
                die = before["rerolling"]
                assert after["dice"][die] == 1 + r.below(6) and after["rerolling"] == -1
                picks["reroll"] += 1
    assert all(picks.values()), picks


def test_astonishing_deal_is_one_new_deal_then_a_hand_disclosed_to_each_seat_in_turn(playthroughs):
    from p2pgames.games.astonishing.cards import DECK

    for (name, players, _, _), (_, states) in playthroughs.items():
        if name != "astonishing":
            continue
        dealt = next(state for state in states if state["cards"]["pending"])
        first = dealt["first"]
        in_turn = [(first + k) % players for k in range(players)]
        assert dealt["cards"]["pending"] == [
            ["deal", 0, list(DECK), 0, []],
            *(["disclose", list(range(4 * k, 4 * k + 4)), seat] for k, seat in enumerate(in_turn)),
        ]
        assert dealt["deck"] == list(range(4 * players, 42))
        assert dealt["phase"] == "choose" and dealt["turn"] == 1
        # The audit covers every deal: the deck's and every re-mask's; every slot ends public.
        cards = states[-1]["cards"]
        assert len(cards["deals"]) > 1
        assert cards["audited"] == list(range(len(cards["deals"]))) == list(range(cards["next_deal"]))
        assert len(cards["revealed"]) == cards["next_slot"]


def _remasks(before: dict, after: dict) -> list[tuple[int, list[int], list[int]]]:
    """The re-masks one event queued, as (seat, source slots, new slots) in queue order, each checked
    to be as §D5 says: a Reshuffle of the next deal and slots (holders every seat), at once followed
    by a Disclose of its new slots, increasing, to the seat, marked as a re-mask, whose hand they
    then are."""
    deal, slot = before["cards"]["next_deal"], before["cards"]["next_slot"]
    found = []
    pending = after["cards"]["pending"]
    for index, operation in enumerate(pending):
        if operation[0] != "reshuffle":
            continue
        _, number, source, first, holders = operation
        new = list(range(first, first + len(source)))
        assert (number, first, holders) == (deal, slot, []), operation
        disclose, shown, seat, remask = pending[index + 1]
        assert (disclose, shown, remask) == ("disclose", new, True) and after["hands"][seat] == new, pending
        found.append((seat, source, new))
        deal, slot = deal + 1, slot + len(source)
    return found


def test_astonishing_hands_are_re_masked_when_and_in_the_order_the_section_says(playthroughs):
    seen = {"trade": 0, "ask-again": 0, "take": 0, "give-back": 0}
    for (name, players, _, _), (log, states) in playthroughs.items():
        if name != "astonishing":
            continue
        for index, event in enumerate(log):
            before, after = states[index], states[index + 1]
            remasks = _remasks(before, after)
            in_turn = [(before["first"] + k) % players for k in range(players)]
            public = {slot for slot, _ in after["cards"]["revealed"]}
            action = event.action if isinstance(event, Act) else None
            kind = type(action).__name__
            hands = [list(hand) for hand in before["hands"]]  # each hand as the re-mask takes it
            if before["phase"] == "decide" and kind == "Accept":
                trader, partner = before["trader"], action.seat
                for slot in before["offer"]:
                    hands[trader].remove(slot)
                    hands[partner].append(slot)
                for slot in before["answers"][partner][0::2]:
                    hands[partner].remove(slot)
                    hands[trader].append(slot)
                wanted = [s for s in in_turn if hands[s] and (s in (trader, partner) or set(hands[s]) & public)]
                seen["trade"] += 1
            elif before["phase"] == "decide" and kind == "Withdraw":
                wanted = [s for s in in_turn if set(hands[s]) & public]
                seen["trade"] += 1
            elif before["phase"] == "decide" and kind in ("Reopen", "Offer"):
                wanted = [s for s in in_turn if s != before["trader"] and set(hands[s]) & public]
                assert all(after["answers"][s] == [] for s in wanted)
                seen["ask-again"] += bool(wanted)
            elif before["phase"] == "pick" and isinstance(event, ChanceOutcome):
                wanted = [] if after["phase"] == "give-back" else [before["taker"]]
                seen["take"] += 1
            elif before["phase"] == "give-back" and kind == "GiveBack":
                hands[before["taker"]].remove(action.slot)
                hands[before["source"]].append(action.slot)
                wanted = sorted((before["taker"], before["source"]))
                seen["give-back"] += 1
            else:
                wanted = []
            assert [seat for seat, _, _ in remasks] == wanted, (index, event, remasks)
            if before["phase"] != "pick":  # (a take's source: the hand with the card taken and any drawn)
                assert [source for _, source, _ in remasks] == [hands[seat] for seat in wanted], (index, event)
    assert all(seen.values()), seen


def test_torpedo_edition_is_the_digest_the_section_describes_and_the_one_it_names():
    import hashlib
    import pathlib
    import tomllib

    from p2pgames import canonical

    text = section("## D4.")
    named = re.search(r'today `"([0-9a-f]{12})"`', text).group(1)
    data = tomllib.loads(pathlib.Path(torpedo_actions.__file__).with_name("tiles.toml").read_text(encoding="utf-8"))
    described = {
        "tile": [{key: value for key, value in tile.items() if key != "flavor"} for tile in data["tile"]],
        "starter": data["starter"],
    }
    digest = hashlib.sha256(canonical.encode(described)).hexdigest()[:12]
    assert digest == TILESET.edition == named
