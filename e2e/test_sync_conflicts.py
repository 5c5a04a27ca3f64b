"""Changed on two devices (issue 27, "no silent loss"): two devices apart rename the same word;
once they meet again both say so in the toolbar, the dialog shows both versions, and keeping the
one not shown settles it on both devices. Through the real server on loopback."""

from __future__ import annotations

from playwright.sync_api import Browser, BrowserContext, Page, expect

from e2e.conftest import open_app, screenshot
from e2e.lexical_ui import add_word, create_folder, dialog, tree_link, word_item
from e2e.sync_devices import SYNC_TIMEOUT_MS, SyncServer, pair, sync_status


def _rename(page: Page, old: str, new: str) -> None:
    word_item(page, old).get_by_role("button", name="Edit").click()
    page.get_by_label("Term").last.fill(new)
    page.get_by_role("button", name="Save").last.click()
    expect(word_item(page, new)).to_be_visible()


def _to_check(page: Page) -> object:
    return page.get_by_role("button", name="1 to check")


def test_a_word_renamed_on_two_devices_apart_is_shown_and_settled_on_both(
    context: BrowserContext, base_url: str, server: SyncServer, browser: Browser
) -> None:
    address = f"ws://127.0.0.1:{server.port}"
    one = open_app(context, base_url)
    other = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        two = open_app(other, base_url)
        code = pair(one, address, None)
        pair(two, address, code)
        create_folder(one, "Spanish")
        add_word(one, "perro", ["dog"])
        expect(tree_link(two, "Spanish")).to_be_visible(timeout=SYNC_TIMEOUT_MS)
        tree_link(two, "Spanish").click()
        expect(word_item(two, "perro")).to_be_visible(timeout=SYNC_TIMEOUT_MS)

        server.kill()
        for page in (one, two):
            expect(sync_status(page)).to_have_text(
                "Offline: changes will sync", timeout=SYNC_TIMEOUT_MS
            )
        _rename(one, "perro", "perrito")
        _rename(two, "perro", "can")
        server.start()
        for page in (one, two):
            expect(_to_check(page)).to_be_visible(timeout=30_000)
        # Both show the same version meanwhile, and neither lost the other.
        shown = "can" if word_item(one, "can").count() else "perrito"
        hidden = "perrito" if shown == "can" else "can"
        expect(word_item(two, shown)).to_be_visible(timeout=SYNC_TIMEOUT_MS)

        _to_check(two).click()
        box = dialog(two)
        expect(box.get_by_role("heading", name="Changed on two devices")).to_be_visible()
        expect(box).to_contain_text(f"Word “{shown}” in “Spanish”: the term")
        expect(box.get_by_role("button", name=f"Keep “{shown}” (shown now)")).to_be_visible()
        screenshot(two, "sync-conflict")
        box.get_by_role("button", name=f"Keep “{hidden}”").click()
        expect(box).to_contain_text(f"Kept “{hidden}”")
        expect(box).to_contain_text("Nothing to check")
        box.get_by_role("button", name="Close").click()

        for page in (one, two):
            expect(word_item(page, hidden)).to_be_visible(timeout=SYNC_TIMEOUT_MS)
            expect(word_item(page, shown)).to_have_count(0)
            expect(_to_check(page)).to_be_hidden(timeout=SYNC_TIMEOUT_MS)
            expect(sync_status(page)).to_have_text("Synced", timeout=SYNC_TIMEOUT_MS)
    finally:
        other.close()
