"""Closing the dialog: typed text is never lost to Esc or Cancel without a question."""

from __future__ import annotations

from typing import Any

import pytest
from pyodide.ffi import jsnull

from app.browser.closing import DialogCloser
from app.browser.dom import replace_children
from app.text.nodes import h
from tests.browser.fakes import Document, load_shell


def open_dialog(*fields: Any) -> tuple[DialogCloser, Document]:
    document = load_shell()
    dialog = document.getElementById("dialog")
    replace_children(dialog, h("form", {"data-discard": "Discard this word?"}, *fields))
    dialog.open = True
    return DialogCloser(dialog), document


def typed(document: Document, value: str) -> Any:
    field = document.querySelector("#dialog input, #dialog textarea")
    field.value = value
    field.setAttribute("data-typed", "1")
    return field


def test_an_untouched_dialog_closes_at_once() -> None:
    closer, document = open_dialog(h("input", {"name": "term"}))
    assert not closer.guards_escape()
    closer.request()
    assert not document.getElementById("dialog").open


def test_typed_text_asks_first_with_the_forms_own_question() -> None:
    closer, document = open_dialog(h("input", {"name": "term"}))
    typed(document, "myocardium")
    assert closer.guards_escape()
    closer.request()
    question = document.getElementById("discard-question")
    assert question.getAttribute("aria-label") == "Discard this word?"
    assert document.activeElement.getAttribute("data-action") == "keep-text"  # the safe answer
    assert document.getElementById("dialog").open


def test_keep_editing_removes_the_question_and_returns_to_the_field() -> None:
    closer, document = open_dialog(h("textarea", {"name": "meanings"}))
    field = typed(document, "heart muscle")
    closer.request()
    closer.request()  # Esc again while asking: keep, the safe answer
    assert document.getElementById("discard-question") is jsnull
    assert document.activeElement is field
    assert document.getElementById("dialog").open


def test_discarding_closes_the_dialog() -> None:
    closer, document = open_dialog(h("input", {"name": "term"}))
    typed(document, "myocardium")
    closer.request()
    closer.commands()["discard-text"](None, None)
    assert not document.getElementById("dialog").open


@pytest.mark.parametrize("value", ["", "   "])
def test_blank_typing_is_nothing_to_lose(value: str) -> None:
    closer, document = open_dialog(h("input", {"name": "term"}))
    typed(document, value)
    assert not closer.guards_escape()


def test_a_ticked_box_is_not_typing() -> None:
    closer, document = open_dialog(h("input", {"type": "checkbox", "name": "header"}))
    typed(document, "on")
    assert not closer.guards_escape()
