"""``python -m bot migrate --from SOURCE --to TARGET``: copy a whole database to another backend.

    python -m bot migrate --from var/wargame.db --to postgresql://wargame@dbhost/wargame

Every game (finished ones and table-tools streams too) is copied with its ids, versions, seeds,
snapshots, timestamps and whole order log (undone orders stay marked), along with the reminder
bookkeeping, pending votes to end a game and who has closed DMs. The copy is one transaction on the target: it is refused when
the target already holds anything, and it is rolled back unless the target's counts (games, orders,
undone orders, closed DMs, votes, the sum of versions) equal the source's; they are read again after the
commit. Either side may be SQLite or PostgreSQL (so the way back is the same command). Stop the bot
first: a source that changes during the copy fails the check and nothing is written.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
from pathlib import Path

from bot.database import open_store
from bot.storage import CopyRefused, Counts, StoreUnavailable, is_postgres, sqlite_path


async def copy_database(source: str, target: str) -> Counts:
    """Copy ``source`` into the empty ``target``; CopyRefused or StoreUnavailable say why not."""
    if not is_postgres(source) and not Path(sqlite_path(source)).is_file():
        raise CopyRefused(f"there is no SQLite database at {source!r} to copy from; nothing was written")
    if source == target:
        raise CopyRefused("the source and the target are the same database; nothing was written")
    src = await open_store(source)
    try:
        dst = await open_store(target)
        try:
            expected = await src.counts()
            # closed as soon as the import ends, so the source's read transaction never outlives it
            async with contextlib.aclosing(src.export_games()) as games:
                await dst.import_copy(games, await src.bookkeeping(), expected)
            stored = await dst.counts()  # read again after the commit, by a new statement
            if stored != expected:
                raise CopyRefused(f"the copy was written, but the target now holds {stored} and the source {expected}: "
                                 "was a bot running on either?")
            return stored
        finally:
            await dst.close()
    finally:
        await src.close()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot migrate",
        description="Copy every game, order log and bookkeeping from one database to another, empty one "
                    "(SQLite file path or sqlite:///path, or postgresql://...). Stop the bot first.",
    )
    parser.add_argument("--from", dest="source", required=True, help="the database to copy (e.g. var/wargame.db)")
    parser.add_argument("--to", dest="target", required=True, help="an empty database (e.g. postgresql://user@host/db)")
    args = parser.parse_args(argv)
    try:
        counts = asyncio.run(copy_database(args.source, args.target))
    except StoreUnavailable as exc:
        print(f"migrate: {exc}", file=sys.stderr)
        return 2
    except CopyRefused as exc:
        print(f"migrate: {exc}", file=sys.stderr)
        return 1
    print(f"Copied {counts.games} games ({counts.orders} orders, {counts.undone} of them undone), "
          f"{counts.end_votes} pending votes to end a game and {counts.dm_closed} closed-DM marks; "
          "the target's counts equal the source's.")
    return 0
