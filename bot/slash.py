"""The slash commands: one plain ``async def`` per command, its options as real typed parameters.

discord.py reads a command's options from its callback's signature (it has no other way to be told
them), so each command is written out here as an ordinary function. Everything else about an
option (its description, fixed choices, autocomplete, the Python spelling of a keyword such as
``from``) comes from the command's entry in bot/commands.py and is applied with discord.py's public
decorators. ``build_commands`` compares each built command with its entry and refuses to start on
any difference (a parameter missing, renamed, of another type, required or not, other bounds), so
the table stays the one description of the commands.

This module knows the bot only as a ``SlashHost`` (bot/discord_app.py's ``TableBot`` is one), so
the front end imports it and not the other way round.
"""

import asyncio
import inspect
import keyword
import logging
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, Protocol

import discord
from discord import app_commands
from discord.enums import AppCommandOptionType

from bot.commands import COMMAND_LIST, COMMANDS, Command, Param
from bot.rooms.common import User
from bot.text import clip

log = logging.getLogger("wargame.discord")

AUTOCOMPLETE_LIMIT = 25  # Discord shows at most 25 suggestions
CHOICE_TEXT_LIMIT = 100  # and a suggestion's label and value have at most 100 characters
AUTOCOMPLETE_BUDGET_SECONDS = 2.0  # Discord drops an autocomplete answer after 3 s

Interaction = discord.Interaction[Any]
Page = app_commands.Range[int, 1, 10_000]  # the page options' bounds (Param low/high in bot/commands.py)
DealCount = app_commands.Range[int, 1, 100]
UserOption = discord.Member | discord.User
Callback = Callable[..., Coroutine[Any, Any, None]]


class Choices(Protocol):
    async def choice_pairs(self, channel: str, user: User, command: str, option: str, current: str,
                           given: dict[str, str]) -> list[tuple[str, str]]: ...


class SlashHost(Protocol):
    """What a slash command needs of the bot: who asked, the service's suggestions, and the one
    path every command takes."""

    @property
    def service(self) -> Choices: ...

    def user_of(self, interaction: Interaction) -> User: ...

    async def run_command(self, interaction: Interaction, command: str, options: dict[str, Any]) -> None: ...


def _host(interaction: Interaction) -> SlashHost:
    host: SlashHost = interaction.client
    return host


async def _run(interaction: Interaction, command: str, values: dict[str, Any]) -> None:
    """Hand a command to the bot with its options named as the service names them (a user option
    becomes a mention, plus the user's name where the table asks for it)."""
    options: dict[str, Any] = {}
    for param in COMMANDS[command].params:
        value = values.get(param.name)
        if param.kind == "user":
            options[param.name] = "none" if value is None else f"<@{value.id}>"
            if value is not None and param.name_to:
                options[param.name_to] = value.display_name
        elif param.front_end:
            options[param.name] = value
    await _host(interaction).run_command(interaction, command, options)


# --------------------------------------------------------------------------------------------
# The commands, in the order of bot/commands.py. Required options come first (Discord wants that).
# --------------------------------------------------------------------------------------------
async def game_new(interaction: Interaction, system: str, scenario: str, options: str | None = None,
                   thread: bool | None = None) -> None:
    await _run(interaction, "game new", {"system": system, "scenario": scenario, "options": options, "thread": thread})


async def game_join(interaction: Interaction, seat: str) -> None:
    await _run(interaction, "game join", {"seat": seat})


async def game_leave(interaction: Interaction) -> None:
    await _run(interaction, "game leave", {})


async def game_start(interaction: Interaction) -> None:
    await _run(interaction, "game start", {})


async def game_status(interaction: Interaction) -> None:
    await _run(interaction, "game status", {})


async def game_board(interaction: Interaction, zoom: str | None = None) -> None:
    await _run(interaction, "game board", {"zoom": zoom})


async def game_log(interaction: Interaction, page: Page | None = None) -> None:
    await _run(interaction, "game log", {"page": page})


async def game_undo(interaction: Interaction) -> None:
    await _run(interaction, "game undo", {})


async def game_end(interaction: Interaction) -> None:
    await _run(interaction, "game end", {})


async def game_concede(interaction: Interaction, confirm: bool | None = None, seat: str | None = None) -> None:
    await _run(interaction, "game concede", {"confirm": confirm, "seat": seat})


async def game_list(interaction: Interaction, page: Page | None = None) -> None:
    await _run(interaction, "game list", {"page": page})


async def game_export(interaction: Interaction) -> None:
    await _run(interaction, "game export", {})


async def game_replay(interaction: Interaction) -> None:
    await _run(interaction, "game replay", {})


async def game_verify(interaction: Interaction) -> None:
    await _run(interaction, "game verify", {})


async def game_private(interaction: Interaction, page: Page | None = None) -> None:
    await _run(interaction, "game private", {"page": page})


async def game_remind(interaction: Interaction, after: str | None = None, every: str | None = None) -> None:
    await _run(interaction, "game remind", {"after": after, "every": every})


async def game_assign(interaction: Interaction, seat: str, user: UserOption | None = None) -> None:
    await _run(interaction, "game assign", {"seat": seat, "user": user})


async def game_web(interaction: Interaction, revoke: bool | None = None) -> None:
    await _run(interaction, "game web", {"revoke": revoke})


async def game_help(interaction: Interaction, system: str | None = None) -> None:
    await _run(interaction, "game help", {"system": system})


async def help_(interaction: Interaction, system: str | None = None) -> None:
    await _run(interaction, "help", {"system": system})


async def order(interaction: Interaction, text: str, seat: str | None = None, preview: bool | None = None) -> None:
    await _run(interaction, "order", {"text": text, "seat": seat, "preview": preview})


async def roll(interaction: Interaction, dice: str, secret: bool | None = None, purpose: str | None = None) -> None:
    await _run(interaction, "roll", {"dice": dice, "secret": secret, "purpose": purpose})


async def reveal(interaction: Interaction, roll: str) -> None:
    await _run(interaction, "reveal", {"roll": roll})


async def deck_new(interaction: Interaction, name: str, from_: str) -> None:
    await _run(interaction, "deck new", {"name": name, "from": from_})


async def deck_shuffle(interaction: Interaction, name: str) -> None:
    await _run(interaction, "deck shuffle", {"name": name})


async def deck_reshuffle(interaction: Interaction, name: str) -> None:
    await _run(interaction, "deck reshuffle", {"name": name})


async def deck_draw(interaction: Interaction, name: str, to: str | None = None) -> None:
    await _run(interaction, "deck draw", {"name": name, "to": to})


async def deck_deal(interaction: Interaction, name: str, count: DealCount, to: str) -> None:
    await _run(interaction, "deck deal", {"name": name, "count": count, "to": to})


async def tools_verify(interaction: Interaction) -> None:
    await _run(interaction, "tools verify", {})


async def tools_close(interaction: Interaction) -> None:
    await _run(interaction, "tools close", {})


async def hand(interaction: Interaction) -> None:
    await _run(interaction, "hand", {})


async def play(interaction: Interaction, card: str, deck: str | None = None) -> None:
    await _run(interaction, "play", {"card": card, "deck": deck})


async def seal(interaction: Interaction, text: str | None = None, action: str | None = None,
               who: str | None = None) -> None:
    await _run(interaction, "seal", {"text": text, "action": action, "who": who})


CALLBACKS: dict[str, Callback] = {
    "game new": game_new, "game join": game_join, "game leave": game_leave, "game start": game_start,
    "game status": game_status, "game board": game_board, "game log": game_log, "game undo": game_undo,
    "game end": game_end, "game concede": game_concede, "game list": game_list, "game export": game_export,
    "game replay": game_replay, "game verify": game_verify, "game private": game_private,
    "game remind": game_remind, "game assign": game_assign, "game web": game_web, "game help": game_help,
    "help": help_, "order": order, "roll": roll, "reveal": reveal, "deck new": deck_new,
    "deck shuffle": deck_shuffle, "deck reshuffle": deck_reshuffle, "deck draw": deck_draw,
    "deck deal": deck_deal, "tools verify": tools_verify, "tools close": tools_close, "hand": hand,
    "play": play, "seal": seal,
}


# --------------------------------------------------------------------------------------------
# Building the slash surface from the table
# --------------------------------------------------------------------------------------------
class CommandTableMismatch(RuntimeError):
    """A slash callback disagrees with its entry in bot/commands.py."""


def py_name(name: str) -> str:
    """The Python parameter name of an option ("from" is a keyword, so ``from_``)."""
    return f"{name}_" if keyword.iskeyword(name) else name


OPTION_TYPES: dict[str, AppCommandOptionType] = {
    "text": AppCommandOptionType.string, "int": AppCommandOptionType.integer,
    "bool": AppCommandOptionType.boolean, "user": AppCommandOptionType.user,
}


def option_digest(param: Param) -> tuple[Any, ...]:
    """What Discord is told of an option, as the table gives it."""
    return (param.name, OPTION_TYPES[param.kind], param.required, param.low, param.high, param.choices,
            bool(param.complete), param.description)


def built_digest(option: app_commands.Parameter) -> tuple[Any, ...]:
    """The same, read back from a built command."""
    return (option.display_name, option.type, option.required, option.min_value, option.max_value,
            tuple(c.value for c in option.choices), option.autocomplete, option.description)


def check_against_table(spec: Command, command: app_commands.Command[Any, Any, Any]) -> None:
    """Refuse a built command whose options differ from its table entry (required ones first)."""
    wanted = [option_digest(p) for p in sorted((p for p in spec.params if p.front_end), key=lambda p: not p.required)]
    built = [built_digest(p) for p in command.parameters]
    if built != wanted:
        raise CommandTableMismatch(f"/{spec.name}: the callback's options {built} differ from bot/commands.py {wanted}")


def slash_command(spec: Command, callback: Callback) -> app_commands.Command[Any, Any, Any]:
    """One slash command: ``callback``'s parameters, described, constrained and completed from ``spec``."""
    params = [p for p in spec.params if p.front_end]
    named = list(inspect.signature(callback).parameters)[1:]  # after the interaction
    if sorted(named) != sorted(py_name(p.name) for p in params):
        raise CommandTableMismatch(f"/{spec.name}: the callback takes {named}, bot/commands.py names "
                                   f"{[py_name(p.name) for p in params]}")
    if params:
        app_commands.describe(**{py_name(p.name): p.description for p in params})(callback)
        renames = {py_name(p.name): p.name for p in params if py_name(p.name) != p.name}
        if renames:
            app_commands.rename(**renames)(callback)
        fixed = {py_name(p.name): [app_commands.Choice(name=c, value=c) for c in p.choices] for p in params if p.choices}
        if fixed:
            app_commands.choices(**fixed)(callback)
    command: app_commands.Command[Any, Any, Any] = app_commands.Command(
        name=spec.name.rpartition(" ")[2], description=spec.description, callback=callback
    )
    for param in params:
        if param.complete:
            command.autocomplete(py_name(param.name))(_completer(spec.name, param.name))
    check_against_table(spec, command)
    return command


def autocomplete_choices(pairs: Sequence[tuple[str, str]]) -> list[app_commands.Choice[str]]:
    """At most 25 (label, value) choices: a value longer than Discord's 100 characters is skipped
    (it could not be sent back), a longer label is clipped."""
    choices: list[app_commands.Choice[str]] = []
    for label, value in pairs:
        if 0 < len(value) <= CHOICE_TEXT_LIMIT:
            choices.append(app_commands.Choice(name=clip(label or value, CHOICE_TEXT_LIMIT), value=value))
        if len(choices) == AUTOCOMPLETE_LIMIT:
            break
    return choices


async def service_choices(interaction: Interaction, command: str, option: str, current: str) -> list[app_commands.Choice[str]]:
    """Every autocomplete goes through ``TableService.choice_pairs``, told the options typed so far
    (the interaction's namespace names them as Discord does: ``from``, not ``from_``)."""
    host = _host(interaction)
    given = {p.name: str(getattr(interaction.namespace, p.name, None) or "")
             for p in COMMANDS[command].params if p.name != option}
    try:
        pairs = await asyncio.wait_for(
            host.service.choice_pairs(str(interaction.channel_id), host.user_of(interaction), command, option, current,
                                      {k: v for k, v in given.items() if v}),
            AUTOCOMPLETE_BUDGET_SECONDS,
        )
    except Exception:
        log.exception("autocomplete for /%s %s failed", command, option)
        return []
    return autocomplete_choices(pairs)


def _completer(command: str, option: str) -> Callable[[Interaction, str], Coroutine[Any, Any, list[app_commands.Choice[str]]]]:
    async def complete(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await service_choices(interaction, command, option, current)

    return complete


GROUP_DESCRIPTIONS = {
    "game": "Set up, follow and finish the game in this channel",
    "deck": "Card decks for any game at this table",
    "tools": "This channel's dice and cards stream",
}


def build_commands() -> list[app_commands.Command[Any, Any, Any] | app_commands.Group]:
    """The slash surface, from bot/commands.py: "game new" becomes /game new, "order" /order."""
    slash = [spec for spec in COMMAND_LIST if spec.slash]
    missing = sorted({s.name for s in slash} ^ set(CALLBACKS))
    if missing:
        raise CommandTableMismatch(f"slash commands and callbacks differ: {missing}")
    groups: dict[str, app_commands.Group] = {}
    top: list[app_commands.Command[Any, Any, Any] | app_commands.Group] = []
    for spec in slash:
        command = slash_command(spec, CALLBACKS[spec.name])
        group_name = spec.name.rpartition(" ")[0]
        if not group_name:
            top.append(command)
            continue
        if group_name not in groups:
            groups[group_name] = app_commands.Group(name=group_name, description=GROUP_DESCRIPTIONS[group_name])
            top.append(groups[group_name])
        groups[group_name].add_command(command)
    return top
