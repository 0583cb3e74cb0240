"""Channel table tools are auditable like games: the channel sees its stream's seed commitment at
the first tool use, and /tools verify publishes that seed on request, re-derives every roll and card
from it, and starts a new committed stream. It is refused while the seed would give away a secret."""

from __future__ import annotations

import hashlib
import json
import re

import pytest

from bot.service import TableService, verify_export
from tests.bot.helpers import ALICE, BOB, CAROL, errors, ok, public_text, run

COMMITMENT = re.compile(r"Seed commitment: `([0-9a-f]{64})`")


async def test_the_first_tool_use_shows_the_stream_commitment_once(svc: TableService) -> None:
    first = public_text(await ok(svc, ALICE, "roll", dice="2d6"))
    shown = COMMITMENT.findall(first)
    tools = await svc.store.tools("c1")
    assert tools is not None and shown == [hashlib.sha256(tools.seed).hexdigest()] == [tools.commitment]
    assert not COMMITMENT.search(public_text(await ok(svc, BOB, "roll", dice="1d6")))


async def test_a_refused_first_command_shows_no_commitment_and_opens_no_stream(svc: TableService) -> None:
    out = await run(svc, ALICE, "deck draw", name="nosuch")
    assert errors(out) and not COMMITMENT.search(public_text(out))
    assert await svc.store.tools("c1") is None


async def test_verify_publishes_the_seed_checks_every_roll_and_starts_a_new_stream(svc: TableService) -> None:
    opened = public_text(await ok(svc, ALICE, "roll", dice="3d6+1"))
    await ok(svc, BOB, "deck new", name="cards", **{"from": "standard52"})
    await ok(svc, BOB, "deck draw", name="cards")
    await ok(svc, ALICE, "roll", dice="2doak")
    old = await svc.store.tools("c1")
    assert old is not None

    out = await ok(svc, CAROL, "tools verify")
    [message] = [o for o in out if o.kind == "message"]
    assert f"`{old.seed.hex()}`" in message.text
    assert COMMITMENT.findall(opened)[0] == hashlib.sha256(old.seed).hexdigest()
    assert "**Verified**: seed matches commitment" in message.text and "4 orders replayed" in message.text
    new_commitment = COMMITMENT.findall(message.text)
    new = await svc.store.tools("c1")
    assert new is not None and new.id != old.id and new_commitment == [new.commitment] != [old.commitment]
    assert "**cards**" in message.text  # its draw pile was shuffled again from the new stream

    # the attached export verifies on its own (anyone can check it with the documented procedure)
    assert message.file is not None
    export = json.loads(message.file[1])
    assert export["seed"] == old.seed.hex() and export["status"] == "published"
    assert verify_export(export).startswith("**Verified**")
    export["orders"][0]["events"][0]["text"] = "<@alice> rolls 3d6+1: 6+6+6+1 = 19"
    assert verify_export(export).startswith("**Verification FAILED**")

    # the table goes on: the deck is still there with its cards, the next roll uses the new stream
    assert not errors(await run(svc, BOB, "deck draw", name="cards"))
    assert not errors(await run(svc, ALICE, "roll", dice="1d6"))
    renewed = await svc.store.tools("c1")
    assert renewed is not None and renewed.id == new.id and renewed.version == new.version + 2


async def test_a_second_stream_that_carried_the_table_over_verifies_too(svc: TableService) -> None:
    await ok(svc, ALICE, "deck new", name="cards", **{"from": "standard52"})
    await ok(svc, ALICE, "deck draw", name="cards")
    await ok(svc, ALICE, "tools verify")
    await ok(svc, BOB, "deck draw", name="cards")
    await ok(svc, BOB, "deck shuffle", name="cards")
    out = await ok(svc, ALICE, "tools verify")
    [message] = [o for o in out if o.kind == "message"]
    assert "**Verified**" in message.text and "2 orders replayed" in message.text
    assert message.file is not None
    export = json.loads(message.file[1])
    carried = json.loads(export["options"]["carry"])
    pile = carried["decks"]["cards"]["draw_pile"]
    assert pile == sorted(pile) and len(pile) == 51  # which cards, never their order


@pytest.mark.parametrize(("steps", "secret"), [
    ([("roll", {"dice": "1d6", "secret": "true", "purpose": "ambush"})], "unrevealed secret roll #1"),
    ([("deck new", {"name": "cards", "from": "standard52"}), ("deck draw", {"name": "cards", "to": "hand"})],
     "the cards in the hands of"),
    ([("seal open", {"who": "<@alice> <@bob>"}), ("seal", {"text": "hold"})], "the open sealed round"),
])
async def test_verify_is_refused_while_the_seed_would_give_a_secret_away(
    svc: TableService, steps: list[tuple[str, dict[str, str]]], secret: str
) -> None:
    for command, options in steps:
        await ok(svc, ALICE, command, **options)
    before = await svc.store.tools("c1")
    out = await run(svc, BOB, "tools verify")
    [error] = errors(out)
    assert secret in error and "Publishing this channel's seed now would give away" in error
    assert before is not None and before.seed.hex() not in error
    assert not public_text(out)
    after = await svc.store.tools("c1")
    assert after is not None and (after.id, after.version) == (before.id, before.version)  # nothing changed


async def test_verify_once_the_secret_is_revealed(svc: TableService) -> None:
    await ok(svc, ALICE, "roll", dice="1d6", secret="true", purpose="ambush")
    assert errors(await run(svc, ALICE, "tools verify"))
    await ok(svc, ALICE, "reveal", roll="1")
    out = await ok(svc, ALICE, "tools verify")
    assert "**Verified**" in public_text(out)


async def test_verify_with_no_stream_or_an_unused_one_is_refused(svc: TableService) -> None:
    assert errors(await run(svc, ALICE, "tools verify")) == [
        "This channel has no table-tools stream yet: nothing to verify. "
        "Its first /roll, /deck or /seal starts one and shows its commitment."
    ]
    await ok(svc, ALICE, "roll", dice="1d6")
    await ok(svc, ALICE, "tools verify")
    [error] = errors(await run(svc, ALICE, "tools verify"))  # the new stream has drawn nothing yet
    assert error.startswith("Nothing has been drawn from this channel's stream")


async def test_a_published_stream_is_not_taken_for_the_channels_game(svc: TableService) -> None:
    await ok(svc, ALICE, "roll", dice="1d6")
    await ok(svc, ALICE, "tools verify")
    [error] = errors(await run(svc, ALICE, "game log"))
    assert "game" in error.lower() and "published" not in error.lower()
    await ok(svc, ALICE, "game new", system="table", scenario="free", options="sides=Peru,Chile")
    assert "Table tools" not in public_text(await ok(svc, ALICE, "game status"))
