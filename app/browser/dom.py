"""Turn the safe element tree (app.text.nodes) into DOM nodes, and keep page regions up to date
by patching only what changed between two renders (app.ui.diff).

Only createElement (createElementNS for SVG), setAttribute and createTextNode are used, never
innerHTML, so text from users or models can never become markup. Also: small DOM helpers, and
`measured` spans on the browser's performance timeline.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

import js
from pyodide.ffi import JsNull, jsnull, to_js

from app.text.nodes import SVG_NAMESPACE, SVG_TAGS, El, Node
from app.ui.diff import Fresh, Replace, diff

if TYPE_CHECKING:
    from typing import TypeIs  # Python 3.13+: only the checker needs it (tests run on 3.11)

T = TypeVar("T")

document = js.document


def to_dom(node: Node) -> Any:
    if isinstance(node, str):
        return document.createTextNode(node)
    if node.tag in SVG_TAGS:  # in the HTML namespace an <svg> would be an unknown element
        element = document.createElementNS(SVG_NAMESPACE, node.tag)
    else:
        element = document.createElement(node.tag)
    for name, value in node.attrs.items():
        element.setAttribute(name, value)
    if node.tag == "textarea":
        # A textarea's content is its value; text children would only set the default.
        element.value = "".join(c for c in node.children if isinstance(c, str))
        return element
    for child in node.children:
        element.appendChild(to_dom(child))
    return element


def replace_children(target: Any, *nodes: Node) -> None:
    with measured("dom"):
        fragment = document.createDocumentFragment()
        for node in nodes:
            fragment.appendChild(to_dom(node))
        target.replaceChildren(fragment)


# Given a DOM node about to be replaced: what to do to its replacement.
Keep = Callable[[Any], Callable[[Any], None]]


class Region:
    """A container showing one element tree; each update touches only what changed
    (app.ui.diff), falling back to a full rebuild if the DOM is not the shape expected."""

    def __init__(self, element: Any, keep: Keep = lambda _node: lambda _new: None) -> None:
        self.element = element
        self._shown: El | None = None
        self._keep = keep  # what a part about to be replaced holds that its replacement gets

    @property
    def shown(self) -> El | None:
        """The tree on screen (None until the first `show`)."""
        return self._shown

    def show(self, view: El, fresh: Fresh | None = None) -> None:
        """Draw `view`; elements `fresh` picks are drawn anew even if unchanged (app.ui.diff)."""
        if view is self._shown and fresh is None:  # the controller kept the same view
            return
        if self._shown is None or not self._patched(self._shown, view, fresh):
            replace_children(self.element, view)
        self._shown = view

    def _patched(self, old: El, new: El, fresh: Fresh | None) -> bool:
        with measured("dom"):
            for patch in diff(old, new, fresh):
                node = self.element.firstChild
                for index in patch.path:
                    node = node.childNodes.item(index) if found(node) else None
                if not found(node):
                    return False
                if isinstance(patch, Replace):
                    replacement, kept = to_dom(patch.node), self._keep(node)
                    node.replaceWith(replacement)
                    kept(replacement)
                else:
                    for child in patch.nodes:
                        node.appendChild(to_dom(child))
        return True


async def repaint() -> None:
    """Return once the browser has painted: after the next animation frame, a new task."""
    frame = js.Promise.new(lambda resolve, _reject: js.requestAnimationFrame(resolve))
    await frame
    await asyncio.sleep(0)


def by_id(element_id: str) -> Any:
    return document.getElementById(element_id)


def closest(event: Any, selector: str) -> Any:
    """The nearest ancestor of the event target matching `selector` (targets may be text)."""
    target = event.target
    return target.closest(selector) if hasattr(target, "closest") else None


def data(element: Any, name: str) -> str | None:
    """The element's `data-<name>` attribute, or None (a missing dataset key is not an error)."""
    attribute = f"data-{name}"
    # getAttribute gives JS null, which Pyodide maps to `jsnull`, not None: ask first.
    return str(element.getAttribute(attribute)) if element.hasAttribute(attribute) else None


def found(value: T | JsNull | None) -> TypeIs[T]:
    """True for a real DOM result; JS null arrives as `jsnull` and undefined as None."""
    return value is not None and value is not jsnull


def form_fields(form: Any) -> dict[str, str]:
    """A form's named fields and their values, as the browser would submit them."""
    return {str(k): str(v) for k, v in js.Array.from_(js.FormData.new(form).entries())}


def js_object(**values: Any) -> Any:
    """A plain JS object (options bags, records), not the Map that to_js makes of a dict."""
    return to_js(values, dict_converter=js.Object.fromEntries)


# The browser keeps every span and mark until cleared: after this many, they start again, so a
# long session's timeline stays small (a benchmark scenario takes far fewer).
SPANS_KEPT = 10_000


class _Timeline:
    spans = 0


_timeline = _Timeline()


@contextmanager
def measured(name: str) -> Iterator[None]:
    """A span on the browser's performance timeline, `performance.measure("lexical:<name>")`:
    visible in the DevTools Performance panel and read by `make bench` to split a figure into
    its parts (database load, first render, search, DOM building, snapshots). About a
    microsecond each, so they stay on."""
    start = js.performance.now()
    try:
        yield
    finally:
        js.performance.measure(f"lexical:{name}", js_object(start=start))
        _kept()


def mark(name: str) -> None:
    """A moment on the timeline, `performance.mark("lexical:<name>")`, for `make bench`."""
    js.performance.mark(f"lexical:{name}")
    _kept()


def _kept() -> None:
    _timeline.spans += 1
    if _timeline.spans >= SPANS_KEPT:
        js.performance.clearMeasures()
        js.performance.clearMarks()
        _timeline.spans = 0
