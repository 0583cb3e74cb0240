"""``python -m bot``: Discord when DISCORD_TOKEN is set, otherwise the local console table.

    python -m bot                 # Discord with DISCORD_TOKEN, else the console
    python -m bot console [...]   # the console table (see bot/console.py for its options)
    python -m bot discord         # Discord; fails clearly without a token
    python -m bot web             # the read-only web companion on WARGAME_WEB_PORT (see bot/web/server.py)
    python -m bot migrate --from var/wargame.db --to postgresql://user@host/db   # see bot/migrate.py
    python -m bot commands sync            # send the slash commands now (they are sent at start only when changed)
    python -m bot commands clear-guild ID  # remove the bot's commands from a guild used for testing

Configuration (environment): DISCORD_TOKEN, DISCORD_GUILD_ID (a development guild for instant
command sync), WARGAME_DB (default var/wargame.db; a SQLite path, sqlite:///path or
postgresql://user@host/db), WARGAME_DATA_PACKS (extra data folders), WARGAME_SHARDS and
WARGAME_SHARD_COUNT (which of Discord's shards this process connects; see docs/deploy.md).

Every data file and pack is validated before serving; on a problem the bot prints each one and
exits with status 3 (see games/core/schema.py).
"""

from __future__ import annotations

import os
import sys

from bot.database import DEFAULT_DB


def main(argv: list[str]) -> int:
    from bot import console

    if argv and argv[0] == "console":
        return console.main(argv[1:])
    if argv and argv[0] == "web":
        from bot.web import server

        return server.main(argv[1:])
    if argv and argv[0] == "migrate":
        from bot import migrate

        return migrate.main(argv[1:])
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if argv and argv[0] in ("discord", "commands") and not token:
        print("DISCORD_TOKEN is not set: cannot connect to Discord. See docs/deploy.md.", file=sys.stderr)
        return 2
    if argv and argv[0] == "commands":
        import asyncio

        from bot.discord_app import manage_commands

        guild = os.environ.get("DISCORD_GUILD_ID", "").strip()
        db = os.environ.get("WARGAME_DB", "").strip() or DEFAULT_DB
        return asyncio.run(manage_commands(token, db, argv[1:], int(guild) if guild else None))
    if argv and argv[0] not in ("discord",):
        print(__doc__, file=sys.stderr)
        return 2
    if not token:
        print("DISCORD_TOKEN is not set, so the bot is not connecting to Discord.\n"
              "Opening the local console table instead (the same games, rules and commands).", file=sys.stderr)
        return console.main([])
    from bot.discord_app import StopSignals, run_discord
    from bot.leases import EXIT_LEASE_LOST, LeaseLost

    stop = StopSignals()
    stop.install()  # a SIGINT or SIGTERM from here on lets the start-up checks end, then exits cleanly
    if not console.data_ok():  # the console path checks in console.main
        return 3
    from bot.database import check_store
    from bot.discord_app import ShardConfigError, shards_from_env

    try:
        shards = shards_from_env()
    except ShardConfigError as bad:
        print(f"Not starting: {bad}", file=sys.stderr)
        return 2

    db = os.environ.get("WARGAME_DB", "").strip() or DEFAULT_DB
    problem = check_store(db)
    if problem:
        print(f"Not starting: WARGAME_DB: {problem}", file=sys.stderr)
        return 2
    guild = os.environ.get("DISCORD_GUILD_ID", "").strip()
    try:
        run_discord(token, db_path=db, guild_id=int(guild) if guild else None, stop=stop, shards=shards)
    except LeaseLost as lost:  # another process serves its shards now; a supervisor restarts this one as a standby
        print(f"Stopped: {lost}", file=sys.stderr)
        return EXIT_LEASE_LOST
    except Exception as error:
        problem = start_failure(error)
        if problem is None:
            raise
        print(f"Not starting: {problem}", file=sys.stderr)
        return 2
    return 0


def start_failure(error: BaseException) -> str | None:
    """One line for a start that failed outside the bot (a refused token, no way to reach Discord);
    None for anything else, which stays a traceback because it is a bug to look into."""
    import discord

    from bot.leases import LeaseRefused

    if isinstance(error, LeaseRefused):
        return str(error)
    if isinstance(error, discord.LoginFailure):
        return (
            "Discord refused DISCORD_TOKEN (improper or revoked token): copy the bot's token again "
            "from the Developer Portal. See docs/deploy.md."
        )
    if isinstance(error, OSError | discord.GatewayNotFound):  # aiohttp's connection errors are OSErrors
        return f"could not reach Discord ({error}): check the network, DNS and any proxy, then start again."
    return None


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
