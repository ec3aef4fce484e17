import json
from pathlib import Path

from p2pgames.engine import DeterministicRandom

VECTORS = json.loads((Path(__file__).parents[2] / "protocol/vectors/engine-stream.json").read_text())


def test_below_matches_the_vectors():
    for case in VECTORS["below"]:
        stream = DeterministicRandom(bytes.fromhex(case["seed"]))
        assert [stream.below(case["n"]) for _ in case["draws"]] == case["draws"]
        assert stream.counter == case["counter_after"]


def test_shuffle_matches_the_vectors():
    for case in VECTORS["shuffle"]:
        items = list(case["input"])
        DeterministicRandom(bytes.fromhex(case["seed"])).shuffle(items)
        assert items == case["output"]
