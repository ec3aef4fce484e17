"""``scripts/bench --against COMMIT`` times ``verify`` as an older commit runs it, beside this
tree's: the older tree is a temporary git worktree, there while the figures are taken and gone
after. (The figures themselves are ``scripts/bench``'s to print, never a test's to assert.)"""

import subprocess
from pathlib import Path

import pytest

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
