"""The package's imports go one way: no module imports itself round a circle, and a game's rules
never import its presentation.

The graph is read from the sources (no module is imported): every ``import`` and ``from … import``
that runs — at the top of a module, inside a function, under ``try`` — is an edge to the module
it loads. Imports under ``if TYPE_CHECKING:`` never run; they are left out (a role of the session
names the session that owns it in its annotations so). Python lets two modules import each other
as long as neither uses the other's names before both are loaded; these tests keep the layers
simple enough that nothing needs that.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

from p2pgames.games import PLAYABLE, TEST_GAMES, game_package, get_game, get_presentation

PACKAGE = Path(__file__).resolve().parents[1] / "p2pgames"

# The modules of a game package that show it (typing moves, narrating, drawing the table): its
# presentation module and what only the presentation uses. The rules import none of them.
PRESENTATION_MODULES = ("presentation", "views", "typed", "composer", "solo_views", "auction_texts")
# Whatever shows, plays or talks on behalf of a person, which rules never need.
NOT_FOR_RULES = ("p2pgames.tui", "p2pgames.net", "p2pgames.bots", "p2pgames.session")
GAMES = [*PLAYABLE, *TEST_GAMES]


def module_names(root: Path) -> dict[str, Path]:
    """Every module under the package directory ``root``, by its dotted name."""
    modules = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def _runs(tree: ast.AST) -> list[ast.AST]:
    """The nodes of ``tree`` that run, leaving out what ``if TYPE_CHECKING:`` guards."""
    found: list[ast.AST] = []
    pending = [tree]
    while pending:
        node = pending.pop()
        found.append(node)
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                pending.extend(child.orelse)
            else:
                pending.append(child)
    return found


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules among ``modules`` that module ``name`` (at ``path``) loads when it runs."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _runs(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                found.add(submodule if submodule in modules else base)
    return {module for module in found if module in modules and module != name}


def import_graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    """Each module under ``root``, with the modules of the same package it loads (a new graph
    each time: a test may change it)."""
    return {name: set(loaded) for name, loaded in _parsed_graph(root).items()}


@functools.cache
def _parsed_graph(root: Path) -> dict[str, frozenset[str]]:
    # Parsing the whole package takes a second; the tests here read it a dozen times.
    modules = module_names(root)
    return {name: frozenset(imports_of(name, path, modules)) for name, path in modules.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of ``graph`` with more than one module (Tarjan's
    algorithm, iterative): each is a set of modules that import one another round a circle."""
    index: dict[str, int] = {}
    lowest: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = lowest[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = lowest[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(graph[successor]))))
                    break
                if successor in on_stack:
                    lowest[node] = min(lowest[node], index[successor])
            else:
                work.pop()
                if work:
                    lowest[work[-1][0]] = min(lowest[work[-1][0]], lowest[node])
                if lowest[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def reached_from(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every module that loading ``start`` loads, ``start`` included."""
    seen = {start}
    pending = [start]
    while pending:
        for module in graph[pending.pop()]:
            if module not in seen:
                seen.add(module)
                pending.append(module)
    return seen


def is_presentation(module: str) -> bool:
    """Whether ``module`` is a game's presentation side (see :data:`PRESENTATION_MODULES`)."""
    parts = module.split(".")
    return len(parts) == 4 and parts[:2] == ["p2pgames", "games"] and parts[3] in PRESENTATION_MODULES


def test_no_module_imports_itself_round_a_circle():
    assert circles(import_graph()) == []


def test_the_check_finds_a_circle_made_on_purpose(tmp_path):
    # A small package: a imports b at its top, b imports a inside a function, c only for types.
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg import b\n")
    (package / "b.py").write_text("def later():\n    from pkg.a import thing\n")
    (package / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.a import thing\nelse:\n    import pkg.b\n"
    )
    (package / "d.py").write_text("from .c import x\n")
    graph = import_graph(package)
    assert graph == {"pkg": set(), "pkg.a": {"pkg.b"}, "pkg.b": {"pkg.a"}, "pkg.c": {"pkg.b"}, "pkg.d": {"pkg.c"}}
    assert circles(graph) == [["pkg.a", "pkg.b"]]
    # And in the real package: one import added the wrong way round closes a circle, named whole.
    real = import_graph()
    real["p2pgames.engine._game"].add("p2pgames.games.torpedo")
    (circle,) = [circle for circle in circles(real) if "p2pgames.engine._game" in circle]
    assert {"p2pgames.engine._game", "p2pgames.games.torpedo", "p2pgames.engine"} <= set(circle)


@pytest.mark.parametrize("name", GAMES)
def test_a_games_rules_load_nothing_that_shows_plays_or_talks(name):
    graph = import_graph()
    # The package (what get_game imports) and the module of its rules' class, with all they load.
    loaded = reached_from(graph, game_package(name)) | reached_from(graph, type(get_game(name)).__module__)
    assert sorted(module for module in loaded if is_presentation(module)) == []
    assert sorted(module for module in loaded if module.startswith(NOT_FOR_RULES)) == []


@pytest.mark.parametrize("name", GAMES)
def test_a_games_presentation_is_a_module_of_its_own_that_shows_its_rules(name):
    shown = get_presentation(name)
    assert type(shown).__module__ == game_package(name) + ".presentation"
    assert shown.rules is get_game(name)


def test_the_presentation_side_is_recognised():
    assert is_presentation("p2pgames.games.torpedo.views")
    assert not is_presentation("p2pgames.games.torpedo.rules")
    assert not is_presentation("p2pgames.tui._screen")
