"""What a new player met playing through the console with only ``/help`` read (play-test of
issue d24): each answer here once said something twice, nothing, or the wrong thing."""

from __future__ import annotations

from bot.service import TableService
from tests.bot.helpers import ALICE, BOB, UMP, hex_duel, ok


async def test_sealing_fire_orders_sends_the_sealer_one_dm(svc: TableService) -> None:
    """The seal's private note ("Your sealed fire orders: ... nonce") and the sealer's own view DM
    said the same thing in two DMs; now it is one DM, with the view, holding the nonce once."""
    await hex_duel(svc)
    await ok(svc, ALICE, "order", text="Monitor hold")
    out = await ok(svc, ALICE, "order", text="seal")
    to_alice = [o for o in out if o.kind == "dm" and o.to == ALICE.id]
    assert len(to_alice) == 1, [o.text for o in to_alice]
    assert to_alice[0].view is not None  # the one DM carries the board as the seat sees it
    assert to_alice[0].text.count("nonce") == 1 and "Turn 1, Union: Monitor hold" in to_alice[0].text
    # the umpire still gets the labelled copy, once; Bob (still writing) gets nothing private
    assert [o.text[:30] for o in out if o.kind == "dm" and o.to == UMP.id] == ["[umpire copy, for Union] Your "]
    assert not [o for o in out if o.kind == "dm" and o.to == BOB.id]
