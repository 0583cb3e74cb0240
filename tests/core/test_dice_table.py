"""The new dice notation through /roll: labels shown but never pinging, secret rolls private, and
every roll re-derived by /tools verify (replay equality) from the published seed."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service import TableService, verify_export
from games.core.rng import check_seal
from tests.bot.helpers import ALICE, BOB, errors, make_service, ok, public_text, run


@pytest.fixture
async def svc(tmp_path: Path) -> AsyncIterator[TableService]:
    service = await make_service(tmp_path / "dice.db")
    yield service
    await service.store.close()


async def test_every_new_form_rolls_and_replays_identically(svc: TableService) -> None:
    texts = ["4d6kh3", "2d20kl1+3", "4d6dl1", "d%", "3d6!", "d20 adv+5", "d20+5 dis", "4d6kh3+1d4-2",
             "2d6+3 fire at Huascar", "2d6+3 # fire", "100d2!"]
    for text in texts:
        shown = public_text(await ok(svc, ALICE, "roll", dice=text))
        assert re.search(r"= \*\*-?\d+\*\*", shown), shown
    shown = public_text(await ok(svc, ALICE, "roll", dice="2d6+3 fire at Huascar"))
    assert "2d6+3 (fire at Huascar): 2d6 [" in shown
    out = await ok(svc, BOB, "tools verify")
    [message] = [o for o in out if o.kind == "message"]
    assert "**Verified**" in message.text and f"{len(texts) + 1} orders replayed" in message.text
    assert message.file is not None
    export = json.loads(message.file[1])
    assert verify_export(export).startswith("**Verified**")
    orders = [o["text"] for o in export["orders"]]
    assert "roll d20adv+5" in orders and "roll 2d6+3 # fire at Huascar" in orders


async def test_labels_cannot_ping_anyone(svc: TableService) -> None:
    shown = public_text(await ok(svc, ALICE, "roll", dice="1d6 @everyone <@bob> <@&1> @here **x**"))
    assert "@everyone" not in shown and "@here" not in shown and "@bob" not in shown
    assert "<@&" not in shown and "**x**" not in shown
    assert "\n@alice rolls 1d6 (" in shown  # the roller is still named (the test mention is @id)


async def test_a_label_too_long_is_refused_without_drawing(svc: TableService) -> None:
    refused = errors(await run(svc, ALICE, "roll", dice="1d6 # " + "x" * 5000))
    assert refused and "at most" in refused[0] and len(refused[0]) < 500
    assert await svc.store.tools("c1") is None  # nothing rolled, no stream opened


async def test_bad_new_notation_is_refused_by_the_service_quoting_it(svc: TableService) -> None:
    for text, fragment in (("4d6kh0", "keep between 1 and 4"), ("3d6!!", "3d6!"), ("d%%", "d%"),
                           ("d20+d4 adv", "which die")):
        refused = errors(await run(svc, ALICE, "roll", dice=text))
        assert refused and f"`{text}`" in refused[0] and fragment in refused[0], refused


async def test_a_secret_keep_roll_stays_private_until_revealed(svc: TableService) -> None:
    out = await ok(svc, ALICE, "roll", dice="4d6kh3", secret="true", purpose="ambush")
    public = public_text(out)
    [dm] = [o for o in out if o.kind == "dm"]
    assert dm.to == ALICE.id and re.search(r"4d6kh3 \[.*~~\d~~.*\] = \*\*\d+\*\*", dm.text)
    assert "4d6kh3" in public and "ambush" in public
    assert "[" not in public and "~~" not in public and "= **" not in public
    commitment = re.search(r"Commitment: `([0-9a-f]{64})`", public)
    revealed = public_text(await ok(svc, ALICE, "reveal", roll="1"))
    nonce = re.search(r"Nonce `([0-9a-f]{64})`", revealed)
    result = re.search(r"ambush\*: (.*)\n", revealed)
    assert commitment and nonce and result
    assert check_seal(result.group(1), nonce.group(1), commitment.group(1))


async def test_a_secret_roll_label_becomes_its_purpose(svc: TableService) -> None:
    out = await ok(svc, ALICE, "roll", dice="d20 adv # sneak past @everyone", secret="true")
    public = public_text(out)
    assert "sneak past @\u200beveryone" in public and "@everyone" not in public
    assert "= **" not in public
    out = await ok(svc, ALICE, "roll", dice="d20 # sneak", secret="true", purpose="night")
    assert "night: sneak" in public_text(out)


async def test_a_secret_roll_purpose_cannot_ping_either(svc: TableService) -> None:
    public = public_text(await ok(svc, ALICE, "roll", dice="1d6", secret="true", purpose="<@bob> **now** @everyone"))
    assert "for *@\u200bbob now @\u200beveryone*" in public and "<@" not in public
