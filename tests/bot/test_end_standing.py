"""/game end stops a game before its rules end it; a system that counts its own result says where
the game stood (Days of Iron's 18.2 margin, counted from the table), the others add nothing."""

from __future__ import annotations

from bot.service import TableService, User
from tests.bot.helpers import ALICE, BOB, CAROL, ok, public_text


async def started(svc: TableService, system: str, scenario: str, seats: tuple[str, str],
                  creator: User = ALICE) -> None:
    await ok(svc, creator, "game new", system=system, scenario=scenario)
    await ok(svc, ALICE, "game join", seat=seats[0])
    await ok(svc, BOB, "game join", seat=seats[1])
    await ok(svc, creator, "game start")


async def test_ending_a_days_of_iron_battle_counts_the_margin(svc: TableService) -> None:
    await started(svc, "days-of-iron", "meeting", ("french", "prussian"))
    for user in (ALICE, BOB):
        await ok(svc, user, "order", text="staff")
        await ok(svc, user, "order", text="ready")
    ended = public_text(await ok(svc, ALICE, "game end"))
    assert "Had the battle ended here (18.2):" in ended
    assert "Points (18.2):" in ended and "lost 0 of" in ended
    assert ended.index("Had the battle ended here") < ended.index("Seed:")


async def test_the_standing_comes_with_the_last_vote_too(svc: TableService) -> None:
    await started(svc, "days-of-iron", "meeting", ("french", "prussian"), creator=CAROL)  # Carol seats no side
    for user in (ALICE, BOB):
        await ok(svc, user, "order", text="staff")
        await ok(svc, user, "order", text="ready")
    first = public_text(await ok(svc, BOB, "game end"))
    assert "Had the battle ended here" not in first  # a vote alone ends nothing
    last = public_text(await ok(svc, ALICE, "game end"))
    assert "Had the battle ended here (18.2):" in last


async def test_a_battle_still_in_its_set_up_has_no_standing(svc: TableService) -> None:
    await started(svc, "days-of-iron", "meeting", ("french", "prussian"))
    ended = public_text(await ok(svc, ALICE, "game end"))
    assert "ended the game" in ended and "Had the battle ended here" not in ended


async def test_systems_without_their_own_count_add_nothing(svc: TableService) -> None:
    await started(svc, "hex-ironclads", "angamos", ("peru", "chile"))
    ended = public_text(await ok(svc, ALICE, "game end"))
    assert ended.startswith("@alice ended the game.\nSeed:")
