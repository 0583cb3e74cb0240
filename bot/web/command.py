"""``/game web``: a private link to the asker's own view of the channel's game on the web companion.

Each seat the asker holds gets its own signed link (the umpire's seat shows everything); anyone
gets the public page. ``/game web revoke`` (``revoke:true`` on Discord) makes every link to the
asker's seats stop working. The links point at ``WARGAME_WEB_URL`` (the address players reach, e.g.
behind a reverse proxy), else ``http://localhost:<WARGAME_WEB_PORT>``.
"""

from __future__ import annotations

import os

from bot.rooms.common import Output, User, flag
from bot.rooms.context import Table
from bot.rooms.seats import seat_label, user_seats
from bot.web import links
from games.core.errors import NotAllowed


def base_url() -> str:
    url = os.environ.get("WARGAME_WEB_URL", "").strip().rstrip("/")
    if url:
        return url
    port = os.environ.get("WARGAME_WEB_PORT", "").strip() or "8080"
    return f"http://localhost:{port}"


class WebLinks:
    """The room of ``/game web``: signed links to the asker's own views, and their revocation."""

    def __init__(self, ctx: Table) -> None:
        self.ctx = ctx

    async def game_web(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        loaded = await self.ctx.latest(channel)
        row = loaded.row
        mine = user_seats(row, user.id)
        labels = [seat_label(loaded, seat) for seat in mine]
        if opts.get("_verb") == "revoke" or flag(opts, "revoke"):
            if not mine:
                raise NotAllowed("You hold no seat in this game, so you have no link to revoke.",
                                 hint="The public page needs no link and cannot be revoked.")
            for seat in mine:
                await links.revoke(self.ctx.store, row.id, seat)
            return [Output("ephemeral", f"Your web links for {', '.join(labels)} no longer work. "
                           "/game web gives you new ones.", to=user.id)]
        base = f"{base_url()}/g/{row.id}"
        lines = [f"Public page (what anyone watching sees): {base}"]
        for seat, label in zip(mine, labels, strict=True):
            token = await links.issue(self.ctx.store, row, seat)
            lines.append(f"Your own view as {label} (keep it to yourself; good for {links.LINK_DAYS:g} days, "
                         f"or until /game web revoke or the seat changes hands): {base}?t={token}")
        return [Output("ephemeral", "\n".join(lines), to=user.id)]
