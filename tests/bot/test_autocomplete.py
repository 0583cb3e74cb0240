"""Autocomplete for every option that names something (issue 13, item 6): one path, the service's
``choice_pairs``, told the options typed so far, offering only what the asker may see."""

from __future__ import annotations

import pytest

from bot.commands import COMMANDS
from bot.rooms.choices import COMPLETERS
from bot.service import TableService, User
from games.core.ruleset import UMPIRE, get_ruleset, system_ids
from tests.bot.helpers import ALICE, BOB, CAROL, errors, ok, run

SYSTEMS = [s for s in system_ids() if not s.startswith("test-")]


async def values(svc: TableService, user: User, command: str, option: str, current: str = "",
                 **given: str) -> list[str]:
    return [v for _, v in await svc.choice_pairs("c1", user, command, option, current, given)]


async def seated_game(svc: TableService, system: str) -> dict[str, User]:
    """A started game of ``system``'s first scenario with a user in every player seat."""
    rules = get_ruleset(system)
    await ok(svc, CAROL, "game new", system=system, scenario=rules.scenarios()[0].id)
    row = await svc.store.live_game("c1")
    assert row is not None
    users = {}
    for seat in rules.seats(rules.decode(row.snapshot)):
        if seat.id != UMPIRE:
            users[seat.id] = User(f"u-{seat.id}", seat.label)
            await ok(svc, users[seat.id], "game join", seat=seat.id)
    await ok(svc, CAROL, "game start")
    return users


def test_every_named_option_is_completed_through_the_service() -> None:
    """The options the issue names all have a completer the service implements (bot/rooms/choices.py)."""
    wanted = {("play", "card"), ("deck draw", "name"), ("deck deal", "name"), ("deck shuffle", "name"),
              ("reveal", "roll"), ("game assign", "seat"), ("game board", "zoom"), ("order", "seat"),
              ("order", "text"), ("game join", "seat"), ("game new", "scenario"), ("play", "deck")}
    for command, option in wanted:
        param = next(p for p in COMMANDS[command].params if p.name == option)
        assert param.complete and param.complete in COMPLETERS, (command, option)
    completers = {p.complete for c in COMMANDS.values() for p in c.params if p.complete}
    assert completers <= set(COMPLETERS)


async def test_hand_cards_are_offered_only_to_their_holder(svc: TableService) -> None:
    await ok(svc, ALICE, "deck new", name="cards", **{"from": "standard52"})
    await ok(svc, ALICE, "deck deal", name="cards", count="3", to="<@alice>")
    hand = await values(svc, ALICE, "play", "card")
    assert len(hand) == 3
    assert await values(svc, BOB, "play", "card") == []  # a hand is secret: nothing for anyone else
    first = hand[0]
    assert await values(svc, ALICE, "play", "card", first) == [first]
    await ok(svc, ALICE, "play", card=first)
    assert first not in await values(svc, ALICE, "play", "card")
    assert await values(svc, ALICE, "deck draw", "name") == ["cards"]
    assert await values(svc, ALICE, "play", "deck") == ["cards"]


async def test_only_your_own_unrevealed_secret_rolls_are_offered(svc: TableService) -> None:
    await ok(svc, ALICE, "roll", dice="2d6", secret="true", purpose="ambush")
    await ok(svc, BOB, "roll", dice="1d6", secret="true", purpose="morale")
    pairs = await svc.choice_pairs("c1", ALICE, "reveal", "roll", "")
    assert pairs == [("#1 ambush", "1")]
    assert await values(svc, BOB, "reveal", "roll") == ["2"]
    assert await values(svc, CAROL, "reveal", "roll") == []
    await ok(svc, ALICE, "reveal", roll="1")
    assert await values(svc, ALICE, "reveal", "roll") == []


async def test_assign_offers_every_seat_with_its_holder_and_order_offers_your_seats(svc: TableService) -> None:
    users = await seated_game(svc, "ironclad-draughts")
    seat, user = next(iter(users.items()))
    pairs = await svc.choice_pairs("c1", CAROL, "game assign", "seat", "")
    assert any(value == seat and f"held by {user.name}" in label for label, value in pairs)
    assert await values(svc, user, "order", "seat") == [seat]
    assert await values(svc, CAROL, "order", "seat") == []


async def test_orders_follow_the_seat_typed(svc: TableService) -> None:
    await ok(svc, CAROL, "game new", system="table", scenario="free", options="sides=A,B")
    await ok(svc, ALICE, "game join", seat="a")
    await ok(svc, ALICE, "game join", seat="b")
    both = await values(svc, ALICE, "order", "text")
    assert both == await values(svc, ALICE, "order", "text", seat="nonsense")  # unknown seat: all of yours
    assert set(await values(svc, ALICE, "order", "text", seat="a")) <= set(both)


@pytest.mark.parametrize("system", SYSTEMS)
async def test_every_zoom_suggestion_is_a_place_the_board_accepts(svc: TableService, system: str) -> None:
    """Each suggestion names a visible unit and, chosen, zooms the board without an error."""
    users = await seated_game(svc, system)
    for user in [*users.values(), CAROL]:
        pairs = await svc.choice_pairs("c1", user, "game board", "zoom", "")
        if system in ("hex-ironclads", "ironclad-draughts", "oak-and-iron"):  # ships on the board from the start
            assert pairs, system
        for label, value in pairs[:5]:
            assert value in label
            assert not errors(await run(svc, user, "game board", zoom=value)), (system, label)
    row = await svc.store.live_game("c1")
    assert row is not None
    rules = get_ruleset(system)
    public = {c.label for c in rules.view(rules.decode(row.snapshot), None).counters if not c.face_down}
    for label, _ in await svc.choice_pairs("c1", CAROL, "game board", "zoom", ""):
        assert label.rsplit(" (", 1)[0] in public  # a spectator is offered only what the public board shows


async def test_scenarios_and_options_follow_the_system_typed(svc: TableService) -> None:
    table = await values(svc, ALICE, "game new", "scenario", system="table")
    assert table == [s.id for s in get_ruleset("table").scenarios()]
    assert len(await values(svc, ALICE, "game new", "scenario")) > len(table)  # no system yet: all
    options = await values(svc, ALICE, "game new", "options", "sides=A,", system="table")
    assert options and all(o.startswith("sides=A,") for o in options)
    systems = await svc.choice_pairs("c1", ALICE, "game new", "system", "")
    assert ("Free table (table)" in [label for label, _ in systems]) or any(v == "table" for _, v in systems)
    assert await values(svc, ALICE, "game new", "system", "nosuch") == []


async def test_no_game_or_unknown_option_completes_to_nothing(svc: TableService) -> None:
    assert await values(svc, ALICE, "order", "text") == []
    assert await values(svc, ALICE, "game board", "zoom") == []
    assert await values(svc, ALICE, "game assign", "seat") == []
    assert await values(svc, ALICE, "roll", "dice") == []  # free text: no completer
    assert await values(svc, ALICE, "no such", "thing") == []
