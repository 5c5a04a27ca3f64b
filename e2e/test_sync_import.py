"""Sync after a big import (issue 27): a device that already holds 10,000 words pairs, and a
new device paired after it receives every one of them with its meanings, through the real server."""

from __future__ import annotations

import time
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, expect

from app.sync.pairing import OFFLINE, TOO_BIG, TOO_BIG_HELP
from e2e.conftest import open_app, screenshot
from e2e.lexical_ui import bulk_add, create_folder, tree_link, words_heading
from e2e.sync_devices import SYNC_TIMEOUT_MS, SyncServer, pair, sync_status

WORDS = 10_000
SMALL = 4_000  # over a megabyte of document
FIRST_SYNC_TIMEOUT_MS = 180_000


def test_a_collection_over_the_server_s_message_limit_says_it_is_not_synced(
    context: BrowserContext, base_url: str, tmp_path: Path
) -> None:
    # Measured before the limit was raised (tests/sync/test_server_limits.py): the server
    # closed each upload with 1009, kept nothing, and the toolbar said "Synced" between tries.
    # A device paired while the server is down sends all it holds in one message once the
    # server is up (online, pairing sends its rows a piece at a time).
    server = SyncServer(tmp_path / "sync-data", max_message_mb=1)
    try:
        one = open_app(context, base_url)
        create_folder(one, "Imported")
        bulk_add(one, "\n".join(f"palabra{i:05} - word {i}" for i in range(SMALL)), SMALL)
        pair(one, f"ws://127.0.0.1:{server.port}", None, until=OFFLINE)
        server.start()
        expect(sync_status(one)).to_have_text(TOO_BIG, timeout=SYNC_TIMEOUT_MS)
        one.wait_for_timeout(3_000)  # the provider tries again meanwhile: still not "Synced"
        expect(sync_status(one)).to_have_text(TOO_BIG)
        expect(sync_status(one)).to_have_attribute("title", TOO_BIG_HELP)
        screenshot(one, "sync-too-big")
    finally:
        if server.process is not None:
            server.kill()


def test_a_device_paired_after_a_big_import_receives_it_all(
    context: BrowserContext, base_url: str, server: SyncServer, browser: Browser
) -> None:
    address = f"ws://127.0.0.1:{server.port}"
    one = open_app(context, base_url)
    create_folder(one, "Imported")
    bulk_add(one, "\n".join(f"palabra{i:05} - word {i}" for i in range(WORDS)), WORDS)
    code = pair(one, address, None)
    other = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        two = open_app(other, base_url)
        started = time.monotonic()
        pair(two, address, code)
        expect(tree_link(two, "Imported")).to_be_visible(timeout=FIRST_SYNC_TIMEOUT_MS)
        tree_link(two, "Imported").click()
        expect(words_heading(two, WORDS)).to_be_visible(timeout=FIRST_SYNC_TIMEOUT_MS)
        expect(sync_status(two)).to_have_text("Synced", timeout=FIRST_SYNC_TIMEOUT_MS)
        two.get_by_label("Filter words").fill(f"palabra{WORDS - 1:05}")
        expect(two.get_by_text(f"word {WORDS - 1}", exact=True)).to_be_visible()
        print(f"first sync of {WORDS:,} words: {time.monotonic() - started:.1f} s")
        screenshot(two, "sync-after-import")
    finally:
        other.close()
