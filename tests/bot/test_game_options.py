"""/game new checks options with the one check in games.core.options: the same wording for every
system, keys and listed choices in any case, number ranges refused before any set-up runs."""

from __future__ import annotations

from pathlib import Path

from tests.bot.helpers import ALICE, errors, make_service, ok, run


async def test_options_are_checked_once_in_one_wording(tmp_path: Path) -> None:
    svc = await make_service(tmp_path / "t.db")
    try:
        refused = {
            "fog=yes": "Hex ironclads (Memoir of Battle at Sea style) has no option `fog`. Options: ahead-arc, arc-boundary,",
            "ships-block-sight=maybe": "Option ships-block-sight=`maybe` is not allowed. Choose one of yes, no.",
            "turns=100": "Option turns=`100` is not allowed. Give a whole number from 1 to 99.",
        }
        for options, message in refused.items():
            found = errors(await run(svc, ALICE, "game new", system="hex-ironclads", scenario="duel", options=options))
            assert found and found[0].startswith(message), found
        await ok(svc, ALICE, "game new", system="hex-ironclads", scenario="duel", options="Ships-Block-Sight=NO,turns=3")
        game = await svc.store.game_by_id(1)  # type: ignore[attr-defined]
        assert game is not None and game.options["ships-block-sight"] == "no"
    finally:
        await svc.store.close()
