"""Immutable element tree that the browser layer turns into DOM: the app's XSS boundary.

The browser layer builds DOM from these nodes with createElement (createElementNS for the
SVG_TAGS), setAttribute and createTextNode only (never innerHTML). User data may only ever
travel in text nodes and in ordinary attribute values, so everything that could execute
code — dangerous tags, event-handler attributes, styles, script-capable URLs — is rejected
here when an element is constructed. A violation is a programming error and raises ValueError.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TypeAlias

ALLOWED_TAGS: frozenset[str] = frozenset(
    {
        *("div", "span", "p", "a", "button", "input", "textarea", "select", "option"),
        *("label", "form", "ul", "ol", "li", "nav", "header", "main", "aside", "section"),
        *("h1", "h2", "h3", "h4", "h5", "h6", "strong", "em", "del", "code", "pre"),
        *("blockquote", "hr", "br", "table", "thead", "tbody", "tr", "th", "td"),
        *("dialog", "details", "summary", "kbd", "small", "mark", "time", "progress"),
        *("fieldset", "legend", "figure", "figcaption", "dl", "dt", "dd", "datalist"),
        *("svg", "path"),
    }
)

# Made in the SVG namespace (a drawing such as the pairing QR code). Only shapes: SVG's <a>,
# <use>, <image>, <foreignObject>, <script> and animations can navigate, load or run code.
SVG_TAGS: frozenset[str] = frozenset({"svg", "path"})
SVG_NAMESPACE = "http://www.w3.org/2000/svg"
# SVG attribute names are case-sensitive: the few with capitals, allowed by name.
CASED_ATTRS: frozenset[str] = frozenset({"viewBox"})

# Names that load resources, navigate, restyle or upgrade elements. Several only
# matter on tags we do not allow today; refusing them keeps that safe if the tag
# list ever grows.
FORBIDDEN_ATTRS: frozenset[str] = frozenset(
    {
        *("style", "srcdoc", "src", "srcset", "action", "formaction", "xmlns", "is"),
        *("ping", "poster", "background", "data", "codebase", "manifest", "http-equiv"),
    }
)

URL_ATTRS: frozenset[str] = frozenset({"href", "cite"})

_ATTR_NAME = re.compile(r"[a-z][a-z0-9-]*")
# The value must *literally* start with an allowed scheme or "#": browsers strip
# tabs/newlines and leading controls before parsing a scheme, so any such
# character anywhere is refused rather than reasoned about.
_SAFE_URL_START = re.compile(r"(?:https?:|mailto:|#)", re.IGNORECASE)
_URL_BAD_CHAR = re.compile(r"[\s\x00-\x1f\x7f-\x9f]")


# Elements whose DOM keeps live state the tree does not describe (typed text, an open
# <details>): a redraw must rebuild them rather than reuse the old DOM (see app.ui.diff).
LIVE_TAGS: frozenset[str] = frozenset(
    {"form", "input", "textarea", "select", "option", "details", "dialog"}
)


@dataclass(frozen=True, slots=True)
class El:
    """An HTML element: allowed tag, validated attributes and child nodes. `live` says whether
    it is, or contains, an element of LIVE_TAGS."""

    tag: str
    attrs: Mapping[str, str]
    children: tuple[Node, ...]
    live: bool = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        _check_tag(self.tag)
        # Copy so a caller cannot mutate the mapping after it was validated.
        attrs = MappingProxyType(dict(self.attrs))
        for name, value in attrs.items():
            _check_attr(name, value)
        live = self.tag in LIVE_TAGS
        for child in self.children:
            if isinstance(child, El):
                live = live or child.live
            elif not isinstance(child, str):
                raise TypeError(f"child must be El or str, not {type(child).__name__}")
        object.__setattr__(self, "attrs", attrs)
        object.__setattr__(self, "children", tuple(self.children))
        object.__setattr__(self, "live", live)

    def __hash__(self) -> int:
        return hash((self.tag, frozenset(self.attrs.items()), self.children))


Node: TypeAlias = El | str
"""A DOM node: an element, or a string that becomes a text node."""

AttrValue: TypeAlias = str | bool | int | None
Child: TypeAlias = "Node | Iterable[Child] | bool | None"


def h(tag: str, attrs: Mapping[str, AttrValue] | None = None, *children: Child) -> El:
    """Build an element, flattening iterables of children and dropping None/False.

    Attribute values: True gives a boolean attribute (""), False/None omit it,
    ints are stringified.
    """
    return El(tag, _convert_attrs(attrs or {}), tuple(_flatten(children)))


def is_safe_href(value: str) -> bool:
    """Whether a URL is an http(s) or mailto link, or a same-page fragment."""
    return bool(_SAFE_URL_START.match(value)) and not _URL_BAD_CHAR.search(value)


def walk(node: Node) -> Iterator[Node]:
    """Yield node and all its descendants in document order, without recursion."""
    stack: list[Node] = [node]
    while stack:
        current = stack.pop()
        yield current
        if isinstance(current, El):
            stack.extend(reversed(current.children))


def text_content(node: Node) -> str:
    """Concatenated text of all text nodes, like the DOM's textContent."""
    return "".join(part for part in walk(node) if isinstance(part, str))


def find_all(node: Node, predicate: Callable[[El], bool]) -> list[El]:
    """All elements (node included) matching predicate, in document order."""
    return [el for el in walk(node) if isinstance(el, El) and predicate(el)]


def _check_tag(tag: str) -> None:
    if tag not in ALLOWED_TAGS:
        raise ValueError(f"tag not allowed: {tag!r}")


# Attribute names come from code, so the same few dozen recur in every render: each is
# checked once. (Values are checked every time.)
_NAMES_ALLOWED: set[str] = set()


def _check_attr(name: str, value: str) -> None:
    if name not in _NAMES_ALLOWED:
        well_formed = _ATTR_NAME.fullmatch(name) or name in CASED_ATTRS
        if not well_formed or name.startswith("on") or name in FORBIDDEN_ATTRS:
            raise ValueError(f"attribute not allowed: {name!r}")
        _NAMES_ALLOWED.add(name)
    if not isinstance(value, str):
        raise TypeError(f"attribute {name!r} must be str, not {type(value).__name__}")
    if name in URL_ATTRS and not is_safe_href(value):
        raise ValueError(f"unsafe URL in {name!r}: {value!r}")


def _convert_attrs(attrs: Mapping[str, AttrValue]) -> dict[str, str]:
    converted: dict[str, str] = {}
    for name, value in attrs.items():
        if value is None or value is False:
            continue
        if value is True:
            converted[name] = ""
        elif isinstance(value, str | int):
            converted[name] = str(value)
        else:
            raise TypeError(f"attribute {name!r} has unsupported type {type(value).__name__}")
    return converted


def _flatten(children: Iterable[Child]) -> Iterator[Node]:
    for child in children:
        if child is None or child is False:
            continue
        if child is True:
            raise TypeError("True is not a valid child (did you mean `cond and node`?)")
        if isinstance(child, El | str):
            yield child
        else:
            yield from _flatten(child)
