"""Keyboard shortcuts and the help dialog, and the theme switch."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from e2e.conftest import reload
from e2e.lexical_ui import (
    add_form,
    add_word,
    create_folder,
    dialog,
    focus_outside_fields,
    search_box,
    toast,
    word_item,
)


def test_help_search_and_theme_shortcuts(app: Page) -> None:
    html = app.locator("html")
    focus_outside_fields(app)

    # `?` opens the shortcuts dialog; Escape closes it.
    app.keyboard.press("?")
    box = dialog(app)
    expect(box).to_be_visible()
    expect(box.get_by_role("heading", name="Keyboard shortcuts")).to_be_visible()
    expect(box).to_contain_text("Switch light / dark theme")
    app.keyboard.press("Escape")
    expect(box).to_be_hidden()
    # The help button opens it too, and Close closes it.
    app.get_by_role("button", name="Keyboard shortcuts").click()
    expect(box.get_by_role("heading", name="Keyboard shortcuts")).to_be_visible()
    box.get_by_role("button", name="Close").click()
    expect(box).to_be_hidden()

    # `/` focuses the search box.
    focus_outside_fields(app)
    app.keyboard.press("/")
    expect(search_box(app)).to_be_focused()
    # Typing `t` in the search box types; it does not switch the theme.
    theme = html.get_attribute("data-theme")
    app.keyboard.type("t")
    expect(search_box(app)).to_have_value("t")
    expect(html).to_have_attribute("data-theme", theme or "")
    app.keyboard.press("Escape")

    # `t` switches the theme, and the toggle's name says what it will do next.
    focus_outside_fields(app)
    other = "dark" if theme == "light" else "light"
    toggle_now = app.get_by_role("button", name=f"Switch to {other} theme")
    expect(toggle_now).to_be_visible()
    app.keyboard.press("t")
    expect(html).to_have_attribute("data-theme", other)
    expect(app.get_by_role("button", name=f"Switch to {theme} theme")).to_be_visible()
    app.keyboard.press("t")
    expect(html).to_have_attribute("data-theme", theme or "")
    # The button does the same, and the choice survives a reload.
    app.get_by_role("button", name=f"Switch to {other} theme").click()
    expect(html).to_have_attribute("data-theme", other)
    reload(app)
    expect(html).to_have_attribute("data-theme", other)
    expect(app.get_by_role("button", name=f"Switch to {theme} theme")).to_be_visible()

    # `f` opens the new-folder dialog; in a folder `n` jumps to the add form, `b` opens bulk paste.
    focus_outside_fields(app)
    app.keyboard.press("f")
    expect(box.get_by_role("heading", name="New folder")).to_be_visible()
    app.keyboard.press("Escape")
    expect(box).to_be_hidden()
    create_folder(app, "Biology")
    focus_outside_fields(app)
    app.keyboard.press("n")
    expect(add_form(app).get_by_label("Term")).to_be_focused()
    app.keyboard.press("Escape")
    focus_outside_fields(app)
    app.keyboard.press("b")
    expect(box.get_by_role("heading", name="Bulk paste into Biology")).to_be_visible()
    app.keyboard.press("Escape")
    expect(box).to_be_hidden()


def test_ctrl_z_right_after_a_change_undoes_it_even_in_a_text_field(app: Page) -> None:
    create_folder(app, "Spanish")
    term = add_form(app).get_by_label("Term")

    # Adding leaves focus in the empty Term box; Ctrl+Z there takes the word back.
    add_word(app, "perro", ["dog"])
    expect(term).to_be_focused()
    app.keyboard.press("Control+z")
    expect(word_item(app, "perro")).to_have_count(0)
    expect(toast(app)).to_contain_text("Undid")

    # Deleting does the same: Ctrl+Z at once brings the word back.
    add_word(app, "gato", ["cat"])
    app.get_by_role("button", name="Delete gato").click()
    expect(word_item(app, "gato")).to_have_count(0)
    expect(term).to_be_focused()
    app.keyboard.press("Control+z")
    expect(word_item(app, "gato")).to_be_visible()

    # Text typed since the change is the field's own: Ctrl+Z undoes the typing, not the word.
    term.press_sequentially("casa")
    app.keyboard.press("Control+z")
    expect(term).to_have_value("")
    expect(word_item(app, "gato")).to_be_visible()
