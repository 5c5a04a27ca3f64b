"""Drag and drop: folders and words dropped onto a folder in the sidebar move there."""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect

from e2e.lexical_ui import (
    add_word,
    create_folder,
    toast,
    tree,
    tree_link,
    wait_saved,
    word_item,
)


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


def test_a_refused_drop_says_why(app: Page) -> None:
    """Issue 25: dropping a folder onto its own subfolder showed nothing (the message went
    into the error slot of a dialog closed long before)."""
    create_folder(app, "Physics")
    create_folder(app, "Optics", subfolder=True)
    row(app, "Physics").drag_to(row(app, "Optics"))
    expect(toast(app)).to_contain_text(
        'Cannot move "Physics" into itself or one of its subfolders.'
    )
    expect(row(app, "Physics")).to_be_visible()
