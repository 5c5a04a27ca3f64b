"""A full disk: the edit is not reported as saved, the user is told why, and nothing is lost.

The browser's storage quota cannot be filled quickly in a test, so IndexedDB is made to fail
the way it does when full: the write transaction aborts with a QuotaExceededError.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from e2e.conftest import reload, screenshot
from e2e.lexical_ui import add_word, create_folder, save_status, wait_saved, word_item

DISK_FULL = """
const add = IDBObjectStore.prototype.add;
IDBObjectStore.prototype.add = function (...args) {
  const request = add.apply(this, args);
  if (window.__diskFull) {
    const tx = this.transaction;
    Object.defineProperty(tx, "error", {
      get: () => new DOMException("The quota has been exceeded.", "QuotaExceededError"),
    });
    tx.abort();
  }
  return request;
};
"""


def test_quota_error_is_shown_and_the_edit_is_kept_until_it_saves(app: Page) -> None:
    app.add_init_script(DISK_FULL)
    reload(app)
    create_folder(app, "Biology")
    add_word(app, "cell", ["smallest unit of life"])
    wait_saved(app)

    app.evaluate("window.__diskFull = true")
    add_word(app, "membrane", ["thin layer around the cell"])
    expect(save_status(app)).to_have_text(re.compile("^Not saved"))
    banner = app.get_by_role("alert")
    expect(banner).to_contain_text("storage for this site is full")
    expect(banner).to_contain_text("keep this tab open")
    expect(word_item(app, "membrane")).to_be_visible()
    screenshot(app, "quota-error")

    # Space is freed: the queued edit is retried and only then reported as saved.
    app.evaluate("window.__diskFull = false")
    expect(save_status(app)).to_have_text("Saved", timeout=15_000)
    expect(banner).to_be_hidden()
    reload(app)
    for term in ("cell", "membrane"):
        expect(word_item(app, term)).to_be_visible()
