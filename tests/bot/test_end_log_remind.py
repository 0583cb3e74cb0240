"""What /game end, /game log and /game remind do is what their texts say (issue 13, item 2).

/game end: the umpire, whoever created the game, or a Manage Server member end it at once; seated
players end it by all voting (votes are bookkeeping, survive a restart, and lapse when the game
moves on); spectators are refused. /game log: page 1 is the newest. /game remind: only the umpire or
a Manage Server member.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.service import LOG_PAGE, TableService, User
from tests.bot.helpers import ADMIN, ALICE, BOB, CAROL, errors, make_service, ok, public_text, run

DAVE = User("dave", "Dave")
UMP = User("ump", "Umpire")


async def three_sides(svc: TableService, creator: User = CAROL) -> None:
    """A running free table created by ``creator`` (who takes no seat) with alice, bob, dave seated."""
    await ok(svc, creator, "game new", system="table", scenario="free", options="sides=Peru,Chile,Bolivia")
    await ok(svc, ALICE, "game join", seat="peru")
    await ok(svc, BOB, "game join", seat="chile")
    await ok(svc, DAVE, "game join", seat="bolivia")
    await ok(svc, ALICE, "game start")


async def status(svc: TableService) -> str:
    row = await svc.store.latest_game("c1")
    assert row is not None
    return row.status


# --- /game end ---------------------------------------------------------------------------------
async def test_players_end_the_game_by_all_voting(svc: TableService) -> None:
    await three_sides(svc)
    before = (await svc.store.live_game("c1")).version  # type: ignore[union-attr]
    first = await ok(svc, ALICE, "game end")
    assert [o.kind for o in first] == ["message"]
    assert "@alice votes to end the game (1/3 players)" in first[0].text
    assert "@bob @dave: /game end to agree" in first[0].text
    row = await svc.store.live_game("c1")
    assert row is not None and row.version == before  # a vote is not a game change
    again = await run(svc, ALICE, "game end")
    assert "already voted" in errors(again)[0] and "(1/3 players)" in errors(again)[0]
    assert "@bob votes to end the game (2/3 players)" in public_text(await ok(svc, BOB, "game end"))
    assert "Votes to end: @alice @bob (2/3 players)" in (await ok(svc, CAROL, "game status"))[0].text
    assert await status(svc) == "running"
    last = public_text(await ok(svc, DAVE, "game end"))
    assert "All 3 players agreed to end the game" in last and "Seed:" in last
    assert await status(svc) == "over"


async def test_votes_survive_a_restart(tmp_path: Path) -> None:
    svc = await make_service(tmp_path / "t.db")
    await three_sides(svc)
    await ok(svc, ALICE, "game end")
    await ok(svc, BOB, "game end")
    await svc.store.close()
    svc = await make_service(tmp_path / "t.db", seed_start=100)  # a restart
    try:
        assert "(2/3 players)" in errors(await run(svc, BOB, "game end"))[0]
        assert "All 3 players agreed" in public_text(await ok(svc, DAVE, "game end"))
        assert await status(svc) == "over"
    finally:
        await svc.store.close()


async def test_an_order_clears_the_votes(svc: TableService) -> None:
    await three_sides(svc)
    await ok(svc, ALICE, "game end")
    await ok(svc, BOB, "game end")
    await ok(svc, ALICE, "order", text="place Huascar d1 N")  # the game moved on
    assert "Votes to end" not in (await ok(svc, CAROL, "game status"))[0].text
    assert "(1/3 players)" in public_text(await ok(svc, DAVE, "game end"))
    assert await status(svc) == "running"


async def test_a_seat_change_clears_the_votes(svc: TableService) -> None:
    await three_sides(svc)
    await ok(svc, ALICE, "game end")
    await ok(svc, BOB, "game end")
    await ok(svc, DAVE, "game leave")  # the players to agree are now alice and bob, who must vote again
    assert "(1/2 players)" in public_text(await ok(svc, ALICE, "game end"))
    assert "All 2 players agreed" in public_text(await ok(svc, BOB, "game end"))


async def test_spectators_are_refused_and_change_nothing(svc: TableService) -> None:
    await three_sides(svc, creator=ALICE)
    await ok(svc, BOB, "game end")
    outsider = User("eve", "Eve")
    [error] = errors(await run(svc, outsider, "game end"))
    assert "hold no seat" in error and "Only the umpire, whoever created the game, or a member with Manage Server" in error
    assert "Votes to end: @bob (1/3 players)" in (await ok(svc, outsider, "game status"))[0].text


@pytest.mark.parametrize("who", ["umpire", "creator", "admin"])
async def test_umpire_creator_and_server_managers_end_at_once(svc: TableService, who: str) -> None:
    await ok(svc, ALICE, "game new", system="table", scenario="free", options="sides=Peru,Chile")
    await ok(svc, BOB, "game join", seat="peru")
    await ok(svc, CAROL, "game join", seat="chile")
    await ok(svc, UMP, "game join", seat="umpire")
    await ok(svc, BOB, "game start")
    user = {"umpire": UMP, "creator": ALICE, "admin": ADMIN}[who]
    out = public_text(await ok(svc, user, "game end"))
    assert f"@{user.id} ended the game" in out and "Seed:" in out
    assert await status(svc) == "over"


async def test_the_umpire_seat_does_not_vote(svc: TableService) -> None:
    """Seated players are the sides' players: the umpire ends at once, so only the sides vote."""
    await ok(svc, CAROL, "game new", system="table", scenario="free", options="sides=Peru,Chile")
    await ok(svc, ALICE, "game join", seat="peru")
    await ok(svc, BOB, "game join", seat="chile")
    await ok(svc, UMP, "game join", seat="umpire")
    await ok(svc, ALICE, "game start")
    assert "(1/2 players)" in public_text(await ok(svc, ALICE, "game end"))
    assert "All 2 players agreed" in public_text(await ok(svc, BOB, "game end"))


# --- /game log ---------------------------------------------------------------------------------
async def test_log_page_one_is_the_newest(svc: TableService) -> None:
    await ok(svc, ALICE, "game new", system="table", scenario="free", options="sides=Peru,Chile")
    await ok(svc, ALICE, "game join", seat="peru")
    await ok(svc, BOB, "game join", seat="chile")
    await ok(svc, ALICE, "game start")
    total = LOG_PAGE * 2 + 3
    for i in range(total):
        await ok(svc, ALICE, "order", text=f"place P{i} {'abcdefgh'[i % 8]}{i // 8 + 1}")
    first = (await ok(svc, ALICE, "game log", page="1"))[0].text
    assert first.startswith("Log page 1 of 3, newest first")
    assert "/game log page:2 for older orders" in first
    seqs = [int(line.split(".", 1)[0]) for line in first.splitlines()[1:]]
    assert seqs == list(range(total, total - LOG_PAGE, -1))
    assert (await ok(svc, ALICE, "game log"))[0].text == first  # no page: the newest
    last = (await ok(svc, ALICE, "game log", page="3"))[0].text
    assert last.startswith("Log page 3 of 3, newest first") and "older orders" not in last
    assert [int(line.split(".", 1)[0]) for line in last.splitlines()[1:]] == [3, 2, 1]
    assert "Pages run 1 (newest) to 3 (oldest)" in errors(await run(svc, ALICE, "game log", page="4"))[0]


# --- /game remind ------------------------------------------------------------------------------
async def test_only_the_umpire_or_a_server_manager_change_reminders(svc: TableService) -> None:
    await three_sides(svc)
    [refused] = errors(await run(svc, ALICE, "game remind", after="1", every="2"))
    assert refused.startswith("Only a member with Manage Server can change this game's reminders")
    await ok(svc, ADMIN, "game remind", after="1", every="2")
    await ok(svc, CAROL, "game end")

    await ok(svc, CAROL, "game new", system="table", scenario="free", options="sides=Peru,Chile")
    await ok(svc, ALICE, "game join", seat="peru")
    await ok(svc, UMP, "game join", seat="umpire")
    [refused] = errors(await run(svc, ALICE, "game remind", after="1", every="2"))
    assert refused.startswith("Only the umpire (@ump) or a member with Manage Server can change")
    assert "after 3 h" in public_text(await ok(svc, UMP, "game remind", after="3", every="4"))


# --- the Discord command descriptions say the same --------------------------------------------
def test_discord_descriptions_say_who_and_which_page() -> None:
    from discord import app_commands

    from bot.slash import build_commands

    game = next(c for c in build_commands() if c.name == "game")
    assert isinstance(game, app_commands.Group)
    described = {c.name: c for c in game.commands if isinstance(c, app_commands.Command)}
    end = described["end"].description
    assert "umpire, creator or Manage Server" in end and "players: all must vote" in end, end
    assert "newest first" in described["log"].description
    [page] = described["log"].parameters
    assert page.description == "Page number (1 = the newest orders)"
    assert "umpire or Manage Server" in described["remind"].description
    assert all(len(c.description) <= 100 for c in described.values())
