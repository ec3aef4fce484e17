"""The independent implementation must not use the product: its modules import no p2pgames."""

import ast
from pathlib import Path

HERE = Path(__file__).resolve().parent
ALLOWED_TOP = {"cryptography", "msgpack", "trio"}


def implementation_modules():
    return sorted(p for p in HERE.glob("*.py") if not p.name.startswith("test_") and p.name != "conftest.py")


def imported_names(path):
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            yield node.module
        elif isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) in (
                "__import__", "import_module"):
            yield "<dynamic import>"


def test_implementation_modules_import_only_the_stdlib_and_allowed_libraries():
    import sys

    modules = implementation_modules()
    assert {p.name for p in modules} >= {"canon.py", "wire.py", "deck.py", "probe.py", "replica.py",
                                         "transcript.py", "peer.py", "beltpunk.py", "steamcourt.py",
                                         "steamcourt_solo.py", "torpedo.py", "edwards.py"}
    for path in modules:
        for name in imported_names(path):
            top = name.split(".")[0]
            assert top != "p2pgames", f"{path.name} imports {name}"
            assert top in ALLOWED_TOP or top in sys.stdlib_module_names, f"{path.name} imports {name}"
