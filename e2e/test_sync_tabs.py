"""Only the writer tab syncs (decision 041): when it closes, the tab that takes over writing
connects to the sync server too, so the device keeps syncing (issue 27, "a second tab still
follows the first"). Through the real server on loopback."""

from __future__ import annotations

from playwright.sync_api import Browser, BrowserContext, expect

from e2e.conftest import open_app
from e2e.lexical_ui import create_folder, toast, tree_link
from e2e.sync_devices import SYNC_TIMEOUT_MS, SyncServer, pair, sync_status


def test_the_tab_that_takes_over_writing_syncs(
    context: BrowserContext, base_url: str, server: SyncServer, browser: Browser
) -> None:
    address = f"ws://127.0.0.1:{server.port}"
    first = open_app(context, base_url)
    code = pair(first, address, None)
    follower = open_app(context, base_url)
    expect(follower.get_by_role("alert")).to_contain_text("open in another tab")
    expect(sync_status(follower)).to_be_hidden()  # it follows the writer's saved edits
    other = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        device_two = open_app(other, base_url)
        pair(device_two, address, code)
        create_folder(first, "Before the handover")
        expect(tree_link(follower, "Before the handover")).to_be_visible(timeout=SYNC_TIMEOUT_MS)

        first.close()
        expect(toast(follower)).to_contain_text("this tab can now make changes")
        expect(sync_status(follower)).to_have_text("Synced", timeout=SYNC_TIMEOUT_MS)
        create_folder(follower, "After the handover")
        expect(tree_link(device_two, "After the handover")).to_be_visible(timeout=SYNC_TIMEOUT_MS)
        create_folder(device_two, "From the other device")
        expect(tree_link(follower, "From the other device")).to_be_visible(timeout=SYNC_TIMEOUT_MS)
    finally:
        other.close()
