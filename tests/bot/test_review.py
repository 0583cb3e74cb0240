"""Defects found in review: each test failed before its fix."""

from __future__ import annotations

import asyncio
import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tests.bot.duel  # noqa: F401  (registers test-duel)
from bot.rooms.seats import replay_state
from bot.service import Output, TableService, User, verify_export
from games.core.ruleset import get_ruleset
from tests.bot.helpers import ADMIN, ALICE, BOB, CAROL, UMP, errors, hex_duel, make_service, ok, public_text, run


async def test_secret_fire_order_text_stays_out_of_log_export_and_undo(svc: TableService) -> None:
    await hex_duel(svc)
    await ok(svc, ALICE, "order", text="Monitor fire Virginia")
    for viewer in (BOB, CAROL):  # the opponent and a spectator
        log = "\n".join(o.text for o in await ok(svc, viewer, "game log"))
        assert "Virginia" not in log and "hidden" not in log and "(no orders yet)" in log, log  # not even counted
        export = await ok(svc, viewer, "game export")
        blob = export[0].file[1].decode() if export[0].file else ""
        assert "Virginia" not in blob, blob
    own = "\n".join(o.text for o in await ok(svc, ALICE, "game log"))
    assert "Monitor fire Virginia" in own
    assert "Monitor fire Virginia" in "\n".join(o.text for o in await ok(svc, UMP, "game log"))
    undo = await ok(svc, ALICE, "game undo")
    assert "Virginia" not in public_text(undo) and "((" not in public_text(undo), public_text(undo)
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


MALFORMED: list[object] = [
    [],
    "export",
    {"seed": "zz", "commitment": "x"},
    {"seed": 5},
    {"seed": ["00"]},
    {"seed": "00", "commitment": "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d", "system": "table",
     "scenario": "free", "options": ["sides"], "orders": []},
    {"seed": "00", "commitment": "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d", "system": ["table"],
     "scenario": "free", "options": {}, "orders": []},
    {"seed": "00", "commitment": "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d", "system": "table",
     "scenario": "free", "options": {}, "orders": [{"seq": 1, "seat": "red", "text": 7, "undone": False, "events": []}]},
]


@pytest.mark.parametrize("data", MALFORMED)
async def test_verify_reports_malformed_exports_without_crashing(svc: TableService, data: object) -> None:
    assert "FAILED" in verify_export(data) or "no seed" in verify_export(data)  # type: ignore[arg-type]
    out = await run(svc, CAROL, "game verify", export=json.dumps(data))
    assert len(out) == 1 and ("FAILED" in out[0].text or "no seed" in out[0].text or out[0].kind == "error"), out


async def finished_duel_export(svc: TableService) -> dict[str, object]:
    await hex_duel(svc)
    await ok(svc, ALICE, "order", text="Monitor fire Virginia")
    await ok(svc, ALICE, "order", text="seal")
    await ok(svc, BOB, "order", text="Virginia fire Monitor")
    await ok(svc, BOB, "order", text="seal")
    await ok(svc, UMP, "game end")
    export = await ok(svc, CAROL, "game export")
    assert export[0].file is not None
    data: dict[str, object] = json.loads(export[0].file[1])
    assert "Verified" in verify_export(data)
    return data


@pytest.mark.parametrize("tamper", ["seed", "text", "seat", "event", "drop_event", "undone", "scenario"])
async def test_verify_fails_on_any_tampering(svc: TableService, tamper: str) -> None:
    data = await finished_duel_export(svc)
    orders = data["orders"]
    assert isinstance(orders, list)
    last = orders[-1]
    if tamper == "seed":
        data["seed"] = "00" * 32
    elif tamper == "text":
        orders[0]["text"] = "Monitor hold"
    elif tamper == "seat":
        orders[2]["seat"] = "union"
    elif tamper == "event":
        last["events"][0]["text"] = last["events"][0]["text"].replace("hit", "miss").replace("1", "2") + "!"
    elif tamper == "drop_event":
        last["events"].pop()
    elif tamper == "undone":
        orders[0]["undone"] = True
    elif tamper == "scenario":
        data["scenario"] = "hampton-roads"
    assert "FAILED" in verify_export(data)


@pytest.mark.slow
async def test_a_pasted_export_cannot_claim_the_bots_private_check(svc: TableService) -> None:
    data = await finished_duel_export(svc)
    data["_private"] = True
    out = await ok(svc, CAROL, "game verify", export=json.dumps(data))
    assert "still-secret seed" not in out[0].text and "Verified" in out[0].text
    deep = await run(svc, CAROL, "game verify", export="[" * 100_000)
    assert errors(deep) and "not valid JSON" in errors(deep)[0]


async def test_nickname_mentions_name_the_same_user(svc: TableService) -> None:
    """Discord writes a mention as ``<@123>`` or ``<@!123>``: both are the same person."""
    await ok(svc, ALICE, "deck new", name="d", **{"from": "standard52"})
    await ok(svc, ALICE, "deck deal", name="d", count="2", to="<@!bob> <@carol>")
    assert "You hold no cards" not in (await ok(svc, BOB, "hand"))[0].text
    await ok(svc, ALICE, "seal open", who="<@!alice> <@!bob>")
    await ok(svc, ALICE, "seal", text="attack at dawn")
    await ok(svc, UMP, "game new", system="table", scenario="free")
    await ok(svc, UMP, "game join", seat="umpire")
    assert not errors(await svc.handle("c1", UMP, "game assign", {"seat": "red", "user": "<@!carol>"}))
    await ok(svc, BOB, "game join", seat="blue")
    await ok(svc, UMP, "game start")
    await ok(svc, CAROL, "order", text="place X a1")


async def test_a_role_mention_is_not_a_user(svc: TableService) -> None:
    await ok(svc, ALICE, "deck new", name="d", **{"from": "standard52"})
    before = await versions(svc)
    out = await run(svc, ALICE, "deck deal", name="d", count="1", to="<@&42>")
    assert errors(out) and "role" in errors(out)[0].lower()
    assert await versions(svc) == before


async def umpired_table(svc: TableService) -> None:
    await ok(svc, UMP, "game new", system="table", scenario="free")
    await ok(svc, UMP, "game join", seat="umpire")
    await ok(svc, ALICE, "game join", seat="red")
    await ok(svc, BOB, "game join", seat="blue")
    await ok(svc, UMP, "game start")


@pytest.mark.slow
async def test_a_player_cannot_take_back_an_order_the_umpire_gave_for_their_seat(svc: TableService) -> None:
    await umpired_table(svc)
    await ok(svc, UMP, "order", text="place Ram a1", seat="red")
    before = await versions(svc)
    out = await run(svc, ALICE, "game undo")
    assert errors(out) and "umpire" in errors(out)[0], out
    assert await versions(svc) == before
    await ok(svc, ALICE, "order", text="place Own b2")
    await ok(svc, ALICE, "game undo")  # their own order they may still take back


@pytest.mark.parametrize(("command", "options"), [("order", {"text": "place X a1"}), ("game join", {"seat": "red"}),
                                                  ("game undo", {}), ("game start", {}), ("game end", {})])
async def test_commands_after_the_end_say_the_game_is_over(svc: TableService, command: str, options: dict[str, str]) -> None:
    await umpired_table(svc)
    await ok(svc, ALICE, "order", text="place X a1")
    await ok(svc, UMP, "game end")
    before = await versions(svc)
    out = await run(svc, UMP if command == "game undo" else ALICE, command, **options)
    assert errors(out) and "is over" in errors(out)[0] and "/game new" in errors(out)[0], out
    assert await versions(svc) == before


@pytest.mark.parametrize(("command", "options"), [("order", {"text": "hail " * 2000}),
                                                  ("roll", {"dice": "1d6", "secret": "true", "purpose": "p" * 7000}),
                                                  ("deck new", {"name": "d" * 7000, "from": "standard52"})])
async def test_huge_inputs_are_refused_before_anything_is_posted(svc: TableService, command: str, options: dict[str, str]) -> None:
    await umpired_table(svc)
    await ok(svc, ALICE, "roll", dice="1d6")
    before = await versions(svc)
    out = await run(svc, ALICE, command, **options)
    assert len(out) == 1 and errors(out) and "at most" in errors(out)[0], [o.text[:80] for o in out]
    assert await versions(svc) == before


@pytest.mark.parametrize(("command", "options", "bad"), [("roll", {"dice": "1d6", "secrte": "true"}, "secrte"),
                                                         ("order", {"txt": "place X a1"}, "txt"),
                                                         ("game new", {"system": "table", "scenaro": "free"}, "scenaro")])
async def test_an_unknown_option_is_refused_not_ignored(svc: TableService, command: str, options: dict[str, str], bad: str) -> None:
    """A misspelt ``secret`` must not turn a secret roll into a public one."""
    await ok(svc, ALICE, "roll", dice="1d6")
    before = await versions(svc)
    out = await run(svc, ALICE, command, **options)
    assert len(out) == 1 and errors(out) and f"`{bad}`" in errors(out)[0], out
    assert await versions(svc) == before


def test_every_command_lists_its_options(svc: TableService) -> None:
    from bot.service import COMMAND_OPTIONS

    assert sorted(COMMAND_OPTIONS) == svc.commands


async def test_a_sealed_text_may_start_with_open_or_be_reveal(svc: TableService) -> None:
    await ok(svc, ALICE, "seal open", who="<@alice> <@bob>")
    await ok(svc, ALICE, "seal", text="open fire on Esmeralda")
    out = await ok(svc, BOB, "seal", text="reveal")
    shown = public_text(out)
    assert "open fire on Esmeralda" in shown and "@bob: reveal" in shown, shown


async def test_reveal_without_a_number_says_which_rolls_exist(svc: TableService) -> None:
    await ok(svc, ALICE, "roll", dice="1d6", secret="true", purpose="ambush")
    out = await run(svc, ALICE, "reveal", roll="")
    assert errors(out) and "#1" in errors(out)[0], out


async def test_a_spectator_cannot_make_themself_umpire_of_a_running_game(svc: TableService) -> None:
    """The umpire sees every hand and sealed order: taking that seat mid-game needs Manage Server."""
    await ok(svc, ALICE, "game new", system="table", scenario="free")
    await ok(svc, ALICE, "game join", seat="red")
    await ok(svc, BOB, "game join", seat="blue")
    await ok(svc, ALICE, "game start")
    before = await versions(svc)
    out = await run(svc, CAROL, "game join", seat="umpire")
    assert errors(out) and "Manage Server" in errors(out)[0], out
    assert await versions(svc) == before
    await ok(svc, ADMIN, "game join", seat="umpire")


async def test_the_console_survives_a_command_that_crashes(svc: TableService) -> None:
    """One broken command must not end an interactive session or the rest of a script."""
    import io

    from bot.console import Console

    async def boom(channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        raise RuntimeError("bug in a handler")

    svc._handlers["hand"] = boom
    out = io.StringIO()
    console = Console(svc, out=out, as_json=True, images=None)
    status = await console.run_script(["/hand", "/roll dice:1d6"])
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    assert status == 1
    assert records[0]["kind"] == "error" and "bug in a handler" in records[0]["text"]
    assert records[1]["kind"] == "done" and not records[1]["ok"]
    assert any(r["kind"] == "message" and "rolls" in r["text"] for r in records)


async def test_a_crash_does_not_pass_for_an_expected_failure(svc: TableService) -> None:
    import io

    from bot.console import Console

    async def boom(channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        raise RuntimeError("bug")

    svc._handlers["hand"] = boom
    console = Console(svc, out=io.StringIO(), as_json=True, images=None)
    assert await console.run_script(["! /hand"]) == 1


@pytest.mark.parametrize("value", ["on", "Y", "maybe", "ture"])
async def test_a_secret_flag_that_is_not_plainly_false_never_rolls_in_public(svc: TableService, value: str) -> None:
    await ok(svc, ALICE, "roll", dice="1d6")
    before = await versions(svc)
    out = await run(svc, ALICE, "roll", dice="1d6", secret=value, purpose="ambush")
    if errors(out):
        assert "secret" in errors(out)[0] and await versions(svc) == before
    else:
        assert "secret roll #1" in public_text(out), out


async def test_to_hand_is_read_in_any_case(svc: TableService) -> None:
    await ok(svc, ALICE, "deck new", name="d", **{"from": "standard52"})
    out = await ok(svc, ALICE, "deck draw", name="d", to="Hand")
    assert "into their hand" in public_text(out)


UNDO_ACTIONS = st.lists(
    st.tuples(st.sampled_from([ALICE, BOB, CAROL]), st.sampled_from(["roll", "hide", "spend", "pass", "undo", "undo"])),
    max_size=30,
)


@pytest.mark.slow
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(UNDO_ACTIONS)
def test_replay_equals_snapshot_after_undo_sequences(actions: list[tuple[User, str]]) -> None:
    """Orders and undos (by players and the umpire) in any mix: the log's replay is the snapshot,
    a refused undo changes nothing, and the bot's own verification passes."""

    async def scenario() -> None:
        with tempfile.TemporaryDirectory() as d:
            svc = await make_service(Path(d) / "u.db")
            try:
                await ok(svc, ALICE, "game new", system="test-duel", scenario="race")
                await ok(svc, ALICE, "game join", seat="north")
                await ok(svc, BOB, "game join", seat="south")
                await ok(svc, CAROL, "game join", seat="umpire")
                await ok(svc, ALICE, "game start")
                for user, action in actions:
                    before = await svc.store.latest_game("c1")
                    assert before is not None
                    if before.status == "over":
                        break
                    out = await (run(svc, user, "game undo") if action == "undo" else run(svc, user, "order", text=action))
                    after = await svc.store.latest_game("c1")
                    assert after is not None
                    if errors(out):
                        assert (after.version, after.counter, after.snapshot) == (before.version, before.counter, before.snapshot)
                row = await svc.store.latest_game("c1")
                assert row is not None
                rules = get_ruleset("test-duel")
                state, counter = replay_state(rules, row, await svc.store.orders(row.id, include_undone=False))
                assert rules.encode(state) == row.snapshot and counter == row.counter
                assert "Verified" in (await ok(svc, CAROL, "game verify"))[0].text
            finally:
                await svc.store.close()

    asyncio.run(scenario())


async def test_a_game_whose_system_no_longer_loads_does_not_stop_reminders_elsewhere(svc: TableService) -> None:
    for channel in ("c1", "c2"):
        await ok(svc, ALICE, "game new", channel, system="test-duel", scenario="race")
        await ok(svc, ALICE, "game join", channel, seat="north")
        await ok(svc, BOB, "game join", channel, seat="south")
        await ok(svc, ALICE, "game start", channel)
    await svc.store._db.raw.execute("UPDATE games SET system = 'retired-system' WHERE channel = 'c1'")
    await svc.store._db.raw.commit()
    due = await svc.due_reminders(svc.clock() + 10 * 86400)
    assert [o.channel for o in due] == ["c2"]
    assert (await svc.channel_state("c1"))[0] == "running"
    out = await run(svc, ALICE, "order", "c1", text="pass")
    assert errors(out) and "retired-system" in errors(out)[0]


async def test_the_bots_own_check_names_no_secret_order_text_when_it_fails(svc: TableService) -> None:
    await hex_duel(svc)
    await ok(svc, ALICE, "order", text="Monitor fire Virginia")
    await svc.store._db.raw.execute("""UPDATE orders SET events = '[{"text": "x", "to": null, "reveals": false}]'""")
    await svc.store._db.raw.commit()
    report = (await ok(svc, CAROL, "game verify"))[0].text
    # nor its number: "order 5" would say four orders came before it, hidden ones included
    assert "FAILED" in report and "an order" in report and "order 1" not in report and "Virginia" not in report, report


async def test_the_bots_own_check_quotes_no_secret_order_when_replay_breaks(svc: TableService) -> None:
    await hex_duel(svc)
    await ok(svc, ALICE, "order", text="Monitor fire Virginia")
    await svc.store._db.raw.execute("UPDATE orders SET seat = 'confederate'")  # replay now refuses the order
    await svc.store._db.raw.commit()
    report = (await ok(svc, CAROL, "game verify"))[0].text
    # nor its number: "order 5" would say four orders came before it, hidden ones included
    assert "FAILED" in report and "an order" in report and "order 1" not in report and "Virginia" not in report, report


@pytest.mark.parametrize("sides", ["Umpire,Blue", "Red,UMPIRE", "Red," + "B" * 41])
async def test_free_table_side_names_cannot_pose_as_the_umpire_or_flood_messages(svc: TableService, sides: str) -> None:
    """A side called Umpire would get the seat id ``umpire`` and with it the umpire's powers."""
    out = await run(svc, ALICE, "game new", system="table", scenario="free", options=f"sides={sides}")
    assert errors(out) and "sides=" in errors(out)[0], out
    assert await svc.store.latest_game("c1") is None


@pytest.mark.parametrize("label", ["<@123>", "@everyone", "X" * 25])
async def test_free_table_piece_labels_are_short_and_ping_nobody(svc: TableService, label: str) -> None:
    await ok(svc, ALICE, "game new", system="table", scenario="free")
    await ok(svc, ALICE, "game join", seat="red")
    await ok(svc, BOB, "game join", seat="blue")
    await ok(svc, ALICE, "game start")
    before = await versions(svc)
    out = await run(svc, ALICE, "order", text=f"place {label} a1")
    assert errors(out) and "label" in errors(out)[0].lower(), out
    assert await versions(svc) == before
    await ok(svc, ALICE, "order", text="place Huáscar_2 a1")


@pytest.mark.parametrize(("user", "text"), [(CAROL, "I am only watching"), (ALICE, "x" * 1600)])
async def test_a_refused_seal_opens_no_round_in_a_game_channel(svc: TableService, user: User, text: str) -> None:
    await umpired_table(svc)
    await ok(svc, ALICE, "roll", dice="1d6")
    before = await versions(svc)
    out = await run(svc, user, "seal", text=text)
    assert len(out) == 1 and errors(out), out
    assert await versions(svc) == before
    await ok(svc, ALICE, "seal", text="advance")  # the round opens now, with the two players
    await ok(svc, BOB, "seal", text="hold")


async def test_a_refused_first_table_command_stores_nothing(svc: TableService) -> None:
    out = await run(svc, ALICE, "deck draw", "fresh", name="nope")
    assert errors(out)
    assert await svc.store.tools("fresh") is None


async def test_assign_keeps_the_umpire_and_the_sides_apart_as_join_does(svc: TableService) -> None:
    await umpired_table(svc)
    before = await versions(svc)
    for seat, target in (("red", "<@ump>"), ("umpire", "<@bob>")):
        out = await svc.handle("c1", ADMIN, "game assign", {"seat": seat, "user": target})
        assert errors(out) and "umpire" in errors(out)[0].lower(), out
    assert await versions(svc) == before
    await ok(svc, ALICE, "game leave")
    assert not errors(await svc.handle("c1", UMP, "game assign", {"seat": "red", "user": "<@carol>"}))


def test_an_option_given_twice_is_refused_not_silently_overridden() -> None:
    from bot.service import parse_options
    from games.core.errors import GameError

    with pytest.raises(GameError, match="twice"):
        parse_options("sides=Peru,Chile,board=8x8,sides=Red,Blue")


async def test_a_player_cannot_undo_an_order_that_told_them_a_random_secret(svc: TableService) -> None:
    """``hide`` tells North a secret die: undoing it would let North see the next die before choosing."""
    await ok(svc, ALICE, "game new", system="test-duel", scenario="race")
    await ok(svc, ALICE, "game join", seat="north")
    await ok(svc, BOB, "game join", seat="south")
    await ok(svc, CAROL, "game join", seat="umpire")
    await ok(svc, ALICE, "game start")
    await ok(svc, ALICE, "order", text="hide")
    before = await versions(svc)
    out = await run(svc, ALICE, "game undo")
    assert errors(out) and "umpire" in errors(out)[0], out
    assert await versions(svc) == before
    await ok(svc, CAROL, "game undo")  # the umpire may
    await ok(svc, ALICE, "order", text="pass")
    await ok(svc, ALICE, "game undo")  # nothing random or private: the player may


async def test_an_open_round_nobody_sealed_can_be_closed_so_it_never_blocks_the_channel(svc: TableService) -> None:
    await ok(svc, ALICE, "seal open", who="<@bob> <@carol>")
    assert errors(await run(svc, BOB, "seal reveal"))  # only the opener or the umpire
    out = await ok(svc, ALICE, "seal reveal")
    assert "did not seal" in public_text(out)
    await ok(svc, BOB, "seal open", who="<@alice> <@bob>")  # the channel is free again
    assert errors(await run(svc, CAROL, "seal reveal"))  # still nothing to reveal once a round is closed


async def test_system_and_scenario_ids_are_read_in_any_case(svc: TableService) -> None:
    out = await ok(svc, ALICE, "game new", system="Table", scenario="FREE")
    assert "Free table" in public_text(out)
    row = await svc.store.live_game("c1")
    assert row is not None and (row.system, row.scenario) == ("table", "free")


async def test_naming_someone_twice_deals_to_them_once(svc: TableService) -> None:
    await ok(svc, ALICE, "deck new", name="d", **{"from": "standard52"})
    out = await ok(svc, ALICE, "deck deal", name="d", count="2", to="<@bob> <@!bob>")
    assert public_text(out).count("@bob") == 1, public_text(out)
    hand = (await ok(svc, BOB, "hand"))[0].text
    assert len(hand.split(": ", 1)[1].split(", ")) == 2, hand
