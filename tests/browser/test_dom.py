"""The DOM helpers: building safe elements, patching a region, null-aware lookups."""

from __future__ import annotations

import js
import pytest
from pyodide.ffi import jsnull

from app.browser import dom
from app.browser.dom import Region, by_id, data, found, js_object, measured, replace_children
from app.text.nodes import El, h
from app.ui.diff import the_form
from tests.browser.fakes import Document, Element


def test_text_stays_text_and_attributes_are_set_one_by_one(document: Document) -> None:
    replace_children(document.body, h("p", {"class": "note"}, "<b>bold?</b>"))
    paragraph = document.body.firstChild
    assert paragraph.tagName == "P"
    assert paragraph.getAttribute("class") == "note"
    assert paragraph.querySelector("b") is jsnull
    assert paragraph.text == "<b>bold?</b>"


def test_svg_elements_are_made_in_the_svg_namespace(document: Document) -> None:
    replace_children(document.body, h("div", {}, h("svg", {"viewBox": "0 0 2 2"}, h("path", {}))))
    box = document.body.firstChild
    drawing = box.firstChild
    assert box.namespaceURI == "http://www.w3.org/1999/xhtml"
    assert drawing.namespaceURI == drawing.firstChild.namespaceURI == "http://www.w3.org/2000/svg"
    assert drawing.getAttribute("viewBox") == "0 0 2 2"


def test_a_textarea_shows_its_text_as_its_value(document: Document) -> None:
    replace_children(document.body, h("textarea", {"name": "meaning"}, "heart muscle"))
    assert document.body.firstChild.value == "heart muscle"
    assert len(document.body.firstChild.childNodes) == 0


def test_a_region_replaces_only_what_changed(document: Document) -> None:
    region = Region(document.body)
    region.show(h("ul", {}, h("li", {}, "one"), h("li", {}, "two")))
    first, second = document.body.querySelectorAll("li")
    region.show(h("ul", {}, h("li", {}, "one"), h("li", {}, "TWO"), h("li", {}, "three")))
    items = document.body.querySelectorAll("li")
    assert [li.text for li in items] == ["one", "TWO", "three"]
    assert items[0] is first
    assert items[1] is second  # only the changed text was replaced


def test_a_redraw_keeps_typed_text_except_in_the_form_whose_action_ran(document: Document) -> None:
    def page(heading: str) -> El:
        return h(
            "div",
            {},
            h("h1", {}, heading),
            h("form", {"data-action": "save-word"}, h("input", {"name": "term"})),
        )

    region = Region(document.body)
    region.show(page("Verbs"))
    document.body.querySelector("input").value = "half-typed"
    region.show(page("Verbs (1)"))  # redrawn for another reason
    assert document.body.querySelector("input").value == "half-typed"
    region.show(page("Verbs (2)"), the_form("save-word", None))
    assert document.body.querySelector("input").value == ""


def test_a_region_rebuilds_when_the_page_was_changed_under_it(document: Document) -> None:
    region = Region(document.body)
    region.show(h("ul", {}, h("li", {}, "one")))
    document.body.querySelector("li").remove()  # something else took the row away
    region.show(h("ul", {}, h("li", {}, "uno")))
    assert [li.text for li in document.body.querySelectorAll("li")] == ["uno"]


def test_lookups_tell_null_and_undefined_from_elements(document: Document) -> None:
    document.body.appendChild(Element("div", {"id": "toast", "data-kind": "info"}))
    assert found(by_id("toast"))
    assert not found(by_id("missing"))
    assert not found(None)
    assert not found(jsnull)
    assert data(by_id("toast"), "kind") == "info"
    assert data(by_id("toast"), "other") is None


def test_options_bags_are_plain_objects() -> None:
    assert js_object(block="nearest").block == "nearest"


def test_measured_spans_are_named_and_closed_after_errors() -> None:
    try:
        with measured("search"):
            raise ValueError("boom")
    except ValueError:
        pass
    assert js.performance.measures == ["lexical:search"]


def test_a_long_session_keeps_a_bounded_timeline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dom, "SPANS_KEPT", 5)
    monkeypatch.setattr(dom._timeline, "spans", 0)
    for _ in range(12):
        with measured("dom"):
            pass
    assert len(js.performance.measures) == 2  # cleared after the 5th and the 10th
