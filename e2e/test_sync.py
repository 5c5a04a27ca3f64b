"""Sync between two devices through the real server (issue 27 part 2, decision 041).

scripts/sync_server.py runs on a free loopback port with a fresh data folder; two browser
contexts are two devices paired with one code. A folder made on one shows on the other; the
server is SIGKILLed, a device edits while it says Offline, and after a restart on the same data
both converge with nothing lost.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from e2e.conftest import open_app, screenshot
from e2e.lexical_ui import add_word, create_folder, dialog, tree_link, word_item

ROOT = Path(__file__).resolve().parent.parent
SYNC_TIMEOUT_MS = 20_000


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class SyncServer:
    def __init__(self, data: Path) -> None:
        self.port = _free_port()
        self.data = data
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [sys.executable, str(ROOT / "scripts" / "sync_server.py")]
        args = ["--port", str(self.port), "--data", str(self.data)]
        self.process = subprocess.Popen([*command, *args], stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.1)
        raise RuntimeError("the sync server did not start")

    def kill(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[SyncServer]:
    running = SyncServer(tmp_path / "sync-data")
    running.start()
    yield running
    if running.process is not None and running.process.poll() is None:
        running.process.terminate()
        running.process.wait()


def _status(page: Page):  # type: ignore[no-untyped-def]
    return page.locator("#sync-status")


def _open_sync(page: Page) -> None:
    if page.locator("#menu-button").is_visible():  # narrow windows fold the menu away
        page.locator("#menu-button").click()
    page.locator("#sync-button").click()


def _pair(page: Page, address: str, code: str | None) -> str:
    _open_sync(page)
    box = dialog(page)
    box.get_by_label("Server").fill(address)
    if code is not None:
        box.get_by_label("Sync code").fill(code)
    shown = box.get_by_label("Sync code").input_value()
    box.get_by_role("button", name="Pair").click()
    page.wait_for_function("document.documentElement.dataset.ready === 'true'", timeout=60_000)
    expect(_status(page)).to_have_text("Synced", timeout=SYNC_TIMEOUT_MS)
    return shown


def test_two_devices_sync_through_the_server(
    context: BrowserContext, base_url: str, server: SyncServer, browser
) -> None:  # type: ignore[no-untyped-def]
    address = f"ws://127.0.0.1:{server.port}"
    one = open_app(context, base_url)
    other_context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        two = open_app(other_context, base_url)
        _open_sync(one)
        screenshot(one, "sync-dialog")
        one.keyboard.press("Escape")
        code = _pair(one, address, None)
        assert len(code) == 26
        _pair(two, address, code)
        screenshot(one, "sync-toolbar")

        create_folder(one, "Made on one")
        expect(tree_link(two, "Made on one")).to_be_visible(timeout=SYNC_TIMEOUT_MS)
        create_folder(two, "Made on two")
        expect(tree_link(one, "Made on two")).to_be_visible(timeout=SYNC_TIMEOUT_MS)
        # A word added on one device, its meaning edited on the other.
        tree_link(one, "Made on one").click()
        add_word(one, "perro", ["dog"])
        tree_link(two, "Made on one").click()
        expect(word_item(two, "perro")).to_contain_text("dog", timeout=SYNC_TIMEOUT_MS)
        word_item(two, "perro").get_by_role("button", name="Edit").click()
        two.get_by_label("Meanings (one per line)").last.fill("dog\nhound")
        two.get_by_role("button", name="Save").last.click()
        expect(word_item(one, "perro")).to_contain_text("hound", timeout=SYNC_TIMEOUT_MS)

        server.kill()
        expect(_status(one)).to_have_text("Offline: changes will sync", timeout=SYNC_TIMEOUT_MS)
        create_folder(one, "Made offline")
        screenshot(one, "sync-offline")
        server.start()
        expect(tree_link(two, "Made offline")).to_be_visible(timeout=30_000)
        for page in (one, two):
            expect(_status(page)).to_have_text("Synced", timeout=SYNC_TIMEOUT_MS)
            for name in ("Made on one", "Made on two", "Made offline"):
                expect(tree_link(page, name)).to_have_count(1)
    finally:
        other_context.close()
