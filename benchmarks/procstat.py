"""CPU seconds of processes from /proc (Linux; 0.0 and no processes elsewhere), for the benchmarks
that count a bot's drawing processes apart from the bot's own process."""

from __future__ import annotations

import contextlib
import os


def process_cpu(pid: int) -> float:
    """CPU seconds (user + system) one process has used so far; 0.0 where /proc is missing."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read().rsplit(")", 1)[1].split()
        return (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def descendants(pid: int) -> list[int]:
    """Every live process below ``pid`` (a bot's drawing processes and their forkserver)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else []:
        if entry.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError), open(f"/proc/{entry}/stat") as f:
                parents[int(entry)] = int(f.read().rsplit(")", 1)[1].split()[1])
    found, frontier = [], [pid]
    while frontier:
        children = [c for c, p in parents.items() if p in frontier]
        found += children
        frontier = children
    return found
