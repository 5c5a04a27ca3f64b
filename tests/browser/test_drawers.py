"""The narrow-screen drawers as a person uses them: open, choose, close, and where focus goes."""

from __future__ import annotations

from typing import Any

import js

from app.browser.drawers import DrawerGlue
from tests.browser.fakes import Document, Element, Event, dispatch, load_shell


def listen(target: Any, type_: str, handler: Any, *, capture: bool = False) -> None:
    target.addEventListener(type_, handler, capture)


def started() -> tuple[DrawerGlue, Document]:
    document = load_shell()
    document.getElementById("tree").appendChild(
        Element("a", {"href": "#/folder/1", "id": "cardiology"}, "Cardiology")
    )
    glue = DrawerGlue()
    glue.start(listen)
    return glue, document


def click(element: Any) -> None:
    dispatch(element, Event("click"))


def test_starting_enables_the_drawer_buttons() -> None:
    _glue, document = started()
    assert not document.getElementById("folders-button").disabled
    assert not document.getElementById("menu-button").disabled


def test_the_menu_opens_with_focus_on_its_first_action_and_its_button_expanded() -> None:
    glue, document = started()
    click(document.getElementById("menu-button"))
    assert glue.is_open
    assert document.body.dataset.openDrawer == "menu"
    assert document.getElementById("menu-button").getAttribute("aria-expanded") == "true"
    assert document.getElementById("folders-button").getAttribute("aria-expanded") == "false"
    assert document.activeElement is document.getElementById("theme-toggle")  # the first enabled


def test_choosing_in_a_drawer_closes_it_and_gives_its_button_the_focus() -> None:
    glue, document = started()
    click(document.getElementById("menu-button"))
    click(document.getElementById("help-button"))
    assert not glue.is_open
    assert document.body.dataset.openDrawer == ""
    assert document.activeElement is document.getElementById("menu-button")


def test_clicking_inside_without_choosing_keeps_it_open() -> None:
    glue, document = started()
    click(document.getElementById("folders-button"))
    assert document.activeElement is document.getElementById("cardiology")
    click(document.querySelector(".sidebar-head h2"))
    assert glue.is_open
    assert document.body.dataset.openDrawer == "folders"


def test_escape_and_navigation_close_it() -> None:
    glue, document = started()
    click(document.getElementById("folders-button"))
    glue.close()
    assert not glue.is_open
    assert document.activeElement is document.getElementById("folders-button")
    click(document.getElementById("menu-button"))
    dispatch(js.window, Event("hashchange"))
    assert not glue.is_open
    assert document.body.dataset.openDrawer == ""


def test_a_click_on_text_is_read_from_its_element() -> None:
    glue, document = started()
    click(document.getElementById("menu-button").firstChild)  # the ☰ text node itself
    assert not glue.is_open  # a text node has no `closest`: the click is not the button's
