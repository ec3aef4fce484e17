"""The independent verifier reaches the product's verdict on transcripts of cheated probe games
(SPEC §B7, §B9, §B11): the honest seats' transcripts of a game with a real misbehaving peer (the
cheaters of tests/adversarial) verify, naming the same culprit with the same code — confirmed by the
replay or proved by the recorded evidence exactly where the product confirms it, and shown as the
writer's word where it doesn't."""

import importlib.util
from pathlib import Path

import pytest

from p2pgames.crypto import Identity, reproducible_bytes
from p2pgames.games import get_game
from p2pgames.net import play_table
from p2pgames.session import Session, verify_transcript

from . import transcript

ADVERSARIAL = Path(__file__).resolve().parents[1] / "adversarial" / "cheaters.py"
_spec = importlib.util.spec_from_file_location("independent_cheaters", ADVERSARIAL)
cheaters = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cheaters)

CHEATER_SEAT = 1


def honest(seat, ruleset, seed):
    random_bytes = reproducible_bytes(seed + b"/honest/" + bytes([seat]))
    return Session(Identity.generate(random_bytes(32)), f"honest-{seat}", get_game,
                   ruleset=ruleset if seat == 0 else None, bot=True, random_bytes=random_bytes)


@pytest.mark.parametrize("cheater, seed", [
    ("ChangedOpening", b"cheat"),   # refused by the host; proved by the commit and the open
    ("WrongKey", b"cheat"),         # a published key unlike its verifier; proved by the keys
    ("NotAPoint", b"cheat"),        # a pass holding a non-point; proved by the pass
    ("SwappedCard", b"cheat"),      # a foreign card: a dispute, whose audit names the passer
    ("FalseClaim", b"claim-1"),     # a false claim, found by the audit in the log
    ("BadSignature", b"cheat"),     # unprovable: as reported
])
async def test_the_independent_verdict_on_cheated_games_is_the_products(tmp_path, autojump_clock, cheater, seed):
    ruleset = get_game("probe").ruleset(3)
    sessions = [honest(seat, ruleset, seed) for seat in range(3)]
    sessions[CHEATER_SEAT] = getattr(cheaters, cheater)(seed=seed + b"/cheater")
    table = await play_table("probe", 3, sessions=sessions, transcripts=tmp_path, seed=seed, verify=False)
    assert sessions[CHEATER_SEAT].cheated
    for seat in (0, 2):
        data = table.seats[seat].transcript.read_bytes()
        product = verify_transcript(data, get_game)
        mine = transcript.verify(data)
        assert product.ok and mine.ok, (mine.problem, product.describe())
        assert product.stopped is not None and product.stopped.culprit == CHEATER_SEAT, product.describe()
        if mine.stopped is not None:
            found, confirmed = mine.stopped[:2], mine.confirmed
            assert mine.stopped[2] + 1 == product.stopped.seq  # the entry that stopped it
        elif mine.proven:
            found, confirmed = (mine.proven[0]["code"], mine.proven[0]["culprit"]), True
        else:
            found, confirmed = (mine.claims[0]["code"], mine.claims[0]["culprit"]), False
        assert found == (product.stopped.code, product.stopped.culprit)
        assert confirmed == product.stop_confirmed
