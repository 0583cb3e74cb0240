"""Choices offered under a public reply: seats to join after ``/game new``, the next player's orders.

Up to ``BUTTON_LIMIT`` choices are buttons; up to ``MENU_LIMIT`` a select menu; more are left to
autocomplete. Every component is persistent across restarts: its custom id carries what it does,
plus the game (and, for orders, the game's version) it was offered for, so a click on a message
from before the game moved on is refused as out of date instead of applying an order that may
mean something else by now. The adapter also greys out (disables) a channel's previous offer as
soon as the state moves on, so players rarely get that far.

Hidden orders (README, "Table manners"): an order offer goes under a public message, so it is
made only in rule systems whose rulesets declare ``public_orders = True`` (the options of the
seat to act are public knowledge there: no hand, hidden unit or sealed choice among them); other
systems get no order buttons, only autocomplete, which the player alone sees. An offer is greyed
out only when the channel is told of news (a hidden order posts nothing, so greying would time
it), a click by anyone but the player to act is answered the same way whatever the offer's
version, and a stale order offer is answered privately without greying the clicked message.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

import discord

BUTTON_LIMIT = 5  # offer buttons only when the choice is this short
MENU_LIMIT = 25  # Discord's most options in one select menu
BUTTON_LABEL_LIMIT = 80
MENU_TEXT_LIMIT = 100  # an option's label and value
CUSTOM_ID_LIMIT = 100
OUT_OF_DATE = (
    "This choice is out of date: the game has moved on since it was offered, so nothing was done. "
    "Use the newest message's buttons, or /order."
)

NOT_YOUR_OFFER = (
    "These choices are for the player to act now, so nothing was done. "
    "Use /order for your own orders when it is your turn."
)

OfferKind = Literal["join", "order"]
Expect = tuple[int, int | None]  # (game id, version): a join offer holds for the whole set-up (None)


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True)
class Offer:
    """Seats to join or orders to give, offered for one game at one version."""

    kind: OfferKind
    values: tuple[str, ...]
    game: int
    version: int

    def button_id(self, value: str) -> str:
        if self.kind == "join":
            return f"wg:join:{self.game}:{value}"
        return f"wg:order:{self.game}.{self.version}:{value}"

    @property
    def menu_id(self) -> str:
        return f"wg:pick:{self.kind}:{self.game}.{self.version}"

    @property
    def as_buttons(self) -> bool:
        return len(self.values) <= BUTTON_LIMIT and all(len(self.button_id(v)) <= CUSTOM_ID_LIMIT for v in self.values)


def public_orders(rules: object) -> bool:
    """Whether a rule system's legal orders may be shown to the whole channel (its ruleset says
    ``public_orders = True``); the default is no, since an unknown system may list secrets."""
    return getattr(rules, "public_orders", False) is True


def make_offer(kind: OfferKind, values: Sequence[str], game: int, version: int) -> Offer | None:
    """Buttons for a few choices, a menu for up to 25 that each fit an option; else None."""
    unique = tuple(dict.fromkeys(v for v in values if v))
    if not unique:
        return None
    offer = Offer(kind, unique, game, version)
    if offer.as_buttons:
        return offer
    if len(unique) <= MENU_LIMIT and all(len(v) <= MENU_TEXT_LIMIT for v in unique):
        return offer
    return None


def offer_view(offer: Offer | None, *, disabled: bool = False) -> discord.ui.View | None:
    """The components of an offer; ``disabled`` greys them out once the game has moved on."""
    if offer is None:
        return None
    view = discord.ui.View(timeout=None)
    if offer.as_buttons:
        for value in offer.values:
            button: JoinButton | OrderButton = (
                JoinButton(value, offer.game) if offer.kind == "join" else OrderButton(value, offer.game, offer.version)
            )
            button.item.disabled = disabled
            view.add_item(button)
    else:
        menu = PickMenu(offer.kind, offer.game, offer.version, offer.values)
        menu.item.disabled = disabled
        view.add_item(menu)
    view.stop()  # the dynamic items answer clicks; a stopped view is not kept in memory per message
    return view


def disabled_copy(message: discord.Message | None) -> discord.ui.View | None:
    """The message's own components, all disabled (for a click on an out-of-date offer)."""
    if message is None or not message.components:
        return None
    view = discord.ui.View.from_message(message, timeout=None)
    for item in view.children:
        if isinstance(item, (discord.ui.Button, discord.ui.Select)):
            item.disabled = True
    view.stop()
    return view


async def update_clicked(interaction: discord.Interaction[Any], view: discord.ui.View) -> None:
    """Answer a click by replacing the clicked message's components (an update-message callback).
    Sent through discord.py's HTTP route with only the fields Discord's spec declares for that
    callback: ``InteractionResponse.edit_message`` always adds ``tts``, which it does not declare."""
    route = discord.http.Route(
        "POST",
        "/interactions/{webhook_id}/{webhook_token}/callback",
        webhook_id=interaction.id,
        webhook_token=interaction.token,
    )
    payload = {
        "type": discord.InteractionResponseType.message_update.value,
        "data": {"components": view.to_components()},
    }
    await interaction.client.http.request(route, json=payload)


class ChoiceHost(Protocol):
    """What a click needs of the bot (bot/discord_app.py's ``TableBot``): its one path for offered choices."""

    async def run_choice(
        self, interaction: discord.Interaction[Any], command: str, options: dict[str, Any], expect: Expect | None
    ) -> None: ...


def _bot(interaction: discord.Interaction[Any]) -> ChoiceHost:
    client: ChoiceHost = interaction.client
    return client


class JoinButton(
    discord.ui.DynamicItem[discord.ui.Button["discord.ui.View"]],
    template=r"wg:join:(?:(?P<game>\d+):)?(?P<seat>.+)",
):
    """Take a seat; ids from before games were stamped (``wg:join:<seat>``) still work, unchecked."""

    def __init__(self, seat: str, game: int | None = None) -> None:
        custom_id = f"wg:join:{seat}" if game is None else f"wg:join:{game}:{seat}"
        super().__init__(
            discord.ui.Button(
                label=clip(f"Join as {seat}", BUTTON_LABEL_LIMIT), style=discord.ButtonStyle.secondary, custom_id=custom_id
            )
        )
        self.seat = seat
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> JoinButton:
        return cls(match["seat"], int(match["game"]) if match["game"] else None)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        expect: Expect | None = None if self.game is None else (self.game, None)
        await _bot(interaction).run_choice(interaction, "game join", {"seat": self.seat}, expect)


class OrderButton(
    discord.ui.DynamicItem[discord.ui.Button["discord.ui.View"]],
    template=r"wg:order:(?:(?P<game>\d+)\.(?P<version>\d+):)?(?P<text>.+)",
):
    """Give an order; valid only while the game is at the version it was offered at."""

    def __init__(self, text: str, game: int | None = None, version: int | None = None) -> None:
        stamped = game is not None and version is not None
        custom_id = f"wg:order:{game}.{version}:{text}" if stamped else f"wg:order:{text}"
        super().__init__(
            discord.ui.Button(label=clip(text, BUTTON_LABEL_LIMIT), style=discord.ButtonStyle.primary, custom_id=custom_id)
        )
        self.text = text
        self.expect: Expect | None = (game, version) if game is not None and version is not None else None

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> OrderButton:
        if match["game"] is None:
            return cls(match["text"])
        return cls(match["text"], int(match["game"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _bot(interaction).run_choice(interaction, "order", {"text": self.text}, self.expect)


class PickMenu(
    discord.ui.DynamicItem[discord.ui.Select["discord.ui.View"]],
    template=r"wg:pick:(?P<kind>join|order):(?P<game>\d+)\.(?P<version>\d+)",
):
    """A select menu of seats or orders, for choices too many for buttons (at most 25)."""

    def __init__(self, kind: OfferKind, game: int, version: int, values: Sequence[str] = ()) -> None:
        placeholder = "Take a seat…" if kind == "join" else "Choose your order…"
        super().__init__(
            discord.ui.Select(
                custom_id=f"wg:pick:{kind}:{game}.{version}",
                placeholder=placeholder,
                min_values=1,
                max_values=1,
                options=[discord.SelectOption(label=clip(v, MENU_TEXT_LIMIT), value=v) for v in values],
            )
        )
        self.kind: OfferKind = kind
        self.game = game
        self.version = version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PickMenu:
        kind: OfferKind = "join" if match["kind"] == "join" else "order"
        return cls(kind, int(match["game"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        data: Any = interaction.data or {}
        values = [str(v) for v in data.get("values") or []]
        if not values:
            await interaction.response.send_message("Nothing was chosen.", ephemeral=True)
            return
        bot = _bot(interaction)
        if self.kind == "join":
            await bot.run_choice(interaction, "game join", {"seat": values[0]}, (self.game, None))
        else:
            await bot.run_choice(interaction, "order", {"text": values[0]}, (self.game, self.version))
