"""Damaged storage and failed startups: the app says what happened and keeps what it can."""

from __future__ import annotations

from playwright.sync_api import BrowserContext, Page, Route, expect

from e2e.conftest import Guard, reload
from e2e.lexical_ui import add_word, create_folder, wait_saved, word_item

# Overwrite the newest operation-log entry in IndexedDB with torn JSON, as a crash mid-write
# on a broken disk might leave it.
TEAR_NEWEST_EDIT = """async () => {
  const db = await new Promise((ok, fail) => {
    const r = indexedDB.open("lexical"); r.onsuccess = () => ok(r.result); r.onerror = fail;
  });
  const tx = db.transaction("ops", "readwrite");
  const store = tx.objectStore("ops");
  const keys = await new Promise((ok) => {
    const r = store.getAllKeys(); r.onsuccess = () => ok(r.result);
  });
  const last = keys[keys.length - 1];
  store.put({seq: last, text: '{"seq": ' + last + ', "sum": "torn'});
  await new Promise((ok) => { tx.oncomplete = ok; });
  db.close();
  return last;
}"""


def test_a_torn_log_entry_keeps_everything_before_it_and_says_so(app: Page) -> None:
    create_folder(app, "Anatomy")
    for term in ("aorta", "atrium", "ventricle"):
        add_word(app, term, ["part of the heart"])
    wait_saved(app)
    torn = app.evaluate(TEAR_NEWEST_EDIT)
    reload(app)
    banner = app.get_by_role("alert").filter(has_text="restored up to edit")
    expect(banner).to_contain_text(f"restored up to edit {torn - 1}")
    expect(word_item(app, "aorta")).to_be_visible()
    expect(word_item(app, "atrium")).to_be_visible()
    expect(word_item(app, "ventricle")).to_have_count(0)
    # The recovered state is secured: a new edit and another reload keep it, without the banner.
    add_word(app, "septum", ["wall between chambers"])
    wait_saved(app)
    reload(app)
    expect(word_item(app, "septum")).to_be_visible()
    expect(word_item(app, "atrium")).to_be_visible()
    expect(app.get_by_role("alert").filter(has_text="restored up to edit")).to_have_count(0)


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
