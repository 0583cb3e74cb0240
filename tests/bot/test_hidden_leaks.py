"""Hidden orders leave no count and no timing (issue 13, item 1), through the table service.

A hex-ironclads fire order is secret until the seal: nothing about it may reach anyone but its
seat and the umpire while the game runs. Each test gives a secret order and checks that what an
opponent or a spectator can ask for (/game log, /game export, /game replay, /game verify, the
channel after /game undo) is exactly what it was before, so they can neither count the secret
orders nor tell when one was given. Each failed before its fix.
"""

from __future__ import annotations

import json

import pytest

import tests.bot.duel  # noqa: F401  (registers test-duel)
from bot.rooms import lifecycle
from bot.service import Output, TableService, User
from tests.bot.helpers import ALICE, BOB, CAROL, UMP, errors, hex_duel, ok, run


async def log_of(svc: TableService, user: User) -> str:
    return "\n".join(o.text for o in await ok(svc, user, "game log"))


async def export_of(svc: TableService, user: User) -> object:
    (out,) = await ok(svc, user, "game export")
    assert out.file is not None
    return json.loads(out.file[1])


async def replay_of(svc: TableService, user: User) -> tuple[str, bytes | None]:
    outputs = await run(svc, user, "game replay")
    if errors(outputs):
        return errors(outputs)[0], None
    (out,) = outputs
    return out.text, out.file[1] if out.file else None


async def what_others_see(svc: TableService) -> list[object]:
    """Everything the opponent (Bob) and a spectator (Carol) can ask for about the record."""
    seen: list[object] = []
    for viewer in (BOB, CAROL):
        seen += [await log_of(svc, viewer), await export_of(svc, viewer), await replay_of(svc, viewer)]
    seen.append((await ok(svc, CAROL, "game verify"))[0].text)
    return seen


def channel_posts(outputs: list[Output]) -> list[str]:
    return [o.text for o in outputs if o.kind == "message"]


@pytest.mark.slow
async def test_a_secret_order_changes_nothing_an_opponent_or_spectator_can_ask_for(svc: TableService) -> None:
    await hex_duel(svc)
    await ok(svc, ALICE, "order", text="Monitor fire Virginia")
    await ok(svc, ALICE, "order", text="seal")  # public: "Union has sealed"
    before = await what_others_see(svc)
    assert "[union]" in str(before[0]) and "hidden" in str(before[0])  # the seal is listed: the channel saw it

    await ok(svc, BOB, "order", text="Virginia fire Monitor")  # Bob's own secret: Carol must not notice
    carol_after = [await log_of(svc, CAROL), await export_of(svc, CAROL), await replay_of(svc, CAROL)]
    assert carol_after == before[3:6]
    assert (await ok(svc, CAROL, "game verify"))[0].text == before[6]
    assert "Virginia fire Monitor" in await log_of(svc, BOB)


async def test_the_log_numbers_only_the_lines_its_reader_sees(svc: TableService) -> None:
    await hex_duel(svc)
    for text in ("Monitor fire Virginia", "Monitor hold", "Monitor fire Virginia", "seal"):
        await ok(svc, ALICE, "order", text=text)
    spectator = (await ok(svc, CAROL, "game log"))[0].text.splitlines()
    assert len(spectator) == 2 and spectator[1].startswith("1. [union]"), spectator  # the seal alone, as 1
    assert "hidden" in spectator[1] and "Union has sealed" in spectator[1]
    own = (await ok(svc, ALICE, "game log"))[0].text.splitlines()[1:]
    assert [line.split(".", 1)[0] for line in own] == ["4", "3", "2", "1"]
    assert "Monitor hold" in own[2]


async def test_a_running_games_export_holds_what_its_asker_may_see_and_the_end_reveals_all(svc: TableService) -> None:
    await hex_duel(svc)
    await ok(svc, ALICE, "order", text="Monitor fire Virginia")
    await ok(svc, ALICE, "order", text="Monitor hold")
    others = await export_of(svc, BOB)
    assert isinstance(others, dict) and others["orders"] == [] and "seed" not in others
    own = await export_of(svc, ALICE)
    assert isinstance(own, dict)
    assert [(o["seq"], o["text"]) for o in own["orders"]] == [(1, "Monitor fire Virginia"), (2, "Monitor hold")]
    assert all(e["to"] is None for o in own["orders"] for e in o["events"])  # private events only at the end
    await ok(svc, UMP, "game end")
    final = await export_of(svc, CAROL)
    assert isinstance(final, dict) and "seed" in final
    assert [o["text"] for o in final["orders"]] == ["Monitor fire Virginia", "Monitor hold"]


async def test_undoing_a_secret_order_is_as_quiet_as_giving_it(svc: TableService) -> None:
    await hex_duel(svc)
    await ok(svc, ALICE, "order", text="Monitor fire Virginia")
    before = await what_others_see(svc)
    undo = await ok(svc, ALICE, "game undo")
    assert channel_posts(undo) == [], channel_posts(undo)
    (note,) = [o for o in undo if o.kind == "ephemeral"]
    assert note.to == ALICE.id and "Monitor fire Virginia" in note.text and "nothing was posted" in note.text
    assert not any(ch.isdigit() for ch in note.text), note.text  # no order number
    assert await what_others_see(svc) == before
    # the umpire's undo of a secret order is quiet too; the seat's player hears of it privately
    await ok(svc, ALICE, "order", text="Monitor hold")
    by_umpire = await ok(svc, UMP, "game undo")
    assert channel_posts(by_umpire) == []
    assert [(o.kind, o.to) for o in by_umpire] == [("ephemeral", UMP.id), ("dm", ALICE.id)]
    assert "Monitor hold" in by_umpire[1].text


async def test_undoing_a_public_order_still_tells_the_channel(svc: TableService) -> None:
    await ok(svc, ALICE, "game new", system="table", scenario="free", options="sides=Peru,Chile")
    await ok(svc, ALICE, "game join", seat="peru")
    await ok(svc, BOB, "game join", seat="chile")
    await ok(svc, ALICE, "game start")
    await ok(svc, ALICE, "order", text="place A a1")
    (post,) = channel_posts(await ok(svc, ALICE, "game undo"))
    assert "undid their last order (`place A a1`)" in post and "order 1" not in post


async def test_concede_ends_with_the_shared_game_over_block(svc: TableService, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ending reads the same: /game concede builds its block with ``game_over_lines``."""
    await hex_duel(svc)
    calls: list[str | None] = []
    real = lifecycle.game_over_lines

    def spy(outcome: object, row: object, game: object) -> list[str]:
        calls.append(getattr(outcome, "winner", None))
        return real(outcome, row, game)  # type: ignore[arg-type]

    monkeypatch.setattr(lifecycle, "game_over_lines", spy)
    (post,) = channel_posts(await ok(svc, BOB, "game concede", confirm="true"))
    assert calls == ["union"]
    lines = post.splitlines()
    assert lines[-2].startswith("**Game over.** Winner: Union.") and "conceded" in lines[-2]
    assert lines[-1].startswith("Seed: `")


async def test_an_order_offer_answers_anyone_but_the_player_to_act_alike_whatever_its_version(svc: TableService) -> None:
    """Checked again under the channel's lock (a click can race an order): the seat first, then
    the version, so a stale click by someone else does not say "out of date" (a hidden order moved it)."""
    await ok(svc, ALICE, "game new", system="test-duel", scenario="race")
    await ok(svc, ALICE, "game join", seat="north")
    await ok(svc, BOB, "game join", seat="south")
    await ok(svc, ALICE, "game start")  # north (Alice) to act
    row = await svc.store.live_game("c1")
    assert row is not None
    answers = []
    for user in (BOB, CAROL):
        for version in (row.version, row.version - 1):
            out = await svc.handle("c1", user, "order", {"text": "pass"}, offered=(row.id, version))
            answers.append(errors(out))
    assert answers == [[answers[0][0]]] * 4 and "for the player to act now" in answers[0][0], answers
    stale = await svc.handle("c1", ALICE, "order", {"text": "pass"}, offered=(row.id, row.version - 1))
    assert "out of date" in errors(stale)[0]


async def test_a_hidden_order_leaves_end_votes_standing_and_a_public_one_clears_them(svc: TableService) -> None:
    """End votes count while the game stands as everyone sees it: if a secret fire order cleared
    them, /game status would show the votes vanish and so tell that it was given."""
    await hex_duel(svc)
    await ok(svc, BOB, "game end")  # Bob votes (1/2)
    assert "Votes to end" in (await ok(svc, CAROL, "game status"))[0].text
    await ok(svc, ALICE, "order", text="Monitor fire Virginia")  # secret
    status = (await ok(svc, CAROL, "game status"))[0].text
    assert "Votes to end" in status and "(1/2 players)" in status
    await ok(svc, ALICE, "order", text="seal")  # public: "Union has sealed"
    assert "Votes to end" not in (await ok(svc, CAROL, "game status"))[0].text
    assert "votes to end the game (1/2 players)" in (await ok(svc, BOB, "game end"))[0].text
