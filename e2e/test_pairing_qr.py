"""Pairing a phone from the QR code (issue 27, decision 042): device A pairs and shows the QR
code of its pairing link; the link is decoded from a screenshot of A's page by a real decoder
(zxing-cpp); opening it in device B fills in B's Sync dialog, B pairs and gets A's word. A
damaged link says so in the dialog, and neither leaves the code in the address bar.
"""

from __future__ import annotations

import io
from urllib.parse import quote

import zxingcpp
from PIL import Image
from playwright.sync_api import Browser, BrowserContext, Page, expect

from e2e.conftest import Guard, guarded_context, open_app, screenshot
from e2e.lexical_ui import add_word, create_folder, dialog, tree_link, word_item
from e2e.sync_devices import SYNC_TIMEOUT_MS, SyncServer, open_sync, pair, sync_status

QR_LABEL = "QR code of the server address and sync code"


def _decoded(page: Page) -> list[str]:
    """The text of every QR code a scanner finds on a screenshot of the page."""
    image = Image.open(io.BytesIO(page.screenshot())).convert("L")
    # QR codes only, as tests/ui/test_qr_view.py says why.
    return [
        found.text for found in zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)
    ]


def _address_bar(page: Page) -> str:
    return str(page.evaluate("location.href"))


def test_a_second_device_pairs_from_the_qr_code(
    context: BrowserContext, base_url: str, server: SyncServer, browser: Browser, guard: Guard
) -> None:
    address = f"ws://127.0.0.1:{server.port}"
    one = open_app(context, base_url)
    code = pair(one, address, None)
    create_folder(one, "Spanish")
    add_word(one, "perro", ["dog"])

    open_sync(one)
    qr = dialog(one).get_by_role("img", name=QR_LABEL)
    expect(qr).to_be_visible(timeout=SYNC_TIMEOUT_MS)
    screenshot(one, "sync-qr")
    (link,) = _decoded(one)
    assert link == f"{base_url}/#pair={quote(address, safe='')}&code={code}"

    phone = guarded_context(browser, guard)
    try:
        # A damaged link: said in the dialog, and gone from the address bar.
        two = open_app(phone, base_url, f"/#pair={quote('ws://evil.example', safe='')}&code=x")
        expect(dialog(two).get_by_role("alert")).to_contain_text(
            "This pairing link cannot be used", timeout=SYNC_TIMEOUT_MS
        )
        assert _address_bar(two) == f"{base_url}/"
        two.keyboard.press("Escape")

        two.goto(link)
        two.wait_for_function("document.documentElement.dataset.ready === 'true'")
        box = dialog(two)
        expect(box.get_by_label("Server")).to_have_value(address, timeout=SYNC_TIMEOUT_MS)
        expect(box.get_by_label("Sync code")).to_have_value(code)
        expect(box).to_contain_text("Filled in from a pairing link")
        # Nothing pairs until the user says so, and the code left the address bar at once.
        expect(sync_status(two)).to_be_hidden()
        assert _address_bar(two) == f"{base_url}/"
        screenshot(two, "sync-qr-offer")
        box.get_by_role("button", name="Pair").click()
        two.wait_for_function("document.documentElement.dataset.ready === 'true'")
        expect(sync_status(two)).to_have_text("Synced", timeout=SYNC_TIMEOUT_MS)
        tree_link(two, "Spanish").click()
        expect(word_item(two, "perro")).to_contain_text("dog", timeout=SYNC_TIMEOUT_MS)
        # The entries of this tab's history hold no code: this one, and the one before it.
        assert "code=" not in _address_bar(two)
        two.go_back()
        assert "code=" not in _address_bar(two)
    finally:
        phone.close()
