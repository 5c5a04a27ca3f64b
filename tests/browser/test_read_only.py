"""A read-only tab shows its write controls as off, and a tab that becomes the writer undoes
exactly that."""

from __future__ import annotations

from app.browser.read_only import show_locks
from tests.browser.fakes import Document, Element, load_shell


def with_a_word_form() -> Document:
    document = load_shell()
    document.getElementById("main").appendChild(
        Element(
            "form",
            {"data-action": "save-word"},
            Element("input", {"name": "term"}),
            Element("button", {"type": "submit"}, "Save"),
            Element("button", {"type": "button", "data-action": "help"}, "Help"),
        )
    )
    return document


def dimmed(document: Document) -> list[str]:
    return [
        e.id or e.text
        for e in document.querySelectorAll("[aria-disabled]")
        if e.getAttribute("aria-disabled") == "true"
    ]


def test_write_buttons_and_the_submit_of_write_forms_are_marked() -> None:
    document = with_a_word_form()
    show_locks(True)
    marked = dimmed(document)
    assert {"undo", "redo", "study-button", "new-root-folder", "Save"} <= set(marked)
    assert "help-button" not in marked
    assert "Help" not in marked  # reading stays possible
    assert "theme-toggle" not in marked


def test_marking_twice_marks_once_and_becoming_the_writer_unmarks_all() -> None:
    document = with_a_word_form()
    show_locks(True)
    first = dimmed(document)
    show_locks(True)
    assert dimmed(document) == first
    show_locks(False)
    assert dimmed(document) == []
    assert document.querySelectorAll("[data-locked]") == []
