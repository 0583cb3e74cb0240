"""/help and /game help: the commands, the systems and each system's notation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.rooms.common import MAX_MESSAGE, Output, User
from bot.text import split_text
from games.core.ruleset import OptionSpec, Ruleset, ScenarioInfo, get_ruleset, system_ids
from games.core.view import BOARD_KEY, HIGHLIGHT, NOT_DRAWN, BoardMark


class Help:
    """Explain the commands: their usage lines, from the table bot/commands.py declares (handed in
    by the service, so this room does not import the table that binds it)."""

    def __init__(self, usages: Sequence[str]) -> None:
        self.usages = usages

    async def show_help(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        system = opts.get("system", "")
        if system:
            text = system_help(get_ruleset(system))
        else:
            text = ("Commands:\n" + "\n".join(self.usages) +
                    f"\nSystems: {', '.join(system_ids())}. Use /help system:<id> for a system's order notation, "
                    "options and board key (what its rings, lines and zones mean)."
                    "\nBefore you order, `/order text:<order> preview:true` shows only you where your pieces would end.")
        return [Output("ephemeral", c, to=user.id) for c in split_text(text, MAX_MESSAGE)]

def system_help(rules: Ruleset[Any, Any]) -> str:
    """``/help system:<id>``: the system's own prose, then what is generated from the declarations
    the engine itself uses (scenarios, options with their allowed values, the board key), so that
    part of help cannot drift from the game."""
    text = f"**{rules.name}**\n{rules.help()}"
    if rules.book:
        text += f"\nRule book: {rules.book}"
    text += "\nScenarios (`/game new ... scenario:<id>`):\n" + "\n".join(scenario_line(s) for s in rules.scenarios())
    if rules.options():
        text += "\nOptions (`/game new ... options:key=value,key=value`):\n" + "\n".join(
            option_line(o) for o in rules.options())
    return text + "\nBoard: " + "; ".join(board_key(rules.board_marks)) + "."


def scenario_line(scenario: ScenarioInfo) -> str:
    """One scenario for help: its id, name and what it is about (who must take what, for an
    objectives battle), so the players know it before they start (Days of Iron 18.2)."""
    about = f": {scenario.description}" if scenario.description and scenario.description != scenario.name else ""
    return f"- `{scenario.id}` ({scenario.name}){about}"


def option_line(option: OptionSpec) -> str:
    """One option for help: its key, what it does, exactly the values setup accepts, its default."""
    if option.choices:
        allowed = "one of " + ", ".join(f"`{c}`" for c in option.choices)
    elif option.between is not None:
        allowed = f"a whole number from {option.between[0]} to {option.between[1]}"
    else:
        allowed = "free text"
    default = f"`{option.default}`" if option.default else "unset"
    return f"- `{option.key}`: {option.description} Values: {allowed} (default {default})."


def board_key(marks: frozenset[BoardMark]) -> list[str]:
    """The board key for a system's declared marks, with what it does not draw said too."""
    ringed = any(m in marks for m in HIGHLIGHT)
    return [BOARD_KEY[m] for m in BOARD_KEY if m in marks] + [
        NOT_DRAWN[m] for m in NOT_DRAWN if m not in marks and not (m in HIGHLIGHT and ringed)]


