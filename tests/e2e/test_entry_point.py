"""``python -m bot discord`` with DISCORD_TOKEN, exactly as deployed, against the fake Discord.

Stopping is tested in every phase where a stop signal once went astray. If the bot does not exit
in time, the test sends SIGUSR1 (the child dumps every thread's stack to stderr: faulthandler)
before killing it, and the failure shows that dump: a future flake says where the bot was stuck.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.e2e.fake_discord import FakeDiscord

pytestmark = [pytest.mark.e2e, pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]
STOP_TIMEOUT = 20.0

# The only differences from production: where discord.py connects, a stack dump on SIGUSR1 for
# the diagnosis of a child that does not stop, and a test's HOOK (code run before main).
LAUNCH = """
import faulthandler, signal, sys, discord, yarl
faulthandler.register(signal.SIGUSR1, all_threads=True)
discord.http.Route.BASE = sys.argv[1]
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[2])
exec(sys.argv[3])
from bot.__main__ import main
sys.exit(main(["discord"]))
"""

# SIGINT at the instant the gateway handshake ends: Python 3.11's asyncio.wait_for (around the
# handshake in discord.py's Client.connect) returns the result and drops a cancellation that
# arrives then, which was asyncio.run's one and only attempt to stop the bot.
SIGINT_AT_HANDSHAKE = """
import asyncio, os, signal, discord
handshake = discord.gateway.DiscordWebSocket.from_client
async def from_client(*args, **kwargs):
    ws = await handshake(*args, **kwargs)
    os.kill(os.getpid(), signal.SIGINT)
    return ws
discord.gateway.DiscordWebSocket.from_client = from_client
"""

# SIGINT during the start-up checks (data files validated before serving).
SIGINT_IN_DATA_CHECK = """
import os, signal, time
import bot.console
check = bot.console.data_ok
def data_ok():
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(0.2)
    return check()
bot.console.data_ok = data_ok
"""

# SIGINT while the SQLite store is being opened and migrated (an aiosqlite thread is running).
SIGINT_WHILE_THE_STORE_OPENS = """
import asyncio, os, signal
import bot.store
migrate = bot.store.Store._migrate
async def _migrate(self):
    os.kill(os.getpid(), signal.SIGINT)
    await asyncio.sleep(0.2)
    await migrate(self)
bot.store.Store._migrate = _migrate
"""

# SIGINT before the event loop runs (the bot is being built).
SIGINT_BEFORE_THE_LOOP = """
import os, signal
import bot.discord_app as app
build = app.TableBot.__init__
def __init__(self, **options):
    build(self, **options)
    os.kill(os.getpid(), signal.SIGINT)
app.TableBot.__init__ = __init__
"""

# SIGINT while setup_hook has the store open and the commands are not synced yet.
SIGINT_IN_SETUP = """
import asyncio, os, signal
import bot.discord_app as app
opened = app.open_service
async def open_service(path):
    service = await opened(path)
    os.kill(os.getpid(), signal.SIGINT)
    await asyncio.sleep(1)
    return service
app.TableBot.__init__.__kwdefaults__["service_factory"] = open_service
"""

# A background job of a non-interactive shell (`pytest ... &` in a script, the way one runs the
# suite "under load") inherits SIGINT as ignored, and Python keeps it so: asyncio.run then installs
# no SIGINT handler and discord.py's Client.run never hears it. This made the test flaky.
SIGINT_INHERITED_IGNORED = "import signal; signal.signal(signal.SIGINT, signal.SIG_IGN)"

# A drawing that never ends, in progress when the stop comes: the interpreter would wait for the
# drawing thread at exit forever; the stop deadline ends the process and says where it was stuck.
STUCK_DRAWING = """
import os, signal, time
import bot.discord_app as app
def stuck_drawing(view, **kwargs):
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(120)
    return b""
app._load_renderer = lambda: stuck_drawing
"""


@dataclass
class Child:
    process: asyncio.subprocess.Process
    stderr: bytearray = field(default_factory=bytearray)
    reader: asyncio.Task[None] | None = None

    def text(self) -> str:
        return self.stderr.decode(errors="replace")


async def launch(fake: FakeDiscord, tmp_path: Path, hook: str = "", **env_extra: str) -> Child:
    env = dict(
        os.environ, PYTHONPATH=str(ROOT), DISCORD_GUILD_ID=fake.guild_id, WARGAME_DB=str(tmp_path / "deployed.db")
    )
    env |= {"DISCORD_TOKEN": fake.token, **env_extra}  # a test may give another token
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", LAUNCH, fake.api_base, str(fake.gateway_url), hook,
        env=env, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    child = Child(process)

    async def drain() -> None:  # read stderr all along: a full pipe must never block the child
        assert process.stderr is not None
        while chunk := await process.stderr.read(65536):
            child.stderr += chunk

    child.reader = asyncio.create_task(drain())
    return child


async def wait_exit(child: Child, why: str, timeout: float = STOP_TIMEOUT) -> int:
    """The child's exit status; if it does not exit in time, fail with every thread's stack."""
    assert child.reader is not None
    try:
        await asyncio.wait_for(child.process.wait(), timeout)
    except TimeoutError:
        child.process.send_signal(signal.SIGUSR1)
        await asyncio.sleep(1.0)
        child.process.kill()
        await child.process.wait()
        await child.reader
        raise AssertionError(
            f"no exit within {timeout:.0f} s after {why}; the bot's threads then:\n{child.text()[-6000:]}"
        ) from None
    await child.reader
    assert child.process.returncode is not None
    return child.process.returncode


async def stop(child: Child, signum: signal.Signals = signal.SIGINT) -> int:
    if child.process.returncode is None:
        child.process.send_signal(signum)
    return await wait_exit(child, signum.name)


async def play(fake: FakeDiscord, child: Child) -> None:
    """Connect, sync and one command; fails at once, with the bot's stderr, if the bot exits or errs."""
    playing = asyncio.ensure_future(_play(fake))
    exited = asyncio.ensure_future(child.process.wait())
    await asyncio.wait({playing, exited}, return_when=asyncio.FIRST_COMPLETED)
    exited.cancel()
    if not playing.done():
        playing.cancel()
        raise AssertionError(f"the bot exited ({child.process.returncode}) while playing:\n{child.text()[-3000:]}")
    if (error := playing.exception()) is not None:
        raise AssertionError(f"{error}\nthe bot's stderr:\n{child.text()[-3000:]}") from error


async def _play(fake: FakeDiscord) -> None:
    await fake.wait_for(
        lambda: fake.identified.is_set() and fake.guild_id in fake.commands, 20, "the bot to connect and sync"
    )
    names = {c["name"] for c in fake.commands[fake.guild_id]}
    assert {"game", "order", "roll", "reveal", "deck", "hand", "play", "seal", "help"} <= names
    assert all(c["contexts"] == [0] for c in fake.commands[fake.guild_id])  # server channels only
    alice = fake.add_user("alice")
    reply = await fake.run(alice, "game new", {"system": "table", "scenario": "free"}, timeout=10)
    assert "Free table" in reply.text()


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
async def test_the_deployed_entry_point_plays_and_stops_cleanly(
    fake: FakeDiscord, tmp_path: Path, signum: signal.Signals
) -> None:
    child = await launch(fake, tmp_path)
    try:
        await play(fake, child)
    finally:
        returncode = await stop(child, signum)
    assert returncode == 0, child.text()[-2000:]
    assert (tmp_path / "deployed.db").exists()
    # The status edit the game asked for was still waiting out its delay: it is made at the stop.
    assert any(m.embeds and m.pinned for m in fake.channel_messages()), "no status message"
    assert not fake.violations


async def test_it_stops_on_sigint_even_when_started_with_sigint_ignored(fake: FakeDiscord, tmp_path: Path) -> None:
    child = await launch(fake, tmp_path, SIGINT_INHERITED_IGNORED)
    try:
        await play(fake, child)
    finally:
        returncode = await stop(child, signal.SIGINT)
    assert returncode == 0, child.text()[-2000:]


@pytest.mark.parametrize(
    "hook",
    [SIGINT_IN_DATA_CHECK, SIGINT_WHILE_THE_STORE_OPENS, SIGINT_BEFORE_THE_LOOP, SIGINT_IN_SETUP, SIGINT_AT_HANDSHAKE],
    ids=["in-data-check", "while-the-store-opens", "before-the-event-loop", "in-setup-hook", "at-gateway-handshake"],
)
async def test_a_stop_during_start_up_is_never_lost(fake: FakeDiscord, tmp_path: Path, hook: str) -> None:
    child = await launch(fake, tmp_path, hook)
    returncode = await wait_exit(child, "SIGINT (sent by the child itself)")
    assert returncode == 0, child.text()[-2000:]
    assert "Traceback" not in child.text(), child.text()[-2000:]


async def test_a_stuck_shutdown_step_is_cut_off_at_the_deadline_with_every_stack(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    child = await launch(fake, tmp_path, STUCK_DRAWING, WARGAME_STOP_SECONDS="3")
    await play(fake, child)
    await fake.slash(fake.add_user("bob"), "game board", {})  # its drawing never ends and sends SIGINT
    returncode = await wait_exit(child, "SIGINT during a drawing (deadline 3 s)", timeout=12)
    assert returncode == 1, child.text()[-2000:]
    assert "stuck_drawing" in child.text(), child.text()[-3000:]  # the stack says where it was stuck


async def test_a_refused_token_is_one_clear_line_and_exit_2(fake: FakeDiscord, tmp_path: Path) -> None:
    child = await launch(fake, tmp_path, DISCORD_TOKEN="not-the-token")
    returncode = await wait_exit(child, "a refused token")
    text = child.text()
    assert returncode == 2, text[-2000:]
    assert "Traceback" not in text, text[-3000:]
    assert "Discord refused DISCORD_TOKEN" in text.strip().splitlines()[-1], text[-2000:]


async def test_no_network_is_one_clear_line_and_exit_2(fake: FakeDiscord, tmp_path: Path) -> None:
    # Port 9 on the loopback (discard) has nobody listening: the connection is refused at once.
    child = await launch(fake, tmp_path, "discord.http.Route.BASE = 'http://127.0.0.1:9/api/v10'")
    returncode = await wait_exit(child, "no network")
    text = child.text()
    assert returncode == 2, text[-2000:]
    assert "Traceback" not in text, text[-3000:]
    assert "could not reach Discord" in text.strip().splitlines()[-1], text[-2000:]
