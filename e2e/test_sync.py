"""Sync between two devices through the real server (issue 27 part 2, decision 041).

scripts/sync_server.py runs on a free loopback port with a fresh data folder; two browser
contexts are two devices paired with one code. A folder made on one shows on the other; the
server is SIGKILLed, a device edits while it says Offline, and after a restart on the same data
both converge with nothing lost.
"""

from __future__ import annotations

from playwright.sync_api import BrowserContext, expect

from e2e.conftest import open_app, screenshot
from e2e.lexical_ui import add_word, create_folder, tree_link, word_item
from e2e.sync_devices import SYNC_TIMEOUT_MS, SyncServer, open_sync, pair, sync_status


def test_two_devices_sync_through_the_server(
    context: BrowserContext, base_url: str, server: SyncServer, browser
) -> None:  # type: ignore[no-untyped-def]
    address = f"ws://127.0.0.1:{server.port}"
    one = open_app(context, base_url)
    other_context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        two = open_app(other_context, base_url)
        open_sync(one)
        screenshot(one, "sync-dialog")
        one.keyboard.press("Escape")
        code = pair(one, address, None)
        assert len(code) == 26
        pair(two, address, code)
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
        expect(sync_status(one)).to_have_text("Offline: changes will sync", timeout=SYNC_TIMEOUT_MS)
        create_folder(one, "Made offline")
        screenshot(one, "sync-offline")
        server.start()
        expect(tree_link(two, "Made offline")).to_be_visible(timeout=30_000)
        for page in (one, two):
            expect(sync_status(page)).to_have_text("Synced", timeout=SYNC_TIMEOUT_MS)
            for name in ("Made on one", "Made on two", "Made offline"):
                expect(tree_link(page, name)).to_have_count(1)
    finally:
        other_context.close()
