"""Keyboard shortcuts: whose Ctrl+Z it is, what Escape closes, and keys typed into fields."""

from __future__ import annotations

from typing import Any

import js

from app.browser.closing import DialogCloser
from app.browser.drawers import DrawerGlue
from app.browser.keys import Shortcuts
from app.browser.search_box import SearchBox
from app.inputs import NewFolder
from app.store import Store
from app.ui.controller import Controller
from app.ui.routes import Route
from tests.browser.fakes import Document, Element, Event, dispatch, load_shell


class Page:
    """The parts of app.browser.app.Page the shortcuts use, with `run` recorded."""

    def __init__(self, document: Document) -> None:
        self.controller = Controller(Store.open())
        self.dialog = document.getElementById("dialog")
        self.closer = DialogCloser(self.dialog)
        self.drawers = DrawerGlue()
        self.search = SearchBox(self.controller, lambda _query: None)
        self.ran: list[tuple[Any, ...]] = []

    def run(self, action: str, item_id: str | None = None) -> None:
        self.ran.append((action, item_id))


def keyboard() -> tuple[Shortcuts, Page, Document]:
    document = load_shell()
    document.getElementById("main").appendChild(Element("input", {"id": "word-new-term"}))
    page = Page(document)
    shortcuts = Shortcuts(page)
    document.addEventListener("keydown", shortcuts.on_keydown)
    document.addEventListener("input", shortcuts.on_input)
    return shortcuts, page, document


def press(target: Any, key: str, **modifiers: bool) -> Event:
    return dispatch(target, Event("keydown", key=key, **modifiers))


def type_into(field: Any, text: str) -> None:
    field.value = text
    dispatch(field, Event("input"))


def test_ctrl_z_undoes_the_last_change_outside_a_field() -> None:
    _keys, page, document = keyboard()
    assert press(document.body, "z", ctrlKey=True).defaultPrevented
    press(document.body, "Z", metaKey=True, shiftKey=True)
    press(document.body, "y", ctrlKey=True)
    assert page.ran == [("undo", None), ("redo", None), ("redo", None)]


def test_ctrl_z_in_a_field_typed_into_since_the_last_change_is_the_fields_own() -> None:
    keys, page, document = keyboard()
    field = document.getElementById("word-new-term")
    type_into(field, "myocard")
    assert not press(field, "z", ctrlKey=True).defaultPrevented
    assert page.ran == []
    keys.undo.changed()  # a change was saved after the typing: Ctrl+Z is the change's
    press(field, "z", ctrlKey=True)
    assert page.ran == [("undo", None)]


def test_letters_are_shortcuts_outside_fields_and_text_inside() -> None:
    _keys, page, document = keyboard()
    press(document.body, "?")
    press(document.body, "T")  # Caps Lock or Shift held
    press(document.getElementById("word-new-term"), "t")
    press(document.body, "t", isComposing=True)  # an input method is still composing
    assert page.ran == [("help", None), ("toggle-theme", None)]


def test_escape_asks_before_losing_typed_text_in_the_dialog() -> None:
    _keys, page, document = keyboard()
    dialog = page.dialog
    dialog.appendChild(Element("input", {"name": "term"}))
    dialog.open = True
    type_into(dialog.firstChild, "heart")
    press(dialog.firstChild, "Escape")
    assert dialog.open
    assert document.getElementById("discard-question").tagName == "DIV"


def test_escape_closes_an_open_drawer_then_leaves_a_field() -> None:
    _keys, page, document = keyboard()
    page.drawers.state.toggle("menu")
    press(document.body, "Escape")
    assert not page.drawers.is_open
    field = document.getElementById("word-new-term")
    field.focus()
    press(field, "Escape")
    assert document.activeElement is document.body


def test_n_goes_to_the_new_word_box_and_alt_up_to_the_parent_folder() -> None:
    _keys, page, document = keyboard()
    store = page.controller.store
    parent = store.create_folder(NewFolder(name="Medicine"))
    child = store.create_folder(NewFolder(name="Cardiology", parent_id=parent.id))
    page.controller.navigate(Route(child.id))
    press(document.body, "n")
    assert document.activeElement is document.getElementById("word-new-term")
    press(document.body, "ArrowUp", altKey=True)
    assert js.location.hash == Route(parent.id).to_hash()
    press(document.body, "f")
    assert page.ran == [("new-folder", str(child.id))]
