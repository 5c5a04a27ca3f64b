"""Notes render Markdown safely, and hostile names, terms and meanings stay inert text."""

from __future__ import annotations

import re

from playwright.sync_api import Dialog, Page, expect

from e2e.conftest import Guard, reload
from e2e.lexical_ui import (
    add_note,
    add_word,
    create_folder,
    heading,
    save_status,
    search_box,
    search_results,
    tree,
    tree_link,
    wait_saved,
    word_item,
)

IMG = "<img src=x onerror=alert(1)>"
SCRIPT = "<script>alert(1)</script>"
PWNED = "<script>window.__pwned=1</script>"


def _record_dialogs(page: Page) -> list[str]:
    fired: list[str] = []

    def on_dialog(dialog: Dialog) -> None:
        fired.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)
    return fired


def _assert_inert(page: Page, fired: list[str]) -> None:
    for region in ("#main", "#tree", "#search-results", "#dialog", "#toast"):
        expect(page.locator(f"{region} img")).to_have_count(0)
        expect(page.locator(f"{region} script")).to_have_count(0)
        expect(page.locator(f"{region} [onerror]")).to_have_count(0)
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert fired == []


def test_note_markdown_renders_formatted_and_raw_html_stays_text(app: Page) -> None:
    fired = _record_dialogs(app)
    create_folder(app, "Biology")
    add_note(
        app,
        "Study plan",
        "Learn **bold ideas** first.\n\n- cells\n- tissues\n- organs\n\n"
        "See [the reference](https://example.org) and <https://example.org/auto>.\n\n"
        "[bad](javascript:alert(1))",
    )
    notes = app.get_by_role("region", name="Notes")
    body = notes.locator(".markdown").first
    expect(body.locator("strong")).to_have_text("bold ideas")
    expect(body.get_by_role("listitem")).to_have_text(["cells", "tissues", "organs"])
    link = body.get_by_role("link", name="the reference")
    expect(link).to_have_attribute("href", "https://example.org")
    expect(link).to_have_attribute("rel", re.compile(r"\bnoopener\b"))
    expect(link).to_have_attribute("rel", re.compile(r"\bnoreferrer\b"))
    # A javascript: link is not a link at all.
    expect(body.get_by_role("link", name="bad")).to_have_count(0)
    expect(body.locator("a[href^='javascript']")).to_have_count(0)
    expect(body).to_contain_text("bad")

    # Raw HTML in a note is shown literally.
    add_note(app, "Hostile", f"{IMG}\n\n{SCRIPT}")
    hostile = notes.locator(".note").filter(
        has=app.get_by_role("heading", name=re.compile("^Hostile"))
    )
    expect(hostile.get_by_text(IMG)).to_be_visible()
    expect(hostile.get_by_text(SCRIPT)).to_be_visible()

    # Edit a note: the form holds the source, Save re-renders it.
    app.get_by_role("button", name="Edit note Study plan").click()
    form = app.get_by_role("form", name="Edit note")
    expect(form.get_by_label("Text (Markdown)")).to_have_value(
        re.compile(r"^Learn \*\*bold ideas\*\*")
    )
    form.get_by_label("Text (Markdown)").fill("Now *emphasis* only.")
    form.get_by_role("button", name="Save note").click()
    expect(notes.locator("em")).to_have_text("emphasis")
    expect(notes.locator("strong")).to_have_count(0)
    wait_saved(app)
    _assert_inert(app, fired)


def test_hostile_names_terms_and_meanings_render_inert(app: Page) -> None:
    fired = _record_dialogs(app)
    create_folder(app, IMG)
    expect(tree_link(app, IMG)).to_be_visible()
    add_word(app, PWNED, [IMG, "javascript:alert(1)"], notes=SCRIPT)
    word = word_item(app, PWNED)
    expect(word.get_by_text(PWNED, exact=True)).to_be_visible()
    expect(word.get_by_role("listitem")).to_have_text([IMG, "javascript:alert(1)"])
    expect(word.get_by_text(SCRIPT, exact=True)).to_be_visible()
    expect(app.get_by_role("navigation", name="Breadcrumbs")).to_contain_text(IMG)
    _assert_inert(app, fired)

    # Dialogs that quote the names (edit, move, delete confirmation) show them as text too.
    app.get_by_role("button", name="Delete", exact=True).click()
    box = app.get_by_role("dialog")
    expect(box.get_by_role("heading", name=f"Delete {IMG}?")).to_be_visible()
    _assert_inert(app, fired)
    box.get_by_role("button", name="Cancel").click()
    app.get_by_role("button", name="Edit", exact=True).click()
    expect(box.get_by_label("Name")).to_have_value(IMG)
    _assert_inert(app, fired)
    box.get_by_role("button", name="Cancel").click()

    # Search results quote the hostile text as text.
    search_box(app).fill("pwned")
    expect(search_results(app).get_by_role("option").filter(has_text=PWNED)).to_be_visible()
    search_box(app).fill("onerror")
    expect(search_results(app).get_by_role("option").first).to_be_visible()
    _assert_inert(app, fired)
    search_box(app).press("Escape")

    # A toast quoting it (delete) is text as well, and it all survives a reload unchanged.
    app.get_by_role("button", name=f"Delete {PWNED}").click()
    expect(app.locator("#toast")).to_contain_text(f"Deleted {PWNED}")
    _assert_inert(app, fired)
    app.get_by_role("banner").get_by_role("button", name=re.compile(r"^Undo")).click()
    expect(word_item(app, PWNED)).to_be_visible()
    wait_saved(app)
    reload(app)
    expect(heading(app, IMG)).to_be_visible()
    expect(word_item(app, PWNED).get_by_role("listitem")).to_have_text([IMG, "javascript:alert(1)"])
    expect(tree(app)).to_contain_text(IMG)
    _assert_inert(app, fired)


def test_a_bracket_storm_in_a_note_is_saved_shown_and_the_app_keeps_working(app: Page) -> None:
    # Thousands of unclosed "[" once overflowed the browser's stack inside the Markdown
    # parser: the note was lost, "Saved" still showed, and every later edit was refused.
    create_folder(app, "Storms")
    storm = "[" * 5_000 + "x"
    add_note(app, "Storm", storm)
    notes = app.get_by_role("region", name="Notes")
    expect(notes.locator(".markdown").first).to_contain_text("[[[[[[[[x")
    add_word(app, "after", "the storm")
    expect(word_item(app, "after")).to_be_visible()
    wait_saved(app)
    reload(app)
    expect(app.get_by_role("heading", level=3, name=re.compile("^Storm"))).to_be_visible()
    expect(word_item(app, "after")).to_be_visible()


def test_when_python_breaks_the_page_stops_claiming_saved_and_takes_no_edits(
    app: Page, guard: Guard
) -> None:
    create_folder(app, "Kept")
    wait_saved(app)
    # What a stack overflow inside Python looks like to the page: an uncaught RangeError.
    app.evaluate("setTimeout(() => { const f = () => f(); f(); })")
    expect(app.get_by_role("alert")).to_contain_text("Lexical stopped after an internal error")
    expect(save_status(app)).to_have_text("Not saved")
    assert app.evaluate("document.querySelector('.layout').inert")
    guard.errors.clear()  # the error this test caused on purpose
