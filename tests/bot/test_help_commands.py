"""/help lists every slash command with its options and what it does, from bot/commands.py."""

from __future__ import annotations

from bot.commands import COMMAND_LIST
from bot.service import TableService
from tests.bot.helpers import ALICE, ok


async def test_help_lists_every_command_with_its_options(svc: TableService) -> None:
    text = "\n".join(o.text for o in await ok(svc, ALICE, "help"))
    for command in COMMAND_LIST:
        if command.slash:
            assert f"`/{command.name}" in text and command.description in text, command.name
    assert "`/order text:<text> [seat:<seat>] [preview:<true/false>]`" in text
    assert "[user:<member>]" in text and "<@" not in text  # nothing in help looks like a mention
    assert "preview:true" in text
