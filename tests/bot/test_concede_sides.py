"""The free table with three sides: `/game concede` and the `concede` order are one thing. Whichever
way each side gives up, the side is out (its piece orders refused; it may still post messages), status names who is out, the last side
left wins and the game ends once; the log, export, replay and verify agree."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from bot.rooms.seats import replay_state
from bot.service import Output, TableService, User, verify_export
from games.core.ruleset import get_ruleset
from tests.bot.helpers import ALICE, BOB, CAROL, errors, make_service, ok, public_text, run

SEATS = {"red": ALICE, "blue": BOB, "green": CAROL}
DAVE = User("dave", "Dave")  # a spectator


async def three_sides(tmp_path: Path) -> TableService:
    svc = await make_service(tmp_path / "g.db")
    await ok(svc, ALICE, "game new", system="table", scenario="free", options="sides=Red,Blue,Green")
    for seat, user in SEATS.items():
        await ok(svc, user, "game join", seat=seat)
    await ok(svc, ALICE, "game start")
    await ok(svc, ALICE, "order", text="place Hood a1")
    return svc


async def concede(svc: TableService, seat: str, way: str) -> list[Output]:
    """``seat`` gives up by ``way``: "game" (/game concede confirm:true) or "order" (/order concede)."""
    if way == "game":
        return await ok(svc, SEATS[seat], "game concede", confirm="true")
    return await ok(svc, SEATS[seat], "order", text="concede")


async def status(svc: TableService) -> str:
    return (await ok(svc, DAVE, "game status"))[0].text


@pytest.mark.slow
@pytest.mark.parametrize(("first", "second"), list(itertools.product(("game", "order"), repeat=2)))
async def test_both_ways_of_conceding_are_one(first: str, second: str, tmp_path: Path) -> None:
    svc = await three_sides(tmp_path)
    said = public_text(await concede(svc, "red", first))
    assert "Red concedes. Still playing: Blue, Green." in said and "Game over" not in said
    row = await svc.store.live_game("c1")
    assert row is not None and row.status == "running"
    assert "Out: Red (conceded)" in await status(svc)

    for way in ("game", "order"):  # out is out, whichever way is tried again
        again = errors(await run(svc, ALICE, "game concede", confirm="true") if way == "game"
                       else await run(svc, ALICE, "order", text="concede"))
        assert again and "conceded" in again[0]
    for text in ("place Nelson b2", "move Hood a2", "remove Hood"):  # a side that is out moves no pieces
        refused = errors(await run(svc, ALICE, "order", text=text))
        assert refused and "Red has conceded and is out of the game" in refused[0], (text, refused)
    said = public_text(await ok(svc, ALICE, "order", text="well played"))  # but may still talk at the table
    assert "**Red**: well played" in said
    assert (await ok(svc, ALICE, "order", text="?"))[0].text.endswith("none right now")
    await ok(svc, BOB, "order", text="place Nelson b2")  # the others play on

    done = await concede(svc, "green", second)
    text = "\n".join(o.text for o in done if o.kind == "message")
    assert "Green concedes." in text and "Still playing" not in text
    assert text.count("**Game over.**") == 1 and "**Game over.** Winner: Blue." in text
    over = await svc.store.latest_game("c1")
    assert over is not None and over.status == "over"
    shown = await status(svc)
    assert "Out: Red, Green (conceded)" in shown and "Blue is the last side standing" in shown
    assert errors(await run(svc, BOB, "order", text="concede"))  # the game ended once: nothing more
    assert errors(await run(svc, BOB, "game concede", confirm="true"))

    orders = await svc.store.orders(over.id)
    assert [(o.seat, o.text) for o in orders] == [("red", "place Hood a1"), ("red", "concede"),
                                                  ("red", "well played"), ("blue", "place Nelson b2"), ("green", "concede")]
    rules = get_ruleset("table")
    state, counter = replay_state(rules, over, orders)
    assert rules.encode(state) == over.snapshot and counter == over.counter
    data = json.loads((await ok(svc, DAVE, "game export"))[0].file[1])  # type: ignore[index]
    assert verify_export(data).startswith("**Verified**")
    assert (await ok(svc, DAVE, "game verify"))[0].text.startswith("**Verified**")
    log = (await ok(svc, DAVE, "game log"))[0].text
    assert log.count("concede") >= 2 and "Green concedes." in log
    replay = await ok(svc, DAVE, "game replay")
    assert any(o.file is not None for o in replay)
    await svc.store.close()


async def test_the_two_ways_post_the_same(tmp_path: Path) -> None:
    """Not just the same end: the same words, board and pings, whichever way a side conceded."""
    posts = []
    for n, way in enumerate(("game", "order")):
        (tmp_path / str(n)).mkdir()
        svc = await three_sides(tmp_path / str(n))
        posts.append([await concede(svc, "blue", way), await concede(svc, "red", way)])
        row = await svc.store.latest_game("c1")
        assert row is not None and row.status == "over"
        await svc.store.close()
    assert posts[0] == posts[1]


async def test_an_undone_concession_lets_the_side_play_again(tmp_path: Path) -> None:
    svc = await three_sides(tmp_path)
    await concede(svc, "red", "game")
    await ok(svc, ALICE, "game undo")
    assert "Out:" not in await status(svc)
    await ok(svc, ALICE, "order", text="place Nelson b2")
    await concede(svc, "red", "order")
    assert "Out: Red (conceded)" in await status(svc)
    await svc.store.close()
