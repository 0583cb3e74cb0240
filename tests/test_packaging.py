"""Packaging stays consistent: pyproject, the two hash-checked locks, tasks.py, the Dockerfile and
compose.yaml. All static (no network, no Docker daemon), apart from reading this environment's
installed metadata."""

from __future__ import annotations

import ast
import importlib.metadata
import importlib.util
import re
import shlex
import sys
import tomllib
from pathlib import Path
from types import ModuleType
from typing import NamedTuple, cast
from urllib.parse import urlsplit

import pytest
from packaging.markers import Marker, default_environment
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

from bot.storage import is_postgres

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
DEV_TOOLS = {"pytest", "pytest-asyncio", "hypothesis", "ruff", "mypy", "asyncpg-stubs"}


def load_tasks() -> ModuleType:
    spec = importlib.util.spec_from_file_location("tasks_under_test", ROOT / "tasks.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Pin(NamedTuple):
    version: str
    hashes: list[str]
    marker: Marker | None  # where only some Pythons or platforms need the package


def read_lock(name: str) -> dict[str, Pin]:
    """{canonical name: Pin} of a pip requirements file with hashes."""
    text = (ROOT / name).read_text().replace("\\\n", " ")
    pins: dict[str, Pin] = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        requirement, _, options = line.partition(" --")
        options = "--" + options if options else ""
        req = Requirement(requirement)
        (spec,) = req.specifier
        assert spec.operator == "==" and not req.extras and not req.url, f"{name}: not an exact pin: {line!r}"
        words = options.split()
        hashes = [w.removeprefix("--hash=sha256:") for w in words if w.startswith("--hash=sha256:")]
        assert len(hashes) == len(words), f"{name}: only --hash=sha256 options may follow a pin: {line!r}"
        assert hashes and all(re.fullmatch(r"[0-9a-f]{64}", h) for h in hashes), f"{name}: {req.name} has no hash"
        key = canonicalize_name(req.name)
        assert key not in pins, f"{name}: {key} pinned twice"
        pins[key] = Pin(spec.version, hashes, req.marker)
    return pins


RUNTIME = read_lock("requirements.lock")
DEV = read_lock("requirements-dev.lock")


def exact_pins(requirements: list[str]) -> dict[str, str]:
    pins: dict[str, str] = {}
    for text in requirements:
        req = Requirement(text)
        (spec,) = req.specifier
        assert spec.operator == "==", f"pyproject pins exactly: {text}"
        pins[canonicalize_name(req.name)] = spec.version
    return pins


def test_the_runtime_lock_pins_every_pyproject_dependency_and_no_dev_tool() -> None:
    runtime = exact_pins(PYPROJECT["project"]["dependencies"])
    dev = exact_pins(PYPROJECT["project"]["optional-dependencies"]["dev"])
    for name, version in runtime.items():
        assert name in RUNTIME, f"{name} (a pyproject dependency) is missing from requirements.lock"
        assert RUNTIME[name][0] == version, f"{name}: pyproject says {version}, requirements.lock {RUNTIME[name][0]}"
    for name, version in dev.items():
        assert name in DEV, f"{name} (pyproject's dev extra) is missing from requirements-dev.lock"
        assert DEV[name][0] == version, f"{name}: pyproject says {version}, requirements-dev.lock {DEV[name][0]}"
    assert set(dev) >= DEV_TOOLS and not DEV_TOOLS & set(runtime)
    assert not (DEV_TOOLS | set(dev)) & set(RUNTIME), "a development tool is in the runtime lock"
    assert not set(RUNTIME) & set(DEV), "the dev lock must only add to the runtime lock, never re-pin"


def supported_pythons() -> list[dict[str, str]]:
    """Marker environments of this platform for every minor Python that requires-python allows."""
    spec = SpecifierSet(PYPROJECT["project"]["requires-python"])
    here: dict[str, str] = cast(dict[str, str], default_environment())
    return [{**here, "python_version": f"3.{m}", "python_full_version": f"3.{m}.0", "extra": ""}
            for m in range(0, 30) if spec.contains(f"3.{m}.0")]


def wanted(pin: Pin, env: dict[str, str]) -> bool:
    return pin.marker is None or pin.marker.evaluate(env)


def dependencies(dist: importlib.metadata.Distribution, env: dict[str, str]) -> set[str]:
    names: set[str] = set()
    for text in dist.requires or []:
        req = Requirement(text)
        if req.marker is None or req.marker.evaluate(env):
            names.add(canonicalize_name(req.name))
    return names


def test_each_lock_is_closed_on_every_supported_python_and_this_environment_matches_them() -> None:
    # Installing with --no-deps means a dependency missing from a lock would simply be absent: on
    # Python 3.13 discord.py needs audioop-lts, which no 3.11 resolution would list.
    envs = supported_pythons()
    assert len(envs) >= 2 and f"{sys.version_info[0]}.{sys.version_info[1]}" in [e["python_version"] for e in envs]
    here = {**cast(dict[str, str], default_environment()), "extra": ""}
    for env in envs:
        runtime = {name for name, pin in RUNTIME.items() if wanted(pin, env)}
        dev = {name for name, pin in DEV.items() if wanted(pin, env)}
        for lock, allowed in ((RUNTIME, runtime), (DEV, runtime | dev)):
            for name, pin in lock.items():
                if not (wanted(pin, env) and wanted(pin, here)):
                    continue  # not installed here, so no metadata to read
                dist = importlib.metadata.distribution(name)
                assert dist.version == pin.version, f"{name} {dist.version} is installed, the lock says {pin.version}"
                missing = dependencies(dist, env) - allowed
                assert not missing, f"on Python {env['python_version']} {name} needs {sorted(missing)}, unpinned"


def test_tasks_installs_the_runtime_lock_alone_for_run_and_both_for_test_with_hashes() -> None:
    tasks = load_tasks()
    assert tasks.LOCKS[tasks.RUN_VENV] == [tasks.LOCK]
    assert tasks.LOCKS[tasks.TEST_VENV] == [tasks.LOCK, tasks.DEV_LOCK]
    assert tasks.LOCK.name == "requirements.lock" and tasks.DEV_LOCK.name == "requirements-dev.lock"
    source = (ROOT / "tasks.py").read_text()
    assert '"--require-hashes", "--no-deps"' in source


def test_tasks_refuses_exactly_the_pythons_pyproject_excludes() -> None:
    tasks = load_tasks()
    spec = SpecifierSet(PYPROJECT["project"]["requires-python"])
    assert spec == SpecifierSet(f">={'.'.join(map(str, tasks.PYTHON_MIN))},<{'.'.join(map(str, tasks.PYTHON_BELOW))}")
    for minor in range(6, 20):
        for micro in (0, 9):
            version = (3, minor, micro)
            allowed = spec.contains(".".join(map(str, version)))
            problem = tasks.python_problem(version)
            assert (problem is None) == allowed, (version, problem)
    assert tasks.python_problem(tuple(sys.version_info[:3])) is None
    assert "requires-python" in (tasks.python_problem((3, 10, 4)) or "")
    # ruff and mypy check the code for the lowest supported version.
    low = "".join(map(str, tasks.PYTHON_MIN))
    assert PYPROJECT["tool"]["ruff"]["target-version"] == f"py{low}"
    assert PYPROJECT["tool"]["mypy"]["python_version"] == ".".join(map(str, tasks.PYTHON_MIN))


def test_tasks_exits_with_a_clear_message_on_an_unsupported_python(monkeypatch: pytest.MonkeyPatch,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    tasks = load_tasks()
    monkeypatch.setattr(tasks.sys, "version_info", (3, 14, 0, "final", 0))
    monkeypatch.setattr(tasks, "ensure_env", lambda env: pytest.fail("must not set anything up"))
    assert tasks.main(["test"]) == 2
    assert "needs Python >=3.11,<3.14" in capsys.readouterr().err


# --- Docker -----------------------------------------------------------------------------------


def dockerfile() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with continuation lines joined and comments dropped."""
    lines = [line for line in (ROOT / "Dockerfile").read_text().splitlines() if not line.lstrip().startswith("#")]
    text = "\n".join(lines).replace("\\\n", " ")
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1].strip())
            for line in text.splitlines() if line.strip()]


def local_imports(package: str) -> set[str]:
    """Top-level project folders that ``package`` (a folder of ROOT) imports, transitively."""
    local = {p.name for p in ROOT.iterdir() if (p / "__init__.py").exists()}
    seen, todo = set(), [package]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for file in (ROOT / name).rglob("*.py"):
            for node in ast.walk(ast.parse(file.read_text())):
                mods = ([a.name for a in node.names] if isinstance(node, ast.Import)
                        else [node.module] if isinstance(node, ast.ImportFrom) and node.module and not node.level
                        else [])
                todo += [m.split(".")[0] for m in mods if m.split(".")[0] in local]
    return seen


@pytest.mark.slow
def test_the_dockerfile_installs_only_the_runtime_lock_with_hashes_and_copies_every_runtime_folder() -> None:
    steps = dockerfile()
    assert steps[0] == ("FROM", "python:3.11-slim")
    base = re.fullmatch(r"python:(\d+\.\d+)-slim", steps[0][1])
    assert base and SpecifierSet(PYPROJECT["project"]["requires-python"]).contains(base.group(1) + ".0")
    installs = [args for op, args in steps if op == "RUN" and "pip install" in args]
    assert len(installs) == 1
    words = shlex.split(installs[0])
    assert "--require-hashes" in words and "--no-deps" in words
    locks = [words[i + 1] for i, w in enumerate(words) if w == "-r"]
    assert [Path(lock).name for lock in locks] == ["requirements.lock"]
    copied = [shlex.split(args) for op, args in steps if op in ("COPY", "ADD")]
    sources = {src.rstrip("/") for *srcs, _dest in copied for src in srcs}
    assert "requirements-dev.lock" not in sources and "." not in sources and "tests" not in sources
    needed = local_imports("bot") | {"data"}
    assert {"bot", "games", "render"} <= needed
    assert needed <= sources, f"the image lacks {sorted(needed - sources)}"
    assert ("CMD", '["python", "-m", "bot", "discord"]') in steps
    user = [args for op, args in steps if op == "USER"]
    assert user and user[-1] not in ("root", "0")
    volumes = [args for op, args in steps if op == "VOLUME"]
    env = " ".join(args for op, args in steps if op == "ENV")
    db = re.search(r"WARGAME_DB=(\S+)", env)
    assert db and volumes and Path(db.group(1)).parent.as_posix() in volumes[0]
    # .dockerignore excludes everything but what is copied.
    ignore = (ROOT / ".dockerignore").read_text().split()
    assert "*" in ignore and all(f"!{src}/" in ignore or f"!{src}" in ignore for src in sources)


def compose_services() -> dict[str, str]:
    """compose.yaml's services, each as the text of its block (no YAML library in the locks)."""
    text = (ROOT / "compose.yaml").read_text()
    block = text.split("\nservices:\n", 1)[1].split("\nvolumes:\n", 1)[0]
    return {m.group(1): m.group(2) for m in re.finditer(r"^  (\w[\w-]*):\n((?:    .*\n|\s*\n)*)", block, re.M)}


def test_compose_runs_the_bot_on_its_volume_and_postgres_15_under_a_profile_at_the_documented_url() -> None:
    services = compose_services()
    assert set(services) == {"bot", "web", "postgres"}  # web: the companion (docs/deploy.md)
    bot, pg = services["bot"], services["postgres"]
    assert "profiles" not in bot and re.search(r"profiles: \[postgres\]", pg)
    assert re.search(r"image: postgres:15\b", pg)
    assert re.search(r"env_file: \.env", bot)
    default = re.search(r"WARGAME_DB: \$\{WARGAME_DB:-(\S+)\}", bot)
    env = " ".join(args for op, args in dockerfile() if op == "ENV")
    image_db = re.search(r"WARGAME_DB=(\S+)", env)
    assert default and image_db and default.group(1) == image_db.group(1)
    mount = re.search(r"- \w+:(/\S+)", bot)
    assert mount and Path(default.group(1)).parent == Path(mount.group(1))
    # The PostgreSQL URL compose.yaml tells to put in .env: the documented form
    # postgresql://user@host/db, naming the service, its user and database, with no password.
    (url,) = set(re.findall(r"WARGAME_DB=(postgresql://\S+)", (ROOT / "compose.yaml").read_text()))
    parts = urlsplit(url)
    assert is_postgres(url) and parts.password is None
    assert parts.hostname == "postgres" and parts.port == 5432
    assert re.search(rf"POSTGRES_USER: {parts.username}\n", pg)
    assert re.search(rf"POSTGRES_DB: {parts.path.lstrip('/')}\n", pg)
    assert "POSTGRES_PASSWORD: ${PGPASSWORD" in pg
    deploy = (ROOT / "docs" / "deploy.md").read_text()
    assert "`postgresql://user@host/db`" in deploy
    assert url in deploy, "docs/deploy.md shows the same URL"
