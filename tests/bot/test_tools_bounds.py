"""Table-tool streams are bounded (issue 26): the stream's state keeps only unrevealed secret rolls
(each roll and reveal is its own log entry), unrevealed rolls are capped per channel and per user,
/game private answers one page at a time, and /tools close starts a new stream while keeping the
old one's unrevealed rolls sealed, revealable, and checkable against their commitments."""

from __future__ import annotations

import hashlib
import json
import re

import pytest

from bot.rooms.tools import MAX_UNREVEALED, MAX_UNREVEALED_PER_USER
from bot.service import TableService, User
from games.tools import TOOLS
from tests.bot.helpers import ALICE, BOB, errors, ok, public_text, run

NUMBER = re.compile(r"secret roll #(\d+)")
REVEALED = re.compile(r"Secret roll #\d+ by \S+ for \*[^*]*\*: (.+)\nNonce `([0-9a-f]+)`; check: .* commitment `([0-9a-f]{64})`")


async def secret(svc: TableService, user: User, purpose: str = "ambush") -> int:
    out = await ok(svc, user, "roll", dice="2d6", secret="true", purpose=purpose)
    return int(NUMBER.findall(public_text(out))[0])


@pytest.mark.slow
async def test_revealed_rolls_leave_the_stream_state_so_it_does_not_grow(svc: TableService) -> None:
    sizes = []
    for _ in range(40):
        number = await secret(svc, ALICE)
        await ok(svc, ALICE, "reveal", roll=str(number))
        row = await svc.store.tools("c1")
        assert row is not None
        sizes.append(len(json.dumps(row.snapshot)))
    assert number == 40  # numbering goes on
    assert sizes[-1] - sizes[0] <= 2  # only the count's digits; the old code's state kept all 40 rolls
    row = await svc.store.tools("c1")
    assert row is not None and TOOLS.decode(row.snapshot).rolls == []
    assert len(await svc.store.orders(row.id)) == 80  # each roll and each reveal is its own entry


@pytest.mark.slow
async def test_unrevealed_rolls_are_capped_per_user_and_per_channel(svc: TableService) -> None:
    for _ in range(MAX_UNREVEALED_PER_USER):
        await secret(svc, ALICE)
    before = await svc.store.tools("c1")
    out = await run(svc, ALICE, "roll", dice="2d6", secret="true")
    assert errors(out) == [f"You hold {MAX_UNREVEALED_PER_USER} unrevealed secret rolls here, the most it keeps "
                           f"({MAX_UNREVEALED_PER_USER}), so nothing was rolled. Reveal some with /reveal roll:<n>, or "
                           "start a new stream with /tools close (the unrevealed rolls stay sealed and can still be "
                           "revealed)."]
    after = await svc.store.tools("c1")
    assert before is not None and after is not None and after.version == before.version
    await ok(svc, ALICE, "roll", dice="2d6")  # an open roll is no secret to keep: still fine
    users = [User(f"u{i}", f"U{i}") for i in range(MAX_UNREVEALED // MAX_UNREVEALED_PER_USER)]
    for user in users[1:]:
        for _ in range(MAX_UNREVEALED_PER_USER):
            await secret(svc, user)
    out = await run(svc, BOB, "roll", dice="2d6", secret="true")
    assert errors(out) and errors(out)[0].startswith(
        f"This channel holds {MAX_UNREVEALED} unrevealed secret rolls, the most it keeps ({MAX_UNREVEALED})")
    await ok(svc, ALICE, "reveal", roll="1")
    await secret(svc, BOB)  # a reveal makes room


async def test_game_private_is_paged_and_says_how_many_pages(svc: TableService) -> None:
    for i in range(MAX_UNREVEALED_PER_USER):
        await secret(svc, ALICE, purpose=f"roll {i} " + "x" * 900)
    first = await ok(svc, ALICE, "game private")
    assert len(first) == 1 and first[0].kind == "ephemeral"
    head = re.match(r"Page 1 of (\d+) \(/game private page:2 for the next\):\n", first[0].text)
    assert head is not None and int(head.group(1)) >= 4
    pages = int(head.group(1))
    shown = [first[0].text]
    for page in range(2, pages + 1):
        out = await ok(svc, ALICE, "game private", page=str(page))
        assert len(out) == 1 and out[0].text.startswith(f"Page {page} of {pages}")
        shown.append(out[0].text)
    assert all(f"roll {i} " in "".join(shown) for i in range(MAX_UNREVEALED_PER_USER))  # nothing lost
    assert errors(await run(svc, ALICE, "game private", page=str(pages + 1))) == [
        f"No private page `{pages + 1}`. Pages run 1 to {pages}."]


async def test_close_keeps_unrevealed_rolls_sealed_revealable_and_verifiable(svc: TableService) -> None:
    await ok(svc, BOB, "deck new", name="cards", **{"from": "standard52"})
    first = await secret(svc, ALICE)
    assert errors(await run(svc, ALICE, "tools verify"))  # publishing the seed would give roll #1 away
    old = await svc.store.tools("c1")
    assert old is not None
    closed = public_text(await ok(svc, BOB, "tools close"))
    assert f"closed this channel's table-tools stream (commitment `{old.commitment}`)" in closed
    assert "#1" in closed and old.seed.hex() not in closed
    [sealed] = await svc.store.sealed_streams("c1")
    assert sealed.id == old.id and sealed.status == "sealed"
    new = await svc.store.tools("c1")
    assert new is not None and new.id != old.id and "cards" in TOOLS.decode(new.snapshot).decks
    assert await secret(svc, ALICE) == first + 1  # numbers go on across streams
    private = "\n".join(o.text for o in await ok(svc, ALICE, "game private"))
    assert "Secret roll #1 (" in private and "Secret roll #2 (" in private
    assert errors(await run(svc, BOB, "reveal", roll="1")) == ["Only @alice or the umpire may reveal secret roll #1."]
    revealed = public_text(await ok(svc, ALICE, "reveal", roll="1"))
    match = REVEALED.search(revealed)
    assert match is not None
    result, nonce, digest = match.groups()
    assert hashlib.sha256(f"{nonce}:{result}".encode()).hexdigest() == digest
    await ok(svc, ALICE, "reveal", roll="2")
    verified = await ok(svc, BOB, "tools verify")
    text = public_text(verified)
    assert f"commitment `{old.commitment}` has every secret roll revealed, so its seed is published: `{old.seed.hex()}`" in text
    assert text.count("**Verified**") == 2 and "FAILED" not in text  # the closed stream, then the current one
    assert not await svc.store.sealed_streams("c1")


async def test_close_is_refused_when_it_would_give_away_a_hand_or_is_not_needed(svc: TableService) -> None:
    assert errors(await run(svc, ALICE, "tools close")) == [
        "This channel's table tools have nothing to close yet. /roll secret:true, /deck or /seal start a stream."]
    await ok(svc, ALICE, "roll", dice="d6")
    assert "Use /tools verify" in errors(await run(svc, ALICE, "tools close"))[0]
    await ok(svc, BOB, "deck new", name="cards", **{"from": "standard52"})
    await ok(svc, BOB, "deck draw", name="cards", to="hand")
    await secret(svc, ALICE)
    before = await svc.store.tools("c1")
    refused = errors(await run(svc, ALICE, "tools close"))
    assert refused and "the cards in the hands of @bob" in refused[0]
    after = await svc.store.tools("c1")
    assert before is not None and after is not None and after.id == before.id and after.version == before.version


async def test_a_stream_stored_before_the_change_still_reads(svc: TableService) -> None:
    """Streams stored by the old code keep every roll (revealed ones too) and no count."""
    for _ in range(3):
        await secret(svc, ALICE)
    await ok(svc, ALICE, "reveal", roll="2")
    row = await svc.store.tools("c1")
    assert row is not None
    state = TOOLS.decode(row.snapshot)
    old_shape = TOOLS.encode(state)
    old_shape.pop("made")
    rolls = {r["number"]: r for r in old_shape["rolls"]}
    rolls[2] = dict(rolls[1], number=2, revealed=True)
    old_shape["rolls"] = [rolls[n] for n in sorted(rolls)]
    await svc.store.update_game(row, snapshot=old_shape)
    assert await secret(svc, ALICE) == 4
    assert errors(await run(svc, ALICE, "reveal", roll="2")) == ["Secret roll #2 is already revealed."]
    await ok(svc, ALICE, "reveal", roll="3")
    private = "\n".join(o.text for o in await ok(svc, ALICE, "game private"))
    assert "Secret roll #1 (" in private and "#2" not in private and "#3" not in private and "Secret roll #4 (" in private
