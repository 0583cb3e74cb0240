"""/help and /game help: the commands, the systems and each system's notation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.rooms.common import MAX_MESSAGE, Output, User
from bot.text import split_text
from games.core.ruleset import get_ruleset, system_ids

if TYPE_CHECKING:
    from bot.commands import Command


class Help:
    """Explain the commands (the list bot/commands.py declares, handed in by the service)."""

    def __init__(self, commands: Sequence[Command]) -> None:
        self.commands = commands

    async def show_help(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        system = opts.get("system", "")
        if system:
            rules = get_ruleset(system)
            text = f"**{rules.name}**\n{rules.help()}"
            if rules.book:
                text += f"\nRule book: {rules.book}"
            scen = ", ".join(f"{s.id} ({s.name})" for s in rules.scenarios())
            text += f"\nScenarios: {scen}"
            opts_text = ", ".join(f"{o.key}={o.default}" for o in rules.options())
            if opts_text:
                text += f"\nOptions (defaults): {opts_text}"
        else:
            text = ("Commands:\n" + "\n".join(_usage(c) for c in self.commands if c.slash) +
                    f"\nSystems: {', '.join(system_ids())}. Use /help system:<id> for a system's order notation."
                    "\nBefore you order, `/order text:<order> preview:true` shows only you where your pieces would end."
                    "\nBoards: a yellow ring marks the counters that act now; the last move, shot or ram is drawn "
                    "as a line in its side's colour.")
        return [Output("ephemeral", c, to=user.id) for c in split_text(text, MAX_MESSAGE)]

def _usage(command: Command) -> str:
    """``/order text:<text> [seat:<seat>] [preview:<true/false>]: Give an order ...``, for /help."""
    shown = {"bool": "true/false", "int": "number", "user": "member"}
    parts = [f"{p.name}:<{shown.get(p.kind, p.name)}>" if p.required else f"[{p.name}:<{shown.get(p.kind, p.name)}>]"
             for p in command.params if p.front_end]
    return f"`/{' '.join([command.name, *parts])}`: {command.description}"


