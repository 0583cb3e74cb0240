"""Old games after a rules change (issue 21, item 4): each game records the version of its rules it
is played under; a game the bot's rules can no longer read or replay is refused with a message
naming the version it was played under and the one the bot runs, never a crash, and it can still be
ended, listed and exported."""

from __future__ import annotations

import json

import pytest

from bot import workers
from bot.service import TableService
from games.core.errors import IllegalOrder
from games.core.ruleset import get_ruleset
from games.days_of_iron.ruleset import DaysOfIron
from games.hex_ironclads.ruleset import HexIronclads
from tests.bot.helpers import ALICE, BOB, errors, hex_duel, ok, public_text, run


async def _hex_game(svc: TableService) -> None:
    await hex_duel(svc)
    await ok(svc, ALICE, "order", text="seal")  # a public order: everyone's log lists it


async def _set_old(svc: TableService, *, rules: str, snapshot: object | None = None) -> None:
    """Make the channel's game look stored by an older bot (a column no write path changes)."""
    row = await svc.store.live_game("c1")
    assert row is not None
    if snapshot is not None:
        row = await svc.store.update_game(row, snapshot=snapshot)
    await svc.store._db.write("UPDATE games SET rules = ? WHERE id = ?", (rules, row.id))  # type: ignore[attr-defined]


async def test_a_new_game_records_its_rules_version_and_its_export_carries_it(svc: TableService) -> None:
    await ok(svc, ALICE, "game new", system="days-of-iron", scenario="meeting")
    row = await svc.store.live_game("c1")
    assert row is not None and row.rules == DaysOfIron.rules_version == get_ruleset("days-of-iron").rules_version
    [export] = [o for o in await ok(svc, ALICE, "game export") if o.file]
    assert export.file is not None
    assert json.loads(export.file[1])["rules_version"] == DaysOfIron.rules_version


async def test_a_saved_position_the_rules_no_longer_read_is_refused_naming_both_versions(svc: TableService) -> None:
    await _hex_game(svc)
    await _set_old(svc, rules="", snapshot={"from": "an older bot"})
    for command, options in (("game status", {}), ("game board", {}), ("order", {"text": "Virginia stay"})):
        said = " ".join(errors(await run(svc, BOB, command, **options)))
        assert f"cannot read the saved position of this {HexIronclads.name} game" in said, command
        assert "a version from before versions were recorded" in said
        assert f"this bot runs version {HexIronclads.rules_version}" in said
    # its record still reads, and whoever may end it can, so the channel is not stuck
    assert "1 of 1" in " ".join(o.text for o in await ok(svc, BOB, "game log"))
    assert any(o.file for o in await ok(svc, BOB, "game export"))
    ended = public_text(await ok(svc, ALICE, "game end"))
    assert "ended the game" in ended and "Seed:" in ended
    await ok(svc, ALICE, "game new", system="hex-ironclads", scenario="duel")


async def test_a_log_that_no_longer_replays_is_refused_with_both_versions(
    svc: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    svc.table.work = workers.in_thread  # the patched rules run in this process
    await _hex_game(svc)
    await ok(svc, ALICE, "game end")
    played = HexIronclads.rules_version
    monkeypatch.setattr(HexIronclads, "rules_version", "99")

    def changed(*args: object) -> object:
        raise IllegalOrder("Not under the new rules.")

    monkeypatch.setattr(HexIronclads, "apply", changed)
    [replay] = await ok(svc, BOB, "game replay")
    assert replay.file is None
    assert replay.text.startswith("No replay: this game's orders no longer replay under the rules this bot runs.")
    assert f"played under {HexIronclads.name} rules version {played}; this bot runs version 99" in replay.text
    verdict = public_text(await ok(svc, BOB, "game verify"))
    assert "**Verification FAILED**" in verdict
    assert (f"The {HexIronclads.name} rules have changed since this game was played: it was played under version "
            f"{played}, this bot runs version 99") in verdict


async def test_an_old_game_that_still_replays_replays_and_verifies(svc: TableService) -> None:
    svc.table.work = workers.in_thread
    await _hex_game(svc)
    await _set_old(svc, rules="")
    assert not errors(await run(svc, BOB, "game status"))
    await ok(svc, ALICE, "game end")
    [replay] = await ok(svc, BOB, "game replay")
    assert replay.file is not None
    assert "**Verified**" in public_text(await ok(svc, BOB, "game verify"))
