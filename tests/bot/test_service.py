"""The table service: lifecycle, permissions, bad input changing nothing, secrecy, undo, verify."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest

from bot.service import MAX_MESSAGE, TableService, parse_options, verify_export
from bot.text import split_text
from tests.bot.helpers import ADMIN, ALICE, BOB, CAROL, errors, ok, public_text, run


async def versions(svc: TableService, channel: str = "c1") -> tuple[int | None, int | None]:
    game = await svc.store.latest_game(channel)
    tools = await svc.store.tools(channel)
    return (game.version if game else None, tools.version if tools else None)


async def started_table(svc: TableService) -> None:
    await ok(svc, ALICE, "game new", system="table", scenario="free", options="sides=Peru,Chile")
    await ok(svc, ALICE, "game join", seat="peru")
    await ok(svc, BOB, "game join", seat="chile")
    await ok(svc, ALICE, "game start")


BAD_INPUT = [
    ("roll", {"dice": "3d0"}, "2 to 1000 sides"),
    ("roll", {"dice": "d"}, "Cannot read dice"),
    ("roll", {"dice": "1000000d6"}, "between 1 and 100 dice"),
    ("roll", {"dice": ""}, "Give dice"),
    ("frobnicate", {}, "Unknown command"),
    ("order", {"text": "move"}, "no game"),
    ("game start", {}, "no game"),
    ("deck draw", {"name": "nope"}, "No deck called `nope`"),
    ("reveal", {"roll": "7"}, "No secret roll `7`"),
    ("seal reveal", {}, "Nothing is sealed"),
    ("game new", {"system": "chess", "scenario": "x"}, "No game system called `chess`"),
    ("game new", {"system": "table", "scenario": "nope"}, "no scenario `nope`"),
    ("game new", {"system": "table", "scenario": "free", "options": "colour=red"}, "no option `colour`"),
    ("game new", {"system": "table", "scenario": "free", "options": "board=99x99"}, "2 to 26 squares"),
]


@pytest.mark.parametrize(("command", "options", "message"), BAD_INPUT)
async def test_bad_input_is_explained_and_changes_nothing(svc: TableService, command: str, options: dict[str, str], message: str) -> None:
    await ok(svc, ALICE, "roll", dice="1d6")  # the channel has tools state to protect
    before = await versions(svc)
    out = await svc.handle("c1", ALICE, command, options)
    assert len(errors(out)) == 1 and message.lower() in errors(out)[0].lower(), out
    assert all(o.to == ALICE.id for o in out)
    assert await versions(svc) == before


async def test_game_bad_input_changes_nothing(svc: TableService) -> None:
    await started_table(svc)
    await ok(svc, ALICE, "deck new", name="d", **{"from": "standard52"})
    cases = [
        (CAROL, "game join", {"seat": "peru"}, "already started"),
        (ALICE, "game new", {"system": "table", "scenario": "free"}, "already has a game"),
        (CAROL, "order", {"text": "place X a1"}, "hold no seat"),
        (BOB, "order", {"text": "move Nothing a2"}, "No piece called `Nothing`"),
        (BOB, "order", {"text": "place X z9"}, "off the board"),
        (CAROL, "game end", {}, "Only the umpire"),
        (ALICE, "deck deal", {"name": "d", "count": "30", "to": "<@alice> <@bob>"}, "Cannot deal 30"),
        (ALICE, "seal", {"text": "x", "_": ""}, ""),  # opens a round with both players: succeeds
    ]
    for user, command, options, message in cases[:-1]:
        before = await versions(svc)
        out = await svc.handle("c1", user, command, options)
        assert errors(out) and message.lower() in errors(out)[0].lower(), (command, out)
        assert await versions(svc) == before, command
    await ok(svc, ALICE, "seal", text="I attack at dawn")
    before = await versions(svc)
    out = await run(svc, ALICE, "seal", text="changed my mind")
    assert "already sealed" in errors(out)[0]
    assert await versions(svc) == before


async def test_full_lifecycle_export_and_verify(svc: TableService) -> None:
    await started_table(svc)
    await ok(svc, ALICE, "order", text="place Huascar d1 N")
    await ok(svc, BOB, "order", text="place Esmeralda d8 S")
    out = await ok(svc, BOB, "order", text="concede")
    assert "Game over" in public_text(out) and "Seed:" in public_text(out)
    assert (await svc.channel_state("c1"))[0] == "over"
    export = await ok(svc, ALICE, "game export")
    assert export[0].file is not None
    data = json.loads(export[0].file[1])
    assert data["seed"] and data["orders"][0]["text"] == "place Huascar d1 N"
    assert verify_export(data).startswith("**Verified**")
    tampered = json.loads(json.dumps(data))
    tampered["orders"][1]["events"][0]["text"] = "Chile places Esmeralda on a8."
    assert "FAILED" in verify_export(tampered) and "order 2" in verify_export(tampered)
    wrong_seed = data | {"seed": "00" * 32}
    assert "does not match the commitment" in verify_export(wrong_seed)
    # a new game may start once the old one is over
    await ok(svc, ALICE, "game new", system="table", scenario="free")


async def test_verify_from_export_text(svc: TableService) -> None:
    await started_table(svc)
    await ok(svc, ALICE, "order", text="place A a1")
    await ok(svc, ALICE, "game end")
    blob = (await ok(svc, ALICE, "game export"))[0].file
    assert blob is not None
    out = await ok(svc, CAROL, "game verify", channel="elsewhere", export=blob[1].decode())
    assert "**Verified**" in out[0].text


async def test_seed_is_secret_until_the_end(svc: TableService) -> None:
    await started_table(svc)
    row = await svc.store.live_game("c1")
    assert row is not None
    seed_hex = row.seed.hex()
    outs = await ok(svc, ALICE, "order", text="place A a1")
    outs += await ok(svc, ALICE, "game export")
    outs += await ok(svc, ALICE, "game verify")
    for o in outs:
        assert seed_hex not in o.text
        if o.file:
            assert seed_hex not in o.file[1].decode()
    assert "still-secret seed" in outs[-1].text and outs[-1].kind == "ephemeral"


async def test_secret_roll_goes_only_by_dm_and_reveal_checks(svc: TableService) -> None:
    out = await ok(svc, ALICE, "roll", dice="3d6", secret="true", purpose="ambush")
    dm = [o for o in out if o.kind == "dm"]
    assert len(dm) == 1 and dm[0].to == ALICE.id
    value = re.search(r"= \*\*(\d+)\*\*", dm[0].text)
    assert value
    public = public_text(out)
    assert "ambush" in public and "Commitment" in public and "[" not in public
    commitment = re.search(r"Commitment: `([0-9a-f]{64})`", public)
    assert commitment
    assert errors(await run(svc, BOB, "reveal", roll="1"))
    revealed = public_text(await ok(svc, ALICE, "reveal", roll="1"))
    nonce = re.search(r"Nonce `([0-9a-f]{64})`", revealed)
    result = re.search(r"ambush\*: (.*)\n", revealed)
    assert nonce and result
    from games.core.rng import check_seal

    assert check_seal(result.group(1), nonce.group(1), commitment.group(1))


async def test_umpire_gets_copies_of_secret_rolls(svc: TableService) -> None:
    await ok(svc, ALICE, "game new", system="table", scenario="free")
    await ok(svc, CAROL, "game join", seat="umpire")
    out = await ok(svc, ALICE, "roll", dice="1d20", secret="true", purpose="weather")
    assert sorted(o.to or "" for o in out if o.kind == "dm") == ["alice", "carol"]


async def test_hands_are_private(svc: TableService) -> None:
    await ok(svc, ALICE, "deck new", name="cards", **{"from": "standard54"})
    out = await ok(svc, ALICE, "deck deal", name="cards", count="5", to="<@alice> <@bob>")
    dms = {o.to: o.text for o in out if o.kind == "dm"}
    assert set(dms) == {"alice", "bob"}
    public = public_text(out)
    for text in dms.values():
        for card in text.split(": ", 1)[1].split(", "):
            assert card not in public
    hand = await ok(svc, BOB, "hand")
    assert hand[0].kind == "ephemeral" and hand[0].to == "bob"
    first = dms["bob"].split(": ", 1)[1].split(", ")[0]
    played = await ok(svc, BOB, "play", card=first)
    assert first in public_text(played)
    assert errors(await run(svc, BOB, "play", card=first))


async def test_drawing_from_an_empty_deck(svc: TableService) -> None:
    await ok(svc, ALICE, "deck new", name="m", **{"from": "mines"})
    for _ in range(12):
        await ok(svc, ALICE, "deck draw", name="m")
    before = await versions(svc)
    out = await run(svc, ALICE, "deck draw", name="m")
    assert "empty" in errors(out)[0]
    assert await versions(svc) == before


async def test_sealed_orders_reveal_together(svc: TableService) -> None:
    await ok(svc, ALICE, "seal open", who="<@alice> <@bob>")
    first = await ok(svc, ALICE, "seal", text="advance on the left")
    assert "advance" not in public_text(first)
    assert [o.to for o in first if o.kind == "dm"] == ["alice"]
    both = await ok(svc, BOB, "seal", text="hold the ridge")
    text = public_text(both)
    assert "advance on the left" in text and "hold the ridge" in text
    assert errors(await run(svc, ALICE, "seal reveal"))


async def test_umpire_can_reveal_early(svc: TableService) -> None:
    await ok(svc, ALICE, "game new", system="table", scenario="free")
    await ok(svc, ALICE, "game join", seat="red")
    await ok(svc, BOB, "game join", seat="blue")
    await ok(svc, CAROL, "game join", seat="umpire")
    await ok(svc, ALICE, "seal", text="red plan")  # opens a round for the seated players
    assert errors(await run(svc, BOB, "seal reveal"))
    out = await ok(svc, CAROL, "seal reveal")
    assert "red plan" in public_text(out) and "did not seal" in public_text(out)


async def test_undo_rules(svc: TableService) -> None:
    await started_table(svc)
    await ok(svc, ALICE, "order", text="place A a1")
    await ok(svc, BOB, "order", text="place B h8")
    assert "own last order" in errors(await run(svc, ALICE, "game undo"))[0]
    out = await ok(svc, BOB, "game undo")
    assert "undid their last order (`place B h8`)" in public_text(out)
    orders = await svc.store.orders((await svc.store.live_game("c1")).id)  # type: ignore[union-attr]
    assert [o.undone for o in orders] == [False, True]
    # the state no longer has B; placing it again works
    await ok(svc, BOB, "order", text="place B h8")


async def test_undo_of_a_revealing_order_needs_the_umpire(svc: TableService) -> None:
    await ok(svc, ALICE, "game new", system="table", scenario="free")
    await ok(svc, ALICE, "game join", seat="red")
    await ok(svc, BOB, "game join", seat="blue")
    await ok(svc, CAROL, "game join", seat="umpire")
    await ok(svc, ALICE, "game start")
    await ok(svc, ALICE, "order", text="place A a1")
    await ok(svc, ALICE, "order", text="move A a2")
    await ok(svc, CAROL, "game undo")
    await ok(svc, CAROL, "game undo")
    orders = await svc.store.orders((await svc.store.live_game("c1")).id)  # type: ignore[union-attr]
    assert all(o.undone for o in orders)


async def test_spectators_may_look_but_not_order(svc: TableService) -> None:
    await started_table(svc)
    for command in ("game status", "game board", "game log"):
        out = await ok(svc, CAROL, command)
        assert out[0].kind == "ephemeral"
    assert errors(await run(svc, CAROL, "order", text="place X a1"))


async def test_manage_server_can_end_a_stuck_game(svc: TableService) -> None:
    await started_table(svc)
    assert errors(await run(svc, CAROL, "game end"))
    out = await ok(svc, ADMIN, "game end")
    assert "Seed:" in public_text(out)


async def test_assign_and_leave(svc: TableService) -> None:
    await started_table(svc)
    assert errors(await svc.handle("c1", ALICE, "game assign", {"seat": "peru", "user": "carol"}))
    assert not errors(await svc.handle("c1", ADMIN, "game assign", {"seat": "peru", "user": "<@carol>"}))
    await ok(svc, CAROL, "order", text="place C c3")
    await ok(svc, BOB, "game leave")
    assert errors(await run(svc, BOB, "order", text="place D d4"))


async def test_two_orders_at_once_are_serialised(svc: TableService) -> None:
    await started_table(svc)
    results = await asyncio.gather(
        *(svc.handle("c1", user, "order", {"text": f"place P{i} {chr(97 + i)}{1 if user is ALICE else 8}"})
          for i, user in enumerate([ALICE, BOB, ALICE, BOB, ALICE, BOB]))
    )
    assert all(not errors(r) for r in results)
    orders = await svc.store.orders((await svc.store.live_game("c1")).id)  # type: ignore[union-attr]
    assert [o.seq for o in orders] == [1, 2, 3, 4, 5, 6]
    game = await svc.store.live_game("c1")
    assert game is not None and game.version >= 6


async def test_reminders_ping_whoever_must_act_and_survive_restarts(tmp_path: Path) -> None:
    import tests.bot.duel  # noqa: F401
    from bot.store import Store

    now = [1_000_000.0]
    store = await Store.open(tmp_path / "r.db")
    svc = TableService(store, mention=lambda u: f"@{u}", clock=lambda: now[0])
    await ok(svc, ALICE, "game new", system="test-duel", scenario="race")
    await ok(svc, ALICE, "game join", seat="north")
    await ok(svc, BOB, "game join", seat="south")
    await ok(svc, ALICE, "game start")
    await ok(svc, ALICE, "order", text="pass")  # now South (bob) must act
    assert errors(await run(svc, CAROL, "game remind", after="1", every="2"))
    # a seated player may not either: reminders are the umpire's or a server manager's to set
    [refused] = errors(await run(svc, ALICE, "game remind", after="1", every="2"))
    assert "Only a member with Manage Server" in refused
    await ok(svc, ADMIN, "game remind", after="1", every="2")
    row = await store.live_game("c1")
    assert row is not None
    start = row.last_activity
    assert await svc.due_reminders(start + 1800) == []
    due = await svc.due_reminders(start + 3700)
    assert len(due) == 1 and "@bob" in due[0].text and "@alice" not in due[0].text
    assert await svc.due_reminders(start + 3800) == []  # not again before `every`
    await store.close()
    store = await Store.open(tmp_path / "r.db")  # a restart keeps the schedule
    svc = TableService(store, mention=lambda u: f"@{u}")
    assert await svc.due_reminders(start + 5000) == []
    assert len(await svc.due_reminders(start + 3700 + 7300)) == 1
    await store.close()


def test_parse_options_and_split() -> None:
    assert parse_options("sides=Peru,Chile,board=6x6") == {"sides": "Peru,Chile", "board": "6x6"}
    assert parse_options("") == {}
    with pytest.raises(ValueError, match="no value"):
        parse_options("oops")
    chunks = split_text("x" * 4500 + "\nshort", MAX_MESSAGE)
    assert all(len(c) <= MAX_MESSAGE for c in chunks) and "".join(chunks).replace("\n", "") == "x" * 4500 + "short"


async def test_board_zoom_is_validated_and_passed_on(svc: TableService) -> None:
    await started_table(svc)
    out = await ok(svc, CAROL, "game board", zoom="c4 3")
    assert out[0].zoom == ("c4", 3.0) and out[0].view is not None
    for bad in ("z9", "c4 x", "c4 3 4"):
        assert errors(await run(svc, CAROL, "game board", zoom=bad)), bad


async def test_a_system_can_refuse_to_start_with_the_seats_taken(svc: TableService) -> None:
    await ok(svc, ALICE, "game new", system="ironclad-draughts", scenario="duel", options="umpire_deals=yes")
    seats = [s for s in (await run(svc, ALICE, "game join", seat="?"))[0].text.split(": ")[1].split(", ") if s != "umpire"]
    for user, seat in zip([ALICE, BOB], seats, strict=True):
        await ok(svc, user, "game join", seat=seat)
    before = await versions(svc)
    assert "umpire seat" in errors(await run(svc, ALICE, "game start"))[0]
    assert await versions(svc) == before
    await ok(svc, CAROL, "game join", seat="umpire")
    await ok(svc, ALICE, "game start")


def test_names_match_from_any_word_on() -> None:
    from games.core.errors import resolve_name

    names = {"efm": "Erzherzog Ferdinand Max", "kaiser": "Kaiser"}
    assert resolve_name("Ferdinand Max", names, "ship") == "efm"
    assert resolve_name("max", names, "ship") == "efm"


async def test_replay_is_an_animation_of_spectator_frames(svc: TableService) -> None:
    await started_table(svc)
    assert "nothing to replay" in errors(await run(svc, CAROL, "game replay"))[0]
    await ok(svc, ALICE, "order", text="place A a1")
    await ok(svc, BOB, "order", text="place B h8")
    await ok(svc, ALICE, "order", text="move A a3")
    out = await ok(svc, CAROL, "game replay")
    assert out[0].kind == "ephemeral" and out[0].file is not None
    name, gif = out[0].file
    assert name.endswith(".gif") and gif[:6] in (b"GIF89a", b"GIF87a")
    from io import BytesIO

    from PIL import Image

    with Image.open(BytesIO(gif)) as img:
        assert img.n_frames == 4  # set-up and three orders


async def test_umpire_copies_say_whose_they_are(svc: TableService) -> None:
    import tests.bot.duel  # noqa: F401

    await ok(svc, ALICE, "game new", system="test-duel", scenario="race")
    await ok(svc, ALICE, "game join", seat="north")
    await ok(svc, BOB, "game join", seat="south")
    await ok(svc, CAROL, "game join", seat="umpire")
    await ok(svc, ALICE, "game start")
    out = await ok(svc, ALICE, "order", text="hide")
    dms = {o.to: o.text for o in out if o.kind == "dm" and "SECRET" in o.text}
    assert dms["alice"].startswith("SECRET-north")
    assert dms["carol"].startswith("[umpire copy, for North] SECRET-north")
    assert "bob" not in dms
