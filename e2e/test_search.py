"""Search as you type from the top bar: results with their folder path, keyboard to open one."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from e2e.lexical_ui import (
    add_note,
    add_word,
    create_folder,
    focus_outside_fields,
    heading,
    search_box,
    search_results,
    word_item,
)


def test_search_as_you_type_and_open_with_keyboard(app: Page) -> None:
    create_folder(app, "Biology", emoji="🧬")
    create_folder(app, "Cells", subfolder=True)
    add_word(app, "mitochondrion", ["powerhouse of the cell"])
    add_word(app, "mitosis", ["cell division into two identical cells"])
    add_word(app, "ribosome", ["makes proteins"])
    add_note(app, "Exam tips", "Remember the *phases* of mitosis.")
    create_folder(app, "Spanish")
    add_word(app, "mitad", ["half"], lang="es")

    # `/` focuses the search box from anywhere outside a text field.
    focus_outside_fields(app)
    app.keyboard.press("/")
    box = search_box(app)
    expect(box).to_be_focused()

    box.press_sequentially("mito")
    results = search_results(app)
    expect(results).to_be_visible()
    expect(box).to_have_attribute("aria-expanded", "true")
    # Every option but the last, which starts a study session over the words found.
    options = results.get_by_role("option").filter(has_not_text="Study the words found")
    expect(options).to_have_count(3)  # two words and the note that mentions mitosis
    expect(results.get_by_role("option").last).to_contain_text("Study the words found")

    def option(title: str):
        return results.get_by_role("option", name=re.compile(rf"^{title}"))

    mitosis = option("mitosis")
    expect(mitosis).to_contain_text("Biology › Cells")
    expect(mitosis).to_contain_text("word")
    expect(option("mitochondrion")).to_contain_text("Biology › Cells")
    # The matched part is highlighted.
    expect(mitosis.locator("mark").first).to_have_text(re.compile("^mito", re.IGNORECASE))

    # Typing more narrows it as you type; prefixes of every word match.
    box.press_sequentially("s")
    expect(options).to_have_count(2)  # the word mitosis and the note mentioning it
    expect(option("mitochondrion")).to_have_count(0)
    expect(option("Exam tips")).to_contain_text("note")
    box.fill("cell div")
    expect(options).to_have_count(1)
    expect(options.first).to_contain_text("mitosis")

    # ArrowDown moves the active option (focus stays in the box), Enter opens it.
    box.fill("mit")
    expect(options).to_have_count(4)
    # Ranked like a dictionary: terms starting with "mit", shorter first, then the note.
    expect(options.locator(".hit-title")).to_have_text(
        ["mitad", "mitosis", "mitochondrion", "Exam tips"]
    )
    expect(options.first).to_have_attribute("aria-selected", "true")
    box.press("ArrowDown")
    second = options.nth(1)
    expect(second).to_have_attribute("aria-selected", "true")
    expect(options.first).to_have_attribute("aria-selected", "false")
    expect(box).to_be_focused()
    expect(box).to_have_attribute("aria-activedescendant", second.get_attribute("id") or "")
    term = second.locator(".hit-title").inner_text()
    box.press("Enter")

    expect(results).to_be_hidden()
    expect(app).to_have_url(re.compile(r"#/folder/\d+/word/\d+$"))
    shown = word_item(app, term)
    expect(shown).to_be_visible()
    expect(shown).to_be_in_viewport()
    expect(shown).to_have_attribute("data-highlight", "true")
    expected_folder = "Spanish" if term == "mitad" else "Cells"
    expect(heading(app, expected_folder)).to_be_visible()


def test_search_with_no_match_and_hostile_queries(app: Page) -> None:
    create_folder(app, "Biology")
    add_word(app, "osmosis", ["water crossing a membrane"])
    box = search_box(app)
    results = search_results(app)

    box.fill("zebra")
    expect(results.get_by_role("option")).to_have_text("Nothing matches “zebra”.")

    hostile = [
        '"*) AND NEAR(',
        "*",
        '"',
        "NOT",
        "osmosis OR",
        "a:b",
        "^",
        "(((",
        "-osmosis",
        "'; DROP TABLE words; --",
        "🧬" * 300,
        "x" * 5000,
    ]
    for query in hostile:
        box.fill(query)
        expect(results).to_be_visible()
        expect(results.get_by_role("option").first).to_be_visible()

    # FTS syntax in the query is treated as plain words: quoting and operators only narrow.
    box.fill('"osmosis')
    expect(results.get_by_role("option")).to_have_count(2)  # the word, and studying it
    expect(results.get_by_role("option").first).to_contain_text("osmosis")
    box.fill("osmosis*) NEAR(")
    expect(results.get_by_role("option").first).to_be_visible()

    # Escape closes the list; clearing the box closes it too.
    box.press("Escape")
    expect(results).to_be_hidden()
    expect(box).to_have_attribute("aria-expanded", "false")
    box.fill("osm")
    expect(results).to_be_visible()
    box.fill("")
    expect(results).to_be_hidden()
