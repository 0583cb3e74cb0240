#!/usr/bin/env python3
"""The two Quickstart commands, each bootstrapping its own environment.

    python3 tasks.py run    # start the bot (Discord with DISCORD_TOKEN, else the console table)
    python3 tasks.py test   # ruff, mypy --strict on games/, render/ and bot/, then pytest

The first call creates ``.venv`` and installs ``requirements.lock`` (every version pinned);
later calls reinstall only when the lock file changes. Uses only the standard library.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
LOCK = ROOT / "requirements.lock"
STAMP = VENV / ".lock-sha256"
PY = VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def ensure_env() -> None:
    want = hashlib.sha256(LOCK.read_bytes()).hexdigest()
    if PY.exists() and STAMP.exists() and STAMP.read_text().strip() == want:
        return
    if sys.version_info < (3, 11):  # noqa: UP036  (tasks.py may be run by an older python3)
        sys.exit(f"Python 3.11 or newer is needed, this is {sys.version.split()[0]}.")
    print("Setting up .venv (first run, or requirements.lock changed)...", file=sys.stderr, flush=True)
    if not PY.exists():
        venv.EnvBuilder(with_pip=True).create(VENV)
    quiet = ["--quiet", "--disable-pip-version-check"]
    subprocess.run([str(PY), "-m", "pip", "install", *quiet, "-r", str(LOCK)], check=True)
    STAMP.write_text(want)


def run(cmd: list[str]) -> int:
    print("$", " ".join(cmd), flush=True)
    return subprocess.call(cmd, cwd=ROOT)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("run", "test"):
        print(__doc__)
        return 2
    ensure_env()
    os.environ["PYTHONPATH"] = str(ROOT)
    if argv[0] == "run":
        os.chdir(ROOT)
        os.execv(str(PY), [str(PY), "-m", "bot", *argv[1:]])
    steps = [
        [str(PY), "-m", "ruff", "check", "."],
        [str(PY), "-m", "mypy"],
        [str(PY), "-m", "pytest", *argv[1:]],
    ]
    failed = [" ".join(s[2:4]) for s in steps if run(s) != 0]
    if failed:
        print(f"FAILED: {', '.join(failed)}", flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
