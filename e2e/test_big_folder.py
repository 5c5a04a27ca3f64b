"""A big folder of tall rows in the real page: a search result and a deep link to a word far
down open with the word on screen, and the folder's words filter and sort through their labels.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from e2e.conftest import reload, screenshot
from e2e.lexical_ui import (
    dialog,
    heading,
    search_box,
    search_results,
    tree_link,
    wait_saved,
    word_item,
    words,
)

WORDS = 300
TARGET = "龍"  # sorts near the end of the folder, as in the report
LATE = "鼎"  # the word the deep link opens: beyond the first pages too


def _tall_deck(path: Path) -> None:
    """A CSV of hanzi whose rows are several times the estimated row height: six long
    meanings and three lines of notes each."""
    text = io.StringIO()
    out = csv.writer(text)
    out.writerow(["folder", "term", "meanings", "notes"])
    terms = [chr(0x4E00 + 37 * i) for i in range(WORDS - 2)] + [TARGET, LATE]
    for n, term in enumerate(terms):
        gloss = "dragon" if term == TARGET else f"gloss number {n}"
        meanings = [f"{gloss}: a meaning long enough to wrap onto a second line " * 2] * 6
        out.writerow(["Hanzi", term, "\n".join(meanings), f"radical {n}\nstroke order\nexample"])
    path.write_text(text.getvalue(), encoding="utf-8")


def _import(page: Page, path: Path) -> None:
    page.get_by_role("banner").get_by_role("button", name="Import / Export").click()
    box = dialog(page)
    box.get_by_label("Choose a file to import").set_input_files(str(path))
    box.get_by_role("form", name="Import preview").get_by_role("button", name="Import").click()
    expect(box).to_be_hidden()
    wait_saved(page)


@pytest.fixture
def page_with_deck(app: Page, tmp_path: Path) -> Page:
    deck = tmp_path / "hanzi.csv"
    _tall_deck(deck)
    _import(app, deck)
    return app


def _on_screen(page: Page, row: Locator) -> None:
    """The whole row is inside the window, not just somewhere in the page."""
    expect(row).to_be_in_viewport(ratio=1)
    box = row.bounding_box()
    assert box is not None
    height = page.evaluate("window.innerHeight")
    assert box["y"] >= 0, (box, height)
    assert box["y"] + box["height"] <= height, (box, height)


def test_linked_words_open_on_screen_however_tall_the_rows(page_with_deck: Page) -> None:
    app = page_with_deck
    tree_link(app, "Hanzi").click()
    expect(heading(app, "Hanzi")).to_be_visible()
    first = words(app).get_by_role("listitem").first
    assert (first.bounding_box() or {"height": 0})["height"] > 3 * 58  # really tall rows

    # A search result far down the folder.
    box = search_box(app)
    box.fill(TARGET)
    expect(search_results(app).get_by_role("option").first).to_contain_text(TARGET)
    box.press("Enter")
    expect(app).to_have_url(re.compile(r"#/folder/\d+/word/\d+$"))
    target = word_item(app, TARGET)
    expect(target).to_have_attribute("data-highlight", "true")
    _on_screen(app, target)
    screenshot(app, "big-folder-search-result")

    # A deep link to the last word, opened as a fresh page would open it.
    opened = re.search(r"#/folder/(\d+)/word/", app.url)
    assert opened is not None
    folder = opened.group(1)
    late = app.evaluate(
        "term => [...document.querySelectorAll('.word')].find("
        "  (row) => row.querySelector('.word-term')?.textContent === term)?.dataset.wordId",
        LATE,
    )
    assert late is not None
    app.evaluate("hash => { location.hash = hash; }", "#/")
    expect(app.get_by_role("heading", name="Your collection")).to_be_visible()
    app.evaluate("hash => { location.hash = hash; }", f"#/folder/{folder}/word/{late}")
    _on_screen(app, word_item(app, LATE))
    reload(app)
    _on_screen(app, word_item(app, LATE))
    expect(app.get_by_role("button", name="Show earlier")).to_be_attached()


def test_filter_and_sort_a_big_folder(page_with_deck: Page) -> None:
    app = page_with_deck
    tree_link(app, "Hanzi").click()
    rows = words(app).get_by_role("listitem").filter(has=app.locator(".word-actions"))
    expect(rows).to_have_count(100)
    count = app.locator("#word-count")

    # Typed a key at a time: the box keeps focus and the caret through every redraw.
    box = app.get_by_label("Filter words")
    box.press_sequentially("DRÁ")
    box.press_sequentially("gon")
    expect(box).to_have_value("DRÁgon")
    expect(box).to_be_focused()
    expect(rows).to_have_count(1)
    expect(word_item(app, TARGET)).to_be_visible()
    expect(count).to_have_text(f"1 of {WORDS} words")

    # Through an input method (pinyin): the list follows once the character is chosen.
    box.fill("")
    expect(rows).to_have_count(100)
    ime = app.context.new_cdp_session(app)
    box.focus()
    ime.send("Input.imeSetComposition", {"text": "long", "selectionStart": 4, "selectionEnd": 4})
    ime.send("Input.insertText", {"text": TARGET})
    expect(box).to_have_value(TARGET)
    expect(rows).to_have_count(1)

    box.fill("gloss number 29")  # 29, 290-297 and 299 (298 is the dragon)
    expect(rows).to_have_count(10)
    expect(count).to_have_text(f"10 of {WORDS} words")
    screenshot(app, "big-folder-filtered")

    box.fill("nothing like this")
    expect(app.get_by_text("No words here match “nothing like this”.")).to_be_visible()
    app.get_by_role("button", name="Clear filter").click()
    expect(rows).to_have_count(100)
    expect(box).to_have_value("")

    # Newest first: the last rows of the file come first; the sort stays for the session.
    app.get_by_label("Sort words").select_option(label="Newest first")
    expect(rows.first.locator(".word-term")).to_have_text(LATE)
    app.evaluate("hash => { location.hash = hash; }", "#/")
    tree_link(app, "Hanzi").click()
    expect(app.get_by_label("Sort words")).to_have_value("newest")
    expect(rows.first.locator(".word-term")).to_have_text(LATE)
    app.get_by_label("Sort words").select_option(label="A–Z")
    expect(rows.first.locator(".word-term")).to_have_text(chr(0x4E00))
