"""Everything is kept in IndexedDB: reloads, a killed tab, deep links and browser history."""

from __future__ import annotations

import re

from playwright.sync_api import BrowserContext, Page, expect

from e2e.conftest import open_app, reload
from e2e.lexical_ui import (
    add_note,
    add_word,
    create_folder,
    heading,
    save_status,
    search_box,
    tree_link,
    wait_saved,
    word_item,
    words_heading,
)


def _collection(page: Page) -> tuple[int, int]:
    bio = create_folder(page, "Biology", emoji="🧬", colour="Green")
    cells = create_folder(page, "Cells", subfolder=True)
    add_word(
        page,
        "mitochondrion",
        ["powerhouse of the cell", "has its own DNA"],
        notes="plural: mitochondria",
    )
    add_word(page, "célula", ["cell"], lang="es-MX")
    add_note(page, "Exam tips", "- learn the **phases**\n- draw the cell")
    page.get_by_role("button", name="Edit mitochondrion").click()
    form = page.get_by_role("form", name="Edit mitochondrion")
    form.get_by_label("Meanings (one per line)").fill("powerhouse of the cell\nmakes ATP")
    form.get_by_role("button", name="Save word").click()
    expect(word_item(page, "mitochondrion").get_by_role("listitem")).to_have_text(
        ["powerhouse of the cell", "makes ATP"]
    )
    page.get_by_role("button", name="Delete célula").click()
    expect(word_item(page, "célula")).to_have_count(0)
    add_word(page, "ribosome", ["makes proteins"])
    return bio, cells


def _check_collection(page: Page) -> None:
    expect(heading(page, "Cells")).to_be_visible()
    expect(tree_link(page, "🧬 Biology")).to_have_accessible_name("🧬 Biology, 2 words")
    expect(words_heading(page, 2)).to_be_visible()
    mito = word_item(page, "mitochondrion")
    expect(mito.get_by_role("listitem")).to_have_text(["powerhouse of the cell", "makes ATP"])
    expect(mito).to_contain_text("plural: mitochondria")
    expect(word_item(page, "ribosome")).to_be_visible()
    expect(word_item(page, "célula")).to_have_count(0)
    notes = page.get_by_role("region", name="Notes")
    expect(notes.get_by_role("heading", level=3, name=re.compile("^Exam tips"))).to_be_visible()
    expect(notes.locator("strong")).to_have_text("phases")


def test_reload_keeps_folders_words_and_notes(app: Page) -> None:
    _bio, cells = _collection(app)
    wait_saved(app)
    reload(app)
    # The deep link survives the reload: we land in Cells, with everything in place.
    expect(app).to_have_url(re.compile(rf"#/folder/{cells}$"))
    _check_collection(app)
    expect(save_status(app)).to_have_text("Saved")
    # Undo history is per session: nothing to undo right after loading.
    expect(app.get_by_role("banner").get_by_role("button", name="Undo")).to_be_disabled()


def test_killed_tab_keeps_what_was_saved(context: BrowserContext, base_url: str, app: Page) -> None:
    _bio, cells = _collection(app)
    wait_saved(app)
    # A second tab opened while the first is still alive can only know what reached IndexedDB:
    # "Saved" must mean written, not merely queued.
    page = open_app(context, base_url, f"/#/folder/{cells}")
    _check_collection(page)
    # Then the writer tab goes away without any unload handling and this one takes over
    # (test_killed_browser.py SIGKILLs the whole browser).
    app.close(run_before_unload=False)
    expect(page.locator("#toast")).to_contain_text("this tab can now make changes")
    _check_collection(page)
    expect(save_status(page)).to_have_text("Saved")
    add_word(page, "lysosome", ["breaks things down"])
    wait_saved(page)
    page.close(run_before_unload=False)

    again = open_app(context, base_url, f"/#/folder/{cells}")
    expect(word_item(again, "lysosome")).to_be_visible()
    expect(words_heading(again, 3)).to_be_visible()


def test_deep_links_and_back_forward(context: BrowserContext, base_url: str, app: Page) -> None:
    bio = create_folder(app, "Biology", emoji="🧬")
    cells = create_folder(app, "Cells", subfolder=True)
    add_word(app, "nucleus", ["holds the DNA"])
    spanish = create_folder(app, "Spanish")
    wait_saved(app)

    # History: home -> Biology -> Cells -> Spanish (folder creation navigates too).
    app.go_back()
    expect(heading(app, "Cells")).to_be_visible()
    expect(app).to_have_url(re.compile(rf"#/folder/{cells}$"))
    app.go_back()
    expect(heading(app, "🧬 Biology")).to_be_visible()
    app.go_forward()
    expect(heading(app, "Cells")).to_be_visible()
    expect(word_item(app, "nucleus")).to_be_visible()
    # Alt+↑ goes to the parent folder.
    app.locator("#main").focus()
    app.keyboard.press("Alt+ArrowUp")
    expect(heading(app, "🧬 Biology")).to_be_visible()
    expect(app).to_have_url(re.compile(rf"#/folder/{bio}$"))
    app.go_back()
    expect(heading(app, "Cells")).to_be_visible()

    # Reload on a folder's link lands in that folder.
    reload(app)
    expect(heading(app, "Cells")).to_be_visible()
    expect(tree_link(app, "Cells")).to_have_attribute("aria-current", "page")

    # A link to a word (as search makes them) survives a reload with the word highlighted.
    search_box(app).fill("nucleus")
    search_box(app).press("Enter")
    expect(app).to_have_url(re.compile(rf"#/folder/{cells}/word/\d+$"))
    reload(app)
    expect(heading(app, "Cells")).to_be_visible()
    expect(word_item(app, "nucleus")).to_have_attribute("data-highlight", "true")

    # Typing a link in the address bar goes there too.
    app.goto(f"{base_url}/#/folder/{spanish}")
    expect(heading(app, "Spanish")).to_be_visible()
    # A stale or hand-edited link falls back gracefully.
    app.goto(f"{base_url}/#/folder/99999")
    expect(heading(app, "Your collection")).to_be_visible()
    expect(app).to_have_url(re.compile(r"#/$"))
    app.goto(f"{base_url}/#/nonsense/here")
    expect(heading(app, "Your collection")).to_be_visible()


# Records, in the page, when the status first says Saved and when the edited word's row is
# redrawn, relative to each other.
WATCH_SAVED_AND_REDRAW = """() => {
  const seen = [];
  const status = document.querySelector("#save-status");
  new MutationObserver(() => {
    if (status.dataset.state === "saved" && !seen.includes("saved")) seen.push("saved");
  }).observe(status, {attributes: true});
  new MutationObserver(() => {
    if (!document.querySelector('form[data-action="save-word"][data-id]')
        && !seen.includes("redrawn")) seen.push("redrawn");
  }).observe(document.querySelector("#main"), {childList: true, subtree: true});
  window.__seen = seen;
}"""


def test_an_edit_is_drawn_once_it_is_saved(app: Page) -> None:
    create_folder(app, "Biology")
    add_word(app, "mitochondrion", ["powerhouse of the cell"])
    wait_saved(app)
    app.get_by_role("button", name="Edit mitochondrion").click()
    form = app.get_by_role("form", name="Edit mitochondrion")
    form.get_by_label("Meanings (one per line)").fill("makes ATP")
    app.evaluate(WATCH_SAVED_AND_REDRAW)
    form.get_by_role("button", name="Save word").click()
    expect(word_item(app, "mitochondrion").get_by_role("listitem")).to_have_text(["makes ATP"])
    wait_saved(app)
    # What the page shows of an edit is already on disk (decision 024).
    assert app.evaluate("window.__seen") == ["saved", "redrawn"]
