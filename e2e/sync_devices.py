"""Two devices and a sync server: the real server (scripts/sync_server.py) on a free loopback
port, and the steps a person takes in the Sync dialog (e2e/test_sync.py, e2e/test_pairing_qr.py).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from playwright.sync_api import Locator, Page, expect

from e2e.lexical_ui import dialog

ROOT = Path(__file__).resolve().parent.parent
SYNC_TIMEOUT_MS = 20_000


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class SyncServer:
    def __init__(self, data: Path, *, max_message_mb: int | None = None) -> None:
        self.port = _free_port()
        self.data = data
        self.max_message_mb = max_message_mb
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [sys.executable, str(ROOT / "scripts" / "sync_server.py")]
        args = ["--port", str(self.port), "--data", str(self.data)]
        if self.max_message_mb is not None:
            args += ["--max-message-mb", str(self.max_message_mb)]
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


def sync_status(page: Page) -> Locator:
    return page.locator("#sync-status")


def open_sync(page: Page) -> None:
    if page.locator("#menu-button").is_visible():  # narrow windows fold the menu away
        page.locator("#menu-button").click()
    page.locator("#sync-button").click()


def pair(page: Page, address: str, code: str | None, *, until: str = "Synced") -> str:
    """Pair from the Sync dialog; returns the code once the toolbar says `until`."""
    open_sync(page)
    box = dialog(page)
    box.get_by_label("Server").fill(address)
    if code is not None:
        box.get_by_label("Sync code").fill(code)
    shown = box.get_by_label("Sync code").input_value()
    box.get_by_role("button", name="Pair").click()
    page.wait_for_function("document.documentElement.dataset.ready === 'true'", timeout=60_000)
    expect(sync_status(page)).to_have_text(until, timeout=SYNC_TIMEOUT_MS)
    return shown
