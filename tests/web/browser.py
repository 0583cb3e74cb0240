"""Headless Chromium driven through chromedriver's WebDriver protocol, with aiohttp only.

``Browser`` starts ``chromedriver`` on a free port and one headless session; its calls are the few
the web tests need (open a URL, run a script, click, wait for a condition, take a screenshot).
Debian's ``chromium`` and ``chromium-driver`` packages provide both programs; ``.ci/run``
installs them when missing and then sets ``WARGAME_BROWSER_TESTS=required``, so in CI a missing
browser fails the tests instead of skipping them.
"""

from __future__ import annotations

import asyncio
import base64
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"  # the W3C WebDriver element key


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def programs() -> tuple[str, str]:
    """The chromium and chromedriver executables; skip (or fail, when required) without them."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    driver = shutil.which("chromedriver")
    if browser and driver:
        return browser, driver
    reason = "headless Chromium tests need the chromium and chromium-driver packages (.ci/run installs them)"
    if os.environ.get("WARGAME_BROWSER_TESTS") == "required":
        pytest.fail(f"{reason}, but they are missing although WARGAME_BROWSER_TESTS=required")
    pytest.skip(reason)


class Browser:
    def __init__(self, driver: subprocess.Popen[bytes], url: str, http: aiohttp.ClientSession, session: str) -> None:
        self.driver, self.url, self.http, self.session = driver, url, http, session

    @classmethod
    async def start(cls) -> Browser:
        browser, driver_path = programs()
        port = free_port()
        driver = subprocess.Popen([driver_path, f"--port={port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        url = f"http://127.0.0.1:{port}"
        http = aiohttp.ClientSession()
        try:
            for _ in range(100):
                try:
                    async with http.get(f"{url}/status") as response:
                        if (await response.json())["value"]["ready"]:
                            break
                except aiohttp.ClientError:
                    pass
                await asyncio.sleep(0.1)
            options = {"binary": browser, "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                                                   "--disable-dev-shm-usage", "--window-size=1400,1000"]}
            caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": options}}}
            async with http.post(f"{url}/session", json=caps) as response:
                data = await response.json()
            if "sessionId" not in data["value"]:
                raise RuntimeError(f"chromedriver refused a session: {data['value']}")
            return cls(driver, url, http, data["value"]["sessionId"])
        except BaseException:
            await http.close()
            driver.kill()
            driver.wait()
            raise

    async def close(self) -> None:
        try:
            async with self.http.delete(f"{self.url}/session/{self.session}"):
                pass
        finally:
            await self.http.close()
            self.driver.terminate()
            try:
                self.driver.wait(10)
            except subprocess.TimeoutExpired:
                self.driver.kill()
                self.driver.wait()

    async def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        async with self.http.request(method, f"{self.url}/session/{self.session}{path}", json=body or {}) as response:
            data = await response.json()
        if response.status != 200:
            raise RuntimeError(f"WebDriver {path}: {data['value']}")
        return data["value"]

    async def open(self, url: str) -> None:
        await self.call("POST", "/url", {"url": url})

    async def js(self, script: str, *args: Any) -> Any:
        return await self.call("POST", "/execute/sync", {"script": script, "args": list(args)})

    async def click(self, css: str) -> None:
        element = await self.call("POST", "/element", {"using": "css selector", "value": css})
        await self.call("POST", f"/element/{element[ELEMENT]}/click")

    async def wait_for(self, script: str, *, timeout: float = 10.0, what: str = "") -> Any:
        """Poll ``script`` (a JS expression) until it is truthy; its value, or a failure saying what."""
        deadline = time.monotonic() + timeout
        value = None
        while time.monotonic() < deadline:
            value = await self.js(f"return {script};")
            if value:
                return value
            await asyncio.sleep(0.05)
        raise AssertionError(f"waited {timeout} s for {what or script}; last value {value!r}")

    async def screenshot(self, path: Path) -> bytes:
        png = base64.b64decode(await self.call("GET", "/screenshot"))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(png)
        return png
