"""The table service's rooms (bot/rooms/) and its facade: what the split itself added, the binding
of commands to handlers by reference, and the shared helpers no command test reaches directly."""

from __future__ import annotations

import dataclasses
from typing import Any, get_args

import pytest

from bot.commands import COMMAND_LIST, Command, Completer
from bot.rooms.choices import COMPLETERS
from bot.rooms.common import STATE_CACHE, Loaded, Output, User
from bot.rooms.delivery import route
from bot.rooms.lifecycle import Lifecycle
from bot.rooms.seats import users_for
from bot.service import TableService, _bind
from bot.storage import GameRow
from games.core.rng import Rng
from games.core.ruleset import UMPIRE, Event, get_ruleset
from games.tools import TOOLS
from tests.bot.helpers import ALICE, BOB, CAROL, ok


def _row(**changes: Any) -> GameRow:
    row = GameRow(id=1, channel="c1", system="table", scenario="free", options={}, seed=bytes(32), commitment="",
                  status="running", version=3, snapshot=None, counter=0, seats={}, creator="alice", created=0.0,
                  updated=0.0)
    return dataclasses.replace(row, **changes)


def test_every_command_is_bound_to_a_method_of_one_of_the_services_rooms(svc: TableService) -> None:
    rooms = (svc.lifecycle, svc.orders, svc.tools, svc.records, svc.reminders, svc.help, svc.web)
    for command in COMMAND_LIST:
        owners = [room for room in rooms if command.handler in vars(type(room)).values()]
        assert len(owners) == 1, command.name
    assert set(svc.commands) == {c.name for c in COMMAND_LIST}


async def test_a_handler_of_no_room_is_refused_when_the_service_is_made() -> None:
    async def stray(room: Any, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        return []

    with pytest.raises(KeyError):
        _bind([Command("stray", stray, "not a room's method")], (Lifecycle.__new__(Lifecycle),))


def test_every_completer_the_command_table_can_name_is_implemented() -> None:
    assert set(COMPLETERS) == set(get_args(Completer)) - {""}


async def test_decoded_states_are_cached_per_version_and_the_oldest_goes_first(svc: TableService) -> None:
    await ok(svc, ALICE, "game new", system="table", scenario="free")
    row = await svc.store.live_game("c1")
    assert row is not None
    first = svc.table.decode(row)
    assert svc.table.decode(row).state is first.state  # decoded once per (game, version, status)
    for version in range(1, STATE_CACHE + 1):
        svc.table.decode(dataclasses.replace(row, version=row.version + version))
    assert len(svc.table.states) == STATE_CACHE
    assert svc.table.decode(row).state is not first.state  # pushed out by newer ones, decoded afresh


def test_an_empty_seat_waits_on_the_umpire() -> None:
    row = _row(seats={"red": {"user": "alice"}, UMPIRE: {"user": "carol"}})
    assert users_for(row, ["red", "blue"]) == ["alice", "carol"]
    assert users_for(dataclasses.replace(row, seats={"red": {"user": "alice"}}), ["red", "blue"]) == ["alice"]


def test_a_private_event_goes_to_its_seats_users_and_a_labelled_copy_to_the_umpire() -> None:
    rules = get_ruleset("table")
    state = rules.setup("free", {}, Rng(bytes(32)))
    row = _row(seats={"red": {"user": "alice"}, "blue": {"user": "bob"}, UMPIRE: {"user": "carol"}})
    outputs = route(Loaded(row, rules, state), [Event("all see"), Event("red only", frozenset({"red"}))], umpire="carol")
    assert [(o.kind, o.to, o.text) for o in outputs] == [
        ("message", None, "all see"), ("dm", "alice", "red only"), ("dm", "carol", "[umpire copy, for Red] red only")]
    tools = route(Loaded(_row(system=TOOLS.id), TOOLS, None), [Event("your card", frozenset({BOB.id}))], umpire=CAROL.id)
    assert [(o.to, o.text) for o in tools] == [(BOB.id, "your card"), (CAROL.id, f"[umpire copy, for <@{BOB.id}>] your card")]
