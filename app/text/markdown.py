"""Render untrusted Markdown (from users or models) into the safe element tree.

mistune parses the source into an AST; this module maps each token onto
`app.text.nodes` elements. Raw HTML is shown as literal text, images as their alt text
(the app is offline with a strict CSP, so nothing remote is ever loaded), and links
survive only for http(s)/mailto URLs. Input length and nesting depth are capped so
hostile input cannot exhaust time or the stack.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, TypeAlias

from app.text.nodes import Node, h, is_safe_href

MAX_SOURCE_CHARS = 100_000
# Token nesting rendered as elements; anything deeper becomes flat text. mistune
# caps its own nesting, but this keeps our recursion bounded whatever it returns.
MAX_DEPTH = 32
# Unclosed "[" nesting handed to mistune: its link parsing goes one level deeper in C for each,
# and a few thousand overflow the browser's stack, which stops Python mid-way (a note half
# saved, a busy flag never cleared). Deeper text has its brackets escaped: shown, never links.
MAX_OPEN_BRACKETS = 256
TRUNCATION_NOTE = "… (text truncated)"
LINK_ATTRS: Mapping[str, str] = {"rel": "noopener noreferrer nofollow", "target": "_blank"}

Token: TypeAlias = Mapping[str, Any]
_Renderer: TypeAlias = Callable[[Token, int], tuple[Node, ...]]


_BLOCK_TAGS = frozenset(
    {"p", "h3", "h4", "h5", "h6", "ul", "ol", "li", "blockquote", "pre", "hr"}
    | {"table", "thead", "tbody", "tr"}
)
_SPACES = r"\s+"


def render_markdown(source: str) -> tuple[Node, ...]:
    """Render Markdown to top-level nodes; never raises on any input text."""
    text, truncated = _limit(source)
    nodes = render_ast(_parse(text))
    if truncated:
        nodes += (h("p", {"class": "md-truncated"}, TRUNCATION_NOTE),)
    return nodes


def plain_text(source: str) -> str:
    """Readable plain text of the Markdown: one line per block, no markup."""
    raw = "".join(piece for node in render_markdown(source) for piece in _plain_pieces(node))
    lines = (re.sub(_SPACES, " ", line).strip() for line in raw.split("\n"))
    return "\n".join(line for line in lines if line)


def render_ast(tokens: Iterable[Token]) -> tuple[Node, ...]:
    """Render a mistune AST (list of token dicts); unknown or malformed tokens are tolerated."""
    return _render_all(tokens, 0)


def _limit(source: str) -> tuple[str, bool]:
    if len(source) <= MAX_SOURCE_CHARS:
        return source, False
    return source[:MAX_SOURCE_CHARS], True


@functools.cache
def _parser() -> Callable[[str], Any]:
    # Imported on first use: most screens show no note, and importing mistune costs about a
    # tenth of a second of startup in the browser.
    import mistune  # noqa: PLC0415

    return mistune.create_markdown(renderer=None, plugins=["strikethrough", "table", "url"])


_BRACKETS = r"(?s)\\.|[\[\]]"


def _defused(text: str) -> str:
    """`text`, with every "[" escaped when unclosed ones nest deeper than MAX_OPEN_BRACKETS."""
    depth = 0
    for found in re.finditer(_BRACKETS, text):
        mark = found.group()
        if mark == "[":
            depth += 1
            if depth > MAX_OPEN_BRACKETS:
                return re.sub(_BRACKETS, lambda m: "\\[" if m.group() == "[" else m.group(), text)
        elif mark == "]":
            depth = max(depth - 1, 0)
    return text


def _parse(text: str) -> Sequence[Token]:
    try:
        tokens = _parser()(_defused(text))
    except Exception:
        # A third-party parser on hostile input: showing the source verbatim is
        # always safe and better than breaking the page.
        return [{"type": "paragraph", "children": [{"type": "inline_html", "raw": text}]}]
    return tokens if isinstance(tokens, list) else []


def _render_all(tokens: Iterable[Any], depth: int) -> tuple[Node, ...]:
    return _merge_text(node for token in tokens for node in _render(token, depth))


def _render(token: Any, depth: int) -> tuple[Node, ...]:
    if not isinstance(token, Mapping):
        return ()
    if depth >= MAX_DEPTH:
        return (_flat_text(token),)
    renderer = _RENDERERS.get(str(token.get("type")), _unknown)
    return renderer(token, depth)


def _children(token: Token, depth: int) -> tuple[Node, ...]:
    children = token.get("children")
    return _render_all(children, depth + 1) if isinstance(children, list) else ()


def _raw(token: Token) -> str:
    raw = token.get("raw")
    return raw if isinstance(raw, str) else ""


def _attrs(token: Token) -> Mapping[str, Any]:
    attrs = token.get("attrs")
    return attrs if isinstance(attrs, Mapping) else {}


def _merge_text(nodes: Iterable[Node]) -> tuple[Node, ...]:
    """Join adjacent strings so the DOM gets one text node per run of text."""
    merged: list[Node] = []
    for node in nodes:
        if isinstance(node, str) and merged and isinstance(merged[-1], str):
            merged[-1] += node
        elif node != "":
            merged.append(node)
    return tuple(merged)


def _flat_text(token: Token) -> str:
    """All text under token, gathered without recursion (used past MAX_DEPTH)."""
    parts: list[str] = []
    stack: list[Any] = [token]
    while stack:
        current = stack.pop()
        if not isinstance(current, Mapping):
            continue
        parts.append(_token_text(current))
        children = current.get("children")
        if isinstance(children, list):
            stack.extend(reversed(children))
    return "".join(parts)


def _unescape(text: str) -> str:
    # Imported when a note is first rendered, as mistune is, not with the first screen: the
    # html package builds its table of 2,231 named references as it is imported.
    from html import unescape  # noqa: PLC0415

    return unescape(text)


def _token_text(token: Token) -> str:
    kind = token.get("type")
    if kind in ("linebreak", "softbreak"):
        return "\n"
    return _unescape(_raw(token)) if kind == "text" else _raw(token)


def _wrap(tag: str) -> _Renderer:
    def render(token: Token, depth: int) -> tuple[Node, ...]:
        return (h(tag, None, _children(token, depth)),)

    return render


def _const(*nodes: Node) -> _Renderer:
    return lambda _token, _depth: nodes


def _transparent(token: Token, depth: int) -> tuple[Node, ...]:
    return _children(token, depth)


def _unknown(token: Token, depth: int) -> tuple[Node, ...]:
    if isinstance(token.get("children"), list):
        return _children(token, depth)
    return (_raw(token),)


def _text(token: Token, _depth: int) -> tuple[Node, ...]:
    # mistune leaves entity references in text; CommonMark shows them decoded.
    return (_unescape(_raw(token)),)


def _literal(token: Token, _depth: int) -> tuple[Node, ...]:
    return (_raw(token),)


def _codespan(token: Token, _depth: int) -> tuple[Node, ...]:
    return (h("code", None, _raw(token)),)


def _block_code(token: Token, _depth: int) -> tuple[Node, ...]:
    return (h("pre", None, h("code", None, _raw(token))),)


def _block_html(token: Token, _depth: int) -> tuple[Node, ...]:
    return (h("p", None, _raw(token).strip("\n")),)


def _heading(token: Token, depth: int) -> tuple[Node, ...]:
    level = _attrs(token).get("level")
    level = level if isinstance(level, int) else 1
    # Rendered content sits under the page's own h1/h2, so "#" becomes h3.
    tag = f"h{min(max(level, 1) + 2, 6)}"
    return (h(tag, None, _children(token, depth)),)


def _list(token: Token, depth: int) -> tuple[Node, ...]:
    attrs = _attrs(token)
    start = attrs.get("start")
    if not attrs.get("ordered"):
        return (h("ul", None, _children(token, depth)),)
    has_start = isinstance(start, int) and start != 1
    return (h("ol", {"start": start if has_start else None}, _children(token, depth)),)


def _link(token: Token, depth: int) -> tuple[Node, ...]:
    attrs = _attrs(token)
    url, title = attrs.get("url"), attrs.get("title")
    children = _children(token, depth)
    if not isinstance(url, str) or not is_safe_href(url):
        return children
    title = _unescape(title) if isinstance(title, str) and title else None
    return (h("a", {"href": url, "title": title, **LINK_ATTRS}, children),)


def _image(token: Token, _depth: int) -> tuple[Node, ...]:
    children = token.get("children")
    alt = children if isinstance(children, list) else []
    return ("".join(_flat_text(child) for child in alt if isinstance(child, Mapping)),)


def _table_head(token: Token, depth: int) -> tuple[Node, ...]:
    return (h("thead", None, h("tr", None, _children(token, depth))),)


def _table_cell(token: Token, depth: int) -> tuple[Node, ...]:
    tag = "th" if _attrs(token).get("head") else "td"
    return (h(tag, None, _children(token, depth)),)


_RENDERERS: Mapping[str, _Renderer] = {
    "paragraph": _wrap("p"),
    "emphasis": _wrap("em"),
    "strong": _wrap("strong"),
    "strikethrough": _wrap("del"),
    "block_quote": _wrap("blockquote"),
    "list_item": _wrap("li"),
    "table": _wrap("table"),
    "table_body": _wrap("tbody"),
    "table_row": _wrap("tr"),
    "table_head": _table_head,
    "table_cell": _table_cell,
    "heading": _heading,
    "list": _list,
    "link": _link,
    "image": _image,
    "text": _text,
    "codespan": _codespan,
    "block_code": _block_code,
    "inline_html": _literal,
    "block_html": _block_html,
    "block_text": _transparent,
    "block_error": _transparent,
    "linebreak": _const(h("br")),
    "softbreak": _const("\n"),
    "thematic_break": _const(h("hr")),
    "blank_line": _const(),
}


def _plain_pieces(node: Node, in_pre: bool = False) -> Iterator[str]:
    """Text of a rendered tree with newlines marking block and line boundaries."""
    if isinstance(node, str):
        yield node if in_pre else re.sub(_SPACES, " ", node)
        return
    if node.tag == "br":
        yield "\n"
    is_block = node.tag in _BLOCK_TAGS
    if is_block:
        yield "\n"
    for child in node.children:
        yield from _plain_pieces(child, in_pre or node.tag == "pre")
    if node.tag in ("th", "td"):
        yield " "
    if is_block:
        yield "\n"
