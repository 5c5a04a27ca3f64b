"""Damaged storage and failed startups: the app says what happened and keeps what it can."""

from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import BrowserContext, Page, Route, expect

from e2e.conftest import Guard, reload, screenshot
from e2e.lexical_ui import add_word, create_folder, dialog, tree_link, wait_saved, word_item


def rewrite(page: Page, store: str, body: str) -> object:
    """Run `body` (JavaScript, given `store`, one object store of Lexical's IndexedDB open for
    writing, and `read(request)`, which awaits a request's result) as one transaction, the
    way damage would reach the saved data behind the app's back; returns what `body` returns."""
    return page.evaluate(
        """async (name) => {
          const db = await new Promise((ok, fail) => {
            const r = indexedDB.open("lexical"); r.onsuccess = () => ok(r.result); r.onerror = fail;
          });
          const tx = db.transaction(name, "readwrite");
          const store = tx.objectStore(name);
          const read = (r) => new Promise((ok) => { r.onsuccess = () => ok(r.result); });
          const result = await (async () => {"""
        + body
        + """})();
          await new Promise((ok) => { tx.oncomplete = ok; });
          db.close();
          return result;
        }""",
        store,
    )


# Overwrite the newest operation-log entry with torn JSON, as a crash mid-write on a broken
# disk might leave it; returns its seq.
TEAR_NEWEST_EDIT = """
  const keys = await read(store.getAllKeys());
  const last = keys[keys.length - 1];
  store.put({seq: last, text: '{"seq": ' + last + ', "sum": "torn'});
  return last;
"""


def test_a_torn_log_entry_keeps_everything_before_it_and_says_so(app: Page) -> None:
    create_folder(app, "Anatomy")
    for term in ("aorta", "atrium", "ventricle"):
        add_word(app, term, ["part of the heart"])
    wait_saved(app)
    torn = rewrite(app, "ops", TEAR_NEWEST_EDIT)
    reload(app)
    banner = app.get_by_role("alert").filter(has_text="restored up to edit")
    expect(banner).to_contain_text(f"restored up to edit {torn - 1}")
    expect(word_item(app, "aorta")).to_be_visible()
    expect(word_item(app, "atrium")).to_be_visible()
    expect(word_item(app, "ventricle")).to_have_count(0)
    # The recovered state is secured: a new edit and another reload keep it, without the banner.
    add_word(app, "septum", ["wall between chambers"])
    wait_saved(app)
    expect(banner).to_be_visible()  # a save that works says nothing about what was lost
    reload(app)
    expect(word_item(app, "septum")).to_be_visible()
    expect(word_item(app, "atrium")).to_be_visible()
    expect(app.get_by_role("alert").filter(has_text="restored up to edit")).to_have_count(0)


# Replace the newest operation-log record with an object that is no entry at all (no text), as
# another program or a broken extension might; returns its seq.
MANGLE_NEWEST_EDIT = """
  const keys = await read(store.getAllKeys());
  const last = keys[keys.length - 1];
  store.put({seq: last, note: "not an entry"});
  return last;
"""


def test_a_malformed_log_record_is_recovered_like_a_torn_one_and_offered_for_download(
    app: Page,
) -> None:
    create_folder(app, "Anatomy")
    for term in ("aorta", "atrium"):
        add_word(app, term, ["part of the heart"])
    wait_saved(app)
    mangled = rewrite(app, "ops", MANGLE_NEWEST_EDIT)
    reload(app)
    banner = app.get_by_role("alert").filter(has_text="restored up to edit")
    expect(banner).to_contain_text(f"restored up to edit {mangled - 1}")
    expect(word_item(app, "aorta")).to_be_visible()
    expect(word_item(app, "atrium")).to_have_count(0)
    with app.expect_download() as download:
        banner.get_by_role("button", name="Download what could not be restored").click()
    saved = json.loads(Path(download.value.path()).read_text())
    assert saved["entries"][0]["seq"] == mangled
    assert json.loads(saved["entries"][0]["text"]) == {"seq": mangled, "note": "not an entry"}
    add_word(app, "septum", ["wall between chambers"])  # and it keeps working
    wait_saved(app)
    reload(app)
    expect(word_item(app, "septum")).to_be_visible()


DAMAGE_EVERY_SNAPSHOT = """
  for (const row of await read(store.getAll())) { row.checksum = "0".repeat(64); store.put(row); }
"""
TEAR_EVERY_EDIT = """
  for (const key of await read(store.getAllKeys())) store.put({seq: key, text: "{torn"});
"""


def test_after_a_total_loss_the_app_saves_again(app: Page) -> None:
    create_folder(app, "Lost")
    for term in ("aorta", "atrium"):
        add_word(app, term, ["part of the heart"])
    wait_saved(app)
    rewrite(app, "snapshots", DAMAGE_EVERY_SNAPSHOT)
    rewrite(app, "ops", TEAR_EVERY_EDIT)
    reload(app)
    expect(app.get_by_role("alert")).to_contain_text("Nothing could be restored.")
    create_folder(app, "Starting over")
    wait_saved(app)
    reload(app)
    expect(tree_link(app, "Starting over")).to_be_visible()
    expect(app.get_by_role("alert").filter(has_text="restored")).to_have_count(0)


# Change one letter of a meaning inside the newest snapshot, keeping its recorded checksum, as
# a failing disk might. The database stays well-formed (SQLite's own check passes), so only the
# checksum can tell. Returns the edit the snapshot was taken at.
DAMAGE_NEWEST_SNAPSHOT = """
  const rows = await read(store.getAll());
  const newest = rows.filter((row) => !Array.isArray(row.slot))
    .reduce((a, b) => (b.seq > a.seq ? b : a));
  const pieces = rows.filter((row) => Array.isArray(row.slot) && row.slot[0] === newest.slot);
  const word = new TextEncoder().encode("meaning number 7");
  for (const piece of pieces) {
    const data = piece.data;
    const at = data.findIndex((_, i) => word.every((byte, j) => data[i + j] === byte));
    if (at < 0) continue;
    data[at] = "M".charCodeAt(0);
    store.put(piece);
    return newest.seq;
  }
  throw new Error("the snapshot does not hold the meaning to damage");
"""
PASTE = """text => {
  const area = document.querySelector("#bulk-text");
  area.value = text;
  area.dispatchEvent(new InputEvent("input", { bubbles: true }));
}"""
SNAPSHOTS_WRITTEN = "performance.getEntriesByName('lexical:snapshot').length"


def test_a_damaged_snapshot_is_noticed_and_the_log_restores_the_edits(app: Page) -> None:
    # Over a megabyte of log makes the app write a snapshot once editing pauses.
    create_folder(app, "Lists")
    app.get_by_role("button", name="Bulk paste…").click()
    app.evaluate(PASTE, "\n".join(f"term{i:05d} - meaning number {i}" for i in range(8000)))
    dialog(app).get_by_role("button", name=re.compile(r"^Add 8,?000 words$")).click()
    wait_saved(app)
    app.wait_for_function(f"{SNAPSHOTS_WRITTEN} > 0", timeout=30_000)
    create_folder(app, "Anatomy")
    add_word(app, "aorta", ["the main artery"])
    wait_saved(app)
    reload(app)  # the snapshot is read back (and found intact), then the log on top of it
    expect(word_item(app, "aorta")).to_be_visible()
    expect(app.get_by_role("alert").filter(has_text="damaged")).to_have_count(0)

    damaged = rewrite(app, "snapshots", DAMAGE_NEWEST_SNAPSHOT)
    reload(app)
    expect(app.get_by_role("alert")).to_contain_text(
        f"The saved copy from edit {damaged:,} is damaged."
    )
    # Nothing is lost: the log still holds every edit since the start.
    expect(word_item(app, "aorta")).to_be_visible()
    screenshot(app, "damaged-snapshot")
    expect(tree_link(app, "Lists")).to_have_accessible_name(re.compile(r"Lists, 8,?000 words"))


def test_a_startup_failure_is_shown_on_the_page(
    context: BrowserContext, base_url: str, guard: Guard
) -> None:
    def fail_app_code(route: Route) -> None:
        route.fulfill(status=500, body="server error")

    context.route("**/static/build/app.zip", fail_app_code)
    page = context.new_page()
    page.goto(base_url + "/")
    error = page.get_by_role("alert").filter(has_text="Lexical could not start")
    expect(error).to_be_visible(timeout=60_000)
    expect(error).to_contain_text("Reload the page")
    assert page.evaluate("document.documentElement.dataset.ready") is None
    guard.errors.clear()  # the failure is the point of this test
