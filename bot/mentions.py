"""Reading the users a player names in a text option (``to:``, ``who:``, ``user:``)."""

from __future__ import annotations

import re
from collections.abc import Callable

from games.core.errors import InvalidSyntax, quote

MENTION = re.compile(r"<@([!&]?)([^<>\s!&]+)>")  # <@id>, <@!id> (nickname form), <@&id> (a role)
HOW = "Mention each person with @ and pick the name offered as you type, e.g. @alice @bob."


def mentioned_users(text: str, mention: Callable[[str], str]) -> list[str]:
    """User ids from ``<@1> <@!2>``: both mention forms name the same user; a role is refused.

    ``mention`` is the front end's mention form: a word that is its own mention names that user
    (the console's ``@alice``). Any other word is refused, since a bare ``bob`` names nobody: it
    would deal cards, or open a sealed round, for a user that does not exist."""
    users: list[str] = []
    for word in MENTION.sub(lambda m: f" {m.group(0)} ", text).split():
        token = MENTION.fullmatch(word)
        if token and token.group(1) == "&":
            raise InvalidSyntax(f"{quote(word)} is a role, not a user.", hint=HOW)
        if token:
            users.append(token.group(2))
        elif word.startswith("@") and mention(word) == word:
            users.append(word)
        else:
            raise InvalidSyntax(f"{quote(word)} is not a mention of a user.", hint=HOW)
    return users
