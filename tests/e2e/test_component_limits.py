"""Discord's limits on buttons, menus and attachments: the fake refuses what Discord refuses (400,
code 50035), and the bot never sends such a message, however many or long its seats and orders are.

Limits (Discord's message-components and message docs): at most 5 action rows, 5 buttons (or one
select menu) a row, custom ids of 1-100 characters unique within the message, button labels of at
most 80 characters, 25 options a select menu, 10 attachments a message.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest

from bot.discord_app import TableBot
from games.core import ruleset
from games.core.errors import IllegalOrder, quote
from games.core.rng import Rng
from games.core.ruleset import Event, Order, Outcome, Ruleset, ScenarioInfo, Seat, public, register
from games.core.view import Board, SideInfo, View
from tests.e2e.fake_discord import FakeDiscord, FakeMessage, FakeUser, component_problems

pytestmark = pytest.mark.e2e


def button(custom_id: str, label: str = "Go") -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def row(*items: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(items)}


MENU = {"type": 3, "custom_id": "menu", "options": [{"label": f"o{i}", "value": str(i)} for i in range(26)]}
TOO_MUCH = {
    "six rows": [row(button(f"b{i}")) for i in range(6)],
    "six buttons in a row": [row(*(button(f"b{i}") for i in range(6)))],
    "a menu sharing its row": [row({**MENU, "options": MENU["options"][:3]}, button("b"))],
    "a 101-character custom_id": [row(button("c" * 101))],
    "an 81-character label": [row(button("b", "l" * 81))],
    "26 menu options": [row(MENU)],
    "one custom_id twice": [row(button("same")), row(button("same"))],
}


@pytest.mark.parametrize("name", sorted(TOO_MUCH))
def test_each_component_limit_is_known_to_the_fake(name: str) -> None:
    assert component_problems(TOO_MUCH[name]), name
    assert component_problems([row(*(button(f"b{i}", "l" * 80) for i in range(5))) for _ in range(1)]) == []


@pytest.mark.parametrize("name", sorted(TOO_MUCH))
async def test_the_fake_refuses_components_over_the_limits(fake: FakeDiscord, name: str) -> None:
    fake.violations_expected = True
    async with aiohttp.ClientSession() as session:
        url = f"{fake.api_base}/channels/{fake.general}/messages"
        async with session.post(url, json={"content": "pick", "components": TOO_MUCH[name]}) as response:
            assert response.status == 400 and (await response.json())["code"] == 50035
        async with session.post(url, json={"content": "pick", "components": [row(button("a"), button("b"))]}) as ok:
            assert ok.status == 200
    assert [m.content for m in fake.channel_messages()] == ["pick"] and fake.violations


async def test_the_fake_refuses_an_eleventh_attachment(fake: FakeDiscord) -> None:
    fake.violations_expected = True
    url = f"{fake.api_base}/channels/{fake.general}/messages"
    async with aiohttp.ClientSession() as session:
        for count, status in ((11, 400), (10, 200)):
            form = aiohttp.FormData()
            form.add_field("payload_json", '{"content": "files"}', content_type="application/json")
            for i in range(count):
                form.add_field(f"files[{i}]", b"x", filename=f"f{i}.txt")
            async with session.post(url, data=form) as response:
                assert response.status == status, count
    assert [len(m.attachments) for m in fake.channel_messages()] == [10]
    assert any("11 attachments" in v for v in fake.violations)


# ------------------------------------------------------------------------------------------
# The bot against seats and orders that would break the limits if offered naively as buttons
# ------------------------------------------------------------------------------------------
LONG_SEAT = "s" * 95  # "wg:join:" + 95 characters is over the 100 a custom_id may have
WORDY = [f"signal {i} " + "w" * 80 for i in range(5)]  # 89 characters: fits a custom_id, not a label
SCENARIOS: dict[str, tuple[list[str], list[str]]] = {  # seats, the first seat's orders
    "crowd": ([f"s{i}" for i in range(1, 8)], [f"order {i}" for i in range(30)]),
    "wordy": (["first", LONG_SEAT], [*WORDY, WORDY[0]]),  # a duplicate too
    "overlong": (["first", "second"], ["short", "x" * 95]),
}


@dataclass
class MenuState:
    scenario: str
    moves: int = 0


class Menu(Ruleset[MenuState, Order]):
    """Every turn the first seat picks one of its scenario's orders; never ends."""

    id = "e2e-menu"
    name = "Menu (test)"
    state_type = MenuState
    public_orders = True  # nothing hidden: order buttons may be public

    def scenarios(self) -> list[ScenarioInfo]:
        return [ScenarioInfo(s, s) for s in SCENARIOS]

    def setup(self, scenario: str, options: dict[str, str], rng: Rng) -> MenuState:
        return MenuState(scenario)

    def seats(self, state: MenuState) -> list[Seat]:
        seats = SCENARIOS[state.scenario][0]
        return [Seat(s, s.title()[:20], s, optional=i > 0) for i, s in enumerate(seats)]

    def to_act(self, state: MenuState) -> list[str]:
        return [SCENARIOS[state.scenario][0][0]]

    def legal_orders(self, state: MenuState, seat: str) -> list[Order]:
        return [Order(text) for text in self.order_texts(state, seat)]

    def order_texts(self, state: MenuState, seat: str) -> list[str]:
        seats, orders = SCENARIOS[state.scenario]
        return list(orders) if seat == seats[0] else []

    def parse_order(self, state: MenuState, seat: str, text: str) -> Order:
        if text not in self.order_texts(state, seat):
            raise IllegalOrder(f"{quote(text)} is not an order now.")
        return Order(text)

    def apply(self, state: MenuState, seat: str, order: Order, rng: Rng) -> list[Event]:
        state.moves += 1
        return [public(f"{seat[:10]} chose {order.text}.")]

    def view(self, state: MenuState, seat: str | None) -> View:
        sides = tuple(SideInfo(s, s[:10], "#c0392b") for s in SCENARIOS[state.scenario][0])
        return View(
            board=Board(kind="square", key="e2e-menu", width=2, height=2), viewer=seat, sides=sides, title="Menu"
        )

    def outcome(self, state: MenuState) -> Outcome | None:
        return None


@contextmanager
def registered() -> Iterator[None]:
    register(Menu.id)(Menu)
    try:
        yield
    finally:
        ruleset._REGISTRY.pop(Menu.id, None)


@pytest.fixture
def menu_system() -> Iterator[None]:
    with registered():
        yield


def within_limits(message: FakeMessage) -> None:
    assert not component_problems(message.components), message.components
    assert len(message.attachments) <= 10


def items(message: FakeMessage) -> list[dict[str, Any]]:
    return [item for row in message.components for item in row.get("components", [])]


def offered(message: FakeMessage, choices: list[str]) -> dict[str, tuple[str, str | None]]:
    """Which of ``choices`` the message offers, each with how to pick it: a button's custom id (whose
    end carries the whole choice), or a menu's custom id and the option's value."""
    found: dict[str, tuple[str, str | None]] = {}
    for item in items(message):
        if item.get("type") == 2:
            found |= {c: (item["custom_id"], None) for c in choices if item["custom_id"].endswith(f":{c}")}
        elif item.get("type") == 3:
            found |= {o["value"]: (item["custom_id"], o["value"]) for o in item["options"] if o["value"] in choices}
    return found


def offers_all_or_none(message: FakeMessage, choices: list[str]) -> dict[str, tuple[str, str | None]]:
    """A partial offer would mislead (the missing choice looks illegal): all of them, or none."""
    found = offered(message, choices)
    assert not found or set(found) == set(choices), (sorted(found), choices)
    return found


async def pick(fake: FakeDiscord, user: FakeUser, message: FakeMessage, how: tuple[str, str | None]) -> FakeMessage:
    custom_id, value = how
    pressed = await (
        fake.click(user, message, custom_id) if value is None else fake.choose(user, message, custom_id, value)
    )
    [reply] = (await fake.settled(pressed)).public()
    return reply


async def play(fake: FakeDiscord, user: FakeUser, scenario: str) -> tuple[FakeMessage, FakeMessage]:
    """Create, join the first seat, start: the creation message and the start message."""
    seats, orders = SCENARIOS[scenario]
    [created] = (await fake.run(user, "game new", {"system": "e2e-menu", "scenario": scenario})).public()
    await fake.run(user, "game join", {"seat": seats[0]})
    [started] = (await fake.run(user, "game start")).public()
    for message in (created, started):
        within_limits(message)
    offers_all_or_none(started, list(dict.fromkeys(orders)))  # seats may be offered in part: /game join has all
    return created, started


@pytest.mark.slow
async def test_seven_seats_and_thirty_orders_stay_within_the_limits(
    fake: FakeDiscord, bot: TableBot, menu_system: None
) -> None:
    created, started = await play(fake, fake.add_user("alice"), "crowd")
    assert len(items(created)) <= 1  # a menu at most: 7 seats are too many buttons
    assert offered(started, SCENARIOS["crowd"][1]) == {}  # 30 orders: more than a menu holds; autocomplete
    assert not fake.violations


@pytest.mark.slow
async def test_long_and_repeated_orders_are_offered_whole_within_the_limits(
    fake: FakeDiscord, bot: TableBot, menu_system: None
) -> None:
    alice = fake.add_user("alice")
    created, started = await play(fake, alice, "wordy")
    assert "first" in offered(created, ["first", LONG_SEAT])
    choices = offered(started, WORDY)
    assert set(choices) == set(WORDY)  # the repeated one once, none cut short
    for item in items(started):
        assert len(item.get("label") or "") <= 80 and len(item["custom_id"]) <= 100
    reply = await pick(fake, alice, started, choices[WORDY[3]])  # a clipped label still gives the whole order
    assert f"chose {WORDY[3]}." in reply.content
    within_limits(reply)
    assert not fake.violations


@pytest.mark.slow
async def test_an_order_too_long_for_a_custom_id_is_never_cut_short(
    fake: FakeDiscord, bot: TableBot, menu_system: None
) -> None:
    alice = fake.add_user("alice")
    created, started = await play(fake, alice, "overlong")
    assert set(offered(created, ["first", "second"])) == {"first", "second"}
    choices = offered(started, SCENARIOS["overlong"][1])
    if choices:  # offered at all (in a menu, whose values hold 100 characters): then whole
        reply = await pick(fake, alice, started, choices["x" * 95])
        assert f"chose {'x' * 95}." in reply.content
    assert not any("x" * 90 in c and "x" * 95 not in c for item in items(started) for c in [item["custom_id"]])
    assert not fake.violations
