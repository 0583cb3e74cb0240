"""``python -m bot discord`` with DISCORD_TOKEN, exactly as deployed, against the fake Discord."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest

from tests.e2e.fake_discord import FakeDiscord

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]

# The only difference from production: where discord.py connects.
LAUNCH = """
import sys, discord, yarl
discord.http.Route.BASE = sys.argv[1]
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[2])
from bot.__main__ import main
sys.exit(main(["discord"]))
"""


async def test_the_deployed_entry_point_plays_and_stops_cleanly(fake: FakeDiscord, tmp_path: Path) -> None:
    env = dict(
        os.environ,
        PYTHONPATH=str(ROOT),
        DISCORD_TOKEN="fake-token",
        DISCORD_GUILD_ID=fake.guild_id,
        WARGAME_DB=str(tmp_path / "deployed.db"),
    )
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-c", LAUNCH, fake.api_base, str(fake.gateway_url),
        env=env, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    try:
        await fake.wait_for(
            lambda: fake.identified.is_set() and fake.guild_id in fake.commands, 20, "the bot to connect and sync"
        )
        names = {c["name"] for c in fake.commands[fake.guild_id]}
        assert {"game", "order", "roll", "reveal", "deck", "hand", "play", "seal", "help"} <= names
        assert all(c["contexts"] == [0] for c in fake.commands[fake.guild_id])  # server channels only
        alice = fake.add_user("alice")
        reply = await fake.run(alice, "game new", {"system": "table", "scenario": "free"}, timeout=10)
        assert "Free table" in reply.text()
    finally:
        child.send_signal(signal.SIGINT)
        _, err = await asyncio.wait_for(child.communicate(), 20)
    assert child.returncode == 0, err.decode()[-2000:]
    assert (tmp_path / "deployed.db").exists()
    assert not fake.violations
