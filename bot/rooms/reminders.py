"""Reminders: /game remind sets when, and the scan pings whoever a game waits on."""

from __future__ import annotations

from collections.abc import Collection

from bot.rooms.common import Output, User
from bot.rooms.context import Table
from bot.rooms.seats import umpire_of, users_to_act
from games.core.errors import GameError, InvalidSyntax, NotAllowed


class Reminders:
    """Set a game's reminder hours; find, claim and word the reminders that are due."""

    def __init__(self, ctx: Table) -> None:
        self.ctx = ctx

    async def game_remind(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        loaded = await self.ctx.live(channel)
        row = loaded.row
        umpire = umpire_of(row)
        if umpire != user.id and not user.manage_server:
            who = f"the umpire (<@{umpire}>) or a member with Manage Server" if umpire else "a member with Manage Server"
            raise NotAllowed(f"Only {who} can change this game's reminders.",
                             hint="Reminders ping whoever must act; players cannot quieten them for each other.")
        try:
            after = float(opts.get("after", row.remind_after / 3600))
            every = float(opts.get("every", row.remind_every / 3600))
        except ValueError:
            raise InvalidSyntax("Give hours as numbers, e.g. /game remind after:12 every:24.") from None
        if not (0.05 <= after <= 24 * 30 and 0.05 <= every <= 24 * 30):
            raise InvalidSyntax("Reminder hours must be between 0.05 and 720.")
        await self.ctx.store.touch(row.id, remind_after=after * 3600, remind_every=every * 3600)
        return [Output("message", f"Reminders: after {after:g} h without an order, then every {every:g} h.", channel=channel)]

    async def due_reminders(self, now: float | None = None, channels: Collection[str] | None = None) -> list[Output]:
        """Reminder pings for games whose seats to act have been idle too long. Only due games are
        read (an indexed query), each claimed and marked as reminded at ``now`` in the same statement,
        so another process scanning at once gets none of them; a claimed game is not read again
        before ``remind_every`` even when nobody is to act or its system no longer loads here.
        ``channels``: only games in these channels (a sharded bot's own guilds'); None: all."""
        now = self.ctx.clock() if now is None else now
        outputs: list[Output] = []
        for row in await self.ctx.store.claim_due_games(now, channels=channels):
            try:
                users = users_to_act(self.ctx.decode(row))
            except GameError:  # its system no longer loads here: skip it, keep reminding the others
                continue
            if not users:
                continue
            hours = (now - row.last_activity) / 3600
            outputs.append(self.ctx.format(Output(
                "message",
                f"Reminder: {' '.join('<@' + u + '>' for u in users)}, the game here is waiting for you "
                f"({hours:.0f} h since the last order).",
                channel=row.channel,
            )))
        return outputs

