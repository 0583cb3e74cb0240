"""/game concede on every rule system: a seated player gives up for their side, the other side wins,
and the concession is in the log, so export, replay and verify reproduce the game exactly."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import tests.bot.duel  # noqa: F401
from bot.rooms.common import NEXT_LINE
from bot.rooms.seats import replay_state
from bot.service import CONCEDE_ORDER, TableService, User, verify_export
from games.core.ruleset import UMPIRE, get_ruleset, legal_texts, system_ids
from tests.bot.helpers import ALICE, BOB, CAROL, errors, make_service, ok, public_text, run

SYSTEMS = [s for s in system_ids() if not s.startswith("test-")]
UMP = User("ump", "Ump")


async def seated_game(svc: TableService, system: str, *, umpire: bool = False) -> dict[str, User]:
    """A started game of ``system``'s first scenario with one user per side (and an umpire)."""
    rules = get_ruleset(system)
    await ok(svc, ALICE, "game new", system=system, scenario=rules.scenarios()[0].id)
    live = await svc.store.live_game("c1")
    assert live is not None
    users: dict[str, User] = {}
    for seat in rules.seats(rules.decode(live.snapshot)):
        if seat.id == UMPIRE:
            continue
        users[seat.id] = User(f"u-{seat.id}", seat.label)
        await ok(svc, users[seat.id], "game join", seat=seat.id)
    if umpire:
        await ok(svc, UMP, "game join", seat=UMPIRE)
    await ok(svc, ALICE, "game start")
    return users


async def play_a_little(svc: TableService, system: str, users: dict[str, User], chooser: random.Random) -> int:
    """A few random legal orders, so the concession comes mid-game (stops early if the game ends)."""
    rules = get_ruleset(system)
    played = 0
    for _ in range(6):
        row = await svc.store.live_game("c1")
        if row is None:
            break
        state = rules.decode(row.snapshot)
        to_act = [s for s in rules.to_act(state) if s in users]
        legal = legal_texts(rules, state, to_act[0]) if to_act else []
        if not legal:
            break
        await ok(svc, users[to_act[0]], "order", text=chooser.choice(legal), seat=to_act[0])
        played += 1
    return played


@pytest.mark.parametrize("system", SYSTEMS)
async def test_a_side_concedes_and_the_other_side_wins(system: str, tmp_path: Path) -> None:
    svc = await make_service(tmp_path / "g.db")
    users = await seated_game(svc, system)
    await play_a_little(svc, system, users, random.Random(system))
    row = await svc.store.live_game("c1")
    assert row is not None and row.status == "running"
    loser, winner = list(users)[:2]

    asked = await ok(svc, users[loser], "game concede")  # no confirm: it only says what would happen
    assert [o.kind for o in asked] == ["ephemeral"] and "confirm:true" in asked[0].text
    assert "wins" in asked[0].text
    unchanged = await svc.store.live_game("c1")
    assert unchanged is not None and unchanged.version == row.version

    done = await ok(svc, users[loser], "game concede", confirm="true")
    text = public_text(done)
    over = await svc.store.latest_game("c1")
    assert over is not None
    game = svc.table.decode(over)
    names = {i.id: i.name for i in game.rules.view(game.state, None).sides}
    assert "concedes." in text and f"**Game over.** Winner: {names[winner]}." in text  # the side's name, not its id
    assert row.seed.hex() in text  # the seed is published, as at any end
    final = next(o for o in done if o.kind == "message").view  # the final board
    assert final is not None
    board = (await ok(svc, users[winner], "game board"))[0].view
    assert board is not None
    for view in (final, board):  # the game is over: neither board's headline names anyone to act (play finding F21)
        assert not [line for line in view.status if NEXT_LINE.match(line)], view.status
    # the state the rules keep may still say whose phase it was (they did not end the game): the
    # table's boards say it is over (play-test: "Turn 1, Movement phase: the French act." after a concession)
    ended_by_table = (get_ruleset(system).concede_order or CONCEDE_ORDER) == CONCEDE_ORDER
    for view in ((final, board) if ended_by_table else (board,)):
        assert view.status[0] == "Game over." and view.headline >= 1, view.status
    over = await svc.store.latest_game("c1")
    mark = get_ruleset(system).concede_order or CONCEDE_ORDER  # the rules' own order, where they keep who is out
    assert over is not None and over.status == "over"
    assert (over.snapshot == row.snapshot) == (mark == CONCEDE_ORDER)  # the service's mark changes nothing
    orders = await svc.store.orders(over.id)
    assert (orders[-1].seat, orders[-1].text, orders[-1].user_id) == (loser, mark, users[loser].id)
    assert errors(await run(svc, users[winner], "order", text="pass"))  # nothing more can be ordered

    rules = get_ruleset(system)
    state, counter = replay_state(rules, over, await svc.store.orders(over.id, include_undone=False))
    assert rules.encode(state) == over.snapshot and counter == over.counter
    exported = await ok(svc, CAROL, "game export")
    data = json.loads(exported[0].file[1])  # type: ignore[index]
    assert data["orders"][-1]["text"] == mark and "seed" in data
    assert verify_export(data).startswith("**Verified**")
    log = await ok(svc, CAROL, "game log")
    assert mark in log[0].text and "concedes." in log[0].text
    await svc.store.close()


@pytest.mark.parametrize("system", SYSTEMS)
async def test_the_concession_mark_is_never_stored_as_an_order(system: str, tmp_path: Path) -> None:
    """The log tells a concession from an order by its text, so /order may never store that text
    (the free table takes any text as a note: it is refused before the rules see it)."""
    svc = await make_service(tmp_path / "g.db")
    users = await seated_game(svc, system)
    for seat, user in users.items():
        for text in (CONCEDE_ORDER, f"  {CONCEDE_ORDER} "):
            refused = errors(await run(svc, user, "order", text=text, seat=seat))
            assert refused, f"{system}: {seat} could order {text!r}"
    row = await svc.store.live_game("c1")
    assert row is not None and await svc.store.orders(row.id) == []
    await svc.store.close()


async def test_an_edited_concession_fails_verification(tmp_path: Path) -> None:
    svc = await make_service(tmp_path / "g.db")
    users = await seated_game(svc, "test-duel")
    await ok(svc, users["north"], "order", text="roll")
    await ok(svc, users["south"], "game concede", confirm="yes")
    data = json.loads((await ok(svc, CAROL, "game export"))[0].file[1])  # type: ignore[index]
    data["orders"][-1]["seat"] = "north"  # claim the other side conceded
    assert verify_export(data).startswith("**Verification FAILED**")
    await svc.store.close()


async def test_who_may_concede(tmp_path: Path) -> None:
    svc = await make_service(tmp_path / "g.db")
    await ok(svc, ALICE, "game new", system="test-duel", scenario="race")
    await ok(svc, ALICE, "game join", seat="north")
    assert "not started" in errors(await run(svc, ALICE, "game concede", confirm="true"))[0]
    await ok(svc, BOB, "game join", seat="south")
    await ok(svc, UMP, "game join", seat=UMPIRE)
    await ok(svc, ALICE, "game start")
    assert "umpire plays no side" in errors(await run(svc, UMP, "game concede", confirm="true"))[0]
    assert "hold no seat" in errors(await run(svc, CAROL, "game concede", confirm="true"))[0]
    assert "do not hold" in errors(await run(svc, ALICE, "game concede", seat="south", confirm="true"))[0]
    live = await svc.store.live_game("c1")
    assert live is not None and live.status == "running" and await svc.store.orders(live.id) == []
    await svc.store.close()


async def test_with_three_sides_the_last_side_standing_wins(tmp_path: Path) -> None:
    svc = await make_service(tmp_path / "g.db")
    await ok(svc, ALICE, "game new", system="table", scenario="free", options="sides=Red,Blue,Green")
    for user, seat in ((ALICE, "red"), (BOB, "blue"), (CAROL, "green")):
        await ok(svc, user, "game join", seat=seat)
    await ok(svc, ALICE, "game start")
    asked = await ok(svc, ALICE, "game concede")
    assert "Red is out; Blue, Green play on" in asked[0].text
    first = public_text(await ok(svc, ALICE, "game concede", confirm="true"))
    assert "Red concedes." in first and "Still playing: Blue, Green." in first and "Game over" not in first
    assert "already conceded" in errors(await run(svc, ALICE, "game concede", confirm="true"))[0]
    second = public_text(await ok(svc, CAROL, "game concede", confirm="true"))
    assert "Green concedes." in second and "**Game over.** Winner: Blue." in second
    row = await svc.store.latest_game("c1")
    assert row is not None and row.status == "over"
    data = json.loads((await ok(svc, BOB, "game export"))[0].file[1])  # type: ignore[index]
    assert [o["text"] for o in data["orders"]] == ["concede", "concede"]  # the table's own order (rules section 3)
    assert verify_export(data).startswith("**Verified**")
    await svc.store.close()


async def test_a_player_of_two_sides_says_which_concedes(tmp_path: Path) -> None:
    svc = await make_service(tmp_path / "g.db")
    await ok(svc, ALICE, "game new", system="table", scenario="free", options="sides=Red,Blue")
    await ok(svc, ALICE, "game join", seat="red")
    await ok(svc, ALICE, "game join", seat="blue")
    await ok(svc, ALICE, "game start")
    assert "several sides" in errors(await run(svc, ALICE, "game concede", confirm="true"))[0]
    done = public_text(await ok(svc, ALICE, "game concede", seat="blue", confirm="true"))
    assert "Blue concedes." in done and "Winner: Red." in done
    await svc.store.close()
