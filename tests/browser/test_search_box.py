"""Search as you type, driven by keys as a person would: results, arrows, Enter, Escape."""

from __future__ import annotations

from typing import Any

import js

from app.browser.search_box import SearchBox
from app.inputs import NewFolder, NewWord
from app.store import Store
from app.ui.controller import Controller
from tests.browser.fakes import Document, Event, dispatch, load_shell


def listen(target: Any, type_: str, handler: Any) -> None:
    target.addEventListener(type_, handler)


def search_box(studied: list[str]) -> tuple[SearchBox, Document]:
    document = load_shell()
    store = Store.open()
    folder = store.create_folder(NewFolder(name="Cardiology"))
    for term in ("heart", "heartbeat"):
        store.add_word(NewWord(folder_id=folder.id, term=term))
    box = SearchBox(Controller(store), studied.append)
    box.start(listen)
    return box, document


def type_in(document: Document, text: str) -> None:
    field = document.getElementById("search")
    field.value = text
    dispatch(field, Event("input"))


def press(document: Document, key: str) -> Event:
    return dispatch(document.getElementById("search"), Event("keydown", key=key))


def selected(document: Document) -> list[str]:
    return [
        hit.id
        for hit in document.querySelectorAll(".search-hit")
        if hit.getAttribute("aria-selected") == "true"
    ]


def test_typing_shows_results_with_the_first_selected() -> None:
    box, document = search_box([])
    type_in(document, "heart")
    search = document.getElementById("search")
    assert box.is_open()
    assert search.getAttribute("aria-expanded") == "true"
    assert len(document.querySelectorAll(".search-hit")) == 3  # two words, then "Study them"
    assert selected(document) == ["search-hit-0"]
    assert search.getAttribute("aria-activedescendant") == "search-hit-0"


def test_arrows_move_through_results_and_wrap() -> None:
    _box, document = search_box([])
    type_in(document, "heart")
    assert press(document, "ArrowDown").defaultPrevented
    assert selected(document) == ["search-hit-1"]
    assert document.getElementById("search-hit-1").scrolled_into_view
    press(document, "ArrowUp")
    press(document, "ArrowUp")
    assert selected(document) == ["search-hit-2"]


def test_enter_opens_the_word_and_closes_the_list() -> None:
    box, document = search_box([])
    type_in(document, "heart")
    press(document, "Enter")
    assert js.location.hash.startswith("#/folder/")
    assert "/word/" in js.location.hash
    assert not box.is_open()
    assert not document.getElementById("search").hasAttribute("aria-activedescendant")


def test_enter_on_the_last_option_studies_the_words_found() -> None:
    studied: list[str] = []
    _box, document = search_box(studied)
    type_in(document, "  heart ")
    press(document, "ArrowUp")
    press(document, "Enter")
    assert studied == ["heart"]
    assert js.location.hash == ""


def test_escape_an_empty_box_and_a_click_elsewhere_close_the_list() -> None:
    box, document = search_box([])
    type_in(document, "heart")
    press(document, "Escape")
    assert not box.is_open()
    type_in(document, "heart")
    type_in(document, "   ")
    assert not box.is_open()
    type_in(document, "heart")
    dispatch(document.getElementById("search-results").firstChild, Event("pointerdown"))
    assert box.is_open()
    dispatch(document.getElementById("main"), Event("pointerdown"))
    assert not box.is_open()


def test_no_match_says_so_and_selects_nothing() -> None:
    box, document = search_box([])
    type_in(document, "zebra")
    assert box.is_open()
    assert selected(document) == []
    assert "Nothing matches “zebra”." in document.getElementById("search-results").text
    press(document, "Enter")
    assert js.location.hash == ""
