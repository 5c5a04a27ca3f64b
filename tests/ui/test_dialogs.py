"""Closing a dialog never loses typed or pasted text without asking first."""

from __future__ import annotations

from app.domain import Folder
from app.text.nodes import El, find_all, text_content
from app.ui import dialogs


def test_a_dialog_without_typed_text_closes_at_once() -> None:
    assert dialogs.on_close_request(unsaved=False, asking=False) == "close"


def test_typed_text_is_asked_about_and_esc_while_asking_keeps_it() -> None:
    assert dialogs.on_close_request(unsaved=True, asking=False) == "ask"
    assert dialogs.on_close_request(unsaved=True, asking=True) == "keep"


def test_the_question_offers_keeping_first_and_discarding_second() -> None:
    question = dialogs.discard_question(dialogs.DISCARD_PASTED)
    assert question.attrs["aria-label"] == "Discard the pasted text?"
    buttons = find_all(question, lambda el: el.tag == "button")
    assert [(b.attrs["data-action"], text_content(b)) for b in buttons] == [
        ("keep-text", "Keep editing"),
        ("discard-text", "Discard"),
    ]


def test_bulk_paste_says_what_would_be_lost() -> None:
    fields = {"id": 1, "parent_id": None, "name": "Spanish", "emoji": "", "color": "none"}
    folder = Folder(**{**fields, "created_at": 1, "updated_at": 1})
    forms: list[El] = find_all(dialogs.bulk_dialog(folder, "", None), lambda el: el.tag == "form")
    assert forms[0].attrs["data-discard"] == "Discard the pasted text?"
