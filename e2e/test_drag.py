"""Drag and drop: folders and words dropped onto a folder in the sidebar move there."""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect

from e2e.lexical_ui import add_word, create_folder, tree, tree_link, wait_saved, word_item


def row(page: Page, name: str) -> Locator:
    link = page.get_by_role("link", name=re.compile(rf"^{re.escape(name)}, [\d,]+ words?$"))
    return tree(page).locator(".tree-row").filter(has=link)


def test_drag_a_folder_and_a_word_onto_another_folder(app: Page) -> None:
    create_folder(app, "Physics")
    create_folder(app, "Optics")
    add_word(app, "refraction", ["bending of light"])
    wait_saved(app)
    physics_row = row(app, "Physics")
    word_item(app, "refraction").drag_to(physics_row)
    expect(word_item(app, "refraction")).to_have_count(0)
    expect(tree_link(app, "Physics")).to_have_accessible_name(re.compile(r"1 word$"))
    row(app, "Optics").drag_to(physics_row)
    expect(app.get_by_role("navigation", name="Breadcrumbs")).to_contain_text("Physics")
    expect(tree(app).get_by_role("button", name="Collapse Physics")).to_be_visible()
    wait_saved(app)
