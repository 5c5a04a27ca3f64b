"""Phones and tablets: every main screen and dialog fits the width, and every control can be
reached (shown, or inside the opened menu or folder drawer), at 390 × 844 and 768 × 1024.

One page load per viewport; the collection is built once through the UI and each screen is then
visited in turn. Screenshots land in e2e/artifacts/phone-*.png for a person to look at.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from e2e.accessibility import violations
from e2e.conftest import screenshot
from e2e.lexical_ui import (
    add_note,
    create_folder,
    dialog,
    focus_outside_fields,
    heading,
    search_box,
    search_results,
    toast,
    tree,
    tree_link,
    wait_saved,
)

VIEWPORTS = {"phone": (390, 844), "tablet": (768, 1024)}
LONG_WORD = "Donaudampfschifffahrtsgesellschaftskapitän"
WORDS = (
    f"{LONG_WORD} - captain of the Danube steamship company\n"
    "Fernweh - longing for far-off places\n"
    "Gemütlichkeit - warmth, friendliness and good cheer\n"
    "Zeitgeist - the spirit of the age"
)
NOTE = (
    "Compounds join **nouns**:\n\n"
    "| Part | Meaning | Example sentence | Plural |\n|---|---|---|---|\n"
    "| Donau | Danube | Die Donau fließt durch Wien und Budapest. | — |\n"
    "| Dampfschiff | steamship | Das Dampfschiff legt um acht Uhr ab. | Dampfschiffe |\n"
)
CSV = (
    "folder;term;meanings;notes\n"
    "German/Travel;Reisepass;passport;Bring ihn immer mit, auch bei Reisen innerhalb Europas\n"
    "German/Travel;Bahnhofsmission;station mission;a very long note " + "lang " * 30 + "\n"
    "German/Travel;;no term here;\n"
)

# Elements wider than the viewport or pushed past its edge, and panes that scroll sideways. Only
# a box made to scroll on its own (a preview table's, a code block) may hold something wider.
OVERFLOW = """
() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  if (document.documentElement.scrollWidth > window.innerWidth) {
    out.push(`page is ${document.documentElement.scrollWidth} px wide`);
  }
  for (const pane of document.querySelectorAll('main, aside, nav, dialog[open]')) {
    if (pane.checkVisibility() && pane.scrollWidth > pane.clientWidth) {
      out.push(`${pane.tagName.toLowerCase()} scrolls sideways (${pane.scrollWidth} px)`);
    }
  }
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (!r.width || !el.checkVisibility({visibilityProperty: true})) continue;
    if (el.closest('.skip-link') || el.parentElement.closest('.preview-scroll, pre')) continue;
    if (r.right > width + 1 || r.left < -1) {
      out.push(`${el.tagName.toLowerCase()}#${el.id}.${el.className} ${r.left}..${r.right}`);
    }
  }
  return out.slice(0, 8);
}
"""


# Buttons, links and fields smaller than a fingertip (links inside running text excepted).
TINY = """
() => [...document.querySelectorAll('button, a[href], select, summary, input')]
  .filter(el => el.checkVisibility({visibilityProperty: true})
                && !el.closest('.markdown, p, .skip-link'))
  .map(el => [el, el.getBoundingClientRect()])
  .filter(([el, r]) => r.width && (r.height < 40 || r.width < 40)
          && !['checkbox', 'radio'].includes(el.type))
  .map(([el, r]) => `${el.tagName.toLowerCase()} "${el.getAttribute('aria-label')
                       || el.textContent.trim()}" ${Math.round(r.width)}×${Math.round(r.height)}`)
  .slice(0, 8)
"""


def _misfits(page: Page, screen: str) -> list[str]:
    found = page.evaluate(OVERFLOW) + page.evaluate(TINY)
    return [f"{screen}: {problem}" for problem in found]


def _reachable(control: Locator) -> None:
    """The control can be scrolled to and is then wholly inside the viewport."""
    control.scroll_into_view_if_needed()
    expect(control).to_be_in_viewport(ratio=1)


def _menu(page: Page, item: str) -> Locator:
    """Open the top bar's menu and return one of its actions, shown and tappable."""
    toggle = page.get_by_role("button", name="More actions")
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    action = page.get_by_role("banner").get_by_role("button", name=item, exact=True)
    _reachable(action)
    return action


def _drawer(page: Page) -> Locator:
    """Open the folder drawer; returns its toggle."""
    toggle = page.get_by_role("button", name="Folders")
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(tree(page)).to_be_visible()
    return toggle


@pytest.fixture(params=list(VIEWPORTS))
def size(request: pytest.FixtureRequest, app: Page) -> str:
    width, height = VIEWPORTS[request.param]
    app.set_viewport_size({"width": width, "height": height})
    return f"{width}x{height}"


def test_every_screen_and_dialog_fits_and_every_control_is_reachable(
    app: Page, size: str, tmp_path: Path
) -> None:
    problems: list[str] = []

    def capture(name: str, *, audit: bool = False) -> None:
        screenshot(app, f"phone-{size}-{name}")
        problems.extend(_misfits(app, name))
        if audit:
            problems.extend(violations(app, name))

    capture("home-empty")
    create_folder(app, "German", emoji="🇩🇪", colour="Orange")
    app.get_by_role("button", name="Bulk paste…").click()
    box = dialog(app)
    box.get_by_label("Lines to add").fill(WORDS)
    _reachable(box.get_by_role("button", name="Add 4 words"))
    capture("bulk-paste")
    box.get_by_role("button", name="Add 4 words").click()
    expect(box).to_be_hidden()
    add_note(app, "Compounds", NOTE)
    create_folder(app, "Travel", subfolder=True)
    expect(tree(app)).to_be_hidden()

    # The folder drawer: closed by choosing a folder, and by Escape (focus back on its button).
    toggle = _drawer(app)
    capture("folders-drawer", audit=True)
    tree_link(app, "🇩🇪 German").click()
    expect(heading(app, "🇩🇪 German")).to_be_visible()
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(tree(app)).to_be_hidden()
    _drawer(app)
    app.keyboard.press("Escape")
    expect(tree(app)).to_be_hidden()
    expect(toggle).to_be_focused()
    wait_saved(app)
    expect(toast(app)).to_be_hidden(timeout=10_000)
    capture("folder")
    notes = app.get_by_role("region", name="Notes")
    _reachable(notes.get_by_role("button", name="Edit note Compounds"))
    capture("folder-notes", audit=True)

    app.get_by_role("button", name=f"Edit {LONG_WORD}").click()
    form = app.get_by_role("form", name=f"Edit {LONG_WORD}")
    _reachable(form.get_by_role("button", name="Save word"))
    capture("word-form")
    form.get_by_role("button", name="Cancel").click()

    app.get_by_role("button", name="Move Fernweh").click()
    _reachable(box.get_by_role("button", name="Move here"))
    capture("move-word")
    box.get_by_role("button", name="Cancel").click()
    expect(box).to_be_hidden()

    app.get_by_role("button", name="Move to…").click()
    _reachable(box.get_by_role("button", name="Move here"))
    capture("move-folder")
    box.get_by_role("button", name="Cancel").click()

    app.get_by_role("button", name="Study options…").click()
    _reachable(box.get_by_role("button", name="Save options"))
    capture("study-options")
    box.get_by_role("button", name="Cancel").click()

    search_box(app).fill("ge")
    expect(search_results(app).get_by_role("option").first).to_be_visible()
    capture("search")
    search_box(app).press("Escape")
    search_box(app).fill("")

    # The menu holds the rest of the top bar, and closes once something in it is chosen.
    _menu(app, "Switch to dark theme")
    for item in ("Assistant", "AI settings", "Import / Export", "Keyboard shortcuts"):
        _reachable(app.get_by_role("button", name=item, exact=True))
    capture("menu", audit=True)
    app.get_by_role("button", name="Keyboard shortcuts").click()
    expect(box.get_by_role("heading", name="Keyboard shortcuts")).to_be_visible()
    capture("help")
    box.get_by_role("button", name="Close").click()
    expect(app.get_by_role("button", name="More actions")).to_be_focused()

    # The rest in the dark theme, switched from the menu.
    _menu(app, "Switch to dark theme").click()
    expect(app.locator("html")).to_have_attribute("data-theme", "dark")

    words = tmp_path / "travel.csv"
    words.write_text(CSV, encoding="utf-8")
    _menu(app, "Import / Export").click()
    box.get_by_label("Choose a file to import").set_input_files(str(words))
    preview = box.get_by_role("form", name="Import preview")
    _reachable(preview.get_by_role("button", name="Import"))
    capture("import-preview", audit=True)
    # A table wider than the phone scrolls in its box, a shadow at the edge saying so.
    preview.locator(".preview-scroll").first.scroll_into_view_if_needed()
    capture("import-mapping")
    preview.get_by_role("button", name="Cancel").click()
    expect(box).to_be_hidden()

    _menu(app, "AI settings").click()
    _reachable(box.get_by_role("button", name="Save"))
    capture("ai-settings")
    box.get_by_role("button", name="Cancel").click()

    _menu(app, "Assistant").click()
    panel = app.get_by_role("complementary", name="Assistant")
    _reachable(panel.get_by_role("button", name="Close assistant"))
    _reachable(panel.get_by_role("textbox", name="Ask the assistant"))
    capture("assistant", audit=True)
    panel.get_by_role("button", name="Close assistant").click()

    focus_outside_fields(app)
    app.keyboard.press("s")
    expect(app.locator("#study-prompt")).to_be_visible()
    capture("study")
    app.get_by_role("button", name=re.compile(r"^Show answer")).click()
    _reachable(app.get_by_role("button", name=re.compile(r"^Easy")))
    capture("study-answer")
    app.get_by_role("button", name=re.compile(r"^Good")).click()
    wait_saved(app)
    app.get_by_role("button", name="End session").click()
    expect(app.get_by_role("heading", name="Session complete")).to_be_visible()  # what was studied
    app.get_by_role("button", name="Done").click()
    expect(heading(app, "🇩🇪 German")).to_be_visible()

    app.get_by_role("link", name="Stats", exact=True).click()
    expect(app.locator("[data-chart] canvas").first).to_be_visible()
    capture("stats")

    app.get_by_role("link", name="Lexical home").click()
    expect(heading(app, "Your collection")).to_be_visible()
    capture("home", audit=True)
    assert not problems, "\n".join(problems)
