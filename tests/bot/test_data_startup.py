"""The bot refuses to start on bad data (issue 11, item 4), and data errors never show server paths.

``python -m bot console`` (and ``discord``) validate every data file and pack first: a pack with
``heigth = 12`` or a pack folder that does not exist stops the start with the file, the key and
what was expected on stderr, no traceback. A pack broken after start-up reaches players as an
error naming the pack and file relative to it, never the server's absolute path.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.console import Console
from games.core import data, maps
from games.core.data import DATA_DIR
from tests.bot.helpers import make_service

ROOT = Path(__file__).resolve().parents[2]


def start(env_packs: str, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "WARGAME_DATA_PACKS": env_packs}
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=ROOT, input=stdin, capture_output=True,
                          text=True, timeout=120, env=env)


def pack_with_typo(tmp_path: Path) -> Path:
    pack = tmp_path / "mypack"
    target = pack / "iron_and_fire" / "ships.toml"
    target.parent.mkdir(parents=True)
    text = (DATA_DIR / "iron_and_fire" / "ships.toml").read_text(encoding="utf-8")
    target.write_text(text.replace("[ships.huascar]\n", "[ships.huascar]\nheigth = 12\n", 1), encoding="utf-8")
    return pack


@pytest.mark.slow
def test_console_refuses_to_start_with_an_unknown_key_in_a_pack(tmp_path: Path) -> None:
    result = start(str(pack_with_typo(tmp_path)), "console", "--json", stdin="/help\n")
    assert result.returncode != 0
    assert ("data pack 'mypack': iron_and_fire/ships.toml: key 'ships.huascar.heigth' is not allowed (unknown field)"
            in result.stderr)
    assert "Traceback" not in result.stderr
    assert str(tmp_path) not in result.stderr + result.stdout
    assert result.stdout == ""  # nothing was served


@pytest.mark.slow
def test_console_names_a_wrong_type_and_a_missing_pack_folder(tmp_path: Path) -> None:
    pack = tmp_path / "typed"
    (pack / "dice").mkdir(parents=True)
    (pack / "dice" / "d3.toml").write_text('name = "d3"\nfaces = [1, 2, 3]\n', encoding="utf-8")
    result = start(f"{pack}:{tmp_path / 'gone'}", "console", stdin="")
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert "data pack 'typed': dice/d3.toml: key 'faces[0]': expected str, got int" in result.stderr
    assert "data pack 'gone': the folder does not exist" in result.stderr


@pytest.mark.slow
def test_discord_mode_checks_the_data_before_connecting(tmp_path: Path) -> None:
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "WARGAME_DATA_PACKS": str(pack_with_typo(tmp_path)),
           "DISCORD_TOKEN": "not-a-real-token"}
    result = subprocess.run([sys.executable, "-m", "bot", "discord"], cwd=ROOT, capture_output=True, text=True,
                            timeout=120, env=env)
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert "key 'ships.huascar.heigth' is not allowed" in result.stderr


@pytest.mark.slow
def test_good_packs_start(tmp_path: Path) -> None:
    pack = tmp_path / "fine"
    (pack / "dice").mkdir(parents=True)
    (pack / "dice" / "d3.toml").write_text('name = "d3"\nfaces = ["1", "2", "3"]\n', encoding="utf-8")
    result = start(str(pack), "console", "--json", stdin="as @a\n/roll dice:1d6\n")
    assert result.returncode == 0, result.stderr


@pytest.fixture
def broken_map_pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A pack whose Iron and Fire map is not valid TOML, switched on after start-up."""
    pack = tmp_path / "owner-pack"
    (pack / "maps").mkdir(parents=True)
    (pack / "maps" / "iaf-open-sea.toml").write_text("name = \n[[", encoding="utf-8")
    monkeypatch.delenv("WARGAME_DATA_PACKS", raising=False)
    data.set_data_packs([pack])
    maps.load_map.cache_clear()
    yield pack
    data.set_data_packs([])
    data._packs = None
    maps.load_map.cache_clear()


async def test_a_pack_broken_after_start_up_shows_no_server_path(broken_map_pack: Path, tmp_path: Path) -> None:
    service = await make_service(tmp_path / "t.db")
    out = io.StringIO()
    console = Console(service, out=out, as_json=True, images=None)
    try:
        await console.run_script(["as @alice", "/game new system:iron-and-fire scenario:s1"])
    finally:
        await service.store.close()
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    shown = "\n".join(str(r.get("text", "")) for r in records)
    assert "data pack 'owner-pack': maps/iaf-open-sea.toml: not valid TOML" in shown
    errors = [r for r in records if r["kind"] == "error"]
    assert errors and errors[0]["text"].startswith("This server's game data is broken, so nothing was done")
    assert "Internal error" not in shown
    assert str(tmp_path) not in out.getvalue() and str(broken_map_pack) not in out.getvalue()
    assert str(ROOT) not in out.getvalue()


@pytest.mark.slow
def test_a_clean_check_is_kept_by_fingerprint_and_any_change_checks_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 25 item 5: data validated once per content hash. An unchanged start skips the full check
    (it is not called at all); a changed pack file gives a new fingerprint and is checked before use."""
    from bot import console
    from games.core import schema

    calls: list[int] = []
    real = schema.validate_all

    def counted() -> None:
        calls.append(1)
        real()

    monkeypatch.setattr(schema, "validate_all", counted)
    pack = tmp_path / "goodpack"
    target = pack / "iron_and_fire" / "ships.toml"
    target.parent.mkdir(parents=True)
    text = (DATA_DIR / "iron_and_fire" / "ships.toml").read_text(encoding="utf-8")
    target.write_text(text, encoding="utf-8")
    monkeypatch.setenv("WARGAME_DATA_PACKS", str(pack))
    cache = tmp_path / "cache"
    assert console.data_ok(cache) and len(calls) == 1
    assert console.data_ok(cache) and len(calls) == 1  # unchanged: the kept result, no second check
    target.write_text(text.replace("[ships.huascar]\n", "[ships.huascar]\nheigth = 12\n", 1), encoding="utf-8")
    assert not console.data_ok(cache) and len(calls) == 2  # changed: checked again, and refused
    assert not console.data_ok(cache) and len(calls) == 3  # a refusal is never kept
    target.write_text(text, encoding="utf-8")
    assert console.data_ok(cache) and len(calls) == 3  # the content checked clean before: kept by its hash
    assert [p.name for p in cache.iterdir()] == [f"data-ok-{schema.fingerprint()}"]  # only the newest kept
