"""Defects found in review: each test failed before its fix."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.service import TableService, User, verify_export
from tests.bot.helpers import ALICE, BOB, CAROL, errors, make_service, ok, public_text, run

UMP = User("ump", "Ump")


@pytest.fixture
async def svc(tmp_path: Path) -> TableService:
    service = await make_service(tmp_path / "r.db")
    yield service  # type: ignore[misc]
    await service.store.close()


async def hex_duel(svc: TableService) -> None:
    await ok(svc, ALICE, "game new", system="hex-ironclads", scenario="duel")
    await ok(svc, ALICE, "game join", seat="union")
    await ok(svc, BOB, "game join", seat="confederate")
    await ok(svc, UMP, "game join", seat="umpire")
    await ok(svc, ALICE, "game start")


async def test_secret_fire_order_text_stays_out_of_log_export_and_undo(svc: TableService) -> None:
    await hex_duel(svc)
    await ok(svc, ALICE, "order", text="Monitor fire Virginia")
    for viewer in (BOB, CAROL):  # the opponent and a spectator
        log = "\n".join(o.text for o in await ok(svc, viewer, "game log"))
        assert "Virginia" not in log and "hidden" in log, log
        export = await ok(svc, viewer, "game export")
        blob = export[0].file[1].decode() if export[0].file else ""
        assert "Virginia" not in blob, blob
    own = "\n".join(o.text for o in await ok(svc, ALICE, "game log"))
    assert "Monitor fire Virginia" in own
    assert "Monitor fire Virginia" in "\n".join(o.text for o in await ok(svc, UMP, "game log"))
    undo = await ok(svc, ALICE, "game undo")
    assert "Virginia" not in public_text(undo), public_text(undo)
    # the bot's own check of the running game still replays the real orders
    await ok(svc, ALICE, "order", text="Monitor fire Virginia")
    assert "Verified" in (await ok(svc, CAROL, "game verify"))[0].text


async def test_secret_order_text_is_published_with_the_seed_at_the_end(svc: TableService) -> None:
    await hex_duel(svc)
    await ok(svc, ALICE, "order", text="Monitor fire Virginia")
    await ok(svc, UMP, "game end")
    export = await ok(svc, CAROL, "game export")
    assert export[0].file is not None
    data = json.loads(export[0].file[1])
    assert "Monitor fire Virginia" in [o["text"] for o in data["orders"]]
    assert "Verified" in verify_export(data)
    assert "Monitor fire Virginia" in "\n".join(o.text for o in await ok(svc, CAROL, "game log"))


async def versions(svc: TableService, channel: str = "c1") -> tuple[int | None, int | None]:
    game = await svc.store.latest_game(channel)
    tools = await svc.store.tools(channel)
    return (game.version if game else None, tools.version if tools else None)


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("game log", {"page": "²"}),
        ("reveal", {"roll": "#²"}),
        ("reveal", {"roll": "¹"}),
        ("deck deal", {"name": "d", "count": "³", "to": "alice bob"}),
    ],
)
async def test_unicode_digits_are_refused_not_crashing(svc: TableService, command: str, options: dict[str, str]) -> None:
    """``"²".isdigit()`` is true but ``int("²")`` raises: the user must get an error, not a crash."""
    await ok(svc, UMP, "game new", system="table", scenario="free")
    await ok(svc, UMP, "game join", seat="umpire")
    await ok(svc, ALICE, "roll", dice="1d6", secret="true", purpose="x")
    await ok(svc, ALICE, "deck new", name="d", **{"from": "standard52"})
    before = await versions(svc)
    out = await run(svc, UMP if command == "reveal" else ALICE, command, **options)
    assert len(errors(out)) == 1, out
    assert await versions(svc) == before
