"""A throwaway PostgreSQL server for tests: initdb + pg_ctl on a temporary folder, reachable only by
its Unix socket in that folder (no TCP), torn down at the end. Any test (store, service, e2e,
benchmark) gets a fresh database from ``server.new_database()`` as a ``postgresql://`` URL.

PostgreSQL refuses to run as root, so as root the server runs as the ``postgres`` user if there is
one, else ``nobody``. Without binaries ``find_binaries`` returns None and callers skip.
"""

from __future__ import annotations

import atexit
import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import quote

SKIP_REASON = ("PostgreSQL server binaries (initdb, pg_ctl) not found: install postgresql "
               "(.ci/run does) to run the PostgreSQL backend tests")
SUPERUSER = "wargame"


def find_binaries() -> Path | None:
    """The folder holding initdb and pg_ctl: on PATH, or Debian's /usr/lib/postgresql/<v>/bin."""
    on_path = shutil.which("initdb")
    if on_path and shutil.which("pg_ctl"):
        return Path(on_path).resolve().parent
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if Path(folder, "initdb").exists() and Path(folder, "pg_ctl").exists():
            return Path(folder)
    return None


class PgServer:
    """One server for the session; ``new_database`` for each test."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="wargame-pg-"))
        self.data = self.root / "data"
        self._names = itertools.count(1)
        self._user: str | None = None
        if os.geteuid() == 0:
            self._user = next((u for u in ("postgres", "nobody") if _has_user(u)), None)
            if self._user is None:
                raise RuntimeError("running as root and no 'postgres' or 'nobody' user to run PostgreSQL as")
            entry = pwd.getpwnam(self._user)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
        os.chmod(self.root, 0o700)

    def _run(self, *args: str) -> None:
        cmd = [str(self.bindir / args[0]), *args[1:]]
        if self._user is not None:
            cmd = ["runuser", "-u", self._user, "--", *cmd]
        result = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=self.root)
        if result.returncode != 0:
            raise RuntimeError(f"{args[0]} failed ({result.returncode}): {result.stderr.strip() or result.stdout.strip()}")

    def start(self) -> None:
        self._run("initdb", "-D", str(self.data), "-U", SUPERUSER, "--auth=trust", "--no-sync", "-E", "UTF8",
                  "--locale=C")
        # only the socket in our own folder; durability is irrelevant for a throwaway server
        options = (f"-c listen_addresses='' -c unix_socket_directories='{self.root}' -c fsync=off"
                   " -c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "server.log"), "-o", options, "-w", "start")
        atexit.register(self.stop)  # also when the run ends without its fixture teardown (Ctrl-C)

    def stop(self) -> None:
        """Stop the server and remove its folder (twice is harmless)."""
        try:
            if (self.data / "postmaster.pid").exists():
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str) -> str:
        return f"postgresql://{SUPERUSER}@/{database}?host={quote(str(self.root))}"

    async def new_database(self) -> str:
        """A new empty database on this server, as the URL the bot would be given."""
        import asyncpg

        name = f"test_{os.getpid()}_{next(self._names)}"
        con = await asyncpg.connect(self.url("postgres"))
        try:
            await con.execute(f'CREATE DATABASE "{name}"')
        finally:
            await con.close()
        return self.url(name)

    async def drop_database(self, url: str) -> None:
        """Drop a test's database, ending connections the test left open."""
        import asyncpg

        name = url.split("/")[-1].split("?")[0]
        con = await asyncpg.connect(self.url("postgres"))
        try:
            await con.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await con.close()


def _has_user(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True
