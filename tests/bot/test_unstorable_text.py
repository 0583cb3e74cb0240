"""Text no database can store (a lone surrogate, a NUL) is refused at the service's edge, for every
option of every command, with a message saying which option and where; nothing is stored."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.commands import COMMAND_LIST
from bot.rooms.common import storable_name, unstorable
from bot.service import TableService, User
from tests.bot.helpers import ALICE, BOB, errors, ok, run

# A plausible value for each option, so that only the bad character can be what is refused.
GOOD = {
    "system": "table", "scenario": "free", "options": "sides=Peru,Chile", "thread": "false", "seat": "peru",
    "zoom": "a1", "page": "1", "confirm": "false", "after": "12", "every": "24", "user": "bob", "name": "cards",
    "revoke": "false", "text": "place A a1", "preview": "false", "dice": "2d6", "secret": "true",
    "purpose": "ambush", "roll": "1", "from": "standard54", "to": "hand", "count": "1", "card": "A♥",
    "deck": "cards", "action": "open", "who": "<@alice> <@bob>", "export": "{}",
}
BAD = ("\ud800", "x\x00y", "ok \udfff then")


def dump(path: Path) -> list[tuple[str, list[tuple[object, ...]]]]:
    """Every row of every table in the store, to compare before and after a refused command."""
    with sqlite3.connect(path) as con:
        tables = [t for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
        return [(t, sorted(con.execute(f"SELECT * FROM {t}").fetchall(), key=repr)) for t in tables]


@pytest.mark.parametrize("bad", BAD)
async def test_every_text_option_of_every_command_refuses_unstorable_text(svc: TableService, tmp_path: Path,
                                                                         bad: str) -> None:
    await ok(svc, ALICE, "game new", system="table", scenario="free", options="sides=Peru,Chile")
    await ok(svc, ALICE, "game join", seat="peru")
    await ok(svc, BOB, "game join", seat="chile")
    await ok(svc, ALICE, "game start")
    await ok(svc, ALICE, "deck new", name="cards", **{"from": "standard54"})
    await ok(svc, ALICE, "roll", dice="d6", secret="true")
    path = tmp_path / "table.db"
    tried = 0
    for command in COMMAND_LIST:
        good = {p.name: GOOD[p.name] for p in command.params if p.required}
        for param in command.params:
            before = dump(path)
            prefix = GOOD[param.name][:2]
            options = good | {param.name: prefix + bad}
            at = len(prefix) + next(i for i, c in enumerate(bad) if unstorable(c)) + 1
            out = await svc.handle("c1", ALICE, command.name, options)
            assert [o.kind for o in out] == ["error"], (command.name, param.name, out)
            assert f"{param.name}: character {at} is a " in out[0].text and "cannot be stored" in out[0].text, out
            assert dump(path) == before, (command.name, param.name)
            tried += 1
    assert tried >= 40  # every option of every command was tried


async def test_a_display_name_that_cannot_be_stored_is_mended_not_refused(svc: TableService) -> None:
    await ok(svc, ALICE, "game new", system="table", scenario="free", options="sides=Peru,Chile")
    odd = User("odd", "Od\ud800d\x00")
    assert not errors(await run(svc, odd, "game join", seat="peru"))
    row = await svc.store.live_game("c1")
    assert row is not None and row.seats["peru"]["name"] == "Od\ufffdd\ufffd"


def test_the_reason_names_the_first_bad_character() -> None:
    assert unstorable("fine ♥ text") is None
    assert unstorable("ab\x00\ud800") == "character 3 is a NUL character (U+0000), which cannot be stored"
    assert unstorable("a\udc80\x00") == "character 2 is a lone surrogate (U+DC80), which cannot be stored"
    assert storable_name("a\ud83d\ude00\ud800") == "a\U0001f600\ufffd"  # a pair mended, a lone one replaced


@pytest.mark.parametrize(("command", "options"), [
    ("order", {"text": "place A a\ud800"}),
    ("seal", {"text": "fire at \ud800"}),
    ("deck new", {"name": "m\ud800", "from": "standard54"}),
])
async def test_the_three_commands_the_driver_failed_on_now_refuse(svc: TableService, command: str,
                                                                 options: dict[str, str]) -> None:
    """Before the edge check these reached the database driver and raised UnicodeEncodeError."""
    await ok(svc, ALICE, "game new", system="table", scenario="free", options="sides=Peru,Chile")
    await ok(svc, ALICE, "game join", seat="peru")
    await ok(svc, BOB, "game join", seat="chile")
    await ok(svc, ALICE, "game start")
    before = await svc.store.live_game("c1")
    out = await svc.handle("c1", ALICE, command, options)
    assert len(out) == 1 and "is a lone surrogate (U+D800), which cannot be stored, so nothing was done" in out[0].text
    assert await svc.store.tools("c1") is None
    row = await svc.store.live_game("c1")
    assert row is not None and before is not None and row.version == before.version
    assert not await svc.store.orders(row.id)
