"""Hidden orders leave no public trace in Discord, at any speed and through any button (issue 13,
item 1). A slow hidden order is deferred privately, so no public "thinking..." placeholder shows
that it was given; an order offer is greyed out only when the channel hears news, a click by
anyone but the player to act is answered the same way whatever the offer's version, and order
buttons go under public messages only in systems whose legal orders are public. Each failed
before its fix."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest

from bot.discord_app import TableBot
from bot.discord_choices import NOT_YOUR_OFFER, OUT_OF_DATE
from games.core import ruleset
from games.core.errors import IllegalOrder, quote
from games.core.rng import Rng
from games.core.ruleset import Event, Order, Outcome, Ruleset, ScenarioInfo, Seat, private, public, register
from games.core.view import Board, SideInfo, View
from tests.e2e.fake_discord import FakeDiscord, FakeInteraction, FakeMessage, FakeUser
from tests.e2e.test_noise import settle

pytestmark = pytest.mark.e2e

SEATS = ("north", "south")


@dataclass
class WhisperState:
    turn: int = 0
    notes: int = 0  # private: how often the seat to act whispered


class Whisper(Ruleset[WhisperState, Order]):
    """Seats take turns; ``pass`` hands the turn on in public, ``whisper`` is a secret order that
    changes nothing anyone else sees. Its options are the same for everyone, so it may offer
    public order buttons; a secret order can still move the game's version under them."""

    id = "e2e-whisper"
    name = "Whisper (test)"
    state_type = WhisperState
    public_orders = True

    def scenarios(self) -> list[ScenarioInfo]:
        return [ScenarioInfo("two", "two")]

    def setup(self, scenario: str, options: dict[str, str], rng: Rng) -> WhisperState:
        return WhisperState()

    def seats(self, state: WhisperState) -> list[Seat]:
        return [Seat(s, s.title(), s) for s in SEATS]

    def to_act(self, state: WhisperState) -> list[str]:
        return [SEATS[state.turn % 2]]

    def legal_orders(self, state: WhisperState, seat: str) -> list[Order]:
        return [Order(text) for text in self.order_texts(state, seat)]

    def order_texts(self, state: WhisperState, seat: str) -> list[str]:
        return ["pass", "whisper"] if seat in self.to_act(state) else []

    def parse_order(self, state: WhisperState, seat: str, text: str) -> Order:
        if text not in self.order_texts(state, seat):
            raise IllegalOrder(f"{quote(text)} is not an order now.")
        return Order(text)

    def apply(self, state: WhisperState, seat: str, order: Order, rng: Rng) -> list[Event]:
        if order.text == "whisper":
            state.notes += 1
            return [private(f"You whispered ({state.notes}).", seat)]
        state.turn += 1
        return [public(f"{seat.title()} passes.")]

    def view(self, state: WhisperState, seat: str | None) -> View:
        sides = tuple(SideInfo(s, s.title(), "#c0392b") for s in SEATS)
        return View(board=Board(kind="square", key="e2e-whisper", width=2, height=2), viewer=seat, sides=sides,
                    title="Whisper")

    def outcome(self, state: WhisperState) -> Outcome | None:
        return None


class SecretOptions(Whisper):
    """The same game, but its ruleset does not say its options are public (the default)."""

    id = "e2e-secret-options"
    public_orders = False


@contextmanager
def registered() -> Iterator[None]:
    for cls in (Whisper, SecretOptions):
        register(cls.id)(cls)
    try:
        yield
    finally:
        for cls in (Whisper, SecretOptions):
            ruleset._REGISTRY.pop(cls.id, None)


@pytest.fixture(autouse=True)
def systems() -> Iterator[None]:
    with registered():
        yield


def disabled(message: FakeMessage) -> bool:
    return any(c.get("disabled") for row in message.components for c in row.get("components", []))


async def started(fake: FakeDiscord, system: str, north: FakeUser, south: FakeUser) -> FakeMessage:
    await fake.run(north, "game new", {"system": system, "scenario": "two"})
    await fake.run(north, "game join", {"seat": "north"})
    await fake.run(south, "game join", {"seat": "south"})
    (message,) = (await fake.run(north, "game start")).public()
    return message


def ever_public(fake: FakeDiscord, ix: FakeInteraction) -> list[FakeMessage]:
    """Every message of this interaction anyone else could ever have seen, deleted or loading too."""
    return [m for m in fake.messages.values() if m.interaction_id == ix.id and not m.ephemeral]


@pytest.mark.slow
async def test_a_slow_hidden_order_leaves_no_public_placeholder(
    fake: FakeDiscord, bot: TableBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    union, confederate = fake.add_user("union-player"), fake.add_user("confederate-player")
    await fake.run(union, "game new", {"system": "hex-ironclads", "scenario": "duel"})
    await fake.run(union, "game join", {"seat": "union"})
    await fake.run(confederate, "game join", {"seat": "confederate"})
    await fake.run(union, "game start")
    await settle(fake)
    real = bot.service.handle

    async def slow(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(bot.response_budget + 0.3)
        return await real(*args, **kwargs)

    monkeypatch.setattr(bot.service, "handle", slow)
    before = len(fake.channel_messages())
    secret = await fake.run(union, "order", {"text": "Monitor fire Virginia"}, timeout=5)
    await settle(fake)
    assert secret.response_type == 5, "the test wants the slow path: a deferral"
    assert ever_public(fake, secret) == [], "a public 'thinking...' showed that an order was given"
    assert "Order noted for Union" in secret.text()
    assert len(fake.channel_messages()) == before

    undone = await fake.run(union, "game undo", timeout=5)  # its undo is as quiet, at any speed
    await settle(fake)
    assert ever_public(fake, undone) == [] and "You undid" in undone.text()

    sealed = await fake.run(union, "order", {"text": "seal"}, timeout=5)  # public news still goes public
    await fake.wait_for(lambda: sealed.public(), 5.0, "the seal's public post")
    assert "Union has sealed" in sealed.public()[0].content
    assert not fake.violations


@pytest.mark.slow
async def test_a_hidden_order_neither_greys_an_offer_nor_shows_through_a_click(fake: FakeDiscord, bot: TableBot) -> None:
    north, south = fake.add_user("north"), fake.add_user("south")
    offer = await started(fake, "e2e-whisper", north, south)
    pass_id = next(c for c in offer.custom_ids() if c.endswith(":pass"))
    await settle(fake)

    # South, not to act, clicks North's offer: told so, and nothing is edited
    early = await fake.settled(await fake.click(south, offer, pass_id))
    assert [(m.ephemeral, m.content) for m in early.messages()] == [(True, NOT_YOUR_OFFER)]

    edits = offer.edits
    whispered = await fake.run(north, "order", {"text": "whisper"})
    assert not whispered.public()
    await settle(fake)
    assert offer.edits == edits and not disabled(offer), "greying the offer out timed the hidden order"

    # the offer is now out of date: South still gets the very same answer, and no edit
    late = await fake.settled(await fake.click(south, offer, pass_id))
    assert [(m.ephemeral, m.content) for m in late.messages()] == [(True, NOT_YOUR_OFFER)]
    # North, who knows, is told privately; the message is not greyed out in everyone's sight
    stale = await fake.settled(await fake.click(north, offer, pass_id))
    assert [(m.ephemeral, m.content) for m in stale.messages()] == [(True, OUT_OF_DATE)]
    await settle(fake)
    assert offer.edits == edits and not disabled(offer)

    passed = await fake.run(north, "order", {"text": "pass"})  # public news: now the old offer greys out
    assert passed.public()
    await fake.wait_for(lambda: disabled(offer), 5.0, "the old offer greyed out")
    assert not fake.violations


async def test_order_buttons_are_public_only_where_the_options_are(fake: FakeDiscord, bot: TableBot) -> None:
    north, south = fake.add_user("north"), fake.add_user("south")
    secret = await started(fake, "e2e-secret-options", north, south)
    assert not [c for c in secret.custom_ids() if c.startswith("wg:order:")], secret.custom_ids()
    await fake.run(north, "game end")
    shown = await started(fake, "e2e-whisper", north, south)
    assert [c.rsplit(":", 1)[1] for c in shown.custom_ids() if c.startswith("wg:order:")] == ["pass", "whisper"]
    assert not fake.violations
