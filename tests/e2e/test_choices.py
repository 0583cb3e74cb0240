"""Choices under the bot's replies, end to end: a select menu when there are more than five, no
offer past 25, old offers greyed out once the game moves on, and a click on an out-of-date offer
refused (its ids carry the game and version it was offered for) even after a restart."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.discord_app import TableBot
from bot.discord_choices import OUT_OF_DATE, JoinButton, OrderButton, PickMenu, make_offer
from games.core import ruleset
from games.core.errors import IllegalOrder, NotYourTurn, quote
from games.core.rng import Rng
from games.core.ruleset import Event, Order, Outcome, Ruleset, ScenarioInfo, Seat, public, register
from games.core.view import Board, SideInfo, View
from tests.e2e.conftest import BotRunner
from tests.e2e.fake_discord import FakeDiscord, FakeMessage, FakeUser, component
from tests.e2e.race_game import registered as race_registered

pytestmark = pytest.mark.e2e

# scenario -> (seats, orders offered to whoever is to act)
SCENARIOS = {
    "eight": (["north", "south"], [f"steer {i}" for i in range(1, 9)]),
    "thirty": (["north", "south"], [f"steer {i}" for i in range(1, 31)]),
    "crowd": ([f"s{i}" for i in range(1, 8)], ["steer 1", "steer 2"]),
    "solo": (["north", "south"], ["steer 1", "steer 2"]),  # north acts every time
}


@dataclass
class SteerState:
    scenario: str
    turn: int = 0
    log: list[str] = field(default_factory=list)


class Steer(Ruleset[SteerState, Order]):
    """Seats take turns choosing one of their scenario's orders; it never ends."""

    id = "e2e-steer"
    name = "Steer (test)"
    state_type = SteerState
    public_orders = True  # nothing hidden: order buttons may be public

    def scenarios(self) -> list[ScenarioInfo]:
        return [ScenarioInfo(s, s) for s in SCENARIOS]

    def setup(self, scenario: str, options: dict[str, str], rng: Rng) -> SteerState:
        return SteerState(scenario)

    def _seats(self, state: SteerState) -> list[str]:
        return SCENARIOS[state.scenario][0]

    def seats(self, state: SteerState) -> list[Seat]:
        return [Seat(s, s.title(), s, optional=i > 1) for i, s in enumerate(self._seats(state))]

    def to_act(self, state: SteerState) -> list[str]:
        return [self._seats(state)[0 if state.scenario == "solo" else state.turn % 2]]

    def legal_orders(self, state: SteerState, seat: str) -> list[Order]:
        return [Order(text) for text in self.order_texts(state, seat)]

    def order_texts(self, state: SteerState, seat: str) -> list[str]:
        return list(SCENARIOS[state.scenario][1]) if seat in self.to_act(state) else []

    def parse_order(self, state: SteerState, seat: str, text: str) -> Order:
        if text not in SCENARIOS[state.scenario][1]:
            raise IllegalOrder(f"{quote(text)} is not an order.")
        return Order(text)

    def apply(self, state: SteerState, seat: str, order: Order, rng: Rng) -> list[Event]:
        if seat not in self.to_act(state):
            raise NotYourTurn("Not your turn.")
        state.turn += 1
        state.log.append(order.text)
        return [public(f"{seat.title()} chose {order.text}.")]

    def view(self, state: SteerState, seat: str | None) -> View:
        sides = tuple(SideInfo(s, s.title(), "#c0392b") for s in self._seats(state))
        return View(board=Board(kind="square", key="e2e-steer", width=2, height=2), viewer=seat, sides=sides, title="Steer")

    def outcome(self, state: SteerState) -> Outcome | None:
        return None


@contextmanager
def registered() -> Iterator[None]:
    register(Steer.id)(Steer)
    try:
        yield
    finally:
        ruleset._REGISTRY.pop(Steer.id, None)


@pytest.fixture(autouse=True)
def systems() -> Iterator[None]:
    with registered(), race_registered():
        yield


def menu_of(message: FakeMessage) -> dict[str, Any]:
    menus = [c for c in message.custom_ids() if c.startswith("wg:pick:")]
    assert len(menus) == 1, message.custom_ids()
    found = component(message, menus[0])
    assert found is not None
    return found


def all_disabled(message: FakeMessage) -> bool:
    ids = message.custom_ids()
    return bool(ids) and all((component(message, c) or {}).get("disabled") for c in ids)


def only_public(messages: list[FakeMessage]) -> FakeMessage:
    assert len(messages) == 1, [m.text() for m in messages]
    return messages[0]


async def started_game(fake: FakeDiscord, scenario: str, north: FakeUser, south: FakeUser) -> FakeMessage:
    await fake.run(north, "game new", {"system": "e2e-steer", "scenario": scenario})
    first, second = SCENARIOS[scenario][0][:2]
    await fake.run(north, "game join", {"seat": first})
    await fake.run(south, "game join", {"seat": second})
    return only_public((await fake.run(north, "game start")).public())


@pytest.mark.slow
async def test_more_than_five_orders_come_as_one_select_menu(fake: FakeDiscord, bot: TableBot) -> None:
    north, south = fake.add_user("north"), fake.add_user("south")
    started = await started_game(fake, "eight", north, south)
    row = await bot.service.store.live_game(fake.general)
    assert row is not None
    menu = menu_of(started)
    assert menu["custom_id"] == f"wg:pick:order:{row.id}.{row.version}"
    assert [o["value"] for o in menu["options"]] == SCENARIOS["eight"][1]

    wrong = await fake.settled(await fake.choose(south, started, str(menu["custom_id"]), "steer 3"))
    assert not wrong.public() and "turn" in wrong.text().lower()  # the rules still decide who may act

    chosen = await fake.settled(await fake.choose(north, started, str(menu["custom_id"]), "steer 3"))
    reply = only_public(chosen.public())
    assert "North chose steer 3." in reply.content and f"Next: {south.mention}" in reply.content
    assert menu_of(reply)["custom_id"] == f"wg:pick:order:{row.id}.{row.version + 1}"  # the next state's offer
    await fake.wait_for(lambda: all_disabled(started), 5.0, "the first menu to be greyed out")
    assert not all_disabled(reply)

    moved = only_public((await fake.run(south, "order", {"text": "steer 8"})).public())  # a slash command moves it on too
    await fake.wait_for(lambda: all_disabled(reply), 5.0, "the second menu to be greyed out")
    assert not all_disabled(moved)
    assert not fake.violations


@pytest.mark.slow
async def test_more_than_25_choices_are_left_to_autocomplete(fake: FakeDiscord, bot: TableBot) -> None:
    north, south = fake.add_user("north"), fake.add_user("south")
    started = await started_game(fake, "thirty", north, south)
    assert started.custom_ids() == []
    assert len(await fake.autocomplete(north, "order", {"text": "steer"}, "text")) == 25


async def test_a_crowd_of_seats_gets_a_join_menu_that_stays_open_until_play_starts(
    fake: FakeDiscord, bot: TableBot
) -> None:
    players = [fake.add_user(f"p{i}") for i in range(1, 4)]
    created = only_public((await fake.run(players[0], "game new", {"system": "e2e-steer", "scenario": "crowd"})).public())
    menu = menu_of(created)
    assert str(menu["custom_id"]).startswith("wg:pick:join:")
    assert [o["value"] for o in menu["options"]] == SCENARIOS["crowd"][0]
    for player, seat in zip(players, ("s1", "s2", "s6"), strict=True):
        joined = await fake.settled(await fake.choose(player, created, str(menu["custom_id"]), seat))
        assert f"{player.mention} takes the seat **{seat.title()}**" in only_public(joined.public()).content
    assert not all_disabled(created)  # sitting down does not close the seats on offer
    await fake.run(players[0], "game start")
    await fake.wait_for(lambda: all_disabled(created), 5.0, "the join menu to be greyed out once play starts")
    assert not fake.violations


@pytest.mark.slow
async def test_an_out_of_date_button_is_refused_even_after_a_restart(fake: FakeDiscord, runner: BotRunner) -> None:
    bot = await runner.start()
    red, blue = fake.add_user("red"), fake.add_user("blue")
    created = only_public((await fake.run(red, "game new", {"system": "e2e-race", "scenario": "lane"})).public())
    game = await bot.service.store.live_game(fake.general)
    assert game is not None and created.custom_ids() == [f"wg:join:{game.id}:red", f"wg:join:{game.id}:blue"]
    await fake.settled(await fake.click(red, created, f"wg:join:{game.id}:red"))
    await fake.settled(await fake.click(blue, created, f"wg:join:{game.id}:blue"))
    first = only_public((await fake.run(red, "game start")).public())
    stale_id = next(c for c in first.custom_ids() if c.endswith(":row 2"))
    assert re.fullmatch(rf"wg:order:{game.id}\.\d+:row 2", stale_id)

    await runner.stop(bot)  # the new process never saw that message: it cannot grey it out
    bot = await runner.start()
    await fake.run(red, "order", {"text": "row 1"})
    await fake.run(blue, "order", {"text": "row 1"})  # red to act again, and "row 2" is legal again
    before = await bot.service.store.live_game(fake.general)
    assert before is not None and not all_disabled(first)

    refused = await fake.settled(await fake.click(red, first, stale_id))
    # answered privately; the clicked message is not greyed out in everyone's sight, since the game
    # may have moved by a hidden order (tests/e2e/test_hidden_leaks.py)
    assert refused.response_type == 4 and not all_disabled(first)
    assert [(m.ephemeral, m.content) for m in refused.messages()] == [(True, OUT_OF_DATE)]
    after = await bot.service.store.live_game(fake.general)
    assert after is not None and after.version == before.version  # nothing was applied
    assert not fake.violations


async def test_a_double_click_gives_the_order_once(fake: FakeDiscord, bot: TableBot) -> None:
    """North acts again and again here, so the second click of a double click would be a legal order:
    the game's version, checked under the channel's lock, is what refuses it."""
    north, south = fake.add_user("north"), fake.add_user("south")
    started = await started_game(fake, "solo", north, south)
    before = await bot.service.store.live_game(fake.general)
    assert before is not None
    steer = next(c for c in started.custom_ids() if c.endswith(":steer 1"))
    first, second = await fake.click(north, started, steer), await fake.click(north, started, steer)
    await fake.settled(first)
    await fake.settled(second)
    after = await bot.service.store.live_game(fake.general)
    assert after is not None and after.version == before.version + 1
    texts = [first.text(), second.text()]
    assert sum("North chose steer 1." in t for t in texts) == 1 and sum("out of date" in t for t in texts) == 1
    assert not fake.violations


async def test_a_join_button_of_an_earlier_game_is_refused(fake: FakeDiscord, bot: TableBot) -> None:
    red, blue = fake.add_user("red"), fake.add_user("blue")
    old = only_public((await fake.run(red, "game new", {"system": "e2e-race", "scenario": "lane"})).public())
    await fake.run(red, "game end")
    await fake.wait_for(lambda: all_disabled(old), 5.0, "the ended game's seats to be greyed out")
    old.components = [  # as if the edit had been lost: the ids alone must refuse the click
        {**row, "components": [{**c, "disabled": False} for c in row["components"]]} for row in old.components
    ]
    await fake.run(red, "game new", {"system": "e2e-race", "scenario": "lane"})
    refused = await fake.settled(await fake.click(blue, old, old.custom_ids()[1]))
    await fake.wait_for(lambda: refused.followups, 5.0, "the out-of-date notice")
    assert OUT_OF_DATE in refused.text() and all_disabled(old)
    new = await bot.service.store.live_game(fake.general)
    assert new is not None and new.seats == {}
    assert not fake.violations


def test_offers_and_ids() -> None:
    assert make_offer("order", ["a", "b"], 7, 3).as_buttons  # type: ignore[union-attr]
    six = make_offer("order", [f"o{i}" for i in range(6)], 7, 3)
    assert six is not None and not six.as_buttons and six.menu_id == "wg:pick:order:7.3"
    assert make_offer("order", [f"o{i}" for i in range(26)], 7, 3) is None
    assert make_offer("order", ["x" * 101], 7, 3) is None  # a value a menu option cannot hold
    long = make_offer("join", ["first", "s" * 95], 7, 0)  # a seat whose button id would not fit: a menu
    assert long is not None and not long.as_buttons
    assert make_offer("order", [], 7, 3) is None
    for item, old, new in (
        (OrderButton, "wg:order:row 2", "wg:order:12.5:row 2"),
        (JoinButton, "wg:join:peru", "wg:join:12:peru"),
    ):
        pattern = item.__discord_ui_compiled_template__
        assert pattern.fullmatch(old) and pattern.fullmatch(new)  # ids sent before the stamps still work
    menu = PickMenu.__discord_ui_compiled_template__.fullmatch("wg:pick:order:12.5")
    assert menu is not None and (menu["kind"], menu["game"], menu["version"]) == ("order", "12", "5")
