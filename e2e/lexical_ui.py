"""User-level helpers shared by the end-to-end tests: every step goes through roles, labels,
visible text and the keyboard, as a person would use the app."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Locator, Page, expect

from app.text.counting import counted

SAVED = re.compile(r"^Saved$")
FOLDER_HASH = re.compile(r"#/folder/(\d+)$")


def save_status(page: Page) -> Locator:
    """The save indicator in the top bar (not the toast, which is also a status)."""
    return page.get_by_role("status").filter(
        has_text=re.compile(r"^(Saved|Saving…|Read-only|Loading…|Not saved.*)$")
    )


def wait_saved(page: Page) -> None:
    expect(page.get_by_role("status").filter(has_text=SAVED)).to_be_visible()


def tree(page: Page) -> Locator:
    return page.get_by_role("navigation", name="Folders")


def tree_link(page: Page, label: str) -> Locator:
    """A folder link in the sidebar tree; its accessible name is "<emoji> <name>, N words"."""
    return tree(page).get_by_role("link", name=re.compile(rf"^{re.escape(label)}, [\d,]+ words?$"))


def dialog(page: Page) -> Locator:
    return page.get_by_role("dialog")


def toast(page: Page) -> Locator:
    return page.locator("#toast")


def heading(page: Page, text: str) -> Locator:
    return page.get_by_role("heading", level=1, name=text, exact=True)


def current_folder_id(page: Page) -> int:
    match = FOLDER_HASH.search(page.evaluate("location.hash"))
    assert match, page.evaluate("location.hash")
    return int(match.group(1))


def create_folder(
    page: Page,
    name: str,
    *,
    emoji: str = "",
    colour: str | None = None,
    subfolder: bool = False,
) -> int:
    """Create a folder (top-level from the sidebar, or inside the open folder) and open it."""
    if subfolder:
        page.get_by_role("button", name="+ New subfolder").click()
    elif page.get_by_role("button", name="Create your first folder").is_visible():
        page.get_by_role("button", name="Create your first folder").click()
    else:
        tree(page).get_by_role("button", name="+ New folder").click()
    box = dialog(page)
    expect(box).to_be_visible()
    box.get_by_label("Name").fill(name)
    if emoji:
        box.get_by_label("Emoji").fill(emoji)
    if colour:
        box.get_by_label("Colour").select_option(label=colour)
    box.get_by_role("button", name="Create folder").click()
    expect(box).to_be_hidden()
    label = f"{emoji} {name}" if emoji else name
    expect(heading(page, label)).to_be_visible()
    return current_folder_id(page)


def set_folder_language(page: Page, lang: str) -> None:
    """Give the open folder a default language through its Edit dialog."""
    page.get_by_role("button", name="Edit", exact=True).click()
    dialog(page).get_by_label("Language").fill(lang)
    dialog(page).get_by_role("button", name="Save").click()
    expect(dialog(page)).to_be_hidden()


def add_form(page: Page) -> Locator:
    return page.get_by_role("form", name="Add a word")


def add_word(
    page: Page, term: str, meanings: list[str] | None = None, *, lang: str = "", notes: str = ""
) -> None:
    """Add a word to the open folder through the "Add a word" form."""
    form = add_form(page)
    form.get_by_label("Term").fill(term)
    form.get_by_label("Meanings (one per line)").fill("\n".join(meanings or []))
    if notes or lang:
        more = form.get_by_text("Notes, language and colour")
        if more.is_visible() and not form.get_by_label("Language").is_visible():
            more.click()  # the add form folds these fields away
        if notes:
            form.get_by_label("Notes").fill(notes)
        form.get_by_label("Language").fill(lang)
    form.get_by_role("button", name="Add word").click()
    expect(word_item(page, term)).to_be_visible()


def words(page: Page) -> Locator:
    return page.get_by_role("list", name="Words")


def word_item(page: Page, term: str) -> Locator:
    """The list item of a shown word, found by its Delete button's accessible name."""
    return (
        words(page)
        .get_by_role("listitem")
        .filter(has=page.get_by_role("button", name=f"Delete {term}", exact=True))
    )


def words_heading(page: Page, count: int) -> Locator:
    return page.get_by_role("heading", level=2, name=f"Words ({count:,})")


def focus_outside_fields(page: Page) -> None:
    """Move focus off any text field so single-key and Ctrl+Z shortcuts reach the app."""
    page.locator("#main").focus()


def add_note(page: Page, title: str, body: str) -> None:
    page.get_by_role("button", name="+ Add note").click()
    form = page.get_by_role("form", name="New note")
    form.get_by_label("Title").fill(title)
    form.get_by_label("Text (Markdown)").fill(body)
    form.get_by_role("button", name="Save note").click()
    expect(
        page.get_by_role("heading", level=3, name=re.compile(rf"^{re.escape(title)}"))
    ).to_be_visible()


def search_box(page: Page) -> Locator:
    return page.get_by_role("combobox", name="Search words, meanings and notes")


def search_results(page: Page) -> Locator:
    return page.get_by_role("listbox", name="Search results")


def set_theme(page: Page, theme: str) -> None:
    """Switch to the "light" or "dark" theme with the top bar's button, if not already there."""
    html = page.locator("html")
    if html.get_attribute("data-theme") != theme:
        page.get_by_role("button", name=f"Switch to {theme} theme").click()
    expect(html).to_have_attribute("data-theme", theme)


# --- the assistant panel and AI settings ---------------------------------------------------


def assistant(page: Page) -> Locator:
    return page.get_by_role("complementary", name="Assistant")


def open_assistant(page: Page) -> Locator:
    """Open the panel with its header button (the `A` shortcut does the same)."""
    panel = assistant(page)
    if not panel.is_visible():
        page.get_by_role("button", name="Assistant", exact=True).click()
    expect(panel).to_be_visible()
    return panel


COMPATIBLE = "OpenAI-compatible (Ollama, LM Studio, Groq…)"


def fill_compatible_server(page: Page, base_url: str, key: str = "") -> Locator:
    """Open AI settings and fill in an OpenAI-compatible server, unsaved; the dialog."""
    page.get_by_role("button", name="AI settings").first.click()
    box = dialog(page)
    box.get_by_label("Provider").select_option(label=COMPATIBLE)
    box.get_by_label("Base URL").fill(base_url)
    if key:
        box.get_by_label("API key").fill(key)
    return box


def configure_ai(
    page: Page,
    *,
    provider: str,
    base_url: str,
    key: str,
    model: str = "",
    test: str | None = "It works",
) -> None:
    """Fill in the AI settings dialog as a user would; `test` is what Test key must say."""
    page.get_by_role("button", name="AI settings").first.click()
    box = dialog(page)
    expect(box.get_by_role("heading", name="AI settings")).to_be_visible()
    box.get_by_label("Provider").select_option(label=provider)
    if not box.get_by_label("Base URL").is_visible():
        box.get_by_text("Address (advanced)").click()
    box.get_by_label("Base URL").fill(base_url)
    box.get_by_label("API key").fill(key)
    if model:
        box.get_by_label("Model").fill(model)
    if test is not None:
        box.get_by_role("button", name="Test key").click()
        expect(box.locator("#ai-check")).to_contain_text(test)
        if model and box.get_by_role("combobox", name="Model").count():
            box.get_by_label("Model").select_option(model)
    box.get_by_role("button", name="Save").click()
    expect(box).to_be_hidden()


def ask_assistant(page: Page, text: str) -> Locator:
    """Type a request and press Enter; returns the panel."""
    panel = open_assistant(page)
    box = panel.get_by_role("textbox", name="Ask the assistant")
    box.fill(text)
    box.press("Enter")
    return panel


def last_answer(page: Page) -> Locator:
    return assistant(page).locator(".ai-turn").last


SPANISH_WORDS = (
    "perro - dog\ngato - cat; kitty\ncasa - house; home\nlibro - book\nagua - water\nsol - sun"
)


def spanish_folder(page: Page) -> None:
    """A folder "Spanish" with six words (perro, gato, casa, libro, agua, sol), bulk-added."""
    create_folder(page, "Spanish", emoji="🇪🇸")
    bulk_add(page, SPANISH_WORDS, 6)


def paste(field: Locator, text: str) -> None:
    """Put `text` into `field` as pasting it does: one input event. Playwright's `fill` types
    it through the browser's text input, which for 10,000 lines (250 KB) takes over 30 s in
    headless Chromium while the page itself is idle (measured 2026-12-07: the preview of the
    same text shows 0.46 s after the input event)."""
    field.evaluate(
        """(el, text) => {
            el.focus();
            el.value = text;
            const pasted = {bubbles: true, inputType: "insertFromPaste"};
            el.dispatchEvent(new InputEvent("input", pasted));
        }""",
        text,
    )


def bulk_add(page: Page, lines: str, count: int) -> None:
    """Paste `lines` ("term - meaning; meaning", one word a line) into the open folder's Bulk
    paste dialog and add the `count` words they make, until saved."""
    focus_outside_fields(page)
    page.keyboard.press("b")
    box = dialog(page)
    paste(box.get_by_label("Lines to add"), lines)
    box.get_by_role("button", name=f"Add {counted(count, 'word')}").click()
    expect(box).to_be_hidden()
    wait_saved(page)


def downloaded(page: Page, button: str, path: Path) -> Path:
    """Download one file from the Import / Export dialog (`button` names it) to `path`, and
    close the dialog."""
    page.get_by_role("banner").get_by_role("button", name="Import / Export").click()
    box = dialog(page)
    with page.expect_download() as info:
        box.get_by_role("button", name=button).click()
    info.value.save_as(path)
    box.get_by_role("button", name="Close").click()
    return path
