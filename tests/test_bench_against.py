"""``scripts/bench --against COMMIT`` measures ``verify``, the deal and the event figures as an
older commit's code makes them, beside this tree's, in the same rounds and over the same floors:
the older tree is a temporary git worktree, there while the figures are taken and gone after.
(The measured figures themselves are ``scripts/bench``'s to print, never a test's to assert; these
tests give its arithmetic made-up times.)"""

import subprocess
from pathlib import Path

import pytest

from p2pgames import benchmarks
from p2pgames.benchmarks import checked_out, main

REPOSITORY = Path(__file__).resolve().parents[1]


def _worktrees() -> str:
    return subprocess.run(["git", "-C", str(REPOSITORY), "worktree", "list"], capture_output=True, text=True).stdout


def test_a_commit_is_checked_out_while_it_is_timed_and_gone_after():
    with checked_out("HEAD") as tree:
        assert (tree / "p2pgames" / "__init__.py").is_file()
        assert str(tree) in _worktrees()
    assert not tree.exists()
    assert str(tree) not in _worktrees()


def test_a_commit_that_does_not_exist_is_a_usage_error_naming_it(capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["--only", "verify", "--against", "no-such-commit-anywhere"])
    assert stopped.value.code == 2
    assert "can't check out 'no-such-commit-anywhere'" in capsys.readouterr().err


def test_rounds_take_turns_between_this_tree_and_the_commit(monkeypatch, tmp_path):
    assert benchmarks.trees_in_round(0) == benchmarks.trees_in_round(1) == [("", None)]
    monkeypatch.setattr(benchmarks, "_AGAINST", benchmarks.Against("9827a3d", tmp_path))
    assert benchmarks.trees_in_round(0) == [("", None), ("before_", tmp_path)]
    assert benchmarks.trees_in_round(1) == [("before_", tmp_path), ("", None)]
    assert benchmarks.over_rounds([1.0, 3.0, 2.0], [2.0, 3.0, 8.0]) == 0.5  # the median of the rounds' ratios


def test_the_deal_and_event_figures_of_both_trees_stand_side_by_side_over_the_same_floors():
    deals = benchmarks._deal_figures("deal", {"": [0.9, 1.1], "before_": [1.8, 2.2]}, [0.1, 0.1], [0.25, 0.25], 13, 52, 4)
    # 3 shuffle passes, 4 lock passes (the last peer shuffles and locks in one) of 2.5 shuffle passes each, a hand
    assert deals["deal_floor_passes"] == pytest.approx(3 + 4 * 2.5 + 0.25)
    assert deals["deal_ratio"] == pytest.approx(10 / deals["deal_floor_passes"])
    assert deals["deal_before_ratio"] == pytest.approx(20 / deals["deal_floor_passes"])
    assert deals["deal_over_before"] == pytest.approx(0.5)
    latencies = {"event_": [1.0] * 9 + [3.0], "event_before_": [2.0] * 9 + [9.0], "event_processes_": [4.0]}
    over_floor = {key: [latency / 2 for latency in measured] for key, measured in latencies.items()}
    events = benchmarks._event_figures(latencies, over_floor, [2.0])
    assert (events["event_p50_ratio"], events["event_before_p50_ratio"], events["event_p50_over_before"]) == (0.5, 1.0, 0.5)
    assert (events["event_p99_ratio"], events["event_before_p99_ratio"]) == (1.5, 4.5)
    assert events["event_p99_over_before"] == pytest.approx(1 / 3)
    assert "event_processes_p50_over_before" not in events  # not measured with that commit's code
    shown = {row[0] for row in benchmarks.ROWS}
    assert {key for key in {**deals, **events} if "before" in key} <= shown


def test_protocol_11s_deal_of_both_trees_stands_side_by_side_over_the_same_floors(monkeypatch, tmp_path):
    deals = benchmarks._elgamal_deal_ratios({"": [0.9, 1.1], "before_": [1.8, 2.2]}, [0.5, 0.5])
    assert deals["deal_p11_ratio"] == pytest.approx(2.0) and deals["deal_p11_before_ratio"] == pytest.approx(4.0)
    assert deals["deal_p11_over_before"] == pytest.approx(0.5)
    assert set(deals) <= {row[0] for row in benchmarks.ROWS}
    alone = benchmarks._elgamal_deal_ratios({"": [0.9, 1.1]}, [0.5, 0.5])
    assert not any("before" in key for key in alone)
    # A commit whose benchmark peer speaks only protocol 10 deals no protocol-11 deal to compare.
    (tmp_path / "p2pgames" / "net").mkdir(parents=True)
    (tmp_path / "p2pgames" / "net" / "_bench_peer.py").write_text("# no protocol option\n")
    assert not benchmarks._speaks(benchmarks.PROTOCOL_VERSION, tmp_path)
    assert benchmarks._speaks(benchmarks.PROTOCOL_VERSION, REPOSITORY)


def test_an_older_tree_without_what_the_benchmarks_run_of_it_is_refused_saying_what_it_lacks(monkeypatch, tmp_path):
    (tmp_path / "p2pgames" / "net").mkdir(parents=True)
    (tmp_path / "p2pgames" / "__init__.py").write_text("")
    (tmp_path / "p2pgames" / "net" / "__init__.py").write_text("")
    monkeypatch.setattr(benchmarks, "_AGAINST", benchmarks.Against("v0.1", tmp_path))
    with pytest.raises(benchmarks.CannotCompare, match=r"the tree of v0.1 can't be benchmarked .*no benchmark peer"):
        benchmarks._require_bench_peer()
    benchmarks._require_bench_peer_of(REPOSITORY)  # this tree has everything


def test_the_deal_constructions_are_timed_in_turns_and_every_figure_has_its_row(monkeypatch):
    calls = []
    monkeypatch.setattr(benchmarks, "today_deal_path", lambda cards, holders: calls.append(("today", cards)) or 2.0)
    monkeypatch.setattr(benchmarks, "elgamal_deal_path", lambda cards, holders: calls.append(("elgamal", cards)) or 1.0)
    figures = benchmarks.bench_deal_constructions(2)
    assert calls[:4] == [("today", 52), ("elgamal", 52), ("elgamal", 52), ("today", 52)]  # who goes first alternates
    assert figures["construction_84_7_ratio"] == 0.5
    assert (figures["construction_104_12_today_round_trips"], figures["construction_104_12_elgamal_round_trips"]) == (21, 13)
    assert set(figures) <= {row[0] for row in benchmarks.ROWS}


def test_both_deal_constructions_run_on_a_small_deck():
    assert benchmarks.today_deal_path(8, 2) > 0
    assert benchmarks.elgamal_deal_path(8, 2) > 0
