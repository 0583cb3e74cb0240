"""The slash commands are plain functions checked against the one command table (bot/commands.py)."""

from __future__ import annotations

import asyncio
import inspect
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.enums import AppCommandOptionType

from bot.commands import COMMAND_LIST, COMMANDS
from bot.rooms.common import User
from bot.slash import CALLBACKS, CommandTableMismatch, build_commands, service_choices, slash_command


def _leaves() -> dict[str, app_commands.Command[Any, Any, Any]]:
    found: dict[str, app_commands.Command[Any, Any, Any]] = {}
    for top in build_commands():
        if isinstance(top, app_commands.Group):
            found.update({f"{top.name} {c.name}": c for c in top.commands if isinstance(c, app_commands.Command)})
        else:
            found[top.name] = top
    return found


def test_every_slash_entry_of_the_table_is_a_command_with_its_options() -> None:
    leaves = _leaves()
    assert set(leaves) == {c.name for c in COMMAND_LIST if c.slash}
    for name, command in leaves.items():
        spec = COMMANDS[name]
        asked = [p for p in spec.params if p.front_end]
        assert {p.display_name for p in command.parameters} == {p.name for p in asked}, name
        assert command.description == spec.description
        flags = [p.required for p in command.parameters]
        assert flags == sorted(flags, reverse=True), f"/{name}: Discord wants required options first"


def test_options_carry_the_tables_types_bounds_choices_and_completion() -> None:
    leaves = _leaves()
    deck_new = {p.display_name: p for p in leaves["deck new"].parameters}
    assert deck_new["from"].name == "from_" and deck_new["from"].autocomplete and deck_new["from"].required
    page = leaves["game log"].parameters[0]
    assert (page.type, page.min_value, page.max_value, page.required) == (AppCommandOptionType.integer, 1, 10_000, False)
    user = {p.display_name: p for p in leaves["game assign"].parameters}["user"]
    assert user.type == AppCommandOptionType.user and not user.required
    to = {p.display_name: p for p in leaves["deck draw"].parameters}["to"]
    assert [c.value for c in to.choices] == ["hand"]
    assert leaves["game verify"].parameters == []  # its export option is filled by the front end only


def test_callbacks_are_ordinary_functions_with_real_signatures() -> None:
    for name, callback in CALLBACKS.items():
        assert not hasattr(callback, "__signature__"), f"/{name}: forged signature"
        first = next(iter(inspect.signature(callback).parameters))
        assert first == "interaction"


def test_a_callback_that_disagrees_with_the_table_is_refused() -> None:
    async def page_without_bounds(interaction: discord.Interaction[Any], page: int | None = None) -> None:
        pass

    async def seat_missing(interaction: discord.Interaction[Any]) -> None:
        pass

    async def text_not_required(interaction: discord.Interaction[Any], text: str | None = None,
                                seat: str | None = None, preview: bool | None = None) -> None:
        pass

    for command, callback in (("game log", page_without_bounds), ("game join", seat_missing),
                              ("order", text_not_required)):
        with pytest.raises(CommandTableMismatch, match=command):
            slash_command(COMMANDS[command], callback)


class _Service:
    def __init__(self) -> None:
        self.given: dict[str, str] = {}

    async def choice_pairs(self, channel: str, user: User, command: str, option: str, current: str,
                           given: dict[str, str]) -> list[tuple[str, str]]:
        self.given = given
        return [("Standard 52", "standard52")]


def test_autocomplete_is_told_the_options_typed_so_far_by_their_discord_names() -> None:
    """discord.py's namespace names a renamed option as Discord does ("from"); the old adapter asked
    it for "from_" and so never passed a typed ``from`` on."""
    service = _Service()
    host = SimpleNamespace(service=service, user_of=lambda interaction: User(id="1", name="a"))
    namespace = SimpleNamespace(name="mine")
    setattr(namespace, "from", "standard52")
    interaction: Any = SimpleNamespace(client=host, namespace=namespace, channel_id=5)
    choices = asyncio.run(service_choices(interaction, "deck new", "name", "m"))
    assert service.given == {"from": "standard52"}
    assert [c.value for c in choices] == ["standard52"]
