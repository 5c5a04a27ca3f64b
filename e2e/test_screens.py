"""The main screens in light and dark theme, from a small realistic collection: screenshots for
a person to look at, and an axe-core WCAG 2.1 AA audit of each.

Screenshots land in e2e/artifacts/ (git-ignored); the test checks that each screen is really
showing before it is captured, and fails on any accessibility violation.
"""

from __future__ import annotations

from playwright.sync_api import Page, expect

from e2e.accessibility import violations
from e2e.conftest import screenshot
from e2e.lexical_ui import (
    add_note,
    add_word,
    create_folder,
    dialog,
    focus_outside_fields,
    heading,
    search_box,
    search_results,
    set_theme,
    toast,
    tree_link,
    wait_saved,
)


def _build_collection(page: Page) -> None:
    create_folder(page, "Biology", emoji="🧬", colour="Green")
    create_folder(page, "Cells", emoji="🦠", colour="Teal", subfolder=True)
    add_word(page, "mitochondrion", ["powerhouse of the cell", "site of aerobic respiration"])
    add_word(page, "ribosome", ["makes proteins from mRNA"])
    add_word(page, "mitosis", ["cell division into two identical cells"])
    add_word(page, "membrane", ["thin layer around the cell"])
    add_note(
        page,
        "Exam tips",
        "Learn the **phases of mitosis** in order:\n\n- prophase\n- metaphase\n- anaphase\n"
        "- telophase\n\nMore at [the reference](https://example.org).",
    )
    create_folder(page, "Spanish", emoji="🇪🇸", colour="Orange")
    add_word(page, "célula", ["cell"], lang="es")
    add_word(page, "hoja", ["leaf", "sheet of paper"], lang="es")
    add_word(page, "mitad", ["half"], lang="es")
    create_folder(page, "Chemistry", emoji="🧪", colour="Blue")
    add_word(page, "osmosis", ["water crossing a membrane"])
    add_word(page, "catalyst", ["speeds up a reaction without being used up"])
    wait_saved(page)


def test_screens_in_light_and_dark(app: Page) -> None:
    _build_collection(app)
    problems: list[str] = []

    def capture(name: str) -> None:
        screenshot(app, name)
        problems.extend(violations(app, name))

    # Let the last "Added …" toast time out so it does not sit on every screenshot.
    expect(toast(app)).to_be_hidden(timeout=10_000)
    for theme in ("light", "dark"):
        set_theme(app, theme)

        app.get_by_role("link", name="Lexical home").click()
        expect(heading(app, "Your collection")).to_be_visible()
        capture(f"home-{theme}")

        tree_link(app, "🦠 Cells").click()
        expect(heading(app, "🦠 Cells")).to_be_visible()
        expect(app.get_by_role("region", name="Notes").locator("strong")).to_be_visible()
        capture(f"folder-{theme}")

        app.get_by_role("button", name="Bulk paste…").click()
        box = dialog(app)
        box.get_by_label("Lines to add").fill(
            "cytoplasm - jelly inside the cell\nnucleus\tholds the DNA\n"
            "mitosis - already here\n: no term\nvacuole: storage sac; keeps the cell firm\n"
        )
        expect(box.get_by_text("3 to add · 1 duplicate · 1 with problems")).to_be_visible()
        capture(f"bulk-{theme}")
        box.get_by_role("button", name="Cancel").click()
        box.get_by_role("button", name="Discard").click()
        expect(box).to_be_hidden()

        search_box(app).fill("mit")
        expect(search_results(app).get_by_role("option").first).to_be_visible()
        capture(f"search-{theme}")
        search_box(app).press("Escape")
        expect(search_results(app)).to_be_hidden()
        search_box(app).fill("")

        focus_outside_fields(app)
        app.keyboard.press("?")
        expect(box.get_by_role("heading", name="Keyboard shortcuts")).to_be_visible()
        capture(f"help-{theme}")
        app.keyboard.press("Escape")
        expect(box).to_be_hidden()

        tree_link(app, "🧬 Biology").click()
        expect(heading(app, "🧬 Biology")).to_be_visible()
        app.get_by_role("button", name="Delete", exact=True).click()
        expect(box.get_by_role("heading", name="Delete 🧬 Biology?")).to_be_visible()
        capture(f"delete-{theme}")
        box.get_by_role("button", name="Cancel").click()
        expect(box).to_be_hidden()
    assert not problems, "\n".join(problems)
