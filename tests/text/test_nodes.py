"""Tests for the element tree that forms the app's XSS boundary (app.text.nodes)."""

from __future__ import annotations

import dataclasses

import pytest

from app.text.nodes import ALLOWED_TAGS, El, find_all, h, is_safe_href, text_content


def test_h_builds_element_with_text_and_children() -> None:
    tree = h("div", {"class": "card"}, h("p", None, "hello"), "world")
    assert tree == El("div", {"class": "card"}, (El("p", {}, ("hello",)), "world"))


def test_h_flattens_iterables_and_drops_none_and_false() -> None:
    items = (h("li", None, str(n)) for n in range(3))
    tree = h("ul", None, items, None, False, [[h("li", None, "x")], None])
    assert [text_content(child) for child in tree.children] == ["0", "1", "2", "x"]


def test_h_does_not_split_strings_into_characters() -> None:
    assert h("p", None, "abc").children == ("abc",)


def test_h_rejects_true_child() -> None:
    with pytest.raises(TypeError):
        h("p", None, True)


def test_h_converts_attribute_values() -> None:
    tree = h("input", {"disabled": True, "hidden": False, "title": None, "maxlength": 5})
    assert dict(tree.attrs) == {"disabled": "", "maxlength": "5"}


def test_h_rejects_non_scalar_attribute_value() -> None:
    with pytest.raises(TypeError):
        h("div", {"title": 1.5})  # type: ignore[dict-item]


def test_el_is_immutable_and_hashable() -> None:
    tree = h("p", {"class": "a"}, "x")
    with pytest.raises(dataclasses.FrozenInstanceError):
        tree.tag = "div"  # type: ignore[misc]
    with pytest.raises(TypeError):
        tree.attrs["class"] = "b"  # type: ignore[index]
    assert hash(tree) == hash(h("p", {"class": "a"}, "x"))


def test_el_copies_attrs_so_later_mutation_cannot_smuggle_handlers() -> None:
    attrs = {"class": "a"}
    tree = El("div", attrs, ())
    attrs["onclick"] = "alert(1)"
    assert "onclick" not in tree.attrs


@pytest.mark.parametrize(
    "tag",
    ["script", "img", "iframe", "style", "object", "DIV", "", "a b", "use", "foreignObject"],
)
def test_disallowed_tags_raise(tag: str) -> None:
    with pytest.raises(ValueError, match="tag not allowed"):
        h(tag)


def test_direct_construction_is_validated_too() -> None:
    with pytest.raises(ValueError, match="tag not allowed"):
        El("script", {}, ())
    with pytest.raises(ValueError, match="attribute not allowed"):
        El("div", {"onclick": "x"}, ())


def test_allowed_tags_cover_ordinary_html() -> None:
    for tag in ["div", "a", "button", "h1", "h6", "table", "dialog", "del", "kbd", "time"]:
        assert tag in ALLOWED_TAGS
        h(tag)
    assert "img" not in ALLOWED_TAGS


def test_svg_allows_shapes_and_its_cased_view_box_only() -> None:
    drawing = h("svg", {"viewBox": "0 0 8 8", "role": "img"}, h("path", {"d": "M0 0h1v1H0z"}))
    assert drawing.attrs["viewBox"] == "0 0 8 8"
    for name in ("viewBOX", "onLoad", "Href", "xmlns"):
        with pytest.raises(ValueError, match="attribute not allowed"):
            h("svg", {name: "x"})
    with pytest.raises(ValueError, match="unsafe URL"):
        h("path", {"href": "javascript:alert(1)"})


@pytest.mark.parametrize(
    "name",
    [
        "onclick",
        "onload",
        "ONCLICK",
        "onmouseover",
        "on",
        "style",
        "srcdoc",
        "src",
        "srcset",
        "action",
        "formaction",
        "xmlns",
        "is",
        "xlink:href",
        "1a",
        "a b",
        "a=b",
        "",
        "data_x",
    ],
)
def test_forbidden_attribute_names_raise(name: str) -> None:
    with pytest.raises(ValueError, match="attribute not allowed"):
        h("div", {name: "x"})


def test_ordinary_attributes_are_allowed() -> None:
    tree = h(
        "input", {"type": "text", "aria-label": "Word", "data-id": "7", "value": '"><x onerror=1>'}
    )
    assert tree.attrs["value"] == '"><x onerror=1>'


@pytest.mark.parametrize(
    "href",
    [
        "http://example.com",
        "https://example.com/a?b=1&c=2#d",
        "HTTPS://EXAMPLE.COM",
        "mailto:someone@example.com",
        "#section-2",
        "#",
    ],
)
def test_safe_hrefs_are_accepted(href: str) -> None:
    assert is_safe_href(href)
    assert h("a", {"href": href}).attrs["href"] == href


@pytest.mark.parametrize(
    "href",
    [
        "javascript:alert(1)",
        "JaVaScRiPt:alert(1)",
        " javascript:alert(1)",
        "\x00javascript:alert(1)",
        "java\tscript:alert(1)",
        "java\nscript:alert(1)",
        "&#106;avascript:alert(1)",
        "&#x6A;avascript:alert(1)",
        "javascript&colon;alert(1)",
        "vbscript:msgbox(1)",
        "data:text/html,<script>alert(1)</script>",
        "data:image/png;base64,AAAA",
        "file:///etc/passwd",
        "//evil.example/x",
        "/relative",
        "relative.html",
        "",
        " http://example.com",
        "http://exa mple.com",
        "http\t://example.com",
        "https://example.com/\u2028",
    ],
)
def test_unsafe_hrefs_raise(href: str) -> None:
    assert not is_safe_href(href)
    with pytest.raises(ValueError, match="unsafe URL in 'href'"):
        h("a", {"href": href})


def test_cite_is_checked_like_href() -> None:
    with pytest.raises(ValueError, match="unsafe URL in 'cite'"):
        h("blockquote", {"cite": "javascript:alert(1)"})


def test_text_content_concatenates_in_document_order() -> None:
    tree = h("div", None, "a", h("p", None, "b", h("em", None, "c")), "d")
    assert text_content(tree) == "abcd"
    assert text_content("plain") == "plain"


def test_find_all_returns_matching_elements_in_document_order() -> None:
    tree = h("div", None, h("p", {"id": "1"}, h("p", {"id": "2"})), h("span"), h("p", {"id": "3"}))
    found = find_all(tree, lambda el: el.tag == "p")
    assert [el.attrs["id"] for el in found] == ["1", "2", "3"]


def test_helpers_handle_very_deep_trees() -> None:
    tree: El = h("span", None, "x")
    for _ in range(5000):
        tree = El("span", {}, (tree,))
    assert text_content(tree) == "x"
    assert len(find_all(tree, lambda el: el.tag == "span")) == 5001
