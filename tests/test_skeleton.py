"""One skeleton for every rule system (issue 14): the same files in each converted system, rules
split by book section, typed orders, and no function over ruff's C901 complexity 15 nor class over
30 methods anywhere in ``games/``, ``render/`` or ``bot/`` (the folders in SIZE_CHECKED).

Every package under ``games/`` but the shared ones is a rule system and is held to the skeleton: a
new system is found by its folder, not by a list here. The functions and classes still too big
would be listed below; each list may only shrink (a stale entry fails too, so the lists stay true).
The model to copy is docs/adding-a-system.md.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"
SIZE_CHECKED = ("games", "render", "bot")  # folders held to the complexity and method-count limits
NOT_SYSTEMS = {"core", "tools"}  # shared code, and the table tools (not a registered system)
SYSTEMS = sorted(p.name for p in GAMES.iterdir() if (p / "__init__.py").exists() and p.name not in NOT_SYSTEMS)
MAX_COMPLEXITY = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["ruff"]["lint"]["mccabe"]["max-complexity"]
MAX_METHODS = 30
SKELETON_FILES = ("__init__.py", "state.py", "orders.py", "ruleset.py", "view.py", "data.py", "schema.py", "rules/__init__.py")

# "path:function" over MAX_COMPLEXITY; may only shrink.
TOO_COMPLEX: set[str] = set()
# "path:Class" with more than MAX_METHODS methods; may only shrink. The two stores are being merged
# into one by another change (issue 22), which takes them off this list.
TOO_MANY_METHODS: set[str] = set()


def _rel(path: Path) -> str:
    return path.resolve().relative_to(ROOT).as_posix()


def _too_complex() -> set[str]:
    run = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--isolated", "--select", "C901",
         "--config", f"lint.mccabe.max-complexity={MAX_COMPLEXITY}", "--output-format", "json", *SIZE_CHECKED],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )
    assert run.returncode in (0, 1), run.stderr
    found = set()
    for finding in json.loads(run.stdout):
        name = re.match(r"`([^`]+)`", finding["message"])
        assert name, finding["message"]
        found.add(f"{_rel(Path(finding['filename']))}:{name.group(1)}")
    return found


def _classes_with_many_methods() -> set[str]:
    found = set()
    for path in sorted(p for folder in SIZE_CHECKED for p in (ROOT / folder).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                methods = sum(isinstance(b, (ast.FunctionDef, ast.AsyncFunctionDef)) for b in node.body)
                if methods > MAX_METHODS:
                    found.add(f"{_rel(path)}:{node.name}")
    return found


def test_the_systems_are_found_by_their_folders() -> None:
    """Each registered system's rules live in a package of games/ (so the skeleton checks it)."""
    from games.core.ruleset import get_ruleset, system_ids

    found = {type(get_ruleset(s)).__module__.split(".")[1] for s in system_ids()
             if type(get_ruleset(s)).__module__.startswith("games.")}
    assert found == set(SYSTEMS), f"registered systems {sorted(found)} and packages {SYSTEMS} differ"
    assert len(SYSTEMS) >= 6


def test_no_function_is_more_complex_than_allowed() -> None:
    assert MAX_COMPLEXITY <= 15, "issue 14: no function over complexity 15"
    found = _too_complex()
    new = sorted(found - TOO_COMPLEX)
    assert not new, f"over ruff C901 complexity {MAX_COMPLEXITY}; split them: {new}"
    fixed = sorted(TOO_COMPLEX - found)
    assert not fixed, f"no longer too complex: delete from TOO_COMPLEX: {fixed}"
    assert not [f for f in TOO_COMPLEX if f.split("/")[1] in SYSTEMS], "a system has no exceptions"


@pytest.mark.slow
def test_no_class_has_too_many_methods() -> None:
    found = _classes_with_many_methods()
    assert not sorted(found - TOO_MANY_METHODS), f"classes over {MAX_METHODS} methods: {sorted(found - TOO_MANY_METHODS)}"
    assert not sorted(TOO_MANY_METHODS - found), f"delete from TOO_MANY_METHODS: {sorted(TOO_MANY_METHODS - found)}"
    assert not [c for c in TOO_MANY_METHODS if c.split("/")[1] in SYSTEMS], "a system has no exceptions"


@pytest.mark.parametrize("system", SYSTEMS)
def test_systems_have_the_same_files(system: str) -> None:
    folder = GAMES / system
    missing = [f for f in SKELETON_FILES if not (folder / f).exists()]
    assert not missing, f"{system} lacks {missing}"
    state = ast.parse((folder / "state.py").read_text(encoding="utf-8"))
    assert "State" in {n.name for n in state.body if isinstance(n, ast.ClassDef)}, "the state class is called State"
    registering = [p.name for p in folder.rglob("*.py") if "@register(" in p.read_text(encoding="utf-8")]
    assert registering == ["ruleset.py"], "a system registers in ruleset.py and nowhere else"


@pytest.mark.slow
@pytest.mark.parametrize("system", SYSTEMS)
def test_rules_are_split_by_book_section_and_cite_it(system: str) -> None:
    """``rules/<topic>_<section>.py``; the module docstring starts "Book section <n>", and every
    public function of a rules module has a docstring."""
    modules = sorted(p for p in (GAMES / system / "rules").glob("*.py") if p.name != "__init__.py")
    assert modules
    for path in modules:
        number = re.fullmatch(r"[a-z_]+_(\d+(?:_\d+)*)\.py", path.name)
        assert number, f"{path.name}: name a rules module <topic>_<section>.py"
        tree = ast.parse(path.read_text(encoding="utf-8"))
        doc = ast.get_docstring(tree) or ""
        section = number.group(1).replace("_", ".")
        assert doc.startswith(f"Book section {section}"), f"{path.name}: docstring must start 'Book section {section}'"
        bare = [n.name for n in tree.body
                if isinstance(n, ast.FunctionDef) and not n.name.startswith("_") and not ast.get_docstring(n)]
        assert not bare, f"{path.name}: public functions without a docstring: {bare}"


@pytest.mark.parametrize("system", [*SYSTEMS, "tools"])
def test_orders_are_typed(system: str) -> None:
    """No untyped ``Order(text, args)`` built and no order read by position (``args[2]``), in every
    system and in the table tools."""
    for path in (GAMES / system).rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert not re.search(r"(?<![A-Za-z])Order\(", source), f"{_rel(path)} builds an untyped Order"
        assert ".args" not in source, f"{_rel(path)} reads an order's args by position"


# Packages whose modules import each other in a cycle: "package: module, module, ...". Empty, and
# must stay so: a lower module never imports a higher one (a type a lower module needs from above
# is a Protocol of its own, as bot/slash.py's SlashHost and bot/discord_choices.py's ChoiceHost).
IMPORT_CYCLES: set[str] = set()


def _package_imports(package: Path) -> dict[str, set[str]]:
    """Module -> the modules of the same package it imports (at any depth, lazy imports included)."""
    modules = {}
    for path in package.rglob("*.py"):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        modules[name] = path
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:
                    child = f"{node.module}.{alias.name}"
                    deps.add(child if child in modules else node.module)
            elif isinstance(node, ast.Import):
                deps.update(alias.name for alias in node.names)
        graph[name] = {d for d in deps if d in modules and d != name}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_cycle_finder_sees_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def _checked_packages() -> list[Path]:
    """Every rule system and games/core on its own, all of games/ together, render/ and bot/."""
    systems = sorted(p for p in GAMES.iterdir() if (p / "__init__.py").exists())
    return [*systems, GAMES, ROOT / "render", ROOT / "bot"]


@pytest.mark.slow
def test_no_import_cycle_inside_any_package() -> None:
    """games/ (each system and core), render/ and bot/ import one way (docs/adding-a-system.md): a
    lower module never imports a higher one, so it can be read without the ones that call it.
    Imports only made for type checking and imports inside functions count too."""
    found = {f"{p.name}: {', '.join(c)}" for p in _checked_packages() for c in _cycles(_package_imports(p))}
    assert found <= IMPORT_CYCLES, f"new import cycles: {sorted(found - IMPORT_CYCLES)}"
    assert found >= IMPORT_CYCLES, f"gone, remove from IMPORT_CYCLES: {sorted(IMPORT_CYCLES - found)}"


def test_the_cycle_check_reads_bot_render_and_games() -> None:
    """The graph is built from real imports: bot/discord_app.py imports bot/slash.py (at the top)
    and bot/database.py imports bot/store.py (inside a function), and both are seen."""
    bot = _package_imports(ROOT / "bot")
    assert "bot.slash" in bot["bot.discord_app"]
    assert "bot.store" in bot["bot.database"]
    assert "render.frame" in _package_imports(ROOT / "render")["render.board"]
    assert {p.name for p in _checked_packages()} >= {"bot", "render", "games", "core", "days_of_iron"}


@pytest.mark.slow
def test_no_private_function_is_called_from_another_module() -> None:
    """A module's ``_name`` is its own: no ``from x import _name`` and no ``x._name(...)`` on an
    imported module of games/ (a shared helper is made public where it belongs)."""
    found = set()
    for path in sorted(GAMES.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        modules = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("games"):
                for alias in node.names:
                    if alias.name.startswith("_") and not alias.name.startswith("__"):
                        found.add(f"{_rel(path)}: from {node.module} import {alias.name}")
                    modules.add(alias.asname or alias.name)
            elif isinstance(node, ast.Import):
                modules.update((a.asname or a.name).split(".")[0] for a in node.names if a.name.startswith("games"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules
                    and node.attr.startswith("_") and not node.attr.startswith("__")):
                found.add(f"{_rel(path)}: {node.value.id}.{node.attr}")
    assert found <= PRIVATE_CALLS, f"new private cross-module uses: {sorted(found - PRIVATE_CALLS)}"
    assert found >= PRIVATE_CALLS, f"gone, remove from PRIVATE_CALLS: {sorted(PRIVATE_CALLS - found)}"


# Private names used across modules of games/ today; may only shrink.
PRIVATE_CALLS: set[str] = set()
