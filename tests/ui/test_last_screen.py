"""The copy of the last screen keeps the sidebar, the main view and their route, in document
order, and never grows past its cap whatever the words hold."""

from __future__ import annotations

import json
from typing import Any

from app.store import Store
from app.text.nodes import El, h
from app.ui.controller import Controller
from app.ui.last_screen import LIMIT, last_screen
from app.ui.routes import Route


def _units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _texts(data: Any) -> list[str]:
    if isinstance(data, str):
        return [data]
    return [t for child in data[2] for t in _texts(child)] if data else []


def _folder(words: int, meaning: str = "a meaning of some length") -> El:
    rows = (
        h("li", {"class": "word", "data-word-id": str(i)}, h("strong", None, f"word {i}"), meaning)
        for i in range(words)
    )
    return h("section", {"class": "folder"}, h("h1", None, "Biology"), h("ul", None, *rows))


def test_a_screen_is_kept_with_its_route() -> None:
    ui = Controller(Store.open())
    ui.dispatch("save-folder", None, {"name": "Biology", "emoji": "", "color": "none"})
    ui.navigate(Route(folder_id=1))
    copy = json.loads(last_screen("#/folder/1", ui.render_tree(), ui.render_main()))
    assert copy["format"] == 1
    assert copy["route"] == "#/folder/1"
    assert "Biology" in _texts(copy["tree"])
    assert "Biology" in _texts(copy["main"])


def test_elements_keep_their_tag_and_attributes() -> None:
    view = h("p", {"class": "meta-line", "data-id": "3"}, "Hello ", h("em", None, "there"))
    copy = json.loads(last_screen("#/", None, view))
    assert copy["tree"] is None
    assert copy["main"] == [
        "p",
        {"class": "meta-line", "data-id": "3"},
        ["Hello ", ["em", {}, ["there"]]],
    ]


def test_a_huge_folder_keeps_its_first_rows_within_the_cap() -> None:
    text = last_screen("#/folder/1", None, _folder(5_000))
    assert _units(text) <= LIMIT
    texts = _texts(json.loads(text)["main"])
    assert texts[:2] == ["Biology", "word 0"]
    assert "word 100" in texts
    assert "word 4999" not in texts


def test_escaped_and_astral_text_still_fits() -> None:
    for hostile in ("\x01" * 300_000, '"\\' * 200_000, "𝄞" * 300_000, "</script>" * 50_000):
        text = last_screen("#/", _folder(3, hostile), _folder(3, hostile))
        assert _units(text) <= LIMIT
        assert json.loads(text)["route"] == "#/"
