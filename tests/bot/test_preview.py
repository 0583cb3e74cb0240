"""/order preview:true (issue 15 item 3): where an order would leave the asker's pieces, drawn for
them alone; nothing is stored, no random number is spent or shown, nothing hidden is revealed."""

from __future__ import annotations

import tests.bot.duel  # noqa: F401  (registers test-duel)
from bot.service import TableService, User
from games.core.preview import moved_pieces
from games.core.view import View
from tests.bot.helpers import CAROL, errors, ok, run

ALICE, BOB = User("alice", "Alice"), User("bob", "Bob")


async def oak_and_iron_at_movement(svc: TableService) -> None:
    """The quick start (tests/scripts/oak_and_iron/quickstart.txt) up to Bob's first activation."""
    await ok(svc, ALICE, "game new", system="oak-and-iron", scenario="quickstart")
    await ok(svc, ALICE, "game join", seat="a")
    await ok(svc, BOB, "game join", seat="b")
    await ok(svc, ALICE, "game start")
    for user, text in [(ALICE, "initiative Down!"), (BOB, "initiative Take Courage"),
                       (ALICE, "initiative Rolling Broadside"), (BOB, "initiative Reload")]:
        await ok(svc, user, "order", text=text)


async def stored(svc: TableService) -> tuple[int, int, int]:
    row = await svc.store.live_game("c1")
    assert row is not None
    return row.version, row.counter, len(await svc.store.orders(row.id))


async def test_a_move_is_previewed_for_the_asker_only_and_nothing_is_stored(svc: TableService) -> None:
    await oak_and_iron_at_movement(svc)
    before = await stored(svc)
    out = await ok(svc, BOB, "order", text="Corvette move turn-start starboard 15", preview="true")
    assert [o.kind for o in out] == ["ephemeral"] and out[0].to == "bob"
    assert "Nothing has been ordered" in out[0].text
    view = out[0].view
    assert isinstance(view, View) and view.title.startswith("Preview (not ordered): Corvette move")
    ghosts = [c for c in view.counters if c.ghost]
    assert [g.label for g in ghosts] == ["Corvette"]
    real = next(c for c in view.counters if c.id == "corvette" or (c.label == "Corvette" and not c.ghost))
    assert (real.pos, real.facing) != (ghosts[0].pos, ghosts[0].facing)  # the ghost stands where it would end
    assert any(o.kind == "path" for o in view.overlays)
    # Oak & Iron adds its aiming aids from where the ship would stand: range rings, both broadside
    # paths, and a line (with the measured distance) to each enemy ship a broadside could fire on
    assert {o.kind for o in view.overlays} >= {"ring", "arc", "fire"}
    assert [o.text for o in view.overlays if o.kind == "fire"] == ['starboard: 11.67" (Cannon Shot)']
    assert await stored(svc) == before  # no order, no version, not one number of the stream
    await ok(svc, BOB, "order", text="Corvette move turn-start starboard 15")  # and the real order still goes
    assert (await stored(svc))[0] == before[0] + 1


async def test_an_order_that_rolls_cannot_be_previewed(svc: TableService) -> None:
    """The test duel's ``roll`` draws a d6 from the game's stream: a preview would spend or show it."""
    await ok(svc, ALICE, "game new", system="test-duel", scenario="race")
    await ok(svc, ALICE, "game join", seat="north")
    await ok(svc, BOB, "game join", seat="south")
    await ok(svc, ALICE, "game start")
    before = await stored(svc)
    out = await ok(svc, ALICE, "order", text="roll", preview="true")
    assert "rolls dice, so it cannot be previewed" in out[0].text and out[0].view is None
    assert await stored(svc) == before
    out = await ok(svc, ALICE, "order", text="pass", preview="true")  # draws nothing: a picture, no ghosts
    assert "no piece of yours would move" in out[0].text and out[0].view is not None
    assert await stored(svc) == before


async def test_bad_previews_are_refused_and_change_nothing(svc: TableService) -> None:
    await oak_and_iron_at_movement(svc)
    before = await stored(svc)
    assert errors(await run(svc, CAROL, "order", text="Corvette move", preview="true"))  # no seat
    assert errors(await run(svc, BOB, "order", text="Corvette fly", preview="true"))  # not an order
    assert errors(await run(svc, ALICE, "order", text="Sloop move", preview="true"))  # not Alice's turn
    assert errors(await run(svc, BOB, "order", text="?", preview="true"))
    assert await stored(svc) == before


async def test_only_the_askers_own_pieces_get_ghosts(svc: TableService) -> None:
    """A ghost is drawn only for a face-up piece of the asker's side that the order moves."""
    await oak_and_iron_at_movement(svc)
    out = await ok(svc, BOB, "order", text="Corvette move turn-start starboard 15", preview="true")
    view = out[0].view
    assert view is not None
    assert {c.side for c in view.counters if c.ghost} == {"b"}
    assert moved_pieces(view, view, None) == []


async def test_a_mistyped_preview_flag_orders_nothing(svc: TableService) -> None:
    """preview:ture from the console must not be read as false and give the order for real."""
    await oak_and_iron_at_movement(svc)
    before = await stored(svc)
    out = await run(svc, BOB, "order", text="Corvette move turn-start starboard 15", preview="ture")
    assert errors(out) and "preview:`ture` is neither true nor false" in errors(out)[0]
    assert await stored(svc) == before
    assert "secret:`maybe` is neither" in errors(await run(svc, ALICE, "roll", dice="2d6", secret="maybe"))[0]
    assert "confirm:`maybe` is neither" in errors(await run(svc, ALICE, "game concede", confirm="maybe"))[0]
    assert "thread:`maybe` is neither" in errors(await run(svc, ALICE, "game new", system="table", thread="maybe",
                                                           channel="c2"))[0]
    assert await stored(svc) == before
