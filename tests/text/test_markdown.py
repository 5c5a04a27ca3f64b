"""Tests for safe Markdown rendering into the element tree (app.text.markdown)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.text.markdown import MAX_DEPTH, MAX_SOURCE_CHARS, plain_text, render_ast, render_markdown
from app.text.nodes import ALLOWED_TAGS, El, Node, find_all, h, is_safe_href, text_content
from tests.bounded import finishes


def render(source: str) -> El:
    """Wrap the rendered nodes in one element so the helpers can walk them."""
    return h("div", None, render_markdown(source))


def tags(source: str) -> list[str]:
    return [el.tag for el in find_all(render(source), lambda _: True)][1:]


def only(source: str, tag: str) -> El:
    found = find_all(render(source), lambda el: el.tag == tag)
    assert len(found) == 1, found
    return found[0]


def assert_safe(nodes: tuple[Node, ...]) -> None:
    for el in find_all(h("div", None, nodes), lambda _: True):
        assert el.tag in ALLOWED_TAGS
        assert el.tag != "img"
        for name, value in el.attrs.items():
            assert not name.startswith("on")
            assert name not in {"style", "src", "srcdoc"}
            if name == "href":
                assert is_safe_href(value)


# --- constructs ---------------------------------------------------------------


def test_empty_source_renders_nothing() -> None:
    assert render_markdown("") == ()
    assert render_markdown("\n\n  \n") == ()


def test_paragraphs() -> None:
    assert render_markdown("one\n\ntwo") == (h("p", None, "one"), h("p", None, "two"))


@pytest.mark.parametrize(
    ("source", "tag"),
    [("# a", "h3"), ("## a", "h4"), ("### a", "h5"), ("#### a", "h6"), ("###### a", "h6")],
)
def test_headings_are_shifted_below_page_headings(source: str, tag: str) -> None:
    assert render_markdown(source) == (h(tag, None, "a"),)


def test_setext_heading() -> None:
    assert render_markdown("Title\n=====") == (h("h3", None, "Title"),)


def test_inline_formatting() -> None:
    (para,) = render_markdown("*e* **s** ~~d~~ `c <b>`")
    assert para == h(
        "p",
        None,
        h("em", None, "e"),
        " ",
        h("strong", None, "s"),
        " ",
        h("del", None, "d"),
        " ",
        h("code", None, "c <b>"),
    )


def test_entities_in_text_are_decoded_but_not_in_code() -> None:
    assert text_content(render("AT&amp;T &lt;b&gt; `&amp;`")) == "AT&T <b> &amp;"


def test_fenced_and_indented_code_blocks_are_text_only() -> None:
    nodes = render_markdown("```html\n<script>x</script>\n```\n\n    indented *not em*")
    assert nodes == (
        h("pre", None, h("code", None, "<script>x</script>\n")),
        h("pre", None, h("code", None, "indented *not em*")),
    )


def test_block_quote() -> None:
    assert render_markdown("> quoted") == (h("blockquote", None, h("p", None, "quoted")),)


def test_unordered_list() -> None:
    assert render_markdown("- a\n- b") == (h("ul", None, h("li", None, "a"), h("li", None, "b")),)


def test_ordered_list_keeps_start() -> None:
    (ol,) = render_markdown("3. a\n4. b")
    assert ol == h("ol", {"start": 3}, h("li", None, "a"), h("li", None, "b"))
    (ol1,) = render_markdown("1. a")
    assert isinstance(ol1, El)
    assert "start" not in ol1.attrs


def test_loose_list_items_keep_paragraphs() -> None:
    (ul,) = render_markdown("- a\n\n- b")
    assert ul == h("ul", None, h("li", None, h("p", None, "a")), h("li", None, h("p", None, "b")))


def test_nested_list() -> None:
    assert tags("- a\n  - b") == ["ul", "li", "ul", "li"]


def test_safe_link() -> None:
    link = only('[word](https://example.com/x?a=1&b=2 "Title")', "a")
    assert dict(link.attrs) == {
        "href": "https://example.com/x?a=1&b=2",
        "title": "Title",
        "rel": "noopener noreferrer nofollow",
        "target": "_blank",
    }
    assert link.children == ("word",)


def test_mailto_and_autolinks() -> None:
    hrefs = [
        el.attrs["href"]
        for el in find_all(
            render("<https://a.example> <me@example.com> <mailto:x@y.z>"), lambda e: e.tag == "a"
        )
    ]
    assert hrefs == ["https://a.example", "mailto:me@example.com", "mailto:x@y.z"]


def test_bare_url_is_linked() -> None:
    assert only("see https://example.com now", "a").attrs["href"] == "https://example.com"


def test_thematic_break_and_line_breaks() -> None:
    assert tags("a  \nb\\\nc\n\n---") == ["p", "br", "br", "hr"]
    assert text_content(render("a\nb")) == "a\nb"


def test_table() -> None:
    assert tags("| a | b |\n|---|---|\n| 1 | 2 |") == [
        "table",
        "thead",
        "tr",
        "th",
        "th",
        "tbody",
        "tr",
        "td",
        "td",
    ]


# --- hostile input ------------------------------------------------------------


@pytest.mark.parametrize(
    "source",
    [
        "<img src=x onerror=alert(1)>",
        "<script>alert(1)</script>",
        "text <img src=x onerror=alert(1)> inline",
        "text <script>alert(1)</script> inline",
        '<a href="javascript:alert(1)">x</a>',
        "<iframe srcdoc='<script>alert(1)</script>'></iframe>",
        "<style>body{display:none}</style>",
    ],
)
def test_raw_html_is_visible_text_never_elements(source: str) -> None:
    nodes = render_markdown(source)
    assert_safe(nodes)
    assert tags(source) in (["p"], [])
    raw = source.split(" inline", maxsplit=1)[0].removeprefix("text ")
    assert raw in text_content(render(source))


def test_multiline_block_html_keeps_its_text() -> None:
    source = "<div>\n<b onclick=alert(1)>hi</b>\n</div>"
    assert tags(source) == ["p"]
    assert "<b onclick=alert(1)>hi</b>" in text_content(render(source))


@pytest.mark.parametrize(
    "source",
    [
        "[x](javascript:alert(1))",
        "[x](  JAVASCRIPT:alert(1))",
        "[x](JaVaScRiPt:alert(1))",
        "[x](&#106;avascript:alert(1))",
        "[x](java&#x09;script:alert(1))",
        "[x](<java script:alert(1)>)",
        "[x](vbscript:x)",
        "[x](data:text/html;base64,PHNjcmlwdD4=)",
        "[x](/relative)",
        "[x](//evil.example)",
        "[x][r]\n\n[r]: javascript:alert(1)",
    ],
)
def test_unsafe_links_render_only_their_text(source: str) -> None:
    root = render(source)
    assert find_all(root, lambda el: el.tag == "a") == []
    assert text_content(root) == "x"


def test_javascript_autolink_is_plain_text() -> None:
    root = render("<javascript:alert(1)>")
    assert find_all(root, lambda el: el.tag == "a") == []
    assert "alert(1)" in text_content(root)


def test_images_render_as_alt_text_only() -> None:
    root = render("before ![a *b*](http://evil/x.png) after")
    assert tags("before ![a *b*](http://evil/x.png) after") == ["p"]
    assert text_content(root) == "before a b after"
    assert "evil" not in repr(root)


def test_image_inside_link_keeps_link() -> None:
    link = only("[![alt](http://evil/x.png)](https://ok.example)", "a")
    assert link.children == ("alt",)


def test_huge_input_is_truncated_with_visible_note() -> None:
    source = "word " * (MAX_SOURCE_CHARS // 2)
    nodes = render_markdown(source)
    text = text_content(h("div", None, nodes))
    assert len(text) <= MAX_SOURCE_CHARS + 100
    assert "…" in text
    assert "…" not in text_content(h("div", None, render_markdown("word " * 10)))


def depth(node: Node) -> int:
    deepest, stack = 0, [(node, 0)]
    while stack:
        current, level = stack.pop()
        deepest = max(deepest, level)
        if isinstance(current, El):
            stack.extend((child, level + 1) for child in current.children)
    return deepest


@pytest.mark.parametrize(
    "source",
    [
        ">" * 50_000 + " deep",
        "> " * 20_000 + "deep",
        "".join("  " * i + "- deep\n" for i in range(1_000)),
        "- " * 10_000 + "deep",
        "1. > " * 5_000 + "deep",
        "[" * 20_000 + "deep" + "](http://x)" * 20_000,
        "*" * 5_000 + "deep" + "*" * 5_000,
        "_" * 5_000 + "deep" + "_" * 5_000,
        "x" + "~~" * 5_000 + "deep" + "~~" * 5_000,
        "![" * 10_000 + "deep",
        "<" * 20_000 + "deep",
        "x" + "`" * 20_000 + "deep",
    ],
)
def test_pathological_nesting_is_bounded(source: str) -> None:
    nodes = render_markdown(source)
    assert_safe(nodes)
    assert depth(h("div", None, nodes)) <= 40
    assert "deep" in text_content(h("div", None, nodes))


@pytest.mark.parametrize(
    "source",
    [
        "\n".join(">" * level + f" level{level}" for level in range(60)),
        "".join("  " * level + f"- level{level}\n" for level in range(60)),
    ],
)
def test_deep_markdown_beyond_the_limit_keeps_its_text(source: str) -> None:
    text = text_content(render(source))
    assert "level1" in text
    assert "level59" in text


def nested_emphasis(levels: int) -> list[dict[str, Any]]:
    token: dict[str, Any] = {"type": "text", "raw": "core"}
    for level in range(levels):
        token = {"type": "emphasis", "children": [{"type": "text", "raw": f"<{level}>"}, token]}
    return [token]


def test_own_depth_limit_flattens_deep_ast_to_text() -> None:
    root = h("div", None, render_ast(nested_emphasis(10_000)))
    assert depth(root) <= MAX_DEPTH + 1
    text = text_content(root)
    assert text.startswith("<9999><9998>")
    assert text.endswith("<1><0>core")


def test_shallow_ast_is_not_flattened() -> None:
    root = h("div", None, render_ast(nested_emphasis(3)))
    assert depth(root) == 4


def test_unknown_tokens_render_children_raw_text_or_nothing() -> None:
    tokens: list[dict[str, Any]] = [
        {"type": "mystery_block", "children": [{"type": "text", "raw": "kids"}]},
        {"type": "mystery_inline", "raw": "<raw>"},
        {"type": "mystery_empty"},
        {"type": "mystery_odd", "children": "not a list", "raw": 42},
        {"no_type": True},
        {"type": "paragraph", "children": [{"type": "text", "raw": "ok"}]},
    ]
    assert render_ast(tokens) == ("kids<raw>", h("p", None, "ok"))


# --- plain text ---------------------------------------------------------------


def test_plain_text_is_readable() -> None:
    source = (
        "# Title\n\nSome *soft* text\nwraps.\n\n"
        "- one\n- [two](javascript:x)\n\n<b>raw</b>\n\n![pic](x.png)"
    )
    assert plain_text(source) == "Title\nSome soft text wraps.\none\ntwo\n<b>raw</b>\npic"


def test_plain_text_of_table_and_code() -> None:
    source = "| a | b |\n|---|---|\n| 1 | 2 |\n\n```\nx = 1\n```"
    assert plain_text(source) == "a b\n1 2\nx = 1"


def test_plain_text_notes_truncation() -> None:
    assert plain_text("x" * (MAX_SOURCE_CHARS + 10)).splitlines()[-1].startswith("…")


# --- properties ---------------------------------------------------------------

FRAGMENTS = st.sampled_from(
    [
        "a",
        " ",
        "\n",
        "\n\n",
        "<",
        ">",
        "[",
        "]",
        "(",
        ")",
        "*",
        "_",
        "~~",
        "`",
        "```",
        "!",
        "#",
        "- ",
        "1. ",
        "|",
        "---",
        "\\",
        "&#106;",
        "&amp;",
        "javascript:",
        "JaVaScRiPt:",
        "http://x",
        "mailto:a@b",
        "data:",
        "<script>",
        "<img src=x onerror=alert(1)>",
        '<a href="javascript:x">',
        "onclick=",
        "    ",
        "\t",
        "\x00",
    ]
)
MARKDOWNISH = st.lists(FRAGMENTS, max_size=40).map("".join)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=200), MARKDOWNISH))
def test_any_text_renders_safely(source: str) -> None:
    nodes = render_markdown(source)
    assert_safe(nodes)
    assert isinstance(plain_text(source), str)


HTML_TAGS = st.sampled_from(["script", "img", "iframe", "svg", "object", "style", "b", "a", "div"])
HTML_ATTRS = st.sampled_from(
    ["onerror=alert(1)", 'src="x"', "href=javascript:alert(1)", "style=x:y"]
)


@settings(max_examples=100, deadline=None)
@given(HTML_TAGS, HTML_ATTRS, st.sampled_from(["", "text before ", "- ", "> "]))
def test_hostile_html_appears_as_text(tag: str, attr: str, prefix: str) -> None:
    markup = f"<{tag} {attr}>"
    nodes = render_markdown(prefix + markup + "payload")
    assert_safe(nodes)
    assert markup in text_content(h("div", None, nodes))


def _deepest_unclosed(text: str) -> int:
    depth = deepest = 0
    escaped = False
    for char in text:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "[":
            depth += 1
            deepest = max(deepest, depth)
        elif char == "]":
            depth = max(depth - 1, 0)
    return deepest


@pytest.mark.parametrize(
    "source",
    ["[" * 5_000 + "x", "[a" * 5_000, "[ " * 3_000 + "]" * 10, "\\[" * 9_000 + "[" * 9_000],
)
def test_bracket_storms_reach_the_parser_escaped_and_show_as_text(
    source: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each unclosed "[" is a level of C recursion in mistune: thousands overflow the browser's
    # stack and stop Python mid-write (a note not saved, the workspace left busy).
    from app.text import markdown  # noqa: PLC0415

    seen: list[str] = []
    parse = markdown._parser()
    monkeypatch.setattr(markdown, "_parser", lambda: lambda text: seen.append(text) or parse(text))
    text = text_content(render(source))
    assert _deepest_unclosed(seen[0]) <= markdown.MAX_OPEN_BRACKETS
    assert text.count("[") == source.replace("\\[", "[").count("[")


def test_links_and_brackets_within_the_limit_are_untouched() -> None:
    source = "[" * 100 + " [Lexical](https://example.org) and [1]"
    assert only(source, "a").attrs["href"] == "https://example.org"
    assert "[1]" in text_content(render(source))


ADVERSARIAL = [
    "*" * 100_000,
    "[" * 100_000,
    "`" * 100_000,
    "_a" * 50_000,
    "<" * 100_000,
    "![" * 50_000,
    "**a" * 33_000,
    "> " * 50_000,
    "1. " * 33_000,
    "<!--" * 25_000,
    "[a](" * 25_000,
]


def _render_all(sources: list[str]) -> int:
    return sum(len(render_markdown(source)) for source in sources)


def test_markdown_of_100_kb_built_to_be_slow_is_read_in_bounded_time() -> None:
    """The Scholar's answers and notes go through mistune's patterns too (decision 033)."""
    assert finishes(_render_all, ADVERSARIAL) >= 0
