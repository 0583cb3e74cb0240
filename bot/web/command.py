"""``/game web``: a private link to the asker's own view of the channel's game on the web companion.

Each seat the asker holds gets its own signed link (the umpire's seat shows everything); anyone
gets the public page. ``/game web revoke`` (``revoke:true`` on Discord) makes every link to the
asker's seats stop working. The links point at ``WARGAME_WEB_URL`` (the address players reach, e.g.
behind a reverse proxy), else ``http://localhost:<WARGAME_WEB_PORT>``.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from bot.web import links
from games.core.errors import NotAllowed

if TYPE_CHECKING:
    from bot.service import Output, TableService, User


def base_url() -> str:
    url = os.environ.get("WARGAME_WEB_URL", "").strip().rstrip("/")
    if url:
        return url
    port = os.environ.get("WARGAME_WEB_PORT", "").strip() or "8080"
    return f"http://localhost:{port}"


async def game_web(service: TableService, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
    from bot.service import Output, _flag

    loaded = await service._latest(channel)
    row = loaded.row
    mine = service._user_seats(row, user.id)
    labels = [service._seat_label(loaded, seat) for seat in mine]
    if opts.get("_verb") == "revoke" or _flag(opts, "revoke"):
        if not mine:
            raise NotAllowed("You hold no seat in this game, so you have no link to revoke.",
                             hint="The public page needs no link and cannot be revoked.")
        for seat in mine:
            await links.revoke(service.store, row.id, seat)
        return [Output("ephemeral", f"Your web links for {', '.join(labels)} no longer work. "
                       "/game web gives you new ones.", to=user.id)]
    base = f"{base_url()}/g/{row.id}"
    lines = [f"Public page (what anyone watching sees): {base}"]
    for seat, label in zip(mine, labels, strict=True):
        token = await links.issue(service.store, row, seat)
        lines.append(f"Your own view as {label} (keep it to yourself; good for {links.LINK_DAYS:g} days, "
                     f"or until /game web revoke or the seat changes hands): {base}?t={token}")
    return [Output("ephemeral", "\n".join(lines), to=user.id)]
